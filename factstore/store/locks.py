"""The store's lock order: every transaction takes its locks in this one order.

Two transactions that wait for each other's locks deadlock; Postgres then kills one of them
after ``deadlock_timeout``. They cannot if every transaction takes its locks in one global
order, so every writer here does:

1. **Timeline keys** (advisory, class 2, ``timeline:<scope>|<subject>|<attribute>``), sorted by
   key. They cover a key's facts, its corroborations and its ``timeline`` conflicts.
2. **Document lineages** (advisory, class 1, ``doc:<lineage>``), sorted by lineage. They
   serialise the version numbering of one source (``documents_lineage_version_key``).
   Then **import keys** (advisory, class 3, ``import:<key>``), sorted: one importer of a
   record at a time, so two imports of one export never both insert it. Each of these two
   classes has a lock of its own (``doc:*``, ``import:*``) taken before its names: shared by
   a writer that locks names one by one, exclusive (and no names) by a bulk import locking
   more than ``ESCALATE_AT`` of them, which would overflow Postgres's lock table.
3. **Density kinds** (advisory, class 0, ``density:<KIND>``), sorted by kind. They cover the
   plain (non-timeline) facts of a kind and the conflicts between them: the density check and
   the write, and every verdict change on them.
   Then **entity names** (advisory, class 4, ``entity:<normalised name>``), sorted: one
   resolver of a name at a time, so two writers never both create one entity.
4. **Row locks** last (``SELECT ... FOR NO KEY UPDATE``, ``UPDATE``), and only on rows an
   advisory lock already held covers; a conflict row before its facts' rows. A bulk import
   that rebuilds an HNSW index (``DROP INDEX``: ACCESS EXCLUSIVE on the table) takes that
   table lock here too, after its advisory locks; since a timeline write reads facts before
   it locks a lineage, that wait could close a cycle, so the import waits at most half a
   second for it and otherwise keeps its indexes (``imports._drop``).

A call that only knows a fact or conflict id (retract, resolve_conflict) reads what the
locks are about without locking, takes the advisory locks, then locks the row and checks it
still belongs to what it locked. Advisory locks are transaction-scoped and re-entrant, so a
helper may take a lock its caller already holds.

Users: ``timelines.write``/``backfill``/``retract`` (1, 2, 4), ``imports.import_facts`` (2, and 4 when it rebuilds an index),
``remember.write_capture`` (2, 3, 4; its ``_lock_kinds`` uses the same lock ids), ``conflicts`` (1 or 3, then 4). Anything that still collides (a lock outside this
order) is retried whole by :func:`factstore.store.retry.retry_transient`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from factstore.errors import StoreBusy

# The second argument of hashtextextended: one namespace per kind of lock.
DENSITY, LINEAGE, TIMELINE, IMPORT, ENTITY = 0, 1, 2, 3, 4


#: A caller locking more names of one class than this (a bulk import's chunk) takes the
#: class's own lock exclusively instead: Postgres keeps every advisory lock in a shared table
#: of about max_locks_per_transaction x max_connections slots (6,400 by default), which a
#: chunk of 100,000 keys would overflow ("out of shared memory").
ESCALATE_AT = 1024


def _lock(cur: Any, namespace: int, names: Iterable[str]) -> None:
    ordered = sorted(set(names))
    if not ordered:
        return
    cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))",
                (ordered[0], namespace))
    for start in range(1, len(ordered), 10_000):
        # The rest in one round trip per 10,000 names, in the array's order, which is
        # Python's sorted order: the same global order as one statement per name. ORDER BY
        # the ordinality makes it explicit (a volatile target list is evaluated after the sort).
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(u.name, %s)) "
                    "FROM unnest(%s::text[]) WITH ORDINALITY AS u(name, i) ORDER BY u.i",
                    (namespace, ordered[start:start + 10_000]))


def _lock_escalating(cur: Any, namespace: int, whole: str, names: Iterable[str]) -> None:
    """Per-name exclusive locks under the class's own lock (``whole``), held shared; or,
    past ESCALATE_AT names, the class's lock held exclusively and no per-name locks.

    An intention lock: every per-name locker holds ``whole`` shared, so the one that holds
    it exclusively excludes them all with one lock slot. ``whole`` comes first within the
    class, so the order stays one global order. The names never collide with it: lineages
    and import keys never end in a bare '*' after their prefix.
    """
    ordered = sorted(set(names))
    if not ordered:
        return
    if len(ordered) > ESCALATE_AT:
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))",
                    (whole, namespace))
        return
    cur.execute("SELECT pg_advisory_xact_lock_shared(hashtextextended(%s, %s))",
                (whole, namespace))
    _lock(cur, namespace, ordered)


def lock_timeline_keys(cur: Any, keys: Iterable[tuple[str, str, str]]) -> None:
    """Step 1: one writer per timeline key (scope, subject, attribute) at a time."""
    _lock(cur, TIMELINE, ("timeline:" + "|".join(key) for key in keys))


def lock_lineages(cur: Any, lineages: Iterable[str]) -> None:
    """Step 2: one writer per document lineage at a time (every lineage at once for a bulk
    import of more than ESCALATE_AT lineages)."""
    _lock_escalating(cur, LINEAGE, "doc:*", ("doc:" + lineage for lineage in lineages))


def lock_import_keys(cur: Any, keys: Iterable[str]) -> None:
    """Step 2, after the lineages: one importer of a record (by its import key) at a time
    (every key at once for a chunk of more than ESCALATE_AT records)."""
    _lock_escalating(cur, IMPORT, "import:*", ("import:" + key for key in keys))


def lock_kinds(cur: Any, kinds: Iterable[str]) -> None:
    """Step 3: one writer of a kind's plain facts at a time (the density check's lock)."""
    _lock(cur, DENSITY, ("density:" + str(kind) for kind in kinds))


def lock_entity_names(cur: Any, names: Iterable[str]) -> None:
    """Step 3b: one resolver (or creator) of a normalised name at a time."""
    _lock(cur, ENTITY, ("entity:" + name for name in names))


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
