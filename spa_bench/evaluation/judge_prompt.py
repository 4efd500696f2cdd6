"""The MLLM judge's prompts and the parsers of its answers (SPA-Bench's method, our wording).

Three kinds of call:
- judgement: the guidelines of what counts as complete (system), the task and the screenshots (user);
  the answer ends in `Result: 1` or `Result: 0`, optionally after `Reason: ...`;
- split (cross-app tasks without recorded foreground packages): every screenshot and the ordered app
  list; the answer is a JSON object giving each app's first and last screenshot;
- memory: what a subtask produced (e.g. the flights it found), summarised for later subtasks.
Parsers raise UnparsableReply; the judge re-asks, then records an evaluator error (never a success).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from spa_bench.evaluation.annotate import ActionMode


class UnparsableReply(ValueError):
    """The model's answer does not follow the requested format."""


GUIDELINES = """\
You judge whether a smartphone agent completed a task. You receive the task and the screenshots the \
agent saw, in the order they were taken. Decide from what the screenshots show.

How to judge:
1. Evidence only: judge from what is visible. Do not assume anything the screenshots do not show.
2. All parts: the task is complete only when every part of it is done. Doing part of it is a failure.
3. Exact match: a wrong entity (another contact, place, product, date, setting) or a wrong operation \
(sharing instead of saving, liking instead of following) fails that part, even if it looks similar \
(a 2-star filter is not a 3-star filter; walking directions are not driving directions).
4. Extra actions: once every part is done, later unrelated actions do not matter unless they undo it.
5. Filters: a filter must be applied with the app's own filter feature; typing the criterion into a \
search box is not filtering.
6. Order: parts may be done in any order unless one depends on another.
7. Done midway: a part completed in the middle of the trajectory counts even if the last screenshot no \
longer shows it.
8. Corrections: a mistake that is later corrected counts as correct once the correction fully matches the \
task; a task may be finished over several attempts.
9. Overall goal: judge the goal of the task; ignore minor, irrelevant details.
10. Look closely: small UI differences (a highlighted tab, a switch's position, a checked box, a colour) \
can decide whether a part was done.
"""

ACTION_GUIDELINES = """\
11. Actions: each screenshot may show the action taken on it. Use this only when the screenshots alone \
cannot decide: a pop-up that appeared and vanished between two screenshots may be missing.
12. One action can complete a part (e.g. one tap on a shuffle button).
Actions you may see: tap (select a point), long press (hold a point), swipe/scroll (drag; the content \
moves), type (enter text), keys (back, home, enter), open app, wait, finish (the agent says it is done).
"""

CLOSING = ("Be strict: when the screenshots do not show that the task was done, it was not done. "
           "Answer 1 for success and 0 for failure.")

ANNOTATED_NOTE = """\
The action taken on each screenshot (except the last, after which the agent stopped) is written in a \
white strip below it, under a blue line: "Action" names it and "Detail" gives its text or target. A red \
dot marks where a tap or long press landed; a red arrow shows a swipe or scroll.
"""

DOTS_NOTE = """\
A red dot on a screenshot marks where a tap or long press landed on it; a red arrow shows a swipe or \
scroll. The actions a dot cannot show are listed here by screenshot number:
{actions}
"""

REASON_FORMAT = """\
Answer in exactly this format:
Reason: <one or two sentences, starting with "I believe this task is successful" or "I believe this task \
failed", naming what in the screenshots matches or contradicts the task>
Result: <1 or 0>"""

RESULT_ONLY_FORMAT = "Answer in exactly this format, without reasoning:\nResult: <1 or 0>"


def system_prompt(mode: ActionMode) -> str:
    """The guidelines; the action rules only when actions are shown."""
    return GUIDELINES + (ACTION_GUIDELINES if mode != "plain" else "") + "\n" + CLOSING


def judgement_prompt(instruction: str, mode: ActionMode, *, actions: str = "",
                     history: list[tuple[str, str]] | None = None, with_reason: bool = True,
                     screenshots: int = 0) -> str:
    """The user prompt before the screenshots: the task, earlier subtasks' memory, the action notes and
    the answer format."""
    parts = [f"The task:\n**{instruction}**"]
    if history:
        lines = "\n".join(f"- {what}: {summary}" for what, summary in history)
        parts.append("What earlier parts of the task found (use it to judge this part):\n" + lines)
    parts.append(f"Below are {screenshots} screenshots in order. Decide whether the task was completely "
                 "and correctly done.")
    if mode == "annotated":
        parts.append(ANNOTATED_NOTE)
    elif mode == "dots":
        parts.append(DOTS_NOTE.format(actions=actions or "(none)"))
    parts.append(REASON_FORMAT if with_reason else RESULT_ONLY_FORMAT)
    return "\n\n".join(parts)


