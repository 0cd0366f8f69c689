"""Sealed scopes at rest: which columns are sealed, sealing a transaction's new rows, and
opening rows as they are read (the envelope itself is factstore/sealing.py).

A scope is sealed once it has a key (``Store.seal_scope``). In a sealed scope the value,
unit, quote and source of a timeline fact (and its plain statement, which repeats the
value), the same fields of its observations, and every document's text are stored as
XChaCha20-Poly1305 envelopes bound to the scope, the row id, the key version and the column.
The subject and attribute stay plaintext, so a timeline is selected without decrypting.

Rows are sealed at the end of the transaction that wrote them, before it commits (the row
id, which the binding needs, exists only once the row does), so no committed row of a
sealed scope holds plaintext. Reads open rows through the transaction's keyring, which
unwraps each data key once with the master key.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from factstore import sealing
from factstore.errors import SealError

__all__ = ["SEALED_COLUMNS", "Keyring", "current", "open_row", "open_text"]

#: table -> its sealed columns; which rows: a timeline fact, its observations, any document
SEALED_COLUMNS: dict[str, tuple[str, ...]] = {
    "facts": ("value", "unit", "evidence_quote", "evidence_source_ref", "statement",
              "statement_norm"),
    "evidence": ("value", "unit", "source", "quote"),
    "documents": ("content",),
    "compile_log": ("value", "quote"),
}
_PENDING = {
    "facts": "attribute IS NOT NULL",
    "evidence": "fact_id IN (SELECT id FROM facts WHERE attribute IS NOT NULL AND "
                "access_scope = %(s)s)",
    "documents": "true",
    "compile_log": "true",
}

_CURRENT: contextvars.ContextVar[Keyring | None] = contextvars.ContextVar(
    "factstore_keyring", default=None)


@dataclass
class Keyring:
    """One transaction's data keys: read from scope_keys (as the caller, so only the
    scopes it may read) and unwrapped on first use."""

    cur: Any
    master: Callable[[], bytes]
    keys: dict[tuple[str, int], bytes] = field(default_factory=dict)

    def key(self, scope: str, version: int) -> bytes:
        found = self.keys.get((scope, version))
        if found is None:
            self.cur.execute("SELECT wrapped FROM scope_keys WHERE access_scope = %s AND "
                             "version = %s", (scope, version))
            row = self.cur.fetchone()
            if row is None:
                raise SealError(f"scope {scope} has no key version {version}: it was "
                                "forgotten or rotated away; the sealed value cannot be read")
            found = sealing.unwrap_key(self.master(), row["wrapped"], scope=scope,
                                       version=version)
            self.keys[(scope, version)] = found
        return found



def current() -> Keyring | None:
    return _CURRENT.get()


def required() -> Keyring:
    """The transaction's keyring (every Store transaction binds one)."""
    keyring = _CURRENT.get()
    if keyring is None:
        raise SealError("sealing needs a store transaction")
    return keyring


def bind(keyring: Keyring | None) -> contextvars.Token:
    return _CURRENT.set(keyring)


def unbind(token: contextvars.Token) -> None:
    _CURRENT.reset(token)


def open_text(scope: str, row_id: int, version: int | None, column: str,
              text: str | None) -> str | None:
    """One column's plaintext (itself when the row is not sealed)."""
    if version is None or text is None:
        return text
    keyring = current()
    if keyring is None:
        raise SealError("a sealed row was read outside a store transaction")
    return sealing.open_sealed(keyring.key(scope, version), text, scope=scope, row_id=row_id,
                               version=version, field=column)


def open_row(table: str, row: dict[str, Any], *, id_column: str = "id",
             names: dict[str, str] | None = None) -> dict[str, Any]:
    """The row with its sealed columns opened (the same dict when it is not sealed).
    ``names`` maps a sealed column to the key the query selected it as."""
    version = row.get("sealed_version")
    if version is None:
        return row
    opened = dict(row)
    for column in SEALED_COLUMNS[table]:
        key = (names or {}).get(column, column)
        if key in opened:
            opened[key] = open_text(row["access_scope"], row[id_column], version, column,
                                    opened[key])
    return opened


def finish(cur: Any, keyring: Keyring) -> None:
    """Before commit: seal what the transaction wrote into sealed scopes. One query when it
    wrote nothing (no transaction id was assigned) or no scope is sealed."""
    cur.execute("SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS wrote, ARRAY(SELECT "
                "access_scope || ':' || max(version) FROM scope_keys WHERE retired_at IS NULL "
                "GROUP BY access_scope ORDER BY 1) AS sealed")
    row = cur.fetchone()
    if not row["wrote"]:
        return
    for entry in row["sealed"]:
        scope, _, version = entry.rpartition(":")
        seal_pending(cur, keyring, scope, int(version))


def seal_pending(cur: Any, keyring: Keyring, scope: str, version: int) -> int:
    """Seal every row of ``scope`` not sealed yet (this transaction's writes, or a scope's
    rows when it is first sealed); how many rows were sealed."""
    key = keyring.key(scope, version)
    total = 0
    for table, columns in SEALED_COLUMNS.items():
        cur.execute(f"SELECT id, {', '.join(columns)} FROM {table} WHERE access_scope = %(s)s "
                    f"AND sealed_version IS NULL AND {_PENDING[table]} FOR UPDATE",
                    {"s": scope})
        rows = cur.fetchall()
        _write(cur, table, columns, [
            (r["id"], [sealing.seal(key, r[c], scope=scope, row_id=r["id"], version=version,
                                    field=c) for c in columns]) for r in rows], version)
        total += len(rows)
    return total


def reseal(cur: Any, keyring: Keyring, scope: str, old: int, new: int) -> int:
    """Re-seal every row sealed under key version ``old`` with version ``new``."""
    old_key, new_key = keyring.key(scope, old), keyring.key(scope, new)
    total = 0
    for table, columns in SEALED_COLUMNS.items():
        cur.execute(f"SELECT id, {', '.join(columns)} FROM {table} WHERE access_scope = %s "
                    "AND sealed_version = %s FOR UPDATE", (scope, old))
        rows = cur.fetchall()
        _write(cur, table, columns, [
            (r["id"], [sealing.seal(new_key, sealing.open_sealed(
                old_key, r[c], scope=scope, row_id=r["id"], version=old, field=c),
                scope=scope, row_id=r["id"], version=new, field=c) for c in columns])
            for r in rows], new)
        total += len(rows)
    return total


def _write(cur: Any, table: str, columns: Iterable[str],
           rows: list[tuple[int, list[str | None]]], version: int) -> None:
    if not rows:
        return
    columns = list(columns)
    sets = ", ".join(f"{c} = %s" for c in columns)
    cur.executemany(f"UPDATE {table} SET {sets}, sealed_version = %s WHERE id = %s",
                    [(*values, version, row_id) for row_id, values in rows])
