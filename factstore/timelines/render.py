"""Rendering timelines (seed 002 §5, §7, §9): the one-line form for a model, the brief with
F1.. citations, and the deterministic Markdown Facts section of an entity page.

Everything here is pure: facts in, text out. Which facts hold at an instant is decided by
:mod:`factstore.timelines.resolution`; this module only chooses words and order.

Formats where the seed leaves room (the seed's own examples are reproduced exactly):

One-line form (:func:`render_line`)
    ``attribute(subject) = ANSWER [SEGMENTS] (was ...) (later ...)``

    * ANSWER is ``VALUE UNIT`` for a one attribute; ``{disputed: A | B}`` when any fact that
      answers is disputed; ``{a, b}`` for a many attribute, always braced even with one value.
      Several values are listed in the order they began (oldest start first, as
      ``current_at`` orders them), so a new value appends; ``(none at AS_OF)`` when
      nothing is valid at the instant, AS_OF being the label the caller passes (the brief
      passes its as_of label, e.g. ``2024`` or ``now``; without one, the instant's UTC date).
      At most MAX_ANSWERS values are named (the first ones in that order); more are counted
      as a last entry: ``{a, b, .., +9990 more}``, ``{disputed: A | B | .. | +3 more}``.
    * SEGMENTS is one ``valid FROM..TO, observed YYYY-MM-DD, source X`` per named answer,
      joined by ``"; "`` inside the one bracket. FROM is valid_from as written (``?`` when the
      text gave no time: the observation time is never borrowed as valid time), TO is the
      effective valid_to as written or ``now`` when open. ``, source X`` is left out when the
      fact has no source. No bracket at all when nothing answers.
    * ``(was ...)`` lists the values that ended at or before the answer began (for a many
      attribute, or when nothing answers: at or before the instant), newest first.
    * ``(later ...)`` lists the values that start after the instant, oldest first, so they
      read forward in time from the answer. It appears whenever such facts exist; in
      practice that is when answering historically (or when a fact is dated in the future).
    * Each was/later entry is ``VALUE UNIT FROM..TO``, joined by ``", "``, at most
      MAX_LISTED of each, then ``+N more``. Retracted facts never appear in a line.
    * A line made from part of a long key (a brief reads a window of it around the instant)
      ends with :func:`unread_note`: ``(9500 earlier and 20 later facts not read)``.

Brief (:func:`render_brief`)
    :data:`BRIEF_CONVENTION`, a blank line, one line per timeline, a blank line, then
    ``Citations:`` with one ``F1: SOURCE — "QUOTE"`` line per citation (``F1: SOURCE`` when
    there is no quote). Sources are numbered in order of first citation; a (source, quote)
    pair cited again keeps its number, so two facts from one note share one citation. With
    no timelines the text is empty; with no cited source the Citations block is left out.

Markdown (:func:`render_markdown`)
    One subject renders ``## Facts``; several render one ``## Facts: SUBJECT`` section each,
    sorted by subject, separated by a blank line. ``### Current`` is the seed's table (one
    row per answering fact, sorted by attribute; a disputed value reads ``41 EU
    (disputed)``; a missing source is ``—``; ``No current facts.`` replaces an empty table).
    Freshness hides current facts whose latest confirmation made by the viewed instant is
    more than ``freshness_days`` before it (a confirmation made after the viewed date does
    not make the fact fresh as of that date), noting ``1 stale fact hidden
    (confirmed more than 90 days before 2026-11-01); show stale to reveal.`` (``N stale
    facts`` for several) after a blank line under the table; ``show_stale``
    keeps them, their Observed cell reading ``2025-03-02 (stale)``. ``### History`` lists
    every fact: ``- **FROM – TO** · attribute = VALUE UNIT · observed DATE · STATUS`` with
    STATUS ``current``, ``superseded by #ID``, ``disputed``; a retracted entry is struck
    through up to and including its observed date and then says ``· retracted``:
    ``- ~~**2025 – 2026** · shoe_size = 40 EU · observed 2025-03-02~~ · retracted``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from factstore.timelines.cardinality import MANY
from factstore.timelines.model import Seen, TimelineFact, TimelineKey
from factstore.timelines.resolution import (
    DISPUTED,
    RETRACTED,
    SUPERSEDED,
    current_at,
    end_instant,
    history_order,
    shown_order,
    sort_start,
)

#: What a brief starts with, so the model reads the lines below as an instruction (§7).
BRIEF_CONVENTION = (
    "Facts below are temporal. Each line is attribute(subject) = value "
    "[valid FROM..TO, observed DATE, source]. Prefer the value valid now (or at the time the "
    "question asks about). When a value changed and the change is relevant, say so "
    '("41, was 40 until 2026"). Treat disputed as unsettled and say so. Cite the source.'
)

#: A timeline to render: a TimelineKey (its history is used) or (subject, attribute,
#: cardinality, facts).
Timeline = TimelineKey | tuple[str, str, str, Sequence[TimelineFact]]

#: Shown in place of an unknown valid_from: the text gave no time.
UNDATED = "?"
#: Shown in place of an open end.
OPEN = "now"


# ---------------------------------------------------------------------------------------------
# Small shared pieces


def is_retracted(fact: TimelineFact) -> bool:
    """Retracted by flag or by status: either way it takes no part in what is shown as true."""
    return fact.retracted or fact.status == RETRACTED


def value_text(fact: TimelineFact) -> str:
    """'41 EU', or '41' when there is no unit; newlines folded so a line stays one line.

    Written as its first observation wrote it ("3" or "three" are one value; the earliest
    spelling shows), so which observation became the row does not change the line."""
    first = fact.first_observation()
    text = first.value if not first.unit else f"{first.value} {first.unit}"
    return " ".join(text.split())


def range_bounds(fact: TimelineFact) -> tuple[str, str]:
    """FROM and TO as written: valid_from (or '?') and the effective valid_to (or 'now')."""
    start = fact.valid_from if fact.valid_from is not None else UNDATED
    end = fact.effective_valid_to if fact.effective_valid_to is not None else OPEN
    return start, end


def day(instant: datetime) -> str:
    """The UTC date of an instant, YYYY-MM-DD: observations are shown to the day."""
    return instant.astimezone(UTC).strftime("%Y-%m-%d")


def start_order(facts: Iterable[TimelineFact]) -> tuple[TimelineFact, ...]:
    """Oldest start first, so (later ...) runs on in time; one start's values by first
    observation, then value (``shown_order``)."""
    return tuple(sorted(facts, key=shown_order))


def ended_by(fact: TimelineFact, instant: datetime) -> bool:
    """True when the fact's effective range closed at or before ``instant``."""
    end = end_instant(fact)
    return end is not None and end <= instant


