"""The write path's entity stage: every name a capture's claims mention is resolved (tiers
T0-T4, factstore/entities/resolution.py) to an entity of the registry, recorded as a
mention with its audit; a fact's subject mention becomes its ``subject_entity``; relations
between two mentions become relations with the claim as evidence; the entities touched get
their profiles marked for a rebuild.

Runs inside the capture's transaction, after its facts and claims are written. Each
distinct written name is resolved once per capture, the fullest names first; later repeats
replay that binding (T0). Names are locked (advisory, per folded name) first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from factstore.entities.drafts import MentionDraft
from factstore.entities.names import tokens
from factstore.entities.resolution import (
    BINDING_GENERATION,
    ONE_VALUED,
    UNTYPED,
    Mention,
    Resolution,
    Resolver,
    resolve,
)
from factstore.results import FactOutcome
from factstore.settings import Settings
from factstore.store import entities as entity_sql
from factstore.writepath.prepare import PreparedFact
from factstore.writepath.subjects import subject_key


def resolve_capture(cur: Any, document_id: int,
                    written: Sequence[tuple[PreparedFact, FactOutcome, int | None, np.ndarray]],
                    resolver: Resolver, settings: Settings, at: datetime) -> None:
    """Resolve every mention of the capture's facts; see the module doc. ``written`` is each
    prepared fact with its outcome, its claim's id and its statement vector."""
    todo = [(f, o, c, v) for f, o, c, v in written if f.mentions]
    if not todo:
        return
    claims = [c for _, _, c, _ in todo if c is not None]
    if claims:
        cur.execute("SELECT DISTINCT claim_id FROM mentions WHERE claim_id = ANY(%s)", (claims,))
        done = {r["claim_id"] for r in cur.fetchall()}
        todo = [t for t in todo if t[2] is None or t[2] not in done]  # a re-run: resolved
    if not todo:
        return
    entity_sql.lock_names(cur, [m.name for f, *_ in todo for m in f.mentions])
    # Each written name once, the fullest names first ("Christina Lindqvist" before a
    # later-resolved bare "Chris" of the same email can lean on it), in order of appearance
    first: dict[str, tuple[MentionDraft, PreparedFact, np.ndarray]] = {}
    for fact, _, _, vector in todo:
        for mention in fact.mentions:
            first.setdefault(mention.name, (mention, fact, vector))
    resolved: dict[str, tuple[str, Resolution]] = {}
    for name, (mention, fact, vector) in sorted(first.items(),
                                                key=lambda kv: -len(tokens(kv[0]))):
        resolved[name] = _resolve_one(cur, document_id, mention, fact, vector, resolver,
                                      settings, at)
    recorded: set[str] = set()
    touched: set[str] = set()
    for fact, outcome, claim_id, _vector in todo:
        for mention in fact.mentions:
            if mention.name not in recorded:
                recorded.add(mention.name)
                entity_id, resolution = resolved[mention.name]
            else:  # an exact repeat in this document replays the binding just made (T0)
                entity_id, first_resolution = resolved[mention.name]
                resolution = Resolution(entity_id, "T0", "this exact name was bound to it "
                                        f"earlier in the document ({BINDING_GENERATION})",
                                        None, {"replayed": first_resolution.tier})
            touched.add(entity_id)
            entity_sql.record_mention(
                cur, claim_id=claim_id, document_id=document_id, fact_id=outcome.fact.id,
                name=mention.name, role=mention.role, entity_type=mention.entity_type,
                entity_id=entity_id, tier=resolution.tier,
                resolver=resolution.audit.get("resolver"), confidence=resolution.confidence,
                audit={"reason": resolution.reason, **resolution.audit}, at=at)
            if mention.role == "subject" or (mention.role == "speaker" and
                                             _speaker_is_subject(fact, mention)):
                cur.execute("UPDATE facts SET subject_entity = %s WHERE id = %s AND "
                            "subject_entity IS NULL", (entity_id, outcome.fact.id))
        for subject, predicate, obj in fact.relations:
            s = resolved[subject][0]
            o = resolved[obj][0]
            if claim_id is not None and s != o:
                entity_sql.add_relation(cur, s, predicate, o, claim_id, at)
    entity_sql.mark_stale(cur, touched)


def _speaker_is_subject(fact: PreparedFact, speaker: MentionDraft) -> bool:
    """"I moved to Denver" (written "Alice moved to Denver"): the speaker is what the fact
    is about when its subject key is the speaker's."""
    return not any(m.role == "subject" for m in fact.mentions) and \
        fact.subject_key is not None and fact.subject_key == subject_key(speaker.name)


def _resolve_one(cur: Any, document_id: int, mention: MentionDraft, fact: PreparedFact,
                 vector: np.ndarray, resolver: Resolver, settings: Settings,
                 at: datetime) -> tuple[str, Resolution]:
    anchors = {p: o for s, p, o in fact.relations if s == mention.name and p in ONE_VALUED}
    candidates, truncated = entity_sql.snapshot(cur, mention.name, document_id,
                                                settings.entity_candidates)
    resolution = resolve(
        Mention(mention.name, mention.entity_type, fact.statement, vector, anchors),
        candidates, resolver, binding=entity_sql.binding(cur, document_id, mention.name),
        truncated=truncated, t3_accept=settings.entity_t3_accept)
    if resolution.entity_id is None:
        entity_id = entity_sql.create(cur, mention.name, mention.entity_type or UNTYPED, at,
                                      source="mention")
    else:
        entity_id = resolution.entity_id
        entity_sql.add_name(cur, entity_id, mention.name, "mention", at)
        if mention.entity_type:
            cur.execute("UPDATE entities SET entity_type = %s WHERE id = %s AND entity_type = %s",
                        (mention.entity_type, entity_id, UNTYPED))
    if resolution.tier in ("T3", "T4", "none"):
        entity_sql.bind(cur, document_id, mention.name, entity_id)
    return entity_id, resolution
