"""The notebooks' plots, each a function of Store results to a matplotlib Figure.

Each plot has a pure ``*_data`` step (plain rows, testable without matplotlib) and a drawing
step. Figures are built with ``matplotlib.figure.Figure`` (no pyplot state), so they draw the
same in JupyterLab, under nbclient and in a test; Jupyter shows a returned Figure inline.
matplotlib is chosen because its static images survive execution and HTML export unchanged,
and it needs no browser-side runtime.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from factstore.questions import LEVELS
from factstore.timelines.dates import start_of
from factstore.timelines.model import TimelineAnswer
from factstore.timelines.resolution import end_instant

__all__ = [
    "STATUS_COLOURS", "Bar", "QueuePoint", "census_data", "census_period", "census_plot",
    "gantt_data",
    "pr_roc_plot", "queue_data", "queue_quadrant", "timeline_gantt", "top_plot", "trend_plot",
]

#: timeline statuses' colours (retracted bars are also hatched, disputed ones outlined)
STATUS_COLOURS = {"current": "#2e7d32", "superseded": "#9e9e9e", "disputed": "#ef6c00",
                  "retracted": "#c62828"}
_RECOMMENDATION_COLOURS = {"blocker": "#ffcdd2", "resolve": "#c8e6c9", "park": "#eeeeee"}


def _figure(width: float, height: float) -> Any:
    return _plot_figure()(figsize=(width, height), layout="constrained")


def _plot_figure() -> type:
    """A Figure that shows itself as a PNG in Jupyter without pyplot or a selected backend
    (so no global plotting state, and the same image under nbclient and in HTML exports).
    Defined on first use: matplotlib is imported only when something is drawn, so the pure
    ``*_data`` steps import without it."""
    global _PlotFigure
    if _PlotFigure is None:
        from io import BytesIO

        from matplotlib.figure import Figure

        class PlotFigure(Figure):
            def _repr_png_(self) -> bytes:
                buffer = BytesIO()
                self.savefig(buffer, format="png", dpi=100)
                return buffer.getvalue()

        _PlotFigure = PlotFigure
    return _PlotFigure


_PlotFigure: type | None = None


# -- timelines ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """One fact version as a bar of valid time; ``open_end`` bars run to the view's end and
    ``undated`` ones start at their observation (the text gave no valid_from)."""

    row: str
    fact_id: int
    value: str
    start: datetime
    end: datetime
    status: str
    open_end: bool
    undated: bool
    current: bool


def gantt_data(answer: TimelineAnswer) -> list[Bar]:
    """Every fact of every key of ``answer`` as a bar, keys in answer order, each key's
    facts oldest start first; an open-ended bar ends at the answer's instant or a week
    past its start, whichever is later."""
    bars: list[Bar] = []
    for key in answer.keys:
        current = {f.id for f in key.current}
        label = f"{key.subject} · {key.attribute}"
        facts = sorted(key.history, key=lambda f: (start_of(f.valid_from) or f.observed_at, f.id))
        for fact in facts:
            start = start_of(fact.valid_from)
            undated = start is None
            start = start or fact.observed_at
            end = end_instant(fact)
            status = "retracted" if fact.retracted else fact.status
            open_end = end is None
            if end is None:
                end = max(answer.as_of_instant, start + timedelta(days=7))
            bars.append(Bar(label, fact.id, fact.value + (f" {fact.unit}" if fact.unit else ""),
                            start, max(end, start + timedelta(hours=12)), status, open_end,
                            undated, fact.id in current))
    return bars


def timeline_gantt(answer: TimelineAnswer, *, title: str | None = None) -> Any:
    """Valid-time ranges per key, coloured by status: disputed bars outlined, retracted bars
    hatched and crossed out, open ends drawn as arrows, the as_of instant as a line."""
    import matplotlib.dates as mdates
    from matplotlib.patches import Patch

    bars = gantt_data(answer)
    rows = list(dict.fromkeys(b.row for b in bars))
    # one lane per fact within its key, so overlapping (disputed) facts stay visible
    lanes: list[tuple[str, int]] = []
    for bar in bars:
        lanes.append((bar.row, sum(1 for r, _ in lanes if r == bar.row)))
    labels = [f"{row}" if n == 0 else "" for row, n in lanes]
    fig = _figure(10, 0.45 * max(len(bars), 2) + 1.8)
    ax = fig.add_subplot()
    for y, bar in enumerate(bars):
        start, end = mdates.date2num(bar.start), mdates.date2num(bar.end)
        ax.barh(y, end - start, left=start, height=0.6, color=STATUS_COLOURS.get(bar.status, "#607d8b"),
                alpha=0.45 if bar.status == "retracted" else 0.9,
                hatch="//" if bar.status == "retracted" else None,
                edgecolor="black" if bar.status == "disputed" else "none",
                linewidth=1.5 if bar.status == "disputed" else 0)
        ax.text(start, y, f" {bar.value}" + (" ✗" if bar.status == "retracted" else "")
                + (" ⚑" if bar.status == "disputed" else ""), va="center", fontsize=8)
        if bar.open_end:
            ax.annotate("", xy=(end, y), xytext=(end - 3, y),
                        arrowprops={"arrowstyle": "->", "color": "black", "lw": 0.8})
    ax.axvline(mdates.date2num(answer.as_of_instant), color="#1565c0", linestyle="--",
               linewidth=1, label=f"as of {answer.as_of}")
    ax.set_yticks(range(len(bars)), labels)
    ax.invert_yaxis()
    ax.xaxis_date()
    ax.tick_params(axis="x", labelrotation=30)
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
    ax.set_xlabel("valid time")
    known = f", known at {answer.known_at:%Y-%m-%d %H:%M}" if answer.known_at else ""
    ax.set_title(title or f"{len(rows)} timeline(s) as of {answer.as_of}{known}")
    handles = [Patch(color=c, label=s) for s, c in STATUS_COLOURS.items()]
    handles.append(ax.get_legend_handles_labels()[0][0])
    fig.legend(handles=handles, loc="outside lower center", fontsize=8, ncols=5)
    return fig


# -- the open-questions queue -----------------------------------------------------------


@dataclass(frozen=True)
class QueuePoint:
    """One entry placed on the risk/cost grid (``x`` cost, ``y`` risk, 0-2 plus a spread
    inside the cell so entries with the same levels do not overlap)."""

    id: int
    title: str
    x: float
    y: float
    status: str
    recommendation: str


def queue_data(questions: Iterable[Any]) -> list[QueuePoint]:
    """The queue's entries on the grid; entries sharing a cell are spread across it."""
    cells: dict[tuple[int, int], list[Any]] = defaultdict(list)
    for q in questions:
        cells[(LEVELS.index(q.cost), LEVELS.index(q.risk))].append(q)
    points = []
    for (x, y), entries in sorted(cells.items()):
        for i, q in enumerate(sorted(entries, key=lambda e: e.id)):
            spread = (i + 1) / (len(entries) + 1) - 0.5
            points.append(QueuePoint(q.id, q.title, x + 0.7 * spread, y + 0.3 * spread,
                                     q.status, q.recommendation))
    return points


