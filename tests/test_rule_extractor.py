"""The rule-based scribe: seed evidence quotes, the precision rule, anchors, splitting."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.errors import InvalidInput
from factstore.extractors import RuleExtractor, extractor_from_name
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.extractors.rules import KIND_PRECEDENCE, classify, split_clauses, split_sentences
from factstore.kinds import KIND_COLUMNS, PER_KIND_COLUMNS, Kind

CONTEXT = ExtractionContext(source_type="utterance", source_ref="session-1",
                            said_at=datetime(2025, 1, 2, tzinfo=UTC), captured_by="rules/v1")


def extract(text: str, context: ExtractionContext = CONTEXT) -> list[ExtractedFact]:
    return RuleExtractor().extract(text, context)


def only(text: str) -> ExtractedFact:
    facts = extract(text)
    assert len(facts) == 1, facts
    return facts[0]


def assert_only_owned_columns(fact: ExtractedFact) -> None:
    """Per-kind columns the kind does not own stay empty."""
    owned = KIND_COLUMNS[Kind(fact.kind)]
    for column in PER_KIND_COLUMNS:
        if column not in owned:
            assert getattr(fact, column) is None, (fact.kind, column)


# ---------------------------------------------------------------------------------------------
# The seed's seven synthetic evidence quotes (seed 000 §2)
# ---------------------------------------------------------------------------------------------

def test_seed_decision_is_locked() -> None:
    text = "everything goes through staging first, no exceptions, that's final"
    fact = only(text)
    assert fact.kind == Kind.DECISION
    assert fact.status_detail == "locked"
    assert fact.quote == text
    assert fact.trigger_predicate is None
    assert fact.scope is None  # the quote never names the build pipeline: no inferred scope
    assert_only_owned_columns(fact)


def test_seed_rule() -> None:
    text = "from now on, repro test first, then the fix — no exceptions"
    fact = only(text)
    assert fact.kind == Kind.RULE
    assert fact.earned_by is None  # the quote does not say why the rule was earned
    assert fact.supersedes is False
    assert fact.statement == "From now on, repro test first, then the fix — no exceptions."
    assert_only_owned_columns(fact)


def test_seed_state_names_its_subject() -> None:
    fact = only("sample-svc is green right now")
    assert fact.kind == Kind.STATE
    assert fact.subject == "sample-svc"
    assert fact.expected_lifetime is None  # not stated
    assert "sample-svc" in fact.topics
    assert_only_owned_columns(fact)


def test_seed_preference() -> None:
    fact = only("I can't stand light-mode editors")
    assert fact.kind == Kind.PREFERENCE
    assert fact.statement == "The user can't stand light-mode editors."
    assert "light-mode" in fact.topics
    assert_only_owned_columns(fact)


def test_seed_reference_keeps_backslashes_verbatim() -> None:
    text = r"the runner token lives at C:\ops\sample\runner.env"
    fact = only(text)
    assert fact.kind == Kind.REFERENCE
    assert fact.quote == text
    assert "C:\\ops\\sample\\runner.env" in fact.quote
    assert "C:\\ops\\sample\\runner.env" in fact.statement
    assert_only_owned_columns(fact)


def test_seed_residual_has_its_trigger() -> None:
    fact = only("we'll live with the UTF-16 gap until a non-UTF-8 feed shows up")
    assert fact.kind == Kind.RESIDUAL
    assert fact.trigger_predicate == "a non-UTF-8 feed shows up"
    assert fact.risk_weight is None  # not stated in the quote
    assert fact.statement.startswith("The team will live with the UTF-16 gap")
    assert {"UTF-16", "non-UTF-8"} <= set(fact.topics)
    assert_only_owned_columns(fact)


def test_seed_event_and_its_outcome_are_separate_events() -> None:
    text = ("migrated all 214 pages. Checksum parity verified (214 == 214), "
            "link sweep found zero broken links")
    facts = extract(text)
    assert [f.kind for f in facts] == [Kind.EVENT, Kind.EVENT]
    assert facts[0].quote == "migrated all 214 pages."
    assert facts[1].quote == "Checksum parity verified (214 == 214), link sweep found zero broken links"
    assert text.index(facts[0].quote) < text.index(facts[1].quote)


def test_seed_event_outcome_is_absorbed_by_the_write_path() -> None:
    # Not merged here (one fact per sentence); the write path's absorption pass folds them.
    from factstore.writepath.absorb import absorb_outcomes

    text = ("migrated all 214 pages. Checksum parity verified (214 == 214), "
            "link sweep found zero broken links")
    folded = absorb_outcomes(extract(text), text)
    assert len(folded) == 1
    assert folded[0].quote == text


# ---------------------------------------------------------------------------------------------
# Per-kind fields, filled only when stated
# ---------------------------------------------------------------------------------------------

def test_decision_scope_only_when_named() -> None:
    fact = only("We decided to ship only through staging for the build pipeline.")
    assert fact.kind == Kind.DECISION
    assert fact.scope == "build pipeline"
    assert only("We decided to wait for the results.").scope is None
    assert only("Decision: use uv everywhere, scope: python services.").scope == "python services"


def test_decision_parked_with_trigger() -> None:
    fact = only("We parked the Redis idea until the load test shows a bottleneck.")
    assert fact.kind == Kind.DECISION
    assert fact.status_detail == "parked-with-trigger"
    assert fact.trigger_predicate == "the load test shows a bottleneck"
    revisit = only("We decided against sharding; revisit when traffic doubles.")
    assert revisit.status_detail == "parked-with-trigger"
    assert revisit.trigger_predicate == "traffic doubles"


def test_decision_without_status_words_has_no_status() -> None:
    fact = only("We're going with Postgres.")
    assert fact.kind == Kind.DECISION
    assert fact.status_detail is None
    assert "Postgres" in fact.topics


def test_rule_earned_by_only_when_the_reason_is_stated() -> None:
    fact = only("Always pin dependencies because the March upgrade broke prod.")
    assert fact.kind == Kind.RULE
    assert fact.earned_by == "the March upgrade broke prod"
    assert only("Never deploy on Fridays since the outage in May.").earned_by == (
        "the outage in May")
    # 'after' here is procedure, not a reason.
    assert only("Always run the linter after the merge.").earned_by is None


def test_state_expected_lifetime_only_when_stated() -> None:
    daily = only("The nightly job is currently red (re-check daily).")
    assert (daily.kind, daily.subject, daily.expected_lifetime) == (
        Kind.STATE, "nightly job", "1d")
    two_days = only("The cache is flaky right now, for the next 2 days at least.")
    assert two_days.expected_lifetime == "2d"
    assert two_days.subject == "cache"


def test_residual_risk_weight_only_when_stated() -> None:
    fact = only("Known issue: the importer drops BOMs; low risk, contained blast radius.")
    assert fact.kind == Kind.RESIDUAL
    assert fact.risk_weight == "low risk, contained blast radius"


def test_reference_needs_a_locator() -> None:
    assert only("The config lives at /etc/factstore/config.toml.").kind == Kind.REFERENCE
    assert only("My notes are in ~/notes/work.md.").kind == Kind.REFERENCE
    assert only("Docs at https://example.com/docs.").kind == Kind.REFERENCE
    assert only("The repo is acme/factstore.").kind == Kind.REFERENCE
    assert extract("The meeting is at noon.") == []  # the cue without a locator is nothing


def test_outcome_sentences_are_events() -> None:
    assert only("9 of 9 checks matched.").kind == Kind.EVENT
    assert only("The eval scored 0.91 on the holdout.").kind == Kind.EVENT


def test_future_or_negated_actions_are_not_events() -> None:
    assert extract("The docs will be migrated next week.") == []
    assert extract("We haven't deployed the fix.") == []


# ---------------------------------------------------------------------------------------------
# The precision rule
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "It was a long week. The coffee machine on the third floor hums. "
    "Everyone seemed tired, and the sky looked like rain.",
    "Things are kind of okay I guess. Maybe we should think about stuff at some point.",
    "Hmm.",
    "",
    "   \n\n  ",
])
def test_narrative_or_vague_text_yields_nothing(text: str) -> None:
    assert extract(text) == []


def test_always_or_never_must_govern_something() -> None:
    assert extract("Never again.") == []
    assert only("Never force-push to main.").kind == Kind.RULE


def test_negated_state_keeps_its_subject() -> None:
    fact = only("The build isn't green anymore.")
    assert (fact.kind, fact.subject, fact.supersedes) == (Kind.STATE, "build", True)
    assert "isn't" in fact.statement


def test_questions_assert_nothing() -> None:
    assert extract("Is sample-svc green right now?") == []
    assert extract("Should we always squash merges?") == []


# ---------------------------------------------------------------------------------------------
# Statements: faithful paraphrase, negation kept
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "kept"), [
    ("Never force-push to main.", "Never"),
    ("I don't like tabs.", "doesn't"),
    ("The importer does not validate UTF-16 input; we'll live with it.", "does not"),
    ("sample-svc is no longer the staging box.", "no longer"),
    ("We won't fix the BOM handling; known issue.", "won't"),
    ("I never use light themes, I prefer dark ones.", "never"),
])
def test_negation_is_preserved(text: str, kept: str) -> None:
    statement = only(text).statement
    assert kept in statement
    for negation in ("not", "never", "no longer", "n't"):
        assert (negation in text.lower()) == (negation in statement.lower()), negation


def test_statement_is_third_person_without_filler() -> None:
    assert only("So, I really prefer dark mode.").statement == "The user really prefers dark mode."
    assert only("ok, my favourite editor is vim").statement == "The user's favourite editor is vim."
    assert only("well, we decided to use uv").statement == "The team decided to use uv."
    assert only("Rule: always squash merges").statement == "Always squash merges."


def test_statement_never_capitalises_an_identifier() -> None:
    assert only("sample-svc is green right now").statement == "sample-svc is green right now."


def test_paths_and_quotes_are_not_rewritten() -> None:
    fact = only(r"My token lives at C:\Users\me\my.env.")
    assert fact.statement == "The user's token lives at C:\\Users\\me\\my.env."


# ---------------------------------------------------------------------------------------------
# Supersession: only on explicit replacement language
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "sample-svc is no longer the staging box.",
    "We switched to uv last week.",
    "Actually, the API is now on port 9090.",
    "Correction: we decided on MySQL instead of Postgres.",
    "From now on, use ruff instead of flake8.",
    "The new importer replaces the old one, we decided.",
    "The cache is not flaky anymore, it's green right now.",
])
def test_explicit_supersession_is_flagged(text: str) -> None:
    assert only(text).supersedes is True


@pytest.mark.parametrize("text", [
    "sample-svc is green right now",
    "We decided to use Postgres.",
    "Always squash merges.",
    "I prefer dark mode.",
    "Migrated all 214 pages.",
])
def test_plain_statements_are_not_supersessions(text: str) -> None:
    assert only(text).supersedes is False


def test_standalone_scratch_that_flags_the_next_fact() -> None:
    facts = extract("We're going with Postgres. Scratch that. We're going with MySQL.")
    assert [f.supersedes for f in facts] == [False, True]
    assert facts[1].quote == "We're going with MySQL."


# ---------------------------------------------------------------------------------------------
# Sentence splitting
# ---------------------------------------------------------------------------------------------

def test_splitting_keeps_paths_urls_versions_decimals_and_abbreviations_intact() -> None:
    text = (r"The config lives at /etc/factstore/config.toml. "
            r"The token lives at C:\ops\sample\runner.env. "
            "Version 2.3.1 shipped, see https://example.com/releases/v2.3.1?x=1. "
            "Accuracy was 0.93 e.g. on the eval set, i.e. fine. "
            'He said "stop. now." Then we left.')
    assert [s.text for s in split_sentences(text)] == [
        "The config lives at /etc/factstore/config.toml.",
        r"The token lives at C:\ops\sample\runner.env.",
        "Version 2.3.1 shipped, see https://example.com/releases/v2.3.1?x=1.",
        "Accuracy was 0.93 e.g. on the eval set, i.e. fine.",
        'He said "stop. now."',
        "Then we left.",
    ]


def test_sentence_spans_index_the_source() -> None:
    text = "  - always squash merges\n- never force-push\n\n## Notes\nwe decided on uv!  "
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == [
        "always squash merges", "never force-push", "Notes", "we decided on uv!"]
    for sentence in sentences:
        assert text[sentence.start:sentence.end] == sentence.text


def test_semicolons_do_not_split() -> None:
    text = "sample-svc is green right now; the nightly job is red"
    assert [s.text for s in split_sentences(text)] == [text]
    fact = only(text)
    assert fact.quote == text
    assert fact.kind == Kind.STATE


def test_multi_sentence_capture_yields_one_fact_per_typeable_sentence_in_order() -> None:
    text = ("So, we decided to use Postgres for the build pipeline. The weather was nice. "
            "I really prefer dark mode. The runbook lives at /srv/runbooks/deploy.md. "
            "sample-svc is green right now. We'll live with the BOM gap.")
    facts = extract(text)
    assert [f.kind for f in facts] == [
        Kind.DECISION, Kind.PREFERENCE, Kind.REFERENCE, Kind.STATE, Kind.RESIDUAL]
    positions = [text.index(f.quote) for f in facts]
    assert positions == sorted(positions)


# ---------------------------------------------------------------------------------------------
# Precedence, topics, protocol
# ---------------------------------------------------------------------------------------------

def test_precedence_covers_every_kind_once() -> None:
    assert sorted(KIND_PRECEDENCE) == sorted(Kind)


@pytest.mark.parametrize(("text", "kind"), [
    ("We decided we'll live with the gap.", Kind.RESIDUAL),
    ("From now on we decided to always rebase.", Kind.RULE),
    ("We decided the docs live at /srv/docs.", Kind.DECISION),
    ("Right now I prefer tabs.", Kind.PREFERENCE),
    ("sample-svc is green right now after we merged the fix.", Kind.STATE),
])
def test_precedence_when_several_kinds_match(text: str, kind: Kind) -> None:
    assert classify(text) == kind
    assert only(text).kind == kind


def test_topics_are_entity_shaped_deduped_and_exclude_the_scribe() -> None:
    text = "We deployed sample-svc and build.pipeline with Postgres; sample-svc and rules/v1 too."
    fact = only(text)
    assert fact.topics == ("sample-svc", "build.pipeline", "Postgres")
    scribe = ExtractionContext(captured_by="qwen2.5:7b")
    noisy = RuleExtractor().extract("The qwen2.5:7b model shipped the Importer fix.", scribe)
    assert noisy[0].topics == ("Importer",)


def test_sentence_start_capital_is_not_a_topic() -> None:
    assert only("Checksum parity verified (214 == 214).").topics == ()


def test_is_an_extractor_with_a_stable_name() -> None:
    extractor = RuleExtractor()
    assert isinstance(extractor, Extractor)
    assert extractor.name == "rules/v1"


def test_rejects_non_text() -> None:
    with pytest.raises(InvalidInput):
        RuleExtractor().extract(None, CONTEXT)  # type: ignore[arg-type]


def test_extractor_from_name() -> None:
    assert isinstance(extractor_from_name("rules"), RuleExtractor)
    assert isinstance(extractor_from_name(" Rules "), RuleExtractor)
    with pytest.raises(InvalidInput, match="rules"):
        extractor_from_name("gpt")
    with pytest.raises(InvalidInput):
        extractor_from_name("ollama:")


# ---------------------------------------------------------------------------------------------
# Properties: anchoring and determinism
# ---------------------------------------------------------------------------------------------

CUE_SENTENCES = [
    "everything goes through staging first, no exceptions, that's final",
    "from now on, repro test first, then the fix — no exceptions",
    "sample-svc is green right now",
    "I can't stand light-mode editors",
    r"the runner token lives at C:\ops\sample\runner.env",
    "we'll live with the UTF-16 gap until a non-UTF-8 feed shows up",
    "migrated all 214 pages",
    "Checksum parity verified (214 == 214)",
    "see https://example.com/a.b?c=d for v1.2.3",
    "I prefer 0.5 e.g. \"half. really\"",
    "Scratch that",
]
NOISE = [
    "the coffee was cold",
    "hmm",
    "it rained; nobody minded",
    "ok, so",
    "   ",
    "\"unbalanced quote",
    "see you",
]
SEPARATORS = [". ", "! ", "? ", "\n", "\n\n", "; ", " ", "\n- ", "... ", ".\t", ""]


@st.composite
def captures(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.sampled_from(CUE_SENTENCES + NOISE), min_size=1, max_size=8))
    text = draw(st.sampled_from(["", " ", "- ", "So, "]))
    for piece in pieces:
        text += piece + draw(st.sampled_from(SEPARATORS))
    return text


@settings(max_examples=300, deadline=None)
@given(captures())
def test_every_quote_is_a_verbatim_substring(text: str) -> None:
    for fact in extract(text):
        assert fact.quote
        assert fact.quote in text
        assert fact.quote == fact.quote.strip()
        assert Kind(fact.kind) in Kind
        assert fact.statement.endswith(".")
        assert_only_owned_columns(fact)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aI we.,;:!?\"'`\\/-_~()\n0123456789AZ—’")),
               max_size=80))
def test_arbitrary_text_never_breaks_anchoring(text: str) -> None:
    for sentence in split_sentences(text):
        assert text[sentence.start:sentence.end] == sentence.text
    for fact in extract(text):
        assert fact.quote in text


@settings(max_examples=100, deadline=None)
@given(captures())
def test_deterministic(text: str) -> None:
    assert extract(text) == extract(text)
    assert RuleExtractor().extract(text, CONTEXT) == RuleExtractor().extract(text, CONTEXT)


def test_context_does_not_change_the_facts_except_scribe_topics() -> None:
    text = "We decided to use Postgres. sample-svc is green right now."
    plain = RuleExtractor().extract(text, ExtractionContext())
    assert plain == extract(text)
    assert RuleExtractor().extract(text) == plain


def test_no_statement_adds_words_outside_the_sentence() -> None:
    # Faithfulness: every content word of a statement comes from its quote (modulo person
    # rewriting and verb agreement).
    allowed = {"the", "user", "user's", "team", "team's", "is", "has", "will", "would", "does",
               "doesn't", "was", "hasn't", "isn't", "wasn't"}
    for text in CUE_SENTENCES:
        for fact in extract(text):
            words = set(re.findall(r"[\w'’-]+", fact.quote.lower()))
            for word in re.findall(r"[\w'’-]+", fact.statement.lower()):
                assert word in words or word in allowed or word.rstrip("s") in words or (
                    word.endswith("es") and word[:-2] in words), (word, fact)


# ---------------------------------------------------------------------------------------------
# Clause splitting: two assertions in one sentence
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "quotes", "kinds"), [
    ("The nightly job is green right now, and I prefer tabs over spaces.",
     ["The nightly job is green right now", "I prefer tabs over spaces."],
     [Kind.STATE, Kind.PREFERENCE]),
    ("We decided to drop Node 18; the SDK docs live at https://sdk.example.test/docs.",
     ["We decided to drop Node 18", "the SDK docs live at https://sdk.example.test/docs."],
     [Kind.DECISION, Kind.REFERENCE]),
    ("The search index is 4 minutes behind right now, but we decided to reindex.",
     ["The search index is 4 minutes behind right now", "we decided to reindex."],
     [Kind.STATE, Kind.DECISION]),
    ("The canary is live right now, while we'll live with the slow cold start.",
     ["The canary is live right now", "we'll live with the slow cold start."],
     [Kind.STATE, Kind.RESIDUAL]),
])
def test_clauses_of_different_kinds_are_separate_facts(
        text: str, quotes: list[str], kinds: list[Kind]) -> None:
    facts = extract(text)
    assert [f.quote for f in facts] == quotes
    assert [f.kind for f in facts] == kinds
    for fact in facts:
        assert fact.quote in text and fact.statement.endswith(".")
        assert_only_owned_columns(fact)


def test_split_clauses_have_their_own_statements_and_fields() -> None:
    state, preference = extract("The nightly job is green right now, and I prefer tabs.")
    assert state.statement == "The nightly job is green right now."
    assert state.subject == "nightly job"
    assert preference.statement == "The user prefers tabs."
    assert "nightly" not in " ".join(preference.topics).lower()


def test_same_kind_clauses_with_different_subjects_split_at_a_conjunction() -> None:
    text = "The mail relay is down right now, and the search index is currently 4 minutes behind."
    relay, index = extract(text)
    assert (relay.kind, index.kind) == (Kind.STATE, Kind.STATE)
    assert (relay.subject, index.subject) == ("mail relay", "search index")
    assert relay.quote == "The mail relay is down right now"
    assert index.statement == "The search index is currently 4 minutes behind."


def test_same_kind_clauses_at_a_bare_semicolon_stay_one_fact() -> None:
    # One sentence with a semicolon is one assertion unless the kinds or the speaker differ.
    text = "The mail relay is down right now; the search index is currently 4 minutes behind."
    assert only(text).quote == text


@pytest.mark.parametrize(("text", "quotes"), [
    ("Always run the linter before pushing; separately, never merge your own PR.",
     ["Always run the linter before pushing", "never merge your own PR."]),
    ("Decommissioned build-01 on March 3, and separately we upgraded the VPN on March 5.",
     ["Decommissioned build-01 on March 3", "we upgraded the VPN on March 5."]),
])
def test_an_explicit_separately_splits_same_kind_clauses(text: str, quotes: list[str]) -> None:
    facts = extract(text)
    assert [f.quote for f in facts] == quotes
    assert len({f.kind for f in facts}) == 1


@pytest.mark.parametrize("text", [
    # The clause after the joint has no cue of its own: it belongs to the first one.
    "The ingestion backlog is shrinking right now, but only by about 200 events a minute.",
    "Always squash feature branches when merging, but only after the reviewer has approved.",
    # It leans on the first clause through a pronoun: one assertion.
    "The importer is failing right now, and we'll live with it until Friday.",
    "The legacy client is currently on TLS 1.1, and we accept that risk for now.",
    # Same kind, same (or unnamed) subject.
    "The build farm is green right now, and the build farm has 12 runners at present.",
    # The joint sits inside a quotation, which is never cut.
    'The status banner currently reads "closed; I prefer tabs" for everyone.',
])
def test_clauses_that_do_not_assert_on_their_own_stay_with_their_sentence(text: str) -> None:
    assert only(text).quote == text


def test_a_cue_less_opening_clause_joins_the_clause_that_types_it() -> None:
    text = "The export has no retry, and we'll live with the gap; I prefer tabs."
    residual, preference = extract(text)
    assert residual.kind == Kind.RESIDUAL
    assert residual.quote == "The export has no retry, and we'll live with the gap"
    assert (preference.kind, preference.quote) == (Kind.PREFERENCE, "I prefer tabs.")


def test_split_clauses_keep_sentence_order_and_the_correction_flag_goes_to_the_first() -> None:
    text = "Scratch that. The nightly job is green right now, and I prefer tabs. We chose uv."
    facts = extract(text)
    assert [f.kind for f in facts] == [Kind.STATE, Kind.PREFERENCE, Kind.DECISION]
    assert [f.supersedes for f in facts] == [True, False, False]
    positions = [text.index(f.quote) for f in facts]
    assert positions == sorted(positions)


def test_split_clauses_returns_stripped_spans_of_the_sentence() -> None:
    sentence = "The canary is live right now ,  and   I prefer tabs over spaces."
    spans = split_clauses(sentence)
    assert [sentence[a:b] for a, b in spans] == ["The canary is live right now",
                                                 "I prefer tabs over spaces."]
    assert split_clauses("sample-svc is green right now.") == [(0, 30)]
