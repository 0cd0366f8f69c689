"""Mentions and relations read from one parsed clause: the offline extractor's entity layer.

Pure functions over a spaCy ``Span`` (or ``Doc``) of one clause or sentence, parsed by the
small English pipeline (:mod:`factstore.nlp`). Nothing here loads a model.

**What it reads.**

- :func:`find_mentions` -- names as written: spaCy's named entities (typed: PERSON ->
  Person, ORG -> Organization, GPE/LOC/FAC -> Place, PRODUCT -> Project, WORK_OF_ART/EVENT/
  LAW -> Concept; nationalities, dates, times, numbers and money are not names), runs of
  capitalised words the small model misses or mislabels ("Halden Institute of Technology",
  "Payments team", a sentence-initial "Maren"), and identifier-shaped names
  ("payments-api", "ledger-sync": Service). Each name is a verbatim substring of the span,
  without a determiner or a possessive "'s".
- :func:`find_relations` -- (subject, predicate, object) between two of those names (or the
  turn's speaker, for "I"/"me"/"my"), predicates from
  :data:`factstore.entities.model.PREDICATES` only, from the dependency parse: a verb and
  its preposition ("works at", "reports to", "lives in", "depends on", "partners with"), a
  verb and its object ("manages", "joined", "acquired", "uses"), the passive with its agent
  swapped ("is maintained by", "was founded by"), copular nouns ("is a member of", "is part
  of", "has been friends with", "is Clara's brother"), appositions ("Dana, head of the
  Platform team"; "Ravi, Quill's co-founder"; "Hannah, an engineer at Vantage"; "Arc Labs,
  a Berlin-based startup"), kinship and management possessives ("my sister Ana",
  "Ana's manager Ben"), coordination on either side ("Ana and Ben work at Globex", "acquired
  Lumen Data and Pixelforge"), relative clauses ("Hugo, who leads Nightjar"; "Portline,
  which Redwood acquired") and "he"/"she"/"his" resolved to the nearest name before them.
  Where the small parser breaks a clause ("Jonas and Sofia report to Elif" read as a noun
  phrase), a surface fallback joins the names right before and right after the verb.

**What it does not read.** A negated relation ("no longer works at", "never reported to")
gives nothing, nor does a question, a conditional ("if"), a modal or hedge ("might",
"maybe", "would"), a future or a wish ("will join", "wants to move"): only relations the
clause asserts as true. A contrastive ", not X" drops X alone ("owned by the Payments team,
not by SRE"). It does not follow a name across clauses or sentences (the write path keeps a
relation only between names of the same fact's quote), resolves no "it"/"they" beyond the
same clause, infers nothing ("joined" is not ``works_at``), reads no relation the
vocabulary lacks ("cousin", "grew up in") and no role without a named organisation. The
small model's parses and entity labels are often wrong; names are found by shape as well as
by label, so types are best effort.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from factstore.entities.model import PREDICATES, SYMMETRIC

__all__ = ["find_mentions", "find_relations", "typed_mentions"]

# -- mentions ---------------------------------------------------------------------------------

_NER_TYPES = {"PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place",
              "FAC": "Place", "PRODUCT": "Project", "WORK_OF_ART": "Concept",
              "EVENT": "Concept", "LAW": "Concept"}
#: Entity labels that are values, not names: a capitalised token carrying one is no name.
_VALUE_ENTS = frozenset(("DATE", "TIME", "NORP", "ORDINAL", "CARDINAL", "MONEY", "PERCENT",
                         "QUANTITY", "LANGUAGE"))
_CALENDAR = frozenset((
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
    "february", "march", "april", "june", "july", "august", "september", "october",
    "november", "december", "christmas", "easter", "q1", "q2", "q3", "q4"))
#: Capitalised words that are roles, titles or the first person, not names on their own.
_NOT_NAMES = frozenset((
    "i", "i'm", "i've", "i'd", "i'll", "ceo", "cto", "cfo", "coo", "vp", "svp", "evp", "pm",
    "tl;dr", "ok", "okay", "fyi", "btw", "eod", "eta", "asap", "ps", "re", "fw", "fwd",
    "hi", "hey", "hello", "thanks", "yes", "no", "lol", "omg",
    # chat interjections and openers, capitalised by position ("Aww", "Woah Joanna", "Glad")
    "aw", "aww", "awww", "woah", "whoa", "wow", "yay", "ha", "haha", "hahaha", "ooh", "oh",
    "ah", "ahh", "hmm", "um", "uh", "yeah", "yep", "yup", "nope", "glad", "congrats",
    "congratulations", "cool", "nice", "awesome", "amazing", "sorry", "thank", "thx", "bye",
    "cheers", "sure", "welcome", "absolutely", "totally", "definitely", "exactly", "gosh",
    "geez", "jeez", "phew", "ugh", "oops", "hooray", "bravo", "dear"))
#: Lower-case words that may sit inside a name between two capitalised ones.
_CONNECTORS = frozenset(("of", "de", "van", "von", "der", "da", "del", "du", "la", "le", "&",
                         "for", "and"))
#: A lower-case word closing a capitalised name into a group's name ("the Payments team").
_GROUP_WORDS = frozenset(("team", "guild", "squad", "tribe", "chapter", "crew", "group",
                          "committee", "council"))
_IDENT = re.compile(r"(?<![\w./@-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w/@-]|\.\w)")
#: Hyphenated English words, not identifiers: "co-founder", "follow-up", "part-time".
_IDENT_PREFIXES = frozenset((
    "co", "re", "pre", "post", "non", "anti", "self", "multi", "semi", "sub", "ex", "well",
    "long", "short", "full", "part", "one", "two", "three", "end", "open", "sign", "follow",
    "check", "on", "off", "in", "out", "up", "e", "x", "high", "low", "first", "second",
    "third", "last", "old", "new", "all", "half", "mid", "over", "under", "day", "year",
    "week", "month", "real", "hand", "built", "best", "worst", "top", "so", "far", "near",
    "must", "ad", "de", "face", "time", "eye", "mother", "father", "sister", "brother",
    "step", "great", "grand", "vice", "cross", "double", "single", "hard", "soft", "kick",
    "roll", "set", "hot", "cold", "deep", "back", "front", "touch", "make", "follow"))
_IDENT_SUFFIXES = frozenset((
    "based", "time", "term", "up", "off", "in", "out", "on", "like", "free", "friendly",
    "level", "wide", "related", "specific", "facing", "side", "made", "owned", "run",
    "founder", "founded", "op", "ops", "old", "new", "known", "end",
    "date", "by", "way", "year", "day", "week", "month", "hour", "minute", "law", "in-law",
    "class", "scale", "ready", "aware", "driven", "first", "only", "to", "ish", "one"))
#: Words that open a sentence capitalised and are never a name there.
_OPENER_WORDS = frozenset((
    "maybe", "perhaps", "hopefully", "apparently", "yesterday", "today", "tomorrow",
    "tonight", "honestly", "sadly", "luckily", "finally", "anyway", "also", "please",
    "thanks", "quick", "note", "update", "reminder", "heads", "fyi", "btw", "yes", "yeah",
    "sure", "great", "cool", "nice", "wow", "congrats", "welcome", "good", "happy", "sorry"))
#: Last words that make a capitalised name an organisation's.
_ORG_WORDS = frozenset((
    "university", "college", "institute", "school", "bank", "labs", "lab", "inc", "inc.",
    "corp", "corp.", "ltd", "llc", "gmbh", "robotics", "analytics", "systems", "works",
    "shipping", "freight", "logistics", "health", "digital", "data", "foods", "capital",
    "studio", "studios", "technologies", "partners", "group", "holdings", "ventures",
    "software", "media", "consulting", "solutions", "industries", "foundation"))
#: The type a relation's predicate implies for its (subject, object).
_IMPLIED = {"works_at": (None, "Organization"), "studied_at": (None, "Organization"),
            "member_of": (None, "Organization"), "lives_in": ("Person", "Place"),
            "born_in": ("Person", "Place"), "moved_to": (None, "Place"),
            "located_in": (None, "Place"), "reports_to": ("Person", "Person"),
            "manages": ("Person", "Person"), "married_to": ("Person", "Person"),
            "sibling_of": ("Person", "Person"), "friend_of": ("Person", "Person")}
_SENTENCE_OPENERS = frozenset((":", "\"", "'", "(", "“", "‘", "-", "—", "–", ";"))


def _type_of_ner(label: str) -> str | None:
    return _NER_TYPES.get(label)


def _capitalised(token: Any) -> bool:
    text = token.text
    if token.ent_type_ == "NORP" and token.dep_ not in ("amod", "compound") \
            and token.tag_ not in ("NNS", "NNPS", "JJ"):
        pass  # the small model calls unknown names nationalities: "created Hopscotch"
    elif token.ent_type_ in _VALUE_ENTS:
        return False
    return (text[:1].isupper() and any(c.isalpha() for c in text)
            and token.lower_ not in _NOT_NAMES and token.lower_ not in _CALENDAR)


def _opens_sentence(token: Any, span: Any) -> bool:
    if token.i == span.start or token.is_sent_start:
        return True
    return token.doc[token.i - 1].text in _SENTENCE_OPENERS


def _name_word(token: Any, span: Any) -> bool:
    """A word that may be part of a name. A capitalised word opening the sentence is only
    capitalised by position, so it counts when the parser calls it a proper noun, or a bare
    singular noun standing as the subject ("Maren lives", "Grace studied")."""
    if not _capitalised(token):
        return False
    if not _opens_sentence(token, span):
        return True
    if token.is_stop or token.lower_ in _OPENER_WORDS or token.pos_ in ("DET", "PRON", "SCONJ", "CCONJ", "ADP", "AUX", "INTJ",
                                       "PART", "NUM", "VERB"):
        return False
    if token.pos_ == "PROPN":
        return True
    if token.tag_ in ("NNS", "NNPS") or any(c.dep_ == "det" for c in token.children):
        return False
    nxt = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if nxt is not None and nxt.i < span.end and _capitalised(nxt) and not nxt.is_stop:
        return True  # "Fernhill Bank ..." : the next word is capitalised mid-sentence
    return token.dep_ in ("nsubj", "nsubjpass", "compound", "poss") or (
        token.pos_ in ("NOUN", "ADV") and token.head.pos_ in ("VERB", "AUX")
        and token.i < token.head.i)


def _name_runs(span: Any) -> list[tuple[int, int]]:
    """Token ranges [start, end) of capitalised names in the span."""
    runs: list[tuple[int, int]] = []
    doc = span.doc
    i = span.start
    while i < span.end:
        token = doc[i]
        if not _name_word(token, span):
            i += 1
            continue
        end = i + 1
        while end < span.end:
            nxt = doc[end]
            if _name_word(nxt, span) and doc[end - 1].whitespace_ or (
                    _capitalised(nxt) and not doc[end - 1].whitespace_
                    and doc[end - 1].text == "-"):
                end += 1
            elif (nxt.text == "-" and not nxt.whitespace_ and not doc[end - 1].whitespace_
                  and end + 1 < span.end and _capitalised(doc[end + 1])):
                end += 1  # "Hewlett-Packard"
            elif (nxt.lower_ in _CONNECTORS and end + 1 < span.end
                  and _capitalised(doc[end + 1]) and nxt.lower_ not in ("and", "for")):
                end += 1  # "Institute of Technology"
            elif nxt.lower_ == "&" and end + 1 < span.end and _capitalised(doc[end + 1]):
                end += 1
            else:
                break
        while end > i and (doc[end - 1].text in ("-", "&") or doc[end - 1].lower_ in _CONNECTORS):
            end -= 1
        if end < span.end and doc[end].lower_ in _GROUP_WORDS and doc[end - 1].whitespace_:
            end += 1
        if end > i:
            runs.append((i, end))
        i = max(end, i + 1)
    return runs


def _identifier_ok(name: str) -> bool:
    parts = re.split(r"[-_]", name)
    if "_" in name or any(c.isdigit() for c in name):
        return True
    return parts[0] not in _IDENT_PREFIXES and parts[-1] not in _IDENT_SUFFIXES


def _type_of_run(tokens: Sequence[Any]) -> str | None:
    words = [t.lower_ for t in tokens]
    if words[-1] in _GROUP_WORDS or words[-1] in _ORG_WORDS:
        return "Organization"
    if words[0] == "project":
        return "Project"
    labels = [t.ent_type_ for t in tokens if t.ent_type_]
    return _type_of_ner(labels[-1]) if labels else None


def find_mentions(span: Any) -> list[tuple[str, str | None]]:
    """The names a clause mentions, in order: ``(name, type)``, the name verbatim."""
    doc = span.doc
    base = span.start_char
    text = span.text
    found: list[tuple[int, int, str | None]] = []  # (start_char, end_char, type)
    for start, end in _name_runs(span):
        tokens = doc[start:end]
        found.append((tokens.start_char, tokens.end_char, _type_of_run(list(tokens))))
    for match in _IDENT.finditer(text):
        if _identifier_ok(match.group()):
            found.append((base + match.start(), base + match.end(), "Service"))
    # spaCy's entities the runs above do not cover (a lower-case brand, say)
    for ent in doc.ents:
        if ent.start < span.start or ent.end > span.end or ent.label_ not in _NER_TYPES:
            continue
        if any(a < ent.end_char and ent.start_char < b for a, b, _ in found):
            continue
        words = [t for t in ent if not t.is_stop and t.pos_ not in ("DET", "PART", "PUNCT")]
        if words and any(c.isalpha() for c in words[0].text) and words[0].lower_ not in _NOT_NAMES:
            found.append((words[0].idx, words[-1].idx + len(words[-1].text),
                          _type_of_ner(ent.label_)))
    out: dict[str, tuple[int, str | None]] = {}
    for start, end, kind in sorted(found):
        if any(a <= start and end <= b and (a, b) != (start, end) for a, b, _ in found):
            continue  # inside a longer name
        name = doc.text[start:end].strip()
        if name.endswith("'s") or name.endswith("’s"):
            name = name[:-2]
        if name and name not in out:
            out[name] = (start, kind)
    return [(name, kind) for name, (_, kind) in sorted(out.items(), key=lambda x: x[1][0])]


# -- relations --------------------------------------------------------------------------------

#: (verb lemma, preposition) -> predicate, subject first.
_VERB_PREP = {
    ("work", "at"): "works_at", ("work", "for"): "works_at", ("intern", "at"): "works_at",
    ("report", "to"): "reports_to", ("live", "in"): "lives_in", ("reside", "in"): "lives_in",
    ("move", "to"): "moved_to", ("relocate", "to"): "moved_to", ("study", "at"): "studied_at",
    ("graduate", "from"): "studied_at", ("depend", "on"): "depends_on",
    ("rely", "on"): "depends_on", ("partner", "with"): "partner_of",
    ("compete", "with"): "competitor_of", ("compete", "against"): "competitor_of",
    ("start", "at"): "joined", ("marry", "to"): "married_to", ("married", "to"): "married_to",
    ("base", "in"): "located_in", ("locate", "in"): "located_in",
    ("headquarter", "in"): "located_in", ("headquartered", "in"): "located_in",
    ("bear", "in"): "born_in", ("born", "in"): "born_in",
}
#: Verb lemma -> predicate with the direct object (active) or the agent (passive, swapped).
_VERB_OBJECT = {
    "manage": "manages", "lead": "leads", "head": "leads", "maintain": "maintains",
    "own": "owns", "join": "joined", "leave": "left", "quit": "left", "found": "founded",
    "cofound": "founded", "co-found": "founded", "start": "founded", "acquire": "acquired",
    "buy": "acquired", "purchase": "acquired", "use": "uses", "create": "created",
    "build": "created", "write": "created", "develop": "created", "invent": "created",
    "marry": "married_to",
}
#: Verbs whose object is the subject of the relation ("Globex employs Ana": Ana works_at).
_INVERSE_OBJECT = {"employ": "works_at"}
#: (noun, preposition) -> predicate for "X is a member of Y", "X, head of Y".
_NOUN_PREP = {
    ("member", "of"): "member_of", ("part", "of"): "part_of", ("subsidiary", "of"): "part_of",
    ("division", "of"): "part_of", ("unit", "of"): "part_of", ("branch", "of"): "part_of",
    ("founder", "of"): "founded", ("co-founder", "of"): "founded",
    ("cofounder", "of"): "founded", ("maintainer", "of"): "maintains",
    ("creator", "of"): "created", ("author", "of"): "created", ("owner", "of"): "owns",
    ("head", "of"): "leads", ("lead", "of"): "leads", ("leader", "of"): "leads",
    ("ceo", "of"): "leads", ("director", "of"): "leads", ("manager", "of"): "leads",
    ("friend", "with"): "friend_of", ("friends", "with"): "friend_of",
    ("friend", "of"): "friend_of", ("sibling", "of"): "sibling_of",
    ("competitor", "of"): "competitor_of", ("rival", "of"): "competitor_of",
    ("partner", "of"): "partner_of", ("alum", "of"): "studied_at",
    ("alumnus", "of"): "studied_at", ("alumna", "of"): "studied_at",
    ("graduate", "of"): "studied_at", ("student", "at"): "studied_at",
    ("resident", "of"): "lives_in", ("native", "of"): "born_in", ("employee", "of"): "works_at",
    ("cto", "of"): "works_at", ("cfo", "of"): "works_at", ("coo", "of"): "works_at",
    ("vp", "of"): "works_at",
}
#: A role noun with "at"/"for" an organisation: "a staff engineer at Vantage" -> works_at.
_ROLE_PREPS = frozenset(("at", "for"))
#: Kinship and management nouns after a possessive: "my sister Ana", "Ana's manager Ben".
_KIN = {"sister": "sibling_of", "brother": "sibling_of", "sibling": "sibling_of",
        "twin": "sibling_of", "wife": "married_to", "husband": "married_to",
        "spouse": "married_to", "friend": "friend_of", "manager": "manages",
        "boss": "manages", "founder": "founded", "co-founder": "founded",
        "cofounder": "founded", "maintainer": "maintains", "creator": "created",
        "owner": "owns", "head": "leads", "lead": "leads"}
#: "X and Y are married/siblings/friends": the predicate joins the coordinated subjects.
_PAIR_WORDS = {"married": "married_to", "siblings": "sibling_of", "friends": "friend_of",
               "partners": "partner_of", "competitors": "competitor_of",
               "rivals": "competitor_of"}
#: Alumni nouns taking the school as a modifier: "an Eastbrook University alum".
_ALUMNI = frozenset(("alum", "alumnus", "alumna", "graduate", "grad", "alumni"))
#: Nouns standing for the name in front of them: "the Orion service", "the Wayfinder app".
_GENERIC = frozenset((
    "app", "application", "service", "library", "lib", "project", "tool", "platform",
    "system", "api", "repo", "repository", "startup", "company", "firm", "cli", "database",
    "db", "cluster", "stack", "product", "site", "framework", "package", "module", "pipeline",
    "job", "bot", "server", "vendor", "agency", "studio", "lab", "org", "organisation",
    "organization", "team", "group", "client", "customer", "bank", "city", "town", "band",
    "engine", "sdk", "plugin", "extension", "website", "portal", "dashboard", "brand",
    "subsidiary", "school", "university"))
_FIRST_PERSON = frozenset(("i", "me", "my", "mine", "myself"))
_THIRD_PERSON = frozenset(("he", "she", "him", "her", "his", "hers", "they", "them", "their",
                           "it", "its"))
_RELATIVE = frozenset(("who", "whom", "which", "that", "whose"))
_SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass", "csubj", "expl"))
_HEDGES = frozenset(("might", "may", "could", "would", "should", "'d", "must", "will", "'ll",
                     "wo", "shall", "ca", "can"))
_HEDGE_ADVERBS = frozenset(("maybe", "perhaps", "possibly", "probably", "hopefully",
                            "supposedly", "allegedly", "apparently", "reportedly"))
_CONDITIONALS = frozenset(("if", "unless", "whether", "once", "until", "before", "lest"))
#: Verbs whose open complement is not (yet) a fact: "wants to join", "plans to move".
_IRREALIS = frozenset(("want", "plan", "hope", "try", "consider", "intend", "expect", "aim",
                       "like", "love", "wish", "need", "have", "decide", "agree", "offer",
                       "threaten", "refuse", "fail", "seek", "propose", "promise", "mean",
                       "would", "go", "think", "dream", "prepare"))
_NEGATORS = frozenset(("not", "n't", "never", "no", "nor", "neither", "hardly"))
#: Words that may stand between a subject and its verb in the surface fallback.
_BETWEEN = frozenset(("both", "all", "also", "still", "now", "later", "just", "each",
                      "currently", "jointly", "together", "already", "recently", "then",
                      "originally", "formerly", "has", "have", "had", "is", "are", "was",
                      "were", "co", "-", "once", "first", "since", "eventually", "finally",
                      "quietly", "officially", "actually", "really"))


def _lemma(token: Any) -> str:
    """The token's lemma, with a hyphenated prefix kept ("co-founded" -> "co-found")."""
    lemma = token.lemma_.lower()
    doc = token.doc
    if token.i >= 2 and doc[token.i - 1].text == "-" and not doc[token.i - 2].whitespace_ \
            and not doc[token.i - 1].whitespace_ and doc[token.i - 2].lower_ == "co":
        return "co-" + (lemma if lemma != "founded" else "found")
    return {"founded": "found", "married": "married", "born": "bear",
            "headquartered": "headquarter", "based": "base", "led": "lead",
            "co-founded": "co-found"}.get(lemma, lemma)


