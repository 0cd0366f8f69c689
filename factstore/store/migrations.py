"""Numbered plain-SQL migrations (factstore/sql/), applied in order, one transaction each.

The files ship inside the package (package data), so an installed wheel migrates too.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

from factstore.errors import SchemaError

_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
# An arbitrary fixed key: one migrator at a time across processes.
_MIGRATION_LOCK = 0x66616374


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    def text(self, dim: int) -> str:
        # The files use the psql variable :dim so they also run as `psql -v dim=384 -f ...`.
        return re.sub(r"'?:dim\b'?", lambda m: f"'{dim}'" if m.group(0).startswith("'")
                      else str(dim), self.path.read_text())

    def checksum(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


def sql_dir() -> Path:
    """The package's own sql/ folder (override with FACTSTORE_SQL_DIR)."""
    override = os.environ.get("FACTSTORE_SQL_DIR")
    return Path(override) if override else Path(__file__).resolve().parents[1] / "sql"


def discover(folder: Path | None = None) -> list[Migration]:
    folder = folder or sql_dir()
    if not folder.is_dir():
        where = ("FACTSTORE_SQL_DIR points at it; unset it or point it at a folder of "
                 "migrations" if os.environ.get("FACTSTORE_SQL_DIR") else
                 "the package ships it as factstore/sql/; reinstall factstore (a build that "
                 "dropped its package data cannot open a store)")
        raise SchemaError(f"the schema folder {folder} is missing: {where}")
    found = []
    for path in sorted(folder.iterdir()):
        match = _FILE.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), path))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise SchemaError(f"two migrations share a number in {folder}: {versions}")
    return found


def apply_migrations(conn: psycopg.Connection, dim: int) -> list[int]:
    """Apply what is missing; return every applied version. Re-running is a no-op."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        applied = {row[0]: row[1] for row in
                   conn.execute("SELECT version, checksum FROM schema_migrations")}
        for migration in discover():
            if migration.version in applied:
                continue
            try:
                with conn.transaction():
                    conn.execute(migration.text(dim))  # type: ignore[arg-type]
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                        (migration.version, migration.name, migration.checksum()))
            except psycopg.Error as exc:
                raise SchemaError(f"migration {migration.path.name} failed: {exc}") from exc
            applied[migration.version] = migration.checksum()
    known = {m.version for m in discover()}
    newer = sorted(set(applied) - known)
    if newer:
        raise SchemaError(f"the database has migrations {newer} that this code does not know; "
                          "upgrade factstore")
    return sorted(applied)
