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


def test_a_fact_in_two_conflicts_stays_contested_until_both_close(store):
    green, red, first = _contest(store)
    result = say(store, YELLOW, "DECISION")
    second = result.interrupts[0].conflict_id
    assert result.interrupts[0].existing.fact_id in (green.id, red.id)
    partner = result.interrupts[0].existing.fact_id
    other = first
    store.resolve_both_stand(other, "both stand")
    assert store.fact(partner).verdict == "contested"  # still in the second conflict
    store.resolve_both_stand(second, "all three are true in different regions")
    assert store.fact(partner).verdict == "active"


def test_superseding_a_fact_closes_its_other_conflicts(store):
    green, red, first = _contest(store)
    result = say(store, YELLOW, "DECISION")
    second = result.interrupts[0].conflict_id
    loser = result.interrupts[0].existing.fact_id
    yellow = result.outcomes[0].fact.id
    survivor = red.id if loser == green.id else green.id
    store.resolve_conflict(second, yellow, "yellow is the latest reading")
    closed = store.conflict(first)
    assert (closed.status, closed.resolution, closed.winner, closed.settled_by) == (
        "resolved", "partner-superseded", survivor, yellow)
    # The survivor says Friday or Monday; the winner says Wednesday. Nobody decided between
    # those two, so the survivor is not released: it stays contested against the winner.
    assert store.fact(survivor).verdict == "contested"
    assert store.fact(yellow).verdict == "contested"
    [inherited] = store.open_conflicts()
    assert {inherited.fact_a.id, inherited.fact_b.id} == {survivor, yellow}
    assert inherited.lane == "inherited" and inherited.differences


def test_a_withdrawn_side_releases_its_partner(store):
    old, new, cid = _contest(store)
    store.retract(new.id, reason="said in jest")
    closed = store.conflict(cid)
    assert (closed.status, closed.resolution, closed.winner) == (
        "resolved", "partner-withdrawn", old.id)
    # Nothing replaced the withdrawn side, so nothing contradicts the partner any more.
    assert store.fact(old.id).verdict == "active"
    assert store.open_conflicts() == []
