"""Write ``knowledge_updates.jsonl``: the project's knowledge-update scenarios.

Run ``python evals/data/make_knowledge_updates.py`` to regenerate (deterministic: stdlib only,
a fixed seed, no network). It also writes the 14-row unit-test fixture
``tests/fixtures/evals/knowledge_updates_small.jsonl`` (rows copied from the main file) and
runs a self-check over the rows before writing anything.

Each row is a short sequence of captures about one property (where someone lives, how many
replicas a host runs, who someone reports to ...) and says what a correct store serves
afterwards: the ``current`` value(s), the ``stale`` values it must stop serving, values that
are ``not_current`` (mentioned but never true), and ``as_of`` answers for past dates. The
``case`` says what the later capture does:

- ``update``      it changes the value in plain words ("We moved to Lisbon in March.");
- ``non-update``  it mentions the subject and a related value but changes nothing
                  ("My sister moved to Lisbon.");
- ``many``        it adds a value to a many-valued property ("I also speak French now.");
- ``negated``     a change that was considered, negated or abandoned ("We decided not to
                  switch to Helix after all.").

Rows come from three places, in this id order: the probe examples (plain, dev), the
hand-written natural chats (``CHATS`` below, literal data) and template rows built from the
subject/value/phrasing tables (``FRAMES`` and ``MANY_FRAMES``). ``as_of`` dates and
``event_time`` are computed from the capture dates and the time phrase, never typed by hand,
so that every as-of date is unambiguous under any reading of the phrase. Everything is
invented for this project: fictional people, companies, hosts; ``example.test`` for domains.
"""

from __future__ import annotations

import calendar
import hashlib
import json
import random
import re
from datetime import date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "knowledge_updates.jsonl"
FIXTURE = HERE.parents[1] / "tests" / "fixtures" / "evals" / "knowledge_updates_small.jsonl"
SEED = 20261207
FIRST_DAY = date(2024, 1, 1)
LAST_DAY = date(2026, 11, 30)  # no capture and no as-of date after this; the eval runs 2026-12-07
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
DOMAINS = ("personal", "ops", "org")
CASES = ("update", "non-update", "many", "negated")
STYLES = ("plain", "chat")

# --------------------------------------------------------------------------------------------
# Dates, time phrases and as-of periods
# --------------------------------------------------------------------------------------------


def _ts(text: str) -> datetime:
    """'2025-02-10T09:00' or '2025-02-10T09:00:00Z' -> naive UTC datetime."""
    text = text.rstrip("Z")
    if len(text) == 16:
        text += ":00"
    return datetime.fromisoformat(text)


def _fmt_ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _month_start(year: int, month: int) -> date:
    return date(year, month, 1)


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def period(at: str) -> tuple[date, date]:
    """The first and last day (inclusive) of a partial date 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'."""
    parts = [int(p) for p in at.split("-")]
    if len(parts) == 1:
        return date(parts[0], 1, 1), date(parts[0], 12, 31)
    if len(parts) == 2:
        return _month_start(*parts), _month_end(*parts)
    day = date(*parts)
    return day, day


def _month_named(name: str) -> int | None:
    name = name.capitalize()
    return MONTHS.index(name) + 1 if name in MONTHS else None


def resolve(phrase: str, said: datetime) -> tuple[str, date]:
    """A time phrase said at ``said`` -> (the partial date it means, the earliest day the
    change could have happened under any reasonable reading of it)."""
    p = phrase.lower().strip()
    d = said.date()
    m = re.fullmatch(r"(?:in|since) (\w+)", p)
    if m and _month_named(m.group(1)):
        mon = _month_named(m.group(1))
        assert mon != d.month, f"{phrase!r} said in that same month"
        year = d.year if mon < d.month else d.year - 1  # a later month name means last year's
        return f"{year:04d}-{mon:02d}", _month_start(year, mon)
    if p == "last month":
        year, mon = (d.year, d.month - 1) if d.month > 1 else (d.year - 1, 12)
        return f"{year:04d}-{mon:02d}", _month_start(year, mon)
    fixed = {"last week": (7, 14), "yesterday": (1, 2), "two weeks ago": (14, 21),
             "three days ago": (3, 5)}
    if p in fixed:
        back, fuzz = fixed[p]
        return (d - timedelta(days=back)).isoformat(), d - timedelta(days=fuzz)
    m = re.fullmatch(r"on (\w+) (\d{1,2})", p)
    if m and _month_named(m.group(1)):
        mon, day = _month_named(m.group(1)), int(m.group(2))
        assert (mon, day) != (d.month, d.day)
        year = d.year if (mon, day) < (d.month, d.day) else d.year - 1
        when = date(year, mon, day)
        return when.isoformat(), when - timedelta(days=1)
    m = re.fullmatch(r"on (\d{4}-\d{2}-\d{2})", p)
    if m:
        when = date.fromisoformat(m.group(1))
        assert when < d
        return when.isoformat(), when - timedelta(days=1)
    if p in ("this year", "earlier this year"):
        return f"{d.year:04d}", date(d.year, 1, 1)
    if p == "last year":
        return f"{d.year - 1:04d}", date(d.year - 1, 1, 1)
    if p == "at the start of the year":
        return f"{d.year:04d}-01", date(d.year, 1, 1)
    raise ValueError(f"unknown time phrase {phrase!r}")


def pick_at(rnd: random.Random, after: datetime, before: date, early: bool = False) -> str:
    """A partial date whose whole period lies strictly after the day of ``after`` and
    strictly before ``before`` (and not after LAST_DAY). ``early`` keeps it in the first half
    of that window, close to the capture that stated the value."""
    lo = after.date() + timedelta(days=1)
    hi = min(before - timedelta(days=1), LAST_DAY)
    assert lo <= hi, f"no room for an as-of date between {after} and {before}"
    if early:
        hi = lo + (hi - lo) // 2
    years = [f"{y:04d}" for y in range(lo.year, hi.year + 1)
             if date(y, 1, 1) >= lo and date(y, 12, 31) <= hi]
    months = []
    y, mo = lo.year, lo.month
    while _month_start(y, mo) <= hi:
        if _month_start(y, mo) >= lo and _month_end(y, mo) <= hi:
            months.append(f"{y:04d}-{mo:02d}")
        y, mo = (y, mo + 1) if mo < 12 else (y + 1, 1)
    roll = rnd.random()
    if years and roll < 0.15:
        return rnd.choice(years)
    if months and roll < 0.70:
        return rnd.choice(months)
    return (lo + timedelta(days=rnd.randint(0, (hi - lo).days))).isoformat()


def _rand_moment(rnd: random.Random, lo: date, hi: date) -> datetime:
    day = lo + timedelta(days=rnd.randint(0, (hi - lo).days))
    return datetime(day.year, day.month, day.day, rnd.randint(7, 21), rnd.choice(range(0, 60, 5)))


# Time-phrase kinds for the template rows. Each plans the update's said_at and the phrase.
POINT_KINDS = ("in_march", "in_january", "in_month_prev", "in_month", "last_month", "last_week",
               "yesterday", "two_weeks_ago", "three_days_ago", "on_month_day", "on_iso",
               "this_year", "last_year", "earlier_this_year", "start_of_year")
SINCE_KINDS = ("since_october", "since_month")
CASUAL_KINDS = ("last_month", "last_week", "yesterday", "two_weeks_ago", "three_days_ago",
                "in_month", "on_iso")


def plan_phrase(rnd: random.Random, kind: str | None, lo: date, hi: date) -> tuple[datetime, str | None]:
    """A said_at between lo and hi and a time phrase of ``kind`` that makes sense for it."""
    for _ in range(1000):
        said = _rand_moment(rnd, lo, hi)
        d = said.date()
        if kind is None:
            return said, None
        if kind == "in_march" and d.month > 3:
            return said, "in March"
        if kind == "in_january" and d.month > 1:
            return said, "in January"
        if kind == "in_month_prev" and d.month < 12:
            return said, f"in {MONTHS[rnd.randint(d.month + 1, 12) - 1]}"
        if kind == "in_month" and d.month > 2:
            choices = [m for m in range(2, d.month) if m != 3]
            if choices:
                return said, f"in {MONTHS[rnd.choice(choices) - 1]}"
        if kind == "since_october" and d.month in (11, 12):
            return said, "since October"
        if kind == "since_month" and d.month > 1:
            return said, f"since {MONTHS[rnd.randint(1, d.month - 1) - 1]}"
        if kind in ("last_month", "last_week", "yesterday"):
            return said, kind.replace("_", " ")
        if kind == "two_weeks_ago":
            return said, "two weeks ago"
        if kind == "three_days_ago":
            return said, "three days ago"
        if kind == "on_month_day" and d.month > 1:
            mon = rnd.randint(1, d.month - 1)
            return said, f"on {MONTHS[mon - 1]} {rnd.randint(1, 28)}"
        if kind == "on_iso":
            when = d - timedelta(days=rnd.randint(4, 200))
            return said, f"on {when.isoformat()}"
        if kind == "this_year" and d.month >= 3:
            return said, "this year"
        if kind == "last_year":
            return said, "last year"
        if kind == "earlier_this_year" and d.month >= 4:
            return said, "earlier this year"
        if kind == "start_of_year" and d.month >= 3:
            return said, "at the start of the year"
    raise AssertionError(f"cannot plan a {kind} phrase between {lo} and {hi}")


def plan_update_dates(rnd: random.Random, kind: str | None) -> tuple[datetime, datetime, str | None]:
    """(said_at of the original, said_at of the update, the update's time phrase)."""
    for _ in range(1000):
        said_upd, phrase = plan_phrase(rnd, kind, date(2024, 4, 1), date(2026, 11, 20))
        earliest = resolve(phrase, said_upd)[1] if phrase else said_upd.date()
        latest_old = earliest - timedelta(days=40)
        if latest_old <= FIRST_DAY + timedelta(days=5):
            continue
        lo = max(FIRST_DAY, latest_old - timedelta(days=rnd.choice((60, 200, 400, 800))))
        said_old = _rand_moment(rnd, lo, latest_old)
        return said_old, said_upd, phrase
    raise AssertionError(f"cannot plan dates for {kind}")


# --------------------------------------------------------------------------------------------
# Row assembly: a "spec" (captures, question, values, cue, time) -> a finished row
# --------------------------------------------------------------------------------------------


def _has(text: str, value: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(value.lower()) + r"(?!\w)", text.lower()) is not None


def _value(values: list[str]) -> str | list[str]:
    return values[0] if len(values) == 1 else list(values)


def finalize(spec: dict, rnd: random.Random) -> dict:
    """Compute as_of and event_time for a spec and return the row (without id and split)."""
    caps = [(_ts(ts), text) for ts, text in spec["caps"]]
    assert all(a[0] < b[0] for a, b in zip(caps, caps[1:], strict=False)), spec["q"]
    case = spec["case"]
    upd = spec.get("upd", len(caps) - 1)
    if upd < 0:
        upd += len(caps)
    phrase = spec.get("time")
    if phrase:
        assert phrase in caps[upd][1] or case in ("non-update", "negated"), (phrase, caps[upd][1])
    current, stale = list(spec["current"]), list(spec.get("stale", []))
    as_of: list[dict] = []
    if "as_of" in spec:
        as_of = spec["as_of"]
    elif case in ("update", "many"):
        if "chain" in spec:
            chain = spec["chain"]
        elif case == "update":
            first = next(i for i, (_, text) in enumerate(caps) if _has(text, stale[0]))
            chain = [(first, stale[0], None), (upd, current[0], phrase)]
        else:
            chain, seen = [], []
            for i, (_, text) in enumerate(caps):
                new = [v for v in current if v not in seen and _has(text, v)]
                if new:
                    seen += new
                    chain.append((i, _value(list(seen)), phrase if i == upd else None))
            assert chain[-1][0] == upd and len(chain) >= 2, (spec["q"], chain)
        for step, (idx, value, _) in enumerate(chain):
            if step + 1 < len(chain):
                nidx, _, nphrase = chain[step + 1]
                said_next = caps[nidx][0]
                before = resolve(nphrase, said_next)[1] if nphrase else said_next.date()
                at = pick_at(rnd, caps[idx][0], before, early=True)
            else:
                at = pick_at(rnd, caps[idx][0], LAST_DAY + timedelta(days=1))
            as_of.append({"at": at, "value": value})
    else:
        value = current[0] if len(current) == 1 else current
        first = next(i for i, (_, text) in enumerate(caps) if _has(text, current[0]))
        if not spec.get("transient"):
            as_of.append({"at": pick_at(rnd, caps[first][0], caps[upd][0].date()),
                          "value": value})
        as_of.append({"at": pick_at(rnd, caps[-1][0], LAST_DAY + timedelta(days=1)),
                      "value": value})
    row: dict = {
        "domain": spec["domain"], "style": spec["style"], "case": case,
        "captures": [{"text": text, "said_at": _fmt_ts(ts)} for ts, text in caps],
        "question": spec["q"], "current": current, "stale": stale if case == "update" else [],
    }
    if case in ("non-update", "negated"):
        row["not_current"] = list(spec["not_current"])
    row["as_of"] = as_of
    if phrase and case in ("update", "many"):
        row["event_time"] = {"phrase": phrase, "at": resolve(phrase, caps[upd][0])[0]}
    row["cue"] = spec["cue"]
    row["time_phrase"] = phrase
    row["_probe"] = bool(spec.get("probe"))
    return row


# --------------------------------------------------------------------------------------------
# Template tables: subjects, values and phrasings
# --------------------------------------------------------------------------------------------
# A frame is one property. ``upd`` lists (cue, template) pairs for the update sentence; a
# template may carry {time} / {Time} (a point time phrase, dropped when the row has none) or
# {since} (a month, read "since October"). ``non`` and ``neg`` list (label, template, flags)
# for the non-update and negated cases: flag "t" marks a transient change that was undone (so
# no as-of date is given between the captures), "+" / "-" asks for a larger / smaller
# distractor value. ``back`` is the "is back to" sentence, ``consider`` a plan that an "after
# all" update or a negated change can follow.

CITIES = ("Porto", "Lisbon", "Valencia", "Ghent", "Tartu", "Lyon", "Kraków", "Bergen",
          "Utrecht", "Aarhus", "Bologna", "Ljubljana", "Graz", "Cork", "Tampere", "Brno",
          "Leipzig", "Gdańsk", "Girona")
COMPANIES = ("Globex", "Initech", "Umbrella", "Hooli", "Vandelay Industries", "Initrode",
             "Contoso", "Fabrikam", "Northwind", "Cyberdyne", "Tessellate", "Brightmoor Labs",
             "Soylent", "Massive Dynamic")
JOBS = ("data analyst", "data engineer", "product designer", "backend engineer",
        "support specialist", "technical writer", "QA engineer", "solutions architect",
        "research scientist", "account manager", "engineering manager")
MY_PROMOTIONS = (("data analyst", "analytics lead"), ("backend engineer", "staff engineer"),
                 ("support specialist", "support team lead"), ("product designer", "design lead"),
                 ("QA engineer", "test manager"), ("technical writer", "documentation lead"),
                 ("research scientist", "research director"),
                 ("junior developer", "software engineer"), ("account manager", "sales director"),
                 ("software engineer", "engineering manager"))
SUBJECT_PEOPLE = ("Priya Raman", "Amara Nwosu", "Lars Eriksen", "Mei Lin", "Tomás Herrera",
                  "Zofia Kowalska", "Yusuf Demir", "Aiko Tanaka", "Wanjiru Kamau", "Farid Haddad",
                  "Ines Carvalho", "Oluwaseun Adeyemi", "Rania Aziz", "Sven Lindqvist",
                  "Thandiwe Mokoena", "Valentina Greco", "Joon-ho Park", "Esra Yilmaz",
                  "Bram de Vries", "Catalina Ortiz", "Dmitri Volkov", "Noor Khalil", "Quynh Tran",
                  "Saoirse Byrne")
VALUE_PEOPLE = ("Daniel", "Mateo", "Kenji", "Sofia", "Kofi", "Lucía", "Anneke", "Rohan", "Ilka",
                "Marek", "Soo-jin", "Tariq", "Beatriz", "Emil", "Nkechi", "Hana", "Jürgen",
                "Paola", "Arjun", "Oren", "Chiara", "Tobias", "Ewa", "Bongani")
HOSTS = ("web-1", "web-2", "web-3", "api-gw", "svc-search", "svc-payments", "svc-orders",
         "worker-3", "cache-2", "svc-ledger", "svc-notify", "svc-auth")
SVCS = ("svc-search", "svc-payments", "svc-orders", "svc-ledger", "svc-notify", "svc-auth",
        "svc-catalog", "svc-shipping", "svc-invoices", "svc-export")
SERVICES = ("billing", "checkout", "search", "ledger", "notifications", "inventory", "reporting",
            "identity", "shipping")
REGIONS = ("eu-west-1", "eu-central-1", "us-east-2", "ap-southeast-1", "eu-north-1",
           "us-west-2", "ca-central-1")
TEAMS = ("Search", "Payments", "Platform", "Growth", "Mobile", "Identity", "Checkout",
         "Observability", "Billing")
OFFICES = ("Rotterdam", "Kraków", "Lisbon", "Nairobi", "Montréal", "Osaka", "Tallinn",
           "Cape Town", "Berlin", "Porto", "Dublin")
PROJECTS = ("Atlas", "Beacon", "Cobalt", "Driftwood", "Ember", "Fjord", "Granite", "Harbor")
ORG_PROMOTIONS = (("staff engineer", "principal engineer"),
                  ("engineering manager", "director of engineering"),
                  ("product lead", "head of product"), ("support lead", "head of support"),
                  ("security engineer", "security lead"), ("account executive", "VP of sales"),
                  ("recruiter", "recruiting manager"), ("data scientist", "data science lead"),
                  ("designer", "design director"))
ORG_LATERAL = (("engineering manager", "head of design"), ("product lead", "chief of staff"),
               ("head of support", "director of operations"),
               ("principal engineer", "engineering manager"),
               ("data science lead", "product lead"), ("design director", "head of research"))
DB_ENGINES = (("Postgres", ("13", "14", "15", "16", "17")), ("MySQL", ("5.7", "8.0")),
              ("MariaDB", ("10.11", "11.4")))
DBS = tuple(f"{engine} {v}" for engine, versions in DB_ENGINES for v in versions)

UP = {"raised to", "bumped to", "increased to", "was upgraded to", "upgraded from A to B"}
DOWN = {"cut to", "reduced to", "dropped to"}

NOISE = {
    "personal": ("We bought a new sofa.", "The kids started swimming lessons.",
                 "I finally fixed the leaky tap.", "We're hosting a barbecue on Saturday.",
                 "I've been reading a lot of crime novels lately."),
    "ops": ("We rotated the staging TLS certificates.",
            "The on-call handbook got a new section on paging etiquette.",
            "Disk usage on the log cluster is at 61%.", "The status page had a typo in the footer.",
            "Someone left a debug flag on in the sandbox."),
    "org": ("We hired two interns for the summer.", "The kitchen on the third floor is being renovated.",
            "The all-hands is on Thursday this month.", "The engineering blog got a redesign.",
            "Expense reports are due on the fifth."),
}


def _promo_pair(pairs):
    def pick(rnd, cue, slots):
        return rnd.choice(pairs)
    return pick


def _promo_other(pairs):
    def pick(rnd, old, slots):
        targets = [new for o, new in pairs if o == old]
        return rnd.choice(targets) if targets else None
    return pick


def _db_pair(rnd, cue, slots):
    while True:
        engine, versions = rnd.choice(DB_ENGINES)
        if cue in UP:
            if len(versions) < 2:
                continue
            i, j = sorted(rnd.sample(range(len(versions)), 2))
            return f"{engine} {versions[i]}", f"{engine} {versions[j]}"
        old, new = rnd.sample(DBS, 2)
        if cue in ("migrated from A to B", "switched from A to B", "replaced A with B",
                   "moved to", "after all") and old.split()[0] == new.split()[0]:
            continue
        return old, new


def _db_other(rnd, old, slots):
    engine, version = old.split()
    later = [f"{e} {v}" for e, vs in DB_ENGINES if e == engine for v in vs if float(v) > float(version)]
    return rnd.choice(later) if later else None


def _url(rnd, slots):
    name = slots["who"].removeprefix("svc-")
    code = "".join(rnd.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(6))
    return rnd.choice((f"https://grafana.example.test/d/{code}",
                       f"https://dash.example.test/{name}/overview",
                       f"https://metrics.example.test/{name}-{code[:3]}",
                       f"https://grafana.example.test/d/{code}/{name}"))


def _url_pair(rnd, cue, slots):
    return _url(rnd, slots), _url(rnd, slots)


def _url_other(rnd, old, slots):
    return _url(rnd, {"who": slots["other_who"]})


def _runtime(key, lang, versions):
    return {
        "key": key, "domain": "ops", "who": SVCS, "pool": versions, "ordered": True,
        "q": f"Which {lang} version does {{who}} run on?",
        "init": ("{who} runs on {old}.", "{who} is built and deployed on {old}."),
        "upd": (("was upgraded to", "{who} was upgraded to {new} {time}."),
                ("upgraded from A to B", "We upgraded {who} from {old} to {new} {time}."),
                ("bumped to", "{Time}, we bumped {who} to {new}."),
                ("now", "{who} runs on {new} now."),
                ("moved to", "{who} moved to {new} {time}."),
                ("restatement", "{who} runs on {new}.")),
        "back": "{who} is back on {old} after the {new} upgrade broke the worker pool.",
        "non": (("other service", "{other_who} was upgraded to {other} {time}.", "+"),
                ("local test", "I've been testing {who} locally on {other}; production is unchanged.", "+")),
        "neg": (("rolled back", "The {who} upgrade to {other} was rolled back {time}; it runs {old} again.", "t+"),
                ("decided not to", "We decided not to upgrade {who} to {other} until the libraries catch up.", "+")),
        "restate": ("The {who} test suite passes on {cur}.",),
    }


