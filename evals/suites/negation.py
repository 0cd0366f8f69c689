"""Eval ``negation-identity``: the "fact 74" and "fact 161" shapes, and the guards that catch them.

Seed 000 §7's first open question holds two production incidents whose cause is
unconfirmed: a fact written with its polarity flipped ("fact 74") and a fact attached to the
wrong subject when a capture named two ("fact 161"). The write path guards against both by
comparing a statement with the verbatim quote it cites:
:func:`factstore.writepath.polarity.polarity_mismatch` and
:func:`factstore.writepath.identity.identity_mismatch`. This eval measures those guards.

On the project set (``evals/data/negation.jsonl``, the default) the runner is pure -- no store,
no model: it replays the set's hand-written outputs through the guards.

- ``negation`` rows: an inversion is **caught** when
  ``polarity_mismatch(statement_inverted, text)`` reports a reason, a **false flag** when
  ``polarity_mismatch(statement_faithful, text)`` does. Rows whose note starts with
  ``lexical inversion`` flip polarity through an antonym (healthy / unhealthy, keep / drop), so
  no negation marker changes; a parity guard is expected to miss them, and they are reported
  on their own (``lexical_inversions_caught``) next to the marker inversions.
- ``identity`` rows: caught when ``identity_mismatch(statement_mangled, quote)`` reports a
  reason, a false flag when ``identity_mismatch(statement_faithful, quote)`` does.
- ``guards_false_flag_rate`` runs *both* guards over every faithful statement of the set, as
  the write path does for every fact.
- The extractor under test (``--extractor``, or a ``--replay`` cassette of a model) is also run
  on each distinct capture, and each fact it returns is checked against its own quote by
  both guards. A flag there is a reproduction candidate of the incidents (or a false flag):
  ``extractor_polarity_flags`` and ``extractor_identity_flags`` count them and the notes
  list them.

On an external set (``--dataset``), pairs come from :func:`evals.loaders.load_any` and are
judged by :func:`evals.loaders.polarity_truth`: the original side is the quote, the derived
side (SICK's sentence B, ScoNe's hypothesis, CondaQA's edited passage, Hossain's negated
sentence) is the statement. Polarity-preserving pairs (SICK entailment, ScoNe, CondaQA
paraphrase edits) give ``false_flag_rate``; inverting pairs (CondaQA affirmative edits,
Hossain's sentence-versus-negation pairs from :func:`evals.loaders.negation_inversions`) give
``inversions_caught``. For CondaQA the edited sentence is compared with the original sentence
when the loader could recover both (a quote is a span, not a passage), else the passages. A
CondaQA cue without a negation operator ("rarely", "unofficial", "prohibit") is counted as a
lexical inversion. ``identity_false_flag_rate`` on the polarity-preserving pairs is a proxy:
those pairs are not statements and quotes, and SICK and ScoNe reword subjects on purpose
("the man" -> "the person"), which the identity guard's subject rule reads as a swap.

With ``--record`` the run appends one evidence note to open question 1. It never changes the
entry's status: catching synthetic reproductions of the *shapes* says nothing about what
caused the production incidents, so the cause stays unconfirmed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evals.jsonl import first_record
from evals.loaders import Pair, load_any, negation_inversions, polarity_truth
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractionContext
from factstore.writepath.identity import identity_mismatch
from factstore.writepath.polarity import negation_cues, polarity_mismatch

__all__ = ["NAME", "SPEC", "load", "run"]

NAME = "negation-identity"
#: open question 1 of seed 000 §7: extractor negation-inversion and identity-mangle
QUESTION = 1
RECORDED_BY = f"eval:{NAME}"
LEXICAL = "lexical inversion"

# -- loading ---------------------------------------------------------------------------------


def _is_project_file(path: Path) -> bool:
    """A JSON Lines file whose first record has the project set's ``shape`` field."""
    first = first_record(path)
    return first is not None and first.get("shape") in ("negation", "identity")


_REQUIRED = {
    "negation": ("text", "statement_faithful", "statement_inverted"),
    "identity": ("text", "statement_faithful", "statement_mangled", "quote"),
}


def _project_rows(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path}, line {number}: not valid JSON ({exc.msg})") from exc
        shape = record.get("shape")
        if shape not in _REQUIRED:
            raise InvalidInput(f"{path}, line {number}: shape must be 'negation' or "
                               f"'identity', found {shape!r}")
        missing = [key for key in _REQUIRED[shape] if not isinstance(record.get(key), str)]
        if missing:
            raise InvalidInput(f"{path}, line {number}: a {shape} row needs "
                               f"{', '.join(_REQUIRED[shape])}; missing {', '.join(missing)}")
        record.setdefault("id", f"line{number}")
        rows.append(record)
    return rows


