"""A scripted GUI model for the scripted OpenAI server: it plays a task's golden script in an adapter's
native syntax and coordinate frame.

    model = NativeScriptedModel(agent.codec, agent.frame_spec, tasks, results_dir)
    with ScriptedOpenAIServer(when_empty=model) as server:
        ...run the adapter against server.base_url...
    assert not model.errors

For each request it finds the task by its instruction in the request's text, reads the screen the
harness recorded for that episode just before the step (hierarchy/NNN.xml and screenshots/NNN.png in
the run folder), resolves the golden step's selector on it as the oracle does, and answers with the
adapter codec's `render` in the frame of the image it received: absolute frames are computed from that
image as the model's processor would resize it (`processor`, Qwen2.5-VL's defaults unless told),
never from what the adapter thinks, so a run passes only when the adapter maps points back from the
frame the model really answered in. Apps open by name where the format can say so, else (and for the
tasks in `launch_from_home`) by pressing home and tapping the app's icon. A golden step that needs
what native actions cannot say (a field to clear) is reported in `errors` and answered with an HTTP
400.
"""

from __future__ import annotations

import base64
import io
import threading
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path

from spa_bench.actions import Action, Finish, Key, LongPress, OpenApp, Scroll, Selector, Tap, TypeText, Wait
from spa_bench.agent.codec import NativeCodec
from spa_bench.agent.frames import FrameSpec, SmartResize
from spa_bench.agent.native import NativeAction, NativeActionError
from spa_bench.device.elements import find, parse_hierarchy
from spa_bench.device.observation import Observation
from spa_bench.results.layout import safe_name
from spa_bench.tasks.model import Task
from spa_bench.testing.openai_server import ErrorReply, RecordedRequest, TextReply


class ScriptError(RuntimeError):
    """The golden script cannot be played through this codec, or the request cannot be placed."""


@dataclass
class _Progress:
    position: int = 0  # next golden step
    # what is left of the current golden step: actions still to lower, or native replies to send
    pending: list[Action | NativeAction] = field(default_factory=list)
    waited: int = 0


