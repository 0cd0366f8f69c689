"""The polarity guard: a statement must not flip the negation of the quote it cites.

Seed 000 §7 records the "fact 74" incident: a fact written with its polarity flipped
("sample-svc is not green" stored as "sample-svc is green"). The quote is verbatim, the
statement is the model's paraphrase, so comparing the two catches the inversion in code.

The model, in three layers:

1. **Operators.** :func:`negation_cues` finds negation operators: ``not``, ``n't``, ``no``
   (as a determiner: "no exceptions", "no longer"), ``never``, ``none``, ``nobody``,
   ``nothing``, ``nowhere``, ``neither``, ``nor`` (only when it opens its own negation),
   ``without``, ``cannot``, ``lack(s)``, and ``fails to`` / ``unable to`` / ``refuses to``.
   Whole tokens only, so *know*, *note*, *node*, *none-such*, *no-op* never count. Idioms that
   contain an operator but do not negate the proposition are skipped: "not only ... (but
   also)", "no doubt", "no matter", "whether or not", "can't stand" (a verb meaning
   *dislike*), tag questions ("..., isn't it?") and an interjected "No," are examples; see
   :data:`NON_NEGATING_PHRASES`.
2. **Clauses.** A text is cut into clauses at sentence punctuation, semicolons, colons, dashes
   and contrastive conjunctions (*but*, *whereas*, *although*). Inside a clause operators
   nest, so parity decides: "never not run" is positive. Across clauses negations coordinate
   rather than nest, so a text is *negated* when any of its clauses has odd parity ("neither
   A nor B" and "not A, and not B" are both negated).
3. **Alignment.** A quote often says more than its statement ("the job is green, but the
   deploy is not"). Clauses of one side whose content words mostly do not occur on the other
   side are set aside before comparing, unless that leaves nothing. Content-free clauses
   ("No, it isn't") always stay: they are ellipses of the clause before them.

Lexical negation, in two tiers. A prefix-negated word whose base the other side says counts
as an operator: "unhealthy" against "healthy", "dislikes" against "like" (so "not unhealthy"
equals "healthy", and "dislikes" equals "does not like"). Other lexical negatives the other
side does not say -- :data:`IMPLICIT_NEGATIVES` ("missing", "gap", "skips", "stopped"),
:data:`LITOTES_VERBS` ("drop", "object to"), "zero" against "no" -- count only as a fallback
that can excuse a difference, never raise one: "found zero broken links" agrees with "found
no broken links", "doesn't dislike tabs" with "is fine with tabs", while "the importer skips
UTF-16" is not flagged against a paraphrase that says "passes over".

Inside a clause, operators nest only within one comma-free stretch: "does not resume, a known
issue left unfixed" is two coordinated negations, not a double negation.

A "not" right after a comma is a contrast, not a negation of the clause ("against a copy, not
the live replica"); "decided against" negates like "decided not to".

Limitations: negation scope is not parsed, so two coordinated flips ("A is not green and B
is red" against "A is green and B is not red") cancel out, and a negated context clause
about the same subject ("the offline mode never loses a draft, but it can duplicate one")
counts against a statement of the other clause; an inversion through an antonym ("keep" /
"drop") changes no operator and is left to the difference detector; an unmatched lexical
negative can excuse a real inversion next to it; "hardly", "rarely" and "barely" are not
operators; sarcasm and quoted speech are read literally.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "IMPLICIT_NEGATIVES",
    "LITOTES_VERBS",
    "NON_NEGATING_PHRASES",
    "Clause",
    "Cue",
    "aligned_clauses",
    "clause_parities",
    "explained_by_lexical_negation",
    "lexical_negatives",
    "mirrored_negations",
    "is_negated",
    "negation_cues",
    "negation_polarity",
    "polarity_mismatch",
    "prefix_negated_base",
    "same_stem",
    "split_clauses",
]

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

#: Tokens that are a negation operator on their own.
SINGLE_OPERATORS: frozenset[str] = frozenset((
    "not", "never", "none", "nobody", "nothing", "nowhere", "neither", "no-one", "noone",
    "cannot", "without", "lack", "lacks", "lacked", "lacking",
))
#: Contractions written without their apostrophe that are unambiguous ("cant" and "wont" are
#: words of their own, so they are not listed).
BARE_CONTRACTIONS: frozenset[str] = frozenset((
    "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "havent", "hasnt", "hadnt",
    "wouldnt", "shouldnt", "couldnt", "mustnt", "aint", "neednt",
))
#: "decided against X" is "decided not to X".
AGAINST_VERBS: frozenset[str] = frozenset((
    "decided", "decide", "decides", "opted", "opt", "opts", "voted", "vote", "votes", "chose",
    "choose", "chooses", "ruled", "rule", "rules", "argued", "advised", "recommended",
    "decision", "leaning", "leans", "settled",
))
#: Verbs that negate what follows them when followed by "to" ("fails to start").
TO_OPERATORS: frozenset[str] = frozenset((
    "fail", "fails", "failed", "failing", "unable", "refuse", "refuses", "refused", "refusing",
))
#: After these, "no" answers a question rather than negating a noun ("no, it is green").
INTERJECTION_FOLLOWERS: frozenset[str] = frozenset((
    "it", "it's", "i", "i'm", "we", "we're", "you", "you're", "they", "they're", "he", "she",
    "that", "that's", "this", "there", "the", "a", "an", "not", "wait", "sorry", "thanks",
))
#: Phrases that contain an operator but do not negate the proposition. Matched as whole
#: tokens separated only by whitespace; the whole phrase is skipped.
NON_NEGATING_PHRASES: tuple[tuple[str, ...], ...] = (
    ("not", "only"),
    ("not", "to", "mention"),
    ("not", "least"),
    ("no", "doubt"),
    ("no", "question"),
    ("no", "matter"),
    ("no", "exception"),
    ("no", "exceptions"),
    ("without", "a", "doubt"),
    ("without", "doubt"),
    ("without", "exception"),
    ("nothing", "but"),
    ("none", "other", "than"),
    ("none", "the", "less"),
    ("never", "mind"),
    ("or", "not"),
    # "can't stand" is a verb meaning "dislike"; its negation is lexical, not propositional.
    ("can't", "stand"),
    ("cannot", "stand"),
    ("can", "not", "stand"),
    ("couldn't", "stand"),
    ("can't", "wait"),
    ("cannot", "wait"),
    ("can't", "help"),
    ("couldn't", "help"),
)
#: "not just X but Y" asserts X; these count only when no "but"/"also" follows.
_NOT_JUST = frozenset(("just", "merely", "simply"))
#: Pronouns a tag question ends with ("..., isn't it?").
_TAG_PRONOUNS = frozenset(("it", "they", "we", "you", "he", "she", "i", "there", "that"))

#: Words that negate lexically. On the side without an explicit negation they supply the
#: missing one: "the UTF-16 gap" says what "does not validate UTF-16" says.
IMPLICIT_NEGATIVES: frozenset[str] = frozenset((
    "missing", "absent", "absence", "gap", "gaps", "hole", "holes", "read-only", "readonly",
    "omit", "omits", "omitted", "omitting", "skip", "skips", "skipped", "skipping",
    "ignore", "ignores", "ignored", "ignoring", "exclude", "excludes", "excluded", "excluding",
    # "stopped retrying" says what "no longer retries" says
    "stop", "stops", "stopped", "stopping", "cease", "ceases", "ceased", "quit", "quits",
))
#: "zero" and "0" stand for a quantifier negation only: "found zero broken links" = "found no
#: broken links", but "imported with zero errors" is not "was not imported".
ZERO_WORDS: frozenset[str] = frozenset(("zero", "0"))
QUANTIFIER_OPERATORS: frozenset[str] = frozenset(("no", "none", "nothing", "nobody", "no-one",
                                                  "noone", "nowhere", "without"))
#: Verbs that negate what they govern: under an operator they make a litotes ("not drop" =
#: "keep", "doesn't object to" = "is fine with", "never loses" = "always keeps").
LITOTES_VERBS: frozenset[str] = frozenset((
    "drop", "drops", "dropped", "object", "objects", "objected", "mind", "minds", "forget",
    "forgets", "forgot", "lose", "loses", "lost", "deny", "denies", "denied", "refuse",
    "refuses", "refused", "reject", "rejects", "rejected", "avoid", "avoids", "avoided",
    "block", "blocks", "blocked", "disable", "disables", "disabled",
))
#: Negative prefixes and the shortest base each may attach to ("in" + "form" is not a
#: negation, so the short prefixes demand a longer base).
NEGATIVE_PREFIXES: tuple[tuple[str, int], ...] = (
    ("non-", 3), ("non", 4), ("un", 4), ("dis", 4), ("in", 5), ("im", 5), ("il", 5), ("ir", 5),
)
#: Suffixes that negate their stem ("passwordless", "bug-free").
NEGATIVE_SUFFIXES: tuple[str, ...] = ("less", "-free")

#: Words that carry no content for alignment (the operators are excluded separately).
FUNCTION_WORDS: frozenset[str] = frozenset((
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "they", "them",
    "their", "we", "us", "our", "you", "your", "i", "me", "my", "he", "she", "his", "her",
    "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done",
    "have", "has", "had", "will", "would", "can", "could", "should", "shall", "may", "might",
    "must", "of", "to", "in", "on", "at", "for", "with", "by", "from", "as", "about", "into",
    "onto", "over", "under", "and", "or", "but", "so", "than", "then", "if", "because",
    "there", "here", "what", "which", "who", "whom", "whose", "any", "anymore", "more",
    "ever", "yet", "again", "still", "just", "also", "too", "very", "really", "right", "now",
    "currently", "all", "some", "only", "one", "yes", "ok", "okay", "well",
))

# --------------------------------------------------------------------------------------------
# Text handling
# --------------------------------------------------------------------------------------------

_STRAIGHTEN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
# Hyphens and apostrophes join a token: "no-op" and "non-utf-8" are single tokens, not "no".
_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
# Clause boundaries. A dot, colon or '?' counts only before whitespace or the end, so paths,
# versions, times and URLs never split.
_CLAUSE_BREAK = re.compile(
    r"[.;:!?…]+(?=\s|$)|;|[\u2014\u2013]|\s-{1,2}\s|,\s*(?:and|or|so|while)\b"
    r"|(?<!nothing )(?<!anything )\bbut\b|\b(?:whereas|although|though|however)\b"
)
_RESOLVER = re.compile(r"\b(?:but|also)\b")


def _fold(text: str) -> str:
    """Lowercase with straight quotes, character for character, so indices stay aligned."""
    straight = text.translate(_STRAIGHTEN)
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in straight)


@dataclass(frozen=True)
class _Token:
    text: str
    start: int
    end: int


def _tokens(folded: str, start: int = 0, end: int | None = None) -> list[_Token]:
    stop = len(folded) if end is None else end
    return [_Token(m.group(), m.start(), m.end())
            for m in _TOKEN.finditer(folded, start, stop)]


@dataclass(frozen=True)
class Cue:
    """One negation operator: its span in the text and the words around it, for reasons."""

    start: int
    end: int
    operator: str
    context: str


@dataclass(frozen=True)
class Clause:
    """A clause of a text: ``text == source[start:end]`` and the negation cues inside it."""

    start: int
    end: int
    text: str
    cues: tuple[Cue, ...]

    def stretch(self, position: int) -> int:
        """Which comma-separated stretch of the clause a position falls in."""
        return self.text.count(",", 0, max(0, position - self.start))

    def _counts(self, extra: Iterable[int], removed: Iterable[int]) -> Counter[int]:
        gone = set(removed)
        positions = [c.start for c in self.cues if c.start not in gone]
        positions += [p for p in extra if self.start <= p < self.end]
        return Counter(self.stretch(p) for p in positions)

    def negated(self, extra: Iterable[int] = (), removed: Iterable[int] = ()) -> bool:
        """Whether the clause is negated, with operators added at ``extra`` positions and the
        cues at ``removed`` positions ignored.

        Operators in one comma-free stretch nest, so an even number cancels out ("never fails
        to run"); stretches coordinate ("does not resume, a known issue left unfixed"), so the
        clause is negated when any stretch is.
        """
        return any(n % 2 for n in self._counts(extra, removed).values())

    def negated_at(self, position: int, extra: Iterable[int] = (),
                   removed: Iterable[int] = ()) -> bool:
        """Whether the stretch holding ``position`` is negated."""
        return self._counts(extra, removed)[self.stretch(position)] % 2 == 1

    @property
    def parity(self) -> int:
        """1 when the clause is negated, else 0."""
        return int(self.negated())


# --------------------------------------------------------------------------------------------
# Operators
# --------------------------------------------------------------------------------------------

def _joined(folded: str, tokens: Sequence[_Token], i: int, n: int) -> bool:
    """True when tokens i..i+n-1 exist and are separated by whitespace only."""
    if i + n > len(tokens):
        return False
    return all(folded[tokens[k].end:tokens[k + 1].start].isspace() for k in range(i, i + n - 1))


def _phrases_by_first_word() -> dict[str, tuple[tuple[str, ...], ...]]:
    grouped: dict[str, list[tuple[str, ...]]] = {}
    for phrase in NON_NEGATING_PHRASES:
        grouped.setdefault(phrase[0], []).append(phrase)
    return {word: tuple(phrases) for word, phrases in grouped.items()}


def _phrase_length(folded: str, tokens: Sequence[_Token], i: int) -> int:
    """Length of the non-negating phrase starting at token i, or 0."""
    for phrase in _PHRASES_BY_FIRST_WORD.get(tokens[i].text, ()):
        n = len(phrase)
        if (_joined(folded, tokens, i, n)
                and tuple(t.text for t in tokens[i:i + n]) == phrase):
            return n
    if (tokens[i].text == "not" and _joined(folded, tokens, i, 2)
            and tokens[i + 1].text in _NOT_JUST
            and _RESOLVER.search(folded, tokens[i + 1].end)):
        return 2
    return 0


def _is_tag_question(folded: str, tokens: Sequence[_Token], i: int) -> bool:
    """'..., isn't it?': a confirmation request, not a negation of the clause."""
    if i == 0 or i + 1 >= len(tokens) or not tokens[i].text.endswith("n't"):
        return False
    before = folded[tokens[i - 1].end:tokens[i].start]
    after = folded[tokens[i + 1].end:].strip()
    return ("," in before and tokens[i + 1].text in _TAG_PRONOUNS
            and (after == "" or after.startswith("?")))


def _is_operator(folded: str, tokens: Sequence[_Token], i: int, seen: int) -> bool:
    """Whether token i negates; ``seen`` counts operators earlier in the same clause."""
    word = tokens[i].text
    if word == "not" and i > 0 and "," in folded[tokens[i - 1].end:tokens[i].start]:
        # "against a copy, not the live replica": a contrast, the clause itself is positive.
        return False
    if word in SINGLE_OPERATORS or word in BARE_CONTRACTIONS:
        return True
    if word.endswith("n't"):
        return not _is_tag_question(folded, tokens, i)
    if word == "no":
        # A determiner ("no exceptions", "no longer") negates; an answer ("No, ...") does not.
        return (_joined(folded, tokens, i, 2)
                and tokens[i + 1].text not in INTERJECTION_FOLLOWERS)
    if word == "against":
        return i > 0 and tokens[i - 1].text in AGAINST_VERBS
    if word == "nor":
        # "neither A nor B" / "not A nor B" is one negation; a clause opening with "Nor" is one.
        return seen == 0
    if word in TO_OPERATORS:
        return _joined(folded, tokens, i, 2) and tokens[i + 1].text == "to"
    return False


def _context(text: str, tokens: Sequence[_Token], i: int) -> str:
    """The operator with one word either side, as the source spells it."""
    first = tokens[max(0, i - 1)].start
    last = tokens[min(len(tokens) - 1, i + 1)].end
    return " ".join(text[first:last].split())


def _clause_cues(text: str, folded: str, start: int, end: int) -> tuple[Cue, ...]:
    tokens = _tokens(folded, start, end)
    cues: list[Cue] = []
    i = 0
    while i < len(tokens):
        skip = _phrase_length(folded, tokens, i)
        if skip:
            i += skip
            continue
        if _is_operator(folded, tokens, i, len(cues)):
            token = tokens[i]
            cues.append(Cue(token.start, token.end, token.text, _context(text, tokens, i)))
        i += 1
    return tuple(cues)


# --------------------------------------------------------------------------------------------
# Clauses
# --------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=8192)
def split_clauses(text: str) -> tuple[Clause, ...]:
    """Cut a text into clauses (see the module docstring) with their negation cues.

    Cached: the density check reads the same statements against many near-hits, and the
    result is immutable."""
    folded = _fold(text)
    cuts = [0]
    for match in _CLAUSE_BREAK.finditer(folded):
        cuts.extend((match.start(), match.end()))
    cuts.append(len(text))
    clauses: list[Clause] = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=True):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if any(c.isalnum() for c in text[start:end]):
            clauses.append(Clause(start, end, text[start:end],
                                  _clause_cues(text, folded, start, end)))
    return tuple(clauses)


