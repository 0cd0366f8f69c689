"""Timeline answers as rows and frames: columns, dtypes, both time axes, the empty answer."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import polars as pl

from factstore.timelines.frames import COLUMNS, answer_rows, to_pandas, to_polars
from factstore.timelines.model import TimelineAnswer, TimelineFact, TimelineKey

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
EXPECTED_COLUMNS = [
    "id", "subject", "attribute", "cardinality", "value", "unit", "status", "valid_from",
    "valid_to", "effective_valid_to", "valid_from_at", "valid_to_at", "observed_at",
    "last_confirmed_at", "recorded_at", "is_current", "superseded_by", "supersedes", "source",
    "quote", "confidence", "scope",
]


def at(year: int, month: int = 1, day: int = 1) -> datetime:
    return datetime(year, month, day, 9, 12, tzinfo=UTC)


def answer() -> TimelineAnswer:
    """The §8 shoe sizes (A superseded by B) and one many key with an undated value."""
    a = TimelineFact(11, "person/nick", "shoe_size", "40", "EU", "one", "2025", None,
                     observed_at=at(2025, 3, 2), last_confirmed_at=at(2025, 3, 2),
                     recorded_at=at(2025, 3, 3), source="note:a", status="superseded",
                     effective_valid_to="2026", superseded_by=12, confidence=0.8)
    b = TimelineFact(12, "person/nick", "shoe_size", "41", "EU", "one", "2026", None,
                     observed_at=at(2026, 10, 15), last_confirmed_at=at(2026, 10, 20),
                     recorded_at=at(2026, 10, 16), source="note:b", quote="now 41",
                     supersedes=11)
    jj = TimelineFact(21, "person/nick", "uses_tool", "jj", None, "many", None, None,
                      observed_at=at(2026, 2, 3), last_confirmed_at=at(2026, 2, 3),
                      recorded_at=at(2026, 2, 3))
    shoe = TimelineKey("person/nick", "shoe_size", "one", (b,), (b, a), "line")
    tools = TimelineKey("person/nick", "uses_tool", "many", (jj,), (jj,), "line")
    return TimelineAnswer("now", NOW, (shoe, tools))


def empty() -> TimelineAnswer:
    return TimelineAnswer("now", NOW, ())


def test_rows_one_per_fact_version_with_both_time_axes():
    rows = answer_rows(answer())
    assert list(COLUMNS) == EXPECTED_COLUMNS
    assert [list(r) for r in rows] == [EXPECTED_COLUMNS] * 3
    assert [r["id"] for r in rows] == [12, 11, 21]
    a = rows[1]
    # Valid time, as written and as instants...
    assert (a["valid_from"], a["valid_to"], a["effective_valid_to"]) == ("2025", None, "2026")
    assert a["valid_from_at"] == datetime(2025, 1, 1, tzinfo=UTC)
    assert a["valid_to_at"] == datetime(2026, 1, 1, tzinfo=UTC)
    # ...and belief time, kept apart.
    assert (a["observed_at"], a["recorded_at"]) == (at(2025, 3, 2), at(2025, 3, 3))
    assert (a["status"], a["superseded_by"], a["supersedes"], a["is_current"]) == (
        "superseded", 12, None, False)
    assert rows[0]["is_current"] and rows[0]["valid_to_at"] is None
    # An undated value has no valid_from instant: observed time is not borrowed.
    assert rows[2]["valid_from_at"] is None and rows[2]["unit"] is None


def test_rows_of_an_empty_answer():
    assert answer_rows(empty()) == []


def test_pandas_frame_columns_and_dtypes():
    df = to_pandas(answer())
    assert list(df.columns) == EXPECTED_COLUMNS
    assert len(df) == 3
    assert df["id"].dtype == "int64"
    assert df["is_current"].dtype == bool
    assert df["confidence"].dtype == "float64"
    assert df["superseded_by"].dtype == pd.Int64Dtype()
    assert isinstance(df["value"].dtype, pd.StringDtype)
    for name in ("valid_from_at", "valid_to_at", "observed_at", "last_confirmed_at",
                 "recorded_at"):
        assert isinstance(df[name].dtype, pd.DatetimeTZDtype), name
        assert str(df[name].dt.tz) == "UTC"
    assert df.loc[1, "valid_to_at"] == pd.Timestamp("2026-01-01", tz="UTC")
    assert pd.isna(df.loc[0, "valid_to_at"]) and pd.isna(df.loc[2, "valid_from_at"])
    assert pd.isna(df.loc[0, "superseded_by"]) and df.loc[0, "supersedes"] == 11
    assert df["is_current"].tolist() == [True, False, True]


def test_pandas_empty_answer_keeps_columns_and_dtypes():
    df = to_pandas(empty())
    full = to_pandas(answer())
    assert df.empty
    assert list(df.columns) == EXPECTED_COLUMNS
    assert df.dtypes.to_dict() == full.dtypes.to_dict()


def test_polars_frame_schema():
    df = to_polars(answer())
    assert df.columns == EXPECTED_COLUMNS
    assert df.height == 3
    utc = pl.Datetime("us", "UTC")
    assert df.schema["observed_at"] == utc and df.schema["valid_to_at"] == utc
    assert df.schema["recorded_at"] == utc and df.schema["valid_from_at"] == utc
    assert df.schema["id"] == pl.Int64 and df.schema["superseded_by"] == pl.Int64
    assert df.schema["is_current"] == pl.Boolean and df.schema["confidence"] == pl.Float64
    assert df.schema["value"] == pl.String
    row = df.filter(pl.col("id") == 11).row(0, named=True)
    assert row["valid_to_at"] == datetime(2026, 1, 1, tzinfo=UTC)
    assert row["last_confirmed_at"] == at(2025, 3, 2)
    assert df["supersedes"].to_list() == [11, None, None]


def test_polars_empty_answer_keeps_the_schema():
    df = to_polars(empty())
    assert df.height == 0
    assert df.schema == to_polars(answer()).schema
