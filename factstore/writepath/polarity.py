"""The polarity guard: a statement must not flip the negation of the quote it cites.

Seed 000 §7 records the "fact 74" incident: a fact written with its polarity flipped
("sample-svc is not green" stored as "sample-svc is green"). The quote is verbatim, the
statement is the model's paraphrase, so comparing the two catches the inversion in code.
:func:`polarity_mismatch` returns the reason for a flip, or None. It reads words only (no
parse, no model), so it works for any extractor; a caller that has a parse may pass
``quote_negated`` (see *The parse* below).

The model, in four layers:

1. **Operators.** :func:`negation_cues` finds negation operators: ``not``, ``n't``, ``no``
   (as a determiner: "no exceptions", "no longer"), ``never``, ``none``, ``nobody``,
   ``nothing``, ``nowhere``, ``neither``, ``nor`` (only when it opens its own negation),
   ``without``, ``cannot``, ``lack(s)``, and ``fails to`` / ``unable to`` / ``refuses to``.
   Whole tokens only, so *know*, *note*, *node*, *none-such*, *no-op* never count. Idioms that
   contain an operator but do not negate the proposition are skipped: "not only ... but
   also", "no doubt", "no matter", "whether or not", "can't stand" (a verb meaning
   *dislike*), "can't wait", "couldn't be happier", "can't stop smiling", "can't help but",
   "can't believe it's been a year", "couldn't agree more", "no wonder", a clause-opening
   "Not bad" or "No worries", tag questions ("..., isn't it?") and an interjected "No," are
   examples; see :data:`NON_NEGATING_PHRASES`, :data:`OPENING_PHRASES` and
   :data:`IDIOM_PATTERNS` (their plain uses stay negations: "can't help you", "can't stop
   the job", "the food is not bad"). The parser extractor reads its ``negated`` flag
   through the same spans (:func:`set_aside_negators`), so the two readers agree. A "not"
   right after a comma is a contrast ("against a copy, not the live replica") unless it
   opens a participle phrase ("ran for an hour, not finishing the backfill"); "decided
   against" negates like "decided not to".
2. **Clauses and stretches.** A text is cut into clauses at sentence punctuation,
   semicolons, colons, dashes and contrastive conjunctions (*but*, *whereas*, *although*),
   and a clause into stretches at commas, *and*, *or* and *because*. Inside a stretch
   operators nest, so parity decides: "never not run" is positive. Across stretches and
   clauses negations coordinate rather than nest ("nobody was paged and nobody noticed",
   "does not resume, a known issue left unfixed", "unable to start because it could not pull
   the image"), so a text is *negated* when any of its stretches has odd parity.
3. **Alignment.** A quote often says more than its statement ("the job is green, but the
   deploy is not"). Clauses of one side whose content words mostly do not occur on the other
   side are set aside before comparing, unless that leaves nothing; a set-aside clause comes
   back when it is the closest match of a clause the other side kept (the negated clause of
   a loose paraphrase, whose words the other side spread over two clauses). Content-free
   clauses ("No, it isn't") always stay: they are ellipses of the clause before them.
4. **Hidden flips.** Two texts can both be negated and still disagree: "the audit is not the
   blocker, but the report shows a regression" against "... but the report does not show a
   regression". So
   stretches are also compared pairwise: when a negated stretch on one side and a positive
   one on the other say the same thing (one's content words all occur in the other, and the
   word an operator governs -- its *focus*, "show" in "does not show" -- is among them), and
   neither has a partner of its own polarity on the other side, that is an inversion too.

Lexical negation, in three tiers; each counts as an operator only against what the other
side says, so none of them can excuse a flip of the very word it is read against:

- **Mirrored prefix and suffix negation** counts in the comparison: a word the other side
  says with a negative prefix or suffix ("unhealthy" against "healthy", "dislikes" against
  "like", "passwordless" against "no password", "bug-free" against "without bugs") is an
  operator, so "not unhealthy" equals "healthy". The other side must say the base word
  itself (an inflection of it): "unhealthy" is not mirrored by "health", nor "unvalidated"
  by "validation"; and a base this side also says ("the first canary was unsuccessful, the
  second successful") mirrors nothing.
- **Antonyms** (WordNet 3.0, :mod:`factstore.antonyms`): when the sides disagree, a word on
  a positive stretch that is an opposite of the focus of a negation on the other side counts
  as an operator: "not homogeneous" equals "heterogeneous", "not fat" equals "thin" (or, by
  adjective cluster, "skinny"), "didn't pass" and "didn't succeed" equal "failed". The focus
  must not occur on the antonym's side and the antonym not on the negated side, so "not fat"
  against "fat" stays an inversion, and "fat" against "not thin" is a restatement. Only the
  pairs that disagree somewhere (overall or in a stretch) consult WordNet, so agreeing
  pairs never load it.
- **Other lexical negatives** the other side does not say -- :data:`IMPLICIT_NEGATIVES`
  ("missing", "gap", "skips", "stopped", "refrained"), "left out", "free of", "too old to",
  prefix negatives WordNet confirms ("unclear", "illiterate", "unauthorized": WordNet lists
  the base as their antonym), :data:`LITOTES_VERBS` ("drop", "object to"), "zero" against
  "no" -- count only as a fallback that can excuse a difference, never raise one: "found zero
  broken links" agrees with "found no broken links", "doesn't dislike tabs" with "is fine
  with tabs", "is unclear" with "is not known", "too old to boot" with "cannot boot".
  Words are compared by inflection, irregular forms included ("did not lose" is the
  negation of "lost", not a litotes).

The parse. ``polarity_mismatch(statement, quote, quote_negated=...)`` takes the extractor
parser's reading of the quote: True when the parse found a negator in it, False when not.
It reports presence, not parity, and it sees scope and idioms that word lists miss, so it
is used where it is the better witness and nowhere else:

- it agrees with the words (a negator found by both, or by neither): nothing changes;
- False while the words found operators: the operators a parser marks as negation (``not``,
  ``n't``, ``no``, ``never``, ``without``, ... see :data:`PARSED_OPERATORS`) are read as the
  parse reads them, i.e. set aside; lexical and verbal ones it does not mark ("lacks",
  "fails to", "decided against") stand;
- True while the words found no operator anywhere in the quote: the quote counts as
  negated (a negator the word lists do not know), unless the quote's only negator-shaped
  words are ones the words set aside (an idiom, a contrastive ", not", a hyphenated
  "not-so-great") and the statement says every one of them too;
- True while the words found operators whose parity cancels ("never fails to"): the words
  stand, since parity is finer than presence.

Limitations: negation scope is not parsed, so two coordinated flips ("A is not green and B
is red" against "A is green and B is not red") cancel out unless a hidden flip pairs them;
an inversion through an antonym ("keep" / "drop") changes no operator and is left to the
difference detector; an unmatched lexical negative can excuse a real inversion next to it;
a comma between two adjectives ("no quick, unreviewed merges") still starts a
stretch; "hardly", "rarely" and "barely" are not operators; paraphrases that need world
knowledge ("not welcome" / "resented", "could not finish alone" / "needed help") are flagged;
sarcasm and quoted speech are read literally.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

__all__ = [
    "IMPLICIT_NEGATIVES",
    "LITOTES_VERBS",
    "IDIOM_PATTERNS",
    "NON_NEGATING_PHRASES",
    "OPENING_PHRASES",
    "PARSED_OPERATORS",
    "Clause",
    "Cue",
    "aligned_clauses",
    "aligned_negation",
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
    "same_word",
    "set_aside_negators",
    "split_clauses",
    "suffix_negated_base",
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
#: Operators a dependency parser marks as negation (``neg`` and the negative determiners and
#: pronouns); the rest ("lacks", "fails to", "decided against") are lexical or verbal, which
#: a parse does not report. ``n't`` forms and bare contractions count as well.
PARSED_OPERATORS: frozenset[str] = frozenset((
    "not", "no", "never", "none", "nobody", "nothing", "nowhere", "neither", "nor", "no-one",
    "noone", "cannot", "without",
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
#: tokens separated only by whitespace; the whole phrase is skipped. ("not only" is not
#: listed: it is an idiom only when "but" or "also" follows, see ``_NOT_JUST``.)
NON_NEGATING_PHRASES: tuple[tuple[str, ...], ...] = (
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
    ("couldn't", "wait"),
    ("no", "wonder"),
    ("never", "been", "better"),
)
#: Idioms that are idioms only where a clause opens: "Not bad at all!", "No worries, I'll
#: bring it" answer or evaluate; "the food is not bad" and "there is no problem" negate.
OPENING_PHRASES: tuple[tuple[str, ...], ...] = (
    ("not", "bad"), ("no", "problem"), ("no", "problems"), ("no", "worries"),
)
#: Idioms with a negator that assert, not deny (excitement, emphasis, inevitability): "can't
#: wait to see it", "couldn't be happier", "can't stop smiling", "can't help but laugh",
#: "can't believe it's been a year", "couldn't agree more", "can't thank you enough". Each is
#: matched at a token's start, over whitespace only; the parser extractor reads the same
#: spans (:func:`set_aside_negators`), so the guard and the parse agree on them. Their plain
#: uses stay negations: "can't help you", "can't stop the job", "can't believe in ghosts".
_CANT = r"(?:can't|cannot|can not|couldn't|could not)"
IDIOM_PATTERNS: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    _CANT + r"\s+wait\b",
    _CANT + r"\s+believe\b(?!\s+in\b)",
    _CANT + r"\s+(?:help|stop)\s+(?:but\b|it\b|myself\b|[a-z]+ing\b)",
    _CANT + r"\s+(?:be|have\s+been|feel)\s+(?:any\s+)?(?:more|happier|prouder|better|"
    r"luckier|gladder|closer|easier|sweeter|greater|nicer|cooler|stronger|worse)\b",
    _CANT + r"\s+(?:agree|love\s+(?:it|this|that|you))\s+more\b",
    _CANT + r"\s+(?:thank\s+\w+|recommend\s+\w+|say\s+\w+|stress\s+\w+|get)\s+enough\b",
    _CANT + r"\s+ask\s+for\s+(?:a\s+|any\s+)?(?:more|better)\b",
))
#: "not only X but (also) Y" asserts X; so do "not just", "not merely", "not simply". Without
#: a "but" or "also" after it, "not only one God" is a plain negation.
_NOT_JUST = frozenset(("only", "just", "merely", "simply"))
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
    # "refrained from posting" says what "has not posted" says
    "refrain", "refrains", "refrained", "refraining", "abstain", "abstains", "abstained",
    "abstaining",
))
#: Phrasal verbs of omission: "left out the binary fields" says "kept no binary fields", as
#: "omitted" would.
_PHRASAL_NEGATIVES: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset(("leave", "leaves", "left", "leaving")), "out"),
    (frozenset(("rule", "rules", "ruled", "ruling")), "out"),
)
#: "free" negates what it governs in "free of X" / "free from X" ("stays free of network
#: access" = "cannot have any network access").
_FREE_OF = ("free", frozenset(("of", "from")))
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
#: Suffixes that negate their stem ("passwordless", "bug-free", "handsfree"), and the
#: shortest stem each takes.
NEGATIVE_SUFFIXES: tuple[tuple[str, int], ...] = (("less", 3), ("-free", 2), ("free", 4))
#: Connectives that look prefix- or suffix-negated ("non" + "etheless", "regard" + "less")
#: but negate nothing.
_CONNECTIVES = frozenset(("regardless", "nevertheless", "nonetheless", "unless", "nonstop"))

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
# Stretch boundaries inside a clause: operators on either side coordinate, never nest.
_STRETCH_BREAK = re.compile(r",|\b(?:and|or|because)\b")
_RESOLVER = re.compile(r"\b(?:but|also)\b")


@functools.lru_cache(maxsize=16384)
def _fold(text: str) -> str:
    """Lowercase with straight quotes, character for character, so indices stay aligned."""
    straight = text.translate(_STRAIGHTEN)
    if straight.isascii():
        return straight.lower()
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


@functools.lru_cache(maxsize=8192)
def _stretch_breaks(text: str) -> tuple[int, ...]:
    """Offsets in a clause's text where a new stretch begins (see the module docstring)."""
    return tuple(m.start() for m in _STRETCH_BREAK.finditer(_fold(text)))


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
    #: spans (in the whole text) of negator-shaped words read as no negation: idioms, a
    #: contrastive ", not", a tag question, an answering "No,", a hyphenated compound
    asides: tuple[tuple[int, int], ...] = ()

    def stretch(self, position: int) -> int:
        """Which stretch of the clause a position falls in (stretches are cut at commas and at
        *and*, *or*, *because*)."""
        return bisect.bisect_left(_stretch_breaks(self.text), max(0, position - self.start))

    def _counts(self, extra: Iterable[int], removed: Iterable[int]) -> Counter[int]:
        gone = set(removed)
        positions = [c.start for c in self.cues if c.start not in gone]
        positions += [p for p in extra if self.start <= p < self.end]
        return Counter(self.stretch(p) for p in positions)

    def negated(self, extra: Iterable[int] = (), removed: Iterable[int] = ()) -> bool:
        """Whether the clause is negated, with operators added at ``extra`` positions and the
        cues at ``removed`` positions ignored.

        Operators in one stretch nest, so an even number cancels out ("never fails to run");
        stretches coordinate ("does not resume, a known issue left unfixed"), so the clause
        is negated when any stretch is.
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
    if i == 0 or "," in folded[tokens[i - 1].end:tokens[i].start]:
        for phrase in OPENING_PHRASES:
            n = len(phrase)
            if (_joined(folded, tokens, i, n)
                    and tuple(t.text for t in tokens[i:i + n]) == phrase):
                return n
    if tokens[i].text in _IDIOM_OPENERS:
        for pattern in IDIOM_PATTERNS:
            match = pattern.match(folded, tokens[i].start)
            if match:
                return sum(1 for t in tokens[i:] if t.start < match.end())
    return 0


#: The words an idiom pattern may open with (the patterns are tried only after them).
_IDIOM_OPENERS = frozenset(("can't", "cannot", "can", "couldn't", "could"))


def _is_tag_question(folded: str, tokens: Sequence[_Token], i: int) -> bool:
    """'..., isn't it?': a confirmation request, not a negation of the clause."""
    if i == 0 or i + 1 >= len(tokens) or not tokens[i].text.endswith("n't"):
        return False
    before = folded[tokens[i - 1].end:tokens[i].start]
    after = folded[tokens[i + 1].end:].strip()
    return ("," in before and tokens[i + 1].text in _TAG_PRONOUNS
            and (after == "" or after.startswith("?")))


