"""Hybrid recall's decisions (issue 17): candidate lists in, served slots out. Pure.

Recall gathers four ranked candidate lists (store/recall.py): facts by vector and by words,
documents by vector and by words. Each is mapped to **slots**: a fact that came from a
document shares that document's slot, so a fact and the turn it was read from are served
together and never compete as two hits; a fact with no document (imported, timeline) is a
slot of its own. Then

1. the four lists are fused by reciprocal rank fusion (:func:`factstore.fusion.rrf`): a
   cosine and a ``ts_rank_cd`` share no scale, and RRF needs none. A turn found as itself
   and as its fact counts in both lists: that agreement is evidence (counting only its best
   rank per retriever, so that a turn no fact was read from competes on equal terms,
   measured hit@10 0.686 against 0.712 on LoCoMo);
2. preferences are two more lists over the fused order: the slots by a person the question
   names (a turn's speaker, a fact's subject entity or asserter) and the slots from the time
   it names; being in one is worth what a rank in one more retriever is (times
   ``preference_weight``), so they lift, never filter ("What did Caroline and Melanie do together?" still reaches Melanie's turns);
3. a slot whose only testimony is superseded (its document's facts are all superseded or
   withdrawn) is history: it is served after the live slots of like score, labeled; but not
   when it is from the time the question names ("what was its status in March?"): then it
   is what was asked about. A question that names a time is read as of it: what was said
   or learnt only after that time is weighed as history is (served, labeled as it is now,
   after what held then);
4. slots pass the gate when a fact clears ``recall_floor``, the document clears
   ``document_floor``, or the words matched (a rare name a question shares with a turn is
   evidence whatever the cosine says);
5. MMR (:func:`factstore.fusion.mmr`) picks the served slots so ten slots are not near
   copies of one turn; ``lam`` 1.0 turns it off.

Inside a slot the facts keep their best-first order; the store serves the first as the slot's
item (with its document) and the rest after it, as ``same-source``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field

import numpy as np

from factstore.fusion import mmr, rrf

__all__ = ["HISTORY_WEIGHT", "Candidates", "Slot", "SlotKey", "plan", "slot_of"]

#: ('document', id) or ('fact', id)
SlotKey = tuple[str, int]
#: a history slot's fused score is multiplied by this: served after live slots of like
#: relevance, never dropped (what was said then still answers "what did she say in May?")
HISTORY_WEIGHT = 0.5


@dataclass(frozen=True)
class Candidates:
    """What recall's queries found, as plain data."""

    #: (fact id, cosine), nearest first
    fact_vector: Sequence[tuple[int, float]] = ()
    #: (fact id, ts_rank_cd), best first
    fact_text: Sequence[tuple[int, float]] = ()
    #: (document id, cosine), nearest first
    document_vector: Sequence[tuple[int, float]] = ()
    #: (document id, ts_rank_cd), best first
    document_text: Sequence[tuple[int, float]] = ()
    #: each candidate fact's source document (None: a slot of its own)
    fact_document: Mapping[int, int | None] = field(default_factory=dict)
    #: cosine of every candidate fact and document to the question (a text-only candidate's
    #: is read for it, so every gate and label has one)
    fact_cosine: Mapping[int, float] = field(default_factory=dict)
    document_cosine: Mapping[int, float] = field(default_factory=dict)
    #: slots by or about a person the question names, and from the time it names
    named: Set[SlotKey] = frozenset()
    timed: Set[SlotKey] = frozenset()
    #: slots whose testimony is all superseded (history)
    history: Set[SlotKey] = frozenset()
    #: slots said or learnt after the time the question names: as of then, not yet known
    later: Set[SlotKey] = frozenset()
    #: one vector per slot for MMR (the document's, or the fact's for a slot of its own)
    vectors: Mapping[SlotKey, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Slot:
    """One served answer: a document and the facts read from it, or one fact alone."""

    key: SlotKey
    #: fused score (RRF plus preferences, history weighted)
    score: float
    #: candidate facts of this slot, best first
    facts: tuple[int, ...]
    #: the document, when the slot has one (a fact's source, or a document found by itself)
    document: int | None
    #: which retrievers found it: 'fact-vector', 'fact-text', 'document-vector',
    #: 'document-text', and the preferences 'named' and 'timed'
    matched_by: tuple[str, ...]
    history: bool = False


def slot_of(fact_id: int, fact_document: Mapping[int, int | None]) -> SlotKey:
    """A fact's slot: its source document's, or its own when it has none."""
    document = fact_document.get(fact_id)
    return ("document", document) if document is not None else ("fact", fact_id)


def plan(found: Candidates, *, k: int, recall_floor: float, document_floor: float,
         rrf_k: int = 60, lam: float = 1.0, preference_weight: float = 1.0) -> list[Slot]:
    """The slots to serve, best first, at most ``k`` (see the module doc)."""
    lists = {
        "fact-vector": [slot_of(f, found.fact_document) for f, _ in found.fact_vector],
        "fact-text": [slot_of(f, found.fact_document) for f, _ in found.fact_text],
        "document-vector": [("document", d) for d, _ in found.document_vector],
        "document-text": [("document", d) for d, _ in found.document_text],
    }
    order = [key for key, _ in rrf(list(lists.values()), k=rrf_k)]
    preferences = {"named": [s for s in order if s in found.named],
                   "timed": [s for s in order if s in found.timed]}
    scores = dict(rrf([*lists.values(), *preferences.values()], k=rrf_k,
                      weights=[1.0] * len(lists) + [preference_weight] * len(preferences)))
    for key in found.history - found.timed:  # asked about its time, history is the answer
        if key in scores:
            scores[key] *= HISTORY_WEIGHT
    for key in found.later - found.timed:  # read as of the time asked about
        if key in scores:
            scores[key] *= HISTORY_WEIGHT

    facts = _facts_by_slot(found, recall_floor)
    members = {name: set(keys) for name, keys in (*lists.items(), *preferences.items())}
    matched = {key: tuple(name for name, keys in members.items() if key in keys)
               for key in scores}
    eligible = {key: score for key, score in scores.items()
                if _passes(key, facts.get(key, ()), matched[key], found, document_floor)}
    chosen = mmr(eligible, {s: v for s, v in found.vectors.items() if s in eligible}, k,
                 lam=lam)
    return [Slot(key, eligible[key], facts.get(key, ()),
                 key[1] if key[0] == "document" else None, matched[key],
                 history=key in found.history)
            for key in chosen]


def _facts_by_slot(found: Candidates, recall_floor: float) -> dict[SlotKey, tuple[int, ...]]:
    """Each slot's servable facts, best first by fused rank over the two fact lists: the ones
    whose words matched or whose cosine clears ``recall_floor`` (a fact under the floor that
    shares a slot with a matching document is not evidence of its own)."""
    worded = {f for f, _ in found.fact_text}
    fused = rrf([[f for f, _ in found.fact_vector], [f for f, _ in found.fact_text]])
    out: dict[SlotKey, list[int]] = {}
    for fact_id, _ in fused:
        if fact_id not in worded and found.fact_cosine.get(fact_id, -1.0) < recall_floor:
            continue
        out.setdefault(slot_of(fact_id, found.fact_document), []).append(fact_id)
    return {key: tuple(ids) for key, ids in out.items()}


def _passes(key: SlotKey, facts: Sequence[int], matched: Sequence[str], found: Candidates,
            document_floor: float) -> bool:
    """Servable facts (see _facts_by_slot), the document's words, or its cosine."""
    if facts or "document-text" in matched:
        return True
    return key[0] == "document" and found.document_cosine.get(key[1], -1.0) >= document_floor