FRAMES: tuple[dict, ...] = (
    # ---------------------------------------------------------------- personal
    {
        "key": "home-we", "domain": "personal", "q": "Where do we live?", "pool": CITIES,
        "init": ("We live in {old}.", "Our home is in {old}.", "We've lived in {old} for a few years now.",
                 "We rent a flat in {old}."),
        "upd": (("moved to", "We moved to {new} {time}."),
                ("moved to", "{Time}, we moved to {new}."),
                ("moved to", "We finally moved to {new} {time}; the boxes are still everywhere."),
                ("relocated to", "We relocated to {new} {time}."),
                ("now", "We live in {new} now."),
                ("now", "Home is now {new}."),
                ("no longer", "We no longer live in {old}; home is {new} now."),
                ("restatement", "We live in {new}."),
                ("restatement", "We have lived in {new} since {since}."),
                ("after all", "We went back and forth for months, but we moved to {new} after all.")),
        "back": "We moved back and we're back in {old} for good.",
        "consider": "We're thinking about moving to {new}.",
        "non": (("visit", "We spent a weekend in {other} {time}.", ""),
                ("other person moved", "My sister moved to {other} {time}.", ""),
                ("hypothetical", "We might move to {other} someday.", ""),
                ("past", "Before {old}, we lived in {other} for three years.", ""),
                ("trip", "I was in {other} for a conference {time}.", ""),
                ("wish", "{other} would be a lovely place to live, but we're happy where we are.", "")),
        "neg": (("did not move", "We thought about moving to {other}, but we did not move after all.", ""),
                ("fell through", "The flat in {other} fell through, so we're staying in {old}.", ""),
                ("decided not to", "We decided not to move to {other} after all.", "")),
        "restate": ("Our flat in {cur} gets great morning light.", "We love the markets in {cur}."),
    },
    {
        "key": "home-i", "domain": "personal", "q": "Where do I live?", "pool": CITIES,
        "init": ("I live in {old}.", "My flat is in {old}.", "I've been living in {old} since university."),
        "upd": (("moved to", "I moved to {new} {time}."),
                ("relocated to", "{Time}, I relocated to {new} for work."),
                ("relocated to", "I relocated to {new} {time} to be closer to my parents."),
                ("now", "I live in {new} now."),
                ("no longer", "I no longer live in {old}; I'm in {new} now."),
                ("restatement", "I've lived in {new} since {since}."),
                ("restatement", "My flat is in {new}.")),
        "back": "I'm back in {old} after a year away.",
        "consider": "I'm considering a move to {new}.",
        "non": (("other person moved", "My best friend moved to {other} {time}.", ""),
                ("visit", "I spent a week in {other} {time}.", ""),
                ("hypothetical", "I could see myself living in {other} one day.", ""),
                ("past", "I grew up in {other}.", "")),
        "neg": (("decided not to", "I decided not to move to {other} after all.", ""),
                ("turned down", "I turned down the job in {other}, so I'm staying in {old}.", "")),
        "restate": ("My flat in {cur} is tiny but cosy.",),
    },
    {
        "key": "work", "domain": "personal", "q": "Where do I work?", "pool": COMPANIES,
        "extra": {"title": JOBS},
        "init": ("I work at {old}.", "I work at {old} as {title_a}.",
                 "I've been at {old} for two years, on the data team."),
        "upd": (("left X and joined Y", "I left {old} {time} and joined {new}."),
                ("left X and joined Y", "{Time}, I left {old} and joined {new} as {title_a}."),
                ("joined", "I joined {new} {time}, after leaving {old}."),
                ("started at", "I started at {new} {time}, so no more {old} for me."),
                ("now", "I work at {new} now."),
                ("no longer", "I no longer work at {old}; I'm at {new} now."),
                ("restatement", "I work at {new} as {title_a}."),
                ("after all", "I had doubts, but I took the job at {new} after all and left {old}.")),
        "consider": "I have an offer from {new} and I'm thinking it over.",
        "non": (("other person started at", "My brother started at {other} {time}.", ""),
                ("wish", "I'd love to work at {other} one day.", ""),
                ("recruiter", "A recruiter from {other} emailed me {time}.", ""),
                ("client", "{other} is one of our biggest clients.", "")),
        "neg": (("turned down", "I turned down the {other} offer, so I'm still at {old}.", ""),
                ("stayed", "I interviewed at {other}, but I decided to stay at {old}.", ""),
                ("changed mind", "I was going to join {other}, but I changed my mind and I'm staying at {old}.", "")),
        "restate": ("Things are busy at {cur} this quarter.", "The coffee at {cur} is surprisingly good."),
    },
    {
        "key": "title-me", "domain": "personal", "q": "What is my job title?",
        "pool": tuple(t for pair in MY_PROMOTIONS for t in pair),
        "pair_fn": _promo_pair(MY_PROMOTIONS), "other_fn": _promo_other(MY_PROMOTIONS),
        "extra": {"company": COMPANIES},
        "init": ("I'm {old_a} at {company}.", "My job title is {old}.", "I work as {old_a}."),
        "upd": (("was promoted to", "I was promoted to {new} {time}."),
                ("was promoted to", "{Time}, I was promoted to {new}."),
                ("now", "My title is now {new}."),
                ("changed to", "My title changed to {new} {time}."),
                ("restatement", "I'm {new_a} at {company}."),
                ("no longer", "I'm no longer {old_a}; I'm {new_a} now."),
                ("took over as", "I took over as {new} {time} when my manager left.")),
        "non": (("other person promoted", "My colleague Ruta was promoted to {other} {time}.", ""),
                ("wish", "Someday I'd like to be {other_a}.", ""),
                ("job ad", "{company} posted an opening for {other_a} {time}; I'm not applying.", "")),
        "neg": (("turned down", "I was offered the {other} role, but I turned it down; I'm still {old_a}.", ""),
                ("did not go through", "My promotion to {other} didn't go through this cycle, so my title hasn't changed.", "")),
        "restate": ("Being {cur_a} keeps me busy.",),
    },
    {
        "key": "shoe", "domain": "personal", "q": "What is my shoe size?", "num": True,
        "pool": tuple(str(n) for n in range(36, 47)),
        "init": ("My shoe size is {old}.", "I wear size {old} shoes."),
        "upd": (("now", "My shoe size is now {new}."),
                ("now", "I wear size {new} now."),
                ("changed to", "My shoe size changed to {new} {time}; the podiatrist measured me."),
                ("restatement", "My shoe size is {new}."),
                ("no longer", "I'm no longer a size {old}; my shoe size is {new}."),
                ("restatement", "I wear size {new} shoes.")),
        "back": "My shoe size is back to {old}.",
        "non": (("other person", "My daughter's shoe size is {other} now.", ""),
                ("tried on", "I tried on a pair of size {other} boots, but they were too big.", "+"),
                ("tried on", "I tried on a pair of size {other} boots, but they were too small.", "-"),
                ("gift", "I bought size {other} trainers as a gift for my brother.", "")),
        "neg": (("measured again", "I thought my shoe size had gone up to {other}, but I measured again and it's still {old}.", "+"),),
        "restate": ("I ordered new boots in size {cur}.",),
    },
    {
        "key": "editor-we", "domain": "personal", "q": "Which editor do we use?",
        "pool": ("Vim", "Helix", "Emacs", "VS Code", "Zed", "Sublime Text", "Kakoune"),
        "init": ("We use {old}.", "Our team writes code in {old}.", "Everyone here uses {old}."),
        "upd": (("switched from A to B", "We switched from {old} to {new} {time}."),
                ("switched to", "We switched to {new} {time}."),
                ("replaced A with B", "We replaced {old} with {new} {time}."),
                ("now", "We use {new} now."),
                ("no longer", "We no longer use {old}; everyone is on {new}."),
                ("after all", "We argued about it for weeks, but we switched to {new} after all."),
                ("moved to", "The whole team moved to {new} {time}.")),
        "consider": "We're thinking about switching to {new}.",
        "non": (("talk", "We watched a talk about {other} {time}.", ""),
                ("other team", "The design team down the hall uses {other}.", ""),
                ("hypothetical", "We might give {other} a try someday.", "")),
        "neg": (("decided not to", "We decided not to switch to {other} after all.", ""),
                ("went back", "We tried {other} for a week and went back to {old}.", "t")),
        "restate": ("Our {cur} config lives in the dotfiles repo.",),
    },
    {
        "key": "editor-i", "domain": "personal", "q": "What editor do I use?",
        "pool": ("Vim", "Helix", "Emacs", "VS Code", "Zed", "Sublime Text", "Kakoune"),
        "init": ("I use {old}.", "I write all my code in {old}."),
        "upd": (("switched from A to B", "I switched from {old} to {new} {time}."),
                ("switched to", "{Time}, I switched to {new}."),
                ("now", "I use {new} now."),
                ("replaced A with B", "I replaced {old} with {new} {time}."),
                ("no longer", "I no longer use {old}; I'm on {new}.")),
        "non": (("other person", "My friend Tove swears by {other}.", ""),),
        "neg": (("gave up", "I tried switching to {other}, gave up after three days and stayed with {old}.", "t"),),
        "restate": ("My {cur} setup is finally how I like it.",),
    },
    {
        "key": "phone", "domain": "personal", "q": "What phone do I have?", "rank": True,
        "pool": ("Pixel 6", "iPhone 13", "Galaxy S22", "Fairphone 4", "Pixel 8", "iPhone 15",
                 "Fairphone 5", "Galaxy S24"),
        "init": ("I have a {old}.", "My phone is a {old}."),
        "upd": (("upgraded from A to B", "I upgraded from a {old} to a {new} {time}."),
                ("replaced A with B", "I replaced my {old} with a {new} {time}."),
                ("switched to", "I switched to a {new} {time}."),
                ("now", "I have a {new} now."),
                ("restatement", "My phone is a {new}."),
                ("no longer", "I no longer have the {old}; I use a {new}.")),
        "non": (("other person", "My partner got a {other} {time}.", ""),
                ("review", "I read a review of the {other} {time}.", "")),
        "neg": (("returned", "I bought a {other}, hated it and returned it, so I'm still on my {old}.", "t"),
                ("decided not to", "I decided not to get the {other} after all.", "")),
        "restate": ("The battery on my {cur} lasts two days.",),
    },
    {
        "key": "car", "domain": "personal", "q": "What car do we drive?",
        "pool": ("Skoda Octavia", "Renault Zoe", "Toyota Yaris", "Kia Niro", "Volvo V60",
                 "Fiat Panda", "Honda Jazz", "Peugeot 208"),
        "init": ("We drive a {old}.", "Our car is a {old}."),
        "upd": (("replaced A with B", "We replaced the {old} with a {new} {time}."),
                ("switched to", "We switched to a {new} {time}."),
                ("now", "We drive a {new} now."),
                ("no longer", "We no longer have the {old}; we drive a {new}."),
                ("restatement", "Our car is a {new}."),
                ("after all", "We almost kept the {old}, but we bought a {new} after all and sold the old one.")),
        "consider": "We're looking at a {new} to replace our car.",
        "non": (("rental", "We rented a {other} for the holiday {time}.", ""),
                ("other person", "My parents bought a {other} {time}.", ""),
                ("test drive", "We test-drove a {other} {time}, just for fun.", "")),
        "neg": (("decided not to", "We decided not to buy the {other} after all; we're keeping the {old}.", ""),
                ("fell through", "The deal on the {other} fell through, so we still drive the {old}.", "")),
        "restate": ("The {cur} needs new tyres before winter.",),
    },
    {
        "key": "diet", "domain": "personal", "q": "What diet do I follow?",
        "pool": ("pescatarian", "vegetarian", "vegan", "flexitarian"),
        "skip_pairs": (("vegetarian", "vegan"),),
        "init": ("I'm {old}.", "I eat a {old} diet."),
        "upd": (("switched to", "I switched to a {new} diet {time}."),
                ("now", "I'm {new} now."),
                ("no longer", "I'm no longer {old}; I eat a {new} diet."),
                ("restatement", "I eat a {new} diet.")),
        "non": (("other person", "My partner went {other} {time}.", ""),
                ("restaurant", "We tried a {other} restaurant {time}.", "")),
        "neg": (("did not stick", "I tried going {other} for a month, but it didn't stick; I'm {old} again.", "t"),
                ("decided not to", "I decided not to go {other} after all.", "")),
        "restate": ("Being {cur} is easy with the market nearby.",),
    },
    {
        "key": "rent", "domain": "personal", "q": "How much is our rent?", "num": True,
        "pool": ("780 euros", "850 euros", "920 euros", "990 euros", "1,050 euros", "1,200 euros"),
        "init": ("Our rent is {old} a month.", "We pay {old} a month in rent."),
        "upd": (("raised to", "Our rent was raised to {new} a month {time}."),
                ("increased to", "{Time}, the landlord increased our rent to {new} a month."),
                ("cut to", "{Time}, the landlord cut our rent to {new} a month."),
                ("reduced to", "Our rent was reduced to {new} a month {time}."),
                ("now", "We pay {new} a month now."),
                ("restatement", "Our rent is {new} a month.")),
        "non": (("other person", "Our neighbours pay {other} a month.", ""),
                ("listing", "We saw a flat listed at {other} a month {time}.", "")),
        "neg": (("did not go through", "The landlord wanted to raise the rent to {other}, but that didn't go through; we still pay {old}.", "+"),),
        "restate": ("Paying {cur} a month is fine for this area.",),
    },
    {
        "key": "running", "domain": "personal", "q": "What is my weekly running goal?", "num": True,
        "pool": ("12 km", "15 km", "20 km", "25 km", "30 km", "40 km"),
        "init": ("My weekly running goal is {old}.", "I aim to run {old} a week."),
        "upd": (("bumped to", "I bumped my weekly running goal to {new} {time}."),
                ("raised to", "{Time}, I raised my weekly running goal to {new}."),
                ("cut to", "I cut my weekly running goal to {new} {time} because of my knee."),
                ("dropped to", "{Time}, my weekly running goal dropped to {new}."),
                ("now", "My weekly running goal is now {new}."),
                ("increased to", "I increased my weekly running goal to {new} {time}."),
                ("reduced to", "I reduced my weekly running goal to {new} {time}.")),
        "back": "My weekly running goal is back to {old}.",
        "non": (("other person", "My running buddy's goal is {other} a week.", ""),),
        "neg": (("kept", "I planned to bump my running goal to {other}, but I kept it at {old}.", "+"),),
        "restate": ("I hit my {cur} again this week.",),
    },
    {
        "key": "internet", "domain": "personal", "q": "How fast is our internet plan?", "num": True,
        "pool": ("50 Mbit", "100 Mbit", "250 Mbit", "500 Mbit", "1,000 Mbit"),
        "init": ("Our internet plan is {old}.", "We pay for {old} broadband at home."),
        "upd": (("was upgraded to", "Our internet plan was upgraded to {new} {time}."),
                ("upgraded from A to B", "We upgraded our broadband from {old} to {new} {time}."),
                ("now", "Our internet plan is {new} now."),
                ("cut to", "{Time}, we cut our internet plan to {new} to save money."),
                ("restatement", "We pay for {new} broadband at home.")),
        "non": (("other person", "My parents got {other} broadband {time}.", ""),),
        "neg": (("decided not to", "The provider offered {other}, but we decided not to upgrade.", "+"),),
        "restate": ("The {cur} plan is plenty for two laptops.",),
    },
    {
        "key": "wifi", "domain": "personal", "q": "What is our wifi network called?",
        "pool": ("Porcupine", "BlueHouse", "CasaMira", "Nebula", "Lemon Tree", "Hamster Wheel",
                 "Toaster Oven"),
        "init": ("Our wifi network is called {old}.", "The wifi at home is named {old}."),
        "upd": (("renamed to", "We renamed the wifi network to {new} {time}."),
                ("renamed to", "{Time}, the kids renamed our wifi to {new}."),
                ("changed to", "The wifi name changed to {new} when we got the new router."),
                ("now", "The home wifi is called {new} now.")),
        "non": (("other network", "The neighbours' wifi is called {other}.", ""),),
        "neg": (("kept", "We talked about renaming the wifi to {other}, but we left it as it is.", ""),),
        "restate": ("The {cur} network reaches the garden too.",),
    },
    {
        "key": "email", "domain": "personal", "q": "What is my email address?",
        "pool": ("kestrel.w@example.test", "ana.lima@example.test", "lima.ana@example.test",
                 "mira.okafor@example.test", "m.okafor@example.test", "tove.b@example.test",
                 "tove.berg@example.test", "hello@anaworks.example.test"),
        "init": ("My email address is {old}.", "You can reach me at {old}."),
        "upd": (("changed to", "My email address changed to {new} {time}."),
                ("now", "My email is {new} now."),
                ("no longer", "I no longer use {old}; write to {new} instead."),
                ("migrated from A to B", "I migrated my mail from {old} to {new} {time}."),
                ("switched to", "I switched to {new} {time}.")),
        "non": (("other person", "My sister's email is {other}.", ""),),
        "neg": (("decided not to", "I set up {other}, but I decided not to switch; {old} is still my address.", ""),),
        "restate": ("Mail to {cur} reaches me on my phone.",),
    },
    {
        "key": "gym", "domain": "personal", "q": "Which gym do I go to?",
        "pool": ("Ironworks", "Pulse Fitness", "Bodyline", "Vital Club", "Granite Gym",
                 "Harbour Climbing"),
        "init": ("I go to {old}.", "My gym is {old}."),
        "upd": (("switched to", "I switched to {new} {time}."),
                ("joined", "I joined {new} {time} and cancelled my {old} membership."),
                ("now", "I go to {new} now."),
                ("moved to", "I moved my membership to {new} {time}.")),
        "non": (("other person", "My flatmate joined {other} {time}.", ""),),
        "neg": (("stayed", "I nearly signed up at {other}, but I stayed at {old}.", ""),),
        "restate": ("{cur} is packed on Monday evenings.",),
    },
    # ---------------------------------------------------------------- ops
    {
        "key": "replicas", "domain": "ops", "who": HOSTS, "num": True,
        "q": "How many replicas does {who} run?",
        "pool": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "16", "20"),
        "init": ("{who} runs {old} replicas right now.", "{who} is running {old} replicas.",
                 "We run {old} replicas of {who}."),
        "upd": (("now", "{who} is now running {new} replicas."),
                ("now", "{who} runs {new} replicas now."),
                ("bumped to", "We bumped {who} to {new} replicas {time}."),
                ("raised to", "{Time}, the replica count for {who} was raised to {new}."),
                ("increased to", "The replica count of {who} was increased to {new} {time}."),
                ("cut to", "{who} was cut to {new} replicas {time}."),
                ("reduced to", "{Time}, we reduced {who} to {new} replicas to save money."),
                ("dropped to", "We dropped {who} to {new} replicas {time}."),
                ("restatement", "{who} runs {new} replicas."),
                ("restatement", "{who} has run {new} replicas since {since}."),
                ("no longer", "{who} no longer runs {old} replicas; it runs {new}."),
                ("changed to", "The replica count of {who} changed to {new} {time}."),
                ("after all", "We said we'd leave it alone, but we scaled {who} to {new} replicas after all.")),
        "back": "{who} is back to {old} replicas.",
        "consider": "We might bump {who} to {new} replicas.",
        "non": (("other host", "{other_who} is now running {other} replicas.", ""),
                ("staging copy", "The staging copy of {who} runs {other} replicas.", ""),
                ("proposal", "Someone proposed running {who} on {other} replicas; nothing is decided.", "")),
        "neg": (("rolled back", "The replica bump to {other} was rolled back; {who} still runs {old}.", "t+"),
                ("decided not to", "We decided not to scale {who} to {other} replicas after all.", "")),
        "restate": ("{who} is still on {cur} replicas and looks healthy.",),
    },
    {
        "key": "database", "domain": "ops", "who": SERVICES, "pool": DBS,
        "back_cue": "was upgraded to",
        "q": "What database does the {who} service run on?",
        "pair_fn": _db_pair, "other_fn": _db_other,
        "init": ("The {who} service runs on {old}.", "The {who} service's database is {old}."),
        "upd": (("was upgraded to", "The {who} database was upgraded to {new} {time}."),
                ("upgraded from A to B", "We upgraded the {who} service from {old} to {new} {time}."),
                ("migrated from A to B", "{Time}, we migrated the {who} service from {old} to {new}."),
                ("switched from A to B", "The {who} service switched from {old} to {new} {time}."),
                ("moved to", "We moved the {who} service to {new} {time}."),
                ("now", "The {who} service runs on {new} now."),
                ("after all", "We moved the {who} service to {new} after all."),
                ("replaced A with B", "We replaced {old} with {new} under the {who} service {time}."),
                ("restatement", "The {who} service runs on {new}.")),
        "back": "The {who} service is back on {old} after the {new} upgrade was rolled back.",
        "consider": "We're evaluating {new} for the {who} service.",
        "non": (("other service", "The {other_who} service moved to {other} {time}.", ""),
                ("staging copy", "We're testing {other} on a staging copy of the {who} service.", ""),
                ("hypothetical", "At some point we may move the {who} service to {other}.", "")),
        "neg": (("rolled back", "The upgrade of the {who} database to {other} was rolled back; it's on {old} again.", "t"),
                ("decided not to", "We decided not to migrate the {who} service to {other} after all.", ""),
                ("postponed", "The {who} move to {other} is postponed indefinitely; it stays on {old}.", "")),
        "restate": ("The {who} service is happy on {cur}; no slow queries this week.",),
    },
    {
        "key": "region", "domain": "ops", "who": SVCS, "pool": REGIONS,
        "q": "Which region is {who} deployed in?",
        "init": ("{who} is deployed in {old}.", "{who} runs in the {old} region."),
        "upd": (("moved to", "We moved {who} to {new} {time}."),
                ("migrated from A to B", "{who} was migrated from {old} to {new} {time}."),
                ("relocated to", "{who} was relocated to {new} {time} to be closer to customers."),
                ("now", "{who} runs in {new} now."),
                ("no longer", "{who} is no longer in {old}; it runs in {new}."),
                ("restatement", "{who} is deployed in {new}."),
                ("switched to", "{Time}, we switched {who} to the {new} region.")),
        "non": (("other service", "{other_who} moved to {other} {time}.", ""),
                ("hypothetical", "We may expand {who} into {other} one day; nothing is scheduled.", "")),
        "neg": (("called off", "The migration of {who} to {other} was called off; it stays in {old}.", ""),
                ("failed back", "{who} was failed over to {other} during the outage and moved back to {old} the same day.", "t")),
        "restate": ("{who} in {cur} has had no incidents this month.",),
    },
    _runtime("python", "Python", ("Python 3.10", "Python 3.11", "Python 3.12", "Python 3.13")),
    _runtime("node", "Node", ("Node 18", "Node 20", "Node 22", "Node 24")),
    {
        "key": "ci", "domain": "ops", "q": "Which CI system do we use?",
        "pool": ("Jenkins", "GitHub Actions", "GitLab CI", "Buildkite", "CircleCI", "Drone", "TeamCity"),
        "init": ("We use {old} for CI.", "Our CI runs on {old}.", "Every repo builds on {old}."),
        "upd": (("replaced A with B", "We replaced {old} with {new} {time}."),
                ("switched from A to B", "We switched from {old} to {new} for CI {time}."),
                ("migrated from A to B", "{Time}, we migrated CI from {old} to {new}."),
                ("moved to", "CI moved to {new} {time}."),
                ("now", "Our CI runs on {new} now."),
                ("no longer", "We no longer use {old}; CI is on {new}."),
                ("after all", "We said we'd keep {old}, but we moved CI to {new} after all."),
                ("switched to", "We switched CI to {new} {time}.")),
        "consider": "We're trialling {new} as a replacement for our CI.",
        "non": (("trial", "We set up a {other} trial account to compare build times; nothing has moved yet.", ""),
                ("past", "Before {old}, we used {other}.", "")),
        "neg": (("decided not to", "We decided not to switch CI to {other} after all.", ""),
                ("shelved", "The {other} migration is shelved; CI stays on {old}.", "")),
        "restate": ("The {cur} pipelines take about eight minutes.",),
    },
    {
        "key": "oncall", "domain": "ops", "who": SVCS, "pool": VALUE_PEOPLE,
        "q": "Who is the on-call owner for {who}?",
        "init": ("{old} is the on-call owner for {who}.", "{old} owns on-call for {who}."),
        "upd": (("took over as", "{new} took over as on-call owner for {who} {time}."),
                ("now", "{new} is now the on-call owner for {who}."),
                ("changed to", "The on-call owner for {who} changed to {new} {time}."),
                ("restatement", "{new} is the on-call owner for {who}."),
                ("no longer", "{old} is no longer on call for {who}; {new} owns it."),
                ("restatement", "{new} has owned on-call for {who} since {since}.")),
        "non": (("other service", "{other} took over as on-call owner for {other_who} {time}.", ""),
                ("shadowing", "{other} is shadowing {old} on the {who} rotation to learn the system.", "")),
        "neg": (("fell through", "{other} was going to take over {who} on-call, but that fell through; {old} still owns it.", ""),),
        "restate": ("{cur} fixed the {who} paging rules this week.",),
    },
    {
        "key": "ratelimit", "domain": "ops", "num": True,
        "who": ("public API", "search API", "export API", "partner API", "webhooks API"),
        "q": "What is the {who} rate limit?",
        "pool": tuple(f"{n} requests per minute" for n in (60, 100, 120, 200, 300, 500, 600, 1000)),
        "init": ("The {who} rate limit is {old}.", "The {who} allows {old} per client."),
        "upd": (("raised to", "The {who} rate limit was raised to {new} {time}."),
                ("increased to", "{Time}, we increased the {who} rate limit to {new}."),
                ("bumped to", "We bumped the {who} rate limit to {new} {time}."),
                ("cut to", "The {who} rate limit was cut to {new} {time}."),
                ("reduced to", "{Time}, the {who} rate limit was reduced to {new} after the abuse incident."),
                ("dropped to", "We dropped the {who} rate limit to {new} {time}."),
                ("now", "The {who} rate limit is now {new}."),
                ("changed to", "The {who} rate limit changed to {new} {time}."),
                ("restatement", "The {who} rate limit is {new}.")),
        "back": "The {who} rate limit is back to {old}.",
        "non": (("other api", "The {other_who} rate limit was raised to {other} {time}.", ""),
                ("proposal", "There's a proposal to raise the {who} rate limit to {other}; no decision yet.", "+")),
        "neg": (("rolled back", "The {who} rate limit change to {other} was rolled back; it's {old} again.", "t"),
                ("declined", "A customer asked us to raise the {who} rate limit to {other}; we said no, so it stays at {old}.", "+")),
        "restate": ("Clients of the {who} rarely hit the limit of {cur}.",),
    },
    {
        "key": "memory", "domain": "ops", "who": SVCS, "num": True,
        "q": "What is the memory limit of {who}?",
        "pool": ("256 MB", "384 MB", "512 MB", "768 MB", "1 GB", "2 GB", "4 GB"),
        "init": ("{who} has a memory limit of {old}.", "The memory limit for {who} is {old}."),
        "upd": (("raised to", "The memory limit for {who} was raised to {new} {time}."),
                ("increased to", "{Time}, we increased the memory limit for {who} to {new} after the OOM kills."),
                ("bumped to", "The memory limit of {who} was bumped to {new} {time}."),
                ("cut to", "We cut the memory limit for {who} to {new} {time}."),
                ("reduced to", "The memory limit for {who} was reduced to {new} {time}."),
                ("dropped to", "{Time}, we dropped the memory limit for {who} to {new}."),
                ("now", "The memory limit of {who} is now {new}."),
                ("restatement", "The memory limit for {who} is {new}.")),
        "back": "The memory limit of {who} is back to {old}.",
        "non": (("other service", "The memory limit of {other_who} was raised to {other} {time}.", ""),),
        "neg": (("not changed", "We talked about giving {who} {other} of memory, but nobody changed the limit.", ""),
                ("rolled back", "The memory limit change to {other} on {who} was reverted; it's {old} again.", "t")),
        "restate": ("{who} sits comfortably under its {cur} limit.",),
    },
    {
        "key": "rollout", "domain": "ops", "num": True,
        "who": ("new-checkout", "dark-mode", "smart-search", "fast-export", "beta-dashboard",
                "one-click-refund"),
        "q": "What rollout percentage is the {who} flag at?",
        "pool": ("5%", "10%", "20%", "25%", "50%", "75%", "100%"),
        "init": ("The {who} flag is rolled out to {old} of users.", "The {who} feature flag is at {old}."),
        "upd": (("raised to", "The {who} flag was raised to {new} {time}."),
                ("bumped to", "We bumped the {who} flag to {new} {time}."),
                ("increased to", "{Time}, the {who} rollout was increased to {new}."),
                ("cut to", "The {who} flag was cut to {new} {time} after error rates went up."),
                ("dropped to", "We dropped the {who} flag to {new} {time}."),
                ("reduced to", "{Time}, we reduced the {who} rollout to {new}."),
                ("now", "The {who} flag is at {new} now.")),
        "back": "The {who} flag is back to {old}.",
        "non": (("other flag", "The {other_who} flag went to {other} {time}.", ""),),
        "neg": (("rolled back", "The {who} bump to {other} was rolled back within the hour; it's at {old}.", "t+"),),
        "restate": ("The {who} flag at {cur} shows no new errors.",),
    },
    {
        "key": "dashboard", "domain": "ops", "who": SVCS, "pool": (),
        "pair_fn": _url_pair, "other_fn": _url_other,
        "q": "Where is the {who} dashboard?",
        "init": ("The {who} dashboard is at {old}.", "Bookmark for the {who} dashboard: {old}."),
        "upd": (("changed to", "The {who} dashboard URL changed to {new} {time}."),
                ("moved to", "The {who} dashboard moved to {new} {time}."),
                ("now", "The {who} dashboard lives at {new} now."),
                ("restatement", "The {who} dashboard is at {new}.")),
        "non": (("other service", "The {other_who} dashboard moved to {other}.", ""),),
        "neg": (("decided not to", "We planned to move the {who} dashboard to {other}, but decided not to.", ""),),
        "restate": ("The {who} dashboard ({cur}) loads much faster this week.",),
    },
    {
        "key": "instance", "domain": "ops", "rank": True,
        "who": ("db-1", "cache-2", "worker-3", "build-4", "web-1", "db-reports", "search-2"),
        "q": "What instance type does {who} run on?",
        "pool": ("t3.medium", "m5.large", "r6i.large", "m6i.xlarge", "c6g.2xlarge", "r6i.4xlarge"),
        "init": ("{who} runs on {old} instances.", "{who} is on {old}."),
        "upd": (("upgraded from A to B", "{who} was upgraded from {old} to {new} {time}."),
                ("moved to", "We moved {who} to {new} {time}."),
                ("switched to", "{who} switched to {new} instances {time}."),
                ("now", "{who} runs on {new} now."),
                ("changed to", "The instance type of {who} changed to {new} {time}."),
                ("was upgraded to", "{who} was upgraded to {new} {time}.")),
        "non": (("other host", "{other_who} moved to {other} {time}.", ""),),
        "neg": (("rolled back", "We tried {who} on {other} for a day and rolled it back to {old}.", "t"),),
        "restate": ("{who} on {cur} has plenty of headroom.",),
    },
    {
        "key": "retention", "domain": "ops", "num": True, "q": "How long do we keep logs?",
        "pool": ("7 days", "14 days", "30 days", "60 days", "90 days", "180 days"),
        "init": ("We keep logs for {old}.", "Log retention is {old}."),
        "upd": (("cut to", "Log retention was cut to {new} {time}."),
                ("reduced to", "{Time}, we reduced log retention to {new} to save storage."),
                ("raised to", "Log retention was raised to {new} {time} for the audit."),
                ("increased to", "We increased log retention to {new} {time}."),
                ("now", "We keep logs for {new} now."),
                ("changed to", "Log retention changed to {new} {time}."),
                ("dropped to", "Log retention dropped to {new} {time} when we moved to the cheaper tier.")),
        "non": (("other team", "The audit team keeps its own exports for {other}.", ""),),
        "neg": (("decided not to", "We decided not to cut log retention to {other} after all.", "-"),),
        "restate": ("With {cur} of retention, the log volume is at 40%.",),
    },
    {
        "key": "cron", "domain": "ops",
        "who": ("billing job", "nightly export", "backup job", "invoice run", "cleanup job"),
        "q": "When does the {who} run?",
        "pool": ("01:15 UTC", "02:00 UTC", "03:30 UTC", "04:00 UTC", "04:30 UTC", "05:45 UTC"),
        "init": ("The {who} runs at {old}.", "The {who} is scheduled for {old} every night."),
        "upd": (("moved to", "The {who} moved to {new} {time}."),
                ("changed to", "The {who} schedule changed to {new} {time}."),
                ("now", "The {who} runs at {new} now."),
                ("restatement", "The {who} runs at {new}.")),
        "non": (("other job", "The {other_who} moved to {other} {time}.", ""),),
        "neg": (("decided not to", "We decided not to move the {who} to {other} after all.", ""),),
        "restate": ("The {who} at {cur} finished in twelve minutes last night.",),
    },
    {
        "key": "broker", "domain": "ops", "who": SVCS, "q": "Which message broker does {who} use?",
        "pool": ("RabbitMQ", "Kafka", "NATS", "Redis Streams", "Pulsar"),
        "init": ("{who} publishes its events to {old}.", "{who} uses {old} as its message broker."),
        "upd": (("migrated from A to B", "{who} was migrated from {old} to {new} {time}."),
                ("switched from A to B", "{Time}, we switched {who} from {old} to {new}."),
                ("replaced A with B", "We replaced {old} with {new} for {who} {time}."),
                ("moved to", "{who} moved to {new} {time}."),
                ("now", "{who} uses {new} now."),
                ("after all", "We argued about it, but {who} moved to {new} after all.")),
        "consider": "We're looking at {new} for {who}.",
        "non": (("other service", "{other_who} moved to {other} {time}.", ""),),
        "neg": (("decided not to", "We decided not to move {who} to {other} after all.", ""),
                ("shelved", "The {other} migration for {who} is shelved; it stays on {old}.", "")),
        "restate": ("{who} pushes about 2,000 events a second through {cur}.",),
    },
    # ---------------------------------------------------------------- org
    {
        "key": "title-org", "domain": "org", "who": SUBJECT_PEOPLE,
        "q": ("What is {who}'s role?", "What is {who}'s job title?"),
        "pool": tuple(t for pair in ORG_PROMOTIONS + ORG_LATERAL for t in pair),
        "pair_fn": lambda rnd, cue, slots: rnd.choice(
            ORG_PROMOTIONS if cue == "was promoted to" else ORG_PROMOTIONS + ORG_LATERAL),
        "other_fn": _promo_other(ORG_PROMOTIONS),
        "init": ("{who} is the {old}.", "{who} works as our {old}.", "{who}'s title is {old}."),
        "upd": (("was promoted to", "{who} was promoted to {new} {time}."),
                ("took over as", "{who} took over as {new} {time}."),
                ("now", "{who} is now the {new}."),
                ("changed to", "{who}'s title changed to {new} {time}."),
                ("restatement", "{who} is the {new}."),
                ("moved to", "{Time}, {who_first} moved to the {new} role."),
                ("no longer", "{who} is no longer the {old}; {who_first} is the {new} now.")),
        "non": (("other person promoted", "{other_person} was promoted to {other} {time}.", ""),
                ("wish", "{who} would like to become {other_a} eventually.", ""),
                ("opening", "We posted an opening for {other_a} {time}.", "")),
        "neg": (("turned down", "{who} was offered the {other} role but turned it down and stays on as {old}.", ""),
                ("fell through", "The plan to make {who} {other} fell through; {who_first} is still the {old}.", "")),
        "restate": ("As {cur}, {who_first} runs the Monday planning meeting.",),
    },
    {
        "key": "reports", "domain": "org", "who": SUBJECT_PEOPLE, "pool": VALUE_PEOPLE,
        "q": "Who does {who} report to?",
        "init": ("{who} reports to {old}.", "{who}'s manager is {old}."),
        "upd": (("now reports to", "{who} now reports to {new}."),
                ("changed to", "{who}'s manager changed to {new} {time}."),
                ("restatement", "{who} has reported to {new} since {since}."),
                ("no longer", "{who} no longer reports to {old}; {who_first}'s new manager is {new}."),
                ("restatement", "{who}'s manager is {new}."),
                ("took over as", "{new} took over as {who_first}'s manager {time}."),
                ("now reports to", "{Time}, the reorg went through and {who} now reports to {new}.")),
        "non": (("other person", "{other_person} now reports to {other}.", ""),
                ("mentor", "{who} is being mentored by {other}.", ""),
                ("skip-level", "{who} had a skip-level chat with {other} {time}.", "")),
        "neg": (("cancelled", "The reorg that would have moved {who} under {other} was cancelled; {who_first} still reports to {old}.", ""),
                ("decided not to", "We decided not to move {who} under {other} after all.", "")),
        "restate": ("{who_first} has a weekly one-on-one with {cur}.",),
    },
    {
        "key": "team", "domain": "org", "who": SUBJECT_PEOPLE, "pool": TEAMS,
        "q": "Which team is {who} on?",
        "init": ("{who} is on the {old} team.", "{who} works on the {old} team."),
        "upd": (("moved to", "{who} moved to the {new} team {time}."),
                ("left X and joined Y", "{who} left the {old} team {time} and joined {new}."),
                ("switched to", "{Time}, {who_first} switched to the {new} team."),
                ("now", "{who} is on the {new} team now."),
                ("no longer", "{who} is no longer on {old}; {who_first} works on the {new} team."),
                ("restatement", "{who} is on the {new} team."),
                ("joined", "{who} joined the {new} team {time}, leaving {old} behind.")),
        "non": (("other person", "{other_person} moved to the {other} team {time}.", ""),
                ("helping", "{who} is helping the {other} team with their launch this week.", "")),
        "neg": (("called off", "{who} was going to move to the {other} team, but the move was called off.", ""),
                ("decided not to", "{who} decided not to join the {other} team after all.", "")),
        "restate": ("{who_first} gave the {cur} team demo on Friday.",),
    },
    {
        "key": "office", "domain": "org", "who": SUBJECT_PEOPLE, "pool": OFFICES,
        "q": "Which office does {who} work from?",
        "init": ("{who} works from the {old} office.", "{who} is based in our {old} office."),
        "upd": (("relocated to", "{who} relocated to the {new} office {time}."),
                ("moved to", "{who} moved to the {new} office {time}."),
                ("started at", "{Time}, {who_first} started at the {new} office."),
                ("now", "{who} works from the {new} office now."),
                ("restatement", "{who} works from the {new} office."),
                ("no longer", "{who} no longer works from the {old} office; {who_first} is in {new}.")),
        "non": (("visit", "{who} visited the {other} office {time}.", ""),
                ("other person", "{other_person} moved to the {other} office {time}.", "")),
        "neg": (("called off", "{who}'s relocation to {other} was called off.", ""),
                ("decided not to", "{who} decided not to relocate to {other} after all.", "")),
        "restate": ("{who_first} hosts the {cur} office social every month.",),
    },
    {
        "key": "budget", "domain": "org", "pool": VALUE_PEOPLE,
        "who": ("marketing", "infrastructure", "travel", "hiring", "events", "training"),
        "q": "Who owns the {who} budget?",
        "init": ("{old} owns the {who} budget.", "The {who} budget owner is {old}."),
        "upd": (("took over as", "{new} took over as owner of the {who} budget {time}."),
                ("changed to", "The {who} budget owner changed to {new} {time}."),
                ("now", "{new} owns the {who} budget now."),
                ("restatement", "{new} owns the {who} budget."),
                ("no longer", "{old} no longer owns the {who} budget; {new} does.")),
        "non": (("other budget", "{other} took over the {other_who} budget {time}.", ""),),
        "neg": (("decided not to", "We decided not to move the {who} budget to {other} after all.", ""),),
        "restate": ("{cur} signed off the {who} spend for next quarter.",),
    },
    {
        "key": "vendor", "domain": "org",
        "who": ("payroll", "laptop", "cleaning", "travel booking", "legal", "catering"),
        "what": {"payroll": "payroll", "laptop": "laptops", "cleaning": "cleaning",
                 "travel booking": "travel booking", "legal": "legal work", "catering": "catering"},
        "q": "Who is our {who} vendor?",
        "pool": ("Vandelay Industries", "Umbrella", "Hooli", "Initrode", "Soylent", "Acme",
                 "Massive Dynamic", "Cyberdyne", "Wernham Hogg"),
        "init": ("Our {who} vendor is {old}.", "We use {old} for {what}."),
        "upd": (("switched from A to B", "We switched our {who} vendor from {old} to {new} {time}."),
                ("migrated from A to B", "{Time}, we migrated {what} from {old} to {new}."),
                ("replaced A with B", "We replaced {old} with {new} as our {who} vendor {time}."),
                ("moved to", "{Time}, we moved {what} to {new}."),
                ("now", "{new} is our {who} vendor now."),
                ("no longer", "{old} is no longer our {who} vendor; we use {new}."),
                ("after all", "Procurement pushed back, but we signed with {new} for {what} after all and dropped {old}."),
                ("switched to", "We switched to {new} for {what} {time}.")),
        "consider": "We're getting quotes from {new} for {what}.",
        "non": (("other company", "Our sister company uses {other} for {what}.", ""),
                ("pitch", "{other} pitched us on {what} {time}.", "")),
        "neg": (("decided not to", "We decided not to switch {what} to {other} after all.", ""),
                ("fell through", "The {other} contract for {what} fell through, so {old} stays.", "")),
        "restate": ("{cur} sent the {who} invoice on time again.",),
    },
    {
        "key": "project", "domain": "org", "who": PROJECTS, "pool": VALUE_PEOPLE,
        "q": "Who leads Project {who}?",
        "init": ("{old} leads Project {who}.", "Project {who} is led by {old}."),
        "upd": (("took over as", "{new} took over as lead of Project {who} {time}."),
                ("now", "{new} leads Project {who} now."),
                ("changed to", "The lead of Project {who} changed to {new} {time}."),
                ("restatement", "Project {who} is led by {new}."),
                ("no longer", "{old} no longer leads Project {who}; {new} does.")),
        "back": "{old} is back on Project {who} as lead.",
        "non": (("other project", "{other} now leads Project {other_who}.", ""),
                ("demo", "{other} gave a demo of Project {who} {time}.", "")),
        "neg": (("declined", "{other} was asked to lead Project {who} but said no, so {old} stays on.", ""),),
        "restate": ("{cur} posted the Project {who} roadmap today.",),
    },
    {
        "key": "headcount", "domain": "org", "who": TEAMS, "num": True,
        "q": "How many people are on the {who} team?",
        "pool": tuple(str(n) for n in range(4, 21)),
        "init": ("The {who} team has {old} people.", "There are {old} people on the {who} team."),
        "upd": (("increased to", "Headcount on the {who} team increased to {new} {time}."),
                ("cut to", "The {who} team was cut to {new} people {time}."),
                ("reduced to", "{Time}, the {who} team was reduced to {new} people."),
                ("dropped to", "The {who} team dropped to {new} people {time}."),
                ("now", "The {who} team has {new} people now."),
                ("restatement", "There are {new} people on the {who} team."),
                ("raised to", "Headcount for the {who} team was raised to {new} {time}, and every seat is filled.")),
        "non": (("other team", "The {other_who} team has {other} people now.", ""),
                ("plan", "The {who} team might grow to {other} people next year.", "+")),
        "neg": (("frozen", "The plan to grow the {who} team to {other} people was frozen; it's still {old}.", "+"),),
        "restate": ("All {cur} people on the {who} team came to the offsite.",),
    },
    {
        "key": "hq", "domain": "org", "q": "Where is our headquarters?", "pool": OFFICES,
        "init": ("Our headquarters is in {old}.", "The company is headquartered in {old}."),
        "upd": (("moved to", "We moved our headquarters to {new} {time}."),
                ("relocated to", "{Time}, the company relocated its headquarters to {new}."),
                ("now", "Our headquarters is in {new} now."),
                ("restatement", "The company is headquartered in {new}.")),
        "non": (("other office", "We opened a sales office in {other} {time}.", ""),),
        "neg": (("decided not to", "We decided not to move our headquarters to {other} after all.", ""),),
        "restate": ("The {cur} headquarters hosts the all-hands.",),
    },
    {
        "key": "team-name", "domain": "org", "who": SUBJECT_PEOPLE,
        "q": "What is the name of the team {who} leads?",
        "pool": ("Growth", "Acquisition", "Core Services", "Foundations", "Insights", "Storefront",
                 "Reliability", "Enablement"),
        "init": ("{who} leads the {old} team.",),
        "upd": (("renamed to", "The {old} team was renamed to {new} {time}."),
                ("renamed to", "{Time}, we renamed {who_first}'s team to {new}."),
                ("now", "{who_first}'s team is called {new} now."),
                ("changed to", "The name of {who_first}'s team changed to {new} {time}.")),
        "non": (("talk", "{who_first} gave a talk to the {other} team {time}.", ""),),
        "neg": (("kept", "We talked about renaming {who_first}'s team to {other}, but we kept the name.", ""),),
        "restate": ("The {cur} team under {who_first} shipped two features this sprint.",),
    },
    {
        "key": "app-name", "domain": "org", "q": "What is our mobile app called?",
        "pool": ("Tandem", "Pocketbook", "Driftline", "Lumen", "Quill", "Wayfarer"),
        "init": ("Our mobile app is called {old}.",),
        "upd": (("renamed to", "We renamed the mobile app to {new} {time}."),
                ("now", "The mobile app is called {new} now."),
                ("changed to", "The mobile app's name changed to {new} {time}.")),
        "non": (("competitor", "A competitor launched an app called {other} {time}.", ""),),
        "neg": (("dropped", "Marketing wanted to rename the app to {other}, but the idea was dropped.", ""),),
        "restate": ("{cur} has a 4.6 rating in the app stores.",),
    },
)

