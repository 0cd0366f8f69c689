"""Store's compiler tools: the attribute registry and the compile log.

A mixin of Store, kept beside the SQL it calls so core.py stays about opening the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from factstore.inputs import check_choice, check_count, check_id, check_text
from factstore.store import attributes as attribute_sql
from factstore.store.attributes import AttributeInfo
from factstore.store.retry import retry_transient
from factstore.store.sealed import open_row

__all__ = ["CompileEntry", "CompilerTools"]

OUTCOMES = ("written", "corroborated", "unchanged", "ended", "refused")


@dataclass(frozen=True)
class CompileEntry:
    """One draft a capture compiled to, and what became of it."""

    id: int
    document_id: int
    compiler: str
    #: written | corroborated | unchanged | ended | refused
    outcome: str
    subject: str | None
    attribute: str | None
    value: str | None
    fact_id: int | None
    quote: str
    reason: str | None
    at: datetime


class CompilerTools:
    """Compiler methods; mixed into Store (which provides _tx)."""

    def attributes(self, origin: str | None = None) -> list[AttributeInfo]:
        """The attribute registry: every key with its cardinality, origin ('builtin' or
        'learned': met by the compiler, for a person to review) and aliases."""
        check_choice("origin", origin, ("builtin", "learned"), required=False)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return attribute_sql.listing(cur, origin)

    @retry_transient
    def merge_attribute(self, key: str, into: str) -> AttributeInfo:
        """Merge a near-synonym key into another (``works_at`` into ``employer``): the
        compiler writes ``into`` from now on; stored facts keep the key they were written
        with (nothing is rewritten)."""
        check_text("key", key, limit=64)
        check_text("into", into, limit=64)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return attribute_sql.merge(cur, key, into, datetime.now(UTC))

    @retry_transient
    def add_attribute_alias(self, alias: str, key: str) -> AttributeInfo:
        """A spelling that names ``key`` ("employer" for works_at); never repoints one."""
        check_text("alias", alias, limit=200)
        check_text("key", key, limit=64)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return attribute_sql.add_alias(cur, alias, key, datetime.now(UTC))

    def compile_log(self, *, document_id: int | None = None, outcome: str | None = None,
                    limit: int = 500) -> list[CompileEntry]:
        """What the compiler made of each capture: written, corroborated, ended, or refused
        with its reason (seed 002 §9: refused with a logged reason), newest first."""
        if document_id is not None:
            check_id("document_id", document_id)
        check_choice("outcome", outcome, OUTCOMES, required=False)
        check_count("limit", limit, 1, 100_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT * FROM compile_log WHERE (%(d)s::bigint IS NULL OR "
                        "document_id = %(d)s) AND (%(o)s::text IS NULL OR outcome = %(o)s) "
                        "ORDER BY id DESC LIMIT %(n)s",
                        {"d": document_id, "o": outcome, "n": limit})
            rows = [open_row("compile_log", r) for r in cur.fetchall()]
        return [_entry(r) for r in rows]


def _entry(row: dict[str, Any]) -> CompileEntry:
    return CompileEntry(row["id"], row["document_id"], row["compiler"], row["outcome"],
                        row["subject"], row["attribute"], row["value"], row["fact_id"],
                        row["quote"], row["reason"], row["at"])
