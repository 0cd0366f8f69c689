"""Running an eval: load its dataset, give its runner a context, record the run, clean up.

The runner never sees a database it could damage: ``context.open_store()`` opens a fresh,
empty store in a throwaway database (``eval_<run>_<n>``) on the embedded server under the
home, or on ``admin_dsn`` when one is given, and every such database is dropped when the run
ends, whether it succeeded or not. Only with ``record=True`` does the runner get the user's
own store, as ``context.evidence_store``, to append evidence to the open-questions queue.
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.records import RunRecord, new_run_id, write_run
from evals.registry import EvalContext, EvalOutcome, get
from factstore import Settings, Store
from factstore.embedders.base import Embedder
from factstore.errors import InvalidInput
from factstore.extractors.base import Extractor
from factstore.store import server, templates

__all__ = ["run_eval"]


class _Throwaways:
    """The stores a run opened, and the databases behind them, to close and drop at the end."""

    def __init__(self, *, home: Path, admin_dsn: str | None, token: str, embedder: Embedder,
                 extractor: Extractor, settings: Settings) -> None:
        self._home = home
        self._admin = admin_dsn
        self._token = token
        self._embedder = embedder
        self._extractor = extractor
        self._settings = settings
        self._counter = itertools.count(1)
        self.stores: list[Store] = []
        self.databases: list[str] = []

    def admin(self) -> str:
        # Resolved on first use: an eval that never opens a store never starts Postgres.
        if self._admin is None:
            self._admin = server.embedded_admin_dsn(self._home)
        return self._admin

    def open(self) -> Store:
        """A fresh store on a new, empty database."""
        name = f"eval_{self._token}_{next(self._counter)}"
        admin = self.admin()
        templates.fresh_database(admin, name, self._embedder)
        # Recorded before opening, so a failed open still has its database dropped.
        self.databases.append(name)
        store = Store.open(server.with_database(admin, name), embedder=self._embedder,
                           extractor=self._extractor, settings=self._settings)
        self.stores.append(store)
        return store

    def close(self) -> None:
        """Close every store and drop every database; failures warn instead of raising, so
        they never hide the run's own error (or discard a run already recorded)."""
        for store in self.stores:
            try:
                store.close()
            except Exception as exc:  # cleanup must go on whatever broke
                warnings.warn(f"closing an eval store failed: {exc}", stacklevel=2)
        for name in self.databases:
            try:
                server.drop_database(self.admin(), name)
            except Exception as exc:
                warnings.warn(f"could not drop the eval database {name}: {exc}; drop it by hand",
                              stacklevel=2)
        self.stores.clear()
        self.databases.clear()


def run_eval(name: str, *, extractor: Extractor, embedder: Embedder,
             settings: Settings | None = None, dataset: Path | str | None = None,
             record: bool = False, home: str | os.PathLike[str] | None = None,
             store_factory: Callable[[], Any] | None = None,
             admin_dsn: str | None = None) -> tuple[RunRecord, EvalOutcome]:
    """Run the eval called ``name`` and record it under ``$FACTSTORE_HOME/evals/``.

    ``dataset`` defaults to the eval's own ``default_dataset``. ``settings`` defaults to
    ``Settings.from_env()``. ``record=True`` needs ``store_factory``: a callable that opens the
    user's own store, which becomes ``context.evidence_store``; the harness closes it after the
    run. ``admin_dsn`` puts the throwaway databases on that server instead of the embedded one
    under ``home`` (the role needs CREATEDB).

    Returns the written record and the runner's outcome. Raises InvalidInput for an unknown
    eval, a missing dataset, or ``record`` without a store factory; whatever the runner raises
    propagates after the cleanup (nothing is recorded for a failed run).
    """
    spec = get(name)
    path = Path(dataset) if dataset is not None else spec.default_dataset
    if not path.exists():
        given = "" if dataset is not None else f" (eval {spec.name}'s default dataset)"
        raise InvalidInput(f"dataset {path}{given} does not exist; pass --dataset PATH to an "
                           "existing file or directory")
    if record and store_factory is None:
        raise InvalidInput("record=True appends evidence to your store, so it needs a "
                           "store_factory that opens it")
    settings = settings if settings is not None else Settings.from_env()
    items = spec.load(path)

    started_at = datetime.now(UTC)
    run_id = new_run_id(spec.name, started_at)
    resolved_home = server.factstore_home(home)
    throwaways = _Throwaways(home=resolved_home, admin_dsn=admin_dsn, token=run_id[-6:],
                             embedder=embedder, extractor=extractor, settings=settings)
    evidence_store: Any | None = None
    try:
        # Opened before the run, so a store that cannot be opened fails fast, not after it.
        if record:
            assert store_factory is not None
            evidence_store = store_factory()
        context = EvalContext(extractor=extractor, embedder=embedder, settings=settings,
                              open_store=throwaways.open, record=record,
                              evidence_store=evidence_store, run_id=run_id, dataset=path)
        outcome = spec.run(context, items)
        if not isinstance(outcome, EvalOutcome):
            raise InvalidInput(f"eval {spec.name}'s runner returned {type(outcome).__name__}, "
                               "not an EvalOutcome")
        written = write_run(spec, outcome, dataset=path, context=context, home=resolved_home,
                            run_id=run_id, started_at=started_at)
    finally:
        throwaways.close()
        if evidence_store is not None and hasattr(evidence_store, "close"):
            try:
                evidence_store.close()
            except Exception as exc:
                warnings.warn(f"closing the evidence store failed: {exc}", stacklevel=2)
    return written, outcome
