"""Golden tests for timeline rendering (seed 002 §5, §7, §8, §9).

Facts are built directly, with status / effective_valid_to / links already as resolution
would store them, so each test pins the text alone.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from factstore.timelines.dates import parse_partial
from factstore.timelines.model import TimelineFact, TimelineKey
from factstore.timelines.render import (
    BRIEF_CONVENTION,
    Brief,
    Citation,
    own_source,
    render_brief,
    render_line,
    render_markdown,
)

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
END_2025 = parse_partial("2025").last_instant
IN_2024 = parse_partial("2024").last_instant
NOTE_A = "note:user-…/note-…"
NOTE_B = "note:user-3f…/note-91c…"


def at(year: int, month: int = 1, day: int = 1) -> datetime:
    return datetime(year, month, day, 9, 12, tzinfo=UTC)


def fact(id: int, value: str, valid_from: str | None, observed: datetime, *,
         subject: str = "person/nick", attribute: str = "shoe_size", unit: str | None = "EU",
         cardinality: str = "one", **decided) -> TimelineFact:
    """A stored fact version; ``decided`` carries what resolution set (status, links, end)."""
    decided.setdefault("last_confirmed_at", observed)
    return TimelineFact(id=id, subject=subject, attribute=attribute, value=value, unit=unit,
                        cardinality=cardinality, valid_from=valid_from,
                        valid_to=decided.pop("valid_to", None), observed_at=observed,
                        recorded_at=observed, **decided)


def shoe_sizes(subject: str = "person/nick") -> tuple[TimelineFact, TimelineFact]:
    """§8: A (40 EU, 2025..2026, superseded by B) and B (41 EU, 2026.., current)."""
    a = fact(11, "40", "2025", at(2025, 3, 2), subject=subject, source=NOTE_A,
             quote="my shoe size is 40", status="superseded", effective_valid_to="2026",
             superseded_by=12)
    b = fact(12, "41", "2026", at(2026, 10, 15), subject=subject, source=NOTE_B,
             quote="my shoe size is now 41", supersedes=11)
    return a, b


def line(facts, instant, cardinality="one", attribute="shoe_size", **kwargs) -> str:
    return render_line("person/nick", attribute, cardinality, facts, instant,
                       cite=own_source, **kwargs)


# -- the one-line form -------------------------------------------------------------------------

def test_seed_brief_lines_now_and_as_of_2025():
    a, b = shoe_sizes("person/u0nick")
    now = render_brief("what's my shoe size?", [("person/u0nick", "shoe_size", "one", (b, a))],
                       NOW, "now")
    then = render_brief("what's my shoe size?", [("person/u0nick", "shoe_size", "one", (b, a))],
                        END_2025, "2025")
    assert now.lines == ("shoe_size(person/u0nick) = 41 EU [valid 2026..now, observed "
                         "2026-10-15, source F1] (was 40 EU 2025..2026)",)
    assert then.lines == ("shoe_size(person/u0nick) = 40 EU [valid 2025..2026, observed "
                          "2025-03-02, source F1] (later 41 EU 2026..now)",)


def test_get_line_cites_each_fact_by_its_own_source():
    a, b = shoe_sizes()
    assert line([b, a], END_2025) == (
        "shoe_size(person/nick) = 40 EU [valid 2025..2026, observed 2025-03-02, "
        "source note:user-…/note-…] (later 41 EU 2026..now)")


def test_was_lists_two_earlier_values_newest_first():
    a, b = shoe_sizes()
    older = fact(10, "39", "2024", at(2024, 5, 1), source="s0", status="superseded",
                 effective_valid_to="2025", superseded_by=11)
    assert line([older, replace(a, supersedes=10), b], NOW) == (
        "shoe_size(person/nick) = 41 EU [valid 2026..now, observed 2026-10-15, "
        f"source {NOTE_B}] (was 40 EU 2025..2026, 39 EU 2024..2025)")


def test_later_lists_values_after_the_instant_oldest_first():
    a, b = shoe_sizes()
    older = fact(10, "39", "2024", at(2024, 5, 1), source="s0", status="superseded",
                 effective_valid_to="2025", superseded_by=11)
    assert line([b, a, older], IN_2024) == (
        "shoe_size(person/nick) = 39 EU [valid 2024..2025, observed 2024-05-01, source s0] "
        "(later 40 EU 2025..2026, 41 EU 2026..now)")


def test_disputed_values_replace_the_value_one_segment_each():
    a, b = shoe_sizes()
    b = replace(b, status="disputed")
    rival = fact(13, "42", "2026", at(2026, 10, 20), source="conversation:c-9#m-1",
                 status="disputed", supersedes=11)
    assert line([a, b, rival], NOW) == (
        "shoe_size(person/nick) = {disputed: 41 EU | 42 EU} "
        f"[valid 2026..now, observed 2026-10-15, source {NOTE_B}; "
        "valid 2026..now, observed 2026-10-20, source conversation:c-9#m-1] "
        "(was 40 EU 2025..2026)")


def test_many_lists_values_valid_then_in_the_order_they_began():
    tools = [
        fact(21, "fzf", "2024", at(2024, 2, 1), attribute="uses_tool", unit=None,
             cardinality="many", valid_to="2025", effective_valid_to="2025", source="s1"),
        fact(22, "ripgrep", "2025", at(2025, 1, 5), attribute="uses_tool", unit=None,
             cardinality="many", source="s2"),
        fact(23, "jj", "2026-02", at(2026, 2, 3), attribute="uses_tool", unit=None,
             cardinality="many", source="s3"),
    ]
    assert line(tools, NOW, cardinality="many", attribute="uses_tool") == (
        "uses_tool(person/nick) = {ripgrep, jj} "
        "[valid 2025..now, observed 2025-01-05, source s2; "
        "valid 2026-02..now, observed 2026-02-03, source s3] (was fzf 2024..2025)")
    assert line(tools, END_2025, cardinality="many", attribute="uses_tool") == (
        "uses_tool(person/nick) = {ripgrep} [valid 2025..now, observed 2025-01-05, source s2] "
        "(was fzf 2024..2025) (later jj 2026-02..now)")


def test_nothing_valid_at_the_instant_still_shows_later_and_was():
    a, b = shoe_sizes()
    assert line([a, b], IN_2024, as_of="2024") == (
        "shoe_size(person/nick) = (none at 2024) (later 40 EU 2025..2026, 41 EU 2026..now)")
    # Without a label the instant's date names it.
    assert line([a, b], IN_2024) == (
        "shoe_size(person/nick) = (none at 2024-12-31) (later 40 EU 2025..2026, 41 EU 2026..now)")
    ended = fact(31, "Acme", "2023", at(2023, 4, 1), attribute="employer", unit=None,
                 valid_to="2025", effective_valid_to="2025", source="s1")
    assert line([ended], NOW, attribute="employer", as_of="now") == (
        "employer(person/nick) = (none at now) (was Acme 2023..2025)")


def test_no_source_omits_the_source_and_undated_start_reads_question_mark():
    undated = fact(41, "Berlin", None, at(2026, 3, 4), attribute="city", unit=None)
    assert line([undated], NOW, attribute="city") == (
        "city(person/nick) = Berlin [valid ?..now, observed 2026-03-04]")


def test_retracted_facts_never_appear_in_a_line():
    a, b = shoe_sizes()
    wrong = fact(14, "44", "2025-06", at(2025, 7, 1), source="s9", retracted=True,
                 status="retracted")
    assert line([a, b, wrong], NOW) == line([a, b], NOW)
    assert line([a, b, wrong], END_2025) == line([a, b], END_2025)


# -- the brief ---------------------------------------------------------------------------------

def test_convention_is_the_seed_text():
    assert BRIEF_CONVENTION == (
        "Facts below are temporal. Each line is attribute(subject) = value [valid FROM..TO, "
        "observed DATE, source]. Prefer the value valid now (or at the time the question asks "
        "about). When a value changed and the change is relevant, say so (\"41, was 40 until "
        "2026\"). Treat disputed as unsettled and say so. Cite the source.")


def test_brief_numbers_sources_in_order_of_first_citation():
    a, b = shoe_sizes("person/u0nick")
    job = fact(31, "Acme", "2024", at(2024, 5, 1), subject="person/u0nick",
               attribute="employer", unit=None, source="conversation:c-7#m-2",
               quote="I work at Acme")
    shoe_key = TimelineKey("person/u0nick", "shoe_size", "one", current=(b,), history=(b, a),
                           line="(ignored: rendered afresh)")
    brief = render_brief("what's my shoe size and employer?",
                         [shoe_key, ("person/u0nick", "employer", "one", [job]), shoe_key],
                         NOW, "now")
    assert isinstance(brief, Brief)
    assert (brief.question, brief.as_of, brief.as_of_instant) == (
        "what's my shoe size and employer?", "now", NOW)
    shoe_line = ("shoe_size(person/u0nick) = 41 EU [valid 2026..now, observed 2026-10-15, "
                 "source F1] (was 40 EU 2025..2026)")
    job_line = "employer(person/u0nick) = Acme [valid 2024..now, observed 2024-05-01, source F2]"
    # The shoe-size fact is cited twice and keeps F1.
    assert brief.lines == (shoe_line, job_line, shoe_line)
    assert brief.citations == (
        Citation("F1", NOTE_B, "my shoe size is now 41"),
        Citation("F2", "conversation:c-7#m-2", "I work at Acme"),
    )
    assert brief.text == (
        f"{BRIEF_CONVENTION}\n"
        "\n"
        f"{shoe_line}\n{job_line}\n{shoe_line}\n"
        "\n"
        "Citations:\n"
        f'F1: {NOTE_B} — "my shoe size is now 41"\n'
        'F2: conversation:c-7#m-2 — "I work at Acme"')


def test_brief_disputed_segments_get_their_own_numbers_and_one_note_shares_one():
    a, b = shoe_sizes()
    b = replace(b, status="disputed")
    rival = fact(13, "42", "2026", at(2026, 10, 20), source="conversation:c-9#m-1",
                 status="disputed")
    # A note's facts share its source and (no) quote: one citation for both.
    city = fact(41, "Berlin", "2026", at(2026, 10, 15), attribute="city", unit=None,
                source="note:user-…/note-7")
    lang = fact(42, "Dutch", "2026", at(2026, 10, 15), attribute="speaks", unit=None,
                cardinality="many", source="note:user-…/note-7")
    brief = render_brief("q", [("person/nick", "shoe_size", "one", [a, b, rival]),
                               ("person/nick", "city", "one", [city]),
                               ("person/nick", "speaks", "many", [lang])], NOW, "now")
    assert brief.lines == (
        "shoe_size(person/nick) = {disputed: 41 EU | 42 EU} [valid 2026..now, observed "
        "2026-10-15, source F1; valid 2026..now, observed 2026-10-20, source F2] "
        "(was 40 EU 2025..2026)",
        "city(person/nick) = Berlin [valid 2026..now, observed 2026-10-15, source F3]",
        "speaks(person/nick) = {Dutch} [valid 2026..now, observed 2026-10-15, source F3]",
    )
    assert brief.citations[2] == Citation("F3", "note:user-…/note-7", None)
    assert brief.text.endswith("\nF3: note:user-…/note-7")


def test_brief_without_sources_or_timelines():
    undated = fact(41, "Berlin", None, at(2026, 3, 4), attribute="city", unit=None)
    brief = render_brief("q", [("person/nick", "city", "one", [undated])], NOW, "now")
    assert brief.citations == ()
    assert brief.text == (f"{BRIEF_CONVENTION}\n\n"
                          "city(person/nick) = Berlin [valid ?..now, observed 2026-03-04]")
    empty = render_brief("q", [], NOW, "now")
    assert (empty.lines, empty.citations, empty.text) == ((), (), "")


# -- the Markdown Facts section ----------------------------------------------------------------

TABLE_OF_ONE = ("| Attribute | Value | Valid | Observed | Source |\n"
                "| :--- | :--- | :--- | :--- | :--- |\n")
SEED_MARKDOWN = """\
## Facts

