"""The ``factstore`` CLI against a real store database (no mocks).

Commands run through typer's CliRunner with ``--dsn`` pointing at this test's database. The
CLI's ``_store_factory`` hook is swapped for one that reuses the session's loaded embedder,
so each invocation does not reload the model; everything else is the real open path.
"""

from __future__ import annotations

import inspect
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner, Result

from factstore import cli
from factstore.demo import CONTRADICTION, SEED_EXAMPLES, run_demo
from factstore.extractors.rules import RuleExtractor
from factstore.kinds import Kind
from factstore.store import Store, server
from factstore.store.core import TOOLS

#: Store tool -> the CLI command path that exposes it. The kept-in-step test below fails when
#: Store grows a tool (in TOOLS or a registry_* method) that has no entry here, i.e. no command.
COMMANDS: dict[str, tuple[str, ...]] = {
    "describe": ("describe",),
    "remember": ("remember",),
    "remember_many": ("remember",),  # remember --file CAPTURES.jsonl
    "recall": ("recall",),
    "resolve_conflict": ("resolve",),
    "resolve_both_stand": ("both-stand",),
    "open_conflicts": ("conflicts",),
    "registry_query": ("tags", "query"),
    "registry_add_leaf": ("tags", "add-leaf"),
    "registry_propose_root": ("tags", "propose-root"),
    "registry_candidates": ("tags", "candidates"),
    "registry_approve_root": ("tags", "approve"),
    "registry_reject_root": ("tags", "reject"),
    "registry_add_alias": ("tags", "alias"),
    "registry_set_lifetime": ("tags", "lifetime"),
    "registry_tags": ("tags", "list"),
    "open_questions": ("questions", "list"),
    "update_open_question": ("questions", "update"),
    "write_facts": ("facts", "write"),
    "create_token": ("tokens", "create"),
    "list_tokens": ("tokens", "list"),
    "revoke_token": ("tokens", "revoke"),
    "scopes": ("scopes", "list"),
    "seal_scope": ("scopes", "seal"),
    "rotate_key": ("scopes", "rotate"),
    "forget_scope": ("scopes", "forget"),
    "backfill_facts": ("facts", "backfill"),
    "facts": ("facts", "show"),
    "retract": ("facts", "retract"),
    "end_fact": ("facts", "end"),
    "brief": ("facts", "brief"),
    "claims": ("claims",),
    "why": ("why",),
    "context": ("context",),
    "remove_source": ("remove-source",),
    "restore_source": ("restore-source",),
    "lineages": ("lineages",),
    "set_lineage_mode": ("lineage-mode",),
    "contradiction_group": ("group",),
    "entities": ("entities",),
    "entity": ("entity",),
    "aliases": ("aliases",),
    "add_alias": ("alias",),
    "merge": ("merge",),
    "unmerge": ("unmerge",),
    "merge_proposals": ("merge-proposals",),
    "reject_merge": ("reject-merge",),
    "relations": ("relations",),
    "neighbours": ("neighbours",),
    "mentions": ("mentions",),
    "refresh_profiles": ("refresh-profiles",),
    "chain": ("chain",),
    "set_entity_attribute": ("entity-attribute",),
    "attributes": ("attributes", "list"),
    "merge_attribute": ("attributes", "merge"),
    "add_attribute_alias": ("attributes", "alias"),
    "compile_log": ("attributes", "log"),
}

GREEN = "sample-svc is green right now"
#: The seed's REFERENCE example, which the demo's CONTRADICTION contests (lane 3).
RUNNER = SEED_EXAMPLES[4][1]

Run = Callable[..., Result]


