"""Lineages: a source's identity across its versions, and how those versions count.

A document lineage is the source identity its versions share (a path, a session, a url).
Each lineage is in one of two modes (seed 001):

- ``snapshot``: successive reports (a chat session, a captured note, a commit). Every
  version is kept as testimony; an older version still says what it said.
- ``living``: a standing document (a file, a wiki page at a url). A new version supersedes
  the claims of the old one, which then stop counting as current support.

The default comes from the source type and can be set per lineage
(``Store.set_lineage_mode``). Removing a source (``Store.remove_source``) makes its claims
stop counting; restoring it (``Store.restore_source``) brings them back. Pure.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from factstore.frames import pandas_frame, polars_frame

MODES = ("snapshot", "living")
#: Source types whose documents stand and change in place: a new version replaces the old.
LIVING_SOURCES = frozenset({"file", "url"})


def default_mode(source_type: str) -> str:
    """A lineage's mode when nobody set one: living for files and urls, else snapshot."""
    return "living" if source_type in LIVING_SOURCES else "snapshot"


def source_type_of(lineage: str) -> str:
    """The source type a lineage names (lineages are ``<source type>:<ref>``)."""
    return lineage.split(":", 1)[0]


@dataclass(frozen=True)
class LineageInfo:
    """One lineage: its mode (and whether a person set it), versions, claims and state."""

    lineage: str
    mode: str
    #: True when a person set the mode; False when it is the source type's default
    mode_set: bool
    documents: int
    latest_version: int
    claims: int
    current_claims: int
    removed_at: datetime | None = None
    removed_reason: str | None = None

    grain = "document"

    @property
    def removed(self) -> bool:
        return self.removed_at is not None


LINEAGE_COLUMNS = ("lineage", "mode", "mode_set", "documents", "latest_version", "claims",
                   "current_claims", "removed_at", "removed_reason")


class LineageList(list[LineageInfo]):
    """Store.lineages: a plain list with frames."""

    def to_pandas(self) -> Any:
        return pandas_frame((asdict(x) for x in self), LINEAGE_COLUMNS)

    def to_polars(self) -> Any:
        return polars_frame([asdict(x) for x in self], LINEAGE_COLUMNS)


@dataclass(frozen=True)
class SupportChange:
    """One fact's support count before and after a source change."""

    fact_id: int
    before: int
    after: int
    #: its verdict after the change ('withdrawn' when the change closed it)
    verdict: str


@dataclass(frozen=True)
class SourceChange:
    """What Store.remove_source / restore_source did."""

    lineage: str
    #: 'removed' or 'restored'
    action: str
    reason: str
    at: datetime
    #: the lineage_events row that records it (fact_history rows name it)
    event_id: int
    #: facts whose sole current support was this lineage, closed (removal) or reopened
    #: (restoration), with verdict reason retracted_source_removal / restored_source
    closed: tuple[int, ...] = ()
    reopened: tuple[int, ...] = ()
    #: facts still supported by another lineage, with their counts
    changed: tuple[SupportChange, ...] = ()
    documents: int = 0
    claims: int = 0
    #: conflicts opened again because both sides are live again (restoration)
    conflicts_reopened: tuple[int, ...] = ()
