"""What a fact is about: its subject, and the key the density check compares.

A conflict is about one subject. "svc-7 is paused" and "svc-6 is running" are two facts
about two things, however close their embeddings are; "svc-7 is healthy" and "svc-7 is
paused" are one thing with a changed value. The density check therefore compares a new
fact with live facts of the *same subject key* first (issue 7).

The subject is the noun phrase an extractor names (``ExtractedFact.subject``), else the one
:func:`subject_of` reads off the statement: the words before the first predicate word, with
leading time adverbials skipped and a leading "In production," kept as a qualifier.
Statements are third-person paraphrases ("The user prefers ...", "web-1 runs ..."), which
is what makes a word-table reading good enough; a pronoun or quantifier subject ("it",
"nobody") is no subject at all, and the density check falls back to its kind-wide search.

Pure functions, no database.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["subject_key", "subject_of"]

# Predicate openers: copulas, auxiliaries, modals and their contractions.
_AUXILIARIES = frozenset((
    "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "does", "do",
    "did", "will", "would", "can", "could", "should", "shall", "may", "might", "must",
    "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "doesn't", "don't",
    "didn't", "won't", "wouldn't", "can't", "cannot", "couldn't", "shouldn't", "mustn't",
    "needs", "need", "used", "gets", "got", "keeps", "kept", "stays", "remains", "seems",
    "becomes", "became", "looks", "feels",
))
# Adverbs and negators that sit between a subject and its verb ("web-1 currently runs").
_PRE_VERB = frozenset((
    "not", "no", "never", "always", "usually", "often", "still", "also", "only", "currently",
    "now", "just", "really", "actually", "already", "generally", "typically", "rarely",
    "sometimes", "mostly", "definitely", "probably", "likely", "normally", "finally",
    "strongly", "truly", "honestly", "absolutely", "totally", "seldom", "again", "then",
    "presently", "temporarily", "permanently", "officially", "reportedly", "apparently",
))
# Third-person verbs common in statements (a plural noun ends in -s too, so a table).
_VERBS_S = frozenset((
    "runs", "uses", "prefers", "likes", "loves", "hates", "dislikes", "wants", "ships",
    "deploys", "stores", "holds", "lives", "sits", "points", "costs", "takes", "depends",
    "requires", "contains", "includes", "supports", "handles", "serves", "reads", "writes",
    "sends", "makes", "owns", "manages", "leads", "reports", "works", "lets", "allows",
    "blocks", "denies", "accepts", "rejects", "builds", "tests", "checks", "validates",
    "expects", "means", "goes", "comes", "says", "shows", "returns", "calls", "starts",
    "stops", "fails", "passes", "listens", "binds", "connects", "syncs", "expires", "renews",
    "rotates", "retries", "caps", "limits", "exposes", "routes", "mirrors", "replicates",
    "pulls", "pushes", "merges", "pins", "targets", "hosts", "belongs", "refers", "maps",
    "resolves", "emits", "logs", "alerts", "triggers", "schedules", "pays", "weighs",
    "measures", "equals", "exceeds", "averages", "totals", "lasts", "knows", "thinks",
    "believes", "enjoys", "avoids", "drinks", "eats", "plays", "speaks", "drives", "owes",
    "earns", "teaches", "studies", "wears", "carries", "follows", "covers", "gives", "keeps",
    "sets", "puts", "has", "does", "goes", "tends", "plans", "intends", "hopes", "needs",
    "happens", "occurs", "applies", "matches", "differs", "varies", "ranges", "stands",
    "waits", "responds", "answers", "handles", "loads", "saves", "caches", "indexes",
    "streams", "queues", "processes", "compiles", "links", "imports", "exports", "publishes",
    "releases", "forbids", "permits", "mandates", "governs", "covers", "replaces", "wins",
    "loses", "beats", "joins", "leaves", "enters", "exits", "opens", "closes", "locks",
    "reaches", "hits", "crosses", "drops", "rises", "grows", "shrinks", "scales", "prints",
    "crashes", "hangs", "restarts", "boots", "flaps", "breaks", "sleeps", "rests",
))
_DETERMINERS = frozenset((
    "the", "a", "an", "this", "that", "these", "those", "our", "my", "your", "their", "its",
    "his", "her", "some", "each", "every", "all", "any",
))
# Subjects that name nothing the store can key on.
_NO_SUBJECT = frozenset((
    "it", "this", "that", "they", "them", "he", "she", "there", "here", "these", "those",
    "nobody", "no one", "none", "nothing", "everyone", "everybody", "someone", "somebody",
    "anyone", "anybody", "something", "everything", "anything", "one", "which", "what",
    "who", "we", "i", "you", "people", "things", "both", "either", "neither", "all",
))
# Leading time and discourse adverbials, skipped: "Right now web-9 runs 3 replicas".
_LEADING = re.compile(
    r"^(?:(?:right now|currently|at the moment|at present|as of (?:today|now|tonight|this "
    r"(?:morning|week|month))|today|tonight|now|actually|also|still|so|then|again|"
    r"from now on|going forward|these days|nowadays|for now|as of \S+|since \S+|"
    r"recently|lately|yesterday|this (?:week|month|morning|year|quarter)|"
    r"(?:last|next) (?:week|month|year|quarter)|on \w+days?|scratch that|correction:|"
    r"update:|note:|fyi:?|ok(?:ay)?|well|and|but|also)\b[,:]?\s*)+",
    re.IGNORECASE)
# A leading qualifier kept with the subject: "In production, the limit is 40".
_QUALIFIER = re.compile(
    r"^(?P<prep>in|on|for|at|within|inside|across|under)\s+(?P<what>[^,]{1,40}),\s+",
    re.IGNORECASE)
_TOKEN = re.compile(r"\S+")
# A word that carries its verb: "I'm", "you're", "we've", "they'd", "it'll" ('s is left
# alone: "Noor's laptop" is a possessive as often as "Noor's late" is a verb).
_CONTRACTED_VERB = re.compile(r"(.+?)'(?:m|re|ve|d|ll)")
_EDGE_PUNCT = "\"'“”‘’()[]{},;:!?."
_MAX_WORDS = 6


def subject_of(statement: str) -> str | None:
    """The subject a statement is about, as written, or None when it names none.

    ``"web-1 runs 3 replicas right now."`` -> ``"web-1"``; ``"The team decided not to use
    Redis."`` -> ``"The team"``; ``"In production, the rate limit is 40."`` -> ``"the rate
    limit (in production)"``; ``"It is raining."`` -> None.
    """
    if not isinstance(statement, str):
        return None
    text = " ".join(statement.split())
    # The first clause carries the subject ("X is Y; Z is W" is about X).
    text = re.split(r";\s|:\s|\s[\u2014\u2013]\s", text, maxsplit=1)[0]
    text = _LEADING.sub("", text)
    qualifier = None
    match = _QUALIFIER.match(text)
    if match:
        qualifier = f"{match.group('prep').lower()} {match.group('what').strip()}"
        text = text[match.end():]
        text = _LEADING.sub("", text)
    words = [w.strip(_EDGE_PUNCT) for w in _TOKEN.findall(text)]
    subject: list[str] = []
    for index, word in enumerate(words):
        low = _fold(word)
        if not low:
            break
        contracted = _CONTRACTED_VERB.fullmatch(low)
        if contracted:
            # "I'm", "we've", "Noor'll": the verb is inside the word, so the subject ends at
            # its stem ("I'm not a fan of X" is about the speaker: no key, as "I" has none).
            subject.append(word[:len(contracted.group(1))])
            break
        if subject and _opens_predicate(low, subject):
            break
        if not subject and (low in _AUXILIARIES or low in _PRE_VERB - {"no"}):
            return None  # a question or an imperative: "Always write a test first"
        subject.append(word)
        if index + 1 >= len(words) or len(subject) > _MAX_WORDS:
            return None  # no predicate found, or a noun phrase too long to be a subject
    phrase = " ".join(subject).strip()
    bare = _strip_determiners(phrase)
    if not bare or _fold(bare) in _NO_SUBJECT or not any(c.isalnum() for c in bare):
        return None
    return f"{phrase} ({qualifier})" if qualifier else phrase


def subject_key(subject: str | None) -> str | None:
    """The comparable form of a subject: case, determiners, possessives, hyphens and spaces
    folded, so "The payments API", "payments-api" and "Payments API" share one key."""
    if not isinstance(subject, str):
        return None
    text = unicodedata.normalize("NFKC", subject).strip()
    qualifier = ""
    match = re.fullmatch(r"(?P<head>.*?)\s*\((?P<q>[^()]*)\)", text)
    if match:
        text, qualifier = match.group("head"), match.group("q")
    head = _fold_key(_strip_determiners(text))
    if not head:
        return None
    if _fold(_strip_determiners(text)) in _NO_SUBJECT:
        return None
    tail = _fold_key(qualifier)
    return f"{head}@{tail}" if tail else head


def _fold(word: str) -> str:
    return word.replace("\u2019", "'").lower()


def _fold_key(text: str) -> str:
    words = [re.sub(r"'s$", "", _fold(w)) for w in text.split()]
    return re.sub(r"[^0-9a-z\u00c0-\uffff]+", "", "".join(words))


def _strip_determiners(phrase: str) -> str:
    words = phrase.split()
    while words and _fold(words[0]) in _DETERMINERS:
        words = words[1:]
    return " ".join(words)


def _opens_predicate(low: str, subject: list[str]) -> bool:
    """Whether this word, after the subject words so far, starts the predicate."""
    if low in _AUXILIARIES or low in _PRE_VERB or low in _VERBS_S:
        return True
    if low.endswith("'s") and low[:-2] in ("it", "that", "there", "what", "he", "she"):
        return True
    previous = _fold(subject[-1])
    # "decided", "moved", "ran": a past form, unless it qualifies a noun ("the shared drive").
    if (len(low) > 4 and low.endswith("ed") and low.isalpha()
            and previous not in _DETERMINERS):
        return True
    return low in _IRREGULAR_PAST and previous not in _DETERMINERS


_IRREGULAR_PAST = frozenset((
    "ran", "went", "took", "made", "found", "built", "wrote", "broke", "chose", "held", "left",
    "lost", "met", "paid", "sent", "spent", "stood", "won", "began", "brought", "bought",
    "caught", "drew", "drove", "fell", "flew", "forgot", "gave", "grew", "knew", "led", "said",
    "saw", "sold", "told", "thought", "understood", "woke", "wore", "shipped", "moved",
))