@pytest.fixture()
def run(admin_dsn: str, database: str, embedder: Any,
        monkeypatch: pytest.MonkeyPatch) -> Run:
    """Invoke the CLI on this test's database: run(*args, input=None, code=0)."""
    monkeypatch.setattr(cli, "_store_factory",
                        lambda options: cli.open_store(options, embedder=embedder))
    dsn = server.with_database(admin_dsn, database)
    runner = CliRunner()

    def _run(*args: str, input: str | None = None, code: int = 0) -> Result:
        # A wide terminal so rich never folds the words the assertions look for.
        result = runner.invoke(cli.app, ["--dsn", dsn, *args], input=input,
                               env={"COLUMNS": "200"})
        assert result.exit_code == code, (
            f"exit {result.exit_code} != {code}\nstdout:\n{result.stdout}\n"
            f"stderr:\n{result.stderr}\nexception: {result.exception!r}")
        return result

    return _run


def _json(result: Result) -> Any:
    return json.loads(result.stdout)


def _conflict(run: Run) -> dict[str, Any]:
    """Remember the seed's REFERENCE and its contradiction; return the interrupt (as JSON)."""
    run("remember", RUNNER)
    interrupts = _json(run("--json", "remember", CONTRADICTION))["interrupts"]
    assert len(interrupts) == 1 and interrupts[0]["lane"] == "lane-3"
    return interrupts[0]


# -- reading and writing -------------------------------------------------------------------


def test_remember_file_writes_many_captures_in_order(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "captures.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in (
        GREEN, {"text": GREEN, "source_ref": "chat:1"}, {"text": "[[a]] [[b]] [[c]] [[d]] [[e]]"}
    )) + "\n\n")  # a blank line is skipped
    out = run("remember", "--file", str(path)).stdout
    assert "3 capture(s): 3 stored, 0 already stored (re-runs), 1 gated" in out
    results = _json(run("--json", "remember", "--file", str(path)))
    assert len(results) == 3 and results[0]["document"]["duplicate"] is True
    run("remember", "--file", str(tmp_path / "missing.jsonl"), code=2)
    run("remember", GREEN, "--file", str(path), code=2)


def test_remember_then_recall_prints_the_label(run: Run) -> None:
    out = run("remember", GREEN, "--source-ref", "session-1#turn-1").stdout
    assert "written" in out and "STATE" in out and "subject: sample-svc" in out

    out = run("recall", "is sample-svc green right now?", "-k", "3").stdout
    assert "answered by the fact layer" in out
    assert "active — believed current" in out
    assert f"quote: “{GREEN}”" in out
    assert "kind STATE · verdict active" in out
    # the fact comes with the capture it was read from, not as a second, competing hit
    assert "read from document #1 · utterance session-1#turn-1" in out
    assert "served as contested partner" not in out


def test_remember_reads_stdin_for_dash(run: Run) -> None:
    result = _json(run("--json", "remember", "-", input="I can't stand light-mode editors\n"))
    assert [o["fact"]["kind"] for o in result["outcomes"]] == ["PREFERENCE"]
    assert result["outcomes"][0]["fact"]["evidence_quote"] == "I can't stand light-mode editors"


def test_event_is_labeled_never_present_tense(run: Run) -> None:
    run("remember", SEED_EXAMPLES[-1][1])
    out = run("recall", "were all 214 pages migrated?").stdout
    assert "makes no claim about the present state" in out


def test_remember_prints_the_interrupt_with_exact_resolve_calls(run: Run) -> None:
    run("remember", RUNNER)
    out = run("remember", CONTRADICTION).stdout
    assert "conflict #1 · lane-3" in out
    assert 'store.resolve_conflict(1, winner_id=1, reasoning="<why>")' in out
    assert 'factstore resolve 1 2 --reasoning "<why>"' in out
    assert 'factstore both-stand 1 --reasoning "<why both are true>"' in out
    assert f"“{RUNNER}”" in out and f"“{CONTRADICTION}”" in out


def test_a_newer_state_reading_is_served_alone_as_current(run: Run) -> None:
    run("remember", "payments-api is healthy right now")
    out = run("remember", "payments-api is degraded right now").stdout
    assert "superseded-prior" in out and "revision" in out
    served = _json(run("--json", "recall", "is payments-api healthy right now?"))["items"]
    statements = [i["fact"]["statement"] for i in served if i.get("fact")]
    assert "payments-api is degraded right now." in statements
    assert "payments-api is healthy right now." not in statements


