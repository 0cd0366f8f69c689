"""factstore.notebook over a real store: the demo seed, what the plots draw, the belief diff,
the census, the eval curves and trends, and the controls' buttons calling the Store.

The controls are ipywidgets driven in-process (``button.click()``), no kernel needed.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from factstore import Store
from factstore.errors import InvalidInput
from factstore.extractors.rules import RuleExtractor
from factstore.notebook import ensure_demo_store, ensure_eval_runs
from factstore.notebook.plots import census_data, gantt_data
from factstore.store import server
from factstore.timelines.diff import belief_diff
from tests.helpers import fact, say

pytest.importorskip("ipywidgets")

TODAY = datetime(2026, 6, 1, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def seeded(admin_dsn, embedder):
    """One demo store for the module's read-only tests (seeding takes a while)."""
    name = f"nb_seeded_{os.getpid()}"
    server.drop_database(admin_dsn, name)
    server.ensure_database(admin_dsn, name)
    store = Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                       extractor=RuleExtractor())
    report = ensure_demo_store(store, today=TODAY)
    yield store, report
    store.close()
    server.drop_database(admin_dsn, name)


def _totals(store):
    described = store.describe()
    return (sum(n for v in described.facts_by_kind_verdict.values() for n in v.values()),
            described.documents)


def test_the_seed_says_what_it_wrote_and_leaves_a_store_with_content_alone(seeded):
    store, report = seeded
    assert report.seeded and "seeded" in report.message
    assert (report.facts, report.documents) == _totals(store)
    assert report.facts > 20 and report.documents > 20
    again = ensure_demo_store(store, today=TODAY)
    assert not again.seeded and "nothing was seeded" in again.message
    assert _totals(store) == (report.facts, report.documents)


def test_gantt_bars_are_the_history_with_retracted_and_disputed_marked(seeded):
    store, _ = seeded
    answer = store.facts("project/atlas", "status")
    (key,) = answer.keys
    bars = gantt_data(answer)
    assert sorted(b.fact_id for b in bars) == sorted(f.id for f in key.history)
    by_value = {b.value: b for b in bars}
    assert set(by_value) == {"planning", "building", "paused", "shipped"}
    assert by_value["paused"].status == "retracted" and not by_value["paused"].current
    assert by_value["shipped"].current and by_value["shipped"].open_end
    assert not by_value["planning"].open_end  # closed by the building phase
    assert [b.value for b in bars] == ["planning", "building", "paused", "shipped"]
    assert all(b.end > b.start for b in bars)

    owners = gantt_data(store.facts("project/atlas", "owner"))
    assert {b.value for b in owners} == {"maria", "sam"}
    assert all(b.status == "disputed" and b.current for b in owners)


def test_belief_diff_between_known_at_day_45_and_now(seeded):
    store, _ = seeded
    day_45 = TODAY - timedelta(days=45)  # after the first writes, before the second
    then = store.facts("project/atlas", known_at=day_45)
    now = store.facts("project/atlas")
    diff = belief_diff(then, now)
    changes = {c.attribute: c for c in diff.changes}
    assert (changes["status"].then, changes["status"].now) == ("building", "shipped")
    assert changes["status"].change == "changed"
    assert changes["latency_p99"].change == "learned"
    assert changes["latency_p99"].now == "180 ms"
    assert "owner" not in changes and diff.unchanged == 1  # disputed then and now
    with pytest.raises(InvalidInput, match="known_at"):
        belief_diff(now, then)


def test_belief_diff_is_empty_between_two_reads_of_the_same_instant(seeded):
    store, _ = seeded
    everything = store.facts()
    recorded = sorted({f.recorded_at for k in everything.keys for f in k.history})
    for instant in recorded:
        a = store.facts(known_at=instant)
        diff = belief_diff(a, store.facts(known_at=instant))
        assert diff.changes == () and diff.unchanged == len({(k.subject, k.attribute, k.scope)
                                                             for k in a.keys})


def test_census_counts_agree_with_describe(seeded):
    store, _ = seeded
    census = store.census()
    described = store.describe()
    kinds: Counter[tuple[str, str]] = Counter()
    for row in census.facts:
        kinds[row.kind, row.verdict] += row.count
    # describe counts timeline facts (always kind STATE) apart; the census counts every row
    expected: Counter[tuple[str, str]] = Counter(
        {(k, v): n for k, by_v in described.facts_by_kind_verdict.items()
         for v, n in by_v.items()})
    for verdict, n in described.timeline_facts_by_verdict.items():
        expected["STATE", verdict] += n
    assert described.timeline_facts_by_verdict, "the seed's plain updates compile to timelines"
    assert dict(kinds) == dict(expected)
    assert sum(d.count for d in census.documents) == described.documents
    by_source = census_data(census, "documents", "source_type", "day")
    assert sum(sum(c.values()) for c in by_source.values()) == described.documents
    assert [t.facts for t in census.topics] == sorted((t.facts for t in census.topics),
                                                      reverse=True)
    subjects = [s.facts for s in census.subjects]
    assert subjects == sorted(subjects, reverse=True)
    assert all(0 <= s.live <= s.facts for s in census.subjects)
    every_fact = _totals(store)[0] + sum(described.timeline_facts_by_verdict.values())
    assert sum(subjects) <= every_fact
    frame = census.to_pandas("facts")
    assert int(frame["count"].sum()) == every_fact


