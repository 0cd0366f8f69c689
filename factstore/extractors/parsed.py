"""The parser-based offline extractor (``parser/v1``), the default.

It reads structure, not only cue phrases, so ordinary sentences from real conversations
yield facts ("I painted that lake sunrise last year" is an EVENT, "my brother still lives in
Ohio" a STATE) while greetings, questions and backchannel yield none. Per capture:

1. **Turns.** A chat is split into its speakers' turns (:mod:`factstore.extractors.turns`);
   a fact never spans two turns, its ``asserter`` is the turn's speaker and "I" is written
   as that speaker. Prose is one turn with no speaker ("I" becomes "the user").
2. **Sentences** are cut by the rule extractor's splitter (robust to paths, URLs and
   versions), then each is parsed by spaCy (:mod:`factstore.nlp`).
3. **Clauses** come from the dependency parse: a coordinated verb with a subject of its own
   ("I moved to Denver *and my brother still lives in Ohio*") starts a new assertion; a
   subordinate clause ("because the cache was cold") or a clause leaning on a pronoun stays
   with its head. One assertion per fact.
4. **Kinds.** A clause's cue phrases decide first (the rule extractor's tables); without one,
   its structure does (:func:`structural_kind`): a deontic modal or a negated imperative is
   a RULE, a first-person future or plan a DECISION, a past-tense verb an EVENT, a
   first-person taste a PREFERENCE, first-person background a PREFERENCE (it does not
   perish), any other present-tense claim a STATE, "may"/"might" a RESIDUAL.
5. **Fields.** Subject, predicate and object from the parse; the per-kind columns from the
   clause's own words (the rule extractor's readers); the quote is the clause's verbatim
   span; ``negated`` from the parse (``neg``, "no", "never", "without", "nobody", ...);
   topics are entity-shaped names and identifiers (topic hygiene then drops value shapes);
   ``mentions`` and ``relations`` for the entity layer from the clause alone
   (:mod:`factstore.extractors.relations`).

Deterministic: the same text always yields the same facts. The pipeline loads on the first
extraction (about a second, plus spaCy's import), never at import time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext
from factstore.extractors.relations import find_mentions, find_relations, typed_mentions
from factstore.extractors.rules import (
    clause_label_free,
    cue_kind,
    entity_topics,
    is_correction_marker,
    kind_fields,
    says_supersedes,
    split_sentences,
    third_person,
)
from factstore.extractors.turns import Turn, split_turns
from factstore.kinds import Kind
from factstore.writepath.polarity import set_aside_negators

__all__ = ["ParserExtractor", "structural_kind"]

_SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass", "csubj", "csubjpass", "expl"))
_NEGATORS = frozenset(("no", "never", "without", "nobody", "nothing", "none", "neither",
                       "nor", "nowhere", "cannot"))
_DEONTIC = frozenset(("must", "should", "shall", "ought", "need", "have", "gotta"))
_POSSIBLE = frozenset(("may", "might"))
_FUTURE = frozenset(("will", "'ll", "shall", "wo", "gon", "gonna"))
_PLAN_VERBS = frozenset(("plan", "intend", "decide", "aim", "hope", "want", "mean", "expect"))
_TASTE_VERBS = frozenset(("love", "like", "enjoy", "prefer", "hate", "dislike", "adore",
                          "fancy", "favor", "favour", "loathe", "detest", "appreciate"))
_FIRST_PERSON = frozenset(("i", "me", "my", "mine", "myself", "we", "our", "us"))
_DEMONSTRATIVES = frozenset(("it", "this", "that", "these", "those"))
#: Words by which a clause refers back to the one before (it continues that assertion).
_BACK_REFERENCES = frozenset(("it", "its", "this", "that", "these", "those"))
_WH_WORDS = frozenset(("why", "how", "what", "whether", "who", "when"))
_DEPENDENT_OPENERS = frozenset(("otherwise", "which", "hence", "thus", "therefore"))
_NOW_WORDS = frozenset(("now", "currently", "still", "today", "lately", "anymore", "nowadays"))
#: Entity types worth a topic; dates, times, numbers and quantities are values.
_TOPIC_ENTS = frozenset(("PERSON", "ORG", "GPE", "LOC", "PRODUCT", "FAC", "NORP", "EVENT",
                         "WORK_OF_ART", "LAW", "LANGUAGE"))
_TIME_ENTS = frozenset(("DATE", "TIME"))
#: What may stand before an imperative's verb: "Don't merge", "Never push", "Please rebase".
_IMPERATIVE_LEAD = frozenset(("neg", "aux", "advmod", "intj", "punct"))
_EDGE_DEPS = frozenset(("punct", "cc", "intj", "discourse", "preconj"))
_FILLER_WORDS = frozenset(("yeah", "yep", "yes", "wow", "oh", "well", "so", "ok", "okay",
                           "um", "uh", "hmm", "hey", "ah", "aw", "haha", "lol", "omg", "anyway",
                           "also", "and", "but", "plus", "btw", "honestly", "actually",
                           "totally", "sure", "right", "thanks", "cool", "awesome", "great"))


@dataclass(frozen=True)
class _Clause:
    """A clause of one parsed sentence: its tokens and the verb heading it."""

    tokens: tuple[Any, ...]
    head: Any


def _subject_of(verb: Any) -> Any | None:
    subject = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
    if subject is None:
        subject = _misparsed_subject(verb)
    if subject is None and verb.dep_ in ("xcomp", "conj") and verb.head.pos_ in ("VERB", "AUX"):
        return None  # shares its head's subject: not a clause of its own
    return subject


def _misparsed_subject(verb: Any) -> Any | None:
    """Two subjects the small parser mislabels, recovered: a bare noun read as a modifier
    of the finite verb after it ("..., and legal wants the redlines"), and a name whose
    "'s" is a contracted "is", read as a possessive ("..., and Tim's more of a Go person")."""
    if verb.tag_ in ("VBZ", "VBP", "VBD") and verb.i > 0:
        before = verb.doc[verb.i - 1]
        if before.head.i == verb.i and before.dep_ in ("amod", "compound", "nmod"):
            return before
    if verb.pos_ == "ADJ":
        return next((c for c in verb.children if c.dep_ == "poss" and c.i < verb.i
                     and any(g.lower_ == "'s" for g in c.children)), None)
    return None


def _own_clause_heads(sentence: Any) -> tuple[list[Any], set[int]]:
    """The words that head an assertion of their own -- the root, any coordinated verb or
    parataxis with its own subject, a non-restrictive "which" clause with news of its own,
    a fronted clause before ", so ..." -- and where the clause after each fronted one starts."""
    heads = [sentence.root]
    resumes: set[int] = set()
    for token in sentence:
        if token.i == sentence.root.i:
            continue
        if _fronted_clause(token):
            heads.append(token)
            resumes.add(token.right_edge.i + 1)
            continue
        if _which_news(token):
            heads.append(token)
            continue
        if token.dep_ not in ("conj", "parataxis"):
            continue
        if token.pos_ not in ("VERB", "AUX", "ADJ") or token.head not in heads:
            continue
        subject = _subject_of(token)
        if subject is not None and not _leans_back(list(token.subtree)):
            heads.append(token)
    return heads, resumes


def _after_comma(token: Any) -> bool:
    edge = token.left_edge.i
    return edge > token.sent.start and token.doc[edge - 1].text == ","


def _which_news(token: Any) -> bool:
    """", which we're planning to move off next year", ", which finance hasn't reconciled",
    ", which means the new pod starts in April": a comma-set "which" clause that asserts
    something of its own -- it has its own subject, or it says what the clause before
    means. A "which" that is only the subject ("..., which could let bursts through") adds
    a consequence to the same assertion and stays."""
    if token.dep_ not in ("relcl", "advcl") or token.pos_ not in ("VERB", "AUX"):
        return False
    if token.left_edge.lower_ != "which" or not _after_comma(token):
        return False
    subject = next((c for c in token.children if c.dep_ in _SUBJECT_DEPS), None)
    if subject is not None and subject.tag_ != "WDT":
        return True
    return token.lemma_ == "mean" and any(
        c.dep_ == "ccomp" and _subject_of(c) is not None for c in token.children)


def _fronted_clause(token: Any) -> bool:
    """"Leo hates flying, so he takes the train": the parser hangs the first clause under
    the second as a complement; a comma and "so"/"and"/"but" between them mark two."""
    if token.dep_ != "ccomp" or token.i > token.head.i or _subject_of(token) is None:
        return False
    between = [t.lower_ for t in token.doc[token.right_edge.i + 1:token.head.i]]
    if not (between and between[0] == "," and any(w in ("so", "and", "but") for w in between)):
        return False
    rest = [t for t in token.doc[token.right_edge.i + 1:token.sent.end] if t.dep_ != "punct"]
    return not _leans_back(rest)  # "..., so you rerun it from the start" still leans


def _leans_back(tokens: Sequence[Any]) -> bool:
    """A part that points back at the clause before continues its assertion: "..., and it
    was so powerful", "...; we'll live with that", "...; its migrations sit under ...",
    "...; otherwise quarantine hides real bugs". A back reference inside the part's own
    subject ("the budget for it is approved") or inside a clause nested in it ("nobody
    remembers why it was set up") introduces something new, so it does not lean."""
    if tokens and tokens[0].lower_ in _DEPENDENT_OPENERS:
        return True
    inside = {t.i for t in tokens}
    if _states_its_own(tokens, inside):
        return False
    return any(t.lower_ in _BACK_REFERENCES and t.dep_ not in ("mark", "advmod")
               and not t.text.isupper()  # "IT says ..." names a department
               and _points_at_the_clause(t, inside) for t in tokens)


def _states_its_own(tokens: Sequence[Any], inside: set[int]) -> bool:
    """A speaker's own taste ("..., and honestly I prefer it to Madrid") is news, whatever
    it points back at."""
    head = _highest(tokens)
    subject = next((c for c in head.children if c.dep_ in _SUBJECT_DEPS and c.i in inside),
                   None)
    return (subject is not None and head.lemma_ in _TASTE_VERBS
            and subject.lower_ in _FIRST_PERSON)


def _points_at_the_clause(token: Any, inside: set[int]) -> bool:
    """Whether the back reference hangs off the part's verb phrase directly."""
    if token.dep_ in _SUBJECT_DEPS and token.head.dep_ == "relcl":
        return False  # a relative "that"
    if token.lower_ == "its":
        return True  # a possessive always points back ("its migrations sit under ...")
    node = token
    while node.head.i in inside and node.head.i != node.i:
        if node.i != token.i and node.dep_ in _SUBJECT_DEPS:
            return False
        if node.i not in (token.i, token.head.i) and node.pos_ in ("NOUN", "PROPN"):
            return False  # inside a noun phrase ("the dashboards built on it"): not the clause
        if node.i != token.i and node.dep_ in ("ccomp", "advcl") and any(
                c.lower_ in _WH_WORDS for c in node.children):
            return False  # "nobody remembers why it was set up": the clause is the news
        node = node.head
    return True


def _has_own_subject(doc: Any, start: int, end: int) -> bool:
    """Whether tokens [start, end) hold a subject and the verb it is the subject of."""
    return any(t.dep_ in _SUBJECT_DEPS and start <= t.head.i < end
               and t.lower_ not in _DEMONSTRATIVES for t in doc[start:end])


def _imperative_verb(part: Any) -> Any | None:
    """The bare verb a part opens with, past "don't", "always", "never", "separately, never"
    ("Don't merge without ..."), or None when it opens otherwise."""
    lead = next((t for t in part if t.dep_ not in _IMPERATIVE_LEAD or t.tag_ == "VB"), None)
    return lead if lead is not None and lead.tag_ == "VB" else None


def _is_imperative(part: Any) -> bool:
    return _imperative_verb(part) is not None


def _is_report(part: Any) -> bool:
    """An agent-less report of what was done: "Restored the orders table last night"."""
    words = [t for t in part if t.dep_ not in ("punct", "intj")]
    return bool(words) and words[0].tag_ in ("VBD", "VBN") and not any(
        c.dep_ in _SUBJECT_DEPS or c.dep_ in ("aux", "auxpass") for c in words[0].children)


def _semicolon_starts(sentence: Any) -> set[int]:
    """Where a part after a semicolon starts an assertion: both sides have a subject and a
    verb of their own ("Staging was rebuilt on Tuesday; prod still runs the old image")."""
    doc = sentence.doc
    marks = [t.i for t in sentence if t.text == ";"]
    bounds = [sentence.start - 1, *marks, sentence.end]
    out = set()
    for k, mark in enumerate(marks):
        before, after = bounds[k] + 1, bounds[k + 2]
        left = (_has_own_subject(doc, before, mark) or _is_imperative(doc[before:mark])
                or _is_report(doc[before:mark]))
        right = _has_own_subject(doc, mark + 1, after) or _is_imperative(doc[mark + 1:after])
        if left and right and not _leans_back(list(doc[mark + 1:after])):
            out.add(mark + 1)
    return out


def _clauses(sentence: Any) -> list[_Clause]:
    heads, resumes = _own_clause_heads(sentence)
    starts = sorted({sentence.start} | {h.left_edge.i for h in heads[1:]} | resumes
                    | _semicolon_starts(sentence))
    out = []
    for a, b in zip(starts, [*starts[1:], sentence.end], strict=True):
        tokens = [t for t in sentence.doc[a:b]]
        while tokens and (tokens[0].dep_ in _EDGE_DEPS or tokens[0].lower_ in _FILLER_WORDS
                          and tokens[0].dep_ not in _SUBJECT_DEPS):
            tokens.pop(0)
        while tokens and tokens[-1].dep_ in ("punct", "cc"):
            tokens.pop()
        if tokens:
            head = next((h for h in heads if h in tokens), None) or _highest(tokens)
            if head.dep_ == "ccomp" and head.head not in tokens:
                heads.append(head)  # a semicolon part the parser hung under the next one
            out.append(_Clause(tuple(tokens), head))
    return out


def _highest(tokens: Sequence[Any]) -> Any:
    """The clause's top word: the first whose head lies outside it, a verb preferred."""
    inside = {t.i for t in tokens}
    tops = [t for t in tokens if t.head.i not in inside or t.head.i == t.i]
    return next((t for t in tops if t.pos_ in ("VERB", "AUX")), tops[0] if tops else tokens[0])


def _aux_lemmas(verb: Any) -> set[str]:
    return {c.lower_ if c.lower_ in ("'ll", "wo", "gon") else c.lemma_.lower()
            for c in verb.children if c.dep_ in ("aux", "auxpass", "neg")}


def _is_first_person(subject: Any | None, speaker_names: Iterable[str]) -> bool:
    if subject is None:
        return False
    words = {t.lower_ for t in subject.subtree}
    return bool(words & _FIRST_PERSON) or subject.text.lower() in speaker_names


def structural_kind(clause: _Clause, *, speakers: frozenset[str] = frozenset()) -> Kind | None:
    """The kind a clause's structure, tense and modality give, or None (nothing asserted)."""
    head = clause.head
    subject = _subject_of(head)
    auxes = _aux_lemmas(head)
    words = {t.lower_ for t in clause.tokens}
    lemmas = {t.lemma_.lower() for t in clause.tokens}
    negated = any(_negates(t) for t in clause.tokens)
    if "gon" in words or "gonna" in words:
        return Kind.DECISION  # "Gonna continue my edu": a plan, the speaker implied
    if head.pos_ not in ("VERB", "AUX") and not (head.pos_ == "ADJ" and subject is not None):
        return None  # a fragment: a greeting, a name, a noun phrase
    if subject is None:
        verb = _imperative_verb(clause.tokens)
        if verb is not None and verb.i == head.i:
            # an imperative: a rule when it says always/never/don't, else a request
            return Kind.RULE if negated or "always" in words else None
        return None
    if subject.lower_ in _DEMONSTRATIVES and not _has_content(clause, subject, speakers):
        return None  # "that's cool", "it was fun": an evaluation of something unnamed
    first = _is_first_person(subject, speakers)
    if auxes & _DEONTIC or ("have" in lemmas and "to" in words and head.lemma_ == "have"):
        return Kind.RULE
    if auxes & _POSSIBLE:
        return Kind.RESIDUAL
    future = bool(auxes & _FUTURE) or (head.lemma_ == "go" and head.tag_ == "VBG"
                                       and any(c.dep_ == "xcomp" for c in head.children))
    intends = first and head.lemma_ == "be" and any(
        c.dep_ == "xcomp" and c.pos_ == "VERB" for c in head.children)  # "I'm off to go ..."
    if future or intends or (first and head.lemma_ in _PLAN_VERBS):
        return Kind.DECISION if first else Kind.STATE
    if head.tag_ in ("VBD",) or (head.tag_ == "VBN" and _perfect_or_past(head)):
        return Kind.EVENT
    if first and head.lemma_ in _TASTE_VERBS:
        return Kind.PREFERENCE
    if first and not (words & _NOW_WORDS) and head.tag_ != "VBG" and not any(
            c.tag_ == "VBG" for c in head.children if c.dep_ in ("acomp", "xcomp")):
        return Kind.PREFERENCE  # background and identity: things that do not perish
    return Kind.STATE


def _perfect_or_past(participle: Any) -> bool:
    """"has shipped", "was merged", "had been paused": done. "is paused", "are being
    opened": a present state, told in the passive."""
    auxes = [c for c in participle.children if c.dep_ in ("aux", "auxpass")]
    return any(a.lemma_ == "have" or a.tag_ in ("VBD", "VBN") for a in auxes)


def _has_content(clause: _Clause, subject: Any, speakers: frozenset[str]) -> bool:
    return any(t.pos_ in ("NOUN", "PROPN", "NUM") and t.lower_ not in speakers
               and t.dep_ not in ("npadvmod", "intj") for t in clause.tokens if t is not subject)


def _negates(token: Any) -> bool:
    """A negator of the clause's proposition. A negator inside what the polarity guard's
    words read as no negation -- an idiom ("can't wait", "no doubt", "couldn't be happier"),
    a contrastive ", not just", a hyphenated compound ("never-ending") -- is not one, so the
    parse and the guard agree (:func:`factstore.writepath.polarity.set_aside_negators`)."""
    if token.dep_ != "neg" and (token.lower_ not in _NEGATORS or token.dep_ == "intj"):
        return False
    return not any(start <= token.idx < end for start, end in set_aside_negators(token.doc.text))


def _span(tokens: Sequence[Any]) -> tuple[int, int]:
    return tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)


