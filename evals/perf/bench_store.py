"""Benchmark the store's write and read paths on the embedded Postgres.

Run from the project root::

    .venv/bin/python evals/perf/bench_store.py                  # full: 10k and 100k facts
    .venv/bin/python evals/perf/bench_store.py --quick          # 2k and 10k, fewer queries
    .venv/bin/python evals/perf/bench_store.py --sizes 10000,100000 --home /tmp/bench --keep

It measures, each in a throwaway database on one embedded server under ``--home``:

a. ``remember()`` throughput with the rule extractor and the local MiniLM embedder on generated
   captures of all seven kinds, and the share of its wall time spent embedding;
b. the per-fact write cost (remember minus embedding), and one HNSW insert on its own;
c. ``recall()`` latency at each size, the facts loaded with ``import_facts`` from synthetic
   embeddings (noisy variants of real MiniLM vectors, cached under ``--home``);
d. the density check's latency and filtered recall@10 against an exact scan (on more than one
   freshly built store, and across hnsw.ef_search), and the same query answered through one
   shared unfiltered HNSW index: the design the schema rejected.

It prints tables and writes evals/perf/results/bench_store.json (bench_store_quick.json with
--quick, so a quick run never overwrites the full figures). It is not a test: nothing is
asserted; docs/performance.md explains the figures. Progress goes to stderr.

The benchmark goes through Store methods only (the one seam). The few measurements no
ordinary tool needs are Store methods (factstore/store/diagnostic_tools.py); see ``_diag``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

from factstore import Store  # noqa: E402
from factstore.backfill import FactRecord  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402
from factstore.kinds import Kind  # noqa: E402
from factstore.store import server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "evals" / "perf" / "results" / "bench_store.json"
QUICK_RESULTS = RESULTS.with_name("bench_store_quick.json")
KINDS: tuple[Kind, ...] = tuple(Kind)


def _diag(store: Store, method: str, *args: Any, **kwargs: Any) -> Any:
    """Call one of Store's diagnostic probes (factstore/store/diagnostic_tools.py)."""
    return getattr(store, method)(*args, **kwargs)


# -- generated text -----------------------------------------------------------------------------
# Templates carry the cue phrases the rule extractor types by, so every kind is exercised; the
# vocabulary is shared across kinds (a service is decided about, broken, preferred, documented)
# so, as in a real store, topic words make facts of different kinds neighbours.

SERVICES = (
    "billing-api", "auth-gateway", "search-indexer", "payments-worker", "notifier",
    "ledger-db", "ingest-pipeline", "report-builder", "profile-api", "cache-warmer",
    "export-job", "webhook-relay", "scheduler", "transcoder", "feature-flags", "audit-log",
    "geo-lookup", "pricing-engine", "inventory-sync", "chat-backend",
)
TECHS = (
    "Postgres", "Redis", "Kafka", "RabbitMQ", "SQLite", "DuckDB", "ClickHouse", "OpenSearch",
    "S3", "Terraform", "Kubernetes", "Nomad", "GitHub Actions", "Buildkite", "Grafana",
    "Prometheus", "Sentry", "Vault", "Envoy", "Celery",
)
COMPONENTS = (
    "checkout flow", "login page", "nightly backup", "CI cache", "staging cluster",
    "release train", "onboarding wizard", "rate limiter", "search ranking", "invoice renderer",
    "session store", "retry queue", "admin dashboard", "mobile sync", "data export",
    "alerting rules", "email templates", "permissions model", "upload handler", "cron jobs",
)
PEOPLE = ("Priya", "Marco", "Aiko", "Tomas", "Lena", "Sam", "Noor", "Jonas", "Ines", "Kofi")
STATUSES = ("green", "red", "down", "flaky", "degraded", "healthy", "blocked", "stable",
            "failing", "offline")
ENVS = ("staging", "production", "the canary pool", "eu-west", "us-east", "the test rig")
SUITES = ("integration", "smoke", "contract", "load", "end-to-end", "unit", "migration")
BRANCHES = ("main", "release", "develop", "hotfix")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MONTHS = ("January", "March", "April", "June", "August", "September", "October", "November")
ARTIFACTS = ("commit messages", "pull requests", "changelogs", "design docs", "status updates",
             "code reviews", "stand-ups", "incident notes")


def _slug(text: str) -> str:
    return "-".join(text.lower().replace("the ", "").split())


TEMPLATES: dict[Kind, tuple[str, ...]] = {
    Kind.DECISION: (
        "We decided to move the {component} to {tech} by {month}.",
        "We're going with {tech} for the {service} queue; that's final.",
        "Decision: {service} keeps {n} replicas in {env}.",
        "We parked the {component} rewrite until {service} is stable again.",
        "We decided against caching in the {component} for {service}.",
        "We settled on a {n}-day retention window for {service} logs.",
        "{person} and I decided that {service} owns the {component} from {month}.",
        "We chose {tech} over {tech2} for the {component}.",
    ),
    Kind.RULE: (
        "Always run the {suite} suite before merging into {branch}.",
        "Never deploy {service} on a {day} afternoon.",
        "From now on every change to the {component} must have a rollback plan.",
        "Rule: {service} migrations need two reviewers because of the {month} outage.",
        "We must not store raw card numbers in {tech}.",
        "Never rotate the {service} keys without telling {person} first.",
        "Always pin the {tech} version in {service} to avoid surprise upgrades.",
        "Everyone must tag {service} releases with the {suite} run id.",
    ),
    Kind.STATE: (
        "{service} is currently {status} in {env}.",
        "The {component} is {status} right now.",
        "As of today, {service} runs {n} workers in {env}.",
        "The {suite} build for {service} is {status} at the moment; re-check every {n} hours.",
        "{tech} in {env} is no longer behind the VPN.",
        "Right now the {component} queue holds about {n}00 jobs.",
        "The {service} dashboard is {status} after the {tech} change.",
    ),
    Kind.PREFERENCE: (
        "I prefer {tech} over {tech2} for the {component}.",
        "I really like short {artifact} for {service} changes.",
        "I'd rather review the {component} diff on {day} mornings.",
        "My favourite dashboard for {service} is the {tech} one.",
        "I hate long meetings about the {component}.",
        "I prefer {artifact} written before the {component} work starts.",
        "I'm not a fan of {tech} for the {service} use case.",
    ),
    Kind.REFERENCE: (
        "The {component} runbook lives at docs/runbooks/{component_slug}.md.",
        "The {service} dashboards are at https://grafana.example.com/d/{service}-{n}.",
        "See ops/{service}/limits.yaml for the {service} quotas.",
        "The {service} repo is acme/{service}.",
        "The {tech} settings for {env} are stored in /etc/{service}/{n}.conf.",
        "The {component} design doc is at https://wiki.example.com/{component_slug}/{n}.",
    ),
    Kind.RESIDUAL: (
        "We'll live with the {n}-second cold start on {service} for now.",
        "Known issue: the {component} double-sends emails when {tech} restarts.",
        "We accept the risk of {n} minutes of downtime during the {tech} upgrade; low risk.",
        "Won't fix: the {component} flicker in old browsers.",
        "We can live with {service} retrying twice until a customer complaint shows up.",
        "Known limitation: {service} cannot export more than {n}000 rows at once.",
    ),
    Kind.EVENT: (
        "We migrated {service} to {tech} last {day}.",
        "{person} shipped the new {component} to {env} yesterday.",
        "Fixed the timeout bug in the {component} this morning.",
        "The {suite} suite passed {n} of {n} checks after the {tech} upgrade.",
        "We rolled back the {service} release after {n} errors in {env}.",
        "{person} benchmarked {tech} at {n}00 requests per second.",
        "We archived the old {component} data for {service} on {day}.",
    ),
}
# Sentences with no cue: a capture is rarely all facts, and these must yield nothing.
FILLER: tuple[str, ...] = (
    "Thanks, that helps.",
    "Let me think about the {component} a bit more.",
    "Can you check with {person} about {service}?",
    "Good call on the {tech} thing.",
    "More on this after lunch.",
    "{person} might have context on the {component}.",
)


