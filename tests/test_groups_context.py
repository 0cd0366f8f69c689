"""Contradiction groups through recall, and Store.context's two envelopes, against the real
store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from factstore import Settings
from factstore.errors import GroupNotFound, InvalidInput
from tests.helpers import fact, say

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TIMES = ("1am", "2am", "3am", "4am", "5am")


def _backups(store, times=TIMES):
    """Decisions about one subject that all disagree: one group."""
    return [say(store, f"Nightly backups run at {t}.", "DECISION",
                source_ref=f"memo-{t}") for t in times]


def test_a_new_fact_contests_every_fact_it_contradicts_in_one_group(store):
    results = _backups(store, TIMES[:3])
    ids = [r.outcomes[0].fact.id for r in results]
    pairs = {frozenset((c.fact_a.id, c.fact_b.id)) for c in store.open_conflicts()}
    assert frozenset((ids[0], ids[2])) in pairs  # 1-3, not only the chain 1-2, 2-3
    assert len(pairs) == 3
    assert len({c.group_id for c in store.open_conflicts()}) == 1
    assert set(results[-1].interrupts[0].group_members) == set(ids)


def test_recall_serves_every_co_member_bounded_inline_with_a_continuation(open_store):
    store = open_store(settings=Settings(group_inline=2))
    ids = [r.outcomes[0].fact.id for r in _backups(store)]
    result = store.recall("When do the nightly backups run?", k=1)
    served = [i.fact.id for i in result.items if i.fact]
    first = served[0]
    assert len(served) == 3  # the hit and two co-members inline, never one side alone
    (more,) = result.continuations
    assert set(served) | set(more.remaining) == set(ids)
    assert more.call == f"contradiction_group({more.group_id})"
    assert result.items[0].label.code == "contested"
    assert "one of 5 facts that disagree" in result.items[0].label.text
    assert "and 2 more" in result.items[0].label.text
    group = store.contradiction_group(more.group_id, limit=2)
    assert group.member_ids == tuple(sorted(ids)) and group.status == "open"
    assert [f.id for f in group.members] == sorted(ids)[:2] and group.next_offset == 2
    assert first in group.member_ids
    rest = store.contradiction_group(more.group_id, offset=2, limit=10)
    assert [f.id for f in rest.members] == sorted(ids)[2:] and rest.next_offset is None


def test_resolving_any_conflict_of_a_group_closes_the_group(store):
    ids = [r.outcomes[0].fact.id for r in _backups(store, TIMES[:4])]
    some = store.open_conflicts()[0]
    group = store.contradiction_group(some.group_id)
    store.resolve_conflict(some.id, ids[-1], "the 4am window is in the runbook")
    assert store.open_conflicts() == []
    assert store.contradiction_group(group.id).status == "resolved"
    assert [store.fact(i).verdict for i in ids] == ["superseded"] * 3 + ["active"]
    # nothing was deleted: every loser is still there, superseded by the winner
    assert {store.fact(i).superseded_by for i in ids[:3]} == {ids[-1]}


def test_group_reads_refuse_bad_input(store):
    with pytest.raises(GroupNotFound, match="group #77"):
        store.contradiction_group(77)
    with pytest.raises(InvalidInput, match="limit"):
        store.contradiction_group(1, limit=0)


def test_context_holds_two_complete_envelopes_never_blended(store):
    say(store, "Nightly backups run at 2am.", "DECISION", source_ref="ops-memo")
    say(store, "The office plants are watered on Mondays.", "RULE", source_ref="facilities")
    bundle = store.context("When do nightly backups run?")
    testimony, facts = bundle.claims_and_sources, bundle.facts
    assert (testimony.grain, facts.grain) == ("claim", "fact")
    assert {h.claim.grain for h in testimony.claims} == {"claim"}
    assert {s.grain for s in testimony.sources} == {"document"}
    assert {i.grain for i in facts.items} == {"fact"}
    assert testimony.claims[0].claim.statement == "Nightly backups run at 2am."
    assert testimony.claims[0].source_rank == 1
    assert facts.items[0].fact.statement == "Nightly backups run at 2am."
    frames = bundle.to_pandas()
    assert set(frames) == {"claims_and_sources", "facts"}
    assert frames["facts"]["grain"].unique().tolist() == ["fact"]
    assert bundle.to_polars()["claims_and_sources"]["grain"].to_list()[0] == "claim"
    assert "grain: claim" in bundle._repr_html_()


def test_a_claims_asserted_interval_never_makes_a_fact_current(store):
    old = say(store, "svc-9 is paused until 2030", "STATE", subject="svc-9",
              said_at=T0).outcomes[0].fact
    new = say(store, "svc-9 is running", "STATE", subject="svc-9",
              said_at=T0 + timedelta(hours=1)).outcomes[0].fact
    assert store.fact(old.id).verdict == "superseded"
    (claim,) = store.claims(fact_id=old.id)
    assert claim.valid_to == "2030" and claim.status == "current"  # testimony stands
    bundle = store.context("Is svc-9 paused?", now=T0 + timedelta(hours=2))
    served = [i.fact.id for i in bundle.facts.items]
    assert new.id in served and old.id not in served
    # ... while the testimony envelope still says what the source asserted
    assert old.id in {h.claim.fact_id for h in bundle.claims_and_sources.claims}


def test_context_leaves_out_removed_sources_and_withdrawn_facts(store):
    say(store, "Nightly backups run at 2am.", "DECISION", source_ref="ops-memo")
    store.remove_source("utterance:ops-memo", "retracted memo")
    bundle = store.context("When do nightly backups run?")
    assert bundle.claims_and_sources.claims == () and bundle.claims_and_sources.sources == ()
    assert bundle.facts.items == ()


def test_context_bounds_claims_per_source_with_a_continuation(store):
    text = "Backups run at 2am. Restores are tested monthly. Snapshots live for 30 days."
    store.extractor.add(text, *(fact(s + ".", "RULE", quote=s) for s in text.rstrip(".").split(". ")))
    result = store.remember(text, source_ref="ops-memo")
    bundle = store.context("backups restores snapshots", per_source=2)
    assert len(bundle.claims_and_sources.claims) == 2
    assert bundle.claims_and_sources.continuations == (
        f"claims(document_id={result.document.id})",)