def negation_cues(text: str) -> tuple[Cue, ...]:
    """Every negation operator in the text, in order."""
    return tuple(cue for clause in split_clauses(text) for cue in clause.cues)


def negation_polarity(text: str) -> int:
    """The number of negation operators in the text; its parity is the text's polarity."""
    return len(negation_cues(text))


def is_negated(clauses: Iterable[Clause]) -> bool:
    """A text is negated when any of its clauses is (negations across clauses coordinate)."""
    return any(clause.negated() for clause in clauses)


# --------------------------------------------------------------------------------------------
# Alignment: compare the clauses the two sides share
# --------------------------------------------------------------------------------------------

def _content_words(text: str) -> list[str]:
    words = []
    for token in _tokens(_fold(text)):
        word = token.text.removesuffix("'s")
        if (word not in FUNCTION_WORDS and word not in SINGLE_OPERATORS and word != "no"
                and not word.endswith("n't") and word not in BARE_CONTRACTIONS):
            words.append(word)
    return words


def same_stem(a: str, b: str) -> bool:
    """A crude stem match: 'validates'/'validation', 'job'/'jobs' share, 'green'/'grey' do not."""
    if a == b:
        return True
    shortest = min(len(a), len(b))
    if shortest < 3 or not (a[0].isalpha() and b[0].isalpha()):
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= min(5, shortest)


