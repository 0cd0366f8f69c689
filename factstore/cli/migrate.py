"""``factstore migrate``: an archive (or a folder of them) into the store, without Dagster.

The same migration the Dagster assets run (``factstore.migration``), with a progress bar
on a terminal and a summary table.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from factstore.cli.shell import _emit, _state, _store, app, progress_bar
from factstore.errors import InvalidInput
from factstore.migration import (
    FORMATS,
    MigrationReport,
    discover_archives,
    migrate_archive,
    parse_map,
)
from factstore.migration.run import summarise


@app.command()
def migrate(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(
        help="An archive: a .jsonl, .csv or .parquet file, a folder of Markdown or text "
        "files, a LoCoMo or QMSum JSON file or folder, or a JSONL of format v1 facts.")],
    map_spec: Annotated[str | None, typer.Option(
        "--map", help="Which column feeds which field, e.g. text=body,said_at=created,"
        "lineage=doc_id (fields: text, source_ref, said_at, captured_by, lineage); an "
        "unmapped field reads the column of its own name.")] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", help=f"One of {', '.join(FORMATS)}; default: told by the name.")] = None,
    timezone: Annotated[str | None, typer.Option(
        help="The zone to read timestamps without an offset in (e.g. UTC); without it such "
        "rows are rejected.")] = None,
    source_type: Annotated[str | None, typer.Option(
        help="utterance | capture | file | commit | url (default: the format's own).")] = None,
    each: Annotated[bool, typer.Option(
        "--each", help="PATH is a folder of archives: migrate each file and subfolder.")
                    ] = False,
    extract: Annotated[bool, typer.Option(
        "--extract/--no-extract", help="Extract while migrating (default), or land the "
        "documents only, for `factstore extract` later.")] = True,
    rejects: Annotated[Path | None, typer.Option(
        help="Where rejected rows are listed (default: FACTSTORE_HOME/rejects).")] = None,
) -> None:
    """Migrate document archives through the bulk write path; re-running writes nothing new."""
    mapping = parse_map(map_spec, source_type=source_type, timezone=timezone)
    if each:
        names = discover_archives(path)
        if not names:
            raise InvalidInput(f"{path} holds no archive (.jsonl, .csv, .parquet, .json, "
                               ".md, .txt or a subfolder)")
        targets = [(path / name, name) for name in names]
    else:
        if not path.exists():
            raise InvalidInput(f"archive {path} does not exist")
        targets = [(path, path.name)]
    home = _state(ctx).options.home or Path(os.environ.get("FACTSTORE_HOME") or ".factstore")
    rejects_dir = rejects or home / "rejects"
    store = _store(ctx)
    reports = []
    for target, name in targets:
        with progress_bar(ctx, 0, f"migrating {name}") as advance:
            reports.append(migrate_archive(store, target, mapping, name=name, fmt=fmt,
                                           rejects_dir=rejects_dir, extract=extract,
                                           progress=advance))
    _emit(ctx, [r.as_dict() for r in reports], lambda c: _render(c, reports))


def _render(console, reports: list[MigrationReport]) -> None:  # noqa: ANN001
    table = Table(title="migrated")
    for column in ("archive", "rows", "new docs", "seen", "facts", "conflicts", "dropped",
                   "rejected", "rows/s"):
        table.add_column(column, justify="left" if column == "archive" else "right")
    for r in reports:
        table.add_row(f"{escape(r.archive)} ({r.format})", f"{r.rows:,}",
                      f"{r.documents_landed:,}", f"{r.documents_skipped:,}",
                      f"{r.facts_written:,}", f"{r.conflicts_raised:,}",
                      f"{sum(r.dropped.values()):,}", f"{len(r.rejects):,}",
                      f"{r.rows_per_second:,.1f}")
    console.print(table)
    for r in reports:
        if r.rejects:
            first = r.rejects[0]
            console.print(f"{escape(r.archive)}: {len(r.rejects)} row(s) rejected, listed in "
                          f"{escape(str(r.rejects_file))}; first: line {first.line}: "
                          f"{escape(first.reason)}")


@app.command()
def extract(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option(help="At most this many documents.")] = 10_000,
) -> None:
    """Extract documents that landed without extraction (`migrate --no-extract`)."""
    store = _store(ctx)
    with progress_bar(ctx, 0, "extracting") as advance:
        results = store.extract_documents(limit=limit, progress=advance)
    written = summarise(results, extracted=True)["facts_written"]
    _emit(ctx, {"documents_extracted": len(results), "facts_written": written,
                "extractor": store.extractor.name},
          lambda c: c.print(f"extracted {len(results)} document(s) with "
                            f"{escape(store.extractor.name)}: {written} new fact(s)"))
