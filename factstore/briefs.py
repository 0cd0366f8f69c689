"""What recall adds to a brief: one labelled line per served item.

A brief starts with the timelines a question is about (seed 002 §7). A store of chats often
has none for the question asked ("when did Caroline go to the support group?"), so the
brief also carries what recall serves, each line saying what it is: a fact believed now, an
event with the date it happened, history, or raw text with the date it was said. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from factstore.kinds import Kind
from factstore.results import RecallItem

__all__ = ["RECALLED_MAX", "recalled_lines"]

#: How many recalled items a brief carries.
RECALLED_MAX = 6
_SNIPPET = 300


def _day(instant: datetime | None) -> str | None:
    return instant.astimezone(UTC).strftime("%Y-%m-%d") if instant else None


def _said(item: RecallItem) -> str | None:
    if item.fact is not None:
        return _day(item.fact.t_said or item.fact.t_captured)
    if item.document is not None:
        return _day(item.document.said_at or item.document.captured_at)
    return None


def _source(item: RecallItem) -> str | None:
    if item.fact is not None and item.fact.evidence_source_ref:
        return item.fact.evidence_source_ref
    if item.document is not None:
        return item.document.source_ref
    return None


def recalled_line(number: int, item: RecallItem) -> str:
    """'R2 [event 2023-05-07] Caroline went to a support group. (said 2023-05-08, source
    conv-26#D1:3)'."""
    said, source = _said(item), _source(item)
    tail = ", ".join(p for p in (f"said {said}" if said else None,
                                 f"source {source}" if source else None) if p)
    fact = item.fact
    if fact is None:
        text = " ".join((item.document.content if item.document else "").split())
        if len(text) > _SNIPPET:
            text = text[:_SNIPPET].rsplit(" ", 1)[0] + " …"
        tag = "history" if item.label.code == "superseded-source" else "raw text"
        return f"R{number} [{tag}] {text}" + (f" ({tail})" if tail else "")
    if fact.kind is Kind.EVENT:
        when = _day(fact.event_at) or said
        tag = f"event {when}" if when else "event"
    elif item.label.present_tense:
        tag = f"{fact.kind.value.lower()}, believed now"
    else:
        tag = f"{fact.kind.value.lower()}, {item.label.code}"
    return f"R{number} [{tag}] {fact.statement}" + (f" ({tail})" if tail else "")


def recalled_lines(items: Sequence[RecallItem], limit: int = RECALLED_MAX) -> tuple[str, ...]:
    """The lines of the first ``limit`` items that are not timeline facts (the timelines
    part of the brief reads those already), each fact or document once."""
    lines: list[str] = []
    seen: set[tuple[str, int]] = set()
    for item in items:
        if item.fact is not None and item.fact.attribute is not None:
            continue  # a timeline fact ("shoe_size(person/nick) = 41"): the lines have it
        key = ("fact", item.fact.id) if item.fact is not None else (
            "document", item.document.id if item.document else -1)
        if key in seen:
            continue
        seen.add(key)
        lines.append(recalled_line(len(lines) + 1, item))
        if len(lines) >= limit:
            break
    return tuple(lines)
