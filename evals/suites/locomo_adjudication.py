"""Eval ``locomo-adjudication``: what the write path's adjudication does to a real
conversation remembered turn by turn (graphiti#1728 inside one store).

Every turn of a LoCoMo conversation is remembered in order into a fresh store of its own (one
store per conversation, ``ctx.open_store()``): its chat line ``Speaker: text``, its
``source_ref`` ``<sample_id>:<dia_id>``, said at its session's date (UTC). Then, per
conversation and overall:

- **facts**: every fact row the conversation wrote, whatever its verdict;
- **superseded**: facts another fact of the same conversation superseded (a revision or an
  explicit supersession: nobody was asked), and among them the **unrelated** ones by a
  machine pre-screen (:func:`about_something_else`): the superseding fact has the same
  asserter and its statement shares no content word with the superseded one beyond the
  subject's own words, each saying at least two ("Sam loves hiking" superseded by "Sam
  wishes your motivation never goes anywhere"; "is closed" / "is open" is a value). The
  pre-screen is crude on purpose (a word test, independent of the density check it
  measures); the figure that counts is a person's judgement of a
  deterministic random sample of :data:`SAMPLE_SIZE` superseded pairs
  (:func:`supersession_sample`, seeded by :data:`SAMPLE_SEED`), which the run keeps in its
  notes and writes as JSONL to ``$FACTSTORE_HOME/evals/samples/<run_id>.supersession.jsonl``;
- **open conflicts** per 1,000 facts (and how many rest on a negation difference alone, and
  how many pair two facts of one asserter);
- **polarity-guard parks** and their share of facts, every parked fact's quote listed (a
  person decides which are false alarms);
- **contested share**: of every item ``Store.recall(question, k=10)`` serves for the
  conversation's own QA questions (all categories), the share labelled ``contested``;
- watched beside them, what a looser reading could merge instead: claims taken as
  testimony for a fact with another statement (``restated_near``), and those of the two
  whose negation parity differs (``restated_across_negation``, each listed).

Targets (the issue): unrelated supersessions in the judged sample <= 1 of 50, open
conflicts <= 5 per 1,000 facts, parks <= 0.5% of facts (and false parks <= 5% of parks, a
person's reading of the listed quotes), contested share <= 3%.

The default dataset is the project's LoCoMo-format fixture; the figures that matter come
from the real conversations: ``--dataset ../shared/datasets/locomo``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evals.registry import EvalContext, EvalOutcome, EvalSpec, Metric, register
from evals.suites.locomo import DATASET, load_conversations
from evals.suites.locomo_retrieval import turn_captures
from factstore.statements import normalise_statement
from factstore.writepath import polarity

__all__ = ["NAME", "SAMPLE_SEED", "SAMPLE_SIZE", "SPEC", "TARGETS", "about_something_else",
           "content_words", "run_locomo_adjudication", "supersession_sample"]

NAME = "locomo-adjudication"
#: how many superseded pairs are drawn for a person to judge
SAMPLE_SIZE = 50
#: the sample's seed: the same run on the same data draws the same pairs
SAMPLE_SEED = 1728
#: recall depth per question
K = 10
#: captures per remember_many batch
BATCH = 64
TARGETS = {"unrelated_in_judged_sample": 1, "open_conflicts_per_1000": 5.0,
           "park_share": 0.005, "false_park_share": 0.05, "contested_share": 0.03}
TOLERANCE = 0.002

#: Words that carry no subject matter for the pre-screen: function words, and verbs and
#: adverbs of chat that any two statements share ("really", "so", "get").
_NOT_CONTENT = polarity.FUNCTION_WORDS | frozenset((
    "not", "no", "never", "get", "got", "gets", "getting", "go", "going", "went", "make",
    "made", "thing", "things", "lot", "lots", "much", "many", "even", "always", "such",
    "like", "sure", "way", "how", "when", "where", "why", "who", "time", "both", "other",
    "own", "every", "each", "something", "anything", "everything", "someone", "they're",
    "i'm", "it's", "that's", "you're", "we're", "him", "hers", "himself", "herself",
    "themselves", "myself", "yourself", "ourselves", "let", "know", "think", "feel",
    "felt", "want", "wanted", "really", "definitely", "totally", "super", "pretty",
))
_WORD = re.compile(r"[a-z][a-z'-]*")


def content_words(statement: str, ignore: Iterable[str] = ()) -> tuple[str, ...]:
    """The statement's content words, lower case, without ``ignore`` (the subject's words)."""
    skip = {w.lower() for w in ignore}
    return tuple(w.removesuffix("'s") for w in _WORD.findall(statement.lower())
                 if w.removesuffix("'s") not in _NOT_CONTENT and w.removesuffix("'s") not in skip
                 and len(w) > 1)


def about_something_else(old: str, new: str, subject_words: Iterable[str] = ()) -> bool:
    """The pre-screen: the two statements share no content word (up to inflection) beyond
    the subject's own words, and each says at least two (a lone word each side is a value
    replaced: "is closed" / "is open"). Crude, and meant to be: it flags pairs for a person
    to read."""
    subject = tuple(subject_words)
    a, b = content_words(old, subject), content_words(new, subject)
    if len(a) < 2 or len(b) < 2:
        return False  # nothing but a value to compare: not flagged
    return not any(polarity.same_word(x, y, wordnet=True) or polarity.same_stem(x, y)
                   for x in a for y in b)


def supersession_sample(pairs: Sequence[Mapping[str, Any]], size: int = SAMPLE_SIZE,
                        seed: int = SAMPLE_SEED) -> list[Mapping[str, Any]]:
    """A deterministic random sample of superseded pairs, in a stable order (by id)."""
    ordered = sorted(pairs, key=lambda p: p["id"])
    if len(ordered) <= size:
        return ordered
    picked = random.Random(seed).sample(range(len(ordered)), size)
    return [ordered[i] for i in sorted(picked)]


def _subject_words(fact: Any) -> tuple[str, ...]:
    words = [*(fact.subject or "").split(), *(fact.asserter or "").split()]
    key = fact.subject_key or ""
    return tuple(w.strip(".,'").lower() for w in words if w) + ((key,) if key else ())


def _lanes(conflicts: Iterable[Any]) -> dict[tuple[int, int], Any]:
    """(loser, winner) -> the conflict row that recorded the supersession."""
    out: dict[tuple[int, int], Any] = {}
    for c in conflicts:
        if c.winner is None:
            continue
        loser = c.fact_b.id if c.winner == c.fact_a.id else c.fact_a.id
        out.setdefault((loser, c.winner), c)
    return out


def _negation_only(differences: Sequence[str]) -> bool:
    return bool(differences) and all(d.startswith("negation") for d in differences)


def _run_conversation(ctx: EvalContext, conversation: Mapping[str, Any]
                      ) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    sample = conversation["sample_id"]
    captures = turn_captures(conversation)
    store = ctx.open_store()
    if captures:
        store.remember_many(captures, batch_size=BATCH)
        store.analyze_tables()
    facts = {f.id: f for f in store.facts_by_verdict(limit=100_000)}
    every_conflict = list(store.conflicts())
    by_pair = _lanes(every_conflict)
    rows: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []
    for fact in sorted(facts.values(), key=lambda f: f.id):
        if fact.verdict.value != "superseded" or fact.superseded_by is None:
            continue
        winner = facts.get(fact.superseded_by)
        if winner is None:
            continue
        conflict = by_pair.get((fact.id, winner.id))
        same_asserter = (fact.asserter is not None and fact.asserter == winner.asserter)
        unrelated = same_asserter and about_something_else(
            fact.statement, winner.statement, _subject_words(fact) + _subject_words(winner))
        pair = {
            "row": "superseded", "conversation": sample, "id": f"{sample}:{fact.id}",
            "fact_id": fact.id, "by_id": winner.id, "kind": fact.kind.value,
            "by_kind": winner.kind.value, "statement": fact.statement,
            "by_statement": winner.statement, "quote": fact.evidence_quote,
            "by_quote": winner.evidence_quote, "asserter": fact.asserter,
            "by_asserter": winner.asserter, "source_ref": fact.evidence_source_ref,
            "by_source_ref": winner.evidence_source_ref,
            "lane": conflict.lane if conflict is not None else None,
            "differences": list(conflict.differences) if conflict is not None else [],
            "same_asserter": same_asserter, "prescreen_unrelated": unrelated,
        }
        pairs.append(pair)
    rows.extend(pairs)

    open_conflicts = [c for c in every_conflict if c.status == "open"]
    for c in open_conflicts:
        rows.append({
            "row": "open-conflict", "conversation": sample, "id": f"{sample}:c{c.id}",
            "fact_id": c.fact_a.id, "by_id": c.fact_b.id, "kind": c.fact_a.kind.value,
            "statement": c.fact_a.statement, "by_statement": c.fact_b.statement,
            "asserter": c.fact_a.asserter, "by_asserter": c.fact_b.asserter,
            "lane": c.lane, "differences": list(c.differences),
            "same_asserter": c.fact_a.asserter is not None
            and c.fact_a.asserter == c.fact_b.asserter,
        })
    parked = [f for f in facts.values() if f.verdict.value == "parked"]
    for f in sorted(parked, key=lambda f: f.id):
        rows.append({"row": "parked", "conversation": sample, "id": f"{sample}:{f.id}",
                     "fact_id": f.id, "kind": f.kind.value, "statement": f.statement,
                     "quote": f.evidence_quote, "asserter": f.asserter,
                     "reason": str(f.meta.get("polarity_guard", ""))})

    restated = _near_restatements(store, facts)
    rows.extend({"row": "restated", "conversation": sample, "id": f"{sample}:r{r['claim_id']}",
                 **r} for r in restated)

    served = contested = 0
    for qa in conversation.get("qa", []):
        result = store.recall(qa["question"], k=K)
        labels = [item.label.code for item in result.items]
        n_contested = sum(code == "contested" for code in labels)
        served += len(labels)
        contested += n_contested
        rows.append({"row": "question", "conversation": sample,
                     "id": f"{sample}:q{len([r for r in rows if r['row'] == 'question'])}",
                     "question": qa["question"], "items": len(labels),
                     "contested": n_contested})

    n_facts = len(facts)
    negation_only = sum(_negation_only(c.differences) for c in open_conflicts)
    figures = {
        "turns": len(captures),
        "facts": n_facts,
        "superseded": len(pairs),
        "superseded_same_asserter": sum(p["same_asserter"] for p in pairs),
        "superseded_unrelated_prescreen": sum(p["prescreen_unrelated"] for p in pairs),
        "open_conflicts": len(open_conflicts),
        "open_conflicts_per_1000": _per_1000(len(open_conflicts), n_facts),
        "open_conflicts_negation_only": negation_only,
        "open_conflicts_same_asserter": sum(
            r["same_asserter"] for r in rows if r["row"] == "open-conflict"),
        "superseded_by_lane": dict(sorted(Counter(str(p["lane"]) for p in pairs).items())),
        "restated_near": len(restated),
        "restated_across_negation": sum(r["across_negation"] for r in restated),
        "parked": len(parked),
        "park_share": _share(len(parked), n_facts),
        "recall_items": served,
        "recall_items_contested": contested,
        "contested_share": _share(contested, served),
        "questions": sum(r["row"] == "question" for r in rows),
        "verdicts": dict(sorted(Counter(f.verdict.value for f in facts.values()).items())),
    }
    return rows, figures, pairs


def _near_restatements(store: Any, facts: Mapping[int, Any]) -> list[dict[str, Any]]:
    """Claims taken as testimony for a fact whose statement is not theirs (a near-hit read
    as a restatement), and whether the two differ in negation parity: what a looser
    negation reading could wrongly merge, so it is watched beside what it stops."""
    out = []
    offset: int | None = 0
    while offset is not None:
        page = store.claims(limit=10_000, offset=offset)
        for claim in page:
            fact = facts.get(claim.fact_id) if claim.fact_id is not None else None
            if claim.triage != "restatement" or fact is None:
                continue
            if normalise_statement(claim.statement) == normalise_statement(fact.statement):
                continue
            across = (polarity.negation_polarity(claim.statement) % 2
                      != polarity.negation_polarity(fact.statement) % 2)
            out.append({"claim_id": claim.id, "fact_id": fact.id,
                        "statement": fact.statement, "by_statement": claim.statement,
                        "asserter": fact.asserter, "by_asserter": claim.asserter,
                        "across_negation": across})
        offset = page.next_offset
    return out


def _per_1000(count: int, facts: int) -> float | None:
    return round(1000.0 * count / facts, 3) if facts else None


def _share(count: int, total: int) -> float | None:
    return round(count / total, 5) if total else None


def _overall(per: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    def total(key: str) -> int:
        return sum(int(f[key]) for f in per.values())

    facts = total("facts")
    return {
        "turns": total("turns"), "facts": facts, "superseded": total("superseded"),
        "superseded_same_asserter": total("superseded_same_asserter"),
        "superseded_unrelated_prescreen": total("superseded_unrelated_prescreen"),
        "superseded_by_lane": dict(sorted(sum(
            (Counter(f["superseded_by_lane"]) for f in per.values()), Counter()).items())),
        "restated_near": total("restated_near"),
        "restated_across_negation": total("restated_across_negation"),
        "open_conflicts": total("open_conflicts"),
        "open_conflicts_per_1000": _per_1000(total("open_conflicts"), facts),
        "open_conflicts_negation_only": total("open_conflicts_negation_only"),
        "open_conflicts_same_asserter": total("open_conflicts_same_asserter"),
        "parked": total("parked"), "park_share": _share(total("parked"), facts),
        "recall_items": total("recall_items"),
        "recall_items_contested": total("recall_items_contested"),
        "contested_share": _share(total("recall_items_contested"), total("recall_items")),
        "questions": total("questions"),
    }


def _sample_line(pair: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("id", "conversation", "kind", "asserter", "statement", "quote", "by_asserter",
            "by_statement", "by_quote", "lane", "differences", "prescreen_unrelated")
    return {k: pair.get(k) for k in keys}


def _write_sample(ctx: EvalContext, sample: Sequence[Mapping[str, Any]]) -> str | None:
    """The sample as JSONL beside the run records, for a person to judge."""
    if ctx.run_id is None:
        return None
    from evals.records import evals_dir

    folder = evals_dir() / "samples"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{ctx.run_id}.supersession.jsonl"
    path.write_text("".join(json.dumps(_sample_line(p), ensure_ascii=False) + "\n"
                            for p in sample), encoding="utf-8")
    return str(path)


def run_locomo_adjudication(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Remember every conversation into its own store, then count (see the module doc)."""
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    per: dict[str, dict[str, Any]] = {}
    pairs: list[dict[str, Any]] = []
    for conversation in items:
        found, figures, superseded = _run_conversation(ctx, conversation)
        rows.extend(found)
        per[conversation["sample_id"]] = figures
        pairs.extend(superseded)
    sample = supersession_sample(pairs)
    chosen = {p["id"] for p in sample}
    for row in rows:
        if row["row"] == "superseded":
            row["sampled"] = row["id"] in chosen
    overall = _overall(per)
    metrics = {
        "superseded_unrelated_per_1000": _per_1000(overall["superseded_unrelated_prescreen"],
                                                   overall["facts"]),
        "open_conflicts_per_1000": overall["open_conflicts_per_1000"],
        "park_share": overall["park_share"],
        "contested_share": overall["contested_share"],
        "superseded_per_1000": _per_1000(overall["superseded"], overall["facts"]),
        "superseded_unrelated_share": _share(overall["superseded_unrelated_prescreen"],
                                             overall["superseded"]),
    }
    notes = {
        "targets": dict(TARGETS),
        "overall": overall,
        "by_conversation": per,
        "sample_seed": SAMPLE_SEED,
        "sample_size": len(sample),
        "supersession_sample": [_sample_line(p) for p in sample],
        "supersession_sample_file": _write_sample(ctx, sample),
        "parked_quotes": [{"id": r["id"], "quote": r["quote"], "statement": r["statement"]}
                          for r in rows if r["row"] == "parked"],
        "restated_across_negation": [
            {"id": r["id"], "fact": r["statement"], "claim": r["by_statement"]}
            for r in rows if r["row"] == "restated" and r["across_negation"]],
        "prescreen": "superseded by a fact of the same asserter whose statement shares no "
                     "content word (up to inflection) with the superseded one beyond the "
                     "subject's words; a word test, so the judged sample is the figure",
        "seconds": round(time.perf_counter() - started, 1),
    }
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


SPEC = register(EvalSpec(
    name=NAME,
    description="LoCoMo adjudication: each conversation remembered turn by turn into its own "
                "store; supersessions of unrelated facts (pre-screen and a sample to judge), "
                "open conflicts per 1,000 facts, polarity parks, contested share of recall",
    metrics=(
        Metric("superseded_unrelated_per_1000", "lower", 1.0),
        Metric("open_conflicts_per_1000", "lower", 1.0),
        Metric("park_share", "lower", TOLERANCE),
        Metric("contested_share", "lower", TOLERANCE),
        Metric("superseded_per_1000", "none"),
        Metric("superseded_unrelated_share", "lower", 0.02),
    ),
    default_dataset=DATASET,
    load=load_conversations,
    run=run_locomo_adjudication,
))


def _main(argv: Sequence[str]) -> int:  # pragma: no cover - a reading aid
    """``python -m evals.suites.locomo_adjudication FILE``: print a sample file as a table."""
    for line in Path(argv[0]).read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        print(f"{pair['id']}: {pair['statement']!r}\n    -> {pair['by_statement']!r}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    raise SystemExit(_main(sys.argv[1:]))
