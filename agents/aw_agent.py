"""The machinery M3A and T3A share (AndroidWorld's designs): an action call plus a summary call per step.

AndroidWorld's agents, each step (m3a.py / t3a.py `step`): number the screen's UI elements, ask for an
action (`Reason: ... Action: {...}`) given the goal, the element list (M3A: also the raw screenshot and
the screenshot with marks) and the history of step summaries; carry the action out; then ask the same
model to summarise the step from the before/after screens, and keep `Action selected: <action>.
<summary>` as that step's history line. Here the harness carries the action out between two of our
steps, so the summary of step k is asked at the start of step k+1, when its "after" screen is the new
observation: same requests, same order, one step later; a step's usage is the sum of both calls. The
episode's last action (finish, or the step limit) gets no summary, as in AndroidWorld. A reply that
cannot be used is an invalid step, and AndroidWorld's note for it ("Output for action selection is not
in the correct format ...") becomes that step's history line, with no summary call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from spa_bench.actions import Action
from spa_bench.agent import AgentStep, TaskContext
from spa_bench.agent.codec import DecodedReply, NativeCodec, ParsedReply
from spa_bench.agent.frames import Frame, FrameSpec
from spa_bench.agent.native import NativeAction, NativeActionError, Verb
from spa_bench.agent.native_agent import NativeAgent, Screen
from spa_bench.device.observation import Observation
from spa_bench.models import ModelClient, ModelReply
from spa_bench.models.config import ImageSettings
from spa_bench.models.messages import Message, encode_image, text_part
from spa_bench.results.schema import TokenUsage

from . import aw_actions
from .aw_elements import AWElement, aw_elements, describe, draw_aw_marks, label_corner

if TYPE_CHECKING:
    from PIL import Image

RAW_PNG = ImageSettings(format="png")  # the phone's PNG as it is (no decoding or re-encoding)


@dataclass(frozen=True)
class ElementFrame(FrameSpec):
    """Screen pixels, for formats that name elements (an index, a label, a description) rather than give
    points: the points acted on are element centres on the screen. `label` is what `agents list` shows."""

    label: str = "element index (points in screen pixels)"

    def describe(self) -> str:
        return self.label


SCREEN_FRAME = ElementFrame("absolute", label="AndroidWorld element index (screen pixels)")
ALL_VERBS: frozenset[Verb] = frozenset(("tap", "double_tap", "long_press", "swipe", "scroll", "type", "key",
                                        "open_app", "wait", "finish"))


def screen_frame(observation: Observation, spec: FrameSpec = SCREEN_FRAME) -> Frame:
    """`spec` (screen pixels) bound to this screen: the image the points refer to is the screen itself."""
    return spec.bind(observation.width, observation.height, (observation.width, observation.height))


class AWCodec(NativeCodec):
    """AndroidWorld's JSON actions. Stateful: `bind(observation)` numbers that screen's elements, so
    that `decode` can read `"index": 3` and `encode` can write it."""

    name = "androidworld"
    verbs: frozenset[Verb] = ALL_VERBS
    type_submits: ClassVar[bool] = True  # input_text always presses enter

    def __init__(self, elements: list[AWElement] | None = None, width: int = 0, height: int = 0) -> None:
        self.elements = elements or []
        self.width, self.height = width, height

    def bind(self, observation: Observation) -> AWCodec:
        return type(self)(aw_elements(observation.all_elements), observation.width, observation.height)

    def read(self, text: str, frame: Frame) -> tuple[aw_actions.AWReply, ParsedReply]:
        """The reply's parts and our action; AWReplyError (with AndroidWorld's note) when unusable."""
        reply = aw_actions.read_reply(text)
        native, element = aw_actions.to_native(reply.fields, self.elements, self.width, self.height)
        action = aw_actions.to_our_action(native, element, frame)
        return reply, ParsedReply(action, native, reply.reason)

    def decode(self, text: str) -> DecodedReply:
        reply = aw_actions.read_reply(text)
        native, _ = aw_actions.to_native(reply.fields, self.elements, self.width, self.height)
        return DecodedReply(native, reply.reason)

    def parse(self, text: str, frame: Frame) -> ParsedReply:
        if not text or not text.strip():
            raise aw_actions.AWReplyError("the reply is empty", aw_actions.NOT_IN_FORMAT)
        return self.read(text, frame)[1]

    def encode(self, native: NativeAction, thought: str) -> str:
        return aw_actions.render(native, self.elements, self.width, self.height, thought or "Next step.")

    def render(self, action: Action, frame: Frame, observation: Observation | None = None,
               thought: str = "") -> str:
        if observation is None:
            raise NativeActionError("AndroidWorld actions name elements: the screen is needed")
        return NativeCodec.render(self.bind(observation), action, frame, observation, thought)


@dataclass(frozen=True, kw_only=True)
class AWScreen(Screen):
    """One step's screen as AndroidWorld's agents use it."""

    codec: AWCodec
    elements_text: str
    image_urls: tuple[str, ...]
    summary_request: list[Message] | None


def summarise_previous_step(client: ModelClient, request: list[Message], action_text: str,
                            summaries: list[str]) -> ModelReply:
    """AndroidWorld's summary call for the step before (asked once its after-screen is known); the
    summary joins the history in AndroidWorld's words. Shared by M3A/T3A and SeeAct-V's AndroidWorld agent."""
    reply = client.chat(request)
    summaries.append(f"Action selected: {action_text}. {reply.text}")
    return reply


@dataclass(frozen=True)
class _Done:
    """The last carried-out action, waiting for its summary at the start of the next step."""

    action_text: str
    reason: str
    before_elements: str
    before_image_url: str | None  # M3A: the marked screenshot the action was chosen on (no label)


class AndroidWorldAgent(NativeAgent):
    """M3A / T3A: subclasses set `style` ("m3a" with screenshots, "t3a" text only) and the templates."""

    style: ClassVar[str]
    action_template: ClassVar[str]
    summary_template: ClassVar[str]
    history_separator: ClassVar[str]  # "Step 1- ..." (M3A) or "Step 1: ..." (T3A)
    frame_spec = SCREEN_FRAME
    codec: AWCodec
    codec_class: ClassVar[type[AWCodec]] = AWCodec
    default_max_tokens: ClassVar[int | None] = 1000  # infer.Gpt4Wrapper sends max_tokens 1000

    def __init__(self, image_format: str = "jpeg", **kwargs: Any) -> None:
        super().__init__(image_format=image_format, **kwargs)
        self.codec = self.codec_class()

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.summaries: list[str] = []
        self.done: _Done | None = None

    # -- one step: the summary of the previous step, then the action ----------------------------------------
    def step(self, observation: Observation) -> AgentStep:
        screen = self.screen(observation)
        usage, model_s, output = TokenUsage(), 0.0, ""
        if screen.summary_request is not None and self.done is not None:
            summary = summarise_previous_step(self.client, screen.summary_request, self.done.action_text,
                                              self.summaries)
            usage, model_s = usage + summary.usage, model_s + summary.model_s
            output = f"[summary] {summary.text}\n\n[action] "
            self.done = None
        reply = self.client.chat(self.messages(observation, screen))
        result = self.interpret(reply, screen, observation)
        return replace(result, usage=usage + reply.usage, model_s=model_s + reply.model_s,
                       output=output + reply.text)

    def screen(self, observation: Observation) -> AWScreen:
        """Everything this screen gives the requests: AndroidWorld's element list, M3A's two images and
        the summary request of the previous step. The raw screenshot goes as the phone's PNG (lossless;
        AndroidWorld re-encodes it as JPEG, which costs ~20 ms a step for no gain); the drawn ones as JPEG
        (infer.py), drawn on the one decoded copy: marks, encoded, then the "after" label."""
        codec = self.codec.bind(observation)
        elements_text = describe(codec.elements, observation.width, observation.height, self.style)
        urls: tuple[str, ...] = ()
        summary = None
        if self.style == "m3a":
            marked = draw_aw_marks(observation.screenshot(), codec.elements, copy=False)
            urls = (encode_image(observation.screenshot_png, RAW_PNG), self.client.image_url(marked))
            if self.done is not None:
                summary = self.summary_messages(label_corner(marked, "after", copy=False), elements_text)
        elif self.done is not None:
            summary = self.summary_messages(None, elements_text)
        return AWScreen(screen_frame(observation), urls[0] if urls else "",
                        (observation.width, observation.height), observation.package, codec=codec,
                        elements_text=elements_text, image_urls=urls, summary_request=summary)

    def describe_arguments(self) -> dict[str, Any]:
        return super().describe_arguments() | {"history": "every step's summary (AndroidWorld's)"}

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        """The action request: the prompt, then (M3A) the raw and the marked screenshot."""
        shown = screen if isinstance(screen, AWScreen) else self.screen(observation)
        return [prompt_message(self.action_prompt(shown.elements_text), list(shown.image_urls))]

    def interpret(self, reply: ModelReply, screen: Screen, observation: Observation) -> AgentStep:
        """Our action for the reply, remembered for the next step's summary; or an invalid step whose
        AndroidWorld note becomes the history line."""
        assert isinstance(screen, AWScreen)
        self.steps += 1
        try:
            if not reply.text.strip():
                raise aw_actions.AWReplyError("the reply is empty", aw_actions.NOT_IN_FORMAT)
            parts, parsed = screen.codec.read(reply.text, screen.frame)
        except aw_actions.AWReplyError as exc:
            note = aw_actions.T3A_NOTES.get(exc.note, exc.note) if self.style == "t3a" else exc.note
            if self.style == "t3a" and exc.note == aw_actions.NOT_EXECUTABLE:
                kind = _action_type(reply.text)
                note = f"Some error happened executing the action {kind}" if kind else note
            self.summaries.append(note)
            return AgentStep(reply.text, output=reply.text, usage=reply.usage, model_s=reply.model_s,
                             invalid_reason=f"{self.codec.name}: {exc}")
        if parsed.native.verb != "finish":
            marked_url = screen.image_urls[1] if len(screen.image_urls) > 1 else None
            self.done = _Done(parts.action_text, parts.reason, screen.elements_text, marked_url)
        return AgentStep(parsed.action, output=reply.text, usage=reply.usage, model_s=reply.model_s)

    def action_prompt(self, elements_text: str) -> str:
        history = "\n".join(f"Step {i + 1}{self.history_separator} {s}" for i, s in enumerate(self.summaries))
        keys: dict[str, str] = {"goal": self.context.instruction,
                                "history": history or "You just started, no action has been performed yet.",
                                "additional_guidelines": ""}
        keys["ui_elements" if self.style == "m3a" else "ui_elements_description"] = \
            elements_text or "Not available"
        return self.action_template.format(**keys)

    def summary_messages(self, after_image: Image.Image | None, after_elements: str) -> list[Message]:
        """m3a.py / t3a.py `_summarize_prompt`; M3A adds the marked screenshot the action was chosen on
        (m3a.py labels only its stored copy "before", so the image sent carries no label) and
        `after_image`, the new marked screenshot labelled "after"."""
        assert self.done is not None
        before, after = self.done.before_elements, after_elements
        if self.style == "t3a":  # t3a.py `_summarize_prompt` fills in 'Not available' for empty lists
            before, after = before or "Not available", after or "Not available"
        prompt = self.summary_template.format(goal=self.context.instruction, before_elements=before,
                                              after_elements=after, action=self.done.action_text,
                                              reason=self.done.reason)
        images: list[str] = []
        if after_image is not None and self.done.before_image_url is not None:
            images = [self.done.before_image_url, self.client.image_url(after_image)]
        return [prompt_message(prompt, images)]


def _action_type(text: str) -> str | None:
    try:
        return str(aw_actions.read_reply(text).fields["action_type"])
    except aw_actions.AWReplyError:
        return None


def prompt_message(text: str, image_urls: list[str]) -> Message:
    """infer.Gpt4Wrapper.predict_mm: one user message, the prompt first, then the images."""
    content: list[dict[str, Any]] = [text_part(text)]
    content += [{"type": "image_url", "image_url": {"url": url}} for url in image_urls]
    return {"role": "user", "content": content}
