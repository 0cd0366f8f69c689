"""Conflicts that know what they are about (the store end to end, real Postgres and MiniLM).

Populations first: a generated ops-chat stream over many services in every detector mode
and with every extractor, every arrival order of the same readings; then the single repros
each rule was built against.
"""

from __future__ import annotations

import itertools
import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from factstore import Settings
from factstore.differences import status_classes
from factstore.extractors.ollama import OllamaExtractor
from factstore.extractors.rules import RuleExtractor
from factstore.kinds import Kind
from tests.helpers import fact, say
from tests.ollama_standin import OllamaStandIn

MODES = ("off", "annotate", "route")
STATES = ("green", "red", "degraded", "healthy", "paused", "running")
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def _ops_stream(n: int, services: int, seed: int = 7) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    return [(f"svc-{rnd.randrange(services)}", rnd.choice(STATES)) for _ in range(n)]


def _assert_one_current_reading_per_service(store, stream):
    """Every conflict ever opened pairs one subject; each service ends with exactly one live
    STATE fact, and it reads the status the service was last reported in."""
    for conflict in store.conflicts(status=None):
        assert conflict.fact_a.subject_key == conflict.fact_b.subject_key, conflict
    assert store.open_conflicts() == []
    live = store.facts_by_verdict("active", "contested", kind="STATE")
    by_subject: dict[str, list] = {}
    for f in live:
        by_subject.setdefault(f.subject_key, []).append(f)
    last = dict(stream)  # the last state each service was reported in
    for svc, state in last.items():
        facts = by_subject.get(svc.replace("-", ""), [])
        assert len(facts) == 1, (svc, [f.statement for f in facts])
        assert status_classes(facts[0].statement) == status_classes(f"{svc} is {state}."), (
            svc, state, facts[0].statement)


@pytest.mark.parametrize("mode", MODES)
def test_an_ops_chat_stream_never_conflicts_across_services(open_store, mode):
    store = open_store(extractor=RuleExtractor(), settings=Settings(difference_detector=mode))
    stream = _ops_stream(200, 40)
    for svc, state in stream:
        result = store.remember(f"{svc} is {state} right now")
        (outcome,) = result.outcomes
        assert outcome.scope == "subject" and result.interrupts == ()
    _assert_one_current_reading_per_service(store, stream)


def test_the_same_stream_through_a_model_extractor(open_store):
    """The Ollama client against the loopback stand-in: the model names each fact's subject."""
    def reply(body):
        text = body["messages"][0]["content"].rsplit("TEXT\n", 1)[1].strip()
        svc = text.split()[0]
        return json.dumps({"facts": [{"statement": f"{svc} is currently "
                                                   f"{text.split()[2]}.",
                                      "kind": "STATE", "quote": text, "subject": svc,
                                      "topics": [svc], "supersedes": False}]})

    stream = _ops_stream(80, 12, seed=11)
    with OllamaStandIn() as standin:
        standin.reply_with(reply)
        store = open_store(extractor=OllamaExtractor("qwen2.5:7b", host=standin.host))
        for svc, state in stream:
            (outcome,) = store.remember(f"{svc} is {state} right now").outcomes
            assert outcome.fact.evidence_captured_by == "ollama/qwen2.5:7b"
            assert outcome.fact.subject_key == svc.replace("-", "")
    _assert_one_current_reading_per_service(store, stream)


def test_the_same_stream_through_a_scripted_extractor_without_subjects(store):
    stream = _ops_stream(80, 12, seed=3)
    for svc, state in stream:
        text = f"{svc} is {state} right now"
        store.extractor.add(text, fact(f"Right now {svc} is {state}.", quote=text))
        (outcome,) = store.remember(text).outcomes
        assert outcome.fact.subject_key == svc.replace("-", "")  # read off the statement
    _assert_one_current_reading_per_service(store, stream)


READINGS = (("healthy", 0), ("degraded", 1), ("paused", 2), ("running", 3))


