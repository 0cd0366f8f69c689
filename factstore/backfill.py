"""Records for bulk import of already-adjudicated facts (migrating another store's export).

Imported facts skip extraction and triage (they were adjudicated where they came from) but
keep the law: a verbatim quote, a source, a verdict, a history row, a document to point at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from factstore.errors import InvalidInput
from factstore.kinds import (
    KIND_COLUMNS,
    PER_KIND_COLUMNS,
    Kind,
    Verdict,
    parse_kind,
    parse_source_type,
)


@dataclass(frozen=True)
class FactRecord:
    """One fact as another store exported it."""

    statement: str
    kind: str
    quote: str
    source_type: str = "capture"
    source_ref: str | None = None
    captured_by: str | None = None
    said_at: datetime | None = None
    captured_at: datetime | None = None
    tags: tuple[str, ...] = ()
    verdict: str = "active"
    scope: str | None = None
    status_detail: str | None = None
    trigger_predicate: str | None = None
    risk_weight: str | None = None
    earned_by: str | None = None
    subject: str | None = None
    expected_lifetime: timedelta | None = None
    meta: dict[str, object] = field(default_factory=dict)


def check_record(index: int, record: FactRecord) -> list[str]:
    """Every problem with one record, as 'records[i].field: reason' strings."""
    problems = []
    where = f"records[{index}]"
    if not isinstance(record.statement, str) or not record.statement.strip():
        problems.append(f"{where}.statement: must be non-empty text")
    if not isinstance(record.quote, str) or not record.quote.strip():
        problems.append(f"{where}.quote: a verbatim quote is required")
    try:
        kind = parse_kind(record.kind)
    except InvalidInput as exc:
        problems.append(f"{where}.kind: {exc}")
        kind = None
    try:
        parse_source_type(record.source_type)
    except InvalidInput as exc:
        problems.append(f"{where}.source_type: {exc}")
    if record.verdict not in (Verdict.ACTIVE, Verdict.PARKED, Verdict.WITHDRAWN):
        problems.append(f"{where}.verdict: imports may be active, parked or withdrawn; "
                        "superseded and contested need their partner, so import both and "
                        "resolve in the store")
    for name in ("said_at", "captured_at"):
        value = getattr(record, name)
        if value is not None and (not isinstance(value, datetime) or value.tzinfo is None):
            problems.append(f"{where}.{name}: must be a timezone-aware datetime")
    if kind is not None:
        for name in PER_KIND_COLUMNS:
            if getattr(record, name) is not None and name not in KIND_COLUMNS[kind]:
                problems.append(f"{where}.{name}: {kind.value} does not own {name}")
    return problems


def record_kind(record: FactRecord) -> Kind:
    return parse_kind(record.kind)
