"""An embedder backed by an Ollama server (``/api/embed``), via the official ``ollama`` client.

The ``ollama`` package (and its pydantic/httpx stack) is imported when an OllamaEmbedder is
constructed, not when this module is imported, so ``import factstore.embedders`` stays cheap.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from factstore.embedders.base import check_texts, normalise_rows
from factstore.errors import EmbedderError, InvalidInput
from factstore.ollama_errors import ollama_errors

DEFAULT_HOST = "http://127.0.0.1:11434"


def resolve_host(host: str | None) -> str:
    """The host to talk to: the argument, else $OLLAMA_HOST, else the local default."""
    return host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST


class OllamaEmbedder:
    """Embeds through an Ollama server. ``dim`` is declared, not discovered, so the store can
    check it without a network call; every answer is checked against it."""

    def __init__(
        self,
        model: str = "nomic-embed-text",
        dim: int = 768,
        host: str | None = None,
        timeout: float = 30,
        batch_size: int = 64,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise InvalidInput(f"model must be a non-empty Ollama model name, got {model!r}")
        if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
            raise InvalidInput(f"dim must be a positive integer, got {dim!r}")
        if batch_size < 1:
            raise InvalidInput(f"batch_size must be a positive integer, got {batch_size!r}")
        import ollama

        self.model = model.strip()
        self.dim = dim
        self.name = f"ollama/{self.model}"
        self.host = resolve_host(host)
        self.timeout = timeout
        self.batch_size = batch_size
        self._client = ollama.Client(host=self.host, timeout=timeout)

    def __repr__(self) -> str:
        return f"OllamaEmbedder(model={self.model!r}, dim={self.dim}, host={self.host!r})"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an (n, dim) float32 array of L2-normalised vectors, one row per text."""
        items = check_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        rows: list[Sequence[float]] = []
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            rows.extend(self._embed_batch(batch))
        matrix = np.asarray(rows, dtype=np.float32)
        if not np.isfinite(matrix).all():
            raise EmbedderError(
                f"Ollama model {self.model!r} at {self.host} returned NaN or infinite values; "
                "the model or server is misbehaving"
            )
        return normalise_rows(matrix)

    def _embed_batch(self, batch: list[str]) -> list[Sequence[float]]:
        with ollama_errors(EmbedderError, host=self.host, model=self.model,
                           timeout=self.timeout, doing="embed", answer="an embedding response",
                           timeout_advice="raise timeout=... or use a smaller batch_size",
                           wrong_model_advice="use an embedding model such as "
                                              "nomic-embed-text"):
            response = self._client.embed(model=self.model, input=batch)
        return self._check(batch, response)

    def _check(self, batch: list[str], response: Any) -> list[Sequence[float]]:
        """Refuse an answer whose count or width does not match, rather than store bad vectors."""
        vectors = list(getattr(response, "embeddings", None) or [])
        if len(vectors) != len(batch):
            raise EmbedderError(
                f"Ollama model {self.model!r} at {self.host} returned {len(vectors)} vector(s) "
                f"for {len(batch)} input(s); make sure it is an embedding model "
                f"(e.g. `ollama pull nomic-embed-text`) and the server is up to date"
            )
        for vector in vectors:
            if len(vector) != self.dim:
                raise EmbedderError(
                    f"Ollama model {self.model!r} returned a {len(vector)}-dimensional vector "
                    f"but this embedder was declared with dim={self.dim}; pass dim={len(vector)} "
                    "matching the model (a store built with another dimension will refuse it)"
                )
        return vectors
