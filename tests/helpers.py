"""Test helpers: a scripted extractor (tests decide exactly what is extracted)."""

from __future__ import annotations

from factstore.extractors.base import ExtractedFact, ExtractionContext


class ScriptedExtractor:
    """Returns the facts scripted for a text; nothing for any other text."""

    name = "scripted/test"

    def __init__(self) -> None:
        self.script: dict[str, list[ExtractedFact]] = {}
        self.calls: list[tuple[str, ExtractionContext]] = []

    def add(self, text: str, *facts: ExtractedFact) -> str:
        self.script[text] = list(facts)
        return text

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        self.calls.append((text, context))
        return list(self.script.get(text, []))


def fact(statement: str, kind: str = "STATE", quote: str | None = None, **fields) -> ExtractedFact:
    """An extracted fact whose quote defaults to the statement without its final period."""
    return ExtractedFact(statement=statement, kind=kind,
                         quote=quote if quote is not None else statement.rstrip("."), **fields)


def say(store, statement: str, kind: str = "STATE", **fields):
    """Script one fact for its own quote and remember that quote as the capture."""
    f = fact(statement, kind, **{k: v for k, v in fields.items()
                                 if k not in ("captured_at", "source_ref", "captured_by",
                                              "source_type", "said_at")})
    text = store.extractor.add(f.quote, f)
    capture_kwargs = {k: v for k, v in fields.items()
                      if k in ("captured_at", "source_ref", "captured_by", "source_type",
                               "said_at")}
    return store.remember(text, **capture_kwargs)


class HashEmbedder:
    """A deterministic 384-d embedder for subprocess tests that must start fast (no torch):
    each text's vector is seeded by its hash. Not similar for similar texts, so only for
    tests about atomicity and counts, never about the density check or recall."""

    name = "hash/test"
    dim = 384

    def embed(self, texts):
        import hashlib

        import numpy as np

        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
            rows.append(np.random.default_rng(seed).standard_normal(self.dim))
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim)
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