class NativeScriptedModel:
    """A Responder (RecordedRequest -> reply) for ScriptedOpenAIServer; see the module docstring."""

    def __init__(self, codec: NativeCodec, frame_spec: FrameSpec, tasks: list[Task], results_dir: Path,
                 processor: SmartResize | None = None, patience: int = 5,
                 launch_from_home: Collection[str] = ()) -> None:
        self.codec = codec
        if frame_spec.kind == "absolute":
            frame_spec = replace(frame_spec, resize=processor or SmartResize())
        self.frame_spec = frame_spec
        self.tasks = [t for t in tasks if t.golden_script]
        self.results_dir = results_dir
        self.patience = patience
        # tasks whose apps are opened as a person would, from the home screen, even where the format can
        # launch them by name (so that every adapter's run presses home somewhere)
        self.launch_from_home = set(launch_from_home)
        self.errors: list[str] = []
        self.replies: list[str] = []
        self._progress: dict[str, _Progress] = {}
        self._lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> TextReply | ErrorReply:
        try:
            with self._lock:
                text = self._answer(request)
                self.replies.append(text)
            return TextReply(text, prompt_tokens=1000, completion_tokens=50)
        except (ScriptError, NativeActionError) as exc:
            self.errors.append(str(exc))  # 400: not retried, the episode stops at once
            return ErrorReply(400, f"scripted native model: {exc}", "invalid_request_error")

    # -- one answer ---------------------------------------------------------------------------------------
    def _answer(self, request: RecordedRequest) -> str:
        task = self._task_of(request)
        observation = self._observation(task)
        urls = request.image_urls()
        if not urls and self.frame_spec.kind != "absolute":
            raise ScriptError(f"{task.id}: the request has no image")
        # a text-only adapter (t3a) answers in screen pixels: the "image" is the screen itself
        image_size = (_image_size(str(urls[-1].get("url", ""))) if urls
                      else (observation.width, observation.height))
        frame = self.frame_spec.bind(observation.width, observation.height, image_size)
        progress = self._progress.setdefault(task.id, _Progress())
        action = self._next(task, observation, progress)
        thought = f"golden step {progress.position}/{len(task.golden_script or [])}"
        if isinstance(action, NativeAction):
            return self.codec.encode(action, thought)
        return self.codec.render(action, frame, observation, thought=thought)

    def _task_of(self, request: RecordedRequest) -> Task:
        text = "\n".join(str(p.get("text", "")) for p in request.content_parts() if p.get("type") == "text")
        found = [t for t in self.tasks if t.instruction in text]
        if not found:
            raise ScriptError(f"no task's instruction is in the request: {text[:300]!r}")
        return max(found, key=lambda t: len(t.instruction))

    def _observation(self, task: Task) -> Observation:
        """The screen the harness recorded last for this task's episode (the one the step is about)."""
        trees = sorted(self.results_dir.glob(f"*/episodes/*__{safe_name(task.id)}__r*/hierarchy/*.xml"),
                       key=lambda p: p.stat().st_mtime_ns)
        if not trees:
            raise ScriptError(f"{task.id}: no recorded observation under {self.results_dir}")
        tree = trees[-1]
        png = (tree.parent.parent / "screenshots" / f"{tree.stem}.png").read_bytes()
        from PIL import Image

        with Image.open(io.BytesIO(png)) as img:
            width, height = img.size
        xml = tree.read_text(encoding="utf-8")
        return Observation(png, xml, parse_hierarchy(xml), None, None, False, width, height)

    # -- golden step -> what this codec can say -------------------------------------------------------
    def _next(self, task: Task, observation: Observation, progress: _Progress) -> Action | NativeAction:
        script = task.golden_script or []
        if not progress.pending:
            if progress.position >= len(script):
                return Finish()
            progress.pending = list(self.codec.expand(script[progress.position]))
            progress.position += 1
            progress.waited = 0
        head = progress.pending[0]
        if isinstance(head, NativeAction):
            progress.pending.pop(0)
            return head
        lowered = self._lower(task, head, observation)
        if lowered is None:  # its selector is not on screen yet
            if progress.waited < self.patience:
                progress.waited += 1
                if "wait" not in self.codec.verbs:  # CogAgent: a step that changes nothing
                    return NativeAction("note")
                return Wait(seconds=0.5)
            raise ScriptError(f"{task.id} step {progress.position}: {head!r} never appeared on screen")
        progress.waited = 0
        progress.pending = [*lowered[1:], *progress.pending[1:]]
        return lowered[0]

    def _lower(self, task: Task, golden: Action, observation: Observation) -> list[Action] | None:
        selector = getattr(golden, "selector", None)
        element = find(observation.all_elements, selector) if selector is not None else None
        if selector is not None and element is None:
            return None
        if isinstance(golden, Tap | LongPress):
            if element is not None:
                x, y = element.center
                return [golden.model_copy(update={"selector": None, "x": x, "y": y})]
            return [golden]
        if isinstance(golden, TypeText):
            if golden.clear and not self.codec.type_clears:
                raise ScriptError(f"{task.id}: {self.codec.name} cannot clear a text field ({golden!r})")
            out: list[Action] = []
            if element is not None and not element.focused:
                out.append(Tap(x=element.center[0], y=element.center[1]))
            submit_inline = golden.enter and self.codec.type_submits
            out.append(TypeText(text=golden.text, enter=submit_inline))
            if golden.enter and not submit_inline:
                out.append(Key(key="enter"))
            return out
        if isinstance(golden, Scroll):
            if element is not None:
                if element.index < 0:
                    raise ScriptError(f"{task.id}: the scroll target {selector!r} is not actionable")
                return [Scroll(direction=golden.direction, element=element.index)]
            return [golden]
        if isinstance(golden, OpenApp):
            name = _display_name(task, golden.app)
            if "open_app" in self.codec.verbs and task.id not in self.launch_from_home:
                return [OpenApp(app=name)]
            # no launch action: from the home screen, tap the app's icon (labelled with its name)
            return [Key(key="home"), Tap(selector=Selector(content_desc=name))]
        return [golden]


def _display_name(task: Task, app: str) -> str:
    """Native models open apps by the name on the screen, not by package."""
    for ref in task.apps:
        if ref.package == app:
            return ref.display_name(task.language)
    return app


def _image_size(url: str) -> tuple[int, int]:
    from PIL import Image

    _, _, data = url.partition(",")
    if not data:
        raise ScriptError("the image is not a data URL")
    with Image.open(io.BytesIO(base64.b64decode(data))) as img:
        return img.size


def sample_observation(data_dir: Path, width: int = 1080, height: int = 2400) -> Observation:
    """A real screen of the virtual phone (its Settings app), rendered in-process with no adb: what
    `spa-bench agents show` and benchmarks/agent_overhead.py build requests for."""
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.vfs import VirtualFS

    (data_dir / "fs").mkdir(parents=True, exist_ok=True)
    fs = VirtualFS(data_dir / "fs")
    fs.ensure_layout()
    phone = PhoneOS(PhoneConfig(data_dir=data_dir, width=width, height=height), fs)
    phone.start_activity("com.android.settings")
    xml = phone.dump_hierarchy()
    return Observation(phone.screenshot_png(), xml, parse_hierarchy(xml), "com.android.settings", None,
                       False, width, height)
