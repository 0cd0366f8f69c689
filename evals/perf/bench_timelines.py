"""Benchmark the timeline tools (seed 002 §2-5) on the embedded Postgres.

Run from the project root::

    .venv/bin/python evals/perf/bench_timelines.py            # lengths 1..10,000; 1,000,000 facts
    .venv/bin/python evals/perf/bench_timelines.py --quick    # lengths 1..1,000; 50,000 facts
    .venv/bin/python evals/perf/bench_timelines.py --home /tmp/bench --keep

It measures, each in a throwaway database on one embedded server under ``--home``:

a. write-and-resolve cost against a timeline's length. For each length n, a fresh database
   holds ONE key (person/bench, weight_kg, a one attribute) built to n - 1 facts with
   ``backfill_facts`` (5,000 facts per call). Then 20 single-fact ``write_facts`` calls each
   append a new value at the end (lengths n .. n + 19), and 10 more land in the middle of the
   timeline (a past valid_from, observed now: a backfilled correction). Every timed write is
   news, never a corroboration. The write's MiniLM embedding of its request document is
   timed apart, so "resolve" below is the write minus the embedding. At the longest length
   a few writes run again under cProfile to show where the time goes.
b. reads with a big store. 1,000,000 timeline facts (25,000 subjects person/u-<i> x 4
   attributes x 10 facts; uses_tool is a many attribute) are loaded with ``backfill_facts``,
   5,000 facts (500 whole keys) per call; the load rate is reported. Then: 200
   ``facts(subject, attribute, as_of=...)`` reads, 50 at each as_of precision (year, month,
   day, timestamp); 50 ``facts(subject)`` reads (every attribute of a subject); 20
   ``known_at`` reads; a few unfiltered ``facts()`` reads (capped at 500 facts), a few
   ``facts(attribute=...)`` reads and a few ``brief()`` calls. One more 5,000-fact backfill
   runs under cProfile.

It prints a table and writes evals/perf/results/bench_timelines.json (a --quick run writes
bench_timelines_quick.json, so it never overwrites the full run's figures). It is not a
test: nothing is asserted; docs/performance.md ("Timelines") explains the figures.

The benchmark goes through Store methods only (the one seam), plus the server helpers that
create and drop its throwaway databases.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial
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
RESULTS = ROOT / "evals" / "perf" / "results" / "bench_timelines.json"
QUICK_RESULTS = RESULTS.with_name("bench_timelines_quick.json")
USER = "bench"
SUBJECT = "person/bench"
ATTRIBUTE = "weight_kg"
#: facts per backfill_facts call, both when building one long key and when loading the store
BACKFILL_BATCH = 5_000
PRECISIONS = ("year", "month", "day", "timestamp")


# -- small helpers ------------------------------------------------------------------------------

def summary(values: Sequence[float], scale: float = 1000.0) -> dict[str, float | int]:
    """Median, p90, mean, min, max and count; seconds are reported in milliseconds."""
    if not values:
        return {"n": 0}
    data = np.asarray(values, dtype=np.float64) * scale
    return {"median": round(float(np.median(data)), 3),
            "p90": round(float(np.percentile(data, 90)), 3),
            "mean": round(float(data.mean()), 3), "min": round(float(data.min()), 3),
            "max": round(float(data.max()), 3), "n": len(values)}


#: (clock, 1-minute load average, message) per progress line: on a 2-core machine other work
#: moves every figure, so the results carry the load they were measured under.
TIMELINE: list[tuple[str, float, str]] = []


def say(message: str) -> None:
    """Progress on stderr (stdout carries only the final table), logged with the load."""
    clock = time.strftime("%H:%M:%S")
    TIMELINE.append((clock, round(os.getloadavg()[0], 2), message))
    print(f"[{clock}] {message}", file=sys.stderr, flush=True)


def stamp(instant: datetime) -> str:
    """RFC 3339 with seconds and Z, as format v1 writes observed_at and timestamps."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class NoExtractor:
    """Timelines extract nothing; Store.open still wants an extractor."""

    name = "none"

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        """Nothing: the benchmark never calls remember()."""
        return []