def queue_quadrant(questions: Sequence[Any]) -> Any:
    """Risk against cost, each cell shaded by what the discipline recommends there (high
    risk and cheap: resolve; high risk and expensive: blocker; low risk: park)."""
    from factstore.questions import recommend

    fig = _figure(8, 6)
    ax = fig.add_subplot()
    for x, cost in enumerate(LEVELS):
        for y, risk in enumerate(LEVELS):
            advice = recommend(risk, cost)
            ax.add_patch(_rect(x - 0.5, y - 0.5, _RECOMMENDATION_COLOURS[advice]))
            ax.text(x - 0.45, y + 0.4, advice, fontsize=8, color="#555", va="top")
    markers = {"open": "o", "blocker": "s", "parked": "v", "resolved": "x"}
    for p in queue_data(questions):
        ax.scatter(p.x, p.y, marker=markers.get(p.status, "o"), s=60, color="#263238",
                   label=p.status)
        title = p.title if len(p.title) <= 32 else p.title[:31] + "…"
        ax.annotate(f"#{p.id} {title}", (p.x, p.y), xytext=(6, 4), textcoords="offset points",
                    fontsize=7)
    handles, names = ax.get_legend_handles_labels()
    unique = dict(zip(names, handles, strict=True))
    if unique:
        ax.legend(unique.values(), unique.keys(), title="status", loc="lower right", fontsize=8)
    ax.set_xticks(range(3), [f"cost {c}" for c in LEVELS])
    ax.set_yticks(range(3), [f"risk {r}" for r in LEVELS])
    ax.set_xlim(-0.5, 2.5)
    ax.set_ylim(-0.5, 2.5)
    ax.set_title(f"open-questions queue: {len(questions)} entries by risk and cost")
    return fig


