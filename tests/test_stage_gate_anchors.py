"""Write-path stages, pure: the index-page gate and anchor hygiene (seed 000 §3, §4).

No database: these are plain functions over strings.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from factstore.writepath.anchors import anchor_reason, locate, normalise_anchor, quote_is_anchored
from factstore.writepath.gate import index_page_gate

# --------------------------------------------------------------------------- index-page gate


def _links(n: int) -> str:
    return " ".join(f"[[Page {i}]]" for i in range(n))


def test_gate_flags_a_link_dense_table_of_contents():
    text = "Contents: " + _links(6)
    decision = index_page_gate(text, min_links=5, min_share=0.25)
    assert decision.is_index_page is True
    assert decision.links == 6
    assert decision.link_share > 0.25
    assert decision.reason is not None and "6 wiki-links" in decision.reason


def test_gate_passes_ordinary_prose_without_links():
    decision = index_page_gate("The nightly job is green on sample-svc right now.",
                               min_links=5, min_share=0.25)
    assert decision.is_index_page is False
    assert decision.links == 0
    assert decision.link_share == 0.0
    assert decision.reason is None


def test_gate_needs_enough_links_even_when_share_is_high():
    # four links and nothing else: share is 100% but the count is under the minimum
    decision = index_page_gate(_links(4), min_links=5, min_share=0.25)
    assert decision.links == 4
    assert decision.link_share == pytest.approx(1.0)
    assert decision.is_index_page is False


def test_gate_needs_enough_link_share_even_with_many_links():
    prose = " ".join(["word"] * 200)
    decision = index_page_gate(prose + " " + _links(6), min_links=5, min_share=0.25)
    assert decision.links == 6
    assert decision.link_share < 0.25
    assert decision.is_index_page is False


def test_gate_threshold_is_inclusive_on_count_and_share():
    # exactly min_links links, every word inside a link
    decision = index_page_gate(_links(5), min_links=5, min_share=1.0)
    assert decision.is_index_page is True


def test_gate_ignores_malformed_and_multiline_links():
    text = "[[open only [[also open\n]] [[line\nbreak]] [single] [[]]"
    decision = index_page_gate(text, min_links=1, min_share=0.0)
    assert decision.links == 0
    assert decision.is_index_page is False


def test_gate_share_is_capped_at_one():
    # links glued together count as one whitespace word but several link words
    decision = index_page_gate("[[a b]][[c d]][[e f]]", min_links=1, min_share=0.1)
    assert decision.link_share == pytest.approx(1.0)


# --------------------------------------------------------------------------- normalise_anchor


def test_normalise_collapses_whitespace_runs_and_strips():
    assert normalise_anchor("  sample-svc \t is\n\n green  ") == "sample-svc is green"


def test_normalise_collapses_backslash_runs():
    assert normalise_anchor(r"C:\\\\ops\\sample\runner.env") == r"C:\ops\sample\runner.env"


def test_normalise_leaves_other_characters_alone():
    text = "Checksum parity (214 == 214), 'quoted' / slashes // kept"
    assert normalise_anchor(text) == text


@given(st.text())
def test_normalise_anchor_is_idempotent(text):
    once = normalise_anchor(text)
    assert normalise_anchor(once) == once


@given(st.text())
def test_normalise_anchor_has_no_runs_left(text):
    out = normalise_anchor(text)
    assert "\\\\" not in out
    assert not re.search(r"\s\s", out)
    assert out == out.strip()


# --------------------------------------------------------------------------- quote_is_anchored

SOURCE = r"the runner token lives at C:\ops\sample\runner.env, rotated monthly"


def test_verbatim_quote_is_anchored():
    assert quote_is_anchored("the runner token lives at", SOURCE)


def test_doubled_backslash_quote_anchors_against_single_backslash_source():
    quote = "C:\\\\ops\\\\sample"  # what a JSON-escaped model answer carries
    assert "\\\\" in quote
    assert quote_is_anchored(quote, SOURCE)
    assert anchor_reason(quote, SOURCE) is None


def test_single_backslash_quote_anchors_against_doubled_backslash_source():
    source = "the runner token lives at C:\\\\ops\\\\sample\\\\runner.env"
    assert quote_is_anchored(r"C:\ops\sample\runner.env", source)


def test_whitespace_difference_is_forgiven():
    assert quote_is_anchored("runner   token\nlives", SOURCE)


def test_paraphrased_quote_is_not_anchored():
    quote = "the runner token is stored at C:\\ops\\sample\\runner.env"
    assert not quote_is_anchored(quote, SOURCE)
    reason = anchor_reason(quote, SOURCE)
    assert reason is not None
    assert reason.startswith("anchor:")
    assert "does not occur" in reason


def test_case_difference_is_not_forgiven():
    assert not quote_is_anchored("The Runner Token", SOURCE)


def test_whitespace_cannot_be_invented_inside_a_word():
    assert not quote_is_anchored("run ner token", SOURCE)


def test_backslash_cannot_be_dropped_entirely():
    assert not quote_is_anchored("C:opssample", SOURCE)


@pytest.mark.parametrize("quote", ["", "   ", "\n\t"])
def test_empty_quote_is_never_anchored(quote):
    assert not quote_is_anchored(quote, SOURCE)
    reason = anchor_reason(quote, SOURCE)
    assert reason is not None and "no evidence quote" in reason


def test_anchor_reason_truncates_a_long_quote():
    quote = "x" * 200
    reason = anchor_reason(quote, SOURCE)
    assert reason is not None
    assert "x" * 77 + "..." in reason
    assert "x" * 78 not in reason


# --------------------------------------------------------------------------- locate


def test_locate_exact_span():
    span = locate("runner token", SOURCE)
    assert span is not None
    assert SOURCE[span[0]:span[1]] == "runner token"


def test_locate_maps_a_normalised_match_back_to_the_source_span():
    source = "we   migrated\n all\t214 pages today"
    span = locate("migrated all 214 pages", source)
    assert span is not None
    assert source[span[0]:span[1]] == "migrated\n all\t214 pages"


def test_locate_handles_backslash_runs_both_ways():
    doubled = "at C:\\\\ops\\\\sample now"
    span = locate(r"C:\ops\sample", doubled)
    assert span is not None
    assert doubled[span[0]:span[1]] == "C:\\\\ops\\\\sample"
    span = locate("C:\\\\ops\\\\sample", SOURCE)
    assert span is not None
    assert SOURCE[span[0]:span[1]] == r"C:\ops\sample"


def test_locate_treats_regex_metacharacters_literally():
    source = "parity verified (214 == 214) [ok] a.b*c?"
    span = locate("(214  ==  214) [ok] a.b*c?", source)
    assert span is not None
    assert source[span[0]:span[1]] == "(214 == 214) [ok] a.b*c?"
    assert locate("a.b*c+", source) is None


def test_locate_returns_none_for_paraphrase_and_blank():
    assert locate("the token is stored at", SOURCE) is None
    assert locate("   ", "some source") is None


# --------------------------------------------------------------------------- properties

_ALPHABET = st.sampled_from(list("abcXYZ019.,:()=\\/-' \t\n"))
_WS = re.compile(r"\s+")
_BS = re.compile(r"\\+")


@st.composite
def _source_and_inflated_quote(draw):
    source = draw(st.text(_ALPHABET, min_size=1, max_size=60))
    i = draw(st.integers(0, len(source) - 1))
    j = draw(st.integers(i + 1, len(source)))
    quote = source[i:j]
    assume(normalise_anchor(quote))
    # transport mangling: every whitespace run and every backslash run may grow or shrink
    quote = _WS.sub(lambda _m: draw(st.sampled_from([" ", "  ", "\n", "\t ", " \n\n "])), quote)
    quote = _BS.sub(lambda _m: "\\" * draw(st.integers(1, 4)), quote)
    return source, quote


@settings(max_examples=300, deadline=None)
@given(_source_and_inflated_quote())
def test_a_quote_cut_from_the_source_always_anchors(pair):
    source, quote = pair
    assert quote_is_anchored(quote, source)
    assert anchor_reason(quote, source) is None


@settings(max_examples=300, deadline=None)
@given(_source_and_inflated_quote())
def test_locate_finds_every_anchored_quote_and_the_span_matches(pair):
    source, quote = pair
    span = locate(quote, source)
    assert span is not None
    start, end = span
    assert 0 <= start < end <= len(source)
    assert normalise_anchor(source[start:end]) == normalise_anchor(quote)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(list("abc ")), min_size=1, max_size=30),
       st.text(st.sampled_from(list("xyz")), min_size=1, max_size=5))
def test_a_quote_with_foreign_text_never_anchors(source, foreign):
    # 'xyz' never occurs in a source drawn from 'abc ', so any quote containing it is unanchored
    assert not quote_is_anchored(source + foreign, source)
    assert locate(source + foreign, source) is None