class TimedEmbedder:
    """The local MiniLM embedder, with the wall time spent inside it counted."""

    def __init__(self, inner: LocalEmbedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.calls = 0

    @property
    def dim(self) -> int:
        """The wrapped embedder's dimension."""
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed through the wrapped model, adding the call's wall time to ``seconds``."""
        started = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1


@dataclass
class Bench:
    """What every phase shares: the server, the embedder, the options."""

    admin_dsn: str
    embedder: TimedEmbedder
    keep: bool
    seed: int = 20261201
    #: server and pgvector versions, read from the first store opened
    versions: dict[str, str] | None = None

    @contextmanager
    def store(self, label: str) -> Iterator[Store]:
        """A store on a fresh throwaway database, dropped afterwards unless --keep."""
        name = f"bench_tl_{label}_{os.getpid()}"
        server.drop_database(self.admin_dsn, name)  # a leftover from a killed run
        server.ensure_database(self.admin_dsn, name)
        store = Store.open(server.with_database(self.admin_dsn, name), embedder=self.embedder,
                           extractor=NoExtractor(), user_id=USER)
        if self.versions is None:
            shape = store.describe()
            self.versions = {"postgres": shape.server_version,
                             "pgvector": shape.pgvector_version, "embedder": shape.embedder}
        try:
            yield store
        finally:
            store.close()
            if self.keep:
                say(f"kept database {name}")
            else:
                server.drop_database(self.admin_dsn, name)


# -- profiling ----------------------------------------------------------------------------------

#: (file name ending, function) pairs whose cumulative time says where a call goes
PROFILED: tuple[tuple[str, str], ...] = (
    ("format_v1.py", "validate_request"), ("redaction.py", "redact_fields"),
    ("bench_timelines.py", "embed"), ("timelines.py", "_land_request"),
    ("timelines.py", "lock_keys"), ("timelines.py", "load_key"),
    ("timelines.py", "timeline_fact"), ("resolution.py", "corroborated_by"),
    ("bulk.py", "find"), ("timelines.py", "_insert"), ("timelines.py", "_corroborate"),
    ("timelines.py", "resolve_key"), ("resolution.py", "resolve_timeline"),
    ("resolution.py", "apply"), ("timelines.py", "_sync_disputes"),
    ("transitions.py", "record"), ("timelines.py", "_reload"), ("dates.py", "parse_partial"),
    ("cursor.py", "execute"), ("cursor.py", "fetchall"),
)


def profile(call: Callable[[], Any], repeats: int) -> dict[str, Any]:
    """Run ``call`` ``repeats`` times under cProfile; per call: wall ms, then for each
    function of PROFILED its cumulative ms and call count, and the top functions by own time.

    cProfile slows Python code more than it slows waiting on Postgres, so read the shares,
    not the absolute figures. A cursor's execute and fetchall include the server's time.
    """
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for _ in range(repeats):
        call()
    profiler.disable()
    wall = (time.perf_counter() - started) / repeats
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    functions: dict[str, dict[str, float]] = {}
    for (filename, _line, name), (_cc, calls, _tt, cumulative, _callers) in stats.items():
        for suffix, wanted in PROFILED:
            if name == wanted and filename.endswith(suffix):
                label = f"{suffix.removesuffix('.py')}.{name}"
                entry = functions.setdefault(label, {"cum_ms": 0.0, "calls": 0.0})
                entry["cum_ms"] += 1000 * cumulative / repeats
                entry["calls"] += calls / repeats
    own = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:12]
    return {
        "repeats": repeats, "wall_ms": round(1000 * wall, 2),
        "functions": {k: {"cum_ms": round(v["cum_ms"], 2), "calls": round(v["calls"], 1)}
                      for k, v in sorted(functions.items(), key=lambda kv: -kv[1]["cum_ms"])},
        "top_own_time": [{"function": f"{Path(f).name}:{line}:{name}",
                          "own_ms": round(1000 * tt / repeats, 2), "calls": round(nc / repeats, 1)}
                         for (f, line, name), (_cc, nc, tt, _ct, _callers) in own],
    }


# -- a. one key, growing ------------------------------------------------------------------------

FIRST_DAY = date(1980, 1, 1)
FIRST_OBSERVED = datetime(2026, 1, 1, tzinfo=UTC)
#: No generated observation is later than this (a valid day near today plus up to 60 days
#: would otherwise land in the future, which write_facts refuses).
OBSERVED_CAP = datetime(2026, 6, 1, tzinfo=UTC)


