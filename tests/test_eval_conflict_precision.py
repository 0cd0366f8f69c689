"""Eval ``conflict-precision`` on an eight-pair fixture whose every figure is known by hand.

The fixture (tests/fixtures/evals/conflict_pairs.jsonl) has three restatements (c1-c3), two
changed values (c4, c5), two negations (c6, c7) and one complementary pair (c8). A fixed
embedder pins each pair's cosine and a scripted detector pins what differs, so the metric
code is tested alone:

    pair  label          conflict  cosine  detector
    c1    restatement    no        0.955   -
    c2    restatement    no        0.855   fires (a false interrupt in route mode)
    c3    restatement    no        0.725   -
    c4    changed-value  yes       0.935   fires
    c5    changed-value  yes       0.785   fires
    c6    negation       yes       0.885   fires
    c7    negation       yes       0.665   - (a miss)
    c8    complementary  no        0.555   a one-sided detail (route_decision: no conflict)

At the default threshold 0.80, cosine alone interrupts on c1, c2, c4, c6: precision 2/4,
recall 2/4, false interrupts 2 of 3 restatements. Combined (cosine >= 0.80 and a difference)
interrupts on c2, c4, c6: precision 2/3, recall 2/4, false interrupts 1/3. The detector alone
(route_decision) fires on c2, c4, c5, c6: precision 3/4, recall 3/4, false interrupts 1/3.

AUC of the cosine: of the 16 (conflict, non-conflict) pairs, 0.935 beats 3 of the
non-conflicts' cosines, 0.785 beats 2, 0.885 beats 3 and 0.665 beats 1: 9/16. Combined score
(cosine +/- 2): c4 2.935 beats 4, c5 2.785 beats 3 (not c2's 2.855), c6 2.885 beats 4, c7
-1.335 beats c8's -1.445: 12/16.

Sweep, cosine alone: the best F1 is 8/11 (7 pairs from 0.56 to 0.66: precision 4/7, recall
1); combined: 0.75 (c2, c4, c5, c6 from 0.50 to 0.78; ties go to the lowest). The combined
rule cannot recall more than 3/4 (the detector misses c7), so the recall floor becomes
0.9 x 0.75 = 0.675 and the recommended threshold is 0.50. Mean cosine: restatement 0.845, changed-value 0.86,
negation 0.775, complementary 0.555.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evals.harness import run_eval
from evals.suites import conflict_precision
from evals.suites.conflict_precision import THRESHOLDS, load, roc_auc
from factstore import Settings
from factstore.errors import InvalidInput
from tests.helpers import ScriptedExtractor

FIXTURES = Path(__file__).parent / "fixtures" / "evals"
PAIRS = FIXTURES / "conflict_pairs.jsonl"
SICK = FIXTURES / "sick_tiny.tsv"

#: pair id -> (cosine, what the scripted detector reports)
SCRIPT: dict[str, tuple[float, tuple[str, ...]]] = {
    "c1": (0.955, ()),
    "c2": (0.855, ("value 5 -> five",)),
    "c3": (0.725, ()),
    "c4": (0.935, ("value 40 -> 41",)),
    "c5": (0.785, ("time 02:00 -> 03:00",)),
    "c6": (0.885, ("negation: b negates a",)),
    "c7": (0.665, ()),
    "c8": (0.555, ("value 9 only in b",)),
}


class FixedEmbedder:
    """Side a of a pair is (1, 0); side b is at the scripted cosine from it."""

    name = "test/fixed"
    dim = 2

    def __init__(self, cosines: dict[tuple[str, str], float]) -> None:
        self.vectors: dict[str, np.ndarray] = {}
        for (a, b), cosine in cosines.items():
            self.vectors[a] = np.array([1.0, 0.0])
            self.vectors[b] = np.array([cosine, math.sqrt(1 - cosine ** 2)])
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return np.array([self.vectors[t] for t in texts])


def _fixture_pairs(path: Path = PAIRS) -> dict[str, tuple[str, str]]:
    return {row["id"]: (row["a"], row["b"]) for row in load(path)}


@pytest.fixture()
def scripted(monkeypatch: pytest.MonkeyPatch) -> FixedEmbedder:
    """The fixed embedder, with the eval's detector replaced by the scripted verdicts."""
    pairs = _fixture_pairs()
    by_texts = {pairs[pid]: found for pid, (_, found) in SCRIPT.items()}
    monkeypatch.setattr(conflict_precision, "differences", lambda a, b: by_texts[(a, b)])
    return FixedEmbedder({pairs[pid]: cosine for pid, (cosine, _) in SCRIPT.items()})


