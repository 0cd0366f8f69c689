"""Store-wide review assets: the density report (with its check), the queue summary, and
the entity profiles' rebuild with the merge proposals it raises."""

from collections import Counter

from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    MaterializeResult,
    MetadataValue,
    asset,
)

from pipelines.resources import FactStoreResource


@asset(group_name="review", deps=["migrated_archive"],
       check_specs=[AssetCheckSpec("no_unscreened_pairs", asset="density_report",
                                   description="warns when live same-kind pairs above the "
                                   "threshold are in no conflict (import_facts skips triage)")],
       description="Near-duplicate live pairs no conflict records, store-wide.")
def density_report(factstore: FactStoreResource) -> MaterializeResult:
    with factstore.store() as store:
        report = store.density_report()
    rows = ["| a | b | kind | cosine | statement a | statement b |",
            "| --- | --- | --- | --- | --- | --- |"]
    rows += [f"| {p.fact_a} | {p.fact_b} | {p.kind.value} | {p.similarity:.3f} | "
             f"{_cell(p.statement_a)} | {_cell(p.statement_b)} |" for p in report.pairs[:25]]
    count = len(report.pairs)
    return MaterializeResult(
        metadata={"threshold": report.threshold, "facts_checked": report.facts_checked,
                  "unscreened_pairs": count, "truncated": report.truncated,
                  "pairs": MetadataValue.md("\n".join(rows))},
        check_results=[AssetCheckResult(
            check_name="no_unscreened_pairs", passed=count == 0,
            severity=AssetCheckSeverity.WARN,
            metadata={"unscreened_pairs": count},
            description=None if count == 0 else
            f"{count} pair(s) above {report.threshold} with no conflict: review them, or "
            "run the conflict-policy job after recording them")])


@asset(group_name="review", deps=["migrated_archive"],
       description="The conflict queue and the open-questions queue, summarised.")
def queue_summary(factstore: FactStoreResource) -> MaterializeResult:
    with factstore.store() as store:
        conflicts = store.open_conflicts()
        questions = store.open_questions()
    by_lane = Counter(c.lane for c in conflicts)
    by_kind = Counter(c.fact_a.kind.value for c in conflicts)
    by_status = Counter(q.status for q in questions)
    by_risk = Counter(q.risk for q in questions)
    oldest = min((c.created_at for c in conflicts), default=None)
    return MaterializeResult(metadata={
        "open_conflicts": len(conflicts),
        "conflicts_by_lane": MetadataValue.json(dict(sorted(by_lane.items()))),
        "conflicts_by_kind": MetadataValue.json(dict(sorted(by_kind.items()))),
        "oldest_open_conflict": oldest.isoformat() if oldest else "none",
        "open_questions": len(questions),
        "questions_by_status": MetadataValue.json(dict(sorted(by_status.items()))),
        "questions_by_risk": MetadataValue.json(dict(sorted(by_risk.items()))),
    })


@asset(group_name="review", deps=["migrated_archive"],
       description="Stale entity profiles rebuilt from current evidence (cleared where none "
                   "is left), and the merge proposals they raise for a person to decide.")
def entity_profiles(factstore: FactStoreResource) -> MaterializeResult:
    with factstore.store() as store:
        refresh = store.refresh_profiles(limit=1_000_000)
        proposals = store.merge_proposals()
        names = {e.id: e.canonical_name
                 for e in store.entities(limit=100_000, include_merged=True)}
    rows = ["| # | a | b | score | reason |", "| --- | --- | --- | --- | --- |"]
    rows += [f"| {p.id} | {_cell(names.get(p.entity_a, p.entity_a))} | "
             f"{_cell(names.get(p.entity_b, p.entity_b))} | "
             f"{'—' if p.score is None else f'{p.score:.3f}'} | {_cell(p.reason)} |"
             for p in proposals[:25]]
    return MaterializeResult(metadata={
        "profiles_rebuilt": refresh.rebuilt, "profiles_cleared": refresh.cleared,
        "proposals_made": refresh.proposed, "pending_proposals": len(proposals),
        "entities": len(names), "proposals": MetadataValue.md("\n".join(rows))})


def _cell(text: str) -> str:
    text = text.replace("|", "/").replace("\n", " ")
    return text if len(text) <= 80 else text[:79] + "…"
