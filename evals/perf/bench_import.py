"""Benchmark set-based ``import_facts`` and its HNSW drop-and-rebuild crossover.

Run from the project root::

    .venv/bin/python evals/perf/bench_import.py --quick   # a 6k-fact sweep only (about a minute)
    .venv/bin/python evals/perf/bench_import.py           # a 20k sweep, then a 1,000,000-fact store
    .venv/bin/python evals/perf/bench_import.py --total 300000 --big-loads 30000:kept --keep
    .venv/bin/python evals/perf/bench_import.py --skip-sweep --reuse-big --big-loads 100000:rebuilt

Every import supplies its vectors (random 384-d unit vectors, ``embeddings=``), so no model
runs and the figures are the store's own. Each load is one ``import_facts`` call whose
``chunk_size`` is the load, so the crossover rule (store/index_plan.py) sees the load whole,
and is timed on each path from an identical copy of the same store
(``server.copy_database``):

* **kept**: the HNSW indexes stay and every row is inserted into them one by one
  (``import_rebuild_min_rows`` set past any load);
* **rebuilt**: each HNSW index the load touches is dropped, the rows loaded, the index built
  again, in the load's transaction (``import_rebuild_fraction`` 0: whatever the ratio).

For each it reports facts/s end to end (the whole call: validation, redaction, the load,
index maintenance) and facts/s for the table load alone (``Store.last_import.load_seconds``:
the chunk's transaction without the index builds; on the rebuilt path that is the load with
no HNSW work at all, on the kept path it includes the HNSW inserts).

a. the sweep: loads of several sizes N into a store of M facts (M = 20,000; 6,000 with
   --quick), both paths, so the crossover ratio N/M can be read off;
b. the big store (full runs only): M = 1,000,000 facts built with one ``import_facts`` call
   (timed: the big-load case, every index built once at the end), then loads of 10,000
   (kept) and 100,000 (kept and rebuilt) into copies of it (``--big-loads``).

It prints a table and writes evals/perf/results/bench_import.json (bench_import_quick.json
with --quick). It is not a test: nothing is asserted; docs/performance.md ("Bulk import
(set-based)") explains the figures. It goes through Store methods only, plus the server
helpers that create, copy and drop its throwaway databases (named bench_import_*, dropped
at the end unless --keep). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from factstore import Settings, Store
from factstore.backfill import FactRecord
from factstore.kinds import Kind
from factstore.store import server

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "evals" / "perf" / "results" / "bench_import.json"
QUICK_RESULTS = RESULTS.with_name("bench_import_quick.json")
KINDS: tuple[Kind, ...] = tuple(Kind)
DIM = 384
#: the two paths, as settings: never rebuild, and always rebuild what the load touches
PATHS: dict[str, Settings] = {
    "kept": Settings(import_rebuild_min_rows=10**9),
    "rebuilt": Settings(import_rebuild_fraction=0.0, import_rebuild_min_rows=1),
}
SERVICES = ("billing-api", "auth-gateway", "search-indexer", "payments-worker", "notifier",
            "ledger-db", "ingest-pipeline", "report-builder", "profile-api", "cache-warmer")


class SuppliedVectors:
    """The embedder a store is opened with. Every import here supplies its vectors, so it
    is never asked to embed; it only names the store's vectors (384-d)."""

    name = "bench/supplied-vectors"
    dim = DIM

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise RuntimeError("bench_import supplies every vector; nothing should be embedded")


#: (clock, 1-minute load average, message): the machine is shared, so the results carry the
#: load they were measured under
TIMELINE: list[tuple[str, float, str]] = []


def say(message: str) -> None:
    clock = time.strftime("%H:%M:%S")
    TIMELINE.append((clock, round(os.getloadavg()[0], 2), message))
    print(f"[{clock}] {message}", file=sys.stderr, flush=True)


# -- the load -----------------------------------------------------------------------------------

@dataclass
class Load:
    records: list[FactRecord]
    vectors: np.ndarray


