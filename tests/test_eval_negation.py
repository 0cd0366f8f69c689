"""Eval ``negation-identity`` on an eight-row fixture whose every figure is known by hand.

The fixture (tests/fixtures/evals/negation_identity.jsonl) has five negation rows (n1 plain
"not", n2 "never", n3 "no longer", n4 a double negation rewritten away, n5 a lexical
inversion) and three identity rows (i1 two people, i2 two hosts, i3 the user and a person).
The metric test scripts the guards' verdicts so only the eval's counting is under test:

- polarity guard: catches n1-n3's inverted statements, misses n4 and n5 (the lexical one),
  and falsely flags n2's faithful statement;
- identity guard: catches i1 and i2's mangled statements, misses i3's, and falsely flags
  i3's faithful statement.

So inversions caught 3/5, false flags 1/5, identity caught 2/3, identity false flags 1/3,
lexical inversions caught 0/1, marker inversions caught 3/4, and of the 8 faithful statements
2 are refused by some guard. The scripted extractor returns one inverted fact for n1's
capture and one mangled fact for i1's: one reproduction for each guard out of 2 facts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evals.harness import run_eval
from evals.suites import negation
from evals.suites.negation import load
from factstore import Settings
from tests.helpers import ScriptedExtractor, fact

FIXTURES = Path(__file__).parent / "fixtures" / "evals"
ROWS = FIXTURES / "negation_identity.jsonl"
SICK = FIXTURES / "sick_tiny.tsv"
CONDAQA = FIXTURES / "condaqa_tiny.jsonl"
HOSSAIN = Path(__file__).parent / "fixtures" / "datasets" / "hossain"

POLARITY_FLAGS = {
    "The backup job is running tonight.": "polarity: n1 inverted",
    "The team deploys on Fridays.": "polarity: n2 inverted",
    "The old exporter still runs.": "polarity: n3 inverted",
    "The team never deploys on Fridays.": "polarity: n2 faithful (a false flag)",
}
IDENTITY_FLAGS = {
    "Omar owns the payments queue.": "identity: i1 mangled",
    "build-13 is out of disk.": "identity: i2 mangled",
    "The user prefers short standups.": "identity: i3 faithful (a false flag)",
}


class NullEmbedder:
    """This eval never embeds; calling it is a test failure."""

    name = "test/null"
    dim = 3

    def embed(self, texts: Any) -> Any:
        raise AssertionError("negation-identity must not embed")


@pytest.fixture()
def scripted_guards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(negation, "polarity_mismatch",
                        lambda statement, quote: POLARITY_FLAGS.get(statement))
    monkeypatch.setattr(negation, "identity_mismatch",
                        lambda statement, quote, **_: IDENTITY_FLAGS.get(statement))


def reproducing_extractor() -> ScriptedExtractor:
    """One inverted fact for n1's capture, one mangled fact for i1's; nothing for the rest."""
    rows = {row["id"]: row for row in load(ROWS)}
    extractor = ScriptedExtractor()
    extractor.add(rows["n1"]["text"], fact("The backup job is running tonight.",
                                           quote="The backup job is not running tonight"))
    extractor.add(rows["i1"]["text"], fact("Omar owns the payments queue.",
                                           quote="Keiko owns the payments queue"))
    return extractor


def _run(home: Path, **kwargs: Any) -> Any:
    kwargs.setdefault("settings", Settings())
    kwargs.setdefault("dataset", ROWS)
    kwargs.setdefault("extractor", reproducing_extractor())
    return run_eval("negation-identity", embedder=NullEmbedder(), home=home, **kwargs)


def test_metrics_match_the_hand_computed_values(scripted_guards: None, home: Path) -> None:
    record, outcome = _run(home)
    assert record.metrics == pytest.approx({
        "inversions_caught": 3 / 5, "false_flag_rate": 1 / 5,
        "identity_caught": 2 / 3, "identity_false_flag_rate": 1 / 3,
        "lexical_inversions_caught": 0.0, "marker_inversions_caught": 3 / 4,
        "guards_false_flag_rate": 2 / 8,
        "extractor_facts": 2, "extractor_polarity_flags": 1, "extractor_identity_flags": 1,
    })
    assert list(record.metrics)[0] == "inversions_caught"  # the primary metric
    items = {item["id"]: item for item in outcome.items}
    assert len(items) == 8
    assert [pid for pid, i in items.items() if i["caught"]] == ["n1", "n2", "n3", "i1", "i2"]
    assert [pid for pid, i in items.items() if i["false_flag"]] == ["n2", "i3"]
    assert items["n5"]["lexical"] and not items["n4"]["lexical"]
    assert items["n2"]["reason_false_flag"] == "polarity: n2 faithful (a false flag)"
    assert items["i3"]["faithful_guards"] == ["identity: i3 faithful (a false flag)"]
    notes = outcome.notes
    assert notes["missed"] == [{"id": "n4", "shape": "negation"},
                               {"id": "n5", "shape": "negation"},
                               {"id": "i3", "shape": "identity"}]
    assert [f["capture"] for f in notes["extractor_flags"]] == ["n1", "i1"]
    assert notes["extractor"] == "scripted/test"


def test_the_real_guards_catch_the_plain_shapes(home: Path) -> None:
    # Only the rows whose verdict does not hang on a judgement call are pinned here; the
    # guards' own tests cover the rest.
    record, outcome = _run(home)
    items = {item["id"]: item for item in outcome.items}
    for pid in ("n1", "n2", "n3"):  # not, never, no longer
        assert items[pid]["caught"] and not items[pid]["false_flag"], items[pid]
    for pid in ("i1", "i2", "i3"):  # two people, two hosts, the user and a person
        assert items[pid]["caught"] and not items[pid]["false_flag"], items[pid]
    assert items["i3"]["reason_caught"] == ("identity: the statement is about Omar but its "
                                            "quote is about the user")
    assert record.metrics["identity_caught"] == 1.0
    assert record.metrics["identity_false_flag_rate"] == 0.0
    # The extractor's inverted and mangled facts are found by the real guards too.
    assert record.metrics["extractor_polarity_flags"] == 1
    assert record.metrics["extractor_identity_flags"] == 1


def test_record_appends_one_note_to_question_1_and_never_resolves_it(
        scripted_guards: None, home: Path, store: Any, open_store: Any) -> None:
    before = {q.id: q for q in store.open_questions()}
    # The harness closes the store it is given, so it gets its own on this test's database.
    record, outcome = _run(home, record=True, store_factory=open_store)
    after = {q.id: q for q in store.open_questions()}
    question = after[1]
    assert len(question.evidence) == len(before[1].evidence) + 1
    note = question.evidence[-1]
    assert note.recorded_by == "eval:negation-identity"
    assert record.run_id in note.note and "scripted/test" in note.note
    assert "3 of 5 inversions" in note.note and "2 of 3 identity mangles" in note.note
    assert "2 fact(s), 1 flagged by the polarity guard and 1 by the identity guard" in note.note
    assert "still unconfirmed" in note.note and "(run 1 of this eval" in note.note
    assert outcome.notes["evidence"] == note.note
    assert question.status == before[1].status  # never resolved by an eval
    assert {qid: len(q.evidence) for qid, q in after.items() if qid != 1} == {
        qid: len(q.evidence) for qid, q in before.items() if qid != 1}
    # A second recorded run says it is the second.
    _run(home, record=True, store_factory=open_store)
    latest = {q.id: q for q in store.open_questions()}[1]
    assert "(run 2 of this eval" in latest.evidence[-1].note
    assert latest.status == before[1].status


def test_external_pairs_are_judged_by_their_polarity_truth(
        scripted_guards: None, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    # SICK: entailment keeps polarity (both entailment pairs), other labels are not judged.
    sick = load(SICK)
    assert [(r["id"], r["preserved"]) for r in sick] == [("11", True), ("12", True),
                                                         ("13", None), ("14", None)]
    flags = {"A cat is asleep on the sofa": "polarity: a false flag"}
    monkeypatch.setattr(negation, "polarity_mismatch", lambda s, q: flags.get(s))
    record, outcome = _run(home, dataset=SICK)
    assert record.metrics["false_flag_rate"] == 0.5
    assert record.metrics["inversions_caught"] is None  # SICK has no inverted pairs
    assert record.metrics["identity_caught"] is None
    assert record.metrics["extractor_facts"] is None  # no captures to extract from
    assert outcome.notes["counts"]["pairs_excluded"] == 2 and len(outcome.items) == 2

    # CondaQA: the edited sentence is the statement, the original sentence its quote.
    condaqa = {r["source_label"]: r for r in load(CONDAQA)}
    assert condaqa["paraphrase"]["preserved"] is True
    assert condaqa["affirmative"] == {**condaqa["affirmative"], "preserved": False,
                                      "unit": "sentence", "lexical": False,
                                      "quote": "It does not stop at the north pier.",
                                      "statement": "It stops at the north pier."}
    flags.clear()
    flags["It stops at the north pier."] = "polarity: caught"
    record, outcome = _run(home, dataset=CONDAQA)
    assert record.metrics["inversions_caught"] == 1.0
    assert record.metrics["marker_inversions_caught"] == 1.0  # the cue "not" is a marker
    assert record.metrics["false_flag_rate"] == 0.0
    assert outcome.notes["by_source"] == {"condaqa/sentence": {
        "inverted": 1, "caught": 1, "preserved": 1, "false_flags": 0}}


def test_hossain_sets_gain_their_sentence_versus_negation_pairs() -> None:
    rows = load(HOSSAIN)
    inverted = [r for r in rows if r["source_label"] == "inverted"]
    assert inverted and all(r["preserved"] is False and r["lexical"] is False
                            for r in inverted)
    assert all(r["preserved"] is None for r in rows if r["source_label"] != "inverted")
