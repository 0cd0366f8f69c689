"""Verdict transitions: the one place a fact's verdict changes, always with a history row."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from factstore.kinds import Verdict


def record(cur: Any, fact_id: int, from_verdict: str | None, to_verdict: str, reason: str,
           at: datetime, conflict_id: int | None = None) -> None:
    cur.execute(
        "INSERT INTO fact_history (fact_id, from_verdict, to_verdict, reason, conflict_id, at) "
        "VALUES (%s, %s, %s, %s, %s, %s)",
        (fact_id, from_verdict, to_verdict, reason, conflict_id, at))


def set_verdict(cur: Any, fact_id: int, to: Verdict, reason: str, at: datetime,
                conflict_id: int | None = None) -> str:
    """Move one fact to a verdict (no-op if already there); returns the previous verdict."""
    cur.execute("SELECT verdict FROM facts WHERE id = %s FOR UPDATE", (fact_id,))
    before = cur.fetchone()["verdict"]
    if before != to.value:
        cur.execute("UPDATE facts SET verdict = %s WHERE id = %s", (to.value, fact_id))
        record(cur, fact_id, before, to.value, reason, at, conflict_id)
    return before


def supersede(cur: Any, loser: int, winner: int, reason: str, at: datetime,
              conflict_id: int | None = None) -> None:
    """Structural supersession: verdict, link and time, then close the loser's other conflicts."""
    cur.execute("SELECT verdict FROM facts WHERE id = %s FOR UPDATE", (loser,))
    before = cur.fetchone()["verdict"]
    cur.execute(
        "UPDATE facts SET verdict = 'superseded', superseded_by = %s, t_superseded = %s "
        "WHERE id = %s", (winner, at, loser))
    cur.execute("UPDATE facts SET supersedes = COALESCE(supersedes, %s) WHERE id = %s",
                (loser, winner))
    record(cur, loser, before, Verdict.SUPERSEDED.value, reason, at, conflict_id)
    close_conflicts_of(cur, loser, at, "superseded", except_conflict=conflict_id)


def close_conflicts_of(cur: Any, loser: int, at: datetime, why: str,
                       except_conflict: int | None) -> None:
    """A superseded or withdrawn fact cannot stay in a head-to-head: its partners win those."""
    cur.execute(
        "SELECT id, CASE WHEN fact_a = %(f)s THEN fact_b ELSE fact_a END AS partner "
        "FROM conflicts WHERE status = 'open' AND (fact_a = %(f)s OR fact_b = %(f)s) "
        "AND id IS DISTINCT FROM %(x)s FOR UPDATE", {"f": loser, "x": except_conflict})
    for row in cur.fetchall():
        cur.execute(
            "UPDATE conflicts SET status = 'resolved', winner = %s, resolution = %s, "
            "reasoning = %s, resolved_at = %s WHERE id = %s",
            (row["partner"], f"partner-{why}", f"fact #{loser} was {why} elsewhere", at,
             row["id"]))
        release_if_settled(cur, row["partner"], at,
                           f"conflict #{row['id']} closed: partner #{loser} was {why}",
                           row["id"])


def release_if_settled(cur: Any, fact_id: int, at: datetime, reason: str,
                       conflict_id: int | None) -> None:
    """A contested fact returns to active once none of its conflicts is open."""
    cur.execute(
        "SELECT 1 FROM conflicts WHERE status = 'open' AND (fact_a = %(f)s OR fact_b = %(f)s) "
        "LIMIT 1", {"f": fact_id})
    if cur.fetchone() is None:
        cur.execute("SELECT verdict FROM facts WHERE id = %s", (fact_id,))
        if cur.fetchone()["verdict"] == Verdict.CONTESTED.value:
            set_verdict(cur, fact_id, Verdict.ACTIVE, reason, at, conflict_id)
