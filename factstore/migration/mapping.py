"""How an archive's columns become captures: the column mapping of a migration.

A tabular archive (JSONL, CSV, Parquet) names its columns its own way; the mapping says
which column holds each capture field. A field left unmapped is read from the column of the
same name when the archive has one, and is absent otherwise (``text`` must exist).

``lineage`` names the column that keys a document's versions: rows with the same lineage
value are versions of one source (the store's ``source_ref``). When no lineage or
source_ref column exists, each row is its own source, named by file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from factstore.errors import InvalidInput
from factstore.kinds import parse_source_type

#: the capture fields a column may feed
FIELDS = ("text", "source_ref", "said_at", "captured_by", "lineage")


@dataclass(frozen=True)
class ColumnMap:
    """Which archive column feeds each capture field (None: the same-named column, if any)."""

    text: str | None = None
    source_ref: str | None = None
    said_at: str | None = None
    captured_by: str | None = None
    lineage: str | None = None
    #: the source type every capture of the archive gets (None: the format's own: 'capture'
    #: for a tabular row, 'file' for a text file, 'utterance' for a LoCoMo or QMSum turn)
    source_type: str | None = None
    #: the zone a timestamp without an offset is read in (None: such a row is rejected)
    timezone: str | None = None

    def __post_init__(self) -> None:
        for name in FIELDS:
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise InvalidInput(f"column mapping: {name} must name a column, got {value!r}")
        if self.source_ref is not None and self.lineage is not None:
            raise InvalidInput(
                "column mapping: map lineage or source_ref, not both: the store keys a "
                "document's versions by one source reference (its lineage)")
        if self.source_type is not None:
            parse_source_type(self.source_type)
        zone_of(self.timezone)

    def column(self, name: str) -> str:
        """The column this field is read from."""
        return getattr(self, name) or name

    def explicit(self) -> dict[str, str]:
        """The fields the user mapped (their columns must exist)."""
        return {f: getattr(self, f) for f in FIELDS if getattr(self, f) is not None}

    def as_dict(self) -> dict[str, str | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def zone_of(name: str | None) -> timezone | ZoneInfo | None:
    """The zone a naive timestamp is read in; InvalidInput for an unknown name."""
    if name is None:
        return None
    if name.upper() in ("UTC", "Z"):
        return timezone(timedelta(0))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(f"column mapping: timezone {name!r} is not a zone name; use UTC or "
                           "an IANA name such as Europe/Berlin") from None


def parse_map(spec: str | None, *, source_type: str | None = None,
              timezone: str | None = None) -> ColumnMap:
    """``text=body,said_at=ts`` (the CLI's --map) as a ColumnMap."""
    mapped: dict[str, str] = {}
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        field, sep, column = part.partition("=")
        field, column = field.strip(), column.strip()
        if not sep or field not in FIELDS or not column:
            raise InvalidInput(
                f"--map entry {part.strip()!r} is not FIELD=COLUMN with FIELD one of "
                f"{', '.join(FIELDS)}; e.g. --map text=body,said_at=created")
        if field in mapped:
            raise InvalidInput(f"--map names {field} twice")
        mapped[field] = column
    return ColumnMap(**mapped, source_type=source_type, timezone=timezone)
