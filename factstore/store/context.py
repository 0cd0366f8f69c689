"""Store.context's SQL: the claims-and-sources envelope and the facts envelope, each
retrieved and ranked on its own (see factstore/context.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql

from factstore.context import ClaimHit, ClaimsEnvelope, FactsEnvelope
from factstore.settings import Settings
from factstore.store import recall as recall_sql
from factstore.store import serving
from factstore.store.claims import CLAIM_SELECT, CLAIMS_FROM, claim_from_row
from factstore.store.rows import document_from_row


def claims_envelope(cur: Any, vector: np.ndarray, k: int, settings: Settings,
                    per_source: int) -> ClaimsEnvelope:
    """The k documents nearest the query (removed sources left out) and each one's current
    claims, nearest tied fact first; dropped claims (refused by hygiene) are not testimony
    of the source and are not served here."""
    cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(
        sql.Literal(max(settings.ef_search, 2 * k))))
    cur.execute(recall_sql.DOCUMENT_KNN, {"v": vector, "n": k})
    nearest = [(r["id"], float(r["cosine"])) for r in cur.fetchall()
               if r["cosine"] >= settings.document_floor]
    cur.execute("SELECT id, content, source_type, source_ref, lineage, captured_at, said_at, "
                "access_scope, sealed_version "
                "FROM documents WHERE id = ANY(%s)", ([d for d, _ in nearest],))
    by_id = {r["id"]: r for r in cur.fetchall()}
    rows = [{**by_id[d], "similarity": cosine} for d, cosine in nearest]
    sources = tuple(document_from_row(r) for r in rows)
    rank = {r["id"]: i + 1 for i, r in enumerate(rows)}
    if not rows:
        return ClaimsEnvelope((), ())
    cur.execute(
        f"SELECT {CLAIM_SELECT}, CASE WHEN f.embedding IS NULL THEN NULL ELSE "
        "1 - (f.embedding <=> %(q)s) END AS similarity, "
        "row_number() OVER (PARTITION BY c.document_id ORDER BY f.embedding <=> %(q)s "
        "NULLS LAST, c.id) AS n, count(*) OVER (PARTITION BY c.document_id) AS total "
        f"FROM {CLAIMS_FROM} LEFT JOIN facts f ON f.id = c.fact_id "
        "WHERE c.document_id = ANY(%(docs)s) AND c.superseded_at IS NULL "
        "AND c.triage <> 'dropped'", {"q": vector, "docs": list(rank)})
    found = cur.fetchall()
    kept = sorted((r for r in found if r["n"] <= per_source),
                  key=lambda r: (rank[r["document_id"]], r["n"]))
    more = sorted({r["document_id"] for r in found if r["total"] > per_source},
                  key=rank.__getitem__)
    return ClaimsEnvelope(
        tuple(ClaimHit(claim_from_row(r), rank[r["document_id"]],
                       None if r["similarity"] is None else float(r["similarity"]))
              for r in kept),
        sources,
        tuple(f"claims(document_id={d})" for d in more))


def facts_envelope(cur: Any, vector: np.ndarray, k: int, settings: Settings, now: datetime,
                   timelines: tuple[str, ...]) -> FactsEnvelope:
    """Validity-filtered facts only: believed verdicts (active, contested), and for a fact
    with a valid time, valid now. Never a claim's asserted interval."""
    ranked = recall_sql.fact_hits(cur, vector, k, settings)
    served = [(fid, sim) for fid, sim in ranked if sim >= settings.recall_floor]
    cur.execute("SELECT id FROM facts WHERE id = ANY(%s) AND verdict IN ('active', 'contested') "
                "AND (valid_from_at IS NULL OR valid_from_at <= %s) "
                "AND (effective_valid_to_at IS NULL OR effective_valid_to_at > %s)",
                ([fid for fid, _ in served], now, now))
    current = {r["id"] for r in cur.fetchall()}
    entries = [(fid, sim, "hit", {}) for fid, sim in served if fid in current]
    brought, continuations = serving.serve_facts(cur, entries, dict(ranked), settings, now)
    items = [i for fid, *_ in entries for i in brought.get(fid, [])]
    return FactsEnvelope(tuple(items), timelines, continuations)
