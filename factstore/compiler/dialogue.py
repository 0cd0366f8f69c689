"""Answers that lean on the question before them: "what's svc-payments on?" -- "Postgres 13".

In a chat most values are said as answers, and an answer is rarely a sentence: "Postgres
13", "yep, Valencia", "Rafael". This module writes the question and its answer as the one
statement they make together, in the answerer's voice ("svc-payments is on Postgres 13",
"I am still in Valencia", "Bilal's manager is Rafael"), for the compiler's rules to read.
Only a yes or a fragment answers: "no", "nah" or a full clause (which the rules read on its
own) fuse nothing. The values still come verbatim from the answer (or the question).

Pure: a parsed question and the answer's text in, the statement (or None) out.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["answer_parts", "fuse"]

_YES = re.compile(r"^\s*(?:yes|yep|yeah|yup|ya|yea|correct|right|exactly|indeed|sure|"
                  r"absolutely|definitely|of course|that's right|mhm)\b[\s,.!]*", re.I)
_NO = re.compile(r"^\s*(?:no|nope|nah|not|never|neither)\b", re.I)
_FILLER = re.compile(r"^\s*(?:(?:oh|ah|um|uh|hmm|well|so|ok|okay|haha|lol|honestly|"
                     r"just|still|currently|now)\b[\s,.!]*)+", re.I)
_TAG = re.compile(r"^(?P<s>.+?),?\s+(?:right|correct|yeah|yes|no|isn't it|aren't they|"
                  r"don't you|doesn't it|huh|innit)\s*\?\s*$", re.I)
_LEAD = re.compile(r"^\s*(?:(?:so|ok|okay|hey|quick q|quick question|btw|and|also|oh)\b"
                   r"[\s,:!]*)+", re.I)
_WH = frozenset(("who", "what", "which", "where", "how", "whose"))
_AUX = frozenset(("is", "'s", "are", "'re", "was", "were", "do", "does", "did", "has",
                  "have", "had"))
_BE = frozenset(("is", "'s", "are", "'re", "was", "were"))
_DO = frozenset(("do", "does", "did"))
_PREPOSITIONS = frozenset(("in", "on", "at", "to", "for", "from", "with", "under", "by",
                           "into", "onto", "of"))
_SWAP = {"you": "I", "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm",
         "you've": "I've", "u": "I", "ur": "my"}
_VERBISH = frozenset(("VERB", "AUX"))


def answer_parts(answer: str) -> tuple[bool, str] | None:
    """(said yes, the fragment that answers) of an answer's first sentence; None for a no.
    The fragment is the answer up to its first comma, dash or sentence end."""
    if _NO.match(answer):
        return None
    yes = bool(_YES.match(answer))
    rest = _YES.sub("", answer, count=1) if yes else answer
    rest = _FILLER.sub("", rest, count=1)
    fragment = re.split(r"[,;.!?]|\s[-–—]\s|\s\(", rest, maxsplit=1)[0].strip()
    return yes, fragment


def _texts(tokens: list[Any], original: str) -> list[str]:
    """The tokens as the question wrote them (it was parsed with identifiers masked)."""
    return [original[t.idx:t.idx + len(t.text)] for t in tokens]


def _swap(words: list[str]) -> str:
    out = []
    for word in words:
        low = word.lower()
        out.append(_SWAP.get(low, word))
    text = " ".join(out)
    return text.replace(" 's", "'s").replace(" n't", "n't")


def _tokens(doc: Any) -> list[Any]:
    tokens = [t for t in doc if not (t.is_punct and t.text in "?!.")]
    # drop a lead-in ("quick q,", "so", "ok"): the question proper starts after it
    while tokens and (tokens[0].lower_ in ("so", "ok", "okay", "hey", "and", "also", "oh",
                                           "btw", "quick", "q", ",", ":") or
                      tokens[0].is_punct):
        tokens = tokens[1:]
    return tokens


def fuse(question: Any, question_text: str, answer: str,
         fragment_is_clause: bool) -> str | None:
    """The statement a question (its parse and text) and an answer make together, in the
    answerer's voice; None when they make none the rules could read."""
    parts = answer_parts(answer)
    if parts is None:
        return None
    yes, fragment = parts
    text = _LEAD.sub("", question_text.strip())
    tag = _TAG.match(text)
    if tag is not None:
        return _swap(tag["s"].split()) + "." if yes else None
    tokens = _tokens(question)
    if not tokens:
        return None
    first = tokens[0].lower_
    original = question_text
    if first in _AUX and yes:
        return _yes_no(tokens, original)
    if first not in _WH or not fragment or fragment_is_clause or len(fragment) > 80:
        return None
    return _wh(tokens, fragment, original)


