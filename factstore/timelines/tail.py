"""An append at the tail of a one timeline, decided without reading the rest of the key.

Most timeline writes are the newest value of a key: "my shoe size is 42 now". Resolving the
whole key for that costs O(length) (every fact read, every fact re-resolved), although only
the open current fact can change. :func:`plan_append` decides such a write from the key's
tail alone and answers None whenever the rest of the key could matter, so the caller falls
back to the full resolution. The write is an append when:

- the attribute is a one attribute and the write states no valid_to;
- it starts after every live fact of the key;
- the last live start holds exactly one fact, current and open-ended (no dispute there);
- no live fact states an end after that start (rule 6 could reach past it);
- no corroboration of that fact starts at or after the write (it would be orphaned).

Then the write either repeats the current fact (rule 2: kept as its corroboration,
nothing resolves differently) or is news that ends it (rule 5: the old fact is superseded at
the new start, the new one supersedes it and is current). tests/test_timeline_tail.py checks
that this equals the full resolution over generated keys. Pure: no database here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from factstore.timelines.cardinality import ONE
from factstore.timelines.dates import start_of
from factstore.timelines.model import TimelineFact
from factstore.timelines.observations import holder
from factstore.timelines.resolution import CURRENT, rfc3339, sort_start


@dataclass(frozen=True)
class TailAppend:
    """What an append does to the key's current fact (``previous``; None on an empty key)."""

    previous: int | None
    #: the write repeats ``previous``: keep it as its corroboration, store no fact
    corroborates: bool
    #: news: ``previous`` ends here (its effective_valid_to) and is superseded by the write
    previous_end: str | None = None


def plan_append(tail: Sequence[TimelineFact], value: str, unit: str | None,
                valid_from: str | None, valid_to: str | None, observed_at: datetime,
                cardinality: str, *, stated_end_after: bool,
                last_corroboration_start: datetime | None) -> TailAppend | None:
    """The append, or None when the write needs the whole key.

    ``tail``: the key's two live facts with the latest starts (by start, then id, newest
    first); ``stated_end_after``: whether any live fact of the key states a valid_to after
    the latest start; ``last_corroboration_start``: the latest start among the
    corroborations the latest fact keeps.
    """
    if cardinality != ONE or valid_to is not None:
        return None
    start = start_of(valid_from) or observed_at
    if not tail:
        return TailAppend(None, corroborates=False)
    last = tail[0]
    latest = sort_start(last)
    if start <= latest or stated_end_after:
        return None
    if len(tail) > 1 and sort_start(tail[1]) == latest:
        return None  # the last start holds two facts: an agreeing chain or a dispute
    if last.status != CURRENT or last.valid_to is not None or last.retracted:
        return None
    if last_corroboration_start is not None and last_corroboration_start >= start:
        return None
    if holder(value, unit, valid_from, valid_to, observed_at, [last], cardinality) is not None:
        return TailAppend(last.id, corroborates=True)
    end = valid_from if valid_from is not None else rfc3339(observed_at)
    return TailAppend(last.id, corroborates=False, previous_end=end)
