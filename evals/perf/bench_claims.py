"""Benchmark the write path's own cost per fact, this tree against a baseline checkout (the
commit before the claim layer), in interleaved runs.

Run from the project root::

    git worktree add /tmp/base <commit>                   # the baseline, any older commit
    .venv/bin/python evals/perf/bench_claims.py --baseline /tmp/base
    .venv/bin/python evals/perf/bench_claims.py --baseline /tmp/base --rounds 2 --captures 300

Two streams of generated captures:

- ``ops``: bench_remember_many's chat lines (200 services: changing states, numbers,
  decisions, rules, restatements; many contested facts);
- ``testimony``: facts that never contradict each other (each service keeps one state and
  one token path), restated across 50 sources: nearly every fact is written or taken as
  testimony, so the difference is the claim layer's own cost.

Embedding is taken out of the measurement: each run first embeds every text once with the
local MiniLM model and keeps the vectors, and the measured passes use an embedder that
answers from that cache, so what is timed is extraction (the rule extractor), the write
path's transaction and its SQL. A measured pass writes all captures into a fresh database,
with ``remember`` once per capture (one durable transaction each) and with
``remember_many`` (batches of 64, committed without waiting for the disk, flushed at the
end).

This machine's speed drifts by up to 2x over minutes (shared CPUs), so a figure from one
run says little. Each round runs the baseline and this tree one after the other, each in a
child process of its own Python (the baseline's own ``factstore`` package is imported from
its checkout), three passes each; the medians over every round are compared. Results go
to evals/perf/results/bench_claims.json; docs/performance.md ("The claim layer's write
cost") explains them. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
RESULTS = HERE.parent / "results" / "bench_claims.json"
STREAMS = ("ops", "testimony")
PATHS = ("remember", "remember_many")


def captures(n: int, stream: str, seed: int = 5) -> list[dict]:
    """The stream's captures (see the module doc)."""
    if stream == "testimony":
        rng = random.Random(seed)
        out = []
        for i in range(n):
            k = rng.randrange(200)
            text = rng.choice((f"svc-{k} is {('green', 'red', 'degraded')[k % 3]} right now.",
                               f"The svc-{k} runner token lives at /etc/svc-{k}/runner.env."))
            out.append({"text": text, "source_ref": f"chat:{rng.randrange(50)}",
                        "captured_at": f"2026-03-01T{i // 60 % 24:02d}:{i % 60:02d}:00Z"})
        return out
    sys.path.insert(0, str(HERE.parent))
    from bench_remember_many import captures as generated

    return generated(n, seed)


def child(stream: str, n: int, passes: int, home: str) -> dict:
    """One tree's passes (run in a child process whose cwd is that tree)."""
    sys.path.insert(0, os.getcwd())  # the tree under test's own factstore package
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import numpy as np

    from factstore import Store
    from factstore.embedders.local import LocalEmbedder
    from factstore.extractors.rules import RuleExtractor
    from factstore.store import server

    class CachedEmbedder:
        """Answers from vectors computed in the warm-up pass."""

        def __init__(self, inner: LocalEmbedder) -> None:
            self.name, self.dim, self._inner = inner.name, inner.dim, inner
            self._cache: dict[str, np.ndarray] = {}

        def embed(self, texts: list[str]) -> np.ndarray:
            missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
            for text, vector in zip(missing, self._inner.embed(missing) if missing else [],
                                    strict=True):
                self._cache[text] = np.asarray(vector, dtype=np.float32)
            return (np.stack([self._cache[t] for t in texts]) if texts
                    else np.zeros((0, self.dim), dtype=np.float32))

    batch = captures(n, stream)
    admin = server.embedded_admin_dsn(server.factstore_home(home))
    embedder = CachedEmbedder(LocalEmbedder())
    name = f"bench_claims_{os.getpid()}"

    def fresh() -> Store:
        server.drop_database(admin, name)
        server.ensure_database(admin, name)
        return Store.open(server.with_database(admin, name), embedder=embedder,
                          extractor=RuleExtractor())

    def one_by_one(store: Store) -> int:
        return sum(len(store.remember(c["text"], **{k: v for k, v in c.items() if k != "text"})
                       .outcomes) for c in batch)

    def many(store: Store) -> int:
        return sum(len(r.outcomes) for r in store.remember_many(batch, batch_size=64))

    with fresh() as store:  # the warm-up pass fills the embedding cache
        many(store)
    out: dict = {"facts": 0}
    for path, run in (("remember", one_by_one), ("remember_many", many)):
        seconds = []
        for _ in range(passes):
            with fresh() as store:
                started = time.perf_counter()
                out["facts"] = run(store)
                seconds.append(round(time.perf_counter() - started, 3))
                out["tables"] = store.row_counts()
        out[path] = seconds
    server.drop_database(admin, name)
    return out


def _commit(tree: Path) -> str:
    """The tree's short commit, marked when its tracked files differ from it."""
    from evals.records import git_state  # the parent's own; children never call this

    commit, dirty = git_state(tree)
    return commit[:7] + (" (dirty)" if dirty else "") if commit != "unknown" else commit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout to compare this tree with")
    parser.add_argument("--captures", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--home", default=".factstore/bench-claims")
    parser.add_argument("--child", choices=STREAMS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    home = str(Path(args.home).resolve())
    if args.child:
        print(json.dumps(child(args.child, args.captures, args.passes, home)))
        return
    tree = Path.cwd().resolve()
    trees = {"this tree": tree}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), **trees}
    samples: dict = {s: {t: {p: [] for p in PATHS} for t in trees} for s in STREAMS}
    facts: dict = {}
    for round_ in range(1, args.rounds + 1):
        for stream in STREAMS:
            for label, where in trees.items():
                done = subprocess.run(
                    [sys.executable, str(HERE), "--child", stream, "--captures",
                     str(args.captures), "--passes", str(args.passes), "--home", home],
                    cwd=where, check=True, capture_output=True, text=True)
                result = json.loads(done.stdout.strip().splitlines()[-1])
                facts[(stream, label)] = result["facts"]
                for path in PATHS:
                    samples[stream][label][path] += result[path]
                print(f"round {round_} {stream:9} {label:9} remember {result['remember']} "
                      f"remember_many {result['remember_many']}", flush=True)
    report: dict = {"captures": args.captures, "rounds": args.rounds, "passes": args.passes,
                    "commits": {label: _commit(where) for label, where in trees.items()}}
    for stream in STREAMS:
        report[stream] = {}
        for label in trees:
            n = facts[(stream, label)]
            report[stream][label] = {
                "facts": n,
                **{path: {"median_seconds": statistics.median(samples[stream][label][path]),
                          "ms_per_fact": round(1000 * statistics.median(
                              samples[stream][label][path]) / max(n, 1), 3),
                          "samples": samples[stream][label][path]} for path in PATHS}}
        if args.baseline is not None:
            report[stream]["ratio"] = {
                path: round(report[stream]["this tree"][path]["median_seconds"]
                            / report[stream]["baseline"][path]["median_seconds"], 3)
                for path in PATHS}
            print(f"{stream}: this tree / baseline = {report[stream]['ratio']}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
