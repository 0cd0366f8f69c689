"""Checking one capture's fields (what ``remember`` takes), without a store.

``Store.remember`` and ``remember_many`` check each capture here before anything is
written; the archive migration checks each row here first, so a bad row becomes a reject
with its reason instead of refusing the whole batch. Pure functions, no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from factstore.inputs import MAX_REF, MAX_REF_BYTES, check_instant, check_text
from factstore.kinds import parse_source_type

#: the longest capture text the write path takes, in characters
MAX_CAPTURE_CHARS = 1_000_000


@dataclass(frozen=True)
class CheckedCapture:
    """A capture's fields as checked: the source type normalised, instants parsed to UTC."""

    text: str
    source_type: str
    source_ref: str | None
    said_at: datetime | None
    captured_by: str | None
    captured_at: datetime | None


def check_capture(text: object, *, source_type: object = "utterance",
                  source_ref: object = None, said_at: datetime | str | None = None,
                  captured_by: object = None,
                  captured_at: datetime | str | None = None) -> CheckedCapture:
    """The capture's fields checked, or InvalidInput naming the first bad one."""
    check_text("the capture text", text, limit=MAX_CAPTURE_CHARS)
    kind_of_source = parse_source_type(source_type).value
    check_text("source_ref", source_ref, limit=MAX_REF, required=False, max_bytes=MAX_REF_BYTES)
    check_text("captured_by", captured_by, limit=MAX_REF, required=False,
               max_bytes=MAX_REF_BYTES)
    return CheckedCapture(text, kind_of_source, source_ref,  # type: ignore[arg-type]
                          check_instant("said_at", said_at), captured_by,  # type: ignore[arg-type]
                          check_instant("captured_at", captured_at))
