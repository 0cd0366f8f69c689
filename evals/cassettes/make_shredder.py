"""Write ``evals/cassettes/shredder.jsonl``: a synthetic "model" that shreds sentences.

NOT A MODEL RECORDING. No language model can run where this project is built, so this
script *reproduces the shape* of seed 000 §5's sentence-shredding defect deterministically,
to give the shred eval "model outputs" to measure the granularity fix on
(``factstore eval run shred --replay evals/cassettes/shredder.jsonl``). The figures it
yields say how the fold copes with this defect shape; they say nothing about how often a
real model shreds. Record a real model with ``--record-cassette`` for that.

What the synthetic shredder answers, for each line of ``evals/data/shred.jsonl``:

- **a single-assertion capture** (``s…``): the one fact split into fragments, the way a
  shredding model splits it. Each sentence is cut at ``,``, ``;``, `` and ``, `` but ``,
  `` or ``, `` as well as `` and around parentheses, so an inventory gives one fragment per
  item and a compound one per clause. Every fragment has the capture's gold kind and a
  verbatim quote (its own span of the sentence). Its statement repeats what the fragment
  leans on, as a shredding model writes it: an item gets the sentence's opening ("The
  staging cluster currently runs" + "Redis 7"), a subject-less verb phrase gets the
  sentence's subject ("I" + "can't stand light themes"), a clause with its own subject
  stands alone. STATE fragments carry the sentence's subject (a model fills ``subject``
  for the assertion, not per fragment). A sentence with nothing to cut is one fact.
- **a control** (``c…``): one fact per assertion, in the gold kinds: one per sentence, or,
  for a one-sentence control, the sentence cut at its clause joint (``;``, ``, and``,
  ``, but``, `` but ``). A leading "separately"/"also" is left out of the quote.

Statements are rewritten to the third person ("I prefer" -> "The user prefers") with a
small table, as the extraction prompt asks; topics are left empty (the shred eval counts
facts and does not read topics). The cassette format is ReplayExtractor's
(:mod:`factstore.extractors.replay`): keys sorted, ``key = cassette_key(MODEL, "", text)``
(no prompt, so the default prompt-blind replay finds it), a fixed ``recorded_at`` so that
re-running the script reproduces the file byte for byte. It refuses to write a cassette in
which a single-assertion capture's fragments are not verbatim or a control's facts do not
match its gold count.

Run from the repository root: ``python evals/cassettes/make_shredder.py`` (``--check``
only verifies that the committed cassette is what the script writes).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from evals.cassettes import synthetic
from factstore.extractors.base import ExtractedFact
from factstore.extractors.replay import cassette_key
from factstore.extractors.rules import split_sentences

HERE = Path(__file__).resolve().parent
DATASET = HERE.parent / "data" / "shred.jsonl"
CASSETTE = HERE / "shredder.jsonl"
#: the cassette's model name; ReplayExtractor files a replay run as "replay/shredder-v1"
MODEL = "shredder-v1"
RECORDED_AT = synthetic.RECORDED_AT

# Where a shredding model cuts a sentence into fragments.
_FRAGMENT_CUT = re.compile(
    r"\s*[,;]\s+(?:(?:and|but|or)\s+)?"      # ", " "; " ", and " "; but "
    r"|\s+(?:and|but|or|as well as)\s+"      # " and " " but " " or " " as well as "
    r"|\s*\(\s*|\s*\)\s*",                   # around a parenthetical
    re.IGNORECASE,
)
# Where a one-sentence control joins its two assertions, and the filler after the joint.
_CONTROL_JOINT = re.compile(r";\s+|,\s+(?:and|but)\s+|\s+but\s+", re.IGNORECASE)
_JOINT_FILLER = re.compile(r"(?:separately|also)\b\s*,?\s*", re.IGNORECASE)
_EDGE = " \t\n.,;:()"
# An opening phrase this short and without a verb is an adverbial, not an item.
_INTRO_WORDS = 3
# A verb-less first fragment this short, not opening with "always"/"never" (an imperative
# whose verb the table does not know), is the first of a list of subjects.
_SUBJECT_LIST_WORDS = 5

# Finite verbs and auxiliaries the fragment parser knows; with any '-ed' word not right after
# a determiner, they mark where a fragment's subject ends.
_VERBS = frozenset((
    "is", "are", "was", "were", "am", "be", "has", "have", "had", "does", "do", "did", "will",
    "would", "can", "could", "should", "must", "may", "might", "can't", "won't", "doesn't",
    "don't", "isn't", "aren't", "wasn't", "didn't", "hasn't", "shouldn't", "mustn't",
    "runs", "run", "holds", "bundles", "sends", "builds", "serves", "covers", "sit", "sits",
    "lives", "live", "stays", "goes", "gets", "needs", "takes", "drops", "ignores", "leaks",
    "lag", "lags", "skips", "counts", "deletes", "negotiates", "stores", "points", "came",
    "took", "ran", "found", "rebuilt", "got", "ship", "ships", "prefer", "prefers", "like",
    "likes", "love", "loves", "hate", "hates", "dislike", "dislikes", "want", "wants",
    "accept", "accepts", "stand", "get", "happens", "matters", "start", "starts", "need",
))
_CONTRACTED = re.compile(r"^(?:(?:i|we|you|it|that|there|they)(?:'d|'m|'ll|'re|'ve|'s)|let's)$")
# Auxiliaries whose main verb follows ("must never include"): an item after them takes both.
_MODALS = frozenset(("must", "can", "could", "should", "will", "would", "may", "might",
                     "can't", "won't", "don't", "doesn't", "didn't", "mustn't", "shouldn't"))
_ADVERBS = frozenset((
    "always", "never", "currently", "still", "just", "really", "also", "only", "now", "much",
    "strongly", "generally", "usually", "ever", "all", "not", "no", "longer",
))
_DETERMINERS = frozenset(("a", "an", "the", "its", "their", "our", "my", "this", "that",
                          "every", "each", "no", "all"))
_NOT_PAST = frozenset(("red", "need", "speed", "bed", "seed", "shed", "feed", "embed",
                       "hundred", "bred"))

# Third person: pronouns rewritten word by word; the verb after "I"/"we" agrees with
# "the user"/"the team" (adverbs in between are skipped: "I really prefer").
_PRONOUNS = {
    "i'd": "the user would", "i'm": "the user is", "i've": "the user has",
    "i'll": "the user will", "we'll": "the team will", "we're": "the team is",
    "we've": "the team has", "we'd": "the team would", "let's": "the team will",
    "my": "the user's", "our": "the team's", "me": "the user",
}
_SUBJECT_PRONOUNS = {"i": "the user", "we": "the team"}
_IRREGULAR = {"have": "has", "do": "does", "are": "is", "were": "was", "don't": "doesn't",
              "am": "is"}
# Verbs that take no -s in the third person: modals and past tenses.
_INVARIANT = frozenset((
    "can", "could", "will", "would", "should", "must", "may", "might", "shall", "can't",
    "won't", "did", "didn't", "had", "was", "chose", "ran", "took", "found", "got", "went",
    "made", "built", "wrote", "kept", "left", "rebuilt", "bought", "sent", "met", "put",
    "set", "read", "said", "told", "rather",
))
_TOKEN = re.compile(r"^([(\"']*)(.*?)([.,;:!?)\"']*)$")
@dataclasses.dataclass(frozen=True)
class _Span:
    """A verbatim span of the capture: ``text == source[start:end]``."""

    start: int
    end: int
    text: str


def _strip_span(source: str, start: int, end: int) -> _Span | None:
    """The span without edge punctuation and whitespace; None when no word is left."""
    while start < end and source[start] in _EDGE:
        start += 1
    while end > start and source[end - 1] in _EDGE:
        end -= 1
    text = source[start:end]
    return _Span(start, end, text) if any(c.isalnum() for c in text) else None


def _cut(source: str, start: int, end: int, pattern: re.Pattern[str]) -> list[_Span]:
    """``source[start:end]`` cut at every match of ``pattern``, each piece stripped."""
    pieces: list[_Span] = []
    cursor = start
    for match in pattern.finditer(source, start, end):
        if (piece := _strip_span(source, cursor, match.start())) is not None:
            pieces.append(piece)
        cursor = match.end()
    if (piece := _strip_span(source, cursor, end)) is not None:
        pieces.append(piece)
    return pieces


def _words(text: str) -> list[str]:
    return text.replace("’", "'").split()


def _bare(word: str) -> str:
    return word.lower().strip(".,;:()\"'")


def _is_verb(words: Sequence[str], index: int) -> bool:
    word = _bare(words[index])
    if word in _VERBS or _CONTRACTED.match(word):
        return True
    after_determiner = index > 0 and _bare(words[index - 1]) in _DETERMINERS
    return (len(word) > 3 and word.endswith("ed") and word not in _NOT_PAST
            and not after_determiner)


def _first_verb(words: Sequence[str]) -> int | None:
    return next((i for i in range(len(words)) if _is_verb(words, i)), None)


def _subject_end(words: Sequence[str], verb: int) -> int:
    """Where the subject stops: before the verb and any adverbs right in front of it."""
    end = verb
    while end > 0 and _bare(words[end - 1]) in _ADVERBS:
        end -= 1
    return end


def _opening(words: Sequence[str], verb: int) -> list[str]:
    """The words up to the verb group's end: the verb, the adverbs and participles after it,
    and a modal's main verb ("Log lines must never include")."""
    end = verb + 1
    while end < len(words) and (_bare(words[end]) in _ADVERBS
                                or (_bare(words[end]).endswith("ed")
                                    and _bare(words[end]) not in _NOT_PAST)):
        end += 1
    if _bare(words[verb]) in _MODALS and end < len(words):
        end += 1
    return list(words[:end])


