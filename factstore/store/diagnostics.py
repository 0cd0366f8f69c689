"""Measurements no ordinary tool needs: density probes, query plans, insert costs, storage.

These exist for the benchmark (evals/perf/bench_store.py) and for anyone checking that the
schema's partial per-kind HNSW indexes do what docs/performance.md says. Every function takes
a cursor inside the caller's transaction (a Store method wraps each in ``Store._tx()``) and a
``settings`` keyword, so the Store wrapper is a one-liner.

Two rules keep them honest and harmless:

* The kNN under test is always the production query. Density probes call
  ``density.density_check`` itself, and plans are taken of exactly the SQL it (or recall)
  sends, so a change to the write path's query changes what is measured.
* Anything that changes the schema or session (a scratch table, a temporary shared index,
  dropped indexes, ``SET LOCAL enable_indexscan``) happens inside a savepoint that is
  always rolled back, so the store is left exactly as it was, even if the caller commits.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from factstore.kinds import Kind, parse_kind
from factstore.settings import Settings
from factstore.store import density as density_sql
from factstore.store import recall as recall_sql

#: The iterative-scan modes pgvector offers; 'off' is its default, 'relaxed_order' is what the
#: write path sets for the density check.
ITERATIVE_MODES: tuple[str, ...] = ("off", "relaxed_order", "strict_order")


@dataclass(frozen=True)
class Neighbours:
    """One kNN answer: ids nearest first, their cosine similarities, and the call's time."""

    ids: tuple[int, ...]
    similarities: tuple[float, ...]
    #: wall time of the query alone (execute + fetch), in seconds
    seconds: float


@dataclass(frozen=True)
class QueryPlan:
    """An EXPLAIN ANALYZE of one production query."""

    #: every index the plan scans, in plan order (e.g. 'facts_hnsw_decision')
    indexes: tuple[str, ...]
    #: the server's own execution time for the query, in milliseconds
    execution_ms: float
    #: the plan as indented text, for reading
    text: str


@dataclass(frozen=True)
class InsertCost:
    """What one HNSW insert costs, measured on scratch twins of the vector column."""

    #: rows already in the scratch index when the timed inserts began
    prefill: int
    #: how many single-row inserts were timed in each table
    inserts: int
    #: median time of one single-row INSERT into a table with no vector index, seconds
    plain_median_s: float
    #: median time of one single-row INSERT into the same table with an HNSW index, seconds
    indexed_median_s: float
    #: the difference: the HNSW insert alone, seconds
    hnsw_insert_s: float
    #: time to bulk-build the prefilled scratch index, seconds
    build_seconds: float


@dataclass(frozen=True)
class SharedIndexProbe:
    """The density query answered through ONE unfiltered HNSW index over every fact."""

    #: time to build the temporary shared index, seconds
    build_seconds: float
    #: plan of one probe query, showing the shared index is the one scanned
    plan: QueryPlan
    #: per iterative-scan mode, one Neighbours per query, in query order
    results: dict[str, list[Neighbours]]


# -- density probes ---------------------------------------------------------------------------

def density_neighbours(cur: Any, kind: str | Kind, vector: Any, k: int = 10, *,
                       exact: bool = False, ef_search: int | None = None,
                       settings: Settings) -> Neighbours:
    """The density check's k nearest same-kind live facts, via its index or an exact scan.

    Runs ``density.density_check`` with the write path's kNN tuning, the threshold at 0
    (every neighbour is returned, not only near-duplicates) and ``density_k = k``. With
    ``exact`` the index scan is disabled, so Postgres computes every distance in the kind:
    the ground truth for recall@k. ``ef_search`` overrides the setting for this probe only
    (to sweep it without reopening the store).
    """
    probe_settings = _probe_settings(settings, k)
    if ef_search is not None:
        probe_settings = probe_settings.replace(ef_search=ef_search)
    with _rolled_back(cur):
        density_sql.tune_knn(cur, probe_settings)  # exactly what write_capture sets
        if exact:
            cur.execute("SET LOCAL enable_indexscan = off")
        return _timed_density(cur, parse_kind(kind), _as_vector(vector), probe_settings)


