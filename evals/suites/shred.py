"""The shred eval: does one assertion come out as one fact, and two as two?

Seed 000 §5's sentence-shredding defect: an extractor splits one assertion (an inventory
sentence, a compound statement) into several fragment facts, which the density check then
flags as conflicts with each other. The granularity fix (``Settings.granularity_fix``,
:func:`factstore.writepath.granularity.fold_fragments`) folds such fragments back.

The dataset (``evals/data/shred.jsonl``, described in ``evals/data/README.md``) holds
single-assertion captures (ids ``s…``, ``gold_count`` 1, one ``kind``) and controls (ids
``c…``, two or three assertions, ``kinds`` in text order). Each capture goes through the
write path's pure stages (:func:`factstore.writepath.prepare.prepare_capture`: gate,
extraction, anchor hygiene, outcome absorption, and the fold when it is on) twice, with the
fix off ("raw") and on ("fixed"); the extractor is asked once per capture and both runs
see the same answer, so a non-deterministic model cannot make the two disagree. No
database is touched.

Metrics (the first is the primary one; every rate has tolerance 0.01):

- ``shred_rate``: share of single-assertion captures yielding two or more facts, after
  the fix (lower is better);
- ``over_merge_rate``: share of controls yielding fewer facts than their gold count, after
  the fix (lower is better);
- ``shred_rate_raw`` and ``over_merge_rate_raw``: the same with the fix off;
- ``untyped_rate``: share of single-assertion captures yielding no fact at all.

A rate whose denominator is empty in the dataset at hand is None. The notes break
over-merge down by control shape and shred by single-assertion shape, before and after.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evals.jsonl import numbered_records
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.kinds import Kind
from factstore.writepath.prepare import prepare_capture

__all__ = ["DATASET", "SPEC", "load_shred", "run_shred"]

DATASET = DATA / "shred.jsonl"
SINGLE, CONTROL = "single", "control"
_KINDS = frozenset(k.value for k in Kind)
#: every rate may worsen by this much before ``factstore eval compare`` calls it a regression
TOLERANCE = 0.01
# A fixed context, so a strict-keyed cassette (whose key includes the prompt, and so the
# context's fields) replays across runs; the shred captures are utterances with no time.
_CONTEXT = ExtractionContext()


# -- the dataset ----------------------------------------------------------------------------


def _bad(path: Path, line: int, message: str) -> InvalidInput:
    return InvalidInput(f"shred dataset {path} line {line}: {message}")


def _kind(path: Path, line: int, value: object, field: str) -> str:
    if not isinstance(value, str) or value not in _KINDS:
        raise _bad(path, line, f"{field} {value!r} is not one of {', '.join(sorted(_KINDS))}")
    return value


def _row(path: Path, line: int, raw: object) -> dict[str, Any]:
    """One validated, normalised row: ``id``, ``role``, ``text``, ``gold_count``, ``kinds``,
    ``shape``."""
    if not isinstance(raw, dict):
        raise _bad(path, line, f"expected a JSON object, found {type(raw).__name__}")
    ident = raw.get("id")
    if not isinstance(ident, str) or not ident.strip():
        raise _bad(path, line, "missing 'id' (a non-empty string)")
    text, shape, gold = raw.get("text"), raw.get("shape"), raw.get("gold_count")
    if not isinstance(text, str) or not text.strip():
        raise _bad(path, line, f"{ident}: missing 'text' (a non-empty string)")
    if not isinstance(shape, str) or not shape.strip():
        raise _bad(path, line, f"{ident}: missing 'shape' (a non-empty string)")
    if isinstance(gold, bool) or not isinstance(gold, int) or gold < 1:
        raise _bad(path, line, f"{ident}: 'gold_count' must be a positive integer, "
                               f"found {gold!r}")
    # The id prefix is what tells the two kinds of line apart (evals/data/README.md).
    if ident.startswith("s"):
        if gold != 1:
            raise _bad(path, line, f"{ident}: a single-assertion capture has gold_count 1, "
                                   f"found {gold}")
        kinds = [_kind(path, line, raw.get("kind"), "kind")]
        role = SINGLE
    elif ident.startswith("c"):
        listed = raw.get("kinds")
        if not isinstance(listed, list) or len(listed) != gold or gold < 2:
            raise _bad(path, line, f"{ident}: a control lists 'kinds', one per assertion, "
                                   f"and gold_count == len(kinds) >= 2 (gold_count {gold}, "
                                   f"kinds {listed!r})")
        kinds = [_kind(path, line, k, "kinds item") for k in listed]
        role = CONTROL
    else:
        raise _bad(path, line, f"id {ident!r} must start with 's' (single assertion) or 'c' "
                               "(control)")
    return {"id": ident, "role": role, "text": text, "gold_count": gold, "kinds": kinds,
            "shape": shape}


def load_shred(path: Path) -> list[dict[str, Any]]:
    """Read and validate a shred dataset (JSON Lines); InvalidInput names the bad line."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(f"shred dataset {path} is not a file; pass a .jsonl file such as "
                           f"{DATASET}")
    try:
        records = numbered_records(path, lambda line, msg: _bad(path, line, msg))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read the shred dataset {path}: {exc}") from None
    rows: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, raw in records:
        row = _row(path, number, raw)
        if row["id"] in seen:
            raise _bad(path, number, f"id {row['id']!r} repeats line {seen[row['id']]}")
        seen[row["id"]] = number
        rows.append(row)
    if not rows:
        raise InvalidInput(f"shred dataset {path} has no rows")
    return rows


