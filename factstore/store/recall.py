"""Recall's SQL: the four retrievers (facts and documents, by vector and by words) and what
the planner reads of their candidates. The decisions are factstore/hybrid.py's, serving
the planned slots is store/serving.py's; see docs/architecture.md, "Recall"."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from psycopg import sql

from factstore import hybrid
from factstore.entities.names import normalise, query_names
from factstore.extractors.turns import split_turns
from factstore.kinds import RETRIEVABLE_VERDICTS, Kind
from factstore.labels import answering_layer
from factstore.results import RecallResult
from factstore.settings import Settings
from factstore.store import serving
from factstore.store.sealed import open_row
from factstore.timelines.dates import parse_partial
from factstore.timelines.question_time import as_of_from_question


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
           now: datetime) -> tuple[RecallResult, list[tuple[str, str]]]:
    """Hybrid recall (factstore/hybrid.py): four retrievers, fused into slots, served with
    honest labels; a fact comes with the document it was read from. Also the (subject,
    attribute) keys of the timeline facts the words search found, best first: a timeline is
    served whole, as of the question's time, never as one of its rows."""
    n = max(settings.recall_candidates, k)
    fact_vector, fact_text, document_vector, document_text = _retrieve(
        cur, vector, query if settings.recall_lexical else None, n, settings)
    fact_text, timeline_keys = _timeline_rows_apart(cur, fact_text)

    fact_ids = sorted({f for f, _ in fact_vector} | {f for f, _ in fact_text})
    found_documents = sorted({d for d, _ in document_vector} | {d for d, _ in document_text})
    runs = query_names(query) if settings.recall_preference_weight else []
    about, documents, dead, people = _read(cur, vector, fact_ids, found_documents, runs)
    fact_document = {f: a["document_id"] for f, a in about.items()}
    slots_of_facts = {f: hybrid.slot_of(f, fact_document) for f in fact_ids}
    named: set[hybrid.SlotKey] = set()
    timed: set[hybrid.SlotKey] = set()
    later: set[hybrid.SlotKey] = set()
    if settings.recall_preference_weight:
        named = _named_slots(runs, people, about, documents, slots_of_facts)
        timed, later = _timed_slots(query, now, about, documents, slots_of_facts)
    # history: a document found on its own whose every fact is gone (not a candidate
    # fact's source: that one has a live fact)
    history = {("document", d) for d in dead} - {("document", a["document_id"])
                                                  for a in about.values()}
    vectors: dict[hybrid.SlotKey, np.ndarray] = {
        ("document", d): row["vector"] for d, row in documents.items()}
    vectors.update({("fact", f): a["vector"] for f, a in about.items()
                    if a["document_id"] is None and a["vector"] is not None})
    found = hybrid.Candidates(
        fact_vector=fact_vector, fact_text=fact_text, document_vector=document_vector,
        document_text=document_text,
        fact_document=fact_document,
        fact_cosine={f: a["cosine"] for f, a in about.items() if a["cosine"] is not None},
        document_cosine={d: row["cosine"] for d, row in documents.items()},
        named=named, timed=timed, history=history, later=later, vectors=vectors)
    # planned beyond k: a slot whose facts were all served already (as an earlier contested
    # fact's partners) brings nothing, and the next one takes its place
    slots = hybrid.plan(found, k=2 * k, recall_floor=settings.recall_floor,
                        document_floor=settings.document_floor, rrf_k=settings.recall_rrf_k,
                        lam=settings.recall_mmr_lambda,
                        preference_weight=settings.recall_preference_weight)
    items, continuations = serving.serve_slots(cur, slots, k, documents, found, settings, now)
    best = fact_vector[0][1] if fact_vector else None
    served_best = max((i.similarity for i in items if i.fact is not None
                       and i.served_as in ("hit", "same-source")), default=None)
    layer = answering_layer(served_best, floor=settings.recall_floor,
                            strong=settings.recall_strong,
                            documents_found=any(i.fact is None for i in items))
    if settings.recall_neighbours:
        items += serving.neighbour_items(
            cur, query, vector, [i for i in items if i.fact is not None], settings, now)
    return (RecallResult(query, layer, tuple(items), best, continuations=continuations),
            timeline_keys)


