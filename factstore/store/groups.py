"""Contradiction groups' SQL (see factstore/groups.py for the rules).

A plain fact's conflicts are with facts of its own kind, so the kind's density lock covers a
group; timeline disputes keep a group per pair (the timeline's own rules settle them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from factstore.groups import MemberStanding, preferred_member


def join(cur: Any, fact_ids: Iterable[int]) -> tuple[int, set[int]]:
    """The group new conflicts among these facts belong to: the one their open conflicts are
    already in (several are merged into the oldest), else a new one; and the members it
    already has."""
    ids = sorted(set(fact_ids))
    cur.execute("SELECT group_id, fact_a, fact_b FROM conflicts WHERE status = 'open' AND "
                "group_id IN (SELECT group_id FROM conflicts WHERE status = 'open' AND "
                "(fact_a = ANY(%(ids)s) OR fact_b = ANY(%(ids)s)))", {"ids": ids})
    rows = cur.fetchall()
    groups = sorted({r["group_id"] for r in rows})
    if not groups:
        cur.execute("SELECT nextval('contradiction_groups') AS g")
        return cur.fetchone()["g"], set()
    if len(groups) > 1:
        cur.execute("UPDATE conflicts SET group_id = %s WHERE status = 'open' AND "
                    "group_id = ANY(%s)", (groups[0], groups[1:]))
    return groups[0], {f for r in rows for f in (r["fact_a"], r["fact_b"])}


def members(cur: Any, group_id: int, *, open_only: bool = True) -> list[int]:
    """A group's facts: those of its open conflicts (of all its conflicts once closed)."""
    status = "AND status = 'open'" if open_only else ""
    cur.execute(f"SELECT fact_a, fact_b FROM conflicts WHERE group_id = %s {status}",
                (group_id,))
    return sorted({f for r in cur.fetchall() for f in (r["fact_a"], r["fact_b"])})


def open_groups_of(cur: Any, fact_ids: Iterable[int]) -> dict[int, tuple[int, list[int]]]:
    """For each fact in an open group: its group and every member of it."""
    ids = sorted(set(fact_ids))
    if not ids:
        return {}
    cur.execute(
        "SELECT g.group_id, c.fact_a, c.fact_b FROM (SELECT DISTINCT group_id FROM conflicts "
        "WHERE status = 'open' AND (fact_a = ANY(%(ids)s) OR fact_b = ANY(%(ids)s))) g "
        "JOIN conflicts c ON c.group_id = g.group_id AND c.status = 'open' ORDER BY c.id",
        {"ids": ids})
    found: dict[int, set[int]] = {}
    for row in cur.fetchall():
        found.setdefault(row["group_id"], set()).update((row["fact_a"], row["fact_b"]))
    out: dict[int, tuple[int, list[int]]] = {}
    for group_id, facts in sorted(found.items()):
        for fact_id in facts:
            out.setdefault(fact_id, (group_id, sorted(facts)))
    return out


def preferred(cur: Any, groups: Iterable[Sequence[int]]) -> set[int]:
    """The member each group's read prefers (groups.preferred_member), in one query."""
    groups = [list(g) for g in groups]
    ids = sorted({f for g in groups for f in g})
    if not ids:
        return set()
    # more recent: when it was observed (said), else when the store captured it
    cur.execute("SELECT id, confidence, fact_support(id) AS support, coalesce(observed_at, "
                "t_captured) AS learned FROM facts WHERE id = ANY(%s)", (ids,))
    standing = {r["id"]: MemberStanding(r["id"], r["confidence"], r["support"] or 0,
                                        r["learned"]) for r in cur.fetchall()}
    chosen = (preferred_member([standing[f] for f in g if f in standing]) for g in groups)
    return {f for f in chosen if f is not None}


def contest(cur: Any, new_id: int, rivals: Sequence[tuple[int, float, tuple[str, ...]]],
            lane: str, group_id: int, at: datetime) -> list[int]:
    """Open a conflict between a new fact and each rival (id, similarity, differences), in
    one group, and set every rival contested with a history row: one statement however
    many rivals. Returns the conflict ids in the rivals' order."""
    rows = [{"a": a, "s": s, "d": list(d)} for a, s, d in rivals]
    cur.execute(
        "WITH c AS (INSERT INTO conflicts (fact_a, fact_b, lane, similarity, differences, "
        "created_at, group_id) SELECT r.a, %(new)s, %(lane)s, r.s, "
        "ARRAY(SELECT jsonb_array_elements_text(r.d)), %(at)s, %(g)s FROM "
        "jsonb_to_recordset(%(rows)s) AS r(a bigint, s double precision, d jsonb) "
        "RETURNING id, fact_a), "
        # the rivals' verdicts before this statement (all CTEs share one snapshot)
        "old AS (SELECT id, verdict FROM facts WHERE id = ANY(%(ids)s) AND "
        "verdict <> 'contested' FOR NO KEY UPDATE), "
        "upd AS (UPDATE facts f SET verdict = 'contested' FROM old WHERE f.id = old.id), "
        "hist AS (INSERT INTO fact_history (fact_id, from_verdict, to_verdict, reason, "
        "conflict_id, at) SELECT old.id, old.verdict, 'contested', %(reason)s, c.id, %(at)s "
        "FROM old JOIN c ON c.fact_a = old.id) "
        "SELECT id, fact_a FROM c",
        {"new": new_id, "lane": lane, "at": at, "g": group_id, "rows": Jsonb(rows),
         "ids": [a for a, _, _ in rivals], "reason": f"{lane}: conflict with new fact #{new_id}"})
    of = {r["fact_a"]: r["id"] for r in cur.fetchall()}
    return [of[a] for a, _, _ in rivals]