def test_remember_surfaces_candidate_roots(run: Run) -> None:
    out = run("remember", "we'll live with the UTF-16 gap until a non-UTF-8 feed shows up").stdout
    assert "RESIDUAL" in out
    assert "factstore tags approve utf-16" in out


# -- the conflict pipeline round trip ------------------------------------------------------


def test_conflicts_resolve_and_both_stand_round_trip(run: Run) -> None:
    interrupt = _conflict(run)
    cid, old, new = (interrupt["conflict_id"], interrupt["existing"]["fact_id"],
                     interrupt["new"]["fact_id"])

    listed = _json(run("--json", "conflicts"))
    assert [c["id"] for c in listed] == [cid]
    assert {listed[0]["fact_a"]["verdict"], listed[0]["fact_b"]["verdict"]} == {"contested"}
    assert f"#{old}" in run("conflicts").stdout

    out = run("resolve", str(cid), str(new), "--reasoning", "the legacy path is current").stdout
    assert f"fact #{new} won; fact #{old} is now superseded" in out
    assert "no open conflicts" in run("conflicts").stdout
    closed = _json(run("--json", "conflicts", "--all"))
    assert closed[0]["winner"] == new and closed[0]["resolution"] == "head-to-head"
    assert _json(run("--json", "fact", str(old)))["fact"]["verdict"] == "superseded"

    # both-stand refuses a head-to-head-resolved conflict: it would resurrect the loser.
    err = run("both-stand", str(cid), "--reasoning", "both true", code=2).stderr
    assert err.startswith("error: ") and "resurrect" in err

    # A second pair, closed as both-stand: both active again, winner null.
    second = _json(run("--json", "remember",
                       r"the runner token lives at C:\ops\spare\runner.env"))["interrupts"]
    assert len(second) == 1, "expected the spare path to conflict with the winner"
    cid2 = second[0]["conflict_id"]
    out = run("both-stand", str(cid2), "--reasoning", "two boxes, both true").stdout
    assert "both facts stand" in out
    pair = _json(run("--json", "conflicts", "--all"))[-1]
    assert pair["winner"] is None and pair["resolution"] == "both-stand"
    assert {pair["fact_a"]["verdict"], pair["fact_b"]["verdict"]} == {"active"}


def test_fact_shows_history(run: Run) -> None:
    interrupt = _conflict(run)
    out = run("fact", str(interrupt["existing"]["fact_id"])).stdout
    assert "history" in out and "contested" in out and "lane-3" in out
    data = _json(run("--json", "fact", str(interrupt["existing"]["fact_id"])))
    assert [h["to_verdict"] for h in data["history"]] == ["active", "contested"]


# -- error paths -----------------------------------------------------------------------------


def _assert_error(result: Result, fragment: str) -> None:
    assert result.stderr.startswith("error: "), result.stderr
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_unknown_conflict_id_is_an_error(run: Run) -> None:
    # not found is its own exit code (4), apart from a refused call (2)
    _assert_error(run("resolve", "999", "1", "--reasoning", "x", code=4), "no conflict #999")
    _assert_error(run("both-stand", "999", "--reasoning", "x", code=4), "no conflict #999")


def test_winner_outside_the_pair_is_an_error(run: Run) -> None:
    interrupt = _conflict(run)
    result = run("resolve", str(interrupt["conflict_id"]), "12345", "--reasoning", "x", code=2)
    _assert_error(result, "fact #12345 is not in conflict")


def test_rootless_add_leaf_is_an_error(run: Run) -> None:
    _assert_error(run("tags", "add-leaf", "ci", code=2), "root")


def test_bad_source_type_is_an_error(run: Run) -> None:
    result = run("remember", GREEN, "--source-type", "telepathy", code=2)
    _assert_error(result, "unknown source_type 'telepathy'")
    assert _json(run("--json", "describe"))["documents"] == 0  # nothing was written


