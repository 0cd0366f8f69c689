"""The write path up to the database: gate, extract, anchors, absorption, granularity,
polarity, topic hygiene.

Pure over its inputs (the extractor is passed in), so every stage is testable without
Postgres. What comes out is exactly what the store's SQL stage writes or refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from factstore.compiler.drafts import Compilation
from factstore.entities.drafts import MentionDraft, entity_fields
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.extractors.turns import split_turns
from factstore.kinds import KIND_COLUMNS, PER_KIND_COLUMNS, STATUS_DETAILS, Kind, parse_kind
from factstore.lifetimes import parse_lifetime
from factstore.redaction import redact
from factstore.results import DroppedFact
from factstore.settings import Settings
from factstore.statements import normalise_statement
from factstore.writepath.absorb import absorb_outcomes
from factstore.writepath.anchors import anchor_reason, locate
from factstore.writepath.gate import GateDecision, index_page_gate
from factstore.writepath.granularity import fold_fragments
from factstore.writepath.polarity import polarity_mismatch
from factstore.writepath.subjects import subject_key, subject_of
from factstore.writepath.topics import REDACTED_TOPIC, clean_topics


@dataclass(frozen=True)
class PreparedFact:
    """A fact that passed every pre-database stage."""

    statement: str
    statement_norm: str
    kind: Kind
    quote: str
    topics: tuple[str, ...]
    supersedes: bool
    fields: dict[str, object]
    meta: dict[str, object] = field(default_factory=dict)
    #: set by the polarity guard: the fact is written parked, never as an active claim
    parked_reason: str | None = None
    #: what the fact is about, folded (writepath/subjects.py); None: no subject found
    subject_key: str | None = None
    #: 'extractor' (its subject field), 'statement' (read off the statement) or 'none'
    subject_source: str = "none"
    #: predicate, object, asserter, negated (migration 014): any kind, when the extractor says
    roles: dict[str, object] = field(default_factory=dict)
    #: the names it mentions (its speaker and its subject among them, when they read as
    #: names) and the relations between them, for the entity layer (entities/drafts.py)
    mentions: tuple[MentionDraft, ...] = ()
    relations: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class PreparedCapture:
    gate: GateDecision
    facts: tuple[PreparedFact, ...]
    dropped: tuple[DroppedFact, ...]
    #: what the compiler read off the capture (None: not compiled)
    compilation: Compilation | None = None


def prepare_capture(text: str, context: ExtractionContext, extractor: Extractor,
                    settings: Settings) -> PreparedCapture:
    """Run the deterministic stages in the seed's order."""
    gate = index_page_gate(text, min_links=settings.index_page_min_links,
                           min_share=settings.index_page_link_share)
    if gate.is_index_page:
        return PreparedCapture(gate, (), ())
    extracted = extractor.extract(text, context)
    dropped: list[DroppedFact] = []
    anchored: list[ExtractedFact] = []
    for fact in extracted:
        reason = _refusal(fact, text)
        if reason is not None:
            dropped.append(DroppedFact(str(fact.statement), str(fact.kind), str(fact.quote),
                                       reason.split(":", 1)[0], reason))
        else:
            anchored.append(fact)
    absorbed = absorb_outcomes(anchored, text)
    if settings.granularity_fix:
        absorbed = fold_fragments(absorbed, text)
    # A chat's speakers are its asserters, never its topics.
    speakers = frozenset(t.speaker for t in split_turns(text) if t.speaker)
    prepared = [_prepare(fact, text, context, settings, speakers) for fact in absorbed]
    return PreparedCapture(gate, tuple(prepared), tuple(dropped))


def _refusal(fact: ExtractedFact, text: str) -> str | None:
    if not isinstance(fact.statement, str) or not fact.statement.strip():
        return "statement: the extracted fact has an empty statement"
    try:
        parse_kind(fact.kind)
    except InvalidInput as exc:
        return f"kind: {exc}"
    if not isinstance(fact.quote, str):
        return "anchor: the fact has no evidence quote"
    return anchor_reason(fact.quote, text)


def _verbatim(quote: str, source: str) -> str:
    """The source's own span for an anchored quote (a model may have re-escaped it)."""
    span = locate(quote.strip(), source)
    return source[span[0]:span[1]] if span else quote.strip()