def _phrase(tokens: Iterable[Any]) -> str | None:
    ordered = sorted(tokens, key=lambda t: t.i)
    if not ordered:
        return None
    text = ordered[0].doc.text[ordered[0].idx:ordered[-1].idx + len(ordered[-1].text)]
    return " ".join(text.split()).strip(" ,;:.!") or None


def _roles(clause: _Clause) -> tuple[str | None, str | None, str | None]:
    """(subject, predicate, object) as text spans of the clause."""
    head = clause.head
    inside = {t.i for t in clause.tokens}
    subject = _subject_of(head)
    subject_text = _phrase(t for t in subject.subtree if t.i in inside) if subject else None
    verb = [c for c in head.children if c.dep_ in ("aux", "auxpass", "neg", "prt")
            and c.i in inside] + [head]
    # "decided to keep", "wants to move": the open complement is part of the predicate
    complement = next((c for c in head.children if c.dep_ == "xcomp" and c.pos_ == "VERB"
                       and c.i in inside), None)
    if complement is not None:
        verb += [c for c in complement.children if c.dep_ in ("aux", "neg", "prt")] + [complement]
    predicate = _phrase(verb)
    last = max(t.i for t in verb)
    skip = {t.i for t in subject.subtree} if subject else set()
    rest = [t for t in clause.tokens if t.i > last and t.i not in skip]
    return subject_text, predicate, _phrase(rest)


