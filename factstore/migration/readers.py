"""Reading an archive into captures (or format v1 facts) and rejects, without a store.

Tabular archives are scanned with DuckDB (``read_json_auto``, ``read_csv_auto``,
``read_parquet``) and their rows mapped to capture fields (``mapping.py``). A Markdown or
text folder gives one document per file, its lineage the file's path inside the folder.
LoCoMo and QMSum JSON go through the eval loaders (one capture per turn), and a JSONL of
format v1 timeline facts becomes facts for ``backfill_facts``.

Every row becomes a capture or a :class:`Reject` naming its file, line and reason: a row
is never dropped without a record. Each capture is checked exactly as ``remember`` checks
it (``factstore.captures``), so the batch that is written cannot be refused. Pure of the
store: no database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from factstore.captures import check_capture
from factstore.errors import FactStoreError, InvalidInput
from factstore.migration.mapping import ColumnMap, zone_of

#: the formats an archive may be in
FORMATS = ("jsonl", "csv", "parquet", "text-folder", "locomo", "qmsum", "timeline-v1")
TEXT_SUFFIXES = (".md", ".markdown", ".txt")
_TIMELINE_KEYS = {"subject", "attribute", "value"}
_LEGAL = re.compile(r"^(readme|licen[cs]e|copying|notice)(\.|$)", re.IGNORECASE)


@dataclass(frozen=True)
class Reject:
    """A row that was not migrated, and why. ``line`` is the file's line (JSONL, text), the
    record's line counting the header (CSV), the row number from 1 (Parquet), or None."""

    file: str
    line: int | None
    reason: str


@dataclass(frozen=True)
class Row:
    """One capture (the fields ``remember`` takes) or one format v1 fact, and its origin."""

    file: str
    line: int | None
    capture: dict[str, Any] | None = None
    fact: dict[str, Any] | None = None


@dataclass(frozen=True)
class Scan:
    """An archive read: its format, the rows to write, the rows refused."""

    format: str
    rows: tuple[Row, ...]
    rejects: tuple[Reject, ...]

    @property
    def captures(self) -> list[dict[str, Any]]:
        return [r.capture for r in self.rows if r.capture is not None]

    @property
    def facts(self) -> list[dict[str, Any]]:
        return [r.fact for r in self.rows if r.fact is not None]