def test_other_store_refusals_are_errors(run: Run) -> None:
    _assert_error(run("fact", "424242", code=4), "no fact #424242")
    _assert_error(run("questions", "update", "999", "--status", "parked", code=4), "#999")
    _assert_error(run("remember", GREEN, "--said-at", "yesterday", code=2), "ISO-8601")
    _assert_error(run("tags", "lifetime", "nosuch", "2d", code=4), "nosuch")


def test_bad_usage_is_typers_exit_2(run: Run) -> None:
    result = run("resolve", "1", code=2)
    assert "Missing argument" in result.stderr
    run("resolve", "one", "2", "--reasoning", "x", code=2)


# -- JSON and governance commands --------------------------------------------------------


def test_json_output_parses_for_every_reading_command(run: Run) -> None:
    interrupt = _conflict(run)
    described = _json(run("--json", "describe"))
    assert described["facts_by_kind_verdict"]["REFERENCE"] == {"contested": 2}
    assert "remember" in described["tools"]
    assert isinstance(described["settings"]["state_default_lifetime"], str)

    recalled = _json(run("--json", "recall", "where is the runner token stored?"))
    assert recalled["layer"] == "fact"
    assert {i["label"]["code"] for i in recalled["items"]} == {"contested"}
    assert recalled["items"][0]["fact"]["t_captured"].endswith("+00:00")

    for args in (("conflicts",), ("conflicts", "--all"), ("tags", "list"),
                 ("tags", "candidates", "--status", "all"), ("questions", "list"),
                 ("fact", str(interrupt["new"]["fact_id"]))):
        _json(run("--json", *args))


def test_json_timedeltas_are_short_strings(run: Run) -> None:
    run("tags", "propose-root", "ci")
    run("tags", "approve", "ci")
    assert _json(run("--json", "tags", "lifetime", "ci", "36h"))["default_lifetime"] == "36h"
    assert _json(run("--json", "tags", "lifetime", "ci", "none"))["default_lifetime"] is None


def test_tag_registry_commands(run: Run) -> None:
    out = run("tags", "propose-root", "ci", "--description", "continuous integration").stdout
    assert "queued" in out and "factstore tags approve ci" in out
    pending = _json(run("--json", "tags", "candidates"))
    assert [c["proposed_tag"] for c in pending] == ["ci"]
    assert "approved" in run("tags", "approve", "ci", "--reason", "we talk about it").stdout
    assert "minted ci.nightly" in run("tags", "add-leaf", "ci.nightly").stdout
    assert "already existed" in run("tags", "add-leaf", "ci.nightly").stdout
    run("tags", "alias", "nightly build", "ci.nightly")
    assert "2d" in run("tags", "lifetime", "ci.nightly", "2d").stdout
    query = _json(run("--json", "tags", "query", "nightly build"))
    assert query["resolution"]["tag"] == "ci.nightly" and query["resolution"]["via"] == "alias"
    listed = {t["tag"]: t for t in _json(run("--json", "tags", "list"))}
    assert listed["ci.nightly"]["aliases"] == ["nightly build"]
    assert listed["ci.nightly"]["default_lifetime"] == "2d"

    run("tags", "propose-root", "flaky")
    assert "rejected" in run("tags", "reject", "flaky", "--reason", "too vague").stdout
    assert [c["status"] for c in _json(run("--json", "tags", "candidates", "--status",
                                           "rejected"))] == ["rejected"]


def test_questions_list_and_update(run: Run) -> None:
    out = run("questions", "list").stdout
    assert "negation-inversion" in out and "blocker" in out
    updated = _json(run("--json", "questions", "update", "2", "--note", "eval set drafted",
                        "--by", "tester", "--cost", "medium"))
    assert updated["cost"] == "medium" and updated["recommendation"] == "resolve"
    assert updated["evidence"][-1]["note"] == "eval set drafted"
    assert [q["id"] for q in _json(run("--json", "questions", "list", "--status", "blocker"))] \
        == [1]
    added = _json(run("--json", "questions", "add", "Recall latency", "--body", "not measured",
                      "--risk", "low", "--cost", "low"))
    assert added["status"] == "parked"


