"""Evaluation: evaluators' contract and registry, OCR with its cache, and the metrics of a run.

Importing this package is light: OCR (rapidocr, onnxruntime) and metrics (pandas) import their heavy
dependencies inside the functions that need them.
"""

from spa_bench.evaluation.base import EVALUATORS, Evaluator
from spa_bench.evaluation.ocr import OcrEngine, OcrLine, OcrResult, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path

__all__ = ["EVALUATORS", "Evaluator", "OcrCache", "OcrEngine", "OcrLine", "OcrResult", "default_cache_path",
           "read_text"]
