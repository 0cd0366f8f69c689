"""Support counting (distinct lineages with current testimony), lineage modes, source
removal and restoration, and re-extraction, against the real store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from factstore.errors import InvalidInput, SourceNotFound, SourceRemoved, SourceStateError
from tests.helpers import ScriptedExtractor, fact, say

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FRIDAY = "The release train ships on Friday."


def _say_in(store, lineage_ref: str, *statements: str, kind: str = "DECISION",
            source_type: str = "utterance", text: str | None = None, **capture):
    """One capture from ``lineage_ref`` asserting each statement (quote = statement)."""
    text = text or " ".join(s.rstrip(".") + "." for s in statements)
    store.extractor.add(text, *(fact(s, kind, quote=s.rstrip(".")) for s in statements))
    return store.remember(text, source_ref=lineage_ref, source_type=source_type, **capture)


def _snapshot(store):
    """What removal and restoration may change: verdicts, supports, open conflict pairs."""
    facts = store.facts_by_verdict()
    return ({f.id: (f.verdict.value, f.support_count) for f in facts},
            sorted(tuple(sorted((c.fact_a.id, c.fact_b.id))) for c in store.open_conflicts()))


# -- never inflated -------------------------------------------------------------------------


def test_repeated_testimony_from_one_lineage_never_raises_the_count(store):
    one = say(store, FRIDAY, "DECISION", source_ref="standup").outcomes[0].fact
    for n in range(3):  # the same session says it again, in new versions
        _say_in(store, "standup", FRIDAY, text=f"{FRIDAY} (again, {n})")
    assert store.fact(one.id).support_count == 1
    _say_in(store, "retro", FRIDAY)
    assert store.fact(one.id).support_count == 2
    assert store.why(one.id).lineages == ("utterance:retro", "utterance:standup")


def test_a_sentence_repeated_inside_one_document_is_one_support(store):
    text = f"{FRIDAY} I repeat: {FRIDAY} Yes, the release train ships on Friday"
    store.extractor.add(text, fact(FRIDAY, "DECISION", quote=FRIDAY.rstrip(".")),
                        fact(FRIDAY, "DECISION", quote=FRIDAY.rstrip(".")),
                        fact(FRIDAY, "DECISION", quote="the release train ships on Friday"))
    result = store.remember(text, source_ref="memo")
    first = result.outcomes[0].fact
    assert store.fact(first.id).support_count == 1
    assert len(store.claims(fact_id=first.id)) == 2  # two wordings, one lineage


def test_version_churn_on_one_lineage_never_raises_the_count(store):
    for version in range(1, 4):
        result = _say_in(store, "docs/release.md", FRIDAY, source_type="file",
                         text=f"# Release (v{version})\n{FRIDAY}")
        assert result.document.version == version
    (friday,) = store.facts_by_verdict("active")
    assert friday.support_count == 1
    # living: only the latest version's claim is current testimony
    assert [c.document_version for c in store.claims(fact_id=friday.id)] == [3]
    old = store.claims(fact_id=friday.id, historical=True)
    assert sorted(c.superseded_why or "current" for c in old) == [
        "current", "living-version", "living-version"]


def _reread(open_store, generation: str, *facts):
    """FRIDAY remembered by one extractor, then the document read again by another
    generation that finds ``facts`` in it. Returns the store, the fact and the re-read."""
    first = ScriptedExtractor()
    store = open_store(extractor=first)
    text = first.add(FRIDAY.rstrip("."), fact(FRIDAY, "DECISION"))
    written = store.remember(text, source_ref="memo").outcomes[0].fact
    second = ScriptedExtractor()
    second.name = generation
    second.add(text, *facts)
    store.extractor = second
    (again,) = store.extract_documents(regenerate=True)
    return store, written, again


def test_reextraction_by_a_new_generation_never_raises_the_count(open_store):
    store, written, again = _reread(open_store, "scripted/v2", fact(
        "Trains to production leave on Fridays.", "DECISION", quote=FRIDAY.rstrip(".")))
    assert again.outcomes[0].outcome == "unchanged" and again.outcomes[0].fact.id == written.id
    assert store.fact(written.id).support_count == 1
    claims = store.claims(fact_id=written.id, historical=True)
    assert {(c.extractor, c.status) for c in claims} == {("scripted/test", "superseded"),
                                                        ("scripted/v2", "current")}
    assert not store.fact(written.id).support_withdrawn


# -- lineage modes --------------------------------------------------------------------------


def test_the_mode_defaults_by_source_type_and_can_be_set(store):
    _say_in(store, "ops/runbook.md", FRIDAY, source_type="file")
    _say_in(store, "standup", "The release train ships on Monday.")
    modes = {x.lineage: (x.mode, x.mode_set) for x in store.lineages()}
    assert modes == {"file:ops/runbook.md": ("living", False),
                     "utterance:standup": ("snapshot", False)}
    changed = store.set_lineage_mode("utterance:standup", "living", "a standing agenda")
    assert (changed.mode, changed.mode_set) == ("living", True)
    with pytest.raises(InvalidInput, match="mode must be one of snapshot, living"):
        store.set_lineage_mode("utterance:standup", "rolling")
    with pytest.raises(SourceNotFound):
        store.set_lineage_mode("utterance:never", "living")


def test_a_living_version_that_drops_a_statement_withdraws_its_support(store):
    monday = "Deploys freeze on Monday."
    _say_in(store, "ops/runbook.md", FRIDAY, monday, source_type="file")
    _say_in(store, "ops/runbook.md", FRIDAY, source_type="file",
            text=f"{FRIDAY} (the freeze was dropped)")
    friday = next(f for f in store.facts_by_verdict() if f.statement == FRIDAY)
    frozen = next(f for f in store.facts_by_verdict() if f.statement == monday)
    assert (friday.support_count, friday.support_withdrawn) == (1, False)
    # never silently gone: same verdict, no current support, served with a caveat
    assert (frozen.verdict, frozen.support_count, frozen.support_withdrawn) == ("active", 0,
                                                                                 True)
    assert store.history(frozen.id)[-1].reason.startswith("support withdrawn")
    assert store.history(frozen.id)[-1].reason_code == "support_withdrawn"
    item = next(i for i in store.recall("When do deploys freeze?").items
                if i.fact and i.fact.id == frozen.id)
    assert item.label.code == "support-withdrawn" and not item.label.present_tense
    assert store.why(frozen.id).supports[0].not_current == "superseded (living-version)"
    # as a snapshot lineage every version is testimony again
    store.set_lineage_mode("file:ops/runbook.md", "snapshot")
    assert store.fact(frozen.id).support_count == 1


def test_a_snapshot_lineage_keeps_every_version(store):
    monday = "Deploys freeze on Monday."
    _say_in(store, "standup", FRIDAY, monday)
    _say_in(store, "standup", FRIDAY, text=f"{FRIDAY} (day two)")
    frozen = next(f for f in store.facts_by_verdict() if f.statement == monday)
    assert (frozen.support_count, frozen.support_withdrawn) == (1, False)


def test_a_reextraction_that_fails_to_rederive_a_fact_serves_it_with_a_caveat(open_store):
    store, written, again = _reread(open_store, "scripted/blind")  # finds nothing
    assert again.outcomes == ()
    after = store.fact(written.id)
    assert (after.verdict, after.support_count, after.support_withdrawn) == ("active", 0, True)
    assert "re-extraction" in store.history(written.id)[-1].reason
    (item,) = [i for i in store.recall("When does the release train ship?").items if i.fact]
    assert item.fact.id == written.id and item.label.code == "support-withdrawn"


# -- removal and restoration ----------------------------------------------------------------


def test_a_fact_supported_by_two_documents_survives_removal_of_either(store):
    one = _say_in(store, "standup", FRIDAY).outcomes[0].fact
    _say_in(store, "retro", FRIDAY)
    for lineage, other in (("utterance:standup", "utterance:retro"),
                           ("utterance:retro", "utterance:standup")):
        change = store.remove_source(lineage, "misattributed")
        assert change.closed == ()
        assert [(c.fact_id, c.before, c.after) for c in change.changed] == [(one.id, 2, 1)]
        survivor = store.fact(one.id)
        assert (survivor.verdict, survivor.support_count) == ("active", 1)
        assert store.why(one.id).lineages == (other,)
        store.restore_source(lineage, "attribution checked")
        assert store.fact(one.id).support_count == 2


def test_sole_support_removed_closes_the_fact_recorded_and_reversible(store):
    kept = _say_in(store, "standup", "Deploys freeze on Monday.").outcomes[0].fact
    gone = _say_in(store, "rumour-mill", FRIDAY).outcomes[0].fact
    before = _snapshot(store)
    change = store.remove_source("utterance:rumour-mill", "never said")
    assert change.closed == (gone.id,) and change.documents == 1 and change.claims == 1
    closed = store.fact(gone.id)
    assert (closed.verdict, closed.support_count) == ("withdrawn", 0)
    last = store.history(gone.id)[-1]
    assert last.reason.startswith("retracted_source_removal") and "never said" in last.reason
    assert (last.reason_code, last.lineage_event) == ("retracted_source_removal",
                                                     change.event_id)
    described = store.describe()
    assert (described.removed_sources, described.claims, described.current_claims) == (1, 2, 1)
    assert all(i.fact is None or i.fact.id != gone.id
               for i in store.recall("When does the release train ship?").items)
    assert store.claims(lineage="utterance:rumour-mill") == []  # removed: not current
    assert store.claims(lineage="utterance:rumour-mill", historical=True)[0].status == "removed"
    assert store.fact(kept.id).verdict == "active"
    restored = store.restore_source("utterance:rumour-mill", "it was said after all")
    assert restored.reopened == (gone.id,)
    assert _snapshot(store) == before
    assert store.history(gone.id)[-1].reason_code == "restored_source"
    assert store.history(gone.id)[-1].lineage_event == restored.event_id


def test_removing_one_side_of_a_contradiction_never_deletes_both(store):
    friday = _say_in(store, "standup", FRIDAY).outcomes[0].fact
    monday = _say_in(store, "gossip", "The release train ships on Monday.").outcomes[0]
    assert monday.outcome == "contested"
    before = _snapshot(store)
    store.remove_source("utterance:gossip", "not a reliable source")
    assert store.fact(friday.id).verdict == "active"  # released: nothing contradicts it now
    assert store.fact(monday.fact.id).verdict == "withdrawn"
    assert store.open_conflicts() == []
    change = store.restore_source("utterance:gossip", "reliable after all")
    assert len(change.conflicts_reopened) == 1
    assert _snapshot(store) == before  # both contested again, one open conflict


def test_a_restored_fact_meets_what_was_written_while_it_was_closed(store):
    friday = _say_in(store, "standup", FRIDAY).outcomes[0].fact
    store.remove_source("utterance:standup", "checking")
    monday = _say_in(store, "retro", "The release train ships on Monday.").outcomes[0]
    assert monday.outcome == "written"  # nothing live to contradict
    change = store.restore_source("utterance:standup", "checked")
    assert change.reopened == (friday.id,) and len(change.conflicts_reopened) == 1
    assert {store.fact(friday.id).verdict, store.fact(monday.fact.id).verdict} == {"contested"}


def test_source_calls_refuse_what_they_cannot_do_and_write_nothing(store):
    _say_in(store, "standup", FRIDAY)
    counts = store.row_counts()
    with pytest.raises(SourceNotFound, match="lineages()"):
        store.remove_source("utterance:nowhere", "x")
    with pytest.raises(SourceStateError, match="not removed"):
        store.restore_source("utterance:standup", "x")
    with pytest.raises(InvalidInput, match="reason"):
        store.remove_source("utterance:standup", "  ")
    with pytest.raises(InvalidInput, match="lineage"):
        store.remove_source(7, "x")  # type: ignore[arg-type]
    assert store.row_counts() == counts
    store.remove_source("utterance:standup", "x")
    with pytest.raises(SourceStateError, match="already removed"):
        store.remove_source("utterance:standup", "again")


def test_a_removed_source_takes_no_new_version_until_restored(store):
    text = _say_in(store, "standup", FRIDAY).document
    store.remove_source("utterance:standup", "retired")
    rerun = store.remember(FRIDAY, source_ref="standup")  # the same capture: a re-run
    assert rerun.document.id == text.id and rerun.document.duplicate
    counts = store.row_counts()
    with pytest.raises(SourceRemoved, match="restore_source"):
        _say_in(store, "standup", "The release train ships on Monday.")
    assert store.row_counts() == counts
    store.restore_source("utterance:standup", "back")
    assert _say_in(store, "standup", "Deploys freeze on Monday.").document.version == 2


def test_lineages_list_their_state(store):
    _say_in(store, "standup", FRIDAY, said_at=T0)
    _say_in(store, "retro", "Deploys freeze on Monday.", said_at=T0 + timedelta(days=1))
    store.remove_source("utterance:retro", "duplicate meeting")
    listed = store.lineages()
    assert [x.lineage for x in listed] == ["utterance:retro", "utterance:standup"]
    assert [x.removed for x in listed] == [True, False]
    assert [x.lineage for x in store.lineages(removed=True)] == ["utterance:retro"]
    assert listed.to_pandas()["current_claims"].tolist() == [0, 1]
    assert store.lineage("utterance:standup").claims == 1
