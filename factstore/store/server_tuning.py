"""The embedded server's configuration: sized to the machine, written before it starts.

Postgres's defaults fit a small shared host: 128 MB of ``shared_buffers`` and a checkpoint
every 1 GB of WAL. At a million facts the per-kind HNSW indexes are about 2.5 GB, so with
the defaults every index insert reads its neighbours' pages back through the kernel and
rewrites them as full-page images after each checkpoint (about 20 ms a fact measured).
The embedded server is factstore's own, so it starts with buffers sized to the machine and
checkpoints spaced further apart. Durability is untouched: ``fsync`` and
``synchronous_commit`` keep their defaults. A server reached by DSN keeps its own
configuration; ``docs/reliability.md`` ("The server's configuration") lists what to
set there.

The values live in ``pgdata/factstore.conf``, included from ``postgresql.conf``; Postgres
reads them at start, so a change (a new factstore version, more memory) applies at the
server's next start. ``FACTSTORE_SHARED_BUFFERS`` (e.g. ``512MB``) overrides the size.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import psutil

from factstore.errors import InvalidInput

TUNING_FILE = "factstore.conf"
_INCLUDE = f"include_if_exists = '{TUNING_FILE}'"
_MB = 1024 * 1024
#: a quarter of memory, as the Postgres documentation suggests for a dedicated server,
#: but no more than 4 GB (the indexes of a million facts and then some) and no less than
#: the default
_BUFFERS_MAX_MB = 4096
_BUFFERS_MIN_MB = 128
#: what describe() reports of the running server (whichever server it is)
SERVER_SETTINGS = ("shared_buffers", "effective_cache_size", "max_wal_size",
                   "checkpoint_timeout", "maintenance_work_mem", "synchronous_commit")
_SIZE = re.compile(r"^([1-9][0-9]{0,6})(MB|GB)$")


def tuning(total_memory_bytes: int, shared_buffers: str | None = None) -> dict[str, str]:
    """The settings for a machine with this much memory (pure: no files, no server)."""
    if shared_buffers is None:
        mb = min(_BUFFERS_MAX_MB, max(_BUFFERS_MIN_MB, total_memory_bytes // 4 // _MB))
        shared_buffers = f"{mb}MB"
    elif not _SIZE.match(shared_buffers):
        raise InvalidInput(
            f"FACTSTORE_SHARED_BUFFERS={shared_buffers!r} is not a size Postgres takes here; "
            "write a whole number with MB or GB, e.g. 512MB or 2GB")
    cache_mb = max(_BUFFERS_MIN_MB, total_memory_bytes // 2 // _MB)
    return {
        "shared_buffers": shared_buffers,
        # what the planner assumes the kernel caches too (no memory is allocated for it)
        "effective_cache_size": f"{cache_mb}MB",
        # a bulk load of a million facts writes ~10 GB of WAL; at the default 1 GB that
        # is a checkpoint every few seconds, each followed by full-page images
        "max_wal_size": "8GB",
        "checkpoint_timeout": "15min",
    }


def render(settings: dict[str, str]) -> str:
    lines = ["# Written by factstore when it starts its embedded server; edits are replaced.",
             "# See factstore/store/server_tuning.py for why each value is what it is."]
    lines += [f"{name} = '{value}'" for name, value in settings.items()]
    return "\n".join(lines) + "\n"


def write_tuning(pgdata: Path) -> dict[str, str]:
    """Write factstore.conf into an initialised pgdata and include it from postgresql.conf."""
    settings = tuning(psutil.virtual_memory().total,
                      os.environ.get("FACTSTORE_SHARED_BUFFERS") or None)
    target = pgdata / TUNING_FILE
    text = render(settings)
    if not target.is_file() or target.read_text() != text:
        staged = target.with_suffix(".tmp")
        staged.write_text(text)
        staged.chmod(0o644)
        staged.replace(target)
    conf = pgdata / "postgresql.conf"
    if _INCLUDE not in conf.read_text():
        with conf.open("a") as handle:
            handle.write(f"\n{_INCLUDE}\n")
    return settings
