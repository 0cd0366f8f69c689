"""Benchmark ``remember`` against the size of one capture: 10k, 100k and 1M characters.

Run from the project root::

    .venv/bin/python evals/perf/bench_capture_size.py                       # generated notes
    .venv/bin/python evals/perf/bench_capture_size.py --qmsum ../shared/datasets/qmsum/val

Each size is one capture remembered into a fresh database (the rule extractor and the local
MiniLM embedder, as ``factstore remember`` runs), timed whole, with the extractor and the
embedder also timed alone on the same text so the store's own share shows. A write path
that is linear in the capture keeps seconds per 100k characters flat across the sizes.

The default text is generated ops notes (many services, states and changes); ``--qmsum``
uses real meeting transcripts (QMSum), concatenated to each size. It writes
evals/perf/results/bench_capture_size.json. Not a test: nothing is asserted;
docs/performance.md ("Large captures") explains the figures. Store methods only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from factstore import Store  # noqa: E402
from factstore.extractors.base import ExtractionContext  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402
from factstore.store import server  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_capture_size.json"
SIZES = (10_000, 100_000, 1_000_000)
SERVICES = [f"svc-{i}" for i in range(60)]
LINES = (
    "The {s} deploy is frozen until Friday.",
    "We decided to move {s} to the new cluster.",
    "{s} is green right now.",
    "{s} now runs {n} replicas.",
    "The {s} queue depth was {n} at noon.",
    "The {s} runner token lives at /etc/{s}/runner.env.",
    "Always page the on-call before restarting {s}.",
    "{s} latency went up after the upgrade, but nobody knows why yet.",
    "I prefer to review {s} changes in the morning.",
    "The {s} nightly build failed twice this week.",
    "Okay, so let's see.",
    "Yeah, I think that's right, more or less.",
)


def generated(size: int, seed: int = 7) -> str:
    """Ops notes: statements about many services (states that change, numbers that vary,
    restatements), with chatter between them."""
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    while total < size:
        line = rng.choice(LINES).format(s=rng.choice(SERVICES), n=rng.randrange(2, 5000))
        parts.append(line)
        total += len(line) + 1
        if rng.random() < 0.1:
            parts.append("")
    return "\n".join(parts)[:size]


def qmsum(folder: Path, size: int) -> str:
    text = ""
    for path in sorted(folder.glob("*.json")):
        meeting = json.loads(path.read_text())
        text += "\n".join(f"{t['speaker']}: {t['content']}"
                          for t in meeting["meeting_transcripts"]) + "\n\n"
        if len(text) >= size:
            break
    if len(text) < size:
        raise SystemExit(f"{folder} holds only {len(text):,} characters")
    return text[:size]


def measure(store: Store, text: str) -> dict[str, Any]:
    """remember timed whole; then its extraction and its embeddings (the capture's head and
    the statements it wrote) alone, so the store's own share is the difference."""
    started = time.perf_counter()
    result = store.remember(text, source_type="capture", source_ref="bench")
    total_s = time.perf_counter() - started
    started = time.perf_counter()
    extracted = RuleExtractor().extract(text, ExtractionContext("capture", "bench", None, None))
    extract_s = time.perf_counter() - started
    statements = [o.fact.statement for o in result.outcomes if o.fact is not None]
    started = time.perf_counter()
    store.embedder.embed([text[:16_000]])
    if statements:
        store.embedder.embed(statements)
    embed_s = time.perf_counter() - started
    return {"chars": len(text), "facts_extracted": len(extracted),
            "outcomes": len(result.outcomes), "seconds": round(total_s, 2),
            "extract_seconds": round(extract_s, 2), "embed_seconds": round(embed_s, 2),
            "store_seconds": round(total_s - extract_s - embed_s, 2),
            "seconds_per_100k_chars": round(total_s / len(text) * 100_000, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", default="/tmp/factstore-bench-capture")
    parser.add_argument("--qmsum", type=Path, help="a QMSum folder of meeting JSON files")
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args(argv)
    admin = server.embedded_admin_dsn(server.factstore_home(args.home))
    rows = []
    for size in args.sizes:
        text = qmsum(args.qmsum, size) if args.qmsum else generated(size)
        database = f"bench_capture_{size}"
        server.drop_database(admin, database)
        server.ensure_database(admin, database)
        with Store.open(server.with_database(admin, database),
                        extractor=RuleExtractor()) as store:
            # the first batches in a process pay torch's start-up: not the capture's cost
            store.remember("warm the model up.")
            store.embedder.embed([f"warm-up sentence number {i}." for i in range(256)])
            row = measure(store, text)
        server.drop_database(admin, database)
        rows.append(row)
        print(f"{row['chars']:>9,} chars  {row['facts_extracted']:>5} facts  "
              f"{row['outcomes']:>5} outcomes  "
              f"{row['seconds']:>7.2f} s  (extract {row['extract_seconds']:.2f}, embed "
              f"{row['embed_seconds']:.2f}, store {row['store_seconds']:.2f})  "
              f"{row['seconds_per_100k_chars']:.2f} s/100k chars", flush=True)
    source = f"qmsum:{args.qmsum}" if args.qmsum else "generated ops notes"
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[source if args.qmsum else "generated"] = {"source": source, "rows": rows}
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
