"""Appends decided from the tail (issue 10 §4) leave what resolving the whole key leaves.

A generated stream (many keys; appends, repeats, corrections in the past, stated ends,
undated facts, retractions) is written twice through the Store: once as it runs, once with
the tail decision switched off so every write resolves its whole key. The two arms must
read the same at every instant and hold the same rows: each fact's verdict, links, end and
confirmation, and its history.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from factstore.store import timelines as timeline_sql

T0 = datetime(2026, 1, 1, tzinfo=UTC)
INSTANTS = ("2018", "2019-06", "2020", "2021", "2021-06", "2022", "2023", "2024", "2026")


def _stream(seed: int = 3) -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    out: list[tuple[str, dict]] = []
    year = {n: 2018 for n in range(6)}
    for i in range(150):
        n = rng.randrange(6)
        roll = rng.random()
        if roll < 0.55:  # an append: a later start than anything so far
            year[n] += rng.choice((0, 1, 1, 2))
            start = f"{year[n]}-{rng.randrange(1, 13):02d}"
        elif roll < 0.75:
            start = f"{rng.randrange(2018, year[n] + 1)}"  # a correction in the past
        else:
            start = None
        fact = {"attribute": "weight_kg", "value": str(rng.choice((60, 61, 62, 63))),
                "observed_at": (T0 + timedelta(hours=i)).isoformat().replace("+00:00", "Z"),
                "source": f"chat:{i}"}
        if start:
            fact["valid_from"] = start
            if rng.random() < 0.1:
                fact["valid_to"] = str(int(start[:4]) + 1)
        out.append((f"k{n}", fact))
    return out


def _run(store, arm: str) -> None:
    written = []
    for i, (key, fact) in enumerate(_stream()):
        result = store.write_facts({"format": 1, "facts": [{**fact,
                                                            "subject": f"person/{arm}-{key}"}]})
        written.append(result.facts[0].id)
        if i % 37 == 36:
            store.retract(written[-3], reason="tail test")


def _rows(store, arm: str) -> list[tuple]:
    out = []
    for n in range(6):
        subject = f"person/{arm}-k{n}"
        for label in INSTANTS:
            key = store.facts(subject, "weight_kg", as_of=label).keys[0]
            out.append((n, label, key.line.replace(subject, "S"),
                        tuple(sorted(f.value for f in key.current))))
        history = store.facts(subject, "weight_kg").keys[0].history
        ids = {f.id: i for i, f in enumerate(sorted(history, key=lambda f: f.id))}
        for f in sorted(history, key=lambda f: f.id):
            out.append((n, f.value, f.valid_from, f.status, f.effective_valid_to,
                        ids.get(f.superseded_by), ids.get(f.supersedes), f.last_confirmed_at,
                        len(f.corroborations),
                        tuple((h.from_verdict, h.to_verdict) for h in store.history(f.id))))
    return out


def test_tail_appends_leave_what_whole_key_resolution_leaves(store, monkeypatch):
    decided = []
    original = timeline_sql._append
    with monkeypatch.context() as counted:
        counted.setattr(timeline_sql, "_append",
                        lambda *a, **k: decided.append(original(*a, **k)) or decided[-1])
        _run(store, "tail")
    appended = [d for d in decided if d is not None]
    assert len(appended) > 50  # the stream exercises the tail path, both outcomes
    assert {d.outcome for d in appended} == {"created", "corroborated"}
    with monkeypatch.context() as patched:
        patched.setattr(timeline_sql, "_append", lambda *args, **kwargs: None)
        _run(store, "whole")
    assert _rows(store, "tail") == _rows(store, "whole")
