"""Conflict-queue policies as pure plans (no database): what each decides, what it leaves
for a person and why, over a generated queue of many subjects and kinds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from factstore.errors import InvalidInput
from factstore.kinds import Kind, Verdict
from factstore.policies import plan
from factstore.results import Conflict, Fact

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def _fact(id_: int, statement: str, kind: str, subject: str | None, said: datetime | None,
          captured: datetime | None = None) -> Fact:
    at = captured or said or T0
    return Fact(id=id_, statement=statement, kind=Kind(kind), tags=(), verdict=Verdict.CONTESTED,
                evidence_quote=statement, evidence_source_type="capture",
                evidence_source_ref=f"r{id_}", evidence_captured_by=None, document_id=None,
                t_said=said, t_captured=at, t_last_verified=at, t_superseded=None,
                supersedes=None, superseded_by=None, subject_key=subject)


def _conflict(id_: int, a: Fact, b: Fact, differences: tuple[str, ...] = ("value",),
              status: str = "open") -> Conflict:
    return Conflict(id=id_, fact_a=a, fact_b=b, status=status, winner=None, reasoning=None,
                    lane="lane-3", similarity=0.9, created_at=T0, resolved_at=None,
                    differences=differences)


def _queue() -> list[Conflict]:
    """Many services, kinds, times: the queue 200 ops-chat captures leave."""
    out, n = [], 0
    for i in range(40):
        service = f"svc-{i}"
        kind = ("STATE", "DECISION", "RULE")[i % 3]
        a = _fact(2 * i + 1, f"{service} is green.", kind, service, T0 + timedelta(hours=i))
        b_said = T0 + timedelta(hours=i + (1 if i % 4 else 0))  # every 4th: a tie
        b_subject = service if i % 5 else f"svc-{i + 1}"  # every 5th: two subjects
        b = _fact(2 * i + 2, f"{service} is red.", kind, b_subject, b_said)
        n += 1
        out.append(_conflict(n, a, b, differences=() if i % 7 == 0 else ("value",)))
    return out


def test_newer_wins_decides_only_same_subject_pairs_of_its_kind_with_a_clear_order():
    queue = _queue()
    chosen = plan("newer-wins", queue, {"kind": "STATE"})
    decided = {d.conflict_id for d in chosen.decisions}
    for c in queue:
        eligible = (c.fact_a.kind is Kind.STATE and c.fact_a.subject_key == c.fact_b.subject_key
                    and c.fact_a.t_said != c.fact_b.t_said)
        assert (c.id in decided) == eligible, c
    assert len(decided) + len(chosen.left) == len(queue)
    for d in chosen.decisions:
        c = next(c for c in queue if c.id == d.conflict_id)
        newer = max((c.fact_a, c.fact_b), key=lambda f: f.t_said)
        assert d.winner == newer.id
        assert d.reasoning.startswith("policy newer-wins kind=STATE: ")
    reasons = {why for _, why in chosen.left}
    assert {"not both STATE", "not about one subject", "said at the same time"} <= reasons


def test_newer_wins_falls_back_to_the_capture_time_when_nothing_says_when_it_was_said():
    a = _fact(1, "svc is green.", "STATE", "svc", None, captured=T0)
    b = _fact(2, "svc is red.", "STATE", "svc", None, captured=T0 + timedelta(minutes=5))
    (d,) = plan("newer-wins", [_conflict(1, a, b)]).decisions
    assert d.winner == 2


def test_both_stand_wording_takes_exactly_the_pairs_with_no_difference_found():
    queue = _queue()
    chosen = plan("both-stand-wording", queue)
    assert {d.conflict_id for d in chosen.decisions} == {c.id for c in queue
                                                         if not c.differences}
    assert all(d.winner is None for d in chosen.decisions)
    assert all("value" in why for _, why in chosen.left)


def test_a_closed_conflict_is_never_planned_and_the_plan_is_the_same_in_any_order():
    queue = _queue()
    queue[0] = _conflict(queue[0].id, queue[0].fact_a, queue[0].fact_b, status="resolved")
    forward = plan("newer-wins", queue)
    backward = plan("newer-wins", list(reversed(queue)))
    assert queue[0].id not in {d.conflict_id for d in forward.decisions}
    assert sorted(forward.decisions, key=lambda d: d.conflict_id) == \
        sorted(backward.decisions, key=lambda d: d.conflict_id)


@pytest.mark.parametrize("policy, params, words", [
    ("oldest-wins", {}, "unknown conflict policy"),
    ("newer-wins", {"kind": "MOOD"}, "kind"),
    ("newer-wins", {"subject": "x"}, "takes no parameter"),
    ("both-stand-wording", {"kind": "STATE"}, "takes no parameter")])
def test_a_bad_policy_or_parameter_is_refused(policy, params, words):
    with pytest.raises(InvalidInput, match=words):
        plan(policy, _queue(), params)
