"""Benchmark ``Store.brief`` on a big store: how long choosing and reading a question's keys takes.

Run from the project root::

    .venv/bin/python evals/perf/bench_brief.py            # 200,000 timeline facts
    .venv/bin/python evals/perf/bench_brief.py --quick    # 20,000
    .venv/bin/python evals/perf/bench_brief.py --total 1000000 --home /tmp/bench --keep

The store is shaped like bench_timelines.py's big store: subjects ``person/u-<i>`` x 4
attributes (weight_kg, employer, city and the many attribute uses_tool) x 10 facts, loaded
with ``backfill_facts`` (5,000 facts a call), plus the asker's own subject (``me``: the four
attributes) and one attribute only one subject has (``office_floor``). Then it times
``brief`` for questions that

* name a subject (``what is person/u-<i>'s city?``, a random i each time),
* say my/me (``what is my city?``),
* name no subject, of an attribute many subjects have (``what is the city?``: no line),
* name no subject, of an attribute one subject has (``which office floor?``: one line),
* name no attribute at all (``what is the weather like?``).

It prints p50/p90 in milliseconds and writes evals/perf/results/bench_brief.json
(bench_brief_quick.json with --quick). Before migration 009, ``brief`` naming a subject took
441 ms at 1,000,000 facts (docs/performance.md). Store methods only, plus the server helpers
that create and drop the throwaway database.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

from factstore import Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.extractors.base import ExtractedFact, ExtractionContext  # noqa: E402
from factstore.store import server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "evals" / "perf" / "results" / "bench_brief.json"
USER = "bench"
ATTRIBUTES = ("weight_kg", "employer", "city", "uses_tool")
FACTS_PER_KEY = 10
BATCH = 5_000
CITIES = ("Berlin", "Lisbon", "Osaka", "Lagos", "Quito", "Oslo", "Perth", "Austin", "Pune",
          "Leeds", "Turin", "Busan", "Cusco", "Dakar", "Hanoi", "Izmir", "Kyiv", "Lyon")
TOOLS = ("ripgrep", "jj", "git", "fzf", "tmux", "neovim", "emacs", "helix", "zellij", "bat",
         "fd", "delta", "just", "make", "uv", "ruff", "mypy", "pytest", "docker", "curl")
FIRST_DAY = date(2015, 1, 1)
#: observations lie in the past (the store refuses a future one)
OBSERVED_CAP = datetime(2026, 6, 1, tzinfo=UTC)


class NoExtractor:
    """Timelines extract nothing; Store.open still wants an extractor."""

    name = "none"

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        """Nothing: the benchmark never calls remember()."""
        return []


def say(message: str) -> None:
    """Progress on stderr; stdout carries only the table."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def key_facts(subject: str, attribute: str, rng: random.Random) -> list[dict[str, Any]]:
    """Ten facts of one key, distinct values on distinct days (nothing corroborates)."""
    if attribute == "weight_kg":
        values = [f"{rng.uniform(55, 95):.1f}" for _ in range(FACTS_PER_KEY)]
    elif attribute == "employer":
        values = [f"company-{k}" for k in rng.sample(range(30), FACTS_PER_KEY)]
    elif attribute == "city":
        values = rng.sample(CITIES, FACTS_PER_KEY)
    else:
        values = rng.sample(TOOLS, FACTS_PER_KEY)
    days = sorted(rng.sample(range(4000), FACTS_PER_KEY))
    facts = []
    for k, (value, offset) in enumerate(zip(values, days, strict=True)):
        day = FIRST_DAY + timedelta(days=offset)
        observed = min(datetime(day.year, day.month, day.day, 12, tzinfo=UTC), OBSERVED_CAP)
        fact = {"subject": subject, "attribute": attribute, "value": value,
                "valid_from": day.isoformat(),
                "observed_at": observed.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "source": f"bench:{subject}#{attribute}-{k}"}
        if attribute == "weight_kg":
            fact["unit"] = "kg"
        facts.append(fact)
    return facts


