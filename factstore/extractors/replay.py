"""Cassettes: record any extractor's output once, replay it exactly without the extractor.

A cassette is a JSON Lines file, one recording per line, each line's keys sorted so files
diff cleanly::

    {"facts": [...], "key": "<sha256>", "model": "ollama/llama3.1:8b",
     "recorded_at": "2025-01-01T12:00:00+00:00", "text": "..."}

``key`` is ``cassette_key(model, prompt, text)``. ``model`` is the recorded extractor's
``name``. ``prompt`` is the exact prompt the extractor sent when it has ``prompt_for`` (the
Ollama extractor does), else "" (the rule scribe has no prompt); ``facts`` are the
ExtractedFacts as dicts.

Keying on replay. A replayer cannot rebuild a model's prompt without that model's extractor,
so ``ReplayExtractor`` by default (``prompt=None``) matches on model and text only, which is
what a recording made with the defaults needs: defaults on both sides always agree. Pass
``prompt=`` (for instance ``OllamaExtractor(model).prompt_for``, which needs no server) to
match on the full key instead, so that recordings made under another prompt template are a
miss rather than a silently stale replay.

A re-recording that yields the same facts appends nothing, so re-running a recording against
a deterministic model leaves the file unchanged; a different answer is appended and the last
line for a key wins on replay.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from factstore.errors import ExtractorError, InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor

__all__ = ["PromptFn", "RecordingExtractor", "ReplayExtractor", "cassette_key", "read_cassette"]

#: (text, context) -> the prompt an extractor sends for that capture
PromptFn = Callable[[str, ExtractionContext], str]

_FACT_FIELDS = {f.name for f in dataclasses.fields(ExtractedFact)}


def cassette_key(model: str, prompt: str, text: str) -> str:
    """sha256 hex of the canonical JSON of model, prompt and text."""
    canonical = json.dumps({"model": model, "prompt": prompt, "text": text}, sort_keys=True,
                           ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _no_prompt(text: str, context: ExtractionContext) -> str:
    return ""


def _preview(text: str) -> str:
    return repr(text[:60] + ("…" if len(text) > 60 else ""))


def _fact_to_json(fact: ExtractedFact) -> dict[str, Any]:
    """A fact as the plain JSON value it is stored as (tuples become lists)."""
    try:
        return json.loads(json.dumps(dataclasses.asdict(fact), sort_keys=True,
                                     ensure_ascii=False))
    except (TypeError, ValueError) as exc:
        raise ExtractorError(f"cannot record the fact {fact.statement!r}: {exc}; a cassette "
                             "holds only JSON-able facts (check its meta)") from None


def _fact_from_json(data: dict[str, Any]) -> ExtractedFact:
    # Fields this version does not know are ignored, so an older reader replays newer files.
    values = {k: v for k, v in data.items() if k in _FACT_FIELDS}
    values["topics"] = tuple(values.get("topics") or ())
    values["meta"] = dict(values.get("meta") or {})
    # JSON has no tuples: a (name, type) mention and a (subject, predicate, object) relation
    # come back as lists, and are turned back into the tuples the extractor emitted so a
    # replayed fact equals the live one (a bare-string mention stays a string).
    values["mentions"] = _tuples(values.get("mentions"))
    values["relations"] = _tuples(values.get("relations"))
    return ExtractedFact(**values)


def _tuples(value: object) -> tuple:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(tuple(v) if isinstance(v, list) else v for v in value)


def read_entries(path: str | os.PathLike[str], required: dict[str, type], what: str
                 ) -> list[dict[str, Any]]:
    """Every JSON object of a JSONL cassette, in file order, each checked to carry the
    ``required`` fields with their types; InvalidInput naming the line for a malformed one.
    ``what`` names one entry in messages ('a recording')."""
    path = Path(path)
    entries: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path} line {number} is not JSON ({exc.msg}); a cassette "
                                   f"is one {what.split(' ', 1)[-1]} object per line") from None
            if not (isinstance(entry, dict) and all(isinstance(entry.get(k), t)
                                                    for k, t in required.items())):
                raise InvalidInput(f"{path} line {number} is not {what} (it needs "
                                   f"{', '.join(required)})")
            entries.append(entry)
    return entries


def append_entry(path: Path, entry: dict[str, Any]) -> None:
    """Append one recording (with its ``recorded_at``) to a JSONL cassette. The file is
    opened per line and closed at once: a run that dies keeps what it recorded."""
    line = json.dumps({**entry, "recorded_at": datetime.now(UTC).isoformat()},
                      sort_keys=True, ensure_ascii=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def read_cassette(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every recording in a cassette, in file order; InvalidInput for a malformed line."""
    return read_entries(path, {"key": str, "model": str, "text": str, "facts": list},
                        "a recording")


