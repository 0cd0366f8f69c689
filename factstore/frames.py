"""Result lists as pandas or polars frames, one row per item, imported lazily (importing
factstore never pays for pandas or polars)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def pandas_frame(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> Any:
    """A pandas DataFrame with exactly ``columns``, in order (empty rows give an empty
    frame that still has them)."""
    import pandas as pd

    return pd.DataFrame([{c: row.get(c) for c in columns} for row in rows], columns=list(columns))


def polars_frame(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> Any:
    """A polars DataFrame with exactly ``columns``, in order; every value kept as Python
    gave it (``strict=False``: a column of ints and None stays an int column)."""
    import polars as pl

    data = [{c: row.get(c) for c in columns} for row in rows]
    if not data:
        return pl.DataFrame({c: [] for c in columns})
    return pl.DataFrame(data, strict=False, infer_schema_length=None)