def _timeline_rows_apart(cur: Any, fact_text: list[tuple[int, float]]
                         ) -> tuple[list[tuple[int, float]], list[tuple[str, str]]]:
    """The words search's facts without the timeline rows, and those rows' keys in rank
    order (a row alone would serve one version of a value, labelled as if it held now)."""
    if not fact_text:
        return fact_text, []
    cur.execute("SELECT id, subject, attribute FROM facts WHERE id = ANY(%s) AND "
                "attribute IS NOT NULL", ([f for f, _ in fact_text],))
    rows = {r["id"]: (r["subject"], r["attribute"]) for r in cur.fetchall()}
    keys = list(dict.fromkeys(rows[f] for f, _ in fact_text if f in rows))
    return [(f, r) for f, r in fact_text if f not in rows], keys


def _retrieve(cur: Any, vector: np.ndarray, words: str | None, n: int, settings: Settings
              ) -> tuple[list[tuple[int, float]], ...]:
    """The four retrievers' candidates: facts by vector, facts by ``words``, documents by
    vector, documents by ``words`` (None: no words search). Sent one after another: a
    pipeline measured no faster here (each query is a few hundred microseconds of server
    time next to a local socket's round trip of tens)."""
    text = {"text": words, "rows": settings.recall_word_max_rows,
            "share": settings.recall_word_max_share, "n": n,
            "cap": RANKED_MATCHES}
    cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(
        sql.Literal(max(settings.ef_search, 2 * n))))
    cur.execute(_FACT_KNN, {"q": vector, "k": n})
    fact_vector = [(r["id"], 1.0 - float(r["distance"])) for r in cur.fetchall()]
    cur.execute(DOCUMENT_KNN, {"v": vector, "n": n})
    document_vector = [(r["id"], float(r["cosine"])) for r in cur.fetchall()]
    fact_text: list[tuple[int, float]] = []
    document_text: list[tuple[int, float]] = []
    if words:
        cur.execute(_FACT_TEXT, text)
        fact_text = [(r["id"], float(r["rank"])) for r in cur.fetchall()]
        cur.execute(_DOCUMENT_TEXT, text)
        document_text = [(r["id"], float(r["rank"])) for r in cur.fetchall()]
    return fact_vector, fact_text, document_vector, document_text


#: retrievable facts by their words, best first (ts_rank_cd normalised by length); the
#: question's words too common to search by are left out (search_query, migration 017), and
#: at most RANKED_MATCHES matches are ranked, so a words search never ranks a whole table
_FACT_TEXT = ("WITH q AS (SELECT search_query('facts'::regclass, %(text)s, %(rows)s, "
              "%(share)s) AS q), "
              "m AS (SELECT f.id, f.tsv FROM facts f, q WHERE f.tsv @@ q.q "
              "AND f.verdict IN ('active', 'contested', 'parked') LIMIT %(cap)s) "
              "SELECT m.id, ts_rank_cd(m.tsv, q.q, 1) AS rank FROM m, q "
              "ORDER BY rank DESC, m.id LIMIT %(n)s")
#: documents of sources not removed, nearest first
_LIVE_SOURCE = ("NOT EXISTS (SELECT 1 FROM lineages l WHERE l.access_scope = d.access_scope AND l.lineage = d.lineage AND "
                "l.removed_at IS NOT NULL)")
# The HNSW scan runs first and the removed sources are dropped after it: written as one
# filtered query, the anti-join on lineages turns the plan into a scan of every document.
# Removed sources are few, so twice n nearest leave n to serve.
DOCUMENT_KNN = ("SELECT x.id, 1 - x.distance AS cosine FROM (SELECT d.id, d.lineage, d.access_scope, "
                 "d.embedding <=> %(v)s AS distance FROM documents d "
                 "ORDER BY d.embedding <=> %(v)s LIMIT 2 * %(n)s) x "
                 "WHERE NOT EXISTS (SELECT 1 FROM lineages l WHERE l.access_scope = x.access_scope AND "
                 "l.lineage = x.lineage "
                 "AND l.removed_at IS NOT NULL) ORDER BY x.distance LIMIT %(n)s")
