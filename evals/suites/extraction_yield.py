"""The extraction-yield eval: how many facts does one real-style sentence come out as?

The dataset (``evals/data/sentences.jsonl``) is a project-written set of sentences in the
style of real conversation and work chat: ops chat, planning, personal chat. Every row is
``{"id", "text", "group", "gold_facts", "kinds"?, "note"?}`` in one of three groups:

- ``one-fact``: the sentence asserts exactly one storable fact (``gold_facts`` 1; ``kinds``
  names its kind). Some are long, negated, or joined by "and"/"since"/"which" and still make
  one assertion, so an extractor that counts clauses shreds them;
- ``two-fact``: two independent facts joined by "and", "but", ";", "," or "which"
  (``gold_facts`` 2; ``kinds`` in text order);
- ``no-fact``: greetings, questions, thanks, backchannel: nothing to store (``gold_facts``
  0; no ``kinds``).

Each sentence goes through the write path's pure stages
(:func:`factstore.writepath.prepare.prepare_capture` with the extractor under test and the
run's settings: anchor hygiene, outcome absorption, the granularity fold), and the facts it
keeps are counted. No database is touched and nothing is embedded.

Metrics (the first is the primary one; every rate has tolerance 0.01; targets in the notes):

- ``no_fact_rate`` (lower): one-fact sentences yielding no fact / one-fact sentences
  (target <= 0.15);
- ``shred_rate`` (lower): one-fact sentences yielding two or more / one-fact sentences
  (target <= 0.05);
- ``over_merge_rate`` (lower): two-fact sentences yielding fewer than two / two-fact
  sentences (target <= 0.05);
- ``two_fact_exact`` (higher): two-fact sentences yielding exactly two / two-fact sentences;
- ``false_fact_rate`` (lower): no-fact sentences yielding any fact / no-fact sentences;
- ``kind_accuracy`` (higher): of the one-fact sentences yielding exactly one fact, the share
  whose fact has the gold kind.

A rate whose denominator is empty in the dataset at hand is None. The notes carry the
counts, the no-fact rate by gold kind, and ``ms_per_sentence_p50`` (the median wall time of
one sentence's ``prepare_capture``, which is mostly the extraction): a note, not a metric,
since timing depends on the machine and is no regression gate here.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evals.jsonl import numbered_records
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractionContext
from factstore.kinds import Kind
from factstore.writepath.prepare import prepare_capture

__all__ = ["DATASET", "GROUPS", "SPEC", "TARGETS", "load_sentences", "run_extraction_yield"]

DATASET = DATA / "sentences.jsonl"
ONE, TWO, NONE = "one-fact", "two-fact", "no-fact"
#: each group and the number of facts every one of its sentences asserts
GROUPS: dict[str, int] = {ONE: 1, TWO: 2, NONE: 0}
_KINDS = frozenset(k.value for k in Kind)
#: every rate may worsen by this much before ``factstore eval compare`` calls it a regression
TOLERANCE = 0.01
#: what a good extractor reaches (recorded in the notes; compare gates on regressions only)
TARGETS = {"no_fact_rate": "<= 0.15", "shred_rate": "<= 0.05", "over_merge_rate": "<= 0.05"}
# A fixed context, so a strict-keyed cassette (its key includes the context) replays across
# runs; the sentences are utterances with no time of their own.
_CONTEXT = ExtractionContext()


# -- the dataset ----------------------------------------------------------------------------


def _bad(path: Path, line: int, message: str) -> InvalidInput:
    return InvalidInput(f"sentences dataset {path} line {line}: {message}")


def _kinds(path: Path, line: int, ident: str, raw: Mapping[str, Any], gold: int) -> list[str]:
    """The row's gold kinds: absent (``[]``), or one valid kind per fact."""
    listed = raw.get("kinds")
    if listed is None:
        return []
    if not isinstance(listed, list) or len(listed) != gold:
        raise _bad(path, line, f"{ident}: 'kinds' lists one kind per fact ({gold} here), "
                               f"found {listed!r}; fix it or leave 'kinds' out")
    for kind in listed:
        if not isinstance(kind, str) or kind not in _KINDS:
            raise _bad(path, line, f"{ident}: kinds item {kind!r} is not one of "
                                   f"{', '.join(sorted(_KINDS))}")
    return list(listed)


def _row(path: Path, line: int, raw: object) -> dict[str, Any]:
    """One validated row: ``id``, ``group``, ``text``, ``gold_facts``, ``kinds``, ``note``."""
    if not isinstance(raw, dict):
        raise _bad(path, line, f"expected a JSON object, found {type(raw).__name__}")
    ident = raw.get("id")
    if not isinstance(ident, str) or not ident.strip():
        raise _bad(path, line, "missing 'id' (a non-empty string)")
    text, group, gold = raw.get("text"), raw.get("group"), raw.get("gold_facts")
    if not isinstance(text, str) or not text.strip():
        raise _bad(path, line, f"{ident}: missing 'text' (the sentence, a non-empty string)")
    if group not in GROUPS:
        raise _bad(path, line, f"{ident}: 'group' {group!r} is not one of "
                               f"{', '.join(GROUPS)}")
    if isinstance(gold, bool) or not isinstance(gold, int):
        raise _bad(path, line, f"{ident}: 'gold_facts' must be an integer "
                               f"({GROUPS[group]} for group {group}), found {gold!r}")
    if gold != GROUPS[group]:
        raise _bad(path, line, f"{ident}: a {group} row has gold_facts {GROUPS[group]}, "
                               f"found {gold}; move it to the right group")
    note = raw.get("note")
    if note is not None and not isinstance(note, str):
        raise _bad(path, line, f"{ident}: 'note' must be a string, found {note!r}")
    return {"id": ident, "group": group, "text": text, "gold_facts": gold,
            "kinds": _kinds(path, line, ident, raw, gold), "note": note}


