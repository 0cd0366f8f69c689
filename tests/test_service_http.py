"""The HTTP door, called with httpx on loopback against a real server and database."""

from __future__ import annotations

import os

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factstore.service.catalogue import TOOLS
from tests.served import Served, serve


@pytest.fixture(scope="module")
def served(admin_dsn, embedder):
    yield from serve(admin_dsn, embedder, "http")


@pytest.fixture()
def http(served: Served):
    with httpx.Client(base_url=served.url, timeout=60) as client:
        yield client


def test_health_needs_no_token_but_every_route_does(http) -> None:
    assert http.get("/v1/health").json()["status"] == "ok"
    for method, path in (("GET", "/v1/facts"), ("POST", "/v1/facts"), ("POST", "/v1/notes"),
                         ("POST", "/v1/ask"), ("POST", "/v1/tools/describe")):
        for headers in ({}, {"Authorization": "Bearer fst_tok-000000000000_" + "x" * 43},
                        {"Authorization": "Basic abc"}):
            answer = http.request(method, path, headers=headers, json={})
            assert answer.status_code == 401, (method, path, headers)
            assert answer.json()["error"]["code"] == "auth/invalid-token"


def test_the_seed_routes_write_read_and_ask_with_as_of(served, http) -> None:
    nick = served.auth("nick")
    first = http.post("/v1/notes", headers=nick, json={
        "body": "my shoe size is 40", "facts": [
            {"subject": "me", "attribute": "shoe_size", "value": "40", "unit": "EU",
             "valid_from": "2025"}]})
    assert first.status_code == 201
    note = first.json()
    fact = note["facts"]["facts"][0]["fact"]
    assert note["note"].startswith("note:acme/user-nick/note-")
    assert fact["source"] == note["note"] and fact["quote"] is None  # cites the note
    assert note["remembered"]["document"]["lineage"].endswith(note["note"])
    later = http.post("/v1/facts", headers=nick, json={"format": 1, "facts": [
        {"subject": "me", "attribute": "shoe_size", "value": "41", "unit": "EU",
         "valid_from": "2026", "source": "conversation:c-1#m-9"}]})
    assert later.status_code == 201 and later.json()["facts"][0]["outcome"] == "created"
    read = http.get("/v1/facts", headers=nick, params={"subject": "me",
                                                       "attribute": "shoe_size"}).json()
    assert [f["value"] for f in read["keys"][0]["current"]] == ["41"]
    then = http.get("/v1/facts", headers=nick, params={"subject": "me", "attribute": "shoe_size",
                                                       "as_of": "2025"}).json()
    assert then["as_of_instant"].startswith("2025-12-31T23:59:59")
    assert [f["value"] for f in then["keys"][0]["current"]] == ["40"]
    asked = http.post("/v1/ask", headers=nick, json={"question": "what is my shoe size?",
                                                    "as_of": "2025"}).json()
    assert "40 EU" in asked["lines"][0] and "later 41 EU" in asked["lines"][0]
    fact_id = later.json()["facts"][0]["id"]
    retracted = http.post(f"/v1/facts/{fact_id}/retract", headers=nick,
                          json={"reason": "typo"})
    assert retracted.status_code == 200 and retracted.json()["fact"]["status"] == "retracted"
    again = http.post(f"/v1/facts/{fact_id}/retract", headers=nick)
    assert again.status_code == 422 and again.json()["error"]["type"] == "AlreadyRetracted"


def test_a_refused_write_is_422_with_every_violation_and_writes_nothing(served, http) -> None:
    nick = served.auth("nick")
    before = served.store.row_counts()
    bad = http.post("/v1/facts", headers=nick, json={"format": 1, "facts": [
        {"subject": "Nick", "attribute": "city", "value": "Oslo"},
        {"subject": "me", "attribute": "city", "valid_from": "20x"}]})
    assert bad.status_code == 422
    error = bad.json()["error"]
    assert error["code"] == "facts/invalid"
    assert {v["path"] for v in error["violations"]} == {
        "facts[0].subject", "facts[1].value", "facts[1].valid_from"}
    http.post("/v1/facts", headers=nick, json={"format": 1, "facts": [
        {"subject": "project/x", "attribute": "tags", "value": "a", "cardinality": "many"}]})
    mismatch = http.post("/v1/facts", headers=nick, json={"format": 1, "facts": [
        {"subject": "project/x", "attribute": "tags", "value": "b", "cardinality": "one"}]})
    assert mismatch.status_code == 422
    assert mismatch.json()["error"]["code"] == "facts/cardinality-mismatch"
    shape = http.post("/v1/notes", headers=nick, json={"facts": "nope"})
    assert shape.status_code == 422 and shape.json()["error"]["violations"]
    # a note whose facts are refused keeps nothing, not even its body
    for facts, code in (([{"subject": "Nick", "attribute": "city", "value": "Oslo"}],
                         "facts/invalid"),
                        ([{"subject": "project/x", "attribute": "tags", "value": "c",
                           "cardinality": "one"}], "facts/cardinality-mismatch")):
        refused = http.post("/v1/notes", headers=nick, json={
            "body": "project x is tagged c", "facts": facts})
        assert refused.status_code == 422 and refused.json()["error"]["code"] == code
    after = served.store.row_counts()
    assert after["facts"] == before["facts"] + 1  # only the one good write
    assert after["documents"] == before["documents"] + 1  # its request; no note body


