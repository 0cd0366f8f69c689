"""Store's diagnostic probes: the exact scans, plans and scratch indexes benchmarks compare
the real queries against. A mixin of Store, so a benchmark never reaches past the seam."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factstore.kinds import Kind
from factstore.store import diagnostics


class DiagnosticTools:
    """Read-only probes (scratch indexes are rolled back); mixed into Store."""

    def density_probe(self, kind: str | Kind, vector: Any, k: int = 10, *, exact: bool = False,
                      ef_search: int | None = None) -> diagnostics.Neighbours:
        """The density check's k nearest same-kind live facts, by its index or exactly."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.density_neighbours(cur, kind, vector, k, exact=exact,
                                                  ef_search=ef_search,
                                                  settings=self.settings)  # type: ignore[attr-defined]

    def explain_density(self, kind: str | Kind, vector: Any, k: int | None = None, *,
                        exact: bool = False) -> Any:
        """The density query's plan: which index answers it."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.explain_density(cur, kind, vector, k, exact=exact,
                                               settings=self.settings)  # type: ignore[attr-defined]

    def explain_recall(self, vector: Any, k: int | None = None) -> Any:
        """Recall's plan: one index scan per kind's partial index."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.explain_recall(cur, vector, k,
                                              settings=self.settings)  # type: ignore[attr-defined]

    def hnsw_insert_cost(self, vectors: Any, prefill: int) -> diagnostics.InsertCost:
        """The cost of one HNSW insert alone, on a scratch table (rolled back)."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.hnsw_insert_cost(cur, vectors, prefill,
                                                settings=self.settings)  # type: ignore[attr-defined]

    def shared_index_probe(self, queries: Sequence[tuple[str | Kind, Any]], k: int = 10,
                           modes: Sequence[str] = ("off", "relaxed_order")) -> Any:
        """The rejected design, measured: one shared HNSW index, filtered afterwards."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.shared_index_probe(cur, queries, k, modes,
                                                  settings=self.settings)  # type: ignore[attr-defined]

    def storage_stats(self) -> diagnostics.StorageStats:
        """Table and index sizes."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.storage_stats(cur, settings=self.settings)  # type: ignore[attr-defined]

    def background_activity(self) -> list[str]:
        """Autovacuum/index work still running (so a benchmark can wait for quiet)."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.background_activity(cur, settings=self.settings)  # type: ignore[attr-defined]

    def analyze_tables(self) -> None:
        """ANALYZE the store's tables, so the planner's statistics match a fresh bulk load."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            diagnostics.analyze_tables(cur, settings=self.settings)  # type: ignore[attr-defined]

    def row_counts(self) -> dict[str, int]:
        """Exact row counts of the store's tables (a full count each): what a re-run must not
        change. Facts, evidence, documents, conflicts, history, candidate roots, tags."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.row_counts(cur)