def _shares(word: str, others: Iterable[str]) -> bool:
    return any(same_stem(word, other) for other in others)


# A clause is kept for the comparison when more than this share of its content words occur
# on the other side: "The job is not green" (1 of 2) does not speak for "The deploy is green".
_ALIGNED_SHARE = 0.5


def _share(clause: Clause, other: Sequence[str]) -> float | None:
    """Share of the clause's content words that occur on the other side; None if it has none."""
    words = _content_words(clause.text)
    if not words:
        return None
    return sum(_shares(w, other) for w in words) / len(words)


def aligned_clauses(clauses: Sequence[Clause], other_text: str) -> tuple[Clause, ...]:
    """The clauses that speak to the other text, plus content-free ones (ellipses).

    A clause speaks to the other text when most of its content words occur there. When none
    does, the best-sharing clauses are kept (a loose paraphrase); when nothing is shared at
    all, every clause is: a clause that shares no content cannot be told apart from one
    that inverts it, so the safe reading compares the whole text.
    """
    other = _content_words(other_text)
    shares = [_share(clause, other) for clause in clauses]
    scored = [s for s in shares if s is not None]
    if not scored:
        return tuple(clauses)
    best = max(scored)
    if best == 0:
        return tuple(clauses)
    return tuple(c for c, s in zip(clauses, shares, strict=True)
                 if s is None or s == best or s > _ALIGNED_SHARE)


