"""Write-path stages, pure: triage lanes and prepare_capture (seed 000 §3, §4).

No database: triage takes a fake ``path_exists`` callable and prepare_capture a scripted
extractor defined here.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from factstore.extractors.base import ExtractedFact, ExtractionContext
from factstore.kinds import Kind
from factstore.settings import Settings
from factstore.statements import normalise_statement
from factstore.writepath.prepare import prepare_capture
from factstore.writepath.triage import Candidate, filesystem_paths, triage

# --------------------------------------------------------------------------- filesystem_paths


def test_windows_and_posix_paths_are_found():
    text = r"token at C:\ops\sample\runner.env, config in /etc/sample/app.toml."
    assert filesystem_paths(text) == (r"C:\ops\sample\runner.env", "/etc/sample/app.toml")


def test_home_and_relative_paths_are_found():
    assert filesystem_paths("see ~/notes/todo.md and ./build/out.log") == (
        "~/notes/todo.md", "./build/out.log")


def test_urls_never_count_as_paths():
    text = "docs at https://example.com/ops/runner.html and file:///etc/hosts"
    assert filesystem_paths(text) == ()


def test_slash_words_are_not_paths():
    assert filesystem_paths("and/or 24/7 I/O read/write") == ()


def test_trailing_punctuation_is_not_part_of_the_path():
    assert filesystem_paths("it lives at /srv/app/run.sh).") == ("/srv/app/run.sh",)


def test_repeated_path_is_reported_once():
    assert filesystem_paths("/srv/a and again /srv/a") == ("/srv/a",)


def test_doubled_backslash_windows_path_is_not_truncated_to_the_drive_root():
    # seed §3: transport escapes a Windows path as C:\\ops; anchors forgive it, so must this.
    # BUG: the Windows pattern stops at the first doubled backslash and yields 'C:\'.
    found = filesystem_paths("token at C:\\\\ops\\\\sample\\\\runner.env")
    assert "C:\\" not in found
    assert found == (r"C:\ops\sample\runner.env",)


# --------------------------------------------------------------------------- triage


def exists_in(*paths: str):
    present = set(paths)
    calls: list[str] = []

    def path_exists(path: str) -> bool:
        calls.append(path)
        return path in present

    path_exists.calls = calls  # type: ignore[attr-defined]
    return path_exists


NEVER = exists_in()


def cand(kind: Kind, statement: str, quote: str | None = None) -> Candidate:
    return Candidate(kind, statement, quote if quote is not None else statement)


NEW_REF = cand(Kind.REFERENCE, r"The runner token is at C:\ops\new\runner.env.")
OLD_REF = cand(Kind.REFERENCE, r"The runner token is at C:\ops\old\runner.env.")


def test_rule_exception_comes_first_even_with_explicit_supersession():
    new = cand(Kind.RULE, "Always write a failing test before the fix.")
    old = cand(Kind.RULE, "Write the fix first, tests after.")
    decision = triage(new, old, explicit_supersession=True, path_exists=NEVER)
    assert decision.lane == "rule-exception"
    assert decision.winner is None


def test_rule_exception_beats_ground_truth():
    new = cand(Kind.RULE, "Scripts live in /srv/new/scripts.")
    old = cand(Kind.RULE, "Scripts live in /srv/old/scripts.")
    decision = triage(new, old, explicit_supersession=False,
                      path_exists=exists_in("/srv/new/scripts"))
    assert decision.lane == "rule-exception"


def test_lane_1_on_explicit_supersession():
    new = cand(Kind.DECISION, "Ship through staging only.")
    old = cand(Kind.DECISION, "Ship straight to production.")
    decision = triage(new, old, explicit_supersession=True, path_exists=NEVER)
    assert decision.lane == "lane-1"
    assert decision.winner == "new"


def test_lane_1_beats_ground_truth():
    decision = triage(NEW_REF, OLD_REF, explicit_supersession=True,
                      path_exists=exists_in(r"C:\ops\old\runner.env"))
    assert decision.lane == "lane-1"
    assert decision.winner == "new"


@pytest.mark.parametrize("kind", [Kind.STATE, Kind.REFERENCE])
def test_lane_2_new_path_exists(kind):
    new = cand(kind, NEW_REF.statement)
    old = cand(kind, OLD_REF.statement)
    decision = triage(new, old, explicit_supersession=False,
                      path_exists=exists_in(r"C:\ops\new\runner.env"))
    assert decision.lane == "lane-2"
    assert decision.winner == "new"
    assert r"C:\ops\new\runner.env" in decision.reason


@pytest.mark.parametrize("kind", [Kind.STATE, Kind.REFERENCE])
def test_lane_2_existing_path_exists(kind):
    new = cand(kind, "Config is at /etc/app/new.toml")
    old = cand(kind, "Config is at /etc/app/old.toml")
    decision = triage(new, old, explicit_supersession=False,
                      path_exists=exists_in("/etc/app/old.toml"))
    assert decision.lane == "lane-2"
    assert decision.winner == "existing"


def test_lane_2_reads_paths_from_the_quote_too():
    new = cand(Kind.REFERENCE, "The runner token moved.", "it lives at /srv/new/token now")
    old = cand(Kind.REFERENCE, "The runner token location.", "it lives at /srv/old/token")
    decision = triage(new, old, explicit_supersession=False,
                      path_exists=exists_in("/srv/new/token"))
    assert (decision.lane, decision.winner) == ("lane-2", "new")


@pytest.mark.parametrize("existing", [(), (r"C:\ops\new\runner.env", r"C:\ops\old\runner.env")],
                         ids=["neither", "both"])
def test_both_or_neither_paths_existing_is_lane_3(existing):
    decision = triage(NEW_REF, OLD_REF, explicit_supersession=False,
                      path_exists=exists_in(*existing))
    assert decision.lane == "lane-3"
    assert decision.winner is None


def test_urls_fall_through_to_lane_3_without_being_checked():
    new = cand(Kind.REFERENCE, "The dashboard is at https://dash.example.com/new/board")
    old = cand(Kind.REFERENCE, "The dashboard is at https://dash.example.com/old/board")
    probe = exists_in("/new/board", "https://dash.example.com/new/board")
    decision = triage(new, old, explicit_supersession=False, path_exists=probe)
    assert decision.lane == "lane-3"
    assert probe.calls == []  # type: ignore[attr-defined]


def test_one_side_without_a_path_is_lane_3():
    new = cand(Kind.STATE, "The token is at /srv/token")
    old = cand(Kind.STATE, "The token is in the vault")
    decision = triage(new, old, explicit_supersession=False, path_exists=exists_in("/srv/token"))
    assert decision.lane == "lane-3"


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.PREFERENCE, Kind.RESIDUAL, Kind.EVENT])
def test_other_kinds_with_paths_are_lane_3(kind):
    new = cand(kind, "Scripts live in /srv/new/scripts")
    old = cand(kind, "Scripts live in /srv/old/scripts")
    probe = exists_in("/srv/new/scripts")
    decision = triage(new, old, explicit_supersession=False, path_exists=probe)
    assert decision.lane == "lane-3"
    assert decision.winner is None
    assert probe.calls == []  # type: ignore[attr-defined]


def test_doubled_backslash_path_still_decides_lane_2():
    # A real filesystem has the drive root and every directory on the way.
    fs = exists_in("C:\\", r"C:\ops", r"C:\ops\sample", r"C:\ops\sample\runner.env")
    new = cand(Kind.REFERENCE, r"The runner token lives at C:\ops\sample\runner.env")
    old = cand(Kind.REFERENCE, "The runner token lives at C:\\\\ops\\\\old\\\\runner.env")
    decision = triage(new, old, explicit_supersession=False, path_exists=fs)
    # BUG: the old path is read as 'C:\' (which exists), so both sides "exist" -> lane 3
    assert (decision.lane, decision.winner) == ("lane-2", "new")


def test_doubled_backslash_path_to_nothing_does_not_win_on_the_drive_root():
    fs = exists_in("C:\\", r"C:\ops")
    new = cand(Kind.REFERENCE, "The runner token lives at C:\\\\ops\\\\gone\\\\runner.env")
    old = cand(Kind.REFERENCE, r"The runner token lives at C:\ops\missing\runner.env")
    decision = triage(new, old, explicit_supersession=False, path_exists=fs)
    # neither named file exists, so the filesystem cannot decide.
    # BUG: the new side's path is read as 'C:\', which exists, so it wins lane 2.
    assert (decision.lane, decision.winner) == ("lane-3", None)


# --------------------------------------------------------------------------- prepare_capture


class Scripted:
    """A tiny extractor: returns what it was given and records every call."""

    name = "scripted/stage-test"

    def __init__(self, *facts: ExtractedFact) -> None:
        self.facts = list(facts)
        self.calls: list[tuple[str, ExtractionContext]] = []

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        self.calls.append((text, context))
        return list(self.facts)


SETTINGS = Settings()
CTX = ExtractionContext(captured_by="gpt-4o")


def xf(statement: str, kind: str = "STATE", quote: str | None = None, **kw) -> ExtractedFact:
    return ExtractedFact(statement=statement, kind=kind,
                         quote=quote if quote is not None else statement.rstrip("."), **kw)


def test_prepare_passes_an_anchored_fact_through():
    text = "sample-svc is green right now"
    extractor = Scripted(xf("The nightly job is green on sample-svc.", quote=text,
                            subject="sample-svc", expected_lifetime="2d"))
    prepared = prepare_capture(text, CTX, extractor, SETTINGS)
    assert extractor.calls == [(text, CTX)]
    assert prepared.gate.is_index_page is False
    assert prepared.dropped == ()
    (fact,) = prepared.facts
    assert fact.kind is Kind.STATE
    assert fact.quote == text
    assert fact.fields == {"subject": "sample-svc", "expected_lifetime": timedelta(days=2)}
    assert fact.statement_norm == normalise_statement(fact.statement)
    assert fact.supersedes is False
    assert "cleared_fields" not in fact.meta


def test_prepare_drops_an_unanchored_fact_with_stage_anchor():
    text = "the runner token lives at C:\\ops\\sample\\runner.env"
    extractor = Scripted(
        xf("Token location.", "REFERENCE", quote="the token is stored at C:\\ops\\sample"),
        xf("Token path.", "REFERENCE", quote="C:\\\\ops\\\\sample\\\\runner.env"),
    )
    prepared = prepare_capture(text, CTX, extractor, SETTINGS)
    assert [f.statement for f in prepared.facts] == ["Token path."]
    (drop,) = prepared.dropped
    assert drop.stage == "anchor"
    assert drop.statement == "Token location."
    assert drop.quote == "the token is stored at C:\\ops\\sample"
    assert "does not occur" in drop.reason


def test_prepare_drops_an_empty_quote_with_stage_anchor():
    text = "sample-svc is green"
    prepared = prepare_capture(text, CTX, Scripted(xf("Green.", quote="  ")), SETTINGS)
    assert prepared.facts == ()
    assert [d.stage for d in prepared.dropped] == ["anchor"]
    assert prepared.dropped[0].reason


def test_prepare_drops_an_unknown_kind_with_stage_kind():
    text = "we think it might be fine"
    prepared = prepare_capture(text, CTX, Scripted(xf("It is fine.", "OPINION", quote=text)),
                               SETTINGS)
    assert prepared.facts == ()
    (drop,) = prepared.dropped
    assert drop.stage == "kind"
    assert drop.kind == "OPINION"
    assert "OPINION" in drop.reason


def test_prepare_drops_an_empty_statement():
    text = "something was said"
    prepared = prepare_capture(text, CTX, Scripted(xf("   ", quote=text)), SETTINGS)
    assert prepared.facts == ()
    assert prepared.dropped[0].stage == "statement"


def test_prepare_accepts_a_kind_case_insensitively():
    text = "I can't stand light-mode editors"
    prepared = prepare_capture(text, CTX, Scripted(xf("Prefers dark mode.", "preference",
                                                      quote=text)), SETTINGS)
    assert prepared.facts[0].kind is Kind.PREFERENCE


def test_prepare_clears_fields_the_kind_does_not_own():
    text = "I can't stand light-mode editors"
    extractor = Scripted(xf("Prefers dark mode.", "PREFERENCE", quote=text, scope="editors",
                            earned_by="years of eye strain", subject="  "))
    fact = prepare_capture(text, CTX, extractor, SETTINGS).facts[0]
    assert fact.fields == {}
    cleared = fact.meta["cleared_fields"]
    assert [c["field"] for c in cleared] == ["scope", "earned_by"]
    assert cleared[0]["value"] == "editors"
    assert all("does not own" in c["reason"] for c in cleared)


def test_prepare_keeps_owned_fields_per_kind():
    text = "everything goes through staging first, no exceptions, that's final"
    extractor = Scripted(xf("Ship only through staging.", "DECISION", quote=text,
                            scope=" build pipeline ", status_detail="locked",
                            subject="staging", risk_weight="low"))
    fact = prepare_capture(text, CTX, extractor, SETTINGS).facts[0]
    assert fact.fields == {"scope": "build pipeline", "status_detail": "locked"}
    # a DECISION owns no subject column, but the subject it names is its subject key
    assert {c["field"] for c in fact.meta["cleared_fields"]} == {"risk_weight"}
    assert (fact.subject_key, fact.subject_source) == ("staging", "extractor")


def test_prepare_clears_an_invalid_status_detail():
    text = "everything goes through staging first"
    extractor = Scripted(xf("Ship through staging.", "DECISION", quote=text,
                            status_detail="probably"))
    fact = prepare_capture(text, CTX, extractor, SETTINGS).facts[0]
    assert "status_detail" not in fact.fields
    assert fact.meta["cleared_fields"][0]["field"] == "status_detail"


@pytest.mark.parametrize(("raw", "parsed"), [("2d", timedelta(days=2)),
                                              ("36h", timedelta(hours=36)),
                                              ("1w", timedelta(weeks=1))])
def test_prepare_parses_expected_lifetime(raw, parsed):
    text = "sample-svc is green right now"
    fact = prepare_capture(text, CTX, Scripted(xf("Green.", quote=text, expected_lifetime=raw)),
                           SETTINGS).facts[0]
    assert fact.fields["expected_lifetime"] == parsed


def test_prepare_clears_an_invalid_expected_lifetime_and_records_it():
    text = "sample-svc is green right now"
    fact = prepare_capture(text, CTX, Scripted(xf("Green.", quote=text, subject="sample-svc",
                                                  expected_lifetime="until friday")),
                           SETTINGS).facts[0]
    assert fact.fields == {"subject": "sample-svc"}
    (cleared,) = fact.meta["cleared_fields"]
    assert cleared["field"] == "expected_lifetime"
    assert cleared["value"] == "until friday"
    assert "not understood" in cleared["reason"]


def test_prepare_gates_an_index_page_without_calling_the_extractor():
    text = "Index: " + " ".join(f"[[Topic {i}]]" for i in range(8))
    extractor = Scripted(xf("Should never be extracted.", quote="Index"))
    prepared = prepare_capture(text, CTX, extractor, SETTINGS)
    assert extractor.calls == []
    assert prepared.gate.is_index_page is True
    assert prepared.facts == ()
    assert prepared.dropped == ()


def test_prepare_gate_uses_the_settings_thresholds():
    text = "See [[Alpha]] and [[Beta]]."
    extractor = Scripted()
    prepare_capture(text, CTX, extractor, SETTINGS)
    assert len(extractor.calls) == 1  # two links: under the default minimum of five
    strict = SETTINGS.replace(index_page_min_links=2, index_page_link_share=0.2)
    extractor = Scripted()
    prepared = prepare_capture(text, CTX, extractor, strict)
    assert prepared.gate.is_index_page is True
    assert extractor.calls == []


def test_prepare_topic_hygiene_records_dropped_topics():
    text = "sample-svc is green right now"
    extractor = Scripted(xf("Green.", quote=text,
                            topics=("sample-svc", "GPT-4o", "Sample-SVC", "Claude", "nightly")))
    fact = prepare_capture(text, CTX, extractor, SETTINGS).facts[0]
    assert fact.topics == ("sample-svc", "nightly")
    dropped = {d["topic"]: d["reason"] for d in fact.meta["dropped_topics"]}
    assert set(dropped) == {"GPT-4o", "Sample-SVC", "Claude"}
    assert dropped["GPT-4o"].startswith("captured_by")
    assert dropped["Sample-SVC"].startswith("duplicate")
    assert dropped["Claude"].startswith("scribe/model name")


def test_prepare_absorbs_outcomes_after_anchor_hygiene():
    text = ("migrated all 214 pages. Checksum parity verified (214 == 214), link sweep found zero "
            "broken links")
    extractor = Scripted(
        xf("A doc migration moved all 214 pages.", "EVENT", quote="migrated all 214 pages"),
        xf("Made up.", "EVENT", quote="no such words here"),
        xf("Checksum parity verified.", "EVENT",
           quote="Checksum parity verified (214 == 214), link sweep found zero broken links"),
    )
    prepared = prepare_capture(text, CTX, extractor, SETTINGS)
    assert [d.stage for d in prepared.dropped] == ["anchor"]
    (fact,) = prepared.facts
    assert fact.kind is Kind.EVENT
    assert fact.quote == text
    assert fact.meta["absorbed_outcomes"][0]["statement"] == "Checksum parity verified."


def test_prepare_normalises_statement_whitespace_and_keeps_supersedes():
    text = "from now on, repro test first, then the fix"
    extractor = Scripted(xf("  Always write a\n failing test   first. ", "RULE", quote=text,
                            supersedes=True, earned_by="the March regression"))
    fact = prepare_capture(text, CTX, extractor, SETTINGS).facts[0]
    assert fact.statement == "Always write a failing test first."
    assert fact.supersedes is True
    assert fact.fields == {"earned_by": "the March regression"}


def test_prepare_keeps_the_roles_and_clears_unusable_ones():
    text = "alice: the payments api is not on postgres 16"
    good = xf("The payments api is not on postgres 16.", "STATE",
              quote="the payments api is not on postgres 16", predicate=" is  not ",
              object="on postgres 16", asserter="alice", negated=True)
    bad = xf("The payments api is not on postgres 16.", "EVENT",
             quote="the payments api is not on postgres 16", predicate="x" * 401,
             object=7, asserter="   ", negated="yes")
    kept, cleared = prepare_capture(text, CTX, Scripted(good, bad), SETTINGS).facts
    assert kept.roles == {"predicate": "is not", "object": "on postgres 16",
                          "asserter": "alice", "negated": True}
    assert cleared.roles == {}
    assert {c["field"] for c in cleared.meta["cleared_fields"]} == {
        "predicate", "object", "negated"}


def test_a_speaker_is_never_a_topic():
    text = "alice: payments-api is down\nbob: alice is on it"
    fact = xf("payments-api is down.", "STATE", quote="payments-api is down",
              topics=("alice", "payments-api", "p99", "v2"))
    prepared = prepare_capture(text, CTX, Scripted(fact), SETTINGS).facts[0]
    assert prepared.topics == ("payments-api",)
    reasons = {d["topic"]: d["reason"] for d in prepared.meta["dropped_topics"]}
    assert reasons["alice"].startswith("speaker name")
    assert "percentile" in reasons["p99"] and "version" in reasons["v2"]