def test_every_tool_is_a_route_and_the_openapi_names_them(served, http) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    for route in ("/v1/facts", "/v1/notes", "/v1/ask", "/v1/facts/{fact_id}/retract"):
        assert route in paths
    for name in TOOLS:
        assert f"/v1/tools/{name}" in paths, name
    owner = served.auth("owner")
    remembered = http.post("/v1/tools/remember", headers=owner, json={
        "text": "billing-svc is green right now", "source_ref": "chat:1"}).json()
    fact_id = remembered["outcomes"][0]["fact"]["id"]
    found = http.post("/v1/tools/recall", headers=owner, json={"query": "is billing-svc green?"})
    assert fact_id in [i["fact"]["id"] for i in found.json()["items"] if i["fact"]]
    assert http.post("/v1/tools/describe", headers=owner).json()["schema_versions"][-1] >= 18
    assert http.post("/v1/tools/open_conflicts", headers=owner).status_code == 200
    assert http.post("/v1/tools/registry_query", headers=owner,
                     json={"topic": "billing"}).status_code == 200
    missing = http.post("/v1/tools/resolve_conflict", headers=owner,
                        json={"conflict_id": 999, "winner_id": 1, "reasoning": "x"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not-found"
    extra = http.post("/v1/tools/recall", headers=owner, json={"query": "x", "scope": "a/b"})
    assert extra.status_code == 422  # no tool takes a scope


def test_a_token_reads_nothing_of_another_scope_through_http(served, http) -> None:
    eve, nick, bob = served.auth("eve"), served.auth("nick"), served.auth("bob")
    made = http.post("/v1/facts", headers=eve, json={"format": 1, "shared": True, "facts": [
        {"subject": "system/vault", "attribute": "code", "value": "globex-7731"}]}).json()
    http.post("/v1/tools/remember", headers=eve, json={"text": "The vault code is 7731."})
    eve_fact = made["facts"][0]["id"]
    assert http.get("/v1/facts", headers=nick, params={"subject": "system/vault"}).json()[
        "keys"] == []
    recalled = http.post("/v1/tools/recall", headers=nick, json={"query": "vault code"}).json()
    assert "7731" not in str(recalled)
    assert "7731" not in http.post("/v1/ask", headers=nick,
                                   json={"question": "what is the vault code?"}).text
    refused = http.post(f"/v1/facts/{eve_fact}/retract", headers=nick)
    assert refused.status_code in (403, 404)
    shared = http.post("/v1/facts", headers=bob, json={"format": 1, "shared": True, "facts": [
        {"subject": "me", "attribute": "city", "value": "Oslo"}]})
    assert shared.status_code == 403 and shared.json()["error"]["code"] == "auth/denied"
    assert served.store.fact(eve_fact).verdict.value == "active"


HOSTILE = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                    st.text(max_size=30), st.sampled_from(["", " ", "\x00", "me", "2025",
                                                           "acme/user-nick", "x" * 5000]),
                    st.lists(st.text(max_size=5), max_size=3),
                    st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=3))


@settings(max_examples=int(os.environ.get("FACTSTORE_FUZZ_EXAMPLES", "400")) // 2,
          deadline=None, derandomize=not os.environ.get("FACTSTORE_FUZZ_RANDOM"),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(TOOLS)), who=st.sampled_from(["nick", "bob", "owner"]),
       body=st.one_of(HOSTILE, st.dictionaries(st.sampled_from(
           ["text", "query", "k", "facts", "shared", "subject", "as_of", "fact_id", "reason",
            "conflict_id", "winner_id", "reasoning", "tag", "topic", "question", "body",
            "status", "note", "valid_to", "scope", "title", "risk", "cost"]), HOSTILE,
           max_size=4)))
def test_any_body_on_any_route_is_answered_never_crashes_and_refusals_write_nothing(
        served, http, name, who, body) -> None:
    before = served.store.row_counts()
    answer = http.post(f"/v1/tools/{name}", headers=served.auth(who), json=body)
    assert answer.status_code in (200, 201, 403, 404, 422), (name, body, answer.text[:300])
    if answer.status_code >= 400:
        error = answer.json()["error"]
        assert error["message"] and error["code"]
        assert served.store.row_counts() == before, (name, body)


def test_a_fault_inside_factstore_is_a_500_in_the_error_shape(served, http, monkeypatch) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(type(served.store), "describe", broken)
    answer = http.post("/v1/tools/describe", headers=served.auth("owner"))
    assert answer.status_code == 500
    assert answer.json()["error"] == {"code": "internal", "type": "RuntimeError",
                                      "message": "internal error: a bug"}
    monkeypatch.undo()
    assert http.post("/v1/tools/describe", headers=served.auth("owner")).status_code == 200
