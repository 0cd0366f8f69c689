"""Write ``subject_conflicts.jsonl``: the project's pairs for the ``subject-conflicts`` eval.

Run ``python evals/data/make_subject_conflicts.py`` to regenerate (deterministic: a fixed
seed). Each pair is two statements of one kind, ``a`` remembered first and ``b`` an hour
later, with the category that says what the store must do with ``b``:

- ``changed``      same subject, a changed value (status, number, date, version, price,
                   antonym, swapped choice): caught (contested, superseded or revised);
- ``negation``     same subject, one side negates the other, often below the density
                   threshold: caught;
- ``reworded``     same subject, the same fact reworded: new testimony, never an interrupt;
- ``other-subject`` another subject with the same predicate: never a conflict, never a
                   supersession, never testimony;
- ``other-aspect`` the same subject, another attribute: a separate fact.

``source`` is ``project-written`` (the hand-written pairs below, realistic sentences) or
``generated`` (templates over many subjects, so no rule is tuned to one name).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "subject_conflicts.jsonl"
SEED = 20261201

# (kind, category, a, b): written by hand, from ordinary operations chat and notes.
WRITTEN: tuple[tuple[str, str, str, str], ...] = (
    ("STATE", "changed", "payments-api is healthy right now.", "payments-api is degraded right now."),
    ("STATE", "changed", "The nightly build is green.", "The nightly build is failing."),
    ("STATE", "changed", "The checkout queue holds 40 messages right now.",
     "The checkout queue holds 4,000 messages right now."),
    ("STATE", "changed", "The freezer runs at −18 degrees.", "The freezer runs at 18 degrees."),
    ("STATE", "changed", "The primary database is on Postgres 15.4.",
     "The primary database is on Postgres 16.2."),
    ("STATE", "changed", "The staging deploy is paused.", "The staging deploy is running."),
    ("STATE", "changed", "The VPN gateway is online.", "The VPN gateway is offline."),
    ("STATE", "changed", "The search index is up to date.", "The search index is stale."),
    ("STATE", "changed", "The billing cron runs at 02:00.", "The billing cron runs at 04:30."),
    ("STATE", "changed", "The disk on build-7 is 40% full.", "The disk on build-7 is 95% full."),
    ("DECISION", "changed", "The release train ships on Friday.",
     "The release train ships on Monday."),
    ("DECISION", "changed", "The team plan costs 5 € per seat.",
     "The team plan costs 5 $ per seat."),
    ("DECISION", "changed", "Code review requires two approvals.",
     "Code review requires one approval."),
    ("DECISION", "changed", "The mobile app targets iOS 16.", "The mobile app targets iOS 17."),
    ("PREFERENCE", "changed", "The user prefers dark mode.", "The user prefers light mode."),
    ("PREFERENCE", "changed", "The user prefers tabs over spaces.",
     "The user prefers spaces over tabs."),
    ("PREFERENCE", "changed", "The user wants replies in English.",
     "The user wants replies in German."),
    ("REFERENCE", "changed", "The runbook for payments is at docs/runbooks/payments.md.",
     "The runbook for payments is at docs/ops/payments-runbook.md."),
    ("RULE", "changed", "Always squash commits before merging.",
     "Never squash commits before merging."),
    ("RESIDUAL", "changed", "The importer accepts files up to 2 GB.",
     "The importer accepts files up to 20 GB."),
    ("DECISION", "negation", "We decided to use Redis.", "We decided not to use Redis."),
    ("DECISION", "negation", "The team will migrate to Kubernetes this quarter.",
     "The team will not migrate to Kubernetes this quarter."),
    ("STATE", "negation", "The backup job is running.", "The backup job is not running."),
    ("STATE", "negation", "The cache is warm right now.", "The cache is not warm right now."),
    ("PREFERENCE", "negation", "The user likes jazz.", "The user does not like jazz."),
    ("PREFERENCE", "negation", "The user drinks coffee in the morning.",
     "The user never drinks coffee in the morning."),
    ("RESIDUAL", "negation", "The importer validates UTF-16 input.",
     "The importer does not validate UTF-16 input."),
    ("RULE", "negation", "Deploys on Friday need a second reviewer.",
     "Deploys on Friday do not need a second reviewer."),
    ("REFERENCE", "negation", "The admin console is reachable from the office VPN.",
     "The admin console is not reachable from the office VPN."),
    ("DECISION", "negation", "Hotfixes go through the staging gate.",
     "Hotfixes do not go through the staging gate."),
    ("STATE", "reworded", "web-9 runs 3 replicas right now.", "Right now web-9 runs 3 replicas."),
    ("STATE", "reworded", "web-9 runs 3 replicas right now.", "web-9 currently runs three replicas."),
    ("STATE", "reworded", "The nightly build is green.", "The nightly build is currently green."),
    ("STATE", "reworded", "The checkout queue holds 40 messages right now.",
     "At the moment the checkout queue holds forty messages."),
    ("STATE", "reworded", "The VPN gateway is online.", "The VPN gateway is really online."),
    ("DECISION", "reworded", "The release train ships on Friday.",
     "The release train ships every Friday."),
    ("DECISION", "reworded", "Code review requires two approvals.",
     "Code review requires 2 approvals."),
    ("PREFERENCE", "reworded", "The user prefers dark mode.", "The user really prefers dark mode."),
    ("PREFERENCE", "reworded", "The user likes jazz.", "The user really likes jazz."),
    ("REFERENCE", "reworded", "The runbook for payments is at docs/runbooks/payments.md.",
     "The runbook for payments lives at docs/runbooks/payments.md."),
    ("RULE", "reworded", "Always squash commits before merging.",
     "Always squash the commits before merging."),
    ("RESIDUAL", "reworded", "The importer does not validate UTF-16 input.",
     "The importer currently does not validate UTF-16 input."),
    ("STATE", "other-subject", "web-1 runs 3 replicas right now.",
     "web-2 is now running 5 replicas."),
    ("STATE", "other-subject", "The staging cluster runs in eu-west-1.",
     "The production cluster runs in us-east-1."),
    ("STATE", "other-subject", "svc-31 is paused right now.", "svc-6 is running right now."),
    ("STATE", "other-subject", "The primary database is on Postgres 15.4.",
     "The analytics database is on Postgres 16.2."),
    ("DECISION", "other-subject", "The web team ships on Friday.",
     "The data team ships on Monday."),
    ("PREFERENCE", "other-subject", "Priya prefers squash merges.", "Dana prefers rebase merges."),
    ("REFERENCE", "other-subject", "The runbook for payments is at docs/runbooks/payments.md.",
     "The runbook for search is at docs/runbooks/search.md."),
    ("RESIDUAL", "other-subject", "The importer does not validate UTF-16 input.",
     "The exporter does not validate UTF-8 output."),
    ("STATE", "other-aspect", "payments-api is healthy right now.",
     "payments-api is deployed in eu-west-1."),
    ("STATE", "other-aspect", "web-1 runs 3 replicas right now.", "web-1 is degraded right now."),
    ("STATE", "other-aspect", "The nightly build is green.", "The nightly build takes 40 minutes."),
    ("PREFERENCE", "other-aspect", "The user prefers dark mode.",
     "The user does not like cilantro."),
    ("PREFERENCE", "other-aspect", "The user likes jazz.", "The user prefers window seats."),
    ("DECISION", "other-aspect", "The team decided to use Redis.",
     "The team decided not to deploy on Fridays."),
    ("DECISION", "other-aspect", "The release train ships on Friday.",
     "The release train carries a changelog."),
    # no keyable subject (an existential, a pronoun, an imperative): the kind-wide fallback
    ("STATE", "changed", "There are 3 open incidents right now.",
     "There are 7 open incidents right now."),
    ("STATE", "negation", "It is safe to deploy today.", "It is not safe to deploy today."),
    ("RULE", "negation", "Always run the linter before pushing.",
     "Do not run the linter before pushing."),
    ("RULE", "reworded", "Always run the linter before pushing.",
     "Always run the linter before you push."),
    ("DECISION", "negation", "Everything goes through staging first.",
     "Not everything goes through staging first."),
    ("STATE", "other-aspect", "There are 3 open incidents right now.",
     "There are no scheduled maintenance windows this week."),
    ("STATE", "negation", "It rained in the datacenter city all week.",
     "It did not rain in the datacenter city all week."),
    ("RULE", "changed", "Always rebase before merging.", "Never rebase before merging."),
)

SERVICES = ("payments-api", "search-api", "auth-svc", "billing-worker", "web-3", "web-7",
            "svc-12", "svc-40", "ingest-01", "ledger", "notifier", "checkout", "gateway-eu",
            "cache-2", "queue-b", "scheduler", "reports-db", "edge-proxy", "media-svc", "sso")
PEOPLE = ("Priya", "Dana", "Ivo", "Mei", "Tomas", "Aisha", "Lars", "Noor", "Kenji", "Rosa")
PROJECTS = ("The release train", "The mobile app", "The data platform", "The billing rewrite",
            "The search migration", "The onboarding flow", "The audit project")
# Status pairs of different classes (a change), and same-class pairs (a rewording).
CHANGES = (("healthy", "degraded"), ("green", "red"), ("paused", "running"),
           ("online", "offline"), ("healthy", "paused"), ("degraded", "down"),
           ("running", "stopped"), ("green", "failing"), ("passing", "failing"),
           ("available", "unavailable"))
SAME = (("green", "healthy"), ("down", "offline"), ("paused", "suspended"))
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten"}
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
TECH = ("Redis", "Kafka", "Postgres", "Terraform", "GraphQL", "gRPC", "Rust", "Vault")
TASTES = ("jazz", "spicy food", "early meetings", "window seats", "cold brew", "sci-fi novels")


def _generated(rnd: random.Random) -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    for svc in SERVICES:
        other = rnd.choice([s for s in SERVICES if s != svc])
        s1, s2 = rnd.choice(CHANGES)
        out.append(("STATE", "changed", f"{svc} is {s1} right now.", f"{svc} is {s2} right now."))
        n, m = rnd.sample(sorted(NUMBER_WORDS), 2)
        out.append(("STATE", "changed", f"{svc} runs {n} replicas right now.",
                    f"{svc} runs {m} replicas right now."))
        same_a, same_b = rnd.choice(SAME)
        out.append(("STATE", "reworded", f"{svc} is {same_a} right now.",
                    f"{svc} is {same_b} right now."))
        out.append(("STATE", "reworded", f"{svc} runs {n} replicas right now.",
                    f"{svc} currently runs {NUMBER_WORDS[n]} replicas."))
        out.append(("STATE", "negation", f"{svc} is {s1} right now.",
                    f"{svc} is not {s1} right now."))
        out.append(("STATE", "other-subject", f"{svc} is {s1} right now.",
                    f"{other} is {s2} right now."))
        out.append(("STATE", "other-subject", f"{svc} runs {n} replicas right now.",
                    f"{other} runs {m} replicas right now."))
        out.append(("STATE", "other-aspect", f"{svc} runs {n} replicas right now.",
                    f"{svc} is {s2} right now."))
        ms1, ms2 = rnd.sample((120, 250, 400, 900), 2)
        out.append(("STATE", "changed", f"The {svc} p99 latency is {ms1} ms.",
                    f"The {svc} p99 latency is {ms2} ms."))
    for person in PEOPLE:
        other = rnd.choice([p for p in PEOPLE if p != person])
        taste = rnd.choice(TASTES)
        out.append(("PREFERENCE", "negation", f"{person} likes {taste}.",
                    f"{person} does not like {taste}."))
        out.append(("PREFERENCE", "reworded", f"{person} likes {taste}.",
                    f"{person} really likes {taste}."))
        out.append(("PREFERENCE", "other-subject", f"{person} likes {taste}.",
                    f"{other} does not like {taste}."))
        out.append(("PREFERENCE", "changed", f"{person} prefers dark mode.",
                    f"{person} prefers light mode."))
        out.append(("PREFERENCE", "changed", f"{person} prefers tabs over spaces.",
                    f"{person} prefers spaces over tabs."))
        out.append(("PREFERENCE", "other-aspect", f"{person} prefers dark mode.",
                    f"{person} likes {taste}."))
    for project in PROJECTS:
        other = rnd.choice([p for p in PROJECTS if p != project])
        d1, d2 = rnd.sample(DAYS, 2)
        tech = rnd.choice(TECH)
        out.append(("DECISION", "changed", f"{project} ships on {d1}.",
                    f"{project} ships on {d2}."))
        out.append(("DECISION", "other-subject", f"{project} ships on {d1}.",
                    f"{other} ships on {d2}."))
        out.append(("DECISION", "negation", f"{project} will use {tech}.",
                    f"{project} will not use {tech}."))
        out.append(("DECISION", "reworded", f"{project} will use {tech}.",
                    f"{project} will definitely use {tech}."))
        v1, v2 = rnd.sample((2, 3, 4, 5), 2)
        out.append(("DECISION", "changed", f"{project} needs {v1} approvals per change.",
                    f"{project} needs {v2} approvals per change."))
        out.append(("DECISION", "other-aspect", f"{project} ships on {d1}.",
                    f"{project} will not use {tech}."))
    for svc in SERVICES[:12]:
        other = rnd.choice([s for s in SERVICES if s != svc])
        out.append(("REFERENCE", "changed", f"The {svc} runbook is at docs/runbooks/{svc}.md.",
                    f"The {svc} runbook is at wiki/ops/{svc}-runbook.md."))
        out.append(("REFERENCE", "other-subject",
                    f"The {svc} runbook is at docs/runbooks/{svc}.md.",
                    f"The {other} runbook is at docs/runbooks/{other}.md."))
        out.append(("REFERENCE", "reworded", f"The {svc} runbook is at docs/runbooks/{svc}.md.",
                    f"The {svc} runbook lives at docs/runbooks/{svc}.md."))
        out.append(("RULE", "changed", f"Always page the {svc} on-call before a restart.",
                    f"Never page the {svc} on-call before a restart."))
    return out


def build() -> list[dict[str, object]]:
    rnd = random.Random(SEED)
    rows: list[dict[str, object]] = []
    for source, pairs in (("project-written", WRITTEN), ("generated", _generated(rnd))):
        for index, (kind, category, a, b) in enumerate(pairs, 1):
            rows.append({"id": f"{'w' if source == 'project-written' else 'g'}{index:03d}",
                         "kind": kind, "category": category, "a": a, "b": b,
                         "conflict": category in ("changed", "negation"), "source": source})
    return rows


def main() -> None:
    rows = build()
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"wrote {len(rows)} pairs to {OUT}")


if __name__ == "__main__":
    main()
