"""The results contract: run manifest, episode log, folder layout. The runner writes it, the evaluators
and the report read it; nothing else is read by the report."""

from spa_bench.results.schema import (
    RESULTS_SCHEMA_VERSION,
    AgentSpec,
    DeviceInfo,
    EpisodeLog,
    ErrorInfo,
    ObservationRef,
    RunManifest,
    StepRecord,
    TokenUsage,
    Verdict,
)

__all__ = ["RESULTS_SCHEMA_VERSION", "AgentSpec", "DeviceInfo", "EpisodeLog", "ErrorInfo",
           "ObservationRef", "RunManifest", "StepRecord", "TokenUsage", "Verdict"]
