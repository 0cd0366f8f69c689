"""Store.census and Store.dropped_facts: grouped counts and the refused facts, in SQL."""

from __future__ import annotations

from typing import Any

from factstore.census import (
    Census,
    DocumentCount,
    DroppedList,
    DroppedRecord,
    FactCount,
    SubjectCount,
    TopicCount,
)


def census(cur: Any, topics: int) -> Census:
    """Counts by day, kind and source; the ``topics`` largest tags and subject keys."""
    # UTC days: the sessions run in UTC, so a day means the same on every client.
    cur.execute("SELECT (coalesce(said_at, captured_at) AT TIME ZONE 'UTC')::date AS day, "
                "source_type, routed, count(*) AS n FROM documents GROUP BY 1, 2, 3 "
                "ORDER BY 1, 2, 3")
    documents = tuple(DocumentCount(r["day"], r["source_type"], r["routed"], r["n"])
                      for r in cur.fetchall())
    cur.execute("SELECT (coalesce(t_said, t_captured) AT TIME ZONE 'UTC')::date AS day, kind, "
                "evidence_source_type AS source_type, verdict, extracted_by, count(*) AS n "
                "FROM facts GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5 NULLS FIRST")
    facts = tuple(FactCount(r["day"], r["kind"], r["source_type"], r["verdict"],
                            r["extracted_by"], r["n"]) for r in cur.fetchall())
    cur.execute("SELECT tag, count(*) AS n, count(*) FILTER (WHERE verdict IN "
                "('active', 'contested')) AS live FROM facts, unnest(tags) AS tag "
                "GROUP BY tag ORDER BY n DESC, tag LIMIT %s", (topics,))
    tops = tuple(TopicCount(r["tag"], r["n"], r["live"]) for r in cur.fetchall())
    cur.execute("SELECT subject_key, count(*) AS n, count(*) FILTER (WHERE verdict IN "
                "('active', 'contested')) AS live FROM facts WHERE subject_key IS NOT NULL "
                "GROUP BY subject_key ORDER BY n DESC, subject_key LIMIT %s", (topics,))
    subjects = tuple(SubjectCount(r["subject_key"], r["n"], r["live"]) for r in cur.fetchall())
    return Census(documents, facts, tops, subjects)


def dropped(cur: Any, stage: str | None, limit: int) -> DroppedList:
    cur.execute("SELECT * FROM dropped_facts WHERE %(s)s::text IS NULL OR stage = %(s)s "
                "ORDER BY id DESC LIMIT %(n)s", {"s": stage, "n": limit})
    return DroppedList(DroppedRecord(r["id"], r["document_id"], r["extracted_by"],
                                     r["statement"], r["kind"], r["quote"], r["stage"],
                                     r["reason"], r["dropped_at"]) for r in cur.fetchall())
