"""The Dagster definitions: ``dagster dev -m pipelines.definitions`` (``make pipelines``).

Every asset calls ``factstore.Store`` methods through ``FactStoreResource``; nothing here
talks to Postgres. The live resources read the environment: ``FACTSTORE_HOME`` or
``FACTSTORE_DSN`` for the store, ``FACTSTORE_ARCHIVES`` for the archive folder.
"""

from __future__ import annotations

import os

from dagster import Definitions, multiprocess_executor

from pipelines.archives import (
    ArchiveSource,
    extracted_documents,
    migrated_archive,
    migration_job,
    new_archives_sensor,
)
from pipelines.evals import EVAL_ASSETS, eval_job, nightly_evals, threshold_sweep
from pipelines.policies import conflict_policy
from pipelines.resources import FactStoreResource
from pipelines.review import density_report, entity_profiles, queue_summary


def live_resources() -> dict[str, object]:
    """The live configuration, from the environment."""
    return {"factstore": FactStoreResource.live(os.environ.get("FACTSTORE_HOME"),
                                                dsn=os.environ.get("FACTSTORE_DSN") or None),
            "archive_source": ArchiveSource()}


defs = Definitions(
    assets=[migrated_archive, extracted_documents, density_report, queue_summary, entity_profiles,
            *EVAL_ASSETS],
    jobs=[migration_job, eval_job, threshold_sweep, conflict_policy],
    schedules=[nightly_evals],
    sensors=[new_archives_sensor],
    resources=live_resources(),
    # Partitions and eval suites run in processes of their own, two at a time (2 cores here).
    executor=multiprocess_executor.configured({"max_concurrent": 2}),
)
