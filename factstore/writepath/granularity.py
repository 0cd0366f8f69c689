"""Granularity: fold the fragments of one assertion back into one fact (seed 000 §5).

An extraction model can shred one assertion -- an inventory sentence, a compound statement
-- into several near-identical fragment facts. The density check then raises a conflict
between pieces of the same claim. This pass runs after anchor hygiene and outcome absorption
and folds such fragments back, in code, so the conflict never arises.

**The rule.** Two facts are fragments of one assertion when all of these hold:

1. they have the same kind;
2. their quotes lie inside one sentence of the source (``split_sentences``: semicolons never
   split a sentence, so a semicolon-joined pair is still one sentence);
3. they do not carry different explicit ``subject`` values (a STATE's subject is
   load-bearing: staleness and recall read it, so one STATE per subject);
4. and one of these shows they are one claim:

   - **same head**: their statements open with the same subject noun phrase, the words before
     the first predicate word ("The importer | skips UTF-16 input" / "The importer | logs a
     warning"), or the later one opens with a pronoun that refers back ("It took 40 min");
   - **same predicate**: different heads, identical rest ("sample-svc | is green" /
     "other-svc | is green": one claim about a list of subjects);
   - **list continuation**: the later quote continues the earlier one in the source ("...
     Postgres 16, Redis 7 and Kafka 3.6") -- adjacent, or opening with *and*, *or*, *plus*,
     *as well as* -- with no finite verb of its own (:data:`CLAUSE_MARKERS`) and without its
     statement's own subject, unless it is plainly a list item ("Kafka 3.6"). "and Kafka 3.6"
     continues; "and the billing queue is empty" and "and the backup rotates" are clauses;
   - **a dependent piece**: the later quote follows across punctuation and opens with a word
     that makes it depend on the clause before (:data:`DEPENDENT_OPENERS`: a reason "since
     it needs no daemon", a trigger "reopen it if ...", a qualification "with a tested down
     step", a contrast "not for scripts"), ends in "included", or is an appositive ("..., a
     known limitation we ship with");
   - **a label or a kind's own part**: one fragment is only a label ("Known issue:"), or, for a
     RESIDUAL, the acceptance that makes it one ("we'll live with it", "a known gap");
   - when neither statement has a recognisable predicate word, a shared leading phrase with
     a content word, or a shared ending covering most of the shorter statement.

Two clauses of one sentence with different subjects ("sample-svc is green, and the billing
queue is empty"), different kinds ("the job is green right now, and I prefer tabs") or two
imperatives ("always lint first; separately, never merge your own PR") match none of these
and stay separate.

**The folded fact** keeps the first fragment's kind (in source order); its quote is the
verbatim source span from the first fragment's start to the last one's end (so it stays
anchored); the statement factors out a shared opening ("The cluster runs Postgres 16, Redis 7
and Kafka 3.6.") or else joins the statements with semicolons; topics are unioned in order;
each per-kind field takes the first non-null value; ``supersedes`` is true if any fragment's
is; ``meta["folded_fragments"]`` lists every original ``{statement, quote}``, so nothing is
lost. Folding runs to a fixed point and rebuilds fragments from ``folded_fragments``, so
folding folded output changes nothing.

Limitations: subjects and predicates are found with word tables, not a parser. A second
clause with its own subject that elaborates the first ("I hate long meetings; thirty minutes
is my limit") stays a separate fact, as the rule says; a statement that is only a bare piece
("Two macOS runners.") cannot show its head, so such fragments fold only through the
source-side rules; a dependent opener can fold a genuinely separate clause that happens to
start with it ("..., since then the queue is empty"). A quote that occurs twice in the
source is located at its first occurrence.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from factstore.extractors.base import ExtractedFact
from factstore.extractors.rules import Sentence, split_sentences
from factstore.kinds import PER_KIND_COLUMNS
from factstore.statements import normalise_statement
from factstore.writepath.anchors import locate
from factstore.writepath.polarity import FUNCTION_WORDS, negation_polarity

__all__ = ["CLAUSE_MARKERS", "DEPENDENT_OPENERS", "PREDICATE_WORDS", "fold_fragments"]

META_KEY = "folded_fragments"

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

#: Words that end a subject noun phrase and open a predicate: copulas, auxiliaries, modals and
#: the verbs statements about software, teams and tastes most often use.
PREDICATE_WORDS: frozenset[str] = frozenset((
    "is", "are", "was", "were", "be", "been", "am", "has", "have", "had", "does", "do", "did",
    "will", "would", "can", "could", "should", "shall", "may", "might", "must", "cannot",
    "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "doesn't", "don't",
    "didn't", "won't", "wouldn't", "can't", "couldn't", "shouldn't", "mustn't", "it's",
    "prefers", "prefer", "likes", "like", "loves", "love", "hates", "hate", "dislikes",
    "dislike", "enjoys", "enjoy", "wants", "want", "needs", "need", "uses", "use", "runs",
    "run", "ships", "ship", "goes", "go", "lives", "live", "stores", "store", "holds", "hold",
    "keeps", "keep", "contains", "contain", "includes", "include", "supports", "support",
    "requires", "require", "depends", "depend", "points", "point", "reads", "read", "writes",
    "write", "logs", "skips", "skip", "fails", "fail", "passes", "pass", "handles", "handle",
    "serves", "serve", "deploys", "deploy", "builds", "build", "takes", "take", "makes",
    "make", "gets", "get", "stays", "stay", "remains", "remain", "sits", "sit", "owns", "own",
    "decided", "chose", "picked", "moved", "found", "ran", "went", "took", "made", "got",
    "never", "always", "still", "no", "not",
))
#: Copulas, auxiliaries and modals: finite verbs that are never nouns.
CLAUSE_MARKERS: frozenset[str] = frozenset((
    "is", "are", "was", "were", "am", "has", "have", "had", "does", "do", "did", "will",
    "would", "can", "could", "should", "shall", "may", "might", "must", "cannot", "isn't",
    "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "doesn't", "don't", "didn't",
    "won't", "wouldn't", "can't", "couldn't", "shouldn't", "mustn't", "it's", "that's",
    "there's", "we're", "they're", "i'm", "we'll", "i'll", "we've", "we'd", "i'd",
))
#: Openings that refer back to the previous fragment's subject ("It took 40 minutes").
PRONOUNS: frozenset[str] = frozenset(("it", "they", "he", "she"))
#: These refer back only when a predicate follows at once ("This is flaky", not "This job").
DEMONSTRATIVES: frozenset[str] = frozenset(("this", "that", "these", "those"))
_DETERMINERS = frozenset(("the", "a", "an", "this", "that", "these", "those", "our", "their",
                          "its", "my", "your"))
# What may stand between two pieces of one list in the source: "Postgres 16, Redis 7 and ...".
_LIST_GAP = re.compile(r"\s*[,;]?\s*(?:(?:and|or|plus|&|as well as|along with)\s+)?",
                       re.IGNORECASE)
_LIST_LEAD = re.compile(r"^\s*(?:[,;]\s*)?(?:and|or|plus|&|as well as|along with)\s+",
                        re.IGNORECASE)
_LEADING_CONJUNCTION = re.compile(r"^(?:and|also|plus|as well as|along with)\s+", re.IGNORECASE)
# What may stand between a clause and a dependent piece of it: punctuation, a dash, "and".
_DEPENDENT_GAP = re.compile(r"[\s,;:()\u2014\u2013-]*(?:(?:and|but)\s+)?", re.IGNORECASE)

#: Openers of a piece that depends on the clause before it and asserts nothing alone: a reason
#: ("since it needs no daemon"), a condition or trigger ("unless legal asks", "reopen it if
#: ..."), a qualification ("only after review", "ideally under 300 lines", "with a tested
#: down step"), a contrast ("not for scripts").
DEPENDENT_OPENERS: frozenset[str] = frozenset((
    "since", "because", "as", "so", "even", "only", "ideally", "especially", "except", "unless",
    "until", "till", "when", "whenever", "if", "once", "though", "although", "after", "before",
    "starting", "including", "excluding", "with", "without", "not", "like", "such", "per",
    "via", "for", "e.g", "i.e", "ever", "reopen", "revisit", "reconsider", "re-evaluate",
    "pending", "provided", "accepted", "specifically", "mainly", "mostly", "usually",
    "typically", "both", "either", "in", "on", "at", "from", "into", "under", "over",
))
#: A leading label that is not an assertion by itself ("Known issue:", "From now on,").
_LABEL_ONLY = re.compile(
    r"^\W*(?:known (?:issue|gap|limitation)s?|won'?t fix|wontfix|from now on|as a rule|"
    r"rule(?: of thumb)?|decision|that'?s final|heads up|note|update|correction)\W*$",
    re.IGNORECASE)
#: A RESIDUAL is a gap plus its acceptance: the acceptance is part of the one assertion.
_ACCEPTANCE = re.compile(
    r"\b(?:live with|accept(?:s|ed|ing)?\b|known (?:issue|gap|limitation)|ship(?:s|ped)? with|"
    r"won'?t fix|wontfix|risk[- ]accepted|on purpose)", re.IGNORECASE)
_PRONOUN_SUBJECTS = frozenset(("we", "i", "you", "they", "it", "that", "which", "who"))
_TRAILING_DEPENDENT = frozenset(("included", "excluded", "aside", "too", "alike"))
_WORD = re.compile(r"[\w][\w'’.\-/:\\]*[\w]|[\w]")
#: Singular verbs and the plural a folded list of subjects takes ("A and B are green").
_PLURAL: dict[str, str] = {
    "is": "are", "was": "were", "has": "have", "isn't": "aren't", "wasn't": "weren't",
    "hasn't": "haven't", "does": "do", "doesn't": "don't",
}
# A shared ending counts as one predicate when it covers more than this share of the shorter.
_SHARED_ENDING = 0.5


# --------------------------------------------------------------------------------------------
# Fragments and groups
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Fragment:
    """One original fragment: what it said and where its quote sits in the source."""

    statement: str
    quote: str
    start: int
    end: int


@dataclass(frozen=True)
class _Group:
    """Facts being folded into one, each with its fragments; ``sentence`` is None when the
    group cannot fold (a quote that is not found, or that spans sentences)."""

    members: tuple[tuple[ExtractedFact, tuple[_Fragment, ...]], ...]
    kind: str
    sentence: int | None
    subjects: frozenset[str]

    @property
    def fragments(self) -> tuple[_Fragment, ...]:
        return tuple(f for _, fragments in self.members for f in fragments)


def _words(text: str) -> list[str]:
    return [w.replace("’", "'") for w in _WORD.findall(text.lower())]


def _normal_subject(subject: str | None) -> str | None:
    if subject is None or not subject.strip():
        return None
    words = _words(subject)
    while words and words[0] in _DETERMINERS:
        words.pop(0)
    return " ".join(words) or None


def _locate_within(quote: str, source: str,
                   window: tuple[int, int] | None) -> tuple[int, int] | None:
    """The quote's span, searched inside ``window`` first (a fragment inside its folded quote)."""
    if window is not None:
        span = locate(quote.strip(), source[window[0]:window[1]])
        if span is not None:
            return window[0] + span[0], window[0] + span[1]
    return locate(quote.strip(), source)


