"""The claim layer's pure rules, without a database: the validity a text asserts, who
asserted a claim, lineage modes, the inline bound on a contradiction group, the caveat a
fact without current support carries, and group-wise conflict policies."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from factstore.asserted_time import asserted_interval
from factstore.claims import TRIAGE_OF_OUTCOME, TRIAGES, draft_claim
from factstore.groups import GroupContinuation, bound_inline
from factstore.kinds import Kind, Verdict
from factstore.labels import label_fact
from factstore.lineages import default_mode, source_type_of
from factstore.policies import plan
from factstore.results import Conflict, Fact

T0 = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.mark.parametrize("text, interval", [
    ("Bob was CFO from 2019 to 2021", ("2019", "2021")),
    ("between 2019 and 2021 backups ran at 2am", ("2019", "2021")),
    ("the lease runs from March 2024 through June 2025", ("2024-03", "2025-07")),
    ("She has lived in Berlin since March 2024", ("2024-03", None)),
    ("the freeze holds until 2026-06", (None, "2026-06")),
    ("valid through 2021", (None, "2022")),
    ("since 2020 and until 2023 it was on-prem", ("2020", "2023")),
    ("In 2019 we moved to Berlin", ("2019", "2020")),
    ("on 2025-03-04 the db failed", ("2025-03-04", "2025-03-05")),
    ("in December 2025 the office closed", ("2025-12", "2026-01")),
])
def test_an_asserted_interval_is_read_off_the_text(text, interval):
    found = asserted_interval(text)
    assert found is not None and (found.valid_from, found.valid_to) == interval


@pytest.mark.parametrize("text", [
    "Ada, born in 2000, lives in Paris",  # describes, asserts no validity
    "the company was founded in 1998",
    "We ran 4096 tokens through it",  # a count, not a year
    "in 4096 tokens", "call me at 2019", "the build is green", "", "   ",
    "Room 2019 is booked",
])
def test_no_interval_where_the_text_states_none(text):
    assert asserted_interval(text) is None


def test_an_unordered_range_is_never_a_backwards_interval():
    found = asserted_interval("from 2021 until 2019")
    assert found is not None
    assert found.valid_to is None or found.valid_from is None


def test_a_claim_is_asserted_by_its_speaker_else_its_source():
    spoken = draft_claim("Bob is CFO.", "Bob is CFO", "STATE", speaker="Ana", source_ref="chat")
    assert (spoken.asserter, spoken.asserter_is) == ("Ana", "speaker")
    filed = draft_claim("Bob is CFO.", "Bob is CFO", "STATE", speaker=None,
                        source_ref="hr/roster.csv")
    assert (filed.asserter, filed.asserter_is) == ("hr/roster.csv", "source")
    unknown = draft_claim("Bob is CFO.", "Bob is CFO", "", speaker=None, source_ref=None)
    assert (unknown.asserter, unknown.asserter_is, unknown.kind) == (None, None, "?")


def test_every_write_path_outcome_has_a_triage():
    outcomes = ("written", "contested", "superseded-prior", "ground-truth-won",
                "ground-truth-lost", "older-reading", "recaptured", "unchanged", "parked")
    assert set(outcomes) == set(TRIAGE_OF_OUTCOME)
    assert set(TRIAGE_OF_OUTCOME.values()) | {"dropped", "absorbed"} == set(TRIAGES)


def test_modes_default_by_source_type():
    assert [default_mode(t) for t in ("file", "url", "utterance", "capture", "commit")] == [
        "living", "living", "snapshot", "snapshot", "snapshot"]
    assert source_type_of("file:docs/a:b.md") == "file"


def test_the_inline_bound_keeps_every_co_member_somewhere():
    for size in range(2, 12):
        members = list(range(100, 100 + size))
        for inline in (1, 3, 20):
            shown, rest = bound_inline(103 if size > 3 else 100, members, inline)
            assert len(shown) == min(inline, size - 1)
            assert set(shown) | set(rest) | {103 if size > 3 else 100} == set(members)
            assert not set(shown) & set(rest)
    assert GroupContinuation(7, (1, 2), (3,)).call == "contradiction_group(7)"


def _fact(id_: int, verdict: Verdict = Verdict.ACTIVE, *, withdrawn: bool = False,
          kind: Kind = Kind.DECISION, subject: str | None = "backups",
          said: datetime | None = None) -> Fact:
    return Fact(id=id_, statement=f"fact {id_}", kind=kind, tags=(), verdict=verdict,
                evidence_quote="q", evidence_source_type="capture", evidence_source_ref=None,
                evidence_captured_by=None, document_id=None, t_said=said, t_captured=T0,
                t_last_verified=T0, t_superseded=None, supersedes=None, superseded_by=None,
                subject_key=subject, support_withdrawn=withdrawn, support_count=0 if withdrawn
                else 1)


def test_a_fact_without_current_support_is_never_present_tense():
    common = {"now": T0, "tag_lifetimes": {}, "default_lifetime": timedelta(days=7)}
    assert label_fact(_fact(1), **common).code == "active"
    withdrawn = label_fact(_fact(1, withdrawn=True), **common)
    assert withdrawn.code == "support-withdrawn" and not withdrawn.present_tense
    event = label_fact(_fact(1, kind=Kind.EVENT, withdrawn=True), **common)
    assert event.code == "event" and "support withdrawn" in event.text
    group = label_fact(_fact(1, Verdict.CONTESTED), partner_ids=(2, 3), group_size=6, **common)
    assert "one of 6 facts" in group.text and "#2, #3 and 3 more" in group.text
    pair = label_fact(_fact(1, Verdict.CONTESTED), partner_ids=(2,), group_size=2, **common)
    assert "head-to-head with #2" in pair.text


def _conflict(id_: int, a: Fact, b: Fact, group: int, differences=("value",)) -> Conflict:
    return Conflict(id=id_, fact_a=a, fact_b=b, status="open", winner=None, reasoning=None,
                    lane="lane-3", similarity=0.9, created_at=T0, resolved_at=None,
                    differences=differences, group_id=group)


def test_a_policy_decides_a_group_as_a_whole():
    a, b, c = (_fact(i, Verdict.CONTESTED, kind=Kind.STATE, said=T0 + timedelta(hours=i))
               for i in (1, 2, 3))
    group = [_conflict(10, a, b, 5), _conflict(11, a, c, 5), _conflict(12, b, c, 5)]
    (decision,) = plan("newer-wins", group, {"kind": "STATE"}).decisions
    assert (decision.conflict_id, decision.winner, decision.closes) == (10, 3, (10, 11, 12))
    assert "#1" in decision.reasoning and "#2" in decision.reasoning
    tie = _fact(4, Verdict.CONTESTED, kind=Kind.STATE, said=T0 + timedelta(hours=3))
    tied = plan("newer-wins", [*group, _conflict(13, c, tie, 5)], {"kind": "STATE"})
    assert tied.decisions == () and {cid for cid, _ in tied.left} == {10, 11, 12, 13}
    wording = plan("both-stand-wording", [_conflict(20, a, b, 6, ()), _conflict(21, b, c, 6)])
    assert wording.decisions == () and "value" in wording.left[0][1]
