"""The MCP door, called by the MCP SDK's own client over streamable HTTP and over stdio
(a real ``factstore serve --stdio`` process), every tool, against a real database."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from factstore.service.catalogue import TOOLS
from tests.served import Served, serve

#: every tool with arguments that succeed on a fresh store (ids filled in as they appear)
SHOE = [{"subject": "me", "attribute": "shoe_size", "value": "41", "unit": "EU",
         "valid_from": "2026", "quote": "my shoe size is now 41"}]


@pytest.fixture(scope="module")
def served(admin_dsn, embedder):
    yield from serve(admin_dsn, embedder, "mcp")


def _http(served: Served, who: str) -> Client:
    client = httpx2.AsyncClient(headers=served.auth(who), timeout=60)
    return Client(streamable_http_client(served.url + "/mcp", http_client=client))


def _json(result) -> object:
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


async def _every_tool(client: Client) -> dict[str, object]:
    """Call every tool once, in an order where each finds what it needs; the answers."""
    listed = await client.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == set(TOOLS)
    for tool in tools.values():  # an agent can act on each: a description and a schema
        assert len(tool.description or "") > 40 and tool.input_schema["type"] == "object"
        assert "ctx" not in tool.input_schema.get("properties", {})
    out: dict[str, object] = {}

    async def call(name: str, **arguments: object) -> object:
        out[name] = _json(await client.call_tool(name, arguments))
        return out[name]

    await call("describe")
    # two contradicting REFERENCE pairs: two lane-3 conflicts (no path exists here)
    for n, thing in enumerate(("runner token", "deploy key")):
        for m, where in enumerate(("sample", "legacy")):
            await call("remember", text=rf"the {thing} lives at C:\ops\{where}\{n}.env",
                       source_ref=f"chat:{n}{m}")
    recalled = await call("recall", query="where does the runner token live?")
    assert any(i["fact"] and "runner token" in i["fact"]["statement"]
               for i in recalled["items"])
    conflicts = await call("open_conflicts")
    assert len(conflicts) == 2, conflicts
    await call("registry_query", topic="deploy")
    await call("registry_add_leaf", tag="ops.deploy", description="deploys")
    await call("registry_propose_root", tag="finance", description="money")
    written = await call("write_facts", facts=SHOE)
    fact_id = written["facts"][0]["id"]
    assert (await call("facts", subject="me"))["keys"][0]["current"][0]["value"] == "41"
    assert "41 EU" in (await call("brief", question="what is my shoe size?"))["text"]
    await call("end_fact", fact_id=fact_id, valid_to="2027")
    await call("note", body="my hat size is 58", facts=[
        {"subject": "me", "attribute": "hat_size", "value": "58"}])
    await call("retract", fact_id=fact_id, reason="test")
    queue = await call("open_questions")
    await call("add_open_question", title="Who owns deploys?", body="nobody said",
               risk="high", cost="low")
    await call("update_open_question", question_id=queue[0]["id"], note="looked at it")
    first, second = conflicts
    await call("resolve_conflict", conflict_id=first["id"], winner_id=first["fact_a"]["id"],
               reasoning="the sample path is the one in use")
    await call("resolve_both_stand", conflict_id=second["id"], reasoning="both hosts have one")
    assert set(out) == set(TOOLS)  # every tool answered
    # a refusal is a tool error carrying the store's message, and writes nothing
    refused = await client.call_tool("write_facts", {"facts": [{"subject": "Nope"}]})
    assert refused.is_error and "FactsValidationError" in refused.content[0].text
    assert "facts/invalid" in refused.content[0].text
    missing = await client.call_tool("resolve_conflict", {"conflict_id": 999, "winner_id": 1,
                                                          "reasoning": "x"})
    assert missing.is_error and "ConflictNotFound" in missing.content[0].text
    return out


def test_every_tool_over_streamable_http(served) -> None:
    async def run() -> None:
        async with _http(served, "nick") as client:
            out = await _every_tool(client)
        assert out["write_facts"]["facts"][0]["fact"]["scope"] == "acme/user-nick"

    asyncio.run(run())


def test_mcp_over_http_refuses_a_bad_token_and_reads_only_its_scopes(served) -> None:
    async def run() -> None:
        async with _http(served, "eve") as client:
            await client.call_tool("write_facts", {"facts": [
                {"subject": "system/vault", "attribute": "code", "value": "globex-7731"}],
                "shared": True})
        async with _http(served, "bob") as client:
            answer = _json(await client.call_tool("facts", {"subject": "system/vault"}))
            assert answer["keys"] == []
            shared = await client.call_tool("write_facts", {"facts": SHOE, "shared": True})
            assert shared.is_error and "AccessDenied" in shared.content[0].text
        bad = Served(served.url, served.store, served.dsn,
                     {"x": "fst_tok-000000000000_" + "z" * 43})
        async with _http(bad, "x") as client:
            refused = await client.call_tool("describe", {})
            assert refused.is_error and "InvalidToken" in refused.content[0].text

    asyncio.run(run())


def test_every_tool_over_stdio(served) -> None:
    """A real ``factstore serve --stdio`` process, as a narrowed token's principal."""
    token = served.store.create_token("stdio-user", workspace="acme").token
    env = {**os.environ, "FACTSTORE_DSN": served.dsn, "FACTSTORE_TOKEN": token,
           "FACTSTORE_EXTRACTOR": "rules", "HF_HUB_OFFLINE": "1"}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "factstore.cli", "--extractor", "rules",
                                         "serve", "--stdio"], env=env)

    eve = served.store.as_principal(served.store.authenticate(served.tokens["eve"]))
    secret = eve.write_facts({"format": 1, "shared": True, "facts": [
        {"subject": "system/safe", "attribute": "combination", "value": "12-34-56"}]})

    async def run() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            out = await _every_tool(client)
            # another workspace's fact: not read, not retracted, not even found
            seen = _json(await client.call_tool("facts", {"subject": "system/safe"}))
            assert seen["keys"] == []
            refused = await client.call_tool("retract", {"fact_id": secret.facts[0].id})
            assert refused.is_error and "NotFound" in refused.content[0].text
        assert out["write_facts"]["facts"][0]["fact"]["scope"] == "acme/user-stdio-user"

    asyncio.run(run())
    assert served.store.facts("person/stdio-user").keys == ()  # the owner's own view ...
    with served.store._tx() as cur:  # ... but the rows are there, in the token's scope
        cur.execute("SELECT count(*) AS n FROM facts WHERE access_scope = "
                    "'acme/user-stdio-user'")
        assert cur.fetchone()["n"] >= 2
