"""The fast acceptance check never accepts what the published schemas refuse, and accepts
the ordinary requests (so the full validator is the exception, not the rule)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.timelines.format_v1 import _validator
from factstore.timelines.schema_fast import request_certainly_valid

_TEXT = st.one_of(st.text(max_size=6), st.sampled_from(
    ["me", "me\n", "person/nick", "person/Nick", "radar/x-1", "person/", "2020", "2020-06",
     "2020-06-01T10:00:00Z", "2020-06-01T10:00:00+01:00", "2020-13", "٢٠٢٠", "2020-06-01",
     "2026-01-01T00:00:00", "one", "many", "x" * 65, "y" * 2001, ""]))
_VALUE = st.one_of(_TEXT, st.integers(-2, 2), st.floats(allow_nan=True), st.booleans(),
                   st.none(), st.lists(st.integers(), max_size=1))
_FIELDS = ["subject", "attribute", "value", "unit", "valid_from", "valid_to", "observed_at",
           "source", "quote", "confidence", "cardinality", "id", "Subject"]
_FACT = st.dictionaries(st.sampled_from(_FIELDS), _VALUE, max_size=8)
_REQUEST = st.fixed_dictionaries(
    {"format": st.sampled_from([1, 1.0, True, "1", 2]),
     "facts": st.one_of(st.lists(_FACT, max_size=3), st.just("x"))},
    optional={"shared": st.sampled_from([True, False, 0, "yes"]), "extra": st.just(1)})


@settings(max_examples=1500, deadline=None)
@given(_REQUEST, st.booleans())
def test_what_the_fast_check_accepts_the_schema_accepts(payload, batch) -> None:
    if request_certainly_valid(payload, batch=batch):
        errors = [e for e in _validator().iter_errors(payload)
                  if not (batch and e.validator == "maxItems")]
        assert errors == [], payload


def test_ordinary_requests_take_the_fast_path() -> None:
    fact = {"subject": "person/nick", "attribute": "shoe_size", "value": "41", "unit": "EU",
            "valid_from": "2026-03", "observed_at": "2026-03-01T10:00:00Z",
            "source": "chat:1", "quote": "my shoe size is 41", "confidence": 0.9,
            "cardinality": "one"}
    assert request_certainly_valid({"format": 1, "facts": [fact], "shared": True})
    assert request_certainly_valid({"format": 1, "facts": [fact] * 60}, batch=True)
    assert not request_certainly_valid({"format": 1, "facts": [fact] * 60})
    assert not request_certainly_valid({"format": 1, "facts": [{**fact, "confidence": True}]})
