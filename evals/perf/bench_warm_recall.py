"""Benchmark a warm ``recall`` through ``factstore serve``, against the same call in-process.

Run from the project root::

    .venv/bin/python evals/perf/bench_warm_recall.py                # about two minutes
    .venv/bin/python evals/perf/bench_warm_recall.py --calls 100 --cli-calls 10 --cold-calls 2

A throwaway FACTSTORE_HOME (an embedded server of its own) is filled with a few hundred
generated chat captures (rule extractor, local MiniLM), then ``factstore serve`` is started
on it as a subprocess, and the same questions are asked five ways:

- **in-process**: ``Store.recall`` in this process, store open and model loaded (the floor:
  one query embedding plus the four retrievers);
- **HTTP**: ``POST /v1/tools/recall`` with one keep-alive httpx client (adds the HTTP hop,
  the token check, the principal's transaction setup and JSON both ways);
- **CLI with FACTSTORE_SERVER**: ``python -m factstore.cli recall ...`` as a subprocess per
  call (adds the CLI's Python start-up and imports, one connection, rendering);
- **CLI start-up alone**: ``python -m factstore.cli --version`` per call, the part of the
  line above no server can remove;
- **CLI in-process, cold** (without a server, what every call paid before): a subprocess
  per call that opens the store and loads the model itself.

Every answer is checked (status 200, exit code 0), nothing timed is asserted. p50 and p95 are
printed and written to evals/perf/results/bench_warm_recall.json, with the machine's load:
on a shared two-core machine every figure here drifts from run to run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "evals" / "perf" / "results" / "bench_warm_recall.json"

SERVICES = ("billing", "search", "auth", "ingest", "payments", "mailer", "reports", "gateway",
            "ledger", "scheduler", "exporter", "indexer")
PEOPLE = ("Ana", "Priya", "Tom", "Lena", "Kofi", "Mei")
TEMPLATES = (
    "{svc}-svc is green right now",
    "{person} owns {svc}-svc",
    "We decided to move {svc}-svc to the eu-west region",
    "{svc}-svc deploys every Tuesday",
    "{person} prefers small pull requests for {svc}-svc",
    "The {svc}-svc runbook lives in the ops wiki",
)
QUESTIONS = ("is billing-svc green?", "who owns search-svc?", "where is auth-svc deployed?",
             "when does ingest-svc deploy?", "what does Priya prefer?",
             "where is the payments runbook?", "who owns the ledger?",
             "which region is gateway-svc in?")


def say(message: str) -> None:
    """Progress on stderr (stdout carries only the final table)."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def captures() -> list[dict[str, str]]:
    """Every template for every service, one speaker each: 72 short chat captures."""
    out = []
    for s, svc in enumerate(SERVICES):
        for t, template in enumerate(TEMPLATES):
            person = PEOPLE[(s + t) % len(PEOPLE)]
            out.append({"text": template.format(svc=svc, person=person),
                        "source_ref": f"chat:{svc}#{t}", "captured_by": person})
    return out


def percentiles(seconds: Sequence[float]) -> dict[str, float | int]:
    """p50, p95, mean (milliseconds) and the number of calls."""
    data = np.asarray(seconds, dtype=np.float64) * 1000.0
    return {"p50_ms": round(float(np.percentile(data, 50)), 2),
            "p95_ms": round(float(np.percentile(data, 95)), 2),
            "mean_ms": round(float(data.mean()), 2), "n": len(seconds)}


def timed(calls: int, warmup: int, one: Callable[[str], None]) -> dict[str, float | int]:
    """``one(question)`` ``warmup`` times untimed, then ``calls`` times timed."""
    for i in range(warmup):
        one(QUESTIONS[i % len(QUESTIONS)])
    seconds = []
    for i in range(calls):
        started = time.perf_counter()
        one(QUESTIONS[i % len(QUESTIONS)])
        seconds.append(time.perf_counter() - started)
    return percentiles(seconds)