def explain_density(cur: Any, kind: str | Kind, vector: Any, k: int | None = None, *,
                    exact: bool = False, ef_search: int | None = None,
                    settings: Settings) -> QueryPlan:
    """EXPLAIN ANALYZE of the density check's own query (to show which index it rides)."""
    probe_settings = _probe_settings(settings, k or settings.density_k)
    if ef_search is not None:
        probe_settings = probe_settings.replace(ef_search=ef_search)
    with _rolled_back(cur):
        density_sql.tune_knn(cur, probe_settings)
        if exact:
            cur.execute("SET LOCAL enable_indexscan = off")
        explaining = _ExplainingCursor(cur)
        density_sql.density_check(explaining, parse_kind(kind), _as_vector(vector), [],
                                   probe_settings)
        return explaining.plan()


def explain_recall(cur: Any, vector: Any, k: int | None = None, *,
                   settings: Settings) -> QueryPlan:
    """EXPLAIN ANALYZE of recall's fact kNN (the union of one kNN per kind)."""
    k = k or settings.recall_k
    with _rolled_back(cur):
        # The same ef_search recall sets; the query object is recall's own.
        cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(
            sql.Literal(max(settings.ef_search, k))))
        explaining = _ExplainingCursor(cur)
        explaining.execute(recall_sql._FACT_KNN, {"q": _as_vector(vector), "k": k})
        return explaining.plan()


# -- what one HNSW insert costs ---------------------------------------------------------------

def hnsw_insert_cost(cur: Any, vectors: Any, prefill: int, *, settings: Settings) -> InsertCost:
    """Time single-row inserts into two scratch tables, with and without an HNSW index.

    Both tables get ``prefill`` embeddings copied from ``facts`` first (an HNSW insert costs
    more as the graph grows, so the prefill should match the index the real insert lands in,
    e.g. one kind's partial index). Inserts alternate between the twins so drift in the
    machine's load hits both alike; the difference of the medians is the HNSW insert alone.
    Everything is rolled back.
    """
    # settings is unused: the scratch index takes pgvector's defaults (m, ef_construction),
    # exactly as the schema's indexes do. It is accepted so every probe has one signature.
    rows = np.asarray(vectors, dtype=np.float32)
    if rows.ndim != 2 or len(rows) == 0:
        raise ValueError("hnsw_insert_cost needs a non-empty (n, dim) array of vectors")
    column = sql.SQL("vector({})").format(sql.Literal(int(rows.shape[1])))
    with _rolled_back(cur):
        # Enough memory that the scratch build stays in memory, like a normal-sized index.
        cur.execute("SET LOCAL maintenance_work_mem = '512MB'")
        for table in ("diag_scratch_plain", "diag_scratch_hnsw"):
            cur.execute(sql.SQL("CREATE TABLE {} (id bigint GENERATED ALWAYS AS IDENTITY, "
                                "embedding {} NOT NULL)").format(sql.Identifier(table), column))
            cur.execute(sql.SQL("INSERT INTO {} (embedding) SELECT embedding FROM facts "
                                "ORDER BY id LIMIT %s").format(sql.Identifier(table)), (prefill,))
        filled = _scalar(cur, "SELECT count(*) FROM diag_scratch_hnsw")
        started = time.perf_counter()
        cur.execute("CREATE INDEX diag_scratch_hnsw_idx ON diag_scratch_hnsw "
                    "USING hnsw (embedding vector_cosine_ops)")
        build = time.perf_counter() - started
        plain: list[float] = []
        indexed: list[float] = []
        for row in rows:
            for table, times in (("diag_scratch_plain", plain), ("diag_scratch_hnsw", indexed)):
                query = sql.SQL("INSERT INTO {} (embedding) VALUES (%s)").format(
                    sql.Identifier(table))
                started = time.perf_counter()
                cur.execute(query, (row,))
                times.append(time.perf_counter() - started)
    plain_median = float(np.median(plain))
    indexed_median = float(np.median(indexed))
    return InsertCost(int(filled), len(rows), plain_median, indexed_median,
                      indexed_median - plain_median, build)


# -- what the store occupies, and how its rows were written -----------------------------------

@dataclass(frozen=True)
class StorageStats:
    """Sizes of the fact and document tables and their indexes, and facts' write counters."""

    #: bytes per relation: the facts and documents tables (with TOAST) and each of their indexes
    relation_bytes: dict[str, int]
    #: cumulative row counters for facts from pg_stat_user_tables (they lag by up to ~10 s:
    #: each backend flushes its counts when idle, so poll when you need a settled figure)
    facts_inserted: int
    facts_updated: int
    #: updates that were heap-only (HOT): no new index entries, so no new HNSW insert
    facts_hot_updated: int


