"""Verdict transitions: the one place a fact's verdict changes, always with a history row.

The row locks taken here are step 4 of the store's lock order (store/locks.py): a caller
already holds the advisory lock that covers the fact (its timeline key, or its kind's
density lock). ``FOR NO KEY UPDATE`` is the lock the following UPDATE takes anyway, so it
does not wait for writers that merely reference the fact (a history or evidence row).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from factstore.kinds import Kind, Verdict
from factstore.settings import Settings
from factstore.store import groups
from factstore.writepath.density import NearHit, read_hit


def record(cur: Any, fact_id: int, from_verdict: str | None, to_verdict: str, reason: str,
           at: datetime, conflict_id: int | None = None, *, code: str | None = None,
           lineage_event: int | None = None) -> None:
    """One history row. ``code`` is the machine-readable reason ('retracted_source_removal',
    'restored_source', 'support_withdrawn'), ``lineage_event`` the source change behind it."""
    cur.execute(
        "INSERT INTO fact_history (fact_id, from_verdict, to_verdict, reason, conflict_id, at, "
        "reason_code, lineage_event) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (fact_id, from_verdict, to_verdict, reason, conflict_id, at, code, lineage_event))


def set_verdict(cur: Any, fact_id: int, to: Verdict, reason: str, at: datetime,
                conflict_id: int | None = None, *, code: str | None = None,
                lineage_event: int | None = None) -> str:
    """Move one fact to a verdict (no-op if already there); returns the previous verdict."""
    cur.execute("SELECT verdict FROM facts WHERE id = %s FOR NO KEY UPDATE", (fact_id,))
    before = cur.fetchone()["verdict"]
    if before != to.value:
        cur.execute("UPDATE facts SET verdict = %s WHERE id = %s", (to.value, fact_id))
        record(cur, fact_id, before, to.value, reason, at, conflict_id, code=code,
               lineage_event=lineage_event)
    return before


def supersede(cur: Any, loser: int, winner: int, reason: str, at: datetime,
              conflict_id: int | None = None, *, settings: Settings | None = None,
              pending: Collection[int] = ()) -> None:
    """Structural supersession: verdict, link and time, then close the loser's other conflicts.

    ``pending`` are facts the caller supersedes by the same winner next; ``settings`` lets the
    closing check whether the winner contradicts a surviving partner (see
    :func:`close_conflicts_of`).
    """
    cur.execute("SELECT verdict FROM facts WHERE id = %s FOR NO KEY UPDATE", (loser,))
    before = cur.fetchone()["verdict"]
    cur.execute(
        "UPDATE facts SET verdict = 'superseded', superseded_by = %s, t_superseded = %s "
        "WHERE id = %s", (winner, at, loser))
    cur.execute("UPDATE facts SET supersedes = COALESCE(supersedes, %s) WHERE id = %s",
                (loser, winner))
    record(cur, loser, before, Verdict.SUPERSEDED.value, reason, at, conflict_id)
    close_conflicts_of(cur, loser, at, "superseded", except_conflict=conflict_id,
                       successor=winner, pending=pending, settings=settings)


def close_conflicts_of(cur: Any, loser: int, at: datetime, why: str,
                       except_conflict: int | None, *, successor: int | None = None,
                       pending: Collection[int] = (), settings: Settings | None = None) -> None:
    """A superseded or withdrawn fact cannot stay in a head-to-head: close its conflicts.

    The rule for the surviving partner (issue 7 §4): closing a conflict because one side was
    superseded never reactivates a fact that the superseding fact contradicts.

    - a partner the same successor replaces next (``pending``): the conflict closes as
      ``both-superseded`` with no winner in the pair, ``settled_by`` the successor;
    - a partner the successor contradicts (same or unknown subject, a contradiction the
      density check would raise): the conflict closes in the partner's favour, but the
      partner stays contested, now against the successor, so a person decides the real
      question;
    - otherwise the partner wins the closed conflict and returns to active once none of its
      conflicts is open.
    """
    cur.execute(
        "SELECT id, CASE WHEN fact_a = %(f)s THEN fact_b ELSE fact_a END AS partner "
        "FROM conflicts WHERE status = 'open' AND (fact_a = %(f)s OR fact_b = %(f)s) "
        "AND id IS DISTINCT FROM %(x)s FOR NO KEY UPDATE", {"f": loser, "x": except_conflict})
    for row in cur.fetchall():
        partner = row["partner"]
        if successor is not None and partner in pending:
            cur.execute(
                "UPDATE conflicts SET status = 'resolved', winner = NULL, settled_by = %s, "
                "resolution = 'both-superseded', reasoning = %s, resolved_at = %s WHERE id = %s",
                (successor, f"facts #{loser} and #{partner} are both replaced by #{successor}",
                 at, row["id"]))
            continue
        cur.execute(
            "UPDATE conflicts SET status = 'resolved', winner = %s, settled_by = %s, "
            "resolution = %s, reasoning = %s, resolved_at = %s WHERE id = %s",
            (partner, successor, f"partner-{why}", f"fact #{loser} was {why} elsewhere", at,
             row["id"]))
        if successor is not None and settings is not None and \
                _inherit_conflict(cur, partner, successor, row["id"], at, settings):
            continue
        release_if_settled(cur, partner, at,
                           f"conflict #{row['id']} closed: partner #{loser} was {why}",
                           row["id"])


def _inherit_conflict(cur: Any, partner: int, successor: int, closed: int, at: datetime,
                      settings: Settings) -> bool:
    """If the successor contradicts the partner, keep the partner contested against it.

    Returns True when the partner must not be released.
    """
    cur.execute(
        "SELECT p.kind, p.statement AS p_statement, p.subject_key AS p_key, "
        "s.statement AS s_statement, s.subject_key AS s_key, s.kind AS s_kind, s.verdict, "
        "1 - (p.embedding <=> s.embedding) AS similarity "
        "FROM facts p, facts s WHERE p.id = %s AND s.id = %s AND p.embedding IS NOT NULL "
        "AND s.embedding IS NOT NULL", (partner, successor))
    row = cur.fetchone()
    if row is None or row["kind"] != row["s_kind"] or row["verdict"] not in ("active",
                                                                             "contested"):
        return False
    kind = Kind(row["kind"])
    hit = NearHit(partner, kind, row["p_statement"], row["p_statement"], "contested",
                  float(row["similarity"]), at, row["p_key"])
    reading = read_hit(row["s_statement"], row["s_key"], hit, kind=kind,
                       mode=settings.difference_detector, threshold=settings.density_threshold,
                       floor=settings.contradiction_floor, subject_floor=settings.subject_floor)
    if reading.relation != "candidate":
        return False
    cur.execute("SELECT 1 FROM conflicts WHERE status = 'open' AND least(fact_a, fact_b) = "
                "least(%(p)s, %(s)s) AND greatest(fact_a, fact_b) = greatest(%(p)s, %(s)s)",
                {"p": partner, "s": successor})
    if cur.fetchone() is None:
        group_id, _ = groups.join(cur, [partner, successor])
        cur.execute(
            "INSERT INTO conflicts (fact_a, fact_b, lane, similarity, differences, created_at, "
            "group_id) VALUES (%s, %s, 'inherited', %s, %s, %s, %s) RETURNING id",
            (partner, successor, float(row["similarity"]), list(reading.differences), at,
             group_id))
        new_conflict = cur.fetchone()["id"]
        set_verdict(cur, successor, Verdict.CONTESTED,
                    f"inherited: contradicts #{partner}, which conflict #{closed} left standing",
                    at, new_conflict)
        record(cur, partner, "contested", "contested",
               f"inherited: conflict #{closed} closed, but #{successor} contradicts it",
               at, new_conflict)
    return True


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
