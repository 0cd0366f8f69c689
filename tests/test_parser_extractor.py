"""The parser-based extractor (parser/v1): clauses, kinds, roles, negation, speakers."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals.registry import DATA
from factstore.errors import InvalidInput
from factstore.extractors import extractor_from_name
from factstore.extractors.base import ExtractionContext
from factstore.extractors.parsed import ParserExtractor
from factstore.extractors.turns import split_turns
from factstore.kinds import Kind
from factstore.settings import Settings
from factstore.writepath.prepare import prepare_capture


@pytest.fixture(scope="module")
def parser() -> ParserExtractor:
    return ParserExtractor()


def kinds(parser: ParserExtractor, text: str) -> list[str]:
    return [f.kind for f in parser.extract(text)]


@pytest.mark.parametrize(("text", "kind"), [
    ("I painted that lake sunrise last year.", Kind.EVENT),
    ("My sister lives in Lisbon now.", Kind.STATE),
    ("The nightly job is green.", Kind.STATE),
    ("I prefer tea over coffee in the mornings.", Kind.PREFERENCE),
    ("Never deploy on Fridays.", Kind.RULE),
    ("Backups must be tested every quarter.", Kind.RULE),
    ("We decided to keep the billing db on postgres 15.", Kind.DECISION),
    ("We'll move the board to the new room next week.", Kind.DECISION),
    ("The runbook is at docs/runbooks/payments.md.", Kind.REFERENCE),
    ("The cache might be stale after a failover.", Kind.RESIDUAL),
])
def test_kinds_come_from_structure_tense_and_modality(parser, text, kind):
    assert kinds(parser, text) == [kind.value]


@pytest.mark.parametrize("text", [
    "Hey Mel! Good to see you!", "What's up with you?", "Wow, that's cool, Caroline!",
    "Did you hear any inspiring stories?", "Thanks!", "lol yeah",
])
def test_greetings_questions_and_backchannel_yield_nothing(parser, text):
    assert parser.extract(text) == []


def test_clauses_split_by_the_parse_not_by_commas(parser):
    two = parser.extract("I moved to Denver last year and my brother still lives in Ohio.")
    assert [(f.kind, f.quote) for f in two] == [
        ("EVENT", "I moved to Denver last year"), ("STATE", "my brother still lives in Ohio")]
    # a subordinate clause is part of its head's assertion
    one = parser.extract("Because the cache was cold, the first request took 2s.")
    assert [f.quote for f in one] == ["Because the cache was cold, the first request took 2s"]
    # a semicolon splits only between two clauses with subjects of their own
    assert len(parser.extract("Staging was rebuilt on Tuesday; prod still runs the old image.")) == 2
    assert len(parser.extract("Everything goes through staging; no exceptions.")) == 1


@pytest.mark.parametrize(("text", "quotes"), [
    # a comma-set "which" clause with its own subject, or saying what the clause means
    ("The billing service runs on ECS, which we're planning to move off next year.",
     ["The billing service runs on ECS", "which we're planning to move off next year"]),
    ("We hit our hiring target in Q1, which means the new pod starts in April.",
     ["We hit our hiring target in Q1", "which means the new pod starts in April"]),
    # a fronted clause the parser hangs under the next one, before ", so"
    ("Leo hates flying, so he takes the train to every conference.",
     ["Leo hates flying", "he takes the train to every conference"]),
    # subjects the small parser mislabels: "legal" as a modifier, "Tim's" as a possessive
    ("The contract renews in March, and legal wants the redlines by February.",
     ["The contract renews in March", "legal wants the redlines by February"]),
    ("Joanna prefers Python, and Tim's more of a Go person.",
     ["Joanna prefers Python", "Tim's more of a Go person"]),
    # a speaker's taste is news even when it points back
    ("i just got back from Lisbon and honestly i prefer it to Madrid",
     ["i just got back from Lisbon", "i prefer it to Madrid"]),
    # a back reference inside a noun phrase does not tie the part to the clause before
    ("Nina's team owns the data warehouse, but they don't own the dashboards built on it.",
     ["Nina's team owns the data warehouse", "they don't own the dashboards built on it"]),
    # an agent-less report and two imperatives split at a semicolon
    ("Restored the orders table last night; I can't stand doing restores by hand.",
     ["Restored the orders table last night", "I can't stand doing restores by hand"]),
    ("Always run the linter before pushing; separately, never merge your own PR.",
     ["Always run the linter before pushing", "separately, never merge your own PR"]),
])
def test_two_assertions_in_one_sentence_become_two_facts(parser, text, quotes):
    assert [f.quote for f in parser.extract(text)] == quotes


@pytest.mark.parametrize("text", [
    "the rate limiter doesn't handle clock skew, which could let bursts through",
    "Known issue, won't fix: the migration tool can't resume after a crash, "
    "so you rerun it from the start.",
    "I went to a grief support meeting on Tuesday and it really helped.",
])
def test_a_consequence_that_leans_on_its_clause_stays_one_fact(parser, text):
    assert len(parser.extract(text)) == 1


def test_a_negated_imperative_is_a_rule_and_a_present_passive_a_state(parser):
    assert kinds(parser, "Don't merge without a green build.") == ["RULE"]
    assert kinds(parser, "No upgrade PRs are being opened.") == ["STATE"]
    assert kinds(parser, "The upgrade PR was merged.") == ["EVENT"]


def test_roles_and_negation_are_read_from_the_parse(parser):
    (fact,) = parser.extract("We decided to keep the billing db on postgres 15.")
    assert (fact.subject, fact.predicate) == ("the team", "decided to keep")
    assert fact.object.startswith("the billing db")
    flags = {text: parser.extract(text)[0].negated for text in (
        "The cat is not fat.", "The cat is fat.", "We never deploy on Fridays.",
        "Nobody reviewed the patch.", "The job ran without errors.", "The job ran fine.")}
    assert flags == {"The cat is not fat.": True, "The cat is fat.": False,
                     "We never deploy on Fridays.": True, "Nobody reviewed the patch.": True,
                     "The job ran without errors.": True, "The job ran fine.": False}


def test_a_chat_turn_speaker_is_the_asserter_and_i_is_them(parser):
    text = ("alice: payments-api p99 is 2s since the v2 rollout\n"
            "bob: I'm rolling it back on friday\ncarol: Never deploy on Fridays.")
    facts = parser.extract(text, ExtractionContext(captured_by="ops-bot"))
    assert [f.asserter for f in facts] == ["alice", "bob", "carol"]
    assert facts[1].statement == "Bob is rolling it back on friday."
    for fact in facts:
        assert not fact.quote.startswith(("alice:", "bob:", "carol:"))
        assert not (fact.subject or "").lower().startswith(("alice", "bob:", "carol"))
        assert {"alice", "bob", "carol"}.isdisjoint(t.lower() for t in fact.topics)


def test_prose_keeps_first_person_as_the_user(parser):
    (fact,) = parser.extract("I prefer dark-mode editors.")
    assert fact.asserter is None and fact.statement == "The user prefers dark-mode editors."


def test_a_generated_chat_never_crosses_turns(parser):
    rng = random.Random(7)
    speakers = [f"user{n}" for n in range(8)]
    services = [f"svc-{n}" for n in range(12)]
    templates = ["{s} is green right now.", "I restarted {s} yesterday.",
                 "We decided to move {s} to the new cluster.", "Never restart {s} by hand.",
                 "I prefer the {s} dashboard.", "{s} might lose writes during a failover.",
                 "What happened to {s}?", "thanks!"]
    lines = [f"{rng.choice(speakers)}: {rng.choice(templates).format(s=rng.choice(services))}"
             for _ in range(60)]
    text = "\n".join(lines)
    turns = split_turns(text)
    facts = parser.extract(text)
    assert len(facts) >= 30
    position = 0
    for fact in facts:  # in source order, so each quote is found after the one before
        start = text.index(fact.quote, position)
        end = position = start + len(fact.quote)
        owner = next(t for t in turns if t.start <= start and end <= t.end)
        assert fact.asserter == owner.speaker
        assert fact.asserter not in fact.statement.split(":")[0].split()[1:]
        assert not fact.statement.lower().startswith(tuple(f"{s}:" for s in speakers))


def test_real_chat_text_anchors_every_quote(parser):
    """The project's LoCoMo-format fixture, each turn as its chat line."""
    (conversation,) = json.loads((DATA / "locomo.json").read_text())
    lines = [f"{turn['speaker']}: {turn['text']}"
             for key, session in conversation["conversation"].items()
             if key.startswith("session_") and isinstance(session, list) for turn in session]
    kept = dropped = 0
    for line in lines:
        prepared = prepare_capture(line, ExtractionContext(), parser, Settings())
        kept += len(prepared.facts)
        dropped += len(prepared.dropped)
        assert all(f.roles.get("asserter") == line.split(":")[0] for f in prepared.facts)
    assert dropped == 0 and kept >= len(lines) // 2