def test_the_testimony_commands_read_claims_and_remove_and_restore_a_source(run: Run) -> None:
    interrupt = _conflict(run)
    existing, new = interrupt["existing"]["fact_id"], interrupt["new"]["fact_id"]
    claims = _json(run("--json", "claims"))
    assert {c["grain"] for c in claims} == {"claim"} and {c["status"] for c in claims} == {
        "current"}
    why = _json(run("--json", "why", str(existing)))
    assert (why["grain"], why["support_count"]) == ("fact", 1)
    assert [x["claim"]["fact_id"] for x in why["contradicts"]] == [new]
    assert "the bridge" in run("why", str(existing)).stdout
    group = _json(run("--json", "group", str(interrupt["group_id"])))
    assert sorted(group["member_ids"]) == sorted((existing, new))
    newest = _json(run("--json", "lineages"))[0]["lineage"]  # the contradiction's source
    removed = _json(run("--json", "remove-source", newest, "--reason", "a test source"))
    assert (removed["action"], removed["closed"]) == ("removed", [new])
    assert "already removed" in run("remove-source", newest, "--reason", "again",
                                    code=2).stderr
    out = run("restore-source", newest, "--reason", "back").stdout
    assert "reopened (restored_source)" in out and "conflicts opened again" in out
    bundle = _json(run("--json", "context", "Where is the runner token?"))
    assert (bundle["claims_and_sources"]["grain"], bundle["facts"]["grain"]) == ("claim", "fact")
    assert "living" in run("lineage-mode", newest, "living").stdout
    assert "triage must be one of" in run("claims", "--triage", "maybe", code=2).stderr


def test_the_entity_commands_resolve_merge_and_traverse(run: Run) -> None:
    run("remember", "Priya Patel: I work at Arc Labs. Ben Osei reports to me.",
        "--source-type", "utterance", "--source-ref", "chat:1")
    people = _json(run("--json", "entities", "--type", "Person"))
    assert {e["canonical_name"] for e in people} >= {"Priya Patel", "Ben Osei"}
    assert {e["grain"] for e in people} == {"entity"}
    priya = _json(run("--json", "entity", "Priya Patel"))
    relations = _json(run("--json", "relations", priya["id"]))
    assert ("works_at", "Arc Labs") in {(r["predicate"], r["object_name"]) for r in relations}
    near = _json(run("--json", "neighbours", priya["id"], "--depth", "2"))
    assert "Arc Labs" in {n["entity"]["canonical_name"] for n in near}
    assert "unknown predicate" in run("neighbours", priya["id"], "--predicate", "likes",
                                      code=2).stderr
    run("alias", priya["id"], "PP")
    assert "PP" in _json(run("--json", "aliases", priya["id"]))
    mentions = _json(run("--json", "mentions", priya["id"]))
    assert mentions and {m["role"] for m in mentions} >= {"speaker"}
    other = _json(run("--json", "entity", "Ben Osei"))
    merged = _json(run("--json", "merge", priya["id"], other["id"], "--reason", "test"))
    assert merged["action"] == "merged"
    assert "redirected" in run("entity", other["id"]).stdout
    assert _json(run("--json", "unmerge", other["id"], "--reason", "two people"))[
        "action"] == "unmerged"
    assert "profile(s) rebuilt" in run("refresh-profiles").stdout
    assert _json(run("--json", "merge-proposals")) == []
    arc = _json(run("--json", "entity-attribute", "Arc Labs", "founded", "2019",
                    "--type", "int"))
    assert arc["attributes"]["founded"]["value"] == 2019
    assert "not an int" in run("entity-attribute", "Arc Labs", "founded", "soon", "--type",
                               "int", code=2).stderr
    assert "no entity" in run("entity", "Nobody Here", code=4).stderr
    assert "no merge proposal" in run("reject-merge", "99", "--reason", "x", code=4).stderr