def _is_lexical_cue(cue: Any) -> bool | None:
    """A CondaQA cue with no negation operator in it ("rarely", "unofficial") is lexical."""
    if not isinstance(cue, str) or not cue.strip():
        return None
    return not negation_cues(cue)


def _pair_row(pair: Pair) -> dict[str, Any]:
    quote, statement, unit = pair.a, pair.b, "pair"
    lexical: bool | None = None
    if pair.source == "condaqa":
        original, edited = pair.meta.get("original_sentence"), pair.meta.get("edited_sentence")
        if isinstance(original, str) and isinstance(edited, str) and original and edited:
            quote, statement, unit = original, edited, "sentence"
        else:
            unit = "passage"
        lexical = _is_lexical_cue(pair.meta.get("cue"))
    elif pair.source == "hossain":
        lexical = False  # the set adds an explicit negation marker
    return {"id": pair.id, "shape": "pair", "source": pair.source, "source_label": pair.label,
            "quote": quote, "statement": statement, "unit": unit,
            "preserved": polarity_truth(pair), "lexical": lexical}


def load(path: Path) -> list[dict[str, Any]]:
    """The rows at ``path``: the project's negation.jsonl, or a pair dataset
    :func:`evals.loaders.load_any` reads (SICK, ScoNe, CondaQA, Hossain, ...).

    Every pair is returned; ``preserved`` is None for a pair :func:`polarity_truth` does not
    judge (the runner counts and skips those). Hossain sets also get their derived
    sentence-versus-negation pairs.
    """
    path = Path(path)
    if _is_project_file(path):
        return _project_rows(path)
    pairs = [p for p in load_any(path) if isinstance(p, Pair)]
    if not pairs:
        raise InvalidInput(f"{path}: {NAME} needs the project's negation.jsonl or sentence "
                           "pairs (SICK, ScoNe, CondaQA, Hossain), and this dataset has none")
    if any(p.source == "hossain" for p in pairs):
        pairs = pairs + negation_inversions(pairs)
    return [_pair_row(p) for p in pairs]


# -- scoring ---------------------------------------------------------------------------------


def _rate(flags: Iterable[bool]) -> float | None:
    values = list(flags)
    return sum(values) / len(values) if values else None


def _guards(statement: str, quote: str) -> list[str]:
    """Every guard's reason for refusing ``statement`` as a reading of ``quote``."""
    return [reason for reason in (polarity_mismatch(statement, quote),
                                  identity_mismatch(statement, quote)) if reason]


def _negation_item(row: Mapping[str, Any]) -> dict[str, Any]:
    inverted = polarity_mismatch(row["statement_inverted"], row["text"])
    faithful = polarity_mismatch(row["statement_faithful"], row["text"])
    return {"id": row["id"], "shape": "negation", "kind": row.get("kind"),
            "note": row.get("note"), "polarity": row.get("polarity"),
            "lexical": str(row.get("note") or "").startswith(LEXICAL),
            "caught": inverted is not None, "false_flag": faithful is not None,
            "reason_caught": inverted, "reason_false_flag": faithful,
            "faithful_guards": _guards(row["statement_faithful"], row["text"])}


def _identity_item(row: Mapping[str, Any]) -> dict[str, Any]:
    mangled = identity_mismatch(row["statement_mangled"], row["quote"])
    faithful = identity_mismatch(row["statement_faithful"], row["quote"])
    return {"id": row["id"], "shape": "identity", "kind": row.get("kind"),
            "subjects": list(row.get("subjects") or []),
            "caught": mangled is not None, "false_flag": faithful is not None,
            "reason_caught": mangled, "reason_false_flag": faithful,
            "faithful_guards": _guards(row["statement_faithful"], row["quote"])}


def _pair_item(row: Mapping[str, Any]) -> dict[str, Any]:
    reason = polarity_mismatch(row["statement"], row["quote"])
    preserved = bool(row["preserved"])
    identity = identity_mismatch(row["statement"], row["quote"]) if preserved else None
    return {"id": row["id"], "shape": "pair", "source": row["source"],
            "source_label": row["source_label"], "unit": row["unit"],
            "preserved": preserved, "lexical": row.get("lexical"),
            "caught": None if preserved else reason is not None,
            "false_flag": reason is not None if preserved else None,
            "identity_false_flag": identity is not None if preserved else None,
            "reason_caught": None if preserved else reason,
            "reason_false_flag": reason if preserved else None,
            "reason_identity": identity}


