"""What scopes and sealing cost: recall as the owner and through narrowed credentials
(row-level security, the HNSW iterative scan), and a timeline read, plain and sealed.

Run from the project root::

    .venv/bin/python evals/perf/bench_scopes.py                 # 6,000 facts
    .venv/bin/python evals/perf/bench_scopes.py --facts 20000 --home /tmp/bs

A throwaway database on the embedded server under ``--home`` gets ``--facts`` facts by
``import_facts`` (the bench_store sentences, embedded by the local model), split across three
scopes: the owner's own (49%), ``acme/user-nick`` (50%) and ``acme/user-bob`` (1%). Then
``recall`` (k = 10) is timed for 100 questions as the owner (no row-level security), as nick
(half the rows are his) and as bob (one row in a hundred is his), each pass run twice and
the second reported; the query vectors are embedded once up front, so the figures are
recall's own. Finally a 60-fact timeline is read with ``facts()`` 200 times in a plain scope
and in a sealed one (every value opened). Nothing is asserted; docs/performance.md
explains the figures. Results go to evals/perf/results/bench_scopes.json.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import ROOT, make_sentences, say, summary  # noqa: E402

from factstore import Store  # noqa: E402
from factstore.backfill import FactRecord  # noqa: E402
from factstore.embedders.local import LocalEmbedder  # noqa: E402
from factstore.principals import Principal  # noqa: E402
from factstore.store import server  # noqa: E402

DATABASE = "bench_scopes"
QUESTIONS = 100


class FixedEmbedder:
    """The local model's name and size, answering the questions' vectors from a table (so
    a timed recall carries no model time)."""

    def __init__(self, model: LocalEmbedder, table: dict[str, np.ndarray]) -> None:
        self.name, self.dim, self._model, self.table = model.name, model.dim, model, table

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in texts if t not in self.table]
        if missing:
            for text, vector in zip(missing, self._model.embed(missing), strict=True):
                self.table[text] = vector
        return np.stack([self.table[t] for t in texts])


def _records(sentences: list[tuple[Any, str]], start: int, stop: int) -> list[FactRecord]:
    return [FactRecord(statement=s, kind=k.value, quote=s.rstrip("."),
                       source_ref=f"bench:{i}") for i, (k, s) in
            enumerate(sentences[start:stop], start)]


def _time(call: Any, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=6000)
    parser.add_argument("--home", default="/tmp/factstore-bench-scopes")
    parser.add_argument("--out", default=str(ROOT / "evals" / "perf" / "results" /
                                             "bench_scopes.json"))
    args = parser.parse_args(argv)
    os.environ.setdefault("FACTSTORE_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    admin = server.embedded_admin_dsn(server.factstore_home(args.home))
    server.drop_database(admin, DATABASE)
    server.ensure_database(admin, DATABASE)
    model = LocalEmbedder()
    sentences = make_sentences(args.facts, seed=7)
    questions = [s for _, s in sentences[:QUESTIONS]]
    table = dict(zip(questions, model.embed(questions), strict=True))
    store = Store.open(server.with_database(admin, DATABASE),
                       embedder=FixedEmbedder(model, table))
    try:
        result = _run(store, sentences, questions, args.facts)
    finally:
        store.close()
        server.drop_database(admin, DATABASE)
    result["facts"] = args.facts
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    say(json.dumps(result, indent=2))


def _run(store: Store, sentences: list[tuple[Any, str]], questions: list[str],
         size: int) -> dict[str, Any]:
    half, most = size // 2, size - size // 100
    loaders = {"owner": store,
               "nick": store.as_principal(Principal("nick", "acme", (), owner=True)),
               "bob": store.as_principal(Principal("bob", "acme", (), owner=True))}
    started = time.perf_counter()
    loaders["nick"].import_facts(_records(sentences, 0, half), chunk_size=size)
    loaders["owner"].import_facts(_records(sentences, half, most), chunk_size=size)
    loaders["bob"].import_facts(_records(sentences, most, size), chunk_size=size)
    say(f"loaded {size:,} facts in {time.perf_counter() - started:.1f} s")
    store.analyze_tables()
    views = {"owner (no row-level security)": store,
             "nick (50% of rows)": store.as_principal(
                 store.create_token("nick", workspace="acme").principal),
             "bob (1% of rows)": store.as_principal(
                 store.create_token("bob", workspace="acme").principal)}
    recall: dict[str, Any] = {}
    for label, view in views.items():
        for _ in range(2):  # the second pass is reported
            times = [t for q in questions
                     for t in _time(lambda q=q, v=view: v.recall(q, k=10), 1)]
        recall[label] = summary(times)
        say(f"recall as {label}: {recall[label]}")
    timeline = {}
    for label, scope_owner in (("plain", "ann"), ("sealed", "cy")):
        view = store.as_principal(store.create_token(scope_owner, workspace="acme").principal)
        view.write_facts({"format": 1, "facts": [
            {"subject": "me", "attribute": "city", "value": f"City {i}",
             "valid_from": f"{1960 + i}", "quote": f"I moved in {1960 + i}"}
            for i in range(50)]})
        view.write_facts({"format": 1, "facts": [
            {"subject": "me", "attribute": "city", "value": f"City {i}",
             "valid_from": f"{1960 + i}"} for i in range(50, 60)]})
        if label == "sealed":
            store.seal_scope(view.principal.personal)
        view.facts("me", "city")
        timeline[label] = summary(_time(lambda v=view: v.facts("me", "city"), 200))
        say(f"facts() of a 60-fact timeline, {label}: {timeline[label]}")
    return {"recall_k10_ms": recall, "timeline_read_ms": timeline}


if __name__ == "__main__":
    main()