_RESULT = re.compile(r"\**\s*Result\s*\**\s*[:：]\s*\**\s*\[?\s*([01])\b", re.IGNORECASE)
_REASON = re.compile(r"\**\s*Reason\s*\**\s*[:：]\s*\**\s*(.*?)\s*(?=\**\s*Result\s*\**\s*[:：]|\Z)",
                     re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class Judgement:
    success: bool
    reason: str


def parse_judgement(text: str) -> Judgement:
    """`Reason: ... Result: 1|0` (or `Result: 1|0` alone). Markdown bold and a full-width colon are
    accepted; no Result line, or Result lines that disagree, raise UnparsableReply."""
    results = {m.group(1) for m in _RESULT.finditer(text)}
    if not results:
        raise UnparsableReply(f"no 'Result: 1|0' in the reply: {_shorten(text)!r}")
    if len(results) > 1:
        raise UnparsableReply(f"the reply gives both results: {_shorten(text)!r}")
    reason_match = _REASON.search(text)
    reason = reason_match.group(1).strip() if reason_match else ""
    return Judgement(success=results.pop() == "1", reason=reason)


# -- cross-app split -----------------------------------------------------------------------------

SPLIT_SYSTEM = """\
You see the screenshots of a smartphone agent working across several apps, numbered from 1 in the order \
they were taken, and the ordered list of apps the task uses. Split the screenshots into one segment per \
app of the list:
1. Keep the order of the list, even where the screenshots seem to differ.
2. A segment runs from the screenshot where the agent opens or enters the app to the last screenshot \
where it operates in it.
3. Use only screenshot numbers you were given (from 1 to the number of screenshots).
4. If an app of the list never appears, give -1 as its start and end.
5. Leave out screenshots of the home screen and of apps not in the list.
6. An app may be listed twice (name_1, name_2): another app comes between its two segments.
7. Adverts, pop-ups and notifications are not app switches.
Answer with the segments as one JSON object, and nothing after it, e.g.
{"AppA_1": {"start": 1, "end": 3}, "AppB": {"start": 4, "end": 5}, "AppA_2": {"start": 7, "end": 9}}"""


def split_prompt(apps: list[str], screenshots: int) -> str:
    return (f"The app list, in order: {json.dumps(apps, ensure_ascii=False)}\n"
            f"You receive {screenshots} screenshots. Give the segments in the order of the app list.")


def app_labels(names: list[str]) -> list[str]:
    """SPA-Bench's keys: an app listed more than once gets _1, _2, ... in order."""
    counts = {n: names.count(n) for n in names}
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        if counts[name] == 1:
            labels.append(name)
        else:
            seen[name] = seen.get(name, 0) + 1
            labels.append(f"{name}_{seen[name]}")
    return labels


def parse_split(text: str, labels: list[str]) -> dict[str, tuple[int, int]]:
    """The JSON object of the split reply, as label -> (start, end) as numbered in the prompt (1-based;
    -1 for a missing app). Keys "start screen"/"end screen" (SPA-Bench's) are accepted too."""
    data = _last_json_object(text)
    if data is None:
        raise UnparsableReply(f"no JSON object in the split reply: {_shorten(text)!r}")
    out: dict[str, tuple[int, int]] = {}
    lookup = {_key(k): v for k, v in data.items()}
    for label in labels:
        entry = lookup.get(_key(label))
        if not isinstance(entry, dict):
            raise UnparsableReply(f"the split reply has no segment for {label!r}")
        start = entry.get("start", entry.get("start screen"))
        end = entry.get("end", entry.get("end screen"))
        if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool):
            raise UnparsableReply(f"segment {label!r} needs integer start and end, got {entry!r}")
        out[label] = (start, end)
    return out


def _key(label: str) -> str:
    return "".join(label.split()).casefold()


def _last_json_object(text: str) -> dict[str, object] | None:
    decoder = json.JSONDecoder()
    found: dict[str, object] | None = None
    index = text.find("{")
    while index != -1:
        try:
            value, end = decoder.raw_decode(text, index)
        except ValueError:
            index = text.find("{", index + 1)
            continue
        if isinstance(value, dict):
            found = value
        index = text.find("{", end)
    return found


# -- memory ---------------------------------------------------------------------------------------

MEMORY_SYSTEM = """\
You summarise what screenshots of a smartphone show about a description the user gives. Use only the \
screenshots related to the description. If they show a list of results (e.g. search results), list all \
the relevant ones. Answer in one short plain paragraph: no bullet points, no steps, no line breaks."""


def memory_prompt(description: str) -> str:
    return f"The description: {description}"


def _shorten(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
