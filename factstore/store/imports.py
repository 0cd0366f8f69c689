"""Bulk import of already-adjudicated facts: batched inserts, one history row each, each
record once (by its import key) however often the import runs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from factstore.backfill import FactRecord, record_key, record_kind
from factstore.statements import normalise_statement
from factstore.store import locks
from factstore.store.remember import content_hash, lineage_of
from factstore.writepath.prepare import fact_subject


def import_facts(cur: Any, records: list[FactRecord], vectors: np.ndarray,
                 doc_vectors: np.ndarray, at: datetime) -> list[int]:
    """Insert records (validated by the caller); returns each record's fact id in order.

    A record whose import key (:func:`record_key`) already landed, in an earlier run or
    earlier in this batch, is not inserted again: its id is the fact it already is. So a
    re-run of an export, or one resumed after a crash, writes only what is missing.
    """
    keys = [record_key(r) for r in records]
    lineages = [_lineage(r)[0] for r in records]
    locks.lock_lineages(cur, lineages)  # the lock order: lineages, then import keys
    locks.lock_import_keys(cur, keys)
    cur.execute("SELECT import_key, id FROM facts WHERE import_key = ANY(%s)",
                (sorted(set(keys)),))
    landed: dict[str, int] = {r["import_key"]: r["id"] for r in cur.fetchall()}
    fresh, seen = [], set(landed)
    for i, key in enumerate(keys):  # the first occurrence of each key new to the store
        if key not in seen:
            seen.add(key)
            fresh.append(i)
    if fresh:
        new_ids = _insert(cur, [records[i] for i in fresh], vectors[fresh], doc_vectors[fresh],
                          [keys[i] for i in fresh], at)
        landed.update(zip((keys[i] for i in fresh), new_ids, strict=True))
    return [landed[key] for key in keys]


def _insert(cur: Any, records: list[FactRecord], vectors: np.ndarray, doc_vectors: np.ndarray,
            keys: list[str], at: datetime) -> list[int]:
    doc_ids = _documents(cur, records, doc_vectors, at)
    rows = []
    for record, vector, doc_id, import_key in zip(records, vectors, doc_ids, keys, strict=True):
        captured = record.captured_at or at
        key, source = fact_subject(record.subject, record.statement)
        rows.append((
            record.statement.strip(), normalise_statement(record.statement),
            record_kind(record).value, list(record.tags), record.verdict, record.quote.strip(),
            record.source_type, record.source_ref, record.captured_by, doc_id, record.said_at,
            captured, captured, record.scope, record.status_detail, record.trigger_predicate,
            record.risk_weight, record.earned_by, record.subject, record.expected_lifetime,
            vector, Jsonb({**record.meta, "imported": True}), key, source, import_key,
        ))
    cur.executemany(
        "INSERT INTO facts (statement, statement_norm, kind, tags, verdict, evidence_quote, "
        "evidence_source_type, evidence_source_ref, evidence_captured_by, document_id, t_said, "
        "t_captured, t_last_verified, scope, status_detail, trigger_predicate, risk_weight, "
        "earned_by, subject, expected_lifetime, embedding, meta, subject_key, subject_source, "
        "import_key) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
        "%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        rows, returning=True)
    ids = []
    while True:
        ids.append(cur.fetchone()["id"])
        if not cur.nextset():
            break
    cur.executemany(
        "INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at) VALUES "
        "(%s, %s, %s, 'supports', %s)",
        [(fid, did, r.quote.strip(), at) for fid, did, r in zip(ids, doc_ids, records,
                                                                strict=True)])
    cur.executemany(
        "INSERT INTO fact_history (fact_id, from_verdict, to_verdict, reason, at) VALUES "
        "(%s, NULL, %s, 'imported: adjudicated by the source store', %s)",
        [(fid, r.verdict, at) for fid, r in zip(ids, records, strict=True)])
    return ids


def _lineage(record: FactRecord) -> tuple[str, str]:
    digest = content_hash(record.quote.strip())
    return lineage_of(record.source_type, record.source_ref, digest), digest


def _documents(cur: Any, records: list[FactRecord], vectors: np.ndarray,
               at: datetime) -> list[int]:
    """One document per distinct (lineage, quote): the imported testimony.

    Each lineage's lock is held before its next version number is read, as ``remember``
    does, so concurrent imports (and captures) of one source never number two versions alike.
    """
    keys = [_lineage(record) for record in records]
    locks.lock_lineages(cur, [lineage for lineage, _ in keys])  # held already: re-entrant
    keyed: dict[tuple[str, str], int] = {}
    out = []
    for record, vector, key in zip(records, vectors, keys, strict=True):
        quote = record.quote.strip()
        lineage, digest = key
        if key not in keyed:
            cur.execute(
                "INSERT INTO documents (content, content_hash, source_type, source_ref, lineage, "
                "version, said_at, captured_by, captured_at, routed, embedding, meta) VALUES "
                "(%(c)s, %(h)s, %(st)s, %(sr)s, %(l)s, (SELECT COALESCE(max(version), 0) + 1 FROM "
                "documents WHERE lineage = %(l)s), %(sa)s, %(cb)s, %(at)s, 'facts', %(v)s, "
                "'{\"imported\": true}') ON CONFLICT (lineage, content_hash) DO UPDATE SET "
                "content = EXCLUDED.content RETURNING id",
                {"c": quote, "h": digest, "st": record.source_type, "sr": record.source_ref,
                 "l": lineage, "sa": record.said_at, "cb": record.captured_by,
                 "at": record.captured_at or at, "v": vector})
            keyed[key] = cur.fetchone()["id"]
        out.append(keyed[key])
    return out