def make_load(n: int, tag: str, seed: int) -> Load:
    """n facts of all seven kinds (90% active, 5% parked, 5% withdrawn); three in a row
    share one quote and one source, so documents are a third of the facts, as in a capture
    that yielded three facts."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, DIM), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    kinds = rng.integers(0, len(KINDS), size=n)
    verdicts = rng.choice(np.array(["active", "parked", "withdrawn"]), size=n,
                          p=(0.90, 0.05, 0.05))
    at = datetime(2026, 1, 1, tzinfo=UTC)
    records = []
    for i in range(n):
        group = i // 3
        service = SERVICES[group % len(SERVICES)]
        records.append(FactRecord(
            statement=f"{service} item {tag}-{i} is served from pool {i % 97} in region "
                      f"{i % 5}.",
            kind=KINDS[kinds[i]].value,
            quote=f"{service} notes {tag}-{group}: items {3 * group}-{3 * group + 2} moved to "
                  f"pools {group % 97} and on; region {group % 5} owns them.",
            source_type="capture", source_ref=f"bench/import/{tag}/{group}",
            captured_at=at + timedelta(seconds=i), verdict=str(verdicts[i]),
            meta={"bench": "import", "i": i}))
    return Load(records, vectors)


# -- stores ------------------------------------------------------------------------------------

@dataclass
class Bench:
    admin_dsn: str
    keep: bool
    prefix: str

    def name(self, label: str) -> str:
        return f"{self.prefix}_{label}"

    @contextmanager
    def store(self, label: str, settings: Settings | None = None,
              fresh: bool = True) -> Iterator[Store]:
        """A store on database <prefix>_<label> (made empty first unless ``fresh`` is
        False); closed afterwards, so the database can be copied."""
        name = self.name(label)
        if fresh:
            server.drop_database(self.admin_dsn, name)
            server.ensure_database(self.admin_dsn, name)
        store = Store.open(server.with_database(self.admin_dsn, name),
                           embedder=SuppliedVectors(), settings=settings or Settings())
        try:
            yield store
        finally:
            store.close()

    def copy(self, source: str, target: str) -> None:
        started = time.perf_counter()
        server.copy_database(self.admin_dsn, self.name(source), self.name(target))
        say(f"  copied {source} to {target} in {time.perf_counter() - started:.1f}s")

    def drop(self, label: str) -> None:
        if not self.keep:
            server.drop_database(self.admin_dsn, self.name(label))


def timed_import(store: Store, load: Load) -> dict[str, Any]:
    """One import_facts call of the whole load, with what the store reports it did."""
    before = store.row_counts()
    load_avg = os.getloadavg()[0]
    cpu = os.times()
    started = time.perf_counter()
    ids = store.import_facts(load.records, embeddings=load.vectors,
                             chunk_size=max(len(load.records), 1))
    seconds = time.perf_counter() - started
    cpu_after = os.times()
    report = store.last_import
    assert report is not None and len(ids) == len(load.records)
    n = len(load.records)
    return {
        "facts": n, "table_facts_before": before["facts"],
        "table_documents_before": before["documents"],
        "ratio": round(n / before["facts"], 4) if before["facts"] else None,
        "seconds": round(seconds, 2), "facts_per_s": round(n / seconds, 1),
        "load_seconds": round(report.load_seconds, 2),
        "load_facts_per_s": round(n / report.load_seconds, 1),
        "build_seconds": round(report.build_seconds, 2),
        # validation, redaction and the list handling before the first chunk
        "prepare_seconds": round(seconds - report.load_seconds - report.build_seconds, 2),
        "documents_written": report.documents, "rebuilt": sorted(report.rebuilt),
        "client_cpu_seconds": round(cpu_after.user + cpu_after.system - cpu.user - cpu.system,
                                    2),
        "loadavg_before": round(load_avg, 2), "loadavg_after": round(os.getloadavg()[0], 2),
    }


def build_base(bench: Bench, label: str, size: int, seed: int) -> dict[str, Any]:
    """A store of ``size`` facts, built with one import_facts call (the rule rebuilds: the
    table is empty, so every index is built once, at the end)."""
    say(f"building {label}: {size:,} facts in one import_facts call")
    load = make_load(size, label, seed)
    with bench.store(label) as store:
        result = timed_import(store, load)
        store.analyze_tables()
        result["storage_bytes"] = dict(store.storage_stats().relation_bytes)
    say(f"  {result['facts_per_s']:,.0f} facts/s end to end, table load alone "
        f"{result['load_facts_per_s']:,.0f} facts/s, builds {result['build_seconds']:.0f}s")
    return result


def existing_facts(bench: Bench, label: str) -> int | None:
    """How many facts a database left by an earlier --keep run holds (None: no such store)."""
    try:
        with bench.store(label, fresh=False) as store:
            return store.row_counts()["facts"]
    except Exception:  # noqa: BLE001 - no such database, or not a store: build it
        return None


def both_paths(bench: Bench, base: str, n: int, seed: int,
               paths: Sequence[str] = ("kept", "rebuilt")) -> dict[str, Any]:
    """Load n new facts into copies of the base store, once per path."""
    load = make_load(n, f"load{n}", seed)
    out: dict[str, Any] = {}
    for path in paths:
        label = f"{base}_{path}"
        bench.copy(base, label)
        with bench.store(label, PATHS[path], fresh=False) as store:
            say(f"  {n:,} into {base}, {path}")
            out[path] = result = timed_import(store, load)
            if path == "rebuilt":
                whole = store.hnsw_indexes()
                result["indexes_whole"] = all(whole.values()) and len(whole) == 8
        bench.drop(label)
        say(f"    {result['facts_per_s']:,.0f} facts/s end to end"
            + (f", table load alone {result['load_facts_per_s']:,.0f} facts/s, builds "
               f"{result['build_seconds']:.1f}s" if path == "rebuilt" else ""))
    return out


def crossover(points: list[dict[str, Any]]) -> dict[str, Any]:
    """The ratio N/M where rebuilding starts to win, from the measured points.

    Per point, the index work of each path: kept = its time minus the rebuilt path's table
    load (what the HNSW inserts added), rebuilt = its build time; per index row, kept costs
    ``insert`` per loaded row and rebuilt ``build`` per row of the new index (M + N), so the
    rebuild wins when N / M > build / (insert - build). Also the first measured ratio at
    which the rebuilt path was faster end to end.
    """
    estimates = []
    for point in points:
        kept, rebuilt = point["kept"], point["rebuilt"]
        n, m = kept["facts"], kept["table_facts_before"]
        insert = (kept["seconds"] - rebuilt["seconds"] + rebuilt["build_seconds"]) / n
        build = rebuilt["build_seconds"] / (n + m)
        point["insert_ms_per_fact"] = round(1000 * insert, 3)
        point["build_ms_per_fact"] = round(1000 * build, 3)
        point["rebuilt_faster"] = rebuilt["seconds"] < kept["seconds"]
        if insert > build > 0:
            estimates.append(build / (insert - build))
    wins = [p["kept"]["ratio"] for p in points if p["rebuilt_faster"]]
    return {"break_even_ratio_estimates": [round(e, 3) for e in estimates],
            "break_even_ratio_median": round(float(np.median(estimates)), 3) if estimates
            else None,
            "smallest_measured_ratio_where_rebuilt_won": min(wins) if wins else None}


# -- main --------------------------------------------------------------------------------------

@dataclass
class Plan:
    sweep_size: int
    sweep_loads: tuple[int, ...]
    total: int | None
    big_loads: tuple[tuple[int, tuple[str, ...]], ...]


def parse_big_loads(text: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """'10000:kept,100000:kept+rebuilt' -> ((10000, ('kept',)), (100000, ('kept', 'rebuilt')))."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        size, _, paths = part.partition(":")
        chosen = tuple(paths.split("+")) if paths else tuple(PATHS)
        if not size.isdigit() or not set(chosen) <= set(PATHS):
            raise SystemExit(f"--big-loads: {part!r} is not SIZE[:kept|rebuilt|kept+rebuilt]")
        out.append((int(size), chosen))
    return tuple(out)


