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
     warning"), or the later one opens with a pronoun or possessive that refers back ("It
     took 40 min", "Its migrations sit under migrations/"), or -- for any kind but STATE --
     its head is a pro-form for a noun before ("internal endpoints ...; external ones are out
     of scope");
   - **same predicate**: different heads, identical rest ("sample-svc | is green" /
     "other-svc | is green": one claim about a list of subjects);
   - **list continuation**: the later quote continues the earlier one in the source ("...
     Postgres 16, Redis 7 and Kafka 3.6") -- adjacent, or opening with *and*, *or*, *plus*,
     *as well as* -- with no finite verb of its own (:data:`CLAUSE_MARKERS`) and without its
     statement's own subject, unless it is plainly a list item ("Kafka 3.6", or a short bare
     noun phrase with no determiner and no table verb: "scheduled queries"). "and Kafka 3.6"
     continues; "and the billing queue is empty" and "and the backup rotates" are clauses, and
     so is a piece that opens with a subject pronoun ("and we moved the board") or a
     possessive with a table verb after it ("and my manager prefers ...");
   - **a dependent piece**: the later quote follows across punctuation and opens with a word
     that makes it depend on the clause before (:data:`DEPENDENT_OPENERS`: a reason "since
     it needs no daemon", a trigger "reopen it if ...", a qualification "with a tested down
     step", a contrast "not for scripts"), ends in "included", or is an appositive ("..., a
     known limitation we ship with") -- but a preposition with a copula or auxiliary after it
     fronts a clause of its own ("..., and on Friday the pool was resized"); or, with no
     copula or auxiliary, opens with a past form and no subject ("..., squashed into one
     commit") or is an absolute phrase, a count or quantifier with a participle ("1,482
     passed, 0 failed", "all 22 jobs ported"); or stands in parentheses right after the
     clause; or points back at it as a reason ("...; the last two outages started that
     way", "that's why ...") or as the object of a speaker's stance ("...; the hook is where
     I want it");
   - **a label or a kind's own part**: one fragment is only a label ("Known issue:"), or, for a
     RESIDUAL, the acceptance that makes it one ("we'll live with it", "a known gap"), or, for
     an EVENT whose first piece is an agent-less action ("Deployed the hotfix ..."), the
     outcome after it in the sentence ("..., and the failing jobs cleared") -- unless the
     later piece names an agent ("we", "I", "the team": a new action) or opens with a
     separator or a new time ("separately", "also", "on Tuesday", "then");
   - when neither statement has a recognisable predicate word, a shared leading phrase with
     a content word, or a shared ending covering most of the shorter statement.

Two clauses of one sentence with different subjects ("sample-svc is green, and the billing
queue is empty"; for EVENTs, "the web team rebuilt the images, and the data team migrated the
warehouse"), different kinds ("the job is green right now, and I prefer tabs") or two
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
is my limit") stays a separate fact, as the rule says, and so does an EVENT's outcome told in a
sentence of its own; an agent-less action followed by another ("Restored the table and
verified the counts") folds as one EVENT; a statement that is only a bare piece
("Two macOS runners.") cannot show its head, so such fragments fold only through the
source-side rules; a dependent opener can fold a genuinely separate clause that happens to
start with it ("..., since then the queue is empty"). A quote that occurs twice in the
source is located at its first occurrence.
"""

from __future__ import annotations

import bisect
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
#: Irregular past forms (past tense or participle) the "-ed" test misses; forms that are also
#: imperatives ("set", "put", "read") are left out, so two imperatives stay apart.
_IRREGULAR_PAST: frozenset[str] = frozenset((
    "ran", "reran", "built", "rebuilt", "wrote", "rewrote", "written", "rewritten", "took",
    "taken", "made", "remade", "found", "went", "gone", "got", "gotten", "sent", "resent",
    "spent", "held", "kept", "left", "led", "brought", "bought", "drew", "drawn", "chose",
    "chosen", "froze", "frozen", "gave", "given", "began", "begun", "did", "done", "redone",
    "undid", "undone", "hid", "hidden", "spun", "swept", "shot", "broke", "broken", "threw",
    "thrown", "won", "lost", "paid", "said", "told", "sold", "stood", "understood", "upheld",
    "withdrew", "rode", "rose", "fell", "fallen", "grew", "grown", "knew", "known", "saw",
    "seen", "shown", "struck", "stuck", "tore", "torn", "wore", "worn", "dealt", "meant",
    "bound", "wound", "unwound", "laid", "slid",
))
#: Words that end in "-ed" without being a past form.
_NOT_PAST: frozenset[str] = frozenset((
    "need", "feed", "seed", "speed", "embed", "breed", "bleed", "proceed", "succeed",
    "exceed", "hundred", "shred", "indeed", "weed", "greed", "tweed",
))
#: A piece that opens with one of these starts a separate assertion, not an outcome of the
#: one before: a separator ("separately, ...") or a new time ("on Tuesday ...").
_SEPARATORS: frozenset[str] = frozenset((
    "separately", "also", "additionally", "independently", "unrelatedly", "unrelated",
    "elsewhere", "meanwhile", "besides", "moreover", "furthermore", "plus", "on", "later",
    "earlier", "yesterday", "today", "tomorrow", "tonight", "next", "previously", "from",
    "then", "afterwards", "afterward", "subsequently", "otherwise", "however", "in",
))


def opens_apart(piece: str) -> bool:
    """The piece opens with a separator or a new time ("Separately, the load test scored
    0.97", "On Tuesday the suite passed"): a separate assertion, never an outcome of the
    one before."""
    words = _words(piece)
    return bool(words) and words[0] in _SEPARATORS


#: Agents: a piece that names one acts anew ("and we upgraded ..."), it is no outcome.
_AGENTS: frozenset[str] = frozenset((
    "we", "i", "you", "they", "he", "she", "someone", "somebody", "everyone", "everybody",
    "nobody", "team", "i've", "we've", "i'd", "we'd", "we'll", "i'll", "i'm", "we're",
    "they're", "they've", "you're",
))
#: Quantifiers that open an absolute phrase ("all 22 workflows ported", "none skipped").
_QUANTIFIERS: frozenset[str] = frozenset((
    "all", "every", "each", "both", "none", "most", "some", "half", "no", "several", "many",
    "few", "any",
))
_NUMBER = re.compile(r"^[~≈]?\d[\d,.]*%?$")
#: A piece that points back at the clause before as its reason or cause ("... started that
#: way", "that's why we ...", "because of this").
_ANAPHORIC_REASON = re.compile(
    r"\b(?:(?:that|this) way|like (?:that|this)|(?:that|this) is (?:why|how)|"
    r"(?:that|this)['’]s (?:why|how)|which is (?:why|how)|for (?:that|this) reason|"
    r"because of (?:that|this|it)|due to (?:that|this))\b", re.IGNORECASE)
#: Object pronouns that, ending a piece, point back at the clause before ("... where I want it").
_TRAILING_PRONOUNS: frozenset[str] = frozenset(("it", "them"))
#: Heads that are pro-forms for a noun of the clause before ("external ones", "the rest").
_PRO_FORM_HEADS: frozenset[str] = frozenset(("one", "ones", "rest", "others", "remainder"))
#: Possessives that open a statement about the previous fragment's subject ("Its ...").
_POSSESSIVES: frozenset[str] = frozenset(("its", "their"))
#: Subject pronouns: a piece that opens with one is a clause, not a list item.
_NOMINATIVES: frozenset[str] = frozenset(("we", "i", "you", "they", "he", "she"))
_POSSESSIVE_DETERMINERS: frozenset[str] = frozenset(("my", "our", "your", "his", "her",
                                                     "their"))
#: Prepositions among the dependent openers: with a finite verb after them they front a
#: clause of its own ("on Friday the pool was resized"), not a qualification.
_PREPOSITIONS: frozenset[str] = frozenset((
    "in", "on", "at", "from", "into", "under", "over", "with", "without", "via", "per", "for",
))
# A bare list item has at most this many words ("scheduled queries").
_BARE_ITEM_WORDS = 3


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


def _sentence_of(start: int, end: int, sentences: Sequence[Sentence],
                 ends: Sequence[int]) -> int | None:
    """The one sentence the span overlaps, or None when it overlaps none or several.

    Sentences are in source order and disjoint, so the first that ends after ``start`` is
    found by bisection (``ends`` are their ends) instead of a scan per fact."""
    stop = max(end, start + 1)
    first = bisect.bisect_right(ends, start)
    hits = []
    for i in range(first, len(sentences)):
        if sentences[i].start >= stop or len(hits) > 1:
            break
        hits.append(i)
    return hits[0] if len(hits) == 1 else None


def _group_of(fact: ExtractedFact, source: str, sentences: Sequence[Sentence],
              ends: Sequence[int]) -> _Group:
    kind = fact.kind.strip().upper() if isinstance(fact.kind, str) else ""
    subject = _normal_subject(fact.subject) if isinstance(fact.subject, str) else None
    subjects = frozenset({subject} if subject else ())
    fragments = _fragments_of(fact, source)
    if not fragments:
        return _Group(((fact, ()),), kind, None, subjects)
    start = min(f.start for f in fragments)
    end = max(f.end for f in fragments)
    return _Group(((fact, fragments),), kind, _sentence_of(start, end, sentences, ends),
                  subjects)


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
    """A pronoun ("It took 40 min"), a possessive ("Its migrations sit ...") or a
    demonstrative with a predicate ("This is flaky")."""
    words = _words(statement)
    if not words:
        return False
    return words[0] in PRONOUNS or words[0] in _POSSESSIVES or (
        words[0] in DEMONSTRATIVES and len(words) > 1 and words[1] in PREDICATE_WORDS)


def _pro_form(kind: str, later: _Fragment) -> bool:
    """A head that stands in for a noun of the clause before ("external ones are out of
    scope"): the scope of one decision, rule or preference. Not for a STATE, where "the new
    one is live" next to "the old cluster is retired" is a second subject."""
    split = _split_head(later.statement)
    return kind != "STATE" and split is not None and split[0][-1] in _PRO_FORM_HEADS


def _restates_subject(quote: str) -> bool:
    """The piece names its own speaker as subject ("..., and I keep my to-dos in a text
    file"): the writer restated it, so it starts a new clause, not a shred of the first."""
    body = _words(_LEADING_CONJUNCTION.sub("", quote.strip()))
    return bool(body) and body[0] in _NOMINATIVES


def _same_claim_by_statements(first: str, second: str, later_quote: str = "") -> bool:
    """Same head, a pronoun head, or same predicate; a looser test when no head is found."""
    if _refers_back(second):
        return True
    split_a, split_b = _split_head(first), _split_head(second)
    if split_a and split_b:
        (head_a, rest_a), (head_b, rest_b) = split_a, split_b
        if head_a == head_b and _has_content(head_a) and not _restates_subject(later_quote):
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
    if body[0] in _NOMINATIVES or (body[0] in _POSSESSIVE_DETERMINERS
                                   and any(w in PREDICATE_WORDS for w in body[1:])):
        return False  # "and we moved the board", "and my manager prefers ..."
    # A statement whose own subject is inside the piece may be a clause with a verb the table
    # lacks ("and the backup rotates"), unless the piece is plainly a list item.
    own = next((w for w in _words(later.statement)
                if w not in FUNCTION_WORDS and w not in _DETERMINERS), None)
    return own is None or own not in body or _list_item_shaped(raw) or _bare_item(body)


def _bare_item(body: Sequence[str]) -> bool:
    """'scheduled queries', 'dashboards': a short noun phrase with no determiner, pronoun or
    verb from the tables, so no clause of its own."""
    return (len(body) <= _BARE_ITEM_WORDS and body[0] not in _DETERMINERS
            and body[0] not in _PRONOUN_SUBJECTS and body[0] not in _AGENTS
            and not any(w in PREDICATE_WORDS or w in CLAUSE_MARKERS for w in body))


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
    if (words[0] in _PREPOSITIONS and len(words) > 1
            and any(w in CLAUSE_MARKERS for w in words[1:])):
        return False  # a fronted time or place of a clause: "on Friday the pool was resized"
    if words[0] in DEPENDENT_OPENERS or words[-1] in _TRAILING_DEPENDENT:
        return True  # "since it needs no daemon", "redirects included"
    if _parenthetical(earlier, later, source):
        return True  # "... to both stores (the review took two days)"
    if _ANAPHORIC_REASON.search(source[later.start:later.end]):
        return True  # "...; the last outages started that way"
    if words[-1] in _TRAILING_PRONOUNS and any(w in _AGENTS for w in words[:-1]):
        return True  # a speaker's stance on the clause before: "...; that's where I want it"
    if not any(w in CLAUSE_MARKERS for w in words):
        if _past_form(words[0]) and words[0] not in _AGENTS:
            return True  # a subject-less participle: "..., squashed into one commit"
        if _absolute(words):
            return True  # "..., 0 failed", "... and 4 pinned by exception"
    return words[0] in ("a", "an") and _appositive(words)


def _past_form(word: str) -> bool:
    """A past tense or participle by its form: "migrated", "rebuilt"."""
    return ((len(word) > 3 and word.endswith("ed") and word not in _NOT_PAST)
            or word in _IRREGULAR_PAST)


def _absolute(words: Sequence[str]) -> bool:
    """An absolute phrase: a count or quantifier and a participle ("all 22 jobs ported")."""
    return ((bool(_NUMBER.match(words[0])) or words[0] in _QUANTIFIERS)
            and any(_past_form(w) for w in words[1:]))


def _parenthetical(earlier: _Fragment, later: _Fragment, source: str) -> bool:
    """The later piece stands in parentheses right after the earlier one."""
    gap = source[earlier.end:later.start]
    return "(" in gap and source[later.end:].lstrip().startswith(")")


def _event_outcome(earlier: _Fragment, later: _Fragment, source: str) -> bool:
    """An EVENT's outcome is part of the event: an agent-less action ("Deployed the hotfix")
    followed in its sentence by what it caused ("and the failing jobs cleared"), when the
    later piece names no agent and opens with no separator or new time."""
    if not _adjacent(earlier, later, source):
        return False
    first = _words(earlier.statement)
    words = _words(source[later.start:later.end])
    if not first or not words or not _past_form(first[0]):
        return False
    return not opens_apart(source[later.start:later.end]) and not any(w in _AGENTS for w in words)


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


def _owned_by_kind(kind: str, earlier: _Fragment, later: _Fragment, source: str) -> bool:
    """A RESIDUAL's acceptance, on either side, or an EVENT's outcome."""
    return (_kind_part(kind, later, source) or _kind_part(kind, earlier, source)
            or (kind == "EVENT" and _event_outcome(earlier, later, source)))


def _same_assertion(x: _Fragment, y: _Fragment, source: str, kind: str) -> bool:
    earlier, later = (x, y) if (x.start, x.end) <= (y.start, y.end) else (y, x)
    return (_same_claim_by_statements(earlier.statement, later.statement,
                                      source[later.start:later.end])
            or _continues(earlier, later, source)
            or _depends(earlier, later, source)
            or _label_only(earlier, source) or _label_only(later, source)
            or _owned_by_kind(kind, earlier, later, source)
            or _pro_form(kind, later))


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
    ends = [sentence.end for sentence in sentences]
    groups: list[_Group | None] = [_group_of(fact, source, sentences, ends) for fact in facts]
    # Only groups of one sentence can merge, so each sentence's groups are folded on their
    # own, in list order: the same merges, earliest pair first, as one pass over all pairs
    # (which made a capture of many facts cubic).
    by_sentence: dict[int, list[int]] = {}
    for position, group in enumerate(groups):
        if group is not None and group.sentence is not None:
            by_sentence.setdefault(group.sentence, []).append(position)
    for positions in by_sentence.values():
        local = [groups[p] for p in positions]
        while (pair := _first_mergeable_pair(local, source)) is not None:
            i, j = pair
            local[i] = _merge_groups(local[i], local[j])
            groups[positions[i]], groups[positions[j]] = local[i], None
            del local[j], positions[j]
    return [_fold_group(group, source) for group in groups if group is not None]