def test_the_results_a_notebook_shows_render_with_their_calls(seeded):
    store, _ = seeded
    conflicts = store.open_conflicts()
    assert conflicts, "the seed's contradiction opens a conflict"
    html = conflicts._repr_html_()
    for c in conflicts:
        assert f"store.resolve_conflict({c.id}, winner_id=" in html
        assert f"store.resolve_both_stand({c.id}" in html
    queue = store.open_questions()
    html = queue._repr_html_()
    assert all(q.title in html for q in queue) and "Who owns the Atlas rollout?" in html
    assert "<table" in store.census()._repr_html_()
    # The rule extractor cuts every quote from its text, so the seed refuses nothing.
    assert len(store.dropped_facts()) == 0
    assert "no fact was refused" in store.dropped_facts(stage="anchor")._repr_html_()
    assert repr(store.census()).startswith("Census(")


def test_curves_and_trends_agree_with_the_runs_they_were_drawn_from(seeded, tmp_path):
    import pandas as pd

    from evals.compare import compare, list_runs
    from evals.curves import rule_curves
    from evals.trends import trend_points

    store, _ = seeded
    made = ensure_eval_runs(store, home=tmp_path)
    assert len(made) == 3
    assert ensure_eval_runs(store, home=tmp_path) == []  # enough runs recorded
    runs = list_runs(tmp_path, "conflict-precision")
    assert sorted(r.run_id for r in runs) == sorted(made)
    assert "<table" in runs._repr_html_()
    for run in runs:
        items = pd.read_parquet(run.path / "items.parquet").to_dict("records")
        curves = rule_curves(items)
        assert curves.cosine.auc == pytest.approx(run.metrics["auc_cosine"], abs=1e-4)
        assert curves.combined.auc == pytest.approx(run.metrics["auc_combined"], abs=1e-4)
        assert curves.positives + curves.negatives == run.item_count
    points = trend_points(runs)
    ordered = sorted(runs, key=lambda r: (r.started_at, r.run_id))
    for before, after in zip(ordered, ordered[1:], strict=False):
        judged = compare(before.run_id, after.run_id, tmp_path)
        assert {p.metric for p in points if p.run_id == after.run_id and p.regressed} == \
            {d.name for d in judged.regressions}
        assert "<table" in judged._repr_html_()
    evidence = [e for q in store.open_questions() for e in q.evidence]
    assert sum(any(r in e.note for r in made) for e in evidence) >= len(made)


# -- the controls, each on a fresh store of its own ------------------------------------------


def test_timeline_explorer_requeries_and_keeps_its_last_answer_on_a_refusal(store):
    store.write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "city", "value": "Paris", "valid_from": "2020"}]},
        now=datetime(2026, 1, 1, tzinfo=UTC))
    store.write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "city", "value": "Lisbon", "valid_from": "2024"}]},
        now=datetime(2026, 2, 1, tzinfo=UTC))
    from factstore.notebook.controls import TimelineExplorer

    explorer = TimelineExplorer(store, "me", "city")
    assert [v for v, _ in explorer.known_at.options][-1] == "now"
    assert len(explorer.known_at.options) == 3
    assert [f.value for f in explorer.last.keys[0].current] == ["Lisbon"]
    explorer.as_of.value = "2022"
    assert [f.value for f in explorer.last.keys[0].current] == ["Paris"]
    kept = explorer.last
    explorer.as_of.value = "the day after never"
    assert explorer.error and "as_of" in explorer.error
    assert explorer.last is kept
    explorer.as_of.value = "now"
    first = explorer.known_at.options[0][1]
    explorer.known_at.value = first  # believed right after the first write: Paris only
    assert explorer.error is None and explorer.last.known_at == first
    assert [f.value for f in explorer.last.keys[0].current] == ["Paris"]


def _open_conflict(store):
    # Two DECISIONs about one subject: a changed decision is contested, not revised.
    say(store, "The release train ships on Friday.", "DECISION")
    say(store, "The release train ships on Monday.", "DECISION")
    (conflict,) = store.open_conflicts()
    return conflict