class RecordingExtractor:
    """Wraps ``inner``: every ``extract`` calls it and appends what it returned to ``path``.

    ``name`` is the inner extractor's, so a recorded run is filed under the real extractor.
    ``prompt`` defaults to the inner extractor's ``prompt_for`` when it has one, else "".
    The file is created on the first recording and may be shared by several extractors
    (their ``model`` names keep their recordings apart).
    """

    def __init__(self, inner: Extractor, path: str | os.PathLike[str], *,
                 prompt: PromptFn | None = None) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.model: str = inner.name
        self.path = Path(path)
        self.prompt: PromptFn = prompt or getattr(inner, "prompt_for", None) or _no_prompt
        self._lock = threading.Lock()
        # key -> facts as recorded, so an identical re-recording is not appended again.
        self._recorded: dict[str, list[dict[str, Any]]] = {}
        if self.path.exists():
            for entry in read_cassette(self.path):
                self._recorded[entry["key"]] = entry["facts"]

    def __repr__(self) -> str:
        return f"RecordingExtractor({self.inner!r}, {str(self.path)!r})"

    def extract(self, text: str, context: ExtractionContext | None = None) -> list[ExtractedFact]:
        """The inner extractor's facts, recorded on the way out."""
        context = context if context is not None else ExtractionContext()
        facts = self.inner.extract(text, context)
        encoded = [_fact_to_json(f) for f in facts]
        key = cassette_key(self.model, self.prompt(text, context), text)
        with self._lock:
            if self._recorded.get(key) != encoded:
                append_entry(self.path, {"key": key, "model": self.model, "text": text,
                                         "facts": encoded})
                self._recorded[key] = encoded
        return facts


class ReplayExtractor:
    """Answers ``extract`` from a cassette; a text with no recording is an ExtractorError.

    ``model`` picks whose recordings to replay; it may be omitted when the cassette holds one
    model's. ``prompt`` switches to strict keying (see the module docstring).
    """

    def __init__(self, path: str | os.PathLike[str], model: str | None = None, *,
                 prompt: PromptFn | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise InvalidInput(f"no cassette at {self.path}; record one first (factstore eval "
                               f"run NAME --extractor SPEC --record-cassette {self.path})")
        entries = read_cassette(self.path)
        models = sorted({e["model"] for e in entries})
        if model is None and len(models) > 1:
            raise InvalidInput(f"{self.path} holds recordings of {', '.join(models)}; say which "
                               "to replay (model=..., or --replay-model)")
        if model is not None and models and model not in models:
            raise InvalidInput(f"{self.path} has no recordings of {model!r}; it has "
                               f"{', '.join(models)}")
        self.model: str | None = model if model is not None else (models[0] if models else None)
        self.name = f"replay/{self.model or self.path.stem}"
        self.prompt = prompt
        self._by_key: dict[str, list[dict[str, Any]]] = {}
        # text -> {key: facts}: the default, prompt-blind lookup.
        self._by_text: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for entry in entries:  # file order, so the last recording of a key wins
            if entry["model"] != self.model:
                continue
            self._by_key[entry["key"]] = entry["facts"]
            self._by_text.setdefault(entry["text"], {})[entry["key"]] = entry["facts"]

    def __repr__(self) -> str:
        return f"ReplayExtractor({str(self.path)!r}, model={self.model!r})"

    def __len__(self) -> int:
        """How many distinct recordings this replayer can answer from."""
        return len(self._by_key)

    def extract(self, text: str, context: ExtractionContext | None = None) -> list[ExtractedFact]:
        """The recorded facts for this text (fresh objects on every call)."""
        if not isinstance(text, str):
            raise InvalidInput(f"extract() text must be a string, got {type(text).__name__}")
        context = context if context is not None else ExtractionContext()
        if self.prompt is not None:
            key = cassette_key(self.model or "", self.prompt(text, context), text)
            facts = self._by_key.get(key)
        else:
            recorded = self._by_text.get(text, {})
            if len(recorded) > 1:
                raise ExtractorError(
                    f"{self.path} holds {len(recorded)} recordings of {self.model} for "
                    f"{_preview(text)} under different prompts; pass prompt=... to choose by "
                    "the prompt that produced them")
            facts = next(iter(recorded.values()), None)
        if facts is None and text in self._by_text:
            raise ExtractorError(
                f"{self.path} has recordings of {self.model} for {_preview(text)} only under "
                "another prompt (did the prompt template change?); re-record with "
                f"--record-cassette {self.path}, or replay without prompt= to ignore the prompt")
        if facts is None:
            raise ExtractorError(
                f"{self.path} has no recording of {self.model or 'any model'} for "
                f"{_preview(text)}; record it by running the same eval with the live extractor "
                f"and --record-cassette {self.path} (or wrap the extractor in "
                "RecordingExtractor)")
        return [_fact_from_json(f) for f in facts]
