"""Archive migration: each archive under the configured folder is a dynamic partition.

The sensor adds a partition for each new file or subfolder and asks for its run; the
``migrated_archive`` asset migrates one partition through ``factstore.migration`` (the same
code ``factstore migrate`` runs). A row that cannot be migrated is listed in the
materialization's metadata and in ``<rejects>/<run id>/<archive>.rejects.jsonl``.
Re-materializing a partition writes nothing new; a run killed part way is resumed by
materializing the partition again.
"""

import os
import time
from pathlib import Path

from dagster import (
    AssetExecutionContext,
    Config,
    ConfigurableResource,
    DynamicPartitionsDefinition,
    MaterializeResult,
    MetadataValue,
    RunRequest,
    SensorEvaluationContext,
    SensorResult,
    asset,
    define_asset_job,
    sensor,
)
from pydantic import Field

from factstore.migration import ColumnMap, MigrationReport, discover_archives, migrate_archive
from factstore.migration.run import summarise
from pipelines.resources import FactStoreResource

archives_partitions = DynamicPartitionsDefinition(name="archives")


class ArchiveSource(ConfigurableResource):
    """Where the archives are, how their columns map, and where rejects go."""

    folder: str = Field(default_factory=lambda: os.environ.get(
        "FACTSTORE_ARCHIVES", str(Path(".factstore") / "archives")),
        description="the folder whose files and subfolders are the archives "
                    "(default $FACTSTORE_ARCHIVES or .factstore/archives)")
    rejects: str | None = Field(default=None, description="where rejects files go (default "
                                "<folder>/_rejects; a folder per run)")
    text: str | None = None
    source_ref: str | None = None
    said_at: str | None = None
    captured_by: str | None = None
    lineage: str | None = None
    source_type: str | None = None
    timezone: str | None = Field(default=None, description="the zone for timestamps "
                                 "without an offset (else such rows are rejected)")
    batch_size: int = Field(default=64, description="captures embedded per batch")
    extract: bool = Field(default=True, description="extract while migrating; False lands "
                          "the documents only, for the extracted_documents asset")

    def column_map(self) -> ColumnMap:
        return ColumnMap(text=self.text, source_ref=self.source_ref, said_at=self.said_at,
                         captured_by=self.captured_by, lineage=self.lineage,
                         source_type=self.source_type, timezone=self.timezone)

    def rejects_for(self, run_id: str) -> Path:
        root = Path(self.rejects) if self.rejects else Path(self.folder) / "_rejects"
        return root / run_id

    def names(self) -> list[str]:
        return discover_archives(self.folder)


def report_metadata(report: MigrationReport) -> dict[str, object]:
    """The materialization metadata of one archive's migration."""
    metadata: dict[str, object] = {
        "format": report.format,
        "rows": report.rows,
        "documents_landed": report.documents_landed,
        "documents_skipped": report.documents_skipped,
        "facts_written": report.facts_written,
        "facts_unchanged": report.facts_unchanged,
        "conflicts_raised": report.conflicts_raised,
        "facts_dropped": sum(report.dropped.values()),
        "dropped_by_reason": MetadataValue.json(dict(report.dropped)),
        "rows_rejected": len(report.rejects),
        "rows_per_second": MetadataValue.float(round(report.rows_per_second, 1)),
        "seconds": MetadataValue.float(report.seconds),
    }
    if report.rejects:
        metadata["rejects"] = MetadataValue.md("\n".join(
            ["| file | line | reason |", "| --- | --- | --- |"]
            + [f"| {r.file} | {r.line if r.line is not None else ''} | "
               f"{r.reason.replace('|', '/')} |" for r in report.rejects[:50]]
            + ([f"| … | | {len(report.rejects) - 50} more in the rejects file |"]
               if len(report.rejects) > 50 else [])))
        metadata["rejects_file"] = MetadataValue.path(report.rejects_file or "")
    return metadata


@asset(partitions_def=archives_partitions, group_name="migration",
       description="One archive migrated into the store (documents, facts, conflicts).")
def migrated_archive(context: AssetExecutionContext, factstore: FactStoreResource,
                     archive_source: ArchiveSource) -> MaterializeResult:
    name = context.partition_key
    path = Path(archive_source.folder) / name
    with factstore.store() as store:
        report = migrate_archive(store, path, archive_source.column_map(), name=name,
                                 rejects_dir=archive_source.rejects_for(context.run.run_id),
                                 batch_size=archive_source.batch_size,
                                 extract=archive_source.extract)
    if report.rejects:
        context.log.warning(f"{name}: {len(report.rejects)} row(s) rejected, listed in "
                            f"{report.rejects_file}")
    return MaterializeResult(metadata=report_metadata(report))


class ExtractionConfig(Config):
    regenerate: bool = Field(default=False, description="also read every document this "
                             "extractor has not read yet: a new generation of facts beside "
                             "the first, never new support")


@asset(group_name="migration", deps=[migrated_archive],
       description="Documents that landed without extraction, extracted through the write "
                   "path; each fact records the extractor (name and version) that wrote it.")
def extracted_documents(context: AssetExecutionContext, config: ExtractionConfig,
                        factstore: FactStoreResource) -> MaterializeResult:
    started = time.perf_counter()
    with factstore.store() as store:
        results = store.extract_documents(limit=1_000_000, regenerate=config.regenerate)
        extractor = store.extractor.name
    summary = summarise(results, extracted=True)
    seconds = time.perf_counter() - started
    context.log.info(f"extracted {len(results)} document(s) with {extractor}")
    return MaterializeResult(metadata={
        "extractor": extractor, "regenerate": config.regenerate,
        "documents_extracted": len(results),
        "facts_written": summary["facts_written"],
        "conflicts_raised": summary["conflicts_raised"],
        "facts_dropped": sum(summary["dropped"].values()),
        "dropped_by_reason": MetadataValue.json(summary["dropped"]),
        "documents_per_second": MetadataValue.float(round(len(results) / seconds, 1))})


migration_job = define_asset_job("migrate_archives", selection=[migrated_archive],
                                 description="Migrate archives (one run per partition).")


@sensor(job=migration_job, minimum_interval_seconds=60,
        description="Adds a partition for each new archive and asks for its migration.")
def new_archives_sensor(context: SensorEvaluationContext,
                        archive_source: ArchiveSource) -> SensorResult:
    known = set(context.instance.get_dynamic_partitions(archives_partitions.name))
    new = [n for n in archive_source.names() if n not in known]
    return SensorResult(
        run_requests=[RunRequest(partition_key=n, run_key=f"archive:{n}") for n in new],
        dynamic_partitions_requests=[archives_partitions.build_add_request(new)] if new else [])