def storage_stats(cur: Any, *, settings: Settings) -> StorageStats:
    """Relation sizes and the facts table's insert/update/HOT-update counters.

    Why the HOT count matters: an UPDATE that is not heap-only writes a new entry into every
    index whose predicate the new row version satisfies, the row's partial HNSW index
    included. A verdict change can never be HOT (verdict is indexed), so a fact that moves to
    contested pays a second HNSW insert.
    """
    # settings is unused; accepted so every probe has one signature.
    # This backend's own pending counts go out when this transaction ends, so a second call
    # sees them; other backends flush on their own when idle.
    cur.execute("SELECT pg_stat_force_next_flush()")
    cur.execute(
        "SELECT c.relname AS name, CASE WHEN c.relkind = 'r' THEN pg_table_size(c.oid) "
        "ELSE pg_relation_size(c.oid) END AS bytes FROM pg_class c "
        "WHERE c.oid IN ('facts'::regclass, 'documents'::regclass) OR c.oid IN "
        "(SELECT indexrelid FROM pg_index WHERE indrelid IN ('facts'::regclass, "
        "'documents'::regclass)) ORDER BY c.relname")
    sizes = {row["name"]: int(row["bytes"]) for row in cur.fetchall()}
    cur.execute("SELECT n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
                "WHERE relid = 'facts'::regclass")
    row = cur.fetchone()
    return StorageStats(sizes, int(row["n_tup_ins"]), int(row["n_tup_upd"]),
                        int(row["n_tup_hot_upd"]))


def background_activity(cur: Any, *, settings: Settings) -> list[str]:
    """Autovacuum workers busy in this database right now, as 'table: phase' lines.

    A bulk load triggers autovacuum and autoanalyze on facts and documents; on a small
    machine that competes for the CPU with whatever is timed next, so a benchmark waits for
    this list to empty before timing.
    """
    # settings is unused; accepted so every probe has one signature.
    cur.execute(
        "SELECT coalesce(p.relid::regclass::text, a.query) AS what, "
        "coalesce(p.phase, 'running') AS phase FROM pg_stat_activity a "
        "LEFT JOIN pg_stat_progress_vacuum p ON p.pid = a.pid "
        "WHERE a.backend_type = 'autovacuum worker' AND a.datname = current_database() "
        "ORDER BY 1")
    return [f"{row['what']}: {row['phase']}" for row in cur.fetchall()]


def analyze_tables(cur: Any, *, settings: Settings) -> None:
    """ANALYZE facts and documents now, as autovacuum eventually would.

    Which plan the kNN queries get depends on the statistics: with statistics written while a
    bulk load was still running, the planner can prefer the btree on kind plus a sort (an
    exact scan) to the partial HNSW indexes. A benchmark that times right after a load would
    otherwise time whichever statistics autovacuum happened to have written by then.
    """
    # settings is unused; accepted so every probe has one signature.
    cur.execute("ANALYZE facts")
    cur.execute("ANALYZE documents")


# -- the contrast: one shared, unfiltered HNSW index ------------------------------------------