#: documents of sources not removed, by their words, best first (as _FACT_TEXT)
_DOCUMENT_TEXT = ("WITH q AS (SELECT search_query('documents'::regclass, %(text)s, %(rows)s, "
                  "%(share)s) AS q), m AS (SELECT d.id, d.tsv FROM documents d, q WHERE d.tsv @@ q.q "
                  f"AND {_LIVE_SOURCE} LIMIT %(cap)s) "
                  "SELECT m.id, ts_rank_cd(m.tsv, q.q, 1) AS rank FROM m, q "
                  "ORDER BY rank DESC, m.id LIMIT %(n)s")
#: the most matches a words search ranks: ranking reads each match's tsvector (about 7 us a
#: row here), and the common words are left out already, but ANALYZE tracks common words
#: only down to a frequency, and a handful of words OR-ed add up. Past this many matches the
#: question holds no rare word, and the vector retrievers carry it.
RANKED_MATCHES = 500


def _read(cur: Any, vector: np.ndarray, fact_ids: list[int], document_ids: list[int],
          runs: list[str]) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]],
                                    set[int], dict[str, Any]]:
    """What the planner reads of the candidates: each fact's frame, each document's (the
    found ones and the candidate facts' sources), the found documents whose facts are all
    gone, and the people the question's word runs name."""
    # binary: vectors come as floats, not text to parse
    cur.execute(_FRAMES, {"ids": fact_ids, "v": vector}, binary=True)
    about = {r["id"]: {**r, "cosine": _float(r["cosine"]), "vector": _array(r["vector"])}
             for r in cur.fetchall()}
    cur.execute(_DOCUMENTS, {"docs": document_ids, "facts": fact_ids, "v": vector},
                binary=True)
    documents = {r["id"]: {"cosine": float(r["cosine"]), "vector": _array(r["vector"]),
                           "at": r["at"], "speakers": _speakers(_head(r))}
                 for r in cur.fetchall()}
    cur.execute(_GONE, {"d": document_ids})
    dead = {r["document_id"] for r in cur.fetchall()}
    people: dict[str, Any] = {}
    if runs:
        cur.execute(_PEOPLE, {"runs": runs, "docs": document_ids})
        people = cur.fetchone() or {}
    return about, documents, dead, people


# a fact's vector is read only for a slot of its own (no document): MMR compares slots by
# their document's vector
_FRAMES = ("SELECT id, document_id, subject_entity::text AS entity, asserter, "
           "coalesce(event_at, t_said, t_captured) AS at, "
           "CASE WHEN document_id IS NULL THEN embedding END AS vector, "
           "1 - (embedding <=> %(v)s) AS cosine FROM facts WHERE id = ANY(%(ids)s)")
# a speaker prefix opens a turn, and a long file has none past its opening
# (a sealed document is read whole: its envelope opens only whole)
_DOCUMENTS = ("SELECT id, CASE WHEN sealed_version IS NULL THEN left(content, 2000) ELSE content "
              "END AS head, access_scope, sealed_version, coalesce(said_at, captured_at) AS at, "
              "embedding AS vector, 1 - (embedding <=> %(v)s) AS cosine FROM documents "
              "WHERE id = ANY(%(docs)s::bigint[] || ARRAY(SELECT document_id FROM facts "
              "WHERE id = ANY(%(facts)s) AND document_id IS NOT NULL))")
