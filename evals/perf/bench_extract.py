"""Benchmark the offline extractors per sentence: parser/v1 (the default) against rules/v1.

Run from the project root::

    .venv/bin/python evals/perf/bench_extract.py
    .venv/bin/python evals/perf/bench_extract.py --locomo ../shared/datasets/locomo

Sentences are the project's extraction-yield set (evals/data/sentences.jsonl) and, with
``--locomo``, the turns of LoCoMo's conversations as chat lines. Each text is extracted one
call at a time (what ``remember`` does per capture), after one warm-up call that loads the
parser, and the per-call times give p50/p90/p99; the spaCy import and pipeline load are
timed apart. Writes evals/perf/results/bench_extract.json. Not a test: nothing is asserted;
docs/performance.md ("Extraction") explains the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from evals.loaders import load_locomo  # noqa: E402
from factstore.extractors.base import ExtractionContext  # noqa: E402
from factstore.extractors.parsed import ParserExtractor  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_extract.json"


def _texts(locomo: Path | None) -> dict[str, list[str]]:
    rows = [json.loads(line) for line in (ROOT / "evals" / "data" / "sentences.jsonl")
            .read_text().splitlines() if line.strip()]
    sets = {"project sentences": [row["text"] for row in rows]}
    if locomo is not None:
        sets["LoCoMo turns"] = [f"{turn.speaker}: {turn.text}" for conversation
                                in load_locomo(locomo) for turn in conversation.turns()]
    return sets


def _time(extractor: object, texts: list[str]) -> dict[str, float]:
    context = ExtractionContext()
    times = []
    facts = 0
    for text in texts:
        start = time.perf_counter()
        facts += len(extractor.extract(text, context))  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"texts": len(texts), "facts": facts,
            "p50_ms": round(statistics.median(times), 3),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))], 3),
            "p99_ms": round(times[int(0.99 * (len(times) - 1))], 3),
            "mean_ms": round(statistics.fmean(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, help="LoCoMo data folder (optional)")
    args = parser.parse_args()
    started = time.perf_counter()
    import spacy  # noqa: F401  (timed: the import is most of a cold start)

    imported = time.perf_counter() - started
    scribe = ParserExtractor()
    started = time.perf_counter()
    scribe.extract("The job is green.")
    loaded = time.perf_counter() - started
    out: dict[str, object] = {"spacy_import_s": round(imported, 2),
                              "pipeline_load_s": round(loaded, 2), "sets": {}}
    for name, texts in _texts(args.locomo).items():
        out["sets"][name] = {"parser/v1": _time(scribe, texts),  # type: ignore[index]
                             "rules/v1": _time(RuleExtractor(), texts)}
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