def test_the_same_text_always_yields_the_same_facts(parser):
    text = "We ran the chaos drill on Wednesday; the failover took 90 seconds."
    assert parser.extract(text) == parser.extract(text) == ParserExtractor(
        parser._pipeline()).extract(text)


def test_bad_input_is_a_typed_error_and_the_spec_names_it(parser):
    with pytest.raises(InvalidInput, match="text must be a string"):
        parser.extract(b"bytes")  # type: ignore[arg-type]
    assert extractor_from_name("parser").name == "parser/v1"
    assert extractor_from_name("rules").name == "rules/v1"


def test_a_store_writes_the_roles_and_the_asserter(open_store, parser):
    store = open_store(extractor=parser)
    result = store.remember("alice: The billing db is not on postgres 16 yet.\n"
                            "bob: I moved the cron job to the new host yesterday.")
    facts = [o.fact for o in result.outcomes]
    assert [(f.asserter, f.negated, f.kind.value) for f in facts] == [
        ("alice", True, "STATE"), ("bob", False, "EVENT")]
    assert facts[1].statement == "Bob moved the cron job to the new host yesterday."
    again = store.fact(facts[1].id)
    assert (again.predicate, again.object) == ("moved", "the cron job to the new host yesterday")
    assert again.evidence_captured_by != "bob"


_PIECES = st.sampled_from([
    "alice: ", "Bob: ", "\n", "; ", ", and ", " but ", "I ", "we ", "never ", "not ", "no ",
    "deployed ", "is ", "must ", "prefer ", "the db ", "payments-api ", "v2 ", "p99 ", "2s ",
    "on Friday", "yesterday", ". ", "? ", "!", "https://x.test/a ", "`code;` ", "\"quoted.\" ",
    "Decision: ", "Known issue: ", "it ", "which ", "ü", "\t", "   ", "🙂",
])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=30))
def test_any_text_yields_anchored_facts_or_nothing(parser, parts):
    """A fuzz corpus: whatever the text, extraction returns facts whose quotes anchor in it,
    never carry a speaker prefix and whose asserter is one of its turns' speakers."""
    text = "".join(parts)
    facts = parser.extract(text)
    speakers = {t.speaker for t in split_turns(text)}
    for fact in facts:
        assert fact.quote and fact.quote in text
        assert fact.asserter in speakers
        assert fact.kind in {k.value for k in Kind}
        assert fact.statement.endswith(".")
    prepared = prepare_capture(text, ExtractionContext(), parser, Settings())
    assert not prepared.dropped  # every quote the parser writes passes anchor hygiene
