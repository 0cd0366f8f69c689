"""The claim layer over populations, not pairs: a generated stream of many lineages and
subjects (restatements across sources, repeats inside one source and one document, version
churn) whose support counts are worked out independently, every lineage removed and
restored in turn, and the same captures in several arrival orders."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from factstore import Store
from factstore.store import server
from tests.helpers import ScriptedExtractor, fact

SERVICES = [f"svc-{n}" for n in range(10)]
TEAMS = ("payments", "search", "identity", "growth")
WORDS = {"owner": "{s} is owned by the {t} team", "oncall": "{s} pages the {t} rotation",
         "runbook": "{s} keeps its runbook in the {t} wiki"}


def _statement(rng: random.Random) -> str:
    service, team = rng.choice(SERVICES), rng.choice(TEAMS)
    return rng.choice(list(WORDS.values())).format(s=service, t=team)


def _stream(seed: int = 7, lineages: int = 8, captures: int = 40):
    """Captures as (source_ref, text, statements). Repeats inside a lineage (new versions),
    inside one document (the same sentence twice), and across lineages."""
    rng = random.Random(seed)
    pool = sorted({_statement(rng) for _ in range(30)})
    out = []
    for n in range(captures):
        ref = f"chan-{rng.randrange(lineages)}"
        said = rng.sample(pool, rng.randint(1, 3))
        if rng.random() < 0.2:
            said.append(said[0])  # the same sentence twice in one document
        out.append((ref, f"[{n}] " + ". ".join(said) + ".", said))
    return out


def _remember_all(store: Store, stream) -> None:
    for ref, text, said in stream:
        store.extractor.add(text, *(fact(s + ".", "REFERENCE", quote=s) for s in said))
        store.remember(text, source_ref=ref)


def _expected_support(stream) -> dict[str, set[str]]:
    lineages: dict[str, set[str]] = defaultdict(set)
    for ref, _, said in stream:
        for statement in said:
            lineages[statement + "."].add(f"utterance:{ref}")
    return lineages


def _state(store: Store):
    facts = store.facts_by_verdict(limit=10_000)
    return ({f.statement: (f.verdict.value, f.support_count) for f in facts},
            sorted(tuple(sorted((c.fact_a.statement, c.fact_b.statement)))
                   for c in store.open_conflicts()))


def test_support_counts_distinct_lineages_over_a_generated_stream(store):
    stream = _stream()
    _remember_all(store, stream)
    expected = _expected_support(stream)
    held = {f.statement: f for f in store.facts_by_verdict(limit=10_000)}
    assert set(held) == set(expected)
    for statement, lineages in expected.items():
        assert held[statement].support_count == len(lineages), statement
        assert set(store.why(held[statement].id).lineages) == lineages
    # repetition inside a lineage is visible as testimony, never as support
    assert len(store.claims(limit=10_000)) > sum(len(v) for v in expected.values())
    assert max(f.support_count for f in held.values()) > 1  # the stream does corroborate
    assert store.open_conflicts()  # and contradicts: one service, two owning teams

    original = _state(store)
    for lineage in sorted({x for v in expected.values() for x in v}):
        change = store.remove_source(lineage, "population check")
        sole = {s for s, v in expected.items() if v == {lineage}}
        assert {store.fact(i).statement for i in change.closed} == sole
        now = {f.statement: f for f in store.facts_by_verdict(limit=10_000)}
        for statement, lineages in expected.items():
            got = now[statement]
            if statement in sole:
                assert (got.verdict, got.support_count) == ("withdrawn", 0)
            else:  # still live (a partner it was contested with may have been closed)
                assert got.verdict in ("active", "contested")
                assert got.support_count == len(lineages - {lineage})
        store.restore_source(lineage, "population check done")
        assert _state(store) == original, f"restoring {lineage} did not give the store back"


def _orders(n: int) -> list[list[int]]:
    rng = random.Random(11)
    forward = list(range(n))
    return [forward, forward[::-1], rng.sample(forward, n)]


def test_the_same_testimony_in_any_arrival_order_counts_the_same(admin_dsn, embedder):
    stream = _stream(seed=3, lineages=5, captures=12)
    # three facts that all disagree: one group whatever the order
    stream += [(f"memo-{t}", f"Nightly backups run at {t}.", [f"Nightly backups run at {t}"])
               for t in ("1am", "2am", "3am")]
    seen = []
    for n, order in enumerate(_orders(len(stream))):
        name = f"t_claims_order_{n}"
        server.drop_database(admin_dsn, name)
        server.ensure_database(admin_dsn, name)
        extractor = ScriptedExtractor()
        for _, text, said in stream:
            extractor.add(text, *(fact(s + ".", "DECISION" if "backups" in s else "REFERENCE",
                                       quote=s) for s in said))
        with Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                        extractor=extractor) as store:
            for i in order:
                ref, text, _ = stream[i]
                store.remember(text, source_ref=ref)
            claims = sorted((c.lineage, c.statement, c.quote) for c in store.claims(limit=10_000))
            members: dict[int, set[str]] = defaultdict(set)
            for c in store.open_conflicts():
                members[c.group_id] |= {c.fact_a.statement, c.fact_b.statement}
            groups = sorted(sorted(m) for m in members.values())
            seen.append((order, _state(store), claims, groups))
        server.drop_database(admin_dsn, name)
    first = seen[0]
    backups = [g for g in first[3] if any("backups" in s for s in g)]
    assert [len(g) for g in backups] == [3]  # one group of three, not a chain of pairs
    for order, state, claims, groups in seen[1:]:
        assert (state, claims, groups) == first[1:], f"order {order} differs from {first[0]}"


@pytest.mark.parametrize("mode", ["snapshot", "living"])
def test_version_churn_never_inflates_in_either_mode(store, mode):
    rng = random.Random(5)
    statements = [_statement(rng) for _ in range(6)]
    store.extractor.add("seed", fact("x.", quote="seed"))
    for version in range(8):
        said = rng.sample(statements, 3)
        text = f"v{version}: " + ". ".join(said) + "."
        store.extractor.add(text, *(fact(s + ".", "REFERENCE", quote=s) for s in said))
        store.remember(text, source_type="file", source_ref="docs/services.md")
        if version == 0:
            store.set_lineage_mode("file:docs/services.md", mode)
    facts = store.facts_by_verdict(limit=1000)
    assert facts and all(f.support_count <= 1 for f in facts)
    latest = set(said)
    for f in facts:
        # living: only what the latest version says is currently supported
        assert f.support_count == (1 if mode == "snapshot" or f.statement[:-1] in latest else 0)
        assert f.support_withdrawn == (f.support_count == 0)