# ---------------------------------------------------------------------------------------------
# The one-line form


def render_line(subject: str, attribute: str, cardinality: str,
                facts: Sequence[TimelineFact], instant: datetime, *,
                cite: Callable[[TimelineFact], str], as_of: str | None = None,
                note: str | None = None) -> str:
    """The one-line form of a subject+attribute timeline as of ``instant`` (§7).

    ``facts`` is every fact of the key (retracted ones are dropped here); ``cite`` names a
    fact's source in the bracket (its own source in GET /v1/facts, ``F1``.. in a brief) and is
    called only for facts that have a source, in bracket order. ``as_of`` labels the instant
    in ``(none at AS_OF)``.
    """
    live = merge_runs([f for f in facts if not is_retracted(f)])
    answer = current_at(live, instant, cardinality)
    answering = {f.id for f in answer}
    others = [f for f in live if f.id not in answering]
    # "Earlier" means ended before the answer began, so a value that overlapped the answer is
    # not misread as history. A many attribute's values run side by side, and with no answer
    # there is no beginning: then "earlier" is simply "over by the instant".
    if cardinality == MANY or not answer:
        began = instant
    else:
        began = min(sort_start(f) for f in answer)
    earlier = [f for f in sorted(others, key=shown_order, reverse=True) if ended_by(f, began)]
    later = start_order(f for f in others if sort_start(f) > instant)

    # A many key (or a dispute) can have thousands of values at once: the line names the
    # first MAX_ANSWERS and says how many more there are, and cites only those it names.
    shown = answer[:MAX_ANSWERS]
    text = answer_text(shown, cardinality, instant, as_of, more=len(answer) - len(shown))
    parts = [f"{attribute}({subject}) = {text}"]
    if shown:
        parts.append("[" + "; ".join(segment(f, cite) for f in shown) + "]")
    if earlier:
        parts.append("(was " + _listed(earlier) + ")")
    if later:
        parts.append("(later " + _listed(later) + ")")
    if note:  # the scope tag when a key is read in personal and shared memory
        parts.append(note)
    return " ".join(parts)


