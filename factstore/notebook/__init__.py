"""What the notebooks under ``notebooks/`` import: a store to explore, plots and controls.

``open_notebook_store()`` opens the store the environment names (FACTSTORE_DSN, else the
embedded server under FACTSTORE_HOME) and, when it is empty, seeds a small demo store
through the public API (``factstore.notebook.seed``), so every notebook runs top to bottom
on a fresh clone. Needs the ``notebooks`` extra (``make notebooks`` installs it).
"""

from __future__ import annotations

from typing import Any

from factstore.notebook.seed import SeedReport, ensure_demo_store, ensure_eval_runs

__all__ = ["SeedReport", "ensure_demo_store", "ensure_eval_runs", "open_notebook_store"]


def open_notebook_store(dsn: str | None = None, **options: Any) -> tuple[Any, SeedReport]:
    """``Store.open(dsn, **options)``, seeded when empty; returns the store and what the seed
    did (its ``message`` says whether the store is yours or the demo's)."""
    from factstore import Store

    store = Store.open(dsn, **options)
    try:
        report = ensure_demo_store(store)
    except BaseException:
        store.close()
        raise
    return store, report
