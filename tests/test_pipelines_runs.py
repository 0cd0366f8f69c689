"""The pipelines as a person runs them: in processes of their own (the multiprocess
executor), killed part way and retried, against a server the store did not start, and the
``dagster`` commands themselves (definitions validate, dev)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from dagster import DagsterInstance, materialize

from factstore import Store
from factstore.store import server
from pipelines.archives import ArchiveSource, migrated_archive
from pipelines.resources import FactStoreResource
from tests.archives import SERVICES

ROOT = Path(__file__).resolve().parents[1]
DAGSTER = Path(sys.executable).with_name("dagster")
MAPPING = dict(text="body", said_at="created", lineage="doc", captured_by="who")


def _big_archive(path: Path, n: int = 240, prefix: str = "ops") -> Path:
    """Ops chat over many services: states restated and changed, each line its own doc."""
    states = ("healthy", "degraded", "down", "healthy")
    lines = [json.dumps({"body": f"The {SERVICES[i % 6]}-{i % 20} service is "
                                 f"{states[(i // 20) % 4]}.",
                         "created": f"2026-03-{1 + i // 10:02d}T{i % 10:02d}:00:00Z",
                         "who": "ana", "doc": f"{prefix}/{i}"}) for i in range(n)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


def _instance(home: Path, partitions: list[str]) -> DagsterInstance:
    home.mkdir(parents=True, exist_ok=True)
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    instance = DagsterInstance.from_config(str(home))
    instance.add_dynamic_partitions("archives", partitions)
    return instance


def _env(dagster_home: Path, admin_dsn: str, database: str, folder: Path) -> dict[str, str]:
    return {**os.environ, "DAGSTER_HOME": str(dagster_home), "PYTHONPATH": str(ROOT),
            "PIPELINE_TEST_DSN": admin_dsn, "PIPELINE_TEST_DATABASE": database,
            "PIPELINE_TEST_ARCHIVES": str(folder), "HF_HUB_OFFLINE": "1"}


def _materialize_cmd(partition: str) -> list[str]:
    return [str(DAGSTER), "asset", "materialize", "-m", "tests.pipeline_defs",
            "--select", "migrated_archive", "--partition", partition]


def _store(admin_dsn: str, database: str) -> Store:
    return FactStoreResource.live(dsn=admin_dsn, database=database, extractor="rules").open()


def _invariants(store: Store) -> dict:
    """What must hold after any run: every document once, every fact with its evidence and
    history, every conflict between two stored facts."""
    documents = store.table_rows("documents")
    keys = [(d["lineage"], d["content_hash"]) for d in documents]
    assert len(keys) == len(set(keys)), "a document landed twice"
    counts = store.row_counts()
    assert counts["evidence"] >= counts["facts"] and counts["fact_history"] >= counts["facts"]
    facts = {f.id for f in store.facts_by_verdict(limit=100_000)}
    for conflict in store.conflicts():
        assert {conflict.fact_a.id, conflict.fact_b.id} <= facts
    return counts


def _tables(store: Store) -> tuple:
    facts = sorted((f.statement, f.verdict.value, f.evidence_source_ref)
                   for f in store.facts_by_verdict(limit=100_000))
    documents = sorted((r["lineage"], r["version"], r["content_hash"])
                       for r in store.table_rows("documents"))
    conflicts = sorted((c.fact_a.statement, c.fact_b.statement, c.status, c.lane)
                       for c in store.conflicts())
    return store.row_counts(), documents, facts, conflicts


def test_a_partition_killed_part_way_and_retried_ends_as_one_clean_run(
        admin_dsn, tmp_path):
    folder = tmp_path / "archives"
    _big_archive(folder / "big.jsonl")
    names = ("t_pipe_clean", "t_pipe_crash")
    for name in names:
        server.drop_database(admin_dsn, name)
    source = ArchiveSource(folder=str(folder), **MAPPING, batch_size=8)
    try:
        clean = FactStoreResource.live(dsn=admin_dsn, database=names[0], extractor="rules")
        assert materialize([migrated_archive], partition_key="big.jsonl",
                           resources={"factstore": clean, "archive_source": source},
                           instance=_instance(tmp_path / "d0", ["big.jsonl"])).success
        with clean.store() as store:
            expected = _tables(store)
        dagster_home = tmp_path / "d1"
        _instance(dagster_home, ["big.jsonl"])
        with _store(admin_dsn, names[1]) as watcher:
            run = subprocess.Popen(_materialize_cmd("big.jsonl"), cwd=ROOT,
                                   env=_env(dagster_home, admin_dsn, names[1], folder),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   start_new_session=True)
            deadline = time.monotonic() + 180
            while watcher.row_counts()["documents"] < 40 and time.monotonic() < deadline:
                assert run.poll() is None, run.stderr.read().decode()[-2000:]
                time.sleep(0.05)
            os.killpg(run.pid, signal.SIGKILL)  # the run and its step process
            run.wait(timeout=30)
            partial = _invariants(watcher)
            assert 0 < partial["documents"] < 240, "the run was not cut part way"
        crashed = FactStoreResource.live(dsn=admin_dsn, database=names[1], extractor="rules")
        retried = materialize([migrated_archive], partition_key="big.jsonl",
                              resources={"factstore": crashed, "archive_source": source},
                              instance=_instance(tmp_path / "d2", ["big.jsonl"]))
        assert retried.success
        (event,) = retried.asset_materializations_for_node("migrated_archive")
        assert event.metadata["documents_skipped"].value == partial["documents"]
        with crashed.store() as store:
            _invariants(store)
            assert _tables(store) == expected
    finally:
        for name in names:
            server.drop_database(admin_dsn, name)


def test_partitions_run_concurrently_in_processes_of_their_own(admin_dsn, tmp_path):
    folder = tmp_path / "archives"
    # Two archives holding the same documents, and a third of its own, all at once.
    _big_archive(folder / "a.jsonl", 120)
    (folder / "b.jsonl").write_text((folder / "a.jsonl").read_text())
    _big_archive(folder / "c.jsonl", 60, prefix="other")
    database = "t_pipe_parallel"
    server.drop_database(admin_dsn, database)
    dagster_home = tmp_path / "dh"
    _instance(dagster_home, ["a.jsonl", "b.jsonl", "c.jsonl"])
    try:
        _store(admin_dsn, database).close()  # created and migrated before the race
        env = _env(dagster_home, admin_dsn, database, folder)
        runs = [subprocess.Popen(_materialize_cmd(p), cwd=ROOT, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                for p in ("a.jsonl", "b.jsonl", "c.jsonl")]
        for run in runs:
            _, err = run.communicate(timeout=600)
            assert run.returncode == 0, err.decode()[-3000:]
        with _store(admin_dsn, database) as store:
            counts = _invariants(store)
            assert counts["documents"] == 180  # a and b share theirs: each landed once
            assert store.conflicts(), "changing service states must be recorded as conflicts"
    finally:
        server.drop_database(admin_dsn, database)


def test_the_same_job_runs_against_a_server_reached_by_dsn(server_root, tmp_path):
    other = server_root / "dsn-server"
    dsn = server.embedded_admin_dsn(server.factstore_home(other))
    folder = tmp_path / "archives"
    _big_archive(folder / "ops.jsonl", 30)
    try:
        resource = FactStoreResource.live(dsn=dsn, database="pipelines_by_dsn")
        result = materialize([migrated_archive], partition_key="ops.jsonl", resources={
            "factstore": resource,
            "archive_source": ArchiveSource(folder=str(folder), **MAPPING)},
            instance=_instance(tmp_path / "dh", ["ops.jsonl"]))
        assert result.success
        with Store.open(server.with_database(dsn, "pipelines_by_dsn")) as store:
            assert store.row_counts()["documents"] == 30
    finally:
        server.stop_embedded(other)


def test_dagster_definitions_validate_passes(tmp_path):
    done = subprocess.run([str(DAGSTER), "definitions", "validate", "-m",
                           "pipelines.definitions"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "DAGSTER_HOME": str(tmp_path)}, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Validation successful" in done.stderr + done.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_dagster_dev_serves_the_asset_graph_on_loopback(tmp_path):
    port = _free_port()
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "dagster"),
           "FACTSTORE_HOME": str(tmp_path / "home"), "FACTSTORE_ARCHIVES": str(tmp_path)}
    (tmp_path / "dagster").mkdir()
    dev = subprocess.Popen([str(DAGSTER), "dev", "-m", "pipelines.definitions", "-h",
                            "127.0.0.1", "-p", str(port)], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           start_new_session=True)
    query = json.dumps({"query": "{ assetNodes { assetKey { path } } }"}).encode()
    try:
        deadline, answer = time.monotonic() + 180, None
        while time.monotonic() < deadline and answer is None:
            assert dev.poll() is None, dev.stderr.read().decode()[-3000:]
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", data=query,
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=5) as response:
                    body = json.loads(response.read())
                if body.get("data", {}).get("assetNodes"):
                    answer = body
            except (OSError, ValueError):
                time.sleep(1)
        assert answer is not None, "dagster dev did not answer GraphQL in time"
        keys = {"/".join(n["assetKey"]["path"]) for n in answer["data"]["assetNodes"]}
        assert {"migrated_archive", "density_report", "queue_summary",
                "eval_conflict_precision"} <= keys
    finally:
        os.killpg(dev.pid, signal.SIGTERM)
        try:
            dev.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(dev.pid, signal.SIGKILL)
            dev.wait(timeout=10)