### Current

| Attribute | Value | Valid | Observed | Source |
| :--- | :--- | :--- | :--- | :--- |
| shoe_size | 41 EU | 2026 – now | 2026-10-15 | note:user-3f…/note-91c… |

### History

- **2026 – now** · shoe_size = 41 EU · observed 2026-10-15 · current
- **2025 – 2026** · shoe_size = 40 EU · observed 2025-03-02 · superseded by #12
"""


def test_markdown_shoe_size_matches_the_seed_layout():
    a, b = shoe_sizes()
    assert render_markdown([a, b], NOW) == SEED_MARKDOWN
    # Input order does not matter: the rendering is deterministic.
    assert render_markdown([b, a], NOW) == SEED_MARKDOWN


def test_markdown_as_of_2025_shows_the_value_valid_then_with_freshness_from_then():
    a, b = shoe_sizes()
    row_2026 = "| shoe_size | 41 EU | 2026 – now | 2026-10-15 | note:user-3f…/note-91c… |"
    row_2025 = "| shoe_size | 40 EU | 2025 – 2026 | 2025-03-02 | note:user-…/note-… |"
    reconfirmed = replace(a, last_confirmed_at=at(2025, 11, 20))
    assert render_markdown([reconfirmed, b], END_2025) == SEED_MARKDOWN.replace(
        row_2026, row_2025)
    # Confirmed only in March: stale when viewed as of the end of 2025.
    assert render_markdown([a, b], END_2025) == SEED_MARKDOWN.replace(
        TABLE_OF_ONE + row_2026,
        "No current facts.\n\n1 stale fact hidden (confirmed more than 90 days before "
        "2025-12-31); show stale to reveal.")
    assert render_markdown([a, b], END_2025, show_stale=True) == SEED_MARKDOWN.replace(
        row_2026, row_2025.replace("2025-03-02", "2025-03-02 (stale)"))


def test_markdown_retracted_struck_through_disputed_marked_rows_by_attribute():
    a, b = shoe_sizes()
    b = replace(b, status="disputed")
    rival = fact(13, "42", "2026", at(2026, 10, 20), status="disputed")
    wrong = fact(14, "44", "2025-06", at(2025, 7, 1), source="s9", retracted=True,
                 status="retracted")
    city = fact(41, "Berlin", "2026-09", at(2026, 9, 30), attribute="city", unit=None,
                source="s4")
    assert render_markdown([wrong, rival, city, a, b], NOW) == """\
