"""Store's store-wide review: the density report (near-duplicate pairs no conflict records),
the census (what the store holds, counted over time) and the facts the write path refused.

A mixin of Store. Read-only: it reports, a person (or a named policy) decides.
"""

from __future__ import annotations

from factstore.census import Census, DroppedList
from factstore.inputs import check_count, check_number, check_text
from factstore.kinds import Kind
from factstore.results import DensityReport
from factstore.store import census as census_sql
from factstore.store import density_report as report_sql


class ReviewTools:
    """density_report, census, dropped_facts; mixed into Store (which provides _tx and
    settings)."""

    def density_report(self, *, threshold: float | None = None,
                       limit: int = 1000) -> DensityReport:
        """Pairs of live same-kind facts at or above ``threshold`` (default the density
        threshold) that no conflict records, nearest first, at most ``limit``.

        The write path screens every fact it stores, so on a store written through
        ``remember`` the report is empty; facts loaded by ``import_facts`` skip that
        screen, and this is where what it would have flagged shows up. Pairs of two
        different subjects are left out, as the write path never pairs them.
        """
        edge = (self.settings.density_threshold  # type: ignore[attr-defined]
                if threshold is None else check_number("threshold", threshold, 0.0, 1.0))
        check_count("limit", limit, 1, 100_000)
        pairs, probed = [], 0
        with self._tx() as cur:  # type: ignore[attr-defined]
            for kind in Kind:
                n, found = report_sql.unscreened_pairs(
                    cur, kind, edge, limit, self.settings)  # type: ignore[attr-defined]
                probed += n
                pairs += found
        pairs.sort(key=lambda p: (-p.similarity, p.fact_a, p.fact_b))
        return DensityReport(threshold=edge, facts_checked=probed,
                             pairs=tuple(pairs[:limit]), truncated=len(pairs) > limit)

    def census(self, *, topics: int = 20) -> Census:
        """Documents and facts counted by (UTC) day said, source type, kind, verdict and
        extractor, and the ``topics`` tags and subject keys carried by the most facts."""
        check_count("topics", topics, 1, 10_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return census_sql.census(cur, topics)

    def dropped_facts(self, *, stage: str | None = None, limit: int = 500) -> DroppedList:
        """Facts the write path refused, newest first, each with its stage ('anchor',
        'kind', 'statement') and reason; ``stage`` keeps one stage's."""
        check_text("stage", stage, limit=64, required=False)
        check_count("limit", limit, 1, 100_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return census_sql.dropped(cur, stage, limit)