def _recorded_fragments(fact: ExtractedFact) -> list[dict[str, str]] | None:
    """The fragments a previous fold recorded, when they are well formed."""
    recorded = fact.meta.get(META_KEY)
    if not isinstance(recorded, list) or not recorded:
        return None
    if not all(isinstance(r, dict) and isinstance(r.get("statement"), str)
               and isinstance(r.get("quote"), str) for r in recorded):
        return None
    return recorded


def _fragments_of(fact: ExtractedFact, source: str) -> tuple[_Fragment, ...] | None:
    if not isinstance(fact.quote, str) or not isinstance(fact.statement, str):
        return None
    span = _locate_within(fact.quote, source, None)
    if span is None:
        return None
    recorded = _recorded_fragments(fact)
    if recorded is None:
        return (_Fragment(fact.statement, fact.quote, *span),)
    fragments = []
    for entry in recorded:
        inner = _locate_within(entry["quote"], source, span)
        if inner is None:
            return None
        fragments.append(_Fragment(entry["statement"], entry["quote"], *inner))
    return tuple(fragments)


def _sentence_of(start: int, end: int, sentences: Sequence[Sentence]) -> int | None:
    """The one sentence the span overlaps, or None when it overlaps none or several."""
    hits = [i for i, s in enumerate(sentences) if s.start < max(end, start + 1) and start < s.end]
    return hits[0] if len(hits) == 1 else None


