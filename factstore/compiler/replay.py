"""Compiler cassettes: record a model compiler's answers once, replay them without it.

A cassette is a JSON Lines file, one recorded call per line, keys sorted so files diff
cleanly::

    {"answer": "{\"facts\": [...]}", "key": "<sha256>", "model": "compiler/ollama:llama3.1:8b",
     "prompt_sha256": "...", "recorded_at": "2026-12-07T12:00:00+00:00"}

``key`` is the sha256 of the model's name and the exact prompt (the message, its date, who
speaks and the EXISTING FACTS shown), so a replay answers only the very call that was
recorded; anything else is a miss that says how to record it. What is recorded is the raw
answer: parsing it is the compiler's own pure step, so a replay checks the parse too (ids it
was not shown are refused on replay as on the live call).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from factstore.compiler.drafts import Compilation
from factstore.compiler.ollama import compile_turns
from factstore.errors import ExtractorError, InvalidInput

__all__ = ["RecordingCompiler", "ReplayCompiler", "call_key", "read_cassette"]


def call_key(model: str, prompt: str) -> str:
    canonical = json.dumps({"model": model, "prompt": prompt}, sort_keys=True,
                           ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def read_cassette(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """key -> the last recording for it (a re-recording that differs wins)."""
    entries: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"compiler cassette {path}:{number} is not JSON ({exc.msg})"
                               ) from None
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) or \
                not isinstance(entry.get("answer"), str):
            raise InvalidInput(f"compiler cassette {path}:{number} needs 'key' and 'answer'")
        entries[entry["key"]] = entry
    return entries


class RecordingCompiler:
    """Passes each call to a model compiler and appends its raw answer to a cassette."""

    wants_existing = True

    def __init__(self, inner: Any, path: str | os.PathLike[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = Path(path)
        self._lock = threading.Lock()

    def prompts(self, text: str, said: datetime, existing: Sequence[Any] = ()) -> list:
        return self.inner.prompts(text, said, existing)

    def raw_call(self, prompt: str) -> str:
        answer = self.inner.raw_call(prompt)
        key = call_key(self.name, prompt)
        with self._lock:
            known = read_cassette(self.path) if self.path.exists() else {}
            if known.get(key, {}).get("answer") != answer:
                entry = {"answer": answer, "key": key, "model": self.name,
                         "prompt_sha256": hashlib.sha256(prompt.encode()).hexdigest(),
                         "recorded_at": datetime.now(UTC).isoformat()}
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")
        return answer

    def compile(self, text: str, said: datetime, existing: Sequence[Any] = ()
                ) -> Compilation:
        return compile_turns(self, text, said, existing)


class ReplayCompiler:
    """Answers every call from a cassette recorded by ``RecordingCompiler``; a call that
    was never recorded is an ExtractorError naming its key."""

    wants_existing = True

    def __init__(self, path: str | os.PathLike[str], prompter: Any) -> None:
        """``prompter`` builds the prompts (an OllamaCompiler: building a prompt needs no
        server); its name is the model whose recordings are replayed."""
        self.path = Path(path)
        if not self.path.exists():
            raise InvalidInput(f"no compiler cassette at {self.path}; record one first "
                               "(RecordingCompiler around an OllamaCompiler)")
        self._entries = read_cassette(self.path)
        self._prompter = prompter
        self.name = prompter.name

    def prompts(self, text: str, said: datetime, existing: Sequence[Any] = ()) -> list:
        return self._prompter.prompts(text, said, existing)

    def raw_call(self, prompt: str) -> str:
        key = call_key(self.name, prompt)
        entry = self._entries.get(key)
        if entry is None:
            raise ExtractorError(f"compiler cassette {self.path} has no recording {key[:12]} "
                                 f"for this call to {self.name}; record it with a "
                                 "RecordingCompiler against the model")
        return entry["answer"]

    def compile(self, text: str, said: datetime, existing: Sequence[Any] = ()
                ) -> Compilation:
        return compile_turns(self, text, said, existing)