def shared_index_probe(cur: Any, queries: Sequence[tuple[str | Kind, Any]], k: int = 10,
                       modes: Sequence[str] = ("off", "relaxed_order"), *,
                       settings: Settings) -> SharedIndexProbe:
    """Answer density-check queries through one HNSW index over all facts, then roll it back.

    This is the design the schema rejected: a single index over every row, with kind and
    verdict applied as a filter after the graph search. Inside a savepoint it builds that
    index, drops the seven partial ones (so the planner cannot prefer them), and runs the
    density check's own query for each (kind, vector) under each iterative-scan ``mode``.
    (The btree indexes on kind and verdict are dropped too, see below.)
    The savepoint is rolled back: the store keeps its partial indexes and never sees the
    shared one. The build takes an exclusive lock on ``facts`` for the duration.
    """
    unknown = [m for m in modes if m not in ITERATIVE_MODES]
    if unknown:
        raise ValueError(f"unknown iterative-scan mode(s) {unknown}; use {ITERATIVE_MODES}")
    probe_settings = _probe_settings(settings, k)
    prepared = [(parse_kind(kind), _as_vector(vector)) for kind, vector in queries]
    with _rolled_back(cur):
        cur.execute("SET LOCAL maintenance_work_mem = '2GB'")  # keep the graph in memory
        started = time.perf_counter()
        cur.execute("CREATE INDEX diag_facts_hnsw_shared ON facts "
                    "USING hnsw (embedding vector_cosine_ops)")
        build = time.perf_counter() - started
        # Drop every index that could answer the kind/verdict filter (the seven partial HNSW
        # indexes and the btree ones), and rule out scans that are not index scans: otherwise
        # the planner answers exactly from a btree plus a sort and the shared HNSW index is
        # never what is measured. The plan returned shows which index was used.
        for name in filter_index_names(cur):
            cur.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
        cur.execute("SET LOCAL enable_seqscan = off")
        cur.execute("SET LOCAL enable_bitmapscan = off")
        results: dict[str, list[Neighbours]] = {}
        plan: QueryPlan | None = None
        for mode in modes:
            with _rolled_back(cur):
                density_sql.tune_knn(cur, probe_settings)
                cur.execute(sql.SQL("SET LOCAL hnsw.iterative_scan = {}").format(
                    sql.Literal(mode)))
                if plan is None and prepared:
                    explaining = _ExplainingCursor(cur)
                    density_sql.density_check(explaining, *prepared[0], [], probe_settings)
                    plan = explaining.plan()
                results[mode] = [_timed_density(cur, kind, vector, probe_settings)
                                 for kind, vector in prepared]
    return SharedIndexProbe(build, plan or QueryPlan((), 0.0, ""), results)


def filter_index_names(cur: Any) -> list[str]:
    """Indexes on facts that mention kind or verdict, except those backing a constraint.

    These are the seven partial HNSW indexes and the btree indexes a kind-and-verdict filter
    can use; the temporary shared index (diag_*) is never among them.
    """
    cur.execute(
        "SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "WHERE i.indrelid = 'facts'::regclass AND c.relname NOT LIKE 'diag\\_%' "
        "AND pg_get_indexdef(i.indexrelid) ~ '\\m(kind|verdict)\\M' "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) "
        "ORDER BY 1")
    return [row["name"] for row in cur.fetchall()]


# -- internals --------------------------------------------------------------------------------

def _probe_settings(settings: Settings, k: int) -> Settings:
    # Threshold 0: a probe wants the k nearest whatever their similarity, not just near-hits.
    return settings.replace(density_k=k, density_threshold=0.0, density_shared_tag=False)


def _timed_density(cur: Any, kind: Kind, vector: np.ndarray, settings: Settings) -> Neighbours:
    started = time.perf_counter()
    hits = density_sql.density_check(cur, kind, vector, [], settings)
    seconds = time.perf_counter() - started
    return Neighbours(tuple(h.id for h in hits), tuple(h.similarity for h in hits), seconds)


def _as_vector(vector: Any) -> np.ndarray:
    return np.asarray(vector, dtype=np.float32).reshape(-1)


def _scalar(cur: Any, query: str) -> Any:
    cur.execute(query)
    return next(iter(cur.fetchone().values()))


@contextmanager
def _rolled_back(cur: Any) -> Iterator[None]:
    """A savepoint that is always rolled back: SET LOCALs, scratch tables and indexes vanish."""
    with cur.connection.transaction(force_rollback=True):
        yield


class _ExplainingCursor:
    """Stands in for a cursor: runs EXPLAIN ANALYZE of whatever query it is given.

    Passing it to the production function (density_check) guarantees the plan is of the very
    query that function sends, parameters included. It answers every fetch with no rows.
    """

    def __init__(self, cur: Any) -> None:
        self._cur = cur
        self._plans: list[dict[str, Any]] = []

    def execute(self, query: Any, params: Any = None) -> None:
        composable = sql.SQL(query) if isinstance(query, str) else query
        self._cur.execute(sql.SQL("EXPLAIN (ANALYZE, FORMAT JSON) ") + composable, params)
        document = next(iter(self._cur.fetchone().values()))
        self._plans.append(document[0])

    def fetchall(self) -> list[Any]:
        return []

    def fetchone(self) -> None:
        return None

    def plan(self) -> QueryPlan:
        if not self._plans:
            raise RuntimeError("the function under EXPLAIN sent no query")
        top = self._plans[-1]
        lines: list[str] = []
        indexes: list[str] = []
        _walk(top["Plan"], 0, lines, indexes)
        return QueryPlan(tuple(indexes), float(top.get("Execution Time", 0.0)), "\n".join(lines))