def _run(embedder: Any, home: Path, **kwargs: Any) -> Any:
    kwargs.setdefault("settings", Settings())
    kwargs.setdefault("dataset", PAIRS)
    return run_eval("conflict-precision", extractor=ScriptedExtractor(), embedder=embedder,
                    home=home, **kwargs)


def test_metrics_match_the_hand_computed_values(scripted: FixedEmbedder, home: Path) -> None:
    record, outcome = _run(scripted, home, settings=Settings(difference_detector="off"))
    m = record.metrics
    # detector off: the store interrupts on cosine alone
    assert (m["precision"], m["recall"]) == (pytest.approx(0.5), pytest.approx(0.5))
    assert m["false_interrupt_rate"] == pytest.approx(2 / 3)
    assert m["precision_combined_at_threshold"] == pytest.approx(2 / 3)
    assert m["recall_combined_at_threshold"] == pytest.approx(0.5)
    assert m["false_interrupt_rate_combined_at_threshold"] == pytest.approx(1 / 3)
    assert (m["precision_detector"], m["recall_detector"]) == (pytest.approx(0.75),
                                                               pytest.approx(0.75))
    assert m["false_interrupt_rate_detector"] == pytest.approx(1 / 3)
    assert m["auc_cosine"] == pytest.approx(9 / 16)
    assert m["auc_combined"] == pytest.approx(12 / 16)
    assert m["best_f1_threshold_cosine"] == pytest.approx(0.56)
    assert m["best_f1_threshold_combined"] == pytest.approx(0.50)
    assert m["recommended_threshold"] == pytest.approx(0.50)
    assert list(m)[0] == "precision"  # the primary metric comes first

    notes = outcome.notes
    assert notes["recall_floor_applied"] == pytest.approx(0.675)
    assert "caps it at 0.7500" in notes["recall_floor_reason"]
    assert {k: v["mean_cosine"] for k, v in notes["per_label"].items()} == pytest.approx(
        {"restatement": 0.845, "changed-value": 0.86, "negation": 0.775,
         "complementary": 0.555})
    assert notes["per_label"]["negation"]["detector_fires"] == 0.5
    assert [row["threshold"] for row in notes["sweep"]] == list(THRESHOLDS)
    assert len(THRESHOLDS) == 50 and THRESHOLDS[0] == 0.5 and THRESHOLDS[-1] == 0.99
    sweep = {row["threshold"]: row for row in notes["sweep"]}
    assert sweep[0.6]["cosine"]["f1"] == pytest.approx(8 / 11, abs=1e-4)
    assert sweep[0.6]["combined"] == {"precision": 0.75, "recall": 0.75, "f1": 0.75,
                                      "false_interrupt_rate": pytest.approx(0.3333),
                                      "interrupts": 4, "true_conflicts_interrupted": 3}
    assert sweep[0.96]["cosine"]["precision"] is None  # nothing interrupts: undefined
    # counting c8's one-sided detail too, the looser rule fires on c2, c4-c6 and c8
    assert notes["detector_any_difference_alone"]["precision"] == 0.6
    assert notes["detector_alone"]["interrupts"] == 4

    items = {item["id"]: item for item in outcome.items}
    assert len(items) == 8 and record.path.joinpath("items.parquet").exists()
    assert [pid for pid, item in items.items() if item["predicted_cosine"]] == [
        "c1", "c2", "c4", "c6"]
    assert [pid for pid, item in items.items() if item["predicted_combined"]] == [
        "c2", "c4", "c6"]
    assert items["c4"]["differences"] == ["value 40 -> 41"] and items["c4"]["conflict"]
    assert items["c6"]["cosine"] == pytest.approx(0.885)
    assert scripted.calls == [16]  # every distinct text embedded once, in one batch


def test_route_mode_scores_the_combined_rule(scripted: FixedEmbedder, home: Path) -> None:
    record, outcome = _run(scripted, home)  # route is the default
    assert record.metrics["precision"] == pytest.approx(2 / 3)
    assert record.metrics["recall"] == pytest.approx(0.5)
    assert record.metrics["false_interrupt_rate"] == pytest.approx(1 / 3)
    assert outcome.notes["primary_rule"] == "combined (route)"
    # annotate: any difference at or above the threshold (c8's one-sided detail is below it)
    record, outcome = _run(scripted, home, settings=Settings(difference_detector="annotate"))
    assert outcome.notes["primary_rule"] == "any difference (annotate)"
    assert record.metrics["precision"] == pytest.approx(2 / 3)
    # A higher threshold moves the cosine-alone point: at 0.90 only c1 and c4 interrupt.
    record, _ = _run(scripted, home, settings=Settings(density_threshold=0.9,
                                                       difference_detector="off"))
    assert (record.metrics["precision"], record.metrics["recall"]) == (pytest.approx(0.5),
                                                                       pytest.approx(0.25))
    assert record.metrics["false_interrupt_rate"] == pytest.approx(1 / 3)


