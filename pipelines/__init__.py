"""factstore's batch jobs as Dagster definitions (``pipelines.definitions.defs``)."""
