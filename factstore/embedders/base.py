"""The embedder protocol. The store records name and dimension and refuses to mix another."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from factstore.errors import InvalidInput


@runtime_checkable
class Embedder(Protocol):
    #: stable identity recorded in the store, e.g. 'sentence-transformers/all-MiniLM-L6-v2'
    name: str
    #: vector dimension, known without loading the model
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an (n, dim) float32 array of L2-normalised vectors, one row per text."""
        ...


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """L2-normalise each row; a zero row stays zero (it has no direction to keep)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def check_texts(texts: Sequence[str]) -> list[str]:
    """The texts as a list, or InvalidInput for a bare string or a non-string item."""
    if isinstance(texts, str):
        # A bare string is a sequence of characters; embedding each letter is never meant.
        raise InvalidInput("embed() takes a sequence of strings, not a single string")
    items = list(texts)
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise InvalidInput(f"embed() texts[{i}] is {type(text).__name__}, not str")
    return items