# Many-valued properties: ``init`` is (template, how many values it names), ``add`` adds one.
MANY_FRAMES: tuple[dict, ...] = (
    {
        "key": "languages", "domain": "personal", "q": "Which languages do I speak?",
        "pool": ("Portuguese", "French", "German", "Spanish", "Italian", "Dutch", "Polish",
                 "Swahili", "Japanese", "Turkish", "Greek", "Finnish"),
        "init": (("I speak {a}.", 1), ("I speak {a} and {b}.", 2)),
        "add": (("also", "I also speak {new} now."),
                ("too", "{Time}, I passed my {new} exam, so I speak {new} too."),
                ("as well", "I can hold a conversation in {new} as well now.")),
    },
    {
        "key": "clubs", "domain": "personal", "q": "Which clubs am I a member of?",
        "pool": ("chess club", "running club", "book club", "climbing club", "photography club",
                 "choir", "rowing club"),
        "init": (("I'm a member of the {a}.", 1), ("I'm in the {a} and the {b}.", 2)),
        "add": (("joined", "I joined the {new} {time} too."),
                ("also", "I'm also in the {new} now."),
                ("signed up", "{Time}, I signed up for the {new} as well.")),
    },
    {
        "key": "pets", "domain": "personal", "q": "What are our pets called?",
        "pool": ("Miso", "Pepper", "Biscuit", "Noodle", "Juniper", "Clementine", "Ziggy"),
        "init": (("We have a cat named {a}.", 1), ("We have two cats, {a} and {b}.", 2)),
        "add": (("adopted", "We adopted a dog named {new} {time}."),
                ("also", "We also have a rabbit called {new} now."),
                ("adopted", "{Time}, we adopted a kitten called {new}.")),
    },
    {
        "key": "instruments", "domain": "personal", "q": "Which instruments do I play?",
        "pool": ("guitar", "piano", "cello", "drums", "ukulele", "violin", "trumpet"),
        "init": (("I play the {a}.", 1), ("I play the {a} and the {b}.", 2)),
        "add": (("started", "{Time}, I started playing the {new} as well."),
                ("also", "I also play the {new} now."),
                ("took up", "I took up the {new} {time}, on top of everything else.")),
    },
    {
        "key": "monitoring", "domain": "ops", "q": "Which monitoring tools do we use?",
        "pool": ("Grafana", "Prometheus", "Loki", "Jaeger", "Sentry", "Tempo", "Alertmanager"),
        "init": (("We use {a}.", 1), ("We use {a} and {b} for monitoring.", 2)),
        "add": (("added", "We added {new} {time}."),
                ("also", "We also use {new} now."),
                ("rolled out", "{Time}, we rolled out {new} alongside {a}.")),
    },
    {
        "key": "regions", "domain": "ops", "who": SVCS, "q": "Which regions does {who} run in?",
        "pool": REGIONS,
        "init": (("{who} runs in {a}.", 1), ("{who} runs in {a} and {b}.", 2)),
        "add": (("added", "We added {new} as another region for {who} {time}."),
                ("also", "{who} now also runs in {new}.")),
    },
    {
        "key": "rotation", "domain": "ops", "who": SVCS, "pool": VALUE_PEOPLE,
        "q": "Who is on the {who} on-call rotation?",
        "init": (("The {who} on-call rotation is {a} and {b}.", 2),
                 ("{a} is on the {who} on-call rotation.", 1)),
        "add": (("joined", "{new} joined the {who} on-call rotation {time}."),
                ("added", "We added {new} to the {who} rotation {time}.")),
    },
    {
        "key": "code-languages", "domain": "ops", "who": SVCS,
        "q": "Which programming languages is {who} written in?",
        "pool": ("Rust", "Python", "Java", "TypeScript", "Kotlin", "Elixir", "Scala"),
        "init": (("{who} is written in {a}.", 1), ("{who} is written in {a} and {b}.", 2)),
        "add": (("added", "{Time}, we added {new} to {who} for the parsing hot path."),
                ("also", "Parts of {who} are now written in {new} as well.")),
    },
    {
        "key": "alert-channels", "domain": "ops", "who": SVCS,
        "q": "Which channels do {who} alerts go to?",
        "pool": ("#oncall-pager", "#sre-firehose", "#incidents", "#ops-alerts", "#platform-alerts",
                 "#status-updates"),
        "init": (("Alerts for {who} go to {a}.", 1), ("{who} alerts go to {a} and {b}.", 2)),
        "add": (("also", "{who} alerts now also go to {new}."),
                ("added", "We added {new} as another destination for {who} alerts {time}.")),
    },
    {
        "key": "team-members", "domain": "org", "who": TEAMS, "pool": VALUE_PEOPLE,
        "q": "Who is on the {who} team?",
        "init": (("The {who} team is {a} and {b}.", 2), ("{a} is the only person on the {who} team.", 1)),
        "add": (("joined", "{new} joined the {who} team {time}."),
                ("added", "We added {new} to the {who} team {time}."),
                ("also", "{new} is on the {who} team now too.")),
    },
    {
        "key": "offices", "domain": "org", "q": "Where do we have offices?", "pool": OFFICES,
        "init": (("We have an office in {a}.", 1), ("We have offices in {a} and {b}.", 2)),
        "add": (("opened", "We opened another office in {new} {time}."),
                ("also", "We also have an office in {new} now.")),
    },
    {
        "key": "projects-led", "domain": "org", "who": SUBJECT_PEOPLE, "pool": PROJECTS,
        "q": "Which projects does {who} lead?",
        "init": (("{who} leads Project {a}.", 1), ("{who} leads Projects {a} and {b}.", 2)),
        "add": (("also", "{who} now also leads Project {new}."),
                ("took on", "{Time}, {who_first} took on Project {new} as well.")),
    },
    {
        "key": "committee", "domain": "org", "pool": VALUE_PEOPLE,
        "who": ("hiring committee", "security council", "architecture board", "pricing committee"),
        "q": "Who sits on the {who}?",
        "init": (("{a} and {b} sit on the {who}.", 2), ("{a} is the only member of the {who} so far.", 1)),
        "add": (("joined", "{new} joined the {who} {time}."),
                ("added", "{new} was added to the {who} {time}.")),
    },
)