def merge_runs(facts: Sequence[TimelineFact]) -> list[TimelineFact]:
    """Consecutive facts of one value shown as the one stretch they are.

    "6 from 2019" then "6 from 2020" is one value held since 2019, whether the second
    observation arrived first (two rows, the first superseded by the second) or second (a
    corroboration of the first): the line must read the same either way. A run is a chain
    of live, undisputed facts, each superseded by the next at exactly the next one's start,
    all of one value (as compared). It reads as its first fact (its start and source) ending
    where its last one ends, observed when the earliest of its observations was made.
    """
    by_id = {f.id: f for f in facts}
    before: dict[int, list[TimelineFact]] = {}
    for f in facts:
        if f.superseded_by in by_id:
            before.setdefault(f.superseded_by, []).append(f)  # type: ignore[arg-type]
    out: list[TimelineFact] = []
    for fact in start_order(facts):
        if any(_joins(earlier, fact) for earlier in before.get(fact.id, ())):
            continue  # folded into the run that reaches it
        run = [fact]
        while True:
            nxt = by_id.get(run[-1].superseded_by) if run[-1].superseded_by else None
            if nxt is None or not _joins(run[-1], nxt):
                break
            run.append(nxt)
        out.append(fact if len(run) == 1 else _as_one(run))
    return out


def _joins(fact: TimelineFact, nxt: TimelineFact) -> bool:
    end = end_instant(fact)
    return (fact.status != DISPUTED and nxt.status != DISPUTED
            and fact.value_key == nxt.value_key and end is not None
            and end == sort_start(nxt))


def _as_one(run: Sequence[TimelineFact]) -> TimelineFact:
    first, last = run[0], run[-1]
    kept = [c for f in run for c in f.corroborations]
    kept += [Seen(f.observed_at, f.source, f.quote, f.value, f.unit) for f in run[1:]]
    return replace(first, valid_to=last.valid_to, effective_valid_to=last.effective_valid_to,
                   status=last.status, superseded_by=last.superseded_by,
                   last_confirmed_at=max(f.last_confirmed_at for f in run),
                   corroborations=tuple(sorted(kept, key=Seen.order)))


#: A line is read by a model: a long key's history is summarised, not dumped.
MAX_LISTED = 5
#: At most this many values answer in one line; the rest are counted ('+N more').
MAX_ANSWERS = 10


def _listed(facts: Sequence[TimelineFact]) -> str:
    """Up to MAX_LISTED entries, then '+N more' (the history view lists them all)."""
    shown = ", ".join(brief_value(f) for f in facts[:MAX_LISTED])
    rest = len(facts) - MAX_LISTED
    return shown + (f", +{rest} more" if rest > 0 else "")


