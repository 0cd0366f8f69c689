"""Extractors: text in, typed candidate facts out.

Importing this package is cheap: the Ollama extractor (and its client) is imported only when
``extractor_from_name`` is asked for one.
"""

from __future__ import annotations

from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.extractors.rules import RuleExtractor

__all__ = [
    "DEFAULT_EXTRACTOR",
    "EXTRACTOR_CHOICES",
    "ExtractedFact",
    "ExtractionContext",
    "Extractor",
    "RuleExtractor",
    "extractor_from_name",
]

EXTRACTOR_CHOICES: tuple[str, ...] = ("parser", "rules", "ollama", "ollama:<model>")
#: The offline default: the parser-based scribe (spaCy, loaded on first use).
DEFAULT_EXTRACTOR = "parser"


def extractor_from_name(spec: str) -> Extractor:
    """Build an extractor from a short spec: 'parser' (the default offline scribe, reading a
    dependency parse), 'rules' (the cue-phrase scribe, no parser),
    'ollama' (the Ollama extractor's default model) or 'ollama:<model>'."""
    if not isinstance(spec, str):
        raise InvalidInput(
            f"extractor spec must be a string, got {type(spec).__name__}; "
            f"use one of {', '.join(EXTRACTOR_CHOICES)}"
        )
    cleaned = spec.strip()
    lowered = cleaned.lower()
    if lowered in ("rules", RuleExtractor.name):
        return RuleExtractor()
    if lowered in ("parser", "parser/v1"):
        from factstore.extractors.parsed import ParserExtractor

        return ParserExtractor()
    if lowered == "ollama" or (lowered.startswith("ollama:") and cleaned[7:].strip()):
        # Imported here so the rule scribe never pulls in the Ollama client.
        from factstore.extractors.ollama import OllamaExtractor

        if lowered == "ollama":
            return OllamaExtractor()
        # Ollama model tags are case-sensitive, so keep the original spelling.
        return OllamaExtractor(model=cleaned[len("ollama:"):].strip())
    raise InvalidInput(f"unknown extractor {spec!r}; use one of {', '.join(EXTRACTOR_CHOICES)}")
