"""The offline compiler's rules: a parsed sentence read for the property values it states.

Seed 002 §9 asks a compiler for state, not events: "my shoe size is 40", "we live in Porto",
"I work at Globex", "Priya reports to Daniel", "the billing service runs on Postgres 14";
and for the updates that carry a new value: "now 41", "moved to Lisbon in March", "left
Globex and joined Initech", "was upgraded to", "raised to", "switched from Vim to Helix",
"renamed to", "replaced Jenkins with GitHub Actions", "no longer". Everything else yields
nothing: a question, a negated or modal clause ("we did not move after all", "we might
move"), a plan ("next month"), a past state whose end is unknown ("we lived in Porto").

Each clause head (the root, a coordinated verb, an aspectual verb's complement: "started
working at") is matched against frames by its lemma and prepositions; its subject is the
speaker (I), the speaker's group (we) or a name (a person, a system, a team); its value is
a noun phrase, split into value and unit. Over spaCy tokens; deterministic.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from factstore.compiler.drafts import Draft, Refusal
from factstore.compiler.subjects import SubjectRef
from factstore.compiler.values import (
    attribute_key,
    clean_value,
    split_unit,
    unit_attribute,
    value_problem,
)
from factstore.compiler.vocabulary import (
    ALIAS_KEYS,
    GROUP_HEADS,
    RELATION_NOUNS,
    ROLE_HEADS,
    SYSTEM_HEADS,
    class_of,
    shaped_class,
)
from factstore.compiler.when import StatedTime, future_time, stated_time
from factstore.nlp import common_noun

__all__ = ["mask_identifiers", "read_sentence"]

#: The sentence as written while it is read: the parse saw it with identifiers masked
#: (same length, so offsets agree), and every quote and value is cut from the original.
_ORIGINAL: contextvars.ContextVar[str] = contextvars.ContextVar("compiler_original")

_HYPHENATED = re.compile(r"(?<![\w.@/:-])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)+"
                         r"(?![\w@/-])")
_MARKUP = re.compile(r"\{[a-z_]*\}?")
_SYSTEM_AFFIXES = frozenset(("db", "api", "svc", "srv", "app", "web", "worker", "cache",
                             "queue", "prod", "staging", "dev", "k8s", "cluster", "node",
                             "gateway", "proxy", "auth", "service", "js", "io", "ci", "cd",
                             "eu", "us", "ap", "bot", "cron", "etl", "job", "lb", "vpn"))
_ENGLISH_COMPOUNDS = frozenset((
    "on-call", "follow-up", "check-in", "part-time", "full-time", "long-term", "short-term",
    "co-founder", "e-mail", "re-run", "self-hosted", "read-only", "real-time", "well-known",
    "up-to-date", "high-level", "low-level", "open-source", "day-to-day", "so-called",
    "e.g", "i.e", "vice-president", "ex-wife", "ex-husband", "mother-in-law"))


def mask_identifiers(text: str) -> str:
    """``text`` with each system identifier's '-' and '.' written '_' ("payments-db",
    "web-1", "node.js"): the small parser splits a hyphenated name into three words and
    misreads the sentence; one word parses as a name. Same length, so offsets agree."""
    def mask(match: re.Match[str]) -> str:
        word = match.group(0)
        parts = re.split(r"[-.]", word.lower())
        if word.lower() in _ENGLISH_COMPOUNDS and word.lower() != "on-call":
            return word  # ("on-call" parses as the noun it is only when masked)
        if any(any(c.isdigit() for c in p) for p in parts) or \
                any(p in _SYSTEM_AFFIXES for p in parts) or word.islower():
            return re.sub(r"[-.]", "_", word)
        return word
    # transcript markup ("{disfmarker}", "{vocalsound}") is no word of the sentence
    text = _MARKUP.sub(lambda m: " " * len(m.group(0)), text)
    return _HYPHENATED.sub(mask, text)

_SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass"))
_GOING_TO = re.compile(r"\b(?:gonna|gon na|wanna|wan na|gotta|got ta|going to|want to|"
                       r"have to|has to|need to|plan to|planning to|hoping to|about to)\W*"
                       r"(?:\w+\W+){0,1}$", re.IGNORECASE)
_SPEAKER = frozenset(("i", "me", "myself"))
_GROUP = frozenset(("we", "us", "ourselves"))
_OTHER_PRONOUNS = frozenset(("he", "she", "they", "it", "this", "that", "these", "those",
                             "him", "her", "them", "you", "someone", "everyone", "nobody",
                             "somebody", "one", "who", "which", "what", "there"))
_MODALS = frozenset(("might", "may", "could", "would", "should", "must", "will", "'ll",
                     "shall", "can", "ca", "wo", "'d", "need", "ought"))
_ASPECTUAL = frozenset(("start", "begin", "continue", "keep", "resume", "go"))
_CHANGE_VERBS = frozenset(("switch", "migrate", "move", "change", "upgrade", "downgrade",
                           "replace", "swap", "transition", "convert", "port"))
_SET_VERBS = frozenset(("raise", "increase", "bump", "cut", "reduce", "lower", "drop", "set",
                        "scale", "double", "halve", "up", "decrease", "boost", "grow",
                        "shrink", "adjust", "extend", "trim", "tighten", "loosen", "lift",
                        "change"))
_PLACE_VERBS = frozenset(("live", "reside", "stay"))
#: Verbs by which a system sends to another ("publishes its events to NATS").
_SEND_VERBS = frozenset(("publish", "write", "send", "log", "push", "stream", "emit", "ship",
                         "forward"))
_MOVE_VERBS = frozenset(("move", "relocate", "settle"))
_EMPLOY_VERBS = frozenset(("work",))
_JOIN_VERBS = frozenset(("join",))
_LEAVE_VERBS = frozenset(("leave", "quit"))
_RUN_VERBS = frozenset(("run", "use", "have", "operate", "host", "allow", "permit", "build"))
_STATE_VERBS = frozenset(("be", "live", "reside", "work", "report", "run", "use", "have",
                          "speak", "drive", "own", "lead", "manage", "belong", "stay"))
_ADDITION = frozenset(("also", "too", "additionally"))
#: Verb forms the small parser reads as plural nouns after a name ("Amara lives in ...").
_VERB_FORMS = {"lives": "live", "works": "work", "runs": "run", "reports": "report",
               "uses": "use", "speaks": "speak", "leads": "lead", "owns": "own",
               "manages": "manage", "drives": "drive", "plays": "play"}
_NOW = frozenset(("now", "currently", "nowadays", "anymore"))
_NOT_VALUES = frozenset(("it", "them", "this", "that", "something", "anything", "nothing",
                         "everything", "one", "some", "all", "there", "here", "home"))
#: Heads of a phrase naming who holds a thing ("the budget owner", "the project lead").
_HOLDER_HEADS = frozenset(("owner", "lead", "leader"))
_ROLE_PREP_HEADS = frozenset(("head", "director", "vp", "chief", "lead", "manager"))


_NOT_PEOPLE = frozenset(("GPE", "LOC", "DATE", "TIME", "MONEY", "PERCENT", "QUANTITY",
                         "CARDINAL", "ORDINAL", "FAC", "PRODUCT", "LANGUAGE", "EVENT", "LAW"))
_CALENDAR = frozenset(("january", "february", "march", "april", "may", "june", "july",
                       "august", "september", "october", "november", "december", "monday",
                       "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
_HE = frozenset(("he", "she", "him", "her", "his", "hers", "himself", "herself"))
_IT = frozenset(("it", "its", "itself"))


@dataclass
class Mentions:
    """The names a capture mentioned so far, sentence by sentence: who "he" or "she" and
    what "it" can be. Resolved only when the nearest sentence naming one names exactly one
    (the identity mangle, seed 000 §7, is the failure this refuses to risk)."""

    speakers: frozenset[str] = frozenset()
    people: list[list[str]] = field(default_factory=list)
    systems: list[list[str]] = field(default_factory=list)

    def note(self, doc: Any) -> None:
        """Add one parsed sentence's names."""
        people, systems = [], []
        for token in doc:
            if token.dep_ == "compound" and token.head.pos_ == "PROPN":
                continue  # read with the name it is part of
            text = _span_text(_name_tokens(token))
            low = text.lower()
            if not text or low in self.speakers or _vocative(token):
                continue
            masked = "_" in token.text and _identifier(_run_text(token))
            if masked or (token.pos_ in ("NOUN", "PROPN") and
                          token.lemma_.lower() in SYSTEM_HEADS and token.i > 0):
                # a system: a name the masking read as one ("svc-search"), or a phrase
                # headed by a system word ("the billing service"); not "OOM-killed"
                systems.append(_run_text(token) if masked else _span_text(
                    _phrase_tokens(token, per=False)).removeprefix("the ").strip())
            elif token.pos_ == "PROPN" and (token.ent_type_ not in _NOT_PEOPLE or
                                            token.ent_type_ == "CARDINAL" and
                                            token.text.isalpha()) and \
                    low not in _CALENDAR and token.text[:1].isupper() and \
                    not token.text.isupper() and \
                    token.lemma_.lower() not in GROUP_HEADS | SYSTEM_HEADS:
                people.append(text)
        self.people.append(people)
        self.systems.append(systems)

    @staticmethod
    def _nearest(sentences: list[list[str]]) -> str | None:
        for names in reversed(sentences):
            distinct = list(dict.fromkeys(names))
            if len(distinct) == 1:
                return distinct[0]
            if distinct:
                return None  # two candidates: never guess
        return None

    def person(self) -> str | None:
        return self._nearest(self.people)

    def system(self) -> str | None:
        return self._nearest(self.systems)


_GREETINGS = frozenset(("hey", "hi", "hello", "thanks", "thank", "bye", "congrats", "yo",
                        "dear", "sorry", "congratulations", "morning", "evening", "night",
                        "cheers", "welcome", "oh", "wow", "ok", "okay"))


def _vocative(token: Any) -> bool:
    """The name is the one spoken to ("Thanks, Maria!", "Hey John, ..."), so "he" or "his"
    is never them."""
    doc = token.doc
    before = [t for t in doc[max(0, token.i - 2):token.i] if not t.is_punct]
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    if before and before[-1].lower_ in _GREETINGS:
        return True
    if token.i == 0 and after is not None and after.text in (",", "!"):
        return True
    prev = doc[token.i - 1] if token.i > 0 else None
    return prev is not None and prev.text == "," and (after is None or after.is_punct)


