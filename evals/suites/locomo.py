"""The LoCoMo extraction-recall eval: do the facts extracted from a conversation cover the
facts annotators wrote down for it?

LoCoMo (snap-research/LoCoMo) gives every session of its long conversations an
``observation`` list: gold facts about each speaker, each with the ids of the turns it was
drawn from. Every turn's text goes through the write path's pure stages
(:func:`factstore.writepath.prepare.prepare_capture` with the extractor under test, so anchor
hygiene, outcome absorption and the granularity fold apply exactly as when the store
writes). A gold observation is **matched** when some fact extracted from one of its evidence
turns -- so its quote comes from that turn -- has a statement whose cosine similarity to the
observation's text, under the embedder under test, is at least :data:`MATCH_THRESHOLD`.

Metrics:

- ``extraction_recall`` (primary, higher is better): matched observations / observations;
- ``facts_per_turn`` (higher, informational: more facts is not better in itself, but a
  sudden drop means the extractor stopped seeing something): facts kept / turns;
- ``dropped_share`` (lower is better): facts the write path refused (no anchor, bad kind,
  empty statement) / facts the extractor proposed. The quote of every *kept* fact anchors
  by construction, so an "anchored share" would always be 1.0; the dropped share is what
  says how often the extractor's quotes failed.

The default dataset is the project's tiny fixture in LoCoMo's own format; the benchmark
figure comes from the real conversations: ``--dataset ../shared/datasets/locomo``. No
database is touched. Statements and observations are embedded in two batched calls.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from evals.loaders import load_locomo
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.writepath.prepare import PreparedFact, prepare_capture

__all__ = ["DATASET", "MATCH_THRESHOLD", "SPEC", "load_conversations", "run_locomo_recall"]

#: the project's LoCoMo-format fixture (the real set is passed with --dataset); package data
DATASET = DATA / "locomo.json"
#: cosine(statement, observation) at or above which an extracted fact matches a gold one.
#: A third-person paraphrase of the same fact scores well above it with MiniLM, a fact
#: about something else in the same turn usually below; it is recorded in every run's notes.
MATCH_THRESHOLD = 0.5
#: how far a rate may worsen before ``factstore eval compare`` calls it a regression
TOLERANCE = 0.01
FACTS_PER_TURN_TOLERANCE = 0.05


def load_conversations(path: Path) -> list[dict[str, Any]]:
    """LoCoMo conversations (:func:`evals.loaders.load_locomo`) as plain dicts, one per
    conversation (:meth:`evals.loaders.Conversation.to_dict`)."""
    return [conversation.to_dict() for conversation in load_locomo(path)]


class _Counting:
    """Passes extraction through and remembers how many facts were proposed, which the
    prepared capture no longer says once absorption and folding have merged some."""

    def __init__(self, inner: Extractor) -> None:
        self.name = inner.name
        self._inner = inner
        self.proposed = 0

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        facts = list(self._inner.extract(text, context))
        self.proposed += len(facts)
        return facts


def _said_at(session: Mapping[str, Any]) -> datetime | None:
    when = session.get("when")
    return datetime.fromisoformat(when) if isinstance(when, str) else None


def _embed(ctx: EvalContext, texts: Sequence[str]) -> np.ndarray:
    if not texts:
        return np.zeros((0, ctx.embedder.dim), dtype=np.float32)
    return np.asarray(ctx.embedder.embed(list(texts)), dtype=np.float32)


def run_locomo_recall(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Extract every turn, then match every gold observation (see the module doc)."""
    counting = _Counting(ctx.extractor)
    # (conversation, dia_id) -> the facts kept from that turn
    by_turn: dict[tuple[str, str], list[PreparedFact]] = {}
    turns = dropped = 0
    for conversation in items:
        sample = conversation["sample_id"]
        for session in conversation["sessions"]:
            said_at = _said_at(session)
            for turn in session["turns"]:
                context = ExtractionContext(source_type="utterance",
                                            source_ref=f"{sample}:{turn['dia_id']}",
                                            said_at=said_at)
                # A turn is captured as its chat line, so the extractor knows its speaker
                # ("I" is them) and the quote still comes from the turn's own words.
                line = f"{turn['speaker']}: {turn['text']}" if turn.get("speaker") else turn["text"]
                prepared = prepare_capture(line, context, counting, ctx.settings)
                by_turn[(sample, turn["dia_id"])] = list(prepared.facts)
                turns += 1
                dropped += len(prepared.dropped)

    facts = [(key, fact) for key, kept in by_turn.items() for fact in kept]
    fact_index = {id(fact): i for i, (_, fact) in enumerate(facts)}
    observations = [(conversation["sample_id"], session["number"], k, obs)
                    for conversation in items for session in conversation["sessions"]
                    for k, obs in enumerate(session["observations"])]
    statement_vectors = _embed(ctx, [fact.statement for _, fact in facts])
    observation_vectors = _embed(ctx, [obs["text"] for *_, obs in observations])

    rows: list[dict[str, Any]] = []
    per_conversation: dict[str, list[bool]] = defaultdict(list)
    without_evidence = 0
    for position, (sample, session, k, obs) in enumerate(observations):
        candidates = [fact for dia_id in obs["evidence"]
                      for fact in by_turn.get((sample, dia_id), [])]
        if not any((sample, dia_id) in by_turn for dia_id in obs["evidence"]):
            without_evidence += 1  # every evidence id dangles: no turn to extract from
        best_similarity: float | None = None
        best_statement: str | None = None
        if candidates:
            rows_of = [fact_index[id(fact)] for fact in candidates]
            # Vectors are L2-normalised (the embedder contract), so a dot product is a cosine.
            scores = statement_vectors[rows_of] @ observation_vectors[position]
            best = int(np.argmax(scores))
            best_similarity = float(scores[best])
            best_statement = candidates[best].statement
        matched = best_similarity is not None and best_similarity >= MATCH_THRESHOLD
        per_conversation[sample].append(matched)
        rows.append({
            "conversation": sample,
            "session": session,
            "observation_id": f"{sample}/session_{session}/{k}",
            "speaker": obs["speaker"],
            "observation": obs["text"],
            "evidence": list(obs["evidence"]),
            "candidate_facts": len(candidates),
            "matched": matched,
            "best_similarity": best_similarity,
            "best_statement": best_statement,
        })

    kept = len(facts)
    metrics = {
        "extraction_recall": (sum(r["matched"] for r in rows) / len(rows)) if rows else None,
        "facts_per_turn": kept / turns if turns else None,
        "dropped_share": dropped / counting.proposed if counting.proposed else None,
    }
    notes = {
        "match_threshold": MATCH_THRESHOLD,
        "conversations": len(items),
        "turns": turns,
        "observations": len(rows),
        "facts_proposed": counting.proposed,
        "facts_kept": kept,
        "facts_dropped": dropped,
        "observations_without_evidence_turns": without_evidence,
        "extraction_recall_by_conversation": {
            sample: sum(flags) / len(flags) for sample, flags in per_conversation.items()},
    }
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


SPEC = register(EvalSpec(
    name="locomo-recall",
    description="LoCoMo extraction recall: share of gold session observations matched by a "
                "fact extracted from their evidence turns",
    metrics=(
        Metric("extraction_recall", "higher", TOLERANCE),
        Metric("facts_per_turn", "higher", FACTS_PER_TURN_TOLERANCE),
        Metric("dropped_share", "lower", TOLERANCE),
    ),
    default_dataset=DATASET,
    load=load_conversations,
    run=run_locomo_recall,
))