def _noun_word(token: Any) -> str:
    """A noun as written, hyphen group included ("co-founder"), lower case."""
    doc = token.doc
    start = end = token.i
    while start >= 2 and doc[start - 1].text == "-" and not doc[start - 1].whitespace_ \
            and not doc[start - 2].whitespace_:
        start -= 2
    while end + 2 < len(doc) and doc[end + 1].text == "-" and not doc[end].whitespace_ \
            and not doc[end + 1].whitespace_:
        end += 2
    return doc[start:end + 1].text.lower()


class _Reader:
    """The relations of one span: the names' tokens, the speaker, and the triples found."""

    def __init__(self, span: Any, mentions: Iterable[Any], speaker: str | None) -> None:
        self.span = span
        self.doc = span.doc
        self.speaker = speaker
        self.names: dict[int, str] = {}  # token index -> the name covering it
        self.heads: dict[str, int] = {}  # name -> its first token
        text, base = span.text, span.start_char
        names = [m[0] if isinstance(m, (tuple, list)) else m for m in mentions]
        for name in sorted({n for n in names if isinstance(n, str) and n},
                           key=len, reverse=True):
            for match in re.finditer(re.escape(name), text):
                a, b = base + match.start(), base + match.end()
                tokens = [t.i for t in span if t.idx < b and a < t.idx + len(t.text)]
                if not tokens or any(i in self.names for i in tokens):
                    continue
                for i in tokens:
                    self.names[i] = name
                self.heads.setdefault(name, tokens[0])
        self.found: list[tuple[str, str, str]] = []
        self.used: set[int] = set()  # trigger tokens that gave a triple

    def inside(self, token: Any) -> bool:
        return self.span.start <= token.i < self.span.end

    # -- who a token names ----------------------------------------------------------------

    def name_of(self, token: Any, depth: int = 0) -> str | None:
        if token is None or not self.inside(token) or depth > 4:
            return None
        if token.i in self.names:
            return self.names[token.i]
        low = token.lower_
        if low in _FIRST_PERSON:
            return self.speaker
        if low in _THIRD_PERSON:
            return self.antecedent(token)
        if low in _RELATIVE and token.head.dep_ in ("relcl", "acl") and token.head.head is not token:
            return self.name_of(token.head.head, depth + 1)
        if token.pos_ in ("NOUN", "PROPN"):
            for child in token.children:
                if child.dep_ == "appos" and child.i in self.names:
                    return self.names[child.i]
            if low in _GENERIC or token.lemma_.lower() in _GENERIC:
                for child in token.children:
                    if child.dep_ in ("compound", "amod", "nmod") and child.i < token.i \
                            and child.i in self.names:
                        return self.names[child.i]
        return None

    def antecedent(self, pronoun: Any) -> str | None:
        """"he", "she", "his", "its": the nearest name before it that is a subject, else the
        nearest name before it; never across the span."""
        before = [(i, n) for i, n in self.names.items() if i < pronoun.i]
        if not before:
            return None
        subjects = [(i, n) for i, n in before
                    if self.doc[i].dep_ in _SUBJECT_DEPS or self.doc[i].head.dep_ in _SUBJECT_DEPS]
        return max(subjects or before)[1]

    def names_of(self, token: Any) -> list[str]:
        """The names a token and the tokens coordinated with it stand for."""
        out = []
        for t in [token, *token.conjuncts]:
            if not self.inside(t):
                continue
            name = self.name_of(t)
            if name is not None and name not in out:
                out.append(name)
        return out

    # -- the verb's arguments -------------------------------------------------------------

    def subjects(self, verb: Any, depth: int = 0) -> list[str]:
        if depth > 4:
            return []
        subject = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is not None:
            return self.names_of(subject)
        if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head.pos_ in ("VERB", "AUX") \
                and self.inside(verb.head):
            return self.subjects(verb.head, depth + 1)
        if verb.dep_ in ("acl", "relcl") and self.inside(verb.head):
            return self.names_of(verb.head)
        return self.left_names(verb)

    def left_names(self, token: Any) -> list[str]:
        """Names right before the word ("Jonas and Sofia report to ..."), for a clause the
        parser broke."""
        out: list[str] = []
        i = token.i - 1
        while i >= self.span.start:
            t = self.doc[i]
            if i in self.names:
                name = self.names[i]
                if name not in out:
                    out.append(name)
                i = self.heads.get(name, i) - 1 if self.heads.get(name, i) <= i else i - 1
                continue
            if t.lower_ in _FIRST_PERSON and self.speaker:
                out.append(self.speaker)
            elif t.lower_ in ("and", ",") and out:
                pass
            elif t.lower_ in _BETWEEN and not out:
                pass
            else:
                break
            i -= 1
        return list(reversed(out))

    def right_names(self, token: Any) -> list[str]:
        out: list[str] = []
        i = token.i + 1
        while i < self.span.end:
            t = self.doc[i]
            if i in self.names:
                if self.names[i] not in out:
                    out.append(self.names[i])
            elif t.lower_ in ("the", "both", "either", "and", ","):
                pass
            else:
                break
            i += 1
        return out

    def objects(self, token: Any, dep: str, cut: int | None) -> list[str]:
        return [n for c in token.children if c.dep_ == dep and (cut is None or c.i < cut)
                and not any(g.dep_ == "neg" for g in c.children) for n in self.names_of(c)]

    def prep_objects(self, token: Any, cut: int | None) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for prep in token.children:
            if prep.dep_ not in ("prep", "agent", "dative") or (cut is not None and prep.i > cut):
                continue
            if any(c.dep_ == "neg" for c in prep.children):
                continue  # "..., not by SRE": this one is denied
            word = "by" if prep.dep_ == "agent" else prep.lower_
            for pobj in prep.children:
                if pobj.dep_ in ("pobj", "pcomp"):
                    out.setdefault(word, []).extend(self.names_of(pobj))
        return out

    # -- what the clause asserts ----------------------------------------------------------

    def contrast(self, verb: Any) -> int | None:
        """Where a contrastive ", not X" starts: what follows it is denied, not the verb."""
        for child in verb.children:
            if child.dep_ == "neg" and child.i > verb.i and child.i > 0 \
                    and self.doc[child.i - 1].text == ",":
                return child.i
        return None

    def denied(self, verb: Any) -> bool:
        """Negated, hedged, conditional, future or wished-for: not asserted as true."""
        node, depth = verb, 0
        while node is not None and depth < 6:
            for child in node.children:
                low = child.lower_
                if child.dep_ == "neg" and not (child.i > node.i and child.i > 0
                                                and self.doc[child.i - 1].text == ","):
                    return True
                if low in _NEGATORS and child.dep_ in ("advmod", "neg", "det", "preconj"):
                    return True
                if child.dep_ in ("aux", "auxpass") and low in _HEDGES:
                    return True
                if low in _HEDGE_ADVERBS or (child.dep_ == "mark" and low in _CONDITIONALS):
                    return True
                if low == "longer" and any(g.lower_ == "no" for g in child.children):
                    return True
            if node.dep_ == "xcomp" and node.head.lemma_.lower() in _IRREALIS:
                return True
            if node.dep_ in ("xcomp", "ccomp", "conj", "advcl") and node.head is not node \
                    and node.head.pos_ in ("VERB", "AUX"):
                if node.dep_ == "conj" and any(c.dep_ in _SUBJECT_DEPS for c in node.children):
                    return False  # a conjunct with its own subject stands alone
                if node.dep_ == "ccomp" and node.i < node.head.i:
                    return False  # a fronted clause ("X left Y, so ...") is its own
                node, depth = node.head, depth + 1
                continue
            break
        return False

    def emit(self, subjects: Iterable[str | None], predicate: str,
             objects: Iterable[str | None], trigger: Any) -> None:
        if predicate not in PREDICATES:
            return
        for s in subjects:
            for o in objects:
                if s and o and s.casefold() != o.casefold():
                    triple = (s, predicate, o)
                    if triple not in self.found:
                        self.found.append(triple)
                    self.used.add(trigger.i)

    # -- the readers ----------------------------------------------------------------------

    def verb(self, verb: Any) -> None:
        lemma = _lemma(verb)
        if lemma == "co-found":
            lemma = "found"
        passive = (any(c.dep_ in ("nsubjpass", "auxpass", "agent") for c in verb.children)
                   or (verb.dep_ == "acl" and verb.tag_ == "VBN"))
        cut = self.contrast(verb)
        if self.denied(verb):
            return
        subjects = self.subjects(verb)
        preps = self.prep_objects(verb, cut)
        if passive:
            agents = preps.pop("by", [])
            if lemma in _VERB_OBJECT and agents:
                self.emit(agents, _VERB_OBJECT[lemma], subjects, verb)
            if lemma == "employ":
                self.emit(subjects, "works_at", agents, verb)
        else:
            if lemma in _VERB_OBJECT:
                self.emit(subjects, _VERB_OBJECT[lemma], self.objects(verb, "dobj", cut), verb)
            if lemma in _INVERSE_OBJECT:
                self.emit(self.objects(verb, "dobj", cut), _INVERSE_OBJECT[lemma], subjects,
                          verb)
        if lemma in ("found", "start") and not passive and "with" in preps:
            # "founded Quill with Ravi": Ravi founded it too
            self.emit(preps["with"], "founded", self.objects(verb, "dobj", cut), verb)
        for prep, objects in preps.items():
            if (lemma, prep) in _VERB_PREP:
                self.emit(subjects, _VERB_PREP[(lemma, prep)], objects, verb)
        for child in verb.children:
            if child.dep_ in ("attr", "acomp", "oprd") and (cut is None or child.i < cut):
                self.copula(child, subjects, cut)

    def copula(self, noun: Any, subjects: list[str], cut: int | None) -> None:
        """"X is a member of Y", "X is married to Y", "X is Y's brother", "X and Y are
        friends"."""
        word = _noun_word(noun)
        lemma = noun.lemma_.lower()
        for prep, objects in self.prep_objects(noun, cut).items():
            predicate = _NOUN_PREP.get((word, prep)) or _NOUN_PREP.get((lemma, prep)) \
                or _VERB_PREP.get((word, prep)) or _VERB_PREP.get((lemma, prep))
            if predicate:
                self.emit(subjects, predicate, objects, noun)
        for subject in subjects:
            self.kin(noun, word, lemma, subject)
        pair = _PAIR_WORDS.get(noun.lower_)
        if pair and len(subjects) == 2 and not self.prep_objects(noun, cut):
            self.emit(subjects[:1], pair, subjects[1:], noun)

    def possessor(self, noun: Any) -> str | None:
        """The name a possessive before the noun stands for, in its hyphen group too
        ("Quill's co-founder" hangs "Quill's" on "co")."""
        doc = self.doc
        group = [noun]
        i = noun.i
        while i >= 2 and doc[i - 1].text == "-" and not doc[i - 2].whitespace_:
            group += [doc[i - 1], doc[i - 2]]
            i -= 2
        for token in group:
            for child in token.children:
                if child.dep_ == "poss":
                    return self.name_of(child)
        for token in group:  # "co" / "-" / "founder" may all hang on the name as appos
            if token.head.i != noun.i:
                for child in token.head.children:
                    if child.dep_ == "poss" and child.i < noun.i and child.i > noun.i - 6 \
                            and any(t.i > child.i for t in group):
                        return self.name_of(child)
        return None

    def apposition(self, head: Any, appos: Any) -> None:
        """"Dana, head of the Platform team", "my wife Ayla", "Ana's manager Ben"."""
        if appos.i in self.names and head.i not in self.names:
            named, role = appos, head  # "my wife Ayla": the name is the apposition
        elif head.i in self.names and appos.i not in self.names:
            named, role = head, appos  # "Greta, a maintainer of pg-audit"
        else:
            return
        name = self.name_of(named)
        if name is None or self.denied(role):
            return
        word, lemma = _noun_word(role), role.lemma_.lower()
        for prep, objects in self.prep_objects(role, None).items():
            predicate = _NOUN_PREP.get((word, prep)) or _NOUN_PREP.get((lemma, prep))
            if predicate is None and prep in _ROLE_PREPS and role.pos_ == "NOUN":
                predicate = "works_at"  # "a staff engineer at Vantage Robotics"
            if predicate:
                self.emit([name], predicate, objects, role)
        self.kin(role, word, lemma, name)
        for child in role.children:
            if (word in _ALUMNI or lemma in _ALUMNI) and child.i in self.names \
                    and child.dep_ in ("compound", "nmod", "amod"):
                self.emit([name], "studied_at", [self.names[child.i]], role)
        for token in role.subtree:
            if token.lower_ in ("based", "headquartered") and token.i != role.i:
                # "a Berlin-based startup": the place is in the modifier or right before it
                place = [self.names[g.i] for g in token.subtree if g.i in self.names]
                if not place and token.i >= 2 and self.doc[token.i - 1].text == "-" \
                        and token.i - 2 in self.names:
                    place = [self.names[token.i - 2]]
                self.emit([name], "located_in", place[:1], role)

    def kin(self, role: Any, word: str, lemma: str, name: str) -> None:
        """A possessive kin or role word beside a name: "Yusuf's sister" (symmetric, in
        text order), "Ana's manager" (the name manages Ana), "Quill's co-founder"."""
        owner = self.possessor(role)
        kin = _KIN.get(word) or _KIN.get(lemma)
        if not owner or not kin:
            return
        if kin in SYMMETRIC:
            first, second = sorted((name, owner), key=lambda n: self.position(n))
            self.emit([first], kin, [second], role)
        else:
            self.emit([name], kin, [owner], role)

    def position(self, name: str) -> int:
        """Where a name first stands (the speaker, never written, comes first)."""
        return self.heads.get(name, -1)

    def surface(self, token: Any) -> None:
        """A verb the parser misread (as a noun, say): the names right before it and right
        after its preposition."""
        lemma = _lemma(token)
        if lemma == "co-found":
            lemma = "found"
        nxt = self.doc[token.i + 1] if token.i + 1 < self.span.end else None
        predicate, after = None, token
        if nxt is not None and (lemma, nxt.lower_) in _VERB_PREP:
            predicate, after = _VERB_PREP[(lemma, nxt.lower_)], nxt
        elif lemma in _VERB_OBJECT:
            predicate = _VERB_OBJECT[lemma]
        if predicate is None:
            return
        window = self.doc[max(self.span.start, token.i - 4):token.i]
        if token.tag_ == "VBN" and any(t.lemma_ == "be" for t in window):
            return  # a passive the parser missed: the order of the names is not the roles'
        if any(t.lower_ in _FIRST_PERSON and t.dep_ == "poss" for t in window):
            return
        if any(t.lower_ in _NEGATORS or t.lower_ in _HEDGES or t.lower_ in _HEDGE_ADVERBS
               or t.lower_ in _CONDITIONALS for t in window):
            return
        if any(t.lower_ in _CONDITIONALS or t.lower_ in _HEDGE_ADVERBS
               for t in self.doc[self.span.start:token.i]):
            return
        objects = self.right_names(after)
        subjects = self.left_names(token)
        if predicate == "founded" and objects:
            # "co-founded Cobalt Systems with Omar": Omar founded it too
            end = self.heads[objects[-1]]
            while end < self.span.end and self.names.get(end) == objects[-1]:
                end += 1
            if end < self.span.end and self.doc[end].lower_ == "with":
                subjects += [n for n in self.right_names(self.doc[end]) if n not in subjects]
        self.emit(subjects, predicate, objects, token)


