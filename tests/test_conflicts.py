"""The conflict pipeline's two closing lanes, and their refusals."""

from __future__ import annotations

import pytest

from factstore.errors import ConflictNotFound, ConflictStateError, InvalidInput, WinnerNotInPair
from tests.helpers import say

# DECISIONs: a changed decision about one subject is contested (lane 3); a STATE would be
# revised by its newer reading instead.
GREEN = "The release train ships on Friday."
RED = "The release train ships on Monday."
YELLOW = "The release train ships on Wednesday."


def _contest(store):
    old = say(store, GREEN, "DECISION").outcomes[0].fact
    result = say(store, RED, "DECISION")
    return old, result.outcomes[0].fact, result.interrupts[0].conflict_id


def test_resolve_conflict_winner_active_loser_superseded_with_reasoning(store):
    old, new, cid = _contest(store)
    closed = store.resolve_conflict(cid, new.id, "the dashboard shows red")
    assert (closed.status, closed.winner, closed.resolution) == ("resolved", new.id,
                                                                  "head-to-head")
    assert closed.reasoning == "the dashboard shows red" and closed.resolved_at is not None
    winner, loser = store.fact(new.id), store.fact(old.id)
    assert winner.verdict == "active" and winner.supersedes == old.id
    assert loser.verdict == "superseded" and loser.superseded_by == new.id
    assert loser.t_superseded is not None
    assert "the dashboard shows red" in store.history(old.id)[-1].reason
    assert store.open_conflicts() == []


def test_both_stand_returns_both_to_active_and_records_winner_null(store):
    old, new, cid = _contest(store)
    closed = store.resolve_both_stand(cid, "two different environments")
    assert (closed.status, closed.winner, closed.resolution) == ("resolved", None, "both-stand")
    assert store.fact(old.id).verdict == store.fact(new.id).verdict == "active"
    assert store.fact(old.id).superseded_by is None


def test_both_stand_refuses_a_head_to_head_resolved_conflict(store):
    old, new, cid = _contest(store)
    store.resolve_conflict(cid, old.id, "green is right")
    with pytest.raises(ConflictStateError, match="resurrect"):
        store.resolve_both_stand(cid, "actually both")
    assert store.fact(new.id).verdict == "superseded"


def test_closed_conflicts_cannot_be_closed_again(store):
    _, new, cid = _contest(store)
    store.resolve_both_stand(cid, "both true")
    with pytest.raises(ConflictStateError, match="already"):
        store.resolve_conflict(cid, new.id, "changed my mind")
    with pytest.raises(ConflictStateError, match="already closed"):
        store.resolve_both_stand(cid, "again")


def test_unknown_conflict_and_foreign_winner_are_typed_errors(store):
    old, new, cid = _contest(store)
    bystander = say(store, "The user prefers dark-mode editors.", "PREFERENCE").outcomes[0].fact
    with pytest.raises(ConflictNotFound, match="no conflict #999"):
        store.resolve_conflict(999, new.id, "x")
    with pytest.raises(ConflictNotFound):
        store.resolve_both_stand(999, "x")
    with pytest.raises(WinnerNotInPair, match=f"#{old.id} or #{new.id}"):
        store.resolve_conflict(cid, bystander.id, "x")
    with pytest.raises(InvalidInput, match="reasoning"):
        store.resolve_conflict(cid, new.id, "   ")
    with pytest.raises(InvalidInput):
        store.resolve_conflict("1", new.id, "x")  # type: ignore[arg-type]
    # none of the failed calls wrote anything
    assert [c.id for c in store.open_conflicts()] == [cid]
    assert store.fact(old.id).verdict == store.fact(new.id).verdict == "contested"


def test_three_disagreeing_facts_are_one_group_not_a_chain_of_pairs(store):
    """Friday, Monday, Wednesday: the third contests both, so 1-3 exists beside 1-2 and 2-3."""
    green, red, first = _contest(store)
    result = say(store, YELLOW, "DECISION")
    yellow = result.outcomes[0].fact.id
    (interrupt,) = result.interrupts
    assert set(interrupt.group_members) == {green.id, red.id, yellow}
    assert len(interrupt.resolve_calls) == 3  # any member may win
    pairs = {frozenset((c.fact_a.id, c.fact_b.id)) for c in store.open_conflicts()}
    assert pairs == {frozenset((green.id, red.id)), frozenset((green.id, yellow)),
                     frozenset((red.id, yellow))}
    assert {c.group_id for c in store.open_conflicts()} == {interrupt.group_id}
    group = store.contradiction_group(interrupt.group_id)
    assert group.status == "open" and group.member_ids == tuple(sorted(
        (green.id, red.id, yellow)))


def test_both_stand_closes_the_whole_group(store):
    green, red, first = _contest(store)
    say(store, YELLOW, "DECISION")
    store.resolve_both_stand(first, "all three are true in different regions")
    assert store.open_conflicts() == []
    assert {c.resolution for c in store.conflicts("resolved")} == {"both-stand"}
    assert all(f.verdict == "active" for f in store.facts_by_verdict(kind="DECISION"))


def test_resolution_closes_the_whole_group_with_one_winner(store):
    green, red, first = _contest(store)
    result = say(store, YELLOW, "DECISION")
    yellow = result.outcomes[0].fact.id
    # the winner need not be in the conflict named: any member of its group may win
    closed = store.resolve_conflict(first, yellow, "yellow is the latest reading")
    assert closed.status == "resolved" and closed.settled_by == yellow
    assert closed.resolution == "both-superseded"  # green and red both lost to yellow
    assert store.open_conflicts() == []
    assert store.fact(yellow).verdict == "active"
    for loser in (green.id, red.id):
        fact = store.fact(loser)
        assert (fact.verdict, fact.superseded_by) == ("superseded", yellow)
    # a contradiction never deletes a fact: every side is still there with its history
    assert {h.to_verdict for h in store.history(green.id)} >= {"contested", "superseded"}
    head_to_head = [c for c in store.conflicts("resolved") if c.winner == yellow]
    assert len(head_to_head) == 2 and all(c.resolution == "head-to-head" for c in head_to_head)


def test_a_withdrawn_side_releases_its_partner(store):
    old, new, cid = _contest(store)
    store.retract(new.id, reason="said in jest")
    closed = store.conflict(cid)
    assert (closed.status, closed.resolution, closed.winner) == (
        "resolved", "partner-withdrawn", old.id)
    # Nothing replaced the withdrawn side, so nothing contradicts the partner any more.
    assert store.fact(old.id).verdict == "active"
    assert store.open_conflicts() == []
