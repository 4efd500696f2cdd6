"""Prompts of the built-in LLM agents, in English and Chinese.

One action format for every agent: a short reason, then one JSON object of spa_bench.actions that
refers to screen elements by their number. Chinese tasks get a Chinese prompt (models follow the
language of the instructions they are given, and the screens are in Chinese too); the JSON keys stay
English, since they are parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

PromptLanguage = Literal["en", "zh"]

ACTIONS_EN = """\
Actions (answer with exactly one, as JSON):
{"type": "tap", "element": N}                       tap element N
{"type": "long_press", "element": N}                long-press element N
{"type": "type", "text": "...", "element": N}       type into field N (no "element": the focused field)
{"type": "scroll", "direction": "down"}             scroll (up/down/left/right; optional "element": N)
{"type": "key", "key": "back"}                      press back / home / enter
{"type": "open_app", "app": "Settings"}             open an app by name
{"type": "wait", "seconds": 2}                      wait for the screen to change
{"type": "ask_user", "question": "..."}             ask the user what only they know (reply: next step)
{"type": "finish", "status": "done", "answer": "..."}   the task is complete ("answer" only for questions)
{"type": "finish", "status": "infeasible"}          the task cannot be done
Coordinates {"type": "tap", "x": X, "y": Y} are allowed, but prefer element numbers."""

ACTIONS_ZH = """\
可用动作（每次只回答一个，用 JSON 表示）：
{"type": "tap", "element": N}                       点击编号为 N 的元素
{"type": "long_press", "element": N}                长按元素 N
{"type": "type", "text": "...", "element": N}       在输入框 N 中输入文字（可省略 "element"：输入到当前焦点）
{"type": "scroll", "direction": "down"}             滚动（up/down/left/right，可加 "element": N）
{"type": "key", "key": "back"}                      按返回 back / 主屏幕 home / 回车 enter
{"type": "open_app", "app": "设置"}                  按名称打开应用
{"type": "wait", "seconds": 2}                      等待屏幕变化
{"type": "ask_user", "question": "..."}             向用户询问只有用户知道的信息（下一步会收到回答）
{"type": "finish", "status": "done", "answer": "..."}   任务已完成（只有问题类任务才需要 "answer"）
{"type": "finish", "status": "infeasible"}          任务无法完成
也可以用坐标 {"type": "tap", "x": X, "y": Y}，但请优先使用元素编号。"""

SYSTEM_EN = """\
You are an agent that operates an Android phone to complete a user's task. At each step you get {seen}
and you choose one action. When the task is complete, answer with the finish action; do not stop early,
and do not keep acting after it is done.

{actions}

Answer in this format:
Reason: <one or two sentences: what you see and why this action>
Action: <one JSON object>"""

SYSTEM_ZH = """\
你是一个操作安卓手机来完成用户任务的智能体。每一步你会收到{seen}，并选择一个动作。任务完成后请用 finish
动作结束；不要过早结束，也不要在完成后继续操作。

{actions}

请按以下格式回答：
Reason: <一两句话：你看到了什么，为什么选择这个动作>
Action: <一个 JSON 对象>"""

SEEN = {
    ("en", True): "a screenshot in which the UI elements are marked with numbered boxes, and the list of "
                  "those elements",
    ("en", False): "the list of the UI elements on the screen (numbered, with their text and bounds)",
    ("zh", True): "一张截图（界面元素用带编号的方框标出）以及这些元素的列表",
    ("zh", False): "屏幕上界面元素的列表（带编号、文字和位置）",
}

TEXT = {
    "en": {"task": "Task: {instruction}", "elements": "Elements on screen ({count}):",
           "no_elements": "(no elements: the screen may still be loading)", "history": "Your previous steps:",
           "no_history": "This is the first step.", "app": "Foreground app: {package}",
           "invalid": "Your last answer could not be used ({reason}). Answer again in the required format: "
                      "'Reason: ...' then 'Action: {{...}}' with one JSON object.",
           "step": "Step {n} of at most {limit}.", "keyboard": "The on-screen keyboard is open.",
           "next": "What is the next action?", "replied": "The user's reply to your question: {reply}",
           "reply_note": "the user replied: {reply}"},
    "zh": {"task": "任务：{instruction}", "elements": "屏幕上的元素（{count} 个）：",
           "no_elements": "（没有元素：屏幕可能还在加载）", "history": "你之前的步骤：",
           "no_history": "这是第一步。", "app": "前台应用：{package}",
           "invalid": "你上一次的回答无法使用（{reason}）。请按要求的格式重新回答："
                      "先写 'Reason: ...'，再写 'Action: {{...}}'，只包含一个 JSON 对象。",
           "step": "第 {n} 步，最多 {limit} 步。", "keyboard": "屏幕键盘已打开。",
           "next": "下一步动作是什么？", "replied": "用户对你的问题的回答：{reply}",
           "reply_note": "用户回答：{reply}"},
}


def system_prompt(language: PromptLanguage, with_image: bool) -> str:
    template = SYSTEM_ZH if language == "zh" else SYSTEM_EN
    return template.format(seen=SEEN[(language, with_image)],
                           actions=ACTIONS_ZH if language == "zh" else ACTIONS_EN)


@dataclass(frozen=True)
class HistoryItem:
    """One earlier step as the agent remembers it: what it thought, what it did, how that went."""

    step: int
    thought: str | None
    action: str  # the action as JSON text, or the raw answer when it was invalid
    note: str | None = None  # e.g. "invalid: ..." or a reflection's verdict
    reply: str | None = None  # the user's reply, when the action was ask_user


def format_history(items: Sequence[HistoryItem], language: PromptLanguage) -> str:
    text = TEXT[language]
    if not items:
        return text["no_history"]
    lines = [text["history"]]
    for item in items:
        line = f"{item.step}. {item.action}"
        if item.thought:
            line += f"  # {shorten(item.thought, 160)}"
        if item.note:
            line += f"  [{item.note}]"
        if item.reply is not None:  # in full: the user's words may be the very value the task needs
            line += "  -> " + text["reply_note"].format(reply=" ".join(item.reply.split()))
        lines.append(line)
    return "\n".join(lines)


def step_prompt(*, language: PromptLanguage, instruction: str, elements: str, element_count: int,
                history: Sequence[HistoryItem], step: int, max_steps: int, package: str | None,
                keyboard: bool, invalid_reason: str | None, user_reply: str | None = None) -> str:
    """The user message text of one step (the screenshot, if any, is attached after it). `user_reply`:
    the user's answer to the last step's ask_user, said on its own line as well as in the history (which
    may be cut to a few steps or none)."""
    text = TEXT[language]
    parts = [text["task"].format(instruction=instruction),
             text["step"].format(n=step + 1, limit=max_steps)]
    if package:
        parts.append(text["app"].format(package=package))
    if keyboard:
        parts.append(text["keyboard"])
    parts.append(format_history(history, language))
    if user_reply is not None:
        parts.append(text["replied"].format(reply=user_reply))
    if invalid_reason:
        parts.append(text["invalid"].format(reason=invalid_reason))
    parts.append(text["elements"].format(count=element_count))
    parts.append(elements or text["no_elements"])
    parts.append(text["next"])
    return "\n\n".join(parts)


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
