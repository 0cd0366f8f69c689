"""Records for bulk import of already-adjudicated facts (migrating another store's export).

Imported facts skip extraction and triage (they were adjudicated where they came from) but
keep the law: a verbatim quote, a source, a verdict, a history row, a document to point at.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from factstore.errors import InvalidInput
from factstore.inputs import (
    MAX_REF,
    MAX_REF_BYTES,
    MAX_TAG,
    check_instant,
    check_json,
    check_text,
    show,
)
from factstore.kinds import (
    KIND_COLUMNS,
    PER_KIND_COLUMNS,
    Kind,
    Verdict,
    parse_kind,
    parse_source_type,
)
from factstore.lifetimes import parse_lifetime
from factstore.redaction import redact, redact_json, redact_text
from factstore.statements import normalise_statement

#: Limits of an imported record's texts (the columns the write path fills).
MAX_STATEMENT = 4000
MAX_QUOTE = 20_000
MAX_FIELD = 2000
MAX_META = 100_000


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
    #: the exporter's stable id for this record, if it has one; else the import derives one
    #: from what the record says and where it came from (:func:`record_key`)
    key: str | None = None


def record_key(record: FactRecord) -> str:
    """The record's import key: a re-run of the same export finds what already landed by it.

    ``key:<id>`` for an exporter's own id; otherwise ``sha256:`` of the kind, the
    normalised statement, the quote and the provenance (source type, ref, said_at,
    subject), so the same record exported twice is one fact, and two records that differ in
    any of these are two.
    """
    if record.key is not None:
        return "key:" + record.key
    said = record.said_at.isoformat() if record.said_at is not None else None
    body = json.dumps([parse_kind(record.kind).value, normalise_statement(record.statement),
                       record.quote.strip(), record.source_type, record.source_ref, said,
                       record.subject], ensure_ascii=False)
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


def check_record(index: int, record: object) -> list[str]:
    """Every problem with one record, as 'records[i].field: reason' strings."""
    where = f"records[{index}]"
    if not isinstance(record, FactRecord):
        return [f"{where}: must be a FactRecord, got {show(record)}"]
    problems = []

    def check(name: str, fn: Callable[[], object]) -> None:
        try:
            fn()
        except InvalidInput as exc:
            problems.append(f"{where}.{name}: {exc}")

    check("statement", lambda: check_text("statement", record.statement, limit=MAX_STATEMENT))
    check("quote", lambda: check_text("a verbatim quote", record.quote, limit=MAX_QUOTE))
    for name in ("source_ref", "captured_by"):
        check(name, lambda name=name: check_text(name, getattr(record, name), limit=MAX_REF,
                                                 required=False, max_bytes=MAX_REF_BYTES))
    check("key", lambda: check_text("key", record.key, limit=MAX_TAG, required=False))
    for name in ("scope", "status_detail", "trigger_predicate", "risk_weight", "earned_by",
                 "subject"):
        check(name, lambda name=name: check_text(name, getattr(record, name), limit=MAX_FIELD,
                                                 required=False))
    try:
        kind = parse_kind(record.kind)
    except InvalidInput as exc:
        problems.append(f"{where}.kind: {exc}")
        kind = None
    check("source_type", lambda: parse_source_type(record.source_type))
    if not isinstance(record.verdict, str) or record.verdict not in (
            Verdict.ACTIVE, Verdict.PARKED, Verdict.WITHDRAWN):
        problems.append(f"{where}.verdict: imports may be active, parked or withdrawn; "
                        "superseded and contested need their partner, so import both and "
                        "resolve in the store")
    for name in ("said_at", "captured_at"):
        value = getattr(record, name)
        if value is not None and not isinstance(value, datetime):
            problems.append(f"{where}.{name}: must be a timezone-aware datetime")
        else:
            check(name, lambda name=name: check_instant(name, getattr(record, name)))
    if isinstance(record.tags, str) or not isinstance(record.tags, tuple | list):
        problems.append(f"{where}.tags: must be a tuple of tag names, got {show(record.tags)}")
    else:
        for i, tag in enumerate(record.tags):
            check(f"tags[{i}]", lambda tag=tag: check_text("a tag", tag, limit=MAX_TAG))
    if record.expected_lifetime is not None:
        check("expected_lifetime", lambda: parse_lifetime(record.expected_lifetime))
    if not isinstance(record.meta, dict):
        problems.append(f"{where}.meta: must be a dict, got {show(record.meta)}")
    else:
        check("meta", lambda: check_json("meta", record.meta, limit=MAX_META))
    if kind is not None:
        for name in PER_KIND_COLUMNS:
            if getattr(record, name) is not None and name not in KIND_COLUMNS[kind]:
                problems.append(f"{where}.{name}: {kind.value} does not own {name}")
    return problems


def redact_record(record: FactRecord) -> tuple[FactRecord, tuple[str, ...]]:
    """The record with every text it carries redacted (statement, quote, provenance, tags,
    meta), and the kinds of secret removed. A redacted field stays within its limit."""
    kinds: set[str] = set()

    def clean(value: str | None, limit: int) -> str | None:
        cleaned, found = redact_text(value, limit)
        kinds.update(found)
        return cleaned

    meta, found = redact_json(record.meta)
    kinds.update(found)
    cleaned = replace(
        record, statement=clean(record.statement, MAX_STATEMENT),
        quote=clean(record.quote, MAX_QUOTE), source_ref=clean(record.source_ref, MAX_REF),
        captured_by=clean(record.captured_by, MAX_REF),
        tags=tuple(t for t in record.tags if not redact(t)[1]),
        meta=meta if isinstance(meta, dict) else record.meta,
        **{name: clean(getattr(record, name), MAX_FIELD)
           for name in ("status_detail", "trigger_predicate", "earned_by")})
    if len(cleaned.tags) != len(record.tags):
        kinds.add("tag")
    if kinds:
        cleaned = replace(cleaned, meta={**cleaned.meta, "redactions": sorted(kinds)})
    return cleaned, tuple(sorted(kinds))


def record_kind(record: FactRecord) -> Kind:
    return parse_kind(record.kind)