@pytest.mark.parametrize("order", list(itertools.permutations(range(4)))[::5])
def test_every_arrival_order_of_the_same_readings_ends_on_the_newest(open_store, order):
    """Readings carry when they were said; whatever order they arrive in, the newest is the
    one current reading and every other is history."""
    store = open_store(extractor=RuleExtractor())
    for index in order:
        state, hours = READINGS[index]
        store.remember(f"svc-9 is {state} right now", source_ref=f"chat:{index}",
                       said_at=T0 + timedelta(hours=hours))
    live = store.facts_by_verdict("active", "contested", kind="STATE")
    assert [f.statement for f in live] == ["svc-9 is running right now."]
    assert store.describe().facts_by_kind_verdict["STATE"] == {"active": 1, "superseded": 3}
    assert store.open_conflicts() == []


def test_rerunning_a_stream_changes_nothing(open_store):
    store = open_store(extractor=RuleExtractor())
    stream = _ops_stream(30, 5, seed=5)

    def run():
        for i, (svc, state) in enumerate(stream):
            store.remember(f"{svc} is {state} right now", source_ref=f"chat:{i}",
                           said_at=T0 + timedelta(minutes=i))
        return store.describe().facts_by_kind_verdict["STATE"], len(store.conflicts(None))

    first = run()
    assert run() == first


def test_a_repeated_heartbeat_is_verified_again_not_ignored(store):
    text = store.extractor.add("svc-1 is green right now",
                               fact("svc-1 is green right now.", subject="svc-1"))
    first = store.remember(text, captured_at=T0).outcomes[0].fact
    again = store.remember(text, captured_at=T0 + timedelta(hours=3)).outcomes[0]
    assert again.outcome == "recaptured" and again.fact.id == first.id
    assert again.fact.t_last_verified == T0 + timedelta(hours=3)
    # the very same capture replayed (same time) is a re-run
    assert store.remember(text, captured_at=T0 + timedelta(hours=3)).outcomes[0].outcome == \
        "unchanged"


# -- the single repros -------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_a_near_hit_about_another_subject_never_supersedes(open_store, mode):
    store = open_store(extractor=RuleExtractor(), settings=Settings(difference_detector=mode))
    web1 = store.remember("web-1 runs 3 replicas right now.").outcomes[0].fact
    other = store.remember("web-2 is now running 5 replicas.").outcomes[0]
    assert other.outcome == "written" and "another subject" in other.note
    assert store.fact(web1.id).verdict == "active"


@pytest.mark.parametrize("mode", MODES)
def test_staging_and_production_clusters_are_two_subjects(open_store, mode):
    store = open_store(settings=Settings(difference_detector=mode))
    say(store, "The staging cluster runs in eu-west-1.")
    result = say(store, "The production cluster runs in us-east-1.")
    assert result.outcomes[0].outcome == "written" and store.open_conflicts() == []


@pytest.mark.parametrize("mode", ("annotate", "route"))
def test_reworded_restatements_are_testimony_never_interrupts(open_store, mode):
    store = open_store(extractor=RuleExtractor(), settings=Settings(difference_detector=mode))
    first = store.remember("web-9 runs 3 replicas right now.").outcomes[0].fact
    for i, text in enumerate(("Right now web-9 runs 3 replicas.",
                              "web-9 currently runs three replicas.",
                              "web-9 really runs 3 replicas right now.",
                              "At the moment web-9 runs 3 replicas.")):
        result = store.remember(text, source_ref=f"chat:{i}")
        assert [o.outcome for o in result.outcomes] == ["recaptured"], text
        assert result.outcomes[0].fact.id == first.id and result.interrupts == ()
    assert store.fact(first.id).support_count == 5
    assert store.conflicts(None) == []


@pytest.mark.parametrize("mode", MODES)
def test_a_negation_below_the_threshold_is_caught(open_store, mode):
    store = open_store(extractor=RuleExtractor(), settings=Settings(difference_detector=mode))
    first = store.remember("We decided to use Redis.").outcomes[0].fact
    result = store.remember("We decided not to use Redis.")
    outcome = result.outcomes[0]
    assert outcome.similarity < store.settings.density_threshold
    assert outcome.outcome == "contested" and outcome.related_fact_id == first.id
    assert any(d.startswith("negation") for d in result.interrupts[0].differences)


