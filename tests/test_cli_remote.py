"""The CLI through a running server (``FACTSTORE_SERVER``): the same output as in-process,
the same exit codes, and the writes land in the server's store as the token's principal."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from factstore import Store, cli
from factstore.cli.remote import RemoteStore, from_jsonable
from factstore.extractors.rules import RuleExtractor
from factstore.results import RecallResult
from tests.served import Served, serve


@pytest.fixture(scope="module")
def served(admin_dsn, embedder):
    yield from serve(admin_dsn, embedder, "cli")


def _run(monkeypatch, served: Served, who: str | None, *args: str):
    if who is None:
        monkeypatch.delenv("FACTSTORE_SERVER", raising=False)
    else:
        monkeypatch.setenv("FACTSTORE_SERVER", served.url)
        monkeypatch.setenv("FACTSTORE_TOKEN", served.tokens[who])
    return CliRunner().invoke(cli.app, ["--dsn", served.dsn, *args])


@pytest.fixture()
def in_process(monkeypatch, embedder):
    """In-process runs open the test database with the session's model (no reload)."""
    def factory(options):
        if options.dsn and not cli.remote.server_url():
            return Store.open(options.dsn, embedder=embedder, extractor=RuleExtractor(),
                              user_id="owner")
        return cli.shell.open_store(options)
    monkeypatch.setattr(cli, "_store_factory", factory)


def test_the_cli_through_the_server_prints_what_it_prints_in_process(
        monkeypatch, served, in_process) -> None:
    facts = json.dumps({"format": 1, "facts": [
        {"subject": "system/ci", "attribute": "runner", "value": "arm64", "valid_from": "2025"},
        {"subject": "system/ci", "attribute": "runner", "value": "x86", "valid_from": "2026"}]})
    written = CliRunner().invoke(cli.app, ["facts", "write", "-"], input=facts,
                                 env={"FACTSTORE_SERVER": served.url,
                                      "FACTSTORE_TOKEN": served.tokens["owner"]})
    assert written.exit_code == 0, written.output
    for args in (("facts", "show", "--subject", "system/ci"),
                 ("facts", "brief", "what runner does ci use?"),
                 ("--json", "facts", "show", "--subject", "system/ci", "--as-of", "2025"),
                 ("facts", "show", "--subject", "system/ci", "--markdown"),
                 ("recall", "what runner does ci use?"), ("--json", "recall", "ci runner"),
                 ("conflicts",), ("questions", "list"), ("describe",)):
        remote = _run(monkeypatch, served, "owner", *args)
        local = _run(monkeypatch, served, None, *args)
        assert remote.exit_code == local.exit_code == 0, (remote.output, local.output)
        assert remote.output == local.output, args


def test_refusals_keep_their_exit_codes_through_the_server(monkeypatch, served,
                                                            in_process) -> None:
    assert _run(monkeypatch, served, "nick", "facts", "retract", "99999").exit_code == 4
    assert _run(monkeypatch, served, "nick", "recall", " ").exit_code == 2
    assert _run(monkeypatch, served, "nick", "claims").exit_code == 2  # not served
    denied = _run(monkeypatch, served, "bob", "--json", "facts", "write", "-")
    assert denied.exit_code == 2
    monkeypatch.setenv("FACTSTORE_SERVER", "http://127.0.0.1:9")  # nobody listens
    gone = CliRunner().invoke(cli.app, ["describe"])
    assert gone.exit_code == 5 and "no factstore server answers" in gone.output


def test_a_write_through_the_cli_lands_as_the_tokens_principal(monkeypatch, served,
                                                               in_process) -> None:
    result = _run(monkeypatch, served, "nick", "remember", "nick-svc is green right now")
    assert result.exit_code == 0, result.output
    remote = RemoteStore(served.url, served.tokens["nick"])
    try:
        found = remote.recall("is nick-svc green?")
        assert isinstance(found, RecallResult)
        assert any(i.fact and "nick-svc" in i.fact.statement for i in found.items)
    finally:
        remote.close()
    with served.store._tx() as cur:
        cur.execute("SELECT access_scope FROM facts WHERE statement LIKE 'nick-svc%'")
        assert {r["access_scope"] for r in cur.fetchall()} == {"acme/user-nick"}
    eve = RemoteStore(served.url, served.tokens["eve"])
    try:
        assert not any(i.fact and "nick-svc" in i.fact.statement
                       for i in eve.recall("is nick-svc green?").items)
    finally:
        eve.close()


def test_results_rebuild_from_their_json() -> None:
    from factstore.cli.formatting import to_jsonable
    from factstore.timelines.model import TimelineFact

    fact = TimelineFact(id=1, subject="me", attribute="a", value="v", unit=None,
                        cardinality="one", valid_from="2025", valid_to=None,
                        observed_at=None, last_confirmed_at=None, recorded_at=None,
                        source=None, quote=None, confidence=0.5, retracted=False,
                        status="current", effective_valid_to=None, superseded_by=None,
                        supersedes=None, scope="acme/user-x")
    assert from_jsonable(TimelineFact, json.loads(json.dumps(to_jsonable(fact)))) == fact
    # a field typed Any in results.py (to avoid an import cycle) still rebuilds as its type:
    # the CLI renders a contested group's continuation from its attributes
    from factstore.groups import GroupContinuation

    recalled = RecallResult(query="q", layer="fact", items=(), best_fact_similarity=None,
                            continuations=(GroupContinuation(7, (1, 2), (3,)),))
    rebuilt = from_jsonable(RecallResult, json.loads(json.dumps(to_jsonable(recalled))))
    assert rebuilt == recalled and rebuilt.continuations[0].call == "contradiction_group(7)"


def test_a_nan_similarity_travels_as_null_and_comes_back_as_nan() -> None:
    """Recall leaves NaN as the similarity of an item no vector found; the server sends
    strict JSON (null), and the CLI rebuilds NaN, so it prints what it prints in-process."""
    import math

    from factstore.labels import DOCUMENT_LABEL
    from factstore.results import RecallItem
    from factstore.service.catalogue import as_json

    recalled = RecallResult(query="q", layer="document", best_fact_similarity=None,
                            items=(RecallItem(DOCUMENT_LABEL, float("nan")),))
    sent = json.dumps(as_json(recalled), allow_nan=False)  # raises on a NaN token
    assert json.loads(sent)["items"][0]["similarity"] is None
    rebuilt = from_jsonable(RecallResult, json.loads(sent))
    assert math.isnan(rebuilt.items[0].similarity) and rebuilt.best_fact_similarity is None