def test_an_external_set_is_scored_by_its_paraphrase_truth(
        monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    # SICK: the ENTAILMENT 4.8 pair is a restatement, the CONTRADICTION a conflict; the weak
    # ENTAILMENT and the NEUTRAL pair are excluded.
    rows = {row["id"]: row for row in load(SICK)}
    assert {pid: (row["label"], row["conflict"]) for pid, row in rows.items()} == {
        "11": ("restatement", False), "12": ("excluded", None),
        "13": ("contradiction", True), "14": ("excluded", None)}
    monkeypatch.setattr(conflict_precision, "differences",
                        lambda a, b: ("negation: b negates a",) if "no girl" in b else ())
    embedder = FixedEmbedder({(rows["11"]["a"], rows["11"]["b"]): 0.97,
                              (rows["13"]["a"], rows["13"]["b"]): 0.83})
    record, outcome = _run(embedder, home, dataset=SICK,
                           settings=Settings(difference_detector="off"))
    assert record.metrics["precision"] == pytest.approx(0.5)  # both above 0.80
    assert record.metrics["false_interrupt_rate"] == 1.0
    assert record.metrics["precision_combined_at_threshold"] == 1.0
    assert record.metrics["auc_cosine"] == 0.0 and record.metrics["auc_combined"] == 1.0
    assert (outcome.notes["pairs_scored"], outcome.notes["pairs_excluded"]) == (2, 2)
    assert "CONTRADICTION" in outcome.notes["measures"]["sick"]


def test_record_appends_one_note_to_question_2_and_keeps_its_status(
        scripted: FixedEmbedder, home: Path, store: Any, open_store: Any) -> None:
    before = {q.id: q for q in store.open_questions()}
    # The harness closes the store it is given, so it gets its own on this test's database.
    record, outcome = _run(scripted, home, record=True, store_factory=open_store)
    after = {q.id: q for q in store.open_questions()}
    question = after[2]
    assert len(question.evidence) == len(before[2].evidence) + 1
    note = question.evidence[-1]
    assert note.recorded_by == "eval:conflict-precision"
    assert record.run_id in note.note and "test/fixed" in note.note
    assert "precision 0.500" in note.note and "recommended threshold" in note.note.lower()
    assert "0.56" in note.note and str(PAIRS) in note.note
    assert outcome.notes["evidence"] == note.note
    assert question.status == before[2].status == "open"  # a person closes it
    # Nothing else in the queue moved.
    assert {qid: len(q.evidence) for qid, q in after.items() if qid != 2} == {
        qid: len(q.evidence) for qid, q in before.items() if qid != 2}
    # Without --record nothing is appended.
    _run(scripted, home)
    assert len({q.id: q for q in store.open_questions()}[2].evidence) == len(question.evidence)


def test_the_real_embedder_and_detector_give_sane_figures(embedder: Any, home: Path) -> None:
    record, outcome = _run(embedder, home)
    assert outcome.notes["pairs_scored"] == 8 and len(outcome.items) == 8
    for name, value in record.metrics.items():
        assert value is None or 0.0 <= value <= 1.0, name
    assert all(-1.0 <= item["cosine"] <= 1.0 for item in outcome.items)
    assert set(outcome.notes["per_label"]) == {"restatement", "changed-value", "negation",
                                               "complementary"}
    # A number changed in the same sentence is what the detector exists for.
    c4 = next(item for item in outcome.items if item["id"] == "c4")
    assert c4["differences"] and c4["cosine"] > 0.8


def test_roc_auc_counts_ties_half_and_needs_both_classes() -> None:
    assert roc_auc([0.9, 0.8, 0.1], [True, True, False]) == 1.0
    assert roc_auc([0.1, 0.8, 0.9], [True, True, False]) == 0.0
    assert roc_auc([0.5, 0.5, 0.5, 0.5], [True, False, True, False]) == 0.5
    assert roc_auc([0.7, 0.5, 0.5], [True, True, False]) == pytest.approx(0.75)
    assert roc_auc([0.3, 0.4], [True, True]) is None


def test_a_set_with_no_scorable_pair_is_refused(tmp_path: Path, home: Path) -> None:
    path = tmp_path / "sick_neutral.tsv"
    lines = SICK.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[4]]) + "\n")  # only the NEUTRAL pair
    with pytest.raises(InvalidInput, match="none of the 1 pair"):
        _run(FixedEmbedder({}), home, dataset=path)