def _name_tokens(token: Any) -> list[Any]:
    """A proper name with the names compounded into it ('Hannelore Brandt')."""
    parts = [c for c in token.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"]
    return [*parts, token]


@dataclass(frozen=True)
class _Np:
    """A noun phrase read for who owns it and what it names."""

    #: the owner a possessive or an identifier prefix names ("my", "web-1's", "the API")
    owner: SubjectRef | None
    #: the words after the owner, for an attribute key ("shoe size", "rate limit")
    rest: str
    #: the whole phrase as a subject of its own, when it names one
    name: SubjectRef | None
    #: "my sister", "our kids": a relation of the speaker's, never filed
    relation: bool
    text: str


#: Put before a sentence that opens with an identifier the small parser reads as a verb
#: ("svc-notify runs on ..."): with a determiner in front it is read as the noun it is.
LEAD = "The "


def read_sentence(doc: Any, sentence_text: str, offset: int, speaker: str | None,
                  said: datetime, mentions: Mentions | None = None, *, lead: int = 0
                  ) -> tuple[list[Draft], list[Refusal]]:
    """The drafts and refusals of one sentence: ``doc`` is its parse (of the masked text,
    :func:`mask_identifiers`), ``sentence_text`` the sentence as written, ``offset`` where
    it starts in the capture (the drafts' spans are the capture's). ``lead`` characters of
    ``sentence_text`` (and of the parse) were put before the sentence (LEAD) and are never
    quoted."""
    token = _ORIGINAL.set(sentence_text)
    mentions = mentions if mentions is not None else Mentions()
    try:
        found = _read(doc, sentence_text, offset, speaker, said, mentions, lead)
        mentions.note(doc)
        return found
    finally:
        _ORIGINAL.reset(token)


def ellipsis_holder(doc: Any, sentence_text: str) -> str | None:
    """"Kenji does.", "Rohan does now": a clause that repeats the verb before it with a new
    subject -- the name that now does it, or None."""
    words = [t for t in doc if not t.is_punct and t.lower_ not in ("now", "too", "instead")]
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.lemma_.lower() != "do" or not 2 <= len(words) <= 4 or \
            any(c.dep_ in ("dobj", "attr", "xcomp", "ccomp", "neg") for c in root.children):
        return None
    subject = _own_subject(root)
    if subject is None or subject.pos_ != "PROPN":
        return None
    token = _ORIGINAL.set(sentence_text)
    try:
        return _value_of(subject)
    finally:
        _ORIGINAL.reset(token)


def _read(doc: Any, sentence_text: str, offset: int, speaker: str | None,
          said: datetime, mentions: Mentions, lead: int = 0
          ) -> tuple[list[Draft], list[Refusal]]:
    if sentence_text.rstrip("\"')]” ").endswith("?"):
        return [], []
    drafts: list[Draft] = []
    refusals: list[Refusal] = []
    times: dict[int, StatedTime | None] = {}
    subjects: dict[int, Any] = {}
    for head in _heads(doc):
        clause = _clause_tokens(head)
        if not clause:
            continue
        start, end = clause[0].idx, clause[-1].idx + len(clause[-1].text)
        start = max(start, lead)
        quote = sentence_text[start:end]
        span = (offset + start - lead, offset + end - lead)
        subject = _own_subject(head)
        if subject is None and head.dep_ in ("conj", "xcomp") and head.head.i in subjects:
            subject = subjects[head.head.i]
        subjects[head.i] = subject
        time = stated_time(quote, said)
        if time is None and head.dep_ in ("conj", "xcomp") and subject is not None and \
                _own_subject(head) is None:
            time = times.get(head.head.i)
        times[head.i] = time
        reader = _Clause(head, subject, quote, span, time, speaker, sentence_text, mentions)
        made, refused = reader.read()
        drafts += made
        refusals += refused
    return drafts, refusals


def _heads(doc: Any) -> list[Any]:
    """The verbs that head a clause: the root, verbs coordinated with a head, and the verb
    an aspectual verb governs ("started working at")."""
    heads = [t for t in doc if t.dep_ == "ROOT"]
    changed = True
    while changed:
        changed = False
        for token in doc:
            if token in heads:
                continue
            if token.head in heads and token.pos_ in ("VERB", "AUX") and (
                    token.dep_ in ("conj", "parataxis")
                    or token.dep_ == "xcomp" and token.head.lemma_ in _ASPECTUAL
                    or token.dep_ == "ccomp" and token.head.lemma_ in ("say", "tell", "think",
                                                                        "mention", "hear")
                    or _fronted(token)) or _misread_verb(token):
                heads.append(token)
                changed = True
    return sorted(heads, key=lambda t: t.i)


def _misread_verb(token: Any) -> bool:
    """"the nightly export runs at 04:30 UTC now, backups stay ...": a verb the parser
    read as a plural noun, with its subject as a compound before it and a place or time
    after it, heads a clause of its own."""
    return token.pos_ == "NOUN" and token.lower_ in _VERB_FORMS and token.dep_ != "ROOT" \
        and any(c.dep_ == "compound" or c.dep_ == "amod" and c.lower_ in SYSTEM_HEADS
                for c in token.lefts) and \
        any(c.dep_ == "prep" for c in token.rights)


def _fronted(token: Any) -> bool:
    """"I left Globex last month and joined Initech, the team is tiny": a comma splice the
    parser hangs under the clause after it, as a complement with its own subject."""
    if token.dep_ != "ccomp" or token.i > token.head.i:
        return False
    if next((c for c in token.children if c.dep_ in _SUBJECT_DEPS), None) is None:
        return False
    between = token.doc[token.right_edge.i + 1:token.head.i]
    return any(t.text == "," for t in between)


def _clause_tokens(head: Any) -> list[Any]:
    """The head's subtree without the clauses coordinated under it."""
    skip: set[int] = set()
    for child in head.children:
        if (child.dep_ in ("conj", "parataxis") and child.pos_ in ("VERB", "AUX")) or \
                _fronted(child):
            skip |= {t.i for t in child.subtree}
        if child.dep_ == "cc":
            skip.add(child.i)
    tokens = [t for t in head.subtree if t.i not in skip]
    while tokens and tokens[-1].dep_ in ("punct", "cc"):
        tokens.pop()
    while tokens and tokens[0].dep_ in ("punct", "cc"):
        tokens.pop(0)
    return tokens


def _own_subject(verb: Any) -> Any | None:
    # the subject nearest before the verb ("no idea haha, ... I'm in Aarhus": I, not haha)
    subjects = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
    before = [c for c in subjects if c.i < verb.i]
    found = before[-1] if before else (subjects[0] if subjects else None)
    if found is None and verb.dep_ == "xcomp" and verb.head.lemma_ in _ASPECTUAL:
        return _own_subject(verb.head)
    if found is None and (verb.pos_ == "NOUN" and verb.lower_ in _VERB_FORMS or
                          verb.pos_ == "VERB" and verb.lemma_ in ("run", "live", "work")):
        # "The nightly export runs at 02:00": the verb read as a plural noun, its subject
        # as the noun's compound
        found = next((c for c in reversed(list(verb.lefts)) if c.dep_ in ("compound", "amod")
                      and (c.pos_ in ("NOUN", "PROPN") or c.lower_ in SYSTEM_HEADS)), None)
    if found is None:
        # the small parser reads a name before a verb as the verb's modifier ("Dmitri
        # works at ...", "Tomás lives in ...", "web-1 is back to 5"): the word right before
        # the head, a name or an identifier, is its subject
        at = verb.i - 1
        while at > 0 and verb.doc[at].dep_ in ("aux", "auxpass", "neg") and \
                verb.doc[at].head.i == verb.i:
            at -= 1  # "api-gw is running ...": past the auxiliaries
        before = verb.doc[at] if at >= 0 and at < verb.i else None
        if before is not None and before.head.i == verb.i and \
                before.dep_ in ("advmod", "npadvmod", "amod", "compound", "nmod", "dep") and \
                (_identifier(_run_text(before)) or before.pos_ == "PROPN" or
                 (before.text[:1].isupper() and before.i == 0)):
            found = before
    return found


# -- tokens ---------------------------------------------------------------------------------

_IDENT = re.compile(r"^(?=.*[a-z])[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$|^[a-z]+\d+[a-z0-9]*$",
                    re.IGNORECASE)


def _identifier(text: str) -> bool:
    """'web-1', 'svc-payments', 'eu-west-1', 'db2': a name a system goes by."""
    return bool(_IDENT.match(text)) and not text.lower().startswith(("e.g", "i.e")) and \
        text.lower() not in _ENGLISH_COMPOUNDS


def _run(token: Any) -> list[Any]:
    """The token with its neighbours written without a space between ('svc', '-', 'auth')."""
    doc = token.doc
    start = token.i
    while start > 0 and not doc[start - 1].whitespace_ and doc[start - 1].text not in "([\"'" \
            and (doc[start - 1].text == "-" or doc[start].text == "-"
                 or doc[start - 1].text in ".-" or doc[start].text in ".-"):
        start -= 1
    end = token.i
    while end + 1 < len(doc) and not doc[end].whitespace_ and (
            doc[end + 1].text in ("-", ".") and end + 2 < len(doc) and doc[end + 2].is_alpha
            or doc[end].text in ("-", ".") and doc[end + 1].text.isalnum()
            or doc[end + 1].text == "-"):
        end += 1
    return list(doc[start:end + 1])


def _text_of(doc: Any) -> str:
    return _ORIGINAL.get(doc.text)


def _run_text(token: Any) -> str:
    tokens = _run(token)
    return _text_of(token.doc)[tokens[0].idx:tokens[-1].idx + len(tokens[-1].text)]


def _span_text(tokens: Iterable[Any]) -> str:
    ordered = sorted(tokens, key=lambda t: t.i)
    if not ordered:
        return ""
    return _text_of(ordered[0].doc)[ordered[0].idx:ordered[-1].idx + len(ordered[-1].text)]


def _phrase_tokens(token: Any, *, of: bool = False, per: bool = True) -> list[Any]:
    """A noun phrase: the token, its left modifiers, an identifier run, and (for a role or a
    unit) its "of ..." / "per ..." part."""
    keep = {token.i}
    for t in _run(token):
        keep.add(t.i)
    for child in token.lefts:
        if child.dep_ in ("det", "amod", "compound", "nummod", "poss", "quantmod", "nmod",
                          "npadvmod", "punct") or child.pos_ in ("PROPN", "NUM"):
            if child.dep_ == "punct" and child.text not in ("-", "."):
                continue
            keep |= {t.i for t in child.subtree if t.dep_ not in ("aux", "mark", "neg")
                     and t.lower_ != "to"}
    for child in token.rights:
        if child.dep_ == "prep" and ((of and child.lower_ == "of") or
                                     (per and child.lower_ in ("per", "a", "an"))):
            keep |= {t.i for t in child.subtree}
        elif child.dep_ in ("compound", "nummod", "appos") and child.pos_ in ("PROPN", "NUM") \
                and child.i == max(keep) + 1:
            keep |= {t.i for t in child.subtree}
        elif child.dep_ == "punct" and child.text in ("-", ".") and not child.whitespace_:
            keep.add(child.i)
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if after is not None and after.head.i == token.head.i and after.head.i != token.i and \
            after.dep_ == token.dep_ and token.dep_ in ("dobj", "pobj", "attr") and \
            after.text.islower() and after.pos_ in ("NOUN", "VERB") and \
            after.tag_ in ("NN", "NNS", "VB"):
        # "migrated the checkout repo", "promoted to analytics lead": the small parser split
        # one phrase into two objects of the verb; the second word is its head
        keep.add(after.i)
    for t in list(keep):
        for r in _run(token.doc[t]):
            keep.add(r.i)
    tokens = [token.doc[i] for i in sorted(keep)]
    # contiguous from the token's left edge: never reach across a gap
    lo = min(range(len(tokens)), key=lambda k: abs(tokens[k].i - token.i))
    out = [tokens[lo]]
    for t in tokens[lo + 1:]:
        if t.i != out[-1].i + 1:
            break
        out.append(t)
    for t in reversed(tokens[:lo]):
        if t.i != out[0].i - 1:
            break
        out.insert(0, t)
    return out


def _values_of(token: Any) -> list[str]:
    """A value and the values coordinated with it ('Korean and English')."""
    out = []
    for item in [token, *[c for c in token.conjuncts if c.i > token.i]]:
        value = _value_of(item)
        if value is not None:
            out.append(value)
    return out


def _value_of(token: Any, *, of: bool = False) -> str | None:
    text = clean_value(_span_text(_phrase_tokens(token, of=of)))
    if not text or text.lower() in _NOT_VALUES or len(text) > 200:
        return None
    return text


#: Heads of a team one works on, one at a time (a club or a board is one of several).
_TEAM_HEADS = frozenset(("team", "squad", "department"))
#: Nouns after a value its shape already names ("m6i.xlarge instances").
_SHAPE_NOUNS = frozenset(("instance", "instances", "node", "nodes", "machine", "machines",
                          "box", "boxes", "region", "vm", "vms"))
#: A time of day: "02:00", "4:30".
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NAMED_ENTITIES = frozenset(("PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "LANGUAGE",
                             "NORP", "WORK_OF_ART", "QUANTITY", "MONEY", "PERCENT"))


def _specific_token(token: Any) -> bool:
    """The token names something: a name, a number, an identifier, a URL."""
    text = token.text
    return token.pos_ in ("PROPN", "NUM") or (token.like_num and token.pos_ != "ADJ") or \
        token.like_url or \
        token.like_email or any(c.isdigit() for c in text) or "_" in text or \
        token.ent_type_ in _NAMED_ENTITIES or (text.isupper() and len(text) > 1) or \
        (text[:1].isupper() and not token.is_sent_start and token.pos_ != "PRON")


def _organisation(token: Any) -> bool:
    """The phrase names an organisation ("Globex", "Initech", "svc-billing's team"), not a
    kind of place or a span of time ("a gym", "a while")."""
    return token.ent_type_ not in ("DATE", "TIME", "PERSON") and (
        token.pos_ == "PROPN" or token.ent_type_ == "ORG" or _identifier(_run_text(token)))


def _opens_clause(head: Any) -> bool:
    """The verb is the clause's first word, past interjections and fillers ("yep,
    replaced ...", "finally upgraded ...")."""
    for token in head.doc[head.left_edge.i:head.i]:
        if token.dep_ in ("intj", "punct", "advmod", "cc", "discourse") or \
                token.lower_ in ("yep", "yeah", "yes", "ok", "okay", "so", "lol", "haha"):
            continue
        return False
    return True


# -- subjects -------------------------------------------------------------------------------

def _hyphenated_name(token: Any) -> bool:
    """'Soo-jin', 'Jean-Luc': a capitalised, letters-only hyphenated word the parser reads
    as a name is a person's, not a system's identifier ('web-1', 'svc-auth')."""
    text = _run_text(token)
    parts = text.split("-")
    return len(parts) > 1 and text[:1].isupper() and all(p.isalpha() for p in parts) and \
        (token.pos_ == "PROPN" or token.ent_type_ == "PERSON")


def _name_ref(tokens: Sequence[Any], speaker: str | None) -> SubjectRef | None:
    """A noun phrase as a named subject: a system, a team, a person or a company."""
    words = [t for t in tokens if t.dep_ != "det" and t.tag_ != "PRP$"
             and t.lower_ not in ("'s", "’s")]
    if not words:
        return None
    text = clean_value(_span_text(words))
    if not text:
        return None
    head = words[-1]
    low_heads = {t.lower_ for t in words}
    if len(words) > 1 and words[0].lower_ == "project" and words[0].text[:1].isupper():
        return SubjectRef("named", text, "project")  # "Project Atlas", whatever its verb
    if _identifier(text.replace(" ", "")) and " " not in text and not _hyphenated_name(head):
        return SubjectRef("named", text, "system")
    if head.lemma_.lower() in SYSTEM_HEADS or head.lower_ in SYSTEM_HEADS or \
            low_heads & {"api", "db", "ci", "vpn", "cdn", "dns"}:
        return SubjectRef("named", text, "system")
    if head.lemma_.lower() in GROUP_HEADS:
        return SubjectRef("named", text, "project")
    if _hyphenated_name(head) and {t.i for t in words} <= {t.i for t in _run(head)}:
        return SubjectRef("named", text, "person")
    if all(t.pos_ == "PROPN" or (t.text[:1].isupper() and t.pos_ in ("NOUN", "ADJ", "X"))
           or _hyphenated_name(t) for t in words if t.text != "-"):
        if len(words) == 1 and head.tag_ == "NNS" and head.is_sent_start and \
                not head.ent_type_ and (common_noun(head.lemma_) or common_noun(head.lower_)):
            return None  # "Farmers manage ...", "People work ...": capitalised by position
        if head.ent_type_ in ("DATE", "TIME"):
            return None  # "March", "Monday": a time, no one's name
        if any(t.lower_ in ("inc", "ltd", "llc", "gmbh", "corp", "co") for t in words):
            return SubjectRef("named", text, "customer")
        return SubjectRef("named", text, "person")
    return None


def _thing_ref(token: Any) -> SubjectRef | None:
    """A definite common-noun phrase as a thing someone owns or leads ("the travel budget",
    "the infrastructure budget"): named by its words, in the project namespace. Only "the"
    makes it one thing; "a budget" is none in particular."""
    tokens = _phrase_tokens(token)
    if not any(t.dep_ == "det" and t.lower_ == "the" for t in tokens) or \
            token.pos_ != "NOUN" or token.ent_type_:
        return None
    words = [t for t in tokens if t.dep_ != "det"]
    text = clean_value(_span_text(words))
    if not text or len(words) > 4 or any(t.pos_ == "PRON" or t.pos_ == "VERB" and
                                         t.tag_ != "VBG" for t in words):
        return None
    return _name_ref(words, None) or SubjectRef("named", text, "project")


def _noun_phrase(token: Any, speaker: str | None, clause: Any = None) -> _Np:
    """Who a noun phrase's possessive or prefix names, and the words that remain."""
    tokens = _phrase_tokens(token, of=False, per=False)
    text = _span_text(tokens)
    poss = next((c for c in token.children if c.dep_ == "poss"), None)
    if poss is not None:
        rest = [t for t in tokens if t.i > max(x.i for x in poss.subtree)
                and t.lower_ not in ("'s", "’s")]
        owner = _pronoun_ref(poss, speaker) or (clause._resolved(poss) if clause else None)
        if owner is None:
            owner = _name_ref([t for t in poss.subtree if t.lower_ not in ("'s", "’s")],
                              speaker)
        relation = token.lemma_.lower() in RELATION_NOUNS or token.lower_ in RELATION_NOUNS
        named = next((c for c in token.children if c.dep_ == "appos" and c.pos_ == "PROPN"),
                     None)
        if relation and named is not None:
            # "my brother Tomasz": Tomasz, by name
            return _Np(None, _span_text(rest), _name_ref(_phrase_tokens(named), speaker),
                       False, text)
        return _Np(owner, _span_text(rest), None, relation, text)
    # "the memory limit of svc-x"; "headcount on the Growth team", "retention for the
    # audit bucket": a property noun with its owner after it (a team or a system after
    # "on"/"for"; a person there is not the owner: "the budget for Anna")
    of = next((c for c in token.children if c.dep_ == "prep" and (
        c.lower_ == "of" or c.lower_ in ("on", "for") and (
            token.pos_ == "NOUN" or token.dep_ in _SUBJECT_DEPS))), None)
    if of is not None:
        pobj = next((c for c in of.children if c.dep_ == "pobj"), None)
        if pobj is not None:
            owner = _name_ref(_phrase_tokens(pobj), speaker) or _pronoun_ref(pobj, speaker)
            if owner is not None and of.lower_ != "of" and owner.namespace == "person":
                owner = None
            if owner is not None:
                rest = [t for t in tokens if t.dep_ != "det"]
                return _Np(owner, _span_text(rest), None, False, text)
    words = [t for t in tokens if t.dep_ != "det"]
    if _mine(token, words):
        # "shoe size is now 39": a personal property named with no owner is the speaker's
        return _Np(SubjectRef("speaker", speaker), _span_text(words), None, False, text)
    # an identifier or a proper name in front: "the API rate limit", "web-1 memory limit"
    for cut in range(len(words) - 1, 0, -1):
        front, back = words[:cut], words[cut:]
        if back[-1].pos_ != "NOUN" or not back[-1].text.islower():
            continue  # "Hannelore Brandt": a name throughout, no property after it
        if not back[0].text.islower():
            continue
        last = front[-1]
        # the front ends with a name ("the partner API rate limit", "web-1 memory limit"),
        # or is a system or a team named by two words or more ("the billing job schedule")
        if last.pos_ == "PROPN" or _identifier(_run_text(last)) or \
                (last.text.isupper() and len(last.text) > 1) or \
                (len(front) > 1 and last.text.islower() and
                 last.lemma_.lower() in SYSTEM_HEADS | GROUP_HEADS):
            ref = _name_ref(front, speaker)
            if ref is not None and ref.namespace == "person" and \
                    any(t.text.isupper() and len(t.text) > 1 for t in front):
                ref = replace(ref, namespace="system")  # 'API', 'CRM': acronyms are systems
            if ref is not None:
                return _Np(ref, _span_text(back), _name_ref(words, speaker), False, text)
    rest = _span_text(words)
    if _ours(token, words):
        # "Log retention is 60 days", "The company is headquartered in Osaka": a property
        # (or the company) named with no owner is the speaker's group's, as "our" is
        if len(words) == 1 and rest.lower() in _COMPANY_WORDS:
            return _Np(None, rest, SubjectRef("group"), False, text)
        return _Np(SubjectRef("group"), rest, None, False, text)
    return _Np(None, rest, _name_ref(words, speaker), False, text)


#: Heads of a person's own properties ("shoe size", "weekly running goal", "home address").
_PERSONAL_HEADS = frozenset(("size", "weight", "height", "goal", "salary", "rent",
                             "birthday", "address"))
_WORN = frozenset(("shoe", "ring", "dress", "shirt", "jeans", "glove", "hat", "bra", "suit",
                   "trouser", "pants", "clothing", "coat", "boot"))


def _mine(token: Any, words: Sequence[Any]) -> bool:
    """A bare phrase (no determiner, nothing hung on it) of two or more common words ending
    in a personal property ("shoe size is now 39"): the speaker's own."""
    if len(words) < 2 or any(t.dep_ in ("det", "poss") for t in token.subtree) or \
            any(c.dep_ in ("relcl", "acl", "prep") for c in token.children):
        return False
    head = token.lemma_.lower()
    if head == "size" and words[-2].lower_ not in _WORN:
        return False  # "page size", "batch size": a setting, not the speaker's
    return head in _PERSONAL_HEADS and all(
        t.text.islower() or t.i == 0 and t.text.istitle() for t in words) and \
        all(t.pos_ in ("NOUN", "ADJ") or t.i == 0 and common_noun(t.lower_) for t in words)


#: Ownerless phrases that name the speaker's company.
_COMPANY_WORDS = frozenset(("company", "firm", "organisation", "organization"))


def _ours(token: Any, words: Sequence[Any]) -> bool:
    """The phrase names one of the speaker's group's properties with no owner: a registered
    key's alias of two or more words ("log retention", "rate limit", "instance type"), or
    "the company"; with no determiner but "the" and nothing hung on it ("the company I
    applied to" is another)."""
    if any(c.dep_ in ("relcl", "acl", "prep") for c in token.children):
        return False
    if any(t.dep_ == "det" and t.lower_ != "the" for t in token.subtree):
        return False
    folded = " ".join(t.lower_ for t in words)
    if len(words) == 1:
        # "the company"; "CI is on GitLab CI": a bare property acronym
        return folded in _COMPANY_WORDS and any(t.lower_ == "the" for t in token.subtree) \
            or folded in _PROPERTY_ACRONYMS and words[0].text.isupper() and \
            not any(t.dep_ == "det" for t in token.subtree)
    return folded in ALIAS_KEYS


#: Acronyms that name a property, not a thing ("our CI", "my OS").
_PROPERTY_ACRONYMS = frozenset(("ci", "os", "cd", "ide", "vpn", "isp", "dns", "cdn", "crm",
                                "erp", "sso", "ttl", "sla", "slo"))


def _common_head(words: str) -> bool:
    """An attribute is named by common words ('shoe size'), never by a name."""
    split = words.split()
    last = split[-1] if split else ""
    if len(split) == 1 and last.istitle() and common_noun(last.lower()):
        return True  # "Headcount on the Growth team ...": capitalised by its position
    return bool(last) and (last[:1].islower() or last.lower() in _PROPERTY_ACRONYMS)


def _property_word(token: Any) -> bool:
    """The token names a property rather than a thing: 'CI', 'the editor', 'our DNS'."""
    head = _phrase_tokens(token)[-1]  # "the checkout repo", split by the parser
    return token.lower_ in _PROPERTY_ACRONYMS or (
        token.pos_ == "NOUN" and token.text.islower() and not _identifier(_run_text(token))
        and token.lemma_.lower() not in SYSTEM_HEADS | GROUP_HEADS
        and head.lemma_.lower() not in SYSTEM_HEADS | GROUP_HEADS)


def _pronoun_ref(token: Any, speaker: str | None) -> SubjectRef | None:
    low = token.lower_
    if low in _SPEAKER or low == "my" or low == "mine":
        return SubjectRef("speaker", speaker)
    if low in _GROUP or low == "our" or low == "ours":
        return SubjectRef("group", speaker)
    return None


# -- one clause -----------------------------------------------------------------------------

class _Clause:
    """One clause head and what it needs to read its frames."""

    def __init__(self, head: Any, subject: Any | None, quote: str, span: tuple[int, int],
                 time: StatedTime | None, speaker: str | None, sentence: str,
                 mentions: Mentions) -> None:
        self.head = head
        self.subject = subject
        self.mentions = mentions
        #: a chat turn's subjectless report ("replaced my Pixel 7 with a Fairphone 5
        #: yesterday") is the speaker's own
        self.implied: SubjectRef | None = None
        if subject is None and speaker is not None and head.dep_ == "ROOT" and \
                head.tag_ == "VBD" and _opens_clause(head):
            self.implied = SubjectRef("speaker", speaker)
        self.quote = quote
        self.span = span
        self.time = time
        self.speaker = speaker
        self.sentence = sentence
        self.lemma = head.lemma_.lower()
        if head.pos_ == "NOUN" and head.lower_ in _VERB_FORMS:
            # "Amara lives in Bologna" parsed as the noun "lives" (lemma "life")
            self.lemma = _VERB_FORMS[head.lower_]
        self.children = list(head.children)
        self.words = {t.lower_ for t in head.subtree}
        auxes = [c for c in self.children if c.dep_ in ("aux", "auxpass")]
        # "has run 4 replicas since October", "I've lived here for years": a present
        # perfect is a state that still holds, not a past one
        perfect = head.tag_ == "VBN" and any(a.lemma_ == "have" and a.tag_ in ("VBZ", "VBP")
                                            for a in auxes)
        # "was renamed", "had run": past; "is named", "are paused": a present passive
        self.past = not perfect and (head.tag_ == "VBD" or any(
            a.tag_ == "VBD" for a in auxes) or (head.tag_ == "VBN" and not auxes))
        self.now = any(c.lower_ in _NOW for c in head.subtree
                       if c.dep_ in ("advmod", "npadvmod") and c.head.i == head.i)
        self.addition = any(c.lower_ in _ADDITION for c in self.children
                            if c.dep_ == "advmod")
        #: "started working at Initech": the aspectual verb reports the change
        self.began = head.dep_ == "xcomp" and head.head.lemma_ in ("start", "begin")

    # ---- gates ----

    def _refused(self, reason: str) -> tuple[list[Draft], list[Refusal]]:
        return [], [Refusal(self.quote, reason)]

    def _gate(self) -> str | None:
        """Why this clause states no value, or None when it may."""
        auxes = [c for c in self.children if c.dep_ in ("aux", "auxpass")]
        if any(a.lower_ in _MODALS or a.lemma_.lower() in _MODALS for a in auxes):
            return "modal or future: it states no value that holds"
        if any(a.tag_ == "TO" for a in auxes):
            return "an infinitive: it states no value that holds"
        if _GOING_TO.search(self.sentence[:self.head.idx]):
            return "a plan ('gonna', 'wanna'): it states no value that holds"
        if self.head.tag_ == "VBG" and any(a.lemma_ == "be" for a in auxes) and any(
                t.lower_ == "going" for t in self.head.lefts):
            return "a plan: it states no value that holds"
        if future_time(self.quote):
            return "a plan for later: it states no value that holds yet"
        if self.time is not None and self.time.date > "9":  # defensive: never reached
            return "unreadable time"
        if self._negated() and not self._no_longer():
            return "negated: it says the value did not change or does not hold"
        if any(c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether", "once", "when")
               for c in self.children):
            return "conditional: it states no value that holds"
        if self.head.dep_ in ("advcl", "relcl", "acl", "pcomp", "csubj"):
            return "a subordinate clause"
        if self.head.tag_ == "VBG" and not auxes and self.head.dep_ != "xcomp":
            return "a gerund, not a statement"
        if self.head.lemma_.lower() in ("think", "consider", "plan", "want", "hope", "wish",
                                        "expect", "intend", "try", "like", "love", "prefer",
                                        "need", "decide", "discuss", "talk", "debate"):
            return "an intention or a thought, not a value"
        return None

    def _negated(self) -> bool:
        negs = [c for c in self.children if c.dep_ == "neg" or c.lower_ in ("never", "not",
                                                                             "n't")]
        # "I'm no writer", "we have no replicas": the complement's own "no"
        negs += [d for c in self.children if c.dep_ in ("attr", "dobj", "acomp", "oprd")
                 for d in c.children if d.dep_ == "det" and d.lower_ in ("no", "neither")]
        if self.subject is not None and self.subject.lower_ in ("nobody", "nothing",
                                                                "noone", "none"):
            return True
        return bool(negs)

    def _no_longer(self) -> bool:
        """'I no longer work at Globex', "I don't work at Globex anymore": it ended."""
        low = self.quote.lower()
        return bool(re.search(r"\bno longer\b|\bnot\b.*\b(?:anymore|any more|any longer)\b"
                              r"|n't\b.*\b(?:anymore|any more|any longer)\b", low))

    def _ends_here(self) -> bool:
        """This clause's own verb says the value stopped ("no longer leads", "doesn't live
        there anymore"), not another clause of the sentence ("I no longer live in Utrecht,
        I'm in Aarhus now": the second states a value)."""
        children = list(self.head.children)
        for c in children:
            low = c.lower_
            if low == "longer" and any(g.lower_ == "no" for g in c.children):
                return True
            if low in ("anymore", "more", "longer") and any(
                    n.dep_ == "neg" for n in children):
                return True
        return False

    # ---- reading ----

    def read(self) -> tuple[list[Draft], list[Refusal]]:
        why = self._gate()
        if why is not None:
            # a refusal is logged only when the clause looked like a property statement
            return ([], [Refusal(self.quote, why)]) if self._property_like() else ([], [])
        if self.subject is None and self.implied is None:
            return self._there() or ([], [])  # "There are 17 people on ...": no subject
        if self.subject is not None and self.subject.lower_ in _OTHER_PRONOUNS and \
                self._resolved(self.subject) is None:
            if not self._property_like():
                return [], []
            return [], [Refusal(self.quote, f"subject {self.subject.text!r} is a pronoun "
                                             "the compiler does not resolve")]
        frames = (self._there, self._copula, self._move, self._based, self._live, self._work, self._join,
                  self._leave,
                  self._report, self._promote, self._rename, self._change, self._set,
                  self._schedule, self._keep, self._pay, self._add, self._sit,
                  self._sends, self._turn,
                  self._lead, self._written, self._play, self._diet, self._run, self._speak,
                  self._drive)
        for frame in frames:
            found = frame()
            if found is not None:
                return self._checked(*found)
        return [], []

    def _checked(self, drafts: list[Draft], refusals: list[Refusal]
                 ) -> tuple[list[Draft], list[Refusal]]:
        """The frame's drafts whose values are values (values.value_problem); the rest
        refused with the reason."""
        kept, refused = [], list(refusals)
        ended = self._ends_here()
        for draft in drafts:
            if ended and draft.value is not None and not draft.ends:
                # "Paola no longer leads Project Fjord": whatever frame read it, the
                # value stopped holding; it is ended, never stated
                draft = replace(draft, value=None, unit=None, ends=(draft.value,),
                                change=True, cue=draft.cue or "no longer")
            why = None
            if "{" in (draft.alias or ""):
                why = "the property's words hold transcript markup"
            elif draft.value is not None:
                tokens = self._tokens_of(draft.value)
                # a normalised number ("1,050" read as 1050, "two" as 2) is specific
                specific = _NUMBER.fullmatch(draft.value) is not None or any(
                    _specific_token(t) for t in tokens)
                why = value_problem(draft.attribute, draft.value, specific=specific)
                nominal = any(t.pos_ in ("NOUN", "PROPN", "NUM", "X", "SYM") or
                              _specific_token(t) for t in tokens)
                # a class's word used as a verb ("want to go to"): no value of the class
                classed = class_of(draft.value) is not None and not any(
                    t.pos_ in ("VERB", "AUX") and (t.dep_ == "ROOT" or any(
                        c.dep_ in _SUBJECT_DEPS for c in t.children)) for t in tokens)
                if why is None and tokens and not nominal and not classed:
                    why = f"value {draft.value!r} is not a noun phrase"
            if why is None:
                kept.append(draft)
            else:
                refused.append(Refusal(draft.quote, why, draft.attribute))
        return kept, refused

    def _tokens_of(self, value: str) -> list[Any]:
        """The parsed tokens of a value cut from this sentence (none when it is not in it)."""
        text = _ORIGINAL.get(self.sentence)
        at = text.find(value)
        if at < 0:
            at = text.lower().find(value.lower())
        if at < 0:
            return []
        end = at + len(value)
        return [t for t in self.head.doc if t.idx < end and t.idx + len(t.text) > at
                and not t.is_space]

    def _property_like(self) -> bool:
        return self.lemma in _STATE_VERBS | _CHANGE_VERBS | _SET_VERBS | _MOVE_VERBS | \
            _JOIN_VERBS | _LEAVE_VERBS | {"report", "promote", "rename"}

    def _resolved(self, token: Any) -> SubjectRef | None:
        """'he'/'she'/'his' as the one person, 'it'/'its' as the one system, the capture
        named just before (Mentions); None when that is not one name."""
        low = token.lower_
        if low in _HE and (name := self._fronted_person(token)):
            return SubjectRef("named", name, "person")
        if low in _HE and (name := self.mentions.person()):
            return SubjectRef("named", name, "person")
        if low in _IT and (name := self.mentions.system()):
            return SubjectRef("named", name, "system")
        return None

    def _fronted_person(self, pronoun: Any) -> str | None:
        """"Carmen, she's the engineering manager": the one name set before the pronoun in
        its own sentence, with a comma between."""
        before = self.head.doc[:pronoun.i]
        if not any(t.text == "," for t in before):
            return None
        names = {_span_text(_name_tokens(t)) for t in before
                 if t.pos_ == "PROPN" and t.text[:1].isupper() and t.dep_ != "compound"
                 and t.ent_type_ not in _NOT_PEOPLE and t.lower_ not in self.mentions.speakers}
        return names.pop() if len(names) == 1 else None

    def _ref(self) -> SubjectRef | None:
        """The clause's subject as a reference (speaker, group, or a name)."""
        if self.subject is None:
            return self.implied
        pronoun = _pronoun_ref(self.subject, self.speaker) or self._resolved(self.subject)
        if pronoun is not None:
            return pronoun
        if any(c.dep_ == "det" and c.lower_ in ("every", "all", "each")
               for c in self.subject.children) and \
                self.subject.lemma_.lower() in SYSTEM_HEADS:
            return SubjectRef("group", self.speaker)  # "Every repo builds on ...": ours
        np = _noun_phrase(self.subject, self.speaker, self)
        if np.relation:
            return None
        hung = [c for c in self.head.lefts if c.dep_ in ("compound", "amod", "nmod")]
        if self.subject.dep_ in ("compound", "amod") and self.subject in hung:
            # "The db-ledger backup cron runs ...": the parser hung the whole phrase on the
            # verb; its words up to the verb name the subject
            span = [t for t in self.head.doc[min(c.left_edge.i for c in hung):self.head.i]
                    if t.dep_ != "det" and not t.is_punct]
            named = _name_ref(span, self.speaker) if span else None
            if named is not None:
                return named
        if np.name is None and np.owner is None:
            # "The reports job runs ...": the parser hung the phrase's head ("job") on the
            # verb; the words from the subject up to the verb name it
            span = [t for t in self.head.doc[self.subject.left_edge.i:self.head.i]
                    if t.dep_ != "det"]
            if span and all(t.pos_ in ("NOUN", "PROPN", "ADJ") and
                            t.dep_ in ("compound", "amod", "nsubj", "nsubjpass")
                            for t in span):
                return _name_ref(span, self.speaker)
        return np.name

    def _draft(self, ref: SubjectRef, attribute: str | None, value: str | None, *,
               cue: str | None = None, change: bool = False, ends: tuple[str, ...] = (),
               alias: str | None = None, split: bool = True, replaces: bool = False
               ) -> Draft:
        unit = None
        if value is not None and split:
            value, unit = split_unit(value)
        until = self.time.date if self.time is not None and self.time.role == "until" else None
        return Draft(ref, attribute, value, unit, self.quote, self.span, cue=cue,
                     time=self.time, change=change, ends=ends, addition=self.addition,
                     alias=alias, until=until,
                     replaces=replaces or (change and self.lemma in _CHANGE_VERBS))

    def _state_ok(self) -> bool:
        """A state verb in the past holds until an unknown end: only an 'until' dates it."""
        return not self.past or (self.time is not None and self.time.role == "until")

    def _cue(self, words: str) -> str:
        return f"now {words}".strip() if self.now else words

    def _prep(self, *names: str, head: Any | None = None, loose: bool = False
              ) -> tuple[Any, Any] | None:
        """The first prepositional phrase of the head named ``names``: (prep, object)."""
        for child in (head or self.head).children:
            if child.dep_ in ("prep", "dative", "agent") and child.lower_ in names:
                pobj = next((c for c in child.children if c.dep_ in ("pobj", "pcomp")), None)
                after = child.doc[child.i + 1] if child.i + 1 < len(child.doc) else None
                if pobj is not None and after is not None and after.pos_ == "NUM" and \
                        (pobj.ent_type_ in ("DATE", "TIME") or pobj.lower_ == "ago") and \
                        after.ent_type_ in ("DATE", "TIME", "CARDINAL", ""):
                    unit = after.doc[after.i + 1] if after.i + 1 < len(after.doc) else None
                    if after.head.i == pobj.i == after.i + 1 and not (
                            pobj.i + 1 < len(pobj.doc) and pobj.doc[pobj.i + 1].lower_ == "ago"):
                        # "raised to 60 seconds in September", "runs at 02:00 UTC": the
                        # number with its unit or zone
                        return child, pobj
                    if unit is not None and unit.pos_ == "NOUN" and unit.i != pobj.i and \
                            after.head.i == unit.i:
                        # "raised to 180 days earlier this year": the number with its unit
                        return child, unit
                    return child, after  # "changed to 41 two weeks ago": 41 is the value
                if pobj is not None:
                    return child, pobj
        if head is None and loose:
            return self._loose_prep(names)
        return None

    def _loose_prep(self, names: tuple[str, ...]) -> tuple[Any, Any] | None:
        """'migrated ... to RabbitMQ', 'promoted to test manager': the small parser reads
        'to' as an infinitive's and the name as a verb; the words after it still name the
        value. Only 'to', 'from' and 'into', right after the head's own words."""
        if not set(names) & {"to", "from", "into"}:
            return None
        doc = self.head.doc
        for token in self.head.subtree:
            if token.i <= self.head.i or token.lower_ not in names or \
                    token.i + 1 >= len(doc) or token.dep_ not in ("aux", "prep", "mark"):
                continue
            value = doc[token.i + 1]
            if value.pos_ == "NUM" and token.i + 2 < len(doc) and \
                    doc[token.i + 2].pos_ == "NUM":
                return token, value  # "to 41 two weeks ago": the first number
            while value.dep_ in ("compound", "amod", "nummod", "det", "poss") and \
                    value.head.i > value.i and value.head.ent_type_ not in ("DATE", "TIME"):
                value = value.head
            if value.i > token.i and (value.pos_ in ("NOUN", "PROPN", "NUM", "VERB", "X")
                                      or value.like_email or value.like_url or
                                      _identifier(_run_text(value))):
                return token, value
        return None

    def _object(self) -> Any | None:
        found = next((c for c in self.children if c.dep_ in ("dobj", "attr", "oprd")), None)
        if found is None:
            # "I use Vim": the small parser reads a capitalised name after the verb as a
            # verb of its own
            after = self.head.doc[self.head.i + 1] if self.head.i + 1 < len(self.head.doc) \
                else None
            if after is not None and after.head.i == self.head.i and \
                    after.dep_ in ("xcomp", "ccomp", "npadvmod", "acomp") and \
                    after.text[:1].isupper():
                found = after
        return found

    # ---- frames ----

    def _copula(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'my shoe size is 40', 'Hannelore Brandt is the head of design', 'I'm a data
        analyst', 'our office is in Berlin', 'web-1 is back to 5 replicas', "I'm still at
        Tessellate", 'Femi is on the Search team', 'svc-payments is on Postgres 13'."""
        if self.lemma != "be" or self.head.pos_ not in ("AUX", "VERB"):
            return None
        if self.head.lower_ in ("am", "'m") and (self.subject is None or
                                                 self.subject.lower_ != "i"):
            return [], []  # "Roemisch einz, am Smarticus": no clause the parse can trust
        if not self._state_ok():
            return [], []
        # a complement past a comma is another clause's the parser hung here ("svc-search
        # is back to 6 replicas since last week, traffic's normal")
        comma = next((t.i for t in self.head.doc[self.head.i:] if t.text in (",", ";")),
                     len(self.head.doc))
        complement = next((c for c in self.children if c.dep_ in ("attr", "acomp")
                           and c.i < comma), None)
        if complement is not None and complement.pos_ not in ("NOUN", "PROPN", "NUM") and \
                not (complement.like_email or complement.like_url) and \
                not (complement.ent_type_ in ("PERSON", "ORG") and complement.text[:1].isupper()
                     and self.subject is not None and
                     self.subject.lemma_.lower() in _HOLDER_HEADS) and \
                complement.lemma_.lower() not in ("based", "located", "headquartered") and \
                class_of(complement.text) is None:
            return [], []  # "fat and happy", "older than my cat": a description, no value
        back = next((c for c in self.children if c.lower_ == "back"), None)
        # "to" names a value only after "back" ("is back to 5 replicas"); "my question is
        # to the Prime Minister" names none
        place = self._prep("in", "at", "on", *(("to",) if back is not None else ()))
        if back is not None and complement is None:
            place = self._prep("to", "on", head=back) or place
        ref_pronoun = None
        if self.subject is not None:
            ref_pronoun = _pronoun_ref(self.subject, self.speaker) or \
                self._resolved(self.subject)
        np = None
        if ref_pronoun is None and self.subject is not None:
            np = _noun_phrase(self.subject, self.speaker, self)
        if np is not None and np.relation:
            return [], [Refusal(self.quote, f"subject {np.text!r} is a relation of the "
                                             "speaker's, not a name")]
        cue = self._cue("back to" if back is not None else "") or None
        # a possessed property: "my shoe size is 40", "web-1's memory limit is 512 MB"
        if np is not None and np.owner is not None and np.rest and _common_head(np.rest):
            value = self._complement_value(complement, place)
            attribute = attribute_key(np.rest)
            if value is None or attribute is None:
                return [], []
            return [self._draft(np.owner, attribute, value, cue=cue,
                                alias=np.rest.lower())], []
        members = self._group_is(complement) if self._state_ok() else None
        if members is not None:
            return members, []
        if np is not None and np.name is None and np.owner is None and \
                complement is not None and (complement.pos_ == "PROPN" or
                                            complement.ent_type_ in ("PERSON", "ORG")) and \
                self.subject.lemma_.lower() in _HOLDER_HEADS:
            # "The infrastructure budget owner is Chiara": the budget's owner
            held = [t for t in _phrase_tokens(self.subject)
                    if t.i < self.subject.i and t.dep_ != "det"]
            name = _value_of(complement)
            if held and name and (thing := _name_ref(held, self.speaker) or SubjectRef(
                    "named", clean_value(_span_text(held)), "project")).name:
                key = "lead" if self.subject.lemma_.lower() in ("lead", "leader") else "owner"
                return [self._draft(thing, key, name, cue=cue, split=False,
                                    alias=self.subject.lemma_.lower())], []
        ref = ref_pronoun or (np.name if np is not None else None)
        if ref is None:
            return [], []
        if back is not None and place is not None and place[0].lower_ == "on" and \
                ref.kind == "named" and ref.name and (as_ := self._prep("as")) is not None \
                and as_[1].lemma_.lower() in ("lead", "leader", "owner", "head"):
            # "Anneke is back on Project Atlas as lead": the project's lead again
            target = _name_ref(_phrase_tokens(place[1]), self.speaker)
            if target is not None:
                if target.namespace == "person":
                    target = replace(target, namespace="project")
                key = "owner" if as_[1].lemma_.lower() == "owner" else "lead"
                return [self._draft(target, key, ref.name, cue="back as", split=False,
                                    alias=f"back as {as_[1].lower_}")], []
        if complement is not None and complement.pos_ in ("NOUN", "PROPN") and \
                complement.lemma_.lower() in ROLE_HEADS | _ROLE_PREP_HEADS:
            return self._role(ref, complement, cue), []
        if complement is not None and complement.pos_ in ("NOUN", "PROPN", "X") and \
                ref.kind == "named" and (value := _value_of(complement)) and \
                shaped_class(value):
            # "it's an r5.large", "svc-x is in eu-west-1": a value whose shape names its key
            return [self._draft(ref, None, value, cue=cue, split=False, alias="is")], []
        if complement is not None and complement.pos_ == "ADJ" and class_of(complement.text):
            # "I'm vegetarian": a value of a known class
            return [self._draft(ref, None, complement.text, cue=cue, split=False,
                                alias="is")], []
        if complement is not None and complement.lemma_.lower() in ("based", "located",
                                                                    "headquartered"):
            where = self._prep("in", "at", head=complement)
            if where is not None:
                value = _value_of(where[1])
                key = ("office" if where[1].lemma_.lower() == "office" else
                       "headquarters" if complement.lemma_.lower() == "headquartered"
                       or ref.namespace == "customer" else
                       "region" if ref.namespace == "system" else "lives_in")
                return ([self._draft(ref, key, value, cue=cue, split=False,
                                     alias=f"{complement.lower_} {where[0].lower_}")]
                        if value else []), []
        if back is not None and place is not None:
            value = _value_of(place[1])
            if value is not None:
                number, unit = split_unit(value)
                if unit is not None:
                    key = unit_attribute(unit)
                    return ([self._draft(ref, key, number, cue="back to", split=False,
                                         alias=unit)] if key else []), []
        if complement is None and place is not None:
            return self._where(ref, place, cue), []
        return [], []

    def _role(self, ref: SubjectRef, complement: Any, cue: str | None) -> list[Draft]:
        """'the head of design' is a job title; 'the lead of Project Beacon', 'the on-call
        owner for svc-auth' say who leads or owns a named thing: its key, not a title."""
        named = self._prep("of", "for", head=complement) or self._prep("for", "of",
                                                                        head=self.head)
        target = None
        if named is not None and (named[1].pos_ == "PROPN" or
                                  _identifier(_run_text(named[1]))):
            target = _name_ref(_phrase_tokens(named[1]), self.speaker)
        if target is None and named is not None and ref.kind == "named" and ref.name and \
                complement.lemma_.lower() in _HOLDER_HEADS:
            # "Mei took over as owner of the marketing budget": the budget's owner
            target = _thing_ref(named[1])
            if target is not None:
                key = "lead" if complement.lemma_.lower() in ("lead", "leader") else "owner"
                return [self._draft(target, key, ref.name, cue=cue, split=False,
                                    alias=complement.lemma_.lower())]
        if target is not None and ref.kind == "named" and ref.name:
            words = [t for t in _phrase_tokens(complement) if t.dep_ != "det"]
            key = attribute_key(_span_text(words))
            if key:
                if target.namespace == "person":
                    target = replace(target, namespace="project")
                return [self._draft(target, key, ref.name, cue=cue, split=False,
                                    alias=_span_text(words).lower())]
        value = _value_of(complement, of=True)
        drafts = [self._draft(ref, "job_title", value, cue=cue, split=False,
                              alias="is")] if value else []
        employer = self._prep("at", "for", head=complement)
        if employer is not None and drafts and employer[1].pos_ == "PROPN":
            org = _value_of(employer[1])
            if org:
                drafts.append(self._draft(ref, "employer", org, cue=cue, split=False,
                                          alias="works at"))
        return drafts

    def _where(self, ref: SubjectRef, place: tuple[Any, Any], cue: str | None
               ) -> list[Draft]:
        """'I'm in Aarhus now', "I'm still at Tessellate", 'Femi is on the Search team',
        'svc-payments is on Postgres 13', 'Leilani is in the Cape Town office'."""
        prep, target = place[0].lower_, place[1]
        value = _value_of(target)
        if value is None:
            return []
        head = target.lemma_.lower()
        if head in GROUP_HEADS:
            # one team at a time; a club, a committee or a rotation is one membership of many
            key = "office" if head == "office" else "team" if head in _TEAM_HEADS else \
                "member_of"
            refs = self._members() if ref == self._ref() else [ref]
            return [self._draft(r, key, value, cue=cue, split=False, alias=f"{prep} {head}")
                    for r in refs or [ref]]
        if ref.namespace == "system":
            cls = class_of(value)
            if cls is not None and prep in ("on", "in"):
                return [self._draft(ref, None, value, cue=cue, split=False, alias=f"is {prep}")]
            number, unit = split_unit(value)
            if unit is not None and prep in ("on", "at"):
                # "svc-payments is still on 4 replicas", "the flag is at 100%"
                key = unit_attribute(unit) if unit != "%" else None
                return [self._draft(ref, key, number, cue=cue, split=False,
                                    alias=unit)] if key else []
            return []
        if target.pos_ != "PROPN":
            return []  # "at the gym", "in a meeting": where someone is, not a value
        if prep == "at":
            return [self._draft(ref, "employer", value, cue=cue, split=False, alias="is at")]
        if prep == "in" and target.ent_type_ not in ("DATE", "TIME", "ORG", "NORP",
                                                     "MONEY", "EVENT") and \
                not _identifier(_run_text(target)):
            return [self._draft(ref, "lives_in", value, cue=cue, split=False, alias="is in")]
        return []

    def _complement_value(self, complement: Any | None,
                          place: tuple[Any, Any] | None) -> str | None:
        if complement is not None:
            return _value_of(complement, of=complement.lemma_.lower() in ROLE_HEADS
                             | _ROLE_PREP_HEADS)
        if place is not None:
            return _value_of(place[1])
        num = next((c for c in self.children if c.pos_ == "NUM"), None)
        return _value_of(num) if num is not None else None

    def _move(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'we moved to Lisbon in March', 'web-1 moved to eu-west-1'."""
        if self.lemma not in _MOVE_VERBS:
            return None
        to = self._prep("to", "into", "in", "onto") or self._loose_prep(("to", "into"))
        if to is None:
            return [], []
        if self.head.tag_ in ("VBP", "VBZ", "VB"):
            # "we now move to questions", "we move to Lisbon": a move is reported in the
            # past ("moved", "have moved"); the present is an agenda or a habit
            return [], []
        obj = self._object()
        if obj is not None and obj.lower_ in _OTHER_PRONOUNS:
            # "we moved it to an m6i.large": what moved is "it", never the speakers
            moved = self._resolved(obj)
            value = _value_of(to[1])
            if moved is None or value is None:
                return [], [Refusal(self.quote, f"what moved ({obj.text!r}) is a pronoun the "
                                                "compiler does not resolve")]
            return [self._draft(moved, None, value, cue="moved to", change=True,
                                split=False, alias="moved to")], []
        if obj is not None and self.subject is not None:
            np = _noun_phrase(obj, self.speaker, self)
            ref = self._ref()
            poss = next((c for c in obj.children if c.dep_ == "poss"), None)
            if poss is not None and poss.lower_ in ("its", "their", "his", "her") and \
                    ref is not None:
                # "Tessellate moved its headquarters": its own, the subject's
                words = [t for t in _phrase_tokens(obj, per=False) if t.i > poss.i]
                np = _Np(ref, _span_text(words), None, False, np.text)
            if np.owner is not None and np.rest and _common_head(np.rest) and \
                    ref is not None and not np.relation:
                # "Tessellate moved its headquarters to Lisbon": the property it moved
                value = _value_of(to[1])
                return ([self._draft(ref, attribute_key(np.rest), value, cue="moved to",
                                     change=True, split=False, alias=np.rest.lower())]
                        if value else []), []
        owned = self._owned_subject()
        if owned is not None:
            # "the svc-orders dashboard moved to https://...": the property moved
            value = _value_of(to[1])
            return ([self._draft(owned[0], attribute_key(owned[1]), value, cue="moved to",
                                 change=True, split=False, alias=owned[1].lower())]
                    if value else []), []
        ref = self._ref()
        value = _value_of(to[1])
        if ref is None or value is None:
            return [], []
        if _CLOCK.search(value):
            # "we moved the db-ledger backup cron to 03:45 UTC": what moved runs then
            moved = _name_ref(_phrase_tokens(obj), self.speaker) if obj is not None else None
            return ([self._draft(moved, "schedule", value, cue="moved to", change=True,
                                 split=False, alias="moved to")]
                    if moved is not None and moved.namespace == "system" else []), []
        if class_of(value) is not None:
            return [self._draft(ref, None, value, cue="moved to", change=True,
                                ends=self._from_values(), alias="moved to")], []
        head = to[1].lemma_.lower()
        if head in GROUP_HEADS:
            key: str | None = "office" if head == "office" else "team"
        elif ref.namespace == "system":
            # a system moves to a place (a region) or to another thing ("moved to
            # RabbitMQ"): the key is then the stored one it replaces, if any
            key = "region" if to[1].ent_type_ in ("GPE", "LOC") or \
                class_of(value) == "region" else None
        else:
            key = "lives_in"
        return [self._draft(ref, key, value, cue=f"{self.head.lower_} {to[0].lower_}",
                            change=True, split=False, alias=f"moved {to[0].lower_}",
                            replaces=True)], []

    def _based(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'Tessellate is headquartered in Tallinn', 'we are based in Porto' (passive)."""
        if self.lemma not in ("headquarter", "base", "locate") or self.head.tag_ != "VBN":
            return None
        where = self._prep("in", "at")
        ref = self._ref()
        if where is None or ref is None or not self._state_ok():
            return [], []
        value = _value_of(where[1])
        key = ("office" if where[1].lemma_.lower() == "office" else
               "headquarters" if self.lemma == "headquarter" or ref.namespace == "customer"
               else "region" if ref.namespace == "system" else "lives_in")
        return ([self._draft(ref, key, value, cue=self._cue("") or None, split=False,
                             alias=f"{self.head.lower_} {where[0].lower_}")]
                if value else []), []

    def _live(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'we live in Porto', "I've been living in Lisbon since March"."""
        if self.lemma not in _PLACE_VERBS:
            return None
        where = self._prep("in", "at", "near")
        ref = self._ref()
        on = self._prep("on")
        if ref is not None and ref.namespace == "system" and on is not None and \
                self.lemma == "stay" and class_of(value := _value_of(on[1]) or ""):
            # "svc-reports stays on Python 3.10 for now": it still runs it
            return [self._draft(ref, None, value, cue="stays on", split=False,
                                alias="stays on")], []
        if where is None or ref is None or where[1].ent_type_ in ("DATE", "TIME") or \
                _CLOCK.search(where[1].text) or ref.namespace == "system":
            return [], []  # "backups stay at 02:15": a time, and a system lives nowhere
        if self._no_longer():
            value = _value_of(where[1])
            return ([self._draft(ref, "lives_in", None, cue="no longer", change=True,
                                 ends=(value,), alias="lives in")] if value else []), []
        if not self._state_ok():
            return [], []
        value = _value_of(where[1])
        return ([self._draft(ref, "lives_in", value, cue=self._cue("") or None, split=False,
                             alias=f"{self.lemma} {where[0].lower_}")] if value else []), []

    def _work(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'I work at Globex as a data analyst', 'she works for Initech'."""
        if self.lemma not in _EMPLOY_VERBS:
            return None
        if not self._state_ok() and not self._no_longer():
            return [], []
        ref = self._ref()
        if ref is None:
            return [], []
        drafts = []
        at = self._prep("at", "for")
        if self._no_longer():
            if at is not None and (org := _value_of(at[1])):
                return [self._draft(ref, "employer", None, cue="no longer", ends=(org,),
                                    change=True, alias="works at")], []
            return [], []
        cue = "started" if self.began else (self._cue("") or None)
        office = self._prep("from", "in", "out")
        if office is not None and office[1].lemma_.lower() == "office":
            value = _value_of(office[1])
            return ([self._draft(ref, "office", value, cue=cue, change=self.began,
                                 split=False, alias="works from")] if value else []), []
        team = self._prep("on", "in")
        if team is not None and team[1].lemma_.lower() in _TEAM_HEADS and \
                (value := _value_of(team[1])):
            # "works on the Observability team": the team, one at a time
            return [self._draft(ref, "team", value, cue=cue, change=self.began,
                                split=False, alias="works on")], []
        if at is not None and _organisation(at[1]) and (org := _value_of(at[1])):
            drafts.append(self._draft(ref, "employer", org, cue=cue, change=self.began,
                                      split=False, alias=f"works {at[0].lower_}"))
        role = self._prep("as")
        if role is not None and (title := _value_of(role[1], of=True)):
            drafts.append(self._draft(ref, "job_title", title, cue=cue, change=self.began,
                                      split=False, alias="works as"))
        return drafts, []

    def _join(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'joined Initech as a data engineer', 'I joined the chess club last month'."""
        if self.lemma not in _JOIN_VERBS and not (self.lemma == "start" and self._prep("at")):
            return None
        ref = self._ref()
        target = self._object() if self.lemma in _JOIN_VERBS else self._prep("at")[1]  # type: ignore[index]
        if ref is None or target is None:
            return [], []
        value = _value_of(target)
        objects = [c for c in self.children if c.dep_ == "dobj"]
        group = next((o for o in objects if o.lemma_.lower() in GROUP_HEADS), None)
        if group is not None and group is not target:
            # "joined the svc-payments on-call rotation": the parser split one phrase in two
            target = group
            value = clean_value(_span_text([t for t in self.head.doc[objects[0].left_edge.i:
                                                                     group.i + 1]]))
        if value is None:
            return [], []
        drafts = []
        if target.lemma_.lower() == "office":
            drafts.append(self._draft(ref, "office", value, cue=self.head.lower_, change=True,
                                      split=False, alias="office"))
        elif target.lemma_.lower() in _TEAM_HEADS or self._beside_a_team_left():
            # "joined the Payments team", "left the Growth team and joined Payments": one
            # team at a time, where a club or a board is one membership among several
            drafts.append(self._draft(ref, "team", value, cue="joined", change=True,
                                      split=False, alias="joined"))
        elif target.lemma_.lower() in GROUP_HEADS:
            drafts.append(self._draft(ref, "member_of", value, cue="joined", change=True,
                                      split=False, alias="joined"))
        elif _organisation(target) or (target.ent_type_ == "PERSON" and target.pos_ == "PROPN"
                                       and self._employment_context()):
            # the parser tags some company names as people ("Hooli"): a company when the
            # sentence speaks of a job ("after leaving Tessellate", "as a data engineer")
            drafts.append(self._draft(ref, "employer", value, cue="joined", change=True,
                                      split=False, alias="joined"))
        elif target.ent_type_ == "PERSON":
            return [], []  # "joined Sarah for lunch": company, not a membership
        else:
            # "joined a gym", "joined a group of globetrotters": a membership, no employer
            value = _value_of(target, of=True) or value
            drafts.append(self._draft(ref, "member_of", value, cue="joined", change=True,
                                      split=False, alias="joined"))
        role = self._prep("as")
        if role is not None and (title := _value_of(role[1], of=True)):
            drafts.append(self._draft(ref, "job_title", title, cue="joined as", change=True,
                                      split=False, alias="joined as"))
        return drafts, []

    def _employment_context(self) -> bool:
        """The sentence speaks of a job: a role ("as a data engineer") or a company left."""
        return self._prep("as") is not None or any(
            t.lemma_.lower() in _LEAVE_VERBS and any(
                c.dep_ == "dobj" and c.pos_ == "PROPN" for c in t.children)
            for t in self.head.doc)

    def _beside_a_team_left(self) -> bool:
        """A conjoined verb leaves a team ("left the Growth team ... and joined Payments")."""
        return any(t.lemma_.lower() in _LEAVE_VERBS and any(
            c.dep_ == "dobj" and c.lemma_.lower() in _TEAM_HEADS for c in t.children)
            for t in (*self.head.conjuncts, self.head.head) if t is not self.head)

    def _leave(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'I left Globex last month': ends the value, whatever attribute holds it."""
        if self.lemma not in _LEAVE_VERBS:
            return None
        target = self._object()
        ref = self._ref()
        if target is None or ref is None:
            return [], []
        value = _value_of(target)
        if value is None:
            return [], []
        head = target.lemma_.lower()
        key = "team" if head in _TEAM_HEADS else "member_of" if head in GROUP_HEADS else None
        return [self._draft(ref, key, None, cue="left", change=True, ends=(value,),
                            alias="left")], []

    def _report(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'Priya reports to Daniel', 'Priya now reports to Maria'."""
        if self.lemma != "report":
            return None
        to = self._prep("to")
        ref = self._ref()
        if to is None or ref is None or not self._state_ok():
            return [], []
        value = _value_of(to[1])
        return ([self._draft(ref, "reports_to", value, cue=self._cue("") or None,
                             split=False, alias="reports to")] if value else []), []

    def _promote(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'was promoted to senior engineer', 'took over as head of sales', 'became CTO'."""
        target = None
        if self.lemma == "promote":
            target = self._prep("to", loose=True)
        elif self.lemma == "take" and any(c.lower_ == "over" for c in self.children):
            target = self._prep("as")
        elif self.lemma in ("become", "make", "appoint", "name"):
            obj = next((c for c in self.children if c.dep_ in ("attr", "oprd", "dobj")), None)
            if obj is not None and obj.lemma_.lower() in ROLE_HEADS | _ROLE_PREP_HEADS:
                target = (obj, obj)
            else:
                target = self._prep("as")
        if target is None:
            return None
        ref = self._ref()
        value = _value_of(target[1], of=True)
        if ref is None or value is None:
            return [], []
        role = self._role(ref, target[1], self.head.lower_)
        if role and role[0].attribute != "job_title":
            # "took over as on-call owner for svc-orders": svc-orders' on-call owner
            return [replace(d, change=True) for d in role], []
        return [self._draft(ref, "job_title", value, cue=f"{self.head.lower_}", change=True,
                            split=False, alias=self.lemma)], []

    def _rename(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'svc-auth was renamed to svc-identity', 'the wifi at home is named Toaster
        Oven'."""
        if self.lemma in ("name", "call") and any(c.dep_ == "nsubjpass"
                                                  for c in self.children):
            obj = next((c for c in self.children if c.dep_ in ("oprd", "attr", "dobj")), None)
            ref = self._ref()
            if ref is None and self.subject is not None:
                # "Our mobile app is called Quill": the thing, named by its words
                ref = _name_ref(_phrase_tokens(self.subject), self.speaker)
            if obj is None or ref is None or not self._state_ok():
                return [], []
            value = _value_of(obj)
            return ([self._draft(ref, "name", value, cue=self._cue("") or None, split=False,
                                 alias=f"{self.lemma}d")] if value else []), []
        if self.lemma != "rename":
            return None
        to = self._prep("to", "as", loose=True)
        ref = self._ref()
        obj = self._object()
        if obj is not None and not any(c.dep_ == "nsubjpass" for c in self.children):
            # "we renamed the wifi to Toaster Oven": the wifi's name
            ref = _name_ref(_phrase_tokens(obj), self.speaker) or self._resolved(obj) or ref
        if to is None or ref is None:
            return [], []
        value = _value_of(to[1])
        return ([self._draft(ref, "name", value, cue="renamed to", change=True, split=False,
                             alias="renamed to")] if value else []), []

    def _from_values(self) -> tuple[str, ...]:
        found = self._prep("from", "off", loose=True)
        value = _value_of(found[1]) if found is not None else None
        return (value,) if value else ()

    def _change(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'we switched from Vim to Helix', 'replaced Jenkins with GitHub Actions', 'the
        billing service was upgraded to Postgres 16', 'we migrated to GitHub Actions'."""
        if self.lemma not in _CHANGE_VERBS:
            return None
        ref = self._ref() or (self._owned_subject() or (None,))[0]
        if ref is None:
            return [], []
        obj = self._object()
        if self.lemma in ("replace", "swap"):
            with_ = self._prep("with", "by", "for")
            passive = any(c.dep_ == "nsubjpass" for c in self.children)
            if passive and with_ is not None:
                # "Jenkins was replaced by GitHub Actions": the subject is the old value
                old, new = _value_of(self.subject), _value_of(with_[1])
                ref = SubjectRef("group", self.speaker)
            elif obj is not None and with_ is not None:
                old, new = _value_of(obj), _value_of(with_[1])
            else:
                return [], []
            if old is None or new is None:
                return [], []
            return [self._draft(ref, None, new, cue="replaced", change=True, ends=(old,),
                                split=False, alias="replaced")], []
        to = self._prep("to", "into", "onto", "over", loose=True)
        if to is None:
            return [], []
        new = _value_of(to[1])
        if new is None:
            return [], []
        ends = self._from_values()
        owned = self._owned_subject()
        if owned is not None and obj is None:
            # "my shoe size changed to 41": the property is the subject
            owner, words = owned
            return [self._draft(owner, attribute_key(words), new, cue=self.head.lower_,
                                change=True, ends=ends, alias=words.lower())], []
        if obj is not None and self.lemma in ("upgrade", "downgrade", "migrate", "move",
                                              "switch", "change", "convert", "port"):
            # "we upgraded the billing service to Postgres 16": the object's value changed
            owner = _noun_phrase(obj, self.speaker, self)
            if owner.owner is not None and owner.rest and _common_head(owner.rest):
                # "we moved our mail from X to Y", "I switched my phone to Z"
                return [self._draft(owner.owner, attribute_key(owner.rest), new,
                                    cue=self.head.lower_, change=True, ends=ends,
                                    split=False, alias=owner.rest.lower())], []
            if _property_word(obj):
                # "we switched CI to TeamCity": the object names the property ("switched
                # gyms": the gym, one at a time)
                kept = [t for t in _phrase_tokens(obj) if t.dep_ != "det"]
                words = " ".join([*(t.text for t in kept[:-1]),
                                  kept[-1].lemma_ if kept[-1].tag_ == "NNS" else kept[-1].text])
                return [self._draft(ref, attribute_key(words), new, cue=self.head.lower_,
                                    change=True, ends=ends, split=False,
                                    alias=words.lower())], []
            if owner.name is not None and class_of(_value_of(obj) or "") is None:
                ref = owner.name
            elif class_of(_value_of(obj) or "") is not None and not ends:
                ends = (_value_of(obj),)  # type: ignore[assignment]
        number, unit = split_unit(new)
        if unit is not None and class_of(new) is None:
            key = unit_attribute(unit)
            return ([self._draft(ref, key, number, cue=self.head.lower_, change=True,
                                 split=False, alias=unit)] if key else []), []
        return [self._draft(ref, None, new, cue=f"{self.head.lower_} to", change=True,
                            ends=tuple(e for e in ends if e), split=False,
                            alias=self.lemma)], []

    def _set(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'the rate limit was raised to 200 requests per minute', 'we bumped web-1 to 9
        replicas', 'we cut the memory limit of svc-x to 256 MB'."""
        if self.lemma not in _SET_VERBS:
            return None
        to = self._prep("to", loose=True)
        if to is None:
            return [], []
        value = _value_of(to[1])
        if value is None:
            return [], []
        number, unit = split_unit(value)
        passive = any(c.dep_ == "nsubjpass" for c in self.children)
        target = self.subject if passive else (self._object() or self._misread_object())
        if target is None and self.subject is not None:
            target = self.subject  # "my running goal dropped to 20 km": intransitive
        if target is None:
            return [], []
        if _pronoun_ref(target, self.speaker) is not None:
            return [], []
        np = _noun_phrase(target, self.speaker, self)
        if np.owner is not None and np.rest and _common_head(np.rest):
            key = attribute_key(np.rest)
            return ([self._draft(np.owner, key, value, cue=self.head.lower_, change=True,
                                 alias=np.rest.lower())] if key else []), []
        if np.name is not None and unit is not None:
            # "bumped web-1 to 9 replicas": the unit names the attribute
            key = unit_attribute(unit)
            return ([self._draft(np.name, key, number, cue=self.head.lower_, change=True,
                                 split=False, alias=unit)] if key else []), []
        return [], []

    def _owned_subject(self) -> tuple[SubjectRef, str] | None:
        """(owner, property words) when the subject is a property of someone ("my shoe
        size", "the API rate limit", "web-1's memory limit")."""
        if self.subject is None or _pronoun_ref(self.subject, self.speaker) is not None:
            return None
        np = _noun_phrase(self.subject, self.speaker, self)
        if np.owner is not None and np.rest and _common_head(np.rest) and not np.relation:
            return np.owner, np.rest
        return None

    def _misread_object(self) -> Any | None:
        """An identifier the small parser hung off the verb as an adverb ('bumped web-1')."""
        return next((c for c in self.children if c.dep_ in ("advmod", "npadvmod", "prep")
                     and c.i > self.head.i and _identifier(_run_text(c))), None)

    def _run(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'the billing service runs on Postgres 14', 'web-1 runs 5 replicas', 'we use
        Jenkins for CI', 'we have 40 employees', 'web-1 runs Python 3.11'."""
        if self.lemma not in _RUN_VERBS:
            return None
        if not self._state_ok():
            return [], []
        owned = self._owned_subject()
        inside = self._prep("in") if self.lemma in ("run", "host") else None
        if inside is not None and owned is None:
            # "svc-search runs in us-west-2 and ap-southeast-1", "... in the eu-west-1
            # region": where it runs (many), a value of the region's shape
            ref = self._ref()
            values = [v.removesuffix(" region") for v in _values_of(inside[1])]
            values = [v for v in values if class_of(v) == "region"]
            if ref is not None and values:
                return [self._draft(ref, "region", v, cue=self._cue("") or None,
                                    split=False, alias="runs in") for v in values], []
        at = self._prep("at") if self.lemma == "run" else None
        if at is not None and _CLOCK.search(_span_text(_phrase_tokens(at[1]))):
            # "the nightly export runs at 02:00 UTC": its schedule
            ref = owned[0] if owned is not None else self._ref()
            value = _value_of(at[1])
            return ([self._draft(ref, "schedule", value, cue=self._cue("") or None,
                                 split=False, alias="runs at")] if ref and value else []), []
        on = self._prep("on") if self.lemma in ("run", "build") else None
        if self.lemma == "build" and (on is None or class_of(_value_of(on[1]) or "") !=
                                      "ci_system"):
            return [], []  # "the checkout repo builds on Jenkins": only a CI system
        if owned is not None and on is not None:
            # "our CI runs on Jenkins": the property runs on the value
            value = _value_of(on[1])
            return ([self._draft(owned[0], attribute_key(owned[1]), value,
                                 cue=self._cue("") or None, split=False,
                                 alias=owned[1].lower())] if value else []), []
        ref = self._ref()
        if ref is None:
            return [], []
        if on is not None:
            value = _value_of(on[1])
            if value is None:
                return [], []
            first, _, rest = value.partition(" ")
            if shaped_class(first) and rest.lower() in _SHAPE_NOUNS:
                value = first  # "runs on m6i.xlarge instances": the instance type
            key = None if class_of(value) else "runs_on"
            return [self._draft(ref, key, value, cue=self._cue("") or None, split=False,
                                alias="runs on")], []
        obj = self._object()
        if obj is None:
            return [], []
        value = _value_of(obj)
        if value is None:
            return [], []
        number, unit = split_unit(value)
        of = self._prep("of", head=obj)
        if self.lemma == "have" and of is not None and obj.pos_ == "NOUN" and unit is None \
                and (amount := _value_of(of[1])) and split_unit(amount)[1] is not None:
            # "svc-catalog has a memory limit of 1 GB": the property and its value
            words = _span_text([t for t in _phrase_tokens(obj) if t.dep_ != "det"])
            key = attribute_key(words)
            return ([self._draft(ref, key, amount, cue=self._cue("") or None,
                                 alias=words.lower())] if key else []), []
        if unit is not None and of is not None and ref.kind != "named":
            # "we run 9 replicas of svc-search": svc-search's replicas
            named = _name_ref(_phrase_tokens(of[1]), self.speaker)
            if named is not None:
                ref = named if named.namespace != "person" else replace(named,
                                                                        namespace="system")
                unit = unit.split(" of ")[0]
        if unit is not None and class_of(value) is None:
            words = unit.lower().split()
            if unit_attribute(unit) == "headcount":
                key = "headcount" if self.lemma == "have" else None
            elif self.lemma in ("allow", "permit") and "per" in words:
                # "the export API allows 500 requests per minute": the limit, with its unit
                return [self._draft(ref, "rate_limit", value, cue=self._cue("") or None,
                                    alias="allows")], []
            else:
                key = unit_attribute(unit, first_word=True)
            return ([self._draft(ref, key, number, cue=self._cue("") or None, split=False,
                                 alias=unit.lower())] if key else []), []
        if self.lemma == "have":
            return [], []
        as_ = self._prep("as")
        if self.lemma == "use" and as_ is not None:
            # "svc-export uses Redis Streams as its message broker"
            words = [t for t in _phrase_tokens(as_[1]) if t.dep_ not in ("det", "poss")]
            key = attribute_key(_span_text(words))
            return ([self._draft(ref, key, value, cue=self._cue("") or None, split=False,
                                 alias=_span_text(words).lower())] if key else []), []
        cls = class_of(value)
        if cls is None and self.lemma == "use" and not (
                obj.pos_ == "PROPN" or _identifier(_run_text(obj)) or
                (obj.text[:1].isupper() and obj.i > 0)):
            return [], []  # "use my voice", "use the car": not a tool the subject runs on
        if cls is None and self.lemma == "use":
            purpose = self._prep("for")
            target = _value_of(purpose[1]) if purpose is not None else None
            key = attribute_key(target) if target and len(target.split()) <= 3 else "uses"
            if key in ("ci", "builds", "ci_cd", "cicd"):
                key = "ci_system"
            return [self._draft(ref, key, value, cue=self._cue("") or None, split=False,
                                alias=f"uses for {target}" if target else "uses")], []
        if cls is None:
            return [], []
        return [self._draft(ref, None, value, cue=self._cue("") or None, split=False,
                            alias=self.lemma)], []

    def _there(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'There are 17 people on the Identity team': the team's headcount."""
        if self.lemma != "be" or not any(c.dep_ == "expl" for c in self.children):
            return None
        counted = next((c for c in self.children if c.dep_ == "attr"), None)
        if counted is None or not self._state_ok():
            return [], []
        number, unit = split_unit(_value_of(counted) or "")
        on = self._prep("on", "in", head=counted)
        if unit is None or unit_attribute(unit) != "headcount" or on is None or \
                on[1].lemma_.lower() not in GROUP_HEADS:
            return [], []
        team = _name_ref(_phrase_tokens(on[1]), self.speaker)
        return ([self._draft(team, "headcount", number, cue=self._cue("") or None,
                             split=False, alias="people on")] if team else []), []

    def _keep(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'We keep logs for 180 days': how long they are kept (retention)."""
        if self.lemma != "keep" or not self._state_ok():
            return None
        obj = self._object()
        span = self._prep("for")
        ref = self._ref()
        if obj is None or span is None or ref is None or obj.pos_ != "NOUN":
            return None
        value = _value_of(span[1])
        number, unit = split_unit(value or "")
        if unit is None or unit.split()[0].lower().rstrip("s") not in ("day", "week", "month",
                                                                         "year", "hour"):
            return None
        what = obj.lower_
        key = "retention" if what in ("logs", "log") else attribute_key(f"{what} retention")
        return [self._draft(ref, key, value, cue=self._cue("") or None,
                            alias=f"keep {what}")], []

    def _pay(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'We pay 1,050 euros a month in rent': what the rent is."""
        if self.lemma != "pay" or not self._state_ok():
            return None
        obj = self._object()
        into = self._prep("in")
        ref = self._ref()
        if obj is None or into is None or ref is None or into[1].pos_ != "NOUN" or \
                not into[1].text.islower():
            return None
        number, unit = split_unit(_value_of(obj) or "")
        if unit is None:
            return None
        return [self._draft(ref, attribute_key(into[1].lemma_), f"{number} {unit}",
                            cue=self._cue("") or None, alias=f"pay in {into[1].lower_}")], []

    def _members(self) -> list[SubjectRef]:
        """The clause's subject and the names coordinated with it ("Ewa and Beatriz")."""
        ref = self._ref()
        if ref is None or self.subject is None:
            return []
        out = [ref]
        for other in self.subject.conjuncts:
            if other.i > self.subject.i and other.pos_ == "PROPN":
                named = _name_ref(_phrase_tokens(other), self.speaker)
                if named is not None:
                    out.append(named)
        return out

    def _turn(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'I went fully vegan in June', 'she became vegetarian': a value of a known class
        taken up (a change of that class's key)."""
        if self.lemma not in ("go", "turn", "become"):
            return None
        state = next((c for c in self.children if c.dep_ in ("acomp", "oprd", "attr", "dobj")
                      and c.pos_ in ("ADJ", "NOUN", "PROPN")), None)
        ref = self._ref()
        if state is None or ref is None or class_of(state.text) is None:
            return None
        return [self._draft(ref, None, state.text, cue=f"{self.head.lower_}", change=True,
                            split=False, alias=self.lemma)], []

    def _sends(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'svc-invoices publishes its events to NATS': a system sends to a thing whose
        class names the property (a message broker, a database, monitoring)."""
        if self.lemma not in _SEND_VERBS or not self._state_ok():
            return None
        into = self._prep("to", "into")
        ref = self._ref()
        if into is None or ref is None or ref.namespace != "system":
            return None
        value = _value_of(into[1])
        if value is None or class_of(value) is None:
            return None
        return [self._draft(ref, None, value, cue=self._cue("") or None, split=False,
                            alias=f"{self.lemma}s to")], []

    def _sit(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'Ewa and Beatriz sit on the security council': a membership of each."""
        if self.lemma not in ("sit", "serve") or not self._state_ok():
            return None
        on = self._prep("on", "in")
        if on is None or on[1].lemma_.lower() not in GROUP_HEADS:
            return None
        group = _value_of(on[1])
        key = "team" if on[1].lemma_.lower() in _TEAM_HEADS else "member_of"
        return ([self._draft(ref, key, group, cue=self._cue("") or None, split=False,
                             alias=f"{self.lemma}s on") for ref in self._members()]
                if group else []), []

    def _group_is(self, complement: Any) -> list[Draft] | None:
        """'The Growth team is Paola and Marek': each named member's team; 'Kenji is the
        only member of the architecture board': his membership."""
        if complement is None:
            return None
        head = complement.lemma_.lower()
        if head in ("member", "person", "one") and self._ref() is not None:
            of = self._prep("of", "on", "in", head=complement)
            if of is None or of[1].lemma_.lower() not in GROUP_HEADS:
                return None
            group = _value_of(of[1])
            key = "team" if of[1].lemma_.lower() in _TEAM_HEADS else "member_of"
            return [self._draft(ref, key, group, cue=None, split=False, alias="member of")
                    for ref in self._members()] if group else []
        if self.subject is None or self.subject.lemma_.lower() not in GROUP_HEADS:
            return None
        group = _value_of(self.subject)
        number, unit = split_unit(_value_of(complement) or "")
        if unit is not None and unit_attribute(unit) == "headcount" and group:
            # "support team is 14 people now": its headcount
            team = _name_ref(_phrase_tokens(self.subject), self.speaker)
            return [self._draft(team, "headcount", number, cue=self._cue("") or None,
                                split=False, alias="is")] if team else None
        if complement.pos_ != "PROPN" and complement.lower_ != "me":
            return None
        people = [complement, *[c for c in complement.conjuncts if c.i > complement.i]]
        refs = [_pronoun_ref(p, self.speaker) if p.lower_ == "me" else
                _name_ref(_phrase_tokens(p), self.speaker) for p in people
                if p.pos_ == "PROPN" or p.lower_ == "me"]
        key = "team" if self.subject.lemma_.lower() in _TEAM_HEADS else "member_of"
        if not group or len(refs) < 2 or any(r is None or r.namespace != "person" and
                                             r.kind != "speaker" for r in refs):
            return None  # "the Growth team is Acquisition now": a name, not its members
        return [self._draft(ref, key, group, cue=None, split=False, alias="is")
                for ref in refs if ref is not None]

    def _add(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'We added Jürgen to the svc-shipping rotation', 'I was added to the hiring
        committee': one more member of a group (a membership among others)."""
        if self.lemma != "add":
            return None
        into = self._prep("to")
        if into is None or into[1].lemma_.lower() not in GROUP_HEADS:
            return [], []
        passive = any(c.dep_ == "nsubjpass" for c in self.children)
        obj = None if passive else self._object()
        if passive:
            ref = self._ref()
        elif obj is not None and obj.pos_ == "PROPN":
            ref = _name_ref(_phrase_tokens(obj), self.speaker)
        else:
            ref = None
        group = _value_of(into[1])
        if ref is None or group is None:
            return [], []
        return [replace(self._draft(ref, "member_of", group, cue="added to", change=True,
                                    split=False, alias="added to"), addition=True)], []

    def _schedule(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'The billing job is scheduled for 01:15 UTC every night'."""
        if self.lemma != "schedule" or not any(c.dep_ == "nsubjpass" for c in self.children):
            return None
        when = self._prep("for", "at")
        ref = self._ref()
        if when is None or ref is None or not self._state_ok():
            return [], []
        value = _value_of(when[1])
        if value is None or not _CLOCK.search(value):
            return [], []
        return [self._draft(ref, "schedule", value, cue=self._cue("") or None, split=False,
                            alias="scheduled for")], []

    def _lead(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'Kofi leads Project Atlas': the project's lead; 'Bilal manages Umbrella and
        Hooli': the accounts he manages (many); 'Rania owns the billing service'."""
        if self.lemma not in ("lead", "run", "own", "manage", "head", "chair") or \
                not self._state_ok():
            return None
        ref = self._ref()
        obj = self._object()
        by = next((c for c in self.children if c.dep_ == "agent"), None)
        if by is not None and self.lemma in ("lead", "run", "own", "head", "chair") and \
                any(c.dep_ == "nsubjpass" for c in self.children):
            # "Project Fjord is led by Paola": the subject is what is led, the agent leads
            leader = next((c for c in by.children if c.dep_ == "pobj"), None)
            name = _value_of(leader) if leader is not None and leader.pos_ == "PROPN" else None
            if ref is None and self.subject is not None:
                ref = _thing_ref(self.subject)  # "The marketing budget is owned by Helen"
            if ref is None or ref.kind != "named" or name is None:
                return None
            if ref.namespace == "person":
                ref = replace(ref, namespace="project")
            key = "owner" if self.lemma == "own" else "lead"
            return [self._draft(ref, key, name, cue=self._cue("") or None, split=False,
                                alias="led by" if key == "lead" else "owned by")], []
        if ref is None or obj is None or ref.kind != "named" and self.lemma != "manage":
            return None
        if self.lemma == "manage":
            values = _values_of(obj)
            return ([self._draft(ref, "manages", v, cue=self._cue("") or None, split=False,
                                 alias="manages") for v in values]), []
        if obj.pos_ != "PROPN" and not _identifier(_run_text(obj)):
            named = self._prep("for", head=obj) or self._prep("for")
            if named is None and self.lemma == "own" and ref.name is not None and \
                    (thing := _thing_ref(obj)) is not None:
                # "Soo-jin owns the travel budget": the budget's owner
                return [self._draft(thing, "owner", ref.name, cue=self._cue("") or None,
                                    split=False, alias="owns")], []
            if named is None or ref.name is None or not (named[1].pos_ == "PROPN" or
                                                          _identifier(_run_text(named[1]))):
                return None
            # "Sofia owns on-call for svc-orders": svc-orders' on-call, held by Sofia
            target = _name_ref(_phrase_tokens(named[1]), self.speaker)
            words = _span_text([t for t in _phrase_tokens(obj) if t.dep_ != "det"])
            key = attribute_key(words)
            if target is None or key is None:
                return None
            if target.namespace == "person":
                target = replace(target, namespace="system")
            return [self._draft(target, key, ref.name, cue=self._cue("") or None,
                                split=False, alias=words.lower())], []
        target = _name_ref(_phrase_tokens(obj), self.speaker)
        if target is None or ref.name is None:
            return None
        if target.namespace == "person":
            target = replace(target, namespace="project")
        key = "lead" if self.lemma in ("lead", "run", "head", "chair") else "owner"
        # "Ugo now also leads Project Fjord": "also" adds to what Ugo leads; Fjord has one
        # lead, so the draft about Fjord adds nothing
        return [replace(self._draft(target, key, ref.name, cue=self._cue("") or None,
                                    split=False, alias=f"{self.lemma}s"), addition=False)], []

    def _written(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'svc-ingest is written in Go': the languages it is written in (many)."""
        if self.lemma not in ("write", "build", "implement", "code") or \
                not any(c.dep_ == "nsubjpass" for c in self.children):
            return None
        into = self._prep("in")
        ref = self._ref()
        if into is None or ref is None:
            return [], []
        return [self._draft(ref, "written_in", v, split=False, alias="written in")
                for v in _values_of(into[1])], []

    def _play(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'I play the guitar and the piano': what someone plays (many)."""
        if self.lemma != "play" or not self._state_ok():
            return None
        obj = self._object()
        ref = self._ref()
        if obj is None or ref is None or obj.pos_ not in ("NOUN", "PROPN"):
            return [], []
        return [self._draft(ref, "plays", v, cue=self._cue("") or None, split=False,
                            alias="plays") for v in _values_of(obj)], []

    def _diet(self) -> tuple[list[Draft], list[Refusal]] | None:
        """'I eat a vegan diet', 'we follow a keto diet'."""
        if self.lemma not in ("eat", "follow", "keep") or not self._state_ok():
            return None
        obj = self._object()
        ref = self._ref()
        if obj is None or ref is None or obj.lemma_.lower() != "diet":
            return None
        kinds = [c.text for c in obj.lefts if c.dep_ in ("amod", "compound")]
        if not kinds:
            return None
        return [self._draft(ref, "diet", " ".join(kinds), cue=self._cue("") or None,
                            split=False, alias="diet")], []

    def _speak(self) -> tuple[list[Draft], list[Refusal]] | None:
        if self.lemma != "speak" or not self._state_ok():
            return None
        obj = self._object()
        ref = self._ref()
        if obj is None or ref is None:
            return [], []
        return [self._draft(ref, "speaks", v, cue=self._cue("") or None, split=False,
                            alias="speaks") for v in _values_of(obj)], []

    def _drive(self) -> tuple[list[Draft], list[Refusal]] | None:
        if self.lemma != "drive" or not self._state_ok():
            return None
        obj = self._object()
        ref = self._ref()
        if obj is None or ref is None:
            return [], []
        value = _value_of(obj)
        return ([self._draft(ref, "car", value, cue=self._cue("") or None, split=False,
                             alias="drives")] if value else []), []