# --------------------------------------------------------------------------------------------
# Template rows
# --------------------------------------------------------------------------------------------


def _a(phrase: str) -> str:
    return ("an " if phrase[0].lower() in "aeio" else "a ") + phrase


def _mag(value: str) -> tuple[int, ...]:
    nums = [int(n) for n in re.findall(r"\d+", value.replace(",", ""))]
    if "GB" in value:
        nums[0] *= 1024
    return tuple(nums)


def _clash(a: str, b: str) -> bool:
    """True when one value is a substring of the other (a grader could not tell them apart)."""
    return a.lower() in b.lower() or b.lower() in a.lower()


def _bigger(frame: dict, a: str, b: str) -> bool:
    if frame.get("rank"):
        return frame["pool"].index(a) > frame["pool"].index(b)
    return _mag(a) > _mag(b)


def _slots(rnd: random.Random, frame: dict) -> dict:
    slots: dict = {}
    if frame.get("who"):
        who = rnd.choice(frame["who"])
        slots["who"] = who
        slots["who_first"] = who.split()[0]
        slots["other_who"] = rnd.choice([w for w in frame["who"] if w != who])
    slots["other_person"] = rnd.choice([p for p in SUBJECT_PEOPLE if p != slots.get("who")])
    if "what" in frame:
        slots["what"] = frame["what"][slots["who"]]
    for name, pool in frame.get("extra", {}).items():
        slots[name] = rnd.choice(pool)
        slots[name + "_a"] = _a(slots[name])
    return slots


def _pair(rnd: random.Random, frame: dict, cue: str, slots: dict) -> tuple[str, str]:
    for _ in range(1000):
        if "pair_fn" in frame:
            old, new = frame["pair_fn"](rnd, cue, slots)
        else:
            old, new = rnd.sample(frame["pool"], 2)
        if _clash(old, new) or (old, new) in frame.get("skip_pairs", ()):
            continue
        if frame.get("num") or frame.get("rank") or frame.get("ordered"):
            if (cue in UP or frame.get("ordered")) and not _bigger(frame, new, old):
                continue
            if cue in DOWN and not _bigger(frame, old, new):
                continue
        return old, new
    raise AssertionError(frame["key"])


def _other(rnd: random.Random, frame: dict, old: str, flags: str, slots: dict) -> str | None:
    for _ in range(200):
        other = frame["other_fn"](rnd, old, slots) if "other_fn" in frame else None
        if other is None:
            other = rnd.choice(frame["pool"])
        if other == old or _clash(other, old):
            continue
        if "+" in flags and not _bigger(frame, other, old):
            continue
        if "-" in flags and not _bigger(frame, old, other):
            continue
        return other
    return None


def fill(template: str, phrase: str | None, **slots: str) -> str:
    """Fill a template; drop the {time} slot when there is no time phrase."""
    for key in ("old", "new", "other", "cur"):
        if key in slots:
            slots[key + "_a"] = _a(slots[key])
    if phrase is None:
        template = template.replace(" {time}", "")
        if template.startswith("{Time}, "):
            text = template[len("{Time}, "):].format(**slots)
            return text[0].upper() + text[1:]
        assert "{Time}" not in template and "{time}" not in template, template
        return template.format(**slots)
    if "{since}" in template:
        month = phrase.split()[-1]
        return template.format(since=month, **slots)
    cap = phrase[0].upper() + phrase[1:]
    return template.format(time=phrase, Time=cap, **slots)


def _as_written(phrase: str | None, text: str) -> str | None:
    """The time phrase as it appears in the text ("Last month" at a sentence start)."""
    if phrase is None or phrase in text:
        return phrase
    cap = phrase[0].upper() + phrase[1:]
    assert cap in text, (phrase, text)
    return cap


def _timed(template: str) -> bool:
    return "{time}" in template or "{Time}" in template


def _q(rnd: random.Random, frame: dict, slots: dict) -> str:
    q = frame["q"] if isinstance(frame["q"], str) else rnd.choice(frame["q"])
    return q.format(**slots)


class Cycle:
    """Deal items from a list in shuffled rounds, so every item is used about equally."""

    def __init__(self, rnd: random.Random, items) -> None:
        self.rnd, self.items, self.queue = rnd, list(items), []

    def next(self):
        if not self.queue:
            self.queue = self.items[:]
            self.rnd.shuffle(self.queue)
        return self.queue.pop()


def _add_third(rnd: random.Random, caps: list, domain: str, restate: str | None) -> int:
    """Maybe add a third capture: a restatement after the last one or unrelated noise.
    Returns how many captures were inserted before the last original one (for indexes)."""
    last = caps[-1][0]
    first = caps[0][0]
    roll = rnd.random()
    if restate and roll < 0.5 and last.date() + timedelta(days=6) <= date(2026, 11, 25):
        when = _rand_moment(rnd, last.date() + timedelta(days=5),
                           min(last.date() + timedelta(days=150), date(2026, 11, 25)))
        caps.append((when, restate))
        return 0
    noise = rnd.choice(NOISE[domain])
    if roll < 0.7 and first.date() > FIRST_DAY + timedelta(days=10):
        when = _rand_moment(rnd, max(FIRST_DAY, first.date() - timedelta(days=90)),
                           first.date() - timedelta(days=2))
        caps.insert(0, (when, noise))
        return 1
    if (caps[-1][0] - caps[-2][0]).days > 6:
        when = _rand_moment(rnd, caps[-2][0].date() + timedelta(days=2),
                           caps[-1][0].date() - timedelta(days=2))
        caps.insert(len(caps) - 1, (when, noise))
        return 1
    return 0


def _spec(domain, case, caps, q, current, cue, phrase, upd, **more) -> dict:
    spec = {"domain": domain, "style": "plain", "case": case,
            "caps": [(_fmt_ts(ts), text) for ts, text in caps], "q": q, "current": current,
            "cue": cue, "time": phrase, "upd": upd}
    spec.update(more)
    return spec


def gen_update(rnd: random.Random, frame: dict, cue: str, template: str, kind: str | None) -> dict:
    slots = _slots(rnd, frame)
    domain = frame["domain"]
    if cue == "is back to":
        old, mid = _pair(rnd, frame, frame.get("back_cue", "now"), slots)
        direction = UP if not (frame.get("num") or frame.get("rank") or frame.get("ordered")) \
            or _bigger(frame, mid, old) else DOWN
        options = [(c, t) for c, t in frame["upd"]
                   if _timed(t) and c not in ("no longer", "after all")
                   and not (c in UP | DOWN and c not in direction)]
        mcue, mtemplate = rnd.choice(options)
        for _ in range(1000):
            said1 = _rand_moment(rnd, FIRST_DAY, date(2025, 9, 30))
            said2, phrase2 = plan_phrase(rnd, kind, said1.date() + timedelta(days=60),
                                         min(said1.date() + timedelta(days=500), date(2026, 5, 30)))
            earliest2 = resolve(phrase2, said2)[1] if phrase2 else said2.date()
            if (earliest2 - said1.date()).days >= 40:
                break
        else:
            raise AssertionError(frame["key"])
        said3 = _rand_moment(rnd, said2.date() + timedelta(days=30),
                             min(said2.date() + timedelta(days=300), date(2026, 11, 20)))
        caps = [(said1, fill(rnd.choice(frame["init"]), None, old=old, **slots)),
                (said2, fill(mtemplate, phrase2, old=old, new=mid, **slots)),
                (said3, fill(frame["back"], None, old=old, new=mid, **slots))]
        phrase2 = _as_written(phrase2, caps[1][1])
        return _spec(domain, "update", caps, _q(rnd, frame, slots), [old], "is back to", None, 2,
                     stale=[mid], chain=[(0, old, None), (1, mid, phrase2), (2, old, None)])
    old, new = _pair(rnd, frame, cue, slots)
    if "{since}" in template:
        kind = kind if kind in SINCE_KINDS else rnd.choice(SINCE_KINDS)
    elif not _timed(template):
        kind = None
    said_old, said_upd, phrase = plan_update_dates(rnd, kind)
    caps = [(said_old, fill(rnd.choice(frame["init"]), None, old=old, **slots)),
            (said_upd, fill(template, phrase, old=old, new=new, **slots))]
    phrase = _as_written(phrase, caps[1][1])
    earliest = resolve(phrase, said_upd)[1] if phrase else said_upd.date()
    if cue == "after all" and frame.get("consider") \
            and (earliest - said_old.date()).days > 20:
        when = _rand_moment(rnd, said_old.date() + timedelta(days=5), earliest - timedelta(days=10))
        caps.insert(1, (when, fill(frame["consider"], None, new=new, **slots)))
    elif rnd.random() < 0.22:
        restate = fill(rnd.choice(frame["restate"]), None, cur=new, **slots)
        _add_third(rnd, caps, domain, restate)
    upd = next(i for i, (ts, _) in enumerate(caps) if ts == said_upd)
    return _spec(domain, "update", caps, _q(rnd, frame, slots), [new], cue, phrase, upd,
                 stale=[old])


def _casual_phrase(rnd: random.Random, said: datetime) -> str:
    while True:
        try:
            moment, phrase = plan_phrase(rnd, rnd.choice(CASUAL_KINDS), said.date(), said.date())
            return phrase
        except AssertionError:
            continue


def gen_static(rnd: random.Random, frame: dict, case: str, label: str, template: str,
               flags: str) -> dict:
    slots = _slots(rnd, frame)
    domain = frame["domain"]
    other = None
    while other is None:
        old = _pair(rnd, frame, "now", slots)[0]
        other = _other(rnd, frame, old, flags, slots)
    said0 = _rand_moment(rnd, FIRST_DAY, date(2026, 6, 30))
    said1 = _rand_moment(rnd, said0.date() + timedelta(days=25),
                         min(said0.date() + timedelta(days=500), date(2026, 11, 20)))
    phrase = _casual_phrase(rnd, said1) if _timed(template) else None
    caps = [(said0, fill(rnd.choice(frame["init"]), None, old=old, **slots)),
            (said1, fill(template, phrase, old=old, other=other, **slots))]
    phrase = _as_written(phrase, caps[1][1])
    if case == "negated" and frame.get("consider") and "t" not in flags \
            and (said1 - said0).days > 30 and rnd.random() < 0.5:
        when = _rand_moment(rnd, said0.date() + timedelta(days=10), said1.date() - timedelta(days=10))
        caps.insert(1, (when, fill(frame["consider"], None, new=other, **slots)))
    elif rnd.random() < 0.22:
        restate = fill(rnd.choice(frame["restate"]), None, cur=old, **slots)
        _add_third(rnd, caps, domain, restate)
    upd = next(i for i, (ts, _) in enumerate(caps) if ts == said1)
    return _spec(domain, case, caps, _q(rnd, frame, slots), [old], label, phrase, upd,
                 not_current=[other], transient="t" in flags)


def gen_many(rnd: random.Random, frame: dict, label: str, template: str, kind: str | None) -> dict:
    slots = _slots(rnd, frame)
    domain = frame["domain"]
    init, count = rnd.choice(frame["init"])
    for _ in range(1000):
        values = rnd.sample(frame["pool"], count + 1)
        if not any(_clash(a, b) for a in values for b in values if a is not b):
            break
    first = dict(zip("ab", values[:count], strict=False))
    if not _timed(template):
        kind = None
    said_old, said_upd, phrase = plan_update_dates(rnd, kind)
    caps = [(said_old, fill(init, None, **first, **slots)),
            (said_upd, fill(template, phrase, new=values[-1], a=values[0], **slots))]
    phrase = _as_written(phrase, caps[1][1])
    if rnd.random() < 0.2:
        _add_third(rnd, caps, domain, None)
    upd = next(i for i, (ts, _) in enumerate(caps) if ts == said_upd)
    return _spec(domain, "many", caps, _q(rnd, frame, slots), values, label, phrase, upd)


# How many template rows each domain gets per case (the probes add to the plain updates).
PLAIN_COUNTS = {"personal": {"update": 26, "non-update": 9, "many": 8, "negated": 9},
                "ops": {"update": 26, "non-update": 9, "many": 8, "negated": 9},
                "org": {"update": 28, "non-update": 9, "many": 8, "negated": 9}}


