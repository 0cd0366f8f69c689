"""Eval ``subject-conflicts``: does the density check know what a conflict is about?

Every pair is remembered through a real store, ``a`` first and ``b`` an hour later, each as
one fact of the pair's kind (a pass-through extractor: the eval measures the density check,
subject scoping, the difference detector and triage, not extraction). What happened to
``b`` is read off its outcome:

- **caught**: ``b`` conflicts with ``a`` (contested, or a rule exception), supersedes it
  (lane 1, lane 2, revision) or is written already superseded by it (an older reading);
- **testimony**: ``b`` is recorded as new testimony for ``a`` (recaptured);
- **separate**: ``b`` is written as a fact of its own.

After each pair both facts are withdrawn, so pairs never see each other.

Metrics (targets from issue 7):

- ``false_cross_subject_conflicts`` -- other-subject pairs caught or taken as testimony
  (target 0; the primary metric);
- ``missed_same_subject_changes`` -- changed and negation pairs not caught (target 0);
- ``paraphrase_interrupts`` -- reworded pairs that raised an interrupt (target <= 0.02);
- ``other_aspect_conflicts`` -- same-subject pairs about another attribute that were
  caught (separate facts are right);
- ``paraphrase_testimony`` -- reworded pairs taken as testimony (higher is better; a
  reworded pair written separately is a duplicate, not an error of truth);
- ``negation_below_threshold_caught`` -- negation pairs under ``density_threshold`` that were
  caught.

With ``--record`` the run appends its figures to open question 2 (never its status).

**Datasets.** The default is the project set ``evals/data/subject_conflicts.jsonl`` (written
by ``evals/data/make_subject_conflicts.py``: hand-written pairs and generated ones over many
subjects and kinds). A SICK file or folder, or the Hossain negation-NLI folder, is read
with :mod:`evals.loaders` and mapped by its labels, every pair as a STATE: a contradiction
whose sentences share a subject key, or where either has none (it may be the same), is a
``negation`` pair when one side negates, else ``changed``; a contradiction between two known,
different subjects is ``contradiction-across`` (reported, not scored: the store does not
compare two subjects); a SICK entailment with relatedness >= 4.5 is ``reworded``; an RTE
``not_entailment`` is ``not-entailment`` (unscored: it mixes contradictions with merely
unsupported hypotheses); any other pair is ``other-subject`` (two known subjects) or
``other-aspect``.

**The floor sweep** (notes): the band below the density threshold is decided by the pure
:func:`factstore.writepath.density.read_hit`, so the eval also sweeps both floors over the
pairs' cosines without a store: for each floor, the share of conflict pairs the band
catches and the share of non-conflict pairs it would wrongly make candidates. The
recommended floor maximises caught minus false candidates (Youden's J); ties go to the
higher floor.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from evals.jsonl import first_record, numbered_records
from evals.loaders import load_any
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext
from factstore.kinds import Kind, parse_kind
from factstore.writepath.density import NearHit, read_hit
from factstore.writepath.polarity import polarity_mismatch
from factstore.writepath.prepare import fact_subject

__all__ = ["CATEGORIES", "DATASET", "SPEC", "load", "run"]

NAME = "subject-conflicts"
#: open question 2 of seed 000 §7: conflict-density paraphrase precision
QUESTION = 2
DATASET = DATA / "subject_conflicts.jsonl"
CATEGORIES = ("changed", "negation", "reworded", "other-subject", "other-aspect")
CONFLICT_CATEGORIES = ("changed", "negation")
#: categories loaded from external sets but not scored
UNSCORED = ("contradiction-across", "not-entailment")
CAUGHT = frozenset(("contested", "superseded-prior", "ground-truth-won", "ground-truth-lost",
                    "older-reading"))
FLOORS: tuple[float, ...] = tuple(round(0.30 + i * 0.05, 2) for i in range(11))
BATCH = 256
T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


# -- loading ---------------------------------------------------------------------------------


def _bad(path: Path, line: int, msg: str) -> InvalidInput:
    return InvalidInput(f"{NAME}: {path}:{line}: {msg}")


def _project(path: Path) -> list[dict[str, Any]]:
    rows, seen = [], set()
    try:
        records = numbered_records(path, lambda line, msg: _bad(path, line, msg))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{NAME}: cannot read {path}: {exc}") from None
    for number, raw in records:
        if not isinstance(raw, dict):
            raise _bad(path, number, "each line must be a JSON object")
        for field in ("id", "kind", "category", "a", "b"):
            if not isinstance(raw.get(field), str) or not raw[field].strip():
                raise _bad(path, number, f"{field!r} must be a non-empty string")
        if raw["category"] not in CATEGORIES:
            raise _bad(path, number, f"category {raw['category']!r} is not one of "
                                     f"{', '.join(CATEGORIES)}")
        try:
            parse_kind(raw["kind"])
        except InvalidInput as exc:
            raise _bad(path, number, str(exc)) from None
        if raw["id"] in seen:
            raise _bad(path, number, f"id {raw['id']!r} repeats")
        seen.add(raw["id"])
        rows.append({"id": raw["id"], "kind": parse_kind(raw["kind"]).value,
                     "category": raw["category"], "a": raw["a"].strip(), "b": raw["b"].strip(),
                     "source": raw.get("source", "project")})
    if not rows:
        raise InvalidInput(f"{NAME}: {path} has no pairs")
    return rows


def _external(path: Path) -> list[dict[str, Any]]:
    """SICK or Hossain pairs, mapped by label and subject key (see the module docstring)."""
    rows = []
    for pair in load_any(path):
        if not hasattr(pair, "label"):
            raise InvalidInput(f"{NAME}: {path} is not a pair dataset")
        key_a, key_b = _key(pair.a), _key(pair.b)
        # two known, different subjects are never compared; an unknown one may be the same
        across = key_a is not None and key_b is not None and key_a != key_b
        if pair.label == "contradiction":
            negates = polarity_mismatch(pair.a, pair.b) is not None or \
                polarity_mismatch(pair.b, pair.a) is not None
            category = "contradiction-across" if across else (
                "negation" if negates else "changed")
        elif pair.label == "entailment" and pair.score is not None and pair.score >= 4.5:
            category = "reworded"
        elif pair.label == "not_entailment":
            category = "not-entailment"  # RTE: contradiction or merely unsupported, unknown
        else:
            category = "other-subject" if across else "other-aspect"
        rows.append({"id": f"{pair.source}-{pair.id}", "kind": Kind.STATE.value,
                     "category": category, "a": pair.a.strip(), "b": pair.b.strip(),
                     "source": pair.source})
    return rows


def load(path: Path) -> list[dict[str, Any]]:
    """The project set (JSON Lines with id/kind/category/a/b), or a SICK / Hossain copy."""
    path = Path(path)
    if not path.exists():
        raise InvalidInput(f"{NAME}: dataset {path} does not exist")
    first = first_record(path) if path.is_file() else None
    if first is not None and {"a", "b", "category"} <= set(first):
        return _project(path)
    return _external(path)


def _key(statement: str) -> str | None:
    return fact_subject(None, statement)[0]


# -- the store run ---------------------------------------------------------------------------


class _PassThrough:
    """Each capture is one fact of the pair's kind, its own quote: the eval measures the
    density check, not extraction."""

    name = "eval/pass-through"

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        kind = self.kinds.get(text)
        if kind is None:
            return []
        statement = text if text.endswith((".", "!", "?")) else text + "."
        return [ExtractedFact(statement=statement, kind=kind, quote=text)]


def _classify(outcome: Any, a_id: int) -> str:
    related = outcome.related_fact_id == a_id or a_id in outcome.also_superseded
    if outcome.outcome in CAUGHT and related:
        return "caught"
    if outcome.outcome in ("recaptured", "unchanged") and outcome.fact.id == a_id:
        return "testimony"
    if outcome.outcome in CAUGHT:
        return "caught-other"  # a conflict with something that is not a (never expected)
    return "separate"


def _run_pairs(ctx: EvalContext, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    extractor = _PassThrough()
    store = ctx.open_store()
    store.extractor = extractor
    out = []
    for index, row in enumerate(rows):
        extractor.kinds = {row["a"]: row["kind"], row["b"]: row["kind"]}
        first = store.remember(row["a"], source_ref=f"pair:{row['id']}:a",
                               said_at=T0 + timedelta(days=index))
        second = store.remember(row["b"], source_ref=f"pair:{row['id']}:b",
                                said_at=T0 + timedelta(days=index, hours=1))
        if len(first.outcomes) != 1 or len(second.outcomes) != 1:
            raise InvalidInput(f"{NAME}: pair {row['id']} did not yield one fact a side "
                               f"(dropped: {first.dropped + second.dropped})")
        a, b = first.outcomes[0], second.outcomes[0]
        verdict = _classify(b, a.fact.id)
        out.append({**row, "result": verdict, "outcome_a": a.outcome, "outcome_b": b.outcome,
                    "lane": b.lane, "scope": b.scope, "similarity": b.similarity,
                    "note": b.note, "subject_a": a.fact.subject_key,
                    "subject_b": b.fact.subject_key})
        # Withdraw what the pair left live, so the next pair starts from nothing live.
        for fact_id in {a.fact.id, b.fact.id, *b.also_superseded}:
            if store.fact(fact_id).verdict.value in ("active", "contested", "parked"):
                store.retract(fact_id, reason=f"{NAME}: pair {row['id']} done")
    return out


# -- metrics ---------------------------------------------------------------------------------


def _share(rows: Sequence[dict[str, Any]], test: Any) -> float | None:
    return sum(1 for r in rows if test(r)) / len(rows) if rows else None


def _cosines(ctx: EvalContext, rows: Sequence[dict[str, Any]]) -> list[float]:
    texts = sorted({t for r in rows for t in (r["a"], r["b"])})
    vectors: dict[str, np.ndarray] = {}
    for start in range(0, len(texts), BATCH):
        chunk = texts[start:start + BATCH]
        for text, vector in zip(chunk, ctx.embedder.embed(chunk), strict=True):
            v = np.asarray(vector, dtype=float)
            vectors[text] = v / (np.linalg.norm(v) or 1.0)
    return [float(vectors[r["a"]] @ vectors[r["b"]]) for r in rows]


def floor_sweep(rows: Sequence[dict[str, Any]], cosines: Sequence[float], *,
                mode: str, threshold: float) -> dict[str, Any]:
    """Both floors swept over the band below the threshold, with the pure hit reading."""
    out: dict[str, Any] = {}
    for which in ("subject_floor", "contradiction_floor"):
        table = []
        for floor in FLOORS:
            caught, conflicts, false, others = 0, 0, 0, 0
            for row, cosine in zip(rows, cosines, strict=True):
                key_a, key_b = _key(row["a"]), _key(row["b"])
                same = key_a is not None and key_a == key_b
                if cosine >= threshold or same != (which == "subject_floor"):
                    continue
                if not same and key_a is not None and key_b is not None:
                    continue  # two known subjects: never compared, whatever the floor
                hit = NearHit(1, Kind(row["kind"]), row["a"], row["a"], "active", cosine, T0,
                              key_a)
                reading = read_hit(row["b"], key_b, hit, kind=Kind(row["kind"]), mode=mode,
                                   threshold=threshold, floor=floor, subject_floor=floor)
                candidate = reading.relation == "candidate"
                if row["category"] in CONFLICT_CATEGORIES:
                    conflicts += 1
                    caught += candidate
                elif row["category"] in CATEGORIES:
                    others += 1
                    false += candidate
            table.append({"floor": floor, "conflict_pairs": conflicts,
                          "caught": caught / conflicts if conflicts else None,
                          "other_pairs": others,
                          "false_candidates": false / others if others else None})
        for r in table:
            r["j"] = round((r["caught"] or 0.0) - (r["false_candidates"] or 0.0), 4)
        best = max(r["j"] for r in table)
        # ties go to the higher floor: the same separation with fewer comparisons
        recommended = max(r["floor"] for r in table if r["j"] >= best - 1e-9)
        out[which] = {"sweep": table, "recommended": recommended}
    return out


def run(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Remember every pair, classify ``b``, and sweep the floors."""
    scored = [r for r in items if r["category"] in CATEGORIES]
    if not scored:
        raise InvalidInput(f"{NAME}: none of the {len(items)} pair(s) is in a scored category")
    cosines = _cosines(ctx, scored)
    results = _run_pairs(ctx, scored)
    for row, cosine in zip(results, cosines, strict=True):
        row["cosine"] = cosine
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in results:
        by_category[row["category"]].append(row)
    threshold = ctx.settings.density_threshold
    changes = by_category["changed"] + by_category["negation"]
    below = [r for r in by_category["negation"] if r["cosine"] < threshold]
    metrics = {
        "false_cross_subject_conflicts": _share(by_category["other-subject"],
                                                lambda r: r["result"] in ("caught",
                                                                          "testimony")),
        "missed_same_subject_changes": _share(changes, lambda r: r["result"] != "caught"),
        "paraphrase_interrupts": _share(by_category["reworded"],
                                        lambda r: r["outcome_b"] == "contested"),
        "other_aspect_conflicts": _share(by_category["other-aspect"],
                                         lambda r: r["result"] == "caught"),
        "paraphrase_testimony": _share(by_category["reworded"],
                                       lambda r: r["result"] == "testimony"),
        "negation_below_threshold_caught": _share(below, lambda r: r["result"] == "caught"),
    }
    table: dict[str, dict[str, Any]] = {}
    for category, rows in sorted(by_category.items()):
        counts: dict[str, int] = defaultdict(int)
        for row in rows:
            counts[row["result"]] += 1
        table[category] = {"n": len(rows), **dict(sorted(counts.items())),
                           "mean_cosine": round(float(np.mean([r["cosine"] for r in rows])), 4)}
    per_kind: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in results:
        per_kind[row["kind"]][f"{row['category']}:{row['result']}"] += 1
    failures = [{k: r[k] for k in ("id", "category", "kind", "a", "b", "result", "outcome_b",
                                   "lane", "cosine", "note")}
                for r in results
                if (r["category"] in CONFLICT_CATEGORIES and r["result"] != "caught")
                or (r["category"] == "other-subject" and r["result"] != "separate")
                or (r["category"] == "reworded" and r["outcome_b"] == "contested")
                or (r["category"] == "other-aspect" and r["result"] == "caught")]
    notes = {
        "pairs_scored": len(results),
        "pairs_unscored": len(items) - len(scored),
        "unscored_categories": sorted({r["category"] for r in items} - set(CATEGORIES)),
        "mode": ctx.settings.difference_detector,
        "density_threshold": threshold,
        "subject_floor": ctx.settings.subject_floor,
        "contradiction_floor": ctx.settings.contradiction_floor,
        "by_category": table,
        "by_kind": {k: dict(v) for k, v in sorted(per_kind.items())},
        "sources": sorted({r["source"] for r in results}),
        "floor_sweep": floor_sweep(results, cosines, mode=ctx.settings.difference_detector,
                                   threshold=threshold),
        "failures": failures[:40],
        "failure_count": len(failures),
        "run_id": ctx.run_id,
    }
    if ctx.record and ctx.evidence_store is not None:
        notes["evidence"] = _record(ctx, metrics, notes)
    return EvalOutcome(items=results, metrics=metrics, notes=notes)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _record(ctx: EvalContext, metrics: dict[str, float | None], notes: dict[str, Any]) -> str:
    """Append this run's figures to open question 2 (paraphrase precision); a person closes it."""
    sweep = notes["floor_sweep"]
    note = (
        f"eval {NAME} run {ctx.run_id}: dataset {ctx.dataset} ({notes['pairs_scored']} pairs), "
        f"embedder {ctx.embedder.name}, mode {notes['mode']}, threshold "
        f"{notes['density_threshold']:g}, floors {notes['subject_floor']:g} (same subject) / "
        f"{notes['contradiction_floor']:g}. False cross-subject conflicts "
        f"{_fmt(metrics['false_cross_subject_conflicts'])}, missed same-subject changes "
        f"{_fmt(metrics['missed_same_subject_changes'])}, paraphrase interrupts "
        f"{_fmt(metrics['paraphrase_interrupts'])}, paraphrases taken as testimony "
        f"{_fmt(metrics['paraphrase_testimony'])}, other-attribute conflicts "
        f"{_fmt(metrics['other_aspect_conflicts'])}. Floor sweep recommends subject_floor "
        f"{sweep['subject_floor']['recommended']} and contradiction_floor "
        f"{sweep['contradiction_floor']['recommended']}. Status left unchanged."
    )
    ctx.evidence_store.update_open_question(QUESTION, note=note, recorded_by=f"eval:{NAME}")
    return note


SPEC = register(EvalSpec(
    name=NAME,
    description="Subject-aware conflicts: cross-subject false conflicts, missed same-subject "
                "changes, paraphrase interrupts, and the floors below the density threshold",
    metrics=(
        Metric("false_cross_subject_conflicts", "lower"),
        Metric("missed_same_subject_changes", "lower", 0.01),
        Metric("paraphrase_interrupts", "lower", 0.01),
        Metric("other_aspect_conflicts", "lower", 0.02),
        Metric("paraphrase_testimony", "higher", 0.02),
        Metric("negation_below_threshold_caught", "higher", 0.02),
    ),
    default_dataset=DATASET,
    load=load,
    run=run,
))
