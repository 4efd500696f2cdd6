"""Run bundles: one archive of a run with the hashes of what made it, and its verification offline
(`spa-bench bundle`, `spa-bench bundle verify`)."""

from spa_bench.bundle.archive import BundleIndex, OpenedBundle, open_bundle, write_bundle
from spa_bench.bundle.provenance import Provenance, make_provenance

__all__ = ["BundleIndex", "OpenedBundle", "Provenance", "make_provenance", "open_bundle", "write_bundle"]
