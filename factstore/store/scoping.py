"""Each transaction runs as its principal (sql/018_scopes.sql).

The store's owner is the database owner and reads every scope; its rows land in the write
scope. A narrowed principal's transaction switches to the role ``factstore_member`` with
its scopes set, so row-level security reads and writes only those: a query that forgot a
scope filter still sees nothing else. Every setting is transaction-local
(``set_config(..., true)``), so a pooled connection never carries them to the next caller.
"""

from __future__ import annotations

from typing import Any

import psycopg

from factstore.errors import AccessDenied, SchemaError
from factstore.principals import Principal

__all__ = ["enter", "set_write_scope"]

MEMBER_ROLE = "factstore_member"


def enter(cur: Any, principal: Principal, write_scope: str) -> None:
    """Set the transaction's principal: its readable scopes and where its rows land."""
    if principal.owner:
        cur.execute("SELECT set_config('factstore.write_scope', %s, true)", (write_scope,))
        return
    if write_scope not in principal.scopes:
        raise AccessDenied(f"this credential may not write {write_scope}; its scopes are "
                           f"{', '.join(principal.scopes) or 'none'}")
    try:
        # An HNSW scan stops after ef_search candidates, and row-level security filters
        # after it: without an iterative scan a principal with few rows among many others'
        # would find too few nearest neighbours.
        cur.execute("SELECT set_config('role', %s, true), "
                    "set_config('factstore.read_scopes', %s, true), "
                    "set_config('factstore.write_scope', %s, true), "
                    "set_config('hnsw.iterative_scan', 'relaxed_order', true)",
                    (MEMBER_ROLE, ",".join(principal.scopes), write_scope))
    except (psycopg.errors.InvalidParameterValue, psycopg.errors.InsufficientPrivilege) as exc:
        raise SchemaError(f"the database has no usable role {MEMBER_ROLE} for narrowed "
                          "credentials (migration 018 needs CREATEROLE, or an administrator "
                          f"to CREATE ROLE {MEMBER_ROLE} and GRANT it to this user): "
                          f"{exc}") from exc


def set_write_scope(cur: Any, principal: Principal, scope: str) -> None:
    """Land the rest of the transaction's rows in ``scope`` (a fact's own scope, when a
    call writes about an existing fact); the principal must hold it."""
    if not principal.may_read(scope):
        raise AccessDenied(f"this credential may not write {scope}")
    use_scope(cur, scope)


def use_scope(cur: Any, scope: str) -> None:
    """Land the rest of the transaction's rows in ``scope`` (already checked readable: the
    caller found rows of it)."""
    cur.execute("SELECT set_config('factstore.write_scope', %s, true)", (scope,))