@pytest.mark.parametrize(("old", "new"), [
    ("The freezer runs at −18 degrees.", "The freezer runs at 18 degrees."),
    ("The team plan costs 5 € per seat.", "The team plan costs 5 $ per seat."),
])
def test_signs_and_currencies_are_changes_not_recaptures(store, old, new):
    first = say(store, old).outcomes[0].fact
    outcome = say(store, new).outcomes[0]
    assert outcome.outcome == "superseded-prior" and outcome.lane == "revision"
    assert store.fact(first.id).superseded_by == outcome.fact.id


def test_a_preference_change_supersedes_the_old_preference_with_history(open_store):
    store = open_store(extractor=RuleExtractor())
    old = store.remember("I prefer dark mode.").outcomes[0].fact
    result = store.remember("I no longer prefer dark mode; I prefer light mode.")
    (outcome,) = result.outcomes
    assert outcome.fact.statement.startswith("The user no longer prefers dark mode")
    assert outcome.fact.verdict == "active" and outcome.outcome == "superseded-prior"
    assert store.fact(old.id).superseded_by == outcome.fact.id
    assert [h.to_verdict for h in store.history(old.id)] == ["active", "superseded"]
    # and without the explicit cue, the newer preference still replaces the older
    later = store.remember("I prefer dark mode again.", said_at=datetime.now(UTC)
                           + timedelta(minutes=1)).outcomes[0]
    assert later.lane in ("revision", "lane-1") and later.outcome == "superseded-prior"


@pytest.mark.parametrize("mode", MODES)
def test_resolution_never_resurrects_a_loser(store, mode):
    """3 replicas; 5 contested against it; 'now 7' supersedes 5: 3 must not come back."""
    store.settings = Settings(difference_detector=mode)
    three = say(store, "The web tier will run 3 replicas.", "DECISION").outcomes[0].fact
    five = say(store, "The web tier will run 5 replicas.", "DECISION")
    assert five.outcomes[0].outcome == "contested"
    seven = say(store, "The web tier will now run 7 replicas.", "DECISION", supersedes=True)
    outcome = seven.outcomes[0]
    assert outcome.outcome == "superseded-prior" and outcome.lane == "lane-1"
    live = store.facts_by_verdict("active", "contested", kind="DECISION")
    if mode == "off":
        # cosine alone cannot say 7 contradicts 3: 3 stays contested, now against 7
        assert {f.id for f in live} == {three.id, outcome.fact.id}
        assert all(f.verdict == "contested" for f in live)
        (open_conflict,) = store.open_conflicts()
        assert open_conflict.lane == "inherited"
    else:
        assert [f.id for f in live] == [outcome.fact.id]
        assert store.fact(three.id).superseded_by == outcome.fact.id
        assert store.open_conflicts() == []
        closed = store.conflict(five.interrupts[0].conflict_id)
        assert (closed.resolution, closed.winner, closed.settled_by) == (
            "both-superseded", None, outcome.fact.id)
    assert store.fact(three.id).verdict != "active"


def test_a_both_superseded_conflict_refuses_both_stand(store):
    say(store, "The web tier will run 3 replicas.", "DECISION")
    cid = say(store, "The web tier will run 5 replicas.", "DECISION").interrupts[0].conflict_id
    say(store, "The web tier will now run 7 replicas.", "DECISION", supersedes=True)
    from factstore.errors import ConflictStateError
    with pytest.raises(ConflictStateError, match="replaced both sides"):
        store.resolve_both_stand(cid, "both true")


def test_a_fact_without_a_subject_falls_back_to_the_kind_wide_check(store):
    say(store, "Always write a failing test before fixing a bug.", "RULE")
    result = say(store, "Always write a failing test after fixing a bug.", "RULE")
    outcome = result.outcomes[0]
    assert outcome.scope == "kind" and outcome.fact.subject_key is None
    assert outcome.outcome == "contested" and outcome.lane == "rule-exception"


# -- small write-path truths -------------------------------------------------------------------

MODEL_NAMES = ("qwen2.5-7b-instruct", "claude-3-5-sonnet", "gpt-4o-mini", "mistral-large-2407",
               "gemini-1.5-pro")