def detect_format(path: Path) -> str:
    """The archive format a path implies (its suffix, then a look at its first record)."""
    if path.is_dir():
        files = [p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")]
        jsons = [p for p in files if p.suffix.lower() == ".json"]
        texts = [p for p in files if p.suffix.lower() in TEXT_SUFFIXES
                 and not _LEGAL.match(p.name)]
        # A dataset folder ships a README and a licence beside its JSON: those are not
        # the archive.
        if jsons and not texts:
            return "locomo" if len(jsons) == 1 and detect_format(jsons[0]) == "locomo" \
                else "qmsum"
        if any(p.suffix.lower() in TEXT_SUFFIXES for p in files):
            return "text-folder"
        raise InvalidInput(f"{path}: a folder archive holds Markdown or text files (one "
                           "document each) or QMSum meeting JSON; this one holds neither")
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "timeline-v1" if _first_record_keys(path) >= _TIMELINE_KEYS else "jsonl"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix == ".parquet":
        return "parquet"
    if suffix == ".json":
        head = path.read_text(encoding="utf-8", errors="replace")[:4096].lstrip()
        return "locomo" if head.startswith("[") or '"conversation"' in head else "qmsum"
    if suffix in TEXT_SUFFIXES:
        return "text-folder"
    raise InvalidInput(f"{path}: cannot tell the archive format from {suffix or 'no suffix'}; "
                       f"name it .jsonl, .csv, .parquet or .json, or pass one of "
                       f"{', '.join(FORMATS)}")


def read_archive(path: Path, mapping: ColumnMap, *, name: str | None = None,
                 fmt: str | None = None) -> Scan:
    """Read one archive (a file or a folder) into rows and rejects.

    ``name`` is how the archive is named in lineages and rejects (default its file name),
    so a lineage stays the same when the archive folder moves.
    """
    path = Path(path)
    if not path.exists():
        raise InvalidInput(f"archive {path} does not exist")
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise InvalidInput(f"unknown archive format {fmt!r}; use one of {', '.join(FORMATS)}")
    name = name or path.name
    if fmt in ("jsonl", "csv", "parquet"):
        records, rejects = _tabular(path, fmt, mapping)
        return _captures_of(fmt, name, records, rejects, mapping, source_type="capture")
    if fmt == "text-folder":
        return _captures_of(fmt, name, _text_files(path, name), [], mapping,
                            source_type="file")
    if fmt == "locomo":
        return _captures_of(fmt, name, _locomo(path, mapping), [], mapping,
                            source_type="utterance")
    if fmt == "qmsum":
        return _captures_of(fmt, name, _qmsum(path), [], mapping, source_type="utterance")
    return _timeline(path, name)


# -- tabular archives, through DuckDB --------------------------------------------------------


def _tabular(path: Path, fmt: str, mapping: ColumnMap
             ) -> tuple[list[tuple[int | None, dict[str, Any]]], list[Reject]]:
    import duckdb  # noqa: PLC0415  (a second's import, only for tabular archives)

    con = duckdb.connect()
    rejects: list[Reject] = []
    try:
        if fmt == "parquet":
            relation = con.sql("SELECT * FROM read_parquet(?)", params=[str(path)])
        elif fmt == "csv":
            relation = con.sql("SELECT * FROM read_csv_auto(?, all_varchar = true, "
                               "store_rejects = true)", params=[str(path)])
        else:
            relation = con.sql("SELECT * FROM read_json_auto(?, format = 'newline_delimited')",
                               params=[str(path)])
        columns = list(relation.columns)
        # A JSON column of mixed types comes back as JSON text: decode it, so a number
        # where text belongs is refused rather than migrated as its digits.
        decode = [str(t) == "JSON" for t in relation.types]
        records = [tuple(json.loads(v) if d and v is not None else v
                         for v, d in zip(values, decode, strict=True))
                   for values in relation.fetchall()]
    except duckdb.InvalidInputException:
        if fmt != "jsonl":
            raise InvalidInput(f"{path}: DuckDB could not read it as {fmt}; check the file "
                               "is what its name says") from None
        # A malformed line stops DuckDB's scan: read line by line, so each bad line is named.
        return _jsonl_by_line(path, mapping)
    except duckdb.Error as exc:
        raise InvalidInput(f"{path}: DuckDB could not read it as {fmt}: {exc}") from None
    _check_columns(path, columns, mapping)
    if fmt == "csv":
        for line, error in con.sql("SELECT line, error_message FROM reject_errors "
                                   "ORDER BY line").fetchall():
            rejects.append(Reject(path.name, int(line), f"malformed CSV record: {error}"))
    lines = _jsonl_lines(path) if fmt == "jsonl" else None
    out = []
    for i, values in enumerate(records):
        line = lines[i] if lines is not None and i < len(lines) else (
            i + 2 if fmt == "csv" else i + 1)
        out.append((line, dict(zip(columns, values, strict=True))))
    if fmt == "csv" and rejects:
        out = _csv_lines_around(out, {r.line for r in rejects})
    return out, rejects


def _check_columns(path: Path, columns: list[str], mapping: ColumnMap) -> None:
    missing = [f"{f}={c}" for f, c in mapping.explicit().items() if c not in columns]
    if "text" not in mapping.explicit() and "text" not in columns:
        missing.append("text=text")
    if missing:
        raise InvalidInput(f"{path}: the column mapping names columns the archive lacks "
                           f"({', '.join(missing)}); its columns are {', '.join(columns)}. "
                           "Map them with e.g. --map text=body")


def _csv_lines_around(out: list[tuple[int | None, dict[str, Any]]], skipped: set[int]
                      ) -> list[tuple[int | None, dict[str, Any]]]:
    """A rejected CSV record takes a line: renumber the good ones past it."""
    fixed, line = [], 2
    for _, values in out:
        while line in skipped:
            line += 1
        fixed.append((line, values))
        line += 1
    return fixed


def _jsonl_lines(path: Path) -> list[int]:
    """The line number of each non-blank line: DuckDB's records, in order."""
    with path.open("rb") as handle:
        return [n for n, raw in enumerate(handle, start=1) if raw.strip()]


def _jsonl_by_line(path: Path, mapping: ColumnMap
                   ) -> tuple[list[tuple[int | None, dict[str, Any]]], list[Reject]]:
    out, rejects = [], []
    for number, line in _lines(path):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            rejects.append(Reject(path.name, number, f"not valid JSON ({exc.msg}, column "
                                  f"{exc.colno}); each line must be one JSON object"))
            continue
        if not isinstance(record, dict):
            rejects.append(Reject(path.name, number, "not a JSON object"))
            continue
        out.append((number, record))
    if out:
        _check_columns(path, sorted({k for _, r in out for k in r}), mapping)
    return out, rejects


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8", errors="strict") as handle:
        try:
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    yield number, line
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{path}: not UTF-8 text ({exc.reason}); convert it first") \
                from None


# -- folders and the known JSON shapes ---------------------------------------------------------


def _text_files(path: Path, name: str) -> list[tuple[int | None, dict[str, Any]]]:
    root = path if path.is_dir() else path.parent
    files = [path] if path.is_file() else sorted(
        p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in TEXT_SUFFIXES)
    out = []
    for file in files:
        relative = file.relative_to(root).as_posix()
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            text = None  # rejected below with its reason
        where = relative if path.is_dir() else name
        out.append((None, {"text": text, "lineage": f"{name}/{relative}" if path.is_dir()
                           else where, "_file": where}))
    return out


def _locomo(path: Path, mapping: ColumnMap) -> list[tuple[int | None, dict[str, Any]]]:
    from evals.loaders import load_locomo  # noqa: PLC0415  (the eval package's loader)

    # LoCoMo's session times carry no zone: read them in the mapping's, else UTC.
    zone = zone_of(mapping.timezone) or UTC
    out = []
    for conversation in _loaded(load_locomo, path):
        for session in conversation.sessions:
            for turn in session.turns:
                out.append((None, {"text": turn.text, "captured_by": turn.speaker,
                                   "said_at": session.when and session.when.replace(
                                       tzinfo=session.when.tzinfo or zone),
                                   "lineage": f"{conversation.sample_id}:{turn.dia_id}"}))
    return out


def _qmsum(path: Path) -> list[tuple[int | None, dict[str, Any]]]:
    from evals.loaders import load_qmsum  # noqa: PLC0415  (the eval package's loader)

    return [(None, {"text": turn.text, "captured_by": turn.speaker,
                    "lineage": f"{meeting.meeting_id}:{turn.dia_id}"})
            for meeting in _loaded(load_qmsum, path) for turn in meeting.turns]


def _loaded(loader: Any, path: Path) -> list[Any]:
    try:
        return loader(path)
    except FactStoreError:
        raise
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{path}: could not be read: {exc}") from None


# -- rows to captures ----------------------------------------------------------------------


def _captures_of(fmt: str, name: str, records: Iterable[tuple[int | None, dict[str, Any]]],
                 rejects: list[Reject], mapping: ColumnMap, *, source_type: str) -> Scan:
    tabular = fmt in ("jsonl", "csv", "parquet")
    rows = []
    for line, values in records:
        file = values.pop("_file", name)
        try:
            capture = _capture(values, mapping, tabular=tabular,
                               source_type=mapping.source_type or source_type,
                               default_ref=f"{name}:{line}")
        except InvalidInput as exc:
            rejects.append(Reject(file, line, str(exc)))
            continue
        rows.append(Row(file, line, capture=capture))
    return Scan(fmt, tuple(rows), tuple(sorted(rejects, key=_reject_order)))


def _reject_order(reject: Reject) -> tuple[str, int]:
    return reject.file, reject.line or 0


def _capture(values: dict[str, Any], mapping: ColumnMap, *, tabular: bool, source_type: str,
             default_ref: str) -> dict[str, Any]:
    pick = (lambda f: values.get(mapping.column(f))) if tabular else values.get
    text = pick("text")
    if text is None:
        raise InvalidInput(f"no text in column {mapping.column('text')!r}" if tabular
                           else "no text (empty, or not UTF-8)")
    if not isinstance(text, str):
        raise InvalidInput(f"column {mapping.column('text')!r} holds a value of type {type(text).__name__}, "
                           "not text")
    if not text.strip():
        raise InvalidInput(f"column {mapping.column('text')!r} is empty" if tabular
                           else "the document is empty")
    ref = _as_text(pick("lineage")) or _as_text(pick("source_ref")) or default_ref
    said_at = _instant(pick("said_at"), mapping)
    checked = check_capture(text, source_type=source_type, source_ref=ref, said_at=said_at,
                            captured_by=_as_text(pick("captured_by")))
    capture: dict[str, Any] = {"text": checked.text, "source_type": checked.source_type,
                               "source_ref": checked.source_ref}
    if checked.said_at is not None:
        capture["said_at"] = checked.said_at
    if checked.captured_by is not None:
        capture["captured_by"] = checked.captured_by
    return capture


def _as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidInput(f"a source or speaker column holds a value of type {type(value).__name__}; "
                           "it must be text or a whole number")
    return str(value).strip() or None


def _instant(value: Any, mapping: ColumnMap) -> datetime | str | None:
    """said_at as remember takes it; a timestamp without an offset gets the mapping's zone."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise InvalidInput(f"said_at={value!r} is not an ISO-8601 timestamp; use e.g. "
                               "2026-10-15T09:12:00Z") from None
        value = parsed
    if isinstance(value, datetime) and value.tzinfo is None:
        zone = zone_of(mapping.timezone)
        if zone is None:
            raise InvalidInput(f"said_at {value.isoformat()} has no offset; add one, or set "
                               "the mapping's timezone (--timezone UTC) to read such times in")
        value = value.replace(tzinfo=zone)
    return value


# -- format v1 timeline facts ----------------------------------------------------------------


def _timeline(path: Path, name: str) -> Scan:
    from factstore.timelines.format_v1 import FactsValidationError, validate_request  # noqa: PLC0415

    rows, rejects = [], []
    for number, line in _lines(path):
        try:
            fact = json.loads(line)
        except json.JSONDecodeError as exc:
            rejects.append(Reject(name, number, f"not valid JSON ({exc.msg}, column "
                                  f"{exc.colno}); each line must be one format v1 fact"))
            continue
        rows.append(Row(name, number, fact=fact))
    if rows:
        try:
            validate_request({"format": 1, "facts": [r.fact for r in rows]}, batch=True)
        except FactsValidationError as exc:
            bad: dict[int, list[str]] = {}
            for error in exc.errors:
                index = _fact_index(error.path)
                bad.setdefault(index if index is not None else -1, []).append(str(error))
            if -1 in bad:  # a problem of the request as a whole: every row carries it
                raise InvalidInput(f"{path}: {'; '.join(bad[-1])}") from None
            rejects += [Reject(name, rows[i].line, "; ".join(reasons))
                        for i, reasons in bad.items()]
            rows = [r for i, r in enumerate(rows) if i not in bad]
    return Scan("timeline-v1", tuple(rows), tuple(sorted(rejects, key=_reject_order)))


def _fact_index(path: str) -> int | None:
    if path.startswith("facts[") and "]" in path:
        try:
            return int(path[len("facts["):path.index("]")])
        except ValueError:
            return None
    return None


def _first_record_keys(path: Path) -> set[str]:
    for _, line in _lines(path):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            return set()
        return set(record) if isinstance(record, dict) and "text" not in record else set()
    return set()
