"""The common machinery of agents that ask a chat model for each action (mllm, text, reflection).

A ChatAgent builds one request per step (system prompt, task, history, element list, optionally the
screenshot), reads an action out of the reply (spa_bench.agent.parsing), and keeps a short history.
An answer it cannot use is handed to the runner as the raw text - the episode records an invalid step
with that text - and the next prompt tells the model what was wrong, so one bad answer does not end the
episode. Token usage, cost and model time of every call go into the AgentStep. The model may ask the
user (`ask_user`); the reply, which the next observation carries, is said in the next prompt and kept
with that step in the history.

Constructor arguments (all `--agent-arg key=value`) are documented in agents/mllm.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import ValidationError

from spa_bench.actions import Action, AskUser, Finish, LongPress, Swipe, Tap, parse_action
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.agent.parsing import AnswerParseError, parse_answer
from spa_bench.agent.prompting import HistoryItem, PromptLanguage, shorten, step_prompt, system_prompt
from spa_bench.device.observation import Observation
from spa_bench.drawing import draw_element_marks
from spa_bench.errors import ConfigError
from spa_bench.models import ModelClient, ModelConfig, ModelReply
from spa_bench.models.messages import Message, system_message, user_message
from spa_bench.results.schema import TokenUsage


def model_config(*, model: str, base_url: str | None, api_key_env: str | None, temperature: float | None,
                 max_tokens: int | None, timeout_s: float, max_retries: int, max_side: int | None,
                 detail: str, image_format: str, concurrency: int | None, price_in: float | None,
                 price_out: float | None) -> ModelConfig:
    """A ModelConfig from flat agent arguments; a bad value is a ConfigError naming the argument."""
    if isinstance(api_key_env, str) and api_key_env.strip().lower() in ("", "none", "null"):
        api_key_env = None
    try:
        return ModelConfig(
            model=model, base_url=base_url or None, api_key_env=api_key_env, temperature=temperature,
            max_tokens=max_tokens, timeout_s=timeout_s, max_retries=max_retries, concurrency=concurrency,
            image={"max_side": max_side, "detail": detail, "format": image_format},
            price_in=price_in, price_out=price_out)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ConfigError(f"agent argument {where or 'model'}: {err['msg']}") from None


class ChatAgent(BaseAgent):
    """One model call per step. Subclasses say whether the screenshot is sent (`with_image`)."""

    with_image: ClassVar[bool] = False

    def __init__(self, model: str = "gpt-4o", base_url: str | None = None,
                 api_key_env: str | None = "OPENAI_API_KEY", temperature: float | None = 0.0,
                 max_tokens: int | None = 1024, timeout_s: float = 120.0, max_retries: int = 5,
                 max_side: int | None = 1344, detail: str = "high", image_format: str = "png",
                 history: int = 8, prompt_language: str = "auto", concurrency: int | None = None,
                 price_in: float | None = None, price_out: float | None = None,
                 save_marks: bool = False) -> None:
        if prompt_language not in ("auto", "en", "zh"):
            raise ConfigError(f"prompt_language must be auto, en or zh, not {prompt_language!r}")
        self.config = model_config(
            model=str(model), base_url=base_url, api_key_env=api_key_env, temperature=temperature,
            max_tokens=max_tokens, timeout_s=timeout_s, max_retries=max_retries, max_side=max_side,
            detail=detail, image_format=image_format, concurrency=concurrency, price_in=price_in,
            price_out=price_out)
        self.client = ModelClient(self.config)
        self.history_length = max(0, int(history))
        self.prompt_language = prompt_language
        self.save_marks = bool(save_marks)
        self.history: list[HistoryItem] = []
        self.invalid_reason: str | None = None
        self.steps = 0

    # -- lifecycle ------------------------------------------------------------------------------------
    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.history, self.invalid_reason, self.steps = [], None, 0
        self.asked = False  # the last step's action was ask_user

    def close(self) -> None:
        self.client.close()

    @property
    def language(self) -> PromptLanguage:
        if self.prompt_language in ("en", "zh"):
            return self.prompt_language  # type: ignore[return-value]
        return "zh" if self.context.language == "zh" else "en"

    # -- one step -------------------------------------------------------------------------------------
    def step(self, observation: Observation) -> AgentStep:
        self.take_reply(observation)
        messages = self.messages(observation)
        reply = self.client.chat(messages)
        return self.interpret(reply, observation)

    def take_reply(self, observation: Observation) -> None:
        """Keep the user's reply to the last step's question with that step in the history."""
        if self.asked and observation.user_reply is not None and self.history:
            self.history[-1] = replace(self.history[-1], reply=observation.user_reply)
        self.asked = False

    def messages(self, observation: Observation) -> list[Message]:
        """System prompt + one user message (text, then the image when `with_image`)."""
        text = step_prompt(
            language=self.language, instruction=self.context.instruction,
            elements=self.element_list(observation), element_count=len(observation.elements),
            history=self.history[-self.history_length:] if self.history_length else [],
            step=self.steps, max_steps=self.context.max_steps, package=observation.package,
            keyboard=observation.keyboard_shown, invalid_reason=self.invalid_reason,
            user_reply=observation.user_reply)
        images = self.images(observation)
        user = self.client.user_message(text, *images) if images else user_message(text)
        return [system_message(system_prompt(self.language, self.with_image)), user]

    def element_list(self, observation: Observation) -> str:
        return observation.describe_elements()

    def images(self, observation: Observation) -> list[Any]:
        """Images to attach to the step's message (none for text-only agents)."""
        return []

    def to_screen(self, action: Action) -> Action:
        """Map coordinates the model gave in the image it saw back to screen pixels (identity here)."""
        return action

    def interpret(self, reply: ModelReply, observation: Observation,
                  usage: TokenUsage | None = None, model_s: float | None = None,
                  prefix: str = "") -> AgentStep:
        """The AgentStep for a reply: the action, or the raw text when the answer is unusable."""
        usage = reply.usage if usage is None else usage
        model_s = reply.model_s if model_s is None else model_s
        self.steps += 1
        output = prefix + reply.text
        try:
            parsed = parse_answer(reply.text)
            action = self.to_screen(parse_action(parsed.action))
        except AnswerParseError as exc:
            return self._invalid(reply.text, str(exc), usage, model_s, output)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            return self._invalid(reply.text, f"{where + ': ' if where else ''}{first['msg']}", usage,
                                 model_s, output)
        note = None
        element = getattr(action, "element", None)
        if element is not None and observation.element(element) is None:
            note = f"invalid: there is no element {element} (0..{len(observation.elements) - 1})"
        self.invalid_reason = note.removeprefix("invalid: ") if note else None
        self.history.append(HistoryItem(self.steps, parsed.thought, describe(action), note))
        self.asked = isinstance(action, AskUser)
        return AgentStep(action, output=output, usage=usage, model_s=model_s)

    def _invalid(self, raw: str, reason: str, usage: TokenUsage, model_s: float | None,
                 output: str) -> AgentStep:
        self.invalid_reason = reason
        self.history.append(HistoryItem(self.steps, None, shorten(raw, 120), f"invalid: {reason}"))
        return AgentStep(raw, output=output, usage=usage, model_s=model_s)


