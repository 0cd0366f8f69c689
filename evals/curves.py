"""Precision/recall and ROC curves over a conflict-precision run's items, as pure functions.

A run's items hold each pair's truth (``conflict``), its ``cosine`` and what the difference
detector found (``differences``). Three ways of deciding "this pair interrupts" are scored:

- ``cosine``: the cosine alone, swept as a threshold;
- ``detector``: the detector alone (``route_decision`` over what differs), one point;
- ``combined``: cosine + 2 when the detector fires, cosine - 2 when it does not (the same
  combined score the eval's AUC uses), so the detector decides and the cosine breaks ties.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from factstore.differences import route_decision
from factstore.errors import InvalidInput

__all__ = ["Curve", "RuleCurves", "curve", "rule_curves"]

#: the combined score's offset (evals.suites.conflict_precision.COMBINED_OFFSET)
OFFSET = 2.0


@dataclass(frozen=True)
class Curve:
    """One score's curves: per distinct threshold (highest first), precision, recall and the
    false-positive rate of ``score >= threshold``; ``auc`` is the ROC area (ties half)."""

    rule: str
    thresholds: tuple[float, ...]
    precision: tuple[float, ...]
    recall: tuple[float, ...]
    fpr: tuple[float, ...]
    auc: float | None


@dataclass(frozen=True)
class RuleCurves:
    """The three rules' curves over one run's items, and the detector's single point."""

    cosine: Curve
    combined: Curve
    detector_point: tuple[float, float, float]  # (precision, recall, fpr)
    positives: int
    negatives: int


def curve(rule: str, scores: Sequence[float], truth: Sequence[bool]) -> Curve:
    """Sweep ``score >= t`` over every distinct score."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(truth, dtype=bool)
    if s.shape != y.shape or s.ndim != 1:
        raise InvalidInput("scores and truth must be two sequences of the same length")
    positives, negatives = int(y.sum()), int((~y).sum())
    thresholds = np.unique(s)[::-1]
    precision, recall, fpr = [], [], []
    for t in thresholds:
        predicted = s >= t
        tp = int((predicted & y).sum())
        fp = int((predicted & ~y).sum())
        precision.append(tp / (tp + fp) if tp + fp else 1.0)
        recall.append(tp / positives if positives else 0.0)
        fpr.append(fp / negatives if negatives else 0.0)
    return Curve(rule, tuple(map(float, thresholds)), tuple(precision), tuple(recall),
                 tuple(fpr), _auc(s, y))


def _auc(s: np.ndarray, y: np.ndarray) -> float | None:
    """Mann-Whitney: the chance a random positive outscores a random negative, ties half."""
    pos, neg = s[y], s[~y]
    if not len(pos) or not len(neg):
        return None
    greater = (pos[:, None] > neg[None, :]).sum()
    ties = (pos[:, None] == neg[None, :]).sum()
    return float((greater + 0.5 * ties) / (len(pos) * len(neg)))


def _differences(value: Any) -> list[str]:
    # Parquet keeps a list column JSON-encoded (evals.records); a frame may hold either form.
    if isinstance(value, str):
        return list(json.loads(value))
    return list(value) if value is not None else []


def rule_curves(items: Iterable[Mapping[str, Any]]) -> RuleCurves:
    """The curves of a conflict-precision run from its item rows (dicts, or a frame's
    ``to_dict('records')``). Rows with no truth are skipped."""
    rows = [r for r in items if r.get("conflict") is not None]
    if not rows:
        raise InvalidInput("no item has a conflict truth; pass the items of a "
                           "conflict-precision run")
    try:
        truth = [bool(r["conflict"]) for r in rows]
        cosines = [float(r["cosine"]) for r in rows]
        fired = [route_decision(_differences(r.get("differences"))) for r in rows]
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"an item lacks a usable field ({exc}); these curves read the "
                           "conflict, cosine and differences of conflict-precision items") from None
    combined = [c + OFFSET if f else c - OFFSET for c, f in zip(cosines, fired, strict=True)]
    y = np.asarray(truth)
    d = np.asarray(fired)
    tp, fp = int((d & y).sum()), int((d & ~y).sum())
    point = (tp / (tp + fp) if tp + fp else 1.0, tp / max(int(y.sum()), 1),
             fp / max(int((~y).sum()), 1))
    return RuleCurves(curve("cosine", cosines, truth), curve("combined", combined, truth),
                      point, int(y.sum()), int((~y).sum()))
