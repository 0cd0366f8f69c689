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