def _opens_participle_phrase(folded: str, tokens: Sequence[_Token], i: int) -> bool:
    """', not finishing the backfill', ', not retried by the scheduler': a negated
    participle with words of its own after it. A bare ', not repaired.' is a contrast like
    ', not a tag'."""
    if not _joined(folded, tokens, i, 2) or i + 2 >= len(tokens):
        return False
    word = tokens[i + 1].text
    return (len(word) > 4 and word.endswith(("ing", "ed"))
            and "," not in folded[tokens[i + 1].end:tokens[i + 2].start])


def _is_operator(folded: str, tokens: Sequence[_Token], i: int, seen: int) -> bool:
    """Whether token i negates; ``seen`` counts operators earlier in the same clause."""
    word = tokens[i].text
    if word == "not" and i > 0 and "," in folded[tokens[i - 1].end:tokens[i].start]:
        # "against a copy, not the live replica": a contrast, the clause itself is positive.
        return _opens_participle_phrase(folded, tokens, i)
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


def _clause_cues(text: str, folded: str, start: int, end: int
                 ) -> tuple[tuple[Cue, ...], tuple[tuple[int, int], ...]]:
    """The clause's negation cues, and the spans of negator-shaped words it sets aside."""
    tokens = _tokens(folded, start, end)
    cues: list[Cue] = []
    asides: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        skip = _phrase_length(folded, tokens, i)
        if skip:
            asides.append((tokens[i].start, tokens[i + skip - 1].end))
            i += skip
            continue
        token = tokens[i]
        if _is_operator(folded, tokens, i, len(cues)):
            cues.append(Cue(token.start, token.end, token.text, _context(text, tokens, i)))
        elif _negator_shaped(token.text):
            asides.append((token.start, token.end))
        i += 1
    return tuple(cues), tuple(asides)