def fill(template: str, rng: np.random.Generator) -> str:
    """One sentence from a template, every slot drawn from the shared vocabulary."""
    component = str(rng.choice(COMPONENTS))
    techs = rng.choice(TECHS, size=2, replace=False)
    return template.format(
        service=rng.choice(SERVICES), tech=techs[0], tech2=techs[1], component=component,
        component_slug=_slug(component), person=rng.choice(PEOPLE), status=rng.choice(STATUSES),
        env=rng.choice(ENVS), suite=rng.choice(SUITES), branch=rng.choice(BRANCHES),
        day=rng.choice(DAYS), month=rng.choice(MONTHS), artifact=rng.choice(ARTIFACTS),
        n=int(rng.integers(2, 60)))


def make_captures(count: int, seed: int) -> list[str]:
    """``count`` distinct one-to-three-sentence captures, kinds in rotation."""
    rng = np.random.default_rng(seed)
    captures: list[str] = []
    seen: set[str] = set()
    turn = 0
    while len(captures) < count:
        sentences = []
        for _ in range(int(rng.choice((1, 2, 3), p=(0.4, 0.35, 0.25)))):
            kind = KINDS[turn % len(KINDS)]
            turn += 1
            sentences.append(fill(str(rng.choice(TEMPLATES[kind])), rng))
        if rng.random() < 0.3:  # an uncued aside, before or after
            aside = fill(str(rng.choice(FILLER)), rng)
            sentences.insert(int(rng.integers(0, len(sentences) + 1)), aside)
        text = " ".join(sentences)
        if text not in seen:
            seen.add(text)
            captures.append(text)
    return captures


def make_sentences(count: int, seed: int) -> list[tuple[Kind, str]]:
    """``count`` distinct single sentences, each with the kind its template is for."""
    rng = np.random.default_rng(seed)
    out: list[tuple[Kind, str]] = []
    seen: set[str] = set()
    while len(out) < count:
        kind = KINDS[len(out) % len(KINDS)]
        sentence = fill(str(rng.choice(TEMPLATES[kind])), rng)
        if sentence not in seen:
            seen.add(sentence)
            out.append((kind, sentence))
    return out


# -- timing proxies -----------------------------------------------------------------------------

