"""Benchmark the archive migration through the Dagster asset, on real archives.

Run from the project root (the archives are not in the repository)::

    .venv/bin/python evals/perf/bench_migrate.py \
        --archive ../shared/datasets/locomo --archive ../shared/datasets/qmsum/val

Each archive is one partition of ``migrated_archive``, materialized in-process with the live
resource (embedded server, local MiniLM, rule extractor) into a fresh database. Then the
same texts and the statements the rule extractor finds in them are embedded alone, in the
same batches (heads, then statements, per batch, as ``remember_many`` embeds them), so the
ratio migration / embedding-alone is the share of the embedding-bound ceiling the pipeline
reaches (target >= 0.8). Writes evals/perf/results/bench_migrate.json; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from dagster import DagsterInstance, materialize  # noqa: E402

from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.extractors.base import ExtractionContext  # noqa: E402
from factstore.extractors.rules import RuleExtractor  # noqa: E402
from factstore.migration import ColumnMap, read_archive  # noqa: E402
from factstore.store import server  # noqa: E402
from pipelines.archives import ArchiveSource, migrated_archive  # noqa: E402
from pipelines.resources import FactStoreResource  # noqa: E402

RESULTS = ROOT / "evals" / "perf" / "results" / "bench_migrate.json"


def embedding_only(captures: list[dict], batch_size: int) -> float:
    """Seconds to embed what remember_many embeds, batch by batch."""
    embedder, extractor = LocalEmbedder(), RuleExtractor()
    statements = [[f.statement for f in extractor.extract(
        c["text"], ExtractionContext(c["source_type"], c["source_ref"], None, None))]
        for c in captures]
    started = time.perf_counter()
    for start in range(0, len(captures), batch_size):
        embedder.embed([c["text"][:16_000] for c in captures[start:start + batch_size]])
        batch = [s for ss in statements[start:start + batch_size] for s in ss]
        if batch:
            embedder.embed(batch)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archive", action="append", type=Path, required=True,
                        help="an archive file or folder (repeat for several)")
    parser.add_argument("--home", default="/tmp/factstore-bench-migrate")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args(argv)
    admin = server.embedded_admin_dsn(server.factstore_home(args.home))
    LocalEmbedder().embed([f"warm-up sentence {i}." for i in range(256)])
    rows = []
    for archive in args.archive:
        folder = Path(tempfile.mkdtemp(prefix="bench-migrate-"))
        name = archive.name if archive.name != "val" else archive.parent.name
        (folder / name).symlink_to(archive.resolve(), target_is_directory=archive.is_dir())
        database = "bench_migrate_" + "".join(ch for ch in name.lower() if ch.isalnum())
        server.drop_database(admin, database)
        resources = {"factstore": FactStoreResource.live(args.home, database=database),
                     "archive_source": ArchiveSource(folder=str(folder),
                                                     batch_size=args.batch_size)}
        instance = DagsterInstance.ephemeral()
        instance.add_dynamic_partitions("archives", [name])
        started = time.perf_counter()
        result = materialize([migrated_archive], partition_key=name, resources=resources,
                             instance=instance)
        wall = time.perf_counter() - started
        (event,) = result.asset_materializations_for_node("migrated_archive")
        meta = {k: v.value for k, v in event.metadata.items()
                if isinstance(v.value, int | float | str)}
        captures = read_archive(folder / name, ColumnMap()).captures
        embed_s = embedding_only(captures, args.batch_size)
        row = {"archive": str(archive), "format": meta["format"], "rows": meta["rows"],
               "documents_landed": meta["documents_landed"],
               "facts_written": meta["facts_written"],
               "conflicts_raised": meta["conflicts_raised"],
               "rows_rejected": meta["rows_rejected"], "seconds": round(wall, 1),
               "documents_per_s": round(meta["documents_landed"] / wall, 1),
               "facts_per_s": round(meta["facts_written"] / wall, 1),
               "embedding_only_per_s": round(len(captures) / embed_s, 1),
               "migration_over_embedding": round(embed_s / wall, 2)}
        print(json.dumps(row))
        rows.append(row)
        server.drop_database(admin, database)
        shutil.rmtree(folder)
    RESULTS.write_text(json.dumps({"batch_size": args.batch_size, "archives": rows},
                                  indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
