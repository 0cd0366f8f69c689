"""The offline relation rules (factstore/extractors/relations.py), one sentence per rule.

Every sentence here was written for these tests; none is in evals/data/relations.jsonl.
The last test is a population check on the gold set's development split (r0001-r0085, the
rows the rules were tuned on): its precision and recall must stay above what was measured
(1.000 and 0.814) minus a margin.
"""

from __future__ import annotations

from typing import Any

import pytest

from evals.registry import EvalContext
from evals.suites.relation_extraction import DATASET, load_relations, run_relations
from factstore import Settings
from factstore.extractors.parsed import ParserExtractor
from factstore.extractors.relations import find_mentions, find_relations, typed_mentions
from factstore.nlp import parser


def read(sentence: str, speaker: str | None = None) -> tuple[list, list]:
    span = parser()(sentence)[:]
    mentions = find_mentions(span)
    return mentions, find_relations(span, mentions, speaker)


RULES = [
    ("Tariq works at Bluefin Labs.", None, [("Tariq", "works_at", "Bluefin Labs")]),
    ("Noor reports to Camille.", None, [("Noor", "reports_to", "Camille")]),
    ("Camille manages Noor and Pieter.", None,
     [("Camille", "manages", "Noor"), ("Camille", "manages", "Pieter")]),
    ("The refunds-api service is maintained by Pieter.", None,
     [("Pieter", "maintains", "refunds-api")]),
    ("Yara lives in Lyon.", None, [("Yara", "lives_in", "Lyon")]),
    ("Bastian was born in Ghent.", None, [("Bastian", "born_in", "Ghent")]),
    ("Odile moved to Montreal last spring.", None, [("Odile", "moved_to", "Montreal")]),
    ("Kwame joined Helix Robotics in April.", None, [("Kwame", "joined", "Helix Robotics")]),
    ("Kwame left Helix Robotics after two years.", None,
     [("Kwame", "left", "Helix Robotics")]),
    ("Sigrid founded Tallow Works in 2015.", None, [("Sigrid", "founded", "Tallow Works")]),
    ("Dunmore Shipping was bought by Maple Freight.", None,
     [("Maple Freight", "acquired", "Dunmore Shipping")]),
    ("Ivo studied at Corvin University.", None, [("Ivo", "studied_at", "Corvin University")]),
    ("Helix Robotics is based in Turin.", None, [("Helix Robotics", "located_in", "Turin")]),
    ("The invoice-worker depends on Redis.", None, [("invoice-worker", "depends_on", "Redis")]),
    ("Pieter uses Emacs every day.", None, [("Pieter", "uses", "Emacs")]),
    ("The Ledger team is part of Finance Engineering.", None,
     [("Ledger team", "part_of", "Finance Engineering")]),
    ("Camille leads the Ledger team.", None, [("Camille", "leads", "Ledger team")]),
    ("Pieter is a member of the Security Guild.", None,
     [("Pieter", "member_of", "Security Guild")]),
    # appositions and possessives
    ("Odile Marchand, the CTO of Bluefin Labs, spoke first.", None,
     [("Odile Marchand", "works_at", "Bluefin Labs")]),
    ("Kwame, a designer at Helix Robotics, sent the mockups.", None,
     [("Kwame", "works_at", "Helix Robotics")]),
    ("My sister Wanda lives in Krakow.", "Tomasz",
     [("Wanda", "lives_in", "Krakow"), ("Tomasz", "sibling_of", "Wanda")]),
    ("Noor's manager Camille approved the budget.", None, [("Camille", "manages", "Noor")]),
    ("Pieter is Noor's younger brother.", None, [("Pieter", "sibling_of", "Noor")]),
    ("Wanda and Ilse are married.", None, [("Wanda", "married_to", "Ilse")]),
    # passive participles, relative clauses, reported speech, the speaker
    ("Tallow Works, founded by Sigrid Olsen, sells candles.", None,
     [("Sigrid Olsen", "founded", "Tallow Works")]),
    ("Lars, who manages Noor, is on leave.", None, [("Lars", "manages", "Noor")]),
    ("Sigrid said that Kwame joined Helix Robotics.", None,
     [("Kwame", "joined", "Helix Robotics")]),
    ("I work at Bluefin Labs.", "Tomasz", [("Tomasz", "works_at", "Bluefin Labs")]),
    # a contrastive ", not X" denies X alone
    ("The Vesper app is owned by the Growth team, not by Legal.", None,
     [("Growth team", "owns", "Vesper")]),
]