class TimedEmbedder:
    """The wrapped embedder's name, dim and embed(), plus the time spent inside embed().

    The store records the embedder's name and refuses another, so the proxy must answer the
    same name. ``plant`` maps a query text to a ready vector: recall at 100k is measured with
    synthetic query vectors (noisy variants, like the stored facts), which MiniLM would not
    produce from any text; planted texts never reach the model and cost no embedding time.
    """

    def __init__(self, inner: LocalEmbedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.calls = 0
        self._planted: dict[str, np.ndarray] = {}

    @property
    def dim(self) -> int:
        return self.inner.dim

    def plant(self, text: str, vector: np.ndarray) -> None:
        self._planted[text] = np.asarray(vector, dtype=np.float32)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = list(texts)
        if items and all(t in self._planted for t in items):
            return np.stack([self._planted[t] for t in items])
        started = time.perf_counter()
        try:
            return self.inner.embed(items)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1


class TimedExtractor:
    """The wrapped extractor's name and extract(), plus the time spent inside extract()."""

    def __init__(self, inner: Extractor) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        started = time.perf_counter()
        try:
            return self.inner.extract(text, context)
        finally:
            self.seconds += time.perf_counter() - started


# -- small helpers ------------------------------------------------------------------------------

def summary(values: Sequence[float], scale: float = 1000.0) -> dict[str, float | int]:
    """Median, p90, mean and count; seconds are reported in milliseconds by default."""
    if not values:
        return {"n": 0}
    data = np.asarray(values, dtype=np.float64) * scale
    return {"median": round(float(np.median(data)), 3),
            "p90": round(float(np.percentile(data, 90)), 3),
            "mean": round(float(data.mean()), 3), "n": len(values)}


#: (clock, 1-minute load average, message) per progress line: other work on a 2-core machine
#: moves every figure here (torch's two threads stall when a core is taken), so the results
#: carry the load they were measured under.
TIMELINE: list[tuple[str, float, str]] = []


def say(message: str) -> None:
    """Progress on stderr (stdout carries only the final table), logged with the load."""
    clock = time.strftime("%H:%M:%S")
    TIMELINE.append((clock, round(os.getloadavg()[0], 2), message))
    print(f"[{clock}] {message}", file=sys.stderr, flush=True)


#: cosine of a synthetic vector to the real sentence vector it varies: small noise, a close
#: paraphrase (two variants of one sentence then sit at about 0.67-0.94 to each other)
VARIANT_COSINE: tuple[float, float] = (0.82, 0.97)


def unit_variants(base: np.ndarray, rng: np.random.Generator,
                  cosine: tuple[float, float] = VARIANT_COSINE) -> np.ndarray:
    """Noisy unit vectors around each row of ``base``, each at a cosine drawn from a range.

    Gaussian noise is made orthogonal to its base before mixing, so the cosine to the base is
    exactly the drawn value instead of depending on the noise's accidental alignment.
    """
    cos_low, cos_high = cosine
    noise = rng.standard_normal(base.shape).astype(np.float32)
    noise -= np.sum(noise * base, axis=1, keepdims=True) * base
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    cosine = rng.uniform(cos_low, cos_high, size=(len(base), 1)).astype(np.float32)
    mixed = cosine * base + np.sqrt(1.0 - cosine ** 2) * noise
    return mixed / np.linalg.norm(mixed, axis=1, keepdims=True)


class CpuMeter:
    """Who used the two cores while a phase ran: this benchmark, its Postgres backends, others.

    On a two-core machine another process taking one core stalls torch's two threads, so a
    timing means little without this. Linux only (/proc); elsewhere every field is None.
    "Other" is machine busy time minus ours, so it also counts the server's background
    processes (checkpointer, WAL writer, autovacuum), which are not per-database.
    """

    def __init__(self) -> None:
        self._tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        # our throwaway databases are all named bench_<label>_<pid>; backends show the name
        self._tag = f"_{os.getpid()} "

    def _machine(self) -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait

    def _postgres(self) -> float:
        total = 0
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                if self._tag not in (proc / "cmdline").read_bytes().decode(errors="replace"):
                    continue
                stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
                total += int(stat[11]) + int(stat[12])  # utime + stime
            except OSError:
                continue  # the process ended meanwhile
        return total / self._tick

    def __enter__(self) -> CpuMeter:
        self.result: dict[str, float | None] = {}
        try:
            self._start = (time.monotonic(), self._machine(), os.times(), self._postgres())
        except OSError:
            self._start = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._start is None:
            self.result = {"machine_busy_cores": None, "benchmark_cores": None,
                           "postgres_cores": None, "other_cores": None}
            return
        began, (total0, idle0), times0, pg0 = self._start
        wall = time.monotonic() - began
        total1, idle1 = self._machine()
        times1 = os.times()
        cores = os.cpu_count() or 1
        busy = cores * (1 - (idle1 - idle0) / max(total1 - total0, 1))
        ours = (times1.user + times1.system - times0.user - times0.system) / wall
        postgres = (self._postgres() - pg0) / wall
        self.result = {"machine_busy_cores": round(busy, 2), "benchmark_cores": round(ours, 2),
                       "postgres_cores": round(postgres, 2),
                       "other_cores": round(max(busy - ours - postgres, 0.0), 2)}


@dataclass
class Bench:
    """What every phase shares: the server, the embedder, the options."""

    admin_dsn: str
    home: Path
    embedder: LocalEmbedder
    keep: bool
    quick: bool
    cosine: tuple[float, float] = VARIANT_COSINE
    seed: int = 20261201

    @contextmanager
    def store(self, label: str, extractor: Extractor | None = None
              ) -> Iterator[tuple[Store, TimedEmbedder, TimedExtractor]]:
        """A store on a fresh throwaway database, dropped afterwards unless --keep."""
        name = f"bench_{label}_{os.getpid()}"
        server.drop_database(self.admin_dsn, name)  # a leftover from a killed run
        server.ensure_database(self.admin_dsn, name)
        timed_embedder = TimedEmbedder(self.embedder)
        timed_extractor = TimedExtractor(extractor or RuleExtractor())
        store = Store.open(server.with_database(self.admin_dsn, name), embedder=timed_embedder,
                           extractor=timed_extractor)
        try:
            yield store, timed_embedder, timed_extractor
        finally:
            store.close()
            if self.keep:
                say(f"kept database {name}")
            else:
                server.drop_database(self.admin_dsn, name)


# -- synthetic facts ----------------------------------------------------------------------------

BASE_SENTENCES = 5000


def base_corpus(bench: Bench) -> tuple[list[tuple[Kind, str]], np.ndarray, float | None]:
    """5,000 real sentences and their MiniLM vectors, cached as .npy under --home.

    Returns the sentences, the vectors and the embedding rate (sentences/s) when they were
    embedded in this run, or None when the cache answered.
    """
    sentences = make_sentences(BASE_SENTENCES, bench.seed)
    digest = hashlib.sha256("\n".join(f"{k}\t{s}" for k, s in sentences).encode()
                            + bench.embedder.name.encode()).hexdigest()[:16]
    cache = bench.home / "bench_cache" / f"base_vectors_{digest}.npy"
    if cache.exists():
        say(f"base vectors from cache {cache}")
        return sentences, np.load(cache), None
    say(f"embedding {len(sentences)} base sentences with {bench.embedder.name}")
    started = time.perf_counter()
    vectors = bench.embedder.embed([s for _, s in sentences])
    rate = len(sentences) / (time.perf_counter() - started)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return sentences, vectors, rate


def kind_homophily(sentences: list[tuple[Kind, str]], base: np.ndarray, k: int = 10) -> float:
    """Share of each real sentence's k nearest other sentences that have its kind.

    How far MiniLM neighbourhoods follow kind rather than topic: at 1/7 (0.14) kind would be
    invisible in the embedding; at 1.0 a same-kind filter would never discard a neighbour.
    """
    kinds = np.array([KINDS.index(kind) for kind, _ in sentences])
    similarity = base @ base.T
    np.fill_diagonal(similarity, -np.inf)
    nearest = np.argpartition(-similarity, k, axis=1)[:, :k]
    return round(float((kinds[nearest] == kinds[:, None]).mean()), 4)


@dataclass
class Synthetic:
    """N synthetic facts: their records, vectors and what the benchmark must remember of them."""

    records: list[FactRecord]
    vectors: np.ndarray
    kinds: np.ndarray        # kind index per row (into KINDS)
    live: np.ndarray         # active or contested: what the density check may return
    retrievable: np.ndarray  # in a partial index: active, contested or parked


def synthetic_facts(size: int, sentences: list[tuple[Kind, str]], base: np.ndarray,
                    seed: int, cosine: tuple[float, float]) -> Synthetic:
    """``size`` facts: each a noisy variant of a base sentence, keeping that sentence's kind.

    A variant keeps its base's kind because it stands for a rewording of that sentence. Three
    consecutive facts share one document, like a capture that yielded three facts, so the
    documents layer holds a third as many rows (and HNSW entries) as the facts.
    """
    rng = np.random.default_rng(seed + size)
    picks = rng.integers(0, len(sentences), size=size)
    vectors = unit_variants(base[picks], rng, cosine)
    kinds = np.array([KINDS.index(sentences[i][0]) for i in picks])
    verdicts = rng.choice(np.array(["active", "parked", "withdrawn"]), size=size,
                          p=(0.90, 0.05, 0.05))
    ages = rng.uniform(0, 90 * 86400, size=size)
    now = datetime.now(UTC)
    records = []
    for row, pick in enumerate(picks):
        group = row // 3
        quote = " ".join(sentences[p][1] for p in picks[group * 3:group * 3 + 3])
        records.append(FactRecord(
            statement=sentences[pick][1], kind=KINDS[kinds[row]].value, quote=quote,
            source_type="capture", source_ref=f"bench/synthetic/{size}/{group}",
            captured_at=now - timedelta(seconds=float(ages[row])), verdict=str(verdicts[row]),
            meta={"bench": "synthetic", "base": int(pick)}))
    return Synthetic(records, vectors, kinds, verdicts == "active",
                     np.isin(verdicts, ("active", "parked")))


def _import_report(store: Store) -> dict[str, Any] | None:
    """What the last import_facts call reported (rows, rebuilt indexes, where time went)."""
    report = getattr(store, "last_import", None)
    if report is None:
        return None
    return {k: (round(v, 3) if isinstance(v, float) else v)
            for k, v in dataclasses.asdict(report).items() if not isinstance(v, list | dict)}


def load(store: Store, data: Synthetic, batch: int) -> tuple[np.ndarray, dict[str, Any]]:
    """import_facts in batches (one transaction each); returns the ids in row order."""
    ids: list[int] = []
    started = time.perf_counter()
    for start in range(0, len(data.records), batch):
        ids += store.import_facts(data.records[start:start + batch],
                                  embeddings=data.vectors[start:start + batch],
                                  chunk_size=batch)
        say(f"  loaded {len(ids):,}/{len(data.records):,} "
            f"({len(ids) / (time.perf_counter() - started):,.0f} facts/s)")
    seconds = time.perf_counter() - started
    return np.asarray(ids), {"facts": len(ids), "seconds": round(seconds, 1),
                             "facts_per_s": round(len(ids) / seconds, 1),
                             "ms_per_fact": round(1000 * seconds / len(ids), 3),
                             "batch": batch}


# -- the phases ---------------------------------------------------------------------------------

#: remember() outcomes that insert a new fact row (recaptured / unchanged only add evidence)
INSERTING_OUTCOMES = frozenset(("written", "contested", "superseded-prior", "ground-truth-won",
                                "ground-truth-lost"))


def settled_stats(store: Store, min_inserted: int, timeout: float = 15.0) -> tuple[Any, bool]:
    """Storage stats once the facts insert counter reaches ``min_inserted`` (or the timeout).

    Postgres publishes a backend's row counters only when it flushes them (at most every
    second, or after ~10 s idle), so a counter read straight after a write can be behind.
    """
    deadline = time.monotonic() + timeout
    while True:
        stats = _diag(store, "storage_stats")
        if stats.facts_inserted >= min_inserted:
            return stats, True
        if time.monotonic() > deadline:
            return stats, False
        time.sleep(0.5)


def settle(store: Store, timeout: float = 120.0) -> dict[str, Any]:
    """Wait until no autovacuum worker is busy in the store's database (a bulk load sets
    several off), so the next timings are not sharing the two cores with it."""
    started = time.monotonic()
    busy = _diag(store, "background_activity")
    while busy and time.monotonic() - started < timeout:
        time.sleep(1.0)
        busy = _diag(store, "background_activity")
    return {"waited_s": round(time.monotonic() - started, 1), "still_busy": busy}


def measure_remember(store: Store, embedder: TimedEmbedder, extractor: TimedExtractor,
                     captures: Sequence[str], prior_facts: int = 0) -> dict[str, Any]:
    """remember() each capture; split its wall time into embedding, extraction and the rest.

    "The rest" is the database stage (documents floor, tags, density check, triage, the
    inserts and their HNSW insert, commit) plus the write path's pure-Python stages. The
    facts table's row counters, read before and after, show how many row versions (and so
    HNSW inserts) the captures cost: one per new fact, plus one per non-HOT update of a fact
    that stays in its partial index (a verdict moving to contested).
    """
    before, _ = settled_stats(store, prior_facts)
    walls: list[float] = []
    embeds: list[float] = []
    extracts: list[float] = []
    facts: list[int] = []
    outcomes: Counter[str] = Counter()
    with CpuMeter() as meter:
        for text in captures:
            embedded, extracted = embedder.seconds, extractor.seconds
            started = time.perf_counter()
            result = store.remember(text)
            walls.append(time.perf_counter() - started)
            embeds.append(embedder.seconds - embedded)
            extracts.append(extractor.seconds - extracted)
            facts.append(len(result.outcomes))
            outcomes.update(o.outcome for o in result.outcomes)
    wall, embed, extract, total = sum(walls), sum(embeds), sum(extracts), sum(facts)
    with_facts = [i for i, n in enumerate(facts) if n]
    inserted = sum(n for outcome, n in outcomes.items() if outcome in INSERTING_OUTCOMES)
    after, settled = settled_stats(store, before.facts_inserted + inserted)
    return {
        "captures": len(captures), "facts": total, "outcomes": dict(outcomes),
        "cpu": meter.result,
        "fact_rows": {"inserted": after.facts_inserted - before.facts_inserted,
                      "updated": after.facts_updated - before.facts_updated,
                      "hot_updated": after.facts_hot_updated - before.facts_hot_updated,
                      "counters_settled": settled},
        "captures_per_s": round(len(captures) / wall, 2),
        "facts_per_s": round(total / wall, 2),
        "remember_ms": summary(walls),
        "embed_ms_per_capture": summary(embeds),
        "embed_share": round(embed / wall, 3),
        "extract_share": round(extract / wall, 4),
        # the brief's "per-fact write cost": remember minus embedding, per fact
        "write_ms_per_fact": summary([(walls[i] - embeds[i]) / facts[i] for i in with_facts]),
        "write_ms_per_fact_overall": round(1000 * (wall - embed) / max(total, 1), 3),
        # the same without extraction: what the database stage costs per fact
        "db_ms_per_fact": summary([(walls[i] - embeds[i] - extracts[i]) / facts[i]
                                   for i in with_facts]),
    }


def measure_query_embedding(embedder: LocalEmbedder, count: int) -> dict[str, Any]:
    """What recall pays to embed one query (recall embeds exactly one text)."""
    queries = [f"what did we decide about the {c} for {s}?"
               for c, s in zip(COMPONENTS * 5, SERVICES * 5, strict=False)][:count]
    times = []
    with CpuMeter() as meter:
        for query in queries:
            started = time.perf_counter()
            embedder.embed([query])
            times.append(time.perf_counter() - started)
    return {**summary(times), "cpu": meter.result}


#: a CPU-bound phase measured while other processes used more than this many cores is measured
#: again (the two cores are shared; torch's two threads stall when one is taken)
FOREIGN_CORES_LIMIT = 0.25
ATTEMPTS = 3


def quietly(label: str, measure: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
    """Run ``measure(attempt)`` until other processes stayed under the limit, at most ATTEMPTS
    times, and keep the attempt they disturbed least (its "attempts" field shows them all)."""
    tries: list[dict[str, Any]] = []
    for attempt in range(1, ATTEMPTS + 1):
        result = measure(attempt)
        tries.append(result)
        other = result["cpu"]["other_cores"]
        if other is None or other <= FOREIGN_CORES_LIMIT:
            break
        if attempt < ATTEMPTS:
            say(f"{label}: other processes used {other:.2f} cores; waiting 20 s to measure again")
            time.sleep(20)
    best = min(tries, key=lambda r: r["cpu"]["other_cores"] or 0.0)
    return {**best, "attempts": [r["cpu"]["other_cores"] for r in tries]}


def measure_recall(store: Store, embedder: TimedEmbedder, base: np.ndarray, count: int,
                   rng: np.random.Generator, cosine: tuple[float, float]) -> dict[str, Any]:
    """recall() latency for noisy-variant query vectors (planted, so no model time)."""
    warmup = 10
    picks = rng.integers(0, len(base), size=count + warmup)
    vectors = unit_variants(base[picks], rng, cosine)
    times: list[float] = []
    layers: Counter[str] = Counter()
    items: list[int] = []
    with CpuMeter() as meter:
        for i, vector in enumerate(vectors):
            text = f"bench recall query {i}"
            embedder.plant(text, vector)
            started = time.perf_counter()
            result = store.recall(text)
            elapsed = time.perf_counter() - started
            if i >= warmup:  # the first few pay for cold caches and plan setup
                times.append(elapsed)
                layers[result.layer] += 1
                items.append(len(result.items))
    return {"queries": count, "k": store.settings.recall_k, "latency_ms": summary(times),
            "layers": dict(layers), "items_mean": round(float(np.mean(items)), 2),
            "cpu": meter.result}


@dataclass(frozen=True)
class DensityQuery:
    """One density probe: the kind asked for, the vector, and whether the kind is the
    vector's own (matched) or another kind's (cross: the neighbourhood is mostly filtered)."""

    kind: Kind
    vector: np.ndarray
    matched: bool


def density_queries(sentences: list[tuple[Kind, str]], base: np.ndarray, count: int,
                    rng: np.random.Generator, cosine: tuple[float, float]
                    ) -> list[DensityQuery]:
    """Half asking for the vector's own kind, half for another kind.

    A new fact's same-kind neighbours are not always its nearest: "we decided on Postgres"
    lives among states and events about Postgres. Cross-kind probes measure that case, where
    a filter after the graph search throws most of the candidates away.
    """
    picks = rng.integers(0, len(base), size=count)
    vectors = unit_variants(base[picks], rng, cosine)
    out = []
    for i, (pick, vector) in enumerate(zip(picks, vectors, strict=True)):
        own = sentences[pick][0]
        if i % 2 == 0:
            out.append(DensityQuery(own, vector, True))
        else:
            others = [k for k in KINDS if k is not own]
            out.append(DensityQuery(others[int(rng.integers(0, len(others)))], vector, False))
    return out


def recall_at(found: Sequence[int], truth: Sequence[int]) -> float:
    """|found ∩ truth| / |truth|; 1.0 when the truth is empty (nothing to find)."""
    return len(set(found) & set(truth)) / len(truth) if truth else 1.0


def split_recall(queries: Sequence[DensityQuery], scores: Sequence[float]) -> dict[str, float]:
    def mean(values: list[float]) -> float:
        return round(float(np.mean(values)), 4) if values else float("nan")
    return {"all": mean(list(scores)),
            "matched_kind": mean([s for q, s in zip(queries, scores, strict=True) if q.matched]),
            "cross_kind": mean([s for q, s in zip(queries, scores, strict=True) if not q.matched])}


def near_recall(found: Sequence[int], exact: Any, threshold: float) -> float | None:
    """Share of the exact neighbours at or above the density threshold that were found.

    These are the only neighbours the density check acts on (conflict candidates); None when
    the exact answer has none.
    """
    near = [i for i, s in zip(exact.ids, exact.similarities, strict=True) if s >= threshold]
    return len(set(found) & set(near)) / len(near) if near else None


def near_summary(values: Sequence[float | None]) -> dict[str, float | int | None]:
    scored = [v for v in values if v is not None]
    return {"mean": round(float(np.mean(scored)), 4) if scored else None,
            "queries_with_near_duplicates": len(scored)}


def measure_density(store: Store, data: Synthetic, ids: np.ndarray,
                    queries: Sequence[DensityQuery], k: int = 10
                    ) -> tuple[dict[str, Any], list[Any]]:
    """The density check's kNN through its partial index vs an exact scan; recall@k.

    Also checked in numpy, from the vectors the benchmark loaded: the exact scan's answer
    (agreement with Postgres) and how many of the 100 nearest facts, unfiltered, pass the
    density filter (what a shared index would have left after filtering).
    """
    for q in queries[:5]:  # warm the kind indexes and the plan path
        _diag(store, "density_probe", q.kind, q.vector, k)
    hnsw_times, exact_times, scores, agreement, pass_rates = [], [], [], [], []
    near: list[float | None] = []
    exacts: list[Any] = []
    threshold = store.settings.density_threshold
    row_of = {int(fact_id): row for row, fact_id in enumerate(ids)}
    for q in queries:
        hnsw = _diag(store, "density_probe", q.kind, q.vector, k)
        exact = _diag(store, "density_probe", q.kind, q.vector, k, exact=True)
        hnsw_times.append(hnsw.seconds)
        exact_times.append(exact.seconds)
        scores.append(recall_at(hnsw.ids, exact.ids))
        near.append(near_recall(hnsw.ids, exact, threshold))
        exacts.append(exact)
        similarity = data.vectors @ q.vector
        eligible = (data.kinds == KINDS.index(q.kind)) & data.live
        truth = np.flatnonzero(eligible)[np.argsort(-similarity[eligible])[:k]]
        agreement.append(recall_at([row_of[i] for i in exact.ids], truth.tolist()))
        nearest = np.argsort(-similarity)[:100]
        pass_rates.append(float(eligible[nearest].mean()))
    return {
        "queries": len(queries), "k": k, "ef_search": store.settings.ef_search,
        "hnsw_ms": summary(hnsw_times), "exact_ms": summary(exact_times),
        "recall_at_k": split_recall(queries, scores),
        "near_duplicate_recall": near_summary(near), "density_threshold": threshold,
        "exact_top_k_similarity": {
            "matched_kind": round(float(np.median([s for q, e in zip(queries, exacts, strict=True)
                                                   if q.matched for s in e.similarities])), 3),
            "cross_kind": round(float(np.median([s for q, e in zip(queries, exacts, strict=True)
                                                 if not q.matched for s in e.similarities])), 3)},
        "exact_vs_numpy_agreement": round(float(np.mean(agreement)), 4),
        "filter_pass_rate_top100": split_recall(queries, pass_rates),
    }, exacts


def measure_ef_sweep(store: Store, queries: Sequence[DensityQuery], exacts: Sequence[Any],
                     efs: Sequence[int] = (40, 100, 200, 400), k: int = 10) -> dict[str, Any]:
    """The density check's recall@k and latency as hnsw.ef_search varies (setting: 100)."""
    out = {}
    threshold = store.settings.density_threshold
    for ef in efs:
        answers = [_diag(store, "density_probe", q.kind, q.vector, k, ef_search=ef)
                   for q in queries]
        out[str(ef)] = {
            "recall_at_k": split_recall(queries, [recall_at(a.ids, e.ids)
                                                  for a, e in zip(answers, exacts, strict=True)]),
            "near_duplicate_recall": near_summary(
                [near_recall(a.ids, e, threshold) for a, e in zip(answers, exacts, strict=True)]),
            "latency_ms": summary([a.seconds for a in answers]),
            # which plan the planner picks at this ef_search (it costs the HNSW scan by
            # ef_search, so a small kind can tip it to an exact scan)
            "plans": dict(Counter(
                "+".join(_diag(store, "explain_density", q.kind, q.vector, k,
                               ef_search=ef).indexes) or "exact scan"
                for q in queries[:20])),
        }
    return out


def measure_plans(store: Store, query: DensityQuery, vector: np.ndarray) -> dict[str, Any]:
    """Which index each production kNN rides (EXPLAIN ANALYZE of the real query)."""
    plans = {
        "density_hnsw": _diag(store, "explain_density", query.kind, query.vector),
        "density_exact": _diag(store, "explain_density", query.kind, query.vector, exact=True),
        "recall": _diag(store, "explain_recall", vector),
    }
    return {name: {"indexes": list(p.indexes), "execution_ms": round(p.execution_ms, 3),
                   "plan": p.text} for name, p in plans.items()}


def measure_shared_index(store: Store, queries: Sequence[DensityQuery],
                         exacts: Sequence[Any], k: int = 10) -> dict[str, Any]:
    """The same probes through one temporary shared HNSW index (rolled back afterwards)."""
    probe = _diag(store, "shared_index_probe", [(q.kind, q.vector) for q in queries], k)
    modes = {}
    threshold = store.settings.density_threshold
    for mode, answers in probe.results.items():
        pairs = list(zip(answers, exacts, strict=True))
        modes[mode] = {
            "recall_at_k": split_recall(queries, [recall_at(a.ids, e.ids) for a, e in pairs]),
            "near_duplicate_recall": near_summary([near_recall(a.ids, e, threshold)
                                                   for a, e in pairs]),
            "latency_ms": summary([a.seconds for a in answers]),
            "short_answers": sum(len(a.ids) < k for a in answers),
        }
    return {"build_s": round(probe.build_seconds, 1), "indexes": list(probe.plan.indexes),
            "plan": probe.plan.text, "modes": modes}


def measure_insert_cost(store: Store, base: np.ndarray, prefill: int, count: int,
                        rng: np.random.Generator, cosine: tuple[float, float]
                        ) -> dict[str, Any]:
    """One HNSW insert, on a scratch index the size of one kind's partial index."""
    vectors = unit_variants(base[rng.integers(0, len(base), size=count)], rng, cosine)
    cost = _diag(store, "hnsw_insert_cost", vectors, prefill)
    return {"prefill": cost.prefill, "inserts": cost.inserts,
            "plain_insert_ms": round(1000 * cost.plain_median_s, 3),
            "indexed_insert_ms": round(1000 * cost.indexed_median_s, 3),
            "hnsw_insert_ms": round(1000 * cost.hnsw_insert_s, 3),
            "scratch_build_s": round(cost.build_seconds, 2)}


# -- running it ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """How much work each phase does (full or --quick)."""

    sizes: tuple[int, ...]
    captures: int
    captures_at_size: int
    recall_queries: int
    density_queries: int
    insert_probes: int
    #: fresh databases at the largest size: each HNSW graph is built with random levels, so
    #: the density check's recall is measured on more than one graph
    builds: int = 1
    load_batch: int = 6000  # a multiple of 3, so a synthetic document never spans two batches
    #: the shared-index comparison builds a 1-graph HNSW over every fact: skipped above this
    shared_index_max: int = 200_000


def plan_for(args: argparse.Namespace) -> Plan:
    if args.quick:
        plan = Plan((2000, 10000), captures=100, captures_at_size=40, recall_queries=40,
                    density_queries=60, insert_probes=60, builds=1)
    else:
        # 400 density probes: 200 asking for the vector's own kind, 200 for another kind
        plan = Plan((10000, 100000), captures=300, captures_at_size=100, recall_queries=100,
                    density_queries=400, insert_probes=200, builds=2)
    if args.sizes:
        sizes = tuple(int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip())
        if not sizes or min(sizes) < 100:
            raise SystemExit("--sizes needs comma-separated sizes of at least 100 facts")
        plan = Plan(sizes, plan.captures, plan.captures_at_size, plan.recall_queries,
                    plan.density_queries, plan.insert_probes, plan.builds)
    if args.builds is not None:
        if args.builds < 1:
            raise SystemExit("--builds needs at least 1")
        plan = Plan(plan.sizes, plan.captures, plan.captures_at_size, plan.recall_queries,
                    plan.density_queries, plan.insert_probes, args.builds)
    return plan


def run_size(bench: Bench, plan: Plan, size: int, sentences: list[tuple[Kind, str]],
             base: np.ndarray, largest: bool) -> dict[str, Any]:
    """Every read-path measurement at one store size, in its own throwaway database."""
    rng = np.random.default_rng(bench.seed + 7 * size)
    out: dict[str, Any] = {}
    with bench.store(f"n{size}") as (store, embedder, extractor):
        data = synthetic_facts(size, sentences, base, bench.seed, bench.cosine)
        say(f"size {size:,}: loading with import_facts")
        # Up to 100k the store is loaded as before, 6,000 facts per call (indexes kept, as a
        # growing store would); a million is loaded as one call, which builds its HNSW indexes
        # once after the COPY (store/index_plan.py): how an archive migration would run.
        batch = plan.load_batch if size <= 100_000 else size
        ids, out["load"] = load(store, data, batch)
        out["load"]["report"] = _import_report(store)
        out["settle_after_load"] = settle(store)
        _diag(store, "analyze_tables")  # time the plans steady statistics give
        queries = density_queries(sentences, base, plan.density_queries, rng, bench.cosine)
        out["plans"] = measure_plans(store, queries[0], queries[1].vector)
        say(f"size {size:,}: recall x{plan.recall_queries}")
        out["recall"] = quietly(f"recall at {size:,}", lambda _: measure_recall(
            store, embedder, base, plan.recall_queries, rng, bench.cosine))
        say(f"size {size:,}: density check x{len(queries)} (HNSW and exact)")
        out["density"], exacts = measure_density(store, data, ids, queries)
        per_kind = int(data.retrievable.sum()) // len(KINDS)
        say(f"size {size:,}: HNSW insert cost (scratch index of {per_kind:,})")
        out["hnsw_insert"] = measure_insert_cost(store, base, per_kind, plan.insert_probes, rng,
                                                 bench.cosine)
        # At every size: the ef_search default is chosen from 10k, 100k and 1M (issue 10).
        say(f"size {size:,}: density check ef_search sweep")
        out["ef_search_sweep"] = measure_ef_sweep(store, queries, exacts)
        if largest and size <= plan.shared_index_max:
            say(f"size {size:,}: shared unfiltered HNSW index (temporary, rolled back)")
            out["shared_index"] = measure_shared_index(store, queries, exacts)
        stats, _ = settled_stats(store, size)
        out["storage_mb"] = {name: round(b / 2**20, 1) for name, b in stats.relation_bytes.items()}
        out["settle_before_remember"] = settle(store)
        say(f"size {size:,}: remember x{plan.captures_at_size} on top")
        # A fresh capture set per attempt: repeating one would only find restatements. The
        # store grows by each attempt's facts, which is negligible next to its size.
        out["remember"] = quietly(f"remember at {size:,}", lambda n: measure_remember(
            store, embedder, extractor,
            make_captures(plan.captures_at_size, bench.seed + size + 1000 * (n - 1)),
            _facts_so_far(store)))
        shape = store.describe()
        out["facts_by_kind"] = {kind: sum(v.values())
                                for kind, v in shape.facts_by_kind_verdict.items()}
        out["documents"] = shape.documents
    if largest:
        out["rebuilds"] = [rebuild(bench, plan, size, sentences, base, queries, n)
                           for n in range(2, plan.builds + 1)]
    return out


def _facts_so_far(store: Store) -> int:
    """Rows in facts now: what the insert counter must reach before a remember phase."""
    return sum(sum(by_verdict.values())
               for by_verdict in store.describe().facts_by_kind_verdict.values())


def rebuild(bench: Bench, plan: Plan, size: int, sentences: list[tuple[Kind, str]],
            base: np.ndarray, queries: Sequence[DensityQuery], build: int) -> dict[str, Any]:
    """The same facts and density probes on a freshly built store: a second HNSW graph."""
    with bench.store(f"n{size}_b{build}") as (store, _, _):
        data = synthetic_facts(size, sentences, base, bench.seed, bench.cosine)
        say(f"size {size:,} build {build}: loading the same facts again")
        ids, loaded = load(store, data, plan.load_batch)
        settle(store)
        _diag(store, "analyze_tables")
        say(f"size {size:,} build {build}: density check x{len(queries)} and ef_search sweep")
        density, exacts = measure_density(store, data, ids, queries)
        return {"build": build, "load": loaded, "density": density,
                "ef_search_sweep": measure_ef_sweep(store, queries, exacts)}


def remember_empty(bench: Bench, count: int, attempt: int) -> dict[str, Any]:
    """remember() throughput on a fresh, empty store (a fresh one per attempt)."""
    with bench.store(f"remember_a{attempt}") as (store, embedder, extractor):
        return measure_remember(store, embedder, extractor, make_captures(count, bench.seed))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="sizes 2k and 10k, fewer captures and queries (a few minutes)")
    parser.add_argument("--sizes", help="comma-separated store sizes, e.g. 10000,100000")
    parser.add_argument("--home", help="FACTSTORE_HOME for the benchmark's embedded server "
                                       "and the vector cache (default .factstore/bench)")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway databases")
    parser.add_argument("--builds", type=int, help="stores built at the largest size to measure "
                                                   "the density check on (default 2; 1 with "
                                                   "--quick)")
    parser.add_argument("--variant-cosine", default="{},{}".format(*VARIANT_COSINE),
                        help="LOW,HIGH cosine of each synthetic vector to its real sentence "
                             "(default %(default)s; lower spreads the variants apart)")
    parser.add_argument("--out", help=f"where to write the JSON results (default {RESULTS.name}"
                                      f", or {QUICK_RESULTS.name} with --quick, so a quick run "
                                      "never overwrites the full run's figures)")
    args = parser.parse_args(argv)
    plan = plan_for(args)
    started = time.perf_counter()
    home = server.factstore_home(args.home or ROOT / ".factstore" / "bench")
    say(f"embedded Postgres under {home}")
    cosine = tuple(float(x) for x in args.variant_cosine.split(","))
    if len(cosine) != 2 or not 0 < cosine[0] <= cosine[1] < 1:
        raise SystemExit("--variant-cosine needs LOW,HIGH with 0 < LOW <= HIGH < 1")
    bench = Bench(server.embedded_admin_dsn(home), home, LocalEmbedder(), args.keep, args.quick,
                  (cosine[0], cosine[1]))
    load_start = os.getloadavg()
    if load_start[0] > 1.0:
        say(f"warning: load average {load_start[0]:.2f} before starting; on a small machine "
            "other work inflates every figure (embedding most)")
    bench.embedder.embed(["load the model before anything is timed"])
    results: dict[str, Any] = {
        "benchmark": "evals/perf/bench_store.py",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "command": " ".join([".venv/bin/python", "evals/perf/bench_store.py", *sys.argv[1:]]),
        "quick": args.quick, "sizes": list(plan.sizes),
    }
    say("query embedding latency")
    results["query_embedding_ms"] = quietly(
        "query embedding", lambda _: measure_query_embedding(bench.embedder, 50))
    say(f"remember x{plan.captures} on an empty store")
    results["remember_empty"] = quietly(
        "remember on an empty store", lambda n: remember_empty(bench, plan.captures, n))
    with bench.store("describe") as (store, _, _):
        shape = store.describe()
        results["machine"] = {
            "cpus": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "postgres": shape.server_version,
            "pgvector": shape.pgvector_version, "embedder": shape.embedder,
            "embedding_dim": shape.embedding_dim, "extractor": shape.extractor,
            "settings": {k: shape.settings[k] for k in
                         ("density_threshold", "density_k", "ef_search", "recall_k")},
        }
    sentences, base, rate = base_corpus(bench)
    results["base_corpus"] = {"sentences": len(sentences),
                              "batch_embed_sentences_per_s": rate and round(rate, 1),
                              "kind_homophily_at_10": kind_homophily(sentences, base),
                              "variant_cosine": list(bench.cosine)}
    results["by_size"] = {}
    for size in plan.sizes:
        results["by_size"][str(size)] = run_size(bench, plan, size, sentences, base,
                                                 largest=size == max(plan.sizes))
    results["machine"]["loadavg_start"] = [round(x, 2) for x in load_start]
    results["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
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
    rem = results["remember_empty"]
    corpus = results["base_corpus"]
    lines = [
        f"factstore store benchmark, {results['date']}: {m['cpus']} cores, Postgres "
        f"{m['postgres']}, pgvector {m['pgvector']}, {m['embedder']} ({m['embedding_dim']}-d), "
        f"extractor {m['extractor']}, ef_search {m['settings']['ef_search']}",
        f"load average {m['loadavg_start']} -> {m['loadavg_end']}; total "
        f"{results['elapsed_s']:.0f} s; synthetic variants at cosine {corpus['variant_cosine']} "
        f"to {corpus['sentences']:,} real sentences (kind homophily@10 "
        f"{corpus['kind_homophily_at_10']:.2f})",
        "",
        f"a. remember() on an empty store: {rem['captures']} captures, {rem['facts']} facts",
        f"   {rem['captures_per_s']:.1f} captures/s, {rem['facts_per_s']:.1f} facts/s; "
        f"per capture {_ms(rem['remember_ms'])}",
        f"   embedding {100 * rem['embed_share']:.0f}% of wall time, extraction "
        f"{100 * rem['extract_share']:.1f}%; one query embedding "
        f"{_ms(results['query_embedding_ms'])} ({_cpu(results['query_embedding_ms'])})",
        f"b. per fact, remember minus embedding: {_ms(rem['write_ms_per_fact'])}; "
        f"database stage alone {_ms(rem['db_ms_per_fact'])}",
        f"   fact row versions: {_rows(rem)}; {_cpu(rem)}",
        "",
    ]
    header = (f"{'facts':>8} | {'load f/s':>8} | {'recall ms':>13} | {'density check':>13} | "
              f"{'density exact':>15} | {'recall@10 all (same, cross)':>27} | {'near-dup':>8} | "
              f"{'HNSW ins':>8} | {'remember ms':>13} | {'write/fact ms':>13}")
    lines += ["c/d. by store size (latencies median / p90 ms; recall@10 of the density check "
              "vs exact; near-dup = recall of exact neighbours >= the density threshold)",
              header, "-" * len(header)]
    for size, r in results["by_size"].items():
        d = r["density"]
        lines.append(
            f"{int(size):>8,} | {r['load']['facts_per_s']:>8,.0f} | "
            f"{_pair(r['recall']['latency_ms']):>13} | {_pair(d['hnsw_ms']):>13} | "
            f"{_pair(d['exact_ms']):>15} | {_recall(d['recall_at_k']):>27} | "
            f"{_near(d['near_duplicate_recall']):>8} | "
            f"{r['hnsw_insert']['hnsw_insert_ms']:>6.2f}ms | "
            f"{_pair(r['remember']['remember_ms']):>13} | "
            f"{_pair(r['remember']['write_ms_per_fact']):>13}")
    for size, r in results["by_size"].items():
        plans = r["plans"]
        lines.append(f"{int(size):>8,}: plans: density check via "
                     f"{_indexes(plans['density_hnsw'])}, exact via "
                     f"{_indexes(plans['density_exact'])}, recall via "
                     f"{_indexes(plans['recall'])}")
        lines.append(f"{int(size):>8,}: HNSW insert measured on a scratch index of "
                     f"{r['hnsw_insert']['prefill']:,} rows; remember on top: {_rows(r['remember'])}"
                     f" ({_cpu(r['remember'])})"
                     f"; exact top-10 similarity median same-kind "
                     f"{r['density']['exact_top_k_similarity']['matched_kind']:.2f}, cross-kind "
                     f"{r['density']['exact_top_k_similarity']['cross_kind']:.2f}")
    for size, r in results["by_size"].items():
        sweep = r.get("ef_search_sweep")
        if sweep:
            lines += ["", f"d. density check vs hnsw.ef_search at {int(size):,} facts, per "
                          "freshly built store (the store's setting is 100)",
                      f"   {'build':>5} | {'ef_search':>9} | {'recall@10 all (same, cross)':>27} | "
                      f"{'near-dup':>8} | {'latency ms':>13} | plan (20 probes)"]
            builds = [(1, sweep)] + [(b["build"], b["ef_search_sweep"])
                                     for b in r.get("rebuilds", [])]
            for build, build_sweep in builds:
                for ef, e in build_sweep.items():
                    lines.append(f"   {build:>5} | {ef:>9} | {_recall(e['recall_at_k']):>27} | "
                                 f"{_near(e['near_duplicate_recall']):>8} | "
                                 f"{_pair(e['latency_ms']):>13} | "
                                 f"{', '.join(f'{p} x{n}' for p, n in e.get('plans', {}).items())}")
        shared = r.get("shared_index")
        if not shared:
            continue
        lines += ["", f"d. the rejected design at {int(size):,} facts: one shared unfiltered "
                      f"HNSW index (built in {shared['build_s']:.0f} s, rolled back; plan uses "
                      f"{', '.join(shared['indexes']) or '?'})",
                  f"   {'index':<38} | {'recall@10 all (same, cross)':>27} | {'near-dup':>8} | "
                  f"{'latency ms':>13} | short answers"]
        partial = r["density"]
        lines.append(f"   {'partial per-kind (the schema)':<38} | "
                     f"{_recall(partial['recall_at_k']):>27} | "
                     f"{_near(partial['near_duplicate_recall']):>8} | "
                     f"{_pair(partial['hnsw_ms']):>13} | 0")
        for mode, sm in shared["modes"].items():
            lines.append(f"   {'shared, iterative_scan ' + mode:<38} | "
                         f"{_recall(sm['recall_at_k']):>27} | "
                         f"{_near(sm['near_duplicate_recall']):>8} | "
                         f"{_pair(sm['latency_ms']):>13} | {sm['short_answers']}")
    return "\n".join(lines)


def _ms(s: dict[str, float | int]) -> str:
    return f"median {s['median']:.2f} ms (p90 {s['p90']:.2f})"


def _pair(s: dict[str, float | int]) -> str:
    return f"{s['median']:.2f} / {s['p90']:.2f}"


def _recall(r: dict[str, float]) -> str:
    return f"{r['all']:.3f} ({r['matched_kind']:.3f}, {r['cross_kind']:.3f})"


def _near(n: dict[str, Any]) -> str:
    return "n/a" if n["mean"] is None else f"{n['mean']:.3f}"


def _indexes(plan: dict[str, Any]) -> str:
    names = list(dict.fromkeys(plan["indexes"]))
    if len(names) > 1 and all(n.startswith("facts_hnsw_") for n in names):
        return f"{len(names)} partial HNSW indexes"
    return ", ".join(names) or "a sequential scan"


def _cpu(r: dict[str, Any]) -> str:
    other = r["cpu"]["other_cores"]
    if other is None:
        return "no CPU accounting on this platform"
    tries = r.get("attempts", [other])
    best = f", least disturbed of {len(tries)} attempts" if len(tries) > 1 else ""
    return f"other processes used {other:.2f} of the cores meanwhile{best}"


def _rows(r: dict[str, Any]) -> str:
    rows = r["fact_rows"]
    note = "" if rows["counters_settled"] else " (counters had not settled)"
    return (f"{rows['inserted']} inserted, {rows['updated']} updated "
            f"({rows['hot_updated']} HOT) for {r['facts']} facts{note}")


if __name__ == "__main__":
    raise SystemExit(main())
