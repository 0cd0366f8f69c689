"""The attribute registry's SQL (migration 019): keys, aliases, learning, merging.

Like the tag registry, it is the store's governance, not memory: unscoped. The built-in
keys and their aliases (factstore/compiler/vocabulary.py) are seeded when a store opens; a
key the compiler meets that the registry lacks is recorded as ``learned`` with the words it
came from, for a person to review, and merged into an existing key if it is a near-synonym.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from factstore.compiler.values import attribute_key
from factstore.compiler.vocabulary import ATTRIBUTES
from factstore.errors import AttributeNotFound, InvalidInput

__all__ = ["AttributeInfo", "add_alias", "listing", "learn", "merge", "seed", "snapshot"]


@dataclass(frozen=True)
class AttributeInfo:
    """One registry key: its cardinality, where it came from, its aliases, and what it
    was merged into (None: it answers as itself)."""

    key: str
    cardinality: str
    origin: str
    aliases: tuple[str, ...]
    merged_into: str | None = None
    description: str | None = None


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def seed(conn: Any, at: datetime) -> None:
    """The built-in keys and aliases (idempotent: a key or alias already there stays)."""
    conn.execute("INSERT INTO attributes (key, cardinality, description, origin, created_at) "
                 "SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], "
                 "%s::timestamptz[]) ON CONFLICT (key) DO NOTHING",
                 ([a.key for a in ATTRIBUTES], [a.cardinality for a in ATTRIBUTES],
                  [a.description for a in ATTRIBUTES], ["builtin"] * len(ATTRIBUTES),
                  [at] * len(ATTRIBUTES)))
    aliases = {(_fold(alias), a.key) for a in ATTRIBUTES for alias in (a.key, *a.aliases)}
    ordered = sorted(aliases)
    conn.execute("INSERT INTO attribute_aliases (alias, key, origin, created_at) "
                 "SELECT a, k, 'builtin', %s FROM unnest(%s::text[], %s::text[]) AS u(a, k) "
                 "ON CONFLICT (alias) DO NOTHING",
                 (at, [a for a, _ in ordered], [k for _, k in ordered]))


def snapshot(cur: Any) -> dict[str, str]:
    """alias or key -> the canonical key it answers as (following merges)."""
    cur.execute("SELECT key, merged_into FROM attributes")
    merged = {r["key"]: r["merged_into"] for r in cur.fetchall()}

    def final(key: str) -> str:
        seen = set()
        while merged.get(key) and key not in seen:
            seen.add(key)
            key = merged[key]
        return key

    out = {key: final(key) for key in merged}
    cur.execute("SELECT alias, key FROM attribute_aliases")
    for row in cur.fetchall():
        out[row["alias"]] = final(row["key"])
    return out


def learn(cur: Any, key: str, cardinality: str, alias: str | None, at: datetime) -> None:
    """Record a key the compiler used (learned when new) and the words it came from."""
    cur.execute("INSERT INTO attributes (key, cardinality, origin, created_at) VALUES "
                "(%s, %s, 'learned', %s) ON CONFLICT (key) DO NOTHING", (key, cardinality, at))
    words = _fold(alias or "")
    if words and len(words) <= 200:
        cur.execute("INSERT INTO attribute_aliases (alias, key, origin, created_at) VALUES "
                    "(%s, %s, 'learned', %s) ON CONFLICT (alias) DO NOTHING",
                    (words, key, at))


def listing(cur: Any, origin: str | None = None) -> list[AttributeInfo]:
    cur.execute("SELECT a.key, a.cardinality, a.origin, a.merged_into, a.description, "
                "coalesce(array_agg(l.alias ORDER BY l.alias) FILTER (WHERE l.alias IS NOT "
                "NULL), '{}') AS aliases FROM attributes a LEFT JOIN attribute_aliases l ON "
                "l.key = a.key WHERE %(o)s::text IS NULL OR a.origin = %(o)s GROUP BY a.key "
                "ORDER BY a.key", {"o": origin})
    return [AttributeInfo(r["key"], r["cardinality"], r["origin"], tuple(r["aliases"]),
                          r["merged_into"], r["description"]) for r in cur.fetchall()]


def _existing(cur: Any, key: str) -> dict[str, Any]:
    cur.execute("SELECT key, cardinality, merged_into FROM attributes WHERE key = %s "
                "FOR UPDATE", (key,))
    row = cur.fetchone()
    if row is None:
        raise AttributeNotFound(f"no attribute {key!r} in the registry; list them with attributes()")
    return row


def merge(cur: Any, key: str, into: str, at: datetime) -> AttributeInfo:
    """``key`` answers as ``into`` from now on: its aliases move, it becomes one. Stored
    timeline facts keep the key they were written with (nothing is rewritten)."""
    if key == into:
        raise InvalidInput(f"cannot merge attribute {key!r} into itself")
    source, target = _existing(cur, key), _existing(cur, into)
    if target["merged_into"] is not None:
        raise InvalidInput(f"{into!r} was itself merged into {target['merged_into']!r}; "
                           "merge into that key")
    if source["cardinality"] != target["cardinality"]:
        raise InvalidInput(f"{key!r} holds {source['cardinality']} value(s) at a time and "
                           f"{into!r} {target['cardinality']}; only keys of one cardinality "
                           "merge")
    cur.execute("UPDATE attributes SET merged_into = %s, merged_at = %s WHERE key = %s",
                (into, at, key))
    cur.execute("UPDATE attribute_aliases SET key = %s WHERE key = %s", (into, key))
    cur.execute("INSERT INTO attribute_aliases (alias, key, origin, created_at) VALUES "
                "(%s, %s, 'person', %s) ON CONFLICT (alias) DO UPDATE SET key = EXCLUDED.key",
                (key, into, at))
    return next(a for a in listing(cur) if a.key == key)


def add_alias(cur: Any, alias: str, key: str, at: datetime) -> AttributeInfo:
    """A spelling that names ``key`` ('employer' for works_at); never repoints an alias."""
    words = _fold(alias)
    if not words or len(words) > 200:
        raise InvalidInput("an attribute alias is 1-200 characters of words")
    target = _existing(cur, key)
    if target["merged_into"] is not None:
        raise InvalidInput(f"{key!r} was merged into {target['merged_into']!r}; alias that")
    cur.execute("SELECT key FROM attribute_aliases WHERE alias = %s", (words,))
    row = cur.fetchone()
    if row is not None and row["key"] != key:
        raise InvalidInput(f"alias {words!r} already names {row['key']!r}; merge the keys "
                           "instead of repointing it")
    cur.execute("INSERT INTO attribute_aliases (alias, key, origin, created_at) VALUES "
                "(%s, %s, 'person', %s) ON CONFLICT (alias) DO NOTHING", (words, key, at))
    if attribute_key(words) is None:
        raise InvalidInput(f"alias {alias!r} has no words")
    return next(a for a in listing(cur) if a.key == key)
