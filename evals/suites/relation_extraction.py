"""Eval ``relation-extraction``: which (subject, predicate, object) relations reach the store?

The dataset (``evals/data/relations.jsonl``, described in ``evals/data/relations.md``) holds
single sentences, each with its gold triples (``[]`` for negated relations, questions,
hypotheticals and small talk) and a category. Each sentence goes through the extractor under
test and then the write path's pure stages (:func:`factstore.writepath.prepare.
prepare_capture`), so what is measured is what the store would receive: relations whose ends
are not mentions written in the fact's quote (or its speaker), or whose predicate is not in
the vocabulary, are cleared by ``entity_fields`` before they count. No database is touched.

A predicted triple matches a gold one when the predicates are equal and both ends are equal
after case-folding and whitespace collapsing; the symmetric predicates (``married_to``,
``sibling_of``, ``friend_of``, ``partner_of``, ``competitor_of``) match in either order.
Triples are sets per sentence (a repeat counts once).

Metrics (micro-averaged over triples; tolerance 0.01 each):

- ``f1`` (primary): precision and recall together. Precision alone would reward an
  extractor that asserts one sure relation and misses the rest, and a wiring break that
  yields no relations at all would leave it undefined rather than worse; F1 falls in both
  cases. ``precision`` is reported beside it and ``factstore eval compare`` guards it too,
  because a wrong relation in the graph costs more than a missing one.
- ``precision``, ``recall``;
- ``mention_recall``: share of the gold triples' distinct names (per sentence) found among
  the prepared facts' mentions (a chat turn's speaker is a mention of every fact of the
  turn, as the store records it);
- ``f1_dev`` / ``precision_dev`` / ``recall_dev`` and the ``_heldout`` three: the same on
  the development split (rows r0001-r0085, on which the offline rules were tuned) and on
  the held-out rows (r0086 onwards, never read to write rules);
- ``cleared_share``: share of the relations the extractor emitted that the write path
  cleared (lower is better for an extractor; a replayed model's malformed output shows up
  here).

A rate with an empty denominator is None. The notes give per-category precision, recall
and F1, the counts behind every figure, and what was cleared.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evals.jsonl import numbered_records
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.entities.model import PREDICATES, SYMMETRIC
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.writepath.prepare import prepare_capture

__all__ = ["DATASET", "DEV_LAST", "SPEC", "load_relations", "run_relations", "triple_key"]

NAME = "relation-extraction"
DATASET = DATA / "relations.jsonl"
#: the development split of the gold set ends at this row number (r0085)
DEV_LAST = 85
DEV, HELDOUT = "dev", "held-out"
TOLERANCE = 0.01
# A fixed context, so a strict-keyed cassette replays across runs.
_CONTEXT = ExtractionContext()
_ID_NUMBER = re.compile(r"^r(\d+)$")


# -- the dataset ----------------------------------------------------------------------------


def _bad(path: Path, line: int, message: str) -> InvalidInput:
    return InvalidInput(f"relations dataset {path} line {line}: {message}")


def _split(ident: str, given: object, path: Path, line: int) -> str:
    """A row's split: its own ``split`` field, else from its id (r0001-r0085 dev)."""
    if given is not None:
        if given not in (DEV, HELDOUT):
            raise _bad(path, line, f"{ident}: split {given!r} is not {DEV!r} or {HELDOUT!r}")
        return str(given)
    match = _ID_NUMBER.match(ident)
    return DEV if match and int(match.group(1)) <= DEV_LAST else HELDOUT


def _triples(path: Path, line: int, ident: str, raw: object) -> list[tuple[str, str, str]]:
    if not isinstance(raw, list):
        raise _bad(path, line, f"{ident}: 'triples' must be a list")
    out = []
    for item in raw:
        if not isinstance(item, dict) or not all(
                isinstance(item.get(k), str) and item[k].strip()
                for k in ("subject", "predicate", "object")):
            raise _bad(path, line, f"{ident}: a triple is {{subject, predicate, object}} "
                                   f"(non-empty strings), found {item!r}")
        if item["predicate"] not in PREDICATES:
            raise _bad(path, line, f"{ident}: predicate {item['predicate']!r} is not in the "
                                   "vocabulary (factstore.entities.model.PREDICATES)")
        out.append((item["subject"], item["predicate"], item["object"]))
    return out


