"""T4 resolvers: OllamaResolver against the loopback stand-in (the real ``ollama`` client),
and resolver cassettes, recorded in one store and replayed into another fresh one.

Only the last tests need a database; the rest run on hand-built snapshots.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from factstore import Store
from factstore.entities.resolution import (
    Candidate,
    Decision,
    Mention,
    Resolution,
    RuleResolver,
    Scored,
    resolve,
    score,
)
from factstore.entities.resolvers import (
    PROMPT_VERSION,
    RESOLVER_CHOICES,
    OllamaResolver,
    RecordingResolver,
    ReplayResolver,
    canonical_order,
    decision_key,
    load_resolve_template,
    parse_decision,
    prompt_version,
    read_resolver_cassette,
    render_resolve_prompt,
    resolve_schema,
    resolver_from_name,
)
from factstore.errors import ExtractorError, InvalidInput
from factstore.store import server
from tests.helpers import ScriptedExtractor, fact
from tests.ollama_standin import OllamaStandIn, closed_port_host

MODEL = "llama3.1:8b"
PATEL = "6f9d3c1e-0000-4000-8000-000000000001"
SHAH = "6f9d3c1e-0000-4000-8000-000000000002"
ACME = "6f9d3c1e-0000-4000-8000-000000000003"

MENTION = Mention("Priya", "Person", "Priya reviewed the payments-api migration.",
                  anchors={"works_at": "Initech"})


def snapshot(patel: str = PATEL, shah: str = SHAH, acme: str = ACME) -> list[Scored]:
    """Three candidates: Priya Patel (no distinction), Priya Shah (works elsewhere: a
    distinction), and an Organization called Priya (another type)."""
    return score(MENTION, [
        Candidate(patel, "Priya Patel", ("P. Patel", "Priya"), "Person",
                  profile="Priya Patel leads the payments team at Initech.",
                  salient=("Priya Patel prefers squash merges.",), mentions=3,
                  in_document=True),
        Candidate(shah, "Priya Shah", (), "Person",
                  anchors={"works_at": frozenset({"globex"})}, mentions=1),
        Candidate(acme, "Priya Labs", ("Priya",), "Organization", mentions=1),
    ])


def answer(entity_id: str, reason: str = "the name and the team fit",
           distinction: str | None = None, confidence: float = 0.9) -> str:
    return json.dumps({"reason": reason, "entity_id": entity_id, "distinction": distinction,
                       "confidence": confidence})


@pytest.fixture
def standin() -> Iterator[OllamaStandIn]:
    with OllamaStandIn(models={MODEL}) as server_:
        yield server_


@pytest.fixture
def resolver(standin: OllamaStandIn) -> OllamaResolver:
    return OllamaResolver(host=standin.host, timeout=5)


# -- the call ----------------------------------------------------------------------------------


def test_picks_a_candidate_in_one_schema_constrained_call(standin: OllamaStandIn,
                                                          resolver: OllamaResolver) -> None:
    scored = snapshot()
    standin.script(answer(PATEL, confidence=1.7))
    decision = resolver.decide(MENTION, scored)
    assert decision.entity_id == PATEL
    assert decision.reason == "match: the name and the team fit"
    assert decision.confidence == 1.0  # clamped into [0, 1]
    assert resolver.last_failure is None
    (body,) = standin.chat_requests  # ONE call per decision
    assert body["model"] == MODEL and body["stream"] is False
    assert body["options"]["temperature"] == 0
    assert body["format"] == resolve_schema(scored)
    ids = [s.candidate.entity_id for s in scored]
    assert body["format"]["properties"]["entity_id"]["enum"] == [*ids, "new"]
    assert body["messages"][0]["content"] == resolver.prompt_for(MENTION, scored)
    assert resolver.name == f"ollama/{MODEL}/{PROMPT_VERSION}" == "ollama/llama3.1:8b/resolve-v1"


def test_says_new_with_a_positive_distinction(standin: OllamaStandIn,
                                              resolver: OllamaResolver) -> None:
    standin.script(answer("new", "the claim names another employer",
                          "works at Initech, not Globex; Priya Labs is a company", 0.8))
    decision = resolver.decide(MENTION, snapshot())
    assert decision.entity_id is None
    assert decision.reason.startswith("new: works at Initech, not Globex")
    assert decision.confidence == 0.8


def test_new_without_a_distinction_falls_back_to_the_match_biased_rule(
        standin: OllamaStandIn, resolver: OllamaResolver) -> None:
    scored = snapshot()
    standin.script(answer("new", "they talk about different things", None))
    decision = resolver.decide(MENTION, scored)
    rule = RuleResolver().decide(MENTION, scored)
    assert decision.entity_id == rule.entity_id == PATEL
    assert decision.reason.startswith(f"fallback to rules/t4-v1 because {resolver.name} "
                                      "answered new without naming a positive distinction")
    assert decision.reason.endswith(rule.reason)
    assert decision.confidence == rule.confidence


@pytest.mark.parametrize(("content", "failure"), [
    ("Sure! It is Priya Patel.", "not JSON"),
    ("", "answered nothing"),
    ("[1, 2]", "not an object"),
    ('{"reason": "x", "confidence": 0.5}', "no entity_id"),
    ('{"entity_id": 7}', "no entity_id"),
])
def test_malformed_output_falls_back_and_records_why(standin: OllamaStandIn,
                                                     resolver: OllamaResolver, content: str,
                                                     failure: str) -> None:
    standin.script(content)
    decision = resolver.decide(MENTION, snapshot())
    assert decision.entity_id == PATEL  # the rule's match-biased pick
    assert decision.reason.startswith("fallback to rules/t4-v1 because ")
    assert failure in decision.reason
    assert resolver.last_failure is not None and failure in resolver.last_failure


def test_fenced_json_and_a_pick_over_a_rule_distinction_are_accepted_and_said(
        standin: OllamaStandIn, resolver: OllamaResolver) -> None:
    standin.script("```json\n" + answer(SHAH, "she moved to Initech last month") + "\n```")
    decision = resolver.decide(MENTION, snapshot())
    assert decision.entity_id == SHAH
    assert "over the rule check's distinction (works_at Initech is not globex)" in \
        decision.reason


def test_an_id_outside_the_snapshot_is_refused(standin: OllamaStandIn,
                                               resolver: OllamaResolver) -> None:
    candidates = [s.candidate for s in snapshot()]
    stranger = "00000000-0000-4000-8000-00000000dead"
    standin.script(answer(stranger))
    resolution = resolve(MENTION, candidates, resolver)
    assert isinstance(resolution, Resolution)
    assert resolution.tier == "T4" and resolution.entity_id == PATEL
    assert f"named {stranger!r}, which is not a supplied candidate" in resolution.reason
    assert resolution.audit["resolver"] == resolver.name

    class Rogue:  # a resolver that does not check: resolve() itself refuses
        name = "test/rogue"

        def decide(self, mention: Mention, scored: Any) -> Decision:
            return Decision(stranger, "trust me", 1.0)

    refused = resolve(MENTION, candidates, Rogue())
    assert refused.entity_id == PATEL and refused.audit["refused_decision"] == stranger


def test_no_candidates_makes_no_call(standin: OllamaStandIn, resolver: OllamaResolver) -> None:
    assert resolver.decide(MENTION, []).entity_id is None
    assert standin.chat_requests == []


# -- the model cannot be asked: the typed error, so the capture writes nothing ------------------


def test_server_down_raises_the_extractors_typed_error() -> None:
    host = closed_port_host()
    resolver = OllamaResolver(host=host, timeout=5)
    with pytest.raises(ExtractorError) as info:
        resolver.decide(MENTION, snapshot())
    assert host in str(info.value) and "ollama serve" in str(info.value)
    with pytest.raises(ExtractorError):  # through resolve() too: nothing swallows it
        resolve(MENTION, [s.candidate for s in snapshot()], resolver)


def test_a_missing_model_a_server_error_and_a_timeout_raise(standin: OllamaStandIn) -> None:
    with pytest.raises(ExtractorError, match="ollama pull mistral:7b"):
        OllamaResolver("mistral:7b", host=standin.host).decide(MENTION, snapshot())
    standin.fail_next(500, "model runner has unexpectedly stopped", path="/api/chat")
    with pytest.raises(ExtractorError, match="unexpectedly stopped"):
        OllamaResolver(host=standin.host).decide(MENTION, snapshot())

    def slow(body: dict[str, Any]) -> str:
        time.sleep(1.0)
        return answer(PATEL)

    standin.reply_with(slow)
    with pytest.raises(ExtractorError, match="did not answer within"):
        OllamaResolver(host=standin.host, timeout=0.2).decide(MENTION, snapshot())


# -- the prompt and the schema -----------------------------------------------------------------


def test_the_prompt_renders_the_mention_and_every_candidate() -> None:
    scored = snapshot()
    prompt = render_resolve_prompt(load_resolve_template(), MENTION, scored)
    assert "Name: Priya\n" in prompt and "Type: Person\n" in prompt
    assert MENTION.context in prompt
    assert "(relations held once at a time): works_at Initech" in prompt
    assert "THE CANDIDATES (3," in prompt
    for position, s in enumerate(scored, 1):
        c = s.candidate
        block = prompt.split(f"Candidate {position}\n", 1)[1].split("\n\nCandidate", 1)[0]
        assert f"id: {c.entity_id}\n" in block
        assert f"canonical name: {c.canonical_name}\n" in block
        assert f"type: {c.entity_type}\n" in block
        assert f"name fit: tier {s.fit.tier}, {s.fit.why} ({s.fit.score:.2f})" in block
        assert f"positive distinction found: {s.distinct or 'none'}" in block
        for alias in c.aliases:
            assert alias in block
        if c.profile:
            assert f"profile: {c.profile}" in block
        for line in c.salient:
            assert f"- {line}" in block
    assert "already mentioned in this document: yes" in prompt
    assert "positive distinction found: works_at Initech is not globex" in prompt
    assert "positive distinction found: type Person is not Organization" in prompt
    assert "profile: none yet" in prompt
    assert not re.search(r"\{(mention|mention_type|context|anchors|count|candidates)\}", prompt)
    # The rule, as the seed states it: match-biased, new only with positive distinction.
    assert 'Choose "new" only when you can state a positive distinction from EVERY' in prompt
    assert "never a reason to answer \"new\"" in prompt


def test_placeholders_inside_the_claim_are_not_substituted() -> None:
    mention = Mention("Priya", None, "Priya wrote {candidates} and {mention} literally.")
    prompt = render_resolve_prompt(load_resolve_template(), mention, snapshot())
    assert "Priya wrote {candidates} and {mention} literally." in prompt
    assert "Type: not said" in prompt


def test_schema_shape_and_prompt_version() -> None:
    scored = snapshot()
    schema = resolve_schema(scored)
    json.dumps(schema)  # plain JSON, to travel as `format`
    assert list(schema["properties"]) == ["reason", "entity_id", "distinction", "confidence"]
    assert schema["required"] == ["reason", "entity_id", "distinction", "confidence"]
    # the supplied candidates in the order supplied (the rule check's), then "new"
    assert schema["properties"]["entity_id"]["enum"] == [
        *(s.candidate.entity_id for s in scored), "new"]
    assert set(schema["properties"]["entity_id"]["enum"]) == {PATEL, SHAH, ACME, "new"}
    assert prompt_version().startswith(PROMPT_VERSION + "+")


def test_parse_decision_on_its_own() -> None:
    scored = snapshot()
    assert parse_decision(answer(ACME, confidence=float("nan")), scored) == Decision(
        ACME, "match: the name and the team fit; over the rule check's distinction (type "
              "Person is not Organization)", None)
    assert parse_decision('{"entity_id": "NEW", "distinction": "  "}', scored) == \
        "answered new without naming a positive distinction"


def test_resolver_from_name() -> None:
    assert isinstance(resolver_from_name("rules"), RuleResolver)
    assert resolver_from_name(" ollama ").name == "ollama/llama3.1:8b/resolve-v1"
    assert resolver_from_name("ollama:Qwen2.5:7b").name == "ollama/Qwen2.5:7b/resolve-v1"
    assert RESOLVER_CHOICES == ("rules", "ollama", "ollama:<model>")
    for bad in ("ollama:", "gpt", 3):
        with pytest.raises(InvalidInput):
            resolver_from_name(bad)  # type: ignore[arg-type]


# -- cassettes on hand-built snapshots ---------------------------------------------------------


class Scripted:
    """A resolver that answers from a list (the inner resolver being recorded)."""

    name = "test/scripted"
    prompt_version = "scripted-v1"

    def __init__(self, *decisions: Decision) -> None:
        self.decisions = list(decisions)
        self.calls = 0

    def decide(self, mention: Mention, candidates: Any) -> Decision:
        self.calls += 1
        return self.decisions.pop(0)


OTHER = ("11111111-0000-4000-8000-000000000001", "11111111-0000-4000-8000-000000000002",
         "11111111-0000-4000-8000-000000000003")


def test_replay_maps_a_recorded_choice_to_the_new_snapshots_ids(tmp_path: Path) -> None:
    cassette = tmp_path / "resolve.jsonl"
    recorder = RecordingResolver(Scripted(Decision(SHAH, "match: moved", 0.7)), cassette)
    assert recorder.name == "test/scripted"
    assert recorder.decide(MENTION, snapshot()).entity_id == SHAH

    (entry,) = read_resolver_cassette(cassette)
    assert list(entry) == sorted(entry)
    assert entry["decision"] == {"choice": 2, "name": "Priya Shah", "reason": "match: moved",
                                 "confidence": 0.7}
    assert [c["name"] for c in entry["candidates"]] == ["Priya Labs", "Priya Patel",
                                                        "Priya Shah"]
    assert SHAH not in json.dumps(entry)  # no store's id is recorded

    # Another store: other ids, and the rule check's order differs (ids break its last ties).
    fresh = list(reversed(snapshot(*OTHER)))
    replay = ReplayResolver(cassette)
    assert replay.name == "replay/test/scripted" and len(replay) == 1
    decision = replay.decide(MENTION, fresh)
    assert decision == Decision(OTHER[1], "match: moved", 0.7)


def test_identical_candidates_keep_their_rank_position(tmp_path: Path) -> None:
    twins = [Candidate(i, "Alex Kim", ("Alex",), "Person") for i in (PATEL, SHAH)]
    mention = Mention("Alex", "Person", "Alex fixed the build.")
    recorded = score(mention, twins)
    second = recorded[1].candidate.entity_id
    cassette = tmp_path / "twins.jsonl"
    RecordingResolver(Scripted(Decision(second, "match", None)), cassette).decide(mention,
                                                                                   recorded)
    assert read_resolver_cassette(cassette)[0]["decision"]["choice"] == 1
    again = score(mention, [Candidate(i, "Alex Kim", ("Alex",), "Person") for i in OTHER[:2]])
    assert ReplayResolver(cassette).decide(mention, again).entity_id == \
        again[1].candidate.entity_id


def test_a_miss_names_the_key_and_how_to_record(tmp_path: Path) -> None:
    cassette = tmp_path / "resolve.jsonl"
    RecordingResolver(Scripted(Decision(PATEL, "match", 1.0)), cassette).decide(MENTION,
                                                                               snapshot())
    replay = ReplayResolver(cassette)
    other = Mention("Priya", "Person", "Priya left for Globex.")
    key = decision_key("test/scripted", "scripted-v1", other, snapshot())
    with pytest.raises(ExtractorError) as info:
        replay.decide(other, snapshot())
    message = str(info.value)
    assert key in message and "'Priya'" in message
    assert "RecordingResolver" in message and str(cassette) in message
    # A candidate that was not there when recorded is a different question: a miss too.
    with pytest.raises(ExtractorError, match="no decision"):
        replay.decide(MENTION, snapshot()[:2])
    # ... and through resolve(), the miss propagates (the capture writes nothing).
    with pytest.raises(ExtractorError):
        resolve(other, [s.candidate for s in snapshot()], replay)


def test_new_and_outside_decisions_replay_as_they_were(tmp_path: Path) -> None:
    cassette = tmp_path / "resolve.jsonl"
    inner = Scripted(Decision(None, "new: another surname", 1.0),
                     Decision("deadbeef", "confused", 0.1))
    recorder = RecordingResolver(inner, cassette)
    candidates = [s.candidate for s in snapshot()]
    first = resolve(MENTION, candidates, recorder)
    assert first.entity_id is None
    later = Mention("Priya", "Person", "Priya approved the freeze.")
    assert resolve(later, candidates, recorder).audit["refused_decision"] == "deadbeef"
    assert [e["decision"]["choice"] for e in read_resolver_cassette(cassette)] == ["new",
                                                                                  "outside"]

    replay = ReplayResolver(cassette)
    fresh = [s.candidate for s in snapshot(*OTHER)]
    assert resolve(MENTION, fresh, replay).entity_id is None
    refused = resolve(later, fresh, replay)
    assert refused.entity_id == OTHER[0]  # refused again: the rule's match-biased pick
    assert refused.audit["refused_decision"] not in OTHER


def test_rerecording_the_same_decision_appends_nothing(tmp_path: Path) -> None:
    cassette = tmp_path / "resolve.jsonl"
    inner = Scripted(Decision(PATEL, "match", 0.9), Decision(PATEL, "match", 0.9),
                     Decision(OTHER[0], "match", 0.9), Decision(SHAH, "match", 0.9))
    RecordingResolver(inner, cassette).decide(MENTION, snapshot())
    reopened = RecordingResolver(inner, cassette)  # a later session, same file
    reopened.decide(MENTION, snapshot())
    reopened.decide(MENTION, snapshot(*OTHER))  # same question in another store
    assert len(cassette.read_text().splitlines()) == 1
    reopened.decide(MENTION, snapshot())  # the answer changed: appended, and it wins
    assert len(cassette.read_text().splitlines()) == 2
    assert ReplayResolver(cassette).decide(MENTION, snapshot(*OTHER)).entity_id == OTHER[1]


def test_prompt_versions_and_models_are_kept_apart(tmp_path: Path) -> None:
    cassette = tmp_path / "resolve.jsonl"
    RecordingResolver(Scripted(Decision(PATEL, "match", 1.0)), cassette).decide(MENTION,
                                                                               snapshot())
    assert ReplayResolver(cassette, prompt_version="scripted-v1").decide(
        MENTION, snapshot()).entity_id == PATEL
    strict = ReplayResolver(cassette, prompt_version="scripted-v2")
    with pytest.raises(ExtractorError, match="no decision"):
        strict.decide(MENTION, snapshot())

    class Other(Scripted):
        name = "test/other"

    RecordingResolver(Other(Decision(None, "new", 1.0)), cassette).decide(MENTION, snapshot())
    with pytest.raises(InvalidInput, match="test/other, test/scripted"):
        ReplayResolver(cassette)
    assert ReplayResolver(cassette, model="test/other").decide(MENTION,
                                                               snapshot()).entity_id is None
    with pytest.raises(InvalidInput, match="no decisions of 'test/absent'"):
        ReplayResolver(cassette, model="test/absent")
    with pytest.raises(InvalidInput, match="no resolver cassette"):
        ReplayResolver(tmp_path / "absent.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"key": "k"}\n')
    with pytest.raises(InvalidInput, match="line 1 is not a recorded decision"):
        ReplayResolver(bad)


def test_an_ollama_decision_records_and_replays_without_the_server(
        standin: OllamaStandIn, resolver: OllamaResolver, tmp_path: Path) -> None:
    cassette = tmp_path / "ollama.jsonl"
    standin.script("garbage", answer(SHAH, "moved jobs"))
    recorder = RecordingResolver(resolver, cassette)
    fallback = recorder.decide(MENTION, snapshot())  # a fallback is recorded as decided
    other = Mention("Priya", "Person", "Priya moved to Initech.")
    picked = recorder.decide(other, snapshot())
    entries = read_resolver_cassette(cassette)
    assert {e["model"] for e in entries} == {resolver.name}
    assert {e["prompt_version"] for e in entries} == {prompt_version()}
    standin.stop()
    replay = ReplayResolver(cassette, prompt_version=prompt_version())
    assert replay.decide(MENTION, snapshot()) == fallback
    assert replay.decide(other, snapshot(*OTHER)).entity_id == OTHER[1]
    assert picked.entity_id == SHAH


def test_canonical_order_ignores_ids() -> None:
    assert [s.candidate.canonical_name for s in canonical_order(snapshot())] == \
        [s.candidate.canonical_name for s in canonical_order(list(reversed(snapshot(*OTHER))))]


# -- through a real store: record in one fresh store, replay into another ----------------------

DOCS = [
    ("Priya Patel prefers squash merges", (("Priya Patel", "Person"),)),
    ("Priya reviewed the payments-api migration", (("Priya", "Person"),)),
    ("Priya Shah joined the platform team", (("Priya Shah", "Person"),)),
    ("Priya approved the December freeze", (("Priya", "Person"),)),
]
#: What the stand-in "model" answers, by the mention's claim: a canonical name, or new.
POLICY = {
    "Priya reviewed the payments-api migration.": "Priya Patel",
    "Priya Shah joined the platform team.": "new",
    "Priya approved the December freeze.": "Priya Patel",
}
_BLOCK = re.compile(r"  id: (\S+)\n  canonical name: (.+)\n")
_CLAIM = re.compile(r"The claim it appears in \(its context\): (.+)\n")


def policy_reply(body: dict[str, Any]) -> str:
    """Answer as POLICY says, finding the named candidate's id in the prompt."""
    prompt = body["messages"][0]["content"]
    claim = _CLAIM.search(prompt).group(1)  # type: ignore[union-attr]
    wanted = POLICY[claim]
    if wanted == "new":
        return answer("new", "another person", "surname Shah is not Patel", 0.9)
    ids = {name: entity_id for entity_id, name in _BLOCK.findall(prompt)}
    assert set(body["format"]["properties"]["entity_id"]["enum"]) == {*ids.values(), "new"}
    return answer(ids[wanted], "the first name fits and nothing tells them apart", 0.8)


