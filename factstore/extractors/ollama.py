"""An extractor that asks a local LLM served by Ollama for typed facts, as schema-constrained JSON.

The call and the parse are separate on purpose: ``raw_call`` returns the model's raw answer
(a replay/cassette layer can record and substitute it), and ``parse_extraction`` is a pure
function from that answer to facts, so it can be tested and replayed without a server.

A chat is asked about one turn at a time (:func:`factstore.extractors.turns.split_turns`): the
model sees only that turn's text and is told who its speaker is, so a fact never spans two
turns, its quote is a span of its own turn, and its ``asserter`` is that turn's speaker. Prose
is one speakerless turn: one call, the whole text, no speaker.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

from factstore.embedders.ollama import resolve_host
from factstore.entities.model import ENTITY_TYPES, PREDICATES, entity_type
from factstore.errors import ExtractorError, InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext
from factstore.extractors.turns import Turn, split_turns
from factstore.kinds import KIND_COLUMNS, PER_KIND_COLUMNS, STATUS_DETAILS, Kind
from factstore.ollama_errors import ollama_errors
from factstore.writepath.anchors import anchor_reason

PROMPT_RESOURCE = "prompts/extract.txt"

_NULLABLE_STRING: dict[str, Any] = {"type": ["string", "null"]}

#: Asked on every fact, whatever its kind (``subject`` is also STATE's own column, so it is
#: already among the per-kind columns of the schema).
ROLE_FIELDS = ("subject", "predicate", "object", "negated")

#: Why a topic naming one of the chat's speakers is dropped (recorded in meta["dropped_topics"]).
SPEAKER_TOPIC_REASON = "speaker name"

#: Joins a chat's per-turn prompts in ``prompt_for`` (the ASCII record separator).
TURN_SEPARATOR = "\n\x1e\n"

#: The JSON schema sent to Ollama as ``format``: constrained decoding makes the model answer
#: in exactly this shape (the parser still checks, since not every server enforces it).
EXTRACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "statement": {"type": "string"},
                    "kind": {"type": "string", "enum": [k.value for k in Kind]},
                    "quote": {"type": "string"},
                    "topics": {"type": "array", "items": {"type": "string"}},
                    **{column: dict(_NULLABLE_STRING) for column in PER_KIND_COLUMNS},
                    "predicate": dict(_NULLABLE_STRING),
                    "object": dict(_NULLABLE_STRING),
                    "negated": {"type": ["boolean", "null"]},
                    "supersedes": {"type": "boolean"},
                    # Optional, so an answer without them is still valid; the prompt's worked
                    # example asks for them. Types and predicates are enums so constrained
                    # decoding cannot invent one (the parser still checks: not every server
                    # enforces the schema).
                    "mentions": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"name": {"type": "string"},
                                       "type": {"enum": [*ENTITY_TYPES, None]}},
                        "required": ["name", "type"]}},
                    "relations": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"subject": {"type": "string"},
                                       "predicate": {"type": "string",
                                                     "enum": list(PREDICATES)},
                                       "object": {"type": "string"}},
                        "required": ["subject", "predicate", "object"]}},
                },
                # The role fields are required so constrained decoding always answers them
                # (null is an answer); the parser still accepts an item without them.
                "required": ["statement", "kind", "quote", *ROLE_FIELDS],
            },
        }
    },
    "required": ["facts"],
}

_PLACEHOLDER = re.compile(r"\{(text|said_at|source_type|speaker|predicates)\}")
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n(.*)\n\s*```\s*$", re.DOTALL)
_TRUE = {"true", "yes", "1"}


@lru_cache(maxsize=1)
def load_prompt_template() -> str:
    """The extraction prompt template shipped with the package (prompts/extract.txt)."""
    return resources.files("factstore.extractors").joinpath(PROMPT_RESOURCE).read_text("utf-8")


def speaker_line(speaker: str | None) -> str:
    """The prompt's speaker line for a chat turn ("" for prose, which has no speaker)."""
    if not speaker:
        return ""
    return (f'The speaker is {speaker}. Write statements in the third person: "I" is '
            f"{speaker}.\n")


