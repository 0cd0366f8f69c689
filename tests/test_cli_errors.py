"""The CLI answers bad input with ``error: ...`` and exit code 2, never a traceback; a fault
in factstore itself is ``internal error: ...`` and exit code 3.

Against a real store database (the same hook as tests/test_cli.py: the session's embedder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from factstore import cli
from factstore.cli.shell import EXIT_ERROR, EXIT_INTERNAL
from factstore.store import server


@pytest.fixture()
def run(admin_dsn: str, database: str, embedder: Any, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(cli, "_store_factory",
                        lambda options: cli.open_store(options, embedder=embedder))
    dsn = server.with_database(admin_dsn, database)

    def _run(*args: str, input: bytes | str | None = None, dsn: str = dsn) -> Result:
        return CliRunner().invoke(cli.app, ["--dsn", dsn, *args], input=input,
                                  env={"COLUMNS": "200"})

    return _run


def _refused(result: Result, says: str) -> None:
    assert result.exit_code == EXIT_ERROR, (result.exit_code, result.stdout, result.stderr,
                                            result.exception)
    assert result.stderr.startswith("error: ") and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("dsn", ["host=localhost port", "postgresql://[::1", "=x"])
def test_a_malformed_dsn_is_an_input_error(run, dsn: str) -> None:
    _refused(run("describe", dsn=dsn), "not a Postgres connection string")


def test_invalid_utf8_on_stdin_is_named(run) -> None:
    _refused(run("remember", "-", input=b"caf\xe9 au lait is on the menu"), "not UTF-8")


def test_invalid_utf8_in_a_facts_file_is_named(run, tmp_path: Path) -> None:
    path = tmp_path / "facts.json"
    path.write_bytes(b'{"format": 1, "facts": [{"value": "\xff"}]}')
    _refused(run("facts", "write", str(path)), "not UTF-8")


def test_a_non_utf8_argument_is_refused_not_crashed_on(run) -> None:
    # Python decodes an argument's undecodable byte 0xff as the lone surrogate U+DCFF.
    _refused(run("tags", "query", "ops\udcff"), "lone surrogate")
    _refused(run("remember", "deploys are \udcff frozen"), "lone surrogate")


def test_an_overflowing_lifetime_is_refused(run) -> None:
    run("tags", "propose-root", "ops")
    run("tags", "approve", "ops")
    _refused(run("tags", "lifetime", "ops", "99999999999d"), "longer than 36525 days")


def test_a_deeply_nested_backfill_is_refused(run, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    _refused(run("facts", "backfill", str(path)), "nests too deeply")


def test_a_fault_is_an_internal_error_with_its_own_code(run, monkeypatch) -> None:
    def broken(options):
        raise RuntimeError("the disk caught fire")
    monkeypatch.setattr(cli, "_store_factory", broken)
    result = run("describe")
    assert result.exit_code == EXIT_INTERNAL
    assert result.stderr.startswith("internal error: RuntimeError: the disk caught fire")
    assert "Traceback" not in result.stderr
