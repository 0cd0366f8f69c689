"""HTML tables for eval results in a notebook: run summaries, lists of runs, comparisons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factstore.html import table


def _primary(run: Any) -> float | None:
    return run.metrics.get(run.primary_metric) if run.primary_metric else None


def run_html(run: Any) -> str:
    """One run: what ran, then every metric with its direction and tolerance."""
    dirty = " (uncommitted edits)" if run.git_dirty else ""
    head = table(f"eval run {run.run_id}", ("eval", "started", "commit", "extractor", "embedder",
                                            "items", "dataset"),
                 [(run.eval, run.started_at, run.git_commit[:12] + dirty, run.extractor,
                   run.embedder, run.item_count, run.dataset)])
    rows = [(("★ " if name == run.primary_metric else "") + name, value,
             run.directions.get(name), run.tolerances.get(name))
            for name, value in sorted(run.metrics.items())]
    return head + table("metrics (★ primary)", ("metric", "value", "better", "tolerance"), rows)


def runs_html(runs: Sequence[Any]) -> str:
    """Runs newest first, each with its primary metric."""
    if not runs:
        return "<p>no eval runs are recorded</p>"
    return table(f"{len(runs)} eval run(s)",
                 ("run", "eval", "started", "commit", "extractor", "embedder", "primary metric",
                  "value"),
                 [(r.run_id, r.eval, r.started_at, r.git_commit[:12], r.extractor, r.embedder,
                   r.primary_metric, _primary(r)) for r in runs])


def comparison_html(result: Any) -> str:
    """Run B against run A: each metric's delta, regressions marked, then what changed."""
    verdict = "passes the gate" if result.ok else "FAILS the gate"
    rows = [(d.name, d.before, d.after, d.delta, d.direction, d.tolerance,
             "REGRESSED" if d.regressed else "improved" if d.improved else "")
            for d in result.deltas]
    rows += [(name, None, None, None, None, None, "DROPPED (fails the gate)")
             for name in result.dropped]
    rows += [(name, None, None, None, None, None, "added") for name in result.added]
    html = table(f"{result.eval}: {result.run_b} against {result.run_a} — {verdict}",
                 ("metric", "A", "B", "B − A", "better", "tolerance", ""), rows)
    if result.changes:
        html += table("what differs between the runs", ("field", "A", "B"),
                      [(k, a, b) for k, (a, b) in result.changes.items()])
    return html
