"""Write ``time_questions.jsonl``: the project's questions for the ``time-questions`` eval.

Run ``python evals/data/make_time_questions.py`` to regenerate (deterministic: a fixed seed).
Each row is a question, the partial date it should be asked as of (``gold``; null when it
names no time and is read as of now), the rule that should read it and the ``now`` the
relative ones are read against. ``source`` is ``project-written`` (the hand-written rows,
the tricky shapes) or ``generated`` (templates over many subjects, times and phrasings).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "time_questions.jsonl"
SEED = 20261201
NOW = "2026-12-01T12:00:00Z"

# (question, gold, rule): written by hand.
WRITTEN: tuple[tuple[str, str | None, str | None], ...] = (
    ("what was my shoe size last year, as of 2021?", "2021", "explicit"),
    ("As of 2021, what did Priya do last month?", "2021", "explicit"),
    ("who held the record for most triples in a season as of 1898", "1898", "explicit"),
    ("all call of duty games for playstation 3 as of March 01, 2015", "2015-03-01", "explicit"),
    ("what was the staging cluster's size at the end of 2023?", "2023", "explicit"),
    ("who was on call by the end of June 2025?", "2025-06", "explicit"),
    ("Where did Ada, born 12 January 2000, live in 2014?", "2014", "named"),
    ("What did the company, founded in 1998, sell in 2005?", "2005", "named"),
    ("Where does Ada, born in 2000, live?", None, None),
    ("Which label, established in 1962, signed the band?", None, None),
    ("Who owned the Newton D. Baker House from 1811 to 1827?", "1811", "range"),
    ("Who was the head of the party from Sep 1990 to Sep 2000?", "1990-09", "range"),
    ("In the time period from 1942 to 1947, what was Len employed as?", "1942", "range"),
    ("Beginning in December 1943 and to 1984, who lived at number 44?", "1943-12", "range"),
    ("who ran the lab between 2010 and 2014?", "2010", "range"),
    ("who coached the team 1990-1995?", "1990", "range"),
    ("what was the capital in 1850?", "1850", "named"),
    ("who governed the province during 1789?", "1789", "named"),
    ("which tools did I use in the 1990s?", "1999", "named"),
    ("what was my employer before 2020?", "2019", "named"),
    ("what was the rate limit before June 2024?", "2024-05", "named"),
    ("what was it on 30 February 2025?", "2025-02", "named"),
    ("what was my shoe size in 2025?", "2025", "named"),
    ("what was the api version on 2025-06-15?", "2025-06-15", "named"),
    ("as of 2025-06, who owned payments?", "2025-06", "explicit"),
    ("what did the dashboard say at 2026-03-04T10:00:00Z?", "2026-03-04T10:00:00Z", "named"),
    ("who was the mayor in the year 1999?", "1999", "named"),
    ("what changed last month?", "2026-11", "relative"),
    ("what was my team size last year?", "2025", "relative"),
    ("who led it this year?", "2026", "relative"),
    ("what did the queue hold yesterday?", "2026-11-30", "relative"),
    ("who was president 5 years ago?", "2021", "relative"),
    ("who was on the board three years ago?", "2023", "relative"),
    ("what is my shoe size?", None, None),
    ("which port does the gateway listen on, 8080 or 8443?", None, None),
    ("how many tokens fit in 4096 tokens of context?", None, None),
    ("what is in issue 2024 of the tracker?", None, None),
    ("who has been CEO since 2010?", None, None),
    ("what happened after 2020?", None, None),
    ("what do we deploy in June?", None, None),
    ("who won the 2018 world cup?", None, None),
    ("what does version 2.0 of the API return?", None, None),
    ("which of the 1024 workers is idle?", None, None),
    ("what is the name of room 1901?", None, None),
    ("who wrote the 1984 novel?", None, None),
)

SUBJECTS = ("my shoe size", "the CEO of Acme", "Priya's employer", "the staging cluster's size",
            "the capital of the province", "the lead maintainer of the parser",
            "the price of the team plan", "Dana's home city", "the on-call engineer",
            "the rate limit of the public API", "the mayor of the town",
            "my manager", "the coach of the club", "the owner of the house")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
SHORT = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _generated(rnd: random.Random) -> list[tuple[str, str | None, str | None]]:
    out: list[tuple[str, str | None, str | None]] = []
    for subject in SUBJECTS:
        year = rnd.randint(1850, 2030)
        month = rnd.randint(1, 12)
        day = rnd.randint(1, 28)
        later = year + rnd.randint(1, 12)
        out += [
            (f"what was {subject} in {year}?", f"{year:04d}", "named"),
            (f"what was {subject} during {year}?", f"{year:04d}", "named"),
            (f"What was {subject} in {MONTHS[month - 1]} {year}?", f"{year:04d}-{month:02d}",
             "named"),
            (f"what was {subject} on {day} {MONTHS[month - 1]} {year}?",
             f"{year:04d}-{month:02d}-{day:02d}", "named"),
            (f"what was {subject} on {MONTHS[month - 1]} {day}, {year}?",
             f"{year:04d}-{month:02d}-{day:02d}", "named"),
            (f"what was {subject} on {year:04d}-{month:02d}-{day:02d}?",
             f"{year:04d}-{month:02d}-{day:02d}", "named"),
            (f"{subject} as of {year}?", f"{year:04d}", "explicit"),
            (f"what was {subject} as of {SHORT[month - 1]} {year}?", f"{year:04d}-{month:02d}",
             "explicit"),
            (f"what was {subject} last year, as of {year}?", f"{year:04d}", "explicit"),
            (f"what was {subject} from {year} to {later}?", f"{year:04d}", "range"),
            (f"what was {subject} from {SHORT[month - 1]} {year} to {later}?",
             f"{year:04d}-{month:02d}", "range"),
            (f"what was {subject} between {year} and {later}?", f"{year:04d}", "range"),
            (f"what is {subject}?", None, None),
            (f"what is {subject} now?", None, None),
            (f"has {subject} changed since {year}?", None, None),
            (f"what was {subject} last month?", "2026-11", "relative"),
        ]
    return out


def build() -> list[dict[str, object]]:
    rnd = random.Random(SEED)
    rows: list[dict[str, object]] = []
    for source, items in (("project-written", WRITTEN), ("generated", _generated(rnd))):
        for index, (question, gold, rule) in enumerate(items, 1):
            rows.append({"id": f"{'w' if source == 'project-written' else 'g'}{index:03d}",
                         "question": question, "gold": gold, "rule": rule, "now": NOW,
                         "source": source})
    return rows


def main() -> None:
    rows = build()
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"wrote {len(rows)} questions to {OUT}")


if __name__ == "__main__":
    main()