def unread_note(earlier: int, later: int) -> str | None:
    """What a line made from part of a key leaves out: '(9500 earlier and 20 later facts not
    read)', '(1 earlier fact not read)'; None when nothing was left out. Earlier and later
    are by start, next to the facts the line was made from."""
    counted = [f"{n} {side}" for n, side in ((earlier, "earlier"), (later, "later")) if n > 0]
    if not counted:
        return None
    noun = "fact" if earlier + later == 1 else "facts"
    return f"({' and '.join(counted)} {noun} not read)"


def answer_text(answer: Sequence[TimelineFact], cardinality: str, instant: datetime,
                as_of: str | None, *, more: int = 0) -> str:
    """The value part: 'V U', '{disputed: A | B}', '{a, b}' or '(none at AS_OF)'.

    ``more`` counts answering values left out of ``answer`` (a capped line): '{a, b, +3
    more}', '{disputed: A | B | +3 more}'."""
    if not answer:
        return f"(none at {as_of if as_of is not None else day(instant)})"
    values = [value_text(f) for f in answer]
    if more > 0:
        values.append(f"+{more} more")
    if cardinality == MANY:
        return "{" + ", ".join(values) + "}"
    if len(values) > 1:
        return "{disputed: " + " | ".join(values) + "}"
    if answer[0].status == DISPUTED:
        # its rival is not valid at this instant (a rule-6 pair outside its overlap):
        # the value answers, and the mark says its timeline is unsettled
        return values[0] + " (disputed)"
    return values[0]


def segment(fact: TimelineFact, cite: Callable[[TimelineFact], str]) -> str:
    """'valid FROM..TO, observed DATE, source X' for one answering fact: observed when the
    first observation of it was made (a corroboration may be older than the fact's row)."""
    start, end = range_bounds(fact)
    first = fact.first_observation()
    text = f"valid {start}..{end}, observed {day(first.observed_at)}"
    if first.source:
        text += f", source {cite(fact)}"
    return text


def brief_value(fact: TimelineFact) -> str:
    """'40 EU 2025..2026': one entry of (was ...) or (later ...)."""
    start, end = range_bounds(fact)
    return f"{value_text(fact)} {start}..{end}"


def own_source(fact: TimelineFact) -> str:
    """The cite for GET /v1/facts: each fact by its own source (its earliest observation's,
    so the cite does not depend on which observation arrived first)."""
    return fact.first_observation().source or ""


# ---------------------------------------------------------------------------------------------
# The brief


@dataclass(frozen=True)
class Citation:
    """One numbered source of a brief: {title: 'F1', source, quote}."""

    title: str
    source: str
    quote: str | None


@dataclass(frozen=True)
class Brief:
    """The fact part of an ask brief: the lines, their numbered citations and the full text."""

    question: str
    as_of: str
    as_of_instant: datetime
    lines: tuple[str, ...]
    citations: tuple[Citation, ...]
    text: str
    #: the timelines the lines render, as TimelineKeys read as of the instant
    keys: tuple[Any, ...] = ()
    #: what recall serves beside the timelines, one labelled line each ("R1 [event
    #: 2023-05-07] ..."): a store of chats, with no timeline for the question, still briefs
    recalled: tuple[str, ...] = ()


class _Numbering:
    """Hands out F1, F2, .. in order of first citation; a repeated (source, quote) keeps its."""

    def __init__(self) -> None:
        self._titles: dict[tuple[str, str | None], str] = {}
        self.citations: list[Citation] = []

    def __call__(self, fact: TimelineFact) -> str:
        first = fact.first_observation()
        key = (first.source or "", first.quote)
        if key not in self._titles:
            title = f"F{len(self.citations) + 1}"
            self._titles[key] = title
            self.citations.append(Citation(title, key[0], fact.quote))
        return self._titles[key]


