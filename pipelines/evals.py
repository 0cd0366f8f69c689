"""Eval suites as assets: one per registered eval, each with a regression check.

Each asset runs its eval through the harness (``evals.harness.run_eval``), which writes the
usual Parquet run record under ``<home>/evals/``; the primary metric becomes metadata. The
``no_regression`` check compares the new run against a baseline with the DuckDB compare
gate (``evals.compare.compare``): the run named in config, else the run pinned in
``<home>/evals/baselines.json``, else the previous run of the same eval. ``threshold_sweep``
re-runs one eval over a list of values of one setting, so a threshold study is one launch.
"""

import json
from pathlib import Path

from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    AssetsDefinition,
    Config,
    MaterializeResult,
    MetadataValue,
    OpExecutionContext,
    ScheduleDefinition,
    asset,
    define_asset_job,
    job,
    op,
)
from pydantic import Field

from evals.compare import compare, list_runs
from evals.harness import run_eval
from evals.registry import EvalSpec, load_all
from factstore.embedders import embedder_from_name
from factstore.errors import InvalidInput
from pipelines.resources import FactStoreResource

BASELINES = "baselines.json"


class EvalConfig(Config):
    settings: dict[str, str] = Field(default_factory=dict, description="setting overrides "
                                     "for this run (e.g. {'density_threshold': '0.85'})")
    dataset: str | None = Field(default=None, description="another dataset (default the "
                                "eval's own)")
    baseline_run: str | None = Field(default=None, description="the run to compare with "
                                     "(default the pinned baseline, else the previous run)")


def asset_name(eval_name: str) -> str:
    return "eval_" + eval_name.replace("-", "_")


def baseline_for(home: Path, eval_name: str, run_id: str, pinned: str | None) -> str | None:
    """The run the new one is judged against (see the module doc), or None."""
    if pinned:
        return pinned
    path = home / "evals" / BASELINES
    if path.is_file():
        chosen = json.loads(path.read_text()).get(eval_name)
        if chosen and chosen != run_id:
            return chosen
    earlier = [r.run_id for r in list_runs(home, eval_name) if r.run_id != run_id]
    return earlier[0] if earlier else None


def run_one(factstore: FactStoreResource, name: str, settings: dict[str, str],
            dataset: str | None):
    """One eval run with the resource's parts and these setting overrides."""
    overridden = factstore.model_copy(update={"settings": {**factstore.settings, **settings}})
    return run_eval(name, extractor=overridden.build_extractor(),
                    embedder=embedder_from_name(overridden.embedder),
                    settings=overridden.store_settings(),
                    dataset=dataset, home=overridden.home_path, admin_dsn=overridden.dsn)


def _eval_asset(spec: EvalSpec) -> AssetsDefinition:
    key = asset_name(spec.name)

    @asset(name=key, group_name="evals", description=spec.description,
           check_specs=[AssetCheckSpec("no_regression", asset=key,
                                       description="the compare gate against the baseline")])
    def _run(context: AssetExecutionContext, config: EvalConfig,
             factstore: FactStoreResource) -> MaterializeResult:
        record, outcome = run_one(factstore, spec.name, config.settings, config.dataset)
        primary = spec.primary.name
        metrics = _plain(outcome.metrics)
        metadata = {"run_id": record.run_id, "primary_metric": primary,
                    # None when the run could not measure it (e.g. no item of that category)
                    primary: MetadataValue.json({"value": metrics.get(primary)})
                    if metrics.get(primary) is None else MetadataValue.float(metrics[primary]),
                    "metrics": MetadataValue.json(metrics),
                    "items": len(outcome.items), "record": MetadataValue.path(str(record.path))}
        baseline = baseline_for(factstore.home_path, spec.name, record.run_id,
                                config.baseline_run)
        return MaterializeResult(metadata=metadata,
                                 check_results=[_gate(factstore, baseline, record.run_id)])

    return _run


def _plain(metrics) -> dict[str, float | None]:  # noqa: ANN001
    return {k: None if v is None else float(v) for k, v in metrics.items()}


def _gate(factstore: FactStoreResource, baseline: str | None, run_id: str) -> AssetCheckResult:
    if baseline is None:
        return AssetCheckResult(check_name="no_regression", passed=True,
                                metadata={"baseline": "none yet: this run becomes it"})
    result = compare(baseline, run_id, factstore.home_path)
    lines = [f"{d.name}: {d.before:g} -> {d.after:g}" + (" REGRESSED" if d.regressed else "")
             for d in result.deltas]
    lines += [f"{name}: dropped" for name in result.dropped]
    return AssetCheckResult(
        check_name="no_regression", passed=result.ok, severity=AssetCheckSeverity.ERROR,
        metadata={"baseline": baseline, "run": run_id,
                  "regressions": [d.name for d in result.regressions] + list(result.dropped),
                  "deltas": MetadataValue.md("\n".join(f"- {line}" for line in lines))})


EVAL_ASSETS = [_eval_asset(spec) for spec in load_all().values()]
eval_job = define_asset_job("eval_suites", selection=[a.key for a in EVAL_ASSETS],
                            description="Every registered eval, each gated on its baseline.")
nightly_evals = ScheduleDefinition(name="nightly_evals", job=eval_job, cron_schedule="0 3 * * *",
                                   execution_timezone="UTC",
                                   description="The eval suites every night at 03:00 UTC.")


class SweepConfig(Config):
    eval: str = Field(description="the eval to re-run, e.g. conflict-precision")
    setting: str = Field(description="the setting to sweep, e.g. density_threshold")
    values: list[float] = Field(description="the values to try, e.g. [0.75, 0.8, 0.85]")
    dataset: str | None = None


@op(description="Re-run one eval once per value of one setting; a table of the metrics.")
def sweep_eval(context: OpExecutionContext, config: SweepConfig,
               factstore: FactStoreResource) -> list[dict]:
    if not config.values:
        raise InvalidInput("threshold_sweep: give at least one value to try")
    spec = load_all().get(config.eval)
    if spec is None:
        raise InvalidInput(f"threshold_sweep: no eval named {config.eval!r}; choose one of "
                           f"{', '.join(sorted(load_all()))}")
    rows = []
    for value in config.values:
        record, outcome = run_one(factstore, spec.name, {config.setting: str(value)},
                                  config.dataset)
        row = {config.setting: value, "run_id": record.run_id, **_plain(outcome.metrics)}
        context.log.info(f"{config.setting}={value}: {spec.primary.name}="
                         f"{row[spec.primary.name]} ({record.run_id})")
        rows.append(row)
    header = list(rows[0])
    table = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    table += ["| " + " | ".join(f"{r[h]:g}" if isinstance(r[h], float) else str(r[h])
                                for h in header) + " |" for r in rows]
    context.add_output_metadata({"sweep": MetadataValue.md("\n".join(table))})
    return rows


@job(description="One eval over a sweep of one setting's values (config: eval, setting, "
     "values).")
def threshold_sweep() -> None:
    sweep_eval()
