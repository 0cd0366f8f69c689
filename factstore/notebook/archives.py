"""A real archive, compiled: a LoCoMo conversation remembered turn by turn into a store of
its own, for the timelines notebook to show what the compiler made of real chat.

The conversation is read from ``$FACTSTORE_DATASETS/locomo`` (default: the shared datasets
folder beside the repository); without it, from the project's tiny LoCoMo-format fixture,
so the notebook runs on a fresh clone. The store is built once (its own database on the
same server) and reused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ArchiveStore", "compiled_locomo", "locomo_path"]

ROOT = Path(__file__).resolve().parents[2]


def locomo_path() -> tuple[Path, bool]:
    """(where LoCoMo is read from, whether it is the real set)."""
    base = os.environ.get("FACTSTORE_DATASETS")
    real = (Path(base) if base else ROOT.parent / "shared" / "datasets") / "locomo"
    if real.exists():
        return real, True
    return ROOT / "evals" / "data" / "locomo.json", False


@dataclass
class ArchiveStore:
    """The store an archive was compiled into, and what was read."""

    store: Any
    conversation: dict[str, Any]
    real: bool
    built: bool

    @property
    def message(self) -> str:
        source = "LoCoMo" if self.real else "the bundled LoCoMo-format fixture"
        how = "remembered now" if self.built else "already remembered"
        turns = sum(len(s["turns"]) for s in self.conversation["sessions"])
        return (f"{source}, conversation {self.conversation['sample_id']}: {turns} turns, "
                f"{how}")


def compiled_locomo(index: int = 0, **options: Any) -> ArchiveStore:
    """Conversation ``index`` remembered turn by turn (``remember_many``, each turn a chat
    line said on its session's date) into database ``archive_locomo_<index>``."""
    from evals.suites.locomo import load_conversations
    from evals.suites.locomo_retrieval import turn_captures

    path, real = locomo_path()
    conversations = load_conversations(path)
    conversation = conversations[min(index, len(conversations) - 1)]
    name = f"archive_locomo_{index}" + ("" if real else "_fixture")
    store = _open(name, options)
    built = False
    if store.row_counts()["documents"] == 0:
        store.remember_many(turn_captures(conversation), batch_size=64)
        built = True
    return ArchiveStore(store, conversation, real, built)


def _open(name: str, options: dict[str, Any]) -> Any:
    """A store on database ``name`` of the server the environment names (FACTSTORE_DSN or
    the embedded one under FACTSTORE_HOME)."""
    from factstore import Store
    from factstore.store import server

    dsn = os.environ.get("FACTSTORE_DSN")
    if dsn:
        server.ensure_database(dsn, name)
        return Store.open(server.with_database(dsn, name), **options)
    return Store.open(database=name, **options)
