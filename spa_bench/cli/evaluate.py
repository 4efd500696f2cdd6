"""`spa-bench evaluate RUN_DIR`: re-score a finished run (no agent, no device), print metrics;
`--calibrate` compares the screen-based evaluators with state-check ground truth."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from spa_bench.cli.common import Column, cli_table, console
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


METRICS_COLUMNS = (
    Column("agent", right=False), Column("episodes"), Column("success"), Column("rate [95% CI]"),
    Column("premature"), Column("time/ep"), Column("completion", wide_only=True),
    Column("overdue", wide_only=True), Column("step ratio", wide_only=True),
    Column("time/step", wide_only=True), Column("tokens/ep", wide_only=True), Column("cost", wide_only=True),
    Column("eval cost", wide_only=True))
CALIBRATION_COLUMNS = (
    Column("evaluator", right=False), Column("lang", right=False), Column("episodes"), Column("undecided"),
    Column("accuracy"), Column("F1"), Column("kappa"), Column("TP", wide_only=True),
    Column("FP", wide_only=True), Column("TN", wide_only=True), Column("FN", wide_only=True),
    Column("precision", wide_only=True), Column("recall", wide_only=True))


def metrics_table(agents: pd.DataFrame, title: str, wide: bool = False,
                  references: frozenset[str] = frozenset()) -> Table:
    """One row per agent: success with its 95% Wilson interval, SPA-Bench's termination rates, step
    ratio, time, tokens and cost (agent and evaluators apart; the last ones with `wide`). `references`:
    agents the full task was revealed to (the oracle), marked "(reference)"."""
    rows = []
    for row in agents.to_dict(orient="records"):
        ci = f"[{_fmt(row['success_ci_low'], 'pct')}, {_fmt(row['success_ci_high'], 'pct')}]"
        agent = str(row["agent"])
        rows.append([
            f"{agent} (reference)" if agent in references else agent, _fmt(row["episodes"], "int"),
            f"{row['successes']}/{row['decided']}",
            f"{_fmt(row['success_rate'], 'pct')} {ci}", _fmt(row["premature_rate"], "pct"),
            f"{_fmt(row['mean_time_s'])}s", _fmt(row["completion_rate"], "pct"),
            _fmt(row["overdue_rate"], "pct"), _fmt(row["mean_step_ratio"]),
            f"{_fmt(row['time_per_step_s'])}s",
            _fmt(row["mean_tokens"], "int") if not math.isnan(row["mean_tokens"]) else "-",
            _fmt(row["cost_usd"], "usd"), _fmt(row["evaluator_cost_usd"], "usd")])
    return cli_table(title, METRICS_COLUMNS, rows, wide)


def calibration_table_view(frame: pd.DataFrame, title: str, wide: bool = False) -> Table:
    rows = []
    for row in frame.to_dict(orient="records"):
        rows.append([str(row["evaluator"]), str(row["language"]), str(row["episodes"]), str(row["undecided"]),
                     _fmt(row["accuracy"]), _fmt(row["f1"]), _fmt(row["kappa"]),
                     *(str(row[k]) for k in ("tp", "fp", "tn", "fn")),
                     _fmt(row["precision"]), _fmt(row["recall"])])
    return cli_table(title, CALIBRATION_COLUMNS, rows, wide)


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
                                        help="Evaluator (repeatable): state, key_components, judge, or a "
                                             "plug-in. Default: those the run's verdicts record (each "
                                             "built again from its logged spec), else state and "
                                             "key_components (+ judge with --judge-model)."),
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
                                   help="Also run the screen-based evaluators where state checks decide, "
                                        "and compare them with that ground truth."),
    tasks_dir: Path | None = typer.Option(None, "--tasks-dir",
                                          help="Current task definitions for the state checks; default "
                                               "the folder the run's manifest names."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Where the product goes: the metrics folder "
                                                              "(default RUN_DIR/metrics)."),
    model_cache: Path | None = typer.Option(None, "--model-cache",
                                            help="Keep the judge's replies in this folder, and answer "
                                                 "from it what it holds (see `run --model-cache`)."),
    model_cache_replay: bool = typer.Option(False, "--model-cache-replay",
                                            help="With --model-cache: a judge request not in the cache "
                                                 "is an error, never a call (offline)."),
    wide: bool = typer.Option(False, "--wide", help="Every column of the tables."),
) -> None:
    """Re-score a finished run without running any agent or device; new verdicts go beside the old ones.

    State checks are scored from the device state each episode captured; key components (OCR) and the
    judge run only where no state check decides, or everywhere with --calibrate."""
    from spa_bench.evaluation.export import export_report, write_csv, write_json
    from spa_bench.evaluation.metrics import compute_metrics
    from spa_bench.evaluation.pipeline import (
        build_evaluator,
        close_evaluators,
        logged_specs,
        make_evaluators,
        reevaluate_run,
    )
    from spa_bench.models.cache import ModelCache, use_cache
    from spa_bench.results.layout import RunLayout

    layout = RunLayout(run_dir)
    manifest = layout.read_manifest()
    if tasks_dir is not None and not tasks_dir.is_dir():
        raise ConfigError(f"--tasks-dir {tasks_dir}: no such folder")
    if model_cache_replay and model_cache is None:
        raise ConfigError("--model-cache-replay needs --model-cache DIR")
    cache = ModelCache(model_cache, replay_only=model_cache_replay) if model_cache is not None else None
    specs = logged_specs(layout.episodes()) if not evaluator and not judge_model else []
    if specs:
        console.print("evaluators from the run's logged specs: "
                      + ", ".join(s.name for s in specs), highlight=False)
    else:
        names = list(evaluator) or ["state", "key_components"] + (["judge"] if judge_model else [])
        if "judge" in names and judge_model is None and judge_base_url is None:
            console.print("[yellow]no --judge-model: the judge uses gpt-4o at OpenAI[/]")
        options = {"judge": _judge_options(judge_model, judge_base_url, judge_api_key_env, judge_action_mode,
                                           judge_retries, judge_max_side, judge_price_in, judge_price_out,
                                           judge_concurrency)}

    def show(outcome: EpisodeEvaluation) -> None:
        for verdict in outcome.added:
            mark = {True: "[green]✓[/]", False: "[red]✗[/]", None: "[yellow]?[/]"}[verdict.success]
            why = f" ({verdict.error.message})" if verdict.error else ""
            console.print(f"{mark} {outcome.episode_id}: {verdict.evaluator}{why}", highlight=False)

    with use_cache(cache):  # model clients take the cache that is active when they are made
        evaluators = [build_evaluator(spec) for spec in specs] if specs else \
            make_evaluators(names, {k: v for k, v in options.items() if k in names})
        try:
            done = reevaluate_run(layout.root, evaluators, workers=workers, gate=not no_gate,
                                  calibrate=calibrate, tasks_root=tasks_dir, progress=show)
        finally:
            close_evaluators(evaluators)
    console.print(f"{done.verdicts} new verdicts on {done.evaluated} episodes ({done.errors} evaluator "
                  f"errors, {len(done.skipped)} episodes not scored)")
    logs = done.logs
    folder = out or layout.root / "metrics"
    report = compute_metrics(logs)
    references = frozenset(log.agent.name for log in logs if log.agent.reference)
    console.print(metrics_table(report.agents, f"run {manifest.run_id}", wide, references))
    written = export_report(report, folder)
    console.print(f"metrics: {', '.join(str(p) for p in written[-1:])} (+ {len(written) - 1} CSV files)")
    if calibrate:
        from spa_bench.evaluation.calibration import calibration_table

        frame = calibration_table(logs)
        if frame.empty:
            console.print("[yellow]nothing to calibrate: no episode of a task with checks has both a state "
                          "verdict and another evaluator's verdict (add --judge-model M for the judge, "
                          "or -e key_components)[/]")
            return
        console.print(calibration_table_view(frame, f"evaluators vs state checks, run {manifest.run_id}",
                                             wide))
        write_csv(frame, folder / "calibration.csv")
        write_json(frame, folder / "calibration.json")
        console.print(f"calibration: {folder / 'calibration.csv'}")
