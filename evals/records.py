"""Run records: every eval run as two Parquet files under ``$FACTSTORE_HOME/evals/<run_id>/``.

``items.parquet`` holds one row per item, as the runner returned it, plus ``run_id`` and
``item_index``; ``summary.parquet`` holds exactly one row: what ran (eval, git commit,
extractor, embedder, thresholds, dataset path and hash), when, and the metrics with their
directions and tolerances. The files are self-describing, so ``evals.compare`` (or any DuckDB,
polars or pandas session) can read them without this module.

Summary columns, in order: ``run_id``, ``eval``, ``started_at``, ``finished_at`` (naive UTC
timestamps), ``git_commit`` ('unknown' outside a checkout), ``git_dirty`` (null when
unknown), ``extractor``, ``embedder``, ``thresholds`` (JSON of ``Settings.as_dict()``),
``dataset``, ``dataset_sha256``, ``item_count``, ``primary_metric``, ``directions`` and
``tolerances`` (JSON objects keyed by metric name), ``notes`` (JSON), then one float
``metric_<name>`` column per metric the run produced.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from evals.registry import EvalContext, EvalOutcome, EvalSpec
from factstore.errors import InvalidInput
from factstore.redaction import redact, redact_json
from factstore.store.server import factstore_home

__all__ = [
    "ITEMS_FILE",
    "METRIC_PREFIX",
    "RESERVED_ITEM_COLUMNS",
    "SUMMARY_FILE",
    "RunRecord",
    "dataset_hash",
    "evals_dir",
    "git_state",
    "new_run_id",
    "run_dir",
    "write_run",
]

ITEMS_FILE = "items.parquet"
SUMMARY_FILE = "summary.parquet"
#: summary columns holding metric values are this prefix plus the metric's name
METRIC_PREFIX = "metric_"
#: columns write_run adds to every item row, so an item may not use them itself
RESERVED_ITEM_COLUMNS = ("run_id", "item_index")

#: the checkout this module lives in; its HEAD is the code a run measured
REPO = Path(__file__).resolve().parents[1]
_RUN_ID = re.compile(r"^[A-Za-z0-9_.\-]+$")


@dataclass(frozen=True)
class RunRecord:
    """A written run: its id, its directory and the metric values it recorded."""

    run_id: str
    path: Path
    metrics: Mapping[str, float | None]


# -- names and places -----------------------------------------------------------------------


def evals_dir(home: str | os.PathLike[str] | None = None) -> Path:
    """``$FACTSTORE_HOME/evals`` (``home`` overrides the variable); created if missing."""
    path = factstore_home(home) / "evals"
    path.mkdir(parents=True, exist_ok=True)
    return path


def run_dir(run_id: str, home: str | os.PathLike[str] | None = None) -> Path:
    """Where a run's files live. Refuses ids that are not a single plain path segment."""
    if not isinstance(run_id, str) or not _RUN_ID.match(run_id) or run_id in (".", ".."):
        raise InvalidInput(f"{run_id!r} is not a run id; run ids look like "
                           "'<eval>-20250101T120000-a1b2c3' (see `factstore eval runs`)")
    return evals_dir(home) / run_id


def new_run_id(eval_name: str, started_at: datetime | None = None) -> str:
    """``<eval>-<UTC yyyymmddThhmmss>-<6 hex>``: sortable by time within an eval, and unique
    even for two runs started in the same second (the random suffix)."""
    when = (started_at or datetime.now(UTC)).astimezone(UTC)
    return f"{eval_name}-{when:%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"


# -- provenance -----------------------------------------------------------------------------


def git_state(repo: Path = REPO) -> tuple[str, bool | None]:
    """(HEAD commit, whether tracked files differ from it); ('unknown', None) outside a checkout.

    The dirty flag matters because a commit alone overstates what a run measured when the
    working tree had uncommitted edits.
    """
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                                  text=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    if head is None or not head.strip():
        return "unknown", None
    status = git("status", "--porcelain", "--untracked-files=no")
    return head.strip(), (None if status is None else bool(status.strip()))


