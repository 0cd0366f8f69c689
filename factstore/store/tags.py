"""The tag registry's SQL: snapshot, minting, aliases, candidate roots, lifetimes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from factstore.errors import InvalidInput, StoreBusy, TagNotFound
from factstore.registry import (
    RegistrySnapshot,
    alias_key,
    canonical_form,
    check_leaf,
    check_tag_shape,
    parent_of,
    resolve_topic,
)
from factstore.results import (
    CandidateRoot,
    LeafResult,
    RegistryQueryResult,
    TagInfo,
    TagResolution,
)
from factstore.store import locks


def snapshot(cur: Any) -> RegistrySnapshot:
    cur.execute("SELECT tag FROM tags")
    tags = {row["tag"] for row in cur.fetchall()}
    cur.execute("SELECT alias, tag FROM tag_aliases")
    return RegistrySnapshot(tags, {row["alias"]: row["tag"] for row in cur.fetchall()})


def tag_lifetimes(cur: Any) -> dict[str, timedelta]:
    cur.execute("SELECT tag, default_lifetime FROM tags WHERE default_lifetime IS NOT NULL")
    return {row["tag"]: row["default_lifetime"] for row in cur.fetchall()}


def translate(cur: Any, topics: tuple[str, ...], registry: RegistrySnapshot,
              at: datetime) -> list[TagResolution]:
    """Resolve topics in order, minting leaves under existing parents as the order allows."""
    out = []
    for topic in topics:
        resolution = resolve_topic(topic, registry)
        if resolution.via == "minted" and resolution.tag is not None:
            mint_leaf(cur, resolution.tag, None, at)
            registry = RegistrySnapshot(set(registry.tags) | {resolution.tag}, registry.aliases)
        out.append(resolution)
    return out


def mint_leaf(cur: Any, tag: str, description: str | None, at: datetime) -> bool:
    cur.execute(
        "INSERT INTO tags (tag, parent, description, created_at) VALUES (%s, %s, %s, %s) "
        "ON CONFLICT (tag) DO NOTHING", (tag, parent_of(tag), description, at))
    return cur.rowcount == 1


def note_candidate_root(cur: Any, topic: str, fact_id: int | None, at: datetime) -> CandidateRoot:
    """Surface an entity-shaped unresolved topic; repeats count up instead of duplicating."""
    proposed = canonical_form(topic).split(".")[0] or canonical_form(topic)
    cur.execute(
        "INSERT INTO candidate_roots (proposed_tag, topic, origin, fact_ids, first_seen, last_seen) "
        "VALUES (%(t)s, %(topic)s, 'write-path', %(ids)s, %(at)s, %(at)s) "
        "ON CONFLICT (proposed_tag) DO UPDATE SET seen_count = candidate_roots.seen_count + 1, "
        "last_seen = %(at)s, fact_ids = candidate_roots.fact_ids || %(ids)s "
        "RETURNING *",
        {"t": proposed, "topic": topic, "ids": [fact_id] if fact_id else [], "at": at})
    return _candidate(cur.fetchone())


def _candidate(row: dict[str, Any]) -> CandidateRoot:
    return CandidateRoot(row["id"], row["topic"], row["proposed_tag"], row["status"],
                         row["seen_count"], row["description"], row["origin"])


def tag_info(cur: Any, tags: list[str] | None = None) -> list[TagInfo]:
    cur.execute(
        "SELECT t.tag, t.parent, t.description, t.default_lifetime, t.created_at, "
        "COALESCE(array_agg(a.alias ORDER BY a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') "
        "AS aliases FROM tags t LEFT JOIN tag_aliases a ON a.tag = t.tag "
        "WHERE %(all)s OR t.tag = ANY(%(tags)s) GROUP BY t.tag ORDER BY t.tag",
        {"all": tags is None, "tags": tags or []})
    return [TagInfo(r["tag"], r["parent"], r["description"], r["default_lifetime"],
                    tuple(r["aliases"]), r["created_at"]) for r in cur.fetchall()]


def query(cur: Any, topic: str) -> RegistryQueryResult:
    """How the topic resolves, plus tags whose name, description or aliases mention it."""
    if not isinstance(topic, str) or not topic.strip():
        raise InvalidInput("registry_query needs a non-empty topic, e.g. 'ci' or 'build pipeline'")
    resolution = resolve_topic(topic, snapshot(cur))
    pattern = "%" + topic.strip().lower().replace("%", r"\%").replace("_", r"\_") + "%"
    form = "%" + canonical_form(topic).replace("_", r"\_") + "%"
    cur.execute(
        "SELECT DISTINCT t.tag FROM tags t LEFT JOIN tag_aliases a ON a.tag = t.tag "
        "WHERE t.tag ILIKE %(f)s OR t.description ILIKE %(p)s OR a.alias ILIKE %(p)s "
        "OR t.tag = %(r)s OR t.parent = %(r)s",
        {"p": pattern, "f": form, "r": resolution.tag})
    matches = tag_info(cur, [row["tag"] for row in cur.fetchall()])
    return RegistryQueryResult(topic, resolution, tuple(matches))


def add_leaf(cur: Any, tag: str, description: str | None, at: datetime) -> LeafResult:
    check_leaf(tag, snapshot(cur).tags)
    created = mint_leaf(cur, tag, description, at)
    return LeafResult(tag_info(cur, [tag])[0], created)


def propose_root(cur: Any, tag: str, description: str | None, at: datetime) -> CandidateRoot:
    check_tag_shape(tag)
    if "." in tag:
        raise InvalidInput(f"{tag!r} is dotted, so it is a leaf, not a root; call "
                           f"registry_add_leaf({tag!r}, description) under its parent")
    cur.execute("SELECT 1 FROM tags WHERE tag = %s", (tag,))
    if cur.fetchone():
        raise InvalidInput(f"root {tag!r} already exists in the registry; nothing to propose")
    cur.execute(
        "INSERT INTO candidate_roots (proposed_tag, topic, description, origin, first_seen, "
        "last_seen) VALUES (%(t)s, %(t)s, %(d)s, 'proposal', %(at)s, %(at)s) "
        "ON CONFLICT (proposed_tag) DO UPDATE SET description = COALESCE(%(d)s, "
        "candidate_roots.description), last_seen = %(at)s, status = CASE WHEN "
        "candidate_roots.status = 'rejected' THEN 'pending' ELSE candidate_roots.status END "
        "RETURNING *", {"t": tag, "d": description, "at": at})
    return _candidate(cur.fetchone())


def decide_root(cur: Any, tag: str, approve: bool, reason: str | None, at: datetime) -> CandidateRoot:
    """A person's call on a candidate root; approval creates the root and tags its facts."""
    # The lock order (store/locks.py): the facts' keys and kinds before the queue's row, as
    # remember takes them when it counts a topic up.
    cur.execute("SELECT fact_ids FROM candidate_roots WHERE proposed_tag = %s", (tag,))
    seen = cur.fetchone()
    seen_ids = set(seen["fact_ids"]) if seen else set()
    locks.lock_facts_domain(cur, seen_ids)
    cur.execute("SELECT * FROM candidate_roots WHERE proposed_tag = %s FOR NO KEY UPDATE",
                (tag,))
    row = cur.fetchone()
    if row is None:
        raise TagNotFound(f"no candidate root {tag!r}; see registry_candidates() for the queue")
    if not set(row["fact_ids"]) <= seen_ids:
        raise StoreBusy(f"candidate root {tag!r} gained facts while this call took its locks; "
                        "nothing was written, retry it")
    if row["status"] != "pending":
        raise InvalidInput(f"candidate root {tag!r} was already {row['status']}")
    status = "approved" if approve else "rejected"
    if approve:
        cur.execute("INSERT INTO tags (tag, parent, description, created_at) VALUES "
                    "(%s, NULL, %s, %s)", (tag, row["description"], at))
        # The facts whose topic surfaced this root now carry it.
        cur.execute("UPDATE facts SET tags = array_append(tags, %s) WHERE id = ANY(%s) "
                    "AND NOT (%s = ANY(tags))", (tag, row["fact_ids"], tag))
        topic_alias = alias_key(row["topic"])
        if topic_alias != tag:
            cur.execute("INSERT INTO tag_aliases (alias, tag, created_at) VALUES (%s, %s, %s) "
                        "ON CONFLICT DO NOTHING", (topic_alias, tag, at))
    cur.execute("UPDATE candidate_roots SET status = %s, decided_at = %s, decided_reason = %s "
                "WHERE id = %s RETURNING *", (status, at, reason, row["id"]))
    return _candidate(cur.fetchone())