def _agree(verb: str) -> str:
    """A present-tense verb in the third person singular; anything else unchanged."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if (low in _INVARIANT or low.endswith("ed") or not low.isalpha()
            or (low.endswith("s") and not low.endswith("ss"))):
        return verb
    return verb + ("es" if low.endswith(("ss", "sh", "ch", "x", "o")) else "s")


def third_person(text: str) -> str:
    """A statement: first person rewritten, capitalised (unless it opens with an
    identifier such as ``sample-svc``), ending in one period."""
    words = text.split(" ")
    agreeing = False
    for index, token in enumerate(words):
        lead, core, trail = _TOKEN.match(token).groups()  # type: ignore[union-attr]
        low = core.replace("’", "'").lower()
        if low in _SUBJECT_PRONOUNS:
            words[index] = lead + _SUBJECT_PRONOUNS[low] + trail
            agreeing = not trail
        elif low in _PRONOUNS:
            words[index] = lead + _PRONOUNS[low] + trail
            agreeing = False
        elif agreeing:
            if low in _ADVERBS or low.endswith("ly"):
                continue
            words[index] = lead + _agree(core) + trail
            agreeing = False
    statement = " ".join(words).strip().rstrip(".;:,")
    first = statement.split(" ", 1)[0]
    if first.replace("'", "").isalpha():
        statement = statement[:1].upper() + statement[1:]
    return statement + "."


def _has_own_subject(words: Sequence[str], verb: int) -> bool:
    """A clause of its own: words before its verb, or a pronoun fused with it ("we'll")."""
    return _subject_end(words, verb) > 0 or bool(_CONTRACTED.match(_bare(words[verb])))


def _fragment_statements(fragments: Sequence[_Span]) -> list[str]:
    """What a shredding model says for each fragment of one sentence (see the module doc)."""
    first = _words(fragments[0].text)
    verb = _first_verb(first)
    predicate: list[str] = []
    if verb is not None:
        subject = first[:_subject_end(first, verb)]
        opening = _opening(first, verb)
    else:
        later = [w for f in fragments[1:] if _first_verb(w := _words(f.text)) is not None]
        if later and len(first) <= _SUBJECT_LIST_WORDS and _bare(first[0]) not in _ADVERBS:
            # A list of subjects ("The EU region as well as the US region is serving ..."):
            # each subject gets the predicate.
            predicate = later[0][_first_verb(later[0]) or 0:]
            opening = subject = first
        else:
            # No verb at all ("Currently failing on main: the lint step"): items lean on
            # the label.
            head = fragments[0].text.split(": ", 1)
            opening = _words(head[0] + ":") if len(head) == 2 else first
            subject = opening
    statements = [third_person(" ".join([*first, *predicate]))]
    for fragment in fragments[1:]:
        words = _words(fragment.text)
        own = _first_verb(words)
        if own is not None and _has_own_subject(words, own):
            statements.append(third_person(fragment.text))                # a clause of its own
        elif own is not None:
            statements.append(third_person(" ".join([*subject, *words])))  # its verb, our subject
        elif predicate:
            statements.append(third_person(" ".join([*words, *predicate])))  # another subject
        else:
            statements.append(third_person(" ".join([*opening, *words])))  # an item
    return statements


def _state_subject(sentence: str) -> str | None:
    """The STATE's subject as a model names it: the words before the verb, minus time
    phrases and articles."""
    words = _words(re.sub(r"^(?:right now|at present|at the moment|currently|as of [\w ]+?"
                          r"(?= the ))\s*,?\s*", "", sentence, flags=re.IGNORECASE))
    verb = _first_verb(words)
    if verb is None:
        return None
    subject = [w for w in words[:_subject_end(words, verb)]]
    while subject and _bare(subject[0]) in ("the", "a", "an", "our", "my"):
        subject.pop(0)
    return " ".join(subject).strip(",") or None


def _fact(statement: str, kind: str, quote: str, subject: str | None) -> dict[str, Any]:
    fact = ExtractedFact(statement=statement, kind=kind, quote=quote,
                         subject=subject if kind == "STATE" else None)
    # Through JSON, as RecordingExtractor stores facts: tuples become lists.
    return json.loads(json.dumps(dataclasses.asdict(fact), sort_keys=True, ensure_ascii=False))


def _fragments(text: str, start: int, end: int) -> list[_Span]:
    """One sentence cut where a shredding model cuts it. A short verb-less opening phrase
    ("From now on", "As a rule") stays with the clause it introduces: a model shreds items
    and clauses, not adverbials."""
    fragments = _cut(text, start, end, _FRAGMENT_CUT)
    while (len(fragments) > 1 and len(_words(fragments[0].text)) <= _INTRO_WORDS
           and _first_verb(_words(fragments[0].text)) is None):
        merged = text[fragments[0].start:fragments[1].end]
        fragments[:2] = [_Span(fragments[0].start, fragments[1].end, merged)]
    return fragments


def shred_single(text: str, kind: str) -> list[dict[str, Any]]:
    """The fragments a shredding model emits for a one-assertion capture."""
    facts: list[dict[str, Any]] = []
    for sentence in split_sentences(text):
        fragments = _fragments(text, sentence.start, sentence.end)
        subject = _state_subject(sentence.text)
        for fragment, statement in zip(fragments, _fragment_statements(fragments), strict=True):
            if text[fragment.start:fragment.end] != fragment.text:
                raise ValueError(f"fragment {fragment.text!r} is not verbatim in {text!r}")
            facts.append(_fact(statement, kind, fragment.text, subject))
    return facts


def split_control(text: str, kinds: Sequence[str]) -> list[dict[str, Any]]:
    """One fact per assertion of a control, in its gold kinds."""
    sentences = split_sentences(text)
    spans = [_Span(s.start, s.end, s.text) for s in sentences]
    if len(spans) == 1 and len(kinds) == 2:
        joint = _CONTROL_JOINT.search(text, spans[0].start, spans[0].end)
        if joint is None:
            raise ValueError(f"no clause joint in the one-sentence control {text!r}")
        filler = _JOINT_FILLER.match(text, joint.end())
        second = filler.end() if filler else joint.end()
        spans = [s for s in (_strip_span(text, spans[0].start, joint.start()),
                             _Span(second, spans[0].end, text[second:spans[0].end]))
                 if s is not None]
    if len(spans) != len(kinds):
        raise ValueError(f"{len(spans)} assertion spans for {len(kinds)} gold kinds in {text!r}")
    return [_fact(third_person(span.text), kind, span.text, _state_subject(span.text))
            for span, kind in zip(spans, kinds, strict=True)]


def recordings(rows: Sequence[dict[str, Any]]) -> Iterator[str]:
    """One cassette line per dataset row, in dataset order."""
    for row in rows:
        if row["id"].startswith("s"):
            facts = shred_single(row["text"], row["kind"])
        else:
            facts = split_control(row["text"], row["kinds"])
        yield json.dumps({"facts": facts, "key": cassette_key(MODEL, "", row["text"]),
                          "model": MODEL, "recorded_at": RECORDED_AT, "text": row["text"]},
                         sort_keys=True, ensure_ascii=False)


def build(dataset: Path = DATASET) -> str:
    """The cassette's whole text for ``dataset``."""
    return synthetic.build(recordings, dataset)


def main(argv: Sequence[str] | None = None) -> int:
    return synthetic.main(recordings, doc=__doc__ or "", dataset=DATASET, cassette=CASSETTE,
                          script=Path(__file__).name, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
