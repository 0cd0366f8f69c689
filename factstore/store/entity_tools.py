"""Store's entity layer: the registry's reads, aliases, merges and their undoing, merge
proposals, relations and traversal, mentions, and profile refreshes.

A mixin of Store. Every entity read follows merge redirects to the survivor and says so
(``Entity.redirected_from``); ``unmerge`` restores both sides, since a merge moves nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from factstore.entities.model import (
    PREDICATES,
    Entity,
    EntityList,
    MentionRecord,
    MergeProposal,
    MergeResult,
    Neighbour,
    NeighbourList,
    ProfileRefresh,
    Relation,
    attribute_value,
    profile_text,
    traverse,
)
from factstore.entities.model import entity_type as checked_type
from factstore.entities.names import name_score, normalise
from factstore.entities.resolution import entities_distinct
from factstore.errors import InvalidInput
from factstore.inputs import MAX_NOTE, check_choice, check_count, check_flag, check_text
from factstore.redaction import redact, redact_text
from factstore.store import entities as entity_sql
from factstore.store import retry
from factstore.store.rows import fetch_facts
from factstore.timelines.subjects import ME, resolve_me

MAX_NAME = 400
MAX_REF = 2100


def _now() -> datetime:
    return datetime.now(UTC)


def _ref(name: str, value: object) -> str:
    return check_text(name, value, limit=MAX_REF).strip()  # type: ignore[union-attr]


def _reason(value: object) -> str:
    text = check_text("reason", value, limit=MAX_NOTE)
    return redact_text(text.strip(), MAX_NOTE)[0]  # type: ignore[union-attr]


class EntityTools:
    """entities, entity, aliases, add_alias, merge, unmerge, merge_proposals, relations,
    neighbours, mentions, refresh_profiles; mixed into Store."""

    def _entity_ref(self, name: str, value: object) -> str:
        """A checked reference; 'me' is the user's own timeline subject."""
        ref = _ref(name, value)
        return resolve_me(ME, self.user_id) if ref.lower() == ME else ref  # type: ignore[attr-defined]

    def entities(self, *, entity_type: str | None = None, name: str | None = None,
                 limit: int = 500, include_merged: bool = False) -> EntityList:
        """Registry entries (oldest first), by type or a part of a name; merged entities
        (redirects) only when asked for."""
        if entity_type is not None and checked_type(entity_type) is None:
            raise InvalidInput(f"entity_type {entity_type!r} is not a type name (CamelCase "
                               "letters, e.g. Person, Organization, Project, Place)")
        check_text("name", name, limit=MAX_NAME, required=False)
        check_count("limit", limit, 1, 100_000)
        check_flag("include_merged", include_merged)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return EntityList(entity_sql.listing(cur, entity_type=entity_type, name=name,
                                                 limit=limit, include_merged=include_merged))

    def entity(self, ref: str) -> Entity:
        """One entity by id, timeline subject ('person/ana', or 'me': the user's own) or
        name; a merged entity is read as its survivor, with the redirect in
        ``redirected_from``."""
        ref = self._entity_ref("entity", ref)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return entity_sql.get(cur, ref)

    def aliases(self, ref: str) -> tuple[str, ...]:
        """Every name the entity (and anything merged into it) is known by."""
        entity = self.entity(ref)
        return (entity.canonical_name, *entity.aliases)

    @retry.retry_transient
    def add_alias(self, ref: str, alias: str) -> Entity:
        """Give an entity another name (a person's word: mentions of it resolve there)."""
        ref = self._entity_ref("entity", ref)
        alias = check_text("alias", alias, limit=MAX_NAME).strip()  # type: ignore[union-attr]
        if redact(alias)[1]:
            raise InvalidInput("the alias looks like a secret; names are stored in the clear")
        if not normalise(alias):
            raise InvalidInput(f"alias {alias!r} has no letters or digits to match on")
        with self._tx() as cur:  # type: ignore[attr-defined]
            entity = entity_sql.get(cur, ref)
            entity_sql.lock_names(cur, [alias])
            entity_sql.add_name(cur, entity.id, alias, "alias", _now())
            entity_sql.mark_stale(cur, [entity.id])
            return entity_sql.get(cur, entity.id)

    @retry.retry_transient
    def set_entity_attribute(self, ref: str, name: str, value: object,
                             value_type: str = "text") -> Entity:
        """Set one typed attribute of an entity (text, int, float, bool, or a partial
        date); the previous value is kept in the attribute's history."""
        ref = self._entity_ref("entity", ref)
        try:
            key, typed = attribute_value(name, value, value_type)
        except ValueError as exc:
            raise InvalidInput(f"{exc}; e.g. set_entity_attribute('Arc Labs', 'founded', "
                               "2019, 'int')") from None
        if typed["type"] in ("text", "date") and redact(str(typed["value"]))[1]:
            raise InvalidInput(f"attribute {key}'s value looks like a secret; entity "
                               "attributes are stored in the clear")
        at = _now()
        with self._tx() as cur:  # type: ignore[attr-defined]
            entity = entity_sql.get(cur, ref)
            old = entity.attributes.get(key)
            history = list((entity.attributes.get("_history") or {}).get(key, []))
            if old is not None:
                history.append({**old, "until": at.isoformat()})
            cur.execute("UPDATE entities SET attributes = jsonb_set(jsonb_set(attributes, "
                        "%s, %s), '{_history}', coalesce(attributes->'_history', '{}') || "
                        "jsonb_build_object(%s::text, %s::jsonb)) WHERE id = %s",
                        ([key], Jsonb({**typed, "since": at.isoformat()}), key,
                         Jsonb(history), entity.id))
            entity_sql.mark_stale(cur, [entity.id])
            return entity_sql.get(cur, entity.id)

    @retry.retry_transient
    def merge(self, survivor: str, merged: str, reason: str) -> MergeResult:
        """Accept that two entities are one: ``merged`` becomes a redirect to ``survivor``
        (reads follow it and say so). Reversible with ``unmerge``; nothing is moved."""
        survivor, merged = self._entity_ref("survivor", survivor), \
            self._entity_ref("merged", merged)
        reason = _reason(reason)
        at = _now()
        with self._tx() as cur:  # type: ignore[attr-defined]
            a, b = entity_sql.get(cur, survivor), entity_sql.get(cur, merged)
            entity_sql.merge(cur, a.id, b.id, reason, at)
            return MergeResult(entity_sql.get(cur, a.id), _plain(cur, b.id), "merged", reason,
                               at)

    @retry.retry_transient
    def unmerge(self, merged: str, reason: str) -> MergeResult:
        """Undo a merge: the merged entity stands alone again, as it was."""
        merged, reason = self._entity_ref("merged", merged), _reason(reason)
        at = _now()
        with self._tx() as cur:  # type: ignore[attr-defined]
            ids = entity_sql.find(cur, merged)
            if len(ids) != 1:
                raise InvalidInput(f"{merged!r} names {len(ids)} entities; pass the merged "
                                   "entity's id (entities(include_merged=True))")
            survivor = entity_sql.unmerge(cur, ids[0], reason, at)
            return MergeResult(entity_sql.get(cur, survivor), entity_sql.get(cur, ids[0]),
                               "unmerged", reason, at)

    def merge_proposals(self, status: str | None = "pending") -> list[MergeProposal]:
        """Pairs the store suspects are one entity; a person decides (merge, or leave)."""
        check_choice("status", status, ("pending", "accepted", "rejected"), required=False)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return entity_sql.proposals(cur, status)

    def relations(self, ref: str, *, include_unsupported: bool = False) -> list[Relation]:
        """The relations an entity takes part in (either end), with confidence and claims;
        relations whose every claim stopped counting only when asked for."""
        check_flag("include_unsupported", include_unsupported)
        entity = self.entity(ref)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return entity_sql.relations_touching(cur, [entity.id],
                                                 include_unsupported=include_unsupported)

    def neighbours(self, ref: str, *, depth: int = 1,
                   predicates: list[str] | tuple[str, ...] | None = None) -> NeighbourList:
        """Entities reached from an anchor over relations (either direction), ``depth``
        hops at most, weighted by the product of the relations' confidences (strongest
        first); ``predicates`` keeps only those relations."""
        check_count("depth", depth, 1, 6)
        wanted = None
        if predicates is not None:
            if not isinstance(predicates, list | tuple) or \
                    not all(isinstance(p, str) for p in predicates):
                raise InvalidInput("predicates must be a list of predicate names")
            unknown = sorted(set(predicates) - set(PREDICATES))
            if unknown:
                raise InvalidInput(f"unknown predicate(s) {unknown}; use {', '.join(PREDICATES)}")
            wanted = frozenset(predicates)
        anchor = self.entity(ref)
        with self._tx() as cur:  # type: ignore[attr-defined]
            reached = traverse(anchor.id, lambda ids: entity_sql.relations_touching(cur, ids),
                               depth, wanted)
            out = [Neighbour(entity_sql.get(cur, entity_id), hop, round(weight, 6), path)
                   for entity_id, (hop, weight, path) in reached.items()]
        return NeighbourList(sorted(out, key=lambda n: (-n.weight, n.depth, n.entity.id)))

    def mentions(self, ref: str, *, limit: int = 200) -> list[MentionRecord]:
        """The names claims used for an entity (and for entities merged into it), newest
        first, with the tier that resolved each and its audit."""
        check_count("limit", limit, 1, 100_000)
        entity = self.entity(ref)
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT id, name, role, entity_id::text AS e, tier, claim_id, "
                        "document_id, resolver, confidence, audit FROM mentions WHERE entity_id "
                        "= %s OR entity_id IN (SELECT id FROM entities WHERE merged_into = %s) "
                        "ORDER BY id DESC LIMIT %s", (entity.id, entity.id, limit))
            return [MentionRecord(r["id"], r["name"], r["role"], r["e"], r["tier"],
                                  r["claim_id"], r["document_id"], r["resolver"],
                                  r["confidence"], dict(r["audit"] or {}))
                    for r in cur.fetchall()]

    @retry.retry_transient
    def reject_merge(self, proposal_id: int, reason: str) -> MergeProposal:
        """Decide a merge proposal against: the two stay apart, and the pair is not
        proposed again."""
        check_count("proposal_id", proposal_id, 1, 2**63 - 1)
        reason = _reason(reason)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return entity_sql.reject(cur, proposal_id, reason, _now())

    def refresh_profiles(self, *, limit: int = 1000) -> ProfileRefresh:
        """Rebuild the profiles marked stale (evidence changed since they were built), at
        most ``limit``. A profile is a disposable projection of the entity's current
        supported facts and relations: one with none is cleared (no text, no vector), so a
        forgotten source's phrases leave it. A rebuilt profile that agrees with another
        entity's whose names fit and that nothing tells apart raises a merge proposal
        (deduplicated; never merged: automatic merging is off until calibrated)."""
        check_count("limit", limit, 1, 1_000_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT id::text AS id, profile_epoch FROM entities WHERE "
                        "profile_stale AND merged_into IS NULL ORDER BY id LIMIT %s", (limit,))
            epochs = {r["id"]: r["profile_epoch"] for r in cur.fetchall()}
            ids = list(epochs)
            texts = {i: _profile(cur, i) for i in ids}
        built = [i for i in ids if texts[i] is not None]
        vectors = self._embed([texts[i] for i in built]) if built else []  # type: ignore[attr-defined]
        by_id = {i: np.asarray(v, dtype=np.float32) for i, v in zip(built, vectors, strict=True)}
        at = _now()
        proposed = 0
        with self._tx() as cur:  # type: ignore[attr-defined]
            for entity_id in ids:
                vector = by_id.get(entity_id)
                # written only if no evidence changed while it was embedded; otherwise it
                # stays stale for the next refresh (debounced: many changes, one rebuild)
                cur.execute("UPDATE entities SET profile = %s, profile_vector = %s, "
                            "profile_built_at = %s, profile_stale = false WHERE id = %s AND "
                            "profile_epoch = %s",
                            (texts[entity_id], vector, at, entity_id, epochs[entity_id]))
            for entity_id in built:
                proposed += _propose_for(cur, entity_id,
                                         self.settings.entity_merge_propose,  # type: ignore[attr-defined]
                                         self.settings.entity_candidates, at)  # type: ignore[attr-defined]
        return ProfileRefresh(len(built), len(ids) - len(built), proposed)


