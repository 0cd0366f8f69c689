"""Rows into a table with binary COPY: the fastest way Postgres takes many rows (an
identity column takes the ids given, as ``OVERRIDING SYSTEM VALUE`` would), and the ids to
give them, reserved from the table's identity sequence."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from psycopg import sql


def copy_rows(cur: Any, table: str, columns: Sequence[tuple[str, str]],
              rows: Iterable[Sequence[Any]]) -> int:
    """COPY ``rows`` (tuples in ``columns`` order; each column named with its Postgres
    type) into ``table``; returns how many rows went in."""
    statement = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT BINARY)").format(
        sql.Identifier(table), sql.SQL(", ").join(sql.Identifier(n) for n, _ in columns))
    count = 0
    with cur.copy(statement) as copy:
        copy.set_types([t for _, t in columns])
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def reserve_ids(cur: Any, table: str, n: int) -> list[int]:
    """``n`` fresh ids from ``table``'s identity sequence, in increasing order: rows written
    in order get increasing ids, as one INSERT per row did."""
    cur.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) AS id "
                "FROM generate_series(1, %s)", (table, n))
    return sorted(r["id"] for r in cur.fetchall())
