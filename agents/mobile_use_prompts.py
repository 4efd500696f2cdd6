"""The mobile_use tool prompts of Qwen2.5-VL, Qwen3-VL and GUI-Owl, the authors' text and schemas.

Sources (quoted, not changed):
- Qwen2.5-VL: QwenLM/Qwen3-VL (formerly Qwen2.5-VL) `cookbooks/utils/agent_function_call.py`, class
  MobileUse (description and parameters), as `cookbooks/mobile_agent.ipynb` used it with Qwen2.5-VL
  (commit d08310c): the system prompt "You are a helpful assistant." followed by qwen-agent's
  NousFnCallPrompt tool block, and the screen resolution of the smart-resized image.
- Qwen3-VL: the same notebook at commit 9658872, its literal `system_prompt` (resolution 999x999, an
  `answer` action, a "# Response format" section).
- GUI-Owl: X-PLUG/MobileAgent `Mobile-Agent-v3/android_world_v3/android_world/agents/
  function_call_mobile_answer.py`, class AndroidWorldMobileUse, and `mobile_agent_utils_new.py`
  (generate_user_prompt_single_image, build_system_messages).
- Qwen3-VL with ask_user: Tongyi-MAI/MobileWorld `src/mobile_world/agents/utils/prompts.py`
  MOBILE_QWEN3VL_PROMPT_WITH_ASK_USER (commit 6a4dec2), rendered with no MCP tools: the cookbook's tool
  plus an `ask_user` action, as MobileWorld's Qwen3VLAgentMCP sends it.
The NousFnCallPrompt block is taken from the Qwen3-VL literal, which is that block around the tool.
"""
# ruff: noqa: E501  (the authors' text verbatim)

from __future__ import annotations

from typing import Any

# qwen-agent's NousFnCallPrompt tool block, around json.dumps({"type": "function", "function": tool})
NOUS_TOOLS_PREFIX = '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n'
NOUS_TOOLS_SUFFIX = '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'

# {width} and {height} are replaced by the resolution of the image the model sees
QWEN25_MOBILE_USE: dict[str, Any] = {'name': 'mobile_use',
 'description': 'Use a touchscreen to interact with a mobile device, and take screenshots.\n'
                '* This is an interface to a mobile device with touchscreen. You can perform '
                'actions like clicking, typing, swiping, etc.\n'
                '* Some applications may take time to start or process actions, so you may need to '
                'wait and take successive screenshots to see the results of your actions.\n'
                "* The screen's resolution is {width}x{height}.\n"
                '* Make sure to click any buttons, links, icons, etc with the cursor tip in the '
                "center of the element. Don't click boxes on their edges unless asked.",
 'parameters': {'properties': {'action': {'description': 'The action to perform. The available '
                                                         'actions are:\n'
                                                         '* `key`: Perform a key event on the '
                                                         'mobile device.\n'
                                                         "    - This supports adb's `keyevent` "
                                                         'syntax.\n'
                                                         '    - Examples: "volume_up", '
                                                         '"volume_down", "power", "camera", '
                                                         '"clear".\n'
                                                         '* `click`: Click the point on the screen '
                                                         'with coordinate (x, y).\n'
                                                         '* `long_press`: Press the point on the '
                                                         'screen with coordinate (x, y) for '
                                                         'specified seconds.\n'
                                                         '* `swipe`: Swipe from the starting point '
                                                         'with coordinate (x, y) to the end point '
                                                         'with coordinates2 (x2, y2).\n'
                                                         '* `type`: Input the specified text into '
                                                         'the activated input box.\n'
                                                         '* `system_button`: Press the system '
                                                         'button.\n'
                                                         '* `open`: Open an app on the device.\n'
                                                         '* `wait`: Wait specified seconds for the '
                                                         'change to happen.\n'
                                                         '* `terminate`: Terminate the current '
                                                         'task and report its completion status.',
                                          'enum': ['key',
                                                   'click',
                                                   'long_press',
                                                   'swipe',
                                                   'type',
                                                   'system_button',
                                                   'open',
                                                   'wait',
                                                   'terminate'],
                                          'type': 'string'},
                               'coordinate': {'description': '(x, y): The x (pixels from the left '
                                                             'edge) and y (pixels from the top '
                                                             'edge) coordinates to move the mouse '
                                                             'to. Required only by `action=click`, '
                                                             '`action=long_press`, and '
                                                             '`action=swipe`.',
                                              'type': 'array'},
                               'coordinate2': {'description': '(x, y): The x (pixels from the left '
                                                              'edge) and y (pixels from the top '
                                                              'edge) coordinates to move the mouse '
                                                              'to. Required only by '
                                                              '`action=swipe`.',
                                               'type': 'array'},
                               'text': {'description': 'Required only by `action=key`, '
                                                       '`action=type`, and `action=open`.',
                                        'type': 'string'},
                               'time': {'description': 'The seconds to wait. Required only by '
                                                       '`action=long_press` and `action=wait`.',
                                        'type': 'number'},
                               'button': {'description': 'Back means returning to the previous '
                                                         'interface, Home means returning to the '
                                                         'desktop, Menu means opening the '
                                                         'application background menu, and Enter '
                                                         'means pressing the enter. Required only '
                                                         'by `action=system_button`',
                                          'enum': ['Back', 'Home', 'Menu', 'Enter'],
                                          'type': 'string'},
                               'status': {'description': 'The status of the task. Required only by '
                                                         '`action=terminate`.',
                                          'type': 'string',
                                          'enum': ['success', 'failure']}},
                'required': ['action'],
                'type': 'object'}}

