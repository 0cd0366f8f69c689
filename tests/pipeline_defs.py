"""Definitions for the pipeline tests' subprocess runs, configured by environment.

``PIPELINE_TEST_DSN``, ``PIPELINE_TEST_DATABASE`` and ``PIPELINE_TEST_ARCHIVES`` point the
resources at the test's server, database and archive folder; the definitions are the real
ones (``pipelines.definitions.defs``) with these resources bound instead of the live ones.
"""

from __future__ import annotations

import os

from dagster import Definitions, multiprocess_executor

from pipelines.archives import ArchiveSource, migrated_archive, migration_job
from pipelines.resources import FactStoreResource

defs = Definitions(
    assets=[migrated_archive],
    jobs=[migration_job],
    executor=multiprocess_executor.configured({"max_concurrent": 2}),
    resources={
        "factstore": FactStoreResource.live(dsn=os.environ.get("PIPELINE_TEST_DSN"),
                                            database=os.environ.get("PIPELINE_TEST_DATABASE"),
                                            # these runs test processes, not extraction: the
                                            # rule scribe spares each step a spaCy import
                                            extractor="rules"),
        "archive_source": ArchiveSource(folder=os.environ.get("PIPELINE_TEST_ARCHIVES", "."),
                                        text="body", said_at="created", lineage="doc",
                                        captured_by="who", batch_size=8),
    },
)
