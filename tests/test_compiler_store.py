"""The compiler on the write path, through the Store, on the real embedded Postgres.

"We moved to Lisbon in March" must end "we live in Porto", serve Lisbon as current and
Porto as history, and answer as of any date; the kind-typed fact that states Porto moves
with the timeline. Then populations: a generated stream in every arrival order, and
``remember_many`` against one-by-one ``remember``, compared through the Store.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from factstore.errors import AttributeNotFound, InvalidInput
from factstore.extractors.parsed import ParserExtractor

OLD, NEW = "2025-02-10T09:00:00Z", "2026-06-10T09:00:00Z"
ASKED = datetime(2026, 12, 7, 12, tzinfo=UTC)


@pytest.fixture()
def parsed(open_store):
    """A store with the parser scribe, so kind-typed facts are written beside timelines."""
    return open_store(extractor=ParserExtractor(), user_id="nick")


def _current(store, question: str, **kw) -> list[str]:
    return [f"{f.value} {f.unit}".strip() if f.unit else f.value
            for key in store.recall(question, now=ASKED, **kw).answers for f in key.current]


def _as_of(store, question: str, when: str) -> list[str]:
    return [f.value for key in store.brief(question, as_of=when).keys for f in key.current]


@pytest.mark.parametrize(("old", "new", "question", "key", "was", "now"), [
    ("We live in Porto.", "We moved to Lisbon in March.", "Where do we live?",
     ("person/nick", "lives_in"), "Porto", "Lisbon"),
    ("I work at Globex as a data analyst.",
     "I left Globex last month and joined Initech as a data engineer.", "Where do I work?",
     ("person/nick", "employer"), "Globex", "Initech"),
    ("my shoe size is 40", "my shoe size is now 41", "What is my shoe size?",
     ("person/nick", "shoe_size"), "40", "41"),
    ("web-1 runs 5 replicas right now.", "web-1 is now running 7 replicas.",
     "How many replicas does web-1 run?", ("system/web-1", "replicas"), "5", "7"),
    ("Hannelore Brandt is the engineering manager.", "Hannelore Brandt is the head of design.",
     "What is Hannelore Brandt's role?", ("person/hannelore-brandt", "job_title"),
     "engineering manager", "head of design"),
])
def test_the_probe_updates_are_noticed(parsed, old, new, question, key, was, now) -> None:
    first = parsed.remember(old, said_at=OLD)
    second = parsed.remember(new, said_at=NEW)
    assert first.timeline and second.timeline, (first.compile_refusals,
                                               second.compile_refusals)
    timeline = parsed.facts(*key)
    assert [f.value for f in timeline.keys[0].current] == [now]
    assert _current(parsed, question) == [now]
    assert _as_of(parsed, question, "2025-12") == [was]
    # the kind-typed fact that states the old value is history, not a second current truth
    # (superseded by the timeline's move, or by the kind layer's own triage when both
    # facts are of one kind: either way, the same verdict)
    for fact in first.facts:
        if was.split()[0].lower() in fact.statement.lower():
            assert parsed.fact(fact.id).verdict.value == "superseded"
    served = [i.fact.statement for i in parsed.recall(question, now=ASKED).items
              if i.fact is not None and i.label.present_tense]
    assert not any(was.lower() in s.lower() and now.lower() not in s.lower() for s in served)


def test_the_move_is_an_event_dated_by_its_relative_time(parsed) -> None:
    parsed.remember("We live in Porto.", said_at=OLD)
    moved = parsed.remember("We moved to Lisbon in March.", said_at=NEW)
    events = [o.fact for o in moved.outcomes if o.fact.kind.value == "EVENT"]
    assert events and events[0].event_at == datetime(2026, 3, 1, tzinfo=UTC)
    assert events[0].event_at_source == "text"


@pytest.mark.parametrize(("old", "ended"), [
    ("I live in Utrecht.", "I no longer live in Utrecht."),
    ("Project Fjord is led by Paola.", "Paola no longer leads Project Fjord."),
])
def test_a_value_ended_with_nothing_after_it_supersedes_its_fact(parsed, old, ended) -> None:
    first = parsed.remember(old, said_at=OLD)
    parsed.remember(ended, said_at=NEW)
    stating = [f for f in first.facts if f.kind.value != "EVENT"]
    assert stating
    for fact in stating:
        now = parsed.fact(fact.id)
        assert now.verdict.value == "superseded"
        # superseded by what says it ended: the ending statement, or the timeline fact
        # whose end says so when nothing else did
        assert now.superseded_by is not None
    assert _current(parsed, "Where do I live?" if "live" in old else
                    "Who leads Project Fjord?") == []


def test_a_value_handed_over_in_an_ellipsis_is_current(parsed) -> None:
    parsed.remember("Project Fjord is led by Paola.", said_at=OLD)
    parsed.remember("Paola no longer leads Project Fjord; Rohan does.", said_at=NEW)
    assert _current(parsed, "Who leads Project Fjord?") == ["Rohan"]
    assert _as_of(parsed, "Who leads Project Fjord?", "2025-12") == ["Paola"]


def test_retracting_the_update_brings_the_old_fact_back(parsed) -> None:
    first = parsed.remember("We live in Porto.", said_at=OLD)
    parsed.remember("We moved to Lisbon in March.", said_at=NEW)
    porto = first.facts[0]
    assert parsed.fact(porto.id).verdict.value == "superseded"
    assert parsed.history(porto.id)[-1].reason_code == "timeline_moved_on"
    lisbon = next(f for f in parsed.facts("person/nick", "lives_in").keys[0].history
                  if f.value == "Lisbon")
    parsed.retract(lisbon.id, reason="said by mistake")
    assert parsed.fact(porto.id).verdict.value == "active"
    assert parsed.history(porto.id)[-1].reason_code == "timeline_holds_again"
    assert _current(parsed, "Where do we live?") == ["Porto"]


def test_a_rerun_writes_nothing_and_logs_once(parsed) -> None:
    parsed.remember("web-1 runs 5 replicas right now.", said_at=OLD, source_ref="ops#1")
    before = parsed.describe().facts_by_kind_verdict
    again = parsed.remember("web-1 runs 5 replicas right now.", said_at=OLD,
                            source_ref="ops#1")
    assert [outcome for _, outcome in again.timeline] == ["unchanged"]
    assert parsed.describe().facts_by_kind_verdict == before
    assert len(parsed.compile_log(outcome="written")) == 1


def test_a_capture_with_no_time_is_refused_and_named_in_the_log(parsed) -> None:
    results = parsed.remember_many([{"text": "web-1 runs 5 replicas."}])
    assert results[0].timeline == ()
    refused = parsed.compile_log(outcome="refused")
    assert refused and refused[0].reason.startswith("no time")
    dated = parsed.remember_many([{"text": "web-2 runs 4 replicas.", "said_at": OLD}])
    assert dated[0].timeline


def test_an_event_word_key_is_refused_with_its_reason(parsed) -> None:
    parsed.remember("Our monthly outage count is 3.",
                    said_at=NEW)
    reasons = [e.reason for e in parsed.compile_log(outcome="refused")]
    assert any("names an event" in r for r in reasons)
    assert parsed.facts().keys == ()


def test_non_updates_leave_the_value_alone(parsed) -> None:
    parsed.remember("We live in Porto.", said_at=OLD)
    for text in ("We might move to Lisbon someday.", "We did not move to Lisbon after all.",
                 "My sister moved to Lisbon.", "We spent a weekend in Lisbon in March."):
        parsed.remember(text, said_at=NEW)
    assert _current(parsed, "Where do we live?") == ["Porto"]
    parsed.remember("I speak Portuguese.", said_at=OLD)
    parsed.remember("I also speak French now.", said_at=NEW)
    assert sorted(_current(parsed, "Which languages do I speak?")) == ["French",
                                                                        "Portuguese"]


def test_the_registry_learns_keys_and_merges_near_synonyms(parsed) -> None:
    parsed.remember("My weekly running goal is 30 km.", said_at=OLD)
    learned = {a.key: a for a in parsed.attributes(origin="learned")}
    assert "weekly_running_goal" in learned
    assert "weekly running goal" in learned["weekly_running_goal"].aliases
    parsed.remember("My running target is 20 km.", said_at=OLD)
    merged = parsed.merge_attribute("running_target", "weekly_running_goal")
    assert merged.merged_into == "weekly_running_goal"
    parsed.remember("My running target is now 25 km.", said_at=NEW)
    goal = parsed.facts("person/nick", "weekly_running_goal").keys[0]
    assert [f.value for f in goal.current] == ["25"]
    with pytest.raises(AttributeNotFound):
        parsed.merge_attribute("no_such_key", "employer")
    with pytest.raises(InvalidInput, match="one cardinality"):
        parsed.merge_attribute("speaks", "employer")


CITIES = ["Porto", "Lisbon", "Berlin", "Osaka", "Toronto"]
HOSTS = ["web-1", "web-2", "svc-orders"]


def _stream(seed: int) -> list[dict]:
    """A generated stream: people moving, hosts rescaled, restatements and non-updates,
    each capture with its own time."""
    rng = random.Random(seed)
    start = datetime(2024, 1, 1, 9, tzinfo=UTC)
    captures = []
    for day in range(0, 24):
        when = (start + timedelta(days=20 * day)).isoformat().replace("+00:00", "Z")
        person = rng.choice(["Ana", "Ben", "Chidi"])
        choice = rng.random()
        if choice < 0.35:
            text = f"{person}: we moved to {rng.choice(CITIES)} last month"
        elif choice < 0.6:
            text = f"{rng.choice(HOSTS)} is now running {rng.randint(2, 9)} replicas."
        elif choice < 0.75:
            text = f"{person}: we live in {rng.choice(CITIES)}"
        elif choice < 0.9:
            text = f"{person}: we might move to {rng.choice(CITIES)} someday"
        else:
            text = f"{person}: I did not move to {rng.choice(CITIES)} after all"
        captures.append({"text": text, "said_at": when, "source_ref": f"s{day}"})
    return captures


def _tables(store) -> tuple:
    """What the timelines say, independent of ids and arrival: per key, each value's
    range and status; and the kind-typed facts' verdicts by statement."""
    keys = []
    for key in store.facts().keys:
        keys.append((key.subject, key.attribute, tuple(sorted(
            (f.value, f.valid_from or "", f.effective_valid_to or "", f.status)
            for f in key.history))))
    facts = sorted((f.statement, f.verdict.value) for f in store.facts_by_verdict(
        limit=10_000) if f.attribute is None)
    return tuple(sorted(keys)), tuple(facts)


