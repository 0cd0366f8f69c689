"""A deterministic rule-based scribe: cue phrases per kind, one fact per assertion.

This is the offline default extractor. It follows the seed's precision rule literally
(seed 000 §4): a sentence without a cue phrase yields nothing, and every per-kind field is
filled only from words the sentence actually contains. It never infers a scope, owner, risk
or value. The same text always yields the same facts: no randomness, no network.

A sentence normally yields at most one fact. It yields one per clause only when its clauses
make separate assertions: each carries its own cue, and they differ in kind, name different
subjects, or are marked "separately" (:func:`split_clauses`). Same-kind pieces of one
assertion are never split here; folding any a model splits is the write path's job.

The cue lists are module-level data so they can be read, reviewed and extended on their own.
All cue patterns match a *folded* view of a sentence: whitespace collapsed, lowercased,
curly quotes straightened.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass

from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext
from factstore.extractors.turns import split_turns
from factstore.kinds import Kind

__all__ = ["KIND_PRECEDENCE", "RuleExtractor", "Sentence", "classify", "split_clauses",
           "split_sentences"]


# --------------------------------------------------------------------------------------------
# Sentence splitting
# --------------------------------------------------------------------------------------------

_TERMINATORS = ".!?…"
# Closing quotes/brackets that belong to the sentence they end ('he said "stop."').
_CLOSERS = "\"'”’)]"
# A dot after one of these does not end a sentence. Initialisms (e.g., i.e., U.S.) are
# caught by _INITIALISM instead of being listed.
_ABBREVIATIONS: tuple[str, ...] = (
    "vs.", "cf.", "approx.", "incl.", "esp.", "viz.", "mr.", "mrs.", "ms.", "dr.", "prof.",
    "st.", "jr.", "sr.", "fig.", "eq.", "ca.", "resp.",
)
_INITIALISM = re.compile(r"^(?:[a-z]\.){2,}$")
# Spans whose dots never end a sentence: balanced quotes and code spans on one line. A single
# quote counts only when it is not an apostrophe (can't, users').
_PROTECTED = re.compile(
    r'"[^"\n]*"|“[^”\n]*”|`[^`\n]*`'
    r"|(?<!\w)'[^'\n]+?'(?!\w)|(?<!\w)‘[^’\n]+?’(?!\w)"
)
# A line that opens a list item or a heading starts a new sentence even without a dot.
_BLOCK_START = re.compile(r"[ \t]*(?:[-*•+][ \t]|\d+[.)][ \t]|#)")
_BLANK_LINE = re.compile(r"[ \t]*(?:\n|$)")
_LEADING_MARKER = re.compile(r"(?:[-*•+]|\d+[.)]|#+)[ \t]+")
_SPACES = re.compile(r"\s*")
#: How far back a period looks for the token it ends (abbreviations are short).
_TOKEN_WINDOW = 64


@dataclass(frozen=True)
class Sentence:
    """One sentence of a source text; ``text == source[start:end]``, no outer whitespace."""

    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[Sentence]:
    """Split text into sentences with their character spans.

    A sentence ends at ``.``, ``!``, ``?`` or ``…`` followed by whitespace (so dots inside
    paths, URLs, versions and decimals never split), except after an abbreviation or inside
    quotes; at a blank line; and before a list item or heading line. Semicolons and colons
    never end a sentence: one sentence with a semicolon is one assertion.
    """
    # Every helper below reads around a position without copying the text: slicing the
    # rest (or the prefix) per terminator made a large capture quadratic.
    protected = [m.span() for m in _PROTECTED.finditer(text)]
    cuts = [0]
    i = 0
    while i < len(text):
        if text[i] in _TERMINATORS:
            run_end = _terminator_run_end(text, i)
            if _ends_sentence(text, i, run_end, protected):
                cuts.append(run_end)
            i = run_end
            continue
        if text[i] == "\n" and _newline_ends_sentence(text, i):
            cuts.append(i)
        i += 1
    cuts.append(len(text))
    sentences = (_trimmed(text, a, b) for a, b in zip(cuts, cuts[1:], strict=False))
    return [s for s in sentences if s is not None]


def _terminator_run_end(text: str, i: int) -> int:
    """Index just past '...', '?!' and any closing quotes/brackets that follow."""
    j = i
    while j < len(text) and text[j] in _TERMINATORS:
        j += 1
    while j < len(text) and text[j] in _CLOSERS:
        j += 1
    return j


def _ends_sentence(text: str, i: int, run_end: int, protected: list[tuple[int, int]]) -> bool:
    # Followed by a non-space: a path, URL, version, decimal or 'e.g' mid-token.
    if run_end < len(text) and not text[run_end].isspace():
        return False
    # the spans are sorted and disjoint: only the last one starting before i can hold it
    index = bisect.bisect_left(protected, (i, -1)) - 1
    if index >= 0 and protected[index][0] < i < protected[index][1]:
        # Inside quotes only a terminator that closes the quote, with a capital (or the end)
        # after it, ends the outer sentence: 'he said "stop." Then ...'.
        return run_end >= protected[index][1] and _capital_or_end_follows(text, run_end)
    if text[i] == ".":
        # a token longer than the window is no abbreviation whatever it starts with
        window = text[max(0, i - _TOKEN_WINDOW):i + 1]
        token = window.rsplit(None, 1)[-1].lower().lstrip("(\"'“‘[")
        if token in _ABBREVIATIONS or _INITIALISM.match(token):
            return False
    return True


def _capital_or_end_follows(text: str, pos: int) -> bool:
    pos = _SPACES.match(text, pos).end()
    return pos == len(text) or text[pos].isupper() or text[pos] in "\"“'‘(["


def _newline_ends_sentence(text: str, i: int) -> bool:
    if _BLANK_LINE.match(text, i + 1) or _BLOCK_START.match(text, i + 1):
        return True
    line_start = text.rfind("\n", 0, i) + 1
    return text[line_start:i].lstrip().startswith("#")  # a heading line is its own unit


def _trimmed(text: str, start: int, end: int) -> Sentence | None:
    """The span without outer whitespace and list/heading markers; None if it has no words."""
    while start < end and text[start].isspace():
        start += 1
    marker = _LEADING_MARKER.match(text, start, end)
    if marker:
        start = marker.end()
        while start < end and text[start].isspace():  # a marker alone on its line
            start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    chunk = text[start:end]
    if not any(c.isalnum() for c in chunk):
        return None
    return Sentence(start, end, chunk)


# --------------------------------------------------------------------------------------------
# The folded view every cue matches against
# --------------------------------------------------------------------------------------------

_STRAIGHTEN = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
# Leading discourse filler, trimmed before cues are matched ("so, always ..." is a rule).
_FILLER = re.compile(
    r"^(?:so|ok|okay|well|um+|uh+|alright|all right|anyway|yeah|yes|btw|oh|hmm+|right|look|"
    r"and|but|also)\s*,\s*"
)
# Labels that carry a cue but are not part of the assertion; removed from the statement only.
_LABEL = re.compile(
    r"^(?:(?:rule(?: of thumb)?|decision|correction|note|update|fyi|reminder)\s*:\s*"
    r"|scratch that\s*[,:;.\u2014\u2013-]*\s*|actually\s*,?\s+)"
)


def _fold(text: str) -> str:
    """Lowercase with straight quotes, character for character (indices stay aligned)."""
    straight = text.translate(_STRAIGHTEN)
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in straight)


@dataclass(frozen=True)
class _Clause:
    """A sentence on one line minus leading filler: ``text`` (original case), ``low`` (folded)."""

    text: str
    low: str

    @classmethod
    def of(cls, sentence: str) -> _Clause:
        flat = " ".join(sentence.split())
        low = _fold(flat)
        cut = 0
        while match := _FILLER.match(low[cut:]):
            cut += match.end()
        return cls(flat[cut:], low[cut:])

    def without_labels(self) -> _Clause:
        """The clause with cue-bearing labels ('Rule:', 'Correction:', 'Actually,') removed."""
        cut = 0
        while match := _LABEL.match(self.low[cut:]):
            cut += match.end()
        return _Clause(self.text[cut:], self.low[cut:])


def _compile(patterns: Iterable[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)


def _any(patterns: tuple[re.Pattern[str], ...], low: str) -> bool:
    return any(p.search(low) for p in patterns)


# --------------------------------------------------------------------------------------------
# Cue phrases, one tuple per kind
# --------------------------------------------------------------------------------------------

RESIDUAL_CUES = _compile((
    r"\b(?:'ll|will|can|could|have to|going to|gonna)\s+(?:have to\s+|just\s+)?live with\b",
    r"\baccept(?:ed|ing|s)?\s+(?:the\s+|that\s+|this\s+)?risks?\b",
    r"\brisk[- ]accepted\b",
    r"\bknown (?:issue|gap|limitation)s?\b",
    r"\bwon't fix\b",
    r"\bwill not fix\b",
    r"\bwontfix\b",
    r"\bship(?:s|ped|ping)?\s+with\s+(?:the|this|that|a)\s+(?:gap|hole|limitation|bug|issue)\b",
    r"\buntil\b.+\b(?:shows?|turns?) up\b",
))

# Words a rule may open with when its only cue is a trailing 'no exceptions'.
_IMPERATIVE_VERBS: tuple[str, ...] = (
    "add", "ask", "avoid", "back", "check", "commit", "deploy", "do", "document", "don't",
    "file", "keep", "log", "make", "merge", "open", "pin", "push", "put", "read", "rebase",
    "repro", "reproduce", "review", "run", "ship", "squash", "tag", "test", "use", "write",
)
RULE_CUES = _compile((
    # 'always'/'never' must govern something: "Never again." is not a rule.
    r"^(?:(?:please|and|but|so)\s+)?(?:always|never)\s+(?!(?:again|mind|ever)\b)\w",
    r"\b(?:we|you|everyone|everybody|one)\s+(?:should\s+|must\s+)?(?:always|never)\b",
    r"^(?:please\s+)?(?:don't|do not)\s+ever\b",
    r"\bfrom now on\b",
    r"\bmust(?:n't| not)?\b(?!-)",
    r"^rule(?: of thumb)?\s*:",
    r"\bas a rule\b",
    r"^(?:please\s+)?(?:" + "|".join(_IMPERATIVE_VERBS) + r")\b.*\bno exceptions?\b",
))

DECISION_CUES = _compile((
    r"\b(?:we|i|team)(?:'ve|'d)?(?:\s+(?:have|had|just|finally|all|jointly))*\s+decided\b",
    r"\bdecided\s+(?:to|that|on|against)\b",
    r"\bit(?:'s|\s+is|\s+was|\s+has\s+been)\s+decided\b",
    r"^decision\s*:",
    r"\b(?:we're|we are|i'm|i am)\s+going with\b",
    r"\b(?:we|i)(?:'ll|\s+will|\s+shall)\s+go with\b",
    r"\blet's go with\b",
    r"\bthat(?:'s|\s+is)\s+final\b",
    r"\bfinal (?:decision|answer|call)\b",
    r"\blocked in\b",
    r"\beverything goes through\b",
    r"\b(?:we|i)\s+(?:chose|picked|settled on|opted (?:for|to))\b",
    r"\b(?:we're|we are|we've|we have|we)\s+park(?:ed|ing)\b",
    r"\bpark(?:ed|ing)?\s+(?:it|this|that)\b",
    r"\bparked until\b",
))

PREFERENCE_CUES = _compile((
    r"\bi\s+(?:really\s+|strongly\s+|much\s+|generally\s+|usually\s+|still\s+|also\s+|"
    r"absolutely\s+|just\s+)?(?:prefer|like|love|hate|dislike|enjoy|loathe|adore|detest)\b",
    r"\bi\s+(?:can't|cannot|can not)\s+stand\b",
    r"\bi\s+(?:don't|do not)\s+(?:really\s+)?(?:like|love|enjoy)\b",
    r"\bmy\s+(?:all-time\s+)?favou?rite\b",
    r"\bi(?:'d|\s+would)\s+(?:much\s+)?rather\b",
    r"\bi(?:'m|\s+am)\s+(?:not\s+)?(?:a\s+)?(?:big\s+|huge\s+)?fan of\b",
))

# A REFERENCE needs one of these phrases *and* a locator (path, URL or named repo).
REFERENCE_CUES = _compile((
    r"\blives?\s+(?:at|in|under)\b",
    r"\b(?:is|are)\s+(?:at|in|under)\b",
    r"\b(?:stored|kept|located|found|saved|hosted|documented|published)\s+(?:at|in|on|under)\b",
    r"\bsee\b",
    r"\bdocs?\s+(?:are\s+|is\s+)?(?:at|in)\b",
    r"\brepo(?:sitory)?(?:\s+is|\s*:)",
    r"\bpoints?\s+(?:at|to)\b",
    r"\b(?:link|url|path)\s*:",
))

_STATUS_WORDS = (
    "green|red|down|up|broken|passing|failing|flaky|healthy|unhealthy|degraded|offline|online|"
    "stable|unstable|blocked|live|stale|out of date|up to date"
)
STATE_CUES = _compile((
    r"\bcurrently\b",
    r"\bright now\b",
    r"\bat the moment\b",
    r"\bat present\b",
    r"\bas of (?:today|now|tonight|this morning|this week)\b",
    # 'is up' but not 'is up to you'
    rf"(?:\b(?:is|are)|'s|'re)(?:n't|\s+not)?\s+(?:still\s+|now\s+|all\s+)?(?:{_STATUS_WORDS})\b"
    r"(?!\s+(?:to|for|with)\b)",
    r"\b(?:is|are)\s+now\b",
    r"(?:\b(?:is|are)|'s|'re)\s+no longer\b",
))

_EVENT_VERBS: tuple[str, ...] = (
    "migrated", "shipped", "deployed", "released", "moved", "completed", "finished",
    "launched", "merged", "ran", "verified", "found", "fixed", "upgraded", "installed",
    "removed", "deleted", "added", "created", "published", "rolled back", "rolled out",
    "reverted", "renamed", "rewrote", "refactored", "imported", "exported", "backfilled",
    "restored", "rebuilt", "landed", "closed", "resolved", "tested", "benchmarked",
    "measured", "onboarded", "archived", "retired", "decommissioned", "switched", "replaced",
    "patched", "configured", "set up", "wrote", "built", "passed", "failed", "matched",
    "scored", "confirmed",
)
_EVENT_VERB = re.compile(r"\b(?:" + "|".join(re.escape(v) for v in _EVENT_VERBS) + r")\b")
# A past-tense verb right after one of these is not a completed action ('will be deployed',
# 'haven't migrated', 'need to be merged').
_NOT_DONE = re.compile(
    r"(?:\b(?:will|to|be|being|should|would|could|can|must|might|may|shall|not|never|yet|"
    r"gonna|if)|n't|'ll)\s+(?:\S+\s+)?$"
)
# Outcome-shaped reports ("214 == 214", "9 of 10 matched", "scored 0.9") are EVENTs too; the
# write path folds them into the EVENT they report on.
OUTCOME_CUES = _compile((
    r"\b\d+\s*(?:of|/|out of)\s*\d+\b",
    r"\b\d+\s*==\s*\d+\b",
    r"\bscored?\s+\d",
))

SUPERSESSION_CUES = _compile((
    r"\bno longer\b",
    r"\binstead of\b",
    r"\breplaces\b",
    r"\breplacing\b",
    r"\bscratch that\b",
    r"\bcorrection\s*:",
    r"\bchanged\s+(?:it\s+|this\s+|that\s+)?to\b",
    r"\bswitch(?:ed|ing)?\s+(?:over\s+)?to\b",
    r"(?:\b(?:is|are)|'s|'re)\s+now\b",
    r"\bfrom now on\b.*\binstead\b",
    r"^actually\b",
    r"\bnot\b.*\bany ?more\b",
    r"n't\b.*\bany ?more\b",
))
# A sentence that is nothing but a correction marker ("Scratch that.") flags the next fact.
_STANDALONE_CORRECTION = re.compile(
    r"^(?:scratch that|correction|actually|no wait|wait,? no)\s*[.!:\u2014\u2013-]*$"
)


# --------------------------------------------------------------------------------------------
# Locators: paths, URLs, repos (for REFERENCE, and kept out of topics and person rewriting)
# --------------------------------------------------------------------------------------------

_LOCATOR = re.compile(
    r"\b(?:https?|ftp|file|ssh|git)://[^\s<>\"'`)\]]+"   # URL
    r"|\bwww\.[^\s<>\"'`)\]]+"                         # bare www URL
    r"|\b[A-Za-z]:\\[^\s<>\"'`|]*"                      # Windows path C:\ops\x
    r"|\\\\[\w.$-]+\\[^\s<>\"'`|]*"                     # UNC path \\host\share
    r"|(?<![\w/.:~\\])(?:~|\.{1,2})?/[\w.@+-]+(?:/[\w.@+-]*)*"  # POSIX /etc/x, ~/x, ./x
    r"|\b[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]\w*\b"          # relative file docs/setup.md
    r"|\b(?:github|gitlab|bitbucket|codeberg)\.(?:com|org)/[\w.-]+(?:/[\w.-]+)?"
)
_NAMED_REPO = re.compile(r"\brepo(?:sitory)?(?:\s+is|\s*:)\s+[\w.-]+/[\w.-]+")


def _locator_spans(text: str) -> list[tuple[int, int]]:
    """Spans of paths and URLs in text, trailing sentence punctuation excluded."""
    spans = []
    for match in _LOCATOR.finditer(text):
        start, end = match.span()
        while end > start and text[end - 1] in ".,;:!?":
            end -= 1
        if end - start > 1:
            spans.append((start, end))
    return spans


def _has_locator(clause: _Clause) -> bool:
    return bool(_locator_spans(clause.text)) or bool(_NAMED_REPO.search(clause.low))


# --------------------------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------------------------

#: When a sentence carries cues of several kinds, the first kind here wins. Why this order:
#: - RESIDUAL first: accepting a gap is the most specific act, and it otherwise reads as a
#:   decision ("we'll live with it") or a state ("known issue").
#: - RULE before DECISION: a rule's lifecycle is stricter (a rule conflict never auto-resolves),
#:   so filing a rule as a decision would silently drop that protection.
#: - DECISION before REFERENCE: "we decided the docs live at X" is the decision, X its detail.
#: - REFERENCE before PREFERENCE and STATE: it needs a concrete locator plus a cue, so it is
#:   rarely a false match, and a path is what lane 2 can check mechanically.
#: - PREFERENCE before STATE: first-person taste cues are explicit, while "right now" often
#:   only decorates another claim ("right now I prefer tabs" is a taste).
#: - STATE before EVENT: a present-tense claim outranks history ("X is green right now after
#:   we merged Y" is current truth; as an EVENT recall would never serve it as current).
KIND_PRECEDENCE: tuple[Kind, ...] = (
    Kind.RESIDUAL, Kind.RULE, Kind.DECISION, Kind.REFERENCE, Kind.PREFERENCE, Kind.STATE,
    Kind.EVENT,
)


def _is_event(low: str) -> bool:
    if _any(OUTCOME_CUES, low):
        return True
    return any(not _NOT_DONE.search(low[:m.start()]) for m in _EVENT_VERB.finditer(low))


def _has_cue(kind: Kind, clause: _Clause) -> bool:
    low = clause.low
    if kind is Kind.RESIDUAL:
        return _any(RESIDUAL_CUES, low)
    if kind is Kind.RULE:
        return _any(RULE_CUES, low)
    if kind is Kind.DECISION:
        return _any(DECISION_CUES, low)
    if kind is Kind.REFERENCE:
        return _any(REFERENCE_CUES, low) and _has_locator(clause)
    if kind is Kind.PREFERENCE:
        return _any(PREFERENCE_CUES, low)
    if kind is Kind.STATE:
        return _any(STATE_CUES, low)
    return _is_event(low)


def _is_question(clause: _Clause) -> bool:
    # A question asserts nothing, whatever cue words it contains.
    return clause.text.rstrip(_CLOSERS + " ").endswith("?")


def _classify(clause: _Clause) -> Kind | None:
    if not clause.low or _is_question(clause):
        return None
    return next((kind for kind in KIND_PRECEDENCE if _has_cue(kind, clause)), None)


def classify(sentence: str) -> Kind | None:
    """The kind one sentence explicitly asserts, or None (no cue, or a question)."""
    return _classify(_Clause.of(sentence))


# --------------------------------------------------------------------------------------------
# Per-kind fields: only ever words the sentence contains
# --------------------------------------------------------------------------------------------

# Where a captured clause ends: punctuation that closes a clause, a sentence-ending dot, or
# a spaced hyphen used as a dash.
_CLAUSE_END = re.compile(r"\s*(?:[,;:!?()\[\]\u2014\u2013]|\.(?=\s|$)|\s-\s|$)")
_TRIGGER = re.compile(
    r"\b(?:until|unless|(?:revisit|reopen|re-?evaluate)\s+(?:it\s+|this\s+|that\s+)?"
    r"(?:when|if|once|after))\s+"
)
_PARKED = re.compile(r"\bpark(?:ed|ing)?\b|\brevisit\b|\breopen\b|\buntil\b")
_LOCKED = re.compile(
    r"\bfinal\b|\blocked\b|\bno exceptions?\b|\bnon-negotiable\b|\bset in stone\b"
)
_SCOPE_NOUNS = (
    "pipeline|pipelines|repo|repos|repository|service|services|team|project|build|builds|"
    "release|releases|deploys?|deployments?|api|backend|frontend|codebase|module|stack|"
    "cluster|environment|infra|infrastructure|app|database|ci|importer|docs"
)
# "scope: X" and "applies to X" name a scope outright; "for the X" only when X ends in a
# scope-shaped noun ("for the build pipeline", not "wait for the results").
_SCOPE_LABEL = re.compile(r"\bscope\s*:\s*|\bapplies\s+(?:only\s+)?to\s+(?:the\s+|all\s+)?")
_SCOPE_FOR = re.compile(rf"\bfor\s+(?:the|all|our)\s+((?:[\w-]+\s+){{0,3}}(?:{_SCOPE_NOUNS}))\b")
_EARNED = re.compile(r"\bbecause\s+(?:of\s+)?|\bsince\s+(?=the\b)|\bafter\s+")
_INCIDENT_WORDS = re.compile(
    r"\b(?:incident|outage|regression|bug|failure|crash|breakage|post-?mortem|fire|leak|"
    r"loss|mistake|accident|rollback|downtime|breach|mess|disaster|\w+ed|broke|lost|went)\b"
)
_RISK = re.compile(
    r"\b(?:very\s+)?(?:low|medium|moderate|high|minimal|negligible|small|tiny)[- ]"
    r"(?:risk|probability|likelihood|impact|severity)\b"
    r"|\b(?:contained|small|limited|large|wide|narrow|huge)\s+blast radius\b"
    r"|\brisk is\s+(?:very\s+)?(?:low|medium|moderate|high|minimal|negligible)\b"
)
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12,
}
_UNIT_CODES = {"minute": "m", "min": "m", "hour": "h", "hr": "h", "day": "d", "week": "w",
               "wk": "w"}
_LIFETIME_SPAN = re.compile(
    r"\b(?:for the next|for another|valid for|good for|re-?check every|re-?verify every|"
    r"check every)\s+(?:(\d+|" + "|".join(_NUMBER_WORDS) + r")\s+)?"
    r"(minute|min|hour|hr|day|week|wk)s?\b"
)
_LIFETIME_CADENCE = re.compile(
    r"\b(?:re-?check|re-?verify|verify|check)(?:ed)?\s+(daily|nightly|hourly|weekly)\b"
)
_CADENCE_CODES = {"daily": "1d", "nightly": "1d", "hourly": "1h", "weekly": "1w"}
_LEADING_TIME = re.compile(
    r"^(?:right now|currently|at the moment|at present|as of (?:today|now))\s*,?\s*"
)
# Tried in order: "X is ..." before "X's ..." (so "the team's job is red" names the job).
_COPULAS = (re.compile(r"\s(?:is|are|was|were)(?:n't)?\b"), re.compile(r"'s\b|'re\b"),
            re.compile(r"\s*:\s"))
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_NOT_A_SUBJECT = frozenset((
    "it", "this", "that", "these", "those", "everything", "something", "nothing", "things",
    "he", "she", "they", "we", "i", "you", "there", "here", "what", "which", "who", "all",
))


def _clause_after(clause: _Clause, pos: int) -> str | None:
    """The original-case text from pos to the end of its clause, or None if empty."""
    end = _CLAUSE_END.search(clause.low, pos)
    value = clause.text[pos:end.start() if end else len(clause.text)]
    value = value.strip().strip("\"'“”‘’").strip()
    return value or None


def _trigger(clause: _Clause) -> str | None:
    match = _TRIGGER.search(clause.low)
    return _clause_after(clause, match.end()) if match else None


def _status_detail(clause: _Clause) -> str | None:
    # A trigger means the decision can reopen, so "parked" wins over "final".
    if _PARKED.search(clause.low):
        return "parked-with-trigger"
    if _LOCKED.search(clause.low):
        return "locked"
    return None


def _scope(clause: _Clause) -> str | None:
    label = _SCOPE_LABEL.search(clause.low)
    if label:
        return _clause_after(clause, label.end())
    named = _SCOPE_FOR.search(clause.low)
    return clause.text[named.start(1):named.end(1)] if named else None


def _earned_by(clause: _Clause) -> str | None:
    for match in _EARNED.finditer(clause.low):
        value = _clause_after(clause, match.end())
        # 'after' is usually procedural ("run tests after the merge"); it explains why a rule
        # was earned only when what follows is an incident or something that happened.
        if value and (not match.group().startswith("after")
                      or _INCIDENT_WORDS.search(_fold(value))):
            return value
    return None


def _risk_weight(clause: _Clause) -> str | None:
    found = [clause.text[m.start():m.end()] for m in _RISK.finditer(clause.low)]
    return ", ".join(found) or None


def _expected_lifetime(clause: _Clause) -> str | None:
    span = _LIFETIME_SPAN.search(clause.low)
    if span:
        amount = span.group(1) or "1"
        count = int(amount) if amount.isdigit() else _NUMBER_WORDS[amount]
        return f"{count}{_UNIT_CODES[span.group(2)]}" if count > 0 else None
    cadence = _LIFETIME_CADENCE.search(clause.low)
    return _CADENCE_CODES[cadence.group(1)] if cadence else None


def _subject(clause: _Clause) -> str | None:
    """The explicit thing whose state this is: the words before the copula."""
    lead = _LEADING_TIME.match(clause.low)
    start = lead.end() if lead else 0
    article = _ARTICLE.match(clause.low[start:])
    start += article.end() if article else 0
    copula = next((m for p in _COPULAS if (m := p.search(clause.low, start))), None)
    if copula is None:
        return None
    subject = clause.text[start:copula.start()].strip()
    words = subject.split()
    if not words or len(words) > 6 or subject.lower() in _NOT_A_SUBJECT or "," in subject:
        return None
    return _third_person(subject)


# --------------------------------------------------------------------------------------------
# Statements: a faithful third-person paraphrase
# --------------------------------------------------------------------------------------------

# Forms rewritten on their own; "I" and "we" also make the next verb agree ("I prefer" ->
# "The user prefers").
_FIRST_PERSON: dict[str, str] = {
    "i'm": "{u} is", "i've": "{u} has", "i'd": "{u} would", "i'll": "{u} will", "me": "{u}",
    "myself": "{u}", "my": "{u}'s", "mine": "{u}'s",
}
_FIRST_PLURAL: dict[str, str] = {
    "we're": "{t} is", "we've": "{t} has", "we'll": "{t} will", "we'd": "{t} would",
    "our": "{t}'s", "ours": "{t}'s", "ourselves": "{t}", "let's": "{t} will",
}
_PRONOUNS: dict[str, str] = {k: v.format(u="the user") for k, v in _FIRST_PERSON.items()} | {
    k: v.format(t="the team") for k, v in _FIRST_PLURAL.items()}
_AGREEING_SUBJECTS = {"i": "the user", "we": "the team"}


def _person_tables(user: str, team: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """The pronoun rewrites for a named asserter ("I" is ``user``); ``team`` None leaves
    first-person plural as said (in a chat, "we" is not known to be a team)."""
    if user == "the user" and team == "the team":
        return _PRONOUNS, _AGREEING_SUBJECTS
    pronouns = {k: v.format(u=user) for k, v in _FIRST_PERSON.items()}
    agreeing = {"i": user}
    if team is not None:
        pronouns |= {k: v.format(t=team) for k, v in _FIRST_PLURAL.items()}
        agreeing["we"] = team
    return pronouns, agreeing
# Words between a subject and its verb that are left alone ("I really prefer").
_ADVERBS = frozenset((
    "really", "strongly", "much", "generally", "usually", "always", "never", "still", "also",
    "just", "truly", "honestly", "definitely", "absolutely", "totally", "all", "both", "often",
    "sometimes", "rather", "now", "then", "already", "even", "kind", "sort", "of",
    # negators: "I no longer prefer" -> "The user no longer prefers", never "noes longer"
    "no", "longer", "not", "ever", "only", "once",
))
_VERB_FORMS = {
    "am": "is", "are": "is", "were": "was", "aren't": "isn't", "weren't": "wasn't",
    "have": "has", "haven't": "hasn't", "do": "does", "don't": "doesn't",
}
# Verbs that do not take an -s for a third-person subject (modals, past tense).
_INVARIANT_VERBS = frozenset((
    "can", "can't", "cannot", "could", "couldn't", "will", "won't", "would", "wouldn't",
    "should", "shouldn't", "must", "mustn't", "might", "may", "shall", "did", "didn't",
    "had", "hadn't", "was", "wasn't", "ought", "ran", "found", "went", "wrote", "built",
    "took", "made", "got", "saw", "knew", "thought", "said", "told", "kept", "left", "felt",
    "broke", "chose", "began", "brought", "bought", "caught", "drew", "drove", "fell", "flew",
    "forgot", "gave", "grew", "held", "heard", "hid", "led", "lost", "meant", "met", "paid",
    "rode", "rose", "sat", "sent", "shook", "shot", "slept", "spent", "spoke", "stood",
    "stole", "struck", "taught", "threw", "understood", "woke", "won", "wore", "put", "set",
    "read", "cut", "hit", "let", "quit", "shut", "spread", "cost", "hurt", "rather",
))
_WORD_PUNCT = re.compile(r"^([(\"'“‘\[]*)(.*?)([.,;:!?)\"'”’\]]*)$")


def _third_person(text: str, user: str = "the user", team: str | None = "the team") -> str:
    """Rewrite first person as 'the user' / 'the team' (or a named speaker), leaving paths
    and quotes untouched."""
    out: list[str] = []
    pos = 0
    protected = sorted(set(_locator_spans(text)) | {m.span() for m in _PROTECTED.finditer(text)})
    for start, end in protected:
        if start < pos:
            continue  # overlapping spans: the earlier one already covers it
        out.append(_rewrite_persons(text[pos:start], user, team))
        out.append(text[start:end])
        pos = end
    out.append(_rewrite_persons(text[pos:], user, team))
    return "".join(out)


def _rewrite_persons(text: str, user: str = "the user", team: str | None = "the team") -> str:
    pronouns, agreeing_subjects = _person_tables(user, team)
    parts = re.split(r"(\s+)", text)
    agreeing: str | None = None  # set while the next verb must agree with 'the user/team'
    for index in range(0, len(parts), 2):
        lead, word, trail = _WORD_PUNCT.match(parts[index]).groups()  # type: ignore[union-attr]
        key = word.translate(_STRAIGHTEN).lower()
        if key in agreeing_subjects:
            parts[index] = lead + agreeing_subjects[key] + trail
            agreeing = None if trail else key
        elif key in pronouns:
            parts[index] = lead + pronouns[key] + trail
            agreeing = None
        elif word == "us" and team is not None:  # lowercase only: "US" is a country
            parts[index] = lead + team + trail
            agreeing = None
        elif agreeing is not None:
            if key in _ADVERBS or key.endswith("ly"):
                agreeing = None if trail else agreeing
                continue
            parts[index] = lead + _agree(word) + trail
            agreeing = None
    return "".join(parts)


def _agree(verb: str) -> str:
    """A present-tense verb in third person singular; anything else unchanged."""
    key = verb.translate(_STRAIGHTEN).lower()
    if key in _VERB_FORMS:
        return _VERB_FORMS[key]
    if (key in _INVARIANT_VERBS or key.endswith("ed") or not key.isalpha()
            or (key.endswith("s") and not key.endswith("ss"))):
        return verb
    if key.endswith(("ss", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(key) > 1 and key.endswith("y") and key[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _statement(clause: _Clause, speaker: str | None = None) -> str:
    """Filler and labels trimmed, third person (a chat turn's "I" is its speaker),
    capitalised, ending in one period."""
    text = third_person(clause.without_labels().text, speaker).strip()
    text = text.rstrip(" ,;:").rstrip(_TERMINATORS).rstrip(" ,;:")
    first_word = text.split(maxsplit=1)[0] if text else ""
    # Capitalise prose, never an identifier: "sample-svc is green" keeps its spelling.
    if first_word.replace("'", "").replace("’", "").isalpha() and first_word[0].islower():
        text = text[0].upper() + text[1:]
    return text + "."


# --------------------------------------------------------------------------------------------
# Topics: entity-shaped tokens
# --------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[^\s,;!?()\[\]{}\"“”‘’`<>=×\u2014\u2013]+")
_TOKEN_EDGE = ".:'’-*_"
_POSSESSIVE = re.compile(r"['’]s$")
_FIRST_PERSON_TOKENS = frozenset(("i", "i'm", "i'd", "i'll", "i've"))


def _is_entity_shaped(token: str, at_start: bool) -> bool:
    if not any(c.isalpha() for c in token) or token.lower() in _FIRST_PERSON_TOKENS:
        return False
    if _INITIALISM.match(token.lower() + "."):
        return False  # e.g, i.e
    if any(c.isdigit() for c in token) or "-" in token or "_" in token:
        return True
    if re.search(r"[A-Za-z0-9]\.[A-Za-z]", token):
        return True  # a dotted path such as build.pipeline
    capitals = [i for i, c in enumerate(token) if c.isupper()]
    return bool(capitals) and (not at_start or capitals != [0])


def _topics(clause: _Clause, subject: str | None, captured_by: str | None) -> tuple[str, ...]:
    text = clause.without_labels().text
    locators = _locator_spans(text)
    found: list[str] = []
    at_start = True
    for match in _TOKEN.finditer(text):
        if any(a <= match.start() < b for a, b in locators):
            continue  # a path or URL is a value, not a topic
        token = _POSSESSIVE.sub("", match.group().strip(_TOKEN_EDGE)).strip(_TOKEN_EDGE)
        if token and _is_entity_shaped(token, at_start):
            found.append(token)
        # A capital right after a colon starts a new clause, not a name.
        at_start = match.group().endswith(":")
    if subject:
        found.append(subject)
    return _dedupe_without_scribe(found, captured_by)


def _scribe_names(captured_by: str | None) -> set[str]:
    if not captured_by or not captured_by.strip():
        return set()
    full = captured_by.strip().lower()
    return {full, full.split(":")[0], full.rsplit("/", 1)[-1], full.rsplit("/", 1)[-1].split(":")[0]}


def _dedupe_without_scribe(topics: list[str], captured_by: str | None) -> tuple[str, ...]:
    # Provenance is not aboutness: the scribe's own name is never a topic.
    scribe = _scribe_names(captured_by)
    kept: dict[str, str] = {}
    for topic in topics:
        key = topic.lower()
        if key not in kept and key not in scribe:
            kept[key] = topic
    return tuple(kept.values())


# --------------------------------------------------------------------------------------------
# Clauses: two assertions in one sentence
# --------------------------------------------------------------------------------------------

# Where one sentence may join two assertions: "; " (optionally with and/but), ", and",
# ", but", ", while", or a bare " but ". An explicit "separately" right after the joint is
# captured: the speaker saying, in so many words, that what follows is a separate claim.
_JOINT = re.compile(
    r"(?:;\s+(?:(?:and|but)\s+)?|,\s+(?:and|but|while)\s+|\s+but\s+)"
    r"(?P<separately>separately\b[\s,]*)?"
)
# A clause leaning on the one before it ("..., and we'll live with it") continues that
# assertion rather than making its own: pronouns, and a demonstrative standing alone
# ("live with that", "accept that risk").
_ANAPHOR = re.compile(
    r"\b(?:it|its|they|them|their)\b"
    r"|\b(?:this|that|these|those)\b(?=\s*(?:$|[.,;:!?)]|(?:gap|risk|issue|one|way|too|until"
    r"|unless|if|when|for|since|because)\b))"
)


@dataclass(frozen=True)
class _Piece:
    """A candidate clause of a sentence: ``[start, end)`` inside the sentence's own text.

    ``semicolon`` and ``separately`` describe the joint in front of it (False for the first).
    """

    start: int
    end: int
    semicolon: bool = False
    separately: bool = False


def _pieces(text: str) -> list[_Piece]:
    """The sentence cut at every clause joint outside quotes and code, each piece trimmed of
    surrounding whitespace (so a piece's text is a verbatim, stripped span of ``text``)."""
    low = _fold(text)
    protected = [m.span() for m in _PROTECTED.finditer(text)]
    pieces: list[_Piece] = []
    start, semicolon, separately = 0, False, False
    for joint in _JOINT.finditer(low):
        if any(a <= joint.start() < b for a, b in protected):
            continue
        pieces.append(_Piece(start, joint.start(), semicolon, separately))
        start = joint.end()
        semicolon = low[joint.start():joint.end()].lstrip().startswith(";")
        separately = joint.group("separately") is not None
    pieces.append(_Piece(start, len(text), semicolon, separately))
    trimmed = []
    for piece in pieces:
        a, b = piece.start, piece.end
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            trimmed.append(dataclasses.replace(piece, start=a, end=b))
    return trimmed


def _same_subject(first: str | None, second: str | None) -> bool:
    """Unknown subjects count as the same: only two named, different subjects split."""
    if first is None or second is None:
        return True
    return _ARTICLE.sub("", first.lower()) == _ARTICLE.sub("", second.lower())


def _starts_own_assertion(group: _Clause, piece: _Clause, joint: _Piece) -> bool:
    """Whether ``piece`` makes an assertion of its own after the clauses in ``group``.

    It must carry its own cue and not lean on the group through a pronoun; then it is separate
    when its kind differs, when the speaker says "separately", or -- joined by a conjunction,
    not a bare semicolon -- when both clauses name different subjects. A semicolon alone
    keeps same-kind clauses together: one sentence with a semicolon is one assertion
    (see :func:`split_sentences`), unless the kinds or the speaker say otherwise.
    """
    kind = _classify(piece)
    if kind is None or _ANAPHOR.search(piece.low):
        return False
    group_kind = _classify(group)
    if group_kind is None:
        return False  # a cue-less opening belongs to the clause that gives it a kind
    if kind is not group_kind or joint.separately:
        return True
    return not joint.semicolon and not _same_subject(_subject(group), _subject(piece))


def split_clauses(sentence: str) -> list[tuple[int, int]]:
    """Spans (inside ``sentence``) of the assertions one sentence makes, in order.

    Most sentences make one assertion and give ``[(0, len(sentence))]``. A sentence is cut
    at a joint (``;``, ``, and``, ``, but``, ``, while``, `` but ``) only when the clause after
    it starts an assertion of its own (:func:`_starts_own_assertion`); clauses without a cue
    of their own stay with the clause before them. Every span is a stripped verbatim span.
    """
    pieces = _pieces(sentence)
    if len(pieces) < 2:
        return [(0, len(sentence))]
    groups: list[list[int]] = [[pieces[0].start, pieces[0].end]]
    for piece in pieces[1:]:
        current = groups[-1]
        group = _Clause.of(sentence[current[0]:current[1]])
        if _starts_own_assertion(group, _Clause.of(sentence[piece.start:piece.end]), piece):
            groups.append([piece.start, piece.end])
        else:
            current[1] = piece.end
    if len(groups) == 1:
        return [(0, len(sentence))]
    return [(a, b) for a, b in groups]


# --------------------------------------------------------------------------------------------
# The extractor
# --------------------------------------------------------------------------------------------

def _kind_fields(kind: Kind, clause: _Clause) -> dict[str, str | None]:
    """The per-kind columns this kind owns, filled only from the sentence's own words."""
    if kind is Kind.DECISION:
        return {"scope": _scope(clause), "status_detail": _status_detail(clause),
                "trigger_predicate": _trigger(clause)}
    if kind is Kind.RULE:
        return {"earned_by": _earned_by(clause)}
    if kind is Kind.STATE:
        return {"subject": _subject(clause), "expected_lifetime": _expected_lifetime(clause)}
    if kind is Kind.RESIDUAL:
        return {"risk_weight": _risk_weight(clause), "trigger_predicate": _trigger(clause)}
    return {}


class RuleExtractor:
    """Deterministic cue-phrase scribe: one typed fact per assertion, in source order.

    A sentence yields at most one fact unless its clauses make separate assertions
    (:func:`split_clauses`). Each fact's ``quote`` is the verbatim sentence span, or the
    clause's span when the sentence was split, so it always anchors. Sentences without a
    cue, and questions, yield nothing.
    """

    name = "rules/v1"

    def extract(
        self, text: str, context: ExtractionContext | None = None
    ) -> list[ExtractedFact]:
        """Return the facts of every typeable sentence of ``text``, in order (possibly none)."""
        if not isinstance(text, str):
            raise InvalidInput(f"text must be a string, got {type(text).__name__}")
        captured_by = context.captured_by if context else None
        facts: list[ExtractedFact] = []
        pending_correction = False  # "Scratch that." marks the next fact as a replacement
        # A chat is read turn by turn: no fact spans two turns, none quotes a speaker prefix.
        for turn in split_turns(text):
            pending_correction = self._turn(turn.text, turn.speaker, captured_by, facts,
                                            pending_correction)
        return facts

    def _turn(self, text: str, speaker: str | None, captured_by: str | None,
              facts: list[ExtractedFact], pending_correction: bool) -> bool:
        for sentence in split_sentences(text):
            clause = _Clause.of(sentence.text)
            if _STANDALONE_CORRECTION.match(clause.low):
                pending_correction = True
                continue
            if _classify(clause) is None:
                continue
            spans = split_clauses(sentence.text)
            # An unsplit sentence keeps its own clause view (filler trimmed once, up front).
            parts = ([(sentence.text, clause)] if len(spans) == 1 else
                     [(sentence.text[a:b], _Clause.of(sentence.text[a:b])) for a, b in spans])
            for quote, part in parts:
                fact = self._fact(quote, part, captured_by, pending_correction, speaker)
                if fact is not None:
                    facts.append(fact)
                    pending_correction = False
        return pending_correction

    def _fact(self, quote: str, clause: _Clause, captured_by: str | None,
              corrected: bool, speaker: str | None = None) -> ExtractedFact | None:
        kind = _classify(clause)
        if kind is None:
            return None
        statement = _statement(clause, speaker)
        if not any(c.isalnum() for c in statement):
            return None  # nothing but a label ("Rule:")
        # Fields read the clause without its labels ("Actually, the API is ..." -> "API").
        fields = _kind_fields(kind, clause.without_labels())
        return ExtractedFact(
            statement=statement,
            kind=kind.value,
            quote=quote,
            topics=_topics(clause, fields.get("subject"), captured_by),
            supersedes=corrected or _any(SUPERSESSION_CUES, clause.low),
            asserter=speaker,
            **fields,
        )

    def __repr__(self) -> str:
        return "RuleExtractor()"


# --------------------------------------------------------------------------------------------
# Shared with the parser extractor: the same field, person and topic rules
# --------------------------------------------------------------------------------------------

def kind_fields(kind: Kind, clause: str) -> dict[str, str | None]:
    """The per-kind columns ``kind`` owns, read from one clause's own words."""
    return _kind_fields(kind, _Clause.of(clause).without_labels())


def third_person(text: str, speaker: str | None = None) -> str:
    """First person rewritten: as the speaker in a chat turn, else as 'the user'/'the team'."""
    return _third_person(text) if speaker is None else _third_person(text, speaker, None)


def entity_topics(clause: str, captured_by: str | None = None) -> tuple[str, ...]:
    """The clause's entity-shaped tokens (identifiers, names, dotted paths), in order."""
    return _topics(_Clause.of(clause), None, captured_by)


def cue_kind(clause: str) -> Kind | None:
    """The kind a clause's cue phrases name (see :func:`classify`), labels included."""
    return _classify(_Clause.of(clause))


def clause_label_free(clause: str) -> str:
    """The clause without leading filler and cue-bearing labels ('Rule:', 'Actually,')."""
    return _Clause.of(clause).without_labels().text


def is_correction_marker(sentence: str) -> bool:
    """A sentence that only says the next claim replaces an earlier one ("Scratch that.")."""
    return bool(_STANDALONE_CORRECTION.match(_Clause.of(sentence).low))


def says_supersedes(clause: str) -> bool:
    """The clause says, in so many words, that it replaces a prior belief."""
    return _any(SUPERSESSION_CUES, _Clause.of(clause).low)