def _words(span: Any) -> list[Any]:
    return [t for t in span]


def find_relations(span: Any, mentions: Sequence[Any],
                   speaker: str | None = None) -> list[tuple[str, str, str]]:
    """(subject, predicate, object) triples the clause asserts between two of ``mentions``
    (names as :func:`find_mentions` returns them) or ``speaker`` (for "I", "me", "my")."""
    if not len(span):
        return []
    if span.text.rstrip("\"')]” ").endswith("?"):
        return []  # a question asserts nothing
    reader = _Reader(span, mentions, speaker)
    if not reader.names and not speaker:
        return []
    tokens = _words(span)
    if tokens and tokens[0].lower_ in _HEDGE_ADVERBS | _CONDITIONALS:
        return []
    for token in tokens:
        if token.pos_ in ("VERB", "AUX") or _lemma(token) in _VERB_OBJECT or any(
                (_lemma(token), c.lower_) in _VERB_PREP for c in token.children):
            reader.verb(token)
    for token in tokens:
        if token.dep_ == "appos" and reader.inside(token.head):
            reader.apposition(token.head, token)
    _possessive_names(reader, tokens)
    for token in tokens:
        if token.i not in reader.used and token.i not in reader.names and (
                token.pos_ in ("NOUN", "ADJ", "PROPN") or token.dep_ == "ROOT"
                or _lemma(token) == "co-found"):
            reader.surface(token)
    return reader.found