QWEN3_SYSTEM_PROMPT = '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{"type": "function", "function": {"name": "mobile_use", "description": "Use a touchscreen to interact with a mobile device, and take screenshots.\\n* This is an interface to a mobile device with touchscreen. You can perform actions like clicking, typing, swiping, etc.\\n* Some applications may take time to start or process actions, so you may need to wait and take successive screenshots to see the results of your actions.\\n* The screen\'s resolution is 999x999.\\n* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. Don\'t click boxes on their edges unless asked.", "parameters": {"properties": {"action": {"description": "The action to perform. The available actions are:\\n* `click`: Click the point on the screen with coordinate (x, y).\\n* `long_press`: Press the point on the screen with coordinate (x, y) for specified seconds.\\n* `swipe`: Swipe from the starting point with coordinate (x, y) to the end point with coordinates2 (x2, y2).\\n* `type`: Input the specified text into the activated input box.\\n* `answer`: Output the answer.\\n* `system_button`: Press the system button.\\n* `wait`: Wait specified seconds for the change to happen.\\n* `terminate`: Terminate the current task and report its completion status.", "enum": ["click", "long_press", "swipe", "type", "answer", "system_button", "wait", "terminate"], "type": "string"}, "coordinate": {"description": "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=click`, `action=long_press`, and `action=swipe`.", "type": "array"}, "coordinate2": {"description": "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=swipe`.", "type": "array"}, "text": {"description": "Required only by `action=type` and `action=answer`.", "type": "string"}, "time": {"description": "The seconds to wait. Required only by `action=long_press` and `action=wait`.", "type": "number"}, "button": {"description": "Back means returning to the previous interface, Home means returning to the desktop, Menu means opening the application background menu, and Enter means pressing the enter. Required only by `action=system_button`", "enum": ["Back", "Home", "Menu", "Enter"], "type": "string"}, "status": {"description": "The status of the task. Required only by `action=terminate`.", "type": "string", "enum": ["success", "failure"]}}, "required": ["action"], "type": "object"}}}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n\n# Response format\n\nResponse format for every step:\n1) Thought: one concise sentence explaining the next move (no multi-step reasoning).\n2) Action: a short imperative describing what to do in the UI.\n3) A single <tool_call>...</tool_call> block containing only the JSON: {"name": <function-name>, "arguments": <args-json-object>}.\n\nRules:\n- Output exactly in the order: Thought, Action, <tool_call>.\n- Be brief: one sentence for Thought, one for Action.\n- Do not output anything else outside those three parts.\n- If finishing, use action=terminate in the tool call.'

MOBILEWORLD_QWEN3_ASK_USER_PROMPT = '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{"type": "function", "function": {"name": "mobile_use", "description": "Use a touchscreen to interact with a mobile device, and take screenshots.\\n* This is an interface to a mobile device with touchscreen. You can perform actions like clicking, typing, swiping, etc.\\n* Some applications may take time to start or process actions, so you may need to wait and take successive screenshots to see the results of your actions.\\n* The screen\'s resolution is 999x999.\\n* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. Don\'t click boxes on their edges unless asked.", "parameters": {"properties": {"action": {"description": "The action to perform. The available actions are:\\n* `click`: Click the point on the screen with coordinate (x, y).\\n* `long_press`: Press the point on the screen with coordinate (x, y) for specified seconds.\\n* `swipe`: Swipe from the starting point with coordinate (x, y) to the end point with coordinates2 (x2, y2).\\n* `type`: Input the specified text into the activated input box.\\n* `answer`: Output the answer.\\n* `system_button`: Press the system button.\\n* `wait`: Wait specified seconds for the change to happen.\\n* `terminate`: Terminate the current task and report its completion status.\\n* `ask_user`: Ask user for clarification.", "enum": ["click", "long_press", "swipe", "type", "answer", "system_button", "wait", "ask_user", "terminate"], "type": "string"}, "coordinate": {"description": "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=click`, `action=long_press`, and `action=swipe`.", "type": "array"}, "coordinate2": {"description": "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=swipe`.", "type": "array"}, "text": {"description": "Required only by `action=type`, `action=ask_user` and `action=answer`.", "type": "string"}, "time": {"description": "The seconds to wait. Required only by `action=long_press` and `action=wait`.", "type": "number"}, "button": {"description": "Back means returning to the previous interface, Home means returning to the desktop, Menu means opening the application background menu, and Enter means pressing the enter. Required only by `action=system_button`", "enum": ["Back", "Home", "Menu", "Enter"], "type": "string"}, "status": {"description": "The status of the task. Required only by `action=terminate`.", "type": "string", "enum": ["success", "failure"]}}, "required": ["action"], "type": "object"}}}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n\n# Response format\n\nResponse format for every step:\n1) Thought: one concise sentence explaining the next move (no multi-step reasoning).\n2) Action: a short imperative describing what to do.\n3) A single <tool_call>...</tool_call> block containing only the JSON: {"name": <function-name>, "arguments": <args-json-object>}.\n\nRules:\n- Output exactly in the order: Thought, Action, <tool_call>.\n- Be brief: one sentence for Thought, one for Action.\n- Do not output anything else outside those three parts.\n- If finishing, use mobile_use with action=terminate in the tool call.\n'

