"""Eval ``conflict-precision``: how well the density check tells a conflict from a restatement.

Seed 000 §4 says the boundary between "the same fact, reworded" and "the same fact with a
changed value" is unmeasured, and §7 files it as open question 2. This eval measures it.
For every labelled statement pair it embeds both sides with the embedder under test, takes
their cosine, and runs the difference detector (:func:`factstore.differences.differences`,
called as the store calls it: ``differences(existing, new)`` with ``a`` as the existing fact).
It then scores three ways of deciding "this pair would raise a conflict interrupt":

- **cosine alone** -- ``cosine >= t``: what the store does with ``difference_detector`` set to
  ``off``;
- **detector alone** -- ``differences(a, b)`` is non-empty; threshold-free, one point;
- **combined** -- ``cosine >= t`` and :func:`factstore.differences.route_decision` over what
  differs: what the store does with ``difference_detector = 'route'`` (a near-hit with no
  detected difference is a re-capture; one differing only in its subject is a separate fact).

Each is swept over ``t`` = 0.50, 0.51, ... 0.99 (:data:`THRESHOLDS`): precision and recall of
"is a conflict", F1, and the **false-interrupt rate**: the share of restatement pairs that
would interrupt. A looser variant of the combined rule, ``cosine >= t`` and any difference at
all (a subject change or a detail present on one side only included), is swept too and
reported in the notes as ``any_difference``; it is what ``annotate`` mode does (a subject
change aside: a near-hit about another subject is never a conflict).

ROC AUC (the Mann-Whitney statistic, ties counted half) is reported for two conflict scores:
the cosine itself, and a combined score ``cosine + 2`` when the detector finds a difference,
``cosine - 2`` when it does not. Cosines lie in [-1, 1], so the combined score ranks every
detector-positive pair above every detector-negative one and orders pairs by cosine inside
each group: the detector decides, the cosine breaks ties.

**What "conflict" means on each dataset** (the truth a pair is scored against):

- the project set (``evals/data/pairs.jsonl``, the default): the ``conflict`` field, true for
  ``changed-value`` and ``negation`` pairs; restatements are the ``restatement`` label;
- SICK: :func:`evals.loaders.paraphrase_truth` -- CONTRADICTION is a conflict, ENTAILMENT with
  relatedness >= 4.5 is a restatement, everything else is excluded;
- STS-B (score >= 4.5 restatement, <= 2 different, the middle excluded), MRPC and PAWS
  (paraphrase / not): the "conflict" class is *not the same fact*, which mixes genuine
  conflicts with statements that are merely different. There the figures to read are the
  false-interrupt rate on restatements (a paraphrase the store would interrupt on) and the
  AUCs, which measure how well the score separates same-fact pairs from the rest (a cosine
  AUC below 0.5 says cosine ranks paraphrases *above* different statements, as a similarity
  should); precision and recall of "conflict" are reported but mean "not a restatement".

The primary metric is the precision at the store's current ``density_threshold`` in its
current mode (``route``: combined; ``annotate``: any difference; ``off``: cosine alone). This
eval scores the band at and above the threshold; the band below it (strong contradictions
down to the floors) and subject scoping are measured by ``subject-conflicts``. The recommended
threshold is the combined rule's threshold with the best F1 among those keeping recall >=
:data:`RECALL_FLOOR` (a missed conflict silently keeps two contradicting facts active, so
recall is the constraint and precision what is optimised); ties go to the lower threshold, the
safe side. The combined rule cannot recall more than the detector alone, so when no threshold
reaches the floor it becomes :data:`RECALL_FLOOR` times the best combined recall of the sweep
(the notes say which floor was applied). It is None only when no threshold has an F1.

With ``--record`` the run appends one evidence note to open question 2 (never its status:
a person closes it).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evals.jsonl import first_record
from evals.loaders import Pair, load_any, paraphrase_truth
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.differences import differences, route_decision
from factstore.errors import InvalidInput

__all__ = [
    "NAME",
    "RECALL_FLOOR",
    "SPEC",
    "THRESHOLDS",
    "load",
    "roc_auc",
    "run",
]

NAME = "conflict-precision"
#: open question 2 of seed 000 §7: conflict-density paraphrase precision
QUESTION = 2
RECORDED_BY = f"eval:{NAME}"
#: the swept density thresholds, 0.50 to 0.99 in steps of 0.01
THRESHOLDS: tuple[float, ...] = tuple(round(0.50 + i / 100, 2) for i in range(50))
#: the recommended threshold must keep at least this recall of conflicts
RECALL_FLOOR = 0.9
#: texts sent to the embedder per call; bounds memory on the external sets
BATCH = 256
#: what the combined score adds (detector fired) or subtracts (it did not) to the cosine
COMBINED_OFFSET = 2.0
RESTATEMENT = "restatement"

_MEASURES = {
    "project": "conflict = the pair's `conflict` field (changed-value, negation); restatements "
               "are the `restatement` label",
    "sick": "conflict = CONTRADICTION; restatement = ENTAILMENT with relatedness >= 4.5; "
            "NEUTRAL and weaker ENTAILMENT excluded",
    "stsb": "conflict = not the same fact (score <= 2); restatement = score >= 4.5; scores "
            "between excluded. Read the false-interrupt rate and the AUCs; precision/recall "
            "mean 'not a restatement'",
    "mrpc": "conflict = not a paraphrase; restatement = paraphrase. Read the false-interrupt "
            "rate and the AUCs; precision/recall mean 'not a restatement'",
    "paws": "conflict = not a paraphrase; restatement = paraphrase. Read the false-interrupt "
            "rate and the AUCs; precision/recall mean 'not a restatement'",
}

# -- loading ---------------------------------------------------------------------------------


def _is_project_file(path: Path) -> bool:
    """A JSON Lines file whose first record has the project set's a/b/conflict fields."""
    first = first_record(path)
    return first is not None and {"a", "b", "conflict"} <= set(first)


