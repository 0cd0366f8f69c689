"""Write-path stages, pure: outcome absorption and topic hygiene (seed 000 §2 EVENT, §4).

No database: these are plain functions over ExtractedFact records and strings.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from factstore.extractors.base import ExtractedFact
from factstore.settings import DEFAULT_SCRIBE_NAMES
from factstore.writepath.absorb import absorb_outcomes, is_outcome_shaped
from factstore.writepath.anchors import quote_is_anchored
from factstore.writepath.topics import clean_topics, is_entity_shaped

SEED_SOURCE = ("migrated all 214 pages. Checksum parity verified (214 == 214), link sweep found "
               "zero broken links")
HOST_QUOTE = "migrated all 214 pages"
OUTCOME_QUOTE = "Checksum parity verified (214 == 214), link sweep found zero broken links"


def event(statement: str, quote: str, **kw) -> ExtractedFact:
    return ExtractedFact(statement=statement, kind="EVENT", quote=quote, **kw)


def seed_pair() -> list[ExtractedFact]:
    return [
        event("A doc migration moved all 214 pages.", HOST_QUOTE, topics=("docs", "migration")),
        event("Checksum parity verified (214 == 214) and a link sweep found zero broken links.",
              OUTCOME_QUOTE, topics=("migration", "links")),
    ]


# --------------------------------------------------------------------------- is_outcome_shaped


def test_outcome_shape_recognises_checks_counts_and_scores():
    for statement in ("Checksum parity verified (214 == 214).",
                      "12 of 12 fixtures matched.",
                      "The eval scored 0.91.",
                      "The link sweep found zero broken links.",
                      "All tests passed on the branch."):
        assert is_outcome_shaped(event(statement, statement)), statement


def test_action_event_is_not_outcome_shaped():
    assert not is_outcome_shaped(event("A doc migration moved all 214 pages.", HOST_QUOTE))
    assert not is_outcome_shaped(event("The team deployed the new theme.", "deployed the theme"))


def test_only_events_are_outcome_shaped():
    stmt = "The nightly job verified green."
    assert not is_outcome_shaped(ExtractedFact(statement=stmt, kind="STATE", quote=stmt))
    assert is_outcome_shaped(ExtractedFact(statement=stmt, kind="event", quote=stmt))


# --------------------------------------------------------------------------- absorb_outcomes


def test_seed_example_folds_into_one_event():
    out = absorb_outcomes(seed_pair(), SEED_SOURCE)
    assert len(out) == 1
    merged = out[0]
    assert merged.kind == "EVENT"
    # the merged quote is a verbatim span of the source that covers both quotes
    assert merged.quote in SEED_SOURCE
    assert HOST_QUOTE in merged.quote and OUTCOME_QUOTE in merged.quote
    assert merged.quote == SEED_SOURCE
    assert merged.statement.startswith("A doc migration moved all 214 pages")
    assert "checksum parity verified (214 == 214)" in merged.statement
    assert merged.meta["absorbed_outcomes"] == [{
        "statement": "Checksum parity verified (214 == 214) and a link sweep found zero broken "
                     "links.",
        "quote": OUTCOME_QUOTE,
    }]


def test_absorption_merges_topics_without_duplicates_in_order():
    merged = absorb_outcomes(seed_pair(), SEED_SOURCE)[0]
    assert merged.topics == ("docs", "migration", "links")


def test_absorption_does_not_mutate_the_inputs():
    facts = seed_pair()
    absorb_outcomes(facts, SEED_SOURCE)
    assert facts[0].quote == HOST_QUOTE
    assert "absorbed_outcomes" not in facts[0].meta


def test_merged_quote_is_verbatim_even_when_quotes_are_whitespace_mangled():
    source = "migrated all 214\npages.  Checksum parity verified (214 == 214)"
    facts = [event("Moved all 214 pages.", "migrated all 214 pages"),
             event("Checksum parity verified.", "Checksum parity verified (214 == 214)")]
    out = absorb_outcomes(facts, source)
    assert len(out) == 1
    assert out[0].quote == source
    assert quote_is_anchored(out[0].quote, source)
    assert out[0].meta["absorbed_outcomes"][0]["quote"] == "Checksum parity verified (214 == 214)"


def test_consecutive_outcomes_all_fold_into_the_host():
    source = "deployed release 7. Smoke checks passed. 40 of 40 canaries matched."
    facts = [event("Release 7 was deployed.", "deployed release 7"),
             event("Smoke checks passed.", "Smoke checks passed."),
             event("40 of 40 canaries matched.", "40 of 40 canaries matched.")]
    out = absorb_outcomes(facts, source)
    assert len(out) == 1
    assert out[0].quote == source
    assert [a["quote"] for a in out[0].meta["absorbed_outcomes"]] == [
        "Smoke checks passed.", "40 of 40 canaries matched."]


def test_non_adjacent_outcome_does_not_fold():
    source = ("migrated all 214 pages. Then we spent the afternoon reviewing the layout of the new "
              "site with the design group. Checksum parity verified (214 == 214)")
    facts = [event("Moved all 214 pages.", HOST_QUOTE),
             event("Checksum parity verified.", "Checksum parity verified (214 == 214)")]
    out = absorb_outcomes(facts, source)
    assert out == facts


def test_outcome_after_a_non_event_does_not_fold():
    source = "sample-svc is green right now. Checksum parity verified (214 == 214)"
    facts = [ExtractedFact(statement="sample-svc is green.", kind="STATE",
                           quote="sample-svc is green right now."),
             event("Checksum parity verified.", "Checksum parity verified (214 == 214)")]
    out = absorb_outcomes(facts, source)
    assert out == facts


def test_non_outcome_event_does_not_fold_into_the_previous_event():
    source = "migrated all 214 pages. Deployed the new theme afterwards"
    facts = [event("Moved all 214 pages.", HOST_QUOTE),
             event("The new theme was deployed.", "Deployed the new theme afterwards")]
    out = absorb_outcomes(facts, source)
    assert out == facts


def test_leading_outcome_with_no_host_stays_standalone():
    source = "Checksum parity verified (214 == 214). migrated all 214 pages"
    facts = [event("Checksum parity verified.", "Checksum parity verified (214 == 214)"),
             event("Moved all 214 pages.", HOST_QUOTE)]
    assert absorb_outcomes(facts, source) == facts


def test_outcome_before_its_host_in_the_source_does_not_fold():
    # adjacency is in source order: an outcome quoted *before* the event is not its report
    source = "Checksum parity verified (214 == 214). migrated all 214 pages"
    facts = [event("Moved all 214 pages.", HOST_QUOTE),
             event("Checksum parity verified.", "Checksum parity verified (214 == 214)")]
    assert absorb_outcomes(facts, source) == facts


def test_unlocatable_quote_does_not_fold():
    facts = [event("Moved all 214 pages.", HOST_QUOTE),
             event("Checksum parity verified.", "parity was verified")]
    assert absorb_outcomes(facts, SEED_SOURCE) == facts


# --------------------------------------------------------------------------- clean_topics


def test_model_and_scribe_names_are_dropped_with_a_reason():
    hygiene = clean_topics(["GPT-4o", "llama3.1:8b", "Claude", "sample-svc"], captured_by=None,
                           scribe_names=DEFAULT_SCRIBE_NAMES)
    assert hygiene.kept == ("sample-svc",)
    assert [t for t, _ in hygiene.dropped] == ["GPT-4o", "llama3.1:8b", "Claude"]
    for _, reason in hygiene.dropped:
        assert reason.startswith("scribe/model name")


def test_captured_by_is_dropped_even_when_not_a_known_scribe():
    hygiene = clean_topics(["Sonnet", "ops"], captured_by="  Sonnet ", scribe_names=())
    assert hygiene.kept == ("ops",)
    assert hygiene.dropped == (
        ("Sonnet", "captured_by: the scribe wrote it, the capture is not about it"),)


def test_captured_by_family_name_is_dropped():
    hygiene = clean_topics(["acme-writer", "billing"], captured_by="acme-writer-7b",
                           scribe_names=())
    assert hygiene.kept == ("billing",)
    assert hygiene.dropped[0][0] == "acme-writer"
    assert hygiene.dropped[0][1].startswith("captured_by")


def test_dedupe_is_case_insensitive_and_keeps_first_spelling():
    hygiene = clean_topics(["Build Pipeline", "build  pipeline", "BUILD PIPELINE", "staging"],
                           captured_by=None, scribe_names=())
    assert hygiene.kept == ("Build Pipeline", "staging")
    assert [t for t, _ in hygiene.dropped] == ["build pipeline", "BUILD PIPELINE"]
    assert all(r.startswith("duplicate") for _, r in hygiene.dropped)


def test_ordinary_topics_pass_through_in_order():
    topics = ["sample-svc", "nightly", "ops.runner", "UTF-16"]
    hygiene = clean_topics(topics, captured_by="gpt-4o", scribe_names=DEFAULT_SCRIBE_NAMES)
    assert hygiene.kept == tuple(topics)
    assert hygiene.dropped == ()


def test_model_name_containing_words_are_not_mistaken_for_scribes():
    hygiene = clean_topics(["graphics", "philosophy", "claudette-project"], captured_by=None,
                           scribe_names=DEFAULT_SCRIBE_NAMES)
    assert hygiene.kept == ("graphics", "philosophy", "claudette-project")


_TOPIC = st.text(st.sampled_from(list("abcAB .-1")), min_size=1, max_size=12)


@given(st.lists(_TOPIC, max_size=12))
def test_every_topic_is_kept_or_dropped_with_a_reason(topics):
    hygiene = clean_topics(topics, captured_by="claude", scribe_names=DEFAULT_SCRIBE_NAMES)
    # nothing is lost: blank topics too are dropped with a reason
    assert len(hygiene.kept) + len(hygiene.dropped) == len(topics)
    assert all(reason for _, reason in hygiene.dropped)
    lowered = [t.lower() for t in hygiene.kept]
    assert len(lowered) == len(set(lowered))


# --------------------------------------------------------------------------- is_entity_shaped


def test_entity_shaped_topics():
    for topic in ("Kubernetes", "k8s", "ops.runner", "sample-svc v2", "UTF-16"):
        assert is_entity_shaped(topic), topic


def test_lowercase_common_words_are_not_entity_shaped():
    for topic in ("deployment", "some notes", "build-pipeline", "end.", ".hidden"):
        assert not is_entity_shaped(topic), topic


def test_non_ascii_uppercase_letter_is_entity_shaped():
    # seed §4: "an uppercase letter" — not only A-Z
    assert is_entity_shaped("Ölwerk")
    assert is_entity_shaped("Éclair")


def test_an_outcome_that_opens_apart_reports_on_something_else():
    for text, second in [
        ("Upgraded the VPN gateway to 2.8. Separately, the nightly load test scored 0.97.",
         "Separately, the nightly load test scored 0.97"),
        ("Migrated the wiki on Monday. On Tuesday the smoke suite passed 12 of 12.",
         "On Tuesday the smoke suite passed 12 of 12"),
    ]:
        first = text.split(". ")[0]
        facts = [event(first + ".", first), event(second + ".", second)]
        assert is_outcome_shaped(facts[1])
        assert absorb_outcomes(facts, text) == facts
    # the same outcome without the separator folds, as the seed's migration does
    text = "Upgraded the VPN gateway to 2.8. The load test scored 0.97."
    facts = [event("Upgraded.", "Upgraded the VPN gateway to 2.8"),
             event("Scored.", "The load test scored 0.97")]
    assert len(absorb_outcomes(facts, text)) == 1
