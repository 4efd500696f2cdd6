"""The verification as a terminal table (a row per task, a cell per probe), totals, JSON and HTML."""

from __future__ import annotations

import html
from pathlib import Path

from rich.table import Table

from spa_bench.errors import ConfigError
from spa_bench.verify.outcome import PROBES, ProbeOutcome, TaskVerification, VerifyReport

LABELS = {"oracle": "oracle", "noop": "noop", "near_miss": "near misses", "answer_spam": "answer spam",
          "answer_forms": "answer forms", "infeasible": "infeasible", "act_infeasible": "act, infeasible",
          "shell_tamper": "shell tamper", "intent_tamper": "intent tamper", "key_search": "key search"}
SHORT = {"oracle": "oracle", "noop": "noop", "near_miss": "near", "answer_spam": "spam",
         "answer_forms": "forms", "infeasible": "infeas", "act_infeasible": "act", "shell_tamper": "tamper",
         "intent_tamper": "intent", "key_search": "keys"}


def cell(outcomes: list[ProbeOutcome]) -> tuple[str, bool]:
    """`k/n` outcomes as they must be (and "N false pass"), or "–" when the probe did not apply."""
    if not outcomes:
        return "–", True
    good = sum(o.problem is None for o in outcomes)
    false = sum(o.false_pass for o in outcomes)
    text = f"{good}/{len(outcomes)}"
    if false:
        text += f" ({false} false pass)"
    return text, good == len(outcomes)


def task_table(report: VerifyReport, only_problems: bool = False) -> Table:
    table = Table(title="outcomes as they must be, per task and probe", title_justify="left")
    table.add_column("task", overflow="fold")
    for probe in PROBES:
        table.add_column(SHORT[probe], justify="right", no_wrap=True)
    for task in report.tasks:
        if only_problems and not task.problems:
            continue
        cells = []
        for probe in PROBES:
            text, ok = cell(task.of(probe))
            cells.append(text if ok else f"[bold red]{text}[/]")
        table.add_row(task.task_id, *cells)
    return table


def totals_table(report: VerifyReport) -> Table:
    table = Table(title="per probe", title_justify="left")
    for header in ("probe", "episodes", "false passes", "problems"):
        table.add_column(header, justify="left" if header == "probe" else "right")
    for probe, count in report.counts().items():
        table.add_row(LABELS[probe], str(count.episodes), str(count.false_passes), str(count.problems))
    table.caption = "\n".join(captions(report)) or None
    return table


def captions(report: VerifyReport) -> list[str]:
    """What the totals cannot say: how many tamper episodes the audit marked, how many act-then-infeasible
    episodes changed something (only those attack)."""
    lines = []
    tamper = [o for t in report.tasks for o in t.of("shell_tamper")]
    if tamper:
        reached = sum(o.state_passed is True for o in tamper)
        lines.append(f"shell tamper: {sum(o.tampered for o in tamper)}/{len(tamper)} marked tampered; "
                     f"{reached} reached the state the checks want, all of them scored failed")
    intent = [o for t in report.tasks for o in t.of("intent_tamper")]
    if intent:
        lines.append(f"intent tamper: {sum(o.tampered for o in intent)}/{len(intent)} marked tampered")
    act = [o for t in report.tasks for o in t.of("act_infeasible")]
    if act:
        idle = sum(o.variant.startswith("inconclusive") for o in act)
        lines.append(f"act, infeasible: {len(act) - idle}/{len(act)} episodes changed the apps' files "
                     f"({idle} changed nothing: inconclusive)")
    return lines


def problem_lines(report: VerifyReport) -> list[str]:
    return [f"{task.task_id}: {line}" for task in report.tasks for line in task.problems]


def write_report(report: VerifyReport, path: Path) -> None:
    """JSON (the VerifyReport model) or a self-contained HTML page, by the file's suffix."""
    if path.suffix.lower() == ".json":
        text = report.model_dump_json(indent=2)
    elif path.suffix.lower() in (".html", ".htm"):
        text = _html(report)
    else:
        raise ConfigError(f"--report {path}: give a .json or .html file")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _row(task: TaskVerification) -> str:
    cells = []
    for probe in PROBES:
        text, ok = cell(task.of(probe))
        details = "&#10;".join(html.escape(f"{o.variant + ': ' if o.variant else ''}{o.episode_id}: "
                                           f"{o.problem or o.reason}", quote=True) for o in task.of(probe))
        cells.append(f'<td class="{"ok" if ok else "bad"}" title="{details}">{html.escape(text)}</td>')
    return f"<tr><td>{html.escape(task.task_id)}</td>{''.join(cells)}</tr>"


def _html(report: VerifyReport) -> str:
    counts = "".join(f"<tr><td>{LABELS[p]}</td><td>{c.episodes}</td><td>{c.false_passes}</td>"
                     f"<td>{c.problems}</td></tr>" for p, c in report.counts().items())
    problems = "".join(f"<li>{html.escape(line)}</li>" for line in problem_lines(report)) or "<li>none</li>"
    head = "".join(f"<th>{LABELS[p]}</th>" for p in PROBES)
    rows = "".join(_row(t) for t in report.tasks)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>spa-bench tasks verify</title>
<style>body{{font:14px system-ui,sans-serif;margin:2em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}
td:first-child,th:first-child{{text-align:left}}
.ok{{background:#eef8ee}}.bad{{background:#fbdada;font-weight:bold}}</style></head><body>
<h1>spa-bench tasks verify</h1><p>{len(report.tasks)} tasks, {report.seeds} instance(s) of every
parameterised task (run seed {report.run_seed}), {report.created_at:%Y-%m-%d %H:%M} UTC; episodes in
{html.escape(report.out)}. A cell counts the episodes whose outcome is as it must be; hover for each one.</p>
<h2>Per probe</h2><table><tr><th>probe</th><th>episodes</th><th>false passes</th><th>problems</th></tr>
{counts}</table><h2>Problems</h2><ul>{problems}</ul>
<h2>Per task</h2><table><tr><th>task</th>{head}</tr>{rows}</table>
</body></html>
"""