def _negator_shaped(word: str) -> bool:
    """A word a parser may mark as negation: an operator word, a "n't" form, or a hyphenated
    compound holding one ("not-so-great", "never-ending", "no-op")."""
    return (word in PARSED_OPERATORS or word in BARE_CONTRACTIONS or word.endswith("n't")
            or ("-" in word and any(part in PARSED_OPERATORS for part in word.split("-"))))


def _parsed_kind(operator: str) -> bool:
    """Whether a parser marks this operator as negation (see :data:`PARSED_OPERATORS`)."""
    return (operator in PARSED_OPERATORS or operator in BARE_CONTRACTIONS
            or operator.endswith("n't"))


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
            cues, asides = _clause_cues(text, folded, start, end)
            clauses.append(Clause(start, end, text[start:end], cues, asides))
    return tuple(clauses)


@functools.lru_cache(maxsize=8192)
def set_aside_negators(text: str) -> tuple[tuple[int, int], ...]:
    """Spans of ``text`` holding a negator-shaped word the words read as no negation: an
    idiom ("can't wait", "no doubt", "couldn't be happier"), a contrastive ", not", a tag
    question, an answering "No,", a hyphenated compound ("not-so-great").

    The parser extractor reads its ``negated`` flag through these spans, so the parse and the
    polarity guard agree on what negates."""
    return tuple(span for clause in split_clauses(text) for span in clause.asides)


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
# Words: content, stems and inflections
# --------------------------------------------------------------------------------------------

