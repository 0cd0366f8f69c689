"""What the synthetic cassette scripts share: read a JSONL dataset, write one cassette line
per row, and ``--check`` that the committed cassette is what the script writes."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

#: fixed, so a script writes its cassette byte for byte again; it marks generation, not a
#: recording session
RECORDED_AT = "2025-01-01T00:00:00+00:00"

Recordings = Callable[[Sequence[dict[str, Any]]], Iterator[str]]


def build(recordings: Recordings, dataset: Path) -> str:
    """The cassette's whole text for ``dataset``: one line per recording."""
    rows = [json.loads(line) for line in dataset.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return "".join(line + "\n" for line in recordings(rows))


def main(recordings: Recordings, *, doc: str, dataset: Path, cassette: Path, script: str,
         argv: Sequence[str] | None = None) -> int:
    """The scripts' command line: write the cassette, or with ``--check`` exit 1 when the
    committed one differs from what would be written."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n", 1)[0])
    parser.add_argument("--dataset", type=Path, default=dataset)
    parser.add_argument("--out", type=Path, default=cassette)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the cassette differs from what this script writes")
    args = parser.parse_args(argv)
    text = build(recordings, args.dataset)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is stale; run {script} to rewrite it", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} recordings to {args.out}")
    return 0
