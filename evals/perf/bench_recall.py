"""Benchmark hybrid recall at archive scale: the four retrievers with the text indexes.

Run from the project root::

    .venv/bin/python evals/perf/bench_recall.py                      # 1,000,000 facts
    .venv/bin/python evals/perf/bench_recall.py --sizes 10000,100000 # smaller stores
    .venv/bin/python evals/perf/bench_recall.py --reuse bench_recall_n1000000 --home /tmp/b

Each size is loaded with ``import_facts`` into a throwaway database (``--keep`` keeps it
as ``bench_recall_n<size>``; ``--reuse NAME`` measures an existing one without loading), with
the synthetic facts of ``bench_store.py``: noisy variants of 5,000 real MiniLM sentence
vectors, three facts to a document. Then ``Store.recall`` (k = 10) is timed for 100 questions
in three configurations:

- **hybrid**, the default: facts and documents by vector and by words, fused;
- **vectors only** (``recall_lexical`` off): the same without the text indexes;
- **hybrid, k = 8**: the store's default ``recall_k``.

Each question is a real base sentence's text (so the words search has real words to look
up, as a question would) with a planted vector (a noisy variant of that sentence's MiniLM
vector: no model time). Every configuration is measured twice and the second pass reported
(the first, kept as ``cold``, pays for caches a reopened server has not filled). So the
figures are recall's own, vector supplied; add one query
embedding (``bench_store.py`` measures it) for an end-to-end call. Nothing is asserted;
docs/performance.md explains the figures. Results go to
evals/perf/results/bench_recall.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import (  # noqa: E402 - the sibling benchmark's corpus and helpers
    ROOT,
    Bench,
    CpuMeter,
    TimedEmbedder,
    base_corpus,
    load,
    say,
    settle,
    summary,
    synthetic_facts,
    unit_variants,
)

from factstore import Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.kinds import Kind  # noqa: E402
from factstore.store import server  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_recall.json"
QUERIES = 100
WARMUP = 10
CONFIGS: dict[str, dict[str, Any]] = {
    "hybrid": {"k": 10, "settings": {}},
    "vectors_only": {"k": 10, "settings": {"recall_lexical": False}},
    "hybrid_k8": {"k": 8, "settings": {}},
}


def measure(store: Store, embedder: TimedEmbedder, sentences: list[tuple[Kind, str]],
            base: np.ndarray, rng: np.random.Generator, cosine: tuple[float, float],
            k: int) -> dict[str, Any]:
    """recall() latency over QUERIES sentence-text questions with planted vectors."""
    picks = rng.integers(0, len(base), size=QUERIES + WARMUP)
    vectors = unit_variants(base[picks], rng, cosine)
    times: list[float] = []
    layers: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    items: list[int] = []
    with CpuMeter() as meter:
        for i, (pick, vector) in enumerate(zip(picks, vectors, strict=True)):
            text = sentences[pick][1]
            embedder.plant(text, vector)
            started = time.perf_counter()
            result = store.recall(text, k=k)
            elapsed = time.perf_counter() - started
            if i >= WARMUP:  # the first few pay for cold caches and plan setup
                times.append(elapsed)
                layers[result.layer] += 1
                items.append(len(result.items))
                matched.update(m for item in result.items for m in item.matched_by)
    return {"queries": QUERIES, "k": k, "latency_ms": summary(times),
            "p95_ms": round(float(np.percentile(times, 95)) * 1000, 3),
            "layers": dict(layers), "items_mean": round(float(np.mean(items)), 2),
            "matched_by": dict(matched), "cpu": meter.result}


def run_size(bench: Bench, sentences: list[tuple[Kind, str]], base: np.ndarray,
             size: int | None, reuse: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    name = reuse or f"bench_recall_n{size}"
    dsn = server.with_database(bench.admin_dsn, name)
    if reuse is None:
        server.drop_database(bench.admin_dsn, name)
        server.ensure_database(bench.admin_dsn, name)
    embedder = TimedEmbedder(bench.embedder)
    store = Store.open(dsn, embedder=embedder)
    try:
        if reuse is None:
            assert size is not None
            data = synthetic_facts(size, sentences, base, bench.seed, bench.cosine)
            say(f"size {size:,}: loading with import_facts (one call: indexes built once)")
            _, out["load"] = load(store, data, size)
            out["settle_after_load"] = settle(store)
        store.analyze_tables()
        shape = store.describe()
        out["facts"] = sum(sum(v.values()) for v in shape.facts_by_kind_verdict.values())
        out["documents"] = shape.documents
        defaults = store.settings
        # Two passes over the configurations: the first pays for cold caches (a reopened
        # server, an index not yet read) and is kept as "cold"; the second is the figure.
        for attempt in ("cold", "warm"):
            for label, config in CONFIGS.items():
                say(f"{out['facts']:,} facts: recall x{QUERIES} ({label}, {attempt})")
                store.settings = defaults.replace(**config["settings"])
                rng = np.random.default_rng(bench.seed + 11)  # the same questions for each
                figures = measure(store, embedder, sentences, base, rng, bench.cosine,
                                  config["k"])
                if attempt == "cold":
                    out.setdefault("cold", {})[label] = figures["latency_ms"]
                else:
                    out[label] = figures
        store.settings = defaults
    finally:
        store.close()
        if reuse is None and not bench.keep:
            server.drop_database(bench.admin_dsn, name)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000000", help="comma-separated store sizes")
    parser.add_argument("--home", help="FACTSTORE_HOME for the embedded server and the vector "
                                       "cache (default .factstore/bench)")
    parser.add_argument("--keep", action="store_true", help="keep the loaded databases")
    parser.add_argument("--reuse", help="measure this existing database; load nothing")
    parser.add_argument("--out", help=f"results file (default {RESULTS.name})")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    home = server.factstore_home(args.home or ROOT / ".factstore" / "bench")
    bench = Bench(server.embedded_admin_dsn(home), home, LocalEmbedder(), args.keep, False)
    bench.embedder.embed(["load the model before anything is timed"])
    sentences, base, _ = base_corpus(bench)
    results: dict[str, Any] = {
        "benchmark": "evals/perf/bench_recall.py",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "command": " ".join([".venv/bin/python", "evals/perf/bench_recall.py", *sys.argv[1:]]),
        "by_size": {},
    }
    if args.reuse:
        results["by_size"][args.reuse] = run_size(bench, sentences, base, None, args.reuse)
    else:
        for size in (int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()):
            results["by_size"][str(size)] = run_size(bench, sentences, base, size, None)
    results["elapsed_s"] = round(time.perf_counter() - started, 1)
    out = Path(args.out) if args.out else RESULTS
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    for size, figures in results["by_size"].items():
        for label in CONFIGS:
            f = figures[label]
            print(f"{size:>10} {label:>13}: p50 {f['latency_ms']['median']:.2f} ms, "
                  f"p90 {f['latency_ms']['p90']:.2f}, p95 {f['p95_ms']:.2f} ms; "
                  f"{f['items_mean']} items")
    say(f"wrote {out} ({results['elapsed_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
