"""The extractor protocol: text in, typed candidate facts out.

An extractor proposes; the write path disposes. Everything an extractor emits still passes
anchor hygiene, outcome absorption and topic hygiene before it can become a fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class ExtractionContext:
    """Where a capture came from; extractors may use it, never invent from it."""

    source_type: str = "utterance"
    source_ref: str | None = None
    said_at: datetime | None = None
    captured_by: str | None = None


@dataclass(frozen=True)
class ExtractedFact:
    """One candidate fact. ``quote`` must be a verbatim span of the source text."""

    statement: str
    kind: str
    quote: str
    topics: tuple[str, ...] = ()
    scope: str | None = None
    status_detail: str | None = None
    trigger_predicate: str | None = None
    risk_weight: str | None = None
    earned_by: str | None = None
    subject: str | None = None
    #: a re-verify cadence such as '2d'; parsed by the write path
    expected_lifetime: str | None = None
    #: the capture says, in so many words, that this replaces a prior belief
    supersedes: bool = False
    meta: dict[str, object] = field(default_factory=dict)
    #: the assertion's verb phrase ("moved", "prefers", "must run") and what it is about
    #: beyond the subject ("payments-api to Postgres 16"); any kind may carry them
    predicate: str | None = None
    object: str | None = None
    #: who asserted it: the chat turn's speaker ("I" resolves to them); None for prose
    asserter: str | None = None
    #: the quote is negated ("not", "no", "never", "without"), read from the parse; None
    #: when the extractor does not say, and the polarity guard reads the words itself
    negated: bool | None = None
    #: the named entities the quote mentions: names as written, each alone or with its type
    #: ("Person", "Organization", "Place", "Project", "Service", "Concept")
    mentions: tuple = ()
    #: relations between two of those names: (subject, predicate, object), the predicate
    #: one of factstore.entities.model.PREDICATES
    relations: tuple = ()


@runtime_checkable
class Extractor(Protocol):
    """Anything with a name and an ``extract`` method is an extractor."""

    name: str

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        """Return the facts the text explicitly asserts (the precision rule), possibly none."""
        ...
