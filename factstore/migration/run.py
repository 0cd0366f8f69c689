"""Migrating one archive into a store: read it, write it through the bulk paths, report.

Captures go through ``Store.remember_many`` (every write-path rule applies, exactly as
one-by-one ``remember`` would decide), format v1 facts through ``Store.backfill_facts``.
Both skip what already landed (a document is unique per lineage and content; a backfill
chunk by its corroboration rule), so re-running a migration writes nothing new and a run
killed part way is resumed by running it again. The Dagster assets and ``factstore
migrate`` both call :func:`migrate_archive`.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from factstore.migration.mapping import ColumnMap
from factstore.migration.readers import Reject, Scan, read_archive

#: outcomes that wrote no new fact: a re-run of the capture, or a restatement's support
_NOT_NEW = frozenset({"unchanged", "recaptured"})


@dataclass(frozen=True)
class MigrationReport:
    """What one archive's migration did (the materialization metadata and the CLI table)."""

    archive: str
    format: str
    rows: int
    documents_landed: int
    documents_skipped: int
    facts_written: int
    conflicts_raised: int
    seconds: float
    #: extracted facts the write path refused, by "stage: reason"
    dropped: Mapping[str, int] = field(default_factory=dict)
    rejects: tuple[Reject, ...] = ()
    #: where the rejects were written (None when there were none)
    rejects_file: str | None = None
    #: timeline facts a backfill found already kept (a re-run)
    facts_unchanged: int = 0

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0

    @property
    def wrote_anything(self) -> bool:
        return bool(self.documents_landed or self.facts_written or self.conflicts_raised)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["rejects"] = [asdict(r) for r in self.rejects]
        out["rows_per_second"] = round(self.rows_per_second, 1)
        return out


def migrate_archive(store: Any, path: str | Path, mapping: ColumnMap | None = None, *,
                    name: str | None = None, fmt: str | None = None,
                    rejects_dir: str | Path | None = None, batch_size: int = 64,
                    extract: bool = True,
                    progress: Callable[[int, int], None] | None = None) -> MigrationReport:
    """Migrate one archive (a file or a folder) into ``store``.

    With ``extract=False`` the captures' documents land alone (``Store.land_documents``),
    for ``Store.extract_documents`` to extract later in bulk.

    Rows that cannot be migrated are listed in the report and, with ``rejects_dir``, in
    ``<rejects_dir>/<name>.rejects.jsonl`` (file, line, reason); the rest is written.
    ``progress(done, total)`` follows the write.
    """
    mapping = mapping or ColumnMap()
    started = time.perf_counter()
    path = Path(path)
    scan = read_archive(path, mapping, name=name, fmt=fmt)
    name = name or path.name
    rejects_file = _write_rejects(scan, rejects_dir, name)
    if scan.format == "timeline-v1":
        report = _backfill(store, scan, _archive_time(path), progress)
    elif not extract:
        report = _land(store, scan, batch_size, progress)
    else:
        report = _remember(store, scan, batch_size, progress)
    return MigrationReport(archive=name, format=scan.format,
                           rows=len(scan.rows) + len(scan.rejects),
                           seconds=round(time.perf_counter() - started, 3),
                           rejects=scan.rejects, rejects_file=rejects_file, **report)


def _remember(store: Any, scan: Scan, batch_size: int,
              progress: Callable[[int, int], None] | None) -> dict[str, Any]:
    captures = scan.captures
    results = store.remember_many(captures, batch_size=batch_size,
                                  progress=progress) if captures else []
    return summarise(results)


def summarise(results: list[Any], *, extracted: bool = False) -> dict[str, Any]:
    """Documents landed and skipped, new facts, conflicts raised and facts dropped (by
    reason) of a list of RememberResults. A re-run capture's drops were counted when it
    landed; with ``extracted`` (``Store.extract_documents``, whose documents all existed
    before) every result's drops count."""
    dropped = Counter(f"{d.stage}: {d.reason}" for r in results for d in r.dropped
                      if extracted or not r.document.duplicate)
    new = [o for r in results for o in r.outcomes if o.outcome not in _NOT_NEW]
    return {"documents_landed": sum(not r.document.duplicate for r in results),
            "documents_skipped": sum(r.document.duplicate for r in results),
            "facts_written": len(new),
            "conflicts_raised": len({o.conflict_id for o in new if o.conflict_id is not None}),
            "dropped": dict(sorted(dropped.items()))}


def _archive_time(path: Path) -> datetime:
    """When the archive's facts were observed, for facts that do not say: when the archive
    was last written. A re-run then observes nothing new (a changed file is a new reading)."""
    return min(datetime.fromtimestamp(path.stat().st_mtime, UTC), datetime.now(UTC))


def _land(store: Any, scan: Scan, batch_size: int,
          progress: Callable[[int, int], None] | None) -> dict[str, Any]:
    captures = scan.captures
    records = store.land_documents(captures, batch_size=batch_size,
                                   progress=progress) if captures else []
    return {"documents_landed": sum(not r.duplicate for r in records),
            "documents_skipped": sum(r.duplicate for r in records),
            "facts_written": 0, "conflicts_raised": 0}


def _backfill(store: Any, scan: Scan, observed: datetime,
              progress: Callable[[int, int], None] | None) -> dict[str, Any]:
    facts = scan.facts
    if not facts:
        return {"documents_landed": 0, "documents_skipped": 0, "facts_written": 0,
                "conflicts_raised": 0}
    result = store.backfill_facts(facts, now=observed, progress=progress)
    # A chunk that had landed writes nothing (its observations all come back unchanged).
    landed = result.created + result.corroborated > 0
    return {"documents_landed": len(result.documents) if landed else 0,
            "documents_skipped": 0 if landed else len(result.documents),
            "facts_written": result.created, "conflicts_raised": 0,
            "facts_unchanged": result.unchanged}


def _write_rejects(scan: Scan, rejects_dir: str | Path | None, name: str) -> str | None:
    if not scan.rejects or rejects_dir is None:
        return None
    folder = Path(rejects_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name.replace('/', '_')}.rejects.jsonl"
    staged = target.with_suffix(".tmp")
    with staged.open("w", encoding="utf-8") as handle:
        for reject in scan.rejects:
            handle.write(json.dumps({"file": reject.file, "line": reject.line,
                                     "reason": reject.reason}) + "\n")
    staged.replace(target)
    return str(target)
