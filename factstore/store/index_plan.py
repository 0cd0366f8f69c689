"""When a bulk import should drop an HNSW index, load, and build it again (a pure rule).

Inserting a row into an HNSW index walks the graph and rewrites neighbour pages one row at a
time; building the index over all its rows at once (in memory, with ``maintenance_work_mem``
raised) costs less per row, but pays for every row already there too. So the rebuild wins
when the load is large next to the index it lands in: loading N rows into an index of M
rows, incremental costs about ``N * insert`` and a rebuild ``(M + N) * build``, which is
cheaper when ``N / M > build / (insert - build)``. ``evals/perf/bench_import.py`` measured
that ratio at about 0.18 into a store of 20,000 facts and about 0.05 into 1,000,000 (an
insert gets dearer as the index outgrows shared buffers; a build's cost per row barely
moves); the default, 0.1, sits between them: near the break-even a wrong choice costs
seconds on a small store, and well past it a kept index costs minutes on a big one
(docs/performance.md, "Bulk import (set-based)"). Settings carry it so it can be swept.

Nothing here talks to the database: ``imports.py`` counts rows (capped by :func:`count_cap`,
so a big table is never counted whole) and asks :func:`rebuild_indexes` per index.
"""

from __future__ import annotations

import math

from factstore.settings import Settings

#: rebuild when the rows a load adds to an index are at least this share of the rows the
#: index already holds (the measured crossover; Settings.import_rebuild_fraction)
REBUILD_FRACTION: float = Settings.import_rebuild_fraction
#: never rebuild in a chunk of fewer records than this: a small load's HNSW inserts take a
#: few seconds at most, and the rebuild's ACCESS EXCLUSIVE lock would stall every reader of
#: the table for a small gain (Settings.import_rebuild_min_rows)
REBUILD_MIN_ROWS: int = Settings.import_rebuild_min_rows


def rebuild_indexes(load_rows: int, table_rows: int, *, chunk_rows: int | None = None,
                    fraction: float = REBUILD_FRACTION,
                    min_rows: int = REBUILD_MIN_ROWS) -> bool:
    """Whether loading ``load_rows`` into an index of ``table_rows`` should rebuild it.

    Only a chunk of at least ``min_rows`` records (``chunk_rows``, default ``load_rows``)
    rebuilds anything: a smaller one never takes the table lock. Then an index is rebuilt
    when the load is at least ``fraction`` of what it holds; an empty index always is (there
    is nothing to pay for but the load), and ``fraction`` 0 means whatever the index holds.
    """
    chunk = load_rows if chunk_rows is None else chunk_rows
    if load_rows < 1 or chunk < min_rows:
        return False
    return table_rows <= 0 or load_rows >= fraction * table_rows


def count_cap(load_rows: int, *, chunk_rows: int | None = None,
              fraction: float = REBUILD_FRACTION,
              min_rows: int = REBUILD_MIN_ROWS) -> int | None:
    """How many of an index's rows need counting to decide: one past the most rows at which
    :func:`rebuild_indexes` still says yes (0: no count needed, the answer is no; None: no
    count needed, the answer is yes whatever the table holds)."""
    chunk = load_rows if chunk_rows is None else chunk_rows
    if load_rows < 1 or chunk < min_rows:
        return 0
    if fraction <= 0:
        return None
    return math.floor(load_rows / fraction) + 1
