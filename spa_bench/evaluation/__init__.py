"""Evaluation: evaluators' contract and registry, OCR with its cache, the verdict policy, the pipeline
that runs evaluators on finished episodes, calibration against state checks, and the metrics of a run.

Importing this package is light: OCR (rapidocr, onnxruntime) and metrics (pandas) import their heavy
dependencies inside the functions that need them.
"""

from spa_bench.evaluation.base import EVALUATORS, BaseEvaluator, Evaluator, RunContext
from spa_bench.evaluation.calibration import Agreement, calibrate, calibration_table
from spa_bench.evaluation.export import export_report, write_csv, write_json
from spa_bench.evaluation.metrics import MetricsReport, compute_metrics, episode_table, summarize
from spa_bench.evaluation.ocr import OcrEngine, OcrLine, OcrResult, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path
from spa_bench.evaluation.pipeline import evaluate_episode, make_evaluators, reevaluate_run
from spa_bench.evaluation.policy import SuccessDecision, decide_success

__all__ = ["EVALUATORS", "Agreement", "BaseEvaluator", "Evaluator", "MetricsReport", "OcrCache", "OcrEngine",
           "OcrLine", "OcrResult", "RunContext", "SuccessDecision", "calibrate", "calibration_table",
           "compute_metrics", "decide_success", "default_cache_path", "episode_table", "evaluate_episode",
           "export_report", "make_evaluators", "read_text", "reevaluate_run", "summarize", "write_csv",
           "write_json"]