def dataset_hash(path: Path) -> str:
    """sha256 hex of a file's bytes; for a directory, of its files in sorted relative-path order
    (each file's path and content hash), so renaming or editing any file changes it."""
    path = Path(path)
    if path.is_file():
        return _file_sha256(path).hexdigest()
    if path.is_dir():
        digest = hashlib.sha256()
        files = sorted((p for p in path.rglob("*") if p.is_file()),
                       key=lambda p: p.relative_to(path).as_posix())
        for file in files:
            digest.update(file.relative_to(path).as_posix().encode("utf-8") + b"\0")
            digest.update(_file_sha256(file).digest())
        return digest.hexdigest()
    raise InvalidInput(f"dataset {path} does not exist; pass an existing file or directory")


def _file_sha256(path: Path) -> Any:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        # Chunked, so a large external set (LoCoMo is megabytes) is never read whole.
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest


# -- values to columns ----------------------------------------------------------------------


def _json_default(value: object) -> object:
    """The few non-JSON values a runner plausibly returns, as text; anything else is refused."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON-able")


def _dumps(value: object) -> str:
    # Sorted keys so the same value always encodes to the same text (diffable, groupable).
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=_json_default)


def _column(key: str, values: Sequence[object]) -> pa.Array:
    """One items column: a native Parquet type when every value is the same scalar type,
    otherwise every value JSON-encoded (so 1 and "1" stay distinguishable)."""
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    present = [v for v in values if v is not None]
    if not present:
        return pa.array(values, type=pa.string())
    if all(isinstance(v, bool) for v in present):
        return pa.array(values, type=pa.bool_())
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pa.array(values, type=pa.int64())
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        return pa.array([None if v is None else float(v) for v in values], type=pa.float64())
    if all(isinstance(v, str) for v in present):
        return pa.array(values, type=pa.string())
    encoded: list[str | None] = []
    for index, value in enumerate(values):
        try:
            encoded.append(None if value is None else _dumps(value))
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"item {index} field {key!r}: {exc}; eval items must hold "
                               "JSON-able values") from None
    return pa.array(encoded, type=pa.string())


def _items_table(run_id: str, items: Sequence[Mapping[str, Any]]) -> pa.Table:
    keys: dict[str, None] = {}  # first-appearance order, so columns follow the runner's order
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise InvalidInput(f"item {index} is {type(item).__name__}; an eval's items are "
                               "mappings of field name to value")
        for key in item:
            if not isinstance(key, str):
                raise InvalidInput(f"item {index} has a non-string field name {key!r}")
            if key in RESERVED_ITEM_COLUMNS:
                raise InvalidInput(f"item {index} uses the reserved field {key!r}; the run record "
                                   f"adds {', '.join(RESERVED_ITEM_COLUMNS)} itself, rename it")
            keys.setdefault(key, None)
    columns: dict[str, pa.Array] = {
        "run_id": pa.array([run_id] * len(items), type=pa.string()),
        "item_index": pa.array(range(len(items)), type=pa.int64()),
    }
    for key in keys:
        # A run record keeps what the eval saw (dataset text, extracted statements): the same
        # redaction as the store's, so a secret in a dataset never lands in a record either.
        columns[key] = _column(key, [_redacted(item.get(key)) for item in items])
    return pa.table(columns)


def _redacted(value: object) -> object:
    if isinstance(value, str):
        return redact(value)[0]
    if isinstance(value, list | tuple | dict):
        return redact_json(value)[0]
    return value


def _metric_value(name: str, value: object) -> float | None:
    if isinstance(value, np.generic):
        value = value.item()
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"metric {name!r} is {value!r}; metric values are numbers (or None "
                           "when the fixture cannot define them)")
    return float(value)


def _summary_table(row: Mapping[str, Any], metric_columns: Iterable[str]) -> pa.Table:
    schema = pa.schema([
        ("run_id", pa.string()), ("eval", pa.string()),
        ("started_at", pa.timestamp("us")), ("finished_at", pa.timestamp("us")),
        ("git_commit", pa.string()), ("git_dirty", pa.bool_()),
        ("extractor", pa.string()), ("embedder", pa.string()), ("thresholds", pa.string()),
        ("dataset", pa.string()), ("dataset_sha256", pa.string()), ("item_count", pa.int64()),
        ("primary_metric", pa.string()), ("directions", pa.string()),
        ("tolerances", pa.string()), ("notes", pa.string()),
        *[(column, pa.float64()) for column in metric_columns],
    ])
    return pa.Table.from_pylist([dict(row)], schema=schema)


def _naive_utc(when: datetime) -> datetime:
    # Stored as naive UTC: DuckDB hands TIMESTAMPTZ back only with pytz installed.
    if when.tzinfo is None:
        return when
    return when.astimezone(UTC).replace(tzinfo=None)


def _write_atomically(table: pa.Table, path: Path) -> None:
    # Written aside and renamed, so a reader globbing summaries never sees half a file.
    partial = path.with_name(path.name + ".partial")
    pq.write_table(table, partial)
    os.replace(partial, path)


# -- the writer -----------------------------------------------------------------------------


def write_run(spec: EvalSpec, outcome: EvalOutcome, *, dataset: Path, context: EvalContext,
              home: str | os.PathLike[str] | None = None, run_id: str | None = None,
              started_at: datetime | None = None) -> RunRecord:
    """Write one run's ``items.parquet`` and ``summary.parquet``; return where and what.

    ``run_id`` and ``started_at`` default to a fresh id and now; the harness passes its own
    so the throwaway database names and the record agree. Metric values must be numbers or
    None (NaN is kept as NaN). Items must be mappings of JSON-able values; nested values are
    stored JSON-encoded (sorted keys), and a column whose values mix types is JSON-encoded
    throughout.
    """
    finished_at = datetime.now(UTC)
    started_at = started_at or finished_at
    run_id = run_id or new_run_id(spec.name, started_at)
    directory = run_dir(run_id, home)
    if directory.exists():
        raise InvalidInput(f"run {run_id} already exists at {directory}; run ids are never "
                           "reused")

    metrics = {name: _metric_value(name, value) for name, value in outcome.metrics.items()}
    for name in metrics:
        if not isinstance(name, str) or not name:
            raise InvalidInput(f"metric name {name!r} must be a non-empty string")
    try:
        notes = _dumps(dict(outcome.notes))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"eval {spec.name} notes are not JSON-able: {exc}") from None
    commit, dirty = git_state()

    row: dict[str, Any] = {
        "run_id": run_id,
        "eval": spec.name,
        "started_at": _naive_utc(started_at),
        "finished_at": _naive_utc(finished_at),
        "git_commit": commit,
        "git_dirty": dirty,
        "extractor": getattr(context.extractor, "name", type(context.extractor).__name__),
        "embedder": getattr(context.embedder, "name", type(context.embedder).__name__),
        "thresholds": _dumps(context.settings.as_dict()),
        "dataset": str(Path(dataset).resolve()),
        "dataset_sha256": dataset_hash(Path(dataset)),
        "item_count": len(outcome.items),
        "primary_metric": spec.primary.name,
        "directions": _dumps({m.name: m.direction for m in spec.metrics}),
        "tolerances": _dumps({m.name: m.tolerance for m in spec.metrics}),
        "notes": notes,
    }
    metric_columns = [METRIC_PREFIX + name for name in metrics]
    row.update(zip(metric_columns, metrics.values(), strict=True))

    # Both tables are built before anything touches the disk, so a bad item or metric leaves
    # no directory behind; items are written first, so a summary implies complete items.
    items = _items_table(run_id, outcome.items)
    summary = _summary_table(row, metric_columns)
    directory.mkdir(parents=True)
    _write_atomically(items, directory / ITEMS_FILE)
    _write_atomically(summary, directory / SUMMARY_FILE)
    return RunRecord(run_id=run_id, path=directory, metrics=metrics)
