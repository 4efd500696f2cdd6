"""`oracle`: replays the task's golden action script.

Targets given by `selector` are resolved on the current screen by the device layer, so one script works
in both languages and at any screen size. When a selector is not on screen yet (an app still starting,
an animation, or on a smaller screen or with bigger text under `--vary`, further down a form or a list),
the oracle hides the keyboard if it is up, scrolls the screen's biggest scrollable view down to its end,
then up, looking after each scroll, and waits a little, before trying anyway. A task without a golden script
cannot be replayed: the oracle reports it infeasible at once.
The oracle is a reference agent: it reads the golden script from the full task the harness reveals to it
(ReferenceAgent.reveal), which its episode log records; the report never ranks it.

Arguments: `patience` (default 2) - how many short waits per action for a selector, after scrolling;
`scrolls` (default 8) - how many scrolls each way before giving up on it.
"""

from __future__ import annotations

from spa_bench.actions import Action, Direction, Finish, Key, LongPress, Scroll, Tap, Wait
from spa_bench.agent import AgentStep, ReferenceAgent, TaskContext
from spa_bench.device.elements import UIElement, find
from spa_bench.device.observation import Observation


class OracleAgent(ReferenceAgent):
    def __init__(self, patience: int = 2, scrolls: int = 8) -> None:
        self.patience = int(patience)
        self.scrolls = int(scrolls)
        self.script: list[Action] = []
        self.position = 0
        self._searching()

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.script = list(self.full_task.golden_script or [])
        self.position = 0
        self._searching()

    def _searching(self) -> None:
        """Forget the search for the last selector."""
        self.waited = self.scrolled = 0
        self.direction: Direction | None = "down"
        self.last_screen: str | None = None
        self.hid_keyboard = False

    def step(self, observation: Observation) -> AgentStep:
        if not self.script:
            return AgentStep(Finish(status="infeasible"), output="oracle: this task has no golden script")
        if self.position >= len(self.script):
            return AgentStep(Finish(status="done"), output="oracle: script finished")
        action = self.script[self.position]
        selector = getattr(action, "selector", None)
        if selector is not None and find(observation.all_elements, selector) is None:
            search = self._search(observation, selector.model_dump(exclude_defaults=True))
            if search is not None:
                return search
        self.position += 1
        self._searching()
        if isinstance(action, Tap | LongPress) and action.selector is not None:
            action = _uncovered(action, observation.all_elements)
        return AgentStep(action, output=f"oracle: golden step {self.position}/{len(self.script)}")

    def _search(self, observation: Observation, wanted: dict[str, object]) -> AgentStep | None:
        """The next move in looking for a selector not on screen: hide the keyboard, scroll the biggest
        scrollable view down to its end, then up, then wait a little; None once all that is done. Scrolls
        come before waits because a task's step limit leaves little room: on the virtual phone a screen is
        complete when it is observed, and a wait only helps a device still drawing."""
        if observation.keyboard_shown and not self.hid_keyboard:
            self.hid_keyboard = True  # on a small screen the keyboard covers the form's lower fields
            return AgentStep(Key(key="back"), output=f"oracle: hiding the keyboard to look for {wanted}")
        at_end = self.last_screen == observation.hierarchy_xml  # the last scroll moved nothing
        if self.direction is not None and (at_end or self.scrolled >= self.scrolls):
            self.direction = "up" if self.direction == "down" else None
            self.scrolled = 0
        candidates = [e for e in observation.elements if e.scrollable]
        if self.direction is not None and candidates:
            self.scrolled += 1
            self.last_screen = observation.hierarchy_xml
            biggest = max(candidates, key=lambda e: (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]))
            return AgentStep(Scroll(direction=self.direction, element=observation.elements.index(biggest)),
                             output=f"oracle: scrolling {self.direction} for {wanted}")
        if self.waited < self.patience:
            self.waited += 1
            return AgentStep(Wait(seconds=0.5), output=f"oracle: waiting for {wanted}")
        return None


def _uncovered(action: Tap | LongPress, elements: list[UIElement]) -> Tap | LongPress:
    """The tap at a point of its target that nothing drawn over it takes: a floating button can cover a
    list row's centre on a small or crowded screen (--vary), where a person taps the row beside it."""
    assert action.selector is not None
    target = find(elements, action.selector)
    if target is None:
        return action
    left, top, right, bottom = target.bounds
    above = [e.bounds for e in elements[elements.index(target) + 1:]
             if e.clickable and not (left <= e.bounds[0] and e.bounds[2] <= right
                                     and top <= e.bounds[1] and e.bounds[3] <= bottom)]  # not its own child

    def free(x: int, y: int) -> bool:
        return not any(b[0] <= x < b[2] and b[1] <= y < b[3] for b in above)

    cx, cy = target.center
    if free(cx, cy):
        return action
    for fx in (0.5, 0.35, 0.2, 0.1, 0.65, 0.8, 0.9):
        for fy in (0.5, 0.3, 0.7):
            x, y = left + int((right - left) * fx), top + int((bottom - top) * fy)
            if free(x, y):
                return action.model_copy(update={"selector": None, "x": x, "y": y})
    return action
