"""`appagent`: AppAgent's labelled-element design (TencentQQGYLab/AppAgent), in-process.

Format: TencentQQGYLab/AppAgent scripts/prompts.py (`task_template`, `task_template_grid`, quoted in
agents/appagent_prompts.py), scripts/model.py (`parse_explore_rsp`, `parse_grid_rsp`: the reply),
scripts/task_executor.py and scripts/and_controller.py (what each action does); SPA-Bench's own
integration (ai-agents-2030/AppAgent) runs the same prompts and parsers. Our own code; the actions go
through the harness (no `adb` needed on PATH).

Request (one call per step): one user message, the prompt then the screenshot (JPEG) with AppAgent's
numeric labels (agents/appagent_screen.py: clickable then focusable nodes, numbered from 1, the tag at
the element's centre) - or, after `grid()`, the grid prompt and the screenshot under the grid. Runs
without an exploration phase, so without its UI documentation (`<ui_document>` empty, as AppAgent does
when an app has no docs). The prompt is English for both languages (the authors have no other).

Reply: `Observation: ...`, `Thought: ...`, `Action: ...` lines (all three required, as parse_explore_rsp
requires them) and `Summary: ...` (optional, as in SPA-Bench's integration). History: only the last
Summary, put into the prompt's `<last_act>` ("None" at first) - AppAgent's own memory, the model
summarising its past actions itself each step.

Coordinate frame: none - labels; the point acted on is the labelled element's centre (in grid mode
the point `area_to_xy` gives for an area and subarea), in screen pixels.
Actions: tap(n), long_press(n) (1 s, as and_controller); text("...") types into the focused field;
swipe(n, "up|down|left|right", "short|medium|long") swipes from the element's centre by AppAgent's
distances (a tenth of the screen width, x2 for medium, x3 for long; vertical ones twice that; 400 ms),
in the finger's direction; grid() turns the grid on for the next step - a step with no action on the
phone, recorded as a 0.1 s wait since our actions have no no-op; in grid mode tap(area, "subarea"),
long_press(area, "subarea"), swipe(area, "subarea", area, "subarea") (AppAgent's swipe_precise passes
the start x as the start y; we swipe from the start point given); any action but grid() turns the
grid off. Finish: FINISH anywhere in the Action line -> finish done. AppAgent has no back or home key,
no app launcher, no answer and no way to say a task is infeasible: question tasks can only end with
FINISH (no answer is recorded), and tasks that need back/home cannot be done in its action space.
Invalid steps: a missing Observation/Thought/Action line, an unknown function, a label or area that is
not on the screen (AppAgent itself stops the episode there; here the step is invalid and it goes on),
a bad swipe direction.

Arguments: model (e.g. gpt-4o), base_url, api_key_env, temperature (0.0), max_tokens (300, as
config.yaml), image_format (jpeg: AppAgent sends its labelled PNG file under a JPEG data URL; encoding
a full-size PNG costs ~100 ms a step, JPEG ~15), and the common ones of spa_bench.agent.native_agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from spa_bench.actions import Action
from spa_bench.agent import AgentStep, TaskContext
from spa_bench.agent.codec import DecodedReply, NativeCodec, ReplyError
from spa_bench.agent.frames import Frame
from spa_bench.agent.native import NativeAction, NativeActionError, Verb, to_action
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen
from spa_bench.device.observation import Observation
from spa_bench.models import ModelReply
from spa_bench.models.messages import Message, text_part

from .appagent_prompts import TASK_TEMPLATE, TASK_TEMPLATE_GRID
from .appagent_screen import Grid, Label, draw_labels, labels
from .aw_agent import ElementFrame, screen_frame

_LINE = {name: re.compile(rf"{name}: (.*?)$", re.M)
         for name in ("Observation", "Thought", "Action", "Summary")}
DISTANCES = {"short": 1, "medium": 2, "long": 3}
DIRECTIONS = ("up", "down", "left", "right")


@dataclass(frozen=True)
class AppAgentReply:
    kind: str  # "finish", "grid" or the function name
    native: NativeAction
    thought: str
    summary: str


def _inside(act: str, name: str) -> str:
    """The text between `name(` and the last `)` of the Action line."""
    start = act.find("(")
    end = act.rfind(")")
    if start < 0 or end < start:
        raise ReplyError(f"{name} needs its arguments in parentheses: {act[:80]!r}")
    return act[start + 1:end]


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _int(value: str, what: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise ReplyError(f"{what} must be a number, not {value.strip()[:40]!r}") from None


class AppAgentCodec(NativeCodec):
    """Stateful: `bind` fixes the screen's labels (and the grid, in grid mode)."""

    name = "appagent"
    verbs: frozenset[Verb] = frozenset(("tap", "long_press", "swipe", "type", "finish"))

    def __init__(self, marks: list[Label] | None = None, width: int = 0, height: int = 0,
                 grid: bool = False) -> None:
        self.marks = marks or []
        self.width, self.height = width, height
        self.grid_mode = grid  # render (the scripted model) answers in grid mode
        self.grid = Grid(width, height) if grid and width and height else None

    def bind(self, observation: Observation, grid: bool = False) -> AppAgentCodec:
        return type(self)(labels(observation.all_elements), observation.width, observation.height, grid)

    # -- reading ----------------------------------------------------------------------------------------
    def read(self, text: str) -> AppAgentReply:
        found = {name: pattern.findall(text) for name, pattern in _LINE.items()}
        for name in ("Observation", "Thought", "Action"):
            if not found[name]:
                raise ReplyError(f"no '{name}:' line in the reply")
        act, thought = found["Action"][0].strip(), found["Thought"][0].strip()
        summary = found["Summary"][0].strip() if found["Summary"] else ""
        if "FINISH" in act:
            return AppAgentReply("finish", NativeAction("finish"), thought, summary)
        name = act.split("(")[0].strip().strip("`")
        if name == "grid":
            return AppAgentReply("grid", NativeAction("note"), thought, summary)
        native = self._grid_action(name, act) if self.grid is not None else self._label_action(name, act)
        return AppAgentReply(name, native, thought, summary)

    def _label(self, value: str) -> Label:
        number = _int(value, "the element")
        if not 1 <= number <= len(self.marks):
            raise ReplyError(f"there is no element labelled {number} (1..{len(self.marks)})")
        return self.marks[number - 1]

    def _label_action(self, name: str, act: str) -> NativeAction:
        if name in ("tap", "long_press"):
            x, y = self._label(_inside(act, name)).center
            return NativeAction(name, point=(float(x), float(y)), duration_ms=1000)  # type: ignore[arg-type]
        if name == "text":
            return NativeAction("type", text=_unquote(_inside(act, name)))
        if name == "swipe":
            params = _inside(act, name).split(",")
            if len(params) != 3:
                raise ReplyError(f"swipe needs (element, direction, distance), got {len(params)} arguments")
            x, y = self._label(params[0]).center
            return self._swipe(x, y, _unquote(params[1]), _unquote(params[2]))
        raise ReplyError(f"undefined action {name!r}")

    def _swipe(self, x: int, y: int, direction: str, dist: str) -> NativeAction:
        """and_controller.swipe: a tenth of the width per unit (long 3, medium 2, else 1), vertical x2."""
        if direction not in DIRECTIONS:
            raise ReplyError(f"swipe direction must be up, down, left or right, not {direction!r}")
        unit = int(self.width / 10) * DISTANCES.get(dist, 1)
        offsets = {"up": (0, -2 * unit), "down": (0, 2 * unit), "left": (-unit, 0), "right": (unit, 0)}
        dx, dy = offsets[direction]
        end = (min(max(x + dx, 0), self.width - 1), min(max(y + dy, 0), self.height - 1))
        return NativeAction("swipe", point=(float(x), float(y)), end=(float(end[0]), float(end[1])),
                            duration_ms=400)

    def _area(self, area: str, subarea: str) -> tuple[int, int]:
        assert self.grid is not None
        number = _int(area, "the grid area")
        if not 1 <= number <= self.grid.areas:
            raise ReplyError(f"there is no grid area {number} (1..{self.grid.areas})")
        return self.grid.point(number, _unquote(subarea))

    def _grid_action(self, name: str, act: str) -> NativeAction:
        params = _inside(act, name).split(",")
        if name in ("tap", "long_press"):
            if len(params) != 2:
                raise ReplyError(f"{name} in grid mode needs (area, subarea), got {len(params)} arguments")
            x, y = self._area(*params)
            return NativeAction(name, point=(float(x), float(y)), duration_ms=1000)  # type: ignore[arg-type]
        if name == "swipe":
            if len(params) != 4:
                raise ReplyError(f"swipe in grid mode needs 4 arguments, got {len(params)}")
            (x1, y1), (x2, y2) = self._area(params[0], params[1]), self._area(params[2], params[3])
            return NativeAction("swipe", point=(float(x1), float(y1)), end=(float(x2), float(y2)),
                                duration_ms=400)
        raise ReplyError(f"undefined action {name!r} in grid mode")

    def decode(self, text: str) -> DecodedReply:
        reply = self.read(text)
        return DecodedReply(reply.native, reply.thought, reply.summary)

    # -- writing (the scripted model) -----------------------------------------------------------------------
    def encode(self, native: NativeAction, thought: str) -> str:
        act = self.action_text(native)
        return (f"Observation: The screen is shown with numeric tags.\nThought: {thought or 'Next step.'}\n"
                f"Action: {act}\nSummary: {thought or 'Next step.'} ({act})")

    def action_text(self, native: NativeAction) -> str:
        if native.verb == "finish":
            return "FINISH"
        if native.verb == "type":
            return f'text("{native.text}")'
        assert native.point is not None
        x, y = round(native.point[0]), round(native.point[1])
        if self.grid is not None:
            area, sub = self.grid.locate(x, y)
            if native.verb == "swipe":
                assert native.end is not None
                end_area, end_sub = self.grid.locate(round(native.end[0]), round(native.end[1]))
                return f'swipe({area}, "{sub}", {end_area}, "{end_sub}")'
            return f'{native.verb}({area}, "{sub}")'
        mark = self._label_at(x, y)
        if native.verb in ("tap", "long_press"):
            return f"{native.verb}({mark.number})"
        assert native.end is not None
        dx, dy = native.end[0] - native.point[0], native.end[1] - native.point[1]
        vertical = abs(dy) >= abs(dx)
        direction = ("up" if dy < 0 else "down") if vertical else ("left" if dx < 0 else "right")
        unit = max(1, int(self.width / 10)) * (2 if vertical else 1)
        dist = min(DISTANCES, key=lambda d: abs(DISTANCES[d] * unit - max(abs(dx), abs(dy))))
        return f'swipe({mark.number}, "{direction}", "{dist}")'

    def _label_at(self, x: int, y: int) -> Label:
        """The smallest label whose element holds the point, else the nearest label centre."""
        holding = [m for m in self.marks if m.bounds[0] <= x < m.bounds[2] and m.bounds[1] <= y < m.bounds[3]]
        if holding:
            return min(holding, key=lambda m: (m.bounds[2] - m.bounds[0]) * (m.bounds[3] - m.bounds[1]))
        if not self.marks:
            raise NativeActionError(f"no labelled element near ({x}, {y}): AppAgent would need grid()")
        return min(self.marks, key=lambda m: abs(m.center[0] - x) + abs(m.center[1] - y))

    def render(self, action: Action, frame: Frame, observation: Observation | None = None,
               thought: str = "") -> str:
        if observation is None:
            raise NativeActionError("AppAgent actions name labels: the screen is needed")
        return NativeCodec.render(self.bind(observation, self.grid_mode), action, frame, observation, thought)


