"""`spa-bench report RUN_DIR... -o report.html [--embed]`: the HTML report of one or more runs."""

from __future__ import annotations

from pathlib import Path

import typer

from spa_bench.cli.common import console


def report(
    run_dirs: list[Path] = typer.Argument(..., help="Run folders (results/<run-id>), one or more."),
    out: Path | None = typer.Option(None, "--out", "-o",
                                    help="Where the product goes: the HTML file to write (default: "
                                         "report.html in the first run folder)."),
    embed: bool = typer.Option(False, "--embed",
                               help="Embed screenshots as JPEG thumbnails: one portable file. Default: "
                                    "screenshots are referenced relative to the report (small file)."),
    merge: bool = typer.Option(False, "--merge", help="Pool the same agent of several runs into one row "
                                                      "(default: one row per run, 'agent @ run')."),
    all_tasks: bool = typer.Option(False, "--all-tasks", help="Score agents evaluated on different task "
                                                              "sets on all their tasks (default: on the "
                                                              "tasks they share)."),
) -> None:
    """Write the HTML report (leaderboard, charts, every step of every episode) and print the
    leaderboard."""
    from spa_bench.report import write_report
    from spa_bench.report.terminal import (
        hard_tables,
        leaderboard_table,
        repeats_notes,
        repeats_table,
        robust_tables,
    )

    result = write_report(run_dirs, out, embed=embed, merge=merge, all_tasks=all_tasks)
    title = result.runs[0].manifest.run_id if len(result.runs) == 1 else f"{len(result.runs)} runs"
    for note in result.notes or []:  # how the runs were put together, before the figures
        console.print(f"[yellow]note:[/] {note}", highlight=False, soft_wrap=True)
    console.print(leaderboard_table(result.metrics.agents, title=f"leaderboard: {title}",
                                    width=console.width))
    for table in [*(hard_tables(result.hard, width=console.width) if result.hard else []),
                  *(robust_tables(result.robust) if result.robust else []),
                  *([repeats_table(result.repeats)] if result.repeats else [])]:
        console.print(table)
    for line in repeats_notes(result.repeats) if result.repeats else []:
        console.print(line, highlight=False, soft_wrap=True)
    unreadable = sum(len(run.unreadable) for run in result.runs)
    if unreadable:
        console.print(f"[yellow]{unreadable} episode log(s) could not be read; listed in the report[/]")
    size = result.size_bytes / 1e6
    console.print(f"report: {result.path} ({result.episodes} episodes, {size:.1f} MB, "
                  f"{result.seconds:.1f} s)", highlight=False, soft_wrap=True)