## Facts

### Current

| Attribute | Value | Valid | Observed | Source |
| :--- | :--- | :--- | :--- | :--- |
| city | Berlin | 2026-09 – now | 2026-09-30 | s4 |
| shoe_size | 41 EU (disputed) | 2026 – now | 2026-10-15 | note:user-3f…/note-91c… |
| shoe_size | 42 EU (disputed) | 2026 – now | 2026-10-20 | — |

### History

- **2026-09 – now** · city = Berlin · observed 2026-09-30 · current
- **2026 – now** · shoe_size = 42 EU · observed 2026-10-20 · disputed
- **2026 – now** · shoe_size = 41 EU · observed 2026-10-15 · disputed
- ~~**2025-06 – now** · shoe_size = 44 EU · observed 2025-07-01~~ · retracted
- **2025 – 2026** · shoe_size = 40 EU · observed 2025-03-02 · superseded by #12
"""


def test_markdown_freshness_hides_a_stale_current_fact_and_show_stale_reveals_it():
    a, b = shoe_sizes()
    # Confirmed 2026-10-15: fresh on 2026-11-01. The city was last confirmed in March.
    city = fact(41, "Berlin", "2026-03", at(2026, 3, 4), attribute="city", unit=None,
                source="s4")
    history = """\
### History

