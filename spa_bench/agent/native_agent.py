"""The common machinery of native GUI-model adapters (ui-tars, qwen-vl, gui-owl, autoglm, cogagent, ...).

Each step: bind the adapter's coordinate frame to the screen and the image sent, build the model's own
request (its authors' prompt, its history policy: `messages`), call the shared ModelClient (retries,
concurrency, tokens, prices, budget), read the reply with the adapter's codec and map it onto our
actions through the shared layer. A reply the codec cannot use becomes an invalid step carrying the raw
text and the reason; the episode goes on. The screenshot is sent as the phone's PNG, unchanged (no
decoding or re-encoding): the model server resizes it as the model was trained (smart_resize for
Qwen-VL models), and absolute frames are computed from that same resize; `resize_image=true` resizes
it here instead, for a server whose processor is configured differently.

Arguments common to every native adapter (`--agent-arg key=value`):
- model, base_url (e.g. http://127.0.0.1:8000/v1 for vLLM), api_key_env (OPENAI_API_KEY; keyless local
  servers need none), temperature (0.0), max_tokens, timeout_s (120), max_retries (5), concurrency,
  price_in / price_out (USD per million tokens);
- history: how many earlier steps the request repeats (each adapter's default is its authors');
- prompt_language: auto (the task's), en or zh, for adapters whose authors wrote both;
- image_format (png | jpeg) and resize_image (false), see above.

Asking the user: a codec that reads its model's way to ask (UI-TARS's call_user(), AutoGLM's Interact,
MobileWorld's mobile_use ask_user, ...) returns the `ask` verb, which becomes our AskUser. The user's
reply arrives with the next observation (`Observation.user_reply`); `step` keeps it on the turn that
asked (`Turn.user_reply`), and each adapter's `messages` shows it the way its format gives a user's words
back (a user turn, a line in the history). `AdapterInfo.asks` says how, or why the adapter cannot ask
(the table in the README's "Agents that ask the user").

Adding an adapter: a NativeCodec subclass (spa_bench.agent.codec) that reads (`decode`) and writes
(`encode`) the model's syntax as NativeActions in its frame; a NativeAgent subclass with `info`,
`codec`, `frame_spec` (spa_bench.agent.frames) and `messages`; a line in spa_bench.agent's AGENTS; and
its name with five or more malformed replies in tests/agents/test_native_adapters.py, whose
`run_native` / `run_malformed` (tests/agents/native_runs.py) play the common task subset through it.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from spa_bench.actions import AskUser
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.agent.chat import model_config
from spa_bench.agent.codec import NativeCodec, ParsedReply, ReplyError
from spa_bench.agent.frames import Frame, FrameSpec
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError
from spa_bench.models import ModelClient, ModelReply
from spa_bench.models.messages import Message


@dataclass(frozen=True)
class AdapterInfo:
    """What `spa-bench agents list` shows about an adapter."""

    family: str  # e.g. "UI-TARS-1.5"
    format_source: str  # where the prompt and action syntax are defined
    calls_per_step: int = 1
    models: tuple[str, ...] = ()  # model ids to serve (README table)
    # how the model asks the user (its action, where the reply goes), or why it cannot: README table
    asks: str = "cannot ask: its action space has no way to ask the user"


@dataclass(frozen=True)
class Screen:
    """One step's image as sent, and the frame the reply's points are in."""

    frame: Frame
    image_url: str
    image_size: tuple[int, int]
    package: str | None = None  # the foreground app at that step


@dataclass(frozen=True)
class Turn:
    """One earlier step as the adapter remembers it."""

    step: int
    screen: Screen
    reply: str
    parsed: ParsedReply | None
    error: str | None = None
    user_reply: str | None = None  # the user's answer, when this turn asked (AskUser)

    @property
    def asked(self) -> bool:
        return self.parsed is not None and isinstance(self.parsed.action, AskUser)


class NativeAgent(BaseAgent):
    """Base of the native adapters: subclasses give `info`, `codec`, `frame_spec` and `messages`."""

    info: ClassVar[AdapterInfo]
    default_history: ClassVar[int] = 0
    default_max_tokens: ClassVar[int | None] = 1024
    # request fields the authors send besides temperature and max_tokens (e.g. AutoGLM's top_p)
    sampling: ClassVar[dict[str, Any]] = {}
    codec: NativeCodec
    frame_spec: FrameSpec

    def __init__(self, model: str = "", base_url: str | None = None,
                 api_key_env: str | None = "OPENAI_API_KEY", temperature: float | None = 0.0,
                 max_tokens: int | None = -1, timeout_s: float = 120.0, max_retries: int = 5,
                 concurrency: int | None = None, price_in: float | None = None,
                 price_out: float | None = None, history: int | None = None,
                 prompt_language: str = "auto", image_format: str = "png",
                 resize_image: bool | str = False) -> None:
        if not model:
            served = ", ".join(self.info.models) or "the model's id on your server"
            raise ConfigError(f"give the model to call: --agent-arg model=... (e.g. {served})")
        if prompt_language not in ("auto", "en", "zh"):
            raise ConfigError(f"prompt_language must be auto, en or zh, not {prompt_language!r}")
        self.config = model_config(
            model=str(model), base_url=base_url, api_key_env=api_key_env, temperature=temperature,
            max_tokens=self.default_max_tokens if max_tokens == -1 else max_tokens, timeout_s=timeout_s,
            max_retries=max_retries, max_side=None, detail="auto", image_format=image_format,
            concurrency=concurrency, price_in=price_in, price_out=price_out)
        self.client = ModelClient(self.config)
        self.history_length = max(0, int(history if history is not None else self.default_history))
        self.prompt_language = prompt_language
        self.resize_image = _flag(resize_image, "resize_image")
        self.turns: list[Turn] = []
        self.steps = 0

    # -- lifecycle ------------------------------------------------------------------------------------
    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.turns, self.steps = [], 0

    def close(self) -> None:
        self.client.close()

    @property
    def language(self) -> str:
        if self.prompt_language in ("en", "zh"):
            return self.prompt_language
        return "zh" if self.context.language == "zh" else "en"

    # -- one step -------------------------------------------------------------------------------------
    def step(self, observation: Observation) -> AgentStep:
        self.take_reply(observation)
        screen = self.screen(observation)
        reply = self.client.chat(self.messages(observation, screen), **self.sampling)
        return self.interpret(reply, screen, observation)

    def take_reply(self, observation: Observation) -> None:
        """Keep the user's reply to the last turn's question on that turn, where `messages` show it."""
        if observation.user_reply is None or not self.turns:
            return
        last = self.turns[-1]
        if last.asked and last.user_reply is None:
            self.turns[-1] = replace(last, user_reply=observation.user_reply)

    def screen(self, observation: Observation) -> Screen:
        """The image to send and its frame: the phone's PNG as it is, or smart-resized here."""
        width, height = observation.width, observation.height
        if not (width and height):
            import io

            from PIL import Image

            with Image.open(io.BytesIO(observation.screenshot_png)) as img:
                width, height = img.size
        size = (width, height)
        if self.resize_image and self.frame_spec.kind == "absolute":
            size = self.frame_spec.image_size(width, height)
        if size == (width, height):
            url = self.client.image_url(observation.screenshot_png)
        else:
            from PIL import Image

            url = self.client.image_url(observation.screenshot().resize(size, Image.Resampling.BICUBIC))
        return Screen(self.frame_spec.bind(width, height, size), url, size, observation.package)

    @abstractmethod
    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        """The request of this step, as the model's authors build it."""

    def parse(self, text: str, screen: Screen, observation: Observation) -> ParsedReply:
        """Our action for a reply (ReplyError when unusable); adapters whose actions depend on the screen
        (AutoGLM's Type replaces the focused field's text) refine it here."""
        return self.codec.parse(text, screen.frame)

    def interpret(self, reply: ModelReply, screen: Screen, observation: Observation) -> AgentStep:
        """The AgentStep of a reply: our action, or an invalid step with the raw text and the reason."""
        self.steps += 1
        try:
            parsed = self.parse(reply.text, screen, observation)
        except ReplyError as exc:
            self.turns.append(Turn(self.steps, screen, reply.text, None, str(exc)))
            return AgentStep(reply.text, output=reply.text, usage=reply.usage, model_s=reply.model_s,
                             invalid_reason=f"{self.codec.name}: {exc}")
        self.turns.append(Turn(self.steps, screen, reply.text, parsed))
        return AgentStep(parsed.action, output=reply.text, usage=reply.usage, model_s=reply.model_s)

    def recent(self) -> list[Turn]:
        """The last `history` turns (the policy most adapters use; some override `messages`)."""
        return self.turns[-self.history_length:] if self.history_length else []

    # -- for `spa-bench agents show` --------------------------------------------------------------------
    def describe_arguments(self) -> dict[str, Any]:
        return {"model": self.config.model, "base_url": self.config.base_url,
                "api_key_env": self.config.api_key_env, "temperature": self.config.temperature,
                "max_tokens": self.config.max_tokens, "history": self.history_length,
                "prompt_language": self.prompt_language, "image_format": self.config.image.format,
                "resize_image": self.resize_image, "frame": self.frame_spec.describe()}


def _flag(value: bool | str, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name} must be true or false, not {value!r}")

