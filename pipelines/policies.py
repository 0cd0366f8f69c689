"""The conflict-policy job: work the open conflict queue in bulk under a named policy.

A person launches it from the UI with the policy, its parameters and ``dry_run``. The plan
comes from the pure ``factstore.policies.plan``; each decision is one ``resolve_conflict``
or ``resolve_both_stand`` call with the policy as its reasoning. A dry run lists the plan
and writes nothing.
"""

from dagster import Config, MetadataValue, OpExecutionContext, job, op
from pydantic import Field

from factstore.errors import FactStoreError
from factstore.policies import POLICIES, plan
from pipelines.resources import FactStoreResource


class PolicyConfig(Config):
    policy: str = Field(description=f"one of {', '.join(POLICIES)}")
    params: dict[str, str] = Field(default_factory=dict,
                                   description="the policy's parameters, e.g. {'kind': 'STATE'}")
    dry_run: bool = Field(default=True, description="list what it would do, write nothing")


@op(description="Resolve open conflicts under a named policy (or list what it would do).")
def apply_conflict_policy(context: OpExecutionContext, config: PolicyConfig,
                          factstore: FactStoreResource) -> dict:
    with factstore.store() as store:
        chosen = plan(config.policy, store.open_conflicts(), config.params)
        applied, failed = 0, []
        if not config.dry_run:
            for d in chosen.decisions:
                try:
                    if d.winner is None:
                        store.resolve_both_stand(d.conflict_id, d.reasoning)
                    else:
                        store.resolve_conflict(d.conflict_id, d.winner, d.reasoning)
                    applied += 1
                except FactStoreError as exc:  # e.g. closed meanwhile by a person
                    failed.append(f"#{d.conflict_id}: {exc}")
    lines = [f"- #{d.conflict_id}: " + (f"#{d.winner} wins" if d.winner else "both stand")
             + f" ({d.reasoning})" for d in chosen.decisions[:100]]
    context.add_output_metadata({
        "policy": chosen.policy, "params": MetadataValue.json(dict(chosen.params)),
        "dry_run": config.dry_run, "decided": len(chosen.decisions), "applied": applied,
        "left_for_a_person": len(chosen.left), "failed": MetadataValue.json(failed),
        "plan": MetadataValue.md("\n".join(lines) or "nothing to decide")})
    return {"decided": len(chosen.decisions), "applied": applied, "failed": failed,
            "left": len(chosen.left)}


@job(description="Work the conflict queue in bulk under a named policy (dry run by default).")
def conflict_policy() -> None:
    apply_conflict_policy()