- **2026-03 – now** · city = Berlin · observed 2026-03-04 · current
- **2026 – now** · shoe_size = 41 EU · observed 2026-10-15 · current
- **2025 – 2026** · shoe_size = 40 EU · observed 2025-03-02 · superseded by #12
"""
    assert render_markdown([a, b, city], NOW) == """\
## Facts

### Current

| Attribute | Value | Valid | Observed | Source |
| :--- | :--- | :--- | :--- | :--- |
| shoe_size | 41 EU | 2026 – now | 2026-10-15 | note:user-3f…/note-91c… |

1 stale fact hidden (confirmed more than 90 days before 2026-11-01); show stale to reveal.

""" + history
    assert render_markdown([a, b, city], NOW, show_stale=True) == """\
## Facts

### Current

| Attribute | Value | Valid | Observed | Source |
| :--- | :--- | :--- | :--- | :--- |
| city | Berlin | 2026-03 – now | 2026-03-04 (stale) | s4 |
| shoe_size | 41 EU | 2026 – now | 2026-10-15 | note:user-3f…/note-91c… |

""" + history
    # A longer window keeps it; confirming it again moves it back into view.
    assert "stale" not in render_markdown([a, b, city], NOW, freshness_days=365)
    confirmed = replace(city, last_confirmed_at=at(2026, 10, 1))
    assert "stale" not in render_markdown([a, b, confirmed], NOW)


def test_markdown_all_current_stale_says_so_and_counts_them():
    city = fact(41, "Berlin", "2026-03", at(2026, 3, 4), attribute="city", unit=None)
    job = fact(31, "Acme", "2024", at(2024, 5, 1), attribute="employer", unit=None)
    text = render_markdown([city, job], NOW)
    assert text.startswith("## Facts\n\n### Current\n\nNo current facts.\n\n"
                           "2 stale facts hidden (confirmed more than 90 days before "
                           "2026-11-01); show stale to reveal.\n\n### History\n\n")


def test_markdown_several_subjects_render_one_section_each():
    a, b = shoe_sizes()
    tool = fact(51, "pgvector", "2025", at(2026, 10, 2), subject="project/factstore",
                attribute="depends_on", unit=None, cardinality="many", source="s5")
    assert render_markdown([tool, b, a], NOW) == """\
## Facts: person/nick

### Current

| Attribute | Value | Valid | Observed | Source |
| :--- | :--- | :--- | :--- | :--- |
| shoe_size | 41 EU | 2026 – now | 2026-10-15 | note:user-3f…/note-91c… |

### History

- **2026 – now** · shoe_size = 41 EU · observed 2026-10-15 · current
- **2025 – 2026** · shoe_size = 40 EU · observed 2025-03-02 · superseded by #12

## Facts: project/factstore

### Current

| Attribute | Value | Valid | Observed | Source |
| :--- | :--- | :--- | :--- | :--- |
| depends_on | pgvector | 2025 – now | 2026-10-02 | s5 |

### History

- **2025 – now** · depends_on = pgvector · observed 2026-10-02 · current
"""


def test_markdown_table_cells_escape_pipes_and_no_facts_render_nothing():
    odd = fact(61, "a | b", "2026", at(2026, 10, 1), attribute="motto", unit=None)
    assert "| motto | a \\| b | 2026 – now | 2026-10-01 | — |" in render_markdown([odd], NOW)
    assert render_markdown([], NOW) == ""
