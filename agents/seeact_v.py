"""`seeact-v`: SeeAct-V (OSU-NLP-Group) - a planner model describes the target, a grounding model points.

Format: boyugou/android_world_seeact_v android_world/agents/seeact_v.py (the SeeAct-V agent for
AndroidWorld that OSU-NLP-Group/UGround's online_evaluation/AndroidWorld_SeeAct_V links to; prompts
quoted in agents/seeact_v_prompts.py) and OSU-NLP-Group/UGround grounding/uground_qwen2vl_serve.py (the
grounding request); AndroidWorld's JSON actions (agents/aw_actions.py). Our own code.

Each step, with two endpoints:
1. planner, summary of the previous step (`summary=true`, the default, as the authors run it; not on the
   first step nor after an unusable reply): SeeAct-V's summary prompt with the action and its reason,
   the screenshot before it (with a red dot, radius 20, where the grounder pointed) and after it
   (labelled "after");
2. planner, action: SeeAct-V's prompt (goal, history `Step N- Action selected: {...}. <summary>`) and
   the screenshot (no marks: the pipeline sees images only; the phone's PNG, where seeact_v.py sends
   JPEG - lossless, and cheaper than re-encoding); the reply is `Reason: ... Action:
   {"action_type": "click", "element": "<description of the target>"}`;
3. grounder, only when the action has an `element`: UGround's request - the screenshot resized to
   882 x 1960 (`grounder_size`, as seeact_v.py does) and `Description: <the planner's words>`; the
   reply is a point `(x, y)`.
The grounder's image is made in a background thread while the summary and planner calls are under way,
and the summary's "before" image while the action is carried out, so that they add nothing to a step.
So 2 calls per step, or 3 with a grounded action; the step's usage is the sum over both endpoints
(each priced by its own model name).

Coordinate frame: the grounder answers in relative 0-1000 of the image (x / 1000 of the screen width).
History: every step's summary (with `summary=false`, only the JSON of earlier actions, and two calls).
Actions as AndroidWorld's (agents/m3a.py), targets by description: click / long_press / double_tap at
the grounded point; input_text taps the grounded field, types, presses enter; scroll swipes over the
whole screen (AndroidWorld scrolls an element only by index, which SeeAct-V has not); navigate_back /
navigate_home / keyboard_enter, open_app, wait. Finish: status complete / infeasible -> finish done /
infeasible; answer -> finish done with the answer (at once; AndroidWorld waits for status complete).
Invalid steps: planner replies AndroidWorld would not carry out (no Reason/Action, unreadable JSON,
unknown action or field), a click with no element, a grounder reply with no point or a point outside
0-1000.

Arguments: planner_model (or model; e.g. gpt-4o), planner_base_url (or base_url), planner_api_key_env
(or api_key_env; OPENAI_API_KEY), grounder_model (osunlp/UGround-V1-7B), grounder_base_url (e.g.
http://127.0.0.1:8000/v1 for vLLM; default: the planner's, for a server that serves both models),
grounder_api_key_env (none), grounder_size (882x1960, or `none`
to send the screenshot as it is), grounder_price_in / grounder_price_out (USD per million tokens: a
served UGround has no list price, so steps that ground have an unknown cost unless given), summary
(true), temperature (0.0), max_tokens (1000), timeout_s, max_retries, concurrency, price_in /
price_out (the planner's). Prompts are English for both languages (the authors wrote no other);
Chinese instructions are passed as they are.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from spa_bench.actions import Action, TypeText
from spa_bench.agent import AgentStep, TaskContext
from spa_bench.agent.chat import model_config
from spa_bench.agent.codec import DecodedReply, NativeCodec, ReplyError, point_of
from spa_bench.agent.frames import Frame, FrameSpec
from spa_bench.agent.native import NativeAction, NativeActionError, Verb, to_action
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen, _flag
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError
from spa_bench.models import ModelClient, ModelReply
from spa_bench.models.messages import Message, encode_image, text_part
from spa_bench.results.schema import TokenUsage

from . import aw_actions
from .aw_agent import ALL_VERBS, RAW_PNG, ElementFrame, prompt_message, screen_frame, summarise_previous_step
from .aw_elements import label_corner
from .seeact_v_prompts import SEEACT_V_ACTION_TEMPLATE, SEEACT_V_SUMMARY_TEMPLATE, UGROUND_GROUNDING_TEMPLATE

if TYPE_CHECKING:
    from PIL import Image

FIELDS = (*aw_actions.FIELDS, "element")
GROUNDED = ("click", "double_tap", "long_press", "input_text", "scroll")
GROUNDER_FRAME = FrameSpec.relative(1000)


@dataclass(frozen=True)
class Plan:
    """A planner reply: the AndroidWorld fields, and the description to ground (if any)."""

    reply: aw_actions.AWReply
    description: str | None


class SeeActPlannerCodec(NativeCodec):
    """The planner's JSON actions. `render` (the scripted model) describes a target by its text and
    remembers the description -> point, so that a scripted grounder can answer for it."""

    name = "seeact-v"
    verbs: frozenset[Verb] = ALL_VERBS
    type_submits: ClassVar[bool] = True

    def __init__(self, observation: Observation | None = None,
                 described: dict[str, tuple[int, int]] | None = None) -> None:
        self.observation = observation
        self.described: dict[str, tuple[int, int]] = {} if described is None else described

    def plan(self, text: str) -> Plan:
        if not text or not text.strip():
            raise aw_actions.AWReplyError("the reply is empty", aw_actions.NOT_IN_FORMAT)
        reply = aw_actions.read_reply(text, FIELDS)
        element = reply.fields.get("element")
        grounded = reply.fields["action_type"] in GROUNDED and element is not None and str(element).strip()
        return Plan(reply, str(element).strip() if grounded else None)

    def decode(self, text: str) -> DecodedReply:
        plan = self.plan(text)
        if plan.description is not None:
            raise ReplyError(f"{plan.reply.fields['action_type']} names its target in words: the grounder "
                             "gives its point")
        native, _ = aw_actions.to_native(plan.reply.fields, [], 1 << 16, 1 << 16)
        return DecodedReply(native, plan.reply.reason)

    def encode(self, native: NativeAction, thought: str) -> str:
        fields = aw_actions.render_fields(native, [], 1 << 16, 1 << 16)
        fields.pop("x", None)
        fields.pop("y", None)
        fields.pop("index", None)
        if native.verb in ("tap", "double_tap", "long_press") or (native.verb == "type" and native.point):
            assert native.point is not None
            point = (round(native.point[0]), round(native.point[1]))
            fields["element"] = self.describe(point)
        return f"Reason: {thought or 'Next step.'}\nAction: {json.dumps(fields, ensure_ascii=False)}"

    def describe(self, point: tuple[int, int]) -> str:
        """Words for the element under a point: its text, content description or id, and where it is."""
        label = f"the spot at ({point[0]}, {point[1]})"
        if self.observation is not None:
            holding = [e for e in self.observation.all_elements if e.label and e.area > 0
                       and e.bounds[0] <= point[0] < e.bounds[2] and e.bounds[1] <= point[1] < e.bounds[3]]
            if holding:
                best = min(holding, key=lambda e: e.area)
                label = f'the "{best.label}" {best.class_name.rpartition(".")[2]} at {list(best.bounds)}'
        self.described[label] = point
        return label

    def render(self, action: Action, frame: Frame, observation: Observation | None = None,
               thought: str = "") -> str:
        bound = type(self)(observation, self.described)
        return NativeCodec.render(bound, action, frame, observation, thought)


class UGroundCodec(NativeCodec):
    """UGround's reply: one point `(x, y)`, relative 0-1000."""

    name = "uground"
    verbs: frozenset[Verb] = frozenset(("tap",))

    def decode(self, text: str) -> DecodedReply:
        return DecodedReply(NativeAction("tap", point=point_of(text.strip(), "the grounder's point")))

    def encode(self, native: NativeAction, thought: str) -> str:
        assert native.point is not None
        return f"({round(native.point[0])}, {round(native.point[1])})"