def key_fact(position: int, *, observed: datetime, value: str | None = None,
             odd: bool = False) -> dict[str, Any]:
    """Fact ``position`` of the benchmark key: valid from every other day since 1980 (an odd
    day falls between two stored facts), a value no other fact of the key has."""
    day = FIRST_DAY + timedelta(days=2 * position + (1 if odd else 0))
    return {"subject": SUBJECT, "attribute": ATTRIBUTE,
            "value": value or f"{60 + position / 1000:.3f}", "unit": "kg",
            "valid_from": day.isoformat(), "observed_at": stamp(observed),
            "source": f"bench:timelines#{position}{'m' if odd else ''}",
            "quote": f"I weigh {value or f'{60 + position / 1000:.3f}'} kg now"}


def build_key(store: Store, length: int) -> dict[str, Any]:
    """Backfill the key to ``length`` facts, BACKFILL_BATCH per call; time it."""
    if length == 0:
        return {"facts": 0, "calls": 0, "seconds": 0.0}
    started = time.perf_counter()
    calls = 0
    for offset in range(0, length, BACKFILL_BATCH):
        batch = [key_fact(i, observed=FIRST_OBSERVED + timedelta(minutes=i))
                 for i in range(offset, min(length, offset + BACKFILL_BATCH))]
        result = store.backfill_facts(batch)
        if result.created != len(batch):
            say(f"  warning: backfill stored {result.created} of {len(batch)}")
        calls += 1
    seconds = time.perf_counter() - started
    return {"facts": length, "calls": calls, "seconds": round(seconds, 3),
            "facts_per_s": round(length / seconds, 1)}


def timed_write(bench: Bench, store: Store, fact: dict[str, Any]
                ) -> tuple[float, float, Any]:
    """One single-fact write_facts call: (wall s, embedding s, the FactWrite)."""
    embedded = bench.embedder.seconds
    started = time.perf_counter()
    result = store.write_facts({"format": 1, "facts": [fact]})
    wall = time.perf_counter() - started
    return wall, bench.embedder.seconds - embedded, result.facts[0]