def load_sentences(path: Path) -> list[dict[str, Any]]:
    """Read and validate a sentences dataset (JSON Lines); InvalidInput names the bad line."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(f"sentences dataset {path} is not a file; pass a .jsonl file such "
                           f"as {DATASET}")
    try:
        records = numbered_records(path, lambda line, msg: _bad(path, line, msg))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read the sentences dataset {path}: {exc}") from None
    rows: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, raw in records:
        row = _row(path, number, raw)
        if row["id"] in seen:
            raise _bad(path, number, f"id {row['id']!r} repeats line {seen[row['id']]}; "
                                     "give it a new id")
        seen[row["id"]] = number
        rows.append(row)
    if not rows:
        raise InvalidInput(f"sentences dataset {path} has no rows")
    return rows


# -- the run --------------------------------------------------------------------------------


def _outcome(group: str, facts: int) -> str:
    """'ok', or what went wrong for a sentence of this group that yielded ``facts``."""
    if group == NONE:
        return "false-fact" if facts else "ok"
    gold = GROUPS[group]
    if facts == 0 and group == ONE:
        return "no-fact"
    if facts < gold:
        return "over-merge"
    return "shred" if facts > gold else "ok"


def _rate(flags: Iterable[bool]) -> float | None:
    values = list(flags)
    return sum(values) / len(values) if values else None


def _measure(ctx: EvalContext, item: Mapping[str, Any]) -> tuple[dict[str, Any], float]:
    """One sentence's item row, and how long its prepare_capture took in milliseconds."""
    started = time.perf_counter()
    prepared = prepare_capture(item["text"], _CONTEXT, ctx.extractor, ctx.settings)
    elapsed = (time.perf_counter() - started) * 1000.0
    facts = len(prepared.facts)
    return {
        "id": item["id"],
        "group": item["group"],
        "text": item["text"],
        "gold_facts": item["gold_facts"],
        "gold_kinds": list(item["kinds"]),
        "facts": facts,
        "statements": [f.statement for f in prepared.facts],
        "kinds": [f.kind.value for f in prepared.facts],
        "dropped": len(prepared.dropped),
        "outcome": _outcome(item["group"], facts),
    }, elapsed


def _no_fact_rate_by_kind(ones: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    flags: dict[str, list[bool]] = defaultdict(list)
    for row in ones:
        if row["gold_kinds"]:
            flags[row["gold_kinds"][0]].append(row["facts"] == 0)
    return {kind: sum(v) / len(v) for kind, v in sorted(flags.items())}


def _metrics(by_group: Mapping[str, list[dict[str, Any]]]) -> dict[str, float | None]:
    ones, twos, nones = by_group[ONE], by_group[TWO], by_group[NONE]
    typed = [r for r in ones if r["facts"] == 1 and r["gold_kinds"]]
    return {
        "no_fact_rate": _rate(r["facts"] == 0 for r in ones),
        "shred_rate": _rate(r["facts"] >= 2 for r in ones),
        "over_merge_rate": _rate(r["facts"] < 2 for r in twos),
        "two_fact_exact": _rate(r["facts"] == 2 for r in twos),
        "false_fact_rate": _rate(r["facts"] >= 1 for r in nones),
        "kind_accuracy": _rate(r["kinds"] == r["gold_kinds"] for r in typed),
    }


def run_extraction_yield(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Count each sentence's kept facts; rates as in the module doc."""
    rows: list[dict[str, Any]] = []
    timings: list[float] = []
    for item in items:
        row, elapsed = _measure(ctx, item)
        rows.append(row)
        timings.append(elapsed)
    by_group: dict[str, list[dict[str, Any]]] = {group: [] for group in GROUPS}
    for row in rows:
        by_group[row["group"]].append(row)
    notes = {
        "targets": dict(TARGETS),
        "sentences_by_group": {group: len(r) for group, r in by_group.items()},
        "outcomes_by_group": {group: dict(sorted(Counter(x["outcome"] for x in r).items()))
                              for group, r in by_group.items()},
        "no_fact_rate_by_kind": _no_fact_rate_by_kind(by_group[ONE]),
        "facts_kept": sum(r["facts"] for r in rows),
        "facts_dropped": sum(r["dropped"] for r in rows),
        "ms_per_sentence_p50": round(statistics.median(timings), 3) if timings else None,
        "granularity_fix": ctx.settings.granularity_fix,
    }
    return EvalOutcome(items=rows, metrics=_metrics(by_group), notes=notes)


SPEC = register(EvalSpec(
    name="extraction-yield",
    description="Extraction yield on real-style sentences: one-fact sentences yielding none "
                "or several, two-fact sentences merged, facts invented from chit-chat",
    metrics=(
        Metric("no_fact_rate", "lower", TOLERANCE),
        Metric("shred_rate", "lower", TOLERANCE),
        Metric("over_merge_rate", "lower", TOLERANCE),
        Metric("two_fact_exact", "higher", TOLERANCE),
        Metric("false_fact_rate", "lower", TOLERANCE),
        Metric("kind_accuracy", "higher", TOLERANCE),
    ),
    default_dataset=DATASET,
    load=load_sentences,
    run=run_extraction_yield,
))
