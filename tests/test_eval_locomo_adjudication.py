"""The locomo-adjudication eval on a project-written LoCoMo-format conversation.

``tests/fixtures/evals/locomo_adjudication_small.json`` is one conversation (Ada, Ben), 36
turns in three sessions, written for this test (nothing copied from LoCoMo). Each speaker
says a dozen things about different things -- likings, attitudes, plans, idioms ("can't
wait", "couldn't be happier", "no doubt", "not bad at all"), negations about something
else ("... even when they're not with Audrey", "I'm not giving up") -- and three things
really change:

======================================  ==========================================  =====
old                                     new                                         lane
======================================  ==========================================  =====
Rex is 3 years old. (D1:5)              Rex is now 4 years old. (D2:7)              lane-1
Ben prefers tea over coffee. (D1:6)     Now Ben prefers coffee over tea. (D2:8)     revision
The community garden is closed right    The community garden is open right now.     revision
now. (D1:9)                             (D2:11)
======================================  ==========================================  =====

Run with the parser extractor (the default scribe) and the real MiniLM embedder through a
real store: exactly those three are superseded, nothing is parked, contested or in conflict.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.harness import run_eval
from evals.registry import get
from evals.suites.locomo_adjudication import (
    SAMPLE_SIZE,
    about_something_else,
    content_words,
    supersession_sample,
)
from factstore.extractors.parsed import ParserExtractor

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "evals" / \
    "locomo_adjudication_small.json"
UPDATES = {
    ("Rex is 3 years old.", "Rex is now 4 years old."),
    ("Ben prefers tea over coffee.", "Now Ben prefers coffee over tea."),
    ("The community garden is closed right now.", "The community garden is open right now."),
}


def test_registered_with_its_primary_metric_and_the_fixture_loads():
    spec = get("locomo-adjudication")
    assert spec.primary.name == "superseded_unrelated_per_1000"
    assert {m.name for m in spec.metrics} >= {"open_conflicts_per_1000", "park_share",
                                              "contested_share"}
    (conversation,) = spec.load(FIXTURE)
    assert sum(len(s["turns"]) for s in conversation["sessions"]) == 36
    assert len(conversation["qa"]) == 5


def test_the_pre_screen_flags_one_speakers_unrelated_claims_only():
    assert about_something_else("Sam loves hiking and the trails.",
                                "Sam wishes your motivation never goes anywhere.", ["Sam"])
    # a value replaced, a rewording, a shared word: not flagged
    assert not about_something_else("The garden is closed.", "The garden is open.", ["garden"])
    assert not about_something_else("web-1 runs 5 replicas.", "web-1 is now running 7 replicas.",
                                    ["web-1"])
    assert not about_something_else("Nate loves coconut milk.",
                                    "Nate knows one recipe using coconut milk.", ["Nate"])
    assert content_words("Sam is really into hiking!", ["sam"]) == ("hiking",)


def test_the_sample_is_deterministic_and_capped():
    pairs = [{"id": f"c:{i:03d}"} for i in range(120)]
    first, again = supersession_sample(pairs), supersession_sample(list(reversed(pairs)))
    assert first == again and len(first) == SAMPLE_SIZE
    assert [p["id"] for p in first] == sorted(p["id"] for p in first)
    assert supersession_sample(pairs[:7]) == pairs[:7]
    assert supersession_sample(pairs, seed=1) != first


@pytest.fixture(scope="module")
def parser() -> ParserExtractor:
    return ParserExtractor()


def test_only_the_real_updates_are_superseded_on_the_fixture(parser, embedder, home):
    record, outcome = run_eval("locomo-adjudication", extractor=parser, embedder=embedder,
                               dataset=FIXTURE, home=home)
    rows = outcome.items
    superseded = {(r["statement"], r["by_statement"]) for r in rows
                  if r["row"] == "superseded"}
    # every real change caught, and nothing else: no claim of one speaker about one thing
    # replaced another claim of theirs about another thing
    assert superseded == UPDATES
    assert all(r["same_asserter"] and not r["prescreen_unrelated"] for r in rows
               if r["row"] == "superseded")
    overall = outcome.notes["overall"]
    assert overall["superseded"] == 3 and overall["superseded_unrelated_prescreen"] == 0
    # the idioms are not negations: nothing parked; the negations about something else
    # meet nothing: no conflict, nothing served as contested
    assert overall["parked"] == 0 and outcome.notes["parked_quotes"] == []
    assert overall["open_conflicts"] == 0 and overall["recall_items_contested"] == 0
    assert overall["restated_across_negation"] == 0
    assert overall["recall_items"] > 0 and overall["questions"] == 5
    assert outcome.metrics["superseded_unrelated_per_1000"] == 0.0
    assert outcome.metrics["park_share"] == 0.0 and outcome.metrics["contested_share"] == 0.0
    # every fact of the conversation is counted, whatever its verdict
    assert overall["facts"] == sum(outcome.notes["by_conversation"]["conv-adj"][
        "verdicts"].values())
    # the sample: all three pairs (fewer than 50), in the notes and written out as JSONL
    sample = outcome.notes["supersession_sample"]
    assert {(p["statement"], p["by_statement"]) for p in sample} == UPDATES
    written = Path(outcome.notes["supersession_sample_file"])
    lines = [json.loads(line) for line in written.read_text(encoding="utf-8").splitlines()]
    assert lines == sample and written.is_relative_to(home)
    assert record.metrics["superseded_unrelated_per_1000"] == 0.0
