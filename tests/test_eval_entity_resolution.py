"""The entity-resolution eval on a 25-mention fixture, every figure worked out by hand from
the resolver's rules (factstore/entities/resolution.py, names.py).

``tests/fixtures/evals/entity_mentions_small.jsonl``: eleven documents, remembered in order.

=====  ==========================================================  ========================
doc    gold mentions                                               resolves to (why)
=====  ==========================================================  ========================
d01    Alex Kim, ledger-api                                        new E1, new E2
d02    Alex Moreno, Brightwater Analytics / Alex, Brightwater      new E3 (surnames differ:
                                                                   no fit), new E4 / E3, E4
                                                                   (both Alexes fit 0.80;
                                                                   E3 is in the document)
d03    Bob, Alex (gold: Alex Kim)                                  new E5 / E1: a bare "Alex"
                                                                   fits E3's alias and E1's
                                                                   full name alike; neither
                                                                   is in the document, so
                                                                   the context decides (its
                                                                   cosine with E1's profile,
                                                                   0.33, is the higher)
d04    Robert Hale / Dr. Nair, Theo                                E5 (bob = robert) / new
                                                                   E6, new E7
d05    Priya Nair / Theodore Tran                                  E6 (part), E7 (theo =
                                                                   theodore)
d06    Daniel Reyes (payments), ledger-api                         new E8, E2
d07    Daniel Reyes (plumber) / Mr. Reyes                          **E8** (exact name, no
                                                                   distinction) / E8
d08    Mr. Moreno, Brightwater Analytics                           E3, E4
d09    Bobby Hale / Brightwater                                    E5 (nickname), E4
d10    Sam Whitfield / Sam                                         new E9 / E9
d11    Alex Kim, ledger-api                                        E1 (exact 1.00 beats
                                                                   E3's 0.80), E2
=====  ==========================================================  ========================

Gold: 10 referents, 22 one-referent pairs; predicted: 9 entities, 24 merged pairs, 22 of
them right. False merges: the payments Daniel Reyes with the plumber's two mentions in E8
(2 pairs); no splits. So precision 22/24, recall 22/22, F1 44/46, false-merge rate
2/(300 - 22), split rate 0. B-cubed precision: (22 + 1/3 + 2 * 2/3) / 25 (E8's three
mentions hold two referents); recall 1 (no referent is split).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.harness import run_eval
from evals.registry import get
from evals.suites.entity_resolution import (
    GoldMentions,
    documents,
    load_entity_set,
    pair_scores,
    session_captures,
)
from factstore import Settings
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractionContext
from tests.helpers import ScriptedExtractor, fact

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "evals"
SMALL = FIXTURES / "entity_mentions_small.jsonl"
#: the predicted entities, as groups of row ids (see the module doc)
PARTITION = [["s01", "s08", "s24"], ["s02", "s15", "s25"], ["s03", "s05", "s18"],
             ["s04", "s06", "s19", "s21"], ["s07", "s09", "s20"], ["s10", "s12"],
             ["s11", "s13"], ["s14", "s16", "s17"], ["s22", "s23"]]
CREATED = {"s01", "s02", "s03", "s04", "s07", "s10", "s11", "s14", "s22"}


def _partition(items) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for row in items:
        groups.setdefault(row["predicted"], []).append(row["id"])
    return sorted(sorted(g) for g in groups.values())


def test_every_figure_on_the_fixture(embedder, home, admin_dsn):
    record, outcome = run_eval("entity-resolution", extractor=ScriptedExtractor(),
                               embedder=embedder, settings=Settings(), dataset=SMALL,
                               home=home, admin_dsn=admin_dsn)
    assert outcome.metrics == pytest.approx({
        "pairwise_precision": 22 / 24, "false_merge_rate": 2 / 278,
        "pairwise_recall": 1.0, "pairwise_f1": 44 / 46, "split_rate": 0.0,
        "bcubed_precision": (22 + 1 / 3 + 2 * 2 / 3) / 25, "bcubed_recall": 1.0})
    assert _partition(outcome.items) == PARTITION
    notes = outcome.notes
    assert (notes["mentions"], notes["gold_entities"], notes["documents"],
            notes["entities_made"], notes["unresolved"]) == (25, 10, 11, 9, 0)
    assert (notes["false_merge_pairs"], notes["split_pairs"]) == (2, 0)
    # every mention is on its referent's majority entity; E8 (3 mentions) holds two
    assert (notes["accuracy"], notes["clean"]) == (1.0, 22 / 25)
    assert notes["cases"] == {
        "abbreviation": {"mentions": 2, "accuracy": 1.0, "clean": 1.0, "false_merge_pairs": 0},
        "exact": {"mentions": 12, "accuracy": 1.0, "clean": 1.0, "false_merge_pairs": 0},
        "first-name": {"mentions": 1, "accuracy": 1.0, "clean": 1.0, "false_merge_pairs": 0},
        "nickname": {"mentions": 3, "accuracy": 1.0, "clean": 1.0, "false_merge_pairs": 0},
        # both Daniel Reyes referents' majority is the merged E8: accurate, never clean
        "same-name-different-entity": {"mentions": 2, "accuracy": 1.0, "clean": 0.0,
                                       "false_merge_pairs": 2},
        "shared-first-name": {"mentions": 2, "accuracy": 1.0, "clean": 1.0,
                              "false_merge_pairs": 0},
        "title": {"mentions": 3, "accuracy": 1.0, "clean": 0.6667, "false_merge_pairs": 1}}
    assert notes["merged_referents"] == {
        "Daniel Reyes": ["person/daniel-reyes-payments", "person/daniel-reyes-plumber"]}
    by_id = {row["id"]: row for row in outcome.items}
    # a new entity for every first sighting; T3 or T4 (T3 when the one candidate's profile
    # fits the context, a cosine of the real model) for every later one
    assert {i for i, row in by_id.items() if row["tier"] == "none"} == CREATED
    assert all(row["tier"] in ("T3", "T4") for i, row in by_id.items() if i not in CREATED)
    assert notes["tiers"]["none"] == 9
    assert "already in this document" in by_id["s05"]["reason"]
    assert by_id["s08"]["reason"].startswith("match: part name fit 0.80, context")
    assert by_id["s08"]["predicted_name"] == "Alex Kim" and by_id["s08"]["correct"]
    assert by_id["s24"]["reason"].startswith("match: exact name fit 1.00")
    assert record.run_id.startswith("entity-resolution") and record.metrics == outcome.metrics


def _locomo_pair(tmp_path: Path) -> Path:
    """Two conversations whose speakers share both names (Ada, Ben): the project's two
    LoCoMo fixtures in one file."""
    joined = [json.loads((FIXTURES / name).read_text())[0]
              for name in ("locomo_small.json", "locomo_support.json")]
    path = tmp_path / "locomo_pair.json"
    path.write_text(json.dumps(joined))
    return path


def _speaker_extractor(path: Path) -> ScriptedExtractor:
    """One fact per turn, asserted by its speaker (which makes the speaker a mention)."""
    extractor = ScriptedExtractor()
    for capture in session_captures(load_entity_set(path)):
        facts = []
        for line in capture["text"].splitlines():
            speaker, quote = line.split(": ", 1)
            facts.append(fact(f"{speaker} said: {quote}", quote=quote.rstrip("."),
                              asserter=speaker))
        extractor.add(capture["text"], *facts)
    return extractor


def test_locomo_speakers_cluster_across_sessions_and_merge_across_conversations(
        embedder, home, admin_dsn, tmp_path):
    # conv-t1 (2 sessions): Ada 3 turns, Ben 2; conv-s1 (3 sessions): Ada 4, Ben 4. Every
    # session's "Ada" finds the one Ada entity by its exact name and nothing tells them
    # apart, so both conversations' Adas (and Bens) become one entity each: no split, and
    # every cross-conversation pair a false merge: 7*6/2 + 6*5/2 = 36 merged pairs, 16 right.
    path = _locomo_pair(tmp_path)
    _, outcome = run_eval("entity-resolution", extractor=_speaker_extractor(path),
                          embedder=embedder, settings=Settings(), dataset=path, home=home,
                          admin_dsn=admin_dsn)
    assert outcome.metrics == pytest.approx({
        "pairwise_precision": 16 / 36, "false_merge_rate": 20 / (78 - 16),
        "pairwise_recall": 1.0, "pairwise_f1": 32 / 52, "split_rate": 0.0,
        "bcubed_precision": (25 / 7 + 20 / 6) / 13, "bcubed_recall": 1.0})
    notes = outcome.notes
    assert (notes["conversations"], notes["sessions"], notes["speaker_mentions"]) == (2, 5, 13)
    assert notes["speakers"] == {
        "conv-t1": {"speakers": ["Ada", "Ben"], "entities": {"Ada": 1, "Ben": 1},
                    "speakers_merged": 0, "entity_shared_with": ["conv-s1"]},
        "conv-s1": {"speakers": ["Ada", "Ben"], "entities": {"Ada": 1, "Ben": 1},
                    "speakers_merged": 0, "entity_shared_with": ["conv-t1"]}}
    assert notes["names_in_several_conversations"] == ["ada", "ben"]
    # no named person in these turns: the silver figure is undefined, not zero
    assert notes["named_person_mentions"] == 0 and notes["silver_pairwise_precision"] is None
    # each name makes its entity once, at its first sighting (mention records 1 and 2);
    # every later record found it (a repeat within one capture replays the binding, T0)
    assert [row["mention_id"] for row in outcome.items if row["tier"] == "none"] == [1, 2]
    assert {row["tier"] for row in outcome.items[2:]} <= {"T0", "T3", "T4"}
    assert all(row["speaker"] and row["role"] == "speaker" for row in outcome.items)


def test_pair_scores_by_hand():
    # gold {a,b,c} {d}; predicted {a,b} {c,d}: 1 right pair of 2 merged, 1 of 3 gold pairs
    scores = pair_scores(["x", "x", "x", "y"], [1, 1, 2, 2])
    assert scores == pytest.approx({
        "pairwise_precision": 0.5, "false_merge_rate": 1 / 3, "pairwise_recall": 1 / 3,
        "pairwise_f1": 0.4, "split_rate": 2 / 3, "bcubed_precision": (2 + 0.5 + 0.5) / 4,
        "bcubed_recall": (4 / 3 + 1 / 3 + 1) / 4, "false_merge_pairs": 1,
        "split_pairs": 2})
    # nothing merged: precision undefined, never a perfect 1.0
    alone = pair_scores(["x", "x", "y"], [1, 2, 3])
    assert alone["pairwise_precision"] is None and alone["false_merge_rate"] == 0.0
    assert alone["pairwise_recall"] == 0.0 and alone["split_rate"] == 1.0


def test_documents_and_the_gold_extractor():
    docs = documents(load_entity_set(SMALL))
    assert [d["doc"] for d in docs] == [f"d{n:02d}" for n in range(1, 12)]
    d02 = docs[1]
    assert d02["source_type"] == "capture" and d02["lineage"] == "email:thread-1"
    assert [d["source_type"] for d in docs[:3]] == ["utterance", "capture", "utterance"]
    assert docs[7]["source_type"] == "file"
    facts = GoldMentions(docs).extract(d02["text"], ExtractionContext())
    assert [f.quote for f in facts] == d02["text"].splitlines()
    assert facts[1].mentions == (("Alex", "Person"), ("Brightwater", "Organization"))
    assert facts[1].subject == "Alex"  # the mention the text opens with
    assert GoldMentions(docs).extract("not a document", ExtractionContext()) == []


@pytest.mark.parametrize("row,message", [
    ('{"id": "a"}', "non-empty string fields"),
    ('{"id": "a", "doc": "d", "lineage": "chat:x", "text": "Hi Bo.", "mention": "Al", '
     '"type": "Person", "entity": "person/al", "case": "exact"}', "not written in its text"),
    ("not json", "not JSON"),
])
def test_a_bad_row_is_refused_naming_its_line(tmp_path, row, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(row + "\n")
    with pytest.raises(InvalidInput, match=message) as caught:
        load_entity_set(path)
    assert "bad.jsonl:1" in str(caught.value)


def test_the_project_dataset_loads_and_sessions_can_be_limited(tmp_path):
    rows = get("entity-resolution").load(get("entity-resolution").default_dataset)
    assert len(rows) == 490 and len({r["entity"] for r in rows}) == 77
    assert len(documents(rows)) == 110
    conversations = load_entity_set(_locomo_pair(tmp_path))
    assert len(session_captures(conversations)) == 5
    assert [c["source_ref"] for c in session_captures(conversations, 1)] == [
        "conv-t1:session_1", "conv-s1:session_1"]