#: Quantifiers and correlatives that carry no content here ("both the API and the worker"
#: against "neither the API nor the worker").
_CORRELATIVES = frozenset(("nor", "both", "either"))


#: A pronoun with its verb contracted ("I'm", "they're") carries no content: a scribe writes
#: "I'm not into hiking" as "Nate is not into hiking", and the clause must still align.
_PRONOUN_CONTRACTIONS = frozenset(
    f"{p}'{v}" for p in ("i", "we", "you", "they", "he", "she", "that", "there", "what", "who",
                         "let")
    for v in ("m", "re", "ve", "d", "ll", "s"))


def _is_content(word: str) -> bool:
    return (word not in FUNCTION_WORDS and word not in SINGLE_OPERATORS and word != "no"
            and word not in _CORRELATIVES and not word.endswith("n't")
            and word not in BARE_CONTRACTIONS and word not in _PRONOUN_CONTRACTIONS)


@functools.lru_cache(maxsize=16384)
def _content_words(text: str) -> tuple[str, ...]:
    words = []
    for token in _tokens(_fold(text)):
        word = token.text.removesuffix("'s")
        if _is_content(word):
            words.append(word)
    return tuple(words)


@functools.lru_cache(maxsize=16384)
def _words(text: str) -> tuple[str, ...]:
    return tuple(t.text for t in _tokens(_fold(text)))


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


