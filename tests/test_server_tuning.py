"""The embedded server's tuned configuration: sized from memory, written before it starts."""

import os

import pytest

from factstore import Store
from factstore.errors import InvalidInput
from factstore.store import server_tuning

GB = 1024 ** 3


def test_buffers_are_a_quarter_of_memory_between_the_floor_and_the_cap():
    assert server_tuning.tuning(8 * GB)["shared_buffers"] == "2048MB"
    assert server_tuning.tuning(64 * GB)["shared_buffers"] == "4096MB"
    assert server_tuning.tuning(256 * 1024 ** 2)["shared_buffers"] == "128MB"
    assert server_tuning.tuning(8 * GB)["effective_cache_size"] == "4096MB"


def test_an_override_is_taken_as_written_and_a_bad_one_is_refused():
    assert server_tuning.tuning(8 * GB, "512MB")["shared_buffers"] == "512MB"
    for bad in ("lots", "512", "0MB", "2 GB", "1TB", "512MB; fsync = off"):
        with pytest.raises(InvalidInput, match="FACTSTORE_SHARED_BUFFERS"):
            server_tuning.tuning(8 * GB, bad)


def test_durability_settings_are_never_touched():
    settings = server_tuning.tuning(24 * GB)
    assert not {"fsync", "synchronous_commit", "full_page_writes"} & settings.keys()


def test_a_fresh_embedded_server_runs_with_the_tuned_settings(home, monkeypatch):
    monkeypatch.setenv("FACTSTORE_SHARED_BUFFERS", "256MB")
    store = Store.open(home=home)
    try:
        running = store.describe().server_settings
    finally:
        store.close()
    written = (home / "pgdata" / server_tuning.TUNING_FILE).read_text()
    assert "shared_buffers = '256MB'" in written
    assert running["shared_buffers"] == "256MB"
    assert running["max_wal_size"] == "8GB"
    assert running["synchronous_commit"] == "on"


def test_the_include_is_added_once_across_restarts(home, monkeypatch):
    monkeypatch.setenv("FACTSTORE_SHARED_BUFFERS", "192MB")
    from factstore.store import server

    for _ in range(2):
        Store.open(home=home).close()
        server.stop_embedded(home)
    conf = (home / "pgdata" / "postgresql.conf").read_text()
    assert conf.count(f"include_if_exists = '{server_tuning.TUNING_FILE}'") == 1
    assert os.stat(home / "pgdata" / server_tuning.TUNING_FILE).st_mode & 0o044
