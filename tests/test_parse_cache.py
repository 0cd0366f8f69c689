"""The parse cache shared by the parser scribe and the compiler (``factstore.nlp``)."""

from factstore import nlp


def test_parses_come_back_in_order_when_the_cache_overflows(monkeypatch):
    # a capture with more sentences than the cache holds once evicted the parses it was
    # about to return (LoCoMo's long sessions hit this)
    monkeypatch.setattr(nlp, "_PARSED", {})
    monkeypatch.setattr(nlp, "_PARSED_MAX", 4)
    first = [f"Sentence number {i} is here." for i in range(3)]
    nlp.parse_all(first)
    texts = first[:2] + [f"Another line {i} arrives." for i in range(5)] + first[:1]
    docs = nlp.parse_all(texts)
    assert [d.text for d in docs] == texts
    assert len(nlp._PARSED) <= 4 + len(texts)


def test_a_repeated_text_is_parsed_once(monkeypatch):
    monkeypatch.setattr(nlp, "_PARSED", {})
    a, b = nlp.parse_all(["Priya reports to Daniel.", "Priya reports to Daniel."])
    assert a is b
    assert nlp.parse_all(["Priya reports to Daniel."])[0] is a