def _walk(node: dict[str, Any], depth: int, lines: list[str], indexes: list[str]) -> None:
    """Flatten a JSON plan into readable lines, collecting the index names it scans."""
    name = node.get("Index Name")
    if name:
        indexes.append(name)
    detail = f" using {name}" if name else ""
    relation = f" on {node['Relation Name']}" if node.get("Relation Name") else ""
    rows = node.get("Actual Rows")
    lines.append(f"{'  ' * depth}{node['Node Type']}{detail}{relation}"
                 + (f" (rows={rows})" if rows is not None else ""))
    for child in node.get("Plans", ()):
        _walk(child, depth + 1, lines, indexes)



#: The tables row_counts reports, in a fixed order.
COUNTED_TABLES = ("facts", "evidence", "documents", "conflicts", "fact_history",
                  "candidate_roots", "tags", "claims", "lineages", "lineage_events",
                  "credentials", "scope_keys")


def row_counts(cur: Any) -> dict[str, int]:
    """count(*) of each table in COUNTED_TABLES (names are constants, never input)."""
    parts = " UNION ALL ".join(f"SELECT '{t}' AS name, count(*) AS n FROM {t}"
                               for t in COUNTED_TABLES)
    cur.execute(parts)
    return {row["name"]: int(row["n"]) for row in cur.fetchall()}


#: The tables table_rows reads back whole.
ROW_TABLES = ("facts", "evidence", "documents", "fact_history", "claims")


def table_rows(cur: Any, table: str) -> list[dict[str, Any]]:
    """Every row of one of ROW_TABLES, in id order, vectors as tuples of floats (so two
    stores' rows compare with ==). The caller checks the name against ROW_TABLES."""
    cur.execute(sql.SQL("SELECT * FROM {} ORDER BY id").format(sql.Identifier(table)))
    rows = [dict(row) for row in cur.fetchall()]
    for row in rows:
        if row.get("embedding") is not None:
            row["embedding"] = tuple(np.asarray(row["embedding"].to_numpy(),
                                                dtype=np.float32).tolist())
    return rows


#: The HNSW indexes the schema defines: one per kind over facts, one over documents.
HNSW_INDEXES = tuple(f"facts_hnsw_{kind.value.lower()}" for kind in Kind) + (
    "documents_embedding_hnsw",)


def hnsw_indexes(cur: Any) -> dict[str, bool]:
    """Each HNSW index on facts or documents and whether it is whole: valid (the planner may
    use it) and ready (writes maintain it). An index missing from the answer is gone."""
    cur.execute(
        "SELECT c.relname AS name, i.indisvalid AND i.indisready AS whole "
        "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a "
        "ON a.oid = c.relam WHERE a.amname = 'hnsw' AND i.indrelid IN ('facts'::regclass, "
        "'documents'::regclass) ORDER BY 1")
    return {row["name"]: bool(row["whole"]) for row in cur.fetchall()}


def scan_for(cur: Any, needles: list[str]) -> list[tuple[str, str, str]]:
    """Every (table, column, needle) where a text, JSON or text-array column of the store's
    tables holds one of ``needles`` verbatim: the secrets audit (nothing may match)."""
    cur.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND (data_type IN ('text', 'jsonb', 'json', "
        "'character varying') OR (data_type = 'ARRAY' AND udt_name IN ('_text', '_varchar'))) "
        "ORDER BY table_name, column_name")
    columns = [(r["table_name"], r["column_name"]) for r in cur.fetchall()]
    found = []
    for table, column in columns:
        cur.execute(sql.SQL(
            "SELECT n FROM unnest(%s::text[]) AS n WHERE EXISTS (SELECT 1 FROM {t} "
            "WHERE strpos({c}::text, n) > 0)").format(t=sql.Identifier(table),
                                                       c=sql.Identifier(column)),
            (needles,))
        found += [(table, column, r["n"]) for r in cur.fetchall()]
    return found