def timeline_parts(timeline: Timeline) -> tuple[str, str, str, Sequence[TimelineFact]]:
    """(subject, attribute, cardinality, facts) of either accepted timeline shape."""
    if isinstance(timeline, TimelineKey):
        return timeline.subject, timeline.attribute, timeline.cardinality, timeline.history
    subject, attribute, cardinality, facts = timeline
    return subject, attribute, cardinality, facts


def render_brief(question: str, timelines: Sequence[Timeline], instant: datetime,
                 as_of_label: str, notes: Sequence[str | None] | None = None) -> Brief:
    """The brief ask puts at the top: convention, one line per timeline, numbered citations.

    ``timelines`` are TimelineKeys (as Store.facts answers them; each key's history is
    rendered) or (subject, attribute, cardinality, facts) tuples, rendered in the given order.
    ``instant`` is what the facts are read as of and ``as_of_label`` how it was asked
    ('now', '2025'). ``notes`` (one per timeline) end the lines: the scope tags.
    """
    numbering = _Numbering()
    lines = []
    for index, timeline in enumerate(timelines):
        subject, attribute, cardinality, facts = timeline_parts(timeline)
        lines.append(render_line(subject, attribute, cardinality, facts, instant,
                                 cite=numbering, as_of=as_of_label,
                                 note=notes[index] if notes else None))
    citations = tuple(numbering.citations)
    return Brief(question=question, as_of=as_of_label, as_of_instant=instant,
                 lines=tuple(lines), citations=citations, text=brief_text(lines, citations))


#: What heads the recalled part of a brief, so a model reads those lines for what they are.
RECALLED_HEADER = ("From memory (each line labelled: a fact believed current, an event with "
                   "its date, or raw text; not a timeline):")


def brief_text(lines: Sequence[str], citations: Sequence[Citation],
               recalled: Sequence[str] = ()) -> str:
    """Convention, blank line, lines, blank line, 'Citations:' block, then what recall
    served beside them; empty with neither."""
    if not lines and not recalled:
        return ""
    blocks = []
    if lines:
        blocks += [BRIEF_CONVENTION, "\n".join(lines)]
        if citations:
            blocks.append("\n".join(["Citations:", *(citation_line(c) for c in citations)]))
    if recalled:
        blocks.append("\n".join([RECALLED_HEADER, *recalled]))
    return "\n\n".join(blocks)


def citation_line(citation: Citation) -> str:
    """'F1: SOURCE — "QUOTE"', or 'F1: SOURCE' without a quote."""
    if citation.quote:
        return f'{citation.title}: {citation.source} — "{" ".join(citation.quote.split())}"'
    return f"{citation.title}: {citation.source}"


# ---------------------------------------------------------------------------------------------
# The Markdown Facts section

TABLE_HEADER = ("| Attribute | Value | Valid | Observed | Source |\n"
                "| :--- | :--- | :--- | :--- | :--- |")


def render_markdown(facts: Iterable[TimelineFact], instant: datetime, *,
                    show_stale: bool = False, freshness_days: int = 90) -> str:
    """The generated Facts section(s) of an entity page, as of ``instant`` (§7, §9).

    ``facts`` is every fact to show, of one or several subjects and any attributes (each fact
    carries its subject, attribute and cardinality). One subject yields one ``## Facts``
    section; several yield ``## Facts: SUBJECT`` sections, sorted by subject. No facts, no
    section (an empty string). The text ends with a newline.
    """
    by_subject: dict[str, list[TimelineFact]] = {}
    for fact in facts:
        by_subject.setdefault(fact.subject, []).append(fact)
    if not by_subject:
        return ""
    titled = len(by_subject) > 1
    sections = [
        subject_section(subject if titled else None, by_subject[subject], instant,
                        show_stale=show_stale, freshness_days=freshness_days)
        for subject in sorted(by_subject)
    ]
    return "\n".join(sections)


