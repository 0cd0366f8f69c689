"""A real ``factstore serve`` app on loopback for the service tests: uvicorn in a thread of
the test process, over a database of its own, with tokens for four principals."""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import uvicorn

from factstore import Store
from factstore.extractors.rules import RuleExtractor
from factstore.service import create_app
from factstore.store import server

_counter = itertools.count()


@dataclass
class Served:
    """The running server: its URL, its owner store and a token per principal."""

    url: str
    store: Store
    dsn: str
    tokens: dict[str, str]

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(admin_dsn: str, embedder, stem: str) -> Iterator[Served]:
    """Start the app over a fresh database; yield it; stop and drop everything."""
    name = f"s{os.getpid()}_{next(_counter)}_{stem}"
    server.ensure_database(admin_dsn, name)
    dsn = server.with_database(admin_dsn, name)
    store = Store.open(dsn, embedder=embedder, extractor=RuleExtractor(), user_id="owner")
    store.registry_propose_root("ops", "operations")  # an approved root to add leaves under
    store.registry_approve_root("ops", "the tests' root")
    tokens = {"owner": store.create_token("owner", owner=True).token,
              "nick": store.create_token("nick", workspace="acme").token,
              "bob": store.create_token("bob", workspace="acme", scopes=["user-bob"]).token,
              "eve": store.create_token("eve", workspace="globex").token}
    port = free_port()
    config = uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="error")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not runner.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield Served(f"http://127.0.0.1:{port}", store, dsn, tokens)
    finally:
        runner.should_exit = True
        thread.join(timeout=10)
        store.close()
        server.drop_database(admin_dsn, name)