def template_specs(rnd: random.Random, cue_counts: dict[str, int]) -> list[dict]:
    specs: list[dict] = []
    times = Cycle(rnd, POINT_KINDS)
    for domain in DOMAINS:
        frames = [f for f in FRAMES if f["domain"] == domain]
        counts = PLAIN_COUNTS[domain]
        # updates: deal cues round-robin; for each cue, use the least-used frame that has it
        options: dict[str, list] = {}
        for frame in frames:
            for cue, template in frame["upd"]:
                options.setdefault(cue, []).append((frame, template))
            if frame.get("back"):
                options.setdefault("is back to", []).append((frame, frame["back"]))
        used_frames: dict[str, int] = {}
        used_templates: set[str] = set()
        for _ in range(counts["update"]):
            # the cue used least so far over the whole file (chats and probes included)
            low = min(cue_counts.get(c, 0) for c in options)
            cue = rnd.choice(sorted(c for c in options if cue_counts.get(c, 0) == low))
            cue_counts[cue] = cue_counts.get(cue, 0) + 1
            choices = options[cue]
            fresh = [c for c in choices if c[1] not in used_templates] or choices
            since = [c for c in fresh if "{since}" in c[1]]
            fresh = since if since and cue_counts.get("since", 0) < 3 else fresh
            low = min(used_frames.get(f["key"], 0) for f, _ in fresh)
            frame, template = rnd.choice([c for c in fresh if used_frames.get(c[0]["key"], 0) == low])
            used_frames[frame["key"]] = used_frames.get(frame["key"], 0) + 1
            used_templates.add(template)
            kind = times.next() if rnd.random() > 0.1 else None
            if "{since}" in template:
                kind = "since_october" if cue_counts.get("since", 0) < 3 else "since_month"
                cue_counts["since"] = cue_counts.get("since", 0) + 1
            specs.append(gen_update(rnd, frame, cue, template, kind))
        for case, key in (("non-update", "non"), ("negated", "neg")):
            entries = Cycle(rnd, [(f, e) for f in frames for e in f[key]])
            for _ in range(counts[case]):
                frame, (label, template, flags) = entries.next()
                specs.append(gen_static(rnd, frame, case, label, template, flags))
        many = Cycle(rnd, [(f, a) for f in MANY_FRAMES if f["domain"] == domain for a in f["add"]])
        for _ in range(counts["many"]):
            frame, (label, template) = many.next()
            specs.append(gen_many(rnd, frame, label, template, times.next()))
    return specs


# --------------------------------------------------------------------------------------------
# Probe examples (plain, always dev)
# --------------------------------------------------------------------------------------------

PROBES: tuple[dict, ...] = (
    {"d": "personal", "q": "Where do we live?", "cur": ["Lisbon"], "stale": ["Porto"],
     "cue": "moved to", "t": "in March",
     "caps": [("2025-02-10T09:00", "We live in Porto."),
              ("2026-06-10T09:00", "We moved to Lisbon in March.")],
     "as_of": [{"at": "2025-11", "value": "Porto"}, {"at": "2026-09", "value": "Lisbon"}]},
    {"d": "personal", "q": "Where do I work?", "cur": ["Initech"], "stale": ["Globex"],
     "cue": "left X and joined Y", "t": "last month",
     "caps": [("2024-09-03T08:30", "I work at Globex as a data analyst."),
              ("2025-10-15T18:10", "I left Globex last month and joined Initech as a data engineer.")]},
    {"d": "personal", "q": "What is my shoe size?", "cur": ["41"], "stale": ["40"], "cue": "now",
     "caps": [("2024-05-20T12:00", "My shoe size is 40."),
              ("2025-08-02T10:45", "My shoe size is now 41.")]},
    {"d": "personal", "q": "Which editor do we use?", "cur": ["Helix"], "stale": ["Vim"],
     "cue": "switched from A to B",
     "caps": [("2024-11-11T14:20", "We use Vim."),
              ("2025-04-28T09:15", "We switched from Vim to Helix.")]},
    {"d": "ops", "q": "How many replicas does web-1 run?", "cur": ["7"], "stale": ["5"],
     "cue": "now",
     "caps": [("2025-03-04T10:00", "web-1 runs 5 replicas right now."),
              ("2025-07-21T16:30", "web-1 is now running 7 replicas.")]},
    {"d": "ops", "q": "What database does the billing service run on?", "cur": ["Postgres 16"],
     "stale": ["Postgres 14"], "cue": "was upgraded to", "t": "last month",
     "caps": [("2024-06-12T11:00", "The billing service runs on Postgres 14."),
              ("2025-02-19T15:40", "The billing service was upgraded to Postgres 16 last month.")]},
    {"d": "ops", "q": "What is the API rate limit?", "cur": ["200 requests per minute"],
     "stale": ["100 requests per minute"], "cue": "raised to", "t": "last week",
     "caps": [("2025-05-06T09:30", "The API rate limit is 100 requests per minute."),
              ("2026-01-14T13:05", "The API rate limit was raised to 200 requests per minute last week.")]},
    {"d": "ops", "q": "Which CI system do we use?", "cur": ["GitHub Actions"], "stale": ["Jenkins"],
     "cue": "replaced A with B",
     "caps": [("2024-03-18T10:10", "We use Jenkins for CI."),
              ("2024-10-07T17:25", "We replaced Jenkins with GitHub Actions.")]},
    {"d": "org", "q": "What is Hannelore Brandt's role?", "cur": ["head of design"],
     "stale": ["engineering manager"], "cue": "restatement",
     "caps": [("2024-08-26T09:00", "Hannelore Brandt is the engineering manager."),
              ("2025-09-30T09:00", "Hannelore Brandt is the head of design.")]},
    {"d": "org", "q": "Who does Priya report to?", "cur": ["Mateo"], "stale": ["Daniel"],
     "cue": "now reports to",
     "caps": [("2025-01-27T11:15", "Priya reports to Daniel."),
              ("2025-06-16T14:50", "Priya now reports to Mateo.")]},
)

# --------------------------------------------------------------------------------------------
# Hand-written natural chats: one turn per line, "Name: text"
# --------------------------------------------------------------------------------------------
# Keys: d domain, c case, q question, cur / stale / nc (not_current), cue, t (the time phrase
# of the update, or of the distractor), upd (index of the updating capture when it is not the
# last), chain (capture index, value, time phrase) for rows whose value changes twice,
# transient (the considered value briefly held, so no as-of date between captures).