def describe(action: Action) -> str:
    """An action as compact JSON for the history (defaults left out)."""
    return json.dumps(action.model_dump(mode="json", exclude_defaults=True) | {"type": action.type},
                      ensure_ascii=False)


def scale_action(action: Action, factor: float) -> Action:
    """The action with its pixel coordinates multiplied by `factor` (image -> screen)."""
    if factor == 1.0 or isinstance(action, Finish):
        return action
    if isinstance(action, Tap | LongPress) and action.x is not None and action.y is not None:
        return action.model_copy(update={"x": round(action.x * factor), "y": round(action.y * factor)})
    if isinstance(action, Swipe):
        points = ("x1", "y1", "x2", "y2")
        return action.model_copy(update={k: round(getattr(action, k) * factor) for k in points})
    return action


class MarkedScreenAgent(ChatAgent):
    """A ChatAgent that also sends the screenshot with Set-of-Mark boxes (the `mllm` agent's request).
    Coordinates in its answers refer to the image it saw and are scaled back to the screen."""

    with_image: ClassVar[bool] = True

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.factor = 1.0

    def images(self, observation: Observation) -> list[Any]:
        marked = draw_element_marks(observation.screenshot(), observation.elements)
        if self.save_marks:
            marked.save(self.context.workdir / f"marks_{self.steps:03d}.png")
        max_side = self.config.image.max_side
        longest = max(marked.size)
        self.factor = longest / max_side if max_side and longest > max_side else 1.0
        return [marked]

    def to_screen(self, action: Action) -> Action:
        return scale_action(action, self.factor)
