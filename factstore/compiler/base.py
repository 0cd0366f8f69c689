"""The compiler protocol: a capture's text in, timeline drafts out (seed 002 §9).

A compiler proposes; the store disposes: it files the subjects, keys the attributes through
the registry, dates the drafts against when the source said them, refuses what seed 002
refuses, and resolves every key by the timeline rules 1-7 in the capture's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

from factstore.compiler.drafts import Compilation


@runtime_checkable
class Compiler(Protocol):
    """Anything with a name and a ``compile`` method is a compiler."""

    name: str

    def compile(self, text: str, said: datetime, existing: Sequence[object] = ()
                ) -> Compilation:
        """The property values ``text`` states, its times read against ``said``;
        ``existing`` is the store's current facts of the capture's subjects, for a model
        that reconciles against them (seed 002 §9 "EXISTING FACTS")."""
        ...