# --------------------------------------------------------------------------------------------
# Lexical negation
# --------------------------------------------------------------------------------------------

def prefix_negated_base(word: str) -> str | None:
    """'unhealthy' -> 'healthy', 'non-blocking' -> 'blocking'; None when not prefix-negated.

    Adverbs ('unfortunately', 'unexpectedly') comment on a clause rather than negate it.
    """
    if word.endswith("ly"):
        return None
    for prefix, shortest_base in NEGATIVE_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= shortest_base:
            return word[len(prefix):].lstrip("-")
    return None


def _words(text: str) -> list[str]:
    return [t.text for t in _tokens(_fold(text))]


def _clause_tokens(clause: Clause) -> list[_Token]:
    """The clause's tokens with positions in the whole text; its operators left out."""
    cue_starts = {c.start for c in clause.cues}
    return [_Token(t.text, clause.start + t.start, clause.start + t.end)
            for t in _tokens(_fold(clause.text)) if clause.start + t.start not in cue_starts]


def mirrored_negations(clause: Clause, other_text: str) -> list[int]:
    """Positions of prefix-negated words whose base the other side says ('unhealthy' against
    'healthy'). Each negates exactly what the other side asserts: an operator."""
    other = _words(other_text)
    found = []
    for token in _clause_tokens(clause):
        base = prefix_negated_base(token.text)
        if base is not None and _shares(base, other) and not _shares(token.text, other):
            found.append(token.start)
    return found


