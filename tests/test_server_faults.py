"""Faults of the embedded server (issue 9 §4), provoked for real: no mocks.

- a postmaster killed with -9 under a live process is restarted by the next ``Store.open``;
- clients killed with -9 are pruned from ``.handle_pids.json`` (on the next open, and at
  exit), so the server still stops with its last live client; ``factstore server
  status|stop`` show and stop it, and refuse a DSN server;
- another pytest session (which resets pytest's shared temp root to mode 700) does not
  knock over this session's server.

Each embedded-server test gets a scratch home of its own under ``server_root`` (not under
pytest's temp root, see conftest), whose server is stopped at teardown.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from typer.testing import CliRunner

from factstore import Store, cli
from factstore.store import server
from tests.helpers import ScriptedExtractor, say

REPO = Path(__file__).resolve().parents[1]
GREEN = "sample-svc is green right now."
_homes = itertools.count()

#: A client process: opens (and so joins) the embedded server, says so, then waits for
#: stdin to close and exits normally (running its exit hooks), unless it is killed first.
CLIENT = """
import sys
from factstore.store import server
server.embedded_admin_dsn(server.factstore_home(sys.argv[1]))
print("ready", flush=True)
sys.stdin.read()
"""


@pytest.fixture()
def scratch_home(server_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A home for an embedded server of this test's own; its server is stopped afterwards."""
    monkeypatch.delenv("FACTSTORE_DSN", raising=False)
    home = server_root / f"scratch{next(_homes)}"
    home.mkdir()
    yield home
    server.stop_embedded(home)


def _postmaster_pid(home: Path) -> int:
    return int((home / "pgdata" / "postmaster.pid").read_text().splitlines()[0])