def _group_of(fact: ExtractedFact, source: str, sentences: Sequence[Sentence]) -> _Group:
    kind = fact.kind.strip().upper() if isinstance(fact.kind, str) else ""
    subject = _normal_subject(fact.subject) if isinstance(fact.subject, str) else None
    subjects = frozenset({subject} if subject else ())
    fragments = _fragments_of(fact, source)
    if not fragments:
        return _Group(((fact, ()),), kind, None, subjects)
    start = min(f.start for f in fragments)
    end = max(f.end for f in fragments)
    return _Group(((fact, fragments),), kind, _sentence_of(start, end, sentences), subjects)


# --------------------------------------------------------------------------------------------
# The one-assertion test
# --------------------------------------------------------------------------------------------

def _split_head(statement: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(head, predicate): the words before the first predicate word, and the rest.

    None when no predicate word follows a non-empty head.
    """
    words = _words(statement)
    for index, word in enumerate(words):
        if word in PREDICATE_WORDS:
            head = words[:index]
            while head and head[0] in _DETERMINERS:
                head.pop(0)
            return (tuple(head), tuple(words[index:])) if head else None
    return None


def _has_content(words: Sequence[str]) -> bool:
    return any(w not in FUNCTION_WORDS for w in words)


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _refers_back(statement: str) -> bool:
    words = _words(statement)
    if not words:
        return False
    return words[0] in PRONOUNS or (words[0] in DEMONSTRATIVES and len(words) > 1
                                    and words[1] in PREDICATE_WORDS)


def _same_claim_by_statements(first: str, second: str) -> bool:
    """Same head, a pronoun head, or same predicate; a looser test when no head is found."""
    if _refers_back(second):
        return True
    split_a, split_b = _split_head(first), _split_head(second)
    if split_a and split_b:
        (head_a, rest_a), (head_b, rest_b) = split_a, split_b
        if head_a == head_b and _has_content(head_a):
            return True
        return rest_a == rest_b and _has_content(rest_a)
    words_a, words_b = _words(first), _words(second)
    if not words_a or not words_b:
        return False
    prefix = _common_prefix(words_a, words_b)
    if prefix and _has_content(words_a[:prefix]):
        return True
    suffix = _common_prefix(words_a[::-1], words_b[::-1])
    return (suffix / min(len(words_a), len(words_b)) > _SHARED_ENDING
            and _has_content(words_a[len(words_a) - suffix:]))


def _continues(earlier: _Fragment, later: _Fragment, source: str) -> bool:
    """The later quote is the next item of the earlier one's list, or its subject-less verb."""
    piece = source[later.start:later.end]
    lead = _LIST_LEAD.match(piece)
    adjacent = (later.start >= earlier.end
                and _LIST_GAP.fullmatch(source[earlier.end:later.start]) is not None)
    if not (adjacent or lead):
        return False
    raw = piece[lead.end():] if lead else piece
    body = _words(raw)
    # Only an unambiguous finite verb marks a clause here: "a green CI run" and "the new build
    # image" hold nouns that PREDICATE_WORDS also lists as verbs.
    if not body or any(w in CLAUSE_MARKERS for w in body[1:]):
        return False  # a clause of its own ("and the billing queue is empty")
    # A statement whose own subject is inside the piece may be a clause with a verb the table
    # lacks ("and the backup rotates"), unless the piece is plainly a list item.
    own = next((w for w in _words(later.statement)
                if w not in FUNCTION_WORDS and w not in _DETERMINERS), None)
    return own is None or own not in body or _list_item_shaped(raw)


def _list_item_shaped(raw: str) -> bool:
    """'Kafka 3.6', 'Redis 7', 'PgBouncer': names and numbers, no lowercase verb."""
    tokens = _WORD.findall(raw)
    return bool(tokens) and all(t[0].isupper() or any(c.isdigit() for c in t) for t in tokens)


def _adjacent(earlier: _Fragment, later: _Fragment, source: str) -> bool:
    """The later quote follows the earlier one across punctuation or "and" at most."""
    return (later.start >= earlier.end
            and _DEPENDENT_GAP.fullmatch(source[earlier.end:later.start]) is not None)


def _depends(earlier: _Fragment, later: _Fragment, source: str) -> bool:
    """The later piece hangs on the earlier clause: a reason, condition, qualification,
    contrast, or an appositive ("..., a known limitation we ship with")."""
    if not _adjacent(earlier, later, source):
        return False
    words = _words(source[later.start:later.end])
    if not words:
        return False
    if words[0] in DEPENDENT_OPENERS or words[-1] in _TRAILING_DEPENDENT:
        return True  # "since it needs no daemon", "redirects included"
    return words[0] in ("a", "an") and _appositive(words)


def _appositive(words: Sequence[str]) -> bool:
    """'a known limitation we ship with': no predicate, or one that opens a relative clause."""
    for index, word in enumerate(words):
        if word in PREDICATE_WORDS:
            return index > 0 and words[index - 1] in _PRONOUN_SUBJECTS
    return True


def _label_only(fragment: _Fragment, source: str) -> bool:
    """A fragment that is only a label ("Known issue:") belongs to what it labels."""
    return bool(_LABEL_ONLY.match(source[fragment.start:fragment.end])
                or _LABEL_ONLY.match(fragment.statement))


def _kind_part(kind: str, later: _Fragment, source: str) -> bool:
    """A part the kind owns: a RESIDUAL's acceptance ("we'll live with it")."""
    text = source[later.start:later.end] + " " + later.statement
    return kind == "RESIDUAL" and bool(_ACCEPTANCE.search(text))


def _same_assertion(x: _Fragment, y: _Fragment, source: str, kind: str) -> bool:
    earlier, later = (x, y) if (x.start, x.end) <= (y.start, y.end) else (y, x)
    return (_same_claim_by_statements(earlier.statement, later.statement)
            or _continues(earlier, later, source)
            or _depends(earlier, later, source)
            or _label_only(earlier, source) or _label_only(later, source)
            or _kind_part(kind, later, source) or _kind_part(kind, earlier, source))


def _mergeable(a: _Group, b: _Group, source: str) -> bool:
    if a.sentence is None or a.sentence != b.sentence or a.kind != b.kind or not a.kind:
        return False
    if a.subjects and b.subjects and a.subjects != b.subjects:
        return False
    return any(_same_assertion(x, y, source, a.kind) for x in a.fragments for y in b.fragments)


def _merge_groups(a: _Group, b: _Group) -> _Group:
    return _Group(a.members + b.members, a.kind, a.sentence, a.subjects | b.subjects)


# --------------------------------------------------------------------------------------------
# The folded fact
# --------------------------------------------------------------------------------------------

def _lower_first(text: str) -> str:
    """'The billing queue' -> 'the billing queue'; a name ('Redis 7') keeps its capital."""
    first, _, rest = text.partition(" ")
    if first.lower() in FUNCTION_WORDS and first[:1].isupper():
        return first.lower() + (" " + rest if rest else "")
    return text


def _join_list(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _body(statement: str) -> str:
    return " ".join(statement.split()).rstrip(" .;:!")


def _shared_opening(split: Sequence[Sequence[str]]) -> str | None:
    """'The cluster runs Postgres 16' + 'The cluster runs Redis 7' -> 'The cluster runs
    Postgres 16 and Redis 7'. None unless the opening has content and no negation (whose
    scope over a joined list would be ambiguous)."""
    lowered = [[w.lower() for w in words] for words in split]
    prefix = min(_common_prefix(lowered[0], other) for other in lowered[1:])
    shared = " ".join(split[0][:prefix])
    if (not prefix or not _has_content(_words(shared)) or negation_polarity(shared)
            or any(len(words) <= prefix for words in split)):
        return None
    tails = [_LEADING_CONJUNCTION.sub("", " ".join(words[prefix:])) for words in split]
    return f"{shared} {_join_list(tails)}"


def _shared_ending(split: Sequence[Sequence[str]]) -> str | None:
    """'sample-svc is green' + 'other-svc is green' -> 'sample-svc and other-svc are green'.

    Only for a singular copula or auxiliary that has a plural form to agree with the list.
    """
    reversed_words = [[w.lower() for w in reversed(words)] for words in split]
    suffix = min(_common_prefix(reversed_words[0], other) for other in reversed_words[1:])
    if not suffix or any(len(words) <= suffix for words in split):
        return None
    ending = list(split[0][len(split[0]) - suffix:])
    verb = ending[0].lower()
    if verb not in _PLURAL or not _has_content(_words(" ".join(ending[1:]))):
        return None
    heads = [" ".join(words[:len(words) - suffix]) for words in split]
    heads = heads[:1] + [_lower_first(h) for h in heads[1:]]
    return f"{_join_list(heads)} {_PLURAL[verb]} {' '.join(ending[1:])}"


def _merged_statement(statements: Sequence[str]) -> str:
    """One statement for the fragments: a shared opening or ending factored out, else
    the statements joined with semicolons."""
    bodies: list[str] = []
    seen: set[str] = set()
    for statement in statements:
        key = normalise_statement(statement)
        if key not in seen and _body(statement):
            seen.add(key)
            bodies.append(_body(statement))
    if len(bodies) == 1:
        return bodies[0] + "."
    longest = max(bodies, key=len)
    if all(normalise_statement(b) in normalise_statement(longest) for b in bodies):
        return longest + "."
    split = [b.split() for b in bodies]
    factored = _shared_opening(split) or _shared_ending(split)
    if factored:
        return factored + "."
    return "; ".join([bodies[0]] + [_lower_first(b) for b in bodies[1:]]) + "."


def _merged_meta(facts: Sequence[ExtractedFact], fragments: Sequence[_Fragment]
                 ) -> dict[str, object]:
    """Every fact's meta (lists concatenated, first scalar wins) plus the fragments."""
    meta: dict[str, object] = {}
    for fact in facts:
        for key, value in fact.meta.items():
            if key == META_KEY:
                continue
            if key not in meta:
                meta[key] = value
            elif isinstance(meta[key], list) and isinstance(value, list):
                meta[key] = list(meta[key]) + [v for v in value if v not in meta[key]]
    meta[META_KEY] = [{"statement": f.statement, "quote": f.quote} for f in fragments]
    return meta


def _fold_group(group: _Group, source: str) -> ExtractedFact:
    if len(group.members) == 1:
        return group.members[0][0]
    fragments = sorted(group.fragments, key=lambda f: (f.start, f.end))
    # Facts in source order: the first one lends its kind spelling and its field values.
    members = sorted(group.members, key=lambda m: min(f.start for f in m[1]))
    facts = [fact for fact, _ in members]
    fields = {name: next((getattr(f, name) for f in facts if getattr(f, name) is not None), None)
              for name in PER_KIND_COLUMNS}
    return dataclasses.replace(
        facts[0],
        statement=_merged_statement([f.statement for f in fragments]),
        quote=source[fragments[0].start:max(f.end for f in fragments)],
        topics=tuple(dict.fromkeys(t for f in facts for t in f.topics)),
        supersedes=any(bool(f.supersedes) for f in facts),
        meta=_merged_meta(facts, fragments),
        **fields,
    )


# --------------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------------

def _first_mergeable_pair(groups: Sequence[_Group], source: str) -> tuple[int, int] | None:
    for i, first in enumerate(groups):
        for j in range(i + 1, len(groups)):
            if _mergeable(first, groups[j], source):
                return i, j
    return None


def fold_fragments(facts: list[ExtractedFact], source: str) -> list[ExtractedFact]:
    """Fold fragments of one assertion into one fact; every other fact passes unchanged.

    Deterministic and idempotent: groups merge pairwise, earliest pair first, until no pair
    is left, and a folded fact is rebuilt from its recorded fragments on a later pass.
    """
    sentences = split_sentences(source)
    groups = [_group_of(fact, source, sentences) for fact in facts]
    while (pair := _first_mergeable_pair(groups, source)) is not None:
        i, j = pair
        groups[i] = _merge_groups(groups[i], groups[j])
        del groups[j]
    return [_fold_group(group, source) for group in groups]