def clause_parities(clauses: Sequence[Clause], other_text: str) -> list[int]:
    """1 for each negated clause, counting prefix negations mirrored on the other side."""
    return [int(c.negated(extra=mirrored_negations(c, other_text))) for c in clauses]


#: Words ending in "less" that do not negate a stem.
_NOT_SUFFIX_NEGATIONS = frozenset(("regardless", "nevertheless", "nonetheless", "unless"))


def _suffix_negated(word: str) -> bool:
    """'passwordless', 'bug-free'."""
    return word not in _NOT_SUFFIX_NEGATIONS and any(
        word.endswith(s) and len(word) > len(s) + 3 for s in NEGATIVE_SUFFIXES)


def _cancels_only(word: str) -> bool:
    """Negative verbs and prefix words ('drop', 'dislike'): too common to supply a negation
    on their own ('integration' is not 'in-' + 'tegration'), but an operator over one makes
    a litotes."""
    return word in LITOTES_VERBS or prefix_negated_base(word) is not None


def lexical_negatives(clause: Clause, other_text: str) -> list[int]:
    """Positions of lexical negatives the other side does not also say.

    'gap', 'missing', 'skips', 'stopped', 'passwordless' anywhere; 'zero' when the other side
    negates with a quantifier ('no', 'none', 'without'); 'drop', 'object', 'dislike' only in a
    stretch that already holds an operator, where they cancel it ("don't dislike").
    """
    other = _words(other_text)
    quantified = bool({c.operator for c in negation_cues(other_text)} & QUANTIFIER_OPERATORS)
    mirrored = set(mirrored_negations(clause, other_text))
    operator_stretches = {clause.stretch(c.start) for c in clause.cues}
    found = []
    for token in _clause_tokens(clause):
        if _shares(token.text, other) or token.start in mirrored:
            continue  # both sides say it, or it is counted already
        if (token.text in IMPLICIT_NEGATIVES or _suffix_negated(token.text)
                or (token.text in ZERO_WORDS and quantified)
                or (_cancels_only(token.text)
                    and clause.stretch(token.start) in operator_stretches)):
            found.append(token.start)
    return found