def _topics(clause: _Clause, text: str, captured_by: str | None) -> tuple[str, ...]:
    found = list(entity_topics(text, captured_by))
    inside = {t.i for t in clause.tokens}
    for ent in clause.tokens[0].doc.ents:
        if ent.label_ in _TOPIC_ENTS and ent.start in inside and ent.root.dep_ != "npadvmod":
            found.append(" ".join(ent.text.split()).strip(" .,'"))
    seen: dict[str, str] = {}
    for topic in found:
        if topic and topic.lower() not in seen and topic.lower() not in _FIRST_PERSON:
            seen[topic.lower()] = topic
    return tuple(seen.values())


def _statement(quote: str, speaker: str | None) -> str:
    text = third_person(clause_label_free(quote), speaker).strip()
    text = text.rstrip(" ,;:").rstrip(".!?…").rstrip(" ,;:")
    first = text.split(maxsplit=1)[0] if text else ""
    if first.replace("'", "").isalpha() and first[0].islower():
        text = text[0].upper() + text[1:]
    return text + "."


def _without_vocative(tokens: list[Any], speakers: frozenset[str]) -> list[Any]:
    """Drop a trailing ", Caroline" (the person spoken to), and a leading "Caroline,"."""
    def vocative(token: Any) -> bool:
        return token.pos_ == "PROPN" and (token.lower_ in speakers or token.ent_type_ == "PERSON")
    if len(tokens) > 2 and tokens[-2].text == "," and vocative(tokens[-1]):
        tokens = tokens[:-2]
    if len(tokens) > 2 and tokens[1].text == "," and vocative(tokens[0]):
        tokens = tokens[2:]
    return tokens


