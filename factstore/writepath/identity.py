"""The identity guard: a statement must be about the thing its quote is about.

Seed 000 §7 records the "fact 161" incident: a fact attached to the wrong subject when the
capture named two ("Priya owns billing and Marco owns search" stored as "Marco owns
billing"). The quote is a verbatim span of the capture, so it still names the right subject;
comparing the statement with its own quote catches the mangle in code, the way
:mod:`factstore.writepath.polarity` catches an inverted polarity.

:func:`identity_mismatch` applies two rules and reports the first that fires.

1. **Entities.** The entity-shaped mentions of each side are collected
   (:func:`entity_mentions`): runs of capitalised words (*Priya*, *VS Code*, *EU*, *iOS*;
   a capitalised word opening a sentence counts unless it is a common sentence opener such
   as *The*, *We* or *Heads*), identifiers (*build-07*, *ledger-db*, *snake_case*,
   *build.pipeline*), the roles *the user* (also *I*, *me*, *my*: a capture is the person's
   own words) and *the assistant* (a quote's *you* counts as mentioning it but never as
   naming it: "don't merge your own PR" addresses anyone), and any ``names`` the caller
   knows to be entities. The statement mismatches when it names an entity its quote does
   not mention **and** the quote names an entity the statement does not: that is the
   statement moving the quote's predicate onto someone else. An entity missing from the
   quote alone is not enough (the quote may say "he" or "it"), nor is an extra one in the
   quote alone (the statement may leave a detail out).
2. **Definite subject swap.** Common-noun subjects (*the canary*, *the web team*, *staging
   dumps*) are not entity-shaped, so the content words of both sides are aligned
   (:mod:`difflib`, over crude stems). When the statement's opening content words are
   replaced, in the quote, by words that the statement never uses, and what follows them
   aligns (the shared predicate, or the shared head noun in "the *billing* refactor" /
   "the *auth* refactor"), the statement has swapped the subject. Only a subject that opens
   the statement, bare or after one definite determiner, is read: a pronoun subject ("We
   decided ...") names nothing to compare, and an indefinite one ("a man", "some jobs")
   names no particular thing. Words sharing their first four letters are variants of one
   word ("repo" / "repository"), not a swap.

Paths, URLs, numbers, dates and versions are values, not subjects: a different value is the
difference detector's business (:mod:`factstore.differences`), not this guard's.

Limitations: there is no parser, so a subject named only after its predicate ("canaries on
search" for "search is deployed with canaries") is not aligned by rule 2; a faithful
statement that renames a definite subject with a synonym ("the box" -> "the build host")
while the rest aligns is flagged; plural and possessive forms are matched by a crude stem.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "ASSISTANT",
    "SPEAKER",
    "Mention",
    "entity_mentions",
    "identity_mismatch",
]

#: How statements name the person speaking in a capture.
SPEAKER = "the user"
#: How statements name the assistant the person is speaking to.
ASSISTANT = "the assistant"

# Captures are the person's own words: "I" is the speaker. "You" is the assistant only when
# checking that a quote mentions it (see _role_key).
_FIRST_PERSON = frozenset(("i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll"))
_SECOND_PERSON = frozenset(("you", "your", "yours", "yourself", "you're", "you've", "you'd",
                            "you'll"))

#: Capitalised only because they open a sentence: never names on their own.
COMMON_OPENERS: frozenset[str] = frozenset((
    "a", "an", "the", "this", "that", "these", "those", "there", "here", "it", "its", "it's",
    "we", "we're", "we've", "we'll", "we'd", "i", "i'm", "i've", "i'd", "i'll", "you",
    "your", "they", "their", "he", "she", "his", "her", "our", "my", "me", "us", "them",
    "one", "some", "any", "all", "each", "every", "both", "either", "neither", "no", "not",
    "none", "nobody", "nothing", "never", "always", "only", "just", "also", "still", "yet",
    "and", "but", "or", "so", "if", "when", "while", "whenever", "after", "before", "since",
    "until", "because", "as", "at", "in", "on", "for", "from", "to", "by", "with", "without",
    "of", "about", "per", "via", "over", "under", "between", "during", "once", "then", "now",
    "today", "tonight", "tomorrow", "yesterday", "yes", "ok", "okay", "please", "thanks",
    "heads", "note", "see", "fyi", "btw", "let's", "let", "what", "which", "who",
    "whom", "whose", "where", "why", "how", "is", "are", "was", "were", "do", "does", "did",
    "don't", "doesn't", "didn't", "can", "can't", "cannot", "will", "won't", "should",
    "must", "may", "might", "could", "would", "has", "have", "had", "keep", "make", "use",
    "going", "right", "last", "next", "most", "many", "few", "more", "less", "other",
    "another", "such", "same", "new", "old", "first", "second", "third", "remember",
    "someone", "somebody", "something", "anyone", "anybody", "anything", "everyone",
    "everybody", "everything", "people", "true", "false",
))

#: Capitalised calendar words are dates, which are values, not subjects.
CALENDAR: frozenset[str] = frozenset((
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
    "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
    "oct", "nov", "dec", "q1", "q2", "q3", "q4",
))

#: Words carrying no content for the alignment of rule 2 (they also never name a subject).
FUNCTION_WORDS: frozenset[str] = frozenset((
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "they", "them",
    "their", "we", "us", "our", "he", "she", "his", "her", "him", "there", "here", "is",
    "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "have",
    "has", "had", "will", "would", "can", "could", "should", "shall", "may", "might", "must",
    "of", "to", "in", "on", "at", "for", "with", "by", "from", "as", "about", "into", "onto",
    "over", "under", "and", "or", "but", "so", "than", "then", "if", "because", "what",
    "which", "who", "whom", "whose", "any", "anymore", "ever", "yet", "again", "still",
    "just", "also", "too", "very", "really", "right", "now", "currently", "all", "some",
    "only", "one", "yes", "ok", "okay", "well", "not", "no", "never", "cannot", "up",
    "moment", "heads", "see", "while", "whereas", "although", "though", "however",
    "every", "each", "both", "either", "neither", "several", "many", "few", "most", "more",
    "less", "other", "another", "such", "own", "none", "nothing", "nobody", "something",
    "someone", "somebody", "anything", "anyone", "anybody", "everything", "everyone",
    "everybody", "you", "your", "yours", "yourself",
))
#: Rule 2 reads a subject that opens the statement bare or after one of these; any other
#: opener ("a", "some", "we", "for") means an indefinite, pronoun or adverbial start.
DEFINITE: frozenset[str] = frozenset(("the", "this", "that", "these", "those", "our",
                                      "their", "its", "his", "her", "my"))
# Words sharing this many leading letters are variants of one word ("repo" / "repository",
# "decided" / "decision"), so rule 2 reads them as a rewording, not a swap.
_VARIANT_PREFIX = 4
# Contractions reduce to their first word ("isn't" -> "is") before the function-word check.
_CONTRACTION = re.compile(r"(?:n't|'s|'re|'ll|'ve|'d|'m)$")

#: Short words that make a hyphenated word ordinary English ("on-call", "one-page").
_COMMON_SHORT = frozenset(("a", "an", "e", "x", "on", "off", "up", "to", "of", "in", "at",
                           "by", "non", "re", "co", "pre", "one", "two", "all", "end", "day",
                           "low", "big", "old", "new", "top", "per", "out", "run", "set",
                           "use", "add", "fix", "log", "way", "ten", "few", "air"))

_STRAIGHTEN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
# A token is a run of non-space characters minus surrounding punctuation, so identifiers,
# paths and URLs stay whole ("build-legacy-02", "https://grafana.example.test/d/checkout").
_RAW_TOKEN = re.compile(r"[^\s,;()\[\]{}\"]+")
_EDGE = ".:!?'\u2026*_`"
_SENTENCE_END = re.compile(r"[.!?:;]['\")\]]*$")
_HAS_LETTER = re.compile(r"[a-z]", re.IGNORECASE)
_HAS_DIGIT = re.compile(r"\d")
# Values are not subjects: numbers with units, versions, times, percentages, money.
_VALUE = re.compile(r"^[$€£]?v?\d[\d.,:]*(?:%|[a-z]{0,3})$", re.IGNORECASE)
_LOCATOR = re.compile(r"/|\\|://|^www\.", re.IGNORECASE)
_SEPARATED = re.compile(r"^[a-z0-9]+(?:[-_.][a-z0-9]+)+$", re.IGNORECASE)

# Rule 2: a replaced span longer than this is a rewording, not a subject swap.
_MAX_SWAP = 3
# Rule 2 judges only statements most of whose content words occur in the quote.
_MIN_ALIGNED = 0.5


@dataclass(frozen=True)
class Mention:
    """An entity-shaped mention: ``text`` as written, ``keys`` what matching compares."""

    text: str
    keys: tuple[str, ...]
    start: int


@dataclass(frozen=True)
class _Token:
    text: str  # as written, edge punctuation stripped
    start: int
    sentence_start: bool

    @property
    def lower(self) -> str:
        return self.text.lower()


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    opens = True
    for match in _RAW_TOKEN.finditer(text.translate(_STRAIGHTEN)):
        raw = match.group()
        word = raw.strip(_EDGE)
        if word:
            offset = raw.find(word)
            tokens.append(_Token(word, match.start() + offset, opens))
        # The next token opens a sentence after a sentence mark; a bare dash or a token of
        # punctuation alone changes nothing.
        if word or _SENTENCE_END.search(raw):
            opens = bool(_SENTENCE_END.search(raw))
    return tokens


def _stem(word: str) -> str:
    """A crude matching key: 'Priya's' = 'priya', 'canaries' = 'canary', 'prefers' = 'prefer'.

    Identifiers, paths and values compare whole: 'build-07' must not match 'build-08'.
    """
    word = word.translate(_STRAIGHTEN)
    if re.fullmatch(r"[A-Z]{2,}s", word):  # a plural acronym: "PRs" is "PR"
        word = word[:-1]
    word = word.lower()
    if word.endswith("'s"):
        word = word[:-2]
    elif word.endswith("s'"):
        word = word[:-1]
    if not word.isalpha():
        return word
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:5]


_CALENDAR_STEMS = frozenset(_stem(w) for w in CALENDAR)


def _is_identifier(word: str) -> bool:
    """'build-07', 'ledger-db', 'snake_case', 'build.pipeline' -- not 'on-call' or '4.2'."""
    if _LOCATOR.search(word) or _VALUE.match(word) or not _HAS_LETTER.search(word):
        return False
    if _HAS_DIGIT.search(word):
        return True
    if not _SEPARATED.match(word):
        return False
    if "_" in word or "." in word:
        return True
    # A hyphenated word is an identifier when one of its parts is a short word that is not
    # ordinary English ('db', 'svc', 'api'); 'read-only' and 'on-call' are words.
    parts = word.lower().split("-")
    return any(len(p) <= 3 and p not in _COMMON_SHORT for p in parts)


def _is_capitalised(token: _Token) -> bool:
    word = token.text
    if not word[:1].isalpha() or _LOCATOR.search(word) or _stem(word) in _CALENDAR_STEMS:
        return False
    if word[0].isupper():
        if not token.sentence_start:
            return True
        base = _CONTRACTION.sub("", word.lower())
        # An opener is capitalised by position alone; so is an adverb ("Generally, ...").
        return (word.lower() not in COMMON_OPENERS and base not in COMMON_OPENERS
                and not word.lower().endswith("ly"))
    # Mixed case inside the word: 'iOS', 'macOS', 'eBPF'.
    return any(c.isupper() for c in word[1:])


def _role_key(token: _Token, tokens: Sequence[_Token], i: int, *,
              you_is_assistant: bool = False) -> str | None:
    """The role a token names: 'the user' ("the user", or "I" / "me" / "my": captures are
    the person's own words) or 'the assistant' ("the assistant").

    "You" may be the assistant or anyone ("don't merge your own PR"), so it names nobody
    unless ``you_is_assistant``: a quote saying "you" does mention the assistant when the
    statement says "the assistant".
    """
    word = token.lower
    if i > 0 and tokens[i - 1].lower == "the" and _stem(word) in ("user", "assis"):
        return SPEAKER if _stem(word) == "user" else ASSISTANT
    if word in _FIRST_PERSON:
        return SPEAKER
    if you_is_assistant and word in _SECOND_PERSON:
        return ASSISTANT
    return None


def _given(text: str, names: Iterable[str]) -> list[Mention]:
    """Occurrences of the caller's known names, case-insensitive, on word boundaries."""
    found = []
    folded = text.translate(_STRAIGHTEN)
    for name in names:
        if " ".join(name.lower().split()) in (SPEAKER, ASSISTANT):
            continue  # the roles are always recognised
        bare = re.sub(r"^(?:the|a|an)\s+", "", name.strip(), flags=re.IGNORECASE)
        if not bare:
            continue
        pattern = r"(?<![\w-])" + r"\s+".join(map(re.escape, bare.split())) + r"(?:'s)?(?![\w-])"
        for match in re.finditer(pattern, folded, re.IGNORECASE):
            keys = tuple(_stem(w) for w in bare.split())
            found.append(Mention(match.group(), keys, match.start()))
    return found


def entity_mentions(text: str, *, names: Sequence[str] | None = None) -> tuple[Mention, ...]:
    """The entity-shaped mentions of ``text`` in order, one per distinct entity.

    First-person pronouns are the role *the user*; ``names`` adds the caller's known entities
    wherever they occur.
    """
    tokens = _tokens(text)
    mentions: list[Mention] = []
    run: list[_Token] = []

    def close_run() -> None:
        if run:
            shown = text.translate(_STRAIGHTEN)[run[0].start:run[-1].start + len(run[-1].text)]
            shown = re.sub(r"'s?$", "", shown)  # "Priya's" is about Priya
            mentions.append(Mention(shown, tuple(_stem(t.text) for t in run), run[0].start))
            run.clear()

    for i, token in enumerate(tokens):
        role = _role_key(token, tokens, i)
        if role is not None:
            close_run()
            start = tokens[i - 1].start if token.lower not in _FIRST_PERSON \
                else token.start
            mentions.append(Mention(role, (role,), start))
            continue
        if _is_identifier(token.text):
            close_run()
            mentions.append(Mention(re.sub(r"'s?$", "", token.text), (_stem(token.text),),
                                    token.start))
            continue
        if _is_capitalised(token):
            # A sentence boundary ends a run: "... Priya. Marco ..." is two people.
            if run and token.sentence_start:
                close_run()
            run.append(token)
        else:
            close_run()
    close_run()
    mentions.extend(_given(text, names or ()))
    unique: dict[tuple[str, ...], Mention] = {}
    for mention in sorted(mentions, key=lambda m: m.start):
        unique.setdefault(mention.keys, mention)
    return tuple(unique.values())


def _present(mention: Mention, other: str) -> bool:
    """Whether ``other`` mentions the same entity (every word of it, or the role)."""
    tokens = _tokens(other)
    if mention.keys in ((SPEAKER,), (ASSISTANT,)):
        return any(_role_key(t, tokens, i, you_is_assistant=True) == mention.keys[0]
                   for i, t in enumerate(tokens))
    stems = {_stem(t.text) for t in tokens}
    # A name also counts inside an identifier ("sample" in "sample-svc"), but not inside a
    # path or URL: "github.com/example/marco-dots" does not mention Marco.
    parts = {_stem(p) for t in tokens if not _LOCATOR.search(t.text)
             for p in re.split(r"[-_.:]+", t.text) if p}
    return all(key in stems or key in parts for key in mention.keys)


def _entity_rule(statement: str, quote: str, names: Sequence[str] | None) -> str | None:
    in_statement = entity_mentions(statement, names=names)
    in_quote = entity_mentions(quote, names=names)
    missing = [m for m in in_statement if not _present(m, quote)]
    extra = [m for m in in_quote if not _present(m, statement)]
    if missing and extra:
        return (f"identity: the statement is about {missing[0].text} but its quote is about "
                f"{extra[0].text}")
    return None


@dataclass(frozen=True)
class _Word:
    text: str
    key: str
    index: int  # position among the text's tokens


def _content(tokens: Sequence[_Token]) -> list[_Word]:
    words = []
    for i, token in enumerate(tokens):
        role = _role_key(token, tokens, i)
        if role is not None:
            words.append(_Word(role, role, i))
            continue
        lower = token.lower
        base = _CONTRACTION.sub("", lower)
        if lower in FUNCTION_WORDS or base in FUNCTION_WORDS or lower.endswith("ly"):
            continue
        if i + 1 < len(tokens) and lower == "the" and _stem(tokens[i + 1].text) in ("user",
                                                                                  "assis"):
            continue
        words.append(_Word(token.text, _stem(token.text), i))
    return words


def _variant(word: _Word, others: Iterable[_Word]) -> bool:
    """Whether ``word`` occurs among ``others``, or a variant of it does ("repo"/"repository")."""
    head = word.text.lower()[:_VARIANT_PREFIX]
    return any(word.key == o.key or (len(head) == _VARIANT_PREFIX
                                     and o.text.lower().startswith(head)) for o in others)


def _subject_rule(statement: str, quote: str) -> str | None:
    s_tokens, q_tokens = _tokens(statement), _tokens(quote)
    s_words, q_words = _content(s_tokens), _content(q_tokens)
    if not s_words or not q_words:
        return None
    # Only a subject that opens the statement, after at most one definite determiner, is
    # read: "We decided ..." has a pronoun subject and "A man ..." names no particular man.
    first = s_words[0].index
    if first > 1 or (first == 1 and s_tokens[0].lower not in DEFINITE):
        return None
    s_keys, q_keys = [w.key for w in s_words], [w.key for w in q_words]
    shared = sum(k in set(q_keys) for k in s_keys)
    if shared / min(len(s_keys), len(q_keys)) < _MIN_ALIGNED:
        return None  # a loose paraphrase: alignment says nothing about its subject
    ops = difflib.SequenceMatcher(a=s_keys, b=q_keys, autojunk=False).get_opcodes()
    if len(ops) < 2 or ops[0][0] != "replace" or ops[1][0] != "equal":
        return None
    _, _, i2, j1, j2 = ops[0]
    swapped = s_words[:i2]
    if len(swapped) > _MAX_SWAP or any(_variant(w, q_words) for w in swapped):
        return None
    # The quote's side of the swap: the words right before the aligned part that the
    # statement never uses ("merged auth | refactor" -> "auth" when "merged" is shared).
    other: list[_Word] = []
    for word in reversed(q_words[j1:j2]):
        if _variant(word, s_words):
            break
        other.insert(0, word)
    if not other or len(other) > _MAX_SWAP:
        return None
    # The quote's side must look like a subject too: it opens the quote or follows a
    # determiner ("we merged the auth refactor"), not a pronoun ("she keeps them at ...").
    at = other[0].index
    if at > 0 and q_tokens[at - 1].lower not in DEFINITE:
        return None
    said = " ".join(re.sub(r"'s?$", "", w.text) for w in swapped)
    instead = " ".join(re.sub(r"'s?$", "", w.text) for w in other)
    return f"identity: the statement is about {said} but its quote is about {instead}"


def identity_mismatch(statement: str, quote: str, *,
                      names: Sequence[str] | None = None) -> str | None:
    """The reason ``statement`` is about a different subject than ``quote``, or None.

    ``names`` are entities the caller knows of (the capture's subjects, registry topics);
    they count wherever they occur, even in lower case ("staging"). See the module
    docstring for the two rules.
    """
    if not statement.strip() or not quote.strip():
        return None
    return _entity_rule(statement, quote, names) or _subject_rule(statement, quote)
