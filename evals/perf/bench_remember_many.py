"""Benchmark ``remember_many`` against one-by-one ``remember`` and against embedding alone.

Run from the project root::

    .venv/bin/python evals/perf/bench_remember_many.py            # 1,000 captures
    .venv/bin/python evals/perf/bench_remember_many.py --captures 200

The captures are generated chat lines about 200 services (states that change, numbers,
decisions, restatements), each with its own captured_at. Three fresh databases, one
embedded server, the rule extractor and the local MiniLM embedder:

a. ``remember`` called once per capture;
b. ``remember_many`` with ``--batch-size`` (default 64);
c. embedding alone: the same heads and statements ``remember_many`` embeds, in the same
   batches (two calls per batch: heads, then statements), so (b) / (c) is the share of the
   embedding-bound ceiling the bulk path reaches (issue 10's target: >= 0.8).

Writes evals/perf/results/bench_remember_many.json. Not a test: nothing is asserted;
docs/performance.md ("Many captures") explains the figures. Store methods only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from factstore import Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.extractors.base import ExtractionContext  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402
from factstore.store import server  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_remember_many.json"


def captures(n: int, seed: int = 5) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        s = f"svc-{rng.randrange(200)}"
        text = rng.choice((
            f"{s} is {rng.choice(['green', 'red', 'degraded'])} right now.",
            f"{s} now runs {rng.randrange(2, 9)} replicas.",
            f"We decided to move {s} to the new cluster. The old one retires in May.",
            f"Always page the on-call before restarting {s}.",
            f"The {s} runner token lives at /etc/{s}/runner.env.",
            f"I prefer to review {s} changes in the morning, before standup.",
        ))
        out.append({"text": text, "source_ref": f"chat:{i // 20}",
                    "captured_at": f"2026-03-{1 + i // 1440 % 28:02d}T{i // 60 % 24:02d}:"
                                   f"{i % 60:02d}:00Z"})
    return out


def fresh(admin: str, name: str, embedder: LocalEmbedder) -> Store:
    server.drop_database(admin, name)
    server.ensure_database(admin, name)
    return Store.open(server.with_database(admin, name), embedder=embedder,
                      extractor=RuleExtractor())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", default="/tmp/factstore-bench-many")
    parser.add_argument("--captures", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args(argv)
    admin = server.embedded_admin_dsn(server.factstore_home(args.home))
    embedder = LocalEmbedder()
    embedder.embed([f"warm-up sentence {i}." for i in range(256)])
    items = captures(args.captures)

    with fresh(admin, "bench_many_seq", embedder) as store:
        started = time.perf_counter()
        for item in items:
            store.remember(**item)
        one_by_one = time.perf_counter() - started
    with fresh(admin, "bench_many_bulk", embedder) as store:
        started = time.perf_counter()
        results = store.remember_many(items, batch_size=args.batch_size)
        bulk = time.perf_counter() - started
    facts = sum(len(r.outcomes) for r in results)

    extractor = RuleExtractor()
    extracted = [extractor.extract(i["text"], ExtractionContext("utterance", i["source_ref"],
                                                                None, None)) for i in items]
    started = time.perf_counter()
    for start in range(0, len(items), args.batch_size):
        embedder.embed([i["text"] for i in items[start:start + args.batch_size]])
        statements = [f.statement for fs in extracted[start:start + args.batch_size]
                      for f in fs]
        if statements:
            embedder.embed(statements)
    embed_only = time.perf_counter() - started

    row = {"captures": len(items), "facts": facts, "batch_size": args.batch_size,
           "remember_one_by_one_per_s": round(len(items) / one_by_one, 1),
           "remember_many_per_s": round(len(items) / bulk, 1),
           "embedding_only_per_s": round(len(items) / embed_only, 1),
           "remember_many_over_embedding": round(embed_only / bulk, 2),
           "remember_many_over_one_by_one": round(one_by_one / bulk, 2)}
    for key, value in row.items():
        print(f"{key:>32}: {value}")
    RESULTS.write_text(json.dumps(row, indent=2) + "\n")
    for name in ("bench_many_seq", "bench_many_bulk"):
        server.drop_database(admin, name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
