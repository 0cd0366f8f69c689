"""Archive migration: document archives (JSONL, CSV, Parquet, Markdown or text folders,
LoCoMo and QMSum JSON, format v1 timeline JSONL) into a store, through its bulk paths.

``factstore migrate`` and the Dagster migration assets both run :func:`migrate_archive`.
"""

from factstore.migration.discovery import discover_archives
from factstore.migration.mapping import ColumnMap, parse_map
from factstore.migration.readers import FORMATS, Reject, Scan, detect_format, read_archive
from factstore.migration.run import MigrationReport, migrate_archive

__all__ = ["FORMATS", "ColumnMap", "MigrationReport", "Reject", "Scan", "detect_format",
           "discover_archives", "migrate_archive", "parse_map", "read_archive"]
