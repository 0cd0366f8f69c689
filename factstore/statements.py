"""Statement normalisation: what makes two statements 'the same fact, restated exactly'."""

from __future__ import annotations

import re
import unicodedata

# Comparison and arithmetic signs, currency and degree signs carry meaning ("== 214" is not
# "!= 214", "5 €" is not "5 $", "-18" is not "18"): keep them.
_NON_WORD = re.compile(r"[^\w\s\\/:.=<>≤≥≠+%$€£¥₹°-]+")
# Unicode minus signs and dashes before a digit are the ASCII minus.
_MINUS = re.compile(r"[\u2212\u2012\u2013\ufe63\uff0d](?=\d)")
_SPACE = re.compile(r"\s+")


def normalise_statement(statement: str) -> str:
    """Case-, whitespace-, quote- and trailing-punctuation-insensitive form of a statement.

    Exact normalised equality is a pure re-capture (no conflict); anything else that is merely
    similar goes through the conflict pipeline.
    """
    text = _MINUS.sub("-", unicodedata.normalize("NFKC", statement)).lower()
    text = text.replace("\u2019", "'").replace("!=", "≠")
    text = _NON_WORD.sub(" ", text)
    text = _SPACE.sub(" ", text).strip()
    return text.rstrip(" .")
