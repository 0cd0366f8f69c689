"""Store's diagnostic probes: the exact scans, plans and scratch indexes benchmarks compare
the real queries against. A mixin of Store, so a benchmark never reaches past the seam."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from factstore.errors import InvalidInput
from factstore.inputs import check_choice, check_count, check_flag, check_text, show
from factstore.kinds import Kind, parse_kind
from factstore.store import diagnostics


class DiagnosticTools:
    """Read-only probes (scratch indexes are rolled back); mixed into Store."""

    def density_probe(self, kind: str | Kind, vector: Any, k: int = 10, *, exact: bool = False,
                      ef_search: int | None = None) -> diagnostics.Neighbours:
        """The density check's k nearest same-kind live facts, by its index or exactly."""
        kind, vector = parse_kind(kind), self._probe_vector(vector)
        check_count("k", k, 1, 1000)
        check_flag("exact", exact)
        if ef_search is not None:
            check_count("ef_search", ef_search, 1, 1000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.density_neighbours(cur, kind, vector, k, exact=exact,
                                                  ef_search=ef_search,
                                                  settings=self.settings)  # type: ignore[attr-defined]

    def explain_density(self, kind: str | Kind, vector: Any, k: int | None = None, *,
                        exact: bool = False, ef_search: int | None = None) -> Any:
        """The density query's plan: which index answers it (at ``ef_search``, if given)."""
        kind, vector = parse_kind(kind), self._probe_vector(vector)
        if k is not None:
            check_count("k", k, 1, 1000)
        check_flag("exact", exact)
        if ef_search is not None:
            check_count("ef_search", ef_search, 1, 1000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.explain_density(cur, kind, vector, k, exact=exact,
                                               ef_search=ef_search,
                                               settings=self.settings)  # type: ignore[attr-defined]

    def explain_recall(self, vector: Any, k: int | None = None) -> Any:
        """Recall's plan: one index scan per kind's partial index."""
        vector = self._probe_vector(vector)
        if k is not None:
            check_count("k", k, 1, 1000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.explain_recall(cur, vector, k,
                                              settings=self.settings)  # type: ignore[attr-defined]

    def hnsw_insert_cost(self, vectors: Any, prefill: int) -> diagnostics.InsertCost:
        """The cost of one HNSW insert alone, on a scratch table (rolled back)."""
        vectors = np.stack([self._probe_vector(v) for v in _rows(vectors)])
        check_count("prefill", prefill, 0, 10_000_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.hnsw_insert_cost(cur, vectors, prefill,
                                                settings=self.settings)  # type: ignore[attr-defined]

    def shared_index_probe(self, queries: Sequence[tuple[str | Kind, Any]], k: int = 10,
                           modes: Sequence[str] = ("off", "relaxed_order")) -> Any:
        """The rejected design, measured: one shared HNSW index, filtered afterwards."""
        queries = [(parse_kind(kind), self._probe_vector(vector))
                   for kind, vector in _pairs(queries)]
        check_count("k", k, 1, 1000)
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

    def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of facts, evidence, documents or fact_history, in id order (vectors as
        tuples): what an equivalence test compares between two ways of writing."""
        check_choice("table", table, diagnostics.ROW_TABLES)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.table_rows(cur, table)

    def hnsw_indexes(self) -> dict[str, bool]:
        """Each HNSW index on facts and documents, and whether it is valid and ready: a bulk
        import that rebuilds indexes must leave every one of them whole."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.hnsw_indexes(cur)

    def scan_for(self, needles: Sequence[str]) -> list[tuple[str, str, str]]:
        """Every (table, column, needle) where a text, JSON or array column holds one of
        ``needles`` verbatim: an audit that no secret reached the database."""
        if not isinstance(needles, list | tuple):
            raise InvalidInput(f"needles must be a list of strings, got {show(needles)}")
        texts = [check_text("a needle", n, limit=10_000) for n in needles]
        with self._tx() as cur:  # type: ignore[attr-defined]
            return diagnostics.scan_for(cur, texts)

    def _probe_vector(self, vector: Any) -> np.ndarray:
        """A probe vector: finite numbers, as many as the store's embedder makes."""
        dim = self.embedder.dim  # type: ignore[attr-defined]
        try:
            with np.errstate(over="ignore"):  # a value past float32 becomes inf: refused below
                array = np.asarray(vector, dtype=np.float32).reshape(-1)
        except (TypeError, ValueError):
            raise InvalidInput(f"a probe vector must be {dim} numbers, got {show(vector)}"
                               ) from None
        if array.shape != (dim,) or not np.isfinite(array).all():
            raise InvalidInput(f"a probe vector must be {dim} finite numbers, got "
                               f"{array.size} value(s)")
        return array


def _rows(vectors: Any) -> list[Any]:
    try:
        rows = list(vectors)
    except TypeError:
        raise InvalidInput(f"vectors must be a list (or n x dim array) of vectors, got "
                           f"{show(vectors)}") from None
    if not rows:
        raise InvalidInput("vectors must hold at least one vector")
    return rows


def _pairs(queries: Any) -> list[tuple[Any, Any]]:
    if isinstance(queries, str | bytes) or not isinstance(queries, Sequence):
        raise InvalidInput(f"queries must be a list of (kind, vector) pairs, got {show(queries)}")
    if not all(isinstance(q, tuple | list) and len(q) == 2 for q in queries):
        raise InvalidInput("queries must be a list of (kind, vector) pairs")
    return [tuple(q) for q in queries]  # type: ignore[misc]
