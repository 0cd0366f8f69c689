"""Index-page gate: a link-dense capture is a table of contents, not testimony.

Its assertions are second-hand restatements of the pages it links to, so it routes wholesale
to the documents layer instead of minting mis-attributed facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WIKI_LINK = re.compile(r"\[\[[^\[\]\n]+\]\]")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class GateDecision:
    is_index_page: bool
    links: int
    link_share: float
    reason: str | None


def index_page_gate(text: str, *, min_links: int, min_share: float) -> GateDecision:
    """Is this capture an index page? Needs both enough links and enough of its words in links."""
    links = _WIKI_LINK.findall(text)
    words = len(_WORD.findall(text)) or 1
    link_words = sum(len(_WORD.findall(link)) for link in links)
    share = min(1.0, link_words / words)
    if len(links) >= min_links and share >= min_share:
        return GateDecision(True, len(links), share,
                            f"index-page: {len(links)} wiki-links make up {share:.0%} of the words")
    return GateDecision(False, len(links), share, None)
