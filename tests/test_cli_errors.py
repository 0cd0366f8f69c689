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


# -- conventions: --version, --json anywhere and for errors, piped output, --set ------------


def test_version_prints_and_exits(run) -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("factstore ")


def test_json_works_after_the_subcommand_too(run) -> None:
    import json

    for args in (("--json", "describe"), ("describe", "--json")):
        result = run(*args)
        assert result.exit_code == 0, result.stderr
        assert "facts_by_kind_verdict" in json.loads(result.stdout)


def test_an_error_under_json_is_json(run) -> None:
    import json

    result = run("recall", "", "--json")
    assert result.exit_code == EXIT_ERROR and result.stdout == ""
    error = json.loads(result.stderr)["error"]
    assert error["type"] == "InvalidInput" and "query" in error["message"]
    # a '--json' after '--' is an argument, not the option
    plain = run("remember", "--", "--json")
    assert not plain.stdout.lstrip().startswith("{")


def test_piped_output_is_never_wrapped() -> None:
    from factstore.cli.shell import _console

    console = _console()  # under pytest stdout is not a terminal
    long_line = "(later 41 EU 2026..now) " * 20
    with console.capture() as captured:
        console.print(long_line)
    assert captured.get() == long_line + "\n"  # one line, whole


def test_eval_settings_overrides_read_like_the_environment() -> None:
    from factstore.cli.evals import settings_with
    from factstore.errors import InvalidInput

    settings = settings_with(["recall_mmr_lambda=1.0", "recall_lexical=off",
                              "state_default_lifetime=3d"])
    assert settings.recall_mmr_lambda == 1.0 and settings.recall_lexical is False
    assert settings.state_default_lifetime.days == 3
    for bad in (["recall_k"], ["=1"], ["no_such_setting=1"], ["recall_k=many"]):
        with pytest.raises(InvalidInput):
            settings_with(bad)


def test_eval_run_refuses_an_unknown_setting(run) -> None:
    _refused(run("eval", "run", "locomo-retrieval", "--set", "no_such=1"), "unknown setting")


def test_counts_print_as_integers_and_a_threshold_is_not_better_either_way() -> None:
    from evals.registry import Metric
    from factstore.cli.evals import _better, _num

    assert _num(760) == "760" and _num(760.0) == "760" and _num(0.7224) == "0.7224"
    assert _num(1.0) == "1.0000" and _num(None) == "—" and _num(float("nan")) == "—"
    threshold = Metric("recommended_threshold", "none")
    assert _better(threshold) == "—" and _better(Metric("x", "higher")) == "higher"
    # reported, not judged: it never regresses, whichever way it moves
    assert not threshold.regressed(0.5, 0.9) and not threshold.regressed(0.9, 0.5)
    with pytest.raises(Exception, match="direction"):
        Metric("x", "sideways")


def test_not_found_and_unavailable_have_their_own_exit_codes(run) -> None:
    from factstore.cli.shell import EXIT_NOT_FOUND, EXIT_UNAVAILABLE

    missing = run("fact", "424242")
    assert missing.exit_code == EXIT_NOT_FOUND and "no fact #424242" in missing.stderr
    down = run("describe", dsn="postgresql://factstore@127.0.0.1:1/nothing?connect_timeout=2")
    assert down.exit_code == EXIT_UNAVAILABLE, (down.exit_code, down.stderr)
    assert down.stderr.startswith("error: ")
