"""The store's lock order: every transaction takes its locks in this one order.

Two transactions that wait for each other's locks deadlock; Postgres then kills one of them
after ``deadlock_timeout``. They cannot if every transaction takes its locks in one global
order, so every writer here does:

1. **Timeline keys** (advisory, class 2, ``timeline:<scope>|<subject>|<attribute>``), sorted by
   key. They cover a key's facts, its corroborations and its ``timeline`` conflicts.
2. **Document lineages** (advisory, class 1, ``doc:<lineage>``), sorted by lineage. They
   serialise the version numbering of one source (``documents_lineage_version_key``).
   Then **import keys** (advisory, class 3, ``import:<key>``), sorted: one importer of a
   record at a time, so two imports of one export never both insert it.
3. **Density kinds** (advisory, class 0, ``density:<KIND>``), sorted by kind. They cover the
   plain (non-timeline) facts of a kind and the conflicts between them: the density check and
   the write, and every verdict change on them.
4. **Row locks** last (``SELECT ... FOR NO KEY UPDATE``, ``UPDATE``), and only on rows an
   advisory lock already held covers; a conflict row before its facts' rows.

A call that only knows a fact or conflict id (retract, resolve_conflict) reads what the
locks are about without locking, takes the advisory locks, then locks the row and checks it
still belongs to what it locked. Advisory locks are transaction-scoped and re-entrant, so a
helper may take a lock its caller already holds.

Users: ``timelines.write``/``backfill``/``retract`` (1, 2, 4), ``imports.import_facts`` (2),
``remember.write_capture`` (2, 3, 4; its ``_land_document`` and ``_lock_kinds`` use the same
lock ids), ``conflicts`` (1 or 3, then 4). Anything that still collides (a lock outside this
order) is retried whole by :func:`factstore.store.retry.retry_transient`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from factstore.errors import StoreBusy

# The second argument of hashtextextended: one namespace per kind of lock.
DENSITY, LINEAGE, TIMELINE, IMPORT = 0, 1, 2, 3


def _lock(cur: Any, namespace: int, names: Iterable[str]) -> None:
    for name in sorted(set(names)):
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))", (name, namespace))


def lock_timeline_keys(cur: Any, keys: Iterable[tuple[str, str, str]]) -> None:
    """Step 1: one writer per timeline key (scope, subject, attribute) at a time."""
    _lock(cur, TIMELINE, ("timeline:" + "|".join(key) for key in keys))


def lock_lineages(cur: Any, lineages: Iterable[str]) -> None:
    """Step 2: one writer per document lineage at a time."""
    _lock(cur, LINEAGE, ("doc:" + lineage for lineage in lineages))


def lock_import_keys(cur: Any, keys: Iterable[str]) -> None:
    """Step 2, after the lineages: one importer of a record (by its import key) at a time."""
    _lock(cur, IMPORT, ("import:" + key for key in keys))


def lock_kinds(cur: Any, kinds: Iterable[str]) -> None:
    """Step 3: one writer of a kind's plain facts at a time (the density check's lock)."""
    _lock(cur, DENSITY, ("density:" + str(kind) for kind in kinds))


def domain(row: dict[str, Any]) -> tuple[str, ...]:
    """What covers a fact row: its timeline key, or its kind for a plain fact."""
    if row["attribute"] is not None:
        return (row["timeline_scope"], row["subject"], row["attribute"])
    return (row["kind"],)


def lock_facts_domain(cur: Any, fact_ids: Iterable[int]) -> dict[int, tuple[str, ...]]:
    """Steps 1 and 3 for facts known by id: their timeline keys, then their plain kinds.

    Read without locking (a missing id is skipped); returns each fact's :func:`domain`, so
    the caller can check, once it holds the row, that the row is still covered by what was
    locked (a fact's key and kind are never updated, so this is a guard, not a retry loop)."""
    cur.execute("SELECT id, kind, timeline_scope, subject, attribute FROM facts "
                "WHERE id = ANY(%s)", (sorted(set(fact_ids)),))
    found = {r["id"]: domain(r) for r in cur.fetchall()}
    lock_timeline_keys(cur, [d for d in found.values() if len(d) == 3])
    lock_kinds(cur, [d[0] for d in found.values() if len(d) == 1])
    return found


def check_domain(fact_id: int, locked: dict[int, tuple[str, ...]], row: dict[str, Any]) -> None:
    """Refuse to go on if the row now read under its lock moved out of what was locked."""
    if locked.get(fact_id) != domain(row):
        # Another writer changed the row between the unlocked read and the lock: run the
        # whole call again (retry_transient), which reads and locks afresh.
        raise StoreBusy(f"fact #{fact_id} changed while this call was taking its locks; "
                        "nothing was written, retry it")
