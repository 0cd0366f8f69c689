"""The Dagster pipelines, materialized for real: tiny archives of every format into a real
store, the review assets and their checks, the eval assets and their regression gate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dagster import DagsterInstance, materialize

from factstore.backfill import FactRecord
from factstore.extractors.base import ExtractionContext
from factstore.extractors.replay import RecordingExtractor
from factstore.extractors.rules import RuleExtractor
from factstore.migration import ColumnMap, discover_archives, read_archive
from pipelines.archives import ArchiveSource, migrated_archive
from pipelines.evals import EVAL_ASSETS, asset_name
from pipelines.resources import FactStoreResource
from pipelines.review import density_report, entity_profiles, queue_summary
from tests.archives import write_archives

ROOT = Path(__file__).resolve().parents[1]
MAPPING = dict(text="body", said_at="created", lineage="doc", captured_by="who")


@pytest.fixture()
def archives(tmp_path) -> tuple[Path, dict]:
    folder = tmp_path / "archives"
    return folder, write_archives(folder)


@pytest.fixture()
def resources(archives, admin_dsn, database, tmp_path) -> dict:
    folder, _ = archives
    return {"factstore": FactStoreResource.live(str(tmp_path / "home"), dsn=admin_dsn,
                                                database=database),
            "archive_source": ArchiveSource(folder=str(folder), **MAPPING, batch_size=8)}


def _cassette_for(folder: Path, path: Path) -> Path:
    """Record the rule extractor over every capture of the archives: the replay cassette."""
    recorder = RecordingExtractor(RuleExtractor(), path)
    for name in discover_archives(folder):
        mapping = ColumnMap(**MAPPING) if name.endswith((".csv", ".parquet")) or \
            name == "chat.jsonl" else ColumnMap()
        for capture in read_archive(folder / name, mapping).captures:
            recorder.extract(capture["text"], ExtractionContext(capture["source_type"]))
    return path


def _migrate(names: list[str], resources: dict, instance: DagsterInstance) -> dict[str, dict]:
    instance.add_dynamic_partitions("archives", [n for n in names if not
                                                 instance.has_dynamic_partition("archives", n)])
    out = {}
    for name in names:
        result = materialize([migrated_archive], partition_key=name, resources=resources,
                             instance=instance)
        assert result.success, name
        (event,) = result.asset_materializations_for_node("migrated_archive")
        out[name] = {k: v.value for k, v in event.metadata.items()}
    return out


def _tables(resource: FactStoreResource) -> tuple:
    with resource.store() as store:
        facts = sorted((f.statement, f.verdict.value, f.evidence_source_ref)
                       for f in store.facts_by_verdict(limit=100_000))
        documents = sorted((r["lineage"], r["version"], r["content_hash"])
                           for r in store.table_rows("documents"))
        conflicts = sorted((c.fact_a.statement, c.fact_b.statement, c.status)
                           for c in store.conflicts())
        return store.row_counts(), documents, facts, conflicts


def test_the_whole_graph_materializes_with_the_replay_resource(archives, resources, tmp_path):
    folder, expected = archives
    cassette = _cassette_for(folder, tmp_path / "cassette.jsonl")
    replay = FactStoreResource.replay(cassette, resources["factstore"].home,
                                      dsn=resources["factstore"].dsn,
                                      database=resources["factstore"].database)
    instance = DagsterInstance.ephemeral()
    reports = _migrate(discover_archives(folder), {**resources, "factstore": replay}, instance)

    assert set(reports) == set(expected)
    for name, want in expected.items():
        meta = reports[name]
        if "duplicates" in want:  # another archive landed these documents first
            assert (meta["documents_landed"], meta["documents_skipped"]) == \
                (0, want["duplicates"]), name
        else:
            assert meta["documents_landed"] > 0, name
        assert meta["rows_rejected"] == len(want["rejects"]), name
        if want["rejects"]:
            lines = [json.loads(x) for x in Path(meta["rejects_file"]).read_text().splitlines()]
            assert {x["line"] for x in lines} == set(want["rejects"]), name
            assert all(x["reason"] and x["file"] for x in lines)
    assert reports["timeline.jsonl"]["facts_written"] == 3
    assert reports["chat.jsonl"]["facts_written"] > 0
    assert sum(r["conflicts_raised"] for r in reports.values()) > 0, \
        "services changing state in the chat archive must raise conflicts"

    # The evals extract their own items, which the archives' cassette does not hold: live.
    datasets = _small_datasets(tmp_path)
    result = materialize([density_report, queue_summary, entity_profiles, *EVAL_ASSETS],
                         resources=resources,
                         instance=instance, run_config={"ops": {
                             asset_name(n): {"config": {"dataset": str(p)}}
                             for n, p in datasets.items()}})
    assert result.success
    checks = {c.check_name: c for c in result.get_asset_check_evaluations()}
    assert checks["no_unscreened_pairs"].passed  # everything came through the write path
    (summary,) = result.asset_materializations_for_node("queue_summary")
    (profiles,) = result.asset_materializations_for_node("entity_profiles")
    with replay.store() as store:
        assert summary.metadata["open_conflicts"].value == len(store.open_conflicts())
        # the chat archive's speakers are entities; every profile is fresh after the asset
        everyone = store.entities(limit=100_000, include_merged=True)
        assert profiles.metadata["entities"].value == len(everyone) > 0
        assert not [e for e in store.entities(limit=100_000) if e.profile_stale]
        assert profiles.metadata["pending_proposals"].value == len(store.merge_proposals())
    for node in (asset_name(n) for n in ("shred", "negation-identity", "locomo-recall")):
        (event,) = result.asset_materializations_for_node(node)
        assert event.metadata["primary_metric"].value in event.metadata
        assert Path(event.metadata["record"].value).is_dir()


def _small_datasets(tmp_path: Path) -> dict[str, Path]:
    """The slow evals on a slice of their own data (the quick ones keep theirs)."""
    out = {}
    for name, file, keep in (("subject-conflicts", "subject_conflicts.jsonl", 12),
                             ("conflict-precision", "pairs.jsonl", 30),
                             ("entity-resolution", "entity_mentions.jsonl", 30),
                             ("knowledge-update", "knowledge_updates.jsonl", 6)):
        lines = (ROOT / "evals" / "data" / file).read_text().splitlines()
        target = tmp_path / f"small-{file}"
        target.write_text("\n".join(lines[:keep]) + "\n")
        out[name] = target
    return out


def test_rematerializing_a_partition_writes_nothing_new(archives, resources):
    folder, _ = archives
    instance = DagsterInstance.ephemeral()
    names = discover_archives(folder)
    _migrate(names, resources, instance)
    before = _tables(resources["factstore"])
    again = _migrate(names, resources, instance)
    assert _tables(resources["factstore"]) == before
    for name, meta in again.items():
        assert meta["documents_landed"] == 0 and meta["facts_written"] == 0, name
        assert meta["conflicts_raised"] == 0, name
    assert again["chat.jsonl"]["documents_skipped"] == 24
    # the rejected rows are reported again, every run
    assert again["chat.jsonl"]["rows_rejected"] == 2


def test_a_new_archive_is_found_by_the_sensor(archives, resources):
    from dagster import build_sensor_context

    from pipelines.archives import new_archives_sensor

    folder, expected = archives
    instance = DagsterInstance.ephemeral()
    context = build_sensor_context(instance=instance, resources=resources)
    first = new_archives_sensor(context)
    assert sorted(r.partition_key for r in first.run_requests) == sorted(expected)
    instance.add_dynamic_partitions("archives", sorted(expected))
    shutil.copy(folder / "chat.jsonl", folder / "chat-2.jsonl")
    second = new_archives_sensor(build_sensor_context(instance=instance, resources=resources))
    assert [r.partition_key for r in second.run_requests] == ["chat-2.jsonl"]


def test_the_density_check_warns_on_imported_near_duplicates(resources):
    with resources["factstore"].store() as store:
        store.import_facts([FactRecord(statement=t, kind="STATE", quote=t, source_ref=f"x{i}")
                            for i, t in enumerate(["The billing service is down.",
                                                   "The billing service is down right now.",
                                                   "The search service is down."])])
    result = materialize([density_report], resources=resources,
                         instance=DagsterInstance.ephemeral())
    (check,) = result.get_asset_check_evaluations()
    assert not check.passed and check.severity.value == "WARN"
    (event,) = result.asset_materializations_for_node("density_report")
    assert event.metadata["unscreened_pairs"].value == 1  # the search pair is another subject


def test_the_eval_check_fails_on_an_injected_regression(resources, tmp_path):
    (asset,) = [a for a in EVAL_ASSETS if a.key.to_user_string() == "eval_conflict_precision"]
    dataset = str(_small_datasets(tmp_path)["conflict-precision"])
    instance = DagsterInstance.ephemeral()

    def run(settings: dict) -> object:
        result = materialize([asset], resources=resources, instance=instance, run_config={
            "ops": {"eval_conflict_precision": {"config": {"dataset": dataset,
                                                           "settings": settings}}}},
            raise_on_error=False)
        (check,) = result.get_asset_check_evaluations()
        return check

    first = run({})
    assert first.passed and "none yet" in first.metadata["baseline"].value
    assert run({}).passed  # the same code and settings: no regression
    # A threshold far too low flags unrelated pairs: precision falls past its tolerance.
    worse = run({"density_threshold": "0.3", "contradiction_floor": "0.3"})
    assert not worse.passed
    assert "precision" in worse.metadata["regressions"].value


def test_a_conflict_policy_dry_run_lists_and_writes_nothing_then_applies(resources):
    from pipelines.policies import conflict_policy

    with resources["factstore"].store() as store:
        # Two paths for one token, neither on this machine: a lane-3 conflict each time.
        for i, place in enumerate(("sample", "legacy", "current")):
            store.remember(rf"the runner token lives at C:\ops\{place}\runner.env",
                           source_ref=f"chat:{i}", said_at=f"2026-03-0{i + 1}T09:00:00Z")
        opened = store.open_conflicts()
    assert opened, "two paths for one token must conflict"

    def launch(dry_run: bool):
        return conflict_policy.execute_in_process(
            resources={"factstore": resources["factstore"]},
            run_config={"ops": {"apply_conflict_policy": {"config": {
                "policy": "newer-wins", "params": {"kind": "REFERENCE"}, "dry_run": dry_run}}}})

    # Three paths, each contradicting the others: one contradiction group, one decision.
    groups = {c.group_id for c in opened}
    assert len(opened) == 3 and len(groups) == 1
    dry = launch(True).output_for_node("apply_conflict_policy")
    assert dry["decided"] == len(groups) and dry["applied"] == 0
    with resources["factstore"].store() as store:
        assert len(store.open_conflicts()) == len(opened)
    applied = launch(False).output_for_node("apply_conflict_policy")
    assert applied["applied"] == len(groups)
    newest = max({f.id: f for c in opened for f in (c.fact_a, c.fact_b)}.values(),
                 key=lambda f: f.t_said)
    with resources["factstore"].store() as store:
        assert not store.open_conflicts()
        for conflict in opened:
            closed = store.conflict(conflict.id)
            assert "policy newer-wins kind=REFERENCE: " in closed.reasoning
            if newest.id in (conflict.fact_a.id, conflict.fact_b.id):
                assert closed.winner == newest.id
            else:  # both sides lost to the group's newest
                assert (closed.winner, closed.settled_by) == (None, newest.id)


def test_documents_landed_without_extraction_are_extracted_by_the_batch_asset(archives,
                                                                             resources):
    from pipelines.archives import extracted_documents

    folder, _ = archives
    landing = {**resources, "archive_source": ArchiveSource(folder=str(folder), **MAPPING,
                                                            extract=False)}
    instance = DagsterInstance.ephemeral()
    meta = _migrate(["chat.jsonl"], landing, instance)["chat.jsonl"]
    assert (meta["documents_landed"], meta["facts_written"]) == (24, 0)

    def extract() -> dict:
        result = materialize([extracted_documents], resources=resources, instance=instance)
        (event,) = result.asset_materializations_for_node("extracted_documents")
        return {k: v.value for k, v in event.metadata.items()}

    first = extract()
    assert first["documents_extracted"] == 24 and first["facts_written"] > 0
    assert first["extractor"] == "parser/v1"  # the resource's default scribe
    with resources["factstore"].store() as store:
        assert {f.extracted_by for f in store.facts_by_verdict(limit=1000)} == {"parser/v1"}
    assert extract()["documents_extracted"] == 0


def test_a_threshold_sweep_is_one_launch_with_one_run_per_value(resources, tmp_path):
    from pipelines.evals import threshold_sweep

    dataset = str(_small_datasets(tmp_path)["conflict-precision"])
    result = threshold_sweep.execute_in_process(
        resources={"factstore": resources["factstore"]},
        run_config={"ops": {"sweep_eval": {"config": {
            "eval": "conflict-precision", "setting": "density_threshold",
            "values": [0.3, 0.8], "dataset": dataset}}}})
    rows = result.output_for_node("sweep_eval")
    assert [r["density_threshold"] for r in rows] == [0.3, 0.8]
    assert len({r["run_id"] for r in rows}) == 2
    # the same regression the gate catches shows in the sweep: a lower threshold, less precise
    assert rows[0]["precision"] < rows[1]["precision"]
    with pytest.raises(Exception, match="no eval named"):
        threshold_sweep.execute_in_process(
            resources={"factstore": resources["factstore"]},
            run_config={"ops": {"sweep_eval": {"config": {
                "eval": "nope", "setting": "density_threshold", "values": [0.8]}}}})


def test_a_regeneration_run_reads_again_with_the_configured_extractor(archives, resources):
    from pipelines.archives import extracted_documents

    folder, _ = archives
    instance = DagsterInstance.ephemeral()
    _migrate(["chat.jsonl"], resources, instance)  # extracted by rules/v1 on the way in

    def extract(regenerate: bool) -> dict:
        result = materialize([extracted_documents], resources=resources, instance=instance,
                             run_config={"ops": {"extracted_documents": {
                                 "config": {"regenerate": regenerate}}}})
        (event,) = result.asset_materializations_for_node("extracted_documents")
        return {k: v.value for k, v in event.metadata.items()}

    assert extract(False)["documents_extracted"] == 0
    # the same extractor has read every document already: nothing to regenerate
    assert extract(True)["documents_extracted"] == 0
