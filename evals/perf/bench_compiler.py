"""Benchmark the offline compiler's cost per capture, on top of extraction.

Run from the project root::

    .venv/bin/python evals/perf/bench_compiler.py
    .venv/bin/python evals/perf/bench_compiler.py --locomo ../shared/datasets/locomo

Texts are every capture of the knowledge-update set (evals/data/knowledge_updates.jsonl)
and, with ``--locomo``, LoCoMo's turns as chat lines. Per text, in the order ``remember``
runs them: the parser scribe extracts (it parses the sentences), then the compiler compiles
(finding the sentences parsed: factstore/nlp.py's cache). The compile time is what the
compiler adds; it is also measured cold (the cache emptied first), for a store whose
extractor is not the parser. Then, through the Store: ``remember`` on a fresh store with
the compiler and without it, the captures interleaved, so the difference is the compiler's
whole cost on the write path (its SQL included). Writes
evals/perf/results/bench_compiler.json. Not a test; docs/performance.md ("Compiler")
explains the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from evals.loaders import load_locomo  # noqa: E402
from evals.records import git_state  # noqa: E402
from factstore import Store, nlp  # noqa: E402
from factstore.compiler.offline import ParserCompiler  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.extractors.base import ExtractionContext  # noqa: E402
from factstore.extractors.parsed import ParserExtractor  # noqa: E402
from factstore.store import server, templates  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_compiler.json"
SAID = datetime(2026, 6, 10, 9, tzinfo=UTC)


def _percentiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"n": len(times), "p50_ms": round(statistics.median(times), 3),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))], 3),
            "p99_ms": round(times[int(0.99 * (len(times) - 1))], 3)}


def _texts(locomo: Path | None) -> dict[str, list[str]]:
    rows = [json.loads(line) for line in (ROOT / "evals" / "data" / "knowledge_updates.jsonl")
            .read_text().splitlines() if line.strip()]
    sets = {"knowledge-update captures": [c["text"] for r in rows for c in r["captures"]]}
    if locomo is not None:
        sets["LoCoMo turns"] = [f"{turn.speaker}: {turn.text}" for conversation
                                in load_locomo(locomo) for turn in conversation.turns()]
    return sets


def _pure(texts: list[str]) -> dict[str, object]:
    extractor, compiler = ParserExtractor(), ParserCompiler()
    extractor.extract("warm up the parser.", ExtractionContext())
    extract, warm, cold, drafts = [], [], [], 0
    for text in texts:
        nlp._PARSED.clear()
        start = time.perf_counter()
        extractor.extract(text, ExtractionContext())
        middle = time.perf_counter()
        drafts += len(compiler.compile(text, SAID).drafts)
        end = time.perf_counter()
        extract.append((middle - start) * 1000)
        warm.append((end - middle) * 1000)
        nlp._PARSED.clear()
        start = time.perf_counter()
        compiler.compile(text, SAID)
        cold.append((time.perf_counter() - start) * 1000)
    return {"extract": _percentiles(extract), "compile_after_extract": _percentiles(warm),
            "compile_cold": _percentiles(cold), "drafts": drafts}


def _through_store(texts: list[str], home: Path, limit: int) -> dict[str, object]:
    embedder = LocalEmbedder()
    admin = server.embedded_admin_dsn(server.factstore_home(home))
    stores = {}
    for name, compiler in (("with", "default"), ("without", None)):
        database = f"bench_compiler_{name}_{os.getpid()}"
        server.drop_database(admin, database)
        templates.fresh_database(admin, database, embedder)
        stores[name] = (Store.open(server.with_database(admin, database), embedder=embedder,
                                   extractor=ParserExtractor(), compiler=compiler), database)
    times: dict[str, list[float]] = {"with": [], "without": []}
    try:
        for index, text in enumerate(texts[:limit]):
            for name in (("with", "without") if index % 2 else ("without", "with")):
                store = stores[name][0]
                start = time.perf_counter()
                store.remember(text, said_at=SAID, source_ref=f"bench#{index}")
                times[name].append((time.perf_counter() - start) * 1000)
    finally:
        for store, database in stores.values():
            store.close()
            server.drop_database(admin, database)
    with_p, without_p = _percentiles(times["with"]), _percentiles(times["without"])
    return {"remember_with_compiler": with_p, "remember_without_compiler": without_p,
            "p50_added_ms": round(with_p["p50_ms"] - without_p["p50_ms"], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, help="LoCoMo (a file or its folder)")
    parser.add_argument("--home", type=Path, default=ROOT / ".factstore" / "bench")
    parser.add_argument("--store-captures", type=int, default=300)
    args = parser.parse_args()
    results: dict[str, object] = {"commit": git_state(), "sets": {}}
    for name, texts in _texts(args.locomo).items():
        results["sets"][name] = _pure(texts)  # type: ignore[index]
        print(name, json.dumps(results["sets"][name]))  # type: ignore[index]
    captures = _texts(None)["knowledge-update captures"]
    results["store"] = _through_store(captures, args.home, args.store_captures)
    print("store", json.dumps(results["store"]))
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
