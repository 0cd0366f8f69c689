"""Small JSON Lines helpers shared by the suites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def first_record(path: Path) -> dict[str, Any] | None:
    """The first non-blank line of a .jsonl file as an object, else None (not JSONL)."""
    if not path.is_file() or path.suffix.lower() != ".jsonl":
        return None
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                try:
                    first = json.loads(line)
                except json.JSONDecodeError:
                    return None
                return first if isinstance(first, dict) else None
    return None


def numbered_records(path: Path, bad: Any) -> list[tuple[int, Any]]:
    """(line number, parsed JSON) for every non-blank line; ``bad(line, message)`` builds the
    error raised for a line that is not JSON."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise bad(number, f"not JSON ({exc.msg})") from None
    return out