# -- kept in step with the Store -----------------------------------------------------------


def _commands(app: typer.Typer, prefix: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], Callable[..., Any]]]:
    """Every (command path, callback) the typer app registers, sub-apps included."""
    for info in app.registered_commands:
        assert info.callback is not None
        name = info.name or info.callback.__name__.lower().replace("_", "-")
        yield (*prefix, name), info.callback
    for group in app.registered_groups:
        assert group.typer_instance is not None and group.name
        yield from _commands(group.typer_instance, (*prefix, group.name))


def test_every_store_tool_has_a_command() -> None:
    registry = {name for name, member in inspect.getmembers(Store, inspect.isfunction)
                if name.startswith("registry_")}
    tools = set(TOOLS) | registry
    missing = sorted(tools - COMMANDS.keys())
    assert not missing, (f"Store tools with no CLI command: {missing}. Add a command to "
                         "factstore/cli/ and map it in tests/test_cli.py COMMANDS")
    stale = sorted(set(COMMANDS) - {n for n, _ in inspect.getmembers(Store)})
    assert not stale, f"COMMANDS maps methods Store no longer has: {stale}"

    commands = dict(_commands(cli.app))
    for tool, path in COMMANDS.items():
        assert path in commands, f"Store.{tool} maps to `factstore {' '.join(path)}`, " \
                                 "which does not exist"
        # The command must actually call the method it stands for.
        assert f".{tool}(" in inspect.getsource(commands[path]), \
            f"`factstore {' '.join(path)}` does not call Store.{tool}"


# -- the demo ------------------------------------------------------------------------------


def test_demo_raises_and_resolves_a_conflict(open_store: Callable[..., Store]) -> None:
    store = open_store(extractor=RuleExtractor())
    buffer = io.StringIO()
    report = run_demo(store, Console(file=buffer, width=120))
    assert set(report.fact_ids) == {k.value for k in Kind}
    assert report.interrupt.lane == "lane-3"
    assert report.interrupt.similarity >= store.settings.density_threshold
    assert report.resolved.status == "resolved"
    assert report.resolved.winner == report.interrupt.existing.fact_id
    assert {i.label.code for i in report.contested_recall.items if i.fact} == {"contested"}
    assert store.open_conflicts() == []
    assert store.fact(report.interrupt.new.fact_id).verdict == "superseded"
    state = store.fact(report.fact_ids["STATE"])
    assert state.verdict == "superseded" and state.superseded_by is not None
    text = buffer.getvalue()
    # conflict #1 is the revision's audit row, born resolved
    assert "conflict #2 · lane-3" in text and "demo complete" in text


def test_demo_refuses_a_store_that_is_not_empty(open_store: Callable[..., Store]) -> None:
    from factstore.demo import DemoFailed

    store = open_store(extractor=RuleExtractor())
    store.remember(GREEN)
    with pytest.raises(DemoFailed, match="empty store"):
        run_demo(store, Console(file=io.StringIO()))


def test_demo_command_resets_its_database(run: Run, admin_dsn: str) -> None:
    try:
        for _ in range(2):  # the second run proves the reset: the first left facts behind
            report = _json(run("--json", "demo"))
            assert report["resolved"]["status"] == "resolved"
            assert report["interrupt"]["conflict_id"] == 2
    finally:
        server.drop_database(admin_dsn, cli.DEMO_DATABASE)


# -- timelines -----------------------------------------------------------------------------


def _request(tmp_path: Path, *facts: dict[str, Any]) -> str:
    path = tmp_path / f"request-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps({"format": 1, "facts": list(facts)}))
    return str(path)


def _shoe(value: str, valid_from: str, observed: str) -> dict[str, Any]:
    return {"subject": "person/nick", "attribute": "shoe_size", "value": value, "unit": "EU",
            "valid_from": valid_from, "observed_at": observed, "source": f"note:{value}"}