# facts read from a document, or tied to its claims, none of them retrievable any more
# (superseded, withdrawn, retracted); a document with no fact at all is unread, not gone
_GONE = ("SELECT t.document_id FROM (SELECT c.document_id, c.fact_id FROM claims c "
         "WHERE c.document_id = ANY(%(d)s) AND c.fact_id IS NOT NULL UNION "
         "SELECT f.document_id, f.id FROM facts f WHERE f.document_id = ANY(%(d)s)) t "
         "JOIN facts f ON f.id = t.fact_id GROUP BY t.document_id "
         "HAVING NOT bool_or(f.verdict IN ('active', 'contested', 'parked'))")
# the entities the runs name (merges followed both ways), all their names, and the found
# documents that mention them
_PEOPLE = (
    "WITH named AS (SELECT DISTINCT coalesce(e.merged_into, e.id) AS id FROM entity_names n "
    "JOIN entities e ON e.id = n.entity_id WHERE n.name_norm = ANY(%(runs)s)), "
    "members AS (SELECT id FROM named UNION SELECT e.id FROM entities e JOIN named "
    "ON e.merged_into = named.id) "
    "SELECT (SELECT array_agg(id::text) FROM members) AS ids, "
    "(SELECT array_agg(DISTINCT n.name_norm) FROM entity_names n JOIN members m "
    "ON m.id = n.entity_id) AS names, "
    "(SELECT array_agg(DISTINCT m.document_id) FROM mentions m WHERE "
    "m.document_id = ANY(%(docs)s) AND m.entity_id IN (SELECT id FROM members)) AS documents")


@functools.lru_cache(maxsize=4096)
def _speakers(head: str) -> frozenset[str]:
    """The normalised speakers of a capture's turns (cached: chat speakers repeat)."""
    return frozenset(normalise(t.speaker) for t in split_turns(head) if t.speaker)


def _named_slots(runs: list[str], people: Mapping[str, Any],
                 about: Mapping[int, Mapping[str, Any]],
                 documents: Mapping[int, Mapping[str, Any]],
                 slots_of_facts: Mapping[int, hybrid.SlotKey]) -> set[hybrid.SlotKey]:
    """Slots by or about a person the question names: a turn whose speaker it names (by
    any name of the entity that name resolves to), a found document that mentions that
    entity, a fact whose subject entity it is or whose asserter it names."""
    if not runs:
        return set()
    entities = set(people.get("ids") or ())
    names = set(runs) | set(people.get("names") or ())
    out: set[hybrid.SlotKey] = {("document", d) for d, doc in documents.items()
                                if doc["speakers"] & names}
    out |= {("document", d) for d in people.get("documents") or ()}
    out |= {slots_of_facts[f] for f, a in about.items()
            if a["entity"] in entities or (a["asserter"] and _normal(a["asserter"]) in names)}
    return out


@functools.lru_cache(maxsize=4096)
def _normal(name: str) -> str:
    return normalise(name)


def _timed_slots(query: str, now: datetime, about: Mapping[int, Mapping[str, Any]],
                 documents: Mapping[int, Mapping[str, Any]],
                 slots_of_facts: Mapping[int, hybrid.SlotKey]
                 ) -> tuple[set[hybrid.SlotKey], set[hybrid.SlotKey]]:
    """The slots from the time the question names ("in May 2023": a document said then, a
    fact whose event or saying falls in it), and the slots from after it (said or learnt
    later). None named, neither."""
    named = as_of_from_question(query, now)
    if named is None:
        return set(), set()
    period = parse_partial(named)
    end = period.end if period.end > period.start else period.start + timedelta(seconds=1)
    times = [(("document", d), doc["at"]) for d, doc in documents.items()]
    times += [(slots_of_facts[f], a["at"]) for f, a in about.items()]
    inside = {key for key, at in times if at is not None and period.start <= at < end}
    after = {key for key, at in times if at is not None and at >= end}
    # a document said then holds a fact learnt later only by re-extraction: it is from then
    return inside, after - inside


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _array(value: Any) -> np.ndarray | None:
    return None if value is None else np.asarray(value.to_numpy(), dtype=np.float32)


def _head(row: dict[str, Any]) -> str:
    """A document's opening 2,000 characters (a sealed one opened first)."""
    return open_row("documents", row, names={"content": "head"})["head"][:2000]