@functools.lru_cache(maxsize=16384)
def _root(word: str) -> str:
    """The word without its regular inflection: 'likes'/'liked'/'liking' -> 'lik',
    'passes'/'pass' -> 'pass', 'stopped' -> 'stop'. Derivations stay apart ('validation')."""
    w = word.removesuffix("'s")
    if w.endswith(("ies", "ied")) and len(w) > 4:
        return w[:-3] + "y"
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[:-len(suffix)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "slzf":
                w = w[:-1]  # "stopped", "running"
            return w.removesuffix("e")
    if w.endswith("es") and w[:-2].endswith(("s", "x", "z", "ch", "sh")) and len(w) > 4:
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        w = w[:-1]
    return w.removesuffix("e")


@functools.lru_cache(maxsize=16384)
def _lemma_set(word: str) -> frozenset[str]:
    """WordNet's lemmas of a word, irregular forms included ('lost' -> 'lose'). Loads the
    WordNet table on first use, so only the slow paths call it."""
    from factstore.antonyms import lemmas  # lazy: the table takes about a second to build

    return frozenset(lemmas(word))


def same_word(a: str, b: str, *, wordnet: bool = False) -> bool:
    """The same word up to inflection ('validated'/'validates'); with ``wordnet``, irregular
    inflections too ('lost'/'lose', 'went'/'go')."""
    if a == b or _root(a) == _root(b):
        return True
    return wordnet and a.isalpha() and b.isalpha() and bool(_lemma_set(a) & _lemma_set(b))


def _said(word: str, others: Iterable[str], *, wordnet: bool = False) -> bool:
    """Whether the other side says this word (a shared stem, or the same word inflected)."""
    return any(same_stem(word, other) or same_word(word, other, wordnet=wordnet)
               for other in others)


def _inflects(word: str, others: Iterable[str]) -> bool:
    """Whether the other side says this very word, in any inflection."""
    return any(same_word(word, other, wordnet=True) for other in others)


# --------------------------------------------------------------------------------------------
# Prefix and suffix negation
# --------------------------------------------------------------------------------------------

def prefix_negated_base(word: str) -> str | None:
    """'unhealthy' -> 'healthy', 'non-blocking' -> 'blocking'; None when not prefix-negated.

    Adverbs ('unfortunately', 'unexpectedly') comment on a clause rather than negate it.
    """
    if word.endswith("ly") or word in _CONNECTIVES:
        return None
    for prefix, shortest_base in NEGATIVE_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= shortest_base:
            return word[len(prefix):].lstrip("-")
    return None


def suffix_negated_base(word: str) -> str | None:
    """'passwordless' -> 'password', 'aimlessly' -> 'aim', 'bug-free' -> 'bug',
    'handsfree' -> 'hands'; None when the word does not negate a stem."""
    stem = word.removesuffix("ly") if word.endswith("lessly") else word
    if stem in _CONNECTIVES:
        return None
    for suffix, shortest in NEGATIVE_SUFFIXES:
        if stem.endswith(suffix) and len(stem) - len(suffix) >= shortest:
            return stem[:-len(suffix)].rstrip("-")
    return None


def _suffix_negated(word: str) -> bool:
    """'passwordless', 'bug-free'."""
    return suffix_negated_base(word) is not None


@functools.lru_cache(maxsize=16384)
def _negated_base(word: str) -> str | None:
    return prefix_negated_base(word) or suffix_negated_base(word)


def _base_said(word: str, others: Iterable[str]) -> bool:
    """A prefix- or suffix-negated word whose base the other side says (inflected or not)."""
    base = _negated_base(word)
    return base is not None and any(same_word(base, other) for other in others)


# --------------------------------------------------------------------------------------------
# Alignment: compare the clauses the two sides share
# --------------------------------------------------------------------------------------------

def _aligned_word(word: str, others: Sequence[str]) -> bool:
    """A word speaks to the other side when the other side says it, its base, or its
    negated form ('unsuccessful' and 'successful' speak to each other)."""
    return (_said(word, others) or _base_said(word, others)
            or any(_base_said(other, (word,)) for other in others))


# A clause is kept for the comparison when more than this share of its content words occur
# on the other side: "The job is not green" (1 of 2) does not speak for "The deploy is green".
_ALIGNED_SHARE = 0.5


def _share(clause: Clause, other: Sequence[str]) -> float | None:
    """Share of the clause's content words that occur on the other side; None if it has none."""
    words = _content_words(clause.text)
    if not words:
        return None
    return sum(_aligned_word(w, other) for w in words) / len(words)


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


def _overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """Jaccard overlap of two clauses' content words (matched by stem or inflection)."""
    if not a or not b:
        return 0.0
    shared = sum(_aligned_word(w, b) for w in a)
    return shared / (len(a) + len(b) - shared)


def _closest(clause: Clause, candidates: Sequence[Clause]) -> Clause | None:
    words = _content_words(clause.text)
    scored = [(_overlap(_content_words(c.text), words), i) for i, c in enumerate(candidates)]
    best = max(scored, default=(0.0, -1))
    return candidates[best[1]] if best[0] > 0 else None


@functools.lru_cache(maxsize=4096)
def _aligned_pair(a: str, b: str) -> tuple[tuple[Clause, ...], tuple[Clause, ...]]:
    """Both sides' aligned clauses. A clause set aside on one side comes back when it is the
    closest match of a clause the other side kept: "no one in the room argued for it" shares
    only half its words with "nobody argued for it at the sync" (the other clause took "the
    sync"), but nothing on its side matches that clause better."""
    all_a, all_b = split_clauses(a), split_clauses(b)
    kept_a, kept_b = aligned_clauses(all_a, b), aligned_clauses(all_b, a)

    def restored(every: Sequence[Clause], kept: Sequence[Clause],
                 other_kept: Sequence[Clause]) -> tuple[Clause, ...]:
        wanted = set(kept) | {c for c in (_closest(o, every) for o in other_kept) if c}
        return tuple(c for c in every if c in wanted)

    return restored(all_a, kept_a, kept_b), restored(all_b, kept_b, kept_a)


# --------------------------------------------------------------------------------------------
# Lexical negation
# --------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=16384)
def _clause_tokens(clause: Clause) -> tuple[_Token, ...]:
    """The clause's tokens with positions in the whole text; its operators left out."""
    cue_starts = {c.start for c in clause.cues}
    return tuple(_Token(t.text, clause.start + t.start, clause.start + t.end)
                 for t in _tokens(_fold(clause.text)) if clause.start + t.start not in cue_starts)


def mirrored_negations(clause: Clause, other_text: str, own_text: str | None = None
                       ) -> list[int]:
    """Positions of prefix- or suffix-negated words whose base the other side says
    ('unhealthy' against 'healthy', 'shirtless' against 'no shirt'). Each negates exactly
    what the other side asserts: an operator.

    The other side must say the base word itself, inflected or not ('unhealthy' is not
    mirrored by 'health'), and not the negated word too. With ``own_text``, a base this side
    says elsewhere mirrors nothing ('the first canary was unsuccessful, the second
    successful' against 'the first canary failed, the second successful').
    """
    other = _words(other_text)
    own = _words(own_text) if own_text is not None else []
    found = []
    for token in _clause_tokens(clause):
        base = _negated_base(token.text)
        if (base is not None and any(same_word(base, w) for w in other)
                and not any(same_word(token.text, w) for w in other)
                and not any(same_word(base, w) for w in own)):
            found.append(token.start)
    return found


def clause_parities(clauses: Sequence[Clause], other_text: str) -> list[int]:
    """1 for each negated clause, counting prefix negations mirrored on the other side."""
    return [int(c.negated(extra=mirrored_negations(c, other_text))) for c in clauses]


def _cancels_only(word: str) -> bool:
    """Negative verbs and prefix words ('drop', 'dislike'): too common to supply a negation
    on their own ('integration' is not 'in-' + 'tegration'), but an operator over one makes
    a litotes."""
    return word in LITOTES_VERBS or prefix_negated_base(word) is not None


def _confirmed_prefix_negative(word: str) -> bool:
    """A prefix word WordNet lists as the antonym of its base ('unclear' / 'clear',
    'illiterate' / 'literate'): a negation in its own right, unlike 'integration'."""
    base = prefix_negated_base(word)
    if base is None or not base.isalpha():
        return False
    from factstore.antonyms import are_opposites  # lazy: see _lemma_set

    return are_opposites(word, base)


def _free_of(tokens: Sequence[_Token], i: int) -> bool:
    """'free of X', 'free from X'."""
    word, followers = _FREE_OF
    return tokens[i].text == word and i + 1 < len(tokens) and tokens[i + 1].text in followers


def _phrasal_negative(tokens: Sequence[_Token], i: int) -> bool:
    """'left out', 'ruled out'."""
    return i + 1 < len(tokens) and any(
        tokens[i].text in verbs and tokens[i + 1].text == particle
        for verbs, particle in _PHRASAL_NEGATIVES)


def _too_to(tokens: Sequence[_Token], i: int) -> bool:
    """'too old to boot' says 'cannot boot', 'too slow to finish' says 'not fast enough to
    finish': "too" with one or two words and then "to"."""
    return tokens[i].text == "too" and any(
        i + k < len(tokens) and tokens[i + k].text == "to" for k in (2, 3))


def lexical_negatives(clause: Clause, other_text: str, own_text: str | None = None
                      ) -> list[int]:
    """Positions of lexical negatives the other side does not also say.

    'gap', 'missing', 'skips', 'stopped', 'refrained', 'left out', 'passwordless', 'free of',
    'too old to' and prefix words WordNet confirms ('unclear') anywhere; 'zero' when the
    other side negates with a quantifier ('no', 'none', 'without'); 'drop', 'object',
    'dislike' only in a stretch that already holds an operator, where they cancel it ("don't
    dislike"). A word the other side says in any inflection ('lost' against 'lose') is
    shared, not a lexical negative.
    """
    other = _words(other_text)
    quantified = bool({c.operator for c in negation_cues(other_text)} & QUANTIFIER_OPERATORS)
    mirrored = set(mirrored_negations(clause, other_text, own_text))
    operator_stretches = {clause.stretch(c.start) for c in clause.cues}
    tokens = _clause_tokens(clause)
    found = []
    for i, token in enumerate(tokens):
        if token.start in mirrored or _said(token.text, other, wordnet=True):
            continue  # counted already, or both sides say it
        if (token.text in IMPLICIT_NEGATIVES or _suffix_negated(token.text)
                or _free_of(tokens, i) or _too_to(tokens, i) or _phrasal_negative(tokens, i)
                or (token.text in ZERO_WORDS and quantified)
                or (_cancels_only(token.text)
                    and clause.stretch(token.start) in operator_stretches)
                or _confirmed_prefix_negative(token.text)):
            found.append(token.start)
    return found


@functools.lru_cache(maxsize=8192)
def explained_by_lexical_negation(a: str, b: str) -> bool:
    """True when the two sides agree once lexical negation counts as an operator.

    This is a fallback only: it may excuse a difference ("found zero broken links" against
    "found no broken links", "the UTF-16 gap" against "does not validate UTF-16", "doesn't
    dislike tabs" against "is fine with tabs"), never create one. (The guard also counts
    antonyms; see :func:`polarity_mismatch`.)
    """
    negated = []
    for text, other in ((a, b), (b, a)):
        clauses = aligned_clauses(split_clauses(text), other)
        negated.append(any(c.negated(extra=lexical_negatives(c, other, text)
                                     + mirrored_negations(c, other, text)) for c in clauses))
    return negated[0] == negated[1]


# --------------------------------------------------------------------------------------------
# Stretches: the units the sides are compared by
# --------------------------------------------------------------------------------------------

#: How many content words after an operator count as what it governs ("did not have an
#: opportunity": "opportunity"; "is not a stable release": "stable", "release").
_FOCUS_WORDS = 2


@dataclass(frozen=True)
class _Stretch:
    """One stretch of a clause: its content tokens and the words its operators govern."""

    clause: Clause
    index: int
    tokens: tuple[_Token, ...]
    foci: tuple[str, ...]

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(t.text.removesuffix("'s") for t in self.tokens)


def _stretches(clause: Clause, removed: frozenset[int], extra: Sequence[int]
               ) -> list[_Stretch]:
    by_index: dict[int, list[_Token]] = {}
    for token in _clause_tokens(clause):
        if _is_content(token.text.removesuffix("'s")):
            by_index.setdefault(clause.stretch(token.start), []).append(token)
    foci: dict[int, list[str]] = {}
    for cue in clause.cues:
        if cue.start in removed:
            continue
        index = clause.stretch(cue.start)
        after = [t.text for t in by_index.get(index, ()) if t.start > cue.start]
        foci.setdefault(index, []).extend(after[:_FOCUS_WORDS])
    for token in _clause_tokens(clause):
        # a mirrored prefix or suffix negation governs its own base ("unlike": "like")
        base = _negated_base(token.text) if token.start in extra else None
        if base:
            foci.setdefault(clause.stretch(token.start), []).append(base)
    indexes = sorted(set(by_index) | set(foci))
    return [_Stretch(clause, i, tuple(by_index.get(i, ())), tuple(foci.get(i, ())))
            for i in indexes]


def aligned_negation(negated_text: str, other_text: str, *, extra: Sequence[int] = (),
                     removed: Iterable[int] = (), other_extra: Sequence[int] = (),
                     other_removed: Iterable[int] = (), ignore: Iterable[str] = ()) -> bool:
    """Whether a negated stretch of ``negated_text`` denies what a positive stretch of
    ``other_text`` asserts: a word in the negation's scope (what follows the operator in its
    stretch: "use Redis" in "decided not to use Redis") occurs there, and the two stretches
    say mostly the same: at least half of the negated stretch's content occurs in the
    positive one, or all of the positive one's (two words or more) in the negated one
    ("... in 41 seconds with no data lost" / "..., but data was lost").

    A negation elsewhere in a statement about something else is no denial of it: "Audrey
    will let you know" and "... even when they're not with Audrey" share only a name, and
    "Sam loves hiking" and "Sam wishes your motivation never goes anywhere" nothing. Words in
    ``ignore`` (the statements' subjects) count on neither side: a subject names what both
    are about, not what one of them denies. ``extra`` / ``removed`` (and the ``other_``
    pair) are operator positions added or set aside, as :meth:`Clause.negated` takes them.
    """
    gone, other_gone = frozenset(removed), frozenset(other_removed)
    skip = {w.lower() for w in ignore}
    positives = []
    for clause in split_clauses(other_text):
        counts = clause._counts(other_extra, other_gone)
        positives += [[w for w in s.words if w not in skip]
                      for s in _stretches(clause, other_gone, other_extra)
                      if counts[s.index] % 2 == 0]
    for clause in split_clauses(negated_text):
        counts = clause._counts(extra, gone)
        for stretch in _stretches(clause, gone, extra):
            if counts[stretch.index] % 2 == 0:
                continue
            focus = [f for f in (*stretch.foci, *_scope(clause, stretch, gone))
                     if f.removesuffix("'s") not in skip]
            words = [w for w in stretch.words if w not in skip]
            for theirs in positives:
                if not any(_aligned_word(f, theirs) for f in focus):
                    continue
                if (2 * sum(_aligned_word(w, theirs) for w in words) >= len(words)
                        or (len(theirs) >= 2 and _contained(theirs, words))):
                    return True
    return False


def _scope(clause: Clause, stretch: _Stretch, removed: frozenset[int]) -> list[str]:
    """The content words after the stretch's first operator: what it negates."""
    starts = [c.start for c in clause.cues
              if c.start not in removed and clause.stretch(c.start) == stretch.index]
    if not starts:
        return []
    return [t.text.removesuffix("'s") for t in stretch.tokens if t.start > min(starts)]


@dataclass
class _Reading:
    """One side of the comparison: its aligned clauses and what counts as an operator."""

    text: str
    other: str
    clauses: tuple[Clause, ...]
    extra: list[int]
    removed: frozenset[int] = frozenset()
    #: the parse's verdict, when the parse found a negation the words did not
    forced: bool | None = None

    @classmethod
    def of(cls, text: str, other: str, clauses: tuple[Clause, ...]) -> _Reading:
        extra = [p for c in clauses for p in mirrored_negations(c, other, text)]
        return cls(text, other, clauses, extra)

    def negated(self, more: Iterable[int] = ()) -> bool:
        if self.forced is not None:
            return self.forced
        extra = [*self.extra, *more]
        return any(c.negated(extra, self.removed) for c in self.clauses)

    def stretch_negated(self, stretch: _Stretch, more: Iterable[int] = ()) -> bool:
        counts = stretch.clause._counts([*self.extra, *more], self.removed)
        return counts[stretch.index] % 2 == 1

    @functools.cached_property
    def stretches(self) -> tuple[_Stretch, ...]:
        return tuple(s for c in self.clauses for s in _stretches(c, self.removed, self.extra))

    @functools.cached_property
    def lexical(self) -> tuple[int, ...]:
        """The fallback's lexical negatives on this side (computed once: it reads WordNet)."""
        return tuple(p for c in self.clauses for p in lexical_negatives(c, self.other, self.text))


# --------------------------------------------------------------------------------------------
# Antonyms
# --------------------------------------------------------------------------------------------

def _antonym_negations(reading: _Reading, other: _Reading) -> list[int]:
    """Positions of words on positive stretches of ``reading`` that WordNet calls opposite to
    the focus of a negation on ``other``: "heterogeneous" against "not homogeneous", "failed"
    against "didn't pass". The focus must not occur on this side ("not fat" against "fat"
    stays an inversion) nor the antonym on the other side."""
    own_words, other_words = _words(reading.text), _words(other.text)
    # Said means the same word, inflected: antonyms often share a stem ("centrifugal" /
    # "centripetal", "theism" / "atheism"), so a shared stem proves nothing here.
    foci = {f for s in other.stretches if other.stretch_negated(s) for f in s.foci
            if f.isalpha() and not _inflects(f, own_words)}
    if not foci:
        return []
    from factstore.antonyms import are_opposites  # lazy: see _lemma_set

    found = []
    for stretch in reading.stretches:
        if reading.stretch_negated(stretch):
            continue
        for token in stretch.tokens:
            if (token.text.isalpha() and not _inflects(token.text, other_words)
                    and any(are_opposites(f, token.text, clusters=True) for f in foci)):
                found.append(token.start)
    return found


def _explained(s: _Reading, q: _Reading) -> bool:
    """Whether lexical negation reconciles two sides that disagree: antonyms first, then
    the fallback's lexical negatives, then both."""
    s_antonyms, q_antonyms = _antonym_negations(s, q), _antonym_negations(q, s)
    tries = ((s_antonyms, q_antonyms), (s.lexical, q.lexical),
             ((*s.lexical, *s_antonyms), (*q.lexical, *q_antonyms)))
    return any(s.negated(sx) == q.negated(qx) for sx, qx in tries)


# --------------------------------------------------------------------------------------------
# Hidden flips
# --------------------------------------------------------------------------------------------

def _contained(a: Sequence[str], b: Sequence[str]) -> bool:
    """Every content word of ``a`` occurs in ``b`` (a stretch that says nothing else)."""
    return bool(a) and all(_aligned_word(w, b) for w in a)


def _same_content(a: _Stretch, b: _Stretch) -> bool:
    return _contained(a.words, b.words) or _contained(b.words, a.words)


def _has_partner(stretch: _Stretch, negated: bool, others: Sequence[tuple[_Stretch, bool]]
                 ) -> bool:
    """Whether the other side has a stretch with the same content and the same polarity."""
    return any(n == negated and _same_content(stretch, o) for o, n in others)


def _flip_candidates(neg: _Reading, pos: _Reading) -> Iterator[tuple[_Stretch, _Stretch]]:
    """Pairs (negated stretch of ``neg``, positive stretch of ``pos``) that say the same
    thing, where the negation's focus is among the positive stretch's words, and neither
    stretch has a same-polarity partner on the other side."""
    neg_units = [(s, neg.stretch_negated(s)) for s in neg.stretches]
    pos_units = [(s, pos.stretch_negated(s)) for s in pos.stretches]
    for a, a_negated in neg_units:
        if not a_negated or not a.foci:
            continue
        for b, b_negated in pos_units:
            if (b_negated or not _same_content(a, b)
                    or not any(_aligned_word(f, b.words) for f in a.foci)):
                continue
            if _has_partner(a, True, pos_units) or _has_partner(b, False, neg_units):
                continue
            yield a, b


def _hidden_flip(s: _Reading, q: _Reading) -> tuple[str, _Stretch] | None:
    """A negated stretch on one side that the other side states positively, when the whole
    texts agree (each is negated somewhere else). Returns which side negates, and where.

    The candidate must survive the lexical negatives of both stretches ("does not parse"
    against "skips parsing" is not a flip)."""
    if s.forced is not None or q.forced is not None:
        return None
    for side, neg, pos in (("statement", s, q), ("quote", q, s)):
        for a, b in _flip_candidates(neg, pos):
            if (neg.stretch_negated(a, neg.lexical)
                    and not pos.stretch_negated(b, pos.lexical)):
                return side, a
    return None


# --------------------------------------------------------------------------------------------
# The parse
# --------------------------------------------------------------------------------------------

def _with_parse(quote: _Reading, quote_negated: bool | None) -> _Reading:
    """The quote's reading once the parse has had its say (see *The parse* in the module
    docstring): it sets aside the operators a parser marks when it found none, and makes the
    quote negated when it found a negator the words did not."""
    if quote_negated is None:
        return quote
    cues = negation_cues(quote.text)
    if quote_negated and not cues:
        if _asides_kept(quote.text, quote.other):
            # The parse's negator is one the words set aside (an idiom, a contrast, a
            # compound), and the statement says it too: it reads the quote as written.
            return quote
        return dataclasses.replace(quote, forced=True)
    if not quote_negated and cues:
        removed = frozenset(c.start for c in cues if _parsed_kind(c.operator))
        return dataclasses.replace(quote, removed=removed)
    return quote


def _aside_words(text: str) -> Counter[str]:
    folded = _fold(text)
    return Counter(" ".join(folded[a:b].split()) for a, b in set_aside_negators(text))


def _asides_kept(quote: str, statement: str) -> bool:
    """The quote holds set-aside negator words and the statement says every one of them."""
    held = _aside_words(quote)
    return bool(held) and not (held - _aside_words(statement))


# --------------------------------------------------------------------------------------------
# The guard
# --------------------------------------------------------------------------------------------

def _shown(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


def _negating_words(reading: _Reading) -> str:
    """The words around the first operator of the first negated clause, for the reason."""
    if reading.forced:
        return "a negation the parse found"
    for clause in reading.clauses:
        if clause.negated(reading.extra, reading.removed):
            cues = [c for c in clause.cues if c.start not in reading.removed]
            return cues[0].context if cues else clause.text
    return ""


def _stretch_words(stretch: _Stretch) -> str:
    cues = [c for c in stretch.clause.cues if stretch.clause.stretch(c.start) == stretch.index]
    return cues[0].context if cues else stretch.clause.text


def _reason(statement: str, quote: str, negating: str, words: str) -> str:
    if negating == "quote":
        return (f"polarity: the statement says '{_shown(statement)}' but the quote negates it "
                f"('{words}')")
    return (f"polarity: the statement negates it ('{words}') but the quote says "
            f"'{_shown(quote)}'")


def polarity_mismatch(statement: str, quote: str, *,
                      quote_negated: bool | None = None) -> str | None:
    """The reason a statement's polarity differs from its quote's, or None when it agrees.

    Compares the aligned clauses of both sides, then their stretches pairwise (see the
    module docstring); a difference that lexical negation explains ("found zero" / "found
    no", "not homogeneous" / "heterogeneous") is not flagged. ``quote_negated`` is the
    extractor's parse of the quote (True: it found a negator); None reads the words only.
    """
    if not statement.strip() or not quote.strip():
        return None
    s_clauses, q_clauses = _aligned_pair(statement, quote)
    s = _Reading.of(statement, quote, s_clauses)
    q = _with_parse(_Reading.of(quote, statement, q_clauses), quote_negated)
    s_negated, q_negated = s.negated(), q.negated()
    if s_negated != q_negated:
        if _explained(s, q):
            return None
        negating = "quote" if q_negated else "statement"
        return _reason(statement, quote, negating, _negating_words(q if q_negated else s))
    flip = _hidden_flip(s, q)
    if flip is None:
        return None
    negating, stretch = flip
    return _reason(statement, quote, negating, _stretch_words(stretch))


_PHRASES_BY_FIRST_WORD = _phrases_by_first_word()
