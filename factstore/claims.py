"""Claims: immutable testimony, "what was asserted, by whom, when" (seed 001).

Every assertion an extractor lifts from a document is a claim, whatever triage then made of
it: written as a fact, taken as a restatement of one, contested, written already superseded,
parked, absorbed into another fact's event, or dropped by hygiene (with the reason). A claim
never changes except for its lifecycle marks: superseded by a living document's newer
version, or by a re-extraction with another extractor generation. Facts are the adjudicated
layer; the evidence bridge says which claims support or contradict each fact.

Pure: the drafts the write path stores and the result types reads return.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from factstore.asserted_time import asserted_interval
from factstore.frames import pandas_frame, polars_frame

#: What triage made of a claim (``claims.triage``).
TRIAGES = ("written", "restatement", "contested", "superseded", "parked", "dropped",
           "absorbed")
#: The write path's outcome names (FactOutcome.outcome) and the triage each records.
TRIAGE_OF_OUTCOME = {
    "written": "written", "superseded-prior": "written", "ground-truth-won": "written",
    "contested": "contested", "parked": "parked",
    "ground-truth-lost": "superseded", "older-reading": "superseded",
    "recaptured": "restatement", "unchanged": "restatement",
}
#: Why a claim stopped being current testimony (``claims.superseded_why``).
SUPERSEDED_WHY = ("living-version", "re-extraction")
#: A claim's status: current testimony, superseded (historical), or from a removed source.
STATUSES = ("current", "superseded", "removed")


@dataclass(frozen=True)
class ClaimDraft:
    """One claim as the write path is about to store it (before triage decides)."""

    statement: str
    quote: str
    kind: str
    asserter: str | None
    asserter_is: str | None
    valid_from: str | None
    valid_to: str | None


def draft_claim(statement: str, quote: str, kind: str, *, speaker: str | None,
                source_ref: str | None) -> ClaimDraft:
    """The claim an extracted assertion makes: who asserted it (the chat turn's speaker,
    else the source) and the validity its quote states, if any."""
    if speaker:
        asserter, asserter_is = speaker[:2100], "speaker"
    elif source_ref:
        asserter, asserter_is = source_ref[:2100], "source"
    else:
        asserter, asserter_is = None, None
    interval = asserted_interval(quote)
    return ClaimDraft(statement, quote, (kind or "?")[:64], asserter, asserter_is,
                      interval.valid_from if interval else None,
                      interval.valid_to if interval else None)


@dataclass(frozen=True)
class Claim:
    """One piece of testimony. ``status`` says whether it counts now."""

    id: int
    statement: str
    quote: str
    kind: str
    document_id: int
    lineage: str
    document_version: int
    asserter: str | None
    #: 'speaker' (a chat turn's speaker) or 'source' (the document's source); None: unknown
    asserter_is: str | None
    asserted_at: datetime
    #: the extraction generation (extractor name and version); None for claims recovered
    #: from facts written before extractors were recorded
    extractor: str | None
    #: the validity the text asserts: testimony, never a verdict
    valid_from: str | None
    valid_to: str | None
    #: written | restatement | contested | superseded | parked | dropped | absorbed
    triage: str
    triage_reason: str | None
    #: the fact triage tied it to (None when dropped)
    fact_id: int | None
    recorded_at: datetime
    superseded_at: datetime | None = None
    #: 'living-version' or 're-extraction'
    superseded_why: str | None = None
    superseded_by_document: int | None = None
    #: its lineage was removed (Store.remove_source): it no longer counts
    lineage_removed: bool = False

    grain = "claim"

    @property
    def status(self) -> str:
        """'removed', 'superseded' or 'current'."""
        if self.lineage_removed:
            return "removed"
        return "superseded" if self.superseded_at is not None else "current"

    def as_row(self) -> dict[str, Any]:
        return {**asdict(self), "status": self.status, "grain": self.grain}


CLAIM_COLUMNS = ("id", "grain", "status", "statement", "quote", "kind", "triage",
                 "triage_reason", "fact_id", "document_id", "lineage", "document_version",
                 "asserter", "asserter_is", "asserted_at", "extractor", "valid_from",
                 "valid_to", "recorded_at", "superseded_at", "superseded_why",
                 "superseded_by_document", "lineage_removed")


class ClaimList(list[Claim]):
    """Store.claims: testimony, newest first. A plain list with frames and an HTML table."""

    grain = "claim"
    #: the offset to pass for the next page, None when this page was the last
    next_offset: int | None = None

    def to_pandas(self) -> Any:
        return pandas_frame((c.as_row() for c in self), CLAIM_COLUMNS)

    def to_polars(self) -> Any:
        return polars_frame([c.as_row() for c in self], CLAIM_COLUMNS)

    def _repr_html_(self) -> str:
        from factstore.html import claims_html

        return claims_html(self)


def claim_list(claims: Iterable[Claim], next_offset: int | None = None) -> ClaimList:
    out = ClaimList(claims)
    out.next_offset = next_offset
    return out
