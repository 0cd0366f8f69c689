"""Store's store-wide review: the density report (near-duplicate pairs no conflict records).

A mixin of Store. Read-only: it reports, a person (or a named policy) decides.
"""

from __future__ import annotations

from factstore.inputs import check_count, check_number
from factstore.kinds import Kind
from factstore.results import DensityReport
from factstore.store import density_report as report_sql


class ReviewTools:
    """density_report; mixed into Store (which provides _tx and settings)."""

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
