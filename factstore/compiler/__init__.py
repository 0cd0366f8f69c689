"""The compiler (seed 002 §9): plain statements into format v1 timeline facts.

Pure parts here (drafts, time phrases, subjects, values, the offline rules, reconciling,
one truth for kind-typed facts); the store wires them in ``factstore/store/compiling.py``.
"""

from __future__ import annotations

from typing import Any

from factstore.errors import InvalidInput

__all__ = ["compiler_from_name"]


def compiler_from_name(name: str | None, *, host: str | None = None) -> Any:
    """'parser' (the offline default), 'none', or 'ollama[:model]'."""
    if name is None or name in ("parser", "parser/v1", "compiler/parser-v1", "default"):
        from factstore.compiler.offline import ParserCompiler

        return ParserCompiler()
    if name == "none":
        return None
    if name == "ollama" or name.startswith("ollama:"):
        from factstore.compiler.ollama import OllamaCompiler

        model = name.partition(":")[2] or "llama3.1:8b"
        return OllamaCompiler(model, host=host)
    raise InvalidInput(f"unknown compiler {name!r}; use parser, none, or ollama[:model]")