GUI_OWL_MOBILE_USE: dict[str, Any] = {'name': 'mobile_use',
 'description': 'Use a touchscreen to interact with a mobile device, and take screenshots.\n'
                '* This is an interface to a mobile device with touchscreen. You can perform '
                'actions like clicking, typing, swiping, etc.\n'
                '* Some applications may take time to start or process actions, so you may need to '
                'wait and take successive screenshots to see the results of your actions.\n'
                "* The screen's resolution is {width}x{height}.\n"
                '* Make sure to click any buttons, links, icons, etc with the cursor tip in the '
                "center of the element. Don't click boxes on their edges unless asked.",
 'parameters': {'properties': {'action': {'description': 'The action to perform. The available '
                                                         'actions are:\n'
                                                         '* `click`: Click the point on the screen '
                                                         'with coordinate (x, y).\n'
                                                         '* `long_press`: Press the point on the '
                                                         'screen with coordinate (x, y) for '
                                                         'specified seconds.\n'
                                                         '* `swipe`: Swipe from the starting point '
                                                         'with coordinate (x, y) to the end point '
                                                         'with coordinates2 (x2, y2).\n'
                                                         '* `type`: Input the specified text into '
                                                         'the activated input box.\n'
                                                         '* `answer`: Output the answer.\n'
                                                         '* `system_button`: Press the system '
                                                         'button.\n'
                                                         '* `wait`: Wait specified seconds for the '
                                                         'change to happen.\n'
                                                         '* `terminate`: Terminate the current '
                                                         'task and report its completion status.',
                                          'enum': ['click',
                                                   'long_press',
                                                   'swipe',
                                                   'type',
                                                   'answer',
                                                   'system_button',
                                                   'wait',
                                                   'terminate'],
                                          'type': 'string'},
                               'coordinate': {'description': '(x, y): The x (pixels from the left '
                                                             'edge) and y (pixels from the top '
                                                             'edge) coordinates to move the mouse '
                                                             'to. Required only by `action=click`, '
                                                             '`action=long_press`, and '
                                                             '`action=swipe`.',
                                              'type': 'array'},
                               'coordinate2': {'description': '(x, y): The x (pixels from the left '
                                                              'edge) and y (pixels from the top '
                                                              'edge) coordinates to move the mouse '
                                                              'to. Required only by '
                                                              '`action=swipe`.',
                                               'type': 'array'},
                               'text': {'description': 'Required only by `action=type` and '
                                                       '`action=answer`.',
                                        'type': 'string'},
                               'time': {'description': 'The seconds to wait. Required only by '
                                                       '`action=long_press` and `action=wait`.',
                                        'type': 'number'},
                               'button': {'description': 'Back means returning to the previous '
                                                         'interface, Home means returning to the '
                                                         'desktop, Menu means opening the '
                                                         'application background menu, and Enter '
                                                         'means pressing the enter. Required only '
                                                         'by `action=system_button`',
                                          'enum': ['Back', 'Home', 'Menu', 'Enter'],
                                          'type': 'string'},
                               'status': {'description': 'The status of the task. Required only by '
                                                         '`action=terminate`.',
                                          'type': 'string',
                                          'enum': ['success', 'failure']}},
                'required': ['action'],
                'type': 'object'}}

# GUI-Owl's user prompt (generate_user_prompt_single_image with add_thought, no tips, no reflection)
GUI_OWL_USER_PROMPT = (
    "The user query: {instruction}"
    "\nTask progress (You have done the following operation on the current device): {history}.\n"
    "\nBefore answering, explain your reasoning step-by-step in <thinking></thinking> tags, and insert them before the <tool_call></tool_call> XML tags."
    "\nAfter answering, summarize your action in <conclusion></conclusion> tags, and insert them after the <tool_call></tool_call> XML tags."
)
