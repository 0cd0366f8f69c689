"""When two timeline values are the same value (seed 002 §2, rules 2 and 4).

Values and units are stored and shown exactly as written; resolution compares them through
:func:`value_key`, so a restatement that only writes the value differently corroborates
instead of opening a dispute:

- case and whitespace do not matter: "Blue" is "blue", "New  York" is "New York";
- a unit written inside the value counts as the unit: "41 EU" with no unit is "41" in EU
  (a number, a space, then a short unit word of letters, %, $, €, £ or °);
- a whole value that is a number word is that number: "three" is "3"; numbers compare by
  value, so "41.0" is "41" and "1,000" is "1000";
- the unit compares case-insensitively: "eu" is "EU".

Anything else differs: "41" and "42", "Berlin" and "Berlin, Germany".
"""

from __future__ import annotations

import functools
import re
import unicodedata
from decimal import Decimal, InvalidOperation

from factstore.differences import NUMBER_WORDS

__all__ = ["value_key"]

_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_INLINE_UNIT = re.compile(
    r"(?P<number>[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*"
    r"(?P<unit>%|[$€£°]|°?[^\W\d_][^\W\d_./-]{0,15})")


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def _number(text: str) -> str | None:
    """The canonical form of a whole-value number ("41.0" -> "41"), else None."""
    if text in NUMBER_WORDS:
        return str(NUMBER_WORDS[text])
    if not _NUMBER.fullmatch(text):
        return None
    try:
        value = Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None
    return format(value.normalize(), "f")


@functools.lru_cache(maxsize=65536)
def value_key(value: str, unit: str | None) -> tuple[str, str]:
    """The form two values are compared in: (value, unit), folded as the module says.

    Cached: resolution and rendering compare every fact of a key many times."""
    folded, folded_unit = _fold(value), _fold(unit or "")
    if not folded_unit:
        inline = _INLINE_UNIT.fullmatch(folded)
        if inline:
            folded, folded_unit = inline.group("number"), inline.group("unit")
    number = _number(folded)
    return (number if number is not None else folded, folded_unit)
