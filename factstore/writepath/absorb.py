"""Outcome absorption: an outcome-shaped EVENT folds into the EVENT it reports on.

"Checksum parity verified (214 == 214)" is not a standalone fact; it is how the preceding
migration EVENT went. The absorbed statement and quote are kept in meta.absorbed_outcomes,
so a wrong absorption degrades presentation, never truth or traceability.
"""

from __future__ import annotations

import dataclasses
import re

from factstore.extractors.base import ExtractedFact
from factstore.writepath.anchors import locate

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
    return 0 <= b[0] - a[1] <= _MAX_GAP or a[0] <= b[0] <= a[1]


def _fold(host: ExtractedFact, outcome: ExtractedFact, source: str) -> ExtractedFact:
    a, b = locate(host.quote, source), locate(outcome.quote, source)
    assert a is not None and b is not None
    # The merged quote is the verbatim source span covering both, so it stays anchored.
    quote = source[a[0]:max(a[1], b[1])]
    statement = host.statement.rstrip(". ") + "; " + _lower_first(outcome.statement)
    absorbed = list(host.meta.get("absorbed_outcomes", []))  # type: ignore[arg-type]
    absorbed.append({"statement": outcome.statement, "quote": outcome.quote})
    topics = tuple(dict.fromkeys(host.topics + outcome.topics))
    return dataclasses.replace(host, statement=statement, quote=quote, topics=topics,
                               meta={**host.meta, "absorbed_outcomes": absorbed})


def _lower_first(text: str) -> str:
    text = text.strip()
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text
