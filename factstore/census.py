"""What a store holds, counted: documents and facts by day, kind and source, topics by size,
and the facts the write path refused. Plain frozen results (Store.census, Store.dropped_facts)
that a notebook turns into frames and plots."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime
from typing import Any


@dataclass(frozen=True)
class DocumentCount:
    """Documents said (else captured) on ``day``, by source type and where they were routed."""

    day: date
    source_type: str
    routed: str
    count: int


@dataclass(frozen=True)
class FactCount:
    """Facts said (else captured) on ``day``, by kind, source type, verdict and extractor."""

    day: date
    kind: str
    source_type: str
    verdict: str
    extracted_by: str | None
    count: int


@dataclass(frozen=True)
class TopicCount:
    """A tag and how many facts carry it (``live``: active or contested ones)."""

    tag: str
    facts: int
    live: int


@dataclass(frozen=True)
class SubjectCount:
    """A subject key (what facts are about, folded) and how many facts have it."""

    subject_key: str
    facts: int
    live: int


@dataclass(frozen=True)
class Census:
    """Store.census: the store's contents counted over time; ``topics`` (tags) and
    ``subjects`` (subject keys) largest first."""

    documents: tuple[DocumentCount, ...]
    facts: tuple[FactCount, ...]
    topics: tuple[TopicCount, ...]
    subjects: tuple[SubjectCount, ...] = ()

    def to_pandas(self, part: str = "facts") -> Any:
        """One of 'documents', 'facts', 'topics' or 'subjects' as a pandas DataFrame."""
        return _frame(getattr(self, _part(part)), _COLUMNS[part])

    def _repr_html_(self) -> str:
        from factstore.html import census_html

        return census_html(self)


@dataclass(frozen=True)
class DroppedRecord:
    """A fact the write path refused, as recorded: what was proposed, by whom, and why."""

    id: int
    document_id: int
    extracted_by: str | None
    statement: str
    kind: str
    quote: str
    stage: str
    reason: str
    dropped_at: datetime


class DroppedList(list[DroppedRecord]):
    """Store.dropped_facts: a plain list, shown in a notebook as one table."""

    def to_pandas(self) -> Any:
        return _frame(self, [f for f in DroppedRecord.__dataclass_fields__])

    def _repr_html_(self) -> str:
        from factstore.html import dropped_html

        return dropped_html(self)


_COLUMNS = {
    "documents": list(DocumentCount.__dataclass_fields__),
    "facts": list(FactCount.__dataclass_fields__),
    "topics": list(TopicCount.__dataclass_fields__),
    "subjects": list(SubjectCount.__dataclass_fields__),
}


def _part(part: str) -> str:
    if part not in _COLUMNS:
        from factstore.errors import InvalidInput

        raise InvalidInput(f"census part {part!r} is not one of {', '.join(_COLUMNS)}")
    return part


def _frame(rows: Any, columns: list[str]) -> Any:
    import pandas as pd  # lazily: importing factstore never pays for pandas

    return pd.DataFrame([asdict(r) for r in rows], columns=columns)