def _possessive_names(reader: _Reader, tokens: Sequence[Any]) -> None:
    """"my sister Ana" parsed with the kin word as a compound of the name."""
    for token in tokens:
        if token.i not in reader.names:
            continue
        for child in token.children:
            if child.dep_ in ("compound", "nmod", "amod") and child.i not in reader.names \
                    and _KIN.get(_noun_word(child)) and not reader.denied(token.head):
                reader.kin(child, _noun_word(child), child.lemma_.lower(), reader.names[token.i])


def typed_mentions(mentions: Sequence[tuple[str, str | None]],
                   relations: Sequence[tuple[str, str, str]]) -> list[tuple[str, str | None]]:
    """The mentions with the type their relations imply where that is surer than the small
    model's label ("lives in Lyon": Lyon is a Place, whatever NER said); a type read from
    the name's own shape ("... team", "... University", an identifier) is kept."""
    implied: dict[str, str] = {}
    for subject, predicate, obj in relations:
        for name, kind in zip((subject, obj), _IMPLIED.get(predicate, (None, None)),
                              strict=True):
            if kind is not None:
                implied.setdefault(name, kind)
    out = []
    for name, kind in mentions:
        words = name.lower().split()
        shaped = bool(_IDENT.fullmatch(name)) or (words and (
            words[-1] in _GROUP_WORDS or words[-1] in _ORG_WORDS or words[0] == "project"))
        out.append((name, kind if shaped else implied.get(name, kind)))
    return out
