"""Reading a key for a brief's line: whole when it is short, a window of it when it is long.

A brief (and recall's timeline lines) shows one line per key: what holds at the instant, a
few earlier and a few later values (render.MAX_LISTED), each counted beyond that. Reading a
10,000-fact key whole for that costs its whole length (every row, its corroborations, the
merge in Python). So a key with more than ``cap`` facts in a scope is read as a window: every
live fact valid at the instant (up to ``cap``: what answers), and the ``side`` live facts
that start nearest before and after it (what the was/later lists name). What the window
leaves out is counted, earlier and later by start, so the line can say so
(render.unread_note); nothing is dropped unsaid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from factstore.store import timelines as timeline_sql
from factstore.timelines.model import TimelineFact

#: A key with at most this many facts in a scope is read whole (the answer a brief gave
#: before windows existed, fact for fact).
KEY_READ_CAP = 500
#: How many live facts a window reads on each side of the instant.
WINDOW_SIDE = 100


@dataclass(frozen=True)
class KeyRead:
    """One key in one scope as read for a line: its facts, and the live facts left out."""

    facts: list[TimelineFact]
    earlier_unread: int = 0
    later_unread: int = 0
    #: read because the question named its value and asks who or what holds it
    holder: bool = False


_COUNTS = """
SELECT timeline_scope, count(*) AS n, max(t_captured) AS newest FROM facts
WHERE attribute IS NOT NULL AND timeline_scope = ANY(%(scopes)s) AND subject = %(subject)s
  AND attribute = %(attribute)s
GROUP BY timeline_scope ORDER BY newest DESC, timeline_scope
"""

# 'withdrawn' is a retraction: never shown in a line, so never worth a window's place.
# A fact starts at valid_from's start, else when it was observed (resolution.sort_start).
_WINDOW = """
WITH k AS MATERIALIZED (
    SELECT id, coalesce(valid_from_at, observed_at) AS start, effective_valid_to_at AS end_at,
           verdict <> 'withdrawn' AS live
    FROM facts WHERE attribute IS NOT NULL AND timeline_scope = %(scope)s
      AND subject = %(subject)s AND attribute = %(attribute)s),
picked AS (
    (SELECT id FROM k WHERE live AND start <= %(at)s AND (end_at IS NULL OR end_at > %(at)s)
     ORDER BY start DESC, id DESC LIMIT %(cap)s)
    UNION
    (SELECT id FROM k WHERE live AND start <= %(at)s ORDER BY start DESC, id DESC
     LIMIT %(side)s)
    UNION
    (SELECT id FROM k WHERE live AND start > %(at)s ORDER BY start, id LIMIT %(side)s)
    UNION
    -- a key of retractions alone still reads as one line, (none at ...)
    (SELECT id FROM k WHERE NOT EXISTS (SELECT 1 FROM k WHERE live) ORDER BY id DESC LIMIT 1))
SELECT coalesce(array_agg(k.id ORDER BY k.id) FILTER (WHERE p.id IS NOT NULL), '{}') AS ids,
       count(*) FILTER (WHERE p.id IS NULL AND k.live AND k.start <= %(at)s) AS earlier,
       count(*) FILTER (WHERE p.id IS NULL AND k.live AND k.start > %(at)s) AS later
FROM k LEFT JOIN picked p ON p.id = k.id
"""


def read_for_line(cur: Any, scopes: Sequence[str], subject: str, attribute: str,
                  instant: datetime, *, cap: int | None = None,
                  side: int | None = None) -> list[KeyRead]:
    """The key's facts per scope (newest-written scope first), each whole when it has at
    most ``cap`` facts (KEY_READ_CAP), else the window around ``instant`` (WINDOW_SIDE a
    side) with what it left out counted."""
    cap = KEY_READ_CAP if cap is None else cap
    side = WINDOW_SIDE if side is None else side
    cur.execute(_COUNTS, {"scopes": list(scopes), "subject": subject, "attribute": attribute})
    out = []
    for row in cur.fetchall():
        key = (row["timeline_scope"], subject, attribute)
        if row["n"] <= cap:
            out.append(KeyRead(timeline_sql.load_key(cur, key)))
        else:
            out.append(_window(cur, key, instant, cap, side))
    return [read for read in out if read.facts]


def _window(cur: Any, key: tuple[str, str, str], instant: datetime, cap: int,
            side: int) -> KeyRead:
    scope, subject, attribute = key
    cur.execute(_WINDOW, {"scope": scope, "subject": subject, "attribute": attribute,
                          "at": instant, "cap": cap, "side": side})
    row = cur.fetchone()
    cur.execute(f"SELECT {timeline_sql.TIMELINE_COLUMNS} FROM facts WHERE id = ANY(%s) "
                "ORDER BY id", (list(row["ids"]),))
    facts = timeline_sql.with_observations(
        cur, [timeline_sql.timeline_fact(r) for r in cur.fetchall()])
    return KeyRead(facts, row["earlier"], row["later"])
