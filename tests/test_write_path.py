"""The write path against the real store: documents floor, gate, hygiene, tags, density."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from factstore import Settings
from factstore.errors import EmbedderError, ExtractorError, InvalidInput
from tests.helpers import fact, say

GREEN = "sample-svc is green right now"
RED = "sample-svc is red right now"


def test_capture_with_no_typeable_fact_lands_in_documents_only(store):
    result = store.remember("we chatted about the weather for a while")
    assert result.outcomes == ()
    assert result.document.routed == "documents-only"
    assert store.describe().documents == 1


def test_capture_with_facts_lands_once_as_a_document_too(store):
    result = say(store, GREEN, subject="sample-svc")
    assert [o.outcome for o in result.outcomes] == ["written"]
    written = result.outcomes[0].fact
    assert written.verdict == "active" and written.document_id == result.document.id
    assert result.document.routed == "facts" and not result.document.duplicate
    assert store.describe().documents == 1


def test_rerunning_the_same_capture_stores_nothing_twice(store):
    text = store.extractor.add(GREEN, fact(GREEN + ".", subject="sample-svc"))
    first = store.remember(text, source_ref="session-1#m1")
    again = store.remember(text, source_ref="session-1#m1")
    assert again.document.duplicate and again.document.id == first.document.id
    assert [o.outcome for o in again.outcomes] == ["unchanged"]
    assert again.outcomes[0].fact.id == first.outcomes[0].fact.id
    described = store.describe()
    assert described.documents == 1
    assert described.facts_by_kind_verdict["STATE"] == {"active": 1}


def test_a_changed_capture_of_one_lineage_is_a_new_version(store):
    one = store.remember("first draft of the notes", source_ref="notes.md")
    two = store.remember("second draft of the notes", source_ref="notes.md")
    assert (one.document.version, two.document.version) == (1, 2)
    assert one.document.lineage == two.document.lineage == "utterance:notes.md"


def test_index_page_routes_wholesale_to_documents_without_extraction(store):
    links = " ".join(f"[[page {i}]]" for i in range(8))
    text = store.extractor.add(f"Contents: {links}", fact("Contents list pages.", "REFERENCE",
                                                           quote="Contents"))
    result = store.remember(text)
    assert result.gated and result.gated.startswith("index-page")
    assert result.outcomes == () and result.document.routed == "index-page"
    assert store.extractor.calls == []


def test_anchor_hygiene_drops_an_unquotable_fact_and_reports_it(store):
    text = store.extractor.add("the cache is warm right now",
                               fact("The cache is warm.", quote="the cache is warm"),
                               fact("The cache holds 5 GB.", quote="the cache holds 5 GB"))
    result = store.remember(text)
    assert [o.fact.statement for o in result.outcomes] == ["The cache is warm."]
    assert len(result.dropped) == 1
    assert result.dropped[0].stage == "anchor" and "does not occur" in result.dropped[0].reason


def test_backslash_runs_in_a_quote_still_anchor(store):
    text = r"the runner token lives at C:\ops\sample\runner.env"
    store.extractor.add(text, fact("The runner token is stored at C:\\ops\\sample\\runner.env.",
                                   "REFERENCE", quote=text.replace("\\", "\\\\")))
    result = store.remember(text)
    assert len(result.outcomes) == 1 and result.dropped == ()


def test_outcome_events_are_absorbed_into_the_event_they_report_on(store):
    text = ("migrated all 214 pages. Checksum parity verified (214 == 214), link sweep found "
            "zero broken links")
    store.extractor.add(
        text,
        fact("The team migrated all 214 pages.", "EVENT", quote="migrated all 214 pages."),
        fact("Checksum parity was verified (214 == 214).", "EVENT",
             quote="Checksum parity verified (214 == 214), link sweep found zero broken links"))
    result = store.remember(text)
    assert len(result.outcomes) == 1
    event = result.outcomes[0].fact
    assert event.kind == "EVENT" and event.evidence_quote == text
    absorbed = event.meta["absorbed_outcomes"]
    assert absorbed[0]["statement"] == "Checksum parity was verified (214 == 214)."


def test_topic_hygiene_drops_scribes_and_surfaces_entity_shaped_roots(store):
    text = store.extractor.add(GREEN, fact(
        GREEN + ".", subject="sample-svc",
        topics=("llama3.1:8b", "SampleSvc", "samplesvc", "weather", "Nightly-42", "scribe-bot")))
    result = store.remember(text, captured_by="scribe-bot")
    written = result.outcomes[0].fact
    dropped = {d["topic"]: d["reason"] for d in written.meta["dropped_topics"]}
    assert set(dropped) == {"llama3.1:8b", "samplesvc", "scribe-bot"}
    assert "duplicate" in dropped["samplesvc"] and "captured_by" in dropped["scribe-bot"]
    assert written.meta["unresolved_topics"] == ["SampleSvc", "weather", "Nightly-42"]
    roots = {r.proposed_tag: r for r in result.candidate_roots}
    assert set(roots) == {"samplesvc", "nightly-42"}  # 'weather' is noise: meta only
    assert roots["samplesvc"].status == "pending"
    assert {r.proposed_tag for r in store.registry_candidates()} == {"samplesvc", "nightly-42"}
    assert written.tags == ()  # the write path never invents a root


def test_topics_translate_through_aliases_and_mint_leaves(store, embedder):
    store.registry_propose_root("infra", "infrastructure")
    store.registry_approve_root("infra", "we need it")
    store.registry_add_leaf("infra.ci", "continuous integration")
    store.registry_add_alias("build bot", "infra.ci")
    text = store.extractor.add(GREEN, fact(GREEN + ".", subject="sample-svc",
                                           topics=("Build  Bot", "infra.nightly", "ci")))
    written = store.remember(text).outcomes[0].fact
    assert written.tags == ("infra.ci", "infra.nightly")
    assert "infra.nightly" in {t.tag for t in store.registry_tags()}


def test_exact_restatement_is_a_recapture_not_a_conflict(store):
    first = say(store, GREEN + ".", subject="sample-svc", source_ref="a")
    later = datetime.now(UTC) + timedelta(hours=1)
    text = "Sample-svc is  green right now!"
    store.extractor.add(text, fact("Sample-svc is  green right now!", subject="sample-svc",
                                   quote=text))
    second = store.remember(text, source_ref="b", captured_at=later)
    outcome = second.outcomes[0]
    assert outcome.outcome == "recaptured" and outcome.fact.id == first.outcomes[0].fact.id
    assert outcome.fact.t_last_verified == later
    assert outcome.fact.support_count == 2
    assert second.interrupts == () and store.open_conflicts() == []


def test_repetition_inside_one_lineage_is_not_corroboration(store):
    say(store, GREEN + ".", subject="sample-svc", source_ref="notes.md")
    text = "Note again: sample-svc is green right now"
    store.extractor.add(text, fact(GREEN + ".", subject="sample-svc", quote=GREEN))
    again = store.remember(text, source_ref="notes.md")
    assert again.outcomes[0].outcome == "recaptured"
    assert again.outcomes[0].fact.support_count == 1


def test_backfilled_older_recapture_never_moves_verified_back(store):
    first = say(store, GREEN + ".", subject="sample-svc", source_ref="a")
    original = first.outcomes[0].fact.t_last_verified
    old = "sample-svc is green right now (from the archive)"
    store.extractor.add(old, fact(GREEN + ".", subject="sample-svc", quote=GREEN))
    result = store.remember(old, source_ref="archive",
                            captured_at=original - timedelta(days=30))
    assert result.outcomes[0].fact.t_last_verified == original


MANDATORY = "The staging gate is mandatory for every release"
OPTIONAL = "The staging gate is optional for every release"


def test_a_contradiction_of_the_same_kind_is_contested_with_an_interrupt(store):
    first = say(store, MANDATORY + ".", "DECISION").outcomes[0].fact
    result = say(store, OPTIONAL + ".", "DECISION")
    outcome = result.outcomes[0]
    assert outcome.outcome == "contested" and outcome.lane == "lane-3"
    assert store.fact(first.id).verdict == "contested"
    (interrupt,) = result.interrupts
    assert interrupt.existing.statement == first.statement
    assert interrupt.new.statement == outcome.fact.statement
    assert interrupt.existing.quote == MANDATORY and interrupt.new.quote == OPTIONAL
    assert interrupt.existing.kind == interrupt.new.kind == "DECISION"
    assert interrupt.existing.captured_at == first.t_captured
    assert (f'resolve_conflict({interrupt.conflict_id}, winner_id={first.id}, '
            'reasoning="<why>")') in interrupt.resolve_calls
    assert [c.id for c in store.open_conflicts()] == [interrupt.conflict_id]


def test_different_kinds_never_conflict(store):
    say(store, GREEN + ".", subject="sample-svc")
    result = say(store, "The user prefers that sample-svc is green right now.", "PREFERENCE")
    assert result.outcomes[0].outcome == "written"


def test_a_newer_state_reading_of_the_same_subject_supersedes_the_older(store):
    first = say(store, GREEN + ".", subject="sample-svc").outcomes[0].fact
    result = say(store, RED + ".", subject="sample-svc")
    outcome = result.outcomes[0]
    assert (outcome.outcome, outcome.lane, outcome.scope) == ("superseded-prior", "revision",
                                                              "subject")
    assert result.interrupts == () and store.open_conflicts() == []
    assert store.fact(first.id).superseded_by == outcome.fact.id
    assert outcome.fact.supersedes == first.id
    (audit,) = store.conflicts("resolved")
    assert (audit.lane, audit.resolution, audit.winner) == ("revision", "revision",
                                                            outcome.fact.id)


def test_an_older_state_reading_arriving_late_is_history_at_once(store):
    now = datetime.now(UTC)
    newer = say(store, GREEN + ".", subject="sample-svc", said_at=now).outcomes[0].fact
    late = say(store, RED + ".", subject="sample-svc", said_at=now - timedelta(hours=1))
    outcome = late.outcomes[0]
    assert (outcome.outcome, outcome.lane) == ("older-reading", "revision")
    assert outcome.fact.verdict == "superseded" and outcome.fact.superseded_by == newer.id
    assert store.fact(newer.id).verdict == "active"
    assert store.fact(newer.id).supersedes == outcome.fact.id


def test_the_density_thresholds_are_settings(open_store):
    store = open_store(settings=Settings(density_threshold=0.99, contradiction_floor=0.99,
                                         subject_floor=0.99))
    say(store, GREEN + ".", subject="sample-svc")
    assert say(store, RED + ".", subject="sample-svc").outcomes[0].outcome == "written"


def test_shared_tag_restriction_is_a_setting(open_store):
    store = open_store(settings=Settings(density_shared_tag=True))
    store.registry_propose_root("svc")
    store.registry_approve_root("svc")
    store.registry_add_leaf("svc.alpha")
    store.registry_add_leaf("svc.beta")
    say(store, GREEN + ".", subject="sample-svc", topics=("svc.alpha",))
    result = say(store, RED + ".", subject="sample-svc", topics=("svc.beta",))
    assert result.outcomes[0].outcome == "written"
    result = say(store, "sample-svc is yellow right now.", subject="sample-svc",
                 topics=("svc.alpha",))
    assert (result.outcomes[0].outcome, result.outcomes[0].lane) == ("superseded-prior",
                                                                     "revision")


@pytest.mark.parametrize("supersedes", [False, True])
def test_rule_exception_runs_the_resolution_round_even_when_explicit(store, supersedes):
    say(store, "Always write a failing test before fixing a bug.", "RULE")
    result = say(store, "Always write a failing test after fixing a bug.", "RULE",
                 supersedes=supersedes)
    outcome = result.outcomes[0]
    assert outcome.outcome == "contested" and outcome.lane == "rule-exception"
    assert len(result.interrupts) == 1
    assert store.open_conflicts()[0].lane == "rule-exception"


def test_lane1_explicit_supersession_auto_resolves_and_links(store):
    old = say(store, "The build pipeline ships only through the staging gate.",
              "DECISION").outcomes[0].fact
    result = say(store, "The build pipeline ships only through the canary gate.",
                 "DECISION", supersedes=True)
    outcome = result.outcomes[0]
    assert outcome.outcome == "superseded-prior" and outcome.lane == "lane-1"
    new = outcome.fact
    loser = store.fact(old.id)
    assert loser.verdict == "superseded" and loser.superseded_by == new.id
    assert loser.t_superseded is not None and new.supersedes == old.id
    assert result.interrupts == () and store.open_conflicts() == []
    (audit,) = store.conflicts("resolved")
    assert (audit.resolution, audit.winner) == ("explicit-supersession", new.id)


def test_lane2_existing_path_wins_for_references(store, tmp_path):
    real = tmp_path / "real" / "runner.env"
    real.parent.mkdir()
    real.write_text("x")
    gone = tmp_path / "gone" / "runner.env"
    old = say(store, f"The runner token is stored at {gone}.", "REFERENCE").outcomes[0].fact
    result = say(store, f"The runner token is stored at {real}.", "REFERENCE")
    outcome = result.outcomes[0]
    assert outcome.outcome == "ground-truth-won" and outcome.lane == "lane-2"
    assert store.fact(old.id).verdict == "superseded"
    assert store.fact(old.id).superseded_by == outcome.fact.id


def test_lane2_new_fact_naming_a_missing_path_loses(store, tmp_path):
    real = tmp_path / "real" / "runner.env"
    real.parent.mkdir()
    real.write_text("x")
    old = say(store, f"The runner token is stored at {real}.", "REFERENCE").outcomes[0].fact
    result = say(store, f"The runner token is stored at {tmp_path / 'gone' / 'runner.env'}.",
                 "REFERENCE")
    outcome = result.outcomes[0]
    assert outcome.outcome == "ground-truth-lost"
    assert outcome.fact.verdict == "superseded" and outcome.fact.superseded_by == old.id
    assert store.fact(old.id).verdict == "active"


def test_lane2_urls_are_uncheckable_and_fall_through_to_lane3(store):
    say(store, "The runbook is at https://wiki.example.com/runbooks/alpha.", "REFERENCE")
    result = say(store, "The runbook is at https://wiki.example.com/runbooks/beta.", "REFERENCE")
    assert result.outcomes[0].lane == "lane-3"


def test_every_transition_is_in_the_history(store):
    first = say(store, MANDATORY + ".", "DECISION").outcomes[0].fact
    say(store, OPTIONAL + ".", "DECISION")
    history = store.history(first.id)
    assert [(h.from_verdict, h.to_verdict) for h in history] == [
        (None, "active"), ("active", "contested")]
    assert history[1].conflict_id is not None
    state = say(store, GREEN + ".", subject="sample-svc").outcomes[0].fact
    say(store, RED + ".", subject="sample-svc")
    assert [(h.from_verdict, h.to_verdict) for h in store.history(state.id)] == [
        (None, "active"), ("active", "superseded")]


def test_per_kind_columns_land_and_foreign_ones_are_cleared(store):
    text = store.extractor.add(
        "the deploy freeze is locked until the audit ends",
        fact("The deploy freeze is locked.", "DECISION",
             quote="the deploy freeze is locked", status_detail="locked",
             trigger_predicate="the audit ends", scope="deploys", subject="deploys",
             expected_lifetime="2d"))
    written = store.remember(text).outcomes[0].fact
    assert (written.scope, written.status_detail, written.trigger_predicate) == (
        "deploys", "locked", "the audit ends")
    assert written.subject is None and written.expected_lifetime is None
    # a DECISION stores no subject column; the subject it names is kept as its subject key
    assert {c["field"] for c in written.meta["cleared_fields"]} == {"expected_lifetime"}
    assert written.subject_key == "deploys"


def test_state_lifetime_hint_is_stored_as_an_interval(store):
    written = say(store, GREEN + ".", subject="sample-svc",
                  expected_lifetime="2d").outcomes[0].fact
    assert written.expected_lifetime == timedelta(days=2)


@pytest.mark.parametrize("kwargs, message", [
    ({"text": "  "}, "capture text must not be blank"),
    ({"text": b"bytes"}, "must be text"),
    ({"text": "x", "source_type": "email"}, "unknown source_type"),
    ({"text": "x", "said_at": datetime(2026, 1, 1)}, "timezone-aware"),
    ({"text": "x", "said_at": "yesterday"}, "not an ISO-8601"),
    ({"text": "x", "source_ref": ""}, "source_ref"),
    ({"text": "x", "source_ref": "r" * 1_000_000}, "source_ref is 1,000,000 characters; the limit is 2,000"),
    ({"text": "x", "source_ref": "é" * 1500}, "source_ref is 3,000 bytes as UTF-8; the limit is 2,000"),
    ({"text": "x", "source_ref": "a\ud800"}, "source_ref contains a lone surrogate"),
    ({"text": "a\x00b"}, "NUL character"),
    ({"text": "x", "captured_by": "bot\x00"}, "captured_by contains a NUL"),
    ({"text": "x", "said_at": "0001-01-01T00:00:00+01:00"}, "outside the years"),
    ({"text": "x", "said_at": "9999-12-31T23:59:59-01:00"}, "outside the years"),
    ({"text": "x", "captured_at": datetime(9999, 12, 31, 23, tzinfo=UTC)}, "outside the years"),
])
def test_bad_input_is_a_typed_error_and_writes_nothing(store, kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        store.remember(**kwargs)
    assert store.describe().documents == 0


def test_an_extractor_failure_writes_nothing(store):
    class Broken:
        name = "broken"

        def extract(self, text, context):
            raise ExtractorError("model answered nonsense")

    store.extractor = Broken()
    with pytest.raises(ExtractorError):
        store.remember("sample-svc is green right now")
    assert store.describe().documents == 0


def test_an_embedder_answering_the_wrong_shape_writes_nothing(store):
    class Wrong:
        name = store.embedder.name
        dim = store.embedder.dim

        def embed(self, texts):
            return np.zeros((len(texts) + 1, self.dim), dtype=np.float32)  # a row too many

    store.embedder = Wrong()
    say_text = store.extractor.add(GREEN, fact(GREEN + ".", subject="sample-svc"))
    with pytest.raises(EmbedderError, match="shape"):
        store.remember(say_text)
    assert store.describe().documents == 0


def test_the_polarity_guard_parks_a_statement_that_inverts_its_quote(store):
    text = store.extractor.add("the staging gate is not optional",
                               fact("The staging gate is optional.", "DECISION",
                                    quote="the staging gate is not optional"))
    outcome = store.remember(text).outcomes[0]
    assert outcome.outcome == "parked" and outcome.fact.verdict == "parked"
    assert outcome.note.startswith("polarity") and outcome.fact.meta["polarity_guard"]
    assert store.open_conflicts() == []


def test_the_polarity_guard_is_a_setting(open_store):
    store = open_store(settings=Settings(polarity_guard=False))
    text = store.extractor.add("the staging gate is not optional",
                               fact("The staging gate is optional.", "DECISION",
                                    quote="the staging gate is not optional"))
    assert store.remember(text).outcomes[0].outcome == "written"


def test_interrupts_say_what_differs(store):
    say(store, "The staging cluster will keep 40 nodes.", "DECISION")
    result = say(store, "The staging cluster will keep 41 nodes.", "DECISION")
    (interrupt,) = result.interrupts
    assert any("40 -> 41" in d for d in interrupt.differences)
    assert store.open_conflicts()[0].differences == interrupt.differences


def test_route_mode_treats_a_reworded_near_hit_as_a_recapture(open_store):
    store = open_store(settings=Settings(difference_detector="route", density_threshold=0.75))
    first = say(store, "The staging cluster currently has 40 nodes.",
                subject="staging cluster").outcomes[0].fact
    reworded = say(store, "Right now the staging cluster has 40 nodes.",
                   subject="staging cluster").outcomes[0]
    assert reworded.outcome == "recaptured" and reworded.fact.id == first.id
    assert "no detected difference" in reworded.note
    changed = say(store, "The staging cluster currently has 41 nodes.", subject="staging cluster")
    assert (changed.outcomes[0].outcome, changed.outcomes[0].lane) == ("superseded-prior",
                                                                       "revision")


def test_with_the_detector_off_interrupts_carry_no_differences(open_store):
    store = open_store(settings=Settings(difference_detector="off"))
    say(store, "The staging cluster will keep 40 nodes.", "DECISION")
    result = say(store, "The staging cluster will keep 41 nodes.", "DECISION")
    assert result.interrupts[0].differences == ()


def test_route_mode_writes_a_near_hit_about_another_subject_as_its_own_fact(open_store):
    store = open_store(settings=Settings(difference_detector="route"))
    say(store, "sample-svc is green right now.", subject="sample-svc")
    other = say(store, "other-svc is green right now.", subject="other-svc")
    outcome = other.outcomes[0]
    assert outcome.outcome == "written" and "another subject passed over" in outcome.note
    assert store.open_conflicts() == []