def remember_all(store: Store) -> dict[tuple[int, str], str]:
    """Remember DOCS in order; (document position, mention) -> resolved canonical name."""
    documents = {}
    for position, (text, mentions) in enumerate(DOCS):
        store.extractor.add(text, fact(text + ".", "STATE", mentions=mentions))
        documents[store.remember(text).document.id] = position
    out: dict[tuple[int, str], str] = {}
    for entity in store.entities():
        for record in store.mentions(entity.id):
            out[(documents[record.document_id], record.name)] = entity.canonical_name
    return out


@pytest.fixture
def second_dsn(admin_dsn: str, database: str) -> Iterator[str]:
    """A second fresh database for the same test (the replay's store)."""
    name = f"{database[:50]}_b"
    server.ensure_database(admin_dsn, name)
    yield server.with_database(admin_dsn, name)
    server.drop_database(admin_dsn, name)


def test_record_in_one_store_and_replay_into_another(open_store, second_dsn: str, embedder,
                                                     standin: OllamaStandIn,
                                                     tmp_path: Path) -> None:
    cassette = tmp_path / "resolve.jsonl"
    standin.reply_with(policy_reply)
    live = OllamaResolver(host=standin.host, timeout=10)
    recorded_store = open_store(extractor=ScriptedExtractor(),
                                resolver=RecordingResolver(live, cassette))
    recorded = remember_all(recorded_store)
    assert recorded == {(0, "Priya Patel"): "Priya Patel", (1, "Priya"): "Priya Patel",
                        (2, "Priya Shah"): "Priya Shah", (3, "Priya"): "Priya Patel"}
    assert len(standin.chat_requests) == 3  # one call per T4 decision; doc 0 had no candidate
    entries = read_resolver_cassette(cassette)
    assert [e["decision"]["choice"] for e in entries][1] == "new"
    patel = recorded_store.entity("Priya Patel")
    t4 = [m for m in recorded_store.mentions(patel.id) if m.tier == "T4"]
    assert [m.name for m in t4] == ["Priya", "Priya"]
    assert {m.resolver for m in t4} == {live.name}
    assert all(m.audit["reason"].startswith("match: the first name fits") for m in t4)

    standin.stop()  # the replay needs no server
    replayed_store = Store.open(second_dsn, embedder=embedder, extractor=ScriptedExtractor(),
                                resolver=ReplayResolver(cassette))
    try:
        assert remember_all(replayed_store) == recorded
        ids_a = {e.canonical_name: e.id for e in recorded_store.entities()}
        ids_b = {e.canonical_name: e.id for e in replayed_store.entities()}
        assert set(ids_a) == set(ids_b) == {"Priya Patel", "Priya Shah"}
        assert not set(ids_a.values()) & set(ids_b.values())  # the ids were mapped, not copied
        tiers = sorted(m.tier for m in replayed_store.mentions(ids_b["Priya Patel"]))
        assert tiers == ["T4", "T4", "none"]
        resolvers = {m.resolver for m in replayed_store.mentions(ids_b["Priya Patel"])
                     if m.tier == "T4"}
        assert resolvers == {f"replay/{live.name}"}
    finally:
        replayed_store.close()


def test_a_replay_miss_writes_nothing(open_store, tmp_path: Path) -> None:
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("")
    replay = ReplayResolver(cassette)
    assert len(replay) == 0 and bool(replay)  # empty, yet never mistaken for "no resolver"
    store = open_store(extractor=ScriptedExtractor(), resolver=replay)
    assert store.resolver is replay
    text, mentions = DOCS[0]
    store.extractor.add(text, fact(text + ".", "STATE", mentions=mentions))
    store.remember(text)  # no candidate yet: no decision needed
    text, mentions = DOCS[1]
    store.extractor.add(text, fact(text + ".", "STATE", mentions=mentions))
    before = store.describe()
    with pytest.raises(ExtractorError, match="has no decision"):
        store.remember(text)
    after = store.describe()
    assert (after.documents, after.claims) == (before.documents, before.claims) == (1, 1)
    assert [e.canonical_name for e in store.entities()] == ["Priya Patel"]
    assert os.path.getsize(cassette) == 0
