"""The entity registry's SQL: candidate snapshots by name keys, creating entities and their
names, recording mentions and document bindings, relations, reads that follow merge
redirects, merges and unmerges.

Entity writes take, after the density kinds, an advisory lock per normalised name the call
resolves (store/locks.py, step 3b), so two writers never both create "Priya Patel".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from factstore.entities.ids import uuid7
from factstore.entities.model import (
    Entity,
    MergeProposal,
    Relation,
    relation_confidence,
    timeline_name,
)
from factstore.entities.names import keys, name_score, normalise
from factstore.entities.resolution import (
    BINDING_GENERATION,
    ONE_VALUED,
    Candidate,
    fit_rank,
)
from factstore.errors import EntityNotFound, InvalidInput
from factstore.store import locks

ENTITY_SELECT = (
    "e.id::text AS id, e.canonical_name, e.entity_type, e.attributes, e.created_at, "
    "e.timeline_subject, e.merged_into::text AS merged_into, e.profile, e.profile_built_at, "
    "e.profile_stale, (SELECT array_agg(n.name ORDER BY n.created_at, n.name) FROM "
    "entity_names n WHERE n.entity_id = e.id) AS names, "
    "(SELECT count(*) FROM mentions m WHERE m.entity_id = e.id) AS mention_count, "
    "(SELECT array_agg(x.id::text ORDER BY x.id) FROM entities x WHERE x.merged_into = e.id) "
    "AS merged_ids")


def entity_from_row(row: dict[str, Any], redirected: tuple[str, ...] = ()) -> Entity:
    names = tuple(dict.fromkeys(row["names"] or ()))
    return Entity(id=row["id"], canonical_name=row["canonical_name"],
                  entity_type=row["entity_type"],
                  aliases=tuple(n for n in names if n != row["canonical_name"]),
                  attributes=dict(row["attributes"] or {}), created_at=row["created_at"],
                  mentions=int(row["mention_count"] or 0),
                  timeline_subject=row["timeline_subject"], merged_into=row["merged_into"],
                  profile=row["profile"], profile_built_at=row["profile_built_at"],
                  profile_stale=row["profile_stale"], redirected_from=redirected,
                  merged=tuple(row["merged_ids"] or ()))


# -- locks, creation, names ------------------------------------------------------------------


def lock_names(cur: Any, names: Iterable[str]) -> None:
    """Step 3b of the lock order: one writer per normalised name at a time."""
    locks.lock_entity_names(cur, {normalise(n) for n in names if normalise(n)})


def create(cur: Any, name: str, kind: str, at: datetime, *, source: str = "canonical",
           timeline_subject: str | None = None) -> str:
    entity_id = str(uuid7())
    cur.execute("INSERT INTO entities (id, canonical_name, entity_type, created_at, "
                "timeline_subject) VALUES (%s, %s, %s, %s, %s)",
                (entity_id, name, kind, at, timeline_subject))
    add_name(cur, entity_id, name, source, at)
    return entity_id


def add_name(cur: Any, entity_id: str, name: str, source: str, at: datetime) -> bool:
    """Record a name of the entity (and its keys); False when it already had it."""
    norm = normalise(name)
    if not norm:
        return False
    cur.execute("INSERT INTO entity_names (entity_id, name, name_norm, source, created_at) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (entity_id, name, norm, source, at))
    added = cur.rowcount == 1
    if added:
        cur.execute("INSERT INTO entity_keys (key, entity_id) SELECT k, %s FROM unnest(%s::text[]) "
                    "AS k ON CONFLICT DO NOTHING", (entity_id, sorted(keys(name))))
    return added


# -- the resolver's snapshot -----------------------------------------------------------------


def snapshot(cur: Any, name: str, document_id: int | None, limit: int
             ) -> tuple[list[Candidate], bool]:
    """The live entities whose names fit ``name`` best (merged ones through their
    survivor), at most ``limit``; and whether more fitting ones were left out (truncated).

    The keys find every entity sharing a word, a Soundex code or a short form with the
    name; those sharing the most keys are read (at most ``PREFILTER`` x ``limit``) and
    scored by name fit here, so a busy entity that merely shares a common word ("Logistics")
    never crowds out the one the name fits."""
    cur.execute(
        "WITH hits AS (SELECT entity_id, count(*) AS shared FROM entity_keys WHERE key = "
        "ANY(%(keys)s) GROUP BY entity_id), live AS (SELECT coalesce(e.merged_into, e.id) AS "
        "id, max(h.shared) AS shared FROM hits h JOIN entities e ON e.id = h.entity_id "
        "GROUP BY 1) SELECT l.id::text AS id FROM live l JOIN entities s ON s.id = l.id "
        "WHERE s.merged_into IS NULL ORDER BY l.shared DESC, l.id LIMIT %(pre)s",
        {"keys": sorted(keys(name)), "pre": PREFILTER * limit + 1})
    rows = cur.fetchall()
    clipped = len(rows) > PREFILTER * limit
    ids = [r["id"] for r in rows[:PREFILTER * limit]]
    if not ids:
        return [], clipped
    # names only, for the fit; the full candidate is read for the few that fit best
    cur.execute("SELECT n.entity_id::text AS id, n.name FROM entity_names n WHERE n.entity_id "
                "= ANY(%(ids)s::uuid[]) UNION ALL SELECT e.merged_into::text, n.name FROM "
                "entities e JOIN entity_names n ON n.entity_id = e.id WHERE e.merged_into = "
                "ANY(%(ids)s::uuid[])", {"ids": ids})
    names: dict[str, list[str]] = {}
    for r in cur.fetchall():
        names.setdefault(r["id"], []).append(r["name"])
    order = {entity_id: n for n, entity_id in enumerate(ids)}
    fits = {i: name_score(name, names.get(i, [])) for i in ids}
    here: set[str] = set()
    if document_id is not None:
        cur.execute("SELECT entity_id::text AS id FROM mentions WHERE document_id = %(d)s AND "
                    "entity_id = ANY(%(ids)s::uuid[]) UNION SELECT entity_id::text FROM "
                    "document_bindings WHERE document_id = %(d)s AND entity_id = "
                    "ANY(%(ids)s::uuid[])", {"d": document_id, "ids": ids})
        here = {r["id"] for r in cur.fetchall()}
    # the order the resolver ranks in (resolution.fit_rank), so the cut keeps its best
    fitting = sorted((i for i in ids if fits[i].score > 0),
                     key=lambda i: (-fit_rank(name, fits[i]), i not in here, order[i]))
    return candidates(cur, fitting[:limit], document_id), clipped or len(fitting) > limit


#: How many entities per snapshot place the key search reads before scoring names.
PREFILTER = 8


def candidates(cur: Any, ids: Sequence[str], document_id: int | None) -> list[Candidate]:
    """The candidates' names, profiles, one-valued relations and mentions, in ``ids``' order
    (a merged entity's names and relations count for its survivor)."""
    if not ids:
        return []
    cur.execute(
        "SELECT e.id::text AS id, e.canonical_name, e.entity_type, e.profile, e.profile_vector, "
        "(SELECT array_agg(n.name ORDER BY n.created_at) FROM entity_names n WHERE "
        " n.entity_id = e.id OR n.entity_id IN (SELECT x.id FROM entities x WHERE "
        " x.merged_into = e.id)) AS names, "
        "(SELECT count(*) FROM mentions m WHERE m.entity_id = e.id) AS n, "
        "(EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id AND m.document_id = "
        " %(doc)s) OR EXISTS (SELECT 1 FROM document_bindings b WHERE b.document_id = "
        " %(doc)s AND b.entity_id = e.id)) AS in_document FROM entities e WHERE e.id = "
        "ANY(%(ids)s::uuid[])",
        {"ids": list(ids), "doc": document_id})
    rows = {r["id"]: r for r in cur.fetchall()}
    cur.execute(
        "SELECT r.subject_entity::text AS s, r.predicate, o.canonical_name FROM relations r "
        "JOIN entities o ON o.id = r.object_entity WHERE r.subject_entity = ANY(%s::uuid[]) "
        "AND r.predicate = ANY(%s) AND relation_support(r.id) > 0",
        (list(ids), sorted(ONE_VALUED)))
    anchors: dict[str, dict[str, set[str]]] = {}
    for r in cur.fetchall():
        anchors.setdefault(r["s"], {}).setdefault(r["predicate"], set()).add(
            normalise(r["canonical_name"]))
    out = []
    for entity_id in ids:
        r = rows[entity_id]
        names = tuple(dict.fromkeys(r["names"] or (r["canonical_name"],)))
        vector = r["profile_vector"]
        out.append(Candidate(
            entity_id, r["canonical_name"],
            tuple(n for n in names if n != r["canonical_name"]), r["entity_type"],
            r["profile"], None if vector is None else np.asarray(vector.to_numpy()),
            anchors={k: frozenset(v) for k, v in anchors.get(entity_id, {}).items()},
            in_document=bool(r["in_document"]), mentions=int(r["n"])))
    return out


def binding(cur: Any, document_id: int, name: str) -> str | None:
    cur.execute("SELECT entity_id::text AS id FROM document_bindings WHERE document_id = %s "
                "AND name_norm = %s AND generation = %s",
                (document_id, normalise(name), BINDING_GENERATION))
    row = cur.fetchone()
    return row["id"] if row else None


def bind(cur: Any, document_id: int, name: str, entity_id: str) -> None:
    cur.execute("INSERT INTO document_bindings (document_id, name_norm, generation, entity_id) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (document_id, normalise(name), BINDING_GENERATION, entity_id))


def record_mention(cur: Any, *, claim_id: int | None, document_id: int, fact_id: int | None,
                   name: str, role: str, entity_type: str | None, entity_id: str, tier: str,
                   resolver: str | None, confidence: float | None, audit: dict,
                   at: datetime) -> None:
    cur.execute(
        "INSERT INTO mentions (claim_id, document_id, fact_id, name, name_norm, role, "
        "entity_type, entity_id, tier, resolver, confidence, audit, created_at) VALUES "
        "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
        (claim_id, document_id, fact_id, name, normalise(name), role, entity_type, entity_id,
         tier, resolver, confidence, Jsonb(audit), at))


def mark_stale(cur: Any, entity_ids: Iterable[str]) -> None:
    """Evidence about these entities changed: their profiles are rebuilt on the next
    refresh (debounced: many changes, one rebuild)."""
    ids = sorted(set(entity_ids))
    if ids:
        cur.execute("UPDATE entities SET profile_stale = true, profile_epoch = profile_epoch "
                    "+ 1 WHERE id = ANY(%s::uuid[])", (ids,))


def clear_for_withdrawal(cur: Any, *, fact_ids: Iterable[int] = (),
                         lineage: str | None = None) -> None:
    """Evidence was withdrawn: the profiles of the entities it was about (the facts'
    subjects, and both ends of relations the lineage's claims support) are cleared now and
    rebuilt from what survives on the next refresh, so a forgotten source's phrases never
    stay in a summary or its vector."""
    cur.execute(
        "UPDATE entities SET profile = NULL, profile_vector = NULL, profile_stale = true, "
        "profile_epoch = profile_epoch + 1 "
        "WHERE id IN (SELECT subject_entity FROM facts WHERE id = ANY(%(f)s) AND "
        "subject_entity IS NOT NULL UNION SELECT unnest(ARRAY[r.subject_entity, "
        "r.object_entity]) FROM relations r JOIN relation_evidence v ON v.relation_id = r.id "
        "JOIN claims c ON c.id = v.claim_id WHERE c.lineage = %(l)s OR c.fact_id = ANY(%(f)s))",
        {"f": sorted(set(fact_ids)), "l": lineage})


def mark_stale_for(cur: Any, *, fact_ids: Iterable[int] = (),
                   lineage: str | None = None) -> None:
    """Evidence came back (a restored source): rebuild those profiles on the next refresh."""
    cur.execute(
        "UPDATE entities SET profile_stale = true, profile_epoch = profile_epoch + 1 WHERE id "
        "IN (SELECT subject_entity FROM "
        "facts WHERE id = ANY(%(f)s) UNION SELECT unnest(ARRAY[r.subject_entity, "
        "r.object_entity]) FROM relations r JOIN relation_evidence v ON v.relation_id = r.id "
        "JOIN claims c ON c.id = v.claim_id WHERE c.lineage = %(l)s)",
        {"f": sorted(set(fact_ids)), "l": lineage})


# -- timeline subjects -----------------------------------------------------------------------


def for_timeline_subjects(cur: Any, subjects: Iterable[str], at: datetime) -> dict[str, str]:
    """The entity each timeline subject is ('person/ana-lopez' is the Person 'Ana Lopez',
    'me' the Person the store belongs to), created the first time the subject is written
    (under the subject's lock, so two writers create it once)."""
    wanted = sorted(set(subjects))
    if not wanted:
        return {}
    found = _timeline_entities(cur, wanted)
    missing = [s for s in wanted if s not in found]
    if missing:
        lock_names(cur, [f"timeline:{s}" for s in missing])
        found.update(_timeline_entities(cur, missing))
    for subject in wanted:
        if subject not in found:
            name, kind = timeline_name(subject)
            found[subject] = create(cur, name, kind, at, source="timeline",
                                    timeline_subject=subject)
    return found


def _timeline_entities(cur: Any, subjects: list[str]) -> dict[str, str]:
    cur.execute("SELECT timeline_subject, id::text AS id FROM entities WHERE "
                "timeline_subject = ANY(%s)", (subjects,))
    return {r["timeline_subject"]: r["id"] for r in cur.fetchall()}


# -- relations -------------------------------------------------------------------------------


def add_relation(cur: Any, subject: str, predicate: str, obj: str, claim_id: int,
                 at: datetime) -> int:
    cur.execute("INSERT INTO relations (subject_entity, predicate, object_entity, created_at) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (subject_entity, predicate, object_entity) "
                "DO UPDATE SET predicate = excluded.predicate RETURNING id",
                (subject, predicate, obj, at))
    relation_id = cur.fetchone()["id"]
    cur.execute("INSERT INTO relation_evidence (relation_id, claim_id, recorded_at) VALUES "
                "(%s, %s, %s) ON CONFLICT DO NOTHING", (relation_id, claim_id, at))
    return relation_id


_RELATION_SELECT = (
    "r.id, r.subject_entity::text AS s, s.canonical_name AS s_name, r.predicate, "
    "r.object_entity::text AS o, o.canonical_name AS o_name, relation_support(r.id) AS n, "
    "(SELECT array_agg(v.claim_id ORDER BY v.claim_id) FROM relation_evidence v WHERE "
    "v.relation_id = r.id) AS claims FROM relations r JOIN entities s ON s.id = "
    "r.subject_entity JOIN entities o ON o.id = r.object_entity")


def _relation(row: dict[str, Any]) -> Relation:
    return Relation(row["id"], row["s"], row["s_name"], row["predicate"], row["o"],
                    row["o_name"], relation_confidence(row["n"]), row["n"],
                    tuple(row["claims"] or ()))


def relations_touching(cur: Any, entity_ids: Iterable[str], *, include_unsupported: bool = False
                       ) -> list[Relation]:
    """Relations with either end among these entities (or among entities merged into
    them), seen from the survivors; only those with current support unless asked."""
    ids = sorted(set(entity_ids))
    if not ids:
        return []
    cur.execute(
        f"SELECT {_RELATION_SELECT} WHERE r.subject_entity = ANY(%(ids)s::uuid[]) OR "
        "r.object_entity = ANY(%(ids)s::uuid[]) OR r.subject_entity IN (SELECT id FROM "
        "entities WHERE merged_into = ANY(%(ids)s::uuid[])) OR r.object_entity IN (SELECT id "
        "FROM entities WHERE merged_into = ANY(%(ids)s::uuid[])) ORDER BY r.id", {"ids": ids})
    found = [_relation(r) for r in cur.fetchall()]
    if not include_unsupported:
        found = [r for r in found if r.support > 0]
    survivors = survivor_map(cur, {x for r in found for x in (r.subject, r.object)})
    out = []
    for r in found:
        s, o = survivors.get(r.subject, r.subject), survivors.get(r.object, r.object)
        out.append(Relation(r.id, s, r.subject_name, r.predicate, o, r.object_name,
                            r.confidence, r.support, r.claim_ids))
    return out


# -- reads and merges ------------------------------------------------------------------------


def survivor_map(cur: Any, ids: Iterable[str]) -> dict[str, str]:
    """Each id's survivor, following merge redirects (a chain too)."""
    out: dict[str, str] = {}
    for entity_id in set(ids):
        out[entity_id] = follow(cur, entity_id)[0]
    return out


def follow(cur: Any, entity_id: str) -> tuple[str, tuple[str, ...]]:
    """The survivor of an id and the ids followed to reach it."""
    seen: list[str] = []
    current = entity_id
    for _ in range(64):
        cur.execute("SELECT merged_into::text AS m FROM entities WHERE id = %s", (current,))
        row = cur.fetchone()
        if row is None:
            raise EntityNotFound(f"no entity {entity_id}; list them with entities()")
        if row["m"] is None:
            return current, tuple(seen)
        seen.append(current)
        current = row["m"]
    raise InvalidInput(f"entity {entity_id}'s merge redirects do not end; unmerge one")


def find(cur: Any, ref: str) -> list[str]:
    """Entity ids a reference names: an id, a timeline subject, or a name (its normalised
    form among the entities' names)."""
    if _looks_like_uuid(ref):
        cur.execute("SELECT id::text AS id FROM entities WHERE id = %s::uuid", (ref,))
    elif "/" in ref and " " not in ref:
        cur.execute("SELECT id::text AS id FROM entities WHERE timeline_subject = %s", (ref,))
    else:
        cur.execute("SELECT DISTINCT entity_id::text AS id FROM entity_names WHERE name_norm = %s "
                    "ORDER BY 1", (normalise(ref),))
    return [r["id"] for r in cur.fetchall()]


def _looks_like_uuid(text: str) -> bool:
    return len(text) == 36 and text.count("-") == 4 and all(
        c in "0123456789abcdefABCDEF-" for c in text)


def get(cur: Any, ref: str) -> Entity:
    """One entity by id, timeline subject or name (a name two entities share is refused:
    pass the id); a merged entity's read lands on its survivor and says so."""
    found = find(cur, ref)
    if not found:
        raise EntityNotFound(f"no entity {ref!r}; list them with entities()")
    survivors = sorted({follow(cur, f)[0] for f in found})
    if len(survivors) > 1:
        raise InvalidInput(f"{ref!r} names {len(survivors)} entities "
                           f"({', '.join(survivors)}); pass one id")
    start = found[0] if len(found) == 1 else survivors[0]
    survivor, path = follow(cur, start)
    cur.execute(f"SELECT {ENTITY_SELECT} FROM entities e WHERE e.id = %s", (survivor,))
    return entity_from_row(cur.fetchone(), path)


def listing(cur: Any, *, entity_type: str | None, name: str | None, limit: int,
            include_merged: bool) -> list[Entity]:
    where = ["TRUE"]
    params: dict[str, object] = {"limit": limit}
    if entity_type is not None:
        where.append("e.entity_type = %(type)s")
        params["type"] = entity_type
    if name is not None:
        where.append("EXISTS (SELECT 1 FROM entity_names n WHERE n.entity_id = e.id AND "
                     "n.name_norm LIKE %(name)s)")
        params["name"] = "%" + normalise(name).replace("%", "").replace("_", "") + "%"
    if not include_merged:
        where.append("e.merged_into IS NULL")
    cur.execute(f"SELECT {ENTITY_SELECT} FROM entities e WHERE {' AND '.join(where)} "
                "ORDER BY e.id LIMIT %(limit)s", params)
    return [entity_from_row(r) for r in cur.fetchall()]


def merge(cur: Any, survivor: str, merged: str, reason: str, at: datetime) -> None:
    if survivor == merged:
        raise InvalidInput("an entity cannot be merged into itself")
    head, _ = follow(cur, survivor)
    if head != survivor:
        raise InvalidInput(f"entity {survivor} is itself merged into {head}; merge into {head}")
    if follow(cur, merged)[0] != merged:
        raise InvalidInput(f"entity {merged} is already merged; unmerge it first")
    cur.execute("UPDATE entities SET merged_into = %s, merged_at = %s WHERE id = %s",
                (survivor, at, merged))
    cur.execute("INSERT INTO entity_merges (survivor, merged, reason, at) VALUES (%s, %s, %s, %s)",
                (survivor, merged, reason, at))
    cur.execute("UPDATE merge_proposals SET status = 'accepted', decided_at = %s WHERE "
                "status = 'pending' AND least(entity_a, entity_b) = least(%s::uuid, %s::uuid) "
                "AND greatest(entity_a, entity_b) = greatest(%s::uuid, %s::uuid)",
                (at, survivor, merged, survivor, merged))
    mark_stale(cur, [survivor, merged])


def unmerge(cur: Any, merged: str, reason: str, at: datetime) -> str:
    """Undo a merge: the entity stands on its own again, with every name, mention and
    relation it had (nothing was moved). Returns the survivor it was merged into."""
    cur.execute("SELECT merged_into::text AS m FROM entities WHERE id = %s", (merged,))
    row = cur.fetchone()
    if row is None:
        raise EntityNotFound(f"no entity {merged}")
    if row["m"] is None:
        raise InvalidInput(f"entity {merged} is not merged; nothing to undo")
    cur.execute("UPDATE entities SET merged_into = NULL, merged_at = NULL WHERE id = %s",
                (merged,))
    cur.execute("UPDATE entity_merges SET undone_at = %s, undo_reason = %s WHERE merged = %s "
                "AND undone_at IS NULL", (at, reason, merged))
    mark_stale(cur, [row["m"], merged])
    return row["m"]


def propose(cur: Any, a: str, b: str, score: float | None, reason: str, at: datetime) -> bool:
    """A merge proposal; an equivalent pending one is kept instead (deduplicated), and a
    pair a person rejected is not proposed again. Returns whether one was made."""
    cur.execute(
        "INSERT INTO merge_proposals (entity_a, entity_b, score, reason, created_at) "
        "SELECT %(a)s, %(b)s, %(s)s, %(r)s, %(at)s WHERE NOT EXISTS (SELECT 1 FROM "
        "merge_proposals p WHERE p.status IN ('rejected', 'accepted') AND "
        "least(p.entity_a, p.entity_b) = least(%(a)s::uuid, %(b)s::uuid) AND "
        "greatest(p.entity_a, p.entity_b) = greatest(%(a)s::uuid, %(b)s::uuid)) "
        "ON CONFLICT DO NOTHING", {"a": a, "b": b, "s": score, "r": reason, "at": at})
    return bool(cur.rowcount)


def reject(cur: Any, proposal_id: int, reason: str, at: datetime) -> MergeProposal:
    """A person's no: the proposal is decided against, with why."""
    cur.execute("UPDATE merge_proposals SET status = 'rejected', decided_at = %s, "
                "reason = reason || ' · rejected: ' || %s WHERE id = %s AND status = 'pending' "
                "RETURNING id", (at, reason, proposal_id))
    if cur.fetchone() is None:
        cur.execute("SELECT status FROM merge_proposals WHERE id = %s", (proposal_id,))
        row = cur.fetchone()
        if row is None:
            raise EntityNotFound(f"no merge proposal #{proposal_id}; list them with "
                                 "merge_proposals()")
        raise InvalidInput(f"merge proposal #{proposal_id} is already {row['status']}")
    return next(p for p in proposals(cur, None) if p.id == proposal_id)


def proposals(cur: Any, status: str | None) -> list[MergeProposal]:
    cur.execute("SELECT id, entity_a::text AS a, entity_b::text AS b, score, reason, status, "
                "created_at FROM merge_proposals WHERE %(s)s::text IS NULL OR status = %(s)s "
                "ORDER BY id", {"s": status})
    return [MergeProposal(r["id"], r["a"], r["b"], r["score"], r["reason"], r["status"],
                          r["created_at"]) for r in cur.fetchall()]