# -- the run --------------------------------------------------------------------------------


class _AskOnce:
    """The extractor under test, asked at most once: later calls return the first answer,
    so the raw and the fixed pass work on the very same extraction."""

    def __init__(self, inner: Extractor) -> None:
        self.name = inner.name
        self._inner = inner
        self._facts: list[ExtractedFact] | None = None

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        if self._facts is None:
            self._facts = list(self._inner.extract(text, context))
        return list(self._facts)


def _rate(flags: Iterable[bool]) -> float | None:
    values = list(flags)
    return sum(values) / len(values) if values else None


def _by_shape(items: Sequence[Mapping[str, Any]], role: str, flag: str) -> dict[str, float]:
    groups: dict[str, list[bool]] = defaultdict(list)
    for item in items:
        if item["role"] == role:
            groups[item["shape"]].append(bool(item[flag]))
    return {shape: sum(v) / len(v) for shape, v in sorted(groups.items())}


def run_shred(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Count each capture's facts with the fix off and on; rates as in the module doc."""
    raw_settings = ctx.settings.replace(granularity_fix=False)
    fixed_settings = ctx.settings.replace(granularity_fix=True)
    rows: list[dict[str, Any]] = []
    for item in items:
        once = _AskOnce(ctx.extractor)
        raw = prepare_capture(item["text"], _CONTEXT, once, raw_settings)
        fixed = prepare_capture(item["text"], _CONTEXT, once, fixed_settings)
        single = item["role"] == SINGLE
        raw_count, fixed_count = len(raw.facts), len(fixed.facts)
        rows.append({
            "id": item["id"],
            "role": item["role"],
            "shape": item["shape"],
            "gold_count": item["gold_count"],
            "gold_kinds": list(item["kinds"]),
            "raw_count": raw_count,
            "fixed_count": fixed_count,
            "kinds": [f.kind.value for f in fixed.facts],
            "shredded": single and fixed_count >= 2,
            "over_merged": not single and fixed_count < item["gold_count"],
            "shredded_raw": single and raw_count >= 2,
            "over_merged_raw": not single and raw_count < item["gold_count"],
            "untyped": single and fixed_count == 0,
            "dropped": len(fixed.dropped),
            "statements": [f.statement for f in fixed.facts],
        })
    singles = [r for r in rows if r["role"] == SINGLE]
    controls = [r for r in rows if r["role"] == CONTROL]
    metrics = {
        "shred_rate": _rate(r["shredded"] for r in singles),
        "over_merge_rate": _rate(r["over_merged"] for r in controls),
        "shred_rate_raw": _rate(r["shredded_raw"] for r in singles),
        "over_merge_rate_raw": _rate(r["over_merged_raw"] for r in controls),
        "untyped_rate": _rate(r["untyped"] for r in singles),
    }
    notes = {
        "singles": len(singles),
        "controls": len(controls),
        "raw_and_fixed": "raw: Settings.granularity_fix=False; fixed: granularity_fix=True; "
                         "the same extraction feeds both",
        "over_merge_rate_by_shape": _by_shape(rows, CONTROL, "over_merged"),
        "over_merge_rate_raw_by_shape": _by_shape(rows, CONTROL, "over_merged_raw"),
        "shred_rate_by_shape": _by_shape(rows, SINGLE, "shredded"),
        "shred_rate_raw_by_shape": _by_shape(rows, SINGLE, "shredded_raw"),
    }
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


SPEC = register(EvalSpec(
    name="shred",
    description="Shred rate (one assertion split into several facts) and over-merge rate, "
                "before and after the granularity fix",
    metrics=(
        Metric("shred_rate", "lower", TOLERANCE),
        Metric("over_merge_rate", "lower", TOLERANCE),
        Metric("shred_rate_raw", "lower", TOLERANCE),
        Metric("over_merge_rate_raw", "lower", TOLERANCE),
        Metric("untyped_rate", "lower", TOLERANCE),
    ),
    default_dataset=DATASET,
    load=load_shred,
    run=run_shred,
))
