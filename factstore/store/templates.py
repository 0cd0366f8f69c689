"""Fresh stores from a migrated template: ``CREATE DATABASE ... TEMPLATE`` instead of
running every migration again.

A throwaway store (a test's, an eval scenario's) needs the whole schema. Applying the
numbered migrations takes about half a second; copying a database that already has them
takes a tenth of that. The template is named by what it holds (the migrations' checksums,
the embedder's name and dimension), so a changed migration or another embedder gets a
template of its own; it is built once, under an advisory lock, and never connected to
afterwards (Postgres copies only a database nobody is connected to).
"""

from __future__ import annotations

import hashlib
from typing import Any

import psycopg
from psycopg import sql

from factstore.errors import DatabaseUnavailable
from factstore.store import server
from factstore.store.migrations import discover

__all__ = ["fresh_database", "template_name"]


def template_name(embedder: Any) -> str:
    """The template for this schema and embedder ('factstore_tpl_<digest>')."""
    digest = hashlib.sha256()
    for migration in discover():
        digest.update(migration.checksum().encode())
    digest.update(f"{embedder.name}\x1f{embedder.dim}".encode())
    return "factstore_tpl_" + digest.hexdigest()[:20]


def fresh_database(admin_dsn: str, name: str, embedder: Any) -> None:
    """Create database ``name`` as a copy of the migrated template (built first if it is
    missing). A database of that name already there is left as it is."""
    from factstore.store.core import _migrate_and_check

    server.check_database_name(name)
    template = template_name(embedder)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                            (name,)).fetchone():
                return
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (template,))
            try:
                if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    (template,)).fetchone():
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(
                        sql.Identifier(template)))
                    _migrate_and_check(server.with_database(admin_dsn, template), embedder)
                conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(name), sql.Identifier(template)))
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (template,))
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(f"could not reach Postgres at {server.redact(admin_dsn)}: "
                                  f"{exc}") from exc