def render_prompt(template: str, text: str, context: ExtractionContext,
                  speaker: str | None = None) -> str:
    """Fill {text}, {said_at}, {source_type}, {speaker} and {predicates} in one pass.

    One regex pass (not str.format) because the template holds literal JSON braces, and so a
    capture that itself contains "{said_at}" is never substituted into.
    """
    values = {
        "text": text,
        "said_at": context.said_at.isoformat() if context.said_at else "unknown",
        "source_type": context.source_type or "unknown",
        "speaker": speaker_line(speaker),
        # the relation vocabulary, from its one definition (the schema's enum is the same)
        "predicates": ", ".join(PREDICATES),
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def _preview(content: object) -> str:
    return repr(str(content)[:200])


def _clean_string(value: object) -> str | None:
    """A stripped non-empty string, a number rendered as text, or None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return None


def _clean_topics(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return ()
    seen: dict[str, None] = {}
    for topic in value:
        if isinstance(topic, str) and topic.strip():
            seen.setdefault(topic.strip(), None)
    return tuple(seen)


def _clean_role(item: dict[str, Any], name: str, dropped: list[str]) -> str | None:
    """A role field (predicate, object) as a clean string, or None; unusable values are
    recorded in ``dropped``."""
    raw = item.get(name)
    value = _clean_string(raw)
    if value is None and raw is not None and not (isinstance(raw, str) and not raw.strip()):
        dropped.append(name)
    return value


def _clean_negated(item: dict[str, Any], dropped: list[str]) -> bool | None:
    """True/False as the model said it; null or missing is "not said"; anything else is
    cleared (to None) and recorded, never guessed from a string."""
    raw = item.get("negated")
    if raw is None or isinstance(raw, bool):
        return raw
    dropped.append("negated")
    return None


_TYPES_FOLDED = {t.casefold(): t for t in ENTITY_TYPES}


def _clean_name(value: object) -> str | None:
    """A name with its inner whitespace collapsed (so it still matches the quote the way
    the write path's check reads it), or None."""
    if not isinstance(value, str):
        return None
    return " ".join(value.split()) or None


def _clean_type(value: object) -> str | None | bool:
    """An entity type ("person" is read as "Person"); None when not said; False when said
    but unusable (the caller records it and keeps the name untyped)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        return False
    value = value.strip()
    return _TYPES_FOLDED.get(value.casefold()) or entity_type(value) or False


def _clean_mentions(item: dict[str, Any], dropped: list[str]) -> tuple[tuple[str, str | None],
                                                                        ...]:
    """The item's mentions as (name, type) pairs. An unusable entry is dropped and recorded
    as "mentions[i]"; an unusable type is cleared (the name is kept) and recorded as
    "mentions[i].type". Whether a name is verbatim in the quote is the write path's check
    (factstore.entities.drafts.entity_fields), made once for every extractor."""
    raw = item.get("mentions")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        dropped.append("mentions")
        return ()
    out: dict[tuple[str, str | None], None] = {}
    for index, entry in enumerate(raw):
        if isinstance(entry, str):  # a bare name: lenient, it is still a name
            name, kind = _clean_name(entry), None
        elif isinstance(entry, dict):
            name, kind = _clean_name(entry.get("name")), _clean_type(entry.get("type"))
        else:
            name, kind = None, None
        if name is None:
            dropped.append(f"mentions[{index}]")
            continue
        if kind is False:
            dropped.append(f"mentions[{index}].type")
            kind = None
        out.setdefault((name, kind), None)
    return tuple(out)


def _clean_relations(item: dict[str, Any], dropped: list[str]) -> tuple[tuple[str, str, str],
                                                                         ...]:
    """The item's relations as (subject, predicate, object). The predicate is read loosely
    ("Works at" is works_at) but must be one of PREDICATES; an entry that is not a usable
    triple is dropped and recorded as "relations[i]". That both ends are the fact's
    mentions (or its speaker) is the write path's check."""
    raw = item.get("relations")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        dropped.append("relations")
        return ()
    out: dict[tuple[str, str, str], None] = {}
    for index, entry in enumerate(raw):
        if isinstance(entry, dict):
            entry = [entry.get("subject"), entry.get("predicate"), entry.get("object")]
        triple = None
        if isinstance(entry, list) and len(entry) == 3:
            subject, obj = _clean_name(entry[0]), _clean_name(entry[2])
            predicate = _clean_name(entry[1])
            predicate = predicate.lower().replace(" ", "_").replace("-", "_") \
                if predicate else None
            if subject and obj and predicate in PREDICATES:
                triple = (subject, predicate, obj)
        if triple is None:
            dropped.append(f"relations[{index}]")
            continue
        out.setdefault(triple, None)
    return tuple(out)


def _clean_bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE:
        return True
    return False


def _parse_item(item: dict[str, Any]) -> ExtractedFact | str:
    """An ExtractedFact, or the reason this item is rejected."""
    for required in ("statement", "kind", "quote"):
        value = item.get(required)
        if not isinstance(value, str) or not value.strip():
            return f"missing or empty required field {required!r}"
    kind_name = item["kind"].strip().upper()
    if kind_name not in Kind.__members__:
        return f"unknown kind {item['kind']!r}; expected one of {', '.join(k.value for k in Kind)}"
    kind = Kind[kind_name]

    owned = KIND_COLUMNS[kind]
    columns: dict[str, str | None] = {}
    # Per-kind columns a kind does not own are dropped, not fatal: a model that fills scope on
    # a RULE has still found a real rule. The drop is recorded so an audit can see it.
    dropped: list[str] = []
    for column in PER_KIND_COLUMNS:
        raw = item.get(column)
        value = _clean_string(raw)
        if value is None:
            # null / blank is "not stated"; anything else (a list, an object) is unusable.
            if raw is not None and not (isinstance(raw, str) and not raw.strip()):
                dropped.append(column)
            continue
        # Any kind may name its subject: only STATE stores it as a column, but the write
        # path reads ExtractedFact.subject as every fact's subject key, so it is kept.
        if column not in owned and column != "subject":
            dropped.append(column)
            continue
        if column == "status_detail":
            value = value.lower()
            if value not in STATUS_DETAILS:
                dropped.append(column)
                continue
        columns[column] = value
    predicate = _clean_role(item, "predicate", dropped)
    obj = _clean_role(item, "object", dropped)
    negated = _clean_negated(item, dropped)
    mentions = _clean_mentions(item, dropped)
    relations = _clean_relations(item, dropped)

    meta: dict[str, object] = {}
    if dropped:
        meta["dropped_fields"] = dropped
    # Only outer whitespace is trimmed from the quote: a trimmed verbatim span is still verbatim,
    # and anchor hygiene checks it against the source later.
    return ExtractedFact(
        statement=item["statement"].strip(),
        kind=kind.value,
        quote=item["quote"].strip(),
        topics=_clean_topics(item.get("topics")),
        supersedes=_clean_bool(item.get("supersedes", False)),
        meta=meta,
        predicate=predicate,
        object=obj,
        negated=negated,
        mentions=mentions,
        relations=relations,
        **columns,
    )


def parse_extraction(content: str) -> tuple[list[ExtractedFact], list[tuple[dict, str]]]:
    """Parse a model answer into (facts, rejected items with reasons).

    Raises ExtractorError when the answer as a whole is unusable (not JSON, or not an object
    with a "facts" list); a bad individual item is skipped and reported, not fatal.
    """
    if not isinstance(content, str):
        raise ExtractorError(
            f"extractor answer must be a string, got {type(content).__name__}: {_preview(content)}"
        )
    body = content.strip()
    # Schema-constrained output is bare JSON, but a server that ignores `format` may fence it.
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ExtractorError(
            f"the model's answer is not JSON ({exc.msg} at char {exc.pos}); "
            f"it began: {_preview(content)}"
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("facts"), list):
        raise ExtractorError(
            'the model\'s answer is JSON but not an object with a "facts" list; '
            f"it began: {_preview(content)}"
        )

    facts: list[ExtractedFact] = []
    rejected: list[tuple[dict, str]] = []
    for index, item in enumerate(data["facts"]):
        if not isinstance(item, dict):
            rejected.append(
                ({"item": item}, f"facts[{index}] is {type(item).__name__}, not an object")
            )
            continue
        parsed = _parse_item(item)
        if isinstance(parsed, str):
            rejected.append((item, parsed))
        else:
            facts.append(parsed)
    return facts, rejected


class OllamaExtractor:
    """Extracts facts with a chat model on an Ollama server, decoding against EXTRACTION_SCHEMA.

    ``last_rejected`` holds the items the most recent ``extract`` call skipped, with reasons
    (it is per instance and overwritten on each call, so share an instance across threads
    only if you do not read it).
    """

    def __init__(
        self,
        model: str = "llama3.1:8b",
        host: str | None = None,
        timeout: float = 120,
        options: dict[str, Any] | None = None,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise InvalidInput(f"model must be a non-empty Ollama model name, got {model!r}")
        # Imported here so importing factstore.extractors does not pull in pydantic/httpx.
        import ollama

        self.model = model.strip()
        self.name = f"ollama/{self.model}"
        self.host = resolve_host(host)
        self.timeout = timeout
        # temperature 0 (and a fixed seed) so the same capture yields the same facts; callers
        # may still override either, e.g. for sampling experiments.
        self.options: dict[str, Any] = {"temperature": 0, "seed": 0, **(options or {})}
        self.last_rejected: list[tuple[dict, str]] = []
        self._client = ollama.Client(host=self.host, timeout=timeout)

    def __repr__(self) -> str:
        return f"OllamaExtractor(model={self.model!r}, host={self.host!r})"

    def turn_prompts(self, text: str, context: ExtractionContext) -> list[tuple[Turn, str]]:
        """Each turn the model is asked about, with the exact prompt sent for it."""
        template = load_prompt_template()
        return [(turn, render_prompt(template, turn.text, context, turn.speaker))
                for turn in _turns(text)]

    def prompt_for(self, text: str, context: ExtractionContext) -> str:
        """The exact prompt sent for this capture: prose sends one; a chat sends one per turn,
        and this is those prompts joined by TURN_SEPARATOR (so a cassette keyed on it changes
        when any turn's prompt does)."""
        prompts = [prompt for _, prompt in self.turn_prompts(text, context)]
        if not prompts:  # blank text: no call is made, but the key still needs a prompt
            return render_prompt(load_prompt_template(), text, context)
        return TURN_SEPARATOR.join(prompts)

    def raw_call(self, text: str, context: ExtractionContext, speaker: str | None = None) -> str:
        """Ask the model about one text (prose, or a turn said by ``speaker``) and return its
        raw answer (message content), unparsed."""
        with ollama_errors(ExtractorError, host=self.host, model=self.model,
                           timeout=self.timeout, doing="chat", answer="a chat response",
                           timeout_advice="raise timeout=..., use a smaller model, or shorten "
                                          "the capture"):
            response = self._client.chat(
                model=self.model,
                messages=[{"role": "user", "content": render_prompt(
                    load_prompt_template(), text, context, speaker)}],
                format=EXTRACTION_SCHEMA,
                options=self.options,
                stream=False,
            )
        content = response.message.content
        return content if content is not None else ""

    def extract(self, text: str, context: ExtractionContext | None = None) -> list[ExtractedFact]:
        """Return the facts the model finds; skipped items are left in ``last_rejected``."""
        if not isinstance(text, str):
            raise InvalidInput(f"extract() text must be a string, got {type(text).__name__}")
        context = context if context is not None else ExtractionContext()
        self.last_rejected = []
        turns = _turns(text)
        if not turns:
            # Nothing to assert; do not spend a model call on it.
            return []
        chat = len(turns) > 1 or turns[0].speaker is not None
        speakers = [turn.speaker for turn in turns if turn.speaker]
        facts: list[ExtractedFact] = []
        rejected: list[tuple[dict, str]] = []
        for index, turn in enumerate(turns):
            label = _turn_label(index, turn)
            try:
                turn_facts, turn_rejected = parse_extraction(
                    self.raw_call(turn.text, context, speaker=turn.speaker))
            except ExtractorError as exc:
                if not chat:
                    raise
                raise ExtractorError(f"{label}: {exc}") from exc
            rejected.extend((item, f"{label}: {reason}") if chat else (item, reason)
                            for item, reason in turn_rejected)
            for fact in turn_facts:
                fitted = fit_to_turn(fact, turn, speakers, chat=chat)
                if isinstance(fitted, str):
                    rejected.append((dataclasses.asdict(fact), f"{label}: {fitted}"))
                else:
                    facts.append(fitted)
        self.last_rejected = rejected
        return facts


def _turns(text: str) -> list[Turn]:
    return [turn for turn in split_turns(text) if turn.text.strip()]


def _turn_label(index: int, turn: Turn) -> str:
    who = turn.speaker if turn.speaker else "no speaker"
    return f"turn {index + 1} ({who})"


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _prefix_pattern(speakers: Iterable[str]) -> re.Pattern[str] | None:
    """Matches a leading "alice:" (optionally "[10:02] alice:") for any of the speakers."""
    names = sorted({" ".join(s.split()) for s in speakers if s and s.strip()}, key=len,
                   reverse=True)
    if not names:
        return None
    alternatives = "|".join(r"\s+".join(map(re.escape, name.split())) for name in names)
    return re.compile(r"^\s*(?:\[[^\]\n]{1,40}\]\s*)?(?:" + alternatives + r")\s*:\s*",
                      re.IGNORECASE)


def _unprefixed(value: str, pattern: re.Pattern[str] | None) -> str:
    if pattern is None:
        return value
    return pattern.sub("", value, count=1).strip()


def fit_to_turn(fact: ExtractedFact, turn: Turn, speakers: Iterable[str], *,
                chat: bool = True) -> ExtractedFact | str:
    """The fact as its turn asserts it, or the reason it is rejected.

    The asserter is the turn's speaker; a leading speaker prefix ("alice: ...") is stripped
    from statement, quote, subject and topics; a topic naming any speaker is dropped and
    recorded in meta["dropped_topics"]. In a chat the quote must be a span of the turn's own
    text (prose is left to the write path's anchor check against the whole capture).
    """
    speakers = [s for s in speakers if s]
    pattern = _prefix_pattern(speakers)
    voices = {_fold(s) for s in speakers}
    statement = _unprefixed(fact.statement, pattern)
    if not statement:
        return "the statement is only a speaker prefix"
    quote = _unprefixed(fact.quote, pattern)
    if chat:
        reason = anchor_reason(quote, turn.text)
        if reason is not None:
            return reason.replace("the source text", "the turn's own text", 1)
    subject = fact.subject
    if isinstance(subject, str):
        subject = _unprefixed(subject, pattern) or None
    meta = dict(fact.meta)
    kept: dict[str, None] = {}
    earlier = meta.get("dropped_topics")
    dropped_topics: list[object] = list(earlier) if isinstance(earlier, list) else []
    for topic in fact.topics:
        cleaned = _unprefixed(topic, pattern)
        if not cleaned:
            continue
        if _fold(cleaned) in voices:
            dropped_topics.append({"topic": topic, "reason": SPEAKER_TOPIC_REASON})
            continue
        kept.setdefault(cleaned, None)
    if dropped_topics:
        meta["dropped_topics"] = dropped_topics
    if chat:
        meta["turn_span"] = [turn.start, turn.end]
    return dataclasses.replace(fact, statement=statement, quote=quote, subject=subject,
                               topics=tuple(kept), asserter=turn.speaker, meta=meta)
