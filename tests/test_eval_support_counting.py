"""The support-counting eval on a three-session fixture, every figure worked out by hand.

``tests/fixtures/evals/locomo_support.json`` is one LoCoMo-format conversation (Ada, Ben):

=========  ==============================================================================
session 1  Ada: I love pottery. / Ben: The kiln is broken. / Ben: I bake bread on Sundays.
session 2  Ada: I love pottery. / Ben: My dog is called Rex.
session 3  Ada: I love pottery. / Ada: Pottery is my favourite thing. / Ben: The kiln is broken.
=========  ==============================================================================

A scripted extractor lifts one fact per line, "Pottery is my favourite thing" as the same
statement as "I love pottery" (a second claim in session 3, one lineage). So:

- pottery: sessions 1, 2, 3 -> support 3 (and repeated in session 3);
- kiln: sessions 1, 3 -> 2; bread: session 1 -> 1; dog: session 2 -> 1;
- multi_session_share = 2/4; every count agrees with the claims (support_consistent 1.0);
- each session supports at most three facts; session 1 supports three and comes first, so
  it is removed: bread (its alone) is closed, pottery and kiln each lose one; restored, the
  store is as before (removal_exact = restore_exact = 1.0).
"""

from __future__ import annotations

from pathlib import Path

from evals.harness import run_eval
from evals.registry import get
from evals.suites.support_counting import session_captures
from factstore import Settings
from factstore.errors import FactStoreError
from tests.helpers import ScriptedExtractor, fact

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "evals" / "locomo_support.json"
STATEMENTS = {
    "I love pottery": ("Ada loves pottery.", "PREFERENCE"),
    "Pottery is my favourite thing": ("Ada loves pottery.", "PREFERENCE"),
    "The kiln is broken": ("The kiln is broken.", "STATE"),
    "I bake bread on Sundays": ("Ben bakes bread on Sundays.", "EVENT"),
    "My dog is called Rex": ("Ben's dog is called Rex.", "REFERENCE"),
}


def _extractor() -> ScriptedExtractor:
    extractor = ScriptedExtractor()
    extractor.name = "scripted/support"
    for capture in session_captures(get("support-counting").load(FIXTURE)):
        facts = []
        for line in capture["text"].splitlines():
            quote = line.split(": ", 1)[1].rstrip(".")
            statement, kind = STATEMENTS[quote]
            facts.append(fact(statement, kind, quote=quote))
        extractor.add(capture["text"], *facts)
    return extractor


def test_every_figure_on_the_fixture(embedder, home):
    record, outcome = run_eval("support-counting", extractor=_extractor(), embedder=embedder,
                               settings=Settings(), dataset=FIXTURE, home=home)
    assert outcome.metrics == {"restore_exact": 1.0, "removal_exact": 1.0,
                               "support_consistent": 1.0, "multi_session_share": 0.5}
    notes = outcome.notes
    assert notes["removed_session"] == "utterance:conv-s1:session_1"
    assert (notes["closed_on_removal"], notes["reduced_on_removal"]) == (1, 2)
    assert (notes["multi_session_facts"], notes["repeated_in_session"]) == (2, 1)
    assert notes["support_histogram"] == {1: 2, 2: 1, 3: 1} and notes["sessions"] == 3
    by_statement = {row["statement"]: row for row in outcome.items}
    assert by_statement["Ada loves pottery."]["support_count"] == 3
    assert by_statement["Ben bakes bread on Sundays."]["closed_on_removal"]
    assert record.run_id.startswith("support-counting") and record.metrics == outcome.metrics


def test_sessions_become_lineages_with_their_dates():
    captures = session_captures(get("support-counting").load(FIXTURE))
    assert [c["source_ref"] for c in captures] == [
        "conv-s1:session_1", "conv-s1:session_2", "conv-s1:session_3"]
    assert captures[0]["text"].splitlines()[0] == "Ada: I love pottery."
    assert captures[2]["said_at"].isoformat() == "2023-04-02T09:15:00+00:00"


def test_a_dataset_with_no_sessions_reports_nothing_rather_than_failing(embedder, home,
                                                                          tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text('[{"sample_id": "x", "conversation": {"speaker_a": "A", '
                     '"speaker_b": "B"}, "observation": {}}]')
    try:
        _, outcome = run_eval("support-counting", extractor=ScriptedExtractor(),
                              embedder=embedder, settings=Settings(), dataset=empty, home=home)
    except FactStoreError as exc:  # refusing an empty dataset is fine too, if typed
        assert "session" in str(exc) or "no" in str(exc)
        return
    assert outcome.metrics["restore_exact"] is None and outcome.items == []
