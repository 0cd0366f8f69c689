"""Fixtures: the real embedded Postgres (or FACTSTORE_TEST_DSN), a fresh database per test.

No database is mocked. One embedded server serves the whole session; each test that asks
for ``store`` gets a database of its own, dropped afterwards. The server's data lives in a
folder of this session's own under the system temp dir (see ``server_root``), never under
pytest's temp root, which other pytest sessions reset.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from factstore import Settings, Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.errors import FactStoreError  # noqa: E402
from factstore.store import server  # noqa: E402
from tests.helpers import ScriptedExtractor  # noqa: E402

_counter = itertools.count()


@pytest.fixture(scope="session")
def embedder() -> LocalEmbedder:
    """The real local MiniLM model, loaded once per session."""
    return LocalEmbedder()


def _session_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stop_servers_under(folder: Path) -> None:
    """Stop every embedded server whose data lives under folder (before deleting it)."""
    for pgdata in sorted(folder.glob("*/pgdata")):
        try:
            server.stop_embedded(pgdata.parent)
        except FactStoreError as exc:  # keep cleaning up; say what was left behind
            print(f"factstore tests: could not stop {pgdata}: {exc}", file=sys.stderr)


def _test_server_base() -> Path:
    """Our own folder in the system temp dir, shared by this user's pytest sessions.

    Not pytest's basetemp: any other pytest session of this user resets its root
    (pytest-of-<user>) to mode 700, and the embedded server, which runs as another OS user
    when we are root, then cannot reach its own pg_control and panics.
    """
    base = Path(tempfile.gettempdir()) / f"factstore-test-{os.getuid()}"
    base.mkdir(mode=0o755, exist_ok=True)
    info = base.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise pytest.UsageError(f"{base} exists but is not a folder owned by you; remove it "
                                "(or set FACTSTORE_TEST_DSN) and run the tests again")
    base.chmod(0o755)  # the server user must traverse it
    return base


def _sweep_dead_sessions(base: Path) -> None:
    """Remove the folders (and stop the servers) of sessions that were killed mid-run."""
    for folder in base.glob("session-*"):
        try:
            pid = int(folder.name.split("-")[1])
        except (IndexError, ValueError):
            continue
        if pid != os.getpid() and not _session_alive(pid):
            _stop_servers_under(folder)
            shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def server_root() -> Iterator[Path]:
    """This session's own folder for embedded-server homes, removed at the end.

    One folder per session (named by pid), so concurrent sessions never share a server or
    a data folder; the servers under it are stopped before it is deleted.
    """
    base = _test_server_base()
    _sweep_dead_sessions(base)
    root = Path(tempfile.mkdtemp(prefix=f"session-{os.getpid()}-", dir=base))
    root.chmod(0o755)  # mkdtemp makes it 700; the server user must traverse it
    yield root
    _stop_servers_under(root)
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def admin_dsn(request: pytest.FixtureRequest) -> str:
    """A DSN for the test server: FACTSTORE_TEST_DSN, else an embedded server of this session
    (in ``server_root``, stopped and removed when the session ends)."""
    dsn = os.environ.get("FACTSTORE_TEST_DSN")
    if dsn:
        return dsn
    root: Path = request.getfixturevalue("server_root")
    return server.embedded_admin_dsn(server.factstore_home(root / "home"))


@pytest.fixture()
def database(request: pytest.FixtureRequest, admin_dsn: str):
    """A fresh database name for this test, dropped at teardown: a copy of the migrated
    template for the local embedder (factstore/store/templates.py: a tenth of the time
    applying every migration takes), or empty for a test marked ``empty_database`` (one
    that opens it with another embedder, or migrates it itself)."""
    from factstore.store import templates

    stem = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:40]
    name = f"t{os.getpid()}_{next(_counter)}_{stem}"
    if request.node.get_closest_marker("empty_database"):
        server.ensure_database(admin_dsn, name)
    else:
        templates.fresh_database(admin_dsn, name, LocalEmbedder())
    yield name
    server.drop_database(admin_dsn, name)


@pytest.fixture()
def open_store(admin_dsn: str, database: str, embedder: LocalEmbedder):
    """Open stores on this test's database: open_store(extractor=..., settings=...)."""
    opened: list[Store] = []

    def _open(**kwargs) -> Store:
        kwargs.setdefault("embedder", embedder)
        kwargs.setdefault("extractor", ScriptedExtractor())
        store = Store.open(server.with_database(admin_dsn, database), **kwargs)
        opened.append(store)
        return store

    yield _open
    for store in opened:
        store.close()


@pytest.fixture()
def store(open_store) -> Store:
    """A store on a fresh database with a scripted extractor (``store.extractor.script``)."""
    return open_store()


@pytest.fixture()
def settings() -> Settings:
    return Settings()


@pytest.fixture()
def home(server_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A FACTSTORE_HOME of this test's own, for commands that start the embedded server
    themselves (the eval CLI): under ``server_root``, where no other pytest session resets
    permissions, and stopped with the session."""
    path = server_root / f"home-{next(_counter)}"
    monkeypatch.setenv("FACTSTORE_HOME", str(path))
    monkeypatch.delenv("FACTSTORE_DSN", raising=False)
    return path


@pytest.fixture()
def fresh_stores(admin_dsn: str, embedder: LocalEmbedder, request: pytest.FixtureRequest):
    """Stores on databases of their own (copies of the migrated template), for a test
    that compares several stores side by side: fresh_stores(extractor=..., ...)."""
    from factstore.store import templates

    opened: list[tuple[Store, str]] = []

    def _open(**kwargs) -> Store:
        kwargs.setdefault("embedder", embedder)
        kwargs.setdefault("extractor", ScriptedExtractor())
        name = f"t{os.getpid()}_{next(_counter)}_side"
        templates.fresh_database(admin_dsn, name, kwargs["embedder"])
        store = Store.open(server.with_database(admin_dsn, name), **kwargs)
        opened.append((store, name))
        return store

    yield _open
    for store, name in opened:
        store.close()
        server.drop_database(admin_dsn, name)
