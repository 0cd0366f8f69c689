"""Benchmark the entity layer's cost: what resolving mentions adds to a write, whether it
grows with the registry, and what its reads cost.

Run from the project root::

    .venv/bin/python evals/perf/bench_entities.py                 # ~9 minutes
    .venv/bin/python evals/perf/bench_entities.py --captures 200 --rounds 2 --prefill 600

The stream is generated and extracted by a scripted extractor (each capture's facts are
prepared in advance, so extraction costs nothing and is the same in every arm): 400
captures about 150 people, 40 organisations and 30 projects, each capture one or two
facts, each fact two or three mentions (full names, first names, nicknames, surnames,
titles, one-vowel misspellings) and at most one relation (works_at, reports_to,
member_of, maintains). Two arms write the same texts and facts:

- ``on``: the facts with their mentions, relations and name-like subjects, so the entity
  stage (factstore/store/entity_stage.py) resolves every mention inside the capture's
  transaction;
- ``off``: the same facts with mentions and relations stripped and the subject written in
  lower case (the same subject key, but no longer read as a name, so no mention): the
  entity stage has nothing to do.

Each arm runs on two registries: ``small`` (a fresh database: the registry is what the
stream itself creates, ~220 entities) and ``grown`` (a copy of a database that already
was filled once per run by ``remember_many`` of generated captures naming 3,400 other
people, 900 organisations and 700 projects, ~5,000 names sharing the stream's given names
and name keys; the registry ends with more entities than names when resolution splits a
name, and the setup reports how many). ``remember`` is timed per capture (one durable transaction
each; median and p95 per pass) and ``remember_many`` (batches of 64) as a total. The
entity stage's added cost is on minus off, per capture and per mention.

Reads, on the grown registry after the stream was written (and on the small one):
``Store.neighbours`` at depth 1, 2 and 3 from the stream's people, organisations and
projects; ``Store.recall`` p50 with ``recall_neighbours=0`` and ``=5`` (two stores on one
database, queries alternated); and ``Store.refresh_profiles`` throughput, with the real
embedder (profile texts are embedded by MiniLM, and that time is reported apart).

Embedding is otherwise taken out of the measurement: a setup child embeds every capture,
statement and query once with the local MiniLM model and saves the vectors, and the
measured passes use an embedder that answers from that file (only profile texts miss it).
The file is kept under ``--home`` and reused by the next run (the first run spends ~2.5
minutes embedding).

This machine's speed drifts by up to 2x over minutes (shared CPUs), so every arm runs in
each round in a child process of its own, in an order that alternates between rounds, and
the figures are medians over every round's passes. Results go to
evals/perf/results/bench_entities.json; docs/performance.md ("The entity layer's cost")
explains them. Not a test: nothing is asserted. Store methods only (the databases are
made and copied with factstore.store.server's helpers).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from factstore.entities.names import NICKNAMES, normalise  # noqa: E402
from factstore.extractors.base import ExtractedFact, ExtractionContext  # noqa: E402

RESULTS = HERE.parent / "results" / "bench_entities.json"
TEMPLATE = "bench_entities_grown"
ARMS = ("on", "off")
REGISTRIES = ("small", "grown")

GIVEN = (
    "Robert", "William", "Elizabeth", "Katherine", "James", "Michael", "Thomas", "Richard",
    "Daniel", "David", "Joseph", "Samuel", "Alexander", "Christopher", "Matthew", "Nicholas",
    "Anthony", "Andrew", "Steven", "Edward", "Benjamin", "Gregory", "Jennifer", "Jessica",
    "Margaret", "Patricia", "Susan", "Victoria", "Rebecca", "Abigail", "Gabriel", "Henry",
    "John", "Jonathan", "Nathan", "Peter", "Philip", "Raymond", "Timothy", "Walter",
    "Charles", "Donald", "Emily", "Oliver", "Theodore", "Vincent", "Kenneth", "Leonard",
    "Priya", "Mei", "Ana", "Lucia", "Omar", "Yusuf", "Ingrid", "Hana", "Kofi", "Amara",
    "Diego", "Sofia", "Arjun", "Nadia", "Tariq", "Leila", "Mateo", "Elena", "Ravi", "Zara",
    "Felix", "Greta", "Hugo", "Iris", "Jonas", "Klara", "Lars", "Mira", "Noah", "Olga",
)
_GIVEN_NICKS: dict[str, list[str]] = {}
for _nick, _given in NICKNAMES.items():
    if len(_nick) >= 3:
        _GIVEN_NICKS.setdefault(_given, []).append(_nick.capitalize())
ORG_SUFFIXES = ("Labs", "Systems", "Partners", "Works", "Health", "Logistics", "Analytics",
                "Foundation", "Studio", "Robotics")
RELATION_TEMPLATES = ("works_at", "reports_to", "member_of", "maintains")


def _words(rng: random.Random, n: int, syllables: tuple[int, ...], taken: set[str]) -> list[str]:
    """n pronounceable made-up words, none in ``taken`` (which they join)."""
    onsets = ("b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "pr",
              "r", "s", "st", "t", "tr", "v", "w", "z", "sh", "th", "ch")
    vowels = ("a", "e", "i", "o", "u", "ai", "ou", "ea")
    codas = ("", "", "n", "r", "l", "s", "k", "m", "nd", "st", "rk", "lt")
    out: list[str] = []
    while len(out) < n:
        word = "".join(rng.choice(onsets) + rng.choice(vowels) + rng.choice(codas)
                       for _ in range(rng.choice(syllables)))
        if 5 <= len(word) <= 11 and word not in taken:
            taken.add(word)
            out.append(word.capitalize())
    return out


def populations(people: int, orgs: int, projects: int, prefill: tuple[int, int, int],
                seed: int = 11) -> tuple[dict, dict]:
    """The stream's population and the prefill's: people as (given, surname), organisations,
    projects; the two share given names and surnames but no full name."""
    rng = random.Random(seed)
    taken: set[str] = {g.lower() for g in GIVEN}
    surnames = _words(rng, 320, (2, 2, 3), taken)
    org_words = _words(rng, orgs + prefill[1], (2, 3), taken)
    project_words = _words(rng, projects + prefill[2], (2, 3), taken)
    pairs = [(g, s) for g in GIVEN for s in surnames]
    rng.shuffle(pairs)
    stream = {"people": pairs[:people],
              "orgs": [f"{w} {rng.choice(ORG_SUFFIXES)}" for w in org_words[:orgs]],
              "projects": project_words[:projects]}
    filler = {"people": pairs[people:people + prefill[0]],
              "orgs": [f"{w} {rng.choice(ORG_SUFFIXES)}" for w in org_words[orgs:]],
              "projects": project_words[projects:]}
    return stream, filler


def _misspelt(word: str, rng: random.Random) -> str:
    """One inner vowel changed: the Soundex key and most of the spelling stay."""
    inner = [i for i in range(1, len(word) - 1) if word[i] in "aeiou"]
    if not inner:
        return word
    i = rng.choice(inner)
    return word[:i] + rng.choice([v for v in "aeiou" if v != word[i]]) + word[i + 1:]


def _person_form(person: tuple[str, str], rng: random.Random) -> str:
    given, surname = person
    nicks = _GIVEN_NICKS.get(given.lower(), [])
    roll = rng.random()
    if roll < 0.40:
        return f"{given} {surname}"
    if roll < 0.55:
        return given
    if roll < 0.65 and nicks:
        return f"{rng.choice(nicks)} {surname}"
    if roll < 0.70 and nicks:
        return rng.choice(nicks)
    if roll < 0.80:
        return f"{given} {_misspelt(surname, rng)}"
    if roll < 0.88:
        return f"Dr. {given} {surname}"
    if roll < 0.95:
        return surname
    return f"{_misspelt(given, rng)} {surname}"


class Stream:
    """Generates captures: texts and, for each, the extracted facts of both arms."""

    def __init__(self, population: dict, seed: int, variants: bool, full: bool = False) -> None:
        self.rng = random.Random(seed)
        self.pop = population
        self.variants = variants
        #: every fact names a person, their organisation and their project (the prefill)
        self.full = full
        self.seen: set[str] = set()
        rng = self.rng
        people = population["people"]
        self.employer = {p: rng.choice(population["orgs"]) for p in people}
        self.manager = {p: rng.choice(people) for p in people}
        self.project = {p: rng.choice(population["projects"]) for p in people}
        self.mentions = 0
        self.relations = 0

    def name(self, kind: str, entity: object) -> str:
        """The entity's canonical name the first time, a variant afterwards."""
        full = f"{entity[0]} {entity[1]}" if kind == "Person" else str(entity)  # type: ignore[index]
        if full not in self.seen or not self.variants:
            self.seen.add(full)
            return full
        if kind == "Person":
            return _person_form(entity, self.rng)  # type: ignore[arg-type]
        if kind == "Organization" and self.rng.random() < 0.2:
            return full.rsplit(" ", 1)[0]  # "Corvana" of "Corvana Labs"
        if self.rng.random() < 0.1:
            return _misspelt(full, self.rng)
        return full

    def fact(self, person: tuple[str, str], n: int) -> tuple[ExtractedFact, ExtractedFact]:
        """One fact about ``person`` (on, off)."""
        rng = self.rng
        org, boss, project = self.employer[person], self.manager[person], self.project[person]
        if boss == person:
            boss = self.pop["people"][(self.pop["people"].index(person) + 1)
                                      % len(self.pop["people"])]
        third = self.full or rng.random() < 0.5
        p = self.name("Person", person)
        template = (rng.choice(("works_at", "maintains")) if self.full else
                    rng.choice(RELATION_TEMPLATES) if rng.random() < 0.6 else None)
        kind = "STATE"
        if template == "works_at":
            o = self.name("Organization", org)
            parts, mentions = [f"{p} works at {o}"], [(p, "Person"), (o, "Organization")]
            relation = (p, "works_at", o)
            if third:
                j = self.name("Project", project)
                parts.append(f" on {j}")
                mentions.append((j, "Project"))
        elif template == "reports_to":
            q = self.name("Person", boss)
            parts, mentions = [f"{p} reports to {q}"], [(p, "Person"), (q, "Person")]
            relation = (p, "reports_to", q)
            if third:
                o = self.name("Organization", org)
                parts.append(f" at {o}")
                mentions.append((o, "Organization"))
        elif template == "member_of":
            j = self.name("Project", project)
            parts, mentions = [f"{p} is a member of the {j} team"], [(p, "Person"),
                                                                    (j, "Project")]
            relation = (p, "member_of", j)
            if third:
                q = self.name("Person", boss)
                parts.append(f" with {q}")
                mentions.append((q, "Person"))
        elif template == "maintains":
            j = self.name("Project", project)
            parts, mentions = [f"{p} maintains {j}"], [(p, "Person"), (j, "Project")]
            relation = (p, "maintains", j)
            if third:
                o = self.name("Organization", org)
                parts.append(f" for {o}")
                mentions.append((o, "Organization"))
        else:
            kind = "EVENT"
            q = self.name("Person", boss)
            parts, mentions = [f"{p} met {q}"], [(p, "Person"), (q, "Person")]
            if third:
                j = self.name("Project", project)
                parts.append(f" about {j}")
                mentions.append((j, "Project"))
            parts.append(f" on day {n % 97}")
            relation = None
        quote = "".join(parts)
        norms = [normalise(m) for m, _ in mentions]
        if len(set(norms)) < len(norms) or any(not x for x in norms):
            # two variants that normalise alike ("Priya" and "Priya"): use full names
            self.variants, saved = False, self.variants
            try:
                return self.fact(person, n)
            finally:
                self.variants = saved
        self.mentions += len(mentions)
        self.relations += relation is not None
        on = ExtractedFact(statement=quote + ".", kind=kind, quote=quote, subject=p,
                           mentions=tuple(mentions),
                           relations=(relation,) if relation else ())
        off = ExtractedFact(statement=quote + ".", kind=kind, quote=quote, subject=p.lower())
        return on, off

    def captures(self, n: int | None, order: list | None = None,
                 source: str = "chat") -> list[dict]:
        """n captures of one or two facts (None: until ``order`` is used up); ``order``
        names each fact's person (then random)."""
        out = []
        queue = list(order or [])
        i = 0
        while (i < n) if n is not None else queue:
            facts = []
            for _ in range(1 if self.rng.random() < 0.5 else 2):
                person = queue.pop(0) if queue else self.rng.choice(self.pop["people"])
                facts.append(self.fact(person, i * 2 + len(facts)))
            text = " ".join(on.statement for on, _ in facts)
            out.append({"text": text, "source_ref": f"{source}:{i % 60}",
                        "captured_at": f"2026-03-{1 + i // 1440 % 28:02d}T{i // 60 % 24:02d}:"
                                       f"{i % 60:02d}:00Z",
                        "on": [on for on, _ in facts], "off": [off for _, off in facts]})
            i += 1
        return out


