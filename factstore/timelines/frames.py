"""Timeline answers as tables: plain rows, pandas and polars frames, for notebooks and evals.

One row per fact version: every history entry of every key of a TimelineAnswer, in the
answer's key order and each key's history order. Both time axes are columns: valid time
(valid_from / valid_to / effective_valid_to as written, and valid_from_at / valid_to_at as
instants) and belief time (observed_at, last_confirmed_at, recorded_at).

pandas and polars are imported inside the functions that need them, so importing the
timelines package never pays for either.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from factstore.timelines.dates import start_of
from factstore.timelines.model import TimelineAnswer, TimelineFact, TimelineKey
from factstore.timelines.resolution import end_instant

if TYPE_CHECKING:  # only for annotations: the imports themselves stay lazy
    import pandas
    import polars

#: Every column, in order, with its kind: the one place dtypes are decided for both libraries.
COLUMNS: dict[str, str] = {
    "id": "int",
    "subject": "str",
    "attribute": "str",
    "cardinality": "str",
    "value": "str",
    "unit": "str",
    "status": "str",
    "valid_from": "str",
    "valid_to": "str",
    "effective_valid_to": "str",
    "valid_from_at": "datetime",
    "valid_to_at": "datetime",
    "observed_at": "datetime",
    "last_confirmed_at": "datetime",
    "recorded_at": "datetime",
    "is_current": "bool",
    "superseded_by": "int?",
    "supersedes": "int?",
    "source": "str",
    "quote": "str",
    "confidence": "float",
    "scope": "str",
}


def _utc(instant: datetime | None) -> datetime | None:
    """The instant in UTC; a naive one is read as UTC (the store's sessions are UTC)."""
    if instant is None:
        return None
    if instant.tzinfo is None:
        return instant.replace(tzinfo=UTC)
    return instant.astimezone(UTC)


def fact_row(key: TimelineKey, fact: TimelineFact) -> dict[str, Any]:
    """One fact version as a row; ``is_current`` says whether it answers the key's as_of."""
    current_ids = {f.id for f in key.current}
    return {
        "id": fact.id,
        "subject": fact.subject,
        "attribute": fact.attribute,
        "cardinality": fact.cardinality,
        "value": fact.value,
        "unit": fact.unit,
        "status": fact.status,
        "valid_from": fact.valid_from,
        "valid_to": fact.valid_to,
        "effective_valid_to": fact.effective_valid_to,
        # None when the text gave no time: the row shows valid time as stated, not the
        # observation time resolution sorts an undated fact by.
        "valid_from_at": start_of(fact.valid_from),
        # None when open-ended
        "valid_to_at": end_instant(fact),
        "observed_at": _utc(fact.observed_at),
        "last_confirmed_at": _utc(fact.last_confirmed_at),
        "recorded_at": _utc(fact.recorded_at),
        "is_current": fact.id in current_ids,
        "superseded_by": fact.superseded_by,
        "supersedes": fact.supersedes,
        "source": fact.source,
        "quote": fact.quote,
        "confidence": fact.confidence,
        "scope": fact.scope,
    }


def answer_rows(answer: TimelineAnswer) -> list[dict[str, Any]]:
    """Every history entry of every key as a dict with exactly the keys of :data:`COLUMNS`."""
    return [fact_row(key, fact) for key in answer.keys for fact in key.history]


def to_pandas(answer: TimelineAnswer) -> pandas.DataFrame:
    """The rows as a pandas DataFrame with fixed dtypes, even when the answer is empty.

    Ids are int64, the links nullable Int64 (a fact may have no neighbour), datetimes
    ``datetime64[us, UTC]``, is_current bool, confidence float64 (NaN when unknown), text the
    pandas string dtype.
    """
    import pandas as pd

    dtypes = {"int": "int64", "int?": "Int64", "str": "string", "bool": "bool",
              "float": "float64", "datetime": "datetime64[us, UTC]"}
    rows = answer_rows(answer)
    data = {name: [row[name] for row in rows] for name in COLUMNS}
    # Build each column with its dtype directly: inference on an empty or all-None column
    # would give object, and a later astype cannot always recover a datetime from that.
    return pd.DataFrame({name: pd.Series(values, dtype=dtypes[COLUMNS[name]])
                         for name, values in data.items()})


def to_polars(answer: TimelineAnswer) -> polars.DataFrame:
    """The rows as a polars DataFrame with a fixed schema, even when the answer is empty.

    Ids and links Int64 (links null when absent), datetimes ``Datetime("us", "UTC")``,
    is_current Boolean, confidence Float64, text String.
    """
    import polars as pl

    types = {"int": pl.Int64, "int?": pl.Int64, "str": pl.String, "bool": pl.Boolean,
             "float": pl.Float64, "datetime": pl.Datetime("us", "UTC")}
    schema = {name: types[kind] for name, kind in COLUMNS.items()}
    return pl.DataFrame(answer_rows(answer), schema=schema, orient="row")
