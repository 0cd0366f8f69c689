"""KeyBatch (timelines/batch.py) without a database: what the backfill will write."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from factstore.timelines.batch import KeyBatch
from factstore.timelines.format_v1 import WrittenFact

AT = datetime(2026, 3, 1, tzinfo=UTC)
KEY = ("shared", "person/x", "team_size")


def _batch() -> KeyBatch:
    counters = {t: itertools.count(100) for t in ("facts", "evidence", "conflicts")}
    return KeyBatch.load(KEY, "one", AT, lambda table: next(counters[table]), [], [], [])


def _fact(value: str, start: str | None, day: int) -> tuple[WrittenFact, datetime]:
    observed = AT - timedelta(days=60 - day)
    return WrittenFact("person/x", "team_size", value, valid_from=start,
                       observed_at=observed, source=f"s{day}"), observed


def _write(batch: KeyBatch, value: str, start: str | None, day: int) -> int:
    fact, observed = _fact(value, start, day)
    same = batch.index().find(fact.value, None, fact.valid_from, observed)
    if same is not None:
        batch.corroborate(same.id, fact, observed, document_id=1)
        return same.id
    return batch.insert(fact, observed, 1, ())


def test_each_new_fact_is_written_once_with_its_final_status_and_whole_history():
    batch = _batch()
    ids = [_write(batch, v, s, d) for v, s, d in (("3", "2019", 1), ("4", "2020", 2),
                                                 ("5", "2021", 3))]
    batch.resolve("backfill")
    rows = {r.fact.id: r for r in batch.new_facts()}
    assert [rows[i].fact.status for i in ids] == ["superseded", "superseded", "current"]
    assert rows[ids[0]].fact.superseded_by == ids[1] and rows[ids[0]].t_superseded == AT
    assert [(h.fact_id, h.from_verdict, h.to_verdict) for h in batch.history] == [
        (ids[0], None, "active"), (ids[1], None, "active"), (ids[2], None, "active"),
        (ids[0], "active", "superseded"), (ids[1], "active", "superseded")]
    assert len(batch.new_evidence()) == 3 and batch.changed_facts() == []


def test_a_same_start_dispute_opens_one_conflict_and_a_later_value_settles_it():
    batch = _batch()
    a, b = _write(batch, "3", "2019", 1), _write(batch, "4", "2019", 2)
    batch.resolve("backfill")
    assert [(c.fact_a, c.fact_b, c.status) for c in batch.new_conflicts()] == [(a, b, "open")]
    conflict = batch.new_conflicts()[0].id
    assert {h.conflict_id for h in batch.history if h.to_verdict == "contested"} == {conflict}


def test_a_repeat_is_kept_as_an_observation_and_promoted_when_no_fact_holds_it():
    batch = _batch()
    six = _write(batch, "6", "2019", 1)
    assert _write(batch, "6", "2020", 2) == six  # rule 2: a corroboration, no new fact
    _write(batch, "3", "2019-06", 3)  # ends the 6 at 2019-06: the 2020 repeat is news now
    batch.resolve("backfill")
    values = sorted((r.fact.value, r.fact.valid_from) for r in batch.new_facts())
    assert values == [("3", "2019-06"), ("6", "2019"), ("6", "2020")]
    promoted = [h for h in batch.history if h.reason.startswith("promoted")]
    assert len(promoted) == 1
    # the observation moved to the new fact as its testimony: no evidence row is copied
    assert len(batch.new_evidence()) == 3
    assert sorted(e.role for e in batch.new_evidence()) == ["testimony"] * 3


def test_an_observation_seen_again_from_the_same_document_is_found():
    batch = _batch()
    fact, observed = _fact("6", "2019", 1)
    fact_id = batch.insert(fact, observed, 7, ())
    assert batch.recorded(7, fact, observed) == fact_id
    assert batch.recorded(8, fact, observed) is None