def _rect(x: float, y: float, colour: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), 1, 1, color=colour, zorder=0)


# -- evals --------------------------------------------------------------------------------


def pr_roc_plot(curves: Any, *, recommended: float | None = None,
                current: float | None = None, title: str = "") -> Any:
    """Precision/recall and ROC for cosine alone, the detector alone (a point) and the
    combined rule; ``recommended``/``current`` mark those thresholds on the combined curve."""
    from evals.curves import OFFSET

    fig = _figure(11, 4.5)
    pr, roc = fig.subplots(1, 2)
    for c, colour in ((curves.cosine, "#1565c0"), (curves.combined, "#2e7d32")):
        auc = f" (AUC {c.auc:.3f})" if c.auc is not None else ""
        pr.plot(c.recall, c.precision, color=colour, label=f"{c.rule}{auc}")
        roc.plot(c.fpr, c.recall, color=colour, label=f"{c.rule}{auc}")
    p, r, f = curves.detector_point
    pr.scatter([r], [p], color="#ef6c00", zorder=3, label="detector alone")
    roc.scatter([f], [r], color="#ef6c00", zorder=3, label="detector alone")
    for value, name, marker in ((current, "current", "o"), (recommended, "recommended", "*")):
        if value is None:
            continue
        i = _at_threshold(curves.combined.thresholds, value + OFFSET)
        if i is None:
            continue
        pr.scatter([curves.combined.recall[i]], [curves.combined.precision[i]], marker=marker,
                   s=140, color="black", zorder=4, label=f"{name} threshold {value:.2f}")
        roc.scatter([curves.combined.fpr[i]], [curves.combined.recall[i]], marker=marker,
                    s=140, color="black", zorder=4)
    roc.plot([0, 1], [0, 1], color="#bbb", linestyle=":")
    pr.set(xlabel="recall", ylabel="precision", title="precision / recall", xlim=(0, 1.02),
           ylim=(0, 1.02))
    roc.set(xlabel="false-interrupt rate (restatements and other non-conflicts)",
            ylabel="recall (true-positive rate)", title="ROC", xlim=(0, 1.02), ylim=(0, 1.02))
    pr.legend(fontsize=8, loc="lower left")
    roc.legend(fontsize=8, loc="lower right")
    fig.suptitle(title or f"{curves.positives} conflicts, {curves.negatives} non-conflicts")
    return fig


def _at_threshold(thresholds: Sequence[float], value: float) -> int | None:
    """The index of the lowest threshold still >= value (the point ``score >= value``)."""
    candidates = [i for i, t in enumerate(thresholds) if t >= value - 1e-9]
    return candidates[-1] if candidates else None