CHATS: tuple[dict, ...] = (
    # ======================================================================= personal, update
    {"d": "personal", "c": "update", "q": "Where does Ben live?", "cur": ["Lisbon"],
     "stale": ["Porto"], "cue": "moved to", "t": "in March",
     "caps": [("2025-02-10T19:12", ("Ana: hey stranger! how's life?",
                                    "Ben: busy lol. work is nuts",
                                    "Ben: but we live in Porto now, right by the river",
                                    "Ana: jealous honestly")),
              ("2026-06-10T18:40", ("Ana: how's the new flat?",
                                    "Ben: love it! we moved to Lisbon in March btw",
                                    "Ben: way more sun, way more stairs",
                                    "Ana: haha classic Lisbon"))]},
    {"d": "personal", "c": "update", "q": "Where does Chidi work?", "cur": ["Initech"],
     "stale": ["Globex"], "cue": "left X and joined Y", "t": "last month",
     "caps": [("2025-05-03T12:30", ("Dara: did you survive the quarter-end?",
                                    "Chidi: barely. I've been at Globex three years and quarter-end never gets easier",
                                    "Dara: they don't pay you enough",
                                    "Chidi: lol tell me about it")),
              ("2026-02-17T20:05", ("Dara: ok spill, how's the new job??",
                                    "Chidi: so good honestly. I left Globex last month and joined Initech, the team is tiny but great",
                                    "Dara: omg congrats 🎉",
                                    "Chidi: thanks! still learning where the coffee is"))]},
    {"d": "personal", "c": "update", "q": "What is Elif's shoe size?", "cur": ["39"],
     "stale": ["38"], "cue": "now",
     "caps": [("2024-11-02T10:15", ("Farid: what size should I get you for the hiking boots?",
                                    "Elif: 38, always 38",
                                    "Farid: noted",
                                    "Elif: and not the ugly brown ones pls")),
              ("2025-03-08T09:30", ("Farid: did you book the campsite?",
                                    "Elif: yes! lakeside spot, bring the big tent",
                                    "Farid: the big tent has a hole in it lol")),
              ("2025-09-21T16:40", ("Farid: the boots still fit?",
                                    "Elif: nope lol, my feet grew after the pregnancy. shoe size is now 39",
                                    "Farid: wait feet can do that??",
                                    "Elif: apparently! returning like four pairs"))]},
    {"d": "personal", "c": "update", "q": "Which editor does Gosia use?", "cur": ["Helix"],
     "stale": ["Vim"], "cue": "switched from A to B", "t": "two weeks ago",
     "caps": [("2025-03-14T09:20", ("Hiro: which editor do you use these days?",
                                    "Gosia: Vim, forever. my vimrc is older than my cat",
                                    "Hiro: respect")),
              ("2025-10-08T13:55", ("Hiro: saw your screen share, that wasn't vim??",
                                    "Gosia: haha no, I switched from Vim to Helix two weeks ago",
                                    "Gosia: the multi-cursor stuff got me",
                                    "Hiro: traitor 😂"))]},
    {"d": "personal", "c": "update", "q": "What phone does Ines have?", "cur": ["Fairphone 5"],
     "stale": ["Pixel 7"], "cue": "replaced A with B", "t": "yesterday",
     "caps": [("2024-06-05T18:00", ("Jonas: your phone photos are so good",
                                    "Ines: it's the Pixel 7, the camera is the only reason I bought it",
                                    "Jonas: fair")),
              ("2025-01-22T21:10", ("Jonas: new phone?? it looks chunky",
                                    "Ines: yep, replaced my Pixel 7 with a Fairphone 5 yesterday",
                                    "Ines: I can change the battery myself lol",
                                    "Jonas: very you"))]},
    {"d": "personal", "c": "update", "q": "What is Kavya's job title?", "cur": ["analytics lead"],
     "stale": ["data analyst"], "cue": "was promoted to", "t": "in January",
     "caps": [("2024-09-12T11:45", ("Lars: how's work going?",
                                    "Kavya: good! still a data analyst at Umbrella, still fighting with spreadsheets",
                                    "Lars: the eternal struggle")),
              ("2025-04-03T19:30", ("Lars: drinks friday?",
                                    "Kavya: yes!! I owe everyone a round, I was promoted to analytics lead in January and never celebrated",
                                    "Lars: wait January?? you kept that quiet",
                                    "Kavya: lol I was busy"))]},
    {"d": "personal", "c": "update", "q": "What diet does Mei follow?", "cur": ["vegetarian"],
     "stale": ["pescatarian"], "cue": "now",
     "caps": [("2024-04-18T12:10", ("Nadia: lunch at the taco place?",
                                    "Mei: sure! I'm pescatarian, so the fish tacos for me",
                                    "Nadia: same as always")),
              ("2025-02-27T12:25", ("Nadia: fish tacos again?",
                                    "Mei: actually no, I stopped eating fish, I'm vegetarian now",
                                    "Mei: the bean ones are good anyway",
                                    "Nadia: fair, more guac for everyone"))]},
    {"d": "personal", "c": "update", "q": "Where does Pablo live?", "cur": ["Rotterdam"],
     "stale": ["Valencia"], "cue": "relocated to", "t": "earlier this year",
     "caps": [("2024-03-09T15:00", ("Quynh: are you still in Valencia?",
                                    "Pablo: yep, Valencia, can't beat the beach",
                                    "Quynh: and the paella",
                                    "Pablo: don't start")),
              ("2025-08-14T20:45", ("Quynh: how's the weather up north lol",
                                    "Pablo: grey. so grey. I relocated to Rotterdam earlier this year for the job",
                                    "Pablo: the bikes are great though",
                                    "Quynh: you'll grow webbed feet"))]},
    {"d": "personal", "c": "update", "q": "What car does Rafael drive?", "cur": ["Kia Niro"],
     "stale": ["Renault Zoe"], "cue": "switched to", "t": "last week",
     "caps": [("2024-07-20T09:30", ("Saoirse: can you give me a lift saturday?",
                                    "Rafael: sure, the Zoe fits four if nobody brings a suitcase",
                                    "Saoirse: the Renault Zoe? the tiny green one?",
                                    "Rafael: don't insult her")),
              ("2025-06-30T17:15", ("Saoirse: was that you in the big grey car?",
                                    "Rafael: yes! we switched to a Kia Niro last week, the Zoe was too small with the baby",
                                    "Saoirse: congrats on becoming a real adult",
                                    "Rafael: lol"))]},
    {"d": "personal", "c": "update", "q": "Where does Uma live?", "cur": ["Vienna"],
     "stale": ["Graz"], "cue": "moved to", "t": "last year", "upd": 1,
     "caps": [("2024-02-11T10:05", ("Valentina: send me your address for the wedding invite?",
                                    "Uma: we live in Graz, I'll DM you the full address",
                                    "Valentina: perfect")),
              ("2026-03-05T19:00", ("Valentina: are you coming to the reunion?",
                                    "Uma: yes! it's a shorter trip now, we moved to Vienna last year",
                                    "Valentina: wait, I didn't know you left Graz",
                                    "Uma: haha it was a whole saga")),
              ("2026-08-19T11:20", ("Valentina: any tips for a weekend in Vienna?",
                                    "Uma: come stay with us! Naschmarkt on saturday, then coffee at ours",
                                    "Valentina: deal, I'll bring wine"))]},
    {"d": "personal", "c": "update", "q": "What is Wanjiru's email address?",
     "cur": ["wk@example.test"], "stale": ["wanjiru.k@example.test"], "cue": "changed to",
     "t": "on May 3",
     "caps": [("2025-01-14T08:50", ("Xavier: what's your email? want to send the tickets",
                                    "Wanjiru: wanjiru.k@example.test",
                                    "Xavier: got it")),
              ("2025-07-02T14:20", ("Xavier: my mail to you bounced??",
                                    "Wanjiru: ugh sorry, my email changed to wk@example.test on May 3, the old one is dead",
                                    "Xavier: updating my contacts",
                                    "Wanjiru: thank u"))]},
    {"d": "personal", "c": "update", "q": "How much rent does Yusuf pay?", "cur": ["1,050 euros"],
     "stale": ["900 euros"], "cue": "raised to", "t": "at the start of the year",
     "caps": [("2024-10-10T20:00", ("Zeynep: how much do you pay for that place?",
                                    "Yusuf: 900 euros a month, which is a steal for the area",
                                    "Zeynep: ok I hate you")),
              ("2025-03-18T21:30", ("Zeynep: still a steal?",
                                    "Yusuf: lol no. the landlord raised it to 1,050 euros at the start of the year",
                                    "Zeynep: ouch",
                                    "Yusuf: still cheaper than yours though"))]},
    {"d": "personal", "c": "update", "q": "Where does Aiko work?", "cur": ["Vandelay"],
     "stale": ["Hooli"], "cue": "started at", "t": "three days ago",
     "caps": [("2025-04-08T12:00", ("Bilal: lunch near your office sometime?",
                                    "Aiko: sure! I work at Hooli, right by the station. the canteen is decent",
                                    "Bilal: corporate lunch, living the dream")),
              ("2025-11-13T18:10", ("Bilal: so how was day one??",
                                    "Aiko: day three actually! I started at Vandelay Industries three days ago",
                                    "Aiko: everyone is nice, the laptop is ancient",
                                    "Bilal: lol welcome to the club"))]},
    {"d": "personal", "c": "update", "q": "What phone does Catalina have?", "cur": ["iPhone 15"],
     "stale": ["iPhone 12"], "cue": "upgraded from A to B",
     "caps": [("2024-05-25T11:11", ("Dev: your screen is so cracked lol",
                                    "Catalina: I know, the iPhone 12 has survived a lot",
                                    "Dev: time for a new one?",
                                    "Catalina: when it dies, not before")),
              ("2025-12-01T09:45", ("Dev: ooh shiny",
                                    "Catalina: finally upgraded from the iPhone 12 to an iPhone 15, the old one wouldn't charge anymore",
                                    "Dev: RIP",
                                    "Catalina: 🪦"))]},
    {"d": "personal", "c": "update", "q": "What is Emeka's weekly running goal?", "cur": ["30 km"],
     "stale": ["15 km"], "cue": "is back to", "t": "last week",
     "chain": [(0, "30 km", None), (1, "15 km", "in June"), (2, "30 km", "last week")],
     "caps": [("2024-04-02T07:30", ("Freya: morning run tomorrow?",
                                    "Emeka: yes, I need the kilometres. my goal is 30 km a week",
                                    "Freya: overachiever")),
              ("2024-07-15T19:05", ("Freya: you skipped the run club again",
                                    "Emeka: knee's been bad. I cut my weekly goal to 15 km in June",
                                    "Freya: sensible",
                                    "Emeka: boring but sensible")),
              ("2024-10-20T08:40", ("Freya: you looked fast today!",
                                    "Emeka: knee's fine again, my weekly goal is back to 30 km as of last week",
                                    "Freya: welcome back",
                                    "Emeka: my legs disagree lol"))]},
    {"d": "personal", "c": "update", "q": "Where does Greta live?", "cur": ["Aarhus"],
     "stale": ["Utrecht"], "cue": "no longer",
     "caps": [("2024-08-03T16:20", ("Hamid: do you know any good bakeries in Utrecht?",
                                    "Greta: I live in Utrecht, so yes, about twelve",
                                    "Hamid: send me all of them")),
              ("2025-05-11T10:00", ("Hamid: going to Utrecht next week, any bakery updates?",
                                    "Greta: no idea haha, I no longer live in Utrecht, I'm in Aarhus now",
                                    "Hamid: since when??",
                                    "Greta: long story, tell you at dinner"))]},
    {"d": "personal", "c": "update", "q": "What is Ilse's wifi network called?",
     "cur": ["Toaster Oven"], "stale": ["Hamster Wheel"], "cue": "renamed to", "t": "last month",
     "caps": [("2024-12-26T15:30", ("Joon: what's the wifi here?",
                                    "Ilse: it's called Hamster Wheel, password's on the fridge",
                                    "Joon: lol perfect name")),
              ("2025-09-09T19:50", ("Joon: your wifi isn't showing up?",
                                    "Ilse: oh we renamed the wifi to Toaster Oven last month, same password",
                                    "Joon: why",
                                    "Ilse: the kids voted"))]},
    {"d": "personal", "c": "update", "q": "Where does Kalani live?", "cur": ["Bergen"],
     "stale": ["Tromsø"], "cue": "after all", "t": "in August",
     "caps": [("2024-06-14T20:00", ("Leilani: how's the midnight sun treating you?",
                                    "Kalani: we live in Tromsø so it's basically daytime forever lol",
                                    "Leilani: sounds exhausting")),
              ("2025-02-02T18:30", ("Leilani: any news on the Bergen job?",
                                    "Kalani: they offered, but we're not sure we want to leave Tromsø",
                                    "Kalani: honestly 50/50",
                                    "Leilani: big decision")),
              ("2025-10-12T12:15", ("Leilani: so what happened with Bergen??",
                                    "Kalani: we moved to Bergen after all, in August. the rain is unreal",
                                    "Leilani: hahaha told you",
                                    "Kalani: you did not"))]},
    {"d": "personal", "c": "update", "q": "What is Noor's job title?", "cur": ["product manager"],
     "stale": ["UX researcher"], "cue": "restatement",
     "caps": [("2024-03-22T17:40", ("Omar: what do you do again? I always forget",
                                    "Noor: I'm a UX researcher at Contoso, mostly user interviews",
                                    "Omar: cool, sounds fun")),
              ("2025-07-30T18:05", ("Omar: how's the research stuff?",
                                    "Noor: I'm a product manager at Contoso these days, way more meetings lol",
                                    "Omar: the dark side",
                                    "Noor: we have cookies"))]},
    # =================================================================== personal, non-update
    {"d": "personal", "c": "non-update", "q": "Where does Astrid live?", "cur": ["Lisbon"],
     "nc": ["Porto"], "cue": "other person moved", "t": "in March",
     "caps": [("2024-09-01T18:00", ("Oskar: you're in Lisbon, right? any dentist tips?",
                                    "Astrid: yep, we live in Lisbon. I'll send you mine",
                                    "Oskar: thanks!")),
              ("2025-04-14T20:30", ("Oskar: I saw a photo of you in Porto!",
                                    "Astrid: haha yes, my sister moved to Porto in March so we visited her for a long weekend",
                                    "Astrid: the francesinha nearly killed me",
                                    "Oskar: worth it"))]},
    {"d": "personal", "c": "non-update", "q": "Where does Bilal work?", "cur": ["Globex"],
     "nc": ["Initech"], "cue": "other person started at", "t": "last week",
     "caps": [("2024-11-19T13:00", ("Carmen: how's Globex?",
                                    "Bilal: same as ever. I've been at Globex four years now, it's fine",
                                    "Carmen: fine is underrated")),
              ("2025-06-03T19:40", ("Carmen: saw your brother's post, Initech?!",
                                    "Bilal: yeah he started at Initech last week, super proud of him",
                                    "Bilal: he's already complaining about the parking lol",
                                    "Carmen: a true employee"))]},
    {"d": "personal", "c": "non-update", "q": "What is Dev's shoe size?", "cur": ["42"],
     "nc": ["43"], "cue": "tried on another size", "t": "yesterday",
     "caps": [("2025-02-08T11:00", ("Esra: I'm ordering the team running shoes, what size are you?",
                                    "Dev: 42 please",
                                    "Esra: ok!")),
              ("2025-05-17T15:20", ("Esra: did the shoes fit?",
                                    "Dev: perfect. I also tried a 43 in the shop yesterday out of curiosity, way too big",
                                    "Esra: lol why",
                                    "Dev: the sales guy insisted"))]},
    {"d": "personal", "c": "non-update", "q": "What car does Femi drive?", "cur": ["Toyota Yaris"],
     "nc": ["Volvo V60"], "cue": "rental",
     "caps": [("2024-05-06T09:10", ("Gael: can you drive us to the airport?",
                                    "Femi: sure, my Toyota Yaris is at your service, if you fit",
                                    "Gael: I'll pack light")),
              ("2024-08-26T21:00", ("Gael: nice car in your holiday pics!",
                                    "Femi: haha that was a rental for the road trip, a Volvo V60. gave it back on sunday, sadly",
                                    "Gael: the Yaris is jealous"))]},
    {"d": "personal", "c": "non-update", "q": "Where does Hiro live?", "cur": ["Osaka"],
     "nc": ["Fukuoka"], "cue": "might move someday",
     "caps": [("2025-03-30T10:30", ("Ilse: how's Osaka?",
                                    "Hiro: great! we live in Osaka near the park, the food is dangerous",
                                    "Ilse: dangerous how",
                                    "Hiro: I've gained 4 kg")),
              ("2026-01-11T09:00", ("Ilse: any big plans for the year?",
                                    "Hiro: honestly we might move to Fukuoka someday, my wife loves it there. not soon though",
                                    "Ilse: the ramen alone is worth it",
                                    "Hiro: exactly what I said"))]},
    # ========================================================================= personal, many
    {"d": "personal", "c": "many", "q": "Which languages does Joon speak?",
     "cur": ["Korean", "English", "Spanish"], "cue": "too", "t": "last month",
     "caps": [("2024-07-07T14:00", ("Kalani: which languages do you speak?",
                                    "Joon: Korean and English. I'm hopeless at everything else",
                                    "Kalani: two is plenty")),
              ("2025-05-19T20:10", ("Kalani: how was Madrid?",
                                    "Joon: amazing! and I can finally say I speak Spanish too, passed my B2 last month",
                                    "Kalani: ¡qué bien!",
                                    "Joon: jaja gracias"))]},
    {"d": "personal", "c": "many", "q": "Which clubs is Leilani a member of?",
     "cur": ["chess club", "running club"], "cue": "joined", "t": "in February",
     "caps": [("2024-10-02T18:20", ("Malik: you free thursdays?",
                                    "Leilani: no, thursday is chess club. I've been a member for years",
                                    "Malik: nerd 💜")),
              ("2025-04-24T08:15", ("Malik: saw you at the 5k!",
                                    "Leilani: yeah I joined a running club in February, they meet saturdays",
                                    "Leilani: chess on thursdays, running on saturdays, sleep never",
                                    "Malik: lol balance"))]},
    {"d": "personal", "c": "many", "q": "What are the names of Nadia's pets?",
     "cur": ["Miso", "Pepper"], "cue": "adopted", "t": "two weeks ago",
     "caps": [("2024-12-12T17:45", ("Omar: how's Miso?",
                                    "Nadia: our cat Miso is fat and happy, thanks for asking",
                                    "Omar: as she should be")),
              ("2025-08-08T21:00", ("Omar: who's that in your profile pic??",
                                    "Nadia: that's Pepper! we adopted her two weeks ago, she's a beagle mix",
                                    "Nadia: Miso is furious lol",
                                    "Omar: cat politics"))]},
    {"d": "personal", "c": "many", "q": "Which instruments does Petra play?",
     "cur": ["piano", "cello"], "cue": "started", "t": "this year",
     "caps": [("2025-01-20T19:00", ("Quentin: do you still play?",
                                    "Petra: the piano, every evening, the neighbours love me lol",
                                    "Quentin: lucky neighbours")),
              ("2026-07-04T13:30", ("Quentin: was that a cello in your car??",
                                    "Petra: yes! I started playing the cello this year, on top of piano",
                                    "Petra: I'm terrible but happy",
                                    "Quentin: that's the spirit"))]},
    {"d": "personal", "c": "many", "q": "Where does Rania volunteer?",
     "cur": ["food bank", "library"], "cue": "also",
     "caps": [("2024-02-25T10:00", ("Sven: brunch sunday?",
                                    "Rania: can't, I volunteer at the food bank on sunday mornings",
                                    "Sven: noble")),
              ("2024-09-30T18:45", ("Sven: brunch this sunday then?",
                                    "Rania: still food bank sundays lol. and now I also volunteer at the library on wednesdays, reading club for kids",
                                    "Sven: you're a saint",
                                    "Rania: tell my inbox that"))]},
    # ====================================================================== personal, negated
    {"d": "personal", "c": "negated", "q": "Where does Sven live?", "cur": ["Copenhagen"],
     "nc": ["Malmö"], "cue": "did not move after all",
     "caps": [("2024-05-15T20:00", ("Thandiwe: you're still in Copenhagen?",
                                    "Sven: yes, we live in Copenhagen, in Nørrebro",
                                    "Thandiwe: love it there")),
              ("2025-03-27T19:10", ("Thandiwe: did you end up moving to Malmö?",
                                    "Sven: nah. we thought about moving to Malmö for the cheaper rent, but we did not move after all",
                                    "Sven: the commute would've killed me",
                                    "Thandiwe: fair"))]},
    {"d": "personal", "c": "negated", "q": "Where does Tomás work?", "cur": ["Tessellate"],
     "nc": ["Hooli"], "cue": "turned down",
     "caps": [("2024-03-19T12:45", ("Uma: how's the job?",
                                    "Tomás: good! I work at Tessellate, it's a small team and I like it",
                                    "Uma: nice")),
              ("2024-11-06T22:10", ("Uma: so?? did you take the Hooli job?",
                                    "Tomás: I turned down the Hooli offer, so I'm still at Tessellate",
                                    "Tomás: the money was better but the commute was 2 hours",
                                    "Uma: honestly good call"))]},
    {"d": "personal", "c": "negated", "q": "Which editor does Valentina use?", "cur": ["Emacs"],
     "nc": ["Zed"], "cue": "decided not to",
     "caps": [("2025-02-03T09:00", ("Wen: what editor do you use?",
                                    "Valentina: Emacs. don't judge",
                                    "Wen: judging a little")),
              ("2025-06-12T10:30", ("Wen: you were going to try Zed, right?",
                                    "Valentina: yeah, I'm planning to switch to Zed soon, the collab stuff looks great",
                                    "Wen: keep me posted")),
              ("2025-08-21T16:00", ("Wen: how's Zed?",
                                    "Valentina: lol I decided not to switch to Zed after all, too many of my Emacs packages have no equivalent",
                                    "Wen: the Emacs cult wins again"))]},
    {"d": "personal", "c": "negated", "q": "What phone does Wen have?", "cur": ["Galaxy S21"],
     "nc": ["Pixel 9"], "cue": "returned", "transient": True,
     "caps": [("2024-08-11T11:20", ("Xavier: your phone is ancient lol",
                                    "Wen: my Galaxy S21 works fine, thank you very much",
                                    "Xavier: it's a fossil")),
              ("2025-01-05T17:40", ("Xavier: did you finally get the Pixel 9?",
                                    "Wen: I bought one, used it for four days and returned it. still on my Galaxy S21, no regrets",
                                    "Xavier: you're impossible"))]},
    {"d": "personal", "c": "negated", "q": "What is Yara's job title?", "cur": ["backend engineer"],
     "nc": ["team lead"], "cue": "turned down",
     "caps": [("2024-10-28T13:15", ("Zofia: what's your role at Initrode these days?",
                                    "Yara: backend engineer, mostly payments stuff",
                                    "Zofia: cool")),
              ("2025-04-09T18:00", ("Zofia: did you take the team lead role??",
                                    "Yara: no, I turned it down. I'm still a backend engineer and I like it that way",
                                    "Yara: less meetings, more code lol",
                                    "Zofia: respect"))]},
    # ============================================================================ ops, update
    {"d": "ops", "c": "update", "q": "How many replicas does web-1 run?", "cur": ["9"],
     "stale": ["4"], "cue": "bumped to", "t": "last week",
     "caps": [("2025-04-02T10:14", ("Kenji: anyone know why web-1 latency is up?",
                                    "Sofia: not sure. web-1 is running 4 replicas right now, could be that",
                                    "Kenji: hmm ok, I'll look at the traces",
                                    "Sofia: ping me if you need a hand")),
              ("2025-09-23T15:02", ("Sofia: web-1 looks way calmer this week",
                                    "Kenji: yeah we bumped web-1 to 9 replicas last week",
                                    "Sofia: nice, cost ok?",
                                    "Kenji: finance hasn't noticed yet lol"))]},
    {"d": "ops", "c": "update", "q": "What database does svc-payments run on?",
     "cur": ["Postgres 16"], "stale": ["Postgres 13"], "cue": "was upgraded to",
     "t": "on 2026-04-12",
     "caps": [("2025-10-05T09:40", ("Amara: quick q, what's svc-payments on?",
                                    "Lars: Postgres 13, yeah I know, it's old",
                                    "Amara: yikes",
                                    "Lars: it's on the list")),
              ("2026-05-20T11:25", ("Amara: can I use MERGE in the payments migrations now?",
                                    "Lars: yep, svc-payments was upgraded to Postgres 16 on 2026-04-12",
                                    "Amara: finally 🎉",
                                    "Lars: took three dry runs but we got there"))]},
    {"d": "ops", "c": "update", "q": "Which CI system does the checkout repo build on?",
     "cur": ["GitHub Actions"], "stale": ["Jenkins"], "cue": "migrated from A to B",
     "t": "in November",
     "caps": [("2024-02-14T16:00", ("Mei: is the build broken again?",
                                    "Joon: Jenkins fell over again. the checkout repo still builds on Jenkins and the box is tiny",
                                    "Mei: can we please get a bigger box",
                                    "Joon: ask finance lol")),
              ("2025-05-06T10:20", ("Mei: where do I find the checkout build logs now?",
                                    "Joon: in GitHub, we migrated the checkout repo from Jenkins to GitHub Actions in November",
                                    "Mei: oh wow I missed that",
                                    "Joon: you were on leave, it's fine"))]},
    {"d": "ops", "c": "update", "q": "What is the partner API rate limit?",
     "cur": ["120 requests per minute"], "stale": ["300 requests per minute"], "cue": "cut to",
     "t": "yesterday",
     "caps": [("2024-06-18T13:30", ("Noor: what's the partner API rate limit? a customer is asking",
                                    "Omar: 300 requests per minute per key",
                                    "Noor: thx")),
              ("2024-12-03T09:05", ("Noor: customer says they're getting 429s",
                                    "Omar: expected, we cut the partner API rate limit to 120 requests per minute yesterday after the scraping incident",
                                    "Noor: ok, I'll tell them",
                                    "Omar: link them the status post pls"))]},
    {"d": "ops", "c": "update", "q": "What is the memory limit of svc-search?", "cur": ["2 GB"],
     "stale": ["512 MB"], "cue": "increased to", "t": "two weeks ago",
     "caps": [("2025-07-09T14:45", ("Rafael: svc-search got OOM-killed twice overnight",
                                    "Saoirse: its memory limit is 512 MB, which is tiny for the new index",
                                    "Rafael: yeah that'd do it")),
              ("2025-08-27T10:10", ("Rafael: any OOMs this week?",
                                    "Saoirse: none! we increased the svc-search memory limit to 2 GB two weeks ago",
                                    "Rafael: 🙌",
                                    "Saoirse: the node pool barely noticed"))]},
    {"d": "ops", "c": "update", "q": "Who is the on-call owner for svc-ledger?",
     "cur": ["Wanjiru"], "stale": ["Kofi"], "cue": "took over as", "t": "since October",
     "caps": [("2025-03-03T08:30", ("Tariq: who do I page for svc-ledger?",
                                    "Ugo: Kofi is the on-call owner for svc-ledger, he's lovely at 3am",
                                    "Tariq: lol noted")),
              ("2025-11-18T16:50", ("Tariq: paged Kofi about ledger and he said wrong person?",
                                    "Ugo: oh yeah, Wanjiru took over as on-call owner for svc-ledger, she's had it since October",
                                    "Tariq: oops, apologising to Kofi now",
                                    "Ugo: he'll survive"))]},
    {"d": "ops", "c": "update", "q": "Which region is svc-orders deployed in?",
     "cur": ["eu-central-1"], "stale": ["eu-west-1"], "cue": "moved to", "t": "on June 2",
     "caps": [("2025-09-15T12:00", ("Viktor: where's svc-orders hosted again?",
                                    "Wen: eu-west-1, same as everything else from the old days",
                                    "Viktor: ok thanks")),
              ("2026-06-20T09:35", ("Viktor: latency from Frankfurt looks amazing now",
                                    "Wen: yeah, svc-orders moved to eu-central-1 on June 2",
                                    "Viktor: nice, was it a big migration?",
                                    "Wen: two weekends and a lot of coffee"))]},
    {"d": "ops", "c": "update", "q": "Which Python version does svc-billing run on?",
     "cur": ["Python 3.12"], "stale": ["Python 3.11"], "cue": "now",
     "caps": [("2024-09-09T10:00", ("Xander: can I use the new typing syntax in svc-billing?",
                                    "Yara: which one? svc-billing runs on Python 3.11",
                                    "Xander: the 3.12 generics thing",
                                    "Yara: then no, sorry")),
              ("2025-02-14T15:30", ("Xander: re generics, any chance yet?",
                                    "Yara: yes! svc-billing is on Python 3.12 now, go wild",
                                    "Xander: finally lol"))]},
    {"d": "ops", "c": "update", "q": "What rollout percentage is the new-checkout flag at?",
     "cur": ["10%"], "stale": ["25%"], "cue": "dropped to", "t": "three days ago",
     "caps": [("2026-02-10T11:11", ("Zofia: how far is new-checkout rolled out?",
                                    "Astrid: the new-checkout flag is at 25% of users",
                                    "Zofia: cool, any complaints?",
                                    "Astrid: one person hates the button colour")),
              ("2026-03-02T17:20", ("Zofia: conversion looks weird today",
                                    "Astrid: we dropped the new-checkout flag to 10% three days ago, the tax bug showed up again",
                                    "Zofia: ah that explains it",
                                    "Astrid: fix should land thursday"))]},
    {"d": "ops", "c": "update", "q": "Where is the payments dashboard?",
     "cur": ["https://dash.example.test/payments/overview"],
     "stale": ["https://grafana.example.test/d/pay-01"], "cue": "changed to", "t": "this year",
     "caps": [("2024-04-25T09:00", ("Bram: where's the payments dashboard?",
                                    "Carmen: https://grafana.example.test/d/pay-01 , bookmark it",
                                    "Bram: done")),
              ("2025-07-07T13:40", ("Bram: the payments dashboard link 404s?",
                                    "Carmen: it changed to https://dash.example.test/payments/overview this year when we moved off the old grafana",
                                    "Bram: ahh ok",
                                    "Carmen: I'll fix the wiki"))]},
    {"d": "ops", "c": "update", "q": "What instance type does db-reports run on?",
     "cur": ["r6i.xlarge"], "stale": ["r5.large"], "cue": "upgraded from A to B",
     "t": "in February",
     "caps": [("2024-11-11T10:10", ("Dmitri: db-reports is slow again",
                                    "Esra: it's an r5.large, what do you expect lol",
                                    "Dmitri: a miracle")),
              ("2025-04-16T14:25", ("Dmitri: reports are fast now, what happened",
                                    "Esra: we upgraded db-reports from r5.large to r6i.xlarge in February",
                                    "Dmitri: should've done it years ago",
                                    "Esra: tell that to the budget"))]},
    {"d": "ops", "c": "update", "q": "How long does the hot log tier keep logs?",
     "cur": ["30 days"], "stale": ["90 days"], "cue": "reduced to", "t": "last year",
     "caps": [("2024-05-02T09:45", ("Femi: how far back can I search the logs?",
                                    "Gael: 90 days, the hot log tier keeps 90 days",
                                    "Femi: perfect")),
              ("2026-02-19T10:30", ("Femi: I can't find logs from November??",
                                    "Gael: retention on the hot log tier was reduced to 30 days last year, the storage bill was insane",
                                    "Femi: oh no, ok I'll try the archive",
                                    "Gael: sorry 😬"))]},
    {"d": "ops", "c": "update", "q": "Which message broker does svc-notify use?", "cur": ["NATS"],
     "stale": ["RabbitMQ"], "cue": "replaced A with B", "t": "at the start of the year",
     "caps": [("2025-06-06T16:10", ("Hamid: svc-notify is dropping messages?",
                                    "Ilse: the RabbitMQ queue filled up again. svc-notify has been on RabbitMQ forever",
                                    "Hamid: fun")),
              ("2026-04-01T11:00", ("Hamid: is the RabbitMQ runbook still useful?",
                                    "Ilse: not for svc-notify, we replaced RabbitMQ with NATS there at the start of the year",
                                    "Hamid: ah ok, I'll archive it",
                                    "Ilse: keep it for svc-mail though, that one still runs on RabbitMQ"))]},
    {"d": "ops", "c": "update", "q": "When does the nightly export run?", "cur": ["04:30 UTC"],
     "stale": ["02:00 UTC"], "cue": "now",
     "caps": [("2024-01-29T08:20", ("Joon: the nightly export clashes with backups",
                                    "Kalani: the nightly export runs at 02:00 UTC, backups at 02:15, yeah that's tight",
                                    "Joon: can we move one?")),
              ("2024-03-12T09:00", ("Joon: no clash last night 🎉",
                                    "Kalani: the nightly export runs at 04:30 UTC now, backups stay at 02:15",
                                    "Joon: nice"))]},
    {"d": "ops", "c": "update", "q": "How many replicas does svc-search run?", "cur": ["6"],
     "stale": ["12"], "cue": "is back to", "t": "last week",
     "chain": [(0, "6", None), (1, "12", "on November 18"), (2, "6", "last week")],
     "caps": [("2024-09-02T10:00", ("Leilani: svc-search capacity for the holidays?",
                                    "Malik: it runs 6 replicas today, we'll bump it before Black Friday",
                                    "Leilani: ok")),
              ("2024-11-20T13:30", ("Leilani: are we ready for Black Friday?",
                                    "Malik: yep, svc-search was raised to 12 replicas on November 18",
                                    "Leilani: 👍")),
              ("2025-01-08T09:15", ("Leilani: search cost is down again",
                                    "Malik: yeah svc-search is back to 6 replicas since last week, traffic's normal",
                                    "Leilani: good, finance will be happy"))]},
    {"d": "ops", "c": "update", "q": "What database does svc-inventory run on?",
     "cur": ["Postgres 16"], "stale": ["MySQL 8.0"], "cue": "after all", "t": "last month",
     "caps": [("2024-04-10T15:00", ("Noor: svc-inventory is on MySQL 8.0, right?",
                                    "Omar: yep, MySQL 8.0, the one nobody wants to touch",
                                    "Noor: lol")),
              ("2024-08-21T10:45", ("Noor: did we decide on the svc-inventory database?",
                                    "Omar: still arguing. half the team wants Postgres 16, half want to stay on MySQL",
                                    "Noor: classic")),
              ("2025-01-30T12:20", ("Noor: any news on svc-inventory?",
                                    "Omar: we moved it to Postgres 16 after all, the cutover was last month",
                                    "Noor: congrats, that was a long fight",
                                    "Omar: the longest"))]},
    {"d": "ops", "c": "update", "q": "What instance type does worker-3 run on?",
     "cur": ["m6i.large"], "stale": ["t3.medium"], "cue": "no longer",
     "caps": [("2025-05-14T09:30", ("Petra: why is worker-3 so slow at night?",
                                    "Quentin: it's a t3.medium, it runs out of CPU credits",
                                    "Petra: ah, burstable")),
              ("2025-10-02T14:00", ("Petra: worker-3 graphs look flat now",
                                    "Quentin: it's no longer a t3.medium, we moved it to an m6i.large, no more credit games",
                                    "Petra: nice"))]},
    {"d": "ops", "c": "update", "q": "What is the api-gw timeout?", "cur": ["60 seconds"],
     "stale": ["30 seconds"], "cue": "raised to", "t": "in September",
     "caps": [("2025-03-27T15:40", ("Rania: exports keep timing out at the gateway",
                                    "Sven: the api-gw timeout is 30 seconds, the big exports take longer",
                                    "Rania: can we raise it?",
                                    "Sven: I'll open a ticket")),
              ("2026-02-05T10:15", ("Rania: exports haven't timed out in ages",
                                    "Sven: yeah, the api-gw timeout was raised to 60 seconds in September",
                                    "Rania: ah, the ticket finally happened",
                                    "Sven: only took six months lol"))]},
    {"d": "ops", "c": "update", "q": "Which cluster does svc-checkout run in?",
     "cur": ["prod-eu-2"], "stale": ["prod-amber"], "cue": "renamed to", "t": "in January",
     "caps": [("2024-07-01T11:30", ("Thandiwe: which cluster is svc-checkout in?",
                                    "Ugo: prod-amber, the older one",
                                    "Thandiwe: thanks")),
              ("2025-03-10T16:05", ("Thandiwe: I can't find prod-amber in the cluster list",
                                    "Ugo: it was renamed to prod-eu-2 in January, same cluster, new name",
                                    "Thandiwe: ahh, the naming cleanup",
                                    "Ugo: yep"))]},
    # ======================================================================== ops, non-update
    {"d": "ops", "c": "non-update", "q": "How many replicas does web-1 run?", "cur": ["5"],
     "nc": ["9"], "cue": "other host",
     "caps": [("2025-01-13T10:00", ("Valentina: how many replicas does web-1 have?",
                                    "Wen: 5 replicas, it's been stable",
                                    "Valentina: ok cool")),
              ("2025-02-03T15:45", ("Valentina: did someone scale something? the bill jumped",
                                    "Wen: web-2 is now running 9 replicas for the import job, web-1 is untouched",
                                    "Valentina: ah ok, that's the import"))]},
    {"d": "ops", "c": "non-update", "q": "What database does svc-ledger run on in production?",
     "cur": ["Postgres 15"], "nc": ["Postgres 17"], "cue": "staging copy",
     "caps": [("2025-05-22T13:00", ("Xavier: which Postgres is svc-ledger on?",
                                    "Yusuf: Postgres 15 in production",
                                    "Xavier: thanks")),
              ("2025-09-04T11:20", ("Xavier: saw a Postgres 17 alert from svc-ledger?",
                                    "Yusuf: that's the staging copy, we're trying Postgres 17 there first. prod hasn't changed",
                                    "Xavier: phew"))]},
    {"d": "ops", "c": "non-update", "q": "What is the export API rate limit?",
     "cur": ["200 requests per minute"], "nc": ["500 requests per minute"],
     "cue": "customer request",
     "caps": [("2024-10-14T09:15", ("Zeynep: what's the export API limit again?",
                                    "Aiko: 200 requests per minute",
                                    "Zeynep: thx")),
              ("2024-12-09T16:30", ("Zeynep: Umbrella says they need 500 requests per minute on the export API",
                                    "Aiko: they can ask lol, the limit is what it is. I'll loop in sales",
                                    "Zeynep: ok"))]},
    {"d": "ops", "c": "non-update", "q": "Which region is svc-mail deployed in?",
     "cur": ["us-east-2"], "nc": ["us-west-2"], "cue": "other service", "t": "last week",
     "caps": [("2024-02-20T12:00", ("Bilal: svc-mail lives in us-east-2, right?",
                                    "Catalina: yes, us-east-2",
                                    "Bilal: ok, updating the diagram")),
              ("2024-06-26T10:40", ("Bilal: did svc-mail move? I saw a us-west-2 migration ticket",
                                    "Catalina: no, that ticket was svc-analytics. it moved to us-west-2 last week",
                                    "Bilal: ah I mixed them up"))]},
    {"d": "ops", "c": "non-update", "q": "Which CI system does the mobile repo build on?",
     "cur": ["CircleCI"], "nc": ["Buildkite"], "cue": "might try someday",
     "caps": [("2025-08-01T14:10", ("Dev: the mobile repo builds on CircleCI, right?",
                                    "Emeka: yep, CircleCI with the macOS runners",
                                    "Dev: cool")),
              ("2025-11-24T17:00", ("Dev: Buildkite has nice macOS support these days",
                                    "Emeka: honestly we might try Buildkite for the mobile repo someday, but nobody has time",
                                    "Dev: someday, the best day"))]},
    # ============================================================================== ops, many
    {"d": "ops", "c": "many", "q": "Which monitoring tools does the platform team use?",
     "cur": ["Grafana", "Prometheus"], "cue": "added", "t": "last month",
     "caps": [("2024-03-05T10:00", ("Freya: what does the platform team use for monitoring?",
                                    "Greta: Grafana for everything, dashboards and alerts",
                                    "Freya: nice")),
              ("2024-10-16T15:25", ("Freya: is Grafana still the whole monitoring stack for platform?",
                                    "Greta: not anymore, we added Prometheus last month for the metrics side, Grafana stays for dashboards",
                                    "Freya: makes sense"))]},
    {"d": "ops", "c": "many", "q": "Which regions does svc-search run in?",
     "cur": ["eu-west-1", "ap-southeast-1"], "cue": "also", "t": "since April",
     "caps": [("2025-01-07T09:00", ("Hamid: svc-search regions?",
                                    "Ilse: just eu-west-1 for now",
                                    "Hamid: ok")),
              ("2025-06-11T13:50", ("Hamid: APAC users say search is faster",
                                    "Ilse: yep, svc-search also runs in ap-southeast-1 since April, eu-west-1 is still the main one",
                                    "Hamid: nice"))]},
    {"d": "ops", "c": "many", "q": "Who is on the svc-payments on-call rotation?",
     "cur": ["Kavya", "Lars", "Tariq"], "cue": "joined", "t": "yesterday",
     "caps": [("2025-02-18T11:00", ("Jonas: who's on the svc-payments rotation?",
                                    "Kavya: me and Lars, alternating weeks",
                                    "Jonas: brutal")),
              ("2025-05-27T09:30", ("Jonas: any relief for you two?",
                                    "Kavya: yes! Tariq joined the svc-payments rotation yesterday, so it's three of us now",
                                    "Jonas: 🎉"))]},
    {"d": "ops", "c": "many", "q": "Which programming languages is svc-ingest written in?",
     "cur": ["Go", "Rust"], "cue": "added", "t": "in July",
     "caps": [("2024-04-04T10:30", ("Lars: what's svc-ingest written in?",
                                    "Mei: Go, all of it",
                                    "Lars: 👍")),
              ("2024-09-19T16:15", ("Lars: why is there a Cargo.toml in svc-ingest??",
                                    "Mei: we added Rust for the parser in July, the rest is still Go",
                                    "Lars: ooh fancy"))]},
    {"d": "ops", "c": "many", "q": "Which channels do svc-orders alerts go to?",
     "cur": ["#orders-alerts", "#oncall-pager"], "cue": "also",
     "caps": [("2025-09-09T09:00", ("Nadia: where do svc-orders alerts go?",
                                    "Omar: #orders-alerts, nobody reads it lol",
                                    "Nadia: 🙃")),
              ("2026-01-15T14:40", ("Nadia: got paged by svc-orders at 3am??",
                                    "Omar: yeah sorry, svc-orders alerts go to #oncall-pager now as well, #orders-alerts still gets everything",
                                    "Nadia: next time warn me lol"))]},
    # =========================================================================== ops, negated
    {"d": "ops", "c": "negated", "q": "How many replicas does svc-checkout run?", "cur": ["5"],
     "nc": ["9"], "cue": "rolled back", "transient": True,
     "caps": [("2025-03-11T10:00", ("Petra: svc-checkout replica count?",
                                    "Quentin: 5",
                                    "Petra: ty")),
              ("2025-04-29T18:20", ("Petra: why is svc-checkout on 5? I saw 9 in the morning",
                                    "Quentin: the bump to 9 was rolled back, it broke the connection pool. svc-checkout still runs 5",
                                    "Petra: ugh ok"))]},
    {"d": "ops", "c": "negated", "q": "Which search backend does svc-catalog use?",
     "cur": ["Elasticsearch 8"], "nc": ["OpenSearch"], "cue": "decided not to",
     "caps": [("2024-05-08T09:20", ("Rafael: svc-catalog search backend?",
                                    "Saoirse: Elasticsearch 8, self-hosted",
                                    "Rafael: ok")),
              ("2024-07-15T10:00", ("Rafael: I heard we're moving svc-catalog to OpenSearch?",
                                    "Saoirse: we were, but we decided not to switch to OpenSearch after all. too much work for this quarter",
                                    "Rafael: fair"))]},
    {"d": "ops", "c": "negated", "q": "Which Python version does svc-reports run on?",
     "cur": ["Python 3.10"], "nc": ["Python 3.13"], "cue": "postponed",
     "caps": [("2025-06-02T11:00", ("Sven: svc-reports still on Python 3.10?",
                                    "Thandiwe: yep, Python 3.10",
                                    "Sven: that goes EOL soon")),
              ("2025-08-12T15:30", ("Sven: are we doing the Python 3.13 upgrade for svc-reports?",
                                    "Thandiwe: planned for next sprint",
                                    "Sven: 🤞")),
              ("2025-09-30T09:45", ("Sven: how did the upgrade go?",
                                    "Thandiwe: it didn't, the upgrade to Python 3.13 is postponed, a C extension won't build. svc-reports stays on Python 3.10 for now",
                                    "Sven: damn"))]},
    {"d": "ops", "c": "negated", "q": "Who is the on-call owner for svc-auth?",
     "cur": ["Valentina"], "nc": ["Ugo"], "cue": "handover called off",
     "caps": [("2024-11-25T10:00", ("Viktor: who owns on-call for svc-auth?",
                                    "Wen: Valentina is the on-call owner for svc-auth",
                                    "Viktor: thx")),
              ("2025-01-20T12:30", ("Viktor: is Ugo taking over svc-auth on-call this month?",
                                    "Wen: that's off, Ugo is switching teams, so Valentina keeps svc-auth",
                                    "Viktor: ok, updating the pager config... or not lol"))]},
    {"d": "ops", "c": "negated", "q": "Which region is svc-billing deployed in?",
     "cur": ["eu-west-1"], "nc": ["eu-north-1"], "cue": "called off",
     "caps": [("2025-10-20T14:00", ("Xander: svc-billing region?",
                                    "Yara: eu-west-1",
                                    "Xander: and the eu-north-1 move?",
                                    "Yara: being discussed")),
              ("2026-01-26T10:10", ("Xander: when is svc-billing moving to eu-north-1?",
                                    "Yara: it isn't. the migration was called off, svc-billing stays in eu-west-1",
                                    "Xander: oh ok, I'll drop it from the roadmap"))]},
    # ============================================================================ org, update
    {"d": "org", "c": "update", "q": "Who does Zofia report to?", "cur": ["Amara"],
     "stale": ["Daniel"], "cue": "now reports to", "t": "since May",
     "caps": [("2025-01-09T10:00", ("Astrid: who's your manager these days?",
                                    "Zofia: Daniel, he's great",
                                    "Astrid: lucky")),
              ("2025-07-16T16:30", ("Astrid: are you still under Daniel?",
                                    "Zofia: nope, I report to Amara now, since May. the reorg shuffled everyone",
                                    "Astrid: how's Amara?",
                                    "Zofia: very organised, slightly scary lol"))]},
    {"d": "org", "c": "update", "q": "What is Carmen's role?", "cur": ["director of engineering"],
     "stale": ["engineering manager"], "cue": "was promoted to", "t": "on March 1",
     "caps": [("2024-06-10T09:00", ("Dmitri: who should I ask about the hiring plan?",
                                    "Esra: Carmen, she's the engineering manager for the platform group",
                                    "Dmitri: thanks")),
              ("2025-04-07T11:45", ("Dmitri: is Carmen still the platform EM?",
                                    "Esra: she was promoted to director of engineering on March 1, so Ilse is the EM now",
                                    "Dmitri: oh nice, good for her"))]},
    {"d": "org", "c": "update", "q": "Which team is Femi on?", "cur": ["Payments"],
     "stale": ["Search"], "cue": "moved to", "t": "last month", "upd": 1,
     "caps": [("2024-08-19T13:00", ("Gael: is Femi still on Search?",
                                    "Hamid: yep, Femi is on the Search team, he owns ranking",
                                    "Gael: ok I'll ping him")),
              ("2025-03-03T10:20", ("Gael: Femi didn't show up at search standup",
                                    "Hamid: he moved to the Payments team last month, didn't you see the announcement?",
                                    "Gael: I never read announcements lol",
                                    "Hamid: clearly")),
              ("2025-06-10T15:05", ("Gael: the new refund flow is so much better",
                                    "Hamid: that's Femi, he's loving it on Payments",
                                    "Gael: nice, I'll tell him at lunch"))]},
    {"d": "org", "c": "update", "q": "Which office does Ines work from?", "cur": ["Montréal"],
     "stale": ["Rotterdam"], "cue": "relocated to", "t": "in January",
     "caps": [("2025-05-05T09:00", ("Jonas: where does Ines sit?",
                                    "Kavya: Ines works from the Rotterdam office, third floor",
                                    "Jonas: ok")),
              ("2026-02-23T14:00", ("Jonas: I'm in Rotterdam next week, lunch with Ines?",
                                    "Kavya: she's not there anymore, she relocated to the Montréal office in January",
                                    "Jonas: whoa, didn't know",
                                    "Kavya: she loves the snow apparently"))]},
    {"d": "org", "c": "update", "q": "Who owns the marketing budget?", "cur": ["Mei"],
     "stale": ["Lars"], "cue": "took over as", "t": "two weeks ago",
     "caps": [("2024-10-01T10:30", ("Malik: who approves marketing spend?",
                                    "Nadia: Lars owns the marketing budget",
                                    "Malik: ok I'll send it to him")),
              ("2025-01-29T15:00", ("Malik: Lars says he can't approve my invoice?",
                                    "Nadia: right, Mei took over as owner of the marketing budget two weeks ago",
                                    "Malik: ugh ok, resending",
                                    "Nadia: she's quick, don't worry"))]},
    {"d": "org", "c": "update", "q": "Who is Brightmoor's payroll vendor?", "cur": ["Umbrella"],
     "stale": ["Initrode"], "cue": "switched from A to B", "t": "at the start of the year",
     "caps": [("2024-07-08T11:00", ("Oskar: who runs payroll for Brightmoor?",
                                    "Petra: Initrode, has for years",
                                    "Oskar: ok")),
              ("2025-02-12T09:30", ("Oskar: my payslip looks different??",
                                    "Petra: yeah, Brightmoor switched payroll from Initrode to Umbrella at the start of the year",
                                    "Oskar: ahh ok, new format",
                                    "Petra: the logo is uglier too lol"))]},
    {"d": "org", "c": "update", "q": "Who leads Project Ember?", "cur": ["Rania"],
     "stale": ["Quentin"], "cue": "now",
     "caps": [("2024-12-02T13:30", ("Sven: who leads Project Ember?",
                                    "Thandiwe: Quentin, ask him about the timeline",
                                    "Sven: thanks")),
              ("2025-06-18T10:00", ("Sven: Quentin told me to ask someone else about Ember?",
                                    "Thandiwe: right, Rania leads Project Ember now, Quentin moved to the infra side",
                                    "Sven: ok, pinging Rania"))]},
    {"d": "org", "c": "update", "q": "How many people are on the mobile team?", "cur": ["14"],
     "stale": ["9"], "cue": "increased to", "t": "this year",
     "caps": [("2025-02-14T09:30", ("Ugo: how big is the mobile team these days?",
                                    "Valentina: 9 people, including me",
                                    "Ugo: small but mighty")),
              ("2026-10-06T11:00", ("Ugo: the mobile standup is huge lately",
                                    "Valentina: yep, the mobile team increased to 14 people this year",
                                    "Ugo: you need a bigger room",
                                    "Valentina: we need a bigger everything lol"))]},
    {"d": "org", "c": "update", "q": "What is Wen's title?", "cur": ["principal engineer"],
     "stale": ["staff engineer"], "cue": "restatement",
     "caps": [("2024-03-13T10:00", ("Xavier: who's the best person for the caching design?",
                                    "Yusuf: Wen, she's a staff engineer on infra and knows the cache inside out",
                                    "Xavier: great")),
              ("2025-05-28T14:15", ("Xavier: can Wen review my RFC?",
                                    "Yusuf: probably. she's a principal engineer, so she's swamped, but ask",
                                    "Xavier: will do"))]},
    {"d": "org", "c": "update", "q": "What is the name of the team Gosia leads?",
     "cur": ["Acquisition"], "stale": ["Growth"], "cue": "renamed to", "t": "yesterday",
     "caps": [("2025-04-22T09:45", ("Zeynep: Gosia leads the Growth team, right?",
                                    "Aiko: yes, Growth, six people",
                                    "Zeynep: cool")),
              ("2025-11-12T16:00", ("Zeynep: I can't find the Growth channel",
                                    "Aiko: the Growth team was renamed to Acquisition yesterday, Gosia's idea",
                                    "Zeynep: lol ok",
                                    "Aiko: new channel is #acquisition"))]},
    {"d": "org", "c": "update", "q": "Who does Bilal report to?", "cur": ["Catalina"],
     "stale": ["Rafael"], "cue": "now reports to", "t": "last week",
     "caps": [("2024-09-24T12:00", ("Dev: who's Bilal's manager?",
                                    "Emeka: Rafael",
                                    "Dev: ok thx")),
              ("2025-03-19T10:40", ("Dev: I sent Bilal's expense report to Rafael and he bounced it",
                                    "Emeka: Bilal now reports to Catalina, it changed last week",
                                    "Dev: oh, resending"))]},
    {"d": "org", "c": "update", "q": "Where is Tessellate's headquarters?", "cur": ["Lisbon"],
     "stale": ["Tallinn"], "cue": "moved to", "t": "in October",
     "caps": [("2024-01-15T10:00", ("Farid: where's Tessellate headquartered?",
                                    "Greta: Tallinn, above a bakery, it's lovely",
                                    "Farid: cute")),
              ("2024-12-09T17:20", ("Farid: I sent a letter to the Tallinn address and it came back",
                                    "Greta: oh, Tessellate moved its headquarters to Lisbon in October",
                                    "Farid: damn, nobody tells me anything",
                                    "Greta: it was in the newsletter lol"))]},
    {"d": "org", "c": "update", "q": "Who leads Project Beacon?", "cur": ["Hamid"],
     "stale": ["Ilse"], "cue": "is back to", "t": "last week",
     "chain": [(0, "Hamid", None), (1, "Ilse", "in March"), (2, "Hamid", "last week")],
     "caps": [("2024-01-22T09:00", ("Joon: who leads Project Beacon?",
                                    "Kalani: Hamid, he started it",
                                    "Joon: ok")),
              ("2024-04-15T10:30", ("Joon: Hamid's out?",
                                    "Kalani: parental leave! Ilse took over as lead of Project Beacon in March",
                                    "Joon: oh congrats to him")),
              ("2024-10-02T13:00", ("Joon: who do I ask about Beacon these days?",
                                    "Kalani: Hamid is back on Project Beacon as lead since last week, Ilse went back to her own team",
                                    "Joon: 👍"))]},
    {"d": "org", "c": "update", "q": "Which office does Leilani work from?", "cur": ["Osaka"],
     "stale": ["Cape Town"], "cue": "started at", "t": "on 2025-09-01",
     "caps": [("2025-01-28T09:30", ("Malik: Leilani is in the Cape Town office, right?",
                                    "Nadia: yes, Cape Town, she runs the support desk there",
                                    "Malik: great")),
              ("2025-10-14T11:10", ("Malik: time zones with Leilani are weird lately",
                                    "Nadia: she started at the Osaka office on 2025-09-01, it's the new support hub",
                                    "Malik: ah that explains the 7am messages"))]},
    {"d": "org", "c": "update", "q": "What is Omar's role?", "cur": ["head of support"],
     "stale": ["support lead"], "cue": "took over as", "t": "earlier this year",
     "caps": [("2024-05-20T10:00", ("Oskar: who runs support these days?",
                                    "Petra: Noor is head of support, Omar is a support lead under her",
                                    "Oskar: ok")),
              ("2025-09-03T14:30", ("Oskar: is Noor still running support?",
                                    "Petra: no, she left. Omar took over as head of support earlier this year",
                                    "Oskar: good for Omar!",
                                    "Petra: he deserves it"))]},
    {"d": "org", "c": "update", "q": "Which team is Quentin on?", "cur": ["Security"],
     "stale": ["Platform"], "cue": "left X and joined Y", "t": "three days ago",
     "caps": [("2025-08-04T09:00", ("Rania: who's on platform these days?",
                                    "Sven: me and Quentin on the Platform team, plus two new folks",
                                    "Rania: nice")),
              ("2026-03-16T15:00", ("Rania: Quentin wasn't at platform sync",
                                    "Sven: he left the Platform team and joined Security three days ago",
                                    "Rania: oh, big change",
                                    "Sven: he's been wanting it for ages"))]},
    {"d": "org", "c": "update", "q": "Who supplies Initech's laptops?", "cur": ["Vandelay"],
     "stale": ["Hooli"], "cue": "replaced A with B",
     "caps": [("2024-02-05T11:00", ("Thandiwe: where do new hire laptops come from?",
                                    "Ugo: Hooli supplies all our laptops at Initech",
                                    "Thandiwe: ok")),
              ("2024-11-27T10:15", ("Thandiwe: the new laptops have a different sticker?",
                                    "Ugo: yeah, Initech replaced Hooli with Vandelay for laptops, better warranty",
                                    "Thandiwe: nice"))]},
    {"d": "org", "c": "update", "q": "How many people are on the support team?", "cur": ["6"],
     "stale": ["11"], "cue": "cut to", "t": "in June",
     "caps": [("2024-03-26T09:15", ("Valentina: how many in support now?",
                                    "Wen: 11 people on the support team, across two shifts",
                                    "Valentina: ok")),
              ("2024-08-13T13:40", ("Valentina: support response times are slipping",
                                    "Wen: the support team was cut to 6 people in June, what did they expect",
                                    "Valentina: ugh, sorry"))]},
    {"d": "org", "c": "update", "q": "What is Xavier's role?", "cur": ["head of operations"],
     "stale": ["chief of staff"], "cue": "no longer",
     "caps": [("2025-06-09T10:00", ("Yusuf: who's Xavier again?",
                                    "Zeynep: chief of staff, he runs the leadership offsite",
                                    "Yusuf: ah ok")),
              ("2026-08-25T12:30", ("Yusuf: can Xavier sign off the offsite budget?",
                                    "Zeynep: he's no longer chief of staff, he's head of operations, ask Aiko instead",
                                    "Yusuf: ok, thanks"))]},
    # ======================================================================== org, non-update
    {"d": "org", "c": "non-update", "q": "Who does Saanvi report to?", "cur": ["Daniel"],
     "nc": ["Lucía"], "cue": "other person",
     "caps": [("2025-02-11T10:00", ("Amara: who's Saanvi's manager?",
                                    "Bram: Daniel",
                                    "Amara: thx")),
              ("2025-05-06T16:00", ("Amara: saw the org chart update, is Saanvi under Lucía now?",
                                    "Bram: no, that was Kofi. Kofi now reports to Lucía, Saanvi is still with Daniel",
                                    "Amara: oh ok"))]},
    {"d": "org", "c": "non-update", "q": "Which office does Dmitri work from?", "cur": ["Berlin"],
     "nc": ["Lisbon"], "cue": "visited", "t": "last week",
     "caps": [("2024-06-03T10:00", ("Esra: where's Dmitri based?",
                                    "Farid: the Berlin office",
                                    "Esra: ok")),
              ("2024-09-10T09:30", ("Esra: Dmitri posted photos from the Lisbon office?",
                                    "Farid: yeah he visited the Lisbon office last week for the planning days, he's home in Berlin again",
                                    "Esra: jealous"))]},
    {"d": "org", "c": "non-update", "q": "Which team is Gael on?", "cur": ["Identity"],
     "nc": ["Checkout"], "cue": "helping another team",
     "caps": [("2025-03-17T10:00", ("Hamid: which team is Gael on?",
                                    "Ilse: Identity, he does the login flows",
                                    "Hamid: ok")),
              ("2025-04-02T14:00", ("Hamid: Gael is in every Checkout meeting lately",
                                    "Ilse: he's helping the Checkout team with their launch this week, then it's back to login stuff",
                                    "Hamid: ah ok"))]},
    {"d": "org", "c": "non-update", "q": "Who leads Project Atlas?", "cur": ["Kofi"],
     "nc": ["Lucía"], "cue": "demo by someone else", "t": "yesterday",
     "caps": [("2024-10-21T11:00", ("Joon: who runs Project Atlas?",
                                    "Kavya: Kofi leads Atlas",
                                    "Joon: ok")),
              ("2024-12-04T09:40", ("Joon: was that Lucía presenting Atlas at the all-hands?",
                                    "Kavya: yep, she gave the Project Atlas demo yesterday because Kofi was sick. he's still the lead",
                                    "Joon: she did great"))]},
    {"d": "org", "c": "non-update", "q": "What is Lars's role?", "cur": ["product lead"],
     "nc": ["VP of product"], "cue": "aspiration",
     "caps": [("2025-07-01T10:00", ("Mei: what's Lars's role?",
                                    "Nadia: he's the product lead for the app",
                                    "Mei: cool")),
              ("2025-10-22T19:20", ("Mei: Lars was talking about becoming VP of product at the offsite lol",
                                    "Nadia: he'd like to be VP of product someday, sure. for now he's very much the product lead",
                                    "Mei: ambition!"))]},
    # ============================================================================== org, many
    {"d": "org", "c": "many", "q": "Who is on the Search team?",
     "cur": ["Oskar", "Petra", "Quentin"], "cue": "joined", "t": "in August",
     "caps": [("2024-05-14T10:00", ("Rafael: who's on the Search team?",
                                    "Saoirse: Oskar and Petra, that's it",
                                    "Rafael: tiny")),
              ("2024-09-26T11:30", ("Rafael: still just two on Search?",
                                    "Saoirse: three! Quentin joined the Search team in August",
                                    "Rafael: nice"))]},
    {"d": "org", "c": "many", "q": "Where does Globex have offices?", "cur": ["Porto", "Kraków"],
     "cue": "opened", "t": "last year",
     "caps": [("2024-04-08T09:00", ("Sven: where does Globex have offices?",
                                    "Thandiwe: just Porto, the one by the river",
                                    "Sven: ok")),
              ("2026-01-20T10:00", ("Sven: is Globex still Porto-only?",
                                    "Thandiwe: no, they opened a second office in Kraków last year, Porto is still HQ",
                                    "Sven: didn't know"))]},
    {"d": "org", "c": "many", "q": "Which projects does Ugo lead?", "cur": ["Driftwood", "Fjord"],
     "cue": "also",
     "caps": [("2025-05-12T10:00", ("Valentina: what's Ugo working on?",
                                    "Wen: he leads Project Driftwood",
                                    "Valentina: ok")),
              ("2025-09-09T15:00", ("Valentina: Ugo looks stressed",
                                    "Wen: he now also leads Project Fjord, on top of Driftwood",
                                    "Valentina: that'll do it"))]},
    {"d": "org", "c": "many", "q": "Who sits on the hiring committee?",
     "cur": ["Xavier", "Yusuf", "Aiko"], "cue": "added", "t": "two weeks ago",
     "chain": [(0, ["Xavier", "Yusuf"], None), (1, ["Xavier", "Yusuf", "Aiko"], "two weeks ago")],
     "caps": [("2024-11-04T10:00", ("Zeynep: who's on the hiring committee?",
                                    "Aiko: Xavier and Yusuf",
                                    "Zeynep: ok")),
              ("2025-03-25T11:30", ("Zeynep: can you review this candidate?",
                                    "Aiko: sure, I was added to the hiring committee two weeks ago, so I'm official now lol",
                                    "Zeynep: welcome aboard"))]},
    {"d": "org", "c": "many", "q": "Which accounts does Bilal manage?",
     "cur": ["Umbrella", "Hooli", "Soylent"], "cue": "took on", "t": "in May",
     "caps": [("2025-01-13T10:00", ("Catalina: which accounts does Bilal manage?",
                                    "Dev: Umbrella and Hooli",
                                    "Catalina: ok")),
              ("2025-07-07T09:00", ("Catalina: who's the Soylent account manager?",
                                    "Dev: Bilal took on Soylent in May, he still has Umbrella and Hooli too",
                                    "Catalina: busy guy"))]},
    # =========================================================================== org, negated
    {"d": "org", "c": "negated", "q": "What is Emeka's title?", "cur": ["staff engineer"],
     "nc": ["principal engineer"], "cue": "did not go through",
     "caps": [("2024-07-22T10:00", ("Freya: what level is Emeka?",
                                    "Greta: staff engineer",
                                    "Freya: ok")),
              ("2025-01-31T14:00", ("Freya: did Emeka get principal?",
                                    "Greta: no, the promotion to principal engineer didn't go through this cycle, he's still a staff engineer",
                                    "Freya: oof, next time"))]},
    {"d": "org", "c": "negated", "q": "Who does Hiro report to?", "cur": ["Ines"],
     "nc": ["Jonas"], "cue": "cancelled",
     "caps": [("2025-04-14T10:00", ("Joon: who does Hiro report to?",
                                    "Kavya: Ines",
                                    "Joon: thx")),
              ("2025-06-30T16:45", ("Joon: is Hiro moving under Jonas?",
                                    "Kavya: that reorg was cancelled, Hiro still reports to Ines",
                                    "Joon: ok good to know"))]},
    {"d": "org", "c": "negated", "q": "Which office does Kalani work from?", "cur": ["Rotterdam"],
     "nc": ["Nairobi"], "cue": "called off",
     "caps": [("2024-02-12T09:00", ("Lars: Kalani is in the Rotterdam office, right?",
                                    "Mei: yes",
                                    "Lars: and she's moving?",
                                    "Mei: maybe to Nairobi, not decided")),
              ("2024-06-05T15:15", ("Lars: when does Kalani move to Nairobi?",
                                    "Mei: she doesn't, the relocation was called off. she's staying in Rotterdam",
                                    "Lars: oh, ok"))]},
    {"d": "org", "c": "negated", "q": "Who is Contoso's travel booking vendor?",
     "cur": ["Acme Travel"], "nc": ["Hooli"], "cue": "decided not to",
     "caps": [("2024-09-16T10:00", ("Malik: who do we book travel through at Contoso?",
                                    "Nadia: Acme Travel",
                                    "Malik: ok")),
              ("2024-10-21T11:00", ("Malik: heard Contoso is moving travel booking to Hooli?",
                                    "Nadia: maybe, procurement is comparing quotes",
                                    "Malik: ok")),
              ("2024-12-02T09:30", ("Malik: so is it Hooli now?",
                                    "Nadia: no, Contoso decided not to switch travel booking to Hooli after all, we're staying with Acme Travel",
                                    "Malik: fine by me"))]},
    {"d": "org", "c": "negated", "q": "Who leads Project Cobalt?", "cur": ["Omar"],
     "nc": ["Petra"], "cue": "declined",
     "caps": [("2025-08-18T10:00", ("Oskar: who leads Project Cobalt?",
                                    "Petra: Omar",
                                    "Oskar: thx")),
              ("2025-10-27T13:20", ("Oskar: I heard you're taking over Cobalt??",
                                    "Petra: they asked, I said no lol. Omar is staying on as lead",
                                    "Oskar: fair enough"))]},
)