def _project_rows(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path}, line {number}: not valid JSON ({exc.msg})") from exc
        for key in ("a", "b", "conflict", "label"):
            if key not in record:
                raise InvalidInput(f"{path}, line {number}: a pair needs a, b, label and "
                                   f"conflict; {key!r} is missing")
        if not isinstance(record["conflict"], bool):
            raise InvalidInput(f"{path}, line {number}: conflict must be true or false, "
                               f"found {record['conflict']!r}")
        rows.append({"id": str(record.get("id", f"line{number}")), "a": record["a"],
                     "b": record["b"], "label": record["label"],
                     "conflict": record["conflict"], "source": "project",
                     "source_label": record["label"], "kind": record.get("kind"),
                     "difference": record.get("difference")})
    return rows


def _external_row(pair: Pair) -> dict[str, Any]:
    same = paraphrase_truth(pair)
    if same is None:
        label = "excluded"
    elif same:
        label = RESTATEMENT
    else:
        # SICK's (and Hossain's) contradictions are conflicts; elsewhere False only says the
        # two sides are not the same fact.
        label = "contradiction" if pair.label in ("contradiction", "inverted") else "different"
    return {"id": pair.id, "a": pair.a, "b": pair.b, "label": label,
            "conflict": None if same is None else not same, "source": pair.source,
            "source_label": pair.label, "kind": None, "difference": None}


def load(path: Path) -> list[dict[str, Any]]:
    """The pairs at ``path``: the project's JSON Lines set, or any pair dataset
    :func:`evals.loaders.load_any` reads (STS-B, MRPC, SICK, PAWS, ...).

    Every pair is returned; ``conflict`` is None for a pair its dataset's truth excludes
    (the runner counts and skips those, see the module docstring).
    """
    path = Path(path)
    if _is_project_file(path):
        return _project_rows(path)
    loaded = load_any(path)
    pairs = [p for p in loaded if isinstance(p, Pair)]
    if not pairs:
        raise InvalidInput(f"{path}: {NAME} needs sentence pairs (STS-B, MRPC, SICK, PAWS or "
                           "the project's pairs.jsonl), and this dataset has none")
    return [_external_row(p) for p in pairs]


# -- scoring ---------------------------------------------------------------------------------


