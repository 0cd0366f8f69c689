"""Fixtures: the real embedded Postgres (or FACTSTORE_TEST_DSN), a fresh database per test.

No database is mocked. One embedded server serves the whole session; each test that asks
for ``store`` gets a database of its own, dropped afterwards.
"""

from __future__ import annotations

import itertools
import os
import re

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from factstore import Settings, Store  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.store import server  # noqa: E402
from tests.helpers import ScriptedExtractor  # noqa: E402

_counter = itertools.count()


@pytest.fixture(scope="session")
def embedder() -> LocalEmbedder:
    """The real local MiniLM model, loaded once per session."""
    return LocalEmbedder()


@pytest.fixture(scope="session")
def admin_dsn(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A DSN for the test server: FACTSTORE_TEST_DSN, else an embedded server in a temp home."""
    dsn = os.environ.get("FACTSTORE_TEST_DSN")
    if dsn:
        return dsn
    return server.embedded_admin_dsn(server.factstore_home(tmp_path_factory.mktemp("home")))


@pytest.fixture()
def database(request: pytest.FixtureRequest, admin_dsn: str):
    """A fresh, empty database name for this test; dropped at teardown."""
    stem = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:40]
    name = f"t{os.getpid()}_{next(_counter)}_{stem}"
    server.ensure_database(admin_dsn, name)
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
