"""Timelines through the store: format v1 writes, re-resolution, as-of and known-at reads."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from factstore import Store
from factstore.errors import (
    AlreadyRetracted,
    CardinalityMismatch,
    ConflictStateError,
    FactNotFound,
    InvalidInput,
)
from factstore.store import server
from factstore.timelines.format_v1 import FactsValidationError
from tests.helpers import ScriptedExtractor

T0 = datetime(2025, 3, 2, 10, 0, tzinfo=UTC)
T1 = datetime(2026, 10, 15, 9, 12, tzinfo=UTC)


def fact(value, valid_from=None, observed="2025-03-02T10:00:00Z", **extra):
    body = {"subject": "me", "attribute": "shoe_size", "value": value, "unit": "EU",
            "observed_at": observed, **extra}
    if valid_from is not None:
        body["valid_from"] = valid_from
    return body


def write(store, *facts, now=None, shared=None):
    payload = {"format": 1, "facts": list(facts)}
    if shared is not None:
        payload["shared"] = shared
    return store.write_facts(payload, now=now)


@pytest.fixture()
def nick(open_store):
    return open_store(user_id="U0NICK")


def _shoe_size(store):
    a = write(store, fact("40", "2025", source="note:user-3f/note-1",
                          quote="my shoe size is 40"), now=T0)
    b = write(store, fact("41", "2026", observed="2026-10-15T09:12:00Z",
                          source="note:user-3f/note-2", quote="my shoe size is now 41"), now=T1)
    return a.facts[0].id, b.facts[0].id


def test_the_shoe_size_example_end_to_end(nick):
    a, b = _shoe_size(nick)
    (key,) = nick.facts("me", "shoe_size").keys
    assert key.subject == "person/u0nick"
    old, new = nick.fact(a), nick.fact(b)
    assert (old.verdict, old.superseded_by, new.supersedes) == ("superseded", b, a)
    assert [f.id for f in key.current] == [b]
    assert [(f.id, f.status, f.effective_valid_to) for f in key.history] == [
        (b, "current", None), (a, "superseded", "2026")]
    brief = nick.brief("what's my shoe size?")
    assert brief.lines == ("shoe_size(person/u0nick) = 41 EU [valid 2026..now, observed "
                           "2026-10-15, source F1] (was 40 EU 2025..2026)",)
    assert brief.text.startswith("Facts below are temporal.")
    assert brief.citations[0].source == "note:user-3f/note-2"
    then = ("shoe_size(person/u0nick) = 40 EU [valid 2025..2026, observed 2025-03-02, "
            "source F1] (later 41 EU 2026..now)",)
    assert nick.brief("what's my shoe size?", as_of="2025").lines == then
    assert nick.brief("what was my shoe size in 2025?").lines == then
    assert nick.facts("me", "shoe_size", as_of="2025").keys[0].line == (
        "shoe_size(person/u0nick) = 40 EU [valid 2025..2026, observed 2025-03-02, source "
        "note:user-3f/note-1] (later 41 EU 2026..now)")


def test_recall_of_a_timeline_question_serves_its_line(nick):
    _shoe_size(nick)
    result = nick.recall("what was my shoe size in 2025?")
    assert result.timelines == (
        "shoe_size(person/u0nick) = 40 EU [valid 2025..2026, observed 2025-03-02, source "
        "note:user-3f/note-1] (later 41 EU 2026..now)",)
    assert nick.recall("what is the weather like?").timelines == ()


def test_backfill_inserts_before_without_touching_the_current(nick):
    a, b = _shoe_size(nick)
    c = write(nick, fact("39", "2024", observed="2026-11-01T00:00:00Z")).facts[0]
    assert c.outcome == "created"
    assert (c.fact.status, c.fact.effective_valid_to, c.fact.superseded_by) == (
        "superseded", "2025", a)
    assert nick.fact(b).verdict == "active" and nick.fact(a).superseded_by == b
    assert nick.facts("me", "shoe_size", as_of="2024-06").keys[0].current[0].value == "39"


def test_equal_starts_with_different_values_are_disputed_until_settled(nick):
    first = write(nick, fact("40", "2025")).facts[0].id
    second = write(nick, fact("42", "2025", observed="2025-04-01T00:00:00Z")).facts[0].id
    assert nick.fact(first).verdict == nick.fact(second).verdict == "contested"
    (conflict,) = nick.open_conflicts()
    assert (conflict.lane, {conflict.fact_a.id, conflict.fact_b.id}) == (
        "timeline", {first, second})
    line = nick.facts("me", "shoe_size").keys[0].line
    assert "{disputed: 40 EU | 42 EU}" in line
    with pytest.raises(ConflictStateError, match="timeline dispute"):
        nick.resolve_both_stand(conflict.id, "both")
    nick.retract(second, reason="typo in the note")
    closed = nick.conflict(conflict.id)
    assert closed.status == "resolved" and closed.resolution == "timeline"
    assert f"fact #{second} retracted" in closed.reasoning
    assert nick.fact(first).verdict == "active" and nick.fact(second).verdict == "withdrawn"


def test_a_head_to_head_on_a_timeline_dispute_retracts_the_loser(nick):
    first = write(nick, fact("40", "2025")).facts[0].id
    second = write(nick, fact("42", "2025", observed="2025-04-01T00:00:00Z")).facts[0].id
    conflict = nick.open_conflicts()[0]
    closed = nick.resolve_conflict(conflict.id, first, "the receipt says 40")
    assert (closed.resolution, closed.winner) == ("head-to-head", first)
    assert nick.fact(second).verdict == "withdrawn" and nick.fact(first).verdict == "active"


def test_a_later_observation_extending_an_old_value_is_a_rule6_dispute(nick):
    write(nick, fact("41", "2026", observed="2026-01-10T00:00:00Z"))
    late = write(nick, fact("40", "2025", valid_to="2026-06",
                            observed="2026-08-01T00:00:00Z")).facts[0]
    assert late.fact.status == "disputed"
    (conflict,) = nick.open_conflicts()
    assert conflict.differences == ("rule-6",)


def test_an_earlier_observation_is_simply_ended_by_the_next_value(nick):
    old = write(nick, fact("40", "2025", valid_to="2026-06",
                           observed="2025-01-10T00:00:00Z")).facts[0].id
    write(nick, fact("41", "2026", observed="2026-01-10T00:00:00Z"))
    assert nick.fact(old).verdict == "superseded" and nick.open_conflicts() == []


def test_a_many_attribute_accumulates_values(nick):
    tool = {"subject": "me", "attribute": "uses_tool", "observed_at": "2025-03-02T10:00:00Z"}
    write(nick, {**tool, "value": "ripgrep", "valid_from": "2024"},
          {**tool, "value": "jj", "valid_from": "2025"})
    (key,) = nick.facts("me", "uses_tool", as_of="2025-06").keys
    assert key.cardinality == "many"
    assert sorted(f.value for f in key.current) == ["jj", "ripgrep"]
    assert "= {ripgrep, jj}" in key.line


def test_a_cardinality_mismatch_is_refused_and_writes_nothing(nick):
    write(nick, fact("40", "2025"))
    before = nick.facts("me", "shoe_size").keys[0].history
    with pytest.raises(CardinalityMismatch) as caught:
        write(nick, fact("44", "2027", cardinality="many"))
    assert caught.value.code == "facts/cardinality-mismatch" and caught.value.status == 422
    assert nick.facts("me", "shoe_size").keys[0].history == before


def test_a_request_with_any_violation_writes_nothing(nick):
    with pytest.raises(FactsValidationError) as caught:
        write(nick, fact("40", "2025"), fact("41", "2025-13"), {"subject": "Nick"})
    paths = {e.path for e in caught.value.errors}
    assert {"facts[1].valid_from", "facts[2].subject", "facts[2].attribute"} <= paths
    assert nick.facts().keys == () and nick.describe().documents == 0


def test_retraction_re_resolves_and_restores_the_earlier_value(nick):
    a, b = _shoe_size(nick)
    nick.retract(b, reason="the note was about someone else")
    (key,) = nick.facts("me", "shoe_size").keys
    assert [f.id for f in key.current] == [a]
    assert nick.fact(a).verdict == "active" and nick.fact(a).superseded_by is None
    assert [f.status for f in key.history] == ["retracted", "current"]
    assert [(h.from_verdict, h.to_verdict) for h in nick.history(a)] == [
        (None, "active"), ("active", "superseded"), ("superseded", "active")]
    with pytest.raises(FactNotFound):
        nick.retract(9999)
    # a second retraction says so and writes nothing
    before = nick.history(b)
    with pytest.raises(AlreadyRetracted, match="already retracted"):
        nick.retract(b, reason="again")
    assert nick.history(b) == before


def test_corroboration_answers_the_existing_fact_and_never_moves_time_back(nick):
    first = write(nick, fact("40", "2025", observed="2025-06-01T00:00:00Z")).facts[0]
    older = write(nick, fact("40", "2025-03", observed="2025-04-01T00:00:00Z")).facts[0]
    assert (older.outcome, older.id) == ("corroborated", first.id)
    assert older.fact.last_confirmed_at == datetime(2025, 6, 1, tzinfo=UTC)
    newer = write(nick, fact("40", observed="2025-09-01T00:00:00Z")).facts[0]
    assert newer.outcome == "corroborated"
    assert newer.fact.last_confirmed_at == datetime(2025, 9, 1, tzinfo=UTC)
    assert len(nick.facts("me", "shoe_size").keys[0].history) == 1


@pytest.mark.parametrize("as_of, value", [
    ("2025", "40"), ("2026", "41"), ("2025-12", "40"), ("2026-01", "41"),
    ("2025-12-31", "40"), ("2026-01-01", "41"), ("2025-12-31T23:59:59Z", "40"),
    ("2026-01-01T00:00:00Z", "41")])
def test_as_of_at_each_precision_means_the_end_of_that_period(nick, as_of, value):
    _shoe_size(nick)
    (key,) = nick.facts("me", "shoe_size", as_of=as_of).keys
    assert [f.value for f in key.current] == [value]


def test_known_at_reads_what_the_store_believed_then(nick):
    a, b = _shoe_size(nick)
    then = nick.facts("me", "shoe_size", known_at=datetime(2025, 6, 1, tzinfo=UTC))
    (key,) = then.keys
    assert [(f.id, f.status, f.effective_valid_to) for f in key.history] == [
        (a, "current", None)]
    assert then.known_at == datetime(2025, 6, 1, tzinfo=UTC)
    assert nick.facts("me", "shoe_size", known_at="2024").keys == ()


def test_secrets_are_redacted_before_storage_and_the_redaction_is_recorded(nick):
    written = write(nick, {"subject": "system/ci", "attribute": "deploy_token",
                           "value": "ghp_" + "a1" * 18,
                           "quote": "the token is ghp_" + "a1" * 18}).facts[0]
    assert "ghp_" not in written.fact.value and "[REDACTED:" in written.fact.value
    assert {r["field"] for r in written.redactions} == {"value", "quote"}
    assert nick.fact(written.id).meta["redactions"]
    assert "ghp_" not in json.dumps(nick.facts("system/ci").keys[0].line)


def test_shared_facts_are_kept_apart_from_personal_ones(open_store, nick):
    write(nick, fact("40", "2025"), shared=True)
    write(nick, fact("41", "2025"))
    # two scopes, two keys: no dispute between them
    assert nick.open_conflicts() == []
    other = open_store(user_id="someone-else")
    (key,) = other.facts("person/u0nick", "shoe_size").keys
    assert [f.value for f in key.history] == ["40"]


def test_answers_convert_to_frames_with_both_time_axes(nick):
    _shoe_size(nick)
    answer = nick.facts("me")
    frame = answer.to_pandas()
    assert len(frame) == 2 and {"valid_from_at", "observed_at", "recorded_at"} <= set(frame)
    assert answer.to_polars().height == 2
    assert answer.markdown().startswith("## Facts")


def test_timeline_facts_never_enter_the_density_check(nick):
    from tests.helpers import say

    _shoe_size(nick)
    result = say(nick, "shoe_size(person/u0nick) = 41 EU from 2026.", "STATE")
    assert result.outcomes[0].outcome == "written"


def test_bad_read_arguments_are_typed_errors(nick):
    with pytest.raises(InvalidInput):
        nick.facts(as_of="June")
    with pytest.raises(InvalidInput):
        nick.facts(limit=0)
    with pytest.raises(InvalidInput):
        nick.brief("  ")


def _archive():
    """A year of monthly readings with repeats, a backfill gap and a second key."""
    facts = []
    for i, value in enumerate(["40", "40", "41", "41", "41", "40", "42", "42", "41", "43"]):
        facts.append(fact(value, f"2025-{i + 1:02d}", observed=f"2025-{i + 1:02d}-20T00:00:00Z"))
    facts.append(fact("39", "2024", observed="2025-12-01T00:00:00Z"))
    facts.append({"subject": "me", "attribute": "uses_tool", "value": "jj",
                  "valid_from": "2025", "observed_at": "2025-02-01T00:00:00Z"})
    return facts


def _shape(store):
    return sorted((f.attribute, f.value, f.valid_from, f.status, f.effective_valid_to,
                   f.last_confirmed_at) for k in store.facts().keys for f in k.history)


@pytest.fixture()
def other_store(admin_dsn, database, embedder):
    """A second store on a database of its own, to compare two ways of writing."""
    name = database + "_b"
    server.ensure_database(admin_dsn, name)
    store = Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                       extractor=ScriptedExtractor(), user_id="nick")
    yield store
    store.close()
    server.drop_database(admin_dsn, name)


def test_backfill_matches_writing_the_same_facts_one_by_one(open_store, other_store):
    one_by_one = open_store(user_id="nick")
    for f in _archive():
        write(one_by_one, f)
    backfilled = other_store
    result = backfilled.backfill_facts(_archive())
    assert (result.created, result.corroborated, result.keys) == (8, 4, 2)
    assert _shape(backfilled) == _shape(one_by_one)


def test_backfill_rejects_everything_when_any_fact_is_invalid(nick):
    facts = _archive() * 6  # 72 facts: the bad one sits in the second chunk of 50
    facts[60] = {"subject": "me", "attribute": "shoe_size", "value": "", "valid_from": "2025"}
    with pytest.raises(FactsValidationError) as caught:
        nick.backfill_facts(facts)
    assert [e.path for e in caught.value.errors] == ["facts[60].value"]
    assert nick.facts().keys == ()


def test_resolution_never_deletes_a_stored_row(nick):
    created = []
    for f in _archive():
        created += [w.id for w in write(nick, f).facts if w.outcome == "created"]
    nick.retract(created[2], reason="bad reading")
    nick.retract(created[-2], reason="bad reading")
    write(nick, fact("44", "2025-03", observed="2026-01-01T00:00:00Z"))  # a dispute
    stored = {f.id for k in nick.facts().keys for f in k.history}
    assert set(created) <= stored
    assert {nick.fact(i).verdict for i in (created[2], created[-2])} == {"withdrawn"}


def test_a_key_longer_than_the_read_cap_shows_its_newest_history_and_a_short_line(nick):
    nick.backfill_facts([fact(str(30 + i % 7), f"{2000 + i}") for i in range(24)])
    (key,) = nick.facts("me", "shoe_size", limit=10).keys
    assert len(key.history) == 10 and key.history[0].valid_from == "2023"
    assert key.omitted == 14  # the answer says what the cap left out
    assert [f.valid_from for f in key.current] == ["2023"]
    assert key.line.endswith(", +18 more)")
    assert nick.facts("me", "shoe_size").keys[0].omitted == 0


def test_a_backfill_is_validated_whole_and_names_each_problem_at_its_index(store) -> None:
    from factstore.timelines.format_v1 import FactsValidationError

    facts = [{"subject": f"person/v{i}", "attribute": "city", "value": "Oslo",
              "source": f"archive:{i}", "observed_at": "2025-01-01T00:00:00Z"}
             for i in range(120)]
    bad = [dict(f) for f in facts]
    bad[3]["valid_from"] = "2025-13"
    bad[117]["attribute"] = "Not An Identifier"
    with pytest.raises(FactsValidationError) as raised:
        store.backfill_facts(bad)
    assert [e.path for e in raised.value.errors] == ["facts[3].valid_from",
                                                     "facts[117].attribute"]
    assert store.row_counts()["facts"] == 0
    assert store.backfill_facts(facts).created == 120  # past write_facts' cap of 50
    with pytest.raises(FactsValidationError, match="facts"):
        store.write_facts({"format": 1, "facts": facts[:51]})  # the request cap still holds