def _yes_no(tokens: list[Any], original: str) -> str | None:
    """'are you still in Valencia' + yes -> 'I are still in Valencia' read as 'I am ...'."""
    aux, rest = tokens[0], tokens[1:]
    subject_end = next((i for i, t in enumerate(rest) if t.head.i == aux.i and
                        t.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    if subject_end is None:
        subject = next((t for t in rest if t.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None:
            return None
        subject_end = rest.index(subject)
    head = rest[subject_end]
    span = [t for t in rest if t.i <= head.i and t.i >= head.left_edge.i]
    after = [t for t in rest if t.i > head.i]
    if aux.lower_ in _DO:
        return _swap([*_texts(span, original), *_texts(after, original)]) + "."
    be = {"are": "is", "is": "is", "'s": "is", "was": "was", "were": "was"}.get(aux.lower_,
                                                                               aux.text)
    subject = _swap(_texts(span, original))
    if subject == "I":
        be = {"is": "am", "was": "was"}.get(be, be)
    return f"{subject} {be} {_swap(_texts(after, original))}".strip() + "."


def _wh_phrase(tokens: list[Any]) -> tuple[list[Any], Any | None]:
    """The wh-phrase ('which editor', 'how many replicas', 'who') and its noun, if any."""
    first = tokens[0]
    if first.lower_ in ("which", "what", "whose"):
        # "which cluster is", "which accounts does": the words up to the auxiliary
        aux_at = next((i for i, t in enumerate(tokens[1:4], start=1) if t.lower_ in _AUX),
                      None)
        if aux_at is not None and aux_at > 1:
            return tokens[:aux_at], tokens[aux_at - 1]
    if first.lower_ == "how" and len(tokens) > 1 and tokens[1].lower_ in ("many", "much"):
        if len(tokens) > 2 and tokens[2].lower_ not in _AUX:
            return tokens[:3], tokens[2]
        return tokens[:2], None
    if first.lower_ == "how" and len(tokens) > 1 and tokens[1].pos_ == "ADJ":
        return tokens[:2], None
    return [first], None


def _subject_split(rest: list[Any]) -> tuple[list[Any], list[Any]] | None:
    """(the subject's tokens, the tokens after it) of the words after an auxiliary."""
    subject = next((t for t in rest if t.dep_ in ("nsubj", "nsubjpass", "expl")
                    and t.lower_ not in _WH), None)
    if subject is None:
        return None
    inside = [t for t in rest if subject.left_edge.i <= t.i <= subject.i]
    after = [t for t in rest if t.i > subject.i]
    return (inside, after) if inside else None


def _wh(tokens: list[Any], fragment: str, original: str) -> str | None:
    phrase, noun = _wh_phrase(tokens)
    rest = tokens[len(phrase):]
    if not rest:
        return None
    words = _texts(rest, original)
    noun_text = original[noun.idx:noun.idx + len(noun.text)].lower() if noun is not None \
        else None
    lead = phrase[0].lower_
    if lead == "how" and noun_text and re.fullmatch(r"[\d.,]+", fragment):
        fragment = f"{fragment} {noun_text}"
    if lead == "how" and len(phrase) == 2 and phrase[1].lower_ in ("big", "large") and \
            rest[0].lower_ in _BE:
        # "how big is the mobile team" + "9 people": the team has 9 people
        return f"{_swap(words[1:])} has {fragment}."
    if rest[0].lower_ not in _AUX:
        if rest[0].pos_ in _VERBISH | {"PART"} or rest[0].tag_.startswith("VB"):
            # the wh-phrase is the subject: "who leads Project Ember" + "Quentin"
            return f"{fragment} {_swap(words)}.".replace(" 's ", " is ")
        return None
    split = _subject_split(rest[1:])
    if rest[0].lower_ in _BE:
        if split is None:
            body = rest[1:]
            if not body:
                return None
            if body[-1].lower_ in _PREPOSITIONS and len(body) > 2 and \
                    body[-2].tag_ == "VBN":
                split = (body[:-2], body[-2:])  # "what's svc-ingest written in"
            elif body[-1].lower_ in _PREPOSITIONS and len(body) > 1:
                split = (body[:-1], body[-1:])  # "which team is Gael on"
            elif noun_text:
                split = (body, [])  # "what level is Emeka"
            else:
                # "who's Bilal's manager", "what is the partner API rate limit"
                return f"{_swap(words[1:])} is {fragment}."
        inside, after = split
        subject = _swap(_texts(inside, original))
        tail = _swap(_texts(after, original))
        if lead == "where":
            return f"{subject} is {tail} in {fragment}".replace("  ", " ").strip() + "."
        if after and after[-1].lower_ in _PREPOSITIONS:
            if noun_text and after[-1].lower_ == "in" and len(after) == 1:
                # "which cluster is svc-checkout in": its cluster
                return f"{subject}'s {noun_text} is {fragment}."
            return f"{subject} is {tail} {fragment}."
        if noun_text:
            return f"{subject}'s {noun_text} is {fragment}."
        return f"{subject} is {fragment}."
    if rest[0].lower_ in _DO and split is not None:
        inside, after = split
        subject = _swap(_texts(inside, original))
        if lead == "where":
            return f"{subject} {_swap(_texts(after, original))} in {fragment}."
        if after and after[-1].lower_ in _PREPOSITIONS:
            return f"{subject} {_swap(_texts(after, original))} {fragment}."
        verb_at = next((i for i, t in enumerate(after) if t.pos_ in _VERBISH
                        or t.tag_.startswith("VB")), None)
        if verb_at is None:
            return None
        verb = _swap(_texts(after[:verb_at + 1], original))
        tail = _swap(_texts(after[verb_at + 1:], original))
        return f"{subject} {verb} {fragment} {tail}".strip() + "."
    return None
