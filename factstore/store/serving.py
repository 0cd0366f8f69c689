"""Serving recall's planned slots (factstore/hybrid.py) as labeled items: a slot's facts
with the document they were read from, contested facts with their groups, documents on
their own labeled raw capture or history, and the facts about related entities
(``recall_neighbours``). The labels are factstore/labels.py's."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from factstore import hybrid
from factstore.entities.names import query_names
from factstore.groups import GroupContinuation, bound_inline
from factstore.kinds import Verdict
from factstore.labels import DOCUMENT_LABEL, HISTORY_LABEL, label_fact
from factstore.results import DocumentHit, Fact, RecallItem
from factstore.settings import Settings
from factstore.store import entities as entity_sql
from factstore.store import groups
from factstore.store import tags as tag_sql
from factstore.store.rows import document_from_row, fetch_facts

#: one fact to serve: (fact id, cosine, served_as, extra RecallItem fields)
Entry = tuple[int, float, str, Mapping[str, Any]]


def serve_slots(cur: Any, slots: list[hybrid.Slot], k: int,
                documents: Mapping[int, Mapping[str, Any]],
                found: hybrid.Candidates, settings: Settings, now: datetime
                ) -> tuple[list[RecallItem], tuple[GroupContinuation, ...]]:
    """Up to k planned slots as labeled items: a slot's first fact with its document, then
    its other facts (``same-source``), each contested fact followed by its group's
    co-members; a slot without a servable fact is its document, labeled raw capture or
    history. A slot whose facts were all served already (an earlier contested fact's
    partners) brings nothing, and the next planned slot is served in its place."""
    items: list[RecallItem] = []
    continuations: dict[int, GroupContinuation] = {}
    shown: set[int] = set()
    served, queue = 0, list(slots)
    while served < k and queue:
        batch, queue = queue[:k - served], queue[k - served:]
        hits = _document_hits_by_id(cur, sorted({s.document for s in batch if s.document}))
        entries: list[Entry] = [
            (fact_id, found.fact_cosine.get(fact_id, float("nan")),
             "hit" if n == 0 else "same-source",
             {"matched_by": slot.matched_by, "score": round(slot.score, 6),
              "document": hits.get(slot.document)})
            for slot in batch for n, fact_id in enumerate(slot.facts)]
        brought_by, more = serve_facts(cur, entries, found.fact_cosine, settings, now, shown)
        continuations.update({c.group_id: c for c in more if c.group_id not in continuations})
        for slot in batch:
            if not slot.facts:
                served += 1
                items.append(RecallItem(
                    HISTORY_LABEL if slot.history else DOCUMENT_LABEL,
                    documents[slot.document]["cosine"], document=hits[slot.document],
                    matched_by=slot.matched_by, score=round(slot.score, 6)))
                continue
            brought = [i for fact_id in slot.facts for i in brought_by.get(fact_id, [])]
            if brought and brought[0].served_as == "same-source":
                # its best fact was served already, as a partner: the next one stands for it
                brought[0] = dataclasses.replace(brought[0], served_as="hit")
            served += bool(brought)
            items += brought
    return items, tuple(continuations.values())


def _document_hits_by_id(cur: Any, ids: list[int]) -> dict[int, DocumentHit]:
    if not ids:
        return {}
    cur.execute("SELECT id, content, source_type, source_ref, lineage, captured_at, said_at, "
                "access_scope, sealed_version "
                "FROM documents WHERE id = ANY(%s)", (ids,))
    return {r["id"]: document_from_row(r) for r in cur.fetchall()}


def neighbour_items(cur: Any, query: str, vector: np.ndarray, served: list[RecallItem],
                    settings: Settings, now: datetime) -> list[RecallItem]:
    """Facts about entities related to the ones the question names or the served facts are
    about (one hop over supported relations, Store.neighbours), the nearest to the question
    first, at most ``recall_neighbours``; served as 'neighbour' with their usual labels."""
    anchors = {i.fact.subject_entity for i in served if i.fact and i.fact.subject_entity}
    names = query_names(query)
    if names:
        cur.execute("SELECT DISTINCT coalesce(e.merged_into, e.id)::text AS id FROM "
                    "entity_names n JOIN entities e ON e.id = n.entity_id WHERE n.name_norm = "
                    "ANY(%s)", (names,))
        anchors |= {r["id"] for r in cur.fetchall()}
    if not anchors:
        return []
    related = {x for r in entity_sql.relations_touching(cur, anchors)
               for x in (r.subject, r.object)} - anchors
    if not related:
        return []
    shown = {i.fact.id for i in served if i.fact is not None}
    cur.execute(
        "SELECT f.id, 1 - (f.embedding <=> %(q)s) AS similarity FROM facts f WHERE "
        "(f.subject_entity = ANY(%(e)s::uuid[]) OR f.subject_entity IN (SELECT id FROM entities "
        "WHERE merged_into = ANY(%(e)s::uuid[]))) AND f.verdict IN ('active', 'contested', "
        "'parked') AND f.embedding IS NOT NULL AND NOT (f.id = ANY(%(shown)s)) "
        "ORDER BY f.embedding <=> %(q)s LIMIT %(k)s",
        {"q": vector, "e": sorted(related), "shown": sorted(shown),
         "k": settings.recall_neighbours})
    hits = [(r["id"], float(r["similarity"])) for r in cur.fetchall()]
    brought, _ = serve_facts(cur, [(f, sim, "neighbour", {}) for f, sim in hits], dict(hits),
                             settings, now)
    return [i for f, _ in hits for i in brought.get(f, [])
            if i.fact is not None and i.fact.id not in shown]


def serve_facts(cur: Any, entries: Sequence[Entry], cosines: Mapping[int, float],
                settings: Settings, now: datetime, shown: set[int] | None = None
                ) -> tuple[dict[int, list[RecallItem]], tuple[GroupContinuation, ...]]:
    """Each entry's fact with its label, followed by the co-members of its contradiction
    group when it is contested (``group_inline`` of them inline, the rest in a
    continuation): per fact id, the items it brings, in entry order. A fact already served
    (in ``shown``, which this call adds to, or as an earlier entry's partner) brings
    nothing."""
    facts = fetch_facts(cur, [fid for fid, *_ in entries])
    lifetimes = tag_sql.tag_lifetimes(cur)
    grouped = groups.open_groups_of(cur, [f.id for f in facts.values()
                                          if f.verdict is Verdict.CONTESTED])
    partners: dict[int, tuple[int, ...]] = {}
    continuations: dict[int, GroupContinuation] = {}
    for fact_id, (group_id, members) in grouped.items():
        inline, rest = bound_inline(fact_id, members, settings.group_inline)
        partners[fact_id] = inline
        if rest and fact_id in facts:
            continuations.setdefault(group_id, GroupContinuation(group_id, inline, rest))
    partner_facts = fetch_facts(cur, sorted({p for ps in partners.values() for p in ps}
                                            - set(facts)))
    # a partner's own label names its partners too
    grouped.update(groups.open_groups_of(cur, [p for p in partner_facts
                                              if p not in grouped]))
    favoured = groups.preferred(cur, {g: m for g, m in grouped.values()}.values())
    shown = set() if shown is None else shown

    def item(fact: Fact, similarity: float, served_as: str,
             extra: Mapping[str, Any]) -> RecallItem:
        shown.add(fact.id)
        group_id, members = grouped.get(fact.id, (None, []))
        ids = partners.get(fact.id) or bound_inline(fact.id, members, settings.group_inline)[0]
        return RecallItem(
            label_fact(fact, now=now, tag_lifetimes=lifetimes,
                       default_lifetime=settings.state_default_lifetime, partner_ids=ids,
                       similarity=similarity, strong=settings.recall_strong,
                       group_size=len(members)),
            similarity, fact=fact, partner_ids=ids, served_as=served_as, group_id=group_id,
            preferred=fact.id in favoured, **extra)

    out: dict[int, list[RecallItem]] = {}
    for fid, similarity, served_as, extra in entries:
        if fid in shown or fid not in facts:
            continue
        brought = out.setdefault(fid, [item(facts[fid], similarity, served_as, extra)])
        # A contested fact is never served alone: its group's co-members follow it, labeled.
        for pid in partners.get(fid, ()):
            if pid not in shown:
                partner = facts.get(pid) or partner_facts[pid]
                brought.append(item(partner, cosines.get(pid, float("nan")),
                                    "contested-partner", {}))
    return out, tuple(continuations.values())
