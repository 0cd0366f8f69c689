"""Forgetting a scope: its rows deleted from every table, and its key destroyed.

The one place the store deletes memory. Everything the scope holds goes (documents, facts,
claims, evidence, history, conflicts, lineages, the entity layer), and so does every row of
another scope that names what went: a conflict against a forgotten fact, a history row, an
evidence row citing a forgotten document. Another scope's fact that pointed at a forgotten
one (superseded by it, read from its document, about its entity) keeps standing with the
pointer cleared. Then the scope's data keys are deleted, so a copy of a sealed row that
survived anywhere (a backup, a dead tuple not yet vacuumed) can no longer be opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ForgetReport", "forget"]


@dataclass(frozen=True)
class ForgetReport:
    """What forgetting a scope deleted: rows per table, and the key versions destroyed."""

    scope: str
    deleted: dict[str, int]
    keys_destroyed: int

    @property
    def total(self) -> int:
        return sum(self.deleted.values())


def _ids(cur: Any, query: str, params: dict[str, Any]) -> list[Any]:
    cur.execute(query, params)
    return [r["id"] for r in cur.fetchall()]


def forget(cur: Any, scope: str) -> ForgetReport:
    """Delete every row of ``scope`` and of other scopes that names them (owner only: the
    caller runs unnarrowed, so no row hides from the deletion)."""
    cur.execute("SELECT set_config('factstore.forgetting', %s, true)", (scope,))
    p: dict[str, Any] = {"s": scope}
    p["f"] = _ids(cur, "SELECT id FROM facts WHERE access_scope = %(s)s", p)
    p["d"] = _ids(cur, "SELECT id FROM documents WHERE access_scope = %(s)s", p)
    p["c"] = _ids(cur, "SELECT id FROM claims WHERE access_scope = %(s)s OR "
                       "document_id = ANY(%(d)s)", p)
    p["e"] = _ids(cur, "SELECT id FROM entities WHERE access_scope = %(s)s", p)
    p["r"] = _ids(cur, "SELECT id FROM relations WHERE access_scope = %(s)s OR "
                       "subject_entity = ANY(%(e)s) OR object_entity = ANY(%(e)s)", p)
    p["k"] = _ids(cur, "SELECT id FROM conflicts WHERE access_scope = %(s)s OR "
                       "fact_a = ANY(%(f)s) OR fact_b = ANY(%(f)s) OR winner = ANY(%(f)s) OR "
                       "settled_by = ANY(%(f)s)", p)
    p["l"] = _ids(cur, "SELECT id FROM lineage_events WHERE access_scope = %(s)s", p)
    deleted: dict[str, int] = {}

    def delete(table: str, where: str) -> None:
        cur.execute(f"DELETE FROM {table} WHERE {where}", p)
        deleted[table] = deleted.get(table, 0) + cur.rowcount

    def clear(statement: str) -> None:
        cur.execute(statement, p)

    # what other scopes keep, unlinked from what goes
    clear("UPDATE facts SET supersedes = NULL WHERE supersedes = ANY(%(f)s) "
          "AND access_scope <> %(s)s")
    clear("UPDATE facts SET superseded_by = NULL WHERE superseded_by = ANY(%(f)s) "
          "AND access_scope <> %(s)s")
    clear("UPDATE facts SET document_id = NULL WHERE document_id = ANY(%(d)s) "
          "AND access_scope <> %(s)s")
    clear("UPDATE facts SET subject_entity = NULL WHERE subject_entity = ANY(%(e)s) "
          "AND access_scope <> %(s)s")
    clear("UPDATE claims SET fact_id = NULL WHERE fact_id = ANY(%(f)s) AND NOT id = ANY(%(c)s)")
    clear("UPDATE claims SET superseded_by_document = NULL WHERE "
          "superseded_by_document = ANY(%(d)s) AND NOT id = ANY(%(c)s)")
    clear("UPDATE entities SET merged_into = NULL, merged_at = NULL WHERE "
          "merged_into = ANY(%(e)s) AND NOT id = ANY(%(e)s)")
    # the entity layer, then testimony, then facts and documents
    delete("relation_evidence", "relation_id = ANY(%(r)s) OR claim_id = ANY(%(c)s) OR "
                                "access_scope = %(s)s")
    delete("relations", "id = ANY(%(r)s)")
    delete("mentions", "access_scope = %(s)s OR claim_id = ANY(%(c)s) OR "
                       "document_id = ANY(%(d)s) OR fact_id = ANY(%(f)s) OR "
                       "entity_id = ANY(%(e)s)")
    delete("document_bindings", "access_scope = %(s)s OR document_id = ANY(%(d)s) OR "
                                "entity_id = ANY(%(e)s)")
    delete("merge_proposals", "access_scope = %(s)s OR entity_a = ANY(%(e)s) OR "
                              "entity_b = ANY(%(e)s)")
    delete("entity_merges", "access_scope = %(s)s OR survivor = ANY(%(e)s) OR "
                            "merged = ANY(%(e)s)")
    delete("entity_names", "access_scope = %(s)s OR entity_id = ANY(%(e)s)")
    delete("entity_keys", "access_scope = %(s)s OR entity_id = ANY(%(e)s)")
    delete("evidence", "access_scope = %(s)s OR fact_id = ANY(%(f)s) OR "
                       "document_id = ANY(%(d)s) OR claim_id = ANY(%(c)s)")
    delete("fact_history", "access_scope = %(s)s OR fact_id = ANY(%(f)s) OR "
                           "conflict_id = ANY(%(k)s) OR lineage_event = ANY(%(l)s)")
    delete("conflicts", "id = ANY(%(k)s)")
    delete("claims", "id = ANY(%(c)s)")
    delete("facts", "id = ANY(%(f)s)")
    delete("entities", "id = ANY(%(e)s)")
    delete("document_extractions", "access_scope = %(s)s OR document_id = ANY(%(d)s)")
    delete("documents", "id = ANY(%(d)s)")
    delete("lineage_events", "id = ANY(%(l)s)")
    delete("lineages", "access_scope = %(s)s")
    cur.execute("DELETE FROM scope_keys WHERE access_scope = %(s)s", p)
    keys = cur.rowcount
    return ForgetReport(scope, {t: n for t, n in deleted.items() if n}, keys)
