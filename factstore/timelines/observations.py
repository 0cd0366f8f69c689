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

An observation with a stated valid_to corroborates only a fact that states the same end:
"6 from 2020 until 2021" is news about when the 6 stopped, never swallowed as a repeat.

Pure functions over plain data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from factstore.timelines.dates import start_of
from factstore.timelines.model import TimelineFact
from factstore.timelines.resolution import corroborated_by

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
    """The live fact an observation corroborates, or None when it is news (rule 2, and an
    end must match an end). ``prefer`` keeps an observation on the fact it is already on
    when that fact still holds it, so settling moves nothing needlessly."""
    candidates = [f for f in facts if _same_end(f.valid_to, valid_to)]
    found = corroborated_by(value, unit, valid_from, observed_at, candidates, cardinality)
    if found is None or prefer is None or found.id == prefer:
        return found
    kept = next((f for f in candidates if f.id == prefer), None)
    if kept is not None and corroborated_by(value, unit, valid_from, observed_at, [kept],
                                            cardinality) is not None:
        return kept
    return found


def _same_end(stated: str | None, written: str | None) -> bool:
    return written is None or start_of(stated) == start_of(written)


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
