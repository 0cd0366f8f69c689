"""The difference detector: the deterministic second stage after cosine (issue 4, question 2)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.differences import differences, route_decision

# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The spending limit is 40.", "The spending limit is 41.", "value 40 -> 41"),
    ("The spending limit is 40 EU.", "The spending limit is 41 EU.", "value 40 EU -> 41 EU"),
    ("The disk holds 40 GB.", "The disk holds 40 MB.", "value 40 GB -> 40 MB"),
    ("The cluster runs Postgres 16.", "The cluster runs Postgres 17.", "value 16 -> 17"),
    ("Uptime is 99.9%.", "Uptime is 99.5%.", "value 99.9% -> 99.5%"),
    ("The error rate is 0.5 percent.", "The error rate is 5 percent.",
     "value 0.5 percent -> 5 percent"),
    ("The threshold is 0.91.", "The threshold is 0.93.", "value 0.91 -> 0.93"),
    ("The job retries three times.", "The job retries five times.",
     "value three times -> five times"),
    ("The budget is $40.", "The budget is $45.", "value $40 -> $45"),
    ("The timeout is 30s.", "The timeout is 45s.", "value 30s -> 45s"),
    ("The migration moved 214 pages.", "The migration moved 215 pages.", "value 214 -> 215"),
    ("The service runs version 1.2.3.", "The service runs version 1.2.4.",
     "version 1.2.3 -> 1.2.4"),
    ("The API is at v2.", "The API is at v3.", "version v2 -> v3"),
    ("The queue holds 1,000 messages.", "The queue holds 1,500 messages.",
     "value 1,000 -> 1,500"),
])
def test_changed_numbers_are_named(a, b, expected):
    assert differences(a, b) == (expected,)
    assert route_decision(differences(a, b))


@pytest.mark.parametrize(("a", "b"), [
    ("Uptime is 40%.", "Uptime is 40 percent."),
    ("The job takes 2 hours.", "The job takes 120 minutes."),
    ("The job runs every two days.", "The job runs every 2 days."),
    ("The cache holds 1,000 entries.", "The cache holds 1000 entries."),
    ("The cache holds 1,000 entries.", "The cache holds 1k entries."),
    ("The threshold is 0.50.", "The threshold is 0.5."),
    ("The STATE expires after 2d.", "The STATE expires after 2 days."),
    ("Checksum parity verified (214 == 214).", "Checksum parity was verified: 214 == 214."),
    ("The link sweep found zero broken links.", "The link sweep found no broken links."),
])
def test_equal_quantities_written_differently_are_not_differences(a, b):
    assert differences(a, b) == ()


def test_numbers_pair_only_when_they_measure_the_same_thing():
    # a version and a count: two facts, not a changed value
    found = differences("The staging cluster currently runs Postgres 16.",
                        "The staging cluster currently has 3 worker nodes.")
    assert found == ("value 16 only in a", "value 3 only in b")
    assert not route_decision(found)
    # a changed value in the same aligned position pairs even among repeats
    assert differences("The rotation finished for 19 services, 19 of 19 confirmed.",
                       "The rotation finished for 19 services, 17 of 19 confirmed.") == (
        "value 19 -> 17",)


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Build logs older than a week are archived.", "Build logs older than a month are archived.",
     "value a week -> a month"),
    ("The limiter allows 600 requests per minute.", "The limiter allows 600 requests per second.",
     "value per minute -> per second"),
    ("The report runs monthly.", "The report runs quarterly.", "value monthly -> quarterly"),
])
def test_unit_phrases_and_cadences_are_quantities(a, b, expected):
    assert differences(a, b) == (expected,)


def test_equal_unit_phrases_are_not_differences():
    assert differences("The auth service handles 900 logins a minute.",
                       "The auth service handles 900 logins per minute.") == ()
    assert differences("The job keeps up to 23 hours of data.",
                       "The job keeps up to 23 extra hours of data.") == ()


def test_identifiers_with_digits_are_not_numbers():
    # UTF-16 is a name, not the number 16
    assert differences("The team uses UTF-8.", "The team uses UTF-16.") == (
        "named value UTF-8 -> UTF-16",)


def test_a_value_on_one_side_only_is_detail_not_a_conflict():
    found = differences("The limit is 40.", "The limit is 40, or 41 on weekends.")
    assert found == ("value 41 only in b",)
    assert not route_decision(found)


def test_several_changed_numbers_pair_in_order():
    assert differences("The job took 40 minutes and used 3 GB.",
                       "The job took 41 minutes and used 4 GB.") == (
        "value 40 minutes -> 41 minutes", "value 3 GB -> 4 GB")


# --------------------------------------------------------------------------- dates and times


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The release ships in 2025-06.", "The release ships in 2025-07.",
     "date 2025-06 -> 2025-07"),
    ("The release ships on 2025-06-01.", "The release ships on 2025-06-02.",
     "date 2025-06-01 -> 2025-06-02"),
    ("The release ships in June.", "The release ships in July.", "date June -> July"),
    ("The release ships on June 3.", "The release ships on June 4.", "date June 3 -> June 4"),
    ("The audit is in March 2025.", "The audit is in March 2026.",
     "date March 2025 -> March 2026"),
    ("Deploys happen on Monday.", "Deploys happen on Tuesday.", "date Monday -> Tuesday"),
    ("The contract ends in 2025.", "The contract ends in 2026.", "date 2025 -> 2026"),
    ("The roadmap item lands in Q3.", "The roadmap item lands in Q4.", "date Q3 -> Q4"),
    ("The freeze starts today.", "The freeze starts tomorrow.", "date today -> tomorrow"),
    ("The backup runs at 2am.", "The backup runs at 3am.", "time 2am -> 3am"),
    ("The backup runs at 14:00.", "The backup runs at 15:30.", "time 14:00 -> 15:30"),
])
def test_changed_dates_and_times_are_named(a, b, expected):
    assert differences(a, b) == (expected,)
    assert route_decision(differences(a, b))


@pytest.mark.parametrize(("a", "b"), [
    ("The release ships in June 2025.", "The release ships in 2025-06."),
    ("The release ships on 3 June 2025.", "The release ships on June 3rd, 2025."),
    ("The release ships on 2025-06-03.", "The release ships on June 3, 2025."),
    ("The backup runs at 2am.", "The backup runs at 02:00."),
    ("The backup runs at 2 p.m.", "The backup runs at 14:00."),
    ("Deploys happen on Mondays.", "Deploys happen on Monday."),
    ("The job may run late.", "The job might run late."),  # "may" is not the month
])
def test_equal_dates_written_differently_are_not_differences(a, b):
    assert differences(a, b) == ()


# --------------------------------------------------------------------------- negation


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The nightly job is green on sample-svc.", "The nightly job is not green on sample-svc.",
     "negation: b negates a"),
    ("The queue isn't empty.", "The queue is empty.", "negation: a negates b"),
    ("The importer validates UTF-16.", "The importer no longer validates UTF-16.",
     "negation: b negates a"),
    ("The team ships on Fridays.", "The team does not ship on Fridays.",
     "negation: b negates a"),
    ("The importer parses UTF-16.", "The importer fails to parse UTF-16.",
     "negation: b negates a"),
    ("We opted for blue-green deploys.", "We opted against blue-green deploys.",
     "negation: b negates a"),
    ("Run the drill against a copy, not the live replica.",
     "The drill doesn't have to run against a copy.", "negation: b negates a"),
])
def test_negation_parity_is_named(a, b, expected):
    assert differences(a, b) == (expected,)
    assert route_decision(differences(a, b))


@pytest.mark.parametrize(("a", "b"), [
    ("The nightly job isn't green.", "The nightly job is not green."),
    ("The job never runs on Fridays.", "The job does not ever run on Fridays."),
    ("The service no longer retries.", "The service does not retry anymore."),
    ("The importer fails to parse UTF-16.", "The importer does not parse UTF-16."),
    ("The job never fails to run.", "The job runs."),
    ("Base images are pinned by digest.", "Base images are pinned by digest, not a tag."),
    ("The decision is: no service mesh.", "We decided against a service mesh."),
    ("The suite had 1,482 passes and 0 failures.", "The suite passed 1,482 tests, failed none."),
    ("Right now nobody can write to the warehouse.", "The warehouse is read-only right now."),
    ("The user doesn't object to emoji in commits.", "The user is fine with emoji in commits."),
    ("The importer never skips the checksum step.", "The importer always runs the checksum step."),
])
def test_negation_kept_through_a_rewording_is_not_a_difference(a, b):
    assert differences(a, b) == ()


# --------------------------------------------------------------------------- antonyms


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The nightly job is green.", "The nightly job is red.", "antonym green -> red"),
    ("sample-svc is up.", "sample-svc is down.", "antonym up -> down"),
    ("The feature flag is enabled.", "The feature flag is disabled.",
     "antonym enabled -> disabled"),
    ("The flag is on.", "The flag is off.", "antonym on -> off"),
    ("The suite is passing.", "The suite is failing.", "antonym passing -> failing"),
    ("The ticket is open.", "The ticket is closed.", "antonym open -> closed"),
    ("The firewall rule is allow.", "The firewall rule is deny.", "antonym allow -> deny"),
    ("The job always runs on Fridays.", "The job never runs on Fridays.",
     "antonym always -> never"),
    ("The decision is locked.", "The decision is unlocked.", "antonym locked -> unlocked"),
    ("The runner is online.", "The runner is offline.", "antonym online -> offline"),
    ("The service is healthy.", "The service is unhealthy.", "antonym healthy -> unhealthy"),
    ("The token is valid.", "The token is invalid.", "antonym valid -> invalid"),
    ("The repo is public.", "The repo is private.", "antonym public -> private"),
    ("The mount is read-only.", "The mount is read-write.", "antonym read-only -> read-write"),
    ("The mount is read only.", "The mount is read-write.", "antonym read-only -> read-write"),
    ("The service is available.", "The service is unavailable.",
     "antonym available -> unavailable"),
    ("The user prefers tabs.", "The user prefers spaces.", "antonym tabs -> spaces"),
])
def test_antonyms_are_named(a, b, expected):
    assert differences(a, b) == (expected,)
    assert route_decision(differences(a, b))


@pytest.mark.parametrize(("a", "b"), [
    ("The nightly job is not green.", "The nightly job is red."),
    ("The feature flag is not enabled.", "The feature flag is disabled."),
    ("The service is not unhealthy.", "The service is healthy."),
    ("The suite is not failing.", "The suite is passing."),
])
def test_an_antonym_under_a_negation_agrees(a, b):
    assert differences(a, b) == ()


def test_function_word_antonyms_count_only_in_the_aligned_position():
    # 'on' is a preposition here, not the opposite of an 'off' elsewhere
    assert differences("Checks run on merge.",
                       "Checks run at merge; the old cron is switched off.") == ()


# --------------------------------------------------------------------------- named values


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Deploys go through staging.", "Deploys go through canary.",
     "named value staging -> canary"),
    ("Deploys go through staging.", "Deploys go through the canary.",
     "named value staging -> canary"),
    ("The job runs on sample-svc.", "The job runs on other-svc.",
     "named value sample-svc -> other-svc"),
    ("The database is Postgres.", "The database is MySQL.", "named value Postgres -> MySQL"),
    ("The runner token lives at C:\\ops\\sample\\runner.env.",
     "The runner token lives at C:\\ops\\other\\runner.env.",
     "named value C:\\ops\\sample\\runner.env -> C:\\ops\\other\\runner.env"),
    ("The config lives at /etc/sample/app.toml.", "The config lives at /etc/other/app.toml.",
     "named value /etc/sample/app.toml -> /etc/other/app.toml"),
    ("The docs are at https://example.com/a.", "The docs are at https://example.com/b.",
     "named value https://example.com/a -> https://example.com/b"),
    ("The flag is called 'fast-path'.", "The flag is called 'slow-path'.",
     "named value 'fast-path' -> 'slow-path'"),
    ("Metrics go to the build.pipeline dashboard.", "Metrics go to the build.release dashboard.",
     "named value build.pipeline -> build.release"),
    ("The on-call owner is Alice.", "The on-call owner is Bob.", "named value Alice -> Bob"),
    ("The job runs nightly.", "The job runs weekly.", "value nightly -> weekly"),
])
def test_changed_named_values_are_named(a, b, expected):
    assert differences(a, b) == (expected,)
    assert route_decision(differences(a, b))


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The user prefers tabs over spaces.", "The user prefers spaces over tabs.",
     "swapped tabs over spaces -> spaces over tabs"),
    ("We chose Terraform over Pulumi.", "We chose Pulumi over Terraform.",
     "swapped Terraform over Pulumi -> Pulumi over Terraform"),
    ("Run the drill against a copy, not the live replica.",
     "Run the drill against the live replica, not a copy.",
     "swapped copy over live replica -> replica over copy"),
])
def test_a_reversed_choice_is_named(a, b, expected):
    assert expected in differences(a, b)
    assert route_decision(differences(a, b))


def test_the_same_choice_worded_differently_is_not_reversed():
    assert differences("Always run the restore drill against a copy, not the live replica.",
                       "The restore drill must always target a copy rather than the live "
                       "replica.") == ()


def test_different_opening_names_are_compared():
    found = differences("Dana is currently the on-call engineer.",
                        "Ivo is currently the on-call engineer.")
    assert found == ("named value Dana -> Ivo",)
    # quantifiers are not names
    assert differences("Each migration ships a tested down step.",
                       "Every migration ships a tested down step.") == ()


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Always pin every base image by digest.", "Always pin every base image by tag.",
     "named value digest -> tag"),
    ("Database credentials must come from the vault.",
     "Database credentials must come from environment files.",
     "named value vault -> environment files"),
])
def test_plain_words_in_an_object_slot_are_values_when_nothing_else_changes(a, b, expected):
    assert differences(a, b) == (expected,)


def test_a_different_subject_is_two_facts_not_a_conflict():
    found = differences("sample-svc is green.", "other-svc is green.")
    assert found == ("subject sample-svc -> other-svc",)
    assert not route_decision(found)
    # a different subject outweighs a different value: both facts stand
    assert not route_decision(differences("sample-svc is green.", "other-svc is red."))
    found = differences("The service runner token is stored at C:\\ops\\sample\\runner.env.",
                        "The service runner config is stored at C:\\ops\\sample\\runner.yaml.")
    assert found[0] == "subject token -> config"
    assert not route_decision(found)


def test_names_are_compared_only_when_the_statements_are_otherwise_aligned():
    # different sentences that happen to mention different names: no position to compare
    assert differences("Alice deployed the importer to staging after the review.",
                       "The runner token for Bob lives in a vault.") == ()


def test_names_that_only_move_are_not_differences():
    assert differences("On sample-svc, the nightly job is green.",
                       "The nightly job is green on sample-svc.") == ()


# --------------------------------------------------------------------------- restatements


@pytest.mark.parametrize(("a", "b"), [
    ("The user prefers dark mode.", "The user likes dark mode."),                 # synonym
    ("The user prefers dark-mode editors.", "The user favours dark-mode editors."),
    ("On sample-svc, the nightly job is green.", "The nightly job is green on sample-svc."),
    ("The nightly job isn't green.", "The nightly job is not green."),            # contraction
    ("The job's green.", "The job is green."),
    ("The runner token lives at C:\\ops\\sample\\runner.env.",
     "The runner token is stored at C:\\ops\\sample\\runner.env."),
    ("Deploys go through staging.", "Deploys pass through Staging."),             # case
    ("The team decided to ship only through staging.",
     "The team has decided that shipping goes only through staging."),
    ("The user can't stand light themes.", "The user dislikes light themes."),
    ("The importer does not validate UTF-16 input.",
     "UTF-16 input is not validated by the importer."),                        # reordering
    ("A doc migration moved all 214 pages.", "All 214 pages were moved by a doc migration."),
    ("sample-svc is green right now.", "sample-svc is currently green."),
    ("The build is green!", "the build is green"),                                # punctuation
    ("The user prefers Vim.", "Vim is the user's preferred editor."),   # a name opening a sentence
    ("The service no longer retries.", "The service stopped retrying."),
    ("Alice owns the importer.", "The importer is owned by Alice."),
    ("The nightly job on sample-svc is green.", "sample-svc's nightly job is green."),
    ("The limit is 40 EU per month.", "The monthly limit is 40 EU."),
    ("Deploys are frozen until June 3.", "Deploys are frozen until 3 June."),
])
def test_restatements_yield_nothing(a, b):
    assert differences(a, b) == ()
    assert not route_decision(differences(a, b))


# --------------------------------------------------------------------------- roles


def _role_swap(found: tuple[str, ...]) -> bool:
    return route_decision(found) and any(d.startswith("roles ") for d in found)


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The dog chases the cat.", "The cat chases the dog.", "roles dog chases cat -> cat chases dog"),
    ("Alice reports to Bob.", "Bob reports to Alice.",
     "roles alice reports to bob -> bob reports to alice"),
    ("The cheetah is running behind its prey.", "The prey is running behind the cheetah.",
     "roles cheetah is running behind prey -> prey is running behind cheetah"),
    # a passive whose agent is the active's subject reversed
    ("The cat is chased by the dog.", "The cat chases the dog.",
     "roles dog chased cat -> cat chases dog"),
])
def test_swapped_subject_and_object_are_a_difference(a, b, expected):
    found = differences(a, b)
    assert found == (expected,)
    assert route_decision(found)


@pytest.mark.parametrize(("a", "b"), [
    ("Flights from Boston to Denver are full.", "Flights from Denver to Boston are full."),
    ("Flights from Boston to Denver are full.", "Flights to Boston from Denver are full."),
    ("Boston to Denver flights are full.", "Flights from Denver to Boston are full."),
    ("The limit went from 40 to 41.", "The limit went from 41 to 40."),
])
def test_swapped_source_and_destination_are_a_difference(a, b):
    assert _role_swap(differences(a, b))


@pytest.mark.parametrize(("a", "b"), [
    ("The cat is chased by the dog.", "The dog chases the cat."),
    ("A flute is being played by a girl.", "A girl is playing a flute."),
    ("Alice owns the importer.", "The importer is owned by Alice."),
])
def test_a_passive_paraphrase_is_not_a_difference(a, b):
    assert differences(a, b) == ()


@pytest.mark.parametrize(("a", "b"), [
    ("Boston to Denver flights are full.", "Flights to Denver from Boston are full."),
    ("Flights from Boston to Denver are full.", "Flights to Denver from Boston are full."),
    ("The road between Boston and Denver is closed.",
     "The road between Denver and Boston is closed."),
    ("Alice and Bob share an office.", "Bob and Alice share an office."),
    ("A woman is talking to a man.", "A man is talking to a woman."),
])
def test_a_reordering_that_keeps_the_roles_is_not_a_conflict(a, b):
    assert not route_decision(differences(a, b))


def test_a_reordered_route_is_a_restatement():
    # not "another subject" either: the same flights, the route written the other way round
    assert differences("Boston to Denver flights are full.",
                       "Flights to Denver from Boston are full.") == ()


# A generated population: every pair of parties and every pair of places, each swapped
# (always flagged) and each reworded with its roles kept (never flagged).
PARTIES = ("the dog", "the cat", "Alice", "Bob", "the auditor", "the payments team",
           "sample-svc", "the billing service", "our landlord", "the new intern")
VERBS = (("chases", "chased"), ("pays", "paid"), ("follows", "followed"),
         ("blocks", "blocked"), ("replaces", "replaced"), ("reviews", "reviewed"),
         ("supervises", "supervised"), ("bites", "bitten"), ("feeds", "fed"),
         ("outranks", "outranked"))
PREPOSITIONAL = ("reports to", "depends on", "sends invoices to", "sits behind")
PLACES = ("Boston", "Denver", "Lisbon", "New York", "the warehouse", "staging",
          "the old data center")


def _cap(text: str) -> str:
    return text if "-" in text else text[0].upper() + text[1:]


def _population(swapped: bool) -> list[tuple[str, str]]:
    pairs = []
    for x, y in itertools.permutations(PARTIES, 2):
        for active, participle in VERBS:
            if swapped:
                pairs += [(f"{_cap(x)} {active} {y}.", f"{_cap(y)} {active} {x}."),
                          (f"{_cap(x)} {active} {y}.", f"{_cap(x)} is {participle} by {y}.")]
            else:
                pairs.append((f"{_cap(x)} {active} {y}.", f"{_cap(y)} is {participle} by {x}."))
        if swapped:
            pairs += [(f"{_cap(x)} {v} {y}.", f"{_cap(y)} {v} {x}.") for v in PREPOSITIONAL]
        else:
            pairs += [(f"{_cap(x)} and {y} share an office.", f"{_cap(y)} and {x} share an office."),
                      (f"On Monday {x} paid {y}.", f"{_cap(x)} paid {y} on Monday.")]
    for p, q in itertools.permutations(PLACES, 2):
        if swapped:
            pairs += [(f"Flights from {p} to {q} are full.", f"Flights from {q} to {p} are full."),
                      (f"Flights from {p} to {q} are full.", f"Flights to {p} from {q} are full."),
                      (f"{_cap(p)} to {q} flights are full.", f"Flights from {q} to {p} are full."),
                      (f"The truck drove from {p} to {q}.", f"The truck drove from {q} to {p}.")]
        else:
            pairs += [(f"Flights from {p} to {q} are full.", f"Flights to {q} from {p} are full."),
                      (f"{_cap(p)} to {q} flights are full.", f"Flights from {p} to {q} are full."),
                      (f"{_cap(p)} to {q} flights are full.", f"Flights to {q} from {p} are full."),
                      (f"The road between {p} and {q} is closed.",
                       f"The road between {q} and {p} is closed.")]
    return pairs


def test_every_generated_role_swap_is_flagged():
    missed = [(a, b) for a, b in _population(swapped=True) if not _role_swap(differences(a, b))]
    assert missed == []


def test_no_generated_paraphrase_that_keeps_the_roles_is_flagged():
    flagged = [(a, b, differences(a, b)) for a, b in _population(swapped=False)
               if route_decision(differences(a, b))]
    assert flagged == []


# --------------------------------------------------------------------------- grain and actions


@pytest.mark.parametrize(("a", "b"), [
    ("The lady is dicing onions.", "The woman is dicing onions."),
    ("A man is driving a car.", "A man is driving a vehicle."),
    ("A man is slicing a potato.", "A man is cutting a potato."),
    ("A small boy is sliding.", "A little boy is sliding."),
    ("Someone is playing the guitar.", "The man is playing the guitar."),
    ("A man is making a speech.", "A man is speaking."),            # a light verb
])
def test_the_same_thing_at_another_grain_is_a_rewording(a, b):
    assert differences(a, b) == ()


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("The boy is sitting near the ocean.", "The boy is wading through the ocean.",
     "action sitting -> wading"),
    ("A flute is being played by a girl.", "A flute is being put away by a girl.",
     "action played -> put"),
    ("The deploy job must run nightly.", "The deploy job must stop nightly.",
     "action run -> stop"),
])
def test_a_changed_action_is_a_difference(a, b, expected):
    assert differences(a, b) == (expected,)
    assert route_decision(differences(a, b))


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("A man is sitting.", "A man is standing.", "antonym sitting -> standing"),
    ("Someone is cleaning an animal.", "Someone is dirtying an animal.",
     "antonym cleaning -> dirtying"),
    ("The dog is jumping into the pool.", "The dog is jumping out of the pool.",
     "antonym into -> out"),
])
def test_wordnet_opposites_in_the_aligned_position_are_antonyms(a, b, expected):
    assert differences(a, b) == (expected,)


def test_opposite_nouns_are_two_subjects_not_antonyms():
    found = differences("The man is cooking.", "The woman is cooking.")
    assert not any(d.startswith("antonym") for d in found)


@pytest.mark.parametrize(("a", "b"), [
    ("Nobody is riding a horse.", "A man is riding a horse."),
    ("There is no dog running.", "A dog is running."),
    ("The man is not walking and is not smiling.", "The man is walking and is smiling."),
    ("There is no boy playing and there is no man smiling.",
     "The boy is playing and the man is smiling."),
])
def test_a_negated_subject_or_coordinated_negations_are_a_negation(a, b):
    found = differences(a, b)
    assert any(d.startswith("negation") for d in found)
    assert route_decision(found)


def test_nested_operators_still_cancel():
    assert differences("The job never fails to run.", "The job runs.") == ()


# --------------------------------------------------------------------------- routing


def test_route_decision():
    assert not route_decision(())
    assert route_decision(("value 40 -> 41",))
    assert route_decision(("negation: b negates a",))
    assert route_decision(("antonym green -> red", "value 41 only in b"))
    assert not route_decision(("value 41 only in b", "date June only in a"))
    assert not route_decision(("subject sample-svc -> other-svc", "antonym green -> red"))


def test_several_categories_are_reported_in_a_fixed_order():
    found = differences("The nightly job ran on sample-svc on Monday with 40 retries and was "
                        "green.",
                        "The nightly job ran on other-svc on Tuesday with 41 retries and was "
                        "red.")
    assert route_decision(found)
    assert found == ("value 40 -> 41", "date Monday -> Tuesday", "antonym green -> red",
                     "named value sample-svc -> other-svc")


# --------------------------------------------------------------------------- properties

WORDS = st.sampled_from([
    "the", "job", "is", "green", "red", "not", "never", "sample-svc", "staging", "canary",
    "40", "41", "EU", "June", "2025-06", "Monday", "at", "2am", "runs", "on", "off", "and",
    "C:\\ops\\a.env", "'quoted'", "v1.2.3", "isn't", ",", ".", "Alice", "three", "%",
])
SENTENCES = st.lists(WORDS, max_size=12).map(" ".join)


@given(SENTENCES)
def test_a_statement_never_differs_from_itself(text):
    assert differences(text, text) == ()


def _mirrored(found: tuple[str, ...]) -> tuple[str, ...]:
    """What differences(b, a) must say, given differences(a, b)."""
    swap = {"negation: b negates a": "negation: a negates b",
            "negation: a negates b": "negation: b negates a"}
    out = []
    for d in found:
        if d in swap:
            out.append(swap[d])
        elif d.endswith((" only in a", " only in b")):
            out.append(d[:-1] + ("b" if d.endswith("a") else "a"))
        else:
            head, right = d.split(" -> ")
            label, left = next((lab, head[len(lab) + 1:]) for lab in (
                "named value", "subject", "antonym", "value", "version", "date", "time",
                "swapped", "action", "roles") if head.startswith(lab + " "))
            out.append(f"{label} {right} -> {left}")
    return tuple(out)


@given(SENTENCES, SENTENCES)
def test_swapping_the_sides_mirrors_the_differences(a, b):
    assert sorted(differences(b, a)) == sorted(_mirrored(differences(a, b)))


@given(st.text(max_size=120), st.text(max_size=120))
def test_any_text_is_handled_deterministically(a, b):
    found = differences(a, b)
    assert isinstance(found, tuple) and all(isinstance(d, str) for d in found)
    assert differences(a, b) == found
    assert isinstance(route_decision(found), bool)
