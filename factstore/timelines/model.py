"""Plain data for timelines: one fact version, as stored, and what resolution decides."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from factstore.timelines.values import value_key

#: Timeline statuses and the verdicts they are stored as.
STATUS_TO_VERDICT = {"current": "active", "superseded": "superseded",
                     "disputed": "contested", "retracted": "withdrawn"}
VERDICT_TO_STATUS = {v: k for k, v in STATUS_TO_VERDICT.items()}


@dataclass(frozen=True)
class Seen:
    """One observation a fact keeps: when, by which source, the quote, the value as written."""

    observed_at: datetime
    source: str | None
    quote: str | None
    value: str
    unit: str | None
    #: the evidence row that keeps it, and what else it said (reads fill these in)
    id: int | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    confidence: float | None = None

    def order(self) -> tuple[datetime, str, str, str, str]:
        return (self.observed_at, self.source or "", self.quote or "", self.value,
                self.unit or "")


@dataclass(frozen=True)
class TimelineFact:
    """One stored fact version of a subject+attribute timeline."""

    id: int
    subject: str
    attribute: str
    value: str
    unit: str | None
    cardinality: str
    #: as written (partial dates); None when the text gave no time
    valid_from: str | None
    valid_to: str | None
    #: when the source said it (valid time is kept apart from this)
    observed_at: datetime
    last_confirmed_at: datetime
    #: belief time: when the store learned it
    recorded_at: datetime
    source: str | None = None
    quote: str | None = None
    confidence: float | None = None
    retracted: bool = False
    # What the last resolution decided (as stored):
    status: str = "current"
    #: the effective end as written: its own valid_to, or the next fact's valid_from
    effective_valid_to: str | None = None
    superseded_by: int | None = None
    supersedes: int | None = None
    #: the scope it lives in: '<workspace>/user-<id>' (personal), '.../shared-main', ...
    scope: str | None = None
    #: the observations it keeps as corroborations, oldest first (reads fill it in)
    corroborations: tuple[Seen, ...] = ()
    #: the latest observation of this very claim (value, start and end) kept as a
    #: corroboration; None when it was observed once (reads fill it in)
    restated_at: datetime | None = None

    @property
    def claim_observed_at(self) -> datetime:
        """When this claim was last observed: the newer observation wins, and the claim is
        as new as its latest repeat, whichever of its observations became the row."""
        if self.restated_at is None or self.restated_at <= self.observed_at:
            return self.observed_at
        return self.restated_at

    @property
    def corroborated_at(self) -> tuple[datetime, ...]:
        return tuple(c.observed_at for c in self.corroborations)

    def first_observation(self) -> Seen:
        """The earliest observation it keeps, its own or a corroboration's (ties by source,
        quote, value): what a line shows and cites, so the same observations read the same
        whichever of them arrived first and became the row."""
        own = Seen(self.observed_at, self.source, self.quote, self.value, self.unit)
        return min((own, *self.corroborations), key=Seen.order)

    @property
    def value_unit(self) -> tuple[str, str | None]:
        """The value and unit as written (what is shown)."""
        return (self.value, self.unit)

    @property
    def value_key(self) -> tuple[str, str]:
        """The value and unit as compared: '41 EU' is '41' in EU, 'Blue' is 'blue'
        (timelines/values.py)."""
        return value_key(self.value, self.unit)


@dataclass(frozen=True)
class Resolved:
    """Resolution's decision for one fact."""

    id: int
    status: str
    effective_valid_to: str | None
    superseded_by: int | None
    supersedes: int | None


@dataclass(frozen=True)
class Resolution:
    """A whole key's resolution: every fact's decision and the disputed pairs."""

    facts: tuple[Resolved, ...]
    #: each dispute as a sorted pair of fact ids, with the rule that raised it ('rule-4'/'rule-6')
    disputes: tuple[tuple[int, int, str], ...]

    def by_id(self) -> dict[int, Resolved]:
        return {r.id: r for r in self.facts}


@dataclass(frozen=True)
class TimelineKey:
    """One subject+attribute timeline as read at an instant."""

    subject: str
    attribute: str
    cardinality: str
    #: the facts valid at the asked instant (one, or all disputed ones; many: every value)
    current: tuple[TimelineFact, ...]
    #: every fact of the key, newest valid_from first, then newest observed_at; retracted too
    history: tuple[TimelineFact, ...]
    #: the one-line form for a model, citing each fact by its own source
    line: str
    #: the scope this timeline lives in ('<workspace>/user-<id>', '.../shared-main'); a
    #: subject+attribute with facts in both is read as two keys, never merged
    scope: str | None = None
    #: how many older history entries the read cap (``limit``) left out; 0 when the
    #: history is whole (the current value and the line are judged on the whole key)
    omitted: int = 0
    #: the question named this key's value and asks who or what holds it ("Which projects
    #: does Ugo lead?"): the answer is the key's subject
    holder: bool = False


@dataclass(frozen=True)
class TimelineAnswer:
    """What Store.facts answers: the keys, read as of an instant (and optionally known_at)."""

    as_of: str
    as_of_instant: datetime
    keys: tuple[TimelineKey, ...]
    #: belief time: the answer is what the store believed then (None: what it believes now)
    known_at: datetime | None = None

    def to_pandas(self):  # noqa: ANN201 - pandas is imported lazily
        """One row per fact version, both time axes as columns."""
        from factstore.timelines.frames import to_pandas

        return to_pandas(self)

    def to_polars(self):  # noqa: ANN201 - polars is imported lazily
        """One row per fact version, both time axes as columns."""
        from factstore.timelines.frames import to_polars

        return to_polars(self)

    def _repr_html_(self) -> str:
        from factstore.html import timeline_html

        return timeline_html(self)

    def markdown(self, *, show_stale: bool = False, freshness_days: int = 90) -> str:
        """The Markdown Facts section(s); the Current table shows facts confirmed within
        ``freshness_days`` of the viewed date unless ``show_stale``."""
        from factstore.timelines.render import render_markdown

        return render_markdown([f for key in self.keys for f in key.history],
                               self.as_of_instant, show_stale=show_stale,
                               freshness_days=freshness_days)


@dataclass(frozen=True)
class FactWrite:
    """What write_facts did with one fact of the request."""

    id: int
    #: created | corroborated | unchanged (this very observation was already kept: a re-run)
    outcome: str
    fact: TimelineFact
    #: text fields redacted before storage, e.g. ({'field': 'quote', 'kinds': ['password']},)
    redactions: tuple[dict, ...] = ()


@dataclass(frozen=True)
class WriteFactsResult:
    document_id: int
    facts: tuple[FactWrite, ...]


@dataclass(frozen=True)
class BackfillResult:
    """What backfill_facts did: counts, since a backfill may write a million facts."""

    document_id: int
    created: int
    corroborated: int
    keys: int
    redacted: int
    #: observations this very backfill already kept (a re-run): nothing was written for them
    unchanged: int = 0
    #: each chunk's request document, in order (``document_id`` is the first)
    documents: tuple[int, ...] = ()
