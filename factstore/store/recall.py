"""Recall: rank by cosine in SQL, gate by floor and strong, label every item honestly."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql

from factstore.kinds import RETRIEVABLE_VERDICTS, Kind, Verdict
from factstore.labels import DOCUMENT_LABEL, answering_layer, label_fact
from factstore.results import Fact, RecallItem, RecallResult
from factstore.settings import Settings
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


def recall(cur: Any, query: str, vector: np.ndarray, k: int, settings: Settings,
           now: datetime) -> RecallResult:
    cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(
        sql.Literal(max(settings.ef_search, k))))
    cur.execute(_FACT_KNN, {"q": vector, "k": k})
    ranked = [(row["id"], 1.0 - float(row["distance"])) for row in cur.fetchall()]
    best = ranked[0][1] if ranked else None
    served = [(fid, sim) for fid, sim in ranked if sim >= settings.recall_floor]
    facts = fetch_facts(cur, [fid for fid, _ in served])
    documents = []
    if best is None or best < settings.recall_strong:
        cur.execute("SELECT id, content, source_type, source_ref, lineage, captured_at, "
                    "1 - (embedding <=> %(q)s) AS similarity FROM documents "
                    "ORDER BY embedding <=> %(q)s LIMIT %(k)s", {"q": vector, "k": k})
        documents = [r for r in cur.fetchall() if r["similarity"] >= settings.document_floor]
    layer = answering_layer(best, floor=settings.recall_floor, strong=settings.recall_strong,
                            documents_found=bool(documents))
    lifetimes = tag_sql.tag_lifetimes(cur)
    partners = _open_partners(cur, [f.id for f in facts.values()
                                    if f.verdict is Verdict.CONTESTED])
    items: list[RecallItem] = []
    shown: set[int] = set()

    def serve(fact: Fact, similarity: float, served_as: str) -> None:
        shown.add(fact.id)
        ids = tuple(partners.get(fact.id, ()))
        items.append(RecallItem(
            label_fact(fact, now=now, tag_lifetimes=lifetimes,
                       default_lifetime=settings.state_default_lifetime, partner_ids=ids,
                       similarity=similarity, strong=settings.recall_strong),
            similarity, fact=fact, partner_ids=ids, served_as=served_as))

    fact_items_first = layer in ("fact", "fact-weak")
    if not fact_items_first:
        for row in documents:
            items.append(RecallItem(DOCUMENT_LABEL, float(row["similarity"]),
                                    document=document_from_row(row)))
    partner_facts = fetch_facts(cur, sorted({p for ps in partners.values() for p in ps}
                                            - set(facts)))
    for fid, similarity in served:
        if fid in shown:
            continue
        serve(facts[fid], similarity, "hit")
        # A contested fact is never served alone: its partners follow it, labeled.
        for pid in partners.get(fid, ()):
            if pid not in shown:
                partner = facts.get(pid) or partner_facts[pid]
                serve(partner, _similarity(ranked, pid), "contested-partner"
                      if pid not in facts else "hit")
    return RecallResult(query, layer, tuple(items), best)


def _similarity(ranked: list[tuple[int, float]], fact_id: int) -> float:
    return next((sim for fid, sim in ranked if fid == fact_id), float("nan"))


def _open_partners(cur: Any, ids: list[int]) -> dict[int, list[int]]:
    if not ids:
        return {}
    cur.execute("SELECT fact_a, fact_b FROM conflicts WHERE status = 'open' AND "
                "(fact_a = ANY(%(ids)s) OR fact_b = ANY(%(ids)s)) ORDER BY id", {"ids": ids})
    out: dict[int, list[int]] = {}
    for row in cur.fetchall():
        out.setdefault(row["fact_a"], []).append(row["fact_b"])
        out.setdefault(row["fact_b"], []).append(row["fact_a"])
    # Partners of partners also need their labels to name their own partners.
    cur.execute("SELECT fact_a, fact_b FROM conflicts WHERE status = 'open' AND "
                "(fact_a = ANY(%(ids)s) OR fact_b = ANY(%(ids)s)) ORDER BY id",
                {"ids": [p for ps in out.values() for p in ps]})
    for row in cur.fetchall():
        for a, b in ((row["fact_a"], row["fact_b"]), (row["fact_b"], row["fact_a"])):
            if b not in out.setdefault(a, []):
                out[a].append(b)
    return out