def load_relations(path: Path) -> list[dict[str, Any]]:
    """Read and validate a relations dataset (JSON Lines); InvalidInput names the bad line."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(f"relations dataset {path} is not a file; pass a .jsonl file such "
                           f"as {DATASET}")
    try:
        records = numbered_records(path, lambda line, msg: _bad(path, line, msg))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read the relations dataset {path}: {exc}") from None
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, raw in records:
        if not isinstance(raw, dict):
            raise _bad(path, number, f"expected a JSON object, found {type(raw).__name__}")
        ident, text = raw.get("id"), raw.get("text")
        if not isinstance(ident, str) or not ident.strip():
            raise _bad(path, number, "missing 'id' (a non-empty string)")
        if ident in seen:
            raise _bad(path, number, f"id {ident!r} repeats")
        seen.add(ident)
        if not isinstance(text, str) or not text.strip():
            raise _bad(path, number, f"{ident}: missing 'text' (a non-empty string)")
        category = raw.get("category")
        if not isinstance(category, str) or not category.strip():
            raise _bad(path, number, f"{ident}: missing 'category' (a non-empty string)")
        rows.append({"id": ident, "text": text, "category": category,
                     "split": _split(ident, raw.get("split"), path, number),
                     "triples": _triples(path, number, ident, raw.get("triples"))})
    if not rows:
        raise InvalidInput(f"relations dataset {path} has no rows")
    return rows


# -- matching -------------------------------------------------------------------------------


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def triple_key(subject: str, predicate: str, obj: str) -> tuple[str, str, str]:
    """What two triples share when they match: case-folded ends, symmetric ones sorted."""
    s, o = _fold(subject), _fold(obj)
    if predicate in SYMMETRIC and o < s:
        s, o = o, s
    return s, predicate, o


class _Remembering:
    """The extractor under test; keeps what it emitted, so cleared relations can be counted."""

    def __init__(self, inner: Extractor) -> None:
        self.name = inner.name
        self._inner = inner
        self.facts: list[ExtractedFact] = []

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        self.facts = list(self._inner.extract(text, context))
        return list(self.facts)


def _prf(tp: int, fp: int, fn: int) -> tuple[float | None, float | None, float | None]:
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    if precision is None or recall is None:
        return precision, recall, None
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _scores(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    rows = list(rows)
    tp = sum(len(r["matched"]) for r in rows)
    fp = sum(len(r["spurious"]) for r in rows)
    fn = sum(len(r["missed"]) for r in rows)
    precision, recall, f1 = _prf(tp, fp, fn)
    return {"rows": len(rows), "tp": tp, "fp": fp, "fn": fn, "precision": precision,
            "recall": recall, "f1": f1}


def _listed(triples: Iterable[tuple[str, str, str]]) -> list[list[str]]:
    return [list(t) for t in triples]


def _row(item: Mapping[str, Any], ctx: EvalContext) -> dict[str, Any]:
    once = _Remembering(ctx.extractor)
    prepared = prepare_capture(item["text"], _CONTEXT, once, ctx.settings)
    predicted: dict[tuple[str, str, str], tuple[str, str, str]] = {}
    mentions: list[str] = []
    cleared: list[str] = []
    for fact in prepared.facts:
        for triple in fact.relations:
            predicted.setdefault(triple_key(*triple), triple)
        for mention in fact.mentions:
            if mention.name not in mentions:
                mentions.append(mention.name)
        for entry in fact.meta.get("cleared_fields", ()):
            if isinstance(entry, dict) and entry.get("field") in ("mentions", "relations"):
                cleared.append(f"{entry['field']}: {entry.get('value')}")
    gold = {triple_key(*t): t for t in item["triples"]}
    emitted = {triple_key(*t) for f in once.facts for t in _emitted(f)}
    names = {_fold(n) for t in item["triples"] for n in (t[0], t[2])}
    found = names & {_fold(m) for m in mentions}
    return {
        "id": item["id"],
        "split": item["split"],
        "category": item["category"],
        "text": item["text"],
        "gold": _listed(item["triples"]),
        "predicted": _listed(predicted.values()),
        "matched": _listed(gold[k] for k in gold if k in predicted),
        "missed": _listed(gold[k] for k in gold if k not in predicted),
        "spurious": _listed(predicted[k] for k in predicted if k not in gold),
        "mentions": mentions,
        "gold_names": len(names),
        "gold_names_found": len(found),
        "emitted_relations": len(emitted),
        "cleared_relations": len(emitted - set(predicted)),
        "cleared": cleared,
        "facts": len(prepared.facts),
        "dropped_facts": len(prepared.dropped),
    }


def _emitted(fact: ExtractedFact) -> list[tuple[str, str, str]]:
    """The relations as the extractor wrote them, the well-formed ones (three strings)."""
    out = []
    for item in fact.relations or ():
        if isinstance(item, dict):
            item = (item.get("subject"), item.get("predicate"), item.get("object"))
        if isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 3 \
                and all(isinstance(x, str) for x in item):
            out.append((item[0], str(item[1]).lower(), item[2]))
    return out


def run_relations(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Extract and prepare every sentence; score the prepared relations against the gold."""
    rows = [_row(item, ctx) for item in items]
    overall = _scores(rows)
    by_split = {split: _scores(r for r in rows if r["split"] == split)
                for split in (DEV, HELDOUT)}
    categories: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        categories[row["category"]].append(row)
    names = sum(r["gold_names"] for r in rows)
    emitted = sum(r["emitted_relations"] for r in rows)
    cleared = sum(r["cleared_relations"] for r in rows)
    metrics: dict[str, float | None] = {
        "f1": overall["f1"],
        "precision": overall["precision"],
        "recall": overall["recall"],
        "mention_recall": sum(r["gold_names_found"] for r in rows) / names if names else None,
    }
    for split, suffix in ((DEV, "dev"), (HELDOUT, "heldout")):
        for name in ("f1", "precision", "recall"):
            metrics[f"{name}_{suffix}"] = by_split[split][name]
    metrics["cleared_share"] = cleared / emitted if emitted else None
    notes = {
        "matching": "predicate equal and both ends equal after case-folding; symmetric "
                    "predicates unordered; relations as prepared by the write path",
        "splits": {DEV: f"r0001-r{DEV_LAST:04d} (rules tuned here)",
                   HELDOUT: f"r{DEV_LAST + 1:04d} onwards (never read to write rules)"},
        "overall": overall,
        "by_split": by_split,
        "by_category": {c: _scores(rs) for c, rs in sorted(categories.items())},
        "gold_names": names,
        "emitted_relations": emitted,
        "cleared_relations": cleared,
        "rows_with_cleared_entity_fields": sum(bool(r["cleared"]) for r in rows),
        "rows_without_facts": sum(r["facts"] == 0 for r in rows),
    }
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


SPEC = register(EvalSpec(
    name=NAME,
    description="Relations (subject, predicate, object) the store receives after the write "
                "path's validation, against hand-labelled sentences: F1, precision, recall, "
                "mention recall, dev and held-out splits",
    metrics=(
        Metric("f1", "higher", TOLERANCE),
        Metric("precision", "higher", TOLERANCE),
        Metric("recall", "higher", TOLERANCE),
        Metric("mention_recall", "higher", TOLERANCE),
        Metric("f1_dev", "higher", TOLERANCE),
        Metric("precision_dev", "higher", TOLERANCE),
        Metric("recall_dev", "higher", TOLERANCE),
        Metric("f1_heldout", "higher", TOLERANCE),
        Metric("precision_heldout", "higher", TOLERANCE),
        Metric("recall_heldout", "higher", TOLERANCE),
        Metric("cleared_share", "lower", TOLERANCE),
    ),
    default_dataset=DATASET,
    load=load_relations,
    run=run_relations,
))
