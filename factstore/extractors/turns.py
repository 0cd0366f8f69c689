"""Chats are conversations: split a capture in chat form into its speakers' turns.

A capture is in chat form when its lines open with a speaker prefix (``alice: ...``,
``Dr. Chen: ...``, ``[10:02] bob: ...``), the shape LoCoMo and QMSum transcripts take when
written out one turn per line. Every extractor splits turns first, so that

- a fact never spans two turns (one speaker's line is never merged with another's);
- the turn's speaker is the fact's asserter and "I" resolves to that speaker;
- a speaker prefix is never read as a subject or proposed as a tag.

A line without a prefix continues the turn above it. One prefixed line is a chat only when
its prefix cannot be a label ("Decision: we ship Friday" is a labelled assertion, not a
speaker called Decision); two or more prefixed lines with at least one speaker that is not a
label make a chat. Text that is not in chat form is one turn with no speaker, spanning it
all, so callers need no special case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Turn", "is_chat", "speaker_prefix", "split_turns"]

# A speaker: one to three name-like words (letters, digits, dots, hyphens, apostrophes), an
# optional timestamp or bracketed tag before it, then a colon and a space. URLs ("https:")
# and times ("10:30") never match: the colon must be followed by whitespace.
_PREFIX = re.compile(
    r"[ \t]*(?:\[[^\]\n]{1,40}\][ \t]*|\(?\d{1,2}:\d{2}(?::\d{2})?\)?[ \t]+)?"
    r"(?P<speaker>[A-Za-z@][\w.'@-]{0,30}(?:[ \t][A-Za-z][\w.'-]{0,30}){0,2})"
    r"[ \t]*:[ \t]+(?=\S)"
)
#: Prefixes that label an assertion rather than name a speaker (lowercase).
LABELS = frozenset((
    "decision", "decisions", "rule", "rules", "rule of thumb", "note", "notes", "update",
    "fyi", "reminder", "correction", "scope", "status", "reason", "context", "summary",
    "todo", "to do", "action", "action item", "action items", "question", "answer", "q", "a",
    "warning", "caution", "important", "tip", "example", "e.g", "i.e", "ps", "p.s", "re",
    "subject", "title", "owner", "owners", "date", "when", "where", "who", "why", "what",
    "how", "result", "results", "outcome", "cause", "root cause", "impact", "fix", "risk",
    "risks", "next steps", "next", "step", "goal", "goals", "problem", "solution", "source",
    "link", "links", "ref", "see", "tags", "tag", "topic", "topics", "agenda", "attendees",
    "preference", "state", "event", "reference", "residual", "error", "output", "input",
    "usage", "default", "defaults", "deadline", "eta", "tl;dr", "tldr", "bottom line",
    "background", "description", "details", "policy", "principle", "lesson", "lessons",
    "observation", "finding", "findings", "conclusion", "verdict", "category", "type",
    "kind", "priority", "severity", "version", "release", "env", "environment", "host",
    "service", "team", "project", "repo", "file", "path", "url", "command", "cmd",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today",
    "tomorrow", "yesterday", "morning", "afternoon", "evening", "tonight", "later", "now",
    "also", "so", "but", "and", "then", "edit", "edited", "ok", "okay", "yes", "no",
    "known issue", "known issues", "open question", "heads up", "fun fact", "caveat", "bug",
    "incident", "postmortem", "retro", "retrospective", "plan", "milestone", "blocker",
))


@dataclass(frozen=True)
class Turn:
    """One speaker's turn: ``text`` is ``capture[start:end]`` (without the prefix)."""

    speaker: str | None
    text: str
    start: int
    end: int


def speaker_prefix(line: str) -> tuple[str, int] | None:
    """The speaker a line opens with and where its text starts, or None (no prefix, or a
    label such as 'Decision:')."""
    match = _PREFIX.match(line)
    if match is None:
        return None
    speaker = match.group("speaker").strip()
    if speaker.lower().rstrip(".") in LABELS:
        return None
    words = speaker.split()
    # A name of several words is capitalised throughout ("Dr. Chen", "Mary Ann"); "Known
    # issue:" and "Long story short:" label what follows.
    if len(words) > 1 and not all(w[0].isupper() for w in words):
        return None
    return speaker, match.end()


def _prefixed_lines(text: str) -> list[tuple[int, int, tuple[str, int] | None]]:
    """(line start, line end, prefix) for every line."""
    out = []
    position = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        out.append((position, position + len(body), speaker_prefix(body)))
        position += len(line)
    return out


def is_chat(text: str) -> bool:
    """True when the text is in chat form (see the module doc)."""
    if not isinstance(text, str):
        return False
    lines = [entry for entry in _prefixed_lines(text) if text[entry[0]:entry[1]].strip()]
    prefixed = [entry for entry in lines if entry[2] is not None]
    if not prefixed:
        return False
    if len(prefixed) >= 2:
        return True
    # One prefixed line: a chat only if it is the whole capture and the speaker is a plain
    # name (one or two words), so "Long story short: ..." stays prose.
    speaker = prefixed[0][2][0]  # type: ignore[index]
    return len(lines) == 1 and len(speaker.split()) <= 2 and prefixed[0] is lines[0]


def split_turns(text: str) -> tuple[Turn, ...]:
    """The capture's turns in order; prose is one speakerless turn spanning the text."""
    if not isinstance(text, str) or not text.strip():
        return ()
    if not is_chat(text):
        return (Turn(None, text, 0, len(text)),)
    turns: list[Turn] = []
    speaker: str | None = None
    start = end = 0
    opened = False
    for line_start, line_end, prefix in _prefixed_lines(text):
        if prefix is not None:
            if opened and text[start:end].strip():
                turns.append(_trimmed(speaker, text, start, end))
            speaker, offset = prefix
            start, end, opened = line_start + offset, line_end, True
        elif text[line_start:line_end].strip():
            if not opened:  # prose before the first speaker: a turn of its own
                speaker, start, opened = None, line_start, True
            end = line_end
    if opened and text[start:end].strip():
        turns.append(_trimmed(speaker, text, start, end))
    return tuple(turns)


def _trimmed(speaker: str | None, text: str, start: int, end: int) -> Turn:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Turn(speaker, text[start:end], start, end)
