"""Subject keys for rows written before the store read subjects (migration 004).

New facts get their key on the write path; this fills in the rest once, when a store opens
on the new schema, so the density check treats old and new facts alike.
"""

from __future__ import annotations

from typing import Any

from factstore.writepath.prepare import fact_subject

BATCH = 5000


def read_unread_subjects(conn: Any) -> int:
    """Give every non-timeline fact without a subject source its key; returns how many."""
    done = 0
    while True:
        with conn.transaction():
            rows = conn.execute(
                "SELECT id, statement, subject FROM facts WHERE subject_source IS NULL AND "
                "attribute IS NULL ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED", (BATCH,)
            ).fetchall()
            if not rows:
                return done
            ids, keys, sources = [], [], []
            for fact_id, statement, subject in rows:
                key, source = fact_subject(subject, statement)
                ids.append(fact_id)
                keys.append(key)
                sources.append(source)
            conn.execute(
                "UPDATE facts f SET subject_key = u.key, subject_source = u.source FROM "
                "unnest(%s::bigint[], %s::text[], %s::text[]) AS u(id, key, source) "
                "WHERE f.id = u.id", (ids, keys, sources))
            done += len(rows)
