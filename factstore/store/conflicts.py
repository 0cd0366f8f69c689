"""The conflict pipeline's closing lanes: head-to-head and both-stand."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from factstore.errors import ConflictNotFound, ConflictStateError, InvalidInput, WinnerNotInPair
from factstore.results import Conflict, ConflictList
from factstore.settings import Settings
from factstore.store import groups, locks, transitions
from factstore.store.rows import fetch_facts


def _lock(cur: Any, conflict_id: int) -> dict[str, Any]:
    """The conflict row, locked after the advisory locks that cover its two facts.

    The store's lock order (store/locks.py): a timeline conflict's key lock, or a plain
    conflict's density locks, before the conflict row and the facts' rows, as every writer of
    those rows takes them. A conflict's pair never changes, so reading it unlocked is exact."""
    if not isinstance(conflict_id, int) or isinstance(conflict_id, bool):
        raise InvalidInput(f"conflict_id must be an integer id, got {conflict_id!r}")
    cur.execute("SELECT fact_a, fact_b FROM conflicts WHERE id = %s", (conflict_id,))
    pair = cur.fetchone()
    if pair is None:
        raise ConflictNotFound(f"no conflict #{conflict_id}; list them with open_conflicts()")
    locks.lock_facts_domain(cur, (pair["fact_a"], pair["fact_b"]))
    cur.execute("SELECT * FROM conflicts WHERE id = %s FOR NO KEY UPDATE", (conflict_id,))
    return cur.fetchone()


def _reasoning(reasoning: object) -> str:
    if not isinstance(reasoning, str) or not reasoning.strip():
        raise InvalidInput("reasoning is required: say why, it is kept on the audit trail")
    return reasoning.strip()


def resolve(cur: Any, conflict_id: int, winner_id: int, reasoning: str, at: datetime, *,
            settings: Settings | None = None) -> Conflict:
    """Head-to-head over the conflict's whole contradiction group: the winner (any member)
    returns to active, every other member is superseded by it with the reasoning, and every
    open conflict of the group closes.

    A loser's conflicts outside the group close too; a partner the winner contradicts stays
    contested, against the winner (``transitions.close_conflicts_of``)."""
    reasoning = _reasoning(reasoning)
    row = _lock(cur, conflict_id)
    if row["status"] != "open":
        raise ConflictStateError(
            f"conflict #{conflict_id} is already resolved ({row['resolution']}); nothing to do")
    pair = (row["fact_a"], row["fact_b"])
    if row["lane"] == "timeline":
        if winner_id not in pair:
            raise WinnerNotInPair(
                f"fact #{winner_id} is not in conflict #{conflict_id}; the winner must be "
                f"#{pair[0]} or #{pair[1]}")
        loser = pair[1] if winner_id == pair[0] else pair[0]
        return _resolve_timeline(cur, conflict_id, winner_id, loser, reasoning, at)
    members = groups.members(cur, row["group_id"])
    if winner_id not in members:
        names = [f"#{m}" for m in members]
        raise WinnerNotInPair(
            f"fact #{winner_id} is not in conflict #{conflict_id}; the winner must be "
            f"{', '.join(names[:-1])} or {names[-1]}"
            + (" (the members of its contradiction group)" if len(names) > 2 else ""))
    cur.execute("SELECT id, fact_a, fact_b FROM conflicts WHERE group_id = %s AND "
                "status = 'open' ORDER BY id FOR NO KEY UPDATE", (row["group_id"],))
    group_conflicts = cur.fetchall()
    between: dict[int, int] = {}
    for c in group_conflicts:
        if winner_id in (c["fact_a"], c["fact_b"]):
            loser = c["fact_b"] if c["fact_a"] == winner_id else c["fact_a"]
            between.setdefault(loser, c["id"])
            cur.execute("UPDATE conflicts SET status = 'resolved', winner = %s, reasoning = %s, "
                        "resolution = 'head-to-head', resolved_at = %s WHERE id = %s",
                        (winner_id, reasoning, at, c["id"]))
        else:  # both sides lose to a member outside the pair
            cur.execute("UPDATE conflicts SET status = 'resolved', winner = NULL, "
                        "settled_by = %s, resolution = 'both-superseded', reasoning = %s, "
                        "resolved_at = %s WHERE id = %s",
                        (winner_id, f"both replaced by #{winner_id} (group resolved): "
                                    f"{reasoning}", at, c["id"]))
    losers = [m for m in members if m != winner_id]
    for index, loser in enumerate(losers):
        transitions.supersede(cur, loser, winner_id, f"lost head-to-head: {reasoning}", at,
                              between.get(loser, conflict_id), settings=settings,
                              pending=set(losers[index + 1:]))
    transitions.release_if_settled(cur, winner_id, at, f"won head-to-head: {reasoning}",
                                   conflict_id)
    return get(cur, conflict_id)


