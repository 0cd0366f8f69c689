"""Tiny document archives in every format the migration reads, written by the tests.

``write_archives(folder)`` writes one archive per format and answers, per archive name,
how many rows it holds and which of them must be rejected (line -> words in the reason).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ("billing", "search", "checkout", "auth", "ledger", "notify")


def chat_lines(n: int = 24) -> list[dict]:
    """Ops chat: states of a few services, restated and changed, with times and speakers."""
    states = ("healthy", "degraded", "down")
    return [{"body": f"The {SERVICES[i % len(SERVICES)]} service is {states[(i // 6) % 3]}.",
             "created": f"2026-03-{1 + i:02d}T09:00:00Z", "who": ("ana", "ben", "cy")[i % 3],
             "doc": f"ops/{i}"} for i in range(n)]


def write_archives(folder: Path) -> dict[str, dict]:
    folder.mkdir(parents=True, exist_ok=True)
    expected: dict[str, dict] = {}

    lines = [json.dumps(r) for r in chat_lines()]
    lines.insert(5, "{not json")
    lines.insert(9, json.dumps({"body": "", "doc": "ops/empty"}))
    (folder / "chat.jsonl").write_text("\n".join(lines) + "\n")
    expected["chat.jsonl"] = {"rows": 26, "rejects": {6: "not valid JSON", 10: "empty"}}

    csv = ["body,created,doc,who"]
    csv += [f'"{r["body"]}",{r["created"]},{r["doc"]},{r["who"]}' for r in chat_lines(8)]
    csv.insert(4, "too,many,columns,here,again")
    (folder / "tickets.csv").write_text("\n".join(csv) + "\n")
    # the same lineages and texts as chat.jsonl: every document is already there
    expected["tickets.csv"] = {"rows": 9, "rejects": {5: "malformed CSV"}, "duplicates": 8}

    rows = chat_lines(12)[6:]
    table = pa.table({"body": [r["body"] for r in rows] + [None],
                      "created": [r["created"] for r in rows] + ["2026-04-01T00:00:00Z"],
                      "doc": [f"export/{i}" for i in range(len(rows))] + ["export/none"],
                      "who": [r["who"] for r in rows] + ["ana"]})
    pq.write_table(table, folder / "export.parquet")
    expected["export.parquet"] = {"rows": 7, "rejects": {7: "no text"}}

    notes = folder / "notes"
    (notes / "team").mkdir(parents=True, exist_ok=True)
    (notes / "adr-001.md").write_text("# ADR 1\n\nWe decided to use Kafka for the event bus.\n")
    (notes / "team" / "oncall.txt").write_text("Ana owns the billing service.\n")
    (notes / "team" / "blank.md").write_text("   \n")
    expected["notes"] = {"rows": 3, "rejects": {None: "empty"}}

    (folder / "dialogue.json").write_text((ROOT / "evals" / "data" / "locomo.json").read_text())
    expected["dialogue.json"] = {"rows": None, "rejects": {}}

    facts = [{"subject": "system/billing", "attribute": "database", "value": "Postgres 15",
              "valid_from": "2025-01"},
             {"subject": "system/billing", "attribute": "database", "value": "Postgres 16",
              "valid_from": "2026-02"},
             {"subject": "Not A Subject", "attribute": "database", "value": "x"},
             {"subject": "system/search", "attribute": "engine", "value": "Elasticsearch 8"}]
    (folder / "timeline.jsonl").write_text("\n".join(json.dumps(f) for f in facts) + "\n")
    expected["timeline.jsonl"] = {"rows": 4, "rejects": {3: "subject"}}
    return expected
