"""Load benchmark: one ``factstore serve`` process under many concurrent HTTP clients.

Run from the project root::

    HF_HUB_OFFLINE=1 .venv/bin/python -m evals.perf.bench_load --seconds 120
    HF_HUB_OFFLINE=1 .venv/bin/python -m evals.perf.bench_load --seconds 15 --clients 8

The server is a separate process, as in production: ``python -m factstore.cli --home H
serve --port P`` over a fresh embedded Postgres in a temporary ``FACTSTORE_HOME`` (removed
afterwards unless ``--keep``). The benchmark opens the same database in-process as its
owner, makes a token per user (``--users`` users spread over ``--workspaces`` workspaces,
each with its default scopes: its personal scope and the workspace's shared memory), and
runs ``--clients`` threads, each with its own ``httpx.Client`` and one user's token, for
``--seconds``. Each client picks, call by call, one of:

- **remember** (``POST /v1/tools/remember``): ops-chat lines about ``--services`` services
  ("svc-07 is red right now", restatements, "nick: svc-07 is green again", latencies,
  runner-token paths that contradict each other, deploy events);
- **recall** (``POST /v1/tools/recall``): questions about those services;
- **write_facts** (``POST /v1/facts``, format v1): one to three facts on one-valued keys
  ``system/svc-NN`` x ``status | owner | region`` with changing values and ``valid_from``
  dates (a fifth of them a coarse start such as "2025-06" that other writes share, so some
  keys dispute; a fifth restate an earlier fact; three in ten go to the workspace's shared
  memory).

Per call type it reports count, throughput, p50/p90/p99/max latency and errors (non-2xx or
exceptions, with the first messages; the exceptions the server logged are counted too).
While the load runs, Postgres' own view of the server's connections (``pg_stat_activity``)
is sampled every second, so a saturated pool (every connection busy, or waiting for a lock)
shows, and the cores the server, its Postgres, the clients and everything else used are
measured. ``--pool-size`` is passed to ``factstore serve`` (default: serve's own). After the
load the server is stopped and three invariants are checked through the owner's store:

- **no lost write**: every fact id a 201 ``write_facts`` or a ``remember`` returned exists;
- **one current fact per one-valued key**: for every timeline key (subject, attribute,
  scope) at most one fact is current unless the key holds a dispute, and its stored statuses
  are what resolving its recorded facts afresh gives;
- **every contradiction recorded**: the contested facts are exactly the facts of the open
  conflicts.

Results go to evals/perf/results/bench_load.json (settings, machine, git state, figures,
errors, invariants); the summary table goes to stdout, progress to stderr. Nothing is
asserted: the exit code is 0 unless the benchmark itself failed.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a file rather than with -m
    sys.path.insert(0, str(ROOT))

from evals.records import git_state  # noqa: E402
from factstore import Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.errors import FactNotFound  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402
from factstore.store import server as pg  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_load.json"
CALLS = ("remember", "recall", "write_facts")
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "status": ("green", "red", "degraded", "maintenance"),
    "owner": ("team-blue", "team-red", "team-ops", "team-data"),
    "region": ("eu-west-1", "us-east-1", "ap-south-1"),
}
COLOURS = ("green", "red", "yellow")
SPEAKERS = ("nick", "ana", "bob", "priya", "sam")
WORKSPACES = ("acme", "globex", "initech", "umbrella")
#: first valid_from a write may carry; dates run from here to yesterday
FIRST_DAY = date(2024, 1, 1)
#: coarse starts that many writes share (so different values with one start dispute)
COARSE_STARTS = ("2025", "2025-06", "2026-01")
#: how long one HTTP call may take before it counts as an error
CALL_TIMEOUT = 120.0
#: (clock, 1-minute load average, message) per progress line, kept in the results
TIMELINE: list[tuple[str, float, str]] = []


def say(message: str) -> None:
    """Progress on stderr (stdout carries only the final table), logged with the load."""
    clock = time.strftime("%H:%M:%S")
    TIMELINE.append((clock, round(os.getloadavg()[0], 2), message))
    print(f"[{clock}] {message}", file=sys.stderr, flush=True)


def percentiles(values: Sequence[float]) -> dict[str, float | int]:
    """Count, p50, p90, p99, mean and max of millisecond latencies."""
    if not values:
        return {"n": 0}
    data = np.asarray(values, dtype=np.float64)
    return {"n": len(values), "p50_ms": round(float(np.percentile(data, 50)), 1),
            "p90_ms": round(float(np.percentile(data, 90)), 1),
            "p95_ms": round(float(np.percentile(data, 95)), 1),
            "p99_ms": round(float(np.percentile(data, 99)), 1),
            "mean_ms": round(float(data.mean()), 1), "max_ms": round(float(data.max()), 1)}


# -- the server process --------------------------------------------------------------------


@dataclass
class ServerProcess:
    """A running ``factstore serve``: its process, URL, home and log file."""

    process: subprocess.Popen[bytes]
    url: str
    home: Path
    log: Path
    command: list[str]

    def log_tail(self, lines: int = 20) -> list[str]:
        try:
            return self.log.read_text(errors="replace").splitlines()[-lines:]
        except OSError:
            return []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_pool_default() -> int | None:
    """The pool size ``factstore serve`` opens its store with when none is given (None when
    this checkout's serve has no ``--pool-size``: the Store default then)."""
    from factstore.cli.serve import serve

    parameter = inspect.signature(serve).parameters.get("pool_size")
    return None if parameter is None else int(parameter.default)


def server_env(home: Path) -> dict[str, str]:
    """The environment of a server (or CLI) subprocess on ``home``'s embedded Postgres."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FACTSTORE_SERVER", "FACTSTORE_DSN", "FACTSTORE_DATABASE",
                        "FACTSTORE_TOKEN")}
    env["FACTSTORE_HOME"] = str(home)
    env["HF_HUB_OFFLINE"] = "1"
    return env


def start_server(home: Path, port: int, pool_size: int | None,
                 timeout: float = 300.0) -> ServerProcess:
    """Start ``factstore serve`` as its own process; return once /v1/health answers."""
    command = [sys.executable, "-m", "factstore.cli", "--home", str(home), "serve",
               "--port", str(port)]
    if pool_size is not None:
        command += ["--pool-size", str(pool_size)]
    log = home / "serve.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT,
                                   env=server_env(home), cwd=ROOT, start_new_session=True)
    running = ServerProcess(process, f"http://127.0.0.1:{port}", home, log, command)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"factstore serve exited with {process.returncode}:\n"
                               + "\n".join(running.log_tail()))
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(running.url + "/v1/health", timeout=2).status_code == 200:
                return running
        time.sleep(0.25)
    stop_server(running)
    raise RuntimeError(f"factstore serve did not answer within {timeout:.0f} s")


def stop_server(running: ServerProcess) -> int | None:
    """Stop the server as Ctrl-C would (then harder); its exit code."""
    process = running.process
    for send, wait in ((signal.SIGINT, 30), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if process.poll() is not None:
            break
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(send)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=wait)
    return process.poll()


def make_home(requested: str | None) -> tuple[Path, bool]:
    """The FACTSTORE_HOME to use and whether it is ours to delete afterwards."""
    if requested:
        home = Path(requested).resolve()
        home.mkdir(parents=True, exist_ok=True)
        return home, False
    home = Path(tempfile.mkdtemp(prefix="factstore-bench-"))
    home.chmod(0o755)  # the embedded server runs as another user when we are root
    return home, True


def remove_home(home: Path) -> None:
    """Stop the embedded server under ``home`` and delete the folder."""
    try:
        pg.stop_embedded(home)
    except Exception as exc:  # noqa: BLE001 - cleanup goes on; say what was left
        say(f"could not stop the embedded Postgres under {home}: {exc}")
    shutil.rmtree(home, ignore_errors=True)


@contextlib.contextmanager
def served(home: Path, port: int, pool_size: int | None) -> Iterator[ServerProcess]:
    """A server for the duration of the block; stopped however the block ends."""
    say(f"starting factstore serve on port {port} (home {home})")
    started = time.perf_counter()
    running = start_server(home, port, pool_size)
    say(f"server up in {time.perf_counter() - started:.1f} s")
    try:
        yield running
    finally:
        code = stop_server(running)
        say(f"server stopped (exit code {code})")


def open_owner(home: Path) -> Store:
    """The owner's store on the server's database, in this process (no model loaded: it
    only reads and makes tokens)."""
    return Store.open(home=home, embedder=LocalEmbedder(), extractor=RuleExtractor())


# -- users and traffic --------------------------------------------------------------------


@dataclass(frozen=True)
class User:
    """One token's principal."""

    name: str
    workspace: str
    token: str


def make_users(store: Store, count: int, workspaces: int) -> list[User]:
    """``count`` users round-robin over ``workspaces`` workspaces, each with a token."""
    users = []
    for i in range(count):
        name, workspace = f"user{i:02d}", WORKSPACES[i % workspaces]
        users.append(User(name, workspace, store.create_token(name, workspace=workspace).token))
    return users


@dataclass
class Traffic:
    """One client's generator of requests (deterministic per seed)."""

    rng: random.Random
    services: int
    user: User
    client: int = -1
    written: list[dict[str, Any]] = field(default_factory=list)
    counter: int = 0

    def service(self) -> str:
        return f"svc-{self.rng.randrange(self.services):02d}"

    def remember(self) -> dict[str, Any]:
        svc, rng = self.service(), self.rng
        texts = (
            lambda: f"{svc} is {rng.choice(COLOURS)} right now",
            lambda: f"{svc} is currently {rng.choice(COLOURS)}",
            lambda: f"{rng.choice(SPEAKERS)}: {svc} is {rng.choice(COLOURS)} again",
            lambda: f"{svc} latency is {rng.choice((80, 120, 250, 400))} ms right now",
            lambda: (f"the runner token for {svc} lives at /etc/{svc}/"
                     f"{rng.choice('abc')}.env"),
            lambda: f"deployed {svc} build {rng.randrange(100, 999)} to production, "
                    "all checks passed",
        )
        self.counter += 1
        return {"text": rng.choice(texts)(),
                "source_ref": f"chat:ops-{self.user.workspace}#{self.user.name}-m{self.counter}"}

    def recall(self) -> dict[str, Any]:
        svc = self.service()
        questions = (f"is {svc} green?", f"what is the status of {svc}?",
                     f"where does the {svc} runner token live?", f"how slow is {svc}?",
                     f"who owns {svc}?", f"when was {svc} last deployed?")
        return {"query": self.rng.choice(questions)}

    def fact(self) -> dict[str, Any]:
        if self.written and self.rng.random() < 0.2:  # a restatement: a corroboration
            return dict(self.rng.choice(self.written))
        attribute = self.rng.choice(sorted(ATTRIBUTES))
        body = {"subject": f"system/{self.service()}", "attribute": attribute,
                "value": self.rng.choice(ATTRIBUTES[attribute]),
                "valid_from": self.valid_from(),
                "source": f"chat:ops-{self.user.workspace}#{self.user.name}"}
        self.written = (self.written + [body])[-20:]
        return body

    def valid_from(self) -> str:
        """Mostly a distinct day; one in five a coarse start many writes share, so two
        values with one start dispute."""
        if self.rng.random() < 0.2:
            return self.rng.choice(COARSE_STARTS)
        days = (date.today() - FIRST_DAY).days
        return (FIRST_DAY + timedelta(days=self.rng.randrange(days))).isoformat()

    def write_facts(self) -> dict[str, Any]:
        return {"format": 1, "shared": self.rng.random() < 0.3,
                "facts": [self.fact() for _ in range(self.rng.randint(1, 3))]}


ROUTES: dict[str, tuple[str, Callable[[Traffic], dict[str, Any]]]] = {
    "remember": ("/v1/tools/remember", Traffic.remember),
    "recall": ("/v1/tools/recall", Traffic.recall),
    "write_facts": ("/v1/facts", Traffic.write_facts),
}


@dataclass
class Call:
    """One timed request."""

    kind: str
    started: float
    ms: float
    status: int | None
    error: str | None = None
    #: fact ids the answer names (write_facts and remember), with the subject written
    ids: list[tuple[int, str | None]] = field(default_factory=list)
    user: str = ""
    client: int = -1


def fact_ids(kind: str, body: Any, request: dict[str, Any]) -> list[tuple[int, str | None]]:
    """The fact ids a successful answer returned."""
    if kind == "write_facts":
        return [(f["id"], sent["subject"])
                for f, sent in zip(body["facts"], request["facts"], strict=True)]
    if kind == "remember":
        return [(o["fact"]["id"], None) for o in body.get("outcomes", [])]
    return []


def one_call(client: httpx.Client, traffic: Traffic, kind: str, t0: float) -> Call:
    """Make one request and time it; an error is kept, never raised."""
    path, build = ROUTES[kind]
    request = build(traffic)
    started = time.perf_counter()
    try:
        answer = client.post(path, json=request)
    except httpx.HTTPError as exc:
        return Call(kind, started - t0, (time.perf_counter() - started) * 1000, None,
                    f"{type(exc).__name__}: {exc}", user=traffic.user.name,
                    client=traffic.client)
    ms = (time.perf_counter() - started) * 1000
    if not 200 <= answer.status_code < 300:
        return Call(kind, started - t0, ms, answer.status_code,
                    f"HTTP {answer.status_code}: {answer.text[:300]}", user=traffic.user.name,
                    client=traffic.client)
    try:
        ids = fact_ids(kind, answer.json(), request)
    except (ValueError, KeyError, TypeError) as exc:
        return Call(kind, started - t0, ms, answer.status_code,
                    f"unreadable answer ({type(exc).__name__}: {exc}): {answer.text[:200]}",
                    user=traffic.user.name, client=traffic.client)
    return Call(kind, started - t0, ms, answer.status_code, ids=ids, user=traffic.user.name,
                client=traffic.client)


@dataclass
class Clock:
    """When the run began (set as the clients are released) and when it ends."""

    seconds: float
    t0: float = 0.0

    def release(self) -> None:
        self.t0 = time.perf_counter()

    @property
    def deadline(self) -> float:
        return self.t0 + self.seconds


def client_loop(url: str, traffic: Traffic, mix: dict[str, float], clock: Clock,
                start: threading.Barrier, calls: list[Call]) -> None:
    """One client: calls until the deadline (a call in flight then still counts)."""
    kinds, weights = list(mix), list(mix.values())
    headers = {"Authorization": f"Bearer {traffic.user.token}"}
    with httpx.Client(base_url=url, headers=headers, timeout=CALL_TIMEOUT) as client:
        start.wait()
        while time.perf_counter() < clock.deadline:
            kind = traffic.rng.choices(kinds, weights)[0]
            calls.append(one_call(client, traffic, kind, clock.t0))


def warm_up(url: str, user: User) -> dict[str, float]:
    """One call of each kind before timing (the server loads spaCy on its first capture)."""
    traffic = Traffic(random.Random(-1), 1, user)
    out = {}
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {user.token}"},
                      timeout=CALL_TIMEOUT) as client:
        for kind in CALLS:
            call = one_call(client, traffic, kind, time.perf_counter())
            if call.error:
                raise RuntimeError(f"warm-up {kind} failed: {call.error}")
            out[kind] = round(call.ms, 1)
    return out


