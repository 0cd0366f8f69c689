"""The eval registry: what an eval is, and the table of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factstore.embedders.base import Embedder
from factstore.errors import InvalidInput
from factstore.extractors.base import Extractor
from factstore.settings import Settings

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Metric:
    """A metric and which way is better; ``tolerance`` is the worsening compare allows.
    Direction 'none' is a value reported, not judged (a threshold an eval recommends is
    neither better higher nor lower): it never regresses and never improves."""

    name: str
    direction: str  # 'higher' or 'lower' is better; 'none': reported, not judged
    tolerance: float = 0.0

    def __post_init__(self) -> None:
        if self.direction not in ("higher", "lower", "none"):
            raise InvalidInput(f"metric {self.name}: direction must be 'higher', 'lower' or "
                               "'none'")

    def regressed(self, before: float, after: float) -> bool:
        """True when ``after`` is worse than ``before`` by more than the tolerance."""
        if self.direction == "none":
            return False
        worse = before - after if self.direction == "higher" else after - before
        return worse > self.tolerance + 1e-12


@dataclass
class EvalContext:
    """What a runner may use: the parts under test, the settings, and a store factory.

    ``open_store()`` gives a fresh, empty store (its own database) for evals that write; the
    harness closes and drops them after the run. ``record`` is True when the run should
    append its evidence to the open-questions queue (``factstore eval run --record``).
    """

    extractor: Extractor
    embedder: Embedder
    settings: Settings
    open_store: Callable[[], Any]
    record: bool = False
    #: a store for recording evidence (the user's own store), set when record is True
    evidence_store: Any | None = None
    #: this run's id (what its record is filed under), for evidence that cites the run
    run_id: str | None = None
    #: the dataset the items were loaded from
    dataset: Path | None = None


@dataclass(frozen=True)
class EvalOutcome:
    """One row per item (plain JSON-able values) and the run's metrics."""

    items: Sequence[Mapping[str, Any]]
    metrics: Mapping[str, float]
    #: free-form notes for the summary (e.g. the recommended threshold and why)
    notes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EvalSpec:
    name: str
    description: str
    metrics: tuple[Metric, ...]
    #: the project-written dataset it runs on by default
    default_dataset: Path
    load: Callable[[Path], list[dict[str, Any]]]
    run: Callable[[EvalContext, list[dict[str, Any]]], EvalOutcome]

    @property
    def primary(self) -> Metric:
        """The first metric is the primary one."""
        return self.metrics[0]

    def metric(self, name: str) -> Metric | None:
        return next((m for m in self.metrics if m.name == name), None)


REGISTRY: dict[str, EvalSpec] = {}


def register(spec: EvalSpec) -> EvalSpec:
    if spec.name in REGISTRY:
        raise InvalidInput(f"an eval named {spec.name!r} is already registered")
    REGISTRY[spec.name] = spec
    return spec


def get(name: str) -> EvalSpec:
    load_all()
    if name not in REGISTRY:
        raise InvalidInput(f"no eval named {name!r}; choose one of {', '.join(sorted(REGISTRY))}"
                           " (factstore eval list)")
    return REGISTRY[name]


def load_all() -> dict[str, EvalSpec]:
    """Import every eval module so it registers itself."""
    import evals.suites  # noqa: F401  (registration side effect)

    return REGISTRY