# --------------------------------------------------------------------------------------------
# Assembly, split, self-check
# --------------------------------------------------------------------------------------------


def _probe_spec(p: dict) -> dict:
    spec = {"domain": p["d"], "style": "plain", "case": "update", "caps": p["caps"],
            "q": p["q"], "current": p["cur"], "stale": p["stale"], "cue": p["cue"],
            "time": p.get("t"), "probe": True}
    if "as_of" in p:
        spec["as_of"] = p["as_of"]
    return spec


def _chat_spec(c: dict) -> dict:
    spec = {"domain": c["d"], "style": "chat", "case": c["c"],
            "caps": [(ts, "\n".join(lines)) for ts, lines in c["caps"]], "q": c["q"],
            "current": c["cur"], "stale": c.get("stale", []), "cue": c["cue"],
            "time": c.get("t")}
    if "nc" in c:
        spec["not_current"] = c["nc"]
    for key in ("upd", "chain", "transient"):
        if key in c:
            spec[key] = c[key]
    return spec


def _assign_splits(rows: list[dict]) -> None:
    """About 40% held-out in every domain x case x style cell, picked by a hash of the id;
    the probe examples always stay in dev."""
    cells: dict[tuple, list[dict]] = {}
    for row in rows:
        cells.setdefault((row["domain"], row["case"], row["style"]), []).append(row)
    for members in cells.values():
        n = len(members)
        held = min(max(1, round(0.4 * n)), n - 1)
        order = sorted(members, key=lambda r: hashlib.sha256(r["id"].encode()).hexdigest())
        candidates = [r for r in order if not r["_probe"]]
        chosen = {r["id"] for r in candidates[:held]}
        for row in members:
            row["split"] = "held-out" if row["id"] in chosen else "dev"


