"""A compiler that asks a model served by Ollama (``--compiler ollama[:model]``).

Seed 002 §9, "Reconciliation at write time": before the call the store reads the current
facts of the capture's subjects (the newest 60) and the model sees them as EXISTING FACTS,
by id; it reuses an existing attribute when the same property changes, and ends a fact it
no longer holds with ``"ended": [{"id", "valid_to"}]``. An id it was not shown is refused.

As the extractor does, a chat is asked one turn at a time (the model is told who speaks, so
"me" is that speaker), and the call is apart from the parse: ``raw_call`` returns the
model's answer for a cassette to record, ``parse_compilation`` is pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any

from factstore.compiler.drafts import Compilation, Draft, Ended, Refusal
from factstore.compiler.subjects import SubjectRef
from factstore.compiler.values import attribute_key, clean_value
from factstore.compiler.when import StatedTime
from factstore.embedders.ollama import resolve_host
from factstore.errors import ExtractorError, InvalidInput
from factstore.extractors.turns import Turn, split_turns
from factstore.ollama_errors import ollama_errors
from factstore.writepath.anchors import locate

__all__ = ["COMPILE_SCHEMA", "OllamaCompiler", "parse_compilation", "render_prompt"]

PROMPT_RESOURCE = "prompts/compile.txt"
#: One pass, so a message that itself says "{said_at}" is never filled in.
_PLACEHOLDER = re.compile(r"\{(text|said_at|existing|speaker)\}")
_NAMESPACES = ("person", "system", "project", "customer")
_DATE = r"^\d{4}(-\d{2}(-\d{2})?)?$"

#: The JSON schema sent as ``format`` (the parser still checks every field).
COMPILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "subject": {"type": "string"},
                "subject_type": {"enum": list(_NAMESPACES)},
                "attribute": {"type": "string"},
                "value": {"type": "string"},
                "unit": {"type": ["string", "null"]},
                "valid_from": {"type": ["string", "null"], "pattern": _DATE},
                "valid_to": {"type": ["string", "null"], "pattern": _DATE},
                "quote": {"type": "string"},
                "cardinality": {"enum": ["one", "many"]},
            },
            "required": ["subject", "attribute", "value", "quote"]}},
        "ended": {"type": "array", "items": {
            "type": "object",
            "properties": {"id": {"type": "integer"},
                           "valid_to": {"type": "string", "pattern": _DATE}},
            "required": ["id", "valid_to"]}},
    },
    "required": ["facts"],
}


@lru_cache(maxsize=1)
def load_prompt_template() -> str:
    """The compile prompt shipped with the package (prompts/compile.txt)."""
    return resources.files("factstore.compiler").joinpath(PROMPT_RESOURCE).read_text("utf-8")


def _existing_lines(existing: Sequence[Any]) -> str:
    lines = [f"{e.id}: {e.attribute}({e.subject}) = {e.value}"
             + (f" {e.unit}" if getattr(e, "unit", None) else "") for e in existing]
    return "\n".join(lines) or "(none)"


def render_prompt(text: str, said: datetime, existing: Sequence[Any],
                  speaker: str | None) -> str:
    """The prompt for one message (a turn, or prose), filled in one pass."""
    values = {
        "text": text, "said_at": said.date().isoformat(),
        "existing": _existing_lines(existing),
        "speaker": (f'The speaker is {speaker}: "me" is {speaker}, "we" is {speaker}\'s '
                    "group.\n" if speaker else ""),
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], load_prompt_template())


def _subject(item: dict[str, Any], speaker: str | None) -> SubjectRef | None:
    subject = item.get("subject")
    if not isinstance(subject, str) or not subject.strip():
        return None
    low = subject.strip().lower()
    if low in ("me", "i", "my"):
        return SubjectRef("speaker", speaker)
    if low in ("we", "us", "our"):
        return SubjectRef("group", speaker)
    namespace = item.get("subject_type")
    if namespace not in _NAMESPACES:
        namespace = "person"
    return SubjectRef("named", " ".join(subject.split()), namespace)


def _date(value: object) -> str | None:
    return value if isinstance(value, str) and re.fullmatch(_DATE, value) else None


def parse_compilation(raw: str, turn: Turn, text: str, compiler: str,
                      shown: Sequence[int]) -> Compilation:
    """The model's answer for one turn as drafts, ends and refusals (pure)."""
    try:
        answer = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ExtractorError(f"{compiler} answered with something that is not JSON "
                             f"({exc.msg}): {raw[:200]!r}") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("facts", []), list):
        raise ExtractorError(f"{compiler} answered without a facts list: {raw[:200]!r}")
    drafts: list[Draft] = []
    refusals: list[Refusal] = []
    for item in answer.get("facts", []):
        if not isinstance(item, dict):
            refusals.append(Refusal(str(item)[:200], "not a fact object"))
            continue
        quote = item.get("quote") if isinstance(item.get("quote"), str) else ""
        span = locate(quote.strip(), turn.text) if quote.strip() else None
        if span is None:
            refusals.append(Refusal(quote[:200] or str(item)[:200],
                                    "the quote is not in the message"))
            continue
        start, end = turn.start + span[0], turn.start + span[1]
        subject = _subject(item, turn.speaker)
        value = item.get("value")
        attribute = attribute_key(str(item.get("attribute") or ""))
        if subject is None or not isinstance(value, str | int | float) or attribute is None:
            refusals.append(Refusal(text[start:end], "no subject, attribute or value"))
            continue
        valid_from, valid_to = _date(item.get("valid_from")), _date(item.get("valid_to"))
        time = StatedTime("since", valid_from, "model") if valid_from else None
        unit = item.get("unit") if isinstance(item.get("unit"), str) else None
        drafts.append(Draft(subject, attribute, clean_value(str(value)), unit or None,
                            text[start:end], (start, end), time=time, until=valid_to,
                            alias=str(item.get("attribute"))))
    ended = []
    for entry in answer.get("ended") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int) or \
                not _date(entry.get("valid_to")):
            refusals.append(Refusal(str(entry)[:200], "an end needs an id and a valid_to"))
            continue
        if entry["id"] not in shown:
            refusals.append(Refusal(str(entry)[:200], f"fact #{entry['id']} was not among "
                                                      "the existing facts shown"))
            continue
        ended.append(Ended(entry["id"], entry["valid_to"], turn.text[:2000]))
    return Compilation(compiler, tuple(drafts), tuple(refusals), tuple(ended),
                       tuple(shown))


