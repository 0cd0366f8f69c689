"""Corroborating observations, kept and re-checked (issue 8): the timeline depends on the
set of observations, not on the order they arrived in.

Rule 2 stores no new fact for a write that repeats a live fact valid at its start. The
observation is not thrown away, though: it is kept as evidence on the fact it corroborated,
with its own value, start, end and observation time. Whether it still corroborates depends
on the rest of the timeline, which later writes change: "6 from 2020" corroborates "6 from
2019" until "3 from 2019-06" arrives and ends the 6 at 2019-06. So every time a key is
re-resolved its corroborations are read again (:func:`settle`):

- one still held by a live fact of its value keeps (or moves to) that fact;
- one that no live fact of its value holds at its start any more becomes a fact of its own,
  the earliest first (by start, then observation time), and the key is resolved again, since
  the new fact may hold the next one.

A corroboration is a redundant observation: storing it as a fact would change nothing a
read shows. So it must hold where the fact it repeats is the one answer. A disputed fact
takes only repeats of its own claim: "3 from 2019-06" against a 2019 dispute between 3 and
4 is news, since from 2019-06 it says the value is 3.

An observation with a stated end corroborates only the very same claim (value, start and
end): "6 from 2020 until 2021" is news about when the 6 stopped, never swallowed as a
repeat, and by rule 6 it may say the 6 outlived what followed it. An open observation
corroborates only an open fact: "6 from 2019" after "6 from 2019 until 2021" is news too
(a newer observation that does not end it), whichever of the two arrives first.

Pure functions over plain data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from factstore.timelines.dates import start_of
from factstore.timelines.model import TimelineFact
from factstore.timelines.resolution import DISPUTED, corroborated_by, sort_start
from factstore.timelines.values import value_key

__all__ = ["Observation", "holder", "settle"]


@dataclass(frozen=True)
class Observation:
    """One corroborating observation, as kept on the evidence row."""

    id: int
    #: the fact it is evidence on now
    fact_id: int
    value: str
    unit: str | None
    valid_from: str | None
    valid_to: str | None
    observed_at: datetime
    source: str | None = None
    quote: str | None = None
    confidence: float | None = None

    def start(self) -> datetime:
        return start_of(self.valid_from) or self.observed_at


def holder(value: str, unit: str | None, valid_from: str | None, valid_to: str | None,
           observed_at: datetime, facts: Sequence[TimelineFact], cardinality: str,
           prefer: int | None = None) -> TimelineFact | None:
    """The live fact an observation corroborates, or None when it is news.

    First a fact making the very same claim (value, start and end), whatever its range
    became: a repeat of a claim is redundant even when a newer claim at the same start cut
    the first one to nothing. Else rule 2, with the stated ends agreeing and a disputed fact
    taking only repeats of its own start. ``prefer`` keeps an observation on the fact it is
    already on when that fact still holds it, so settling moves nothing needlessly.
    """
    start = start_of(valid_from) or observed_at
    wanted = value_key(value, unit)
    live = [f for f in facts if not f.retracted and _same_end(f.valid_to, valid_to)]
    same_claim = [f for f in live if f.value_key == wanted and sort_start(f) == start]
    if same_claim:
        return _pick(same_claim, prefer)
    if valid_to is not None:
        # A stated end at another start is news: by rule 6 it may say the value outlived
        # the fact that followed it, which only a fact of its own can say.
        return None
    candidates = [f for f in live if f.status != DISPUTED]
    found = corroborated_by(value, unit, valid_from, observed_at, candidates, cardinality)
    if found is None or prefer is None or found.id == prefer:
        return found
    kept = next((f for f in candidates if f.id == prefer), None)
    if kept is not None and corroborated_by(value, unit, valid_from, observed_at, [kept],
                                            cardinality) is not None:
        return kept
    return found


def _pick(facts: Sequence[TimelineFact], prefer: int | None) -> TimelineFact:
    kept = next((f for f in facts if f.id == prefer), None)
    return kept or max(facts, key=lambda f: (f.observed_at, f.id))


def _same_end(stated: str | None, written: str | None) -> bool:
    # Both open, or both ending at one instant: anything else says something else about
    # the end, whichever of the two arrived first.
    return start_of(stated) == start_of(written)


def settle(facts: Sequence[TimelineFact], observations: Sequence[Observation],
           cardinality: str) -> tuple[dict[int, int], Observation | None]:
    """Read every corroboration against the resolved facts of its key.

    Returns the observations that must move to another fact (observation id -> fact id) and
    the first observation no fact holds any more (earliest start, then observation time,
    then id), which the caller stores as a fact before settling again; None when every
    observation is held.
    """
    moves: dict[int, int] = {}
    orphans: list[Observation] = []
    for obs in observations:
        held = holder(obs.value, obs.unit, obs.valid_from, obs.valid_to, obs.observed_at,
                      facts, cardinality, prefer=obs.fact_id)
        if held is None:
            orphans.append(obs)
        elif held.id != obs.fact_id:
            moves[obs.id] = held.id
    first = min(orphans, key=lambda o: (o.start(), o.observed_at, o.id), default=None)
    return moves, first
