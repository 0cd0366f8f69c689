"""Topic hygiene: provenance is not aboutness, and noise is kept but not promoted.

Scribe and model names (and the capture's own captured_by) are dropped, topics are deduped
case-insensitively, and every dropped topic is recorded with its reason, never lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_DIGIT_OR_DOTTED = re.compile(r"\d|\w\.\w")


@dataclass(frozen=True)
class TopicHygiene:
    kept: tuple[str, ...]
    #: (topic, reason) for each dropped topic
    dropped: tuple[tuple[str, str], ...]


def clean_topics(topics: Iterable[str], *, captured_by: str | None,
                 scribe_names: Iterable[str]) -> TopicHygiene:
    """Drop scribe names and duplicates; keep the first spelling of each topic."""
    scribes = {s.lower() for s in scribe_names}
    scribe_self = (captured_by or "").strip().lower()
    kept: list[str] = []
    seen: set[str] = set()
    dropped: list[tuple[str, str]] = []
    for raw in topics:
        topic = " ".join(str(raw).split())
        key = topic.lower()
        if not topic:
            dropped.append((str(raw), "empty topic"))
            continue
        if scribe_self and (key == scribe_self or key in _name_parts(scribe_self)):
            dropped.append((topic, "captured_by: the scribe wrote it, the capture is not about it"))
        elif key in scribes or _name_parts(key) & scribes:
            dropped.append((topic, "scribe/model name: provenance, not aboutness"))
        elif key in seen:
            dropped.append((topic, "duplicate (case-insensitive)"))
        else:
            seen.add(key)
            kept.append(topic)
    return TopicHygiene(tuple(kept), tuple(dropped))


def is_entity_shaped(topic: str) -> bool:
    """An uppercase letter, a digit or a dot path: worth a person's look as a candidate root."""
    return any(c.isupper() for c in topic) or bool(_DIGIT_OR_DOTTED.search(topic))


def _name_parts(name: str) -> set[str]:
    # 'llama3.1:8b' and 'gpt-4o' are model names by their family part.
    family = re.split(r"[:/\s]", name)[0]
    base = re.sub(r"[-_]?[\d.]+[a-z]*$", "", family)
    return {p for p in (family, base) if p}