class OllamaCompiler:
    """Ask an Ollama model to compile each turn (see the module docstring)."""

    #: the store reads the capture's subjects' current facts before calling compile
    wants_existing = True

    def __init__(self, model: str = "llama3.1:8b", host: str | None = None,
                 timeout: float = 120, options: dict[str, Any] | None = None) -> None:
        if not isinstance(model, str) or not model.strip():
            raise InvalidInput(f"model must be a non-empty Ollama model name, got {model!r}")
        import ollama

        self.model = model.strip()
        self.name = f"compiler/ollama:{self.model}"
        self.host = resolve_host(host)
        self.timeout = timeout
        self.options: dict[str, Any] = {"temperature": 0, "seed": 0, **(options or {})}
        self._client = ollama.Client(host=self.host, timeout=timeout)

    def prompts(self, text: str, said: datetime, existing: Sequence[Any] = ()
                ) -> list[tuple[Turn, str]]:
        """Each turn with the exact prompt sent for it."""
        return [(turn, render_prompt(turn.text, said, existing, turn.speaker))
                for turn in split_turns(text) if turn.text.strip()]

    def raw_call(self, prompt: str) -> str:
        """One model call; its raw answer."""
        with ollama_errors(ExtractorError, host=self.host, model=self.model,
                           timeout=self.timeout, doing="chat", answer="a chat response",
                           timeout_advice="raise timeout=..., or use a smaller model"):
            response = self._client.chat(model=self.model,
                                         messages=[{"role": "user", "content": prompt}],
                                         format=COMPILE_SCHEMA, options=self.options,
                                         stream=False)
        return response.message.content or ""

    def compile(self, text: str, said: datetime, existing: Sequence[Any] = ()
                ) -> Compilation:
        """Every turn compiled by the model, merged into one Compilation."""
        return compile_turns(self, text, said, existing)


def compile_turns(compiler: Any, text: str, said: datetime, existing: Sequence[Any]
                  ) -> Compilation:
    """Ask ``compiler.raw_call`` about each turn and merge the parsed answers."""
    shown = tuple(e.id for e in existing)
    drafts: list[Draft] = []
    refusals: list[Refusal] = []
    ended: list[Ended] = []
    for turn, prompt in compiler.prompts(text, said, existing):
        part = parse_compilation(compiler.raw_call(prompt), turn, text, compiler.name, shown)
        drafts += part.drafts
        refusals += part.refusals
        ended += part.ended
    return Compilation(compiler.name, tuple(drafts), tuple(refusals), tuple(ended), shown)
