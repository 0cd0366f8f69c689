"""The offline compiler (``compiler/parser-v1``): the default, no model, no network.

It reads the capture as the parser scribe does (turns, sentences, the dependency parse, one
reused parse per sentence) and applies the rules of :mod:`factstore.compiler.reading` to
each sentence. In a chat, an answer that leans on the question before it ("what's
svc-payments on?" -- "Postgres 13") is read as the statement the two make together
(:mod:`factstore.compiler.dialogue`). Names carry from sentence to sentence, so "he" and
"it" are read as the one person or system named just before (never guessed between two).
Deterministic: the same text said at the same time compiles the same.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from factstore.compiler.dialogue import answer_parts, fuse
from factstore.compiler.drafts import Compilation, Draft, Refusal
from factstore.compiler.reading import (
    LEAD,
    Mentions,
    ellipsis_holder,
    mask_identifiers,
    read_sentence,
)
from factstore.extractors.rules import Sentence, split_sentences
from factstore.extractors.turns import split_turns

__all__ = ["ParserCompiler"]


def _opens_with_a_misread_name(doc: object) -> bool:
    """The sentence opens with a masked identifier the parser took for a verb."""
    first = doc[0] if len(doc) else None  # type: ignore[arg-type]
    return first is not None and "_" in first.text and first.pos_ in ("VERB", "AUX")


def _parts(sentence: Sentence) -> list[Sentence]:
    """A sentence cut at its semicolons: "My shoe size changed to 41; the podiatrist
    measured me" is two statements, and the small parser hangs the first under the second."""
    pieces, start = [], 0
    for index, char in enumerate(sentence.text):
        if char == ";":
            pieces.append((start, index))
            start = index + 1
    pieces.append((start, len(sentence.text)))
    out = []
    for a, b in pieces:
        chunk = sentence.text[a:b]
        lead = len(chunk) - len(chunk.lstrip())
        chunk = _untagged(chunk.strip())
        if chunk:
            out.append(Sentence(sentence.start + a + lead, sentence.start + a + lead + len(chunk),
                                chunk))
    return out


#: A question tagged onto a statement after a comma ("..., didn't you see it?", "..., right?").
_TAG_QUESTION = re.compile(
    r",\s*(?:didn'?t|did|don'?t|do|does|doesn'?t|isn'?t|is|aren'?t|are|wasn'?t|was|"
    r"haven'?t|have|hasn'?t|has|can'?t|can|won'?t|will|wouldn'?t|would|right|no|eh|"
    r"remember|you know)\b[^,]*\?[\s\"')\]”]*$", re.I)
#: First words of a sentence that itself asks ("Did you move ..., or ...?").
_ASKS = re.compile(r"^(?:who|what|when|where|which|why|how|whose|whom|do|does|did|is|are|was|"
                   r"were|have|has|had|can|could|will|would|should|shall|may|might|must)\b",
                   re.I)


def _untagged(chunk: str) -> str:
    """A statement with a question tagged on, without the tag: "he moved to the Payments
    team last month, didn't you see the announcement?" is read as its statement; a
    sentence that itself asks stays a question."""
    tag = _TAG_QUESTION.search(chunk)
    if tag is None or _ASKS.match(chunk.lstrip("\"'(“ ")):
        return chunk
    return chunk[:tag.start()].rstrip()


def _handed_over(text: str, drafts: Sequence[Draft], doc: object, sentence: Sentence,
                 offset: int) -> list[Draft]:
    """"Chiara no longer owns the budget; Kenji does.": the part before ended the value of
    the one it opens with, and this part names who holds it now."""
    holder = ellipsis_holder(doc, sentence.text)
    if holder is None:
        return []
    out = []
    for draft in drafts:
        if draft.value is None and len(draft.ends) == 1 and text.startswith(draft.ends[0]):
            out.append(dataclasses.replace(
                draft, value=holder, ends=(), cue="does now", quote=sentence.text,
                span=(offset, offset + len(sentence.text))))
    return out


class ParserCompiler:
    """Parse-based compiler: property statements of plain text into timeline drafts."""

    name = "compiler/parser-v1"

    def compile(self, text: str, said: datetime, existing: Sequence[object] = ()
                ) -> Compilation:
        """The drafts and refusals of ``text``, its times read against ``said``.
        ``existing`` (the store's current facts of the subjects) is for model compilers;
        the rules decide from the text alone, so any arrival order compiles the same."""
        from factstore.nlp import parse_all

        turns = split_turns(text)
        units = [(turn, part) for turn in turns for sentence in split_sentences(turn.text)
                 for part in _parts(sentence)]
        if not units:
            return Compilation(self.name)
        docs = parse_all([mask_identifiers(s.text) for _, s in units])
        mentions = Mentions(frozenset(t.speaker.lower() for t in turns if t.speaker))
        drafts: list[Draft] = []
        refusals: list[Refusal] = []
        previous: tuple[object, str, object] | None = None  # (turn, text, doc) of a question
        last_turn = None
        before: tuple[object, str, list[Draft]] | None = None  # the unit read just before
        for (turn, sentence), doc in zip(units, docs, strict=True):
            offset = turn.start + sentence.start
            if turn is not last_turn and previous is not None and turn.speaker and \
                    previous[0].speaker and previous[0].speaker != turn.speaker:
                drafts += self._answer(previous, sentence.text, doc, offset, turn.speaker,
                                       said, mentions)
            text_read, lead = sentence.text, 0
            if _opens_with_a_misread_name(doc):
                # "svc-notify runs on ...": read again as "The svc-notify runs on ..."
                text_read, lead = LEAD + sentence.text, len(LEAD)
                doc = parse_all([mask_identifiers(text_read)])[0]
            made, refused = read_sentence(doc, text_read, offset, turn.speaker, said,
                                          mentions, lead=lead)
            if not made and before is not None and before[0] is turn:
                made = _handed_over(before[1], before[2], doc, sentence, offset)
            drafts += made
            refusals += refused
            before = (turn, sentence.text, made)
            if turn is not last_turn:
                last_turn = turn
            if sentence.text.rstrip("\"')]” ").endswith("?"):
                previous = (turn, sentence.text, doc)
            elif previous is not None and previous[0] is not turn:
                previous = None
        return Compilation(self.name, tuple(drafts), tuple(refusals))

    def _answer(self, question: tuple, answer: str, answer_doc: object, offset: int,
                speaker: str, said: datetime, mentions: Mentions) -> list[Draft]:
        """The drafts of a question and its answer read together, quoted from the answer."""
        from factstore.nlp import parse_all

        parts = answer_parts(answer)
        if parts is None:
            return []
        _, fragment = parts
        start = answer.find(fragment) if fragment else -1
        # a full clause ("Kofi leads Atlas") is read on its own; a name the parser calls
        # a verb ("Vim") is not one: only a finite verb with its subject makes a clause
        clause = start >= 0 and any(
            t.tag_ in ("VBZ", "VBP", "VBD", "MD") and start <= t.idx < start + len(fragment)
            and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
            for t in answer_doc)  # type: ignore[attr-defined]
        statement = fuse(question[2], question[1], answer, clause)
        if statement is None:
            return []
        doc = parse_all([mask_identifiers(statement)])[0]
        made, _ = read_sentence(doc, statement, 0, speaker, said, mentions)
        span = (offset, offset + len(answer))
        return [dataclasses.replace(d, quote=answer, span=span) for d in made]