def _prepare(fact: ExtractedFact, text: str, context: ExtractionContext,
             settings: Settings, speakers: frozenset[str] = frozenset()) -> PreparedFact:
    kind = parse_kind(fact.kind)
    meta: dict[str, object] = dict(fact.meta)
    fields, cleared = _kind_fields(fact, kind)
    if cleared:
        meta["cleared_fields"] = cleared
    hygiene = clean_topics(_without_secrets(fact.topics), captured_by=context.captured_by,
                           scribe_names=settings.scribe_names, speakers=speakers)
    if hygiene.dropped:
        # added to what the extractor itself dropped (e.g. a speaker's name), never replacing it
        meta["dropped_topics"] = [*meta.get("dropped_topics", []),  # type: ignore[list-item]
                                  *({"topic": t, "reason": r} for t, r in hygiene.dropped)]
    # The capture was redacted before extraction; what the extractor says is redacted too,
    # since a model (or a script) may echo or invent a secret-shaped string.
    statement = redact(" ".join(fact.statement.split()))[0]
    quote = _verbatim(fact.quote, text)
    # A statement whose negation polarity differs from its own quote's says the opposite of
    # its evidence (the "fact 74" shape): keep it, but parked, never as an active claim.
    # The extractor's parse, when it gives one, says whether the quote is negated.
    negated = fact.negated if isinstance(fact.negated, bool) else None
    parked = (polarity_mismatch(statement, quote, quote_negated=negated)
              if settings.polarity_guard else None)
    key, source = fact_subject(fact.subject, statement)
    roles, bad_roles = role_fields(fact)
    if bad_roles:
        meta["cleared_fields"] = [*meta.get("cleared_fields", []), *bad_roles]  # type: ignore[list-item]
    speaker = roles.get("asserter")
    mentions, relations, bad_names = entity_fields(
        getattr(fact, "mentions", ()), getattr(fact, "relations", ()), quote=quote,
        speaker=speaker if isinstance(speaker, str) else None,
        subject=fact.subject if isinstance(fact.subject, str) else None)
    if bad_names:
        meta["cleared_fields"] = [*meta.get("cleared_fields", []), *bad_names]  # type: ignore[list-item]
    return PreparedFact(statement, normalise_statement(statement), kind, quote, hygiene.kept,
                        bool(fact.supersedes), fields, meta, parked, key, source, roles,
                        mentions, relations)


#: Longest value each role column takes (sql/014_fact_roles.sql).
ROLE_LIMITS = {"predicate": 400, "object": 2000, "asserter": 200}


def role_fields(fact: ExtractedFact) -> tuple[dict[str, object], list[dict]]:
    """The role columns an extractor filled, cleaned; anything unusable is cleared and
    recorded (never written half-right)."""
    roles: dict[str, object] = {}
    cleared: list[dict] = []
    for name, limit in ROLE_LIMITS.items():
        value = getattr(fact, name, None)
        if value is None:
            continue
        if not isinstance(value, str):
            cleared.append({"field": name, "value": repr(value)[:200],
                            "reason": f"{name} must be a string"})
            continue
        text = redact(" ".join(value.split()))[0]
        if not text:
            continue
        if len(text) > limit:
            cleared.append({"field": name, "value": text[:200] + "…",
                            "reason": f"{name} is longer than {limit} characters"})
            continue
        roles[name] = text
    negated = getattr(fact, "negated", None)
    if isinstance(negated, bool):
        roles["negated"] = negated
    elif negated is not None:
        cleared.append({"field": "negated", "value": repr(negated)[:200],
                        "reason": "negated must be true, false or null"})
    return roles, cleared


def fact_subject(named: object, statement: str) -> tuple[str | None, str]:
    """The subject key and where it came from: the extractor's subject (any kind may name
    one, though only STATE stores it as a column), else the statement's own subject."""
    key = subject_key(named) if isinstance(named, str) else None
    if key is not None:
        return key, "extractor"
    key = subject_key(subject_of(statement))
    return (key, "statement") if key is not None else (None, "none")


def _without_secrets(topics: tuple[str, ...]) -> list[str]:
    """Topics with a secret-shaped one replaced by a redaction marker, which topic hygiene
    then drops and records (never a candidate root, never a tag)."""
    out = []
    for topic in topics:
        cleaned, kinds = redact(str(topic))
        out.append(f"{REDACTED_TOPIC}{','.join(kinds)}" if kinds else cleaned)
    return out


def _kind_fields(fact: ExtractedFact, kind: Kind) -> tuple[dict[str, object], list[dict]]:
    """Keep the per-kind fields this kind owns; clear (and record) any others."""
    owned = KIND_COLUMNS[kind]
    fields: dict[str, object] = {}
    cleared: list[dict] = []
    for name in PER_KIND_COLUMNS:
        value = getattr(fact, name)
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        if name not in owned:
            if name == "subject":
                continue  # any kind may name its subject: it is kept as the subject key
            cleared.append({"field": name, "value": value,
                            "reason": f"{kind.value} does not own {name}"})
            continue
        if name == "expected_lifetime":
            try:
                value = parse_lifetime(value)  # type: ignore[arg-type]
            except InvalidInput as exc:
                cleared.append({"field": name, "value": value, "reason": str(exc)})
                continue
        elif name == "status_detail" and str(value).strip() not in STATUS_DETAILS:
            cleared.append({"field": name, "value": value,
                            "reason": f"status_detail must be one of {STATUS_DETAILS}"})
            continue
        fields[name] = redact(value.strip())[0] if isinstance(value, str) else value
    return fields, cleared