def test_facts_write_show_and_retract(run: Run, tmp_path: Path) -> None:
    out = run("facts", "write", _request(tmp_path, _shoe("40", "2025", "2025-03-02T10:00:00Z")))
    assert "created" in out.stdout
    written = _json(run("--json", "facts", "write",
                        _request(tmp_path, _shoe("41", "2026", "2026-10-15T09:12:00Z"))))
    new_id = written["facts"][0]["id"]
    out = run("facts", "show", "--subject", "person/nick").stdout
    assert ("shoe_size(person/nick) = 41 EU [valid 2026..now, observed 2026-10-15, source "
            "note:41] (was 40 EU 2025..2026)") in out
    out = run("facts", "show", "--subject", "person/nick", "--as-of", "2025").stdout
    assert "= 40 EU [valid 2025..2026" in out and "(later 41 EU 2026..now)" in out
    md = run("facts", "show", "--markdown", "--show-stale").stdout
    assert md.startswith("## Facts\n") and "### History" in md
    run("facts", "retract", str(new_id), "--reason", "wrong person")
    again = run("facts", "retract", str(new_id), "--reason", "wrong person", code=2)
    assert f"fact #{new_id} was already retracted" in again.stderr
    answer = _json(run("--json", "facts", "show", "--attribute", "shoe_size"))
    assert [f["value"] for f in answer["keys"][0]["current"]] == ["40"]
    brief = _json(run("--json", "facts", "brief", "what was nick's shoe size in 2025?"))
    assert brief["lines"][0].startswith("shoe_size(person/nick) = 40 EU")


def test_facts_known_at_reads_belief_time(run: Run, tmp_path: Path) -> None:
    run("facts", "write", _request(tmp_path, _shoe("40", "2025", "2025-03-02T10:00:00Z")))
    answer = _json(run("--json", "facts", "show", "--known-at", "2001"))
    assert answer["keys"] == [] and answer["known_at"].startswith("2001-12-31")


def test_facts_write_errors_list_every_problem(run: Run, tmp_path: Path) -> None:
    bad = _request(tmp_path, {"subject": "Nick", "attribute": "x", "value": ""})
    result = run("facts", "write", bad, code=2)
    assert "error:" in result.stderr and "facts[0].subject" in result.stderr
    assert "facts[0].value" in result.stderr
    result = run("facts", "write", str(tmp_path / "missing.json"), code=2)
    assert "cannot read" in result.stderr
    assert _json(run("--json", "facts", "show"))["keys"] == []


def test_facts_backfill_reads_json_lines(run: Run, tmp_path: Path) -> None:
    lines = [_shoe("40", "2025", "2025-03-02T10:00:00Z"), _shoe("40", "2025-06",
             "2025-06-02T10:00:00Z"), _shoe("41", "2026", "2026-10-15T09:12:00Z")]
    path = tmp_path / "archive.jsonl"
    path.write_text("\n".join(json.dumps(f) for f in lines) + "\n")
    result = _json(run("--json", "facts", "backfill", str(path)))
    assert (result["created"], result["corroborated"], result["keys"]) == (2, 1, 1)
    path.write_text("{not json}\n")
    assert "line 1: not JSON" in run("facts", "backfill", str(path), code=2).stderr


def test_facts_end_stops_a_value(run: Run, tmp_path: Path) -> None:
    written = _json(run("--json", "facts", "write", _request(
        tmp_path, {"subject": "person/nick", "attribute": "uses_tool", "value": "jj",
                   "valid_from": "2024"})))
    fact_id = written["facts"][0]["id"]
    out = run("facts", "end", str(fact_id), "2026-06").stdout
    assert f"fact #{fact_id} ended at 2026-06" in out
    shown = _json(run("--json", "facts", "show", "--subject", "person/nick", "--attribute",
                      "uses_tool", "--as-of", "2026-07"))
    assert shown["keys"][0]["current"] == []
    err = run("facts", "end", str(fact_id), "2020", code=2).stderr
    assert err.startswith("error: ") and "after" in err
