"""One bundle, two authorities (seed 001's combined context): claims with their sources,
and facts, each a complete envelope with its own ranking. They are never blended and never
re-ranked together: testimony says what sources asserted, facts say what the store holds.

``Store.context(query)`` returns a :class:`ContextBundle`. Current-fact answers are
assembled only from validity-filtered facts (believed verdicts, valid now); a claim's
asserted validity interval is testimony and never makes a fact current. Pure result types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from factstore.claims import CLAIM_COLUMNS, Claim
from factstore.frames import pandas_frame, polars_frame
from factstore.groups import GroupContinuation
from factstore.results import DocumentHit, RecallItem


@dataclass(frozen=True)
class ClaimHit:
    """A claim served in the claims-and-sources envelope, under its source document."""

    claim: Claim
    #: the rank of its document in this envelope (1 = nearest to the query)
    source_rank: int
    #: cosine of the query with the fact the claim was tied to, when it has one
    similarity: float | None

    grain = "claim"


@dataclass(frozen=True)
class ClaimsEnvelope:
    """What sources asserted: the documents nearest the query and their current claims."""

    claims: tuple[ClaimHit, ...]
    sources: tuple[DocumentHit, ...]
    #: the calls that return what did not fit (a source with more claims than were served)
    continuations: tuple[str, ...] = ()

    grain = "claim"

    def to_pandas(self) -> Any:
        return pandas_frame(_claim_rows(self), ("source_rank", "similarity", *CLAIM_COLUMNS))

    def to_polars(self) -> Any:
        return polars_frame(list(_claim_rows(self)), ("source_rank", "similarity",
                                                      *CLAIM_COLUMNS))


def _claim_rows(envelope: ClaimsEnvelope) -> Any:
    for hit in envelope.claims:
        yield {**hit.claim.as_row(), "source_rank": hit.source_rank,
               "similarity": hit.similarity}


@dataclass(frozen=True)
class FactsEnvelope:
    """What the store holds: validity-filtered facts, labeled, contested ones with their
    whole group (inline, then continuations), and the timelines the query names."""

    items: tuple[RecallItem, ...]
    timelines: tuple[str, ...] = ()
    continuations: tuple[GroupContinuation, ...] = ()

    grain = "fact"

    def _rows(self) -> list[dict[str, Any]]:
        return [{"id": i.fact.id, "grain": "fact", "label": i.label.code,
                 "statement": i.fact.statement, "kind": i.fact.kind.value,
                 "verdict": i.fact.verdict.value, "similarity": i.similarity,
                 "support_count": i.fact.support_count, "group_id": i.group_id,
                 "served_as": i.served_as} for i in self.items if i.fact is not None]

    def to_pandas(self) -> Any:
        return pandas_frame(self._rows(), FACT_ROW_COLUMNS)

    def to_polars(self) -> Any:
        return polars_frame(self._rows(), FACT_ROW_COLUMNS)


FACT_ROW_COLUMNS = ("id", "grain", "label", "statement", "kind", "verdict", "similarity",
                    "support_count", "group_id", "served_as")


@dataclass(frozen=True)
class ContextBundle:
    """Both envelopes for one query. Read each on its own terms."""

    query: str
    claims_and_sources: ClaimsEnvelope
    facts: FactsEnvelope

    grain = "bundle"

    def to_pandas(self) -> dict[str, Any]:
        """Two frames, never one: {'claims_and_sources': ..., 'facts': ...}."""
        return {"claims_and_sources": self.claims_and_sources.to_pandas(),
                "facts": self.facts.to_pandas()}

    def to_polars(self) -> dict[str, Any]:
        return {"claims_and_sources": self.claims_and_sources.to_polars(),
                "facts": self.facts.to_polars()}

    def _repr_html_(self) -> str:
        from factstore.html import context_html

        return context_html(self)