def _resolve_timeline(cur: Any, conflict_id: int, winner_id: int, loser: int, reasoning: str,
                      at: datetime) -> Conflict:
    """A person settles a timeline dispute: the loser is retracted and the key re-resolved,
    so the timeline's own rules, not a side channel, decide what the winner becomes."""
    from factstore.store import timelines

    cur.execute("UPDATE conflicts SET status = 'resolved', winner = %s, reasoning = %s, "
                "resolution = 'head-to-head', resolved_at = %s WHERE id = %s",
                (winner_id, reasoning, at, conflict_id))
    timelines.retract(cur, loser, f"lost head-to-head (conflict #{conflict_id}): {reasoning}", at)
    return get(cur, conflict_id)


def both_stand(cur: Any, conflict_id: int, reasoning: str, at: datetime) -> Conflict:
    """Close a false-fired group: every open conflict of the conflict's contradiction group
    closes, and every member returns to active, none superseded."""
    reasoning = _reasoning(reasoning)
    row = _lock(cur, conflict_id)
    if row["lane"] == "timeline" and row["status"] == "open":
        raise ConflictStateError(
            f"conflict #{conflict_id} is a timeline dispute: one attribute cannot hold two "
            "values at once. Pick one with resolve_conflict, or retract one; if the attribute "
            "really holds several values, write it with cardinality 'many'")
    if row["status"] != "open":
        if row["winner"] is not None:
            raise ConflictStateError(
                f"conflict #{conflict_id} was resolved head-to-head (winner #{row['winner']}); "
                "both-stand would resurrect a legitimately superseded loser. If the loser is "
                "true after all, remember it again as a new capture")
        if row["resolution"] == "both-superseded":
            raise ConflictStateError(
                f"conflict #{conflict_id} closed when #{row['settled_by']} replaced both sides; "
                "both-stand would resurrect two superseded facts. If one is true after all, "
                "remember it again as a new capture")
        raise ConflictStateError(f"conflict #{conflict_id} is already closed as both-stand")
    members = groups.members(cur, row["group_id"])
    cur.execute("UPDATE conflicts SET status = 'resolved', winner = NULL, reasoning = %s, "
                "resolution = 'both-stand', resolved_at = %s WHERE group_id = %s AND "
                "status = 'open'", (reasoning, at, row["group_id"]))
    for fact_id in members:
        transitions.release_if_settled(cur, fact_id, at, f"both stand: {reasoning}", conflict_id)
    return get(cur, conflict_id)


def get(cur: Any, conflict_id: int) -> Conflict:
    cur.execute("SELECT * FROM conflicts WHERE id = %s", (conflict_id,))
    row = cur.fetchone()
    if row is None:
        raise ConflictNotFound(f"no conflict #{conflict_id}; list them with open_conflicts()")
    return conflicts_of_rows(cur, [row])[0]


def list_conflicts(cur: Any, status: str | None = "open") -> ConflictList:
    cur.execute("SELECT * FROM conflicts WHERE %(s)s::text IS NULL OR status = %(s)s "
                "ORDER BY id", {"s": status})
    return ConflictList(conflicts_of_rows(cur, cur.fetchall()))


def conflicts_of_rows(cur: Any, rows: list[dict[str, Any]]) -> list[Conflict]:
    facts = fetch_facts(cur, sorted({r["fact_a"] for r in rows} | {r["fact_b"] for r in rows}))
    return [Conflict(
        id=r["id"], fact_a=facts[r["fact_a"]], fact_b=facts[r["fact_b"]], status=r["status"],
        winner=r["winner"], reasoning=r["reasoning"], lane=r["lane"],
        similarity=r["similarity"], created_at=r["created_at"], resolved_at=r["resolved_at"],
        resolution=r["resolution"], differences=tuple(r["differences"] or ()),
        settled_by=r.get("settled_by"), group_id=r.get("group_id"),
    ) for r in rows]


