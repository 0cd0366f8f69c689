"""The polarity guard (seed 000 §7, the "fact 74" shape): pure functions over strings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.antonyms import antonym_table
from factstore.writepath.polarity import (
    FUNCTION_WORDS,
    aligned_clauses,
    clause_parities,
    explained_by_lexical_negation,
    is_negated,
    mirrored_negations,
    negation_cues,
    negation_polarity,
    polarity_mismatch,
    same_word,
    split_clauses,
    suffix_negated_base,
)

# --------------------------------------------------------------------------- counting operators


@pytest.mark.parametrize(("text", "count"), [
    ("The job is green.", 0),
    ("The job is not green.", 1),
    ("The job isn't green.", 1),
    ("The job isn\u2019t green.", 1),           # curly apostrophe
    ("The job isnt green.", 1),                  # apostrophe dropped
    ("The job is NOT green.", 1),                # case
    ("Never deploy on Fridays.", 1),
    ("The service no longer retries.", 1),       # "no longer" is one operator
    ("The service doesn't retry anymore.", 1),   # so is "not ... anymore"
    ("Nobody deploys on Fridays.", 1),
    ("No one deploys on Fridays.", 1),
    ("Nothing changed.", 1),
    ("None of the jobs ran.", 1),
    ("The importer cannot parse UTF-16.", 1),
    ("The importer can not parse UTF-16.", 1),
    ("The importer can't parse UTF-16.", 1),
    ("The release won't ship today.", 1),
    ("The importer fails to parse UTF-16.", 1),
    ("The importer is unable to parse UTF-16.", 1),
    ("The importer runs without a schema.", 1),
    ("The importer lacks a schema.", 1),
    ("Neither the job nor the deploy is green.", 1),  # one negation over a list
    ("The job is not green nor fast.", 1),
    ("No direct pushes to production.", 1),
    ("We decided against a service mesh.", 1),    # "decided against" = "decided not to"
    ("Run the drill against a copy.", 0),
    ("Pin images by digest, not a tag.", 0),        # a contrast, not a negated clause
    ("It was rebuilt, not repaired.", 0),           # so is a bare participle
    ("The batch ran an hour, not finishing the backfill.", 1),  # a negated participle phrase
    ("There is not only one primary.", 1),          # "not only" without "but"/"also"
])
def test_operators_are_counted(text, count):
    assert negation_polarity(text) == count


@pytest.mark.parametrize("text", [
    "I know the node notes are notable.",
    "The nonce is normal in the north.",
    "The no-op handler is non-blocking.",
    "Nordic snow on the piano knot.",
    "It is, as is his wont, green.",
    "The failing test fails often.",          # "fails" negates only with "to"
    "The job is not only green but also fast.",
    "The cache is not just fast but cheap.",
    "There is no doubt the job is green.",
    "No matter what, the job runs.",
    "Everything goes through staging, no exceptions.",
    "The job runs whether or not the tests pass.",
    "I can't stand light themes.",            # a verb meaning "dislike"
    "The job is green, isn't it?",            # a tag question
    "No, the job is green.",                  # an answer, not a negation
    "No. It is green.",
    "It is nothing but green.",
])
def test_words_and_idioms_that_do_not_negate(text):
    assert negation_polarity(text) == 0, negation_cues(text)


def test_double_negation_counts_two_so_parity_is_even():
    assert negation_polarity("The job never fails to run.") == 2
    assert negation_polarity("It's not that the job isn't green.") == 2
    assert not is_negated(split_clauses("It's not that the job isn't green."))
    assert is_negated(split_clauses("The job is not green."))


def test_negations_in_separate_clauses_coordinate_rather_than_cancel():
    clauses = split_clauses("The job is not green, and the deploy is not green.")
    assert [c.parity for c in clauses] == [1, 1]
    assert is_negated(clauses)


@pytest.mark.parametrize("text", [
    "Nobody was paged and nobody noticed the outage.",      # "and" coordinates
    "The job failed to start and so the deploy did not happen.",
    "The pod is unable to start because it could not pull the image.",
    "No alert fired or no one read it.",
])
def test_operators_joined_by_a_conjunction_coordinate_rather_than_nest(text):
    assert negation_polarity(text) == 2
    assert is_negated(split_clauses(text))


def test_clauses_split_on_sentence_punctuation_and_contrast_not_inside_tokens():
    texts = [c.text for c in split_clauses("sample-svc v1.2.3 at 14:00 is green; but the "
                                           "deploy at C:\\ops\\x.env is red. Done")]
    assert texts == ["sample-svc v1.2.3 at 14:00 is green", "the deploy at C:\\ops\\x.env is red",
                     "Done"]


def test_cue_context_names_the_words_around_the_operator():
    (cue,) = negation_cues("sample-svc is not green right now")
    assert cue.operator == "not"
    assert cue.context == "is not green"


# --------------------------------------------------------------------------- the guard: inversions

INVERSIONS = [
    # (statement, quote): the "fact 74" shape, the statement drops or adds a negation
    ("sample-svc is green right now.", "sample-svc is not green right now"),
    ("The nightly integration job is currently green on the sample-svc box.",
     "sample-svc isn't green right now"),
    ("The team ships on Fridays.", "we never ship on Fridays"),
    ("The service retries failed requests.", "the service no longer retries failed requests"),
    ("The importer validates UTF-16 input.", "the importer does not validate UTF-16 input"),
    ("The importer parses UTF-16.", "the importer fails to parse UTF-16"),
    ("The user likes light themes.", "I don't like light themes"),
    ("Someone reviews every merge.", "nobody reviews every merge"),
    ("The team decided not to ship through staging.", "we decided to ship through staging"),
    ("The user never uses tabs.", "I always use tabs"),
    ("The job is green.", "The job is green? No, it isn't."),
    ("The API key is missing.", "the API key is not missing"),
    ("The service is unhealthy.", "the service is not unhealthy"),
    ("The job is green.", "the job is NOT green!"),
    ("The job is green.", "the job isn\u2019t green"),
    ("The user likes spaces.", "I don't like tabs and spaces"),
    ("The cache is fast.", "the cache is not fast, sadly"),
    ("The team decided to adopt a service mesh.", "we decided against a service mesh"),
    ("The team decided to drop the legacy endpoint.", "we decided not to drop the legacy endpoint"),
    ("The job is green.", "it isn't green, unfortunately"),
    ("Admin actions are rate-limited.", "admin actions aren't rate-limited, a gap we accept"),
    ("The archive was imported.", "the archive was not imported, zero files moved"),
]


@pytest.mark.parametrize(("statement", "quote"), INVERSIONS)
def test_inversions_are_flagged(statement, quote):
    reason = polarity_mismatch(statement, quote)
    assert reason is not None and reason.startswith("polarity: ")


def test_reason_quotes_the_statement_and_the_negating_words():
    reason = polarity_mismatch("sample-svc is green", "sample-svc is not green")
    assert reason == ("polarity: the statement says 'sample-svc is green' but the quote "
                      "negates it ('is not green')")
    reason = polarity_mismatch("The team decided not to ship", "we decided to ship")
    assert reason is not None
    assert "the statement negates it ('decided not to')" in reason
    assert "'we decided to ship'" in reason


# --------------------------------------------------------------------------- no false flags

PRESERVING = [
    ("The job never runs on Fridays.", "the job doesn't ever run on Fridays"),
    ("The job isn't green.", "the job is not green"),
    ("The service no longer retries.", "the service doesn't retry anymore"),
    ("The importer fails to parse UTF-16.", "the importer does not parse UTF-16"),
    ("The importer cannot parse UTF-16.", "the importer can't parse UTF-16"),
    ("The importer can not parse UTF-16.", "the importer cannot parse UTF-16"),
    ("Nobody deploys on Fridays.", "no one deploys on Fridays"),
    ("Nothing changed in the schema.", "the schema did not change at all"),
    ("Neither the job nor the deploy is green.",
     "The job is not green, and the deploy is not green"),
    ("The job is not green.", "neither the job nor the deploy is green"),
    ("The importer lacks a schema.", "the importer doesn't have a schema"),
    ("The service is unhealthy.", "the service is not healthy"),
    ("The service is not unhealthy.", "the service is healthy"),
    ("The user does not like tabs.", "I dislike tabs"),
    ("The link sweep found no broken links.", "link sweep found zero broken links"),
    ("The API key is missing.", "the API key is not there"),
    ("The job is not only green but also fast.", "the job is green and fast"),
    ("The cache is not just fast but also cheap.", "the cache is fast and cheap"),
    ("The deploy is green.", "The job is not green, but the deploy is green"),
    ("The job is green.", "The job is green, but nothing else is"),
    ("The job is green.", "The job is green, isn't it?"),
    ("The job is green.", "No, no: the job is green."),
    ("The user knows the node notes.", "I know the node notes"),
    ("The job runs whether or not tests pass.", "the job runs regardless of the tests"),
    ("The job never fails to run.", "the job always runs"),
    # coordinated negations in one clause do not cancel
    ("The migration tool does not resume after a crash, a known issue left unfixed.",
     "The migration tool won't resume after a crash, and that's a known issue we won't fix."),
    # litotes: an operator over a negative verb
    ("The team decided to keep the legacy endpoint.",
     "We decided not to drop the legacy endpoint."),
    ("The user is fine with emoji.", "I don't object to emoji"),
    ("The user is fine with tabs.", "I don't dislike tabs; they're fine."),
    ("The drill runs against a copy rather than the live replica.",
     "run the drill against a copy, not the live replica"),
    ("The team decided not to adopt a service mesh.", "we decided against a service mesh"),
]

# The seed's own examples (seed 000 §2): statement, quote.
SEED_EXAMPLES = [
    ("The build pipeline ships only through the staging gate; no direct pushes to production.",
     "everything goes through staging first, no exceptions, that's final"),
    ("Always write a failing test that reproduces a bug before fixing it.",
     "from now on, repro test first, then the fix \u2014 no exceptions"),
    ("The nightly integration job is currently green on the sample-svc box.",
     "sample-svc is green right now"),
    ("The user prefers dark-mode editors and dislikes light themes.",
     "I can't stand light-mode editors"),
    ("The service runner token is stored at C:\\ops\\sample\\runner.env.",
     "the runner token lives at C:\\ops\\sample\\runner.env"),
    ("The importer does not validate UTF-16 input; accepted because all current feeds are "
     "UTF-8.", "we'll live with the UTF-16 gap until a non-UTF-8 feed shows up"),
    ("A doc migration moved all 214 pages; checksum parity verified (214 == 214) and a link "
     "sweep found zero broken links.",
     "migrated all 214 pages. Checksum parity verified (214 == 214), link sweep found zero "
     "broken links"),
]


@pytest.mark.parametrize(("statement", "quote"), PRESERVING + SEED_EXAMPLES)
def test_polarity_preserving_rewrites_are_not_flagged(statement, quote):
    assert polarity_mismatch(statement, quote) is None


@pytest.mark.parametrize(("statement", "quote"), PRESERVING + INVERSIONS)
def test_the_guard_is_symmetric(statement, quote):
    assert (polarity_mismatch(statement, quote) is None) == (
        polarity_mismatch(quote, statement) is None)


def test_empty_sides_are_not_judged():
    assert polarity_mismatch("", "the job is not green") is None
    assert polarity_mismatch("The job is green.", "   ") is None


def test_lexical_negation_explains_only_when_unmatched():
    assert explained_by_lexical_negation("the key is missing", "the key is not there")
    assert explained_by_lexical_negation("found zero broken links", "found no broken links")
    assert explained_by_lexical_negation("I don't dislike tabs", "the user is fine with tabs")
    assert not explained_by_lexical_negation("the key is missing", "the key is not missing")
    assert not explained_by_lexical_negation("the job is green", "the job is not green")
    # an adverb is not a negation of its clause
    assert not explained_by_lexical_negation("the job is green", "it isn't green, unfortunately")


def test_a_prefix_negation_mirrored_on_the_other_side_counts_as_an_operator():
    clauses = split_clauses("The service is unhealthy")
    assert clause_parities(clauses, "the service is healthy") == [1]
    assert clause_parities(clauses, "the service is unhealthy") == [0]
    assert polarity_mismatch("The service is unhealthy.", "it is not healthy") is None
    assert polarity_mismatch("The service is unhealthy.", "it is healthy") is not None


def test_alignment_sets_aside_clauses_about_something_else():
    clauses = split_clauses("The job is not green, but the deploy is green")
    kept = aligned_clauses(clauses, "The deploy is green")
    assert [c.text for c in kept] == ["the deploy is green"]
    # nothing shared: compare the whole text
    assert aligned_clauses(clauses, "Unrelated words entirely") == clauses


# --------------------------------------------------------------------------- properties

NEGATED_CLAUSES = [
    "It is not over.", "Nothing else changed.", "We never ship on Fridays.",
    "The queue isn't empty.", "Nobody reviewed it.", "The importer cannot parse it.",
    "Neither branch is green.", "The job no longer runs.",
]
WORDS = st.sampled_from([
    "the", "job", "is", "green", "not", "never", "no", "longer", "isn't", "nobody", "and",
    "but", "sample-svc", "deploy", "runs", "on", "Fridays", "only", "also", ",", ";", ".",
    "?", "no,", "missing", "unhealthy", "healthy", "fails", "to", "without", "nor", "neither",
])
SENTENCES = st.lists(WORDS, max_size=14).map(" ".join)


@pytest.mark.parametrize("negation", NEGATED_CLAUSES)
@pytest.mark.parametrize(("statement", "quote"), PRESERVING + SEED_EXAMPLES)
def test_appending_the_same_negation_to_a_faithful_pair_never_flags(statement, quote,
                                                                   negation):
    assert polarity_mismatch(f"{statement} {negation}", f"{quote}. {negation}") is None


# A shared negated clause does not hide a flip elsewhere: both texts are negated somewhere,
# but one stretch says positively what the other negates (a hidden flip).
FLIPS = [
    ("sample-svc is green right now.", "sample-svc is not green right now"),
    ("The service retries failed requests.", "the service no longer retries failed requests"),
    ("The importer validates UTF-16 input.", "the importer does not validate UTF-16 input"),
    ("The canary takes traffic.", "the canary never takes traffic"),
    ("Every merge gets a review.", "no merge gets a review"),
]
CONTEXT_NEGATIONS = ["Nothing else changed.", "Nobody touched the budget.",
                     "The printer is not on the roster.", "We never meet on Mondays."]


@given(st.sampled_from(FLIPS), st.sampled_from(CONTEXT_NEGATIONS), st.booleans())
def test_a_flip_next_to_a_shared_negated_clause_is_still_caught(flip, negation, first):
    statement, quote = flip
    if first:
        statement, quote = f"{negation} {statement}", f"{negation} {quote}"
    else:
        statement, quote = f"{statement} {negation}", f"{quote}. {negation}"
    assert polarity_mismatch(statement, quote) is not None
    assert polarity_mismatch(quote, statement) is not None


@pytest.mark.parametrize(("statement", "quote"), [
    p for p in PRESERVING if len(split_clauses(p[0])) == len(split_clauses(p[1])) == 1
])
def test_negating_both_sides_of_a_preserving_pair_still_agrees(statement, quote):
    wrapped = "It is not true that {}"
    assert polarity_mismatch(wrapped.format(statement[0].lower() + statement[1:]),
                             wrapped.format(quote)) is None


@given(st.text(max_size=80))
def test_a_text_never_disagrees_with_itself(text):
    assert polarity_mismatch(text, text) is None


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ',.;?!-", max_size=80))
def test_polarity_ignores_case(text):
    assert negation_polarity(text.upper()) == negation_polarity(text)


@given(SENTENCES)
def test_polarity_is_deterministic_and_cues_lie_inside_the_text(text):
    cues = negation_cues(text)
    assert cues == negation_cues(text)
    for cue in cues:
        assert text[cue.start:cue.end].lower().replace("\u2019", "'") == cue.operator


# --------------------------------------------------------------------------- lexical negation

# (statement, quote): a negation swapped for an antonym, a negative word or a construction
# that negates; the same polarity, so never flagged.
LEXICAL_NEGATIONS = [
    # antonyms (WordNet): "not X" against an opposite of X
    ("The replicas are heterogeneous.", "the replicas are not homogeneous"),
    ("The cache layer is thin.", "the cache layer is not thick"),
    ("The wrapper is thick.", "the wrapper is not thin"),       # "fat" / "not thin"
    ("The team is tiny.", "the team is not large"),              # an adjective cluster
    # verb antonyms
    ("The migration failed.", "the migration didn't succeed"),
    ("The nightly build failed.", "the nightly build did not pass"),
    ("Our team lost the bid.", "we didn't win the bid"),
    # "not un-X" is X
    ("The service is healthy.", "the service is not un-healthy"),
    # suffix negation mirrored by the other side
    ("Login is passwordless.", "login works without a password"),
    ("A shirtless volunteer staffed the desk.", "a volunteer with no shirt staffed the desk"),
    # the fallback's negative words and constructions
    ("The sandbox must remain free of network access.",
     "the sandbox cannot have any network access"),
    ("The intern was too new to approve merges.", "the intern could not approve merges"),
    ("The exporter left out all binary fields.", "the exporter kept no binary fields"),
    ("The owner of the outage is unclear.", "the owner of the outage is not known"),
    ("The bot refrained from posting since Monday.", "the bot has not posted since Monday"),
]
# (statement, quote): the very word flipped; an antonym elsewhere must not excuse it.
LEXICAL_INVERSIONS = [
    ("The replicas are homogeneous.", "the replicas are not homogeneous"),
    ("The cache layer is thin.", "the cache layer is not thin"),
    ("The wrapper is thick.", "the wrapper is not thick"),
    ("The wrapper is thick and thin.", "the wrapper is not thick"),
    ("The migration succeeded.", "the migration didn't succeed"),
    ("We lost the bid.", "we did not lose the bid"),              # not a litotes: same verb
    ("A volunteer with a shirt staffed the desk.", "a shirtless volunteer staffed the desk"),
]


@pytest.mark.parametrize(("statement", "quote"), LEXICAL_NEGATIONS)
def test_lexical_negation_is_not_an_inversion(statement, quote):
    assert polarity_mismatch(statement, quote) is None
    assert polarity_mismatch(quote, statement) is None


@pytest.mark.parametrize(("statement", "quote"), LEXICAL_INVERSIONS)
def test_an_antonym_never_excuses_a_flip_of_the_word_itself(statement, quote):
    assert polarity_mismatch(statement, quote) is not None
    assert polarity_mismatch(quote, statement) is not None


def test_a_negative_construction_only_excuses_never_raises():
    # "free of" is a fallback: against a plain positive it is not read as a flip
    assert polarity_mismatch("The sandbox has network access.",
                             "the sandbox must remain free of network access") is None


def _content_pair(a: str, b: str) -> bool:
    """Both are content words: not function words, not operators, no idiom after "not"."""
    return all(w.isalpha() and w not in FUNCTION_WORDS and not negation_cues(f"it is {w}")
               and negation_polarity(f"it is not {w} today") == 1 for w in (a, b))


def _wordnet_population(step: int) -> list[tuple[str, str]]:
    """Every ``step``-th direct antonym pair WordNet holds (both orders), content words only."""
    table = antonym_table()
    pairs = sorted({tuple(sorted((a, b))) for a, others in table.direct.items()
                    for b in others if _content_pair(a, b)})
    return [p for pair in pairs[::step] for p in (pair, pair[::-1])]


FRAMES = ["The report says it is {} today.", "They will {} the plan."]


def test_a_population_of_antonym_paraphrases_is_never_flagged_and_its_flips_always_are():
    population = _wordnet_population(step=12)
    assert len(population) > 400
    for frame in FRAMES:
        negated = frame.replace("{}", "not {}")
        for x, y in population:
            # "not X" restated as the antonym Y: a lexical negation
            assert polarity_mismatch(frame.format(y), negated.format(x)) is None, (x, y)
            # "not X" stored as "X": an inversion, over the same population
            assert polarity_mismatch(frame.format(x), negated.format(x)) is not None, (x, y)
            assert polarity_mismatch(negated.format(x), frame.format(x)) is not None, (x, y)


def test_a_population_of_cluster_paraphrases_is_never_flagged():
    table = antonym_table()
    pairs = sorted((a, b) for a, others in table.cluster.items() for b in others)
    sample = [(x, y) for x, y in pairs[::400] if _content_pair(x, y)]
    assert len(sample) > 300
    for x, y in sample:
        assert polarity_mismatch(f"The report says it is {y} today.",
                                 f"The report says it is not {x} today.") is None, (x, y)


def test_a_mirrored_negation_needs_the_base_word_itself():
    # "convention" is not the base of "unconventional": no mirror, so no flip
    assert polarity_mismatch("The layout breaks with convention.",
                             "the layout is unconventional") is None
    # a base this side says too ("successful") mirrors nothing
    assert polarity_mismatch("The first canary failed, the second was successful.",
                             "the first canary was unsuccessful, the second successful") is None
    (clause,) = split_clauses("The service is unhealthy")
    assert mirrored_negations(clause, "the service is healthy") == [15]
    assert mirrored_negations(clause, "the service's health is fine") == []
    assert mirrored_negations(clause, "it is healthy", own_text="healthy? The service is "
                                                               "unhealthy") == []


def test_suffix_negation_names_its_stem():
    assert suffix_negated_base("passwordless") == "password"
    assert suffix_negated_base("aimlessly") == "aim"
    assert suffix_negated_base("bug-free") == "bug"
    assert suffix_negated_base("handsfree") == "hands"
    assert suffix_negated_base("regardless") is None
    assert suffix_negated_base("unless") is None


def test_words_match_by_inflection_irregular_ones_through_wordnet():
    assert same_word("validated", "validates")
    assert same_word("stopped", "stops")
    assert not same_word("treated", "treatment")
    assert not same_word("lost", "lose")
    assert same_word("lost", "lose", wordnet=True)


# --------------------------------------------------------------------------- hidden flips

HIDDEN_FLIPS = [
    # both texts are negated, but not in the same place
    ("The audit is not the blocker, but the report does not show a regression.",
     "The audit is not the blocker, but the report shows a regression."),
    ("The offline mode cannot duplicate a draft on reconnect, a limitation shipped on purpose.",
     "The offline mode never loses a draft, but it can duplicate one; we ship with that "
     "limitation."),
    ("The migration tool resumes after a crash, a known issue left unfixed.",
     "The migration tool won't resume after a crash, and that's a known issue we won't fix."),
    ("The proxy does not cache images, unlike the CDN.",
     "The proxy does not cache images, like the CDN."),
]


@pytest.mark.parametrize(("statement", "quote"), HIDDEN_FLIPS)
def test_a_flip_hidden_behind_another_negation_is_caught(statement, quote):
    assert polarity_mismatch(statement, quote) is not None
    assert polarity_mismatch(quote, statement) is not None


def test_a_negated_context_clause_about_something_else_is_no_flip():
    quote = "The offline mode never loses a draft, but it can duplicate one."
    assert polarity_mismatch("The offline mode can duplicate a draft.", quote) is None
    assert polarity_mismatch("The deploy is green.",
                             "The job is not green, and the deploy is green.") is None


def test_a_clause_set_aside_comes_back_as_the_closest_match_of_a_kept_one():
    statement = ("Both reviewers rejected the patch at the sync, and no one in the room "
                 "argued for it.")
    quote = "Ana joined Bo in rejecting the patch, and nobody argued for it at the sync."
    assert polarity_mismatch(statement, quote) is None


# --------------------------------------------------------------------------- the parse

def test_quote_negated_none_reads_the_words():
    assert polarity_mismatch("The job is green.", "the job is not green",
                             quote_negated=None) == polarity_mismatch("The job is green.",
                                                                      "the job is not green")


def test_a_parse_that_agrees_confirms_the_reading():
    assert polarity_mismatch("The job is green.", "the job is not green",
                             quote_negated=True) is not None
    assert polarity_mismatch("The job is not green.", "the job is not green",
                             quote_negated=True) is None
    assert polarity_mismatch("The job is green.", "the job is green",
                             quote_negated=False) is None


def test_a_parse_without_a_negator_overrules_the_operators_it_would_mark():
    # the parse saw no negator where the words read "not": the parse wins ...
    assert polarity_mismatch("The job is green.", "the job is not green",
                             quote_negated=False) is None
    # ... but a parser does not mark verbal or lexical operators, so those stand
    assert polarity_mismatch("The importer parses UTF-16.", "the importer fails to parse UTF-16",
                             quote_negated=False) is not None
    assert polarity_mismatch("The importer has a schema.", "the importer lacks a schema",
                             quote_negated=False) is not None


def test_a_parse_negator_the_words_missed_makes_the_quote_negated():
    # a dialect negator no word list holds
    assert polarity_mismatch("The job is not green.", "the job is nae green") is not None
    assert polarity_mismatch("The job is not green.", "the job is nae green",
                             quote_negated=True) is None
    reason = polarity_mismatch("The job is green.", "the job is nae green", quote_negated=True)
    assert reason is not None and "the parse" in reason


def test_a_parse_reports_presence_so_the_words_keep_the_parity():
    # "never fails to" holds two negators: the parse says negated, the parity says positive
    assert polarity_mismatch("The job always runs.", "the job never fails to run",
                             quote_negated=True) is None
