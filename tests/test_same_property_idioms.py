"""Idioms with a negator that assert rather than deny, through both readers of negation: the
polarity guard's words and the parser extractor's ``negated`` flag. They must agree, so the
guard never parks a faithful "can't wait" (LoCoMo: 125 of 137 parks were one), and the plain
uses of the same words stay negations in both."""

from __future__ import annotations

import pytest

from factstore.extractors.parsed import ParserExtractor
from factstore.writepath.polarity import negation_polarity, polarity_mismatch

#: (speaker's line, the statement the scribe writes for it): every one asserts.
IDIOMS = [
    ("I can't wait to see your show", "Ada can't wait to see your show."),
    ("Can't wait to hear about it", "Can't wait to hear about it."),
    ("I cannot wait for the trip", "Ada cannot wait for the trip."),
    ("I couldn't wait to open it", "Ada couldn't wait to open it."),
    ("I can't believe it's been a year since we met", "Ada can't believe it's been a year "
                                                      "since we met."),
    ("It's not only fun but also good exercise", "It's not only fun but also good exercise."),
    ("I couldn't be happier with the studio", "Ada couldn't be happier with the studio."),
    ("I couldn't be more proud of you", "Ada couldn't be more proud of you."),
    ("I can't stop thinking about the lake", "Ada can't stop thinking about the lake."),
    ("I can't stop smiling", "Ada can't stop smiling."),
    ("There's no doubt you'll do great", "There's no doubt you'll do great."),
    ("No doubt, you've got this", "No doubt, you've got this."),
    ("Never mind the rain, the hike was great", "Never mind the rain, the hike was great."),
    ("Not bad at all, the bowl came out nicely", "Not bad at all, the bowl came out nicely."),
    ("No wonder you love that trail", "No wonder Ada loves that trail."),
    ("I can't help but smile when I see it", "Ada can't help but smile when Ada sees it."),
    ("I can't help feeling proud", "Ada can't help feeling proud."),
    ("I couldn't agree more", "Ada couldn't agree more."),
    ("I can't thank you enough for the help", "Ada can't thank you enough for the help."),
    ("I couldn't ask for a better friend", "Ada couldn't ask for a better friend."),
    ("I'm here for you no matter what", "Ada is here for you no matter what."),
    ("There's nothing but good stuff coming", "There's nothing but good stuff coming."),
    ("It's like a never-ending journey of learning", "It's like a never-ending journey of "
                                                     "learning."),
    ("I had a not-so-great day at work", "Ada had a not-so-great day at work."),
    ("Pottery is a huge part of my life, not just a hobby", "Pottery is a huge part of Ada's "
                                                            "life, not just a hobby."),
    ("No worries, I'll bring the snacks", "No worries, Ada will bring the snacks."),
]

#: The same words used plainly: each denies, in both readers.
NEGATIONS = [
    "I can't help you with that",
    "I couldn't help my team",
    "I can't stop the car in time",
    "I can't believe in ghosts",
    "The food is not bad",
    "There is no problem with the oven",
    "I don't have any doubt about the plan",
    "I can't make it to the party",
    "I never finish books",
    "I'm not sure what to do with it",
]


@pytest.fixture(scope="module")
def parser() -> ParserExtractor:
    return ParserExtractor()


def _negated(parser: ParserExtractor, line: str) -> list[bool | None]:
    return [fact.negated for fact in parser.extract(f"Ada: {line}")]


@pytest.mark.parametrize(("quote", "statement"), IDIOMS)
def test_the_guard_reads_an_idiom_as_no_negation(quote, statement):
    assert negation_polarity(quote) == 0
    assert negation_polarity(statement) == 0
    # whatever the parse says of the quote, a faithful statement is never parked
    for parsed in (None, False, True):
        assert polarity_mismatch(statement, quote, quote_negated=parsed) is None


@pytest.mark.parametrize(("quote", "statement"), [
    ("I can't wait to see your show", "Ada doesn't want to see your show."),
    ("I couldn't be happier with the studio", "Ada is not happy with the studio."),
    ("No doubt, you've got this", "You haven't got this."),
    ("I can't believe it's been a year since we met", "It hasn't been a year since they met."),
])
def test_a_statement_that_inverts_an_idiom_is_still_parked(quote, statement):
    for parsed in (None, False):
        assert polarity_mismatch(statement, quote, quote_negated=parsed) is not None


@pytest.mark.parametrize(("quote", "statement"), IDIOMS)
def test_the_parser_reads_an_idiom_as_no_negation(parser, quote, statement):
    found = _negated(parser, quote)
    assert True not in found, (quote, found)


@pytest.mark.parametrize("line", NEGATIONS)
def test_plain_uses_stay_negations_in_both_readers(parser, line):
    assert negation_polarity(line) >= 1
    found = _negated(parser, line)
    assert found and all(found), (line, found)


def test_the_parse_and_the_guard_agree_on_every_idiom_fact(parser):
    """Through the extractor: no fact of an idiom line is one the guard would park."""
    parked = []
    for quote, _ in IDIOMS:
        for fact in parser.extract(f"Ada: {quote}"):
            reason = polarity_mismatch(fact.statement, fact.quote, quote_negated=fact.negated)
            if reason is not None:
                parked.append((fact.quote, reason))
    assert parked == []