@pytest.mark.parametrize(("sentence", "speaker", "expected"), RULES,
                         ids=[r[0][:40] for r in RULES])
def test_each_rule_reads_its_relation(sentence: str, speaker: str | None,
                                      expected: list[tuple[str, str, str]]) -> None:
    mentions, relations = read(sentence, speaker)
    assert sorted(relations) == sorted(expected)
    names = [m[0] for m in mentions]
    for subject, _, obj in relations:  # every end is a mention written in the sentence
        for name in (subject, obj):
            assert name == speaker or (name in names and name in sentence)


NOTHING = [
    "Tariq no longer works at Bluefin Labs.",
    "Tariq doesn't work at Bluefin Labs.",
    "Tariq never lived in Lyon.",
    "Does Tariq work at Bluefin Labs?",
    "If Maple Freight acquires Dunmore Shipping, prices rise.",
    "Tariq might join Helix Robotics.",
    "Maybe Tariq lives in Lyon.",
    "Tariq wants to move to Lisbon.",
    "Tariq will join Helix Robotics next month.",
    "Tariq works at the bakery.",             # no second entity
    "Camille thanked Noor for the review.",   # no vocabulary relation
    "I work at Bluefin Labs.",                # "I" without a speaker names nobody
]


@pytest.mark.parametrize("sentence", NOTHING)
def test_denied_hedged_asked_or_one_sided_sentences_yield_nothing(sentence: str) -> None:
    assert read(sentence)[1] == []


def test_mentions_are_verbatim_without_determiners_or_possessives() -> None:
    mentions, _ = read("Yesterday the Payments team asked Hana Kobayashi's cousin about "
                       "Halden Institute of Technology and the ledger-sync library.")
    names = [m[0] for m in mentions]
    assert names == ["Payments team", "Hana Kobayashi", "Halden Institute of Technology",
                     "ledger-sync"]
    assert dict(mentions)["ledger-sync"] == "Service"
    assert dict(mentions)["Payments team"] == "Organization"


def test_dates_roles_and_hyphenated_words_are_not_names() -> None:
    mentions, _ = read("On Friday the CTO, a co-founder, shared a follow-up on the "
                       "long-term plan.")
    assert mentions == []


def test_relations_fill_a_type_the_name_does_not_give() -> None:
    mentions = [("Yara", None), ("Lyon", "Organization"), ("Ledger team", "Organization")]
    typed = typed_mentions(mentions, [("Yara", "lives_in", "Lyon"),
                                      ("Ledger team", "located_in", "Lyon")])
    assert typed == [("Yara", "Person"), ("Lyon", "Place"), ("Ledger team", "Organization")]


def test_the_parser_extractor_carries_mentions_and_relations_per_clause() -> None:
    facts = ParserExtractor().extract(
        "Tomasz: I joined Bluefin Labs in May, and my sister Wanda still lives in Krakow.")
    by_quote = {f.quote: f for f in facts}
    assert set(by_quote) == {"I joined Bluefin Labs in May", "my sister Wanda still lives in Krakow"}
    assert by_quote["I joined Bluefin Labs in May"].relations == (
        ("Tomasz", "joined", "Bluefin Labs"),)
    second = by_quote["my sister Wanda still lives in Krakow"]
    assert set(second.relations) == {("Wanda", "lives_in", "Krakow"),
                                     ("Tomasz", "sibling_of", "Wanda")}
    assert ("Krakow", "Place") in second.mentions


def test_the_development_split_keeps_its_measured_precision_and_recall() -> None:
    # Measured when the rules were written: precision 79/79 = 1.000, recall 79/97 = 0.814.
    rows = [r for r in load_relations(DATASET) if r["split"] == "dev"]
    assert len(rows) == 85
    ctx: Any = EvalContext(extractor=ParserExtractor(), embedder=None, settings=Settings(),
                           open_store=lambda: None)
    outcome = run_relations(ctx, rows)
    assert outcome.metrics["precision_dev"] >= 0.95
    assert outcome.metrics["recall_dev"] >= 0.75
    assert outcome.notes["by_category"]["no-relation"]["fp"] == 0
    assert outcome.notes["by_category"]["negated"]["fp"] == 0