KEY_ORDER = ("id", "split", "domain", "style", "case", "captures", "question", "current", "stale",
             "not_current", "as_of", "event_time", "cue", "time_phrase")


def build() -> list[dict]:
    rnd = random.Random(SEED)
    specs = [_probe_spec(p) for p in PROBES] + [_chat_spec(c) for c in CHATS]
    cue_counts: dict[str, int] = {}
    for spec in specs:
        if spec["case"] == "update":
            cue_counts[spec["cue"]] = cue_counts.get(spec["cue"], 0) + 1
    specs += template_specs(rnd, cue_counts)
    rows = []
    for index, spec in enumerate(specs, 1):
        row = finalize(spec, rnd)
        row["id"] = f"ku-{index:04d}"
        rows.append(row)
    _assign_splits(rows)
    return [{k: row[k] for k in KEY_ORDER if k in row} | {"_probe": row["_probe"]} for row in rows]


CUE_PATTERNS = {
    "now": r"\bnow\b", "moved to": r"\bmoved\b.*\bto\b", "relocated to": r"\brelocated\b.*\bto\b",
    "left X and joined Y": r"\bleft\b.*\bjoined\b", "joined": r"\bjoined\b",
    "started at": r"\bstarted at\b", "was upgraded to": r"\bwas upgraded to\b",
    "upgraded from A to B": r"\bupgraded\b.*\bfrom\b.*\bto\b", "raised to": r"\braised\b.*\bto\b",
    "bumped to": r"\bbumped\b.*\bto\b", "increased to": r"\bincreased\b.*\bto\b",
    "cut to": r"\bcut\b.*\bto\b", "reduced to": r"\breduced\b.*\bto\b",
    "dropped to": r"\bdropped\b.*\bto\b", "switched from A to B": r"\bswitched\b.*\bfrom\b.*\bto\b",
    "switched to": r"\bswitched\b.*\bto\b", "renamed to": r"\brenamed\b.*\bto\b",
    "replaced A with B": r"\breplaced\b.*\bwith\b",
    "migrated from A to B": r"\bmigrated\b.*\bfrom\b.*\bto\b", "no longer": r"\bno longer\b",
    "after all": r"\bafter all\b", "was promoted to": r"\bpromoted to\b",
    "took over as": r"\btook over as\b",
    "now reports to": r"\bnow reports? to\b|\breports? to\b.*\bnow\b",
    "changed to": r"\bchanged to\b", "is back to": r"(\bis|\bare|'s|'re|'m) back (to|on|in)\b",
    "restatement": r"",
}
REQUIRED_TIMES = ("in March", "in January", "named month, previous year", "last month",
                  "last week", "yesterday", "two weeks ago", "three days ago", "since October",
                  "on Month D", "on YYYY-MM-DD", "this year", "last year", "earlier this year",
                  "at the start of the year")


def time_kind(phrase: str, said: str) -> str:
    p = phrase.lower()
    m = re.fullmatch(r"(in|since) (\w+)", p)
    if m and _month_named(m.group(2)):
        if p == "since october":
            return "since October"
        if m.group(1) == "since":
            return "since Month"
        if _month_named(m.group(2)) > _ts(said).month:
            return "named month, previous year"
        return {"in march": "in March", "in january": "in January"}.get(p, "in Month")
    if re.fullmatch(r"on \d{4}-\d{2}-\d{2}", p):
        return "on YYYY-MM-DD"
    if re.fullmatch(r"on \w+ \d{1,2}", p):
        return "on Month D"
    return p


def _in_text(value: str, texts: list[str]) -> bool:
    pattern = r"(?<!\w)" + re.escape(value.lower()) + r"(?!\w)"
    return any(re.search(pattern, t.lower()) for t in texts)


def _values(v) -> list[str]:
    return v if isinstance(v, list) else [v]


def check(rows: list[dict]) -> None:
    n = len(rows)
    assert n >= 240, n
    ids = [r["id"] for r in rows]
    assert len(set(ids)) == n and ids == [f"ku-{i:04d}" for i in range(1, n + 1)]
    assert len({(tuple(c["text"] for c in r["captures"]), r["question"]) for r in rows}) == n
    share = lambda pred: sum(1 for r in rows if pred(r)) / n  # noqa: E731
    assert share(lambda r: r["style"] == "chat") >= 0.35
    assert 0.50 <= share(lambda r: r["case"] == "update") <= 0.60
    for case in ("non-update", "many", "negated"):
        assert 0.12 <= share(lambda r, c=case: r["case"] == c) <= 0.18, case
    for domain in DOMAINS:
        assert 0.28 <= share(lambda r, d=domain: r["domain"] == d) <= 0.39, domain
    assert 0.55 <= share(lambda r: r["split"] == "dev") <= 0.65
    assert 0.15 <= share(lambda r: len(r["captures"]) >= 3) <= 0.30
    for domain in DOMAINS:
        for case in CASES:
            for style in STYLES:
                splits = {r["split"] for r in rows
                          if (r["domain"], r["case"], r["style"]) == (domain, case, style)}
                assert splits == {"dev", "held-out"}, (domain, case, style, splits)
    updates = [r for r in rows if r["case"] == "update"]
    assert 0.60 <= sum(1 for r in updates if r["time_phrase"]) / len(updates) <= 0.80
    cue_rows: dict[str, list[dict]] = {}
    times: dict[str, int] = {}
    for r in rows:
        texts = [c["text"] for c in r["captures"]]
        stamps = [c["said_at"] for c in r["captures"]]
        assert 2 <= len(texts) <= 4, r["id"]
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps), r["id"]
        for s in stamps:
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", s), s
            assert FIRST_DAY <= _ts(s).date() <= LAST_DAY, (r["id"], s)
        for key in ("current", "stale", "not_current"):
            for value in r.get(key, []):
                assert _in_text(value, texts), (r["id"], key, value)
        for cur in r["current"]:
            for other in r["stale"] + r.get("not_current", []):
                assert not _clash(cur, other), (r["id"], cur, other)
        assert r["as_of"], r["id"]
        for item in r["as_of"]:
            start, end = period(item["at"])  # parses, or raises
            assert re.fullmatch(r"\d{4}(-\d\d(-\d\d)?)?", item["at"]), item
            assert _ts(stamps[0]).date() < start and end <= LAST_DAY, (r["id"], item)
            for value in _values(item["value"]):
                assert _in_text(value, texts), (r["id"], item)
        assert [a["at"] for a in r["as_of"]] == sorted(
            (a["at"] for a in r["as_of"]), key=lambda at: period(at)[0]), r["id"]
        held = [item["value"] for item in r["as_of"]]
        if r["case"] == "update":
            assert r["stale"] and not r.get("not_current"), r["id"]
            assert any(v in r["stale"] for v in held) and r["current"][0] in held, r["id"]
            assert held[-1] == r["current"][0], r["id"]
        elif r["case"] == "many":
            assert len(r["current"]) >= 2 and r["stale"] == [], r["id"]
            assert _values(held[-1]) == r["current"], r["id"]
            assert set(_values(held[0])) < set(r["current"]), r["id"]
        else:
            assert r["stale"] == [] and r["not_current"], r["id"]
            assert all(v == r["current"][0] for v in held), r["id"]
        if r["time_phrase"]:
            assert any(r["time_phrase"] in t for t in texts), r["id"]
        if r["case"] in ("update", "many"):
            assert ("event_time" in r) == bool(r["time_phrase"]), r["id"]
        else:
            assert "event_time" not in r, r["id"]
        if "event_time" in r:
            et = r["event_time"]
            assert et["phrase"] == r["time_phrase"]
            said = next(c["said_at"] for c in r["captures"] if et["phrase"] in c["text"])
            assert resolve(et["phrase"], _ts(said))[0] == et["at"]
            period(et["at"])
        if r["case"] == "update":
            cue_rows.setdefault(r["cue"], []).append(r)
            pattern = CUE_PATTERNS[r["cue"]]
            assert any(re.search(pattern, t, re.I) and _in_text(r["current"][0], [t])
                       for t in texts), (r["id"], r["cue"])
            if r["time_phrase"]:
                said = next(c["said_at"] for c in r["captures"] if r["time_phrase"] in c["text"])
                kind = time_kind(r["time_phrase"], said)
                times[kind] = times.get(kind, 0) + 1
        if r["style"] == "chat":
            assert not re.search(r"\b(I|we|We|my|My|our|Our|me|us)\b", r["question"]), r["id"]
            for text in texts:
                lines = text.split("\n")
                assert len(lines) >= 2, r["id"]
                assert all(re.match(r"^[A-Z][\w\-]+: \S", line) for line in lines), r["id"]
                assert len({line.split(":")[0] for line in lines}) >= 2, r["id"]
        else:
            assert all("\n" not in t and not re.match(r"^[A-Z]\w+: ", t) for t in texts), r["id"]
        assert r["question"].endswith("?"), r["id"]
    for cue in CUE_PATTERNS:
        found = cue_rows.get(cue, [])
        assert len(found) >= 3, (cue, len(found))
        if cue != "now reports to":  # reporting lines are an org property
            assert len({r["domain"] for r in found}) >= 2, cue
    for kind in REQUIRED_TIMES:
        assert times.get(kind, 0) >= 2, (kind, times.get(kind, 0))
    probes = [r for r in rows if r["_probe"]]
    assert len(probes) == len(PROBES) and all(r["split"] == "dev" for r in probes)


def fixture_rows(rows: list[dict]) -> list[dict]:
    """14 rows for unit tests: every domain x case once (style alternating, split alternating),
    plus an 'is back to' chain and a plain three-capture update."""
    picked: list[dict] = []
    for i, (domain, case) in enumerate((d, c) for d in DOMAINS for c in CASES):
        style = STYLES[(i + DOMAINS.index(domain)) % 2]
        split = ("dev", "held-out")[(i // 2) % 2]
        cell = [r for r in rows if (r["domain"], r["case"], r["style"]) == (domain, case, style)]
        picked.append(next((r for r in cell if r["split"] == split), cell[0]))
    picked.append(next(r for r in rows if r["cue"] == "is back to" and r["style"] == "chat"))
    picked.append(next(r for r in rows if r["style"] == "plain" and r["case"] == "update"
                       and len(r["captures"]) == 3 and "event_time" in r))
    assert len({r["id"] for r in picked}) == 14
    return sorted(picked, key=lambda r: r["id"])


def _dump(rows: list[dict]) -> str:
    return "".join(json.dumps({k: v for k, v in r.items() if k != "_probe"}, ensure_ascii=False)
                   + "\n" for r in rows)


def main() -> None:
    rows = build()
    check(rows)
    OUT.write_text(_dump(rows), encoding="utf-8")
    FIXTURE.write_text(_dump(fixture_rows(rows)), encoding="utf-8")
    print(f"wrote {len(rows)} scenarios to {OUT} and 14 to {FIXTURE}")


if __name__ == "__main__":
    main()