def subject_section(title: str | None, facts: Sequence[TimelineFact], instant: datetime, *,
                    show_stale: bool, freshness_days: int) -> str:
    """One '## Facts' section: the Current table (with freshness) and the History list."""
    heading = "## Facts" if title is None else f"## Facts: {title}"
    current = current_rows(facts, instant)
    cutoff = instant - timedelta(days=freshness_days)
    # Stale means its last confirmation made by the viewed date is too old; a confirmation
    # made after that date says nothing about how fresh the fact was then.
    stale = {f.id for f in current if confirmed_by(f, instant) < cutoff}
    shown = current if show_stale else [f for f in current if f.id not in stale]
    blocks = [heading, "### Current", current_table(shown, stale)]
    if stale and not show_stale:
        blocks.append(stale_note(len(stale), freshness_days, instant))
    blocks += ["### History", "\n".join(history_entry(f) for f in history_order(facts))]
    return "\n\n".join(blocks) + "\n"


def current_rows(facts: Sequence[TimelineFact], instant: datetime) -> list[TimelineFact]:
    """The facts valid at the instant per attribute, attributes sorted, values as they began."""
    by_attribute: dict[str, list[TimelineFact]] = {}
    for fact in facts:
        if not is_retracted(fact):
            by_attribute.setdefault(fact.attribute, []).append(fact)
    rows: list[TimelineFact] = []
    for attribute in sorted(by_attribute):
        key_facts = by_attribute[attribute]
        cardinality = key_facts[0].cardinality
        rows += current_at(key_facts, instant, cardinality)
    return rows


def current_table(rows: Sequence[TimelineFact], stale_ids: set[int]) -> str:
    """The seed's Current table, or 'No current facts.' when no row is shown."""
    if not rows:
        return "No current facts."
    body = [table_row(f, disputed=f.status == DISPUTED, stale=f.id in stale_ids) for f in rows]
    return "\n".join([TABLE_HEADER, *body])


def table_row(fact: TimelineFact, *, disputed: bool, stale: bool) -> str:
    """'| shoe_size | 41 EU | 2026 – now | 2026-10-15 | note:… |'."""
    start, end = range_bounds(fact)
    value = value_text(fact) + (" (disputed)" if disputed else "")
    observed = day(fact.observed_at) + (" (stale)" if stale else "")
    cells = [fact.attribute, value, f"{start} – {end}", observed, fact.source or "—"]
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def cell(text: str) -> str:
    """A table cell: one line, and a pipe in a value must not open a new column."""
    return " ".join(text.split()).replace("|", "\\|")


def confirmed_by(fact: TimelineFact, instant: datetime) -> datetime:
    """The fact's latest confirmation made at or before ``instant``: its own observation or
    a corroboration's (the first observation when all came later)."""
    made = [t for t in (fact.observed_at, *fact.corroborated_at, fact.last_confirmed_at)
            if t <= instant]
    return max(made) if made else fact.observed_at


def stale_note(hidden: int, freshness_days: int, instant: datetime) -> str:
    """'2 stale facts hidden (confirmed more than 90 days before 2026-12-31); show stale ...'."""
    noun = "fact" if hidden == 1 else "facts"
    return (f"{hidden} stale {noun} hidden (confirmed more than {freshness_days} days before "
            f"{day(instant)}); show stale to reveal.")


def history_entry(fact: TimelineFact) -> str:
    """'- **2026 – now** · shoe_size = 41 EU · observed 2026-10-15 · current' (or struck)."""
    start, end = range_bounds(fact)
    entry = (f"**{start} – {end}** · {fact.attribute} = {value_text(fact)} · "
             f"observed {day(fact.observed_at)}")
    if is_retracted(fact):
        return f"- ~~{entry}~~ · retracted"
    return f"- {entry} · {status_text(fact)}"


def status_text(fact: TimelineFact) -> str:
    """'current', 'disputed', 'superseded by #12' (plain 'superseded' with no successor)."""
    if fact.status == SUPERSEDED and fact.superseded_by is not None:
        return f"superseded by #{fact.superseded_by}"
    return fact.status