def roc_auc(scores: Sequence[float], positives: Sequence[bool]) -> float | None:
    """ROC AUC of ``scores`` for the ``positives``: the chance that a random positive scores
    above a random negative, ties counting half. None without both classes."""
    score = np.asarray(scores, dtype=np.float64)
    truth = np.asarray(positives, dtype=bool)
    n_pos, n_neg = int(truth.sum()), int((~truth).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    # Average ranks handle ties: the rank-sum form of the Mann-Whitney U statistic.
    order = np.argsort(score, kind="mergesort")
    ranks = np.empty(len(score), dtype=np.float64)
    sorted_scores = score[order]
    i = 0
    while i < len(score):
        j = i
        while j + 1 < len(score) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    u = ranks[truth].sum() - n_pos * (n_pos + 1) / 2
    return float(u / (n_pos * n_neg))


@dataclass(frozen=True)
class _Point:
    """One decision rule's confusion counts over the scored pairs."""

    tp: int
    fp: int
    fn: int
    interrupts: int
    restatements_interrupted: int
    restatements: int

    @property
    def precision(self) -> float | None:
        return self.tp / self.interrupts if self.interrupts else None

    @property
    def recall(self) -> float | None:
        positives = self.tp + self.fn
        return self.tp / positives if positives else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None if p is None or r is None else 0.0
        return 2 * p * r / (p + r)

    @property
    def false_interrupt_rate(self) -> float | None:
        if not self.restatements:
            return None
        return self.restatements_interrupted / self.restatements

    def as_dict(self) -> dict[str, float | int | None]:
        return {"precision": _r(self.precision), "recall": _r(self.recall), "f1": _r(self.f1),
                "false_interrupt_rate": _r(self.false_interrupt_rate),
                "interrupts": self.interrupts, "true_conflicts_interrupted": self.tp}


def _r(value: float | None) -> float | None:
    """Rounded for the notes (the metrics keep full precision)."""
    return None if value is None else round(value, 4)


def _point(predicted: Sequence[bool], conflict: Sequence[bool],
           restatement: Sequence[bool]) -> _Point:
    tp = sum(p and c for p, c in zip(predicted, conflict, strict=True))
    fp = sum(p and not c for p, c in zip(predicted, conflict, strict=True))
    fn = sum(c and not p for p, c in zip(predicted, conflict, strict=True))
    return _Point(tp=tp, fp=fp, fn=fn, interrupts=tp + fp,
                  restatements_interrupted=sum(p and r for p, r in
                                               zip(predicted, restatement, strict=True)),
                  restatements=sum(restatement))


def _cosines(embedder: Any, a: Sequence[str], b: Sequence[str]) -> list[float]:
    """Cosine per pair; each distinct text is embedded once, in batches of :data:`BATCH`."""
    texts = list(dict.fromkeys([*a, *b]))
    chunks = [np.asarray(embedder.embed(texts[i:i + BATCH]), dtype=np.float64)
              for i in range(0, len(texts), BATCH)]
    matrix = np.vstack(chunks) if chunks else np.zeros((0, 1))
    if matrix.shape[0] != len(texts):
        raise InvalidInput(f"embedder {embedder.name} returned {matrix.shape[0]} vectors for "
                           f"{len(texts)} texts")
    # The protocol promises unit vectors; normalising again costs nothing and keeps the
    # cosine honest for an embedder that does not.
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    matrix = matrix / norms
    index = {text: i for i, text in enumerate(texts)}
    return [float(matrix[index[x]] @ matrix[index[y]]) for x, y in zip(a, b, strict=True)]


def _best_f1(sweep: Sequence[Mapping[str, Any]], rule: str,
             keep: Callable[[Mapping[str, Any]], bool] = lambda row: True) -> float | None:
    """The threshold with the highest F1 among the kept rows; ties go to the lower one."""
    best: tuple[float, float] | None = None
    for row in sweep:
        f1 = row[rule]["f1"]
        if f1 is None or not keep(row):
            continue
        if best is None or f1 > best[0]:
            best = (f1, row["threshold"])
    return None if best is None else best[1]


def _recall_floor(sweep: Sequence[Mapping[str, Any]]) -> tuple[float, str]:
    """The recall the recommended threshold must keep, and why.

    :data:`RECALL_FLOOR` when some combined threshold reaches it. The combined rule can never
    recall more than the detector alone does, so when even the lowest threshold falls short
    the floor becomes :data:`RECALL_FLOOR` times the best combined recall of the sweep: keep
    nine in ten of the conflicts the detector can catch at all.
    """
    ceiling = max((row["combined"]["recall"] or 0.0) for row in sweep)
    if ceiling >= RECALL_FLOOR:
        return RECALL_FLOOR, f"recall >= {RECALL_FLOOR}"
    return RECALL_FLOOR * ceiling, (
        f"no combined threshold reaches recall {RECALL_FLOOR} (the detector caps it at "
        f"{ceiling:.4f}), so the floor is {RECALL_FLOOR} x {ceiling:.4f}")


def run(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Score every pair, sweep the thresholds, and (with ``--record``) file the evidence."""
    rows = [r for r in items if r.get("conflict") is not None]
    excluded = len(items) - len(rows)
    if not rows:
        raise InvalidInput(f"{NAME}: none of the {len(items)} pair(s) has a conflict truth "
                           "(every one was excluded by its dataset's labels)")
    cosines = _cosines(ctx.embedder, [r["a"] for r in rows], [r["b"] for r in rows])
    found = [differences(r["a"], r["b"]) for r in rows]
    # The combined rule is what the store's route mode does: route_decision over what differs
    # (a subject change is two facts about two things, not a conflict). The looser "any
    # difference" variant is swept too, in the notes.
    detected = [route_decision(d) for d in found]
    strict = [bool(d) and not any(x.startswith("subject ") for x in d) for d in found]
    conflict = [bool(r["conflict"]) for r in rows]
    restatement = [r["label"] == RESTATEMENT for r in rows]

    sweep = []
    for t in THRESHOLDS:
        near = [c >= t for c in cosines]
        sweep.append({
            "threshold": t,
            "cosine": _point(near, conflict, restatement).as_dict(),
            "combined": _point([n and d for n, d in zip(near, detected, strict=True)],
                               conflict, restatement).as_dict(),
            "any_difference": _point([n and s for n, s in zip(near, strict, strict=True)],
                             conflict, restatement).as_dict(),
        })
    detector = _point(detected, conflict, restatement)
    detector_strict = _point(strict, conflict, restatement)

    threshold = float(ctx.settings.density_threshold)
    mode = ctx.settings.difference_detector
    near_now = [c >= threshold for c in cosines]
    combined_now = [n and d for n, d in zip(near_now, detected, strict=True)]
    cosine_at = _point(near_now, conflict, restatement)
    combined_at = _point(combined_now, conflict, restatement)
    any_at = _point([n and s for n, s in zip(near_now, strict, strict=True)], conflict,
                    restatement)
    current = {"route": combined_at, "annotate": any_at}.get(mode, cosine_at)

    floor, floor_reason = _recall_floor(sweep)
    recommended = _best_f1(sweep, "combined",
                           keep=lambda row: (row["combined"]["recall"] or 0.0) >= floor)
    combined_score = [c + COMBINED_OFFSET if d else c - COMBINED_OFFSET
                      for c, d in zip(cosines, detected, strict=True)]
    auc_cosine = roc_auc(cosines, conflict)
    auc_combined = roc_auc(combined_score, conflict)

    per_label: dict[str, dict[str, Any]] = {}
    grouped: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        grouped[row["label"]].append(i)
    for label, indices in sorted(grouped.items()):
        per_label[label] = {
            "n": len(indices),
            "mean_cosine": round(float(np.mean([cosines[i] for i in indices])), 4),
            "detector_fires": round(sum(detected[i] for i in indices) / len(indices), 4),
        }

    out_items = [{
        "id": row["id"], "label": row["label"], "source_label": row["source_label"],
        "conflict": conflict[i], "cosine": cosines[i], "differences": list(found[i]),
        "route_decision": detected[i], "any_difference": strict[i],
        "predicted_cosine": near_now[i],
        "predicted_combined": combined_now[i], "a": row["a"], "b": row["b"],
    } for i, row in enumerate(rows)]

    metrics: dict[str, float | None] = {
        "precision": current.precision,
        "recall": current.recall,
        "false_interrupt_rate": current.false_interrupt_rate,
        "auc_cosine": auc_cosine,
        "auc_combined": auc_combined,
        "precision_combined_at_threshold": combined_at.precision,
        "recall_combined_at_threshold": combined_at.recall,
        "false_interrupt_rate_combined_at_threshold": combined_at.false_interrupt_rate,
        "precision_cosine_at_threshold": cosine_at.precision,
        "recall_cosine_at_threshold": cosine_at.recall,
        "false_interrupt_rate_cosine_at_threshold": cosine_at.false_interrupt_rate,
        "precision_detector": detector.precision,
        "recall_detector": detector.recall,
        "false_interrupt_rate_detector": detector.false_interrupt_rate,
        "best_f1_threshold_cosine": _best_f1(sweep, "cosine"),
        "best_f1_threshold_combined": _best_f1(sweep, "combined"),
        "recommended_threshold": recommended,
    }
    sources = sorted({r["source"] for r in rows})
    notes: dict[str, Any] = {
        "measures": {s: _MEASURES.get(s, "conflict = not the same fact by "
                                         "evals.loaders.paraphrase_truth") for s in sources},
        "pairs_scored": len(rows),
        "pairs_excluded": excluded,
        "mode": mode,
        "density_threshold": threshold,
        "primary_rule": {"route": "combined (route)",
                         "annotate": "any difference (annotate)"}.get(mode, "cosine alone"),
        "recommended_rule": "combined threshold with the best F1 among those whose recall "
                            "reaches the floor; ties to the lower threshold",
        "recall_floor_applied": round(floor, 4),
        "recall_floor_reason": floor_reason,
        "combined_score": f"cosine + {COMBINED_OFFSET:g} if differences(a, b) else "
                          f"cosine - {COMBINED_OFFSET:g}",
        "per_label": per_label,
        "detector_alone": detector.as_dict(),
        "detector_any_difference_alone": detector_strict.as_dict(),
        "sweep": sweep,
        "run_id": ctx.run_id,
    }
    if ctx.record and ctx.evidence_store is not None:
        notes["evidence"] = _record(ctx, metrics, notes)
    return EvalOutcome(items=out_items, metrics=metrics, notes=notes)


# -- evidence --------------------------------------------------------------------------------


def _fmt(value: float | None) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{value:.3f}"


def _record(ctx: EvalContext, metrics: Mapping[str, float | None],
            notes: Mapping[str, Any]) -> str:
    """Append this run's figures to open question 2; its status is a person's call."""
    means = ", ".join(f"{label} {v['mean_cosine']:.3f}" for label, v in
                      notes["per_label"].items())
    recommended = metrics["recommended_threshold"]
    advice = "none (no threshold has an F1)" if recommended is None else f"{recommended:.2f}"
    note = (
        f"eval {NAME} run {ctx.run_id}: dataset {ctx.dataset} ({notes['pairs_scored']} pairs "
        f"scored, {notes['pairs_excluded']} excluded), embedder {ctx.embedder.name}. "
        f"At density_threshold {notes['density_threshold']:g} in mode {notes['mode']} "
        f"({notes['primary_rule']}): precision {_fmt(metrics['precision'])}, recall "
        f"{_fmt(metrics['recall'])}, false-interrupt rate on restatements "
        f"{_fmt(metrics['false_interrupt_rate'])}. Cosine alone: precision "
        f"{_fmt(metrics['precision_cosine_at_threshold'])} / recall "
        f"{_fmt(metrics['recall_cosine_at_threshold'])}; combined with the difference "
        f"detector: precision {_fmt(metrics['precision_combined_at_threshold'])} / recall "
        f"{_fmt(metrics['recall_combined_at_threshold'])}. ROC AUC cosine "
        f"{_fmt(metrics['auc_cosine'])}, combined {_fmt(metrics['auc_combined'])}. Mean "
        f"cosine by label: {means}. Recommended threshold (combined, best F1 with "
        f"{notes['recall_floor_reason']}): {advice}. Status left unchanged: a person closes "
        "this entry."
    )
    ctx.evidence_store.update_open_question(QUESTION, note=note, recorded_by=RECORDED_BY)
    return note


SPEC = register(EvalSpec(
    name=NAME,
    description="Density-check precision: cosine vs the difference detector on labelled "
                "statement pairs (open question 2)",
    metrics=(
        Metric("precision", "higher", 0.01),
        Metric("recall", "higher", 0.01),
        Metric("false_interrupt_rate", "lower", 0.01),
        Metric("auc_cosine", "higher", 0.01),
        Metric("auc_combined", "higher", 0.01),
        Metric("precision_combined_at_threshold", "higher", 0.01),
        Metric("recall_combined_at_threshold", "higher", 0.01),
        Metric("false_interrupt_rate_combined_at_threshold", "lower", 0.01),
        Metric("precision_cosine_at_threshold", "higher", 0.01),
        Metric("recall_cosine_at_threshold", "higher", 0.01),
        Metric("false_interrupt_rate_cosine_at_threshold", "lower", 0.01),
        Metric("precision_detector", "higher", 0.01),
        Metric("recall_detector", "higher", 0.01),
        Metric("false_interrupt_rate_detector", "lower", 0.01),
        # Thresholds are findings, not scores: a tolerance of 1 keeps compare from gating on
        # them (every threshold lies in [0.5, 0.99]).
        Metric("best_f1_threshold_cosine", "higher", 1.0),
        Metric("best_f1_threshold_combined", "higher", 1.0),
        Metric("recommended_threshold", "none"),
    ),
    default_dataset=DATA / "pairs.jsonl",
    load=load,
    run=run,
))
