"""Rule 2 (corroboration, as ``observations.holder`` reads it) for many writes to one key
between two resolutions.

A backfill writes thousands of facts to a key and resolves it once at the end, so the stored
effective ends are stale while it runs. Validity needs no resolution, though: a live fact
holds at t when it started by t, its stated valid_to is after t, and no live fact of its
timeline starts in (its start, t] (that start would have ended it, rule 5). Keeping the
starts sorted answers that by bisection.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from datetime import datetime

from factstore.timelines.cardinality import MANY
from factstore.timelines.dates import start_of
from factstore.timelines.model import TimelineFact
from factstore.timelines.resolution import sort_start
from factstore.timelines.values import value_key


class CorroborationIndex:
    """The live facts of one key, indexed for ``find`` (``observations.holder`` without the
    rule-6 disputes a resolution would find)."""

    def __init__(self, facts: Iterable[TimelineFact], cardinality: str) -> None:
        self.cardinality = cardinality
        self._by_value: dict[tuple[str, str], list[TimelineFact]] = {}
        self._starts: dict[object, list[datetime]] = {}
        self._groups: dict[tuple[object, datetime], list[TimelineFact]] = {}
        for fact in facts:
            if not fact.retracted:
                self.add(fact)

    def _timeline(self, key: tuple[str, str]) -> object:
        # A one attribute is one timeline; a many attribute has one per value.
        return key if self.cardinality == MANY else None

    def add(self, fact: TimelineFact) -> None:
        """Index a live fact (one just written, or one already stored)."""
        self._by_value.setdefault(fact.value_key, []).append(fact)
        timeline = self._timeline(fact.value_key)
        bisect.insort(self._starts.setdefault(timeline, []), sort_start(fact))
        self._groups.setdefault((timeline, sort_start(fact)), []).append(fact)

    def holds(self, fact: TimelineFact, instant: datetime) -> bool:
        start = sort_start(fact)
        stated_end = start_of(fact.valid_to)
        if instant < start or (stated_end is not None and instant >= stated_end):
            return False
        timeline = self._timeline(fact.value_key)
        starts = self._starts.get(timeline, [])
        if bisect.bisect_right(starts, instant) != bisect.bisect_right(starts, start):
            return False
        # Same start, same value: the newer observation ends the older at once (rule 5 on a
        # tie). Same start, different values: a dispute, and every side keeps its range.
        group = self._groups[(timeline, start)]
        if len({f.value_key for f in group}) == 1:
            return fact is max(group, key=lambda f: (f.claim_observed_at, f.id))
        return True

    def _disputed(self, fact: TimelineFact) -> bool:
        group = self._groups[(self._timeline(fact.value_key), sort_start(fact))]
        return len({f.value_key for f in group}) > 1

    def find(self, value: str, unit: str | None, valid_from: str | None,
             observed_at: datetime, valid_to: str | None = None) -> TimelineFact | None:
        """What ``observations.holder`` finds, from the index: a live fact making the same
        claim (value, start, end), else one of the value and end holding at the start that
        is not in a dispute (rule 4 is visible in the index; a rule-6 dispute is not, and
        the settling after the backfill's resolution catches what that misses)."""
        instant = start_of(valid_from) or observed_at
        end = start_of(valid_to)
        same_value = [f for f in self._by_value.get(value_key(value, unit), [])
                      if start_of(f.valid_to) == end]
        same_claim = [f for f in same_value if sort_start(f) == instant]
        if same_claim:
            return max(same_claim, key=lambda f: (f.observed_at, f.id))
        if valid_to is not None:
            return None  # an end at another start is news (observations.holder)
        matches = [f for f in same_value if self.holds(f, instant) and not self._disputed(f)]
        return max(matches, key=lambda f: (f.claim_observed_at, f.id)) if matches else None