@functools.lru_cache(maxsize=8192)
def explained_by_lexical_negation(a: str, b: str) -> bool:
    """True when the two sides agree once lexical negation counts as an operator.

    This is a fallback only: it may excuse a difference ("found zero broken links" against
    "found no broken links", "the UTF-16 gap" against "does not validate UTF-16", "doesn't
    dislike tabs" against "is fine with tabs"), never create one.
    """
    negated = []
    for text, other in ((a, b), (b, a)):
        clauses = aligned_clauses(split_clauses(text), other)
        negated.append(any(c.negated(extra=lexical_negatives(c, other)
                                     + mirrored_negations(c, other)) for c in clauses))
    return negated[0] == negated[1]


# --------------------------------------------------------------------------------------------
# The guard
# --------------------------------------------------------------------------------------------

def _shown(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


def _negating_words(clauses: Sequence[Clause], parities: Sequence[int]) -> str:
    """The words around the first operator of the first negated clause, for the reason."""
    for clause, parity in zip(clauses, parities, strict=True):
        if parity:
            return clause.cues[0].context if clause.cues else clause.text
    return ""


def _side(text: str, other: str) -> tuple[tuple[Clause, ...], list[int]]:
    """A side's aligned clauses and their parities against the other side."""
    clauses = aligned_clauses(split_clauses(text), other)
    return clauses, clause_parities(clauses, other)


def polarity_mismatch(statement: str, quote: str) -> str | None:
    """The reason a statement's polarity differs from its quote's, or None when it agrees.

    Compares the aligned clauses of both sides (see the module docstring); a difference that
    lexical negation explains ("found zero" / "found no") is not flagged.
    """
    if not statement.strip() or not quote.strip():
        return None
    s_clauses, s_parities = _side(statement, quote)
    q_clauses, q_parities = _side(quote, statement)
    s_negated, q_negated = any(s_parities), any(q_parities)
    if s_negated == q_negated or explained_by_lexical_negation(statement, quote):
        return None
    if q_negated:
        return (f"polarity: the statement says '{_shown(statement)}' but the quote negates it "
                f"('{_negating_words(q_clauses, q_parities)}')")
    return (f"polarity: the statement negates it ('{_negating_words(s_clauses, s_parities)}') "
            f"but the quote says '{_shown(quote)}'")


_PHRASES_BY_FIRST_WORD = _phrases_by_first_word()