@dataclass(frozen=True, kw_only=True)
class AppAgentScreen(Screen):
    codec: AppAgentCodec  # bound to this screen's labels (and grid)


class AppAgent(NativeAgent):
    info: ClassVar[AdapterInfo] = AdapterInfo(
        family="AppAgent", format_source="TencentQQGYLab/AppAgent scripts/prompts.py, scripts/model.py, "
        "scripts/task_executor.py", calls_per_step=1,
        models=("gpt-4o", "gpt-4-vision-preview", "qwen-vl-max"))
    default_max_tokens: ClassVar[int | None] = 300
    frame_spec = ElementFrame("absolute", label="AppAgent numeric label or grid area (screen pixels)")
    codec: AppAgentCodec

    def __init__(self, image_format: str = "jpeg", **kwargs: Any) -> None:
        super().__init__(image_format=image_format, **kwargs)
        self.codec = AppAgentCodec()

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.grid_on = False
        self.last_act = "None"

    def screen(self, observation: Observation) -> AppAgentScreen:
        """The screenshot as AppAgent sends it: with its labels, or under the grid."""
        codec = self.codec.bind(observation, self.grid_on)
        shot = observation.screenshot()
        image = codec.grid.draw(shot) if codec.grid is not None else draw_labels(shot, codec.marks)
        return AppAgentScreen(screen_frame(observation, self.frame_spec), self.client.image_url(image),
                              image.size, observation.package, codec=codec)

    def interpret(self, reply: ModelReply, screen: Screen, observation: Observation) -> AgentStep:
        assert isinstance(screen, AppAgentScreen)
        self.steps += 1
        try:
            if not reply.text.strip():
                raise ReplyError("the reply is empty")
            parsed = screen.codec.read(reply.text)
            action = to_action(parsed.native, screen.frame)
        except (ReplyError, NativeActionError) as exc:
            return AgentStep(reply.text, output=reply.text, usage=reply.usage, model_s=reply.model_s,
                             invalid_reason=f"appagent: {exc}")
        self.grid_on = parsed.kind == "grid"
        if parsed.kind != "finish":
            self.last_act = parsed.summary
        return AgentStep(action, output=reply.text, usage=reply.usage, model_s=reply.model_s)

    def describe_arguments(self) -> dict[str, Any]:
        return super().describe_arguments() | {"history": "the last reply's Summary (<last_act>)"}

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        template = TASK_TEMPLATE_GRID if self.grid_on else TASK_TEMPLATE.replace("<ui_document>", "")
        prompt = template.replace("<task_description>", self.context.instruction)
        prompt = prompt.replace("<last_act>", self.last_act)
        image = {"type": "image_url", "image_url": {"url": screen.image_url}}
        return [{"role": "user", "content": [text_part(prompt), image]}]

