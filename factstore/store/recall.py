"""Recall: rank by cosine in SQL, gate by floor and strong, label every item honestly."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql

from factstore.entities.names import normalise
from factstore.groups import GroupContinuation, bound_inline
from factstore.kinds import RETRIEVABLE_VERDICTS, Kind, Verdict
from factstore.labels import DOCUMENT_LABEL, answering_layer, label_fact
from factstore.results import Fact, RecallItem, RecallResult
from factstore.settings import Settings
from factstore.store import entities as entity_sql
from factstore.store import groups
from factstore.store import tags as tag_sql
from factstore.store.rows import document_from_row, fetch_facts


def _fact_knn_query() -> sql.Composed:
    """Union of one kNN per kind: each rides its kind's partial HNSW index."""
    retrievable = sql.SQL(", ").join(sql.Literal(v.value) for v in RETRIEVABLE_VERDICTS)
    parts = [
        sql.SQL("(SELECT f.id, f.embedding <=> %(q)s AS distance FROM facts f "
                "WHERE f.kind = {kind} AND f.verdict IN ({v}) AND f.embedding IS NOT NULL "
                "ORDER BY f.embedding <=> %(q)s LIMIT %(k)s)").format(
            kind=sql.Literal(kind.value), v=retrievable)
        for kind in Kind
    ]
    return sql.SQL("SELECT id, distance FROM ({}) hits ORDER BY distance LIMIT %(k)s").format(
        sql.SQL(" UNION ALL ").join(parts))


_FACT_KNN = _fact_knn_query()


def fact_hits(cur: Any, vector: np.ndarray, k: int, settings: Settings
              ) -> list[tuple[int, float]]:
    """The k nearest retrievable facts, (id, cosine similarity), nearest first."""
    cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(
        sql.Literal(max(settings.ef_search, k))))
    cur.execute(_FACT_KNN, {"q": vector, "k": k})
    return [(row["id"], 1.0 - float(row["distance"])) for row in cur.fetchall()]


def recall(cur: Any, query: str, vector: np.ndarray, k: int, settings: Settings,
           now: datetime) -> RecallResult:
    ranked = fact_hits(cur, vector, k, settings)
    best = ranked[0][1] if ranked else None
    served = [(fid, sim) for fid, sim in ranked if sim >= settings.recall_floor]
    documents = []
    if best is None or best < settings.recall_strong:
        cur.execute("SELECT id, content, source_type, source_ref, lineage, captured_at, "
                    "1 - (embedding <=> %(q)s) AS similarity FROM documents "
                    "ORDER BY embedding <=> %(q)s LIMIT %(k)s", {"q": vector, "k": k})
        documents = [r for r in cur.fetchall() if r["similarity"] >= settings.document_floor]
    layer = answering_layer(best, floor=settings.recall_floor, strong=settings.recall_strong,
                            documents_found=bool(documents))
    items: list[RecallItem] = []
    if layer not in ("fact", "fact-weak"):
        items += [RecallItem(DOCUMENT_LABEL, float(row["similarity"]),
                             document=document_from_row(row)) for row in documents]
    fact_items, continuations = serve_facts(cur, served, ranked, settings, now)
    if settings.recall_neighbours:
        fact_items += neighbour_items(cur, query, vector, fact_items, settings, now)
    return RecallResult(query, layer, tuple(items + fact_items), best,
                        continuations=continuations)


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
    items, _ = serve_facts(cur, hits, hits, settings, now)
    return [dataclasses.replace(i, served_as="neighbour") if i.served_as == "hit" else i
            for i in items if i.fact is not None and i.fact.id not in shown]


def query_names(query: str) -> list[str]:
    """The normalised word runs (one to four words) of a question, for finding the
    entities it names by their exact names. Pure."""
    words = normalise(query).split()
    return sorted({" ".join(words[i:i + n]) for n in range(1, 5)
                   for i in range(len(words) - n + 1)})


def serve_facts(cur: Any, served: list[tuple[int, float]], ranked: list[tuple[int, float]],
                settings: Settings, now: datetime
                ) -> tuple[list[RecallItem], tuple[GroupContinuation, ...]]:
    """Served facts with their labels, each contested fact followed by the co-members of its
    contradiction group (``group_inline`` of them inline, the rest in a continuation)."""
    facts = fetch_facts(cur, [fid for fid, _ in served])
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
    items: list[RecallItem] = []
    shown: set[int] = set()

    def serve(fact: Fact, similarity: float, served_as: str) -> None:
        shown.add(fact.id)
        group_id, members = grouped.get(fact.id, (None, []))
        ids = partners.get(fact.id) or bound_inline(fact.id, members, settings.group_inline)[0]
        items.append(RecallItem(
            label_fact(fact, now=now, tag_lifetimes=lifetimes,
                       default_lifetime=settings.state_default_lifetime, partner_ids=ids,
                       similarity=similarity, strong=settings.recall_strong,
                       group_size=len(members)),
            similarity, fact=fact, partner_ids=ids, served_as=served_as, group_id=group_id,
            preferred=fact.id in favoured))

    for fid, similarity in served:
        if fid in shown:
            continue
        serve(facts[fid], similarity, "hit")
        # A contested fact is never served alone: its group's co-members follow it, labeled.
        for pid in partners.get(fid, ()):
            if pid not in shown:
                partner = facts.get(pid) or partner_facts[pid]
                serve(partner, _similarity(ranked, pid), "contested-partner"
                      if pid not in facts else "hit")
    return items, tuple(continuations.values())


def _similarity(ranked: list[tuple[int, float]], fact_id: int) -> float:
    return next((sim for fid, sim in ranked if fid == fact_id), float("nan"))