def _extractor_pass(ctx: EvalContext, rows: Sequence[Mapping[str, Any]]
                    ) -> tuple[int, list[dict[str, Any]]]:
    """Run the extractor under test on each distinct capture and check each fact it returns
    against its own quote. Returns the fact count and the flagged facts."""
    captures: dict[str, str] = {}
    for row in rows:
        captures.setdefault(row["text"], str(row["id"]))
    facts = 0
    flagged = []
    for text, first_id in captures.items():
        for fact in ctx.extractor.extract(text, ExtractionContext()):
            facts += 1
            polarity = polarity_mismatch(fact.statement, fact.quote)
            identity = identity_mismatch(fact.statement, fact.quote)
            if polarity or identity:
                flagged.append({"capture": first_id, "statement": fact.statement,
                                "quote": fact.quote, "polarity": polarity,
                                "identity": identity})
    return facts, flagged


def run(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Replay the set through the guards (and the extractor) and, with ``--record``, file the
    evidence on open question 1."""
    negation = [r for r in items if r.get("shape") == "negation"]
    identity = [r for r in items if r.get("shape") == "identity"]
    pairs = [r for r in items if r.get("shape") == "pair" and r.get("preserved") is not None]
    excluded = sum(1 for r in items if r.get("shape") == "pair" and r.get("preserved") is None)
    if not (negation or identity or pairs):
        raise InvalidInput(f"{NAME}: nothing to score in {len(items)} row(s): no negation or "
                           "identity rows and no pair with a polarity truth")

    out = ([_negation_item(r) for r in negation] + [_identity_item(r) for r in identity]
           + [_pair_item(r) for r in pairs])
    inversions = [i for i in out if i["shape"] in ("negation", "pair") and i["caught"] is not None]
    preserved = [i for i in out if i["shape"] in ("negation", "pair")
                 and i["false_flag"] is not None]
    mangles = [i for i in out if i["shape"] == "identity"]
    faithful_identity = ([i["false_flag"] for i in mangles]
                         + [i["identity_false_flag"] for i in out if i["shape"] == "pair"
                            and i["identity_false_flag"] is not None])
    # Every faithful statement against both guards: the write path runs both on each fact.
    faithful_any = ([bool(i["faithful_guards"]) for i in out
                     if i["shape"] in ("negation", "identity")]
                    + [bool(i["false_flag"] or i["identity_false_flag"]) for i in out
                       if i["shape"] == "pair" and i["preserved"]])

    facts, flagged = _extractor_pass(ctx, negation + identity) if negation or identity \
        else (None, [])
    metrics: dict[str, float | None] = {
        "inversions_caught": _rate(i["caught"] for i in inversions),
        "false_flag_rate": _rate(i["false_flag"] for i in preserved),
        "identity_caught": _rate(i["caught"] for i in mangles),
        "identity_false_flag_rate": _rate(faithful_identity),
        "lexical_inversions_caught": _rate(i["caught"] for i in inversions if i["lexical"]),
        "marker_inversions_caught": _rate(i["caught"] for i in inversions
                                          if i["lexical"] is False),
        "guards_false_flag_rate": _rate(faithful_any),
        "extractor_facts": facts,
        "extractor_polarity_flags": None if facts is None else
        sum(1 for f in flagged if f["polarity"]),
        "extractor_identity_flags": None if facts is None else
        sum(1 for f in flagged if f["identity"]),
    }
    counts = {
        "inversions": len(inversions), "inversions_caught": sum(i["caught"] for i in inversions),
        "lexical_inversions": sum(1 for i in inversions if i["lexical"]),
        "lexical_caught": sum(i["caught"] for i in inversions if i["lexical"]),
        "polarity_preserving": len(preserved),
        "false_flags": sum(i["false_flag"] for i in preserved),
        "identity_mangles": len(mangles), "identity_caught": sum(i["caught"] for i in mangles),
        "identity_faithful": len(faithful_identity),
        "identity_false_flags": sum(faithful_identity),
        "faithful_statements": len(faithful_any), "guard_false_flags": sum(faithful_any),
        "pairs_excluded": excluded,
    }
    notes: dict[str, Any] = {
        "counts": counts,
        "by_source": _by_source(out),
        "missed": [{"id": i["id"], "shape": i["shape"]} for i in out
                   if i["caught"] is False and i["shape"] != "pair"],
        "false_flags": [{"id": i["id"], "shape": i["shape"], "reason": i["reason_false_flag"]}
                        for i in out if i["shape"] != "pair" and i["faithful_guards"]],
        "extractor": ctx.extractor.name,
        "extractor_flags": flagged,
        "run_id": ctx.run_id,
    }
    if ctx.record and ctx.evidence_store is not None:
        notes["evidence"] = _record(ctx, counts, facts, flagged)
    return EvalOutcome(items=out, metrics=metrics, notes=notes)


def _by_source(out: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per-source (and, for CondaQA, per-unit) caught and false-flag counts of the pairs."""
    table: dict[str, dict[str, Any]] = {}
    for item in out:
        if item["shape"] != "pair":
            continue
        key = f"{item['source']}/{item['unit']}"
        entry = table.setdefault(key, {"inverted": 0, "caught": 0, "preserved": 0,
                                       "false_flags": 0})
        if item["preserved"]:
            entry["preserved"] += 1
            entry["false_flags"] += bool(item["false_flag"])
        else:
            entry["inverted"] += 1
            entry["caught"] += bool(item["caught"])
    return table


# -- evidence --------------------------------------------------------------------------------


def _runs_so_far(store: Any) -> int:
    """How many evidence notes this eval already filed on question 1 (read through the
    public API), so the note can say which run this is."""
    for question in store.open_questions():
        if question.id == QUESTION:
            return sum(1 for e in question.evidence if e.recorded_by == RECORDED_BY)
    return 0


def _record(ctx: EvalContext, counts: Mapping[str, int], facts: int | None,
            flagged: Sequence[Mapping[str, Any]]) -> str:
    """Append this run's reproductions to open question 1; never resolve it."""
    store = ctx.evidence_store
    run_number = _runs_so_far(store) + 1
    if facts is None:
        extractor = (f"extractor {ctx.extractor.name} not exercised (an external pair set has "
                     "no captures)")
    else:
        extractor = (f"extractor {ctx.extractor.name} on the set's captures: {facts} fact(s), "
                     f"{sum(1 for f in flagged if f['polarity'])} flagged by the polarity guard "
                     f"and {sum(1 for f in flagged if f['identity'])} by the identity guard")
    note = (
        f"eval {NAME} run {ctx.run_id} (run {run_number} of this eval on this entry): dataset "
        f"{ctx.dataset}. {extractor}. Reproductions found: {counts['inversions_caught']} of "
        f"{counts['inversions']} inversions (\"fact 74\" shape; lexical "
        f"{counts['lexical_caught']} of {counts['lexical_inversions']}) and "
        f"{counts['identity_caught']} of {counts['identity_mangles']} identity mangles "
        f"(\"fact 161\" shape) reproduced by replayed outputs and caught by the guards; false "
        f"flags {counts['false_flags']} of {counts['polarity_preserving']} polarity-preserving "
        f"and {counts['identity_false_flags']} of {counts['identity_faithful']} identity "
        "controls. The cause of the production incidents is still unconfirmed: these are "
        "synthetic reproductions of the shapes, not of their cause. Status left unchanged."
    )
    store.update_open_question(QUESTION, note=note, recorded_by=RECORDED_BY)
    return note


SPEC = register(EvalSpec(
    name=NAME,
    description="Polarity and identity guards on replayed 'fact 74' / 'fact 161' shapes "
                "(open question 1)",
    metrics=(
        Metric("inversions_caught", "higher", 0.0),
        Metric("false_flag_rate", "lower", 0.005),
        Metric("identity_caught", "higher", 0.0),
        Metric("identity_false_flag_rate", "lower", 0.005),
        Metric("lexical_inversions_caught", "higher", 0.0),
        Metric("marker_inversions_caught", "higher", 0.0),
        Metric("guards_false_flag_rate", "lower", 0.005),
        # A count of facts is context, not a score; a tolerance this wide never gates.
        Metric("extractor_facts", "higher", 1e9),
        # A new flag on the extractor's own output is a reproduction candidate: gate on it.
        Metric("extractor_polarity_flags", "lower", 0.0),
        Metric("extractor_identity_flags", "lower", 0.0),
    ),
    default_dataset=DATA / "negation.jsonl",
    load=load,
    run=run,
))
