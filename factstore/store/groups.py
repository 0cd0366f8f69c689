"""Contradiction groups' SQL (see factstore/groups.py for the rules).

A plain fact's conflicts are with facts of its own kind, so the kind's density lock covers a
group; timeline disputes keep a group per pair (the timeline's own rules settle them).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def join(cur: Any, fact_ids: Iterable[int]) -> int:
    """The group new conflicts among these facts belong to: the one their open conflicts are
    already in (several are merged into the oldest), else a new one."""
    ids = sorted(set(fact_ids))
    cur.execute("SELECT DISTINCT group_id FROM conflicts WHERE status = 'open' AND "
                "(fact_a = ANY(%(ids)s) OR fact_b = ANY(%(ids)s)) ORDER BY group_id",
                {"ids": ids})
    groups = [r["group_id"] for r in cur.fetchall()]
    if not groups:
        cur.execute("SELECT nextval('contradiction_groups') AS g")
        return cur.fetchone()["g"]
    if len(groups) > 1:
        cur.execute("UPDATE conflicts SET group_id = %s WHERE status = 'open' AND "
                    "group_id = ANY(%s)", (groups[0], groups[1:]))
    return groups[0]


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
