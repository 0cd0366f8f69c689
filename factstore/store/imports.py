"""Bulk import of already-adjudicated facts: batched inserts, one history row each."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from factstore.backfill import FactRecord, record_kind
from factstore.statements import normalise_statement
from factstore.store.remember import content_hash, lineage_of
from factstore.writepath.prepare import fact_subject


def import_facts(cur: Any, records: list[FactRecord], vectors: np.ndarray,
                 doc_vectors: np.ndarray, at: datetime) -> list[int]:
    """Insert records (validated by the caller); returns the new fact ids in order."""
    doc_ids = _documents(cur, records, doc_vectors, at)
    rows = []
    for record, vector, doc_id in zip(records, vectors, doc_ids, strict=True):
        captured = record.captured_at or at
        key, source = fact_subject(record.subject, record.statement)
        rows.append((
            record.statement.strip(), normalise_statement(record.statement),
            record_kind(record).value, list(record.tags), record.verdict, record.quote.strip(),
            record.source_type, record.source_ref, record.captured_by, doc_id, record.said_at,
            captured, captured, record.scope, record.status_detail, record.trigger_predicate,
            record.risk_weight, record.earned_by, record.subject, record.expected_lifetime,
            vector, Jsonb({**record.meta, "imported": True}), key, source,
        ))
    cur.executemany(
        "INSERT INTO facts (statement, statement_norm, kind, tags, verdict, evidence_quote, "
        "evidence_source_type, evidence_source_ref, evidence_captured_by, document_id, t_said, "
        "t_captured, t_last_verified, scope, status_detail, trigger_predicate, risk_weight, "
        "earned_by, subject, expected_lifetime, embedding, meta, subject_key, subject_source) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
        "%s, %s, %s, %s, %s) RETURNING id",
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


def _documents(cur: Any, records: list[FactRecord], vectors: np.ndarray,
               at: datetime) -> list[int]:
    """One document per distinct (lineage, quote): the imported testimony."""
    keyed: dict[tuple[str, str], int] = {}
    out = []
    for record, vector in zip(records, vectors, strict=True):
        quote = record.quote.strip()
        digest = content_hash(quote)
        lineage = lineage_of(record.source_type, record.source_ref, digest)
        key = (lineage, digest)
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
