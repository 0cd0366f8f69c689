"""Which archives a folder holds: each file of a known format and each subfolder, by name.

The names are the Dagster partition keys and the lineage prefixes, so they are relative to
the archive folder and stable across machines.
"""

from __future__ import annotations

from pathlib import Path

from factstore.errors import InvalidInput
from factstore.migration.readers import TEXT_SUFFIXES

ARCHIVE_SUFFIXES = (".jsonl", ".ndjson", ".csv", ".tsv", ".parquet", ".json", *TEXT_SUFFIXES)


def discover_archives(folder: str | Path) -> list[str]:
    """The archive names under ``folder`` (top level only), sorted; hidden entries and files
    of other formats (and the rejects files a run writes) are left out."""
    root = Path(folder)
    if not root.is_dir():
        raise InvalidInput(f"archive folder {root} does not exist or is not a folder; create "
                           "it or point the configuration at the folder holding the archives")
    names = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith((".", "_")) or entry.name.endswith(".rejects.jsonl"):
            continue
        if entry.is_dir() or entry.suffix.lower() in ARCHIVE_SUFFIXES:
            names.append(entry.name)
    return names