def trend_plot(points: Sequence[Any], metrics: Sequence[str] | None = None) -> Any:
    """Each metric across runs (oldest left), regressions against the compare gate's
    tolerance as red crosses, the tolerated band around each baseline shaded."""
    chosen = list(metrics) if metrics else sorted({p.metric for p in points if p.primary})
    if not chosen:
        chosen = sorted({p.metric for p in points})[:4]
    fig = _figure(10, 2.6 * max(len(chosen), 1))
    axes = fig.subplots(max(len(chosen), 1), 1, squeeze=False)[:, 0]
    for ax, metric in zip(axes, chosen, strict=False):
        series = [p for p in points if p.metric == metric and p.value is not None]
        xs = list(range(len(series)))
        ax.plot(xs, [p.value for p in series], marker="o", color="#1565c0")
        for x, p in zip(xs, series, strict=True):
            if p.baseline_value is not None and p.tolerance is not None and p.direction:
                low = p.baseline_value - (p.tolerance if p.direction == "higher" else 0)
                high = p.baseline_value + (p.tolerance if p.direction == "lower" else 0)
                ax.fill_between([x - 0.4, x + 0.4], low, high, color="#c8e6c9", alpha=0.6)
            if p.regressed:
                ax.scatter([x], [p.value], marker="X", s=120, color="#c62828", zorder=3)
        better = series[0].direction if series else None
        ax.set_title(f"{metric}" + (f" ({better} is better)" if better else ""), fontsize=10)
        ax.set_xticks(xs, [f"{p.started_at:%m-%d %H:%M:%S}" for p in series], fontsize=7,
                      rotation=30)
    fig.suptitle("metrics across runs: red crosses regressed past the gate's tolerance "
                 "(green: the tolerated band)")
    return fig


# -- the archive --------------------------------------------------------------------------


def census_period(days: Sequence[date]) -> str:
    """'day' for up to two months of data, 'week' for up to a year, else 'month': few
    enough bars to read, whatever the archive's span."""
    if not days:
        return "day"
    span = (max(days) - min(days)).days
    return "day" if span <= 62 else "week" if span <= 366 else "month"


def _bucket(day: date, period: str) -> date:
    if period == "week":
        return day - timedelta(days=day.weekday())
    if period == "month":
        return day.replace(day=1)
    return day


def census_data(census: Any, part: str = "facts", by: str = "kind",
                period: str = "auto") -> dict[date, dict[str, int]]:
    """Counts per period (the first day of each) per ``by`` value: for facts kind,
    source_type, verdict or extracted_by; for documents source_type or routed. ``period``
    is 'day', 'week', 'month' or 'auto' (census_period)."""
    rows = census.facts if part == "facts" else census.documents
    if period == "auto":
        period = census_period([r.day for r in rows])
    table: dict[date, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        table[_bucket(row.day, period)][str(getattr(row, by))] += row.count
    return {day: dict(counts) for day, counts in sorted(table.items())}


def census_plot(census: Any, part: str = "facts", by: str = "kind",
                period: str = "auto") -> Any:
    """Stacked bars per period of ``part`` ('facts' or 'documents') split by ``by``; only
    periods with data get a bar, so an archive with a gap of years stays readable."""
    rows = census.facts if part == "facts" else census.documents
    chosen = census_period([r.day for r in rows]) if period == "auto" else period
    data = census_data(census, part, by, chosen)
    groups = sorted({g for counts in data.values() for g in counts})
    fig = _figure(10, 3.8)
    ax = fig.add_subplot()
    bottom = [0] * len(data)
    xs = list(range(len(data)))
    for group in groups:
        heights = [counts.get(group, 0) for counts in data.values()]
        ax.bar(xs, heights, bottom=bottom, width=0.8, label=group)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    fmt = "%Y-%m" if chosen == "month" else "%Y-%m-%d"
    step = max(1, len(xs) // 20)
    ax.set_xticks(xs[::step], [f"{d:{fmt}}" for d in list(data)[::step]], rotation=45,
                  ha="right", fontsize=8)
    ax.set_ylabel(part)
    ax.set_title(f"{part} per {chosen} said, by {by}")
    ax.legend(fontsize=8, ncols=min(len(groups), 4) or 1)
    return fig


def top_plot(rows: Sequence[Any], label: str, *, title: str) -> Any:
    """Horizontal bars of (``label`` attribute, facts, live) rows, largest on top."""
    fig = _figure(8, 0.35 * max(len(rows), 3) + 1)
    ax = fig.add_subplot()
    names = [str(getattr(r, label)) for r in rows]
    ax.barh(names, [r.facts for r in rows], color="#90a4ae", label="all facts")
    ax.barh(names, [r.live for r in rows], color="#2e7d32", label="live (active, contested)")
    ax.invert_yaxis()
    ax.set_xlabel("facts")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return fig
