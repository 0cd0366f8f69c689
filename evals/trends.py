"""Metrics across runs, each judged as the compare gate judges it. Pure over RunSummaries.

Every run of an eval is compared with the run before it (the earlier run is the baseline, so
its stored direction and tolerance decide, exactly as ``evals.compare.compare`` does). A
``baseline`` run id judges every run against that one run instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from evals.compare import RunSummary
from evals.registry import Metric
from factstore.errors import InvalidInput

__all__ = ["TrendPoint", "trend_points"]


@dataclass(frozen=True)
class TrendPoint:
    """One metric of one run, and how it stands against its baseline run."""

    eval: str
    run_id: str
    started_at: object
    metric: str
    value: float | None
    baseline_run: str | None
    baseline_value: float | None
    direction: str | None
    tolerance: float | None
    #: worse than the baseline by more than the tolerance
    regressed: bool
    #: the run's primary metric
    primary: bool


def _measured(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


def trend_points(runs: Sequence[RunSummary], *, baseline: str | None = None) -> list[TrendPoint]:
    """One point per run and metric, oldest run first within each eval."""
    by_id = {r.run_id: r for r in runs}
    if baseline is not None and baseline not in by_id:
        raise InvalidInput(f"baseline run {baseline!r} is not among the runs given")
    points: list[TrendPoint] = []
    evals = sorted({r.eval for r in runs})
    for name in evals:
        ordered = sorted((r for r in runs if r.eval == name),
                         key=lambda r: (r.started_at, r.run_id))
        previous: RunSummary | None = None
        for run in ordered:
            base = by_id[baseline] if baseline is not None else previous
            if base is not None and base.eval != run.eval:
                base = None
            for metric, value in sorted(run.metrics.items()):
                direction = (base.directions if base else run.directions).get(metric)
                tolerance = float((base.tolerances if base else run.tolerances).get(metric, 0.0)) \
                    if direction is not None else None
                before = base.metrics.get(metric) if base is not None and base is not run \
                    else None
                regressed = bool(direction and _measured(before) and _measured(value)
                                 and Metric(metric, direction, tolerance or 0.0)
                                 .regressed(before, value))  # type: ignore[arg-type]
                points.append(TrendPoint(
                    name, run.run_id, run.started_at, metric, value,
                    base.run_id if base is not None and base is not run else None,
                    before, direction, tolerance, regressed, metric == run.primary_metric))
            previous = run
    return points
