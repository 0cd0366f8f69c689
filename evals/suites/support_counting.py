"""Eval ``support-counting``: does a fact's support count distinct sources, and does
removing one source (and restoring it) change exactly what it should?

Every session of every LoCoMo conversation is remembered as one capture (its turns as
``speaker: text`` lines, said at the session's date), ``source_ref`` ``<sample>:session_<n>``:
each session is a lineage. Then:

- **support** -- each live fact's support count (distinct lineages with current supporting
  testimony) is checked against the lineages of its current claims, read separately
  (``Store.claims``): ``support_consistent`` is the share that agree (target 1.0);
  ``multi_session_facts`` / ``multi_session_share`` say how many facts more than one session
  supports; the notes count ``multi_session_facts`` and ``repeated_in_session``, the facts
  one session asserted more than once (repetition, which must not raise the count).
- **removal** -- the session supporting the most facts is removed (``Store.remove_source``).
  ``removal_exact`` is 1.0 when exactly the facts it alone supported were closed and every
  other fact it supported lost exactly one from its count; the notes give those counts,
  ``closed_on_removal`` and ``reduced_on_removal``.
- **restoration** -- the session is restored; ``restore_exact`` is 1.0 when every fact's
  verdict and count and every open conflict are as before the removal (the primary metric).

The default dataset is the project's LoCoMo-format fixture; the figure that matters comes
from the real conversations: ``--dataset ../shared/datasets/locomo``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from evals.registry import EvalContext, EvalOutcome, EvalSpec, Metric, register
from evals.suites.locomo import DATASET, load_conversations

NAME = "support-counting"


def session_captures(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One capture per session: its turns as chat lines, said at the session's date."""
    captures = []
    for conversation in items:
        for session in conversation["sessions"]:
            lines = [f"{t['speaker']}: {t['text']}" if t.get("speaker") else t["text"]
                     for t in session["turns"] if t["text"].strip()]
            if not lines:
                continue
            when = session.get("when")
            said = (datetime.fromisoformat(when).replace(tzinfo=UTC)
                    if isinstance(when, str) else None)
            captures.append({"text": "\n".join(lines), "source_type": "utterance",
                             "source_ref": f"{conversation['sample_id']}:session_"
                                           f"{session['number']}",
                             **({"said_at": said} if said else {})})
    return captures


def _state(store: Any) -> tuple[dict[int, tuple[str, int]], list[tuple[int, int]]]:
    facts = store.facts_by_verdict(limit=100_000)
    return ({f.id: (f.verdict.value, f.support_count) for f in facts},
            sorted(tuple(sorted((c.fact_a.id, c.fact_b.id))) for c in store.open_conflicts()))


def _current_lineages(store: Any) -> tuple[dict[int, set[str]], dict[tuple[int, str], int]]:
    """Per fact, the lineages of its current supporting claims, and claims per (fact,
    lineage), read from the testimony layer page by page."""
    lineages: dict[int, set[str]] = defaultdict(set)
    per_lineage: dict[tuple[int, str], int] = defaultdict(int)
    offset: int | None = 0
    while offset is not None:
        page = store.claims(limit=10_000, offset=offset)
        for claim in page:
            if claim.fact_id is not None and claim.triage != "dropped":
                lineages[claim.fact_id].add(claim.lineage)
                per_lineage[(claim.fact_id, claim.lineage)] += 1
        offset = page.next_offset
    return lineages, per_lineage


def run_support_counting(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    store = ctx.open_store()
    captures = session_captures(items)
    store.remember_many(captures)
    before = _state(store)
    live = {f.id: f for f in store.facts_by_verdict("active", "contested", "parked",
                                                    limit=100_000)}
    lineages, per_lineage = _current_lineages(store)
    # Current claims tie a fact to a lineage; a restatement's claim counts for the fact it
    # restated, so the recomputed set is the support the store should report.
    consistent = [f.support_count == len(lineages.get(f.id, set())) for f in live.values()]
    multi = [f for f in live.values() if f.support_count > 1]
    repeated = {fid for (fid, _), n in per_lineage.items() if n > 1 and fid in live}

    supported: dict[str, set[int]] = defaultdict(set)
    for fid, found in lineages.items():
        if fid in live:
            for lineage in found:
                supported[lineage].add(fid)
    removed = (max(sorted(supported), key=lambda x: len(supported[x])) if supported else None)
    removal_exact = restore_exact = None
    closed: tuple[int, ...] = ()
    reduced = 0
    if removed is not None:
        change = store.remove_source(removed, "support-counting eval: one session removed")
        sole = {fid for fid in supported[removed] if lineages[fid] == {removed}}
        after = {f.id: f for f in store.facts_by_verdict(limit=100_000)}
        closed = change.closed
        shared = supported[removed] - sole
        reduced = sum(after[fid].support_count == live[fid].support_count - 1 for fid in shared)
        removal_exact = float(set(closed) == sole and reduced == len(shared)
                              and all(after[fid].verdict.value == "withdrawn" for fid in sole))
        store.restore_source(removed, "support-counting eval: the session restored")
        restore_exact = float(_state(store) == before)

    rows = [{"fact_id": f.id, "statement": f.statement, "kind": f.kind.value,
             "verdict": f.verdict.value, "support_count": f.support_count,
             "claim_lineages": sorted(lineages.get(f.id, ())),
             "consistent": f.support_count == len(lineages.get(f.id, set())),
             "in_removed_session": removed in lineages.get(f.id, set()),
             "closed_on_removal": f.id in closed} for f in live.values()]
    metrics = {
        "restore_exact": restore_exact,
        "removal_exact": removal_exact,
        "support_consistent": sum(consistent) / len(consistent) if consistent else None,
        "multi_session_share": len(multi) / len(live) if live else None,
    }
    notes = {"multi_session_facts": len(multi), "repeated_in_session": len(repeated),
             "closed_on_removal": len(closed), "reduced_on_removal": reduced,
             "conversations": len(items), "sessions": len(captures), "facts": len(live),
             "claims": sum(per_lineage.values()), "removed_session": removed,
             "max_support": max((f.support_count for f in live.values()), default=0),
             "support_histogram": dict(sorted(_histogram(live.values()).items()))}
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


def _histogram(facts: Any) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for f in facts:
        counts[f.support_count] += 1
    return counts


SPEC = register(EvalSpec(
    name=NAME,
    description="Support counted per distinct session lineage on LoCoMo, and what removing "
                "and restoring one session changes",
    metrics=(
        Metric("restore_exact", "higher"),
        Metric("removal_exact", "higher"),
        Metric("support_consistent", "higher"),
        Metric("multi_session_share", "higher", 0.02),
    ),
    default_dataset=DATASET,
    load=load_conversations,
    run=run_support_counting,
))
