"""Write ``evals/cassettes/relations.jsonl``: a synthetic "model" that reads relations.

NOT A MODEL RECORDING. No language model can run where this project is built, so this
script builds, deterministically, the output a relation-reading model *could* give for each
sentence of ``evals/data/relations.jsonl``, from the sentence's gold triples plus a few
documented, deterministic errors. It exists so that the relation-extraction eval can be run
with ``--replay evals/cassettes/relations.jsonl`` and show the write path's validation
(``factstore.entities.drafts.entity_fields``) clearing malformed model output. The figures a
replay yields measure that validation and this script's error schedule; they say nothing
about how well any real model reads relations. Record a real model with
``--record-cassette`` for that.

What the synthetic model answers, row by row (``n`` is the row's 1-based line number):

- **a question** (the text ends with "?"): no fact, as the extraction prompt asks.
- **any other row**: one fact whose quote is the turn's text without the speaker prefix
  ("Ana: ") and the final stop, verbatim; ``asserter`` the speaker; ``mentions`` the gold
  triples' names other than the speaker, in text order, each typed by its predicate role
  (``works_at`` object an Organization, ``lives_in`` object a Place, ...); ``relations`` the
  gold triples. Then its errors:

  1. **dropped triple** -- every 7th row (``n % 7 == 0``) with two or more gold triples
     loses its last one (a missed relation: recall falls, nothing to clear);
  2. **predicate confusion** -- every 5th row (``n % 5 == 0``) swaps ``works_at`` and
     ``member_of`` in its triples (a wrong relation the store keeps: precision falls);
  3. **a name not written verbatim** -- every 9th row (``n % 9 == 0``) with a triple writes
     its first triple's object in upper case, in the mention and the relation ("ARC LABS"
     for "Arc Labs"): not a substring of the quote, so prepare clears the mention and every
     relation naming it (a later triple of the same name is cleared with it);
  4. **a predicate outside the vocabulary** -- every 11th row (``n % 11 == 0``) with a
     triple adds the first triple again with the predicate ``employed_by``, which prepare
     clears.

Statements are plain ("Relations stated: Ana works_at Globex."); kinds are STATE. The
cassette format is ReplayExtractor's (:mod:`factstore.extractors.replay`): keys sorted,
``key = cassette_key(MODEL, "", text)`` (no prompt, so the default prompt-blind replay finds
it), a fixed ``recorded_at`` so that re-running the script reproduces the file byte for
byte.

Run from the repository root: ``python evals/cassettes/make_relations.py`` (``--check``
only verifies that the committed cassette is what the script writes).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from evals.cassettes import synthetic
from factstore.extractors.base import ExtractedFact
from factstore.extractors.replay import cassette_key
from factstore.extractors.turns import split_turns

HERE = Path(__file__).resolve().parent
DATASET = HERE.parent / "data" / "relations.jsonl"
CASSETTE = HERE / "relations.jsonl"
#: the cassette's model name; ReplayExtractor files a replay run as "replay/<MODEL>"
MODEL = "relations-synthetic-v1"
RECORDED_AT = synthetic.RECORDED_AT
#: the error schedule (see the module docstring)
DROP_EVERY, CONFUSE_EVERY, NOT_VERBATIM_EVERY, OFF_VOCABULARY_EVERY = 7, 5, 9, 11
CONFUSED = {"works_at": "member_of", "member_of": "works_at"}
OFF_VOCABULARY = "employed_by"
# The type each end of a predicate implies, (subject, object); None where it varies.
_ROLES = {
    "works_at": ("Person", "Organization"), "reports_to": ("Person", "Person"),
    "manages": ("Person", "Person"), "member_of": ("Person", "Organization"),
    "leads": ("Person", None), "located_in": (None, "Place"), "lives_in": ("Person", "Place"),
    "born_in": ("Person", "Place"), "studied_at": ("Person", "Organization"),
    "founded": ("Person", "Organization"), "acquired": ("Organization", "Organization"),
    "married_to": ("Person", "Person"), "sibling_of": ("Person", "Person"),
    "friend_of": ("Person", "Person"), "moved_to": ("Person", "Place"),
    "joined": ("Person", "Organization"), "left": ("Person", "Organization"),
    "partner_of": ("Organization", "Organization"),
    "competitor_of": ("Organization", "Organization"),
}


def _quote(text: str) -> tuple[str, str | None]:
    """The turn's own text (no speaker prefix, no final stop) and its speaker."""
    turn = split_turns(text)[0]
    return turn.text.strip().rstrip(".!"), turn.speaker


def _mentions(triples: Sequence[Sequence[str]], quote: str,
              speaker: str | None) -> list[list[str | None]]:
    typed: dict[str, str | None] = {}
    for s, p, o in triples:
        for name, kind in zip((s, o), _ROLES.get(p, (None, None)), strict=True):
            if name != speaker and (typed.get(name) is None):
                typed[name] = kind
    order = sorted(typed, key=lambda n: (quote.find(n) if n in quote else len(quote), n))
    return [[name, typed[name]] for name in order]


def answer(n: int, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The synthetic model's facts for the ``n``-th row (1-based)."""
    text = row["text"]
    if text.rstrip().endswith("?"):
        return []
    quote, speaker = _quote(text)
    triples = [[t["subject"], t["predicate"], t["object"]] for t in row["triples"]]
    if n % DROP_EVERY == 0 and len(triples) >= 2:
        triples = triples[:-1]
    if n % CONFUSE_EVERY == 0:
        triples = [[s, CONFUSED.get(p, p), o] for s, p, o in triples]
    mentions = _mentions(triples, quote, speaker)
    if n % NOT_VERBATIM_EVERY == 0 and triples:
        written = triples[0][2]
        triples[0] = [triples[0][0], triples[0][1], written.upper()]
        mentions = [[m[0].upper() if m[0] == written else m[0], m[1]] for m in mentions]
    if n % OFF_VOCABULARY_EVERY == 0 and triples:
        triples.append([triples[0][0], OFF_VOCABULARY, triples[0][2]])
    said = "; ".join(f"{s} {p} {o}" for s, p, o in triples)
    statement = f"Relations stated: {said}." if said else f"{quote}."
    fact = ExtractedFact(statement=statement, kind="STATE", quote=quote, asserter=speaker,
                         mentions=tuple(tuple(m) for m in mentions),
                         relations=tuple(tuple(t) for t in triples))
    # Through JSON, as RecordingExtractor stores facts: tuples become lists.
    return [json.loads(json.dumps(dataclasses.asdict(fact), sort_keys=True,
                                  ensure_ascii=False))]


def recordings(rows: Sequence[dict[str, Any]]) -> Iterator[str]:
    """One cassette line per dataset row, in dataset order."""
    for n, row in enumerate(rows, start=1):
        yield json.dumps({"facts": answer(n, row), "key": cassette_key(MODEL, "", row["text"]),
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
