"""The notebooks' pure helpers, without a database: the queue's grid, the census buckets,
PR/ROC curves and metric trends. Each is checked on a population as well as a case."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from evals.compare import RunSummary
from evals.curves import OFFSET, curve, rule_curves
from evals.registry import Metric
from evals.suites.conflict_precision import COMBINED_OFFSET, roc_auc
from evals.trends import trend_points
from factstore.census import Census, DocumentCount, FactCount
from factstore.differences import route_decision
from factstore.errors import InvalidInput
from factstore.notebook.plots import LEVELS, census_data, census_period, queue_data
from factstore.questions import queue_order, recommend

# -- the queue's grid ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    id: int
    title: str
    risk: str
    cost: str
    status: str = "open"

    @property
    def recommendation(self) -> str:
        return recommend(self.risk, self.cost)


def test_queue_points_stay_in_their_cell_and_never_overlap() -> None:
    rng = random.Random(7)
    entries = [_Entry(i, f"question {i}", rng.choice(LEVELS), rng.choice(LEVELS),
                      rng.choice(("open", "blocker", "parked")))
               for i in rng.sample(range(1, 10_000), 200)]
    points = queue_data(entries)
    assert sorted(p.id for p in points) == sorted(e.id for e in entries)
    by_id = {e.id: e for e in entries}
    for p in points:
        entry = by_id[p.id]
        # inside the cell of its own cost (x) and risk (y), never on a neighbour's edge
        assert abs(p.x - LEVELS.index(entry.cost)) < 0.5
        assert abs(p.y - LEVELS.index(entry.risk)) < 0.5
        assert (p.status, p.recommendation) == (entry.status, entry.recommendation)
    assert len({(p.x, p.y) for p in points}) == len(points)


def test_queue_points_in_one_cell_are_spread_by_id() -> None:
    entries = [_Entry(9, "b", "high", "low"), _Entry(3, "a", "high", "low")]
    first, second = queue_data(entries)
    assert (first.id, second.id) == (3, 9)
    assert first.x < 0 < second.x and first.y < 2 < second.y
    assert queue_data([]) == []


def test_the_queue_order_puts_what_to_act_on_first_over_a_population() -> None:
    rng = random.Random(11)
    entries = [_Entry(i, f"question {i}", rng.choice(LEVELS), rng.choice(LEVELS),
                      rng.choice(("open", "blocker", "parked", "resolved")))
               for i in range(300)]
    ordered = sorted(entries, key=queue_order)
    rank = {"blocker": 0, "resolve": 1, "park": 2}
    for before, after in zip(ordered, ordered[1:], strict=False):
        # unresolved first; then blocker, resolve, park; within one, higher risk, then cheaper
        assert (before.status == "resolved") <= (after.status == "resolved")
        if before.status == "resolved" == after.status or \
                (before.status != "resolved" and after.status != "resolved"):
            assert rank[before.recommendation] <= rank[after.recommendation]
            if before.recommendation == after.recommendation:
                assert LEVELS.index(before.risk) >= LEVELS.index(after.risk)
                if before.risk == after.risk:
                    assert LEVELS.index(before.cost) <= LEVELS.index(after.cost)


# -- the census's buckets -----------------------------------------------------------------


def test_census_period_picks_few_enough_bars_for_the_span() -> None:
    start = date(2024, 1, 1)
    assert census_period([]) == "day"
    assert census_period([start, start + timedelta(days=62)]) == "day"
    assert census_period([start, start + timedelta(days=63)]) == "week"
    assert census_period([start, start + timedelta(days=366)]) == "week"
    assert census_period([start, start + timedelta(days=367)]) == "month"


def _census(rng: random.Random, days: int, n: int) -> Census:
    start = date(2023, 5, 17)
    facts = tuple(FactCount(start + timedelta(days=rng.randrange(days)),
                            rng.choice(("STATE", "RULE", "DECISION")),
                            rng.choice(("chat", "doc")), rng.choice(("believed", "doubted")),
                            rng.choice(("rules/v1", None)), rng.randint(1, 9))
                  for _ in range(n))
    documents = tuple(DocumentCount(f.day, f.source_type, "extracted", f.count) for f in facts)
    return Census(documents, facts, ())


@pytest.mark.parametrize("period", ["day", "week", "month", "auto"])
def test_census_buckets_keep_every_count_once(period: str) -> None:
    census = _census(random.Random(period), days=900, n=400)
    table = census_data(census, "facts", "kind", period)
    assert sum(sum(c.values()) for c in table.values()) == sum(f.count for f in census.facts)
    for kind in ("STATE", "RULE", "DECISION"):
        assert sum(c.get(kind, 0) for c in table.values()) == sum(
            f.count for f in census.facts if f.kind == kind)
    days = list(table)
    assert days == sorted(days)
    chosen = census_period([f.day for f in census.facts]) if period == "auto" else period
    for day in days:
        if chosen == "week":
            assert day.weekday() == 0
        if chosen == "month":
            assert day.day == 1
    if period == "auto":
        assert chosen == "month"  # the stream spans 900 days: months
    by_source = census_data(census, "documents", "source_type", period)
    assert sum(sum(c.values()) for c in by_source.values()) == sum(
        d.count for d in census.documents)
    assert {g for c in by_source.values() for g in c} == {"chat", "doc"}


def test_census_none_extractor_is_its_own_group() -> None:
    census = Census((), (FactCount(date(2026, 1, 5), "STATE", "chat", "believed", None, 2),
                         FactCount(date(2026, 1, 6), "STATE", "chat", "believed", "x", 3)), ())
    assert census_data(census, by="extracted_by", period="week") == {
        date(2026, 1, 5): {"None": 2, "x": 3}}


# -- PR/ROC curves ------------------------------------------------------------------------


def _items(rng: random.Random, n: int) -> list[dict]:
    kinds = [[], ["value 'a' → 'b'"], ["subject 'x' → 'y'"], ["detail only in b: 'z'"]]
    out = []
    for i in range(n):
        conflict = rng.random() < 0.4
        found = rng.choice(kinds[1:2] * 3 + kinds if conflict else kinds + kinds[:1] * 2)
        out.append({"id": i, "conflict": conflict,
                    "cosine": round(rng.uniform(0.3, 1.0) + (0.1 if conflict else 0), 3),
                    # Parquet keeps lists JSON-encoded; a frame may hold either form
                    "differences": json.dumps(found) if i % 2 else found})
    return out


def test_rule_curves_agree_with_the_eval_on_a_population() -> None:
    items = _items(random.Random(11), 300) + [{"id": "no-truth", "conflict": None,
                                               "cosine": 0.9, "differences": []}]
    curves = rule_curves(items)
    rows = items[:-1]
    truth = [r["conflict"] for r in rows]
    found = [json.loads(r["differences"]) if isinstance(r["differences"], str)
             else r["differences"] for r in rows]
    fired = [route_decision(d) for d in found]
    assert OFFSET == COMBINED_OFFSET
    assert curves.cosine.auc == pytest.approx(roc_auc([r["cosine"] for r in rows], truth))
    combined = [r["cosine"] + OFFSET if f else r["cosine"] - OFFSET
                for r, f in zip(rows, fired, strict=True)]
    assert curves.combined.auc == pytest.approx(roc_auc(combined, truth))
    assert (curves.positives, curves.negatives) == (sum(truth), len(truth) - sum(truth))
    tp = sum(f and t for f, t in zip(fired, truth, strict=True))
    fp = sum(f and not t for f, t in zip(fired, truth, strict=True))
    assert curves.detector_point == pytest.approx(
        (tp / (tp + fp), tp / sum(truth), fp / (len(truth) - sum(truth))))
    for c in (curves.cosine, curves.combined):
        assert list(c.thresholds) == sorted(c.thresholds, reverse=True)
        assert list(c.recall) == sorted(c.recall) and c.recall[-1] == 1.0
        assert list(c.fpr) == sorted(c.fpr) and c.fpr[-1] == 1.0


def test_a_curve_point_is_the_rule_at_that_threshold() -> None:
    c = curve("s", [0.9, 0.8, 0.8, 0.4], [True, False, True, False])
    assert c.thresholds == (0.9, 0.8, 0.4)
    assert c.precision == (1.0, pytest.approx(2 / 3), 0.5)
    assert c.recall == (0.5, 1.0, 1.0)
    assert c.fpr == (0.0, 0.5, 1.0)
    assert c.auc == pytest.approx(0.875)  # one tie of four pairs counts half
    assert curve("s", [0.5], [True]).auc is None  # no negative: no ROC area


@pytest.mark.parametrize("items, words", [
    ([], "no item has a conflict truth"),
    ([{"conflict": True, "differences": []}], "cosine"),
    ([{"conflict": True, "cosine": "high", "differences": []}], "usable field"),
])
def test_rule_curves_refuse_items_they_cannot_read(items, words) -> None:
    with pytest.raises(InvalidInput, match=words):
        rule_curves(items)
    with pytest.raises(InvalidInput, match="same length"):
        curve("s", [0.1, 0.2], [True])


# -- metric trends ------------------------------------------------------------------------

_METRICS = {"precision": ("higher", 0.02), "false_interrupts": ("lower", 0.01)}


def _run(n: int, eval_name: str, values: dict[str, float | None]) -> RunSummary:
    return RunSummary(
        f"{eval_name}-{n:03d}", eval_name, datetime(2026, 11, 1, tzinfo=UTC) + timedelta(hours=n),
        None, "abc", False, "rules/v1", "minilm", {}, "d.jsonl", "0" * 64, 10, "precision",
        values, {m: d for m, (d, _) in _METRICS.items()},
        {m: t for m, (_, t) in _METRICS.items()}, {}, Path("/nonexistent"))


def test_trend_points_judge_each_run_against_the_one_before_like_the_gate() -> None:
    rng = random.Random(5)
    runs = [_run(n, name, {"precision": round(rng.uniform(0.6, 0.9), 3),
                           "false_interrupts": round(rng.uniform(0.0, 0.1), 3)})
            for name in ("alpha", "beta") for n in range(12)]
    shuffled = runs[:]
    rng.shuffle(shuffled)
    points = trend_points(shuffled)
    assert len(points) == 2 * 12 * 2
    for name in ("alpha", "beta"):
        ordered = [r for r in runs if r.eval == name]
        for before, after in zip([None, *ordered], ordered, strict=False):
            for metric, (direction, tolerance) in _METRICS.items():
                (point,) = [p for p in points if p.run_id == after.run_id and p.metric == metric]
                assert point.primary == (metric == "precision")
                if before is None:
                    assert point.baseline_run is None and not point.regressed
                    continue
                assert point.baseline_run == before.run_id
                assert point.regressed == Metric(metric, direction, tolerance).regressed(
                    before.metrics[metric], after.metrics[metric])
    assert any(p.regressed for p in points) and not all(p.regressed for p in points)


def test_trend_points_against_one_baseline_and_with_missing_values() -> None:
    runs = [_run(0, "e", {"precision": 0.9, "false_interrupts": None}),
            _run(1, "e", {"precision": 0.85, "false_interrupts": 0.5}),
            _run(2, "e", {"precision": 0.95, "false_interrupts": 0.0})]
    points = {(p.run_id, p.metric): p for p in trend_points(runs, baseline="e-000")}
    assert points[("e-001", "precision")].regressed  # 0.05 worse than the baseline's 0.9
    assert not points[("e-002", "precision")].regressed
    assert points[("e-002", "precision")].baseline_run == "e-000"
    assert points[("e-000", "precision")].baseline_run is None  # the baseline itself
    assert not points[("e-001", "false_interrupts")].regressed  # nothing to compare with
    with pytest.raises(InvalidInput, match="baseline run 'nope'"):
        trend_points(runs, baseline="nope")
