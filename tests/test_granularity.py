"""The granularity fix (seed 000 §5, sentence-shredding): pure, no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.extractors.base import ExtractedFact
from factstore.extractors.rules import RuleExtractor
from factstore.writepath.anchors import quote_is_anchored
from factstore.writepath.granularity import fold_fragments

INVENTORY = "The staging cluster runs Postgres 16, Redis 7 and Kafka 3.6."
COMPOUND = "The importer skips UTF-16 input and logs a warning."
PREFERENCES = "I prefer dark-mode editors and can't stand light themes."


def fact(statement: str, quote: str, kind: str = "STATE", **kw) -> ExtractedFact:
    return ExtractedFact(statement=statement, kind=kind, quote=quote, **kw)


def inventory_fragments() -> list[ExtractedFact]:
    return [
        fact("The staging cluster runs Postgres 16.", "The staging cluster runs Postgres 16",
             topics=("staging", "Postgres")),
        fact("The staging cluster runs Redis 7.", "Redis 7", topics=("Redis",)),
        fact("The staging cluster runs Kafka 3.6.", "and Kafka 3.6", topics=("Kafka", "staging")),
    ]


def compound_fragments() -> list[ExtractedFact]:
    return [
        fact("The importer skips UTF-16 input.", "The importer skips UTF-16 input", "RESIDUAL",
             risk_weight="low"),
        fact("The importer logs a warning.", "logs a warning", "RESIDUAL",
             trigger_predicate="a UTF-16 feed is onboarded", supersedes=True),
    ]


# --------------------------------------------------------------------------- folding


def test_fragments_of_an_inventory_sentence_fold_to_one():
    (folded,) = fold_fragments(inventory_fragments(), INVENTORY)
    assert folded.kind == "STATE"
    assert folded.statement == "The staging cluster runs Postgres 16, Redis 7 and Kafka 3.6."
    assert folded.quote == INVENTORY.rstrip(".")
    assert folded.topics == ("staging", "Postgres", "Redis", "Kafka")


def test_inventory_fragments_quoting_the_whole_sentence_fold_too():
    facts = [fact(f.statement, INVENTORY) for f in inventory_fragments()]
    (folded,) = fold_fragments(facts, INVENTORY)
    assert folded.quote == INVENTORY
    assert folded.statement == "The staging cluster runs Postgres 16, Redis 7 and Kafka 3.6."


def test_inventory_fragments_with_reworded_statements_fold_by_their_shared_predicate():
    facts = [fact("Postgres 16 is part of the staging cluster.", "Postgres 16"),
             fact("Redis 7 is part of the staging cluster.", "Redis 7"),
             fact("Kafka 3.6 is part of the staging cluster.", "Kafka 3.6")]
    (folded,) = fold_fragments(facts, INVENTORY)
    assert folded.statement == "Postgres 16, Redis 7 and Kafka 3.6 are part of the staging cluster."
    assert folded.quote == "Postgres 16, Redis 7 and Kafka 3.6"


def test_compound_statement_fragments_fold():
    (folded,) = fold_fragments(compound_fragments(), COMPOUND)
    assert folded.kind == "RESIDUAL"
    assert folded.statement == "The importer skips UTF-16 input and logs a warning."
    assert folded.quote == "The importer skips UTF-16 input and logs a warning"
    # per-kind fields: the first non-null of each; supersedes: any
    assert folded.risk_weight == "low"
    assert folded.trigger_predicate == "a UTF-16 feed is onboarded"
    assert folded.supersedes is True


def test_seed_preference_shape_folds_into_the_seed_statement():
    facts = [fact("The user prefers dark-mode editors.", "I prefer dark-mode editors",
                  "PREFERENCE"),
             fact("The user dislikes light themes.", "can't stand light themes", "PREFERENCE")]
    (folded,) = fold_fragments(facts, PREFERENCES)
    assert folded.statement == "The user prefers dark-mode editors and dislikes light themes."


def test_a_list_continuation_folds_even_when_its_statement_is_reworded():
    facts = [fact("The staging cluster runs Postgres 16.", "The staging cluster runs Postgres 16"),
             fact("Redis 7 also runs on the staging cluster.", "Redis 7"),
             fact("Kafka 3.6 runs there as well.", "and Kafka 3.6")]
    (folded,) = fold_fragments(facts, INVENTORY)
    assert folded.quote == INVENTORY.rstrip(".")
    assert folded.statement.startswith("The staging cluster runs Postgres 16; Redis 7 also")


@pytest.mark.parametrize(("source", "kind", "first", "second"), [
    # a reason
    ("We'll go with SQLite for the local cache, since it needs no daemon.", "DECISION",
     ("The team will go with SQLite for the local cache.",
      "We'll go with SQLite for the local cache"),
     ("SQLite needs no daemon.", "since it needs no daemon")),
    # a trigger
    ("We decided against a service mesh for now; reopen it if we pass 40 services.", "DECISION",
     ("The team decided against a service mesh for now.",
      "We decided against a service mesh for now"),
     ("Reopen the service mesh decision past 40 services.", "reopen it if we pass 40 services")),
    # a qualification
    ("Keep each migration reversible, with a tested down step.", "RULE",
     ("Keep each migration reversible.", "Keep each migration reversible"),
     ("Each migration has a tested down step.", "with a tested down step")),
    # an appositive with a relative clause
    ("The offline mode can duplicate a draft on reconnect, a known limitation we ship with.",
     "RESIDUAL",
     ("The offline mode can duplicate a draft on reconnect.",
      "The offline mode can duplicate a draft on reconnect"),
     ("This is a known limitation shipped on purpose.", "a known limitation we ship with")),
    # a RESIDUAL's acceptance
    ("The CSV importer skips BOM detection; we'll live with it until a BOM feed shows up.",
     "RESIDUAL",
     ("The CSV importer skips BOM detection.", "The CSV importer skips BOM detection"),
     ("The team will live with the missing BOM detection.", "we'll live with it")),
    # a label on its own
    ("Known issue: the PDF exporter drops footnotes inside tables.", "RESIDUAL",
     ("Known issue.", "Known issue"),
     ("The PDF exporter drops footnotes inside tables.",
      "the PDF exporter drops footnotes inside tables")),
    # "run" and "build" as nouns do not open a clause
    ("Every PR must have one approving review and a green CI run before it merges.", "RULE",
     ("Every PR must have one approving review.", "Every PR must have one approving review"),
     ("Every PR must have a green CI run before merging.", "a green CI run before it merges")),
])
def test_dependent_pieces_fold_into_their_clause(source, kind, first, second):
    facts = [fact(*first, kind), fact(*second, kind)]
    (folded,) = fold_fragments(facts, source)
    assert folded.quote in source
    assert len(folded.meta["folded_fragments"]) == 2


def test_a_pronoun_head_refers_back_to_the_same_subject():
    source = "The deploy finished; it took 40 minutes."
    facts = [fact("The deploy finished.", "The deploy finished", "EVENT"),
             fact("It took 40 minutes.", "it took 40 minutes", "EVENT")]
    (folded,) = fold_fragments(facts, source)
    assert folded.quote == "The deploy finished; it took 40 minutes"
    assert folded.statement == "The deploy finished; it took 40 minutes."


def test_a_list_of_subjects_folds_with_agreement():
    source = "sample-svc and other-svc are green."
    facts = [fact("sample-svc is green.", source), fact("other-svc is green.", source)]
    (folded,) = fold_fragments(facts, source)
    assert folded.statement == "sample-svc and other-svc are green."


def test_duplicate_fragments_fold_into_one_statement():
    source = "sample-svc is green right now."
    facts = [fact("sample-svc is green right now.", "sample-svc is green right now"),
             fact("Sample-svc is green right now", "sample-svc is green")]
    (folded,) = fold_fragments(facts, source)
    assert folded.statement.lower() == "sample-svc is green right now."
    assert folded.quote == "sample-svc is green right now"
    assert len(folded.meta["folded_fragments"]) == 2


# --------------------------------------------------------------------------- staying apart


def test_two_different_kind_facts_in_one_sentence_stay_apart():
    source = "The nightly job is green right now, and I prefer tabs."
    facts = [fact("The nightly job is green right now.", "The nightly job is green right now"),
             fact("The user prefers tabs.", "I prefer tabs", "PREFERENCE")]
    assert fold_fragments(facts, source) == facts


def test_two_same_kind_facts_in_different_sentences_stay_apart():
    source = "sample-svc is green. sample-svc is fast."
    facts = [fact("sample-svc is green.", "sample-svc is green"),
             fact("sample-svc is fast.", "sample-svc is fast")]
    assert fold_fragments(facts, source) == facts


@pytest.mark.parametrize(("source", "first", "second"), [
    ("sample-svc is green and the billing queue is empty.",
     ("sample-svc is green.", "sample-svc is green"),
     ("The billing queue is empty.", "the billing queue is empty")),
    ("sample-svc passes and other-svc fails.",
     ("sample-svc passes.", "sample-svc passes"), ("other-svc fails.", "other-svc fails")),
    ("The user prefers tabs, and the team prefers spaces.",
     ("The user prefers tabs.", "The user prefers tabs"),
     ("The team prefers spaces.", "the team prefers spaces")),
    ("The nightly job is green; the weekly job is red.",
     ("The nightly job is green.", "The nightly job is green"),
     ("The weekly job is red.", "the weekly job is red")),
    # a verb outside the table: the statement's own subject inside the piece marks a clause
    ("The nightly job is green and the backup rotates.",
     ("The nightly job is green.", "The nightly job is green"),
     ("The backup rotates.", "the backup rotates")),
    ("Deploys go through staging and hotfixes go straight to production.",
     ("Deploys go through staging.", "Deploys go through staging"),
     ("Hotfixes go straight to production.", "hotfixes go straight to production")),
])
def test_same_kind_clauses_with_different_subjects_stay_apart(source, first, second):
    facts = [fact(*first), fact(*second)]
    assert fold_fragments(facts, source) == facts
    # also when both quote the whole sentence: the statements' subjects still differ
    whole = [fact(first[0], source), fact(second[0], source)]
    assert fold_fragments(whole, source) == whole


@pytest.mark.parametrize(("source", "kind", "first", "second"), [
    ("Always write a test first and never push to main.", "RULE",
     ("Always write a test first.", "Always write a test first"),
     ("Never push to main.", "never push to main")),
    ("Always run the linter before pushing; separately, never merge your own PR.", "RULE",
     ("Always run the linter before pushing.", "Always run the linter before pushing"),
     ("Never merge your own PR.", "never merge your own PR")),
    ("Decommissioned build-legacy-01 on March 3, and separately we upgraded the VPN gateway.",
     "EVENT",
     ("Decommissioned build-legacy-01 on March 3.", "Decommissioned build-legacy-01 on March 3"),
     ("The team upgraded the VPN gateway.", "we upgraded the VPN gateway")),
    ("The mail relay is down right now, and the search index is currently 4 minutes behind.",
     "STATE",
     ("The mail relay is down right now.", "The mail relay is down right now"),
     ("The search index is currently 4 minutes behind.",
      "the search index is currently 4 minutes behind")),
])
def test_two_same_kind_assertions_in_one_sentence_stay_apart(source, kind, first, second):
    facts = [fact(*first, kind), fact(*second, kind)]
    assert fold_fragments(facts, source) == facts


def test_different_explicit_subjects_stay_apart():
    source = "sample-svc and other-svc are green."
    facts = [fact("sample-svc is green.", source, subject="sample-svc"),
             fact("other-svc is green.", source, subject="other-svc")]
    assert fold_fragments(facts, source) == facts


def test_a_quote_that_is_not_found_or_spans_sentences_stays_alone():
    source = "sample-svc is green. It is fast."
    facts = [fact("sample-svc is green.", "sample-svc is green"),
             fact("sample-svc is green and fast.", "sample-svc is green. It is fast"),
             fact("sample-svc is quick.", "sample-svc is quick")]
    assert fold_fragments(facts, source) == facts


def test_unrelated_facts_pass_through_unchanged_and_in_order():
    source = INVENTORY + " " + "Always rebase before merging."
    rule = fact("Always rebase before merging.", "Always rebase before merging", "RULE")
    out = fold_fragments([inventory_fragments()[0], rule, *inventory_fragments()[1:]], source)
    assert len(out) == 2
    assert out[0].statement.startswith("The staging cluster runs Postgres 16, Redis 7")
    assert out[1] is rule


# --------------------------------------------------------------------------- provenance


def test_folded_quote_is_a_verbatim_substring_covering_all_fragments():
    for facts, source in ((inventory_fragments(), INVENTORY), (compound_fragments(), COMPOUND)):
        (folded,) = fold_fragments(facts, source)
        assert folded.quote in source
        assert quote_is_anchored(folded.quote, source)
        for original in facts:
            assert original.quote in folded.quote


def test_meta_keeps_every_fragment_and_earlier_meta():
    facts = inventory_fragments()
    facts[0] = fact(facts[0].statement, facts[0].quote,
                    meta={"absorbed_outcomes": [{"statement": "x", "quote": "y"}]})
    facts[2] = fact(facts[2].statement, facts[2].quote, meta={"note": "kept"})
    (folded,) = fold_fragments(facts, INVENTORY)
    assert folded.meta["folded_fragments"] == [
        {"statement": f.statement, "quote": f.quote} for f in facts]
    assert folded.meta["absorbed_outcomes"] == [{"statement": "x", "quote": "y"}]
    assert folded.meta["note"] == "kept"


def test_fragment_order_follows_the_source_not_the_list():
    facts = list(reversed(inventory_fragments()))
    (folded,) = fold_fragments(facts, INVENTORY)
    assert folded.statement == "The staging cluster runs Postgres 16, Redis 7 and Kafka 3.6."
    assert [f["quote"] for f in folded.meta["folded_fragments"]] == [
        "The staging cluster runs Postgres 16", "Redis 7", "and Kafka 3.6"]


def test_a_negated_shared_opening_is_not_factored_out():
    source = "The importer does not retry and does not log."
    facts = [fact("The importer does not retry.", "The importer does not retry", "RESIDUAL"),
             fact("The importer does not log.", "does not log", "RESIDUAL")]
    (folded,) = fold_fragments(facts, source)
    # "does not retry and log" would blur the scope of the negation
    assert folded.statement == "The importer does not retry; the importer does not log."


# --------------------------------------------------------------------------- newer rules


@pytest.mark.parametrize(("source", "kind", "first", "second"), [
    # a piece in parentheses right after its clause
    ("You must pin every base image by digest (no floating tags).", "RULE",
     ("You must pin every base image by digest.", "You must pin every base image by digest"),
     ("Floating tags are not allowed.", "no floating tags")),
    # a subject-less participle phrase
    ("The staging database sits on the new host, restored from Sunday's dump.", "STATE",
     ("The staging database sits on the new host.", "The staging database sits on the new host"),
     ("Restored from Sunday's dump.", "restored from Sunday's dump")),
    # an absolute phrase: a count with a participle
    ("The integration suite is green on main, 240 passed.", "STATE",
     ("The integration suite is green on main.", "The integration suite is green on main"),
     ("240 tests passed.", "240 passed")),
    # an absolute phrase: a quantifier with a participle, after "and"
    ("The mirror finished syncing overnight and every package verified.", "STATE",
     ("The mirror finished syncing overnight.", "The mirror finished syncing overnight"),
     ("Every package verified.", "every package verified")),
    # a reason that points back at the clause ("that way")
    ("Never rotate the signing key by hand; the spring outage began that way.", "RULE",
     ("Never rotate the signing key by hand.", "Never rotate the signing key by hand"),
     ("The spring outage began that way.", "the spring outage began that way")),
    # ... or "that's why"
    ("Keep the changelog in the repo, that's why reviewers can diff it.", "RULE",
     ("Keep the changelog in the repo.", "Keep the changelog in the repo"),
     ("Reviewers can diff the changelog.", "that's why reviewers can diff it")),
    # a speaker's stance whose object pronoun points back
    ("I don't want dependency bumps in feature branches; a separate PR is how I like it.",
     "PREFERENCE",
     ("The user does not want dependency bumps in feature branches.",
      "I don't want dependency bumps in feature branches"),
     ("A separate PR is how the user likes it.", "a separate PR is how I like it")),
    # a possessive opening that refers back
    ("The design doc is at https://docs.example.test/d/42; its appendix lists open questions.",
     "REFERENCE",
     ("The design doc is at https://docs.example.test/d/42.",
      "The design doc is at https://docs.example.test/d/42"),
     ("Its appendix lists open questions.", "its appendix lists open questions")),
    # a pro-form head ("mobile ones") scoping one decision
    ("We will keep weekly releases for the web apps; mobile ones stay monthly.", "DECISION",
     ("The team will keep weekly releases for the web apps.",
      "We will keep weekly releases for the web apps"),
     ("Mobile ones stay monthly.", "mobile ones stay monthly")),
    # a bare noun phrase continuing a list
    ("The nightly backup covers the main database as well as object storage.", "STATE",
     ("The nightly backup covers the main database.",
      "The nightly backup covers the main database"),
     ("Object storage.", "object storage")),
])
def test_newer_dependent_pieces_fold_into_their_clause(source, kind, first, second):
    facts = [fact(*first, kind), fact(*second, kind)]
    (folded,) = fold_fragments(facts, source)
    assert folded.quote in source
    assert len(folded.meta["folded_fragments"]) == 2


@pytest.mark.parametrize(("source", "first", "second"), [
    ("Flushed the CDN cache at 09:10, and the stale banner disappeared.",
     ("Flushed the CDN cache at 09:10.", "Flushed the CDN cache at 09:10"),
     ("The stale banner disappeared.", "the stale banner disappeared")),
    ("Resized the worker pool to twelve nodes; the backlog drained within an hour.",
     ("Resized the worker pool to twelve nodes.", "Resized the worker pool to twelve nodes"),
     ("The backlog drained within an hour.", "the backlog drained within an hour")),
    ("Rebuilt the search index, and query latency was back under 80 ms by noon.",
     ("Rebuilt the search index.", "Rebuilt the search index"),
     ("Query latency was back under 80 ms by noon.",
      "query latency was back under 80 ms by noon")),
    # two agent-less steps of one action
    ("Re-imaged the kiosk laptops and re-enrolled them in device management.",
     ("Re-imaged the kiosk laptops.", "Re-imaged the kiosk laptops"),
     ("Re-enrolled the kiosk laptops in device management.",
      "re-enrolled them in device management")),
])
def test_an_events_outcome_folds_into_the_event(source, first, second):
    facts = [fact(*first, "EVENT"), fact(*second, "EVENT")]
    (folded,) = fold_fragments(facts, source)
    assert folded.kind == "EVENT"
    assert folded.quote in source
    assert len(folded.meta["folded_fragments"]) == 2


@pytest.mark.parametrize(("source", "first", "second"), [
    # a new agent acts: a second event
    ("Rotated the API keys on Monday, and then the team patched the kernel.",
     ("Rotated the API keys on Monday.", "Rotated the API keys on Monday"),
     ("The team patched the kernel.", "then the team patched the kernel")),
    ("Archived the old tickets, and we moved the board to the new tracker.",
     ("Archived the old tickets.", "Archived the old tickets"),
     ("The team moved the board to the new tracker.",
      "we moved the board to the new tracker")),
    # a new time: a second event
    ("Rotated the API keys, and on Friday the cache cluster was resized.",
     ("Rotated the API keys.", "Rotated the API keys"),
     ("The cache cluster was resized on Friday.", "on Friday the cache cluster was resized")),
    # the first clause has its own subject: not an agent-less action with an outcome
    ("The web team rebuilt the images, and the data team migrated the warehouse.",
     ("The web team rebuilt the images.", "The web team rebuilt the images"),
     ("The data team migrated the warehouse.", "the data team migrated the warehouse")),
])
def test_separate_events_in_one_sentence_stay_apart(source, first, second):
    facts = [fact(*first, "EVENT"), fact(*second, "EVENT")]
    assert fold_fragments(facts, source) == facts


@pytest.mark.parametrize(("source", "kind", "first", "second"), [
    ("The payments API returns 502s and the search page loads slowly.", "STATE",
     ("The payments API returns 502s.", "The payments API returns 502s"),
     ("The search page loads slowly.", "the search page loads slowly")),
    ("The ingest worker crashed at dawn and the report builder stalled at noon.", "EVENT",
     ("The ingest worker crashed at dawn.", "The ingest worker crashed at dawn"),
     ("The report builder stalled at noon.", "the report builder stalled at noon")),
    ("Reviewers must approve within a day and authors must squash before merging.", "RULE",
     ("Reviewers must approve within a day.", "Reviewers must approve within a day"),
     ("Authors must squash before merging.", "authors must squash before merging")),
    ("I prefer short standups and my manager prefers written updates.", "PREFERENCE",
     ("The user prefers short standups.", "I prefer short standups"),
     ("The user's manager prefers written updates.", "my manager prefers written updates")),
])
def test_and_joined_clauses_with_own_subjects_and_verbs_stay_apart(source, kind, first, second):
    facts = [fact(*first, kind), fact(*second, kind)]
    assert fold_fragments(facts, source) == facts


@pytest.mark.parametrize(("source", "first", "second"), [
    # a pro-form head next to a STATE is a second subject, not a scope
    ("The old cluster is retired; the new one is live.",
     ("The old cluster is retired.", "The old cluster is retired"),
     ("The new cluster is live.", "the new one is live")),
    # a trailing "it" with no speaker's stance is a clause of its own
    ("sample-svc is green and other-svc can't reach it.",
     ("sample-svc is green.", "sample-svc is green"),
     ("other-svc can't reach sample-svc.", "other-svc can't reach it")),
    # "-ed" words that are no past form do not make a participle phrase
    ("The cache layer is warm; speed matters more than size here.",
     ("The cache layer is warm.", "The cache layer is warm"),
     ("Speed matters more than size here.", "speed matters more than size here")),
])
def test_near_misses_of_the_newer_rules_stay_apart(source, first, second):
    facts = [fact(*first), fact(*second)]
    assert fold_fragments(facts, source) == facts


# --------------------------------------------------------------------------- idempotence

EVENT_OUTCOME = "Flushed the CDN cache at 09:10, and the stale banner disappeared (12 purged)."


def event_outcome_fragments() -> list[ExtractedFact]:
    return [
        fact("Flushed the CDN cache at 09:10.", "Flushed the CDN cache at 09:10", "EVENT"),
        fact("The stale banner disappeared.", "the stale banner disappeared", "EVENT"),
        fact("12 pages were purged.", "12 purged", "EVENT"),
    ]


CASES = [
    (inventory_fragments, INVENTORY),
    (compound_fragments, COMPOUND),
    (event_outcome_fragments, EVENT_OUTCOME),
]


@pytest.mark.parametrize(("make", "source"), CASES)
def test_folding_is_deterministic(make, source):
    assert fold_fragments(make(), source) == fold_fragments(make(), source)


@pytest.mark.parametrize(("make", "source"), CASES)
def test_folding_twice_equals_folding_once(make, source):
    once = fold_fragments(make(), source)
    assert fold_fragments(once, source) == once


def test_folding_a_partly_folded_list_reaches_the_same_result():
    facts = inventory_fragments()
    partial = fold_fragments(facts[:2], INVENTORY) + facts[2:]
    assert fold_fragments(partial, INVENTORY) == fold_fragments(facts, INVENTORY)


def test_rule_extractor_output_is_left_alone():
    # one fact per sentence already: nothing to fold
    source = ("The nightly job is green right now. I prefer tabs. Always rebase before "
              "merging; no exceptions.")
    facts = RuleExtractor().extract(source)
    assert fold_fragments(facts, source) == facts


POOL_SOURCE = ("The staging cluster runs Postgres 16, Redis 7 and Kafka 3.6. sample-svc is "
               "green and the billing queue is empty. I prefer tabs. Flushed the CDN cache, "
               "and the stale banner disappeared (12 pages purged).")
POOL = [
    fact("The staging cluster runs Postgres 16.", "The staging cluster runs Postgres 16"),
    fact("The staging cluster runs Redis 7.", "Redis 7"),
    fact("The staging cluster runs Kafka 3.6.", "and Kafka 3.6"),
    fact("sample-svc is green.", "sample-svc is green", subject="sample-svc"),
    fact("The billing queue is empty.", "the billing queue is empty"),
    fact("The user prefers tabs.", "I prefer tabs", "PREFERENCE"),
    fact("The cluster is staged.", "The staging cluster runs Postgres 16, Redis 7", "EVENT"),
    fact("Missing.", "not in the source"),
    fact("Flushed the CDN cache.", "Flushed the CDN cache", "EVENT"),
    fact("The stale banner disappeared.", "the stale banner disappeared", "EVENT"),
    fact("12 pages were purged.", "12 pages purged", "EVENT"),
]


@given(st.lists(st.sampled_from(range(len(POOL))), max_size=10))
def test_folding_is_idempotent_and_loses_no_fragment(indexes):
    facts = [POOL[i] for i in indexes]
    once = fold_fragments(facts, POOL_SOURCE)
    assert fold_fragments(once, POOL_SOURCE) == once
    assert fold_fragments(list(facts), POOL_SOURCE) == once
    # every input fact is either passed through or recorded as a fragment
    recorded = [(f.statement, f.quote) for out in once
                for f in [out] if "folded_fragments" not in out.meta]
    recorded += [(r["statement"], r["quote"]) for out in once
                 for r in out.meta.get("folded_fragments", [])]
    assert sorted(recorded) == sorted((f.statement, f.quote) for f in facts)
    assert len(once) <= len(facts)


def test_a_restated_speaker_subject_starts_a_clause_of_its_own():
    source = "I prefer paper notebooks for planning, and I keep my to-dos in a text file."
    facts = [ExtractedFact(statement="The user prefers paper notebooks for planning.",
                           kind="PREFERENCE", quote="I prefer paper notebooks for planning"),
             ExtractedFact(statement="The user keeps the to-dos in a text file.",
                           kind="PREFERENCE", quote="I keep my to-dos in a text file")]
    assert fold_fragments(facts, source) == facts
    # the same head with the subject left out of the second piece is one assertion
    shred = [facts[0], ExtractedFact(statement="The user keeps the to-dos in a text file.",
                                     kind="PREFERENCE", quote="keep my to-dos in a text file")]
    assert len(fold_fragments(shred, source.replace("and I keep", "and keep"))) == 1