def batches(subjects: int, seed: int) -> Iterator[list[dict[str, Any]]]:
    """Whole subjects, about BATCH facts a call; the asker and the one-subject key first."""
    rng = random.Random(seed)
    first = [f for a in ATTRIBUTES for f in key_facts("me", a, rng)]
    first += [{"subject": "person/boss", "attribute": "office_floor", "value": "7",
               "valid_from": "2024", "observed_at": "2024-02-01T09:00:00Z",
               "source": "bench:boss"}]
    yield first
    step = max(1, BATCH // (len(ATTRIBUTES) * FACTS_PER_KEY))
    for start in range(0, subjects, step):
        batch = []
        for i in range(start, min(subjects, start + step)):
            for attribute in ATTRIBUTES:
                batch += key_facts(f"person/u-{i}", attribute, random.Random(seed * 7919 + i))
        yield batch


def summary(seconds: Sequence[float]) -> dict[str, float | int]:
    """p50, p90, min and max in milliseconds."""
    data = np.asarray(seconds) * 1000.0
    return {"p50": round(float(np.median(data)), 2),
            "p90": round(float(np.percentile(data, 90)), 2),
            "min": round(float(data.min()), 2), "max": round(float(data.max()), 2),
            "n": len(seconds)}


def timed(call: Callable[[], Any], repeats: int) -> tuple[dict[str, float | int], Any]:
    """Run ``call`` ``repeats`` times (after one untimed warm-up); its timings and last answer."""
    answer = call()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        answer = call()
        times.append(time.perf_counter() - started)
    return summary(times), answer


def measure(store: Store, subjects: int, reads: int, seed: int) -> dict[str, Any]:
    """Time each question kind; each figure with the number of lines its brief had."""
    rng = random.Random(seed + 1)
    questions: dict[str, Callable[[], Any]] = {
        "names a subject": lambda: store.brief(
            f"what is person/u-{rng.randrange(subjects)}'s city?"),
        "says my": lambda: store.brief("what is my city?"),
        "no subject, many have it": lambda: store.brief("what is the city?"),
        "no subject, one has it": lambda: store.brief("which office floor?"),
        "no attribute": lambda: store.brief("what is the weather like?"),
    }
    out = {}
    for label, call in questions.items():
        figures, answer = timed(call, reads)
        out[label] = {**figures, "lines": len(answer.lines)}
        say(f"{label}: p50 {figures['p50']} ms, {len(answer.lines)} line(s)")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Load the store, time the briefs, write the JSON, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20,000 facts")
    parser.add_argument("--total", type=int, help="timeline facts (default 200,000)")
    parser.add_argument("--reads", type=int, default=30, help="timed briefs per question")
    parser.add_argument("--home", help="FACTSTORE_HOME of the embedded server "
                                       "(default .factstore/bench)")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database")
    parser.add_argument("--out", help="where to write the JSON")
    args = parser.parse_args(argv)
    total = args.total or (20_000 if args.quick else 200_000)
    subjects = max(1, total // (len(ATTRIBUTES) * FACTS_PER_KEY))
    seed = 20261203
    home = server.factstore_home(args.home or ROOT / ".factstore" / "bench")
    admin = server.embedded_admin_dsn(home)
    name = f"bench_brief_{os.getpid()}"
    server.ensure_database(admin, name)
    embedder = LocalEmbedder()
    store = Store.open(server.with_database(admin, name), embedder=embedder,
                       extractor=NoExtractor(), user_id=USER)
    try:
        say(f"loading {subjects * len(ATTRIBUTES) * FACTS_PER_KEY:,} facts into {name}")
        started, loaded = time.perf_counter(), 0
        for batch in batches(subjects, seed):
            store.backfill_facts(batch)
            loaded += len(batch)
            if loaded % 50_000 < len(batch):
                say(f"  {loaded:,} facts ({loaded / (time.perf_counter() - started):,.0f}/s)")
        load_s = time.perf_counter() - started
        # As the other benchmarks do: time on the statistics autovacuum would write, not on
        # whichever it happened to have written by the end of the load.
        store.analyze_tables()
        results = {
            "benchmark": "evals/perf/bench_brief.py",
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "facts": loaded, "subjects": subjects, "load_s": round(load_s, 1),
            "server": store.describe().server_version, "cpus": os.cpu_count(),
            "loadavg": [round(x, 2) for x in os.getloadavg()],
            "brief_ms": measure(store, subjects, args.reads, seed),
        }
    finally:
        store.close()
        if args.keep:
            say(f"kept database {name}")
        else:
            server.drop_database(admin, name)
    out = Path(args.out) if args.out else (
        RESULTS.with_name("bench_brief_quick.json") if args.quick else RESULTS)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"brief() on {results['facts']:,} timeline facts ({results['subjects']:,} subjects), "
          f"Postgres {results['server']}, load {results['loadavg']}")
    print(f"{'question':<28} {'p50 ms':>8} {'p90 ms':>8} {'lines':>6}")
    for label, row in results["brief_ms"].items():
        print(f"{label:<28} {row['p50']:>8} {row['p90']:>8} {row['lines']:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
