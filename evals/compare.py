"""Reading runs back with DuckDB: one run's summary, every run, and two runs compared.

Everything here is SQL over the Parquet files ``evals.records`` writes, so what the CLI
prints is what anyone gets from ``read_parquet('$FACTSTORE_HOME/evals/*/summary.parquet')``.

``compare(a, b)`` judges run B against run A using the directions and tolerances stored in
A's summary: A is the baseline, so a tolerance loosened in the code under test cannot excuse
its own regression.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from evals.records import METRIC_PREFIX, SUMMARY_FILE, evals_dir, run_dir
from evals.registry import Metric
from factstore.errors import InvalidInput

__all__ = ["Comparison", "MetricDelta", "RunList", "RunSummary", "compare", "list_runs",
           "run_summary"]

#: the summary fields whose change between two runs explains a metric delta
CONTEXT_FIELDS = ("extractor", "embedder", "dataset_sha256", "thresholds", "git_commit")


@dataclass(frozen=True)
class RunSummary:
    """One run's summary row, with its JSON columns decoded."""

    run_id: str
    eval: str
    started_at: datetime
    finished_at: datetime | None
    git_commit: str
    git_dirty: bool | None
    extractor: str
    embedder: str
    thresholds: dict[str, Any]
    dataset: str
    dataset_sha256: str
    item_count: int
    primary_metric: str | None
    metrics: dict[str, float | None]
    directions: dict[str, str]
    tolerances: dict[str, float]
    notes: dict[str, Any]
    path: Path

    def _repr_html_(self) -> str:
        from evals.html import run_html

        return run_html(self)


class RunList(list[RunSummary]):
    """What list_runs answers: a plain list, shown in a notebook as one table."""

    def _repr_html_(self) -> str:
        from evals.html import runs_html

        return runs_html(self)


@dataclass(frozen=True)
class MetricDelta:
    """One metric in both runs. ``direction``/``tolerance`` are None for a metric run A's eval
    did not declare (it is shown, never judged)."""

    name: str
    before: float
    after: float
    delta: float
    direction: str | None
    tolerance: float | None
    regressed: bool

    @property
    def improved(self) -> bool:
        if self.direction in (None, "none") or self.delta == 0:
            return False
        return (self.delta > 0) == (self.direction == "higher")


@dataclass(frozen=True)
class Comparison:
    """Run B judged against run A.

    ``dropped`` are metrics A declared and measured that B has no value for: they count as
    failures, because a CI gate must not pass when the runner stopped producing its metric.
    ``added`` are metrics only B has. ``changes`` maps each of CONTEXT_FIELDS that differs to
    its (A, B) values.
    """

    eval: str
    run_a: str
    run_b: str
    deltas: tuple[MetricDelta, ...]
    dropped: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    changes: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)

    @property
    def regressions(self) -> tuple[MetricDelta, ...]:
        """The metrics that worsened past their tolerance."""
        return tuple(d for d in self.deltas if d.regressed)

    @property
    def ok(self) -> bool:
        """No metric regressed past its tolerance and none was dropped."""
        return not self.regressions and not self.dropped

    def _repr_html_(self) -> str:
        from evals.html import comparison_html

        return comparison_html(self)


# -- reading --------------------------------------------------------------------------------


def _query(sql: str, params: list[object]) -> list[dict[str, Any]]:
    with duckdb.connect() as conn:
        cursor = conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _utc(value: datetime | None) -> datetime | None:
    # The files hold naive UTC (see evals.records); hand back aware datetimes.
    return None if value is None else value.replace(tzinfo=UTC)


def _loads(text: str | None, default: Any) -> Any:
    return default if text is None else json.loads(text)


