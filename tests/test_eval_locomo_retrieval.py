"""The locomo-retrieval eval on a twelve-turn fixture.

``tests/fixtures/evals/locomo_retrieval.json`` is one LoCoMo-format conversation (Ada, Ben):
twelve turns in two sessions, one of them blank (D2:6, not captured: eleven captures), and
seven questions:

====================================================  ========  ===========  =============
question                                              category  evidence     scored
====================================================  ========  ===========  =============
What is the name of Ada's cat?                        4         D2:2         yes
When did Ben start his pottery class?                 2         D1:2         yes
Where does Ben's sister live and when will she ...    1         D1:4, D2:5   yes
Would Ada enjoy a running club?                       3         D1:5, D2:4   yes
Is Ada moving to Leeds?                               4         D9:9         no: no such turn
What colour is Ben's mug?                             4         (none)       no: no evidence
What did Ada say about her pottery class?             5         D1:2         not asked
====================================================  ========  ===========  =============

The baseline is recomputed here on an independent path (every line and question embedded
by the real MiniLM in one batch each, a full argsort) and must give the eval's ranks.

With an extractor that yields no facts, the store holds documents only, so recall as plain
vector search serves the baseline's list with the turns under ``document_floor`` cut, and
so its ranks are the baseline's wherever the evidence turn clears the floor -- which is
checked against the same independent path.

With a scripted extractor, D1:1 and D2:2 both say "Ada has a grey cat called Pixel": D2:2
restates D1:1's fact, so the fact's ``evidence_source_ref`` stays D1:1 and D2:2 is reached
through its claim in the first slot (``store_rank`` 1), or as a document of its own in the
second (``store_rank_quote_only`` 2).

Those two runs use recall as plain vector search (no words search, no preferences, no
diversity pass); the last runs the default hybrid recall on the same fixture.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evals.harness import run_eval
from evals.registry import get
from evals.suites.locomo_retrieval import (
    CATEGORIES,
    K,
    baseline_ranking,
    first_hit,
    summarise,
    turn_captures,
)
from factstore import Settings
from tests.helpers import ScriptedExtractor, fact

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "evals" / "locomo_retrieval.json"
CAT = "Ada: Hi Ben! I adopted a grey cat called Pixel last week."
CAT_AGAIN = "Ada: Sorry! Pixel is my grey cat and he is clumsy."


def _conversation() -> dict:
    return get("locomo-retrieval").load(FIXTURE)[0]


def _independent_baseline(embedder) -> dict[str, list[tuple[str, float]]]:
    """Per question, every turn (dia_id, cosine) nearest first: one batch for the lines, one
    for the questions, np.argsort over the whole conversation (no k cut)."""
    conversation = _conversation()
    turns = [t for s in conversation["sessions"] for t in s["turns"] if t["text"].strip()]
    lines = np.asarray(embedder.embed([f"{t['speaker']}: {t['text']}" for t in turns]))
    questions = [q["question"] for q in conversation["qa"] if q["category"] != 5]
    asked = np.asarray(embedder.embed(questions))
    out = {}
    for question, vector in zip(questions, asked, strict=True):
        scores = lines @ vector
        order = np.argsort(-scores)
        out[question] = [(turns[i]["dia_id"], float(scores[i])) for i in order]
    return out


def _first(ranked: list[tuple[str, float]], evidence: list[str]) -> int | None:
    return next((i for i, (dia, _) in enumerate(ranked[:K], 1) if dia in evidence), None)


#: recall as plain embedding search over the documents: no words search, no preferences,
#: no diversity pass (what the documents-only comparison with the baseline needs)
VECTORS_ONLY = Settings(recall_lexical=False, recall_preference_weight=0.0, recall_mmr_lambda=1.0)


def _run(extractor, embedder, home, settings=VECTORS_ONLY):
    return run_eval("locomo-retrieval", extractor=extractor, embedder=embedder,
                    settings=settings, dataset=FIXTURE, home=home)


def test_registered_with_hit_at_10_first_and_the_fixture_loads():
    spec = get("locomo-retrieval")
    assert spec.primary.name == "hit_at_10" and spec.metric("hit_ratio_at_10") is not None
    assert {f"hit_at_10_{n.replace('-', '_')}" for n in CATEGORIES.values()} <= {
        m.name for m in spec.metrics}
    assert CATEGORIES == {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def test_one_capture_per_non_blank_turn_with_its_ref_and_date():
    captures = turn_captures(_conversation())
    assert len(captures) == 11  # D2:6 is blank
    assert captures[0]["text"] == CAT and captures[0]["source_ref"] == "conv-r1:D1:1"
    assert captures[0]["said_at"].isoformat() == "2023-03-03T14:05:00+00:00"
    assert captures[-1]["source_ref"] == "conv-r1:D2:5"
    assert captures[-1]["said_at"].isoformat() == "2023-03-17T10:40:00+00:00"


def test_ranks_and_figures_by_hand():
    assert first_hit([["a"], ["b", "c"], ["c"]], ["c", "z"]) == 2
    assert first_hit([["a"]], ["z"]) is None and first_hit([], ["z"]) is None
    # ranks 1, 3, none, 10: hit@1 1/4, hit@5 2/4, hit@10 3/4, MRR (1 + 1/3 + 0 + 1/10) / 4
    figures = summarise([1, 3, None, 10])
    assert figures == {"hit_at_1": 0.25, "hit_at_5": 0.5, "hit_at_10": 0.75,
                       "mrr": (1 + 1 / 3 + 0.1) / 4}
    assert summarise([])["hit_at_10"] is None
    vectors = np.eye(3, dtype=np.float32)
    assert baseline_ranking(vectors, np.array([0.0, 0.6, 0.8], dtype=np.float32), 2) == [2, 1]
    assert baseline_ranking(np.zeros((0, 3)), np.ones(3)) == []


def test_documents_only_vector_recall_is_the_baseline_above_the_document_floor(embedder, home):
    record, outcome = _run(ScriptedExtractor(), embedder, home)
    expected = _independent_baseline(embedder)
    floor = Settings().document_floor
    rows = {r["question"]: r for r in outcome.items}
    # Six non-adversarial questions asked; the adversarial one is not.
    assert len(rows) == 6 and "What did Ada say about her pottery class?" not in rows
    for question, row in rows.items():
        ranked = expected[question]
        evidence = row["evidence_found"]
        assert row["baseline_sources"] == [dia for dia, _ in ranked[:K]]
        assert row["baseline_rank"] == (_first(ranked, evidence) if evidence else None)
        # No facts: every served item is a document, the baseline's order, floor applied.
        assert set(row["served_grains"]) <= {"document"} and row["evidence_with_facts"] == []
        above = [(dia, s) for dia, s in ranked if s >= floor - 1e-6]
        assert row["served_sources"] == [dia for dia, _ in above[:K]]
        assert row["store_rank"] == (_first(above, evidence) if evidence else None)
        assert row["same_served_without_embedding"]

    # The questions whose evidence is missing are reported, not scored (nor crashed on).
    assert rows["Is Ada moving to Leeds?"]["scored"] is False
    assert rows["Is Ada moving to Leeds?"]["evidence"] == ["D9:9"]
    assert rows["Is Ada moving to Leeds?"]["evidence_found"] == []
    assert rows["What colour is Ben's mug?"]["scored"] is False
    notes = outcome.notes
    assert (notes["questions_asked"], notes["questions_scored"],
            notes["questions_without_evidence_turns"], notes["adversarial_skipped"],
            notes["turns"]) == (6, 4, 2, 1, 11)

    # The values of this tree (MiniLM), from the independent path: the cat question's
    # evidence D2:2 ranks 2nd (0.584, under D1:1's 0.609: the same cat, named there first);
    # the pottery one's D1:2 2nd (0.703, under D2:3's 0.708, the bowl finished at pottery);
    # the sister's D1:4 1st (0.632); the running club's D1:5 1st (0.562). Every evidence
    # turn clears the 0.30 floor, so the store's ranks are the same: 2, 2, 1, 1.
    scored = [rows[q] for q in expected if rows[q]["scored"]]
    assert [r["baseline_rank"] for r in scored] == [2, 2, 1, 1]
    assert [r["store_rank"] for r in scored] == [2, 2, 1, 1]
    # The running-club question has three turns above the floor, so three items served.
    assert rows["Would Ada enjoy a running club?"]["served_sources"] == ["D1:5", "D1:3", "D2:4"]
    metrics = outcome.metrics
    assert (metrics["hit_at_1"], metrics["hit_at_5"], metrics["hit_at_10"]) == (0.5, 1.0, 1.0)
    assert metrics["mrr"] == metrics["baseline_mrr"] == (0.5 + 0.5 + 1 + 1) / 4
    assert metrics["hit_ratio_at_10"] == 1.0 and metrics["baseline_hit_at_10"] == 1.0
    assert metrics["hit_at_10_single_hop"] == 1.0 and metrics["hit_at_10_open_domain"] == 1.0
    by_category = notes["by_category"]
    assert {name: f["questions"] for name, f in by_category.items()} == {
        "multi-hop": 1, "temporal": 1, "open-domain": 1, "single-hop": 1}
    assert {name: f["mrr"] for name, f in by_category.items()} == {
        "multi-hop": 1.0, "temporal": 0.5, "open-domain": 1.0, "single-hop": 0.5}
    assert notes["layers"] == {"document": 6}
    for name in ("latency_p50_ms", "latency_p95_ms", "latency_no_embed_p50_ms",
                 "latency_no_embed_p95_ms"):
        assert metrics[name] is not None and metrics[name] > 0
    assert metrics["latency_p50_ms"] <= metrics["latency_p95_ms"]
    assert record.metrics == metrics


def test_a_restated_fact_reaches_its_restating_turn_through_its_claim(embedder, home):
    extractor = ScriptedExtractor()
    extractor.name = "scripted/retrieval"
    cat = fact("Ada has a grey cat called Pixel.", "REFERENCE",
               quote="I adopted a grey cat called Pixel")
    extractor.add(CAT, cat)
    extractor.add(CAT_AGAIN, fact("Ada has a grey cat called Pixel.", "REFERENCE",
                                  quote="Pixel is my grey cat"))
    _, outcome = _run(extractor, embedder, home)
    row = next(r for r in outcome.items if r["question"] == "What is the name of Ada's cat?")
    # One fact, first written from D1:1; D2:2 restated it. The question is about D2:2.
    assert row["served_grains"][0] == "fact" and row["served_sources"][0] == "D1:1"
    # Through its claim the first slot already holds D2:2; counting the quote's turn alone,
    # D2:2 is reached only as a document of its own, in the second slot (documents are
    # always searched beside the facts).
    assert row["store_rank"] == 1 and row["store_rank_quote_only"] == 2
    assert row["served_grains"][1] == "document" and row["served_sources"][1] == "D2:2"
    assert row["evidence_with_facts"] == ["D2:2"]
    assert row["served_texts"][0] == "Ada has a grey cat called Pixel."
    assert outcome.notes["restatement_only_hits"] == 0
    assert outcome.notes["quote_source_only"]["hit_at_1"] < outcome.metrics["hit_at_1"]


def test_hybrid_recall_on_the_fixture(embedder, home):
    """The default recall on the documents-only store: every served slot is distinct and
    earned (its words matched, or its cosine clears the floor on the independent path); the
    turns that share a rare word with the question are found by it; and the evidence turns
    rank as the baseline's on this fixture."""
    _, outcome = _run(ScriptedExtractor(), embedder, home, settings=Settings())
    expected = _independent_baseline(embedder)
    floor = Settings().document_floor
    rows = {r["question"]: r for r in outcome.items}
    for question, row in rows.items():
        cosine = dict(expected[question])
        assert len(row["served_sources"]) == len(set(row["served_sources"])) <= K
        for source, matched in zip(row["served_sources"], row["served_matched_by"],
                                   strict=True):
            assert "document-text" in matched or cosine[source] >= floor - 1e-6
        assert row["same_served_without_embedding"]
    def by_words(question: str) -> set[str]:
        row = rows[question]
        return {s for s, m in zip(row["served_sources"], row["served_matched_by"], strict=True)
                if "document-text" in m}

    # the two turns naming Leeds, the two pottery turns, the mug turn
    assert {"D1:3", "D1:4"} <= by_words("Is Ada moving to Leeds?")
    assert {"D1:2", "D2:3"} <= by_words("When did Ben start his pottery class?")
    assert "D2:1" in by_words("What colour is Ben's mug?")
    scored = [rows[q] for q in expected if rows[q]["scored"]]
    assert [r["store_rank"] for r in scored] == [r["baseline_rank"] for r in scored]
    notes = outcome.notes
    assert notes["layers"] == {"document": 6}
    assert notes["near_copy_pairs_per_question"] == 0.0
    assert notes["baseline_near_copy_pairs_per_question"] == 0.0
    assert 0 < notes["mean_pair_cosine"] < 1
