"""The evidence bridge between the two truth layers (seed 001): which claims support and
which contradict a fact, and whether each still counts.

``Store.why(fact_id)`` answers a :class:`Why`: the fact, every piece of testimony for and
against it with its document and lineage, and the support count, which is the number of
distinct document lineages with current supporting testimony. Pure result types.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from factstore.claims import Claim
from factstore.frames import pandas_frame, polars_frame
from factstore.results import Fact


@dataclass(frozen=True)
class EvidenceLink:
    """One evidence row: a claim (or, for a timeline observation or an imported fact, the
    row itself) supporting or contradicting the fact."""

    evidence_id: int
    #: 'supports' or 'contradicts'
    stance: str
    #: 'testimony' or 'corroboration' (a timeline repeat kept on the fact it repeats)
    role: str
    document_id: int
    lineage: str
    document_version: int
    quote: str
    observed_at: datetime | None
    #: the claim this row stands for; None for timeline observations and imports
    claim: Claim | None
    #: why it does not count now: 'source removed', 'superseded (living-version)',
    #: 'superseded (re-extraction)'; None while it counts
    not_current: str | None = None

    grain = "claim"

    @property
    def current(self) -> bool:
        return self.not_current is None

    def as_row(self) -> dict[str, Any]:
        row = {k: v for k, v in asdict(self).items() if k != "claim"}
        claim = self.claim
        row.update(current=self.current, claim_id=claim.id if claim else None,
                   claim_statement=claim.statement if claim else None,
                   asserter=claim.asserter if claim else None,
                   extractor=claim.extractor if claim else None,
                   triage=claim.triage if claim else None)
        return row


LINK_COLUMNS = ("evidence_id", "stance", "role", "current", "not_current", "claim_id",
                "claim_statement", "quote", "asserter", "extractor", "triage", "document_id",
                "lineage", "document_version", "observed_at")


@dataclass(frozen=True)
class Why:
    """Why the store believes (or believed) a fact: the bridge, both stances."""

    fact: Fact
    supports: tuple[EvidenceLink, ...]
    contradicts: tuple[EvidenceLink, ...]
    #: distinct lineages with current supporting testimony (what ``fact.support_count`` says)
    support_count: int
    #: those lineages
    lineages: tuple[str, ...]

    grain = "fact"

    @property
    def support_withdrawn(self) -> bool:
        """It had supporting testimony and none of it counts any more."""
        return bool(self.supports) and self.support_count == 0

    def to_pandas(self) -> Any:
        return pandas_frame((x.as_row() for x in self.supports + self.contradicts),
                            LINK_COLUMNS)

    def to_polars(self) -> Any:
        return polars_frame([x.as_row() for x in self.supports + self.contradicts],
                            LINK_COLUMNS)

    def _repr_html_(self) -> str:
        from factstore.html import why_html

        return why_html(self)
