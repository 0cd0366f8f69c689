"""Embedders: text to L2-normalised float32 vectors, with a stable name and dimension.

Importing this package is cheap: neither torch nor the ollama client is imported until an
embedder is constructed (Ollama) or first asked to embed (local).
"""

from __future__ import annotations

from factstore.embedders.base import Embedder, normalise_rows
from factstore.embedders.local import LocalEmbedder
from factstore.embedders.ollama import OllamaEmbedder
from factstore.errors import InvalidInput

__all__ = [
    "EMBEDDER_CHOICES",
    "OLLAMA_KNOWN_DIMS",
    "Embedder",
    "LocalEmbedder",
    "OllamaEmbedder",
    "embedder_from_name",
    "normalise_rows",
]

EMBEDDER_CHOICES: tuple[str, ...] = ("local", "minilm", "ollama", "ollama:<model>")

#: Output widths of common Ollama embedding models (by name without tag), so 'ollama:<model>'
#: declares the right dim; anything else defaults to 768 and is checked on first answer.
OLLAMA_KNOWN_DIMS: dict[str, int] = {
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
    "all-minilm": 384,
    "snowflake-arctic-embed": 1024,
    "bge-m3": 1024,
    "bge-large": 1024,
}


def embedder_from_name(spec: str) -> Embedder:
    """Build an embedder from a short spec: 'local' / 'minilm' (the bundled MiniLM), 'ollama'
    (nomic-embed-text, 768 dims) or 'ollama:<model>'.

    For 'ollama:<model>' the dimension comes from OLLAMA_KNOWN_DIMS, else defaults to 768;
    construct OllamaEmbedder(model, dim=...) directly for another width (every answer is
    checked against dim, so a wrong guess fails loudly rather than storing bad vectors).
    """
    if not isinstance(spec, str):
        raise InvalidInput(
            f"embedder spec must be a string, got {type(spec).__name__}; "
            f"use one of {', '.join(EMBEDDER_CHOICES)}"
        )
    cleaned = spec.strip()
    lowered = cleaned.lower()
    if lowered in ("local", "minilm"):
        return LocalEmbedder()
    if lowered == "ollama":
        return OllamaEmbedder()
    if lowered.startswith("ollama:"):
        # Ollama model names are case-sensitive in tags, so keep the original spelling.
        model = cleaned[len("ollama:") :].strip()
        if model:
            base = model.split(":", 1)[0].lower()
            return OllamaEmbedder(model=model, dim=OLLAMA_KNOWN_DIMS.get(base, 768))
    raise InvalidInput(f"unknown embedder {spec!r}; use one of {', '.join(EMBEDDER_CHOICES)}")