def test_every_arrival_order_gives_the_same_timelines(fresh_stores) -> None:
    captures = _stream(3)
    orders = [captures, captures[::-1], random.Random(5).sample(captures, len(captures))]
    seen = []
    for order in orders:
        store = fresh_stores(extractor=ParserExtractor(), user_id="nick")
        for capture in order:
            store.remember(capture["text"], said_at=capture["said_at"],
                           source_ref=capture["source_ref"])
        seen.append(_tables(store))
    assert seen[0][0], "the stream compiled to no timeline"
    assert seen[0][0] == seen[1][0] == seen[2][0]


def test_remember_many_and_one_by_one_give_the_same_tables(fresh_stores) -> None:
    captures = _stream(9)
    one = fresh_stores(extractor=ParserExtractor(), user_id="nick")
    for capture in captures:
        one.remember(capture["text"], said_at=capture["said_at"],
                     source_ref=capture["source_ref"])
    many = fresh_stores(extractor=ParserExtractor(), user_id="nick")
    many.remember_many(captures)
    assert _tables(one) == _tables(many)


def _holders(answers) -> list[str]:
    return sorted(key.subject for key in answers if key.holder)


def test_a_question_naming_a_value_is_answered_by_who_holds_it(parsed) -> None:
    parsed.remember("Ugo leads Project Driftwood.", said_at="2025-01-10T09:00:00Z")
    parsed.remember("Ugo now also leads Project Fjord.", said_at="2025-06-10T09:00:00Z")
    parsed.remember("Oren is on the Identity team.", said_at="2025-01-10T09:00:00Z")
    parsed.remember("Chiara joined the Identity team in March.", said_at="2025-04-10T09:00:00Z")
    parsed.remember("Oren moved to the Search team in September.",
                    said_at="2025-10-01T09:00:00Z")
    asked = "Which projects does Ugo lead?"
    assert _holders(parsed.recall(asked, now=ASKED).answers) == [
        "project/project-driftwood", "project/project-fjord"]
    assert _holders(parsed.brief(asked, as_of="2025-03").keys) == ["project/project-driftwood"]
    team = "Who is on the Identity team?"
    # a holder answers only while it holds the value: Oren left in September
    assert _holders(parsed.recall(team, now=ASKED).answers) == ["person/chiara"]
    assert _holders(parsed.brief(team, as_of="2025-05").keys) == ["person/chiara",
                                                                  "person/oren"]
    # a question about a subject reads the subject's own key, never holders
    forward = parsed.recall("Which team is Oren on?", now=ASKED).answers
    assert [(k.subject, k.holder) for k in forward] == [("person/oren", False)]
    assert _current(parsed, "Who leads Project Fjord?") == ["Ugo"]