class ParserExtractor:
    """Dependency-parse scribe: one typed fact per assertion, speaker-aware, in source order.

    Each fact's ``quote`` is the clause's verbatim span of the capture (never a speaker
    prefix), so it always anchors; its ``asserter`` is the chat turn's speaker.
    """

    name = "parser/v1"

    def __init__(self, nlp: Any | None = None) -> None:
        self._nlp = nlp

    def _pipeline(self) -> Any:
        if self._nlp is None:
            from factstore.nlp import parser

            self._nlp = parser()
        return self._nlp

    def extract(self, text: str, context: ExtractionContext | None = None) -> list[ExtractedFact]:
        """Return the facts every turn of ``text`` asserts, in order (possibly none)."""
        if not isinstance(text, str):
            raise InvalidInput(f"text must be a string, got {type(text).__name__}")
        captured_by = context.captured_by if context else None
        turns = split_turns(text)
        speakers = frozenset(t.speaker.lower() for t in turns if t.speaker)
        units = [(turn, sentence) for turn in turns for sentence in split_sentences(turn.text)]
        if not units:
            return []
        if self._nlp is None:
            # the shared pipeline, through the parse cache: the compiler reads the same
            # sentences next and finds them parsed (factstore/nlp.py)
            from factstore.nlp import parse_all

            docs = parse_all([s.text for _, s in units])
        else:
            docs = self._nlp.pipe(s.text for _, s in units)
        facts: list[ExtractedFact] = []
        pending_correction = False
        for (turn, sentence), doc in zip(units, docs, strict=True):
            if is_correction_marker(sentence.text):
                pending_correction = True
                continue
            if sentence.text.rstrip("\"')]” ").endswith("?"):
                continue  # a question asserts nothing
            offset = turn.start + sentence.start
            for parsed in doc.sents:
                for clause in _clauses(parsed):
                    fact = self._fact(clause, text, offset, turn, speakers, captured_by,
                                      pending_correction)
                    if fact is not None:
                        facts.append(fact)
                        pending_correction = False
        return facts

    def _fact(self, clause: _Clause, text: str, offset: int, turn: Turn,
              speakers: frozenset[str], captured_by: str | None,
              corrected: bool) -> ExtractedFact | None:
        tokens = _without_vocative(list(clause.tokens), speakers)
        if not tokens:
            return None
        clause = _Clause(tuple(tokens), clause.head if clause.head in tokens else _highest(tokens))
        start, end = _span(tokens)
        quote = text[offset + start: offset + end]
        kind = cue_kind(quote)
        structural = structural_kind(clause, speakers=speakers)
        if kind is None:
            kind = structural
        if kind is None or not any(c.isalnum() for c in quote):
            return None
        subject, predicate, obj = _roles(clause)
        speaker = turn.speaker
        fields = kind_fields(kind, quote)
        if kind is Kind.STATE and not fields.get("subject") and subject:
            fields["subject"] = third_person(subject, speaker)
        meta: dict[str, object] = {}
        when = [" ".join(e.text.split()) for e in tokens[0].doc.ents
                if e.label_ in _TIME_ENTS and tokens[0].i <= e.start <= tokens[-1].i]
        if when:
            meta["when"] = when
        # The entity layer's names and relations, read from this clause alone (its quote).
        words = tokens[0].doc[tokens[0].i:tokens[-1].i + 1]
        mentions = find_mentions(words)
        relations = find_relations(words, mentions, speaker)
        return ExtractedFact(
            statement=_statement(quote, speaker),
            kind=kind.value,
            quote=quote,
            topics=_topics(clause, quote, captured_by),
            supersedes=corrected or says_supersedes(quote),
            subject=fields.pop("subject", None) or (third_person(subject, speaker)
                                                    if subject else None),
            predicate=predicate,
            object=third_person(obj, speaker) if obj else None,
            asserter=speaker,
            negated=any(_negates(t) for t in tokens),
            meta=meta,
            mentions=tuple(typed_mentions(mentions, relations)),
            relations=tuple(relations),
            **fields,
        )

    def __repr__(self) -> str:
        return "ParserExtractor()"