def measure_length(bench: Bench, length: int, appends: int, middles: int,
                   profile_writes: int) -> dict[str, Any]:
    """Write cost at one timeline length, in a fresh database (see the module docstring)."""
    with bench.store(f"len{length}") as store:
        out: dict[str, Any] = {"length": length, "build": build_key(store, length - 1)}
        position = length - 1
        observed = FIRST_OBSERVED + timedelta(minutes=length + 10)
        walls, embeds, anomalies = [], [], []
        for _ in range(appends):
            observed += timedelta(minutes=1)
            wall, embed, written = timed_write(bench, store, key_fact(position, observed=observed))
            walls.append(wall)
            embeds.append(embed)
            if (written.outcome, written.fact.status) != ("created", "current"):
                anomalies.append(f"append #{position}: {written.outcome}/{written.fact.status}")
            position += 1
        out["append"] = _write_summary(walls, embeds, (length, length + appends - 1))
        # Between stored facts m and m + 1, around the middle, each on its own odd day.
        first_middle = max(0, position // 2 - middles // 2)
        walls, embeds = [], []
        for j in range(middles):
            observed += timedelta(minutes=1)
            fact = key_fact(first_middle + j, observed=observed, odd=True,
                            value=f"{90 + j / 1000:.3f}")
            wall, embed, written = timed_write(bench, store, fact)
            walls.append(wall)
            embeds.append(embed)
            if (written.outcome, written.fact.status) != ("created", "superseded"):
                anomalies.append(f"middle #{first_middle + j}: "
                                 f"{written.outcome}/{written.fact.status}")
        total = position + middles
        out["middle"] = _write_summary(walls, embeds, (position, total - 1))
        out["read_key_ms"], out["read_key_facts"], out["line_chars"] = _read_key(store)
        if profile_writes:
            def append_one() -> None:
                nonlocal position, observed
                observed += timedelta(minutes=1)
                store.write_facts({"format": 1, "facts": [key_fact(position, observed=observed)]})
                position += 1
            out["profile_append"] = profile(append_one, profile_writes)
        out["anomalies"] = anomalies
        return out


def _write_summary(walls: list[float], embeds: list[float],
                   lengths: tuple[int, int]) -> dict[str, Any]:
    resolve = [w - e for w, e in zip(walls, embeds, strict=True)]
    return {"lengths": list(lengths), "write_ms": summary(walls), "embed_ms": summary(embeds),
            "write_minus_embed_ms": summary(resolve)}


def _read_key(store: Store) -> tuple[dict[str, float | int], int, int]:
    """Five reads of the whole benchmark key as of now; the size of what comes back."""
    times, answer = [], None
    for _ in range(5):
        started = time.perf_counter()
        answer = store.facts(SUBJECT, ATTRIBUTE)
        times.append(time.perf_counter() - started)
    key = answer.keys[0] if answer and answer.keys else None
    return summary(times), len(key.history) if key else 0, len(key.line) if key else 0


# -- b. a big store -----------------------------------------------------------------------------

ATTRIBUTES = ("weight_kg", "employer", "city", "uses_tool")
EMPLOYERS = tuple(f"company-{i}" for i in range(30))
CITIES = ("Berlin", "Lisbon", "Osaka", "Lagos", "Quito", "Oslo", "Perth", "Austin", "Pune",
          "Leeds", "Turin", "Busan", "Cusco", "Dakar", "Hanoi", "Izmir", "Kyiv", "Lyon",
          "Malmo", "Nairobi", "Porto", "Riga", "Split", "Tartu", "Utrecht", "Valencia")
TOOLS = ("ripgrep", "jj", "git", "fzf", "tmux", "neovim", "emacs", "helix", "zellij", "bat",
         "fd", "delta", "just", "make", "uv", "ruff", "mypy", "pytest", "docker", "podman",
         "kubectl", "k9s", "htop", "btop", "curl")
FACTS_PER_KEY = 10
FIRST_VALID = date(2015, 1, 1)
VALID_DAYS = (date(2026, 10, 31) - FIRST_VALID).days


def _valid_from(day: date, rng: random.Random) -> str:
    """A valid_from on ``day`` at a mix of precisions, as writers date things."""
    roll = rng.random()
    if roll < 0.1:
        return f"{day.year:04d}"
    if roll < 0.25:
        return f"{day.year:04d}-{day.month:02d}"
    if roll < 0.9:
        return day.isoformat()
    return f"{day.isoformat()}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00Z"


def key_facts(subject_index: int, attribute: str, rng: random.Random) -> list[dict[str, Any]]:
    """The ten facts of one key of the big store, in valid-time order.

    Values never repeat inside a key (so nothing is a corroboration) and starts never
    coincide (so nothing is disputed); a third of the uses_tool values state a valid_to.
    """
    subject = f"person/u-{subject_index}"
    if attribute == "weight_kg":
        base = rng.uniform(55, 95)
        values = [f"{base + k * 0.3:.1f}" for k in range(FACTS_PER_KEY)]
    elif attribute == "employer":
        values = rng.sample(EMPLOYERS, FACTS_PER_KEY)
    elif attribute == "city":
        values = rng.sample(CITIES, FACTS_PER_KEY)
    else:
        values = rng.sample(TOOLS, FACTS_PER_KEY)
    days = sorted(rng.sample(range(VALID_DAYS), FACTS_PER_KEY))
    facts, starts = [], set()
    for k, (value, offset) in enumerate(zip(values, days, strict=True)):
        day = FIRST_VALID + timedelta(days=offset)
        valid_from = _valid_from(day, rng)
        start = valid_from[:4] + "-01-01" if len(valid_from) == 4 else (
            valid_from + "-01" if len(valid_from) == 7 else valid_from)
        if start in starts:
            valid_from = start = day.isoformat()
        starts.add(start)
        observed = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(
            days=rng.randrange(60), seconds=rng.randrange(86_400))
        # an observation is made before it is written (the store refuses a future one)
        observed = min(observed, OBSERVED_CAP)
        fact = {"subject": subject, "attribute": attribute, "value": value,
                "valid_from": valid_from, "observed_at": stamp(observed),
                "source": f"bench:u-{subject_index}#{attribute}-{k}",
                "quote": f"{attribute.replace('_', ' ')} is {value}"}
        if attribute == "weight_kg":
            fact["unit"] = "kg"
        if attribute == "uses_tool" and rng.random() < 1 / 3:
            fact["valid_to"] = (day + timedelta(days=rng.randrange(30, 900))).isoformat()
        facts.append(fact)
    return facts


def subject_batches(subjects: range, seed: int) -> Iterator[list[dict[str, Any]]]:
    """BACKFILL_BATCH facts at a time, whole keys only, every attribute of a subject."""
    per_subject = len(ATTRIBUTES) * FACTS_PER_KEY
    step = max(1, BACKFILL_BATCH // per_subject)
    for first in range(subjects.start, subjects.stop, step):
        batch: list[dict[str, Any]] = []
        for i in range(first, min(subjects.stop, first + step)):
            rng = random.Random(seed * 1_000_003 + i)
            for attribute in ATTRIBUTES:
                batch += key_facts(i, attribute, rng)
        yield batch


def load_store(store: Store, total: int, seed: int) -> tuple[dict[str, Any], datetime, int]:
    """Load ``total`` facts; the load's figures, an instant half way through, and subjects."""
    subjects = total // (len(ATTRIBUTES) * FACTS_PER_KEY)
    calls, generate, created, corroborated = [], 0.0, 0, 0
    midpoint: datetime | None = None
    started = time.perf_counter()
    loaded = 0
    batches = subject_batches(range(subjects), seed)
    while True:
        made = time.perf_counter()
        batch = next(batches, None)
        generate += time.perf_counter() - made
        if batch is None:
            break
        call_started = time.perf_counter()
        result = store.backfill_facts(batch)
        calls.append(time.perf_counter() - call_started)
        created += result.created
        corroborated += result.corroborated
        loaded += len(batch)
        if midpoint is None and loaded >= total // 2:
            midpoint = datetime.now(UTC)
        if len(calls) % 20 == 0:
            rate = loaded / (time.perf_counter() - started)
            say(f"  loaded {loaded:,} facts ({rate:,.0f} facts/s, last call "
                f"{calls[-1]:.2f} s)")
    seconds = time.perf_counter() - started
    figures = {
        "facts": loaded, "created": created, "corroborated": corroborated,
        "subjects": subjects, "keys": subjects * len(ATTRIBUTES),
        "facts_per_call": BACKFILL_BATCH, "calls": len(calls), "seconds": round(seconds, 1),
        "generate_seconds": round(generate, 1),
        "facts_per_s": round(loaded / (seconds - generate), 1),
        "call_s": summary(calls, scale=1.0),
        # The first and the last tenth of the calls: does a call slow down as the store grows?
        "first_tenth_call_s": summary(calls[:max(1, len(calls) // 10)], scale=1.0),
        "last_tenth_call_s": summary(calls[-max(1, len(calls) // 10):], scale=1.0),
    }
    return figures, midpoint or datetime.now(UTC), subjects


def as_of_text(rng: random.Random, precision: str) -> str:
    """A random as_of between 2014 and 2027 at one precision."""
    day = date(2014, 1, 1) + timedelta(days=rng.randrange((date(2027, 12, 31)
                                                            - date(2014, 1, 1)).days))
    if precision == "year":
        return f"{day.year:04d}"
    if precision == "month":
        return f"{day.year:04d}-{day.month:02d}"
    if precision == "day":
        return day.isoformat()
    return f"{day.isoformat()}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00Z"


def time_reads(calls: Sequence[Callable[[], Any]]) -> dict[str, Any]:
    """Run each read once; latency summary plus what the reads returned."""
    times, facts, keys, current = [], [], [], []
    for call in calls:
        started = time.perf_counter()
        answer = call()
        times.append(time.perf_counter() - started)
        if hasattr(answer, "keys"):
            keys.append(len(answer.keys))
            facts.append(sum(len(k.history) for k in answer.keys))
            current.append(sum(len(k.current) for k in answer.keys))
        else:
            keys.append(len(getattr(answer, "lines", ()) or ()))
    out: dict[str, Any] = {"ms": summary(times)}
    if len(times) >= 20:
        # Early versus late: a plan that changes once a statement is prepared shows up here.
        out["first_10_ms"] = summary(times[:10])
        out["rest_ms"] = summary(times[10:])
    out["keys_returned"] = summary(keys, scale=1.0)
    if facts:
        out["facts_returned"] = summary(facts, scale=1.0)
        out["current_returned"] = summary(current, scale=1.0)
    return out


def measure_big(bench: Bench, total: int, reads: int, profile_batches: int) -> dict[str, Any]:
    """Load the big store and time every kind of read on it (see the module docstring)."""
    with bench.store(f"big{total}") as store:
        say(f"loading {total:,} timeline facts with backfill_facts")
        out: dict[str, Any] = {}
        out["load"], midpoint, subjects = load_store(store, total, bench.seed)
        say(f"  {out['load']['facts']:,} facts in {out['load']['seconds']:.0f} s "
            f"({out['load']['facts_per_s']:,.0f} facts/s)")
        rng = random.Random(bench.seed + 1)

        def key() -> tuple[str, str]:
            return f"person/u-{rng.randrange(subjects)}", rng.choice(ATTRIBUTES)

        out["as_of"] = {}
        per_precision = max(1, reads // len(PRECISIONS))
        for precision in PRECISIONS:
            say(f"{per_precision} facts(subject, attribute, as_of={precision}) reads")
            out["as_of"][precision] = time_reads([
                partial(store.facts, *key(), as_of=as_of_text(rng, precision))
                for _ in range(per_precision)])
        say("facts(subject) reads")
        out["subject"] = time_reads([partial(store.facts, key()[0])
                                     for _ in range(max(5, reads // 4))])
        say("known_at reads")
        out["known_at"] = time_reads([partial(store.facts, *key(), known_at=midpoint)
                                      for _ in range(max(5, reads // 10))])
        out["known_at"]["known_at"] = midpoint.isoformat()
        say("unfiltered facts() reads (capped at 500 facts)")
        out["unfiltered"] = time_reads([store.facts for _ in range(3)])
        say("facts(attribute=...) reads")
        out["attribute_only"] = time_reads([partial(store.facts, attribute=attribute)
                                            for attribute in ATTRIBUTES[:3]])
        say("brief() calls")
        out["brief"] = time_reads([partial(store.brief, f"what is {key()[0]}'s city?")
                                   for _ in range(3)])
        if profile_batches:
            say(f"profiling {profile_batches} more backfill call(s)")
            extra = subject_batches(range(subjects, subjects + 1_000_000), bench.seed)
            out["profile_backfill"] = profile(lambda: store.backfill_facts(next(extra)),
                                              profile_batches)
            out["profile_backfill"]["facts_per_call"] = BACKFILL_BATCH
            subject, attribute = key()
            out["profile_read"] = profile(
                lambda: store.facts(subject, attribute, as_of="2021-06"), 20)
        out["describe"] = _shape(store)
        return out


def _shape(store: Store) -> dict[str, Any]:
    """The store's size by verdict after the run, from Store.describe()."""
    shape = store.describe()
    return {"facts_by_verdict": shape.facts_by_kind_verdict.get("STATE", {}),
            "documents": shape.documents, "open_conflicts": shape.open_conflicts}


# -- running ------------------------------------------------------------------------------------

@dataclass
class Plan:
    """What one run measures."""

    lengths: tuple[int, ...]
    appends: int
    middles: int
    profile_writes: int
    total: int
    reads: int
    profile_batches: int


def plan_for(args: argparse.Namespace) -> Plan:
    """The full plan, or the --quick one (a few minutes)."""
    if args.quick:
        return Plan((1, 10, 100, 1_000), 20, 10, 3, 50_000, 100, 1)
    return Plan((1, 10, 100, 1_000, 10_000), 20, 10, 5, 1_000_000, 200, 2)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, run both parts, write the JSON and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="lengths up to 1,000 and a 50,000-fact store (about 3 minutes)")
    parser.add_argument("--home", help="FACTSTORE_HOME for the benchmark's embedded server "
                                       "(default .factstore/bench)")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway databases")
    parser.add_argument("--total", type=int, help="facts in the big store (default 1,000,000; "
                                                  "50,000 with --quick)")
    parser.add_argument("--skip-lengths", action="store_true", help="only part b")
    parser.add_argument("--skip-big", action="store_true", help="only part a")
    parser.add_argument("--out", help=f"where to write the JSON (default {RESULTS.name}, or "
                                      f"{QUICK_RESULTS.name} with --quick)")
    args = parser.parse_args(argv)
    plan = plan_for(args)
    if args.total:
        plan.total = args.total
    started = time.perf_counter()
    home = server.factstore_home(args.home or ROOT / ".factstore" / "bench")
    say(f"embedded Postgres under {home}")
    load_start = os.getloadavg()
    if load_start[0] > 1.0:
        say(f"warning: load average {load_start[0]:.2f} before starting; on a small machine "
            "other work inflates every figure")
    bench = Bench(server.embedded_admin_dsn(home), TimedEmbedder(LocalEmbedder()), args.keep)
    bench.embedder.embed(["load the model before anything is timed"])
    results: dict[str, Any] = {
        "benchmark": "evals/perf/bench_timelines.py",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "command": " ".join([".venv/bin/python", "evals/perf/bench_timelines.py", *sys.argv[1:]]),
        "quick": args.quick,
        "plan": {"lengths": list(plan.lengths), "appends": plan.appends,
                 "middles": plan.middles, "total": plan.total, "reads": plan.reads,
                 "backfill_batch": BACKFILL_BATCH},
    }
    if not args.skip_lengths:
        results["by_length"] = {}
        for length in plan.lengths:
            say(f"length {length:,}: build with backfill_facts, then {plan.appends} appends "
                f"and {plan.middles} middle writes")
            results["by_length"][str(length)] = measure_length(
                bench, length, plan.appends, plan.middles,
                plan.profile_writes if length == max(plan.lengths) else 0)
    if not args.skip_big:
        results["big"] = measure_big(bench, plan.total, plan.reads, plan.profile_batches)
    results["machine"] = {
        "cpus": os.cpu_count(), "platform": platform.platform(),
        "python": platform.python_version(), **(bench.versions or {}),
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
    }
    results["elapsed_s"] = round(time.perf_counter() - started, 1)
    results["timeline"] = [{"at": at, "load1": load, "phase": what}
                           for at, load, what in TIMELINE if not what.startswith("  loaded")]
    out = Path(args.out) if args.out else QUICK_RESULTS if args.quick else RESULTS
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(render(results))
    say(f"wrote {out} ({results['elapsed_s']:.0f} s)")
    return 0


def render(results: dict[str, Any]) -> str:
    """The human-readable tables (stdout)."""
    m = results["machine"]
    lines = [f"factstore timelines benchmark, {results['date']}: {m['cpus']} cores, Postgres "
             f"{m['postgres']}, embedder {m['embedder']}",
             f"load average {m['loadavg_start']} -> {m['loadavg_end']}; total "
             f"{results['elapsed_s']:.0f} s", ""]
    if "by_length" in results:
        lines += ["a. one key (person/bench, weight_kg): single-fact write_facts, median / p90 ms",
                  f"{'length':>8} {'build f/s':>10} {'append':>15} {'append-embed':>15} "
                  f"{'middle':>15} {'middle-embed':>15} {'read key':>15}"]
        for length, r in results["by_length"].items():
            build = r["build"].get("facts_per_s", "-")
            lines.append(
                f"{int(length):>8,} {build!s:>10} {_pair(r['append']['write_ms']):>15} "
                f"{_pair(r['append']['write_minus_embed_ms']):>15} "
                f"{_pair(r['middle']['write_ms']):>15} "
                f"{_pair(r['middle']['write_minus_embed_ms']):>15} {_pair(r['read_key_ms']):>15}")
            if r["anomalies"]:
                lines.append(f"{'':>8} anomalies: {r['anomalies']}")
        lines.append("")
    if "big" in results:
        big = results["big"]
        load = big["load"]
        lines += [f"b. {load['facts']:,} facts ({load['keys']:,} keys) loaded in "
                  f"{load['seconds']:.0f} s: {load['facts_per_s']:,.0f} facts/s "
                  f"({load['calls']} backfill_facts calls of {load['facts_per_call']:,}; "
                  f"call median {load['call_s']['median']:.2f} s, first tenth "
                  f"{load['first_tenth_call_s']['median']:.2f} s, last tenth "
                  f"{load['last_tenth_call_s']['median']:.2f} s)",
                  f"{'read':<44} {'median / p90 ms':>18} {'facts back':>11}"]
        rows = [(f"facts(subject, attribute, as_of={p})", big["as_of"][p]) for p in PRECISIONS]
        rows += [("facts(subject)", big["subject"]), ("facts(subject, attribute, known_at)",
                                                      big["known_at"]),
                 ("facts() unfiltered (cap 500)", big["unfiltered"]),
                 ("facts(attribute=...)", big["attribute_only"]), ("brief(question)", big["brief"])]
        for label, r in rows:
            back = r.get("facts_returned", {}).get("median", "-")
            lines.append(f"{label:<44} {_pair(r['ms']):>18} {back!s:>11}")
    return "\n".join(lines)


def _pair(s: dict[str, float | int]) -> str:
    return f"{s['median']:.2f} / {s['p90']:.2f}" if s.get("n") else "-"


if __name__ == "__main__":
    raise SystemExit(main())