def candidates(cur: Any, status: str | None) -> list[CandidateRoot]:
    cur.execute("SELECT * FROM candidate_roots WHERE %(s)s::text IS NULL OR status = %(s)s "
                "ORDER BY seen_count DESC, id", {"s": status})
    return [_candidate(r) for r in cur.fetchall()]


def add_alias(cur: Any, alias: str, tag: str, at: datetime) -> TagInfo:
    key = alias_key(alias) if isinstance(alias, str) else ""
    if not key:
        raise InvalidInput("an alias needs some text, e.g. 'nightly build'")
    cur.execute("SELECT 1 FROM tags WHERE tag = %s", (tag,))
    if cur.fetchone() is None:
        raise TagNotFound(f"no tag {tag!r} to alias; aliases point at existing canonical tags")
    cur.execute("SELECT tag FROM tag_aliases WHERE alias = %s", (key,))
    existing = cur.fetchone()
    if existing and existing["tag"] != tag:
        raise InvalidInput(f"alias {key!r} already maps to {existing['tag']!r}; aliases are "
                           "never silently repointed")
    cur.execute("INSERT INTO tag_aliases (alias, tag, created_at) VALUES (%s, %s, %s) "
                "ON CONFLICT DO NOTHING", (key, tag, at))
    return tag_info(cur, [tag])[0]


def set_lifetime(cur: Any, tag: str, lifetime: timedelta | None) -> TagInfo:
    cur.execute("UPDATE tags SET default_lifetime = %s WHERE tag = %s", (lifetime, tag))
    if cur.rowcount != 1:
        raise TagNotFound(f"no tag {tag!r}; create it before giving it a default lifetime")
    return tag_info(cur, [tag])[0]