def stream_captures(n: int) -> tuple[list[dict], dict]:
    """The timed stream and its counts (mentions, relations, facts)."""
    pop, _ = populations(150, 40, 30, (0, 0, 0))
    gen = Stream(pop, seed=21, variants=True)
    order = list(pop["people"])
    random.Random(3).shuffle(order)
    caps = gen.captures(n, order=order)
    facts = sum(len(c["on"]) for c in caps)
    return caps, {"captures": n, "facts": facts, "mentions": gen.mentions,
                  "relations": gen.relations, "names_mentioned": len(gen.seen)}


def prefill_captures(people: int) -> list[dict]:
    """Captures that fill the registry: every filler person once (full names), with their
    organisation and project, so ~people + orgs + projects entities."""
    orgs, projects = max(1, people * 900 // 3400), max(1, people * 700 // 3400)
    _, pop = populations(150, 40, 30, (people, orgs, projects))
    gen = Stream(pop, seed=31, variants=False, full=True)
    # each filler org and project reached by someone: the first people work on them in order
    for i, person in enumerate(pop["people"]):
        gen.employer[person] = pop["orgs"][i % len(pop["orgs"])]
        gen.project[person] = pop["projects"][i % len(pop["projects"])]
    return gen.captures(None, order=list(pop["people"]), source="seed")


def queries(n: int = 24) -> list[str]:
    pop, _ = populations(150, 40, 30, (0, 0, 0))
    rng = random.Random(8)
    out = []
    for i in range(n):
        given, surname = pop["people"][i * 5 % len(pop["people"])]
        out.append(rng.choice((
            f"Where does {given} {surname} work?", f"Who does {given} report to?",
            f"What does {given} {surname} maintain?", f"Who works at {pop['orgs'][i % 40]}?",
            f"Who is on the {pop['projects'][i % 30]} team?")))
    return out


class ScriptedExtractor:
    """Returns the facts prepared for a text (the arm's), nothing for any other text."""

    name = "scripted/bench-entities"

    def __init__(self, captures: list[dict], arm: str) -> None:
        self.script = {c["text"]: list(c[arm]) for c in captures}

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        return list(self.script.get(text, []))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


# -- children ----------------------------------------------------------------------------------


def _embedder(cache: Path):  # noqa: ANN202 - the class is local (numpy import deferred)
    import numpy as np

    from factstore.embedders.local import LocalEmbedder

    class CachedEmbedder:
        """Answers from the setup's vectors; a miss (or everything, in ``passthrough``) is
        embedded by MiniLM, and that time is counted."""

        def __init__(self) -> None:
            self.inner = LocalEmbedder()
            self.name, self.dim = self.inner.name, self.inner.dim
            self.cache: dict[str, np.ndarray] = {}
            self.passthrough = False
            self.model_seconds = 0.0
            self.misses = 0
            if cache.exists():
                texts = json.loads(cache.with_suffix(".json").read_text())
                self.cache = dict(zip(texts, np.load(cache), strict=True))

        def _model(self, texts: list[str]) -> np.ndarray:
            started = time.perf_counter()
            vectors = np.asarray(self.inner.embed(texts), dtype=np.float32)
            self.model_seconds += time.perf_counter() - started
            self.misses += len(texts)
            return vectors

        def embed(self, texts: list[str]) -> np.ndarray:
            if self.passthrough:
                return self._model(list(texts))
            missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
            if missing:
                self.cache.update(zip(missing, self._model(missing), strict=True))
            return (np.stack([self.cache[t] for t in texts]) if texts
                    else np.zeros((0, self.dim), dtype=np.float32))

        def save(self) -> None:
            texts = list(self.cache)
            np.save(cache, np.stack([self.cache[t] for t in texts]))
            cache.with_suffix(".json").write_text(json.dumps(texts))

    return CachedEmbedder()


def _open(admin: str, name: str, embedder, extractor, settings=None):  # noqa: ANN001, ANN202
    from factstore import Store
    from factstore.settings import Settings
    from factstore.store import server

    return Store.open(server.with_database(admin, name), embedder=embedder,
                      extractor=extractor, settings=settings or Settings())


def child_setup(args: argparse.Namespace, admin: str, cache: Path) -> dict:
    """Embed everything once (saved for the measured children) and build the grown
    registry's template database."""
    from factstore.store import server

    embedder = _embedder(cache)
    out: dict = {}
    fill = prefill_captures(args.prefill)
    server.drop_database(admin, TEMPLATE)
    server.ensure_database(admin, TEMPLATE)
    started = time.perf_counter()
    with _open(admin, TEMPLATE, embedder, ScriptedExtractor(fill, "on")) as store:
        store.remember_many([_capture(c) for c in fill], batch_size=64)
        out["prefill"] = {"captures": len(fill), "seconds": round(time.perf_counter() - started, 1),
                          "entities": len(store.entities(limit=100_000)),
                          "facts": store.row_counts()["facts"]}
    caps, _ = stream_captures(args.captures)
    scratch = f"bench_entities_setup_{os.getpid()}"
    server.drop_database(admin, scratch)
    server.ensure_database(admin, scratch)
    with _open(admin, scratch, embedder, ScriptedExtractor(caps, "on")) as store:
        store.remember_many([_capture(c) for c in caps], batch_size=64)
    server.drop_database(admin, scratch)
    embedder.embed(queries())
    embedder.save()
    out["embedded"] = embedder.misses
    out["embed_seconds"] = round(embedder.model_seconds, 1)
    return out


def _capture(c: dict) -> dict:
    return {k: c[k] for k in ("text", "source_ref", "captured_at")}


def _fresh(admin: str, name: str, registry: str) -> None:
    from factstore.store import server

    if registry == "grown":
        server.copy_database(admin, TEMPLATE, name)
    else:
        server.drop_database(admin, name)
        server.ensure_database(admin, name)


def child_write(args: argparse.Namespace, admin: str, cache: Path) -> dict:
    """One arm on one registry: ``passes`` passes of remember (per capture) and
    remember_many, each into a fresh database."""
    from factstore.store import server

    caps, _ = stream_captures(args.captures)
    embedder = _embedder(cache)
    extractor = ScriptedExtractor(caps, args.arm)
    name = f"bench_entities_{os.getpid()}"
    out: dict = {"remember": [], "remember_many": []}
    for _ in range(args.passes):
        _fresh(admin, name, args.registry)
        with _open(admin, name, embedder, extractor) as store:
            before = len(store.entities(limit=100_000))
            latencies = []
            started = time.perf_counter()
            for c in caps:
                t = time.perf_counter()
                store.remember(c["text"], source_ref=c["source_ref"],
                               captured_at=c["captured_at"])
                latencies.append(1000 * (time.perf_counter() - t))
            total = time.perf_counter() - started
            out["remember"].append({"seconds": round(total, 3),
                                    "median_ms": round(statistics.median(latencies), 3),
                                    "p95_ms": round(_pct(latencies, 0.95), 3)})
            out["entities_created"] = len(store.entities(limit=100_000)) - before
            out["facts"] = store.row_counts()["facts"]
        _fresh(admin, name, args.registry)
        with _open(admin, name, embedder, extractor) as store:
            started = time.perf_counter()
            store.remember_many([_capture(c) for c in caps], batch_size=64)
            out["remember_many"].append({"seconds": round(time.perf_counter() - started, 3)})
    server.drop_database(admin, name)
    out["embedder_misses"] = embedder.misses
    return out


def child_reads(args: argparse.Namespace, admin: str, cache: Path) -> dict:
    """The stream written (untimed) on the registry, then neighbours, recall and
    refresh_profiles timed."""
    from factstore.errors import FactStoreError
    from factstore.settings import Settings
    from factstore.store import server

    caps, _ = stream_captures(args.captures)
    pop, _ = populations(150, 40, 30, (0, 0, 0))
    embedder = _embedder(cache)
    name = f"bench_entities_reads_{os.getpid()}"
    _fresh(admin, name, args.registry)
    out: dict = {}
    with _open(admin, name, embedder, ScriptedExtractor(caps, "on")) as store, \
            _open(admin, name, embedder, ScriptedExtractor(caps, "on"),
                  Settings(recall_neighbours=5)) as wide:
        store.remember_many([_capture(c) for c in caps], batch_size=64)
        out["entities"] = len(store.entities(limit=100_000))
        anchors = []
        for ref in ([f"{g} {s}" for g, s in pop["people"][:30]] + pop["orgs"][:10]
                    + pop["projects"][:10]):
            try:
                anchors.append(store.entity(ref).id)
            except FactStoreError:  # a name two entities share: skipped
                continue
        out["anchors"] = len(anchors)
        times: dict[int, list[float]] = {1: [], 2: [], 3: []}
        reached: dict[int, list[int]] = {1: [], 2: [], 3: []}
        for anchor in anchors:
            for depth in (1, 2, 3):
                t = time.perf_counter()
                found = store.neighbours(anchor, depth=depth)
                times[depth].append(1000 * (time.perf_counter() - t))
                reached[depth].append(len(found))
        out["neighbours"] = {str(d): {"median_ms": round(statistics.median(times[d]), 2),
                                      "p95_ms": round(_pct(times[d], 0.95), 2),
                                      "median_reached": statistics.median(reached[d]),
                                      "max_reached": max(reached[d])} for d in times}
        plain, neighbour, served = [], [], []
        for _ in range(3):
            for q in queries():
                t = time.perf_counter()
                store.recall(q)
                plain.append(1000 * (time.perf_counter() - t))
                t = time.perf_counter()
                result = wide.recall(q)
                neighbour.append(1000 * (time.perf_counter() - t))
                served.append(sum(i.served_as == "neighbour" for i in result.items))
        out["recall"] = {"neighbours_0_p50_ms": round(statistics.median(plain), 2),
                         "neighbours_5_p50_ms": round(statistics.median(neighbour), 2),
                         "neighbour_items_mean": round(statistics.mean(served), 2)}
        embedder.inner.embed(["warm the model up"])  # torch import and load, untimed
        embedder.passthrough, embedder.model_seconds = True, 0.0
        t = time.perf_counter()
        refresh = store.refresh_profiles(limit=args.profiles)
        seconds = time.perf_counter() - t
        out["refresh_profiles"] = {
            "rebuilt": refresh.rebuilt, "cleared": refresh.cleared,
            "proposed": refresh.proposed, "seconds": round(seconds, 3),
            "embed_seconds": round(embedder.model_seconds, 3),
            "profiles_per_second": round(refresh.rebuilt / seconds, 1) if seconds else None}
    server.drop_database(admin, name)
    return out


# -- the parent ----------------------------------------------------------------------------------


def _run(args: argparse.Namespace, home: str, *extra: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(HERE), "--home", home, "--captures", str(args.captures),
         "--passes", str(args.passes), "--prefill", str(args.prefill), "--profiles",
         str(args.profiles), *extra], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _summary(passes: list[dict], captures: int) -> dict:
    remember = [p for run in passes for p in run["remember"]]
    many = [p["seconds"] for run in passes for p in run["remember_many"]]
    return {
        "remember": {"median_seconds": statistics.median(p["seconds"] for p in remember),
                     "median_ms": round(statistics.median(p["median_ms"] for p in remember), 3),
                     "p95_ms": round(statistics.median(p["p95_ms"] for p in remember), 3),
                     "samples_seconds": [p["seconds"] for p in remember]},
        "remember_many": {"median_seconds": statistics.median(many),
                          "captures_per_second": round(captures / statistics.median(many), 1),
                          "samples_seconds": many},
        "entities_created": passes[-1]["entities_created"], "facts": passes[-1]["facts"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captures", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--prefill", type=int, default=3400,
                        help="filler people (organisations and projects in proportion)")
    parser.add_argument("--profiles", type=int, default=300,
                        help="refresh_profiles(limit=) in the reads")
    parser.add_argument("--home", default=".factstore/bench-entities")
    parser.add_argument("--child", choices=("setup", "write", "reads"), help=argparse.SUPPRESS)
    parser.add_argument("--arm", choices=ARMS, help=argparse.SUPPRESS)
    parser.add_argument("--registry", choices=REGISTRIES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    home = str(Path(args.home).resolve())
    cache = Path(home) / "bench_entities_vectors.npy"
    if args.child:
        from factstore.store import server

        admin = server.embedded_admin_dsn(server.factstore_home(home))
        run = {"setup": child_setup, "write": child_write, "reads": child_reads}[args.child]
        print(json.dumps(run(args, admin, cache)))
        return
    began = time.perf_counter()
    _, counts = stream_captures(args.captures)
    print(f"stream: {counts}", flush=True)
    setup = _run(args, home, "--child", "setup")
    print(f"setup: {setup}", flush=True)
    writes: dict = {(r, a): [] for r in REGISTRIES for a in ARMS}
    reads: dict = {r: [] for r in REGISTRIES}
    plan = [(r, a) for r in REGISTRIES for a in ARMS]
    for round_ in range(1, args.rounds + 1):
        for registry, arm in (plan if round_ % 2 else plan[::-1]):
            result = _run(args, home, "--child", "write", "--arm", arm, "--registry", registry)
            writes[(registry, arm)].append(result)
            print(f"round {round_} {registry:5} {arm:3} remember "
                  f"{[p['seconds'] for p in result['remember']]} (median "
                  f"{[p['median_ms'] for p in result['remember']]} ms) remember_many "
                  f"{[p['seconds'] for p in result['remember_many']]} entities "
                  f"+{result['entities_created']}", flush=True)
        for registry in REGISTRIES:
            result = _run(args, home, "--child", "reads", "--registry", registry)
            reads[registry].append(result)
            print(f"round {round_} reads {registry}: {json.dumps(result)}", flush=True)
    report: dict = {"captures": args.captures, "rounds": args.rounds, "passes": args.passes,
                    "stream": counts, "setup": setup, "commit": _commit(ROOT)}
    for registry in REGISTRIES:
        block = {arm: _summary(writes[(registry, arm)], args.captures) for arm in ARMS}
        on, off = block["on"], block["off"]
        added = {}
        for path in ("remember", "remember_many"):
            extra = on[path]["median_seconds"] - off[path]["median_seconds"]
            # paired: each round's on minus the same round's off (drift cancels better)
            paired = statistics.median(
                statistics.median(p["seconds"] for p in a[path])
                - statistics.median(p["seconds"] for p in b[path])
                for a, b in zip(writes[(registry, "on")], writes[(registry, "off")],
                                strict=True))
            added[path] = {"ms_per_capture": round(1000 * extra / args.captures, 3),
                           "ms_per_mention": round(1000 * extra / counts["mentions"], 3),
                           "paired_ms_per_capture": round(1000 * paired / args.captures, 3),
                           "paired_ms_per_mention": round(1000 * paired / counts["mentions"], 3),
                           "ratio": round(on[path]["median_seconds"]
                                          / off[path]["median_seconds"], 3)}
        added["median_latency_ms"] = round(on["remember"]["median_ms"]
                                           - off["remember"]["median_ms"], 3)
        block["added"] = added
        runs = reads[registry]
        block["reads"] = {
            "entities": runs[-1]["entities"], "anchors": runs[-1]["anchors"],
            "neighbours": {d: {k: statistics.median(r["neighbours"][d][k] for r in runs)
                               for k in runs[0]["neighbours"][d]} for d in ("1", "2", "3")},
            "recall": {k: statistics.median(r["recall"][k] for r in runs)
                       for k in runs[0]["recall"]},
            "refresh_profiles": {k: statistics.median(r["refresh_profiles"][k] for r in runs)
                                 for k in runs[0]["refresh_profiles"]},
            "samples": runs}
        report[registry] = block
    report["growth"] = {
        path: round(report["grown"]["added"][path]["ms_per_capture"]
                    / max(report["small"]["added"][path]["ms_per_capture"], 1e-9), 3)
        for path in ("remember", "remember_many")}
    report["wall_seconds"] = round(time.perf_counter() - began, 1)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({r: report[r]["added"] for r in REGISTRIES}, indent=1))
    print(f"growth (grown / small added ms per capture): {report['growth']}; "
          f"{report['wall_seconds']} s; written to {RESULTS}")


def _commit(tree: Path) -> str:
    """The tree's short commit, marked when its tracked files differ from it."""
    from evals.records import git_state  # the parent's own; children never call this

    commit, dirty = git_state(tree)
    return commit[:7] + (" (dirty)" if dirty else "") if commit != "unknown" else commit


if __name__ == "__main__":
    main()