def _summary(row: Mapping[str, Any], home: Path) -> RunSummary:
    metrics = {column[len(METRIC_PREFIX):]: value for column, value in row.items()
               if column.startswith(METRIC_PREFIX)}
    directions = _loads(row.get("directions"), {})
    # With union_by_name every run gets every run's metric columns, null where it had none;
    # a null for a metric this run's eval does not declare is another eval's column.
    metrics = {name: value for name, value in metrics.items()
               if value is not None or name in directions}
    return RunSummary(
        run_id=row["run_id"], eval=row["eval"], started_at=_utc(row["started_at"]),
        finished_at=_utc(row.get("finished_at")), git_commit=row.get("git_commit") or "unknown",
        git_dirty=row.get("git_dirty"), extractor=row.get("extractor") or "",
        embedder=row.get("embedder") or "", thresholds=_loads(row.get("thresholds"), {}),
        dataset=row.get("dataset") or "", dataset_sha256=row.get("dataset_sha256") or "",
        item_count=int(row.get("item_count") or 0), primary_metric=row.get("primary_metric"),
        metrics=metrics, directions=directions, tolerances=_loads(row.get("tolerances"), {}),
        notes=_loads(row.get("notes"), {}), path=home / row["run_id"])


def list_runs(home: str | os.PathLike[str] | None = None,
              eval_name: str | None = None) -> RunList:
    """Every recorded run (of one eval when ``eval_name`` is given), newest first."""
    root = evals_dir(home)
    if not any(root.glob(f"*/{SUMMARY_FILE}")):
        return RunList()  # read_parquet raises on a glob that matches nothing
    sql = "SELECT * FROM read_parquet(?, union_by_name = true)"
    params: list[object] = [str(root / "*" / SUMMARY_FILE)]
    if eval_name is not None:
        sql += ' WHERE "eval" = ?'
        params.append(eval_name)
    sql += " ORDER BY started_at DESC, run_id DESC"
    return RunList(_summary(row, root) for row in _query(sql, params))


def run_summary(run_id: str, home: str | os.PathLike[str] | None = None) -> RunSummary:
    """One run's summary; InvalidInput naming the recent runs when there is no such run."""
    path = run_dir(run_id, home) / SUMMARY_FILE
    if not path.is_file():
        recent = [r.run_id for r in list_runs(home)[:10]]
        known = (f"recent runs: {', '.join(recent)}" if recent
                 else f"no runs are recorded under {evals_dir(home)}")
        raise InvalidInput(f"no eval run {run_id!r}; {known} (factstore eval runs)")
    rows = _query("SELECT * FROM read_parquet(?)", [str(path)])
    if len(rows) != 1:
        raise InvalidInput(f"{path} holds {len(rows)} summary rows, not one; it was not written "
                           "by evals.records")
    return _summary(rows[0], path.parent.parent)


# -- comparing ------------------------------------------------------------------------------


def _measured(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


def compare(run_a: str, run_b: str,
            home: str | os.PathLike[str] | None = None) -> Comparison:
    """Judge run B against run A (the baseline) metric by metric.

    A metric is regressed when ``Metric(name, direction, tolerance).regressed(before, after)``
    with A's stored direction and tolerance. Only metrics with a value in both runs get a
    delta; see Comparison for dropped and added ones.
    """
    a, b = run_summary(run_a, home), run_summary(run_b, home)
    if a.eval != b.eval:
        raise InvalidInput(f"run {a.run_id} is eval {a.eval!r} but run {b.run_id} is eval "
                           f"{b.eval!r}; compare two runs of the same eval")
    deltas: list[MetricDelta] = []
    dropped: list[str] = []
    for name, before in a.metrics.items():
        after = b.metrics.get(name)
        direction = a.directions.get(name)
        if not _measured(before):
            continue
        if not _measured(after):
            if direction is not None:
                dropped.append(name)
            continue
        assert before is not None and after is not None  # for the type checker
        tolerance = float(a.tolerances.get(name, 0.0)) if direction is not None else None
        regressed = (direction is not None
                     and Metric(name, direction, tolerance or 0.0).regressed(before, after))
        deltas.append(MetricDelta(name=name, before=before, after=after, delta=after - before,
                                  direction=direction, tolerance=tolerance,
                                  regressed=regressed))
    added = tuple(name for name, value in b.metrics.items()
                  if _measured(value) and not _measured(a.metrics.get(name)))
    changes = {f: (getattr(a, f), getattr(b, f)) for f in CONTEXT_FIELDS
               if getattr(a, f) != getattr(b, f)}
    return Comparison(eval=a.eval, run_a=a.run_id, run_b=b.run_id, deltas=tuple(deltas),
                      dropped=tuple(dropped), added=added, changes=changes)