def alternately(calls: int, warmup: int, ways: dict[str, Callable[[str], None]]
                ) -> dict[str, dict[str, float | int]]:
    """Each way asked each question in turn, so a burst of other work on the machine (or
    the server's autovacuum after the load) lands on every way alike, not on one."""
    seconds: dict[str, list[float]] = {name: [] for name in ways}
    for i in range(warmup + calls):
        question = QUESTIONS[i % len(QUESTIONS)]
        for name, one in ways.items():
            started = time.perf_counter()
            one(question)
            if i >= warmup:
                seconds[name].append(time.perf_counter() - started)
    return {name: percentiles(values) for name, values in seconds.items()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """``factstore serve`` on loopback, waited for until /v1/health answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "factstore.cli", "--extractor", "rules", "serve",
         "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"), cwd=ROOT)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"factstore serve exited ({process.returncode}): "
                               f"{log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    process.terminate()
    raise RuntimeError("factstore serve did not answer within 180 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Interrupt the server we started (uvicorn shuts down on SIGINT), kill it if stuck."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run_cli(env: dict[str, str], *args: str) -> None:
    """One CLI call as a subprocess; a failure stops the benchmark with its stderr."""
    done = subprocess.run([sys.executable, "-m", "factstore.cli", *args], env=env, cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode != 0:
        raise RuntimeError(f"factstore {' '.join(args)} exited {done.returncode}: "
                           f"{done.stderr.decode(errors='replace')[-2000:]}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200,
                        help="timed calls in-process and over HTTP (default 200)")
    parser.add_argument("--cli-calls", type=int, default=30,
                        help="timed CLI subprocesses through the server (default 30)")
    parser.add_argument("--cold-calls", type=int, default=3,
                        help="timed CLI subprocesses without a server (default 3)")
    parser.add_argument("--home", type=Path, default=None,
                        help="FACTSTORE_HOME to use (default: a throwaway one, removed after)")
    args = parser.parse_args(argv)

    from factstore import Store
    from factstore.embedders.local import LocalEmbedder
    from factstore.extractors.rules import RuleExtractor
    from factstore.store import server

    throwaway = args.home is None
    home = Path(tempfile.mkdtemp(prefix="bench-warm-recall-")) if throwaway else args.home
    env = {**os.environ, "FACTSTORE_HOME": str(home), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}
    for name in ("FACTSTORE_DSN", "FACTSTORE_SERVER", "FACTSTORE_TOKEN", "FACTSTORE_DATABASE"):
        env.pop(name, None)
    os.environ.pop("FACTSTORE_DSN", None)
    results: dict[str, Any] = {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
                               "machine": {"cpus": os.cpu_count(),
                                           "python": platform.python_version(),
                                           "load_before": round(os.getloadavg()[0], 2)},
                               "questions": len(QUESTIONS)}
    process = None
    store = None
    try:
        say(f"filling {home} with {len(captures())} captures")
        store = Store.open(home=home, embedder=LocalEmbedder(), extractor=RuleExtractor())
        store.remember_many(captures())
        results["store"] = {"facts": store.row_counts()["facts"],
                            "documents": store.row_counts()["documents"]}

        port = free_port()
        say(f"starting factstore serve on port {port}")
        started = time.perf_counter()
        process = start_server(env, port, home / "serve.log")
        results["server_start_s"] = round(time.perf_counter() - started, 2)
        token = (home / "admin-token").read_text().strip()
        url = f"http://127.0.0.1:{port}"

        say("recall in-process and over HTTP, alternately")
        with httpx.Client(base_url=url, timeout=60,
                          headers={"Authorization": f"Bearer {token}"}) as client:
            def over_http(question: str) -> None:
                answer = client.post("/v1/tools/recall", json={"query": question})
                if answer.status_code != 200 or not answer.json()["items"]:
                    raise RuntimeError(f"recall over HTTP: {answer.status_code} {answer.text}")

            def in_process(question: str) -> None:
                if not store.recall(question).items:
                    raise RuntimeError(f"recall in-process served nothing for {question!r}")

            results.update(alternately(args.calls, 20, {"in_process": in_process,
                                                        "http": over_http}))

        remote = {**env, "FACTSTORE_SERVER": url, "FACTSTORE_TOKEN": token}
        say("CLI recall through the server")
        results["cli_via_server"] = timed(args.cli_calls, 2,
                                          lambda q: run_cli(remote, "recall", q))
        say("CLI start-up alone")
        results["cli_startup"] = timed(args.cli_calls, 2, lambda q: run_cli(env, "--version"))
        say("CLI recall in-process (cold: opens the store, loads the model)")
        results["cli_in_process_cold"] = timed(
            args.cold_calls, 0, lambda q: run_cli(env, "--extractor", "rules", "recall", q))
    finally:
        if process is not None:
            stop_server(process)
        if store is not None:
            store.close()
        if throwaway:
            server.stop_embedded(home)
            shutil.rmtree(home, ignore_errors=True)
    results["machine"]["load_after"] = round(os.getloadavg()[0], 2)

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"{'path':<40} {'p50 ms':>9} {'p95 ms':>9} {'n':>5}")
    for key, label in (("in_process", "Store.recall in-process (warm)"),
                       ("http", "POST /v1/tools/recall (httpx)"),
                       ("cli_via_server", "CLI recall, FACTSTORE_SERVER"),
                       ("cli_startup", "CLI --version (start-up alone)"),
                       ("cli_in_process_cold", "CLI recall in-process (cold)")):
        row = results[key]
        print(f"{label:<40} {row['p50_ms']:>9.1f} {row['p95_ms']:>9.1f} {row['n']:>5}")
    print(f"results: {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
