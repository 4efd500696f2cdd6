"""`spa-bench evaluate RUN_DIR`: re-score a finished run (no agent runs), print metrics; `--calibrate`
compares the screen-based evaluators with state-check ground truth."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from spa_bench.cli.common import console
from spa_bench.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from spa_bench.evaluation.pipeline import EpisodeEvaluation

ACTION_MODES = ("annotated", "dots", "plain")


def _fmt(value: Any, kind: str = "num") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if kind == "pct":
        return f"{100 * value:.1f}%"
    if kind == "usd":
        return f"${value:.4f}"
    if kind == "int":
        return f"{int(value)}"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def metrics_table(agents: pd.DataFrame, title: str) -> Table:
    """One row per agent: success with its 95% Wilson interval, SPA-Bench's termination rates, step
    ratio, time, tokens and cost (agent and evaluators apart)."""
    table = Table(title=title, title_justify="left")
    headers = ("agent", "episodes", "success", "rate [95% CI]", "completion", "premature", "overdue",
               "step ratio", "time/ep", "time/step", "tokens/ep", "cost", "eval cost")
    for header in headers:
        table.add_column(header, justify="left" if header == "agent" else "right")
    for row in agents.to_dict(orient="records"):
        ci = f"[{_fmt(row['success_ci_low'], 'pct')}, {_fmt(row['success_ci_high'], 'pct')}]"
        table.add_row(
            str(row["agent"]), _fmt(row["episodes"], "int"), f"{row['successes']}/{row['decided']}",
            f"{_fmt(row['success_rate'], 'pct')} {ci}", _fmt(row["completion_rate"], "pct"),
            _fmt(row["premature_rate"], "pct"), _fmt(row["overdue_rate"], "pct"),
            _fmt(row["mean_step_ratio"]), f"{_fmt(row['mean_time_s'])}s", f"{_fmt(row['time_per_step_s'])}s",
            _fmt(row["mean_tokens"], "int") if not math.isnan(row["mean_tokens"]) else "-",
            _fmt(row["cost_usd"], "usd"), _fmt(row["evaluator_cost_usd"], "usd"))
    return table


def calibration_table_view(frame: pd.DataFrame, title: str) -> Table:
    table = Table(title=title, title_justify="left")
    headers = ("evaluator", "lang", "episodes", "undecided", "TP", "FP", "TN", "FN", "accuracy", "precision",
               "recall", "F1", "kappa")
    for header in headers:
        table.add_column(header, justify="left" if header in ("evaluator", "lang") else "right")
    for row in frame.to_dict(orient="records"):
        counts = (str(row[k]) for k in ("episodes", "undecided", "tp", "fp", "tn", "fn"))
        table.add_row(str(row["evaluator"]), str(row["language"]), *counts,
                      *(_fmt(row[k]) for k in ("accuracy", "precision", "recall", "f1", "kappa")))
    return table


def _judge_options(model: str | None, base_url: str | None, key_env: str, mode: str, retries: int,
                   max_side: int | None, price_in: float | None, price_out: float | None,
                   concurrency: int | None) -> dict[str, Any]:
    from pydantic import ValidationError

    from spa_bench.evaluation.judge_config import DEFAULT_JUDGE_MODEL, default_judge_config
    from spa_bench.models import ImageSettings

    if mode not in ACTION_MODES:
        raise ConfigError(f"--judge-action-mode must be one of {', '.join(ACTION_MODES)}, not {mode!r}")
    try:
        config = default_judge_config(model or DEFAULT_JUDGE_MODEL, base_url=base_url,
                                      api_key_env=key_env or None, price_in=price_in, price_out=price_out,
                                      concurrency=concurrency,
                                      image=ImageSettings(detail="high", max_side=max_side))
    except ValidationError as exc:
        raise ConfigError(f"judge model: {exc.errors()[0]['msg']}") from None
    return {"model": config, "action_mode": mode, "parse_retries": retries}


def evaluate(
    run_dir: Path = typer.Argument(..., help="A run folder (results/<run-id>)."),
    evaluator: list[str] = typer.Option([], "--evaluator", "-e",
                                        help="Evaluator (repeatable): key_components, judge, or a plug-in. "
                                             "Default: key_components (+ judge with --judge-model)."),
    judge_model: str | None = typer.Option(None, "--judge-model", help="Judge model name (e.g. gpt-4o)."),
    judge_base_url: str | None = typer.Option(None, "--judge-base-url",
                                              help="OpenAI-compatible endpoint; default OpenAI."),
    judge_api_key_env: str = typer.Option("OPENAI_API_KEY", "--judge-api-key-env",
                                          help="Environment variable holding the judge's key ('' = none)."),
    judge_action_mode: str = typer.Option("annotated", "--judge-action-mode",
                                          help="annotated | dots | plain screenshots."),
    judge_retries: int = typer.Option(2, "--judge-retries", min=0,
                                      help="Re-asks after an unparsable reply before an evaluator error."),
    judge_max_side: int | None = typer.Option(None, "--judge-max-side", min=16,
                                              help="Downscale screenshots to this longer side."),
    judge_price_in: float | None = typer.Option(None, "--judge-price-in", help="USD per 1M input tokens."),
    judge_price_out: float | None = typer.Option(None, "--judge-price-out", help="USD per 1M output tokens."),
    judge_concurrency: int | None = typer.Option(None, "--judge-concurrency", min=1,
                                                 help="Judge calls in flight at most."),
    workers: int = typer.Option(4, "--workers", min=1, help="Episodes evaluated at once."),
    no_gate: bool = typer.Option(False, "--no-gate",
                                 help="Call the judge even where key components failed the episode."),
    calibrate: bool = typer.Option(False, "--calibrate",
                                   help="Compare evaluators with state-check ground truth."),
    out: Path | None = typer.Option(None, "--out", help="Metrics folder; default RUN_DIR/metrics."),
) -> None:
    """Re-score a finished run without running any agent; new verdicts go beside the old ones."""
    from spa_bench.evaluation.export import export_report, write_csv, write_json
    from spa_bench.evaluation.metrics import compute_metrics
    from spa_bench.evaluation.pipeline import close_evaluators, make_evaluators, reevaluate_run
    from spa_bench.results.layout import RunLayout

    layout = RunLayout(run_dir)
    manifest = layout.read_manifest()
    names = list(evaluator)
    if not names and (judge_model or not calibrate):
        names = ["key_components"] + (["judge"] if judge_model else [])
    if "judge" in names and judge_model is None and judge_base_url is None:
        console.print("[yellow]no --judge-model: the judge uses gpt-4o at OpenAI[/]")
    options = {"judge": _judge_options(judge_model, judge_base_url, judge_api_key_env, judge_action_mode,
                                       judge_retries, judge_max_side, judge_price_in, judge_price_out,
                                       judge_concurrency)}
    if names:
        evaluators = make_evaluators(names, {k: v for k, v in options.items() if k in names})
        try:
            def show(outcome: EpisodeEvaluation) -> None:
                for verdict in outcome.added:
                    mark = {True: "[green]✓[/]", False: "[red]✗[/]", None: "[yellow]?[/]"}[verdict.success]
                    why = f" ({verdict.error.message})" if verdict.error else ""
                    console.print(f"{mark} {outcome.episode_id}: {verdict.evaluator}{why}", highlight=False)

            done = reevaluate_run(layout.root, evaluators, workers=workers, gate=not no_gate, progress=show)
        finally:
            close_evaluators(evaluators)
        console.print(f"{done.verdicts} new verdicts on {done.evaluated} episodes ({done.errors} evaluator "
                      f"errors, {len(done.skipped)} episodes not scored)")
        logs = done.logs
    else:
        logs = list(layout.episodes())
    folder = out or layout.root / "metrics"
    if not calibrate or names:
        report = compute_metrics(logs)
        console.print(metrics_table(report.agents, f"run {manifest.run_id}"))
        written = export_report(report, folder)
        console.print(f"metrics: {', '.join(str(p) for p in written[-1:])} (+ {len(written) - 1} CSV files)")
    if calibrate:
        from spa_bench.evaluation.calibration import calibration_table

        frame = calibration_table(logs)
        if frame.empty:
            console.print("[yellow]nothing to calibrate: no episode of a task with checks has both a state "
                          "verdict and another evaluator's verdict; score the run first with "
                          f"`spa-bench evaluate {run_dir}` (add --judge-model M for the judge)[/]")
            return
        console.print(calibration_table_view(frame, f"evaluators vs state checks, run {manifest.run_id}"))
        write_csv(frame, folder / "calibration.csv")
        write_json(frame, folder / "calibration.json")
        console.print(f"calibration: {folder / 'calibration.csv'}")