def plan_for(args: argparse.Namespace) -> Plan:
    if args.quick:
        return Plan(6_000, (600, 3_000, 6_000), None, ())
    total = args.total if args.total is not None else 1_000_000
    return Plan(20_000, (2_000, 5_000, 10_000, 20_000), total or None,
                parse_big_loads(args.big_loads))


def print_table(results: dict[str, Any]) -> None:
    rows = []
    for name, part in (("sweep", results.get("sweep")), ("big", results.get("big"))):
        if not part:
            continue
        base = part["base"]
        if not base.get("reused"):
            rows.append((f"{name}: build {base['facts']:,} (empty store)", base["facts_per_s"],
                         base["load_facts_per_s"], base["build_seconds"]))
        for point in part["loads"]:
            for path in ("kept", "rebuilt"):
                if path in point:
                    r = point[path]
                    rows.append((f"{name}: {r['facts']:,} into {r['table_facts_before']:,}, "
                                 f"{path}", r["facts_per_s"], r["load_facts_per_s"],
                                 r["build_seconds"]))
    # "table load": the transaction without index builds (kept: HNSW inserts included)
    print(f"{'load':<48} {'facts/s':>10} {'table load':>11} {'build s':>8}")
    for label, rate, table, build in rows:
        print(f"{label:<48} {rate:>10,.0f} {'' if table is None else f'{table:,.0f}':>11} "
              f"{build:>8.1f}")
    if "sweep" in results:
        print(f"crossover: {results['sweep']['crossover']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a 10,000-fact sweep only (under a minute)")
    parser.add_argument("--total", type=int, help="facts in the big store (default "
                                                  "1,000,000; 0 skips part b)")
    parser.add_argument("--home", help="FACTSTORE_HOME for the benchmark's embedded server "
                                       "(default .factstore/bench)")
    parser.add_argument("--big-loads", default="10000:kept,100000:kept+rebuilt",
                        help="loads into the big store and their paths (default %(default)s)")
    parser.add_argument("--skip-sweep", action="store_true", help="only part b")
    parser.add_argument("--reuse-big", action="store_true",
                        help="use the big store a --keep run left (bench_import_big), if it "
                             "holds --total facts, instead of building it again")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway databases")
    parser.add_argument("--out", help=f"where to write the JSON (default {RESULTS.name}, or "
                                      f"{QUICK_RESULTS.name} with --quick)")
    args = parser.parse_args(argv)
    plan = plan_for(args)
    started = time.perf_counter()
    home = server.factstore_home(args.home or ROOT / ".factstore" / "bench")
    say(f"embedded Postgres under {home}")
    load_start = os.getloadavg()
    if load_start[0] > 1.0:
        say(f"warning: load average {load_start[0]:.2f} before starting; on a 2-core machine "
            "other work slows every figure here")
    # fixed names (not per process), so --reuse-big finds what a --keep run left
    bench = Bench(server.embedded_admin_dsn(home), args.keep, "bench_import")
    results: dict[str, Any] = {
        "benchmark": "evals/perf/bench_import.py",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "command": " ".join([".venv/bin/python", "evals/perf/bench_import.py", *sys.argv[1:]]),
        "quick": args.quick,
        "plan": {"sweep_size": plan.sweep_size, "sweep_loads": list(plan.sweep_loads),
                 "total": plan.total, "big_loads": [[n, list(p)] for n, p in plan.big_loads]},
        "defaults": {k: v for k, v in Settings().as_dict().items()
                     if k.startswith("import_rebuild")},
    }
    out = Path(args.out) if args.out else (QUICK_RESULTS if args.quick else RESULTS)
    previous = json.loads(out.read_text()) if out.exists() else {}

    def save() -> None:
        """Write what is measured so far: a run killed part way keeps its figures."""
        results["seconds"] = round(time.perf_counter() - started, 1)
        results["timeline"] = TIMELINE
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=2) + "\n")

    try:
        if not args.skip_sweep:
            sweep = {"base": build_base(bench, "sweep", plan.sweep_size, 1)}
            sweep["loads"] = []
            for i, n in enumerate(plan.sweep_loads):
                say(f"sweep: {n:,} into {plan.sweep_size:,} (N/M {n / plan.sweep_size:.2f})")
                sweep["loads"].append(both_paths(bench, "sweep", n, 100 + i))
                results["sweep"] = sweep
                save()
            sweep["crossover"] = crossover(sweep["loads"])
            save()
            bench.drop("sweep")
        if plan.total:
            big: dict[str, Any] = {"loads": []}
            results["big"] = big
            if args.reuse_big and existing_facts(bench, "big") == plan.total:
                say(f"reusing the big store ({plan.total:,} facts)")
                # the figures of the run that built it, when this file holds them
                built = (previous.get("big") or {}).get("base") or {}
                big["base"] = {**built, "reused": True, "facts": plan.total}
            else:
                big["base"] = build_base(bench, "big", plan.total, 2)
            save()
            for i, (n, paths) in enumerate(plan.big_loads):
                say(f"big: {n:,} into {plan.total:,}")
                big["loads"].append(both_paths(bench, "big", n, 200 + i, paths))
                save()
            bench.drop("big")
    finally:
        with bench.store("describe") as store:
            shape = store.describe()
        bench.drop("describe")
        results["machine"] = {
            "cpus": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "postgres": shape.server_version,
            "pgvector": shape.pgvector_version,
            "loadavg_start": [round(x, 2) for x in load_start],
            "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        }
        save()
        say(f"wrote {out} ({results['seconds']:.0f}s in all)")
    print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
