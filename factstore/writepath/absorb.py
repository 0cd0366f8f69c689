"""Outcome absorption: an outcome-shaped EVENT folds into the EVENT it reports on.

"Checksum parity verified (214 == 214)" is not a standalone fact; it is how the preceding
migration EVENT went. The absorbed statement and quote are kept in meta.absorbed_outcomes,
so a wrong absorption degrades presentation, never truth or traceability.

In a chat, facts never cross turns, with one exception: a turn that answers the one before
with an outcome ("alice: ran the migration" / "bob: checksums verified, 214 == 214") folds
into that turn's EVENT. The host keeps its own asserter; the absorbed outcome is recorded
with its speaker, so who reported what is never lost.

An outcome that opens with a separator or a new time ("Separately, the load test scored
0.97", "On Tuesday the suite passed 12 of 12") reports on something else and stays apart.
"""

from __future__ import annotations

import dataclasses
import re

from factstore.extractors.base import ExtractedFact
from factstore.extractors.turns import speaker_prefix
from factstore.writepath.anchors import locate
from factstore.writepath.granularity import opens_apart

_OUTCOME = re.compile(
    r"\b(verified|confirmed|matched|passed|failed|succeeded|scored|found (?:zero|no|\d+)|"
    r"parity|checksums?|\d+\s*(?:of|/)\s*\d+|\d+\s*==\s*\d+|green|all tests)\b",
    re.IGNORECASE,
)
# Gap allowed between the reporting EVENT's quote and its outcome's quote in the source:
# adjacent sentences, not a paragraph later.
_MAX_GAP = 3


def is_outcome_shaped(fact: ExtractedFact) -> bool:
    """An EVENT that reports a result (counts, checks, scores) rather than an action."""
    return fact.kind.strip().upper() == "EVENT" and bool(_OUTCOME.search(fact.statement + " " + fact.quote))


def absorb_outcomes(facts: list[ExtractedFact], source: str) -> list[ExtractedFact]:
    """Fold each outcome EVENT into the EVENT immediately before it (adjacent in the source)."""
    out: list[ExtractedFact] = []
    for fact in facts:
        host = out[-1] if out else None
        if (host is not None and host.kind.strip().upper() == "EVENT" and is_outcome_shaped(fact)
                and _adjacent(host.quote, fact.quote, source)):
            out[-1] = _fold(host, fact, source)
        else:
            out.append(fact)
    return out


def _adjacent(first: str, second: str, source: str) -> bool:
    a, b = locate(first, source), locate(second, source)
    if a is None or b is None:
        return False
    if b[0] >= a[1] and opens_apart(source[a[1]:b[1]].lstrip(" .;,!\n\r\t")):
        return False  # "Separately, ...", "On Tuesday ...": a new assertion, not this outcome
    if 0 <= b[0] - a[1] <= _MAX_GAP or a[0] <= b[0] <= a[1]:
        return True
    return b[0] > a[1] and _turn_boundary(source, a[1], b[0])


def _turn_boundary(source: str, end: int, start: int) -> bool:
    """Between ``end`` and ``start`` lie only the end of one line and the next turn's
    speaker prefix."""
    line_start = source.rfind("\n", 0, start) + 1
    if line_start == 0 or line_start - 1 < end or source[end:line_start - 1].strip(" \r"):
        return False
    line_end = source.find("\n", start)
    prefix = speaker_prefix(source[line_start:line_end if line_end >= 0 else len(source)])
    return prefix is not None and line_start + prefix[1] == start


def _fold(host: ExtractedFact, outcome: ExtractedFact, source: str) -> ExtractedFact:
    a, b = locate(host.quote, source), locate(outcome.quote, source)
    assert a is not None and b is not None
    # The merged quote is the verbatim source span covering both, so it stays anchored; an
    # answer from the next turn keeps its own quote in absorbed_outcomes instead, so the host's
    # quote never spans a speaker prefix.
    quote = host.quote if _turn_boundary(source, a[1], b[0]) else source[a[0]:max(a[1], b[1])]
    statement = host.statement.rstrip(". ") + "; " + _lower_first(outcome.statement)
    absorbed = list(host.meta.get("absorbed_outcomes", []))  # type: ignore[arg-type]
    entry: dict[str, object] = {"statement": outcome.statement, "quote": outcome.quote}
    if outcome.asserter is not None:
        entry["asserter"] = outcome.asserter
    absorbed.append(entry)
    topics = tuple(dict.fromkeys(host.topics + outcome.topics))
    return dataclasses.replace(host, statement=statement, quote=quote, topics=topics,
                               meta={**host.meta, "absorbed_outcomes": absorbed})


def _lower_first(text: str) -> str:
    text = text.strip()
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text