@dataclass(frozen=True, kw_only=True)
class SeeActScreen(Screen):
    raw: Image.Image  # the screenshot, decoded once (planner image, grounder image, summary "before")
    summary_request: list[Message] | None
    grounder_image: Future[str]  # the grounder's image URL, made in the background (see `screen`)


@dataclass(frozen=True)
class _Done:
    action_text: str
    reason: str
    before_url: Future[str]  # the screenshot the action was chosen on, with the grounder's red dot


class SeeActVAgent(NativeAgent):
    info: ClassVar[AdapterInfo] = AdapterInfo(
        family="SeeAct-V + UGround",
        format_source="boyugou/android_world_seeact_v android_world/agents/seeact_v.py; "
        "OSU-NLP-Group/UGround grounding/uground_qwen2vl_serve.py", calls_per_step=3,
        models=("gpt-4o (planner)", "osunlp/UGround-V1-7B (grounder)", "osunlp/UGround-V1-2B"))
    default_max_tokens: ClassVar[int | None] = 1000
    # the planner names targets in words; the grounder's points are GROUNDER_FRAME's
    frame_spec = ElementFrame("absolute", label="planner: element description; grounder: relative 0-1000")
    codec: SeeActPlannerCodec

    def __init__(self, planner_model: str = "", planner_base_url: str | None = None,
                 planner_api_key_env: str | None = None, grounder_model: str = "osunlp/UGround-V1-7B",
                 grounder_base_url: str | None = None, grounder_api_key_env: str | None = None,
                 grounder_size: str = "882x1960", summary: bool | str = True, image_format: str = "jpeg",
                 grounder_price_in: float | None = None, grounder_price_out: float | None = None,
                 **kwargs: Any) -> None:
        if planner_model:
            kwargs["model"] = planner_model
        if planner_base_url:
            kwargs["base_url"] = planner_base_url
        if planner_api_key_env is not None:
            kwargs["api_key_env"] = planner_api_key_env
        super().__init__(image_format=image_format, **kwargs)
        grounder_base_url = grounder_base_url or self.config.base_url  # one server may serve both
        if not grounder_base_url:
            raise ConfigError("seeact-v needs its grounding model's endpoint: --agent-arg "
                              "grounder_base_url=http://127.0.0.1:8000/v1 (e.g. vLLM serving "
                              "osunlp/UGround-V1-7B)")
        self.grounder_config = model_config(
            model=str(grounder_model), base_url=grounder_base_url, api_key_env=grounder_api_key_env,
            temperature=0.0, max_tokens=None, timeout_s=self.config.timeout_s,
            max_retries=self.config.max_retries, max_side=None, detail="auto", image_format="jpeg",
            concurrency=self.config.concurrency, price_in=grounder_price_in, price_out=grounder_price_out)
        self.grounder = ModelClient(self.grounder_config)
        self.grounder_size = _size(grounder_size)
        self.summary = _flag(summary, "summary")
        self.codec = SeeActPlannerCodec()
        self.grounder_codec = UGroundCodec()
        self.grounder_frame_spec = GROUNDER_FRAME
        self._images = ThreadPoolExecutor(max_workers=1, thread_name_prefix="seeact-v-grounder-image")

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.summaries: list[str] = []
        self.done: _Done | None = None

    def close(self) -> None:
        super().close()
        self.grounder.close()
        self._images.shutdown(wait=True)

    # -- one step ----------------------------------------------------------------------------------------
    def step(self, observation: Observation) -> AgentStep:
        screen = self.screen(observation)
        usage, model_s, output = TokenUsage(), 0.0, ""
        if screen.summary_request is not None and self.done is not None:
            reply = summarise_previous_step(self.client, screen.summary_request, self.done.action_text,
                                            self.summaries)
            usage, model_s = usage + reply.usage, model_s + reply.model_s
            output = f"[summary] {reply.text}\n\n"
            self.done = None
        planned = self.client.chat(self.messages(observation, screen))
        result = self.interpret(planned, screen, observation)
        body = result.output or ""
        if output and not body.startswith("[planner]"):
            body = f"[planner] {body}"
        return replace(result, usage=usage + result.usage, model_s=model_s + (result.model_s or 0.0),
                       output=output + body)

    def screen(self, observation: Observation) -> SeeActScreen:
        """The raw screenshot (the phone's PNG as it is: re-encoding it as seeact_v.py's JPEG costs ~20 ms a
        step for no gain), the summary request of the previous step, and - in a background thread, so
        that it overlaps the summary and planner calls instead of adding to the step - the grounder's
        resized JPEG (Pillow resizes and encodes without holding the GIL)."""
        raw = observation.screenshot()
        grounder_image = self._images.submit(self.grounder_image_url, raw)
        summary = self.summary_messages(raw) if self.done is not None else None
        return SeeActScreen(screen_frame(observation, self.frame_spec),
                            encode_image(observation.screenshot_png, RAW_PNG),
                            (observation.width, observation.height), observation.package, raw=raw,
                            summary_request=summary, grounder_image=grounder_image)

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        """The planner's action request: SeeAct-V's prompt and the screenshot."""
        return [prompt_message(self.action_prompt(), [screen.image_url])]

    def interpret(self, reply: ModelReply, screen: Screen, observation: Observation) -> AgentStep:
        """The planner's reply, grounded by the grounder when it names a target: our action, or an
        invalid step (its AndroidWorld note goes into the history). Usage covers both calls."""
        assert isinstance(screen, SeeActScreen)
        usage, model_s, output = reply.usage, reply.model_s, reply.text
        self.steps += 1

        def invalid(reason: str, note: str) -> AgentStep:
            self.summaries.append(note)
            return AgentStep(reply.text, output=output, usage=usage, model_s=model_s,
                             invalid_reason=f"seeact-v: {reason}")

        try:
            plan = self.codec.plan(reply.text)
        except aw_actions.AWReplyError as exc:
            return invalid(str(exc), exc.note)
        fields, point = dict(plan.reply.fields), None
        if plan.description is not None:
            grounded = self.grounder.chat(self.grounder_messages(screen.grounder_image.result(),
                                                                 plan.description))
            usage, model_s = usage + grounded.usage, model_s + grounded.model_s
            output = f"[planner] {reply.text}\n\n[grounder] {grounded.text}"
            try:
                native = self.grounder_codec.decode(grounded.text).action
                assert native.point is not None
                frame = GROUNDER_FRAME.bind(screen.frame.screen_width, screen.frame.screen_height)
                point = frame.to_screen(*native.point)
            except (ReplyError, ValueError) as exc:
                return invalid(f"grounder: {exc}", aw_actions.NOT_PARSED)
            if fields["action_type"] != "scroll":  # AndroidWorld scrolls an element by index only
                fields["x"], fields["y"] = point
        fields.pop("element", None)
        try:
            native_action, _ = aw_actions.to_native(fields, [], screen.frame.screen_width,
                                                    screen.frame.screen_height)
            action = to_action(native_action, screen.frame)
        except aw_actions.AWReplyError as exc:
            return invalid(str(exc), exc.note)
        except NativeActionError as exc:
            return invalid(str(exc), aw_actions.NOT_EXECUTABLE)
        if isinstance(action, TypeText) and point is not None:
            action = _into_field(action, observation, point)
        if native_action.verb != "finish":
            if self.summary:
                # the summary's "before" image is encoded in the background while the action is carried out
                before = self._images.submit(self.before_image_url, screen.raw, point)
                self.done = _Done(plan.reply.action_text, plan.reply.reason, before)
            else:
                self.summaries.append(f"Action selected: {plan.reply.action_text}.")
        return AgentStep(action, output=output, usage=usage, model_s=model_s)

    def action_prompt(self) -> str:
        history = "\n".join(f"Step {i + 1}- {s}" for i, s in enumerate(self.summaries))
        return SEEACT_V_ACTION_TEMPLATE.format(
            goal=self.context.instruction, additional_guidelines="",
            history=history or "You just started, no action has been performed yet.")

    def before_image_url(self, raw: Image.Image, point: tuple[int, int] | None) -> str:
        """The screenshot an action was chosen on, with m3a_utils.add_ui_element_dot's filled red dot
        (radius 20) where the grounder pointed, JPEG. Drawn on `raw` itself: that step is over."""
        from PIL import ImageDraw

        if point is not None:
            x, y = point
            ImageDraw.Draw(raw).ellipse((x - 20, y - 20, x + 20, y + 20), fill=(225, 0, 0))
        return self.client.image_url(raw)

    def summary_messages(self, after: Image.Image) -> list[Message]:
        """seeact_v.py's summary request: the action, its reason, the "before" screenshot with the dot and
        the new one labelled "after"."""
        assert self.done is not None
        prompt = SEEACT_V_SUMMARY_TEMPLATE.format(goal=self.context.instruction, action=self.done.action_text,
                                                  reason=self.done.reason)
        urls = [self.done.before_url.result(), self.client.image_url(label_corner(after, "after"))]
        return [prompt_message(prompt, urls)]

    def grounder_image_url(self, raw: Image.Image) -> str:
        """The screenshot as seeact_v.py sends it to the grounder: resized (PIL's default, bicubic) to
        `grounder_size`, JPEG."""
        from PIL import Image

        image = raw.resize(self.grounder_size, Image.Resampling.BICUBIC) if self.grounder_size else raw
        return encode_image(image, self.grounder_config.image)

    def grounder_messages(self, image_url: str, description: str) -> list[Message]:
        """uground_qwen2vl_serve.py: one user message, the image first, then the request text."""
        url = image_url
        text = UGROUND_GROUNDING_TEMPLATE.format(description=description)
        image_part = {"type": "image_url", "image_url": {"url": url}}
        return [{"role": "user", "content": [image_part, text_part(text)]}]

    def describe_arguments(self) -> dict[str, Any]:
        size = f"{self.grounder_size[0]}x{self.grounder_size[1]}" if self.grounder_size else None
        return super().describe_arguments() | {
            "grounder_model": self.grounder_config.model, "grounder_base_url": self.grounder_config.base_url,
            "grounder_api_key_env": self.grounder_config.api_key_env, "grounder_size": size,
            "summary": self.summary, "grounder_frame": GROUNDER_FRAME.describe(),
            "history": "every step's summary" if self.summary else "every step's action"}


def _into_field(action: TypeText, observation: Observation, point: tuple[int, int]) -> TypeText:
    """input_text taps the grounded point first: our TypeText names the element there (an editable one
    if any holds the point, else the smallest)."""
    x, y = point
    holding = [e for e in observation.elements
               if e.bounds[0] <= x < e.bounds[2] and e.bounds[1] <= y < e.bounds[3]]
    if not holding:
        return action
    best = min(holding, key=lambda e: (not e.editable, e.area))
    return action.model_copy(update={"element": best.index})


def _size(value: str | None) -> tuple[int, int] | None:
    if value is None or str(value).strip().lower() in ("", "none", "null"):
        return None
    try:
        width, height = (int(v) for v in str(value).lower().split("x"))
    except ValueError:
        raise ConfigError(f"grounder_size must be WIDTHxHEIGHT (e.g. 882x1960) or none, "
                          f"not {value!r}") from None
    if width < 16 or height < 16:
        raise ConfigError(f"grounder_size {value!r} is too small")
    return width, height
