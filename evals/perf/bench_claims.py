"""Benchmark the write path's own cost per fact, to compare a build with the claim layer
against one without it.

Run from the project root (or from a checkout of another commit, with this venv's Python,
to measure that commit's code the same way)::

    .venv/bin/python evals/perf/bench_claims.py --label claims
    .venv/bin/python evals/perf/bench_claims.py --captures 300 --label quick

The captures are bench_remember_many's generated chat lines (200 services: changing
states, numbers, decisions, restatements). Embedding is taken out of the measurement: a
first pass embeds every text once with the local MiniLM model and keeps the vectors, and
the measured passes use an embedder that answers from that cache, so what is timed is
extraction (the rule extractor), the write path's transaction and its SQL. Each pass runs
on a fresh database of one embedded server:

a. ``remember`` once per capture (one transaction each);
b. ``remember_many`` (batches of 64).

Each pass is run ``--repeat`` times (default 3) and the median kept. The result is merged
into evals/perf/results/bench_claims.json under ``--label``. Not a test: nothing is
asserted; docs/performance.md ("The claim layer's write cost") explains the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

from factstore import Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402
from factstore.store import server  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "bench_claims.json"


def captures(n: int, seed: int = 5) -> list[dict]:
    """bench_remember_many's captures (kept in step by importing them when present)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_remember_many import captures as generated

    return generated(n, seed)


class CachedEmbedder:
    """Answers from vectors computed once; a text it has not seen is an error (the
    benchmark's first pass must have embedded everything the measured passes ask for)."""

    def __init__(self, inner: LocalEmbedder) -> None:
        self.name, self.dim = inner.name, inner.dim
        self._inner = inner
        self._cache: dict[str, np.ndarray] = {}
        self.learning = True

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            if not self.learning:
                raise RuntimeError(f"{len(missing)} text(s) were not embedded in the first pass")
            for text, vector in zip(missing, self._inner.embed(missing), strict=True):
                self._cache[text] = np.asarray(vector, dtype=np.float32)
        return np.stack([self._cache[t] for t in texts]) if texts else \
            np.zeros((0, self.dim), dtype=np.float32)


def _fresh(admin: str, name: str, embedder: CachedEmbedder) -> Store:
    server.drop_database(admin, name)
    server.ensure_database(admin, name)
    return Store.open(server.with_database(admin, name), embedder=embedder,
                      extractor=RuleExtractor())


def _one_by_one(store: Store, batch: list[dict]) -> tuple[float, int]:
    started = time.perf_counter()
    facts = 0
    for capture in batch:
        text = capture["text"]
        fields = {k: v for k, v in capture.items() if k != "text"}
        facts += len(store.remember(text, **fields).outcomes)
    return time.perf_counter() - started, facts


def _many(store: Store, batch: list[dict]) -> tuple[float, int]:
    started = time.perf_counter()
    results = store.remember_many(batch, batch_size=64)
    return time.perf_counter() - started, sum(len(r.outcomes) for r in results)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captures", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--label", required=True)
    parser.add_argument("--home", default=str(ROOT / ".factstore" / "bench-claims"))
    args = parser.parse_args()
    batch = captures(args.captures)
    admin = server.embedded_admin_dsn(server.factstore_home(args.home))
    embedder = CachedEmbedder(LocalEmbedder())
    with _fresh(admin, "bench_claims_warm", embedder) as store:  # fills the cache
        _many(store, batch)
        _one_by_one(store, batch[:1])
    embedder.learning = False
    figures: dict[str, dict[str, float]] = {}
    for name, run in (("remember", _one_by_one), ("remember_many", _many)):
        seconds, facts = [], 0
        for n in range(args.repeat):
            with _fresh(admin, f"bench_claims_{n}", embedder) as store:
                took, facts = run(store, batch)
                counts = store.row_counts()
            seconds.append(took)
        median = statistics.median(seconds)
        figures[name] = {"seconds": round(median, 3), "facts": facts,
                         "ms_per_fact": round(1000 * median / max(facts, 1), 3),
                         "ms_per_capture": round(1000 * median / len(batch), 3),
                         "runs": [round(s, 3) for s in seconds]}
        print(f"{name}: {median:.2f} s for {len(batch)} captures, {facts} facts: "
              f"{figures[name]['ms_per_fact']:.2f} ms per fact")
    for db in ["bench_claims_warm", *(f"bench_claims_{n}" for n in range(args.repeat))]:
        server.drop_database(admin, db)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    recorded = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    recorded[args.label] = {"commit": _commit(), "captures": len(batch),
                            "tables": counts, **figures}
    RESULTS.write_text(json.dumps(recorded, indent=2) + "\n")
    print(f"written to {RESULTS} under {args.label!r}")


if __name__ == "__main__":
    main()
