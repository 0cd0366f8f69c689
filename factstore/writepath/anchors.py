"""Anchor hygiene: a fact whose quote does not occur in its source is not written.

The comparison forgives only what transport mangles: runs of whitespace, and runs of
backslashes (an escaped Windows path arrives as C:\\\\ops). Nothing else is forgiven.
"""

from __future__ import annotations

import functools
import re

_WHITESPACE = re.compile(r"\s+")
_BACKSLASHES = re.compile(r"\\+")


def normalise_anchor(text: str) -> str:
    """Collapse whitespace runs to one space and backslash runs to one backslash."""
    return _WHITESPACE.sub(" ", _BACKSLASHES.sub(r"\\", text)).strip()


@functools.lru_cache(maxsize=8)
def _normalised_source(source: str) -> str:
    # One capture is checked once per fact: normalising a 1 MB source per fact made large
    # captures quadratic; the cache keeps it once per capture.
    return normalise_anchor(source)


def quote_is_anchored(quote: str, source: str) -> bool:
    """True when the (normalised) quote is a non-empty substring of the (normalised) source."""
    needle = normalise_anchor(quote)
    return bool(needle) and (needle in source or needle in _normalised_source(source))


def anchor_reason(quote: str, source: str) -> str | None:
    """None when anchored, else the reason the fact is dropped."""
    if not normalise_anchor(quote):
        return "anchor: the fact has no evidence quote"
    if not quote_is_anchored(quote, source):
        shown = quote if len(quote) <= 80 else quote[:77] + "..."
        return f"anchor: quote {shown!r} does not occur in the source text"
    return None


def locate(quote: str, source: str) -> tuple[int, int] | None:
    """Character span of the quote in the source (exact match first, then normalised)."""
    start = source.find(quote)
    if start >= 0:
        return start, start + len(quote)
    # Map normalised positions back to the source by scanning with a tolerant pattern.
    parts = [re.escape(p) for p in normalise_anchor(quote).split(" ") if p]
    if not parts:
        return None
    pattern = r"\s+".join(p.replace(r"\\", r"\\+") for p in parts)
    match = re.search(pattern, source)
    return (match.start(), match.end()) if match else None