def _alive(pid: int) -> bool:
    """Exists and is not a zombie (the killed postmaster stays one until it is reaped)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _client_pids(home: Path) -> list[int]:
    return json.loads((home / "pgdata" / ".handle_pids.json").read_text())


def _spawn_client(home: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", CLIENT, str(home)], cwd=REPO,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()  # blocks until the client has joined the server
    assert line.strip() == "ready", f"client {proc.pid} did not start (exit {proc.poll()})"
    return proc


def _kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def _wait_until(check: Any, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def _cli(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(cli.app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == code, (
        f"exit {result.exit_code} != {code}\nstdout:\n{result.stdout}\n"
        f"stderr:\n{result.stderr}\nexception: {result.exception!r}")
    return result


# -- 1. a killed server is restarted --------------------------------------------------------


def test_a_killed_postmaster_is_restarted_by_the_next_open(scratch_home: Path,
                                                           embedder: Any) -> None:
    def open_store() -> Store:
        return Store.open(home=scratch_home, database="faults", embedder=embedder,
                          extractor=ScriptedExtractor())

    with open_store() as store:
        say(store, GREEN, subject="sample-svc")
    killed = _postmaster_pid(scratch_home)
    os.kill(killed, signal.SIGKILL)
    assert _wait_until(lambda: not _alive(killed))  # the signal is delivered asynchronously

    # Same process, so the cached server object is the dead one: it must be noticed.
    with open_store() as store:
        assert _postmaster_pid(scratch_home) != killed
        assert store.recall("is sample-svc green?").items[0].fact.statement == GREEN
        say(store, "sample-svc is deployed from main.", subject="sample-svc")
        assert store.describe().facts_by_kind_verdict["STATE"]
    assert os.getpid() in _client_pids(scratch_home)


# -- 2. dead clients are pruned; status and stop ------------------------------------------


def test_dead_clients_are_shown_then_pruned_and_stop_stops_the_server(
        scratch_home: Path) -> None:
    dead = _spawn_client(scratch_home)
    _kill(dead)
    assert dead.pid in _client_pids(scratch_home)  # the package never removes it

    status = json.loads(_cli("--json", "--home", str(scratch_home), "server", "status").stdout)
    assert status["embedded"] and status["running"] and status["initialized"]
    assert status["pid"] == _postmaster_pid(scratch_home)
    assert status["data_dir"] == str((scratch_home / "pgdata").resolve())
    assert {"pid": dead.pid, "alive": False} in status["clients"]
    text = _cli("--home", str(scratch_home), "server", "status").stdout
    assert f"running, pid {status['pid']}" in text and f"{dead.pid} (dead)" in text

    # The next open prunes it (and lists this process).
    server.embedded_admin_dsn(server.factstore_home(scratch_home))
    assert _client_pids(scratch_home) == [os.getpid()]

    stopped = json.loads(_cli("--json", "--home", str(scratch_home), "server", "stop").stdout)
    assert stopped["was_running"] and stopped["pid"] == status["pid"]
    assert not server.embedded_status(scratch_home).running
    assert "not running" in _cli("--home", str(scratch_home), "server", "status").stdout
    assert "was not running" in _cli("--home", str(scratch_home), "server", "stop").stdout
    # ...and the next open starts it again, in the same process.
    dsn = server.embedded_admin_dsn(scratch_home)
    server.ensure_database(dsn, "after_stop")
    assert server.embedded_status(scratch_home).running


def test_the_last_live_client_stops_the_server_although_another_was_killed(
        scratch_home: Path) -> None:
    survivor = _spawn_client(scratch_home)
    _kill(_spawn_client(scratch_home))
    assert server.embedded_status(scratch_home).running
    assert survivor.stdin is not None
    survivor.stdin.close()  # exits normally: its exit hook prunes the dead pid, then stops
    assert survivor.wait(timeout=60) == 0
    assert _wait_until(lambda: not server.embedded_status(scratch_home).running), \
        "the server outlived its last live client"


def test_server_commands_on_a_home_with_no_server_start_nothing(server_root: Path,
                                                                monkeypatch) -> None:
    monkeypatch.delenv("FACTSTORE_DSN", raising=False)
    home = server_root / "never-created"
    status = json.loads(_cli("--json", "--home", str(home), "server", "status").stdout)
    assert (status["initialized"], status["running"], status["clients"]) == (False, False, [])
    assert "not created yet" in _cli("--home", str(home), "server", "status").stdout
    assert json.loads(_cli("--json", "--home", str(home), "server", "stop").stdout
                      )["was_running"] is False
    assert not home.exists()


def test_server_stop_refuses_a_dsn_server(server_root: Path) -> None:
    dsn = "postgresql://someone:secret@db.example.test:5432/factstore"
    result = _cli("--dsn", dsn, "--home", str(server_root / "unused"), "server", "stop",
                  code=2)
    assert result.stderr.startswith("error: a DSN server is configured")
    assert "only stops the embedded Postgres" in result.stderr and "FACTSTORE_DSN" in result.stderr
    assert "secret" not in result.stderr and "Traceback" not in result.stderr
    status = json.loads(_cli("--json", "--dsn", "postgresql://u@127.0.0.1:9/x",
                             "server", "status").stdout)
    assert status["embedded"] is False and status["reachable"] is False


# -- 3. another pytest session does not knock the server over -------------------------------


def test_another_pytest_session_does_not_knock_this_sessions_server_over(
        admin_dsn: str, open_store: Any, server_root: Path,
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest_root = tmp_path_factory.getbasetemp().parent  # pytest-of-<user>
    assert pytest_root not in server_root.parents
    before = pytest_root.stat().st_mode & 0o777
    folder = tmp_path / "other-session"
    folder.mkdir()
    (folder / "test_tiny.py").write_text("def test_tiny(tmp_path):\n"
                                         "    assert tmp_path.is_dir()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    probe = f"t{os.getpid()}_checkpoint_probe"
    try:
        other = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
            cwd=folder, env=env, capture_output=True, text=True, timeout=300)
        assert other.returncode == 0, other.stdout + other.stderr

        # DROP DATABASE forces a checkpoint, which rewrites pg_control by its full path: the
        # step that panicked with "Permission denied" when the data lived under pytest's root.
        server.ensure_database(admin_dsn, probe)
        server.drop_database(admin_dsn, probe)
        store = open_store()
        say(store, GREEN, subject="sample-svc")
        assert store.recall("is sample-svc green?").items[0].fact.statement == GREEN
    finally:
        # The other session set pytest's root to 700; give back the mode it had, for any
        # session of this user still keeping a server under it (as this suite used to).
        pytest_root.chmod(before)
