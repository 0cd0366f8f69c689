"""A timeline fact's row: the columns reads select, the row as a TimelineFact, and the plain
statement a timeline fact stores in the common frame."""

from __future__ import annotations

from typing import Any

from factstore.store.sealed import open_row
from factstore.timelines.format_v1 import WrittenFact
from factstore.timelines.model import VERDICT_TO_STATUS, TimelineFact

TIMELINE_COLUMNS = (
    "id, subject, attribute, value, unit, cardinality, valid_from, valid_to, observed_at, "
    "last_confirmed_at, t_captured, evidence_source_ref, evidence_quote, confidence, verdict, "
    "effective_valid_to, superseded_by, supersedes, timeline_scope, access_scope, sealed_version"
)


def timeline_fact(row: dict[str, Any]) -> TimelineFact:
    row = open_row("facts", row)
    status = VERDICT_TO_STATUS[row["verdict"]]
    return TimelineFact(
        id=row["id"], subject=row["subject"], attribute=row["attribute"], value=row["value"],
        unit=row["unit"], cardinality=row["cardinality"], valid_from=row["valid_from"],
        valid_to=row["valid_to"], observed_at=row["observed_at"],
        last_confirmed_at=row["last_confirmed_at"], recorded_at=row["t_captured"],
        source=row["evidence_source_ref"], quote=row["evidence_quote"],
        confidence=row["confidence"], retracted=status == "retracted", status=status,
        effective_valid_to=row["effective_valid_to"], superseded_by=row["superseded_by"],
        supersedes=row["supersedes"], scope=row.get("timeline_scope"))


def statement_of(fact: WrittenFact | TimelineFact) -> str:
    """A plain statement for the common frame: 'shoe_size(person/nick) = 41 EU from 2026'."""
    text = f"{fact.attribute}({fact.subject}) = {fact.value}"
    text += f" {fact.unit}" if fact.unit else ""
    text += f" from {fact.valid_from}" if fact.valid_from else ""
    return text + (f" until {fact.valid_to}" if fact.valid_to else "")

__all__ = ["TIMELINE_COLUMNS", "statement_of", "timeline_fact"]
