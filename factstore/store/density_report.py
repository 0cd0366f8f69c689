"""The store-wide density report's SQL: near-duplicate live pairs no conflict records.

The write path screens every fact it stores, so a pair above the threshold is a conflict
(or a restatement that was merged). Facts loaded by ``import_facts`` skip that screen; this
report finds what it would have flagged. Per kind, each live fact probes its kind's partial
HNSW index (kind and verdicts as literals, as ``density.py`` does) for its nearest
neighbours; a pair is reported when its cosine reaches the threshold, neither side is a
timeline fact, their subjects do not differ (the write path never pairs two subjects), and
no conflict names both.
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

from factstore.kinds import LIVE_VERDICTS, RETRIEVABLE_VERDICTS, Kind
from factstore.results import DensityPair
from factstore.settings import Settings
from factstore.store.density import tune_knn


def _live(alias: str, kind: Kind) -> sql.Composed:
    """The kind's partial-index predicate on ``alias`` (literals, so the index matches)."""
    a = sql.Identifier(alias)
    live = sql.SQL(", ").join(sql.Literal(v.value) for v in LIVE_VERDICTS)
    retrievable = sql.SQL(", ").join(sql.Literal(v.value) for v in RETRIEVABLE_VERDICTS)
    return sql.SQL("{a}.kind = {kind} AND {a}.verdict IN ({retrievable}) AND {a}.verdict IN "
                   "({live}) AND {a}.embedding IS NOT NULL AND {a}.attribute IS NULL").format(
        a=a, kind=sql.Literal(kind.value), live=live, retrievable=retrievable)


def unscreened_pairs(cur: Any, kind: Kind, threshold: float, limit: int,
                     settings: Settings) -> tuple[int, list[DensityPair]]:
    """(facts probed, pairs found) for one kind, at most ``limit`` pairs, nearest first."""
    tune_knn(cur, settings)
    cur.execute(sql.SQL("SELECT count(*) AS n FROM facts f WHERE {w}").format(
        w=_live("f", kind)))
    probed = cur.fetchone()["n"]
    cur.execute(sql.SQL(
        "SELECT DISTINCT ON (least(f.id, n.id), greatest(f.id, n.id)) "
        "least(f.id, n.id) AS a, greatest(f.id, n.id) AS b, n.similarity, "
        "CASE WHEN f.id < n.id THEN f.statement ELSE n.statement END AS statement_a, "
        "CASE WHEN f.id < n.id THEN n.statement ELSE f.statement END AS statement_b "
        "FROM facts f CROSS JOIN LATERAL ("
        "  SELECT g.id, g.statement, g.subject_key, 1 - (g.embedding <=> f.embedding) "
        "  AS similarity FROM facts g WHERE {wg} AND g.id <> f.id "
        "  ORDER BY g.embedding <=> f.embedding LIMIT %(k)s) n "
        "WHERE {wf} AND n.similarity >= %(t)s "
        "AND NOT (f.subject_key IS NOT NULL AND n.subject_key IS NOT NULL "
        "         AND f.subject_key <> n.subject_key) "
        "AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE "
        "  (c.fact_a = f.id AND c.fact_b = n.id) OR (c.fact_a = n.id AND c.fact_b = f.id))"
    ).format(wg=_live("g", kind), wf=_live("f", kind)),
        {"k": settings.density_k, "t": threshold})
    rows = sorted(cur.fetchall(), key=lambda r: (-r["similarity"], r["a"], r["b"]))
    return probed, [DensityPair(r["a"], r["b"], kind, round(float(r["similarity"]), 4),
                                r["statement_a"], r["statement_b"]) for r in rows[:limit]]