def test_conflict_card_resolves_through_the_store_and_a_refusal_writes_nothing(store):
    from factstore.notebook.controls import ConflictCard

    conflict = _open_conflict(store)
    card = ConflictCard(store, conflict)
    card.reasoning.value = "   "
    card.a_wins.click()
    assert card.error and "reasoning" in card.error
    assert [c.id for c in store.open_conflicts()] == [conflict.id]
    assert not card.a_wins.disabled
    card.reasoning.value = "Monday is on the calendar"
    card.b_wins.click()
    assert card.error is None and card.last.winner == conflict.fact_b.id
    assert card.last.resolution == "head-to-head" and card.a_wins.disabled
    assert store.open_conflicts() == []
    assert store.fact(conflict.fact_a.id).verdict == "superseded"
    card.both_stand.click()  # a disabled button clicked from code: the store refuses
    assert card.error and store.fact(conflict.fact_a.id).verdict == "superseded"


def test_conflict_card_both_stand_keeps_both_active(store):
    from factstore.notebook.controls import ConflictCard

    conflict = _open_conflict(store)
    card = ConflictCard(store, conflict)
    card.reasoning.value = "two trains, two days"
    card.both_stand.click()
    assert card.last.resolution == "both-stand"
    assert {store.fact(i).verdict for i in (conflict.fact_a.id, conflict.fact_b.id)} == \
        {"active"}


def test_candidate_review_decides_once(store):
    from factstore.notebook.controls import CandidateReview

    store.registry_propose_root("atlas", "Project Atlas")
    (candidate,) = store.registry_candidates()
    review = CandidateReview(store, candidate)
    review.reason.value = "a real project"
    review.approve.click()
    assert review.error is None and review.last.status == "approved"
    assert store.registry_candidates() == []
    review.reject.click()
    assert review.error
    assert [c.proposed_tag for c in store.registry_candidates("approved")] == ["atlas"]
    assert store.registry_candidates("rejected") == []


# -- dropped facts ---------------------------------------------------------------------------


def test_dropped_facts_keep_stage_and_reason_over_a_generated_stream(store):
    rng = random.Random(12)
    expected: Counter[str] = Counter()
    documents = {}
    for i in range(60):
        text = f"service-{i % 9} runs on port {8000 + i}"
        good = fact(f"Service-{i % 9} runs on port {8000 + i}.", quote=text)
        choice = rng.choice(("good", "anchor", "kind", "statement", "restated"))
        extra = []
        if choice == "anchor":
            extra = [fact("Port 1 is open.", quote="port one is open")]
        elif choice == "kind":
            extra = [fact("Something odd.", kind="RUMOUR", quote=text)]
        elif choice == "statement":
            extra = [fact("  ", quote=text)]
        if choice in ("anchor", "kind", "statement"):
            expected[choice] += 1
        store.extractor.add(text, good, *extra)
        result = store.remember(text, source_ref=f"stream:{i}")
        documents[result.document.id] = choice
        if choice == "restated":  # the same capture again: refusals are not repeated
            store.remember(text, source_ref=f"stream:{i}")
    dropped = store.dropped_facts()
    assert Counter(d.stage for d in dropped) == expected
    for record in dropped:
        assert documents[record.document_id] == record.stage
        assert record.reason.startswith(record.stage + ":")
        assert record.extracted_by == "scripted/test"
    assert [d.id for d in dropped] == sorted((d.id for d in dropped), reverse=True)
    anchors = store.dropped_facts(stage="anchor")
    assert {d.stage for d in anchors} <= {"anchor"} and len(anchors) == expected["anchor"]
    assert len(store.dropped_facts(limit=2)) == min(2, len(dropped))
    with pytest.raises(InvalidInput):
        store.dropped_facts(limit=0)


def _dataset_texts(limit: int) -> list[str]:
    """Conversation turns from the project's LoCoMo-format fixture (shipped with the evals),
    so the test never needs the external datasets."""
    import json

    from evals.registry import DATA

    texts: list[str] = []
    for sample in json.loads((DATA / "locomo.json").read_text(encoding="utf-8")):
        for key, turns in sample.get("conversation", {}).items():
            if key.startswith("session_") and isinstance(turns, list):
                texts += [t["text"] for t in turns if isinstance(t, dict) and t.get("text")]
    assert texts, "the LoCoMo fixture has no turns"
    return texts[:limit]


def test_census_and_dropped_on_real_conversation_text(open_store):
    texts = _dataset_texts(120)
    store = open_store(extractor=RuleExtractor())
    written = 0
    for i, text in enumerate(texts):
        result = store.remember(text, source_ref=f"locomo:{i}")
        written += len(result.facts)
    census = store.census()
    assert sum(d.count for d in census.documents) == store.describe().documents
    assert sum(f.count for f in census.facts) == _totals(store)[0] >= written
    for record in store.dropped_facts():
        assert record.stage in ("anchor", "kind", "statement")
