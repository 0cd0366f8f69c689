"""The density check's SQL: the near-hits of a new fact, same-subject facts first.

Kind and verdicts are written into the SQL as literals so the planner can match each kind's
partial HNSW index; what the hits mean is decided by the pure
:mod:`factstore.writepath.density`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from psycopg import sql

from factstore.kinds import LIVE_VERDICTS, RETRIEVABLE_VERDICTS, Kind
from factstore.settings import Settings
from factstore.writepath.density import NearHit
from factstore.writepath.prepare import PreparedFact


def tune_knn(cur: Any, settings: Settings) -> None:
    cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(settings.ef_search)))
    # Keep scanning past filtered rows (shared-tag restriction) instead of returning too few.
    cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")


def density_check(cur: Any, kind: Kind, vector: np.ndarray, tags: list[str],
                  settings: Settings, floor: float | None = None) -> list[NearHit]:
    """Same-kind live facts at or above ``floor`` (default the density threshold), nearest
    first, over the kind's partial HNSW index."""
    # Kind and verdicts are literals so the planner can match the partial HNSW index.
    live = sql.SQL(", ").join(sql.Literal(v.value) for v in LIVE_VERDICTS)
    retrievable = sql.SQL(", ").join(sql.Literal(v.value) for v in RETRIEVABLE_VERDICTS)
    tag_filter = sql.SQL("AND tags && %(tags)s") if settings.density_shared_tag and tags \
        else sql.SQL("")
    query = sql.SQL(
        "SELECT id, kind, statement, evidence_quote, verdict, t_captured, t_said, subject_key, "
        "predicate, object, 1 - (embedding <=> %(v)s) AS similarity FROM facts "
        "WHERE kind = {kind} AND verdict IN ({retrievable}) AND verdict IN ({live}) {tags} "
        "AND embedding IS NOT NULL "
        "ORDER BY embedding <=> %(v)s LIMIT %(k)s"
    ).format(kind=sql.Literal(kind.value), live=live, retrievable=retrievable, tags=tag_filter)
    cur.execute(query, {"v": vector, "tags": tags, "k": settings.density_k})
    edge = settings.density_threshold if floor is None else floor
    hits = [_near_hit(r) for r in cur.fetchall()]
    return sorted((h for h in hits if h.similarity >= edge), key=lambda h: -h.similarity)


def same_subject_hits(cur: Any, kind: Kind, subject: str, vector: np.ndarray, tags: list[str],
                      settings: Settings, floor: float) -> list[NearHit]:
    """Live facts of this kind about the same subject, nearest first, at or above ``floor``.

    An exact scan of the subject's rows (the btree on kind and subject key, never the HNSW
    index: see the ORDER BY), so a fact about
    the same subject is found even when the kind-wide HNSW neighbourhood is crowded by
    other subjects' near-identical facts ("svc-6 is red" beside "svc-7 is red").
    """
    tag_filter = "AND tags && %(tags)s" if settings.density_shared_tag and tags else ""
    cur.execute(
        "SELECT id, kind, statement, evidence_quote, verdict, t_captured, t_said, subject_key, "
        "predicate, object, 1 - (embedding <=> %(v)s) AS similarity FROM facts "
        "WHERE kind = %(kind)s AND subject_key = %(s)s AND verdict IN ('active', 'contested') "
        f"AND embedding IS NOT NULL AND attribute IS NULL {tag_filter} "
        # Ordered by the similarity, not by `embedding <=> v`: an ordering the HNSW index
        # cannot serve, so the planner reads the subject's rows off the btree and the scan
        # stays exact. Served by a kind's HNSW index with the subject as a filter (the
        # planner chose that for large subjects at 1M facts), the iterative scan walks the
        # graph and stops at hnsw.max_scan_tuples: slow, and it can miss the subject's rows.
        "ORDER BY similarity DESC LIMIT %(k)s",
        {"v": vector, "kind": kind.value, "s": subject, "tags": tags, "k": settings.density_k})
    hits = [_near_hit(r) for r in cur.fetchall()]
    return [h for h in hits if h.similarity >= floor]


def _near_hit(row: dict[str, Any]) -> NearHit:
    return NearHit(row["id"], Kind(row["kind"]), row["statement"], row["evidence_quote"],
                   row["verdict"], float(row["similarity"]), row["t_captured"],
                   row["subject_key"], row["t_said"], row.get("predicate"), row.get("object"))


def near_hits(cur: Any, fact: PreparedFact, vector: np.ndarray, tags: list[str],
              settings: Settings) -> list[NearHit]:
    """The density check's near-hits: same-subject facts first, then the kind's neighbours."""
    floor = min(settings.contradiction_floor, settings.density_threshold)
    found: dict[int, NearHit] = {}
    if fact.subject_key is not None:
        for hit in same_subject_hits(cur, fact.kind, fact.subject_key, vector, tags, settings,
                                     min(settings.subject_floor, settings.density_threshold)):
            found[hit.id] = hit
    for hit in density_check(cur, fact.kind, vector, tags, settings, floor):
        found.setdefault(hit.id, hit)
    return sorted(found.values(), key=lambda h: (-h.similarity, h.id))
