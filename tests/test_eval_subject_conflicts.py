"""Eval ``subject-conflicts`` on an eight-pair fixture, through a real store and MiniLM.

The fixture has two changed values (c1 a status, c2 a weekday), a negation below the density
threshold (n1, cosine 0.79), two rewordings (r1, r2), two pairs about other subjects (s1,
s2) and one about another attribute of the same subject (o1). With the store's defaults
every pair goes the right way; with the band below the threshold switched off, c1 (cosine
0.77) and n1 are missed, which is what the metrics must show.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.harness import run_eval
from evals.suites.subject_conflicts import load
from factstore import Settings
from factstore.errors import InvalidInput
from tests.helpers import ScriptedExtractor

FIXTURES = Path(__file__).parent / "fixtures" / "evals"
PAIRS = FIXTURES / "subject_conflicts_small.jsonl"
SICK = FIXTURES / "sick_tiny.tsv"


def _run(embedder, home: Path, settings: Settings | None = None):
    return run_eval("subject-conflicts", extractor=ScriptedExtractor(), embedder=embedder,
                    home=home, settings=settings or Settings(), dataset=PAIRS)


def test_the_defaults_get_every_pair_right(embedder, home: Path) -> None:
    record, outcome = _run(embedder, home)
    assert record.metrics == {
        "false_cross_subject_conflicts": 0.0, "missed_same_subject_changes": 0.0,
        "paraphrase_interrupts": 0.0, "other_aspect_conflicts": 0.0,
        "paraphrase_testimony": 1.0, "negation_below_threshold_caught": 1.0}
    results = {item["id"]: item for item in outcome.items}
    assert results["c1"]["lane"] == "revision" and results["c2"]["lane"] == "lane-3"
    assert results["n1"]["cosine"] < 0.80 and results["n1"]["result"] == "caught"
    assert {results[i]["result"] for i in ("s1", "s2", "o1")} == {"separate"}
    assert outcome.notes["failure_count"] == 0
    sweep = outcome.notes["floor_sweep"]["subject_floor"]["sweep"]
    assert [row["floor"] for row in sweep][0] == 0.3 and sweep[-1]["floor"] == 0.8


def test_switching_the_band_off_shows_up_as_missed_changes(embedder, home: Path) -> None:
    record, outcome = _run(embedder, home, Settings(contradiction_floor=0.8, subject_floor=0.8))
    assert record.metrics["missed_same_subject_changes"] == pytest.approx(2 / 3)
    assert record.metrics["negation_below_threshold_caught"] == 0.0
    assert record.metrics["false_cross_subject_conflicts"] == 0.0
    missed = {f["id"] for f in outcome.notes["failures"]}
    assert missed == {"c1", "n1"}


def test_external_pairs_are_mapped_by_label_and_subject() -> None:
    rows = {row["id"]: row for row in load(SICK)}
    assert {i: r["category"] for i, r in rows.items()} == {
        "sick-11": "reworded",  # entailment at relatedness 4.8
        "sick-12": "other-aspect",  # a weaker entailment about the same man
        "sick-13": "negation",  # "There is no girl ...": no keyable subject, one side negates
        "sick-14": "other-subject",  # two dogs / a dog
    }
    assert {r["kind"] for r in rows.values()} == {"STATE"}


@pytest.mark.parametrize(("line", "match"), [
    ({"id": "x", "kind": "STATE", "category": "maybe", "a": "a", "b": "b"}, "category"),
    ({"id": "x", "kind": "GOSSIP", "category": "changed", "a": "a", "b": "b"}, "kind"),
    ({"id": "x", "kind": "STATE", "category": "changed", "a": "", "b": "b"}, "'a'"),
])
def test_a_bad_line_is_a_typed_error_naming_it(tmp_path: Path, line, match) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(InvalidInput, match=match):
        load(path)


def test_repeated_ids_are_refused(tmp_path: Path) -> None:
    row = {"id": "x", "kind": "STATE", "category": "changed", "a": "a", "b": "b"}
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(InvalidInput, match="repeats"):
        load(path)


def test_record_appends_one_note_to_question_2(embedder, home: Path, open_store) -> None:
    evidence = open_store()
    before = len(next(q for q in evidence.open_questions() if q.id == 2).evidence)
    _, outcome = run_eval("subject-conflicts", extractor=ScriptedExtractor(), embedder=embedder,
                          home=home, settings=Settings(), dataset=PAIRS, record=True,
                          store_factory=lambda: open_store())
    question = next(q for q in evidence.open_questions() if q.id == 2)
    assert len(question.evidence) == before + 1
    assert "False cross-subject conflicts 0.0000" in question.evidence[-1].note
    assert question.status == "open" and outcome.notes["evidence"].startswith("eval subject")
