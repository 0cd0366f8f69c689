"""Topic hygiene: provenance is not aboutness, and noise is kept but not promoted.

Scribe and model names (and the capture's own captured_by), and any versioned model name
("qwen2.5-7b-instruct", "gpt-4o-mini"), are dropped, topics are deduped
case-insensitively, and every dropped topic is recorded with its reason, never lost.

A topic must also be entity-shaped: a thing a person would file facts under. Values are
not topics, so version fragments ("v2", "3.8"), durations ("2s", "90min"), weekdays and
months, units ("ms", "GB"), percentiles ("p99") and bare numbers are dropped
(:func:`value_shape`), and so is a chat speaker's name (the asserter, not the aboutness).
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


_UNITS = ("ms|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|"
          "days|w|wk|week|weeks|mo|month|months|y|yr|year|years|ns|us|µs|b|kb|mb|gb|tb|pb|kib|"
          "mib|gib|tib|k|x|rps|qps|rpm|req/s|ops/s|%|pct|percent|px|em|pt|hz|khz|mhz|ghz|"
          "kbps|mbps|gbps|c|f|°c|°f|kg|g|lb|lbs|km|mi|cm|mm|in|ft")
#: Shapes of values, never topics, with the reason recorded when one is dropped.
VALUE_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^p\d{1,2}(?:\.\d+)?$|^p999?$"), "a percentile: a value, not a topic"),
    (re.compile(r"^v?\d+(?:\.\d+)+[a-z]?\d*$|^v\d+[a-z]?\d*$|^r\d+$|^rc\d*$"),
     "a version fragment: a value, not a topic"),
    (re.compile(rf"^[~<>≈+-]?\d+(?:[.,]\d+)?\s*(?:{_UNITS})$"),
     "a quantity with a unit (a duration, size or rate): a value, not a topic"),
    (re.compile(r"^(?:ms|sec|secs|mins?|hrs?|kb|mb|gb|tb|pb|kib|mib|gib|tib|rps|qps|rpm|"
                r"pct|percent|px|khz|mhz|ghz|kbps|mbps|gbps|°c|°f|kg|lbs?|km)$"),
     "a unit: a value's measure, not a topic"),
    (re.compile(r"^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?$|^(?:monday|"
                r"tuesday|wednesday|thursday|friday|saturday|sunday|weekend|weekday)s?$"),
     "a weekday: a time, not a topic"),
    (re.compile(r"^(?:january|february|march|april|may|june|july|august|september|october|"
                r"november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$"),
     "a month: a time, not a topic"),
    (re.compile(r"^(?:today|tomorrow|yesterday|tonight|now|q[1-4])$"),
     "a time: not a topic"),
    (re.compile(r"^[#~<>≈+-]?\d+(?:[.,:/-]\d+)*(?:st|nd|rd|th|am|pm)?$"),
     "a number, date or time: a value, not a topic"),
)


def value_shape(topic: str) -> str | None:
    """Why ``topic`` is a value rather than a topic, or None when it may be one."""
    key = " ".join(topic.split()).lower()
    for pattern, reason in VALUE_SHAPES:
        if pattern.match(key):
            return reason
    return None


@dataclass(frozen=True)
class TopicHygiene:
    kept: tuple[str, ...]
    #: (topic, reason) for each dropped topic
    dropped: tuple[tuple[str, str], ...]


def clean_topics(topics: Iterable[str], *, captured_by: str | None,
                 scribe_names: Iterable[str], speakers: Iterable[str] = ()) -> TopicHygiene:
    """Drop scribe names, speakers, value-shaped topics and duplicates; keep the first
    spelling of each topic."""
    scribes = {s.lower() for s in scribe_names}
    voices = {" ".join(s.split()).lower() for s in speakers if s}
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
        elif key in voices:
            dropped.append((topic, "speaker name: the chat's asserter, not what it is about"))
        elif (reason := value_shape(topic)) is not None:
            dropped.append((topic, reason))
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
