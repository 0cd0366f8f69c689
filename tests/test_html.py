"""The results a notebook shows render as HTML tables (escaped), from a real store; their
plain repr is the dataclass's, as before."""

from __future__ import annotations

from factstore.extractors.rules import RuleExtractor


def test_results_render_as_escaped_html_tables_with_what_a_reader_needs(open_store):
    store = open_store(extractor=RuleExtractor())
    for i, place in enumerate(("sample", "legacy")):
        store.remember(rf"the runner token lives at C:\ops\{place}\runner.env",
                       source_ref=f"chat:{i}", said_at=f"2026-03-0{i + 1}T09:00:00Z")
    (conflict,) = store.open_conflicts()
    html = conflict._repr_html_()
    assert "<table" in html and "C:\\ops\\sample\\runner.env" in html
    for call in (f"store.resolve_conflict({conflict.id}, winner_id={conflict.fact_a.id}",
                 f"store.resolve_both_stand({conflict.id}"):
        assert call in html
    assert repr(conflict).startswith("Conflict(id=")

    recalled = store.recall("where does the runner token live?")
    html = recalled._repr_html_()
    assert all(item.label.code in html for item in recalled.items)
    assert recalled.layer in html

    store.write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "city", "value": "<b>Paris</b>", "valid_from": "2024"},
        {"subject": "me", "attribute": "city", "value": "Lisbon", "valid_from": "2026"}]})
    html = store.facts("me", "city")._repr_html_()
    assert "&lt;b&gt;Paris&lt;/b&gt;" in html and "<b>Paris</b>" not in html
    assert "Lisbon" in html and "valid from" in html

    question = store.add_open_question("Who owns CI?", "nobody <said>", risk="high",
                                       cost="low")
    html = question._repr_html_()
    assert "nobody &lt;said&gt;" in html and question.recommendation in html
