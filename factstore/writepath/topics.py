"""Topic hygiene: provenance is not aboutness, and noise is kept but not promoted.

Scribe and model names (and the capture's own captured_by), and any versioned model name
("qwen2.5-7b-instruct", "gpt-4o-mini"), are dropped, topics are deduped
case-insensitively, and every dropped topic is recorded with its reason, never lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_DIGIT_OR_DOTTED = re.compile(r"\d|\w\.\w")
#: A topic the redaction stage found a secret in (write path): dropped, only its kind kept.
REDACTED_TOPIC = "⟦redacted⟧:"
#: Model families whose versioned names are scribes, never topics ("qwen2.5-7b-instruct",
#: "claude-3-5-sonnet", "gpt-4o-mini", "mistral-large-2407", "gemini-1.5-pro").
MODEL_FAMILIES: tuple[str, ...] = (
    "gpt", "chatgpt", "claude", "llama", "codellama", "mistral", "mixtral", "codestral",
    "qwen", "qwq", "gemma", "gemini", "phi", "deepseek", "falcon", "vicuna", "yi", "olmo",
    "granite", "nemotron", "starcoder", "command-r", "aya", "dbrx", "grok", "palm", "bard",
    "ernie", "glm", "chatglm", "baichuan", "internlm", "orca", "zephyr", "openchat",
    "tinyllama", "smollm", "nomic-embed", "mxbai", "bge", "e5", "minilm", "o1", "o3", "o4",
)
_MODEL_NAME = re.compile(
    r"^(?:" + "|".join(re.escape(f) for f in sorted(MODEL_FAMILIES, key=len, reverse=True))
    + r")(?:[\d\-_.:][\w.:-]*)?$")
# An Ollama-style size tag marks a model whatever its family: "foo:7b", "bar:70b-instruct".
_SIZE_TAG = re.compile(r"^[a-z][\w.-]*:\d+(?:\.\d+)?(?:x\d+)?b\b")


def is_model_name(topic: str) -> bool:
    """A versioned model name: a known family with a version, or a name with a size tag."""
    key = topic.strip().lower()
    if " " in key or not any(c.isdigit() for c in key):
        return False
    return bool(_MODEL_NAME.match(key) or _SIZE_TAG.match(key))


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
        if topic.startswith(REDACTED_TOPIC):
            # the topic itself is never recorded: only that a secret was removed
            dropped.append(("[REDACTED]", "a secret (" + topic[len(REDACTED_TOPIC):]
                            + "): redacted, never a topic"))
            continue
        if scribe_self and (key == scribe_self or key in _name_parts(scribe_self)):
            dropped.append((topic, "captured_by: the scribe wrote it, the capture is not about it"))
        elif key in scribes or _name_parts(key) & scribes:
            dropped.append((topic, "scribe/model name: provenance, not aboutness"))
        elif is_model_name(topic):
            dropped.append((topic, "model name: the scribe's kind of name is provenance, not "
                                   "aboutness"))
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