# -- what Postgres sees -------------------------------------------------------------------


class Sampler:
    """Samples the server's connections to the database from ``pg_stat_activity`` once a
    second: how many are open, running a statement, idle inside a transaction, or waiting
    for a lock. The benchmark's own owner stores hold idle connections, counted in ``open``
    only; the sampler's own connection is left out.

    Postgres' statistics have no Store method, so this reads them through the store's
    transaction (as tests/test_concurrency_mixed.py reads ``pg_stat_database``): the seam's
    connection, never a driver of our own.
    """

    QUERY = ("SELECT count(*) AS open, "
             "count(*) FILTER (WHERE state = 'active') AS active, "
             "count(*) FILTER (WHERE state LIKE 'idle in transaction%') AS in_tx, "
             "count(*) FILTER (WHERE wait_event_type = 'Lock') AS lock_waits "
             "FROM pg_stat_activity WHERE datname = current_database() "
             "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")

    def __init__(self, store: Store) -> None:
        self.store = store
        self.samples: list[dict[str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            with self.store._tx() as cur:
                cur.execute(self.QUERY)
                self.samples.append(dict(cur.fetchone()))

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def summary(self, pool_size: int | None) -> dict[str, Any]:
        if not self.samples:
            return {"samples": 0}
        busy = [s["active"] + s["in_tx"] for s in self.samples]
        out: dict[str, Any] = {"samples": len(self.samples)}
        for key in ("open", "active", "in_tx", "lock_waits"):
            values = [s[key] for s in self.samples]
            out[key] = {"mean": round(float(np.mean(values)), 2), "max": max(values)}
        out["busy_mean"] = round(float(np.mean(busy)), 2)
        if pool_size:
            out["share_of_samples_pool_all_busy"] = round(
                sum(b >= pool_size for b in busy) / len(busy), 3)
        return out


class CpuShare:
    """Who used the cores while the load ran: the server process, its Postgres (postmaster
    and backends), this benchmark (its clients), and everything else on the machine. On a
    small shared machine the figures mean little without this."""

    def __init__(self, server_pid: int, home: Path) -> None:
        self.server_pid, self.home = server_pid, home
        self.result: dict[str, float | None] = {}

    def _postgres(self) -> list[psutil.Process]:
        try:
            pid = int((self.home / "pgdata" / "postmaster.pid").read_text().split()[0])
            root = psutil.Process(pid)
            return [root, *root.children(recursive=True)]
        except (OSError, ValueError, IndexError, psutil.Error):
            return []

    @staticmethod
    def _cpu(processes: Sequence[psutil.Process]) -> dict[int, float]:
        out = {}
        for process in processes:
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                out[process.pid] = times.user + times.system
        return out

    def _snapshot(self) -> tuple[float, float, float, dict[int, float], dict[int, float]]:
        machine = psutil.cpu_times()
        idle = machine.idle + getattr(machine, "iowait", 0.0)
        return (time.monotonic(), sum(machine) - idle,
                sum(self._cpu([psutil.Process()]).values()),
                self._cpu([psutil.Process(self.server_pid)]), self._cpu(self._postgres()))

    def __enter__(self) -> CpuShare:
        self._start = self._snapshot()
        return self

    def __exit__(self, *exc: object) -> None:
        began, busy0, ours0, server0, pg0 = self._start
        ended, busy1, ours1, server1, pg1 = self._snapshot()
        wall = max(ended - began, 1e-9)

        def grew(before: dict[int, float], after: dict[int, float]) -> float:
            return sum(t - before.get(pid, 0.0) for pid, t in after.items())

        busy, ours = (busy1 - busy0) / wall, (ours1 - ours0) / wall
        served, postgres = grew(server0, server1) / wall, grew(pg0, pg1) / wall
        self.result = {"machine_busy_cores": round(busy, 2), "server_cores": round(served, 2),
                       "postgres_cores": round(postgres, 2),
                       "benchmark_clients_cores": round(ours, 2),
                       "other_cores": round(max(busy - served - postgres - ours, 0.0), 2)}


def database_stats(store: Store) -> dict[str, Any]:
    """Deadlocks and rollbacks Postgres counted in the database, and its version (through
    the store's transaction: see ``Sampler``)."""
    with store._tx() as cur:
        cur.execute("SELECT deadlocks, xact_rollback, xact_commit FROM pg_stat_database "
                    "WHERE datname = current_database()")
        row = dict(cur.fetchone())
        cur.execute("SHOW server_version")
        row["postgres"] = cur.fetchone()["server_version"]
    return row


# -- the invariants -----------------------------------------------------------------------


def check_no_lost_writes(store: Store, calls: list[Call]) -> dict[str, Any]:
    """Every fact id a successful write or capture returned exists (with its subject)."""
    expected: dict[int, str | None] = {}
    for call in calls:
        if call.error is None:
            for fact_id, subject in call.ids:
                expected[fact_id] = subject or expected.get(fact_id)
    missing, wrong = [], []
    for fact_id, subject in sorted(expected.items()):
        try:
            found = store.fact(fact_id)
        except FactNotFound:
            missing.append(fact_id)
            continue
        if subject is not None and found.subject != subject:
            wrong.append({"id": fact_id, "wrote": subject, "found": found.subject})
    return {"ok": not missing and not wrong, "ids_checked": len(expected),
            "from_write_facts": sum(len(c.ids) for c in calls
                                    if c.kind == "write_facts" and c.error is None),
            "from_remember": sum(len(c.ids) for c in calls
                                 if c.kind == "remember" and c.error is None),
            "missing": missing[:20], "missing_count": len(missing),
            "wrong_subject": wrong[:20], "wrong_subject_count": len(wrong)}


def check_one_current(store: Store, users: list[User], services: int) -> dict[str, Any]:
    """Each timeline key, read by a user who may read its scope: at most one current fact
    on a one-valued key unless it holds a dispute, and the stored statuses equal a fresh
    resolution of its recorded facts (``known_at`` now re-resolves)."""
    seen: set[tuple[str | None, str, str]] = set()
    violations: list[dict[str, Any]] = []
    stale: list[dict[str, Any]] = []
    facts = disputed = truncated = 0
    for user in users:
        view = store.as_principal(store.authenticate(user.token))
        for n in range(services):
            for attribute in sorted(ATTRIBUTES):
                subject = f"system/svc-{n:02d}"
                stored = view.facts(subject, attribute).keys
                fresh = {k.scope: k for k in view.facts(subject, attribute,
                                                        known_at=datetime.now(UTC)).keys}
                for key in stored:
                    if (key.scope, subject, attribute) in seen:
                        continue  # a shared key, already read by a workspace colleague
                    seen.add((key.scope, subject, attribute))
                    facts += len(key.history) + key.omitted
                    truncated += key.omitted > 0
                    has_dispute = any(f.status == "disputed" for f in key.history)
                    disputed += has_dispute
                    if key.cardinality == "one" and len(key.current) > 1 and not has_dispute:
                        violations.append({"scope": key.scope, "subject": subject,
                                           "attribute": attribute,
                                           "current": [f.id for f in key.current]})
                    again = fresh.get(key.scope)
                    if again is None or ({f.id: f.status for f in again.history}
                                         != {f.id: f.status for f in key.history}):
                        stale.append({"scope": key.scope, "subject": subject,
                                      "attribute": attribute})
    return {"ok": not violations and not stale, "keys": len(seen), "facts": facts,
            "keys_with_dispute": disputed, "keys_longer_than_read_cap": truncated,
            "more_than_one_current": violations[:20],
            "more_than_one_current_count": len(violations),
            "statuses_differ_from_fresh_resolution": stale[:20],
            "statuses_differ_count": len(stale)}


def check_contradictions(store: Store) -> dict[str, Any]:
    """A fact is contested exactly when an open conflict holds it (owner: every scope)."""
    contested = {f.id for f in store.facts_by_verdict("contested", limit=100_000)}
    conflicts = store.open_conflicts()
    held = {i for c in conflicts for i in (c.fact_a.id, c.fact_b.id)}
    resolved = store.conflicts("resolved")
    lanes = Counter(c.lane for c in conflicts)
    return {"ok": contested == held, "contested_facts": len(contested),
            "open_conflicts": len(conflicts), "open_by_lane": dict(lanes),
            "resolved_conflicts": len(resolved),
            "contested_without_open_conflict": sorted(contested - held)[:20],
            "in_open_conflict_but_not_contested": sorted(held - contested)[:20]}


def verdict_counts(store: Store) -> dict[str, int]:
    return dict(Counter(f.verdict.value for f in store.facts_by_verdict(limit=100_000)))


# -- figures and the table ----------------------------------------------------------------


def figures(calls: list[Call], seconds: float) -> dict[str, Any]:
    """Per call type: count, throughput, latency percentiles (successful calls) and errors."""
    out: dict[str, Any] = {}
    for kind in CALLS:
        mine = [c for c in calls if c.kind == kind]
        failed = [c for c in mine if c.error is not None]
        out[kind] = {"count": len(mine), "ok": len(mine) - len(failed), "errors": len(failed),
                     "per_second": round(len(mine) / seconds, 2),
                     "latency": percentiles([c.ms for c in mine if c.error is None]),
                     "error_latency": percentiles([c.ms for c in failed]),
                     "statuses": dict(Counter(str(c.status) for c in mine))}
    return out


def windows(calls: list[Call], seconds: float, width: float = 30.0) -> list[dict[str, Any]]:
    """p50 and p99 per call type in consecutive windows of the run (does latency drift?)."""
    out = []
    for start in np.arange(0.0, seconds, width):
        row: dict[str, Any] = {"from_s": float(start)}
        for kind in CALLS:
            ms = [c.ms for c in calls if c.kind == kind and c.error is None
                  and start <= c.started < start + width]
            stats = percentiles(ms)
            row[kind] = {"n": stats["n"], "p50_ms": stats.get("p50_ms"),
                         "p99_ms": stats.get("p99_ms")}
        out.append(row)
    return out


def error_report(calls: list[Call], first: int = 5) -> dict[str, Any]:
    """Errors per call type (the first few in full) and how many were a dropped connection
    right after a 500 on the same client (uvicorn closes the connection after an unhandled
    exception; the client's next request on it finds it reset)."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    last_status: dict[int, int | None] = {}
    after_500 = 0
    for c in sorted(calls, key=lambda c: c.started):
        if c.error is not None:
            follows = c.status is None and last_status.get(c.client) == 500
            after_500 += follows
            by_kind[c.kind].append(f"{c.user} (client {c.client}) at {c.started:.1f}s after "
                                   f"{c.ms:.0f} ms: {c.error}"
                                   + (" [the call after a 500 on this client]" if follows
                                      else ""))
        last_status[c.client] = c.status
    return {"total": sum(len(v) for v in by_kind.values()),
            "resets_right_after_a_500": after_500,
            "first": {k: v[:first] for k, v in by_kind.items()}}


#: the last line of a Python traceback in the server's log
EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Timeout|Exit)\b.*)$")


def server_exceptions(log: Path) -> dict[str, int]:
    """The exceptions the server's log ends its tracebacks with, ids blanked, counted."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return {}
    found = [re.sub(r"#?\d+", "N", m.group(1)) for line in text.splitlines()
             if (m := EXCEPTION_LINE.match(line))]
    return dict(Counter(found))


def slowest(calls: list[Call], count: int = 5) -> list[dict[str, Any]]:
    return [{"kind": c.kind, "ms": round(c.ms, 1), "at_s": round(c.started, 1),
             "user": c.user, "error": c.error}
            for c in sorted(calls, key=lambda c: -c.ms)[:count]]


def render(results: dict[str, Any]) -> str:
    s, m = results["settings"], results["machine"]
    lines = [f"factstore load benchmark, {results['date']}: {s['clients']} clients, "
             f"{s['users']} users in {s['workspaces']} workspaces, {s['measured_s']:.0f} s; "
             f"{m['cpus']} cores, load {m['loadavg_start']} -> {m['loadavg_end']}; server "
             f"pool {s['server_pool_size']}",
             f"{'call':<12} {'count':>6} {'per s':>6} {'p50 ms':>8} {'p90 ms':>8} "
             f"{'p99 ms':>8} {'max ms':>8} {'errors':>6}"]
    for kind, f in results["calls"].items():
        lat = f["latency"]
        lines.append(f"{kind:<12} {f['count']:>6} {f['per_second']:>6.2f} "
                     f"{lat.get('p50_ms', 0):>8.1f} {lat.get('p90_ms', 0):>8.1f} "
                     f"{lat.get('p99_ms', 0):>8.1f} {lat.get('max_ms', 0):>8.1f} "
                     f"{f['errors']:>6}")
    t = results["totals"]
    lines.append(f"{'all':<12} {t['count']:>6} {t['per_second']:>6.2f}"
                 f"{'':>36} {t['errors']:>6}")
    for kind, messages in results["errors"]["first"].items():
        lines += [f"  {kind} error: {m}" for m in messages]
    for line, count in results.get("server_exceptions", {}).items():
        lines.append(f"  server log: {count} x {line}")
    db = results["database"]
    pool = results["connections"]
    lines.append(f"connections busy mean {pool.get('busy_mean')} (max "
                 f"{pool.get('active', {}).get('max')} active), lock waits max "
                 f"{pool.get('lock_waits', {}).get('max')}; all-busy share "
                 f"{pool.get('share_of_samples_pool_all_busy')}; deadlocks {db['deadlocks']}, "
                 f"rollbacks {db['xact_rollback']}")
    lines.append(f"cores used (of {m['cpus']}): {results['cpu']}")
    for name, check in results["invariants"].items():
        detail = {k: v for k, v in check.items() if not isinstance(v, list | dict)}
        lines.append(f"invariant {name}: {'OK' if check['ok'] else 'VIOLATED'} {detail}")
    return "\n".join(lines)


# -- the run ------------------------------------------------------------------------------


def parse_mix(text: str) -> dict[str, float]:
    mix = {}
    for part in text.split(","):
        name, _, weight = part.partition("=")
        if name.strip() not in CALLS:
            raise argparse.ArgumentTypeError(f"unknown call {name!r}; use {', '.join(CALLS)}")
        mix[name.strip()] = float(weight)
    return mix


def run_load(url: str, users: list[User], args: argparse.Namespace
             ) -> tuple[list[Call], float]:
    """The clients, all at once, for ``args.seconds``; returns the calls and the wall time."""
    calls: list[Call] = []
    clock = Clock(args.seconds)
    start = threading.Barrier(args.clients, action=clock.release)
    threads = [threading.Thread(
        target=client_loop, daemon=True,
        args=(url, Traffic(random.Random(args.seed * 1000 + i), args.services,
                           users[i % len(users)], i), args.mix, clock, start, calls))
        for i in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=args.seconds + CALL_TIMEOUT + 60)
    wall = time.perf_counter() - clock.t0
    alive = sum(t.is_alive() for t in threads)
    if alive:
        say(f"warning: {alive} clients still running after the deadline")
    return list(calls), wall


def measure(home: Path, args: argparse.Namespace, results: dict[str, Any]) -> None:
    port = args.port or free_port()
    with served(home, port, args.pool_size) as running:
        results["settings"]["server_command"] = " ".join(running.command[1:])
        store = open_owner(home)
        try:
            users = make_users(store, args.users, args.workspaces)
            results["warm_up_ms"] = warm_up(running.url, users[0])
            say(f"{args.clients} clients for {args.seconds:.0f} s (mix {args.mix})")
            with Sampler(store) as sampler, CpuShare(running.process.pid, home) as cpu:
                calls, wall = run_load(running.url, users, args)
            say(f"{len(calls)} calls in {wall:.1f} s")
            results["server_exceptions"] = server_exceptions(running.log)
            if any(c.error for c in calls):
                results["server_log_tail"] = running.log_tail(40)
        except BaseException:
            store.close()
            raise
    try:  # the server is stopped: nothing changes while the invariants are read
        results["settings"]["measured_s"] = round(wall, 1)
        results["calls"] = figures(calls, wall)
        results["totals"] = {"count": len(calls), "per_second": round(len(calls) / wall, 2),
                             "errors": sum(c.error is not None for c in calls)}
        results["errors"] = error_report(calls)
        results["slowest"] = slowest(calls)
        results["windows"] = windows(calls, args.seconds)
        results["connections"] = sampler.summary(results["settings"]["server_pool_size"])
        results["cpu"] = cpu.result
        results["database"] = database_stats(store)
        say("checking invariants")
        started = time.perf_counter()
        results["invariants"] = {
            "no_lost_write": check_no_lost_writes(store, calls),
            "one_current_per_key": check_one_current(store, users, args.services),
            "contradictions_recorded": check_contradictions(store),
        }
        results["facts_by_verdict"] = verdict_counts(store)
        results["invariants_s"] = round(time.perf_counter() - started, 1)
    finally:
        store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the load runs")
    parser.add_argument("--clients", type=int, default=32, help="concurrent HTTP clients")
    parser.add_argument("--users", type=int, default=8, help="users (one token each)")
    parser.add_argument("--workspaces", type=int, default=2, choices=range(1, 5),
                        help="workspaces the users are spread over")
    parser.add_argument("--services", type=int, default=24, help="svc-NN names in the traffic")
    parser.add_argument("--mix", type=parse_mix, default="remember=35,recall=40,write_facts=25",
                        help="relative weights of the calls")
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument("--pool-size", type=int, help="pass --pool-size to factstore serve "
                                                      "(default: serve's own default)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--home", help="FACTSTORE_HOME to use (default: a temporary folder, "
                                       "removed afterwards)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary home")
    parser.add_argument("--out", help=f"results file (default {RESULTS.name})")
    args = parser.parse_args(argv)
    if isinstance(args.mix, str):
        args.mix = parse_mix(args.mix)
    started = time.perf_counter()
    load_start = os.getloadavg()
    if load_start[0] > 1.0:
        say(f"warning: load average {load_start[0]:.2f} before starting; on a small machine "
            "other work inflates every figure")
    commit, dirty = git_state(ROOT)
    results: dict[str, Any] = {
        "benchmark": "evals/perf/bench_load.py",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "command": " ".join([".venv/bin/python", "-m", "evals.perf.bench_load",
                             *(argv if argv is not None else sys.argv[1:])]),
        "git": {"commit": commit, "dirty": dirty},
        "settings": {"seconds": args.seconds, "clients": args.clients, "users": args.users,
                     "workspaces": args.workspaces, "services": args.services,
                     "mix": args.mix, "seed": args.seed,
                     "server_pool_size": args.pool_size or serve_pool_default(),
                     "store_pool_default": inspect.signature(Store.open).parameters[
                         "pool_size"].default},
    }
    home, ours = make_home(args.home)
    try:
        measure(home, args, results)
    finally:
        if ours and not args.keep:
            remove_home(home)
        elif ours:
            say(f"kept {home}")
    results["machine"] = {"cpus": os.cpu_count(), "platform": platform.platform(),
                          "python": platform.python_version(),
                          "postgres": results["database"]["postgres"],
                          "loadavg_start": [round(x, 2) for x in load_start],
                          "loadavg_end": [round(x, 2) for x in os.getloadavg()]}
    results["elapsed_s"] = round(time.perf_counter() - started, 1)
    results["timeline"] = [{"at": at, "load1": load, "phase": what}
                           for at, load, what in TIMELINE]
    out = Path(args.out) if args.out else RESULTS
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(render(results))
    say(f"wrote {out} ({results['elapsed_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
