"""Row <-> result conversion for the store's SQL."""

from __future__ import annotations

from typing import Any

from factstore.kinds import Kind, Verdict
from factstore.results import DocumentHit, Fact
from factstore.store.sealed import open_row

#: Every facts column a Fact needs, in SELECT form (the embedding is never read back).
FACT_COLUMNS = (
    "f.id, f.statement, f.kind, f.tags, f.verdict, f.evidence_quote, f.evidence_source_type, "
    "f.evidence_source_ref, f.evidence_captured_by, f.document_id, f.t_said, f.t_captured, "
    "f.t_last_verified, f.t_superseded, f.supersedes, f.superseded_by, f.scope, f.status_detail, "
    "f.trigger_predicate, f.risk_weight, f.earned_by, f.subject, f.expected_lifetime, f.meta, "
    "f.subject_key, f.extracted_by, f.predicate, f.object, f.asserter, f.negated, "
    "f.subject_entity::text AS subject_entity, f.event_at, f.event_at_source, f.confidence, "
    "f.access_scope, f.sealed_version, f.attribute, "
    # support: distinct lineages with current supporting testimony (sql/015 fact_support)
    "fact_support(f.id) AS support_count, "
    "EXISTS (SELECT 1 FROM evidence e WHERE e.fact_id = f.id AND e.stance = 'supports') "
    "AS has_testimony"
)


def fact_from_row(row: dict[str, Any]) -> Fact:
    row = open_row("facts", row)
    return Fact(
        id=row["id"],
        statement=row["statement"],
        kind=Kind(row["kind"]),
        tags=tuple(row["tags"] or ()),
        verdict=Verdict(row["verdict"]),
        evidence_quote=row["evidence_quote"],
        evidence_source_type=row["evidence_source_type"],
        evidence_source_ref=row["evidence_source_ref"],
        evidence_captured_by=row["evidence_captured_by"],
        document_id=row["document_id"],
        t_said=row["t_said"],
        t_captured=row["t_captured"],
        t_last_verified=row["t_last_verified"],
        t_superseded=row["t_superseded"],
        supersedes=row["supersedes"],
        superseded_by=row["superseded_by"],
        scope=row["scope"],
        status_detail=row["status_detail"],
        trigger_predicate=row["trigger_predicate"],
        risk_weight=row["risk_weight"],
        earned_by=row["earned_by"],
        subject=row["subject"],
        expected_lifetime=row["expected_lifetime"],
        meta=dict(row["meta"] or {}),
        support_count=int(row.get("support_count") or 0),
        subject_key=row.get("subject_key"),
        extracted_by=row.get("extracted_by"),
        predicate=row.get("predicate"),
        object=row.get("object"),
        asserter=row.get("asserter"),
        negated=row.get("negated"),
        support_withdrawn=bool(row.get("has_testimony")) and not row.get("support_count"),
        subject_entity=row.get("subject_entity"),
        event_at=row.get("event_at"),
        event_at_source=row.get("event_at_source"),
        confidence=row.get("confidence"),
        attribute=row.get("attribute"),
    )


def document_from_row(row: dict[str, Any]) -> DocumentHit:
    row = open_row("documents", row)
    return DocumentHit(
        id=row["id"], content=row["content"], source_type=row["source_type"],
        source_ref=row["source_ref"], lineage=row["lineage"], captured_at=row["captured_at"],
        said_at=row.get("said_at"),
    )


def fetch_facts(cur: Any, ids: list[int]) -> dict[int, Fact]:
    """Facts by id (missing ids are simply absent)."""
    if not ids:
        return {}
    cur.execute(f"SELECT {FACT_COLUMNS} FROM facts f WHERE f.id = ANY(%s)", (list(ids),))
    return {row["id"]: fact_from_row(row) for row in cur.fetchall()}


def fetch_fact(cur: Any, fact_id: int) -> Fact | None:
    return fetch_facts(cur, [fact_id]).get(fact_id)