def _propose_for(cur: Any, entity_id: str, threshold: float, limit: int, at: datetime) -> int:
    """Merge proposals for one freshly profiled entity: the entities its name's keys find
    whose profile is at least ``threshold`` similar and that nothing tells apart."""
    me = entity_sql.candidates(cur, [entity_id], None)[0]
    if me.profile_vector is None:
        return 0
    found, _ = entity_sql.snapshot(cur, me.canonical_name, None, limit)
    made = 0
    for other in found:
        if other.entity_id == entity_id or other.profile_vector is None or \
                name_score(me.canonical_name, [other.canonical_name, *other.aliases]).score <= 0:
            continue
        similarity = float(np.dot(me.profile_vector, other.profile_vector) /
                           (np.linalg.norm(me.profile_vector) *
                            np.linalg.norm(other.profile_vector) or 1.0))
        if similarity < threshold or entities_distinct(me, other) is not None:
            continue
        a, b = sorted((entity_id, other.entity_id))
        made += entity_sql.propose(
            cur, a, b, round(similarity, 4),
            f"names fit ({me.canonical_name} / {other.canonical_name}) and profiles agree "
            f"({similarity:.2f}); nothing tells them apart", at)
    return made


def _plain(cur: Any, entity_id: str) -> Entity:
    """An entity as it is, without following its redirect (a merge's other side)."""
    cur.execute(f"SELECT {entity_sql.ENTITY_SELECT} FROM entities e WHERE e.id = %s",
                (entity_id,))
    return entity_sql.entity_from_row(cur.fetchone())


def _profile(cur: Any, entity_id: str) -> str | None:
    """The profile text from current supported facts about the entity (and anything merged
    into it) and its supported relations."""
    entity = entity_sql.get(cur, entity_id)
    cur.execute("SELECT f.id FROM facts f WHERE (f.subject_entity = %s OR f.subject_entity IN "
                "(SELECT id FROM entities WHERE merged_into = %s)) AND f.verdict IN "
                "('active', 'contested') AND fact_support(f.id) > 0 ORDER BY f.id DESC LIMIT 8",
                (entity_id, entity_id))
    ids = [r["id"] for r in cur.fetchall()]
    facts = fetch_facts(cur, ids)
    relations = entity_sql.relations_touching(cur, [entity_id])
    return profile_text(entity.canonical_name, entity.entity_type,
                        (entity.canonical_name, *entity.aliases),
                        [facts[i].statement for i in ids],
                        [f"{r.subject_name} {r.predicate.replace('_', ' ')} {r.object_name}"
                         for r in relations])