def test_model_names_are_never_topics_or_candidate_roots(store):
    text = "the eval compared five models on the billing summaries"
    store.extractor.add(text, fact("The eval compared five models on billing summaries.",
                                   "EVENT", quote=text, topics=(*MODEL_NAMES, "billing")))
    written = store.remember(text).outcomes[0].fact
    dropped = {d["topic"]: d["reason"] for d in written.meta["dropped_topics"]}
    assert set(dropped) == set(MODEL_NAMES)
    assert all("model name" in reason for reason in dropped.values())
    assert store.registry_candidates() == []


def test_the_writer_defaults_to_the_extractors_name(open_store):
    store = open_store(extractor=RuleExtractor())
    written = store.remember("sample-svc is green right now").outcomes[0].fact
    assert written.evidence_captured_by == "rules/v1"
    named = store.remember("other-svc is red right now", captured_by="ops-bot").outcomes[0]
    assert named.fact.evidence_captured_by == "ops-bot"


def test_lane2_links_the_winning_existing_fact_to_the_loser(store, tmp_path):
    real = tmp_path / "real.env"
    real.write_text("x")
    old = say(store, f"The runner token is stored at {real}.", "REFERENCE").outcomes[0].fact
    lost = say(store, f"The runner token is stored at {tmp_path / 'gone.env'}.",
               "REFERENCE").outcomes[0]
    assert lost.outcome == "ground-truth-lost"
    assert store.fact(old.id).supersedes == lost.fact.id
    assert lost.fact.superseded_by == old.id


def test_rows_from_before_subjects_get_their_keys_when_the_store_opens(open_store):
    store = open_store(extractor=RuleExtractor())
    written = store.remember("web-1 runs 3 replicas right now.").outcomes[0].fact
    # Simulate a row written before migration 004 read subjects.
    with store._tx() as cur:
        cur.execute("UPDATE facts SET subject_key = NULL, subject_source = NULL")
    assert store.fact(written.id).subject_key is None
    reopened = open_store(extractor=RuleExtractor())
    assert reopened.fact(written.id).subject_key == "web1"


def test_describe_reports_the_new_settings(store):
    settings = store.describe().settings
    assert settings["difference_detector"] == "route"
    assert settings["subject_floor"] <= settings["contradiction_floor"] < settings[
        "density_threshold"]
    assert Kind.STATE.value in store.describe().facts_by_kind_verdict


# -- a fuzzed stream over the public API -------------------------------------------------------

from hypothesis import HealthCheck, given  # noqa: E402
from hypothesis import settings as hsettings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from factstore.errors import FactStoreError  # noqa: E402

_SUBJECTS = st.sampled_from(["svc-1", "svc-2", "payments-api", "The web tier", "It", "We",
                             "The user", "Nobody", "web-1"])
_PREDICATES = st.sampled_from([
    "is green right now", "is red right now", "is not green right now", "runs 3 replicas",
    "runs three replicas right now", "runs 5 replicas", "is now running 7 replicas",
    "costs 5 € per seat", "costs 5 $ per seat", "runs at −18 degrees", "runs at 18 degrees",
    "decided to use Redis", "decided not to use Redis", "prefer dark mode",
    "no longer prefer dark mode", "is paused", "is degraded right now", "\u0000 is odd",
])
_CAPTURE = st.builds(lambda s, p, tail: f"{s} {p}{tail}", _SUBJECTS, _PREDICATES,
                     st.sampled_from(["", ".", "!", " right now.", "; scratch that."]))


@hsettings(max_examples=10, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stream=st.lists(_CAPTURE, min_size=5, max_size=25))
def test_a_fuzzed_stream_keeps_every_conflict_inside_one_subject(open_store, stream):
    store = open_store(extractor=RuleExtractor())
    for text in stream:
        try:
            store.remember(text)
        except FactStoreError:
            continue  # a typed refusal is an answer; anything else fails the test
    for conflict in store.conflicts(status=None):
        a, b = conflict.fact_a, conflict.fact_b
        assert a.kind == b.kind
        assert a.subject_key is None or b.subject_key is None or a.subject_key == b.subject_key
    for f in store.facts_by_verdict("superseded"):
        assert f.superseded_by is not None
