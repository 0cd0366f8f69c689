"""Sealed scopes at rest, key rotation and forgetting, through the Store on real Postgres."""

from __future__ import annotations

import base64
import os

import pytest

from factstore.errors import AccessDenied, FactStoreError, InvalidInput, SealError
from factstore.sealing import is_sealed
from tests.helpers import say

SHOE = {"format": 1, "facts": [
    {"subject": "me", "attribute": "shoe_size", "value": "40", "unit": "EU",
     "valid_from": "2025", "quote": "my shoe size is 40", "source": "note:n-1"}]}
SHOE_LATER = {"format": 1, "facts": [
    {"subject": "me", "attribute": "shoe_size", "value": "41", "unit": "EU",
     "valid_from": "2026", "quote": "my shoe size is now 41", "source": "note:n-2"}]}


@pytest.fixture(autouse=True)
def master_key(monkeypatch):
    key = base64.b64encode(os.urandom(32)).decode()
    monkeypatch.setenv("FACTSTORE_MASTER_KEY", key)
    return key


def _nick(store):
    return store.as_principal(store.create_token("nick", workspace="acme").principal)


def _raw(store, sql: str):
    with store._tx() as cur:
        cur.execute(sql)
        return cur.fetchall()


def test_a_sealed_scope_stores_envelopes_and_reads_plaintext(store) -> None:
    nick = _nick(store)
    nick.write_facts(SHOE)  # written before sealing: sealed by seal_scope
    change = store.seal_scope("acme/user-nick")
    assert change.key_version == 1 and change.rows_sealed >= 2
    nick.write_facts(SHOE_LATER)  # written after: sealed before it commits
    nick.write_facts(SHOE_LATER)  # a resend corroborates, as in plaintext
    rows = _raw(store, "SELECT subject, attribute, value, unit, evidence_quote, "
                       "evidence_source_ref, statement, sealed_version FROM facts")
    assert len(rows) == 2
    for row in rows:
        assert row["subject"] == "person/nick" and row["attribute"] == "shoe_size"
        for column in ("value", "unit", "evidence_quote", "evidence_source_ref", "statement"):
            assert is_sealed(row[column]), (column, row[column])
    for row in _raw(store, "SELECT content, sealed_version FROM documents"):
        assert is_sealed(row["content"]) and row["sealed_version"] == 1
    assert store.scan_for(["shoe size is", "note:n-1", "41 EU"]) == []
    key = nick.facts("me", "shoe_size").keys[0]
    assert [f.value for f in key.current] == ["41"] and key.current[0].unit == "EU"
    assert [f.quote for f in key.history] == ["my shoe size is now 41", "my shoe size is 40"]
    assert len(key.current[0].corroborations) == 1  # the resend, opened too
    assert "41 EU" in nick.brief("what is my shoe size?").text
    assert "40 EU" in nick.brief("what is my shoe size?", as_of="2025").text


def test_rotation_reseals_every_row_and_destroys_the_old_key(store) -> None:
    nick = _nick(store)
    nick.write_facts(SHOE)
    store.seal_scope("acme/user-nick")
    before = {r["id"]: r["value"] for r in _raw(store, "SELECT id, value FROM facts")}
    change = store.rotate_key("acme/user-nick")
    assert change.key_version == 2 and change.retired_versions == (1,)
    after = _raw(store, "SELECT id, value, sealed_version FROM facts")
    assert all(r["sealed_version"] == 2 and r["value"] != before[r["id"]] for r in after)
    assert [r["version"] for r in _raw(store, "SELECT version FROM scope_keys")] == [2]
    nick.write_facts(SHOE_LATER)
    assert [f.value for f in nick.facts("me", "shoe_size").keys[0].current] == ["41"]
    with pytest.raises(InvalidInput, match="not sealed"):
        store.rotate_key("acme/user-bob")
    with pytest.raises(InvalidInput, match="sealed already"):
        store.seal_scope("acme/user-nick")


def test_a_wrong_master_key_fails_loudly_and_writes_nothing(store, monkeypatch) -> None:
    nick = _nick(store)
    nick.write_facts(SHOE)
    store.seal_scope("acme/user-nick")
    monkeypatch.setenv("FACTSTORE_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())
    stranger = store.as_principal(nick.principal)
    stranger._master = None  # a process that only has the other key
    with pytest.raises(SealError, match="did not open"):
        stranger.facts("me", "shoe_size")
    before = store.row_counts()
    with pytest.raises(SealError):
        stranger.write_facts(SHOE_LATER)
    assert store.row_counts() == before


def test_a_value_moved_to_another_row_does_not_open(store) -> None:
    nick = _nick(store)
    nick.write_facts(SHOE)
    nick.write_facts(SHOE_LATER)
    store.seal_scope("acme/user-nick")
    with store._tx() as cur:  # an attacker with SQL swaps two sealed values
        cur.execute("UPDATE facts a SET value = b.value FROM facts b WHERE a.id = 1 AND b.id = 2")
    with pytest.raises(SealError, match="wrong binding"):
        nick.facts("me", "shoe_size")


def test_forgetting_a_scope_leaves_no_text_of_it_anywhere(store) -> None:
    nick = _nick(store)
    bob = store.as_principal(store.create_token("bob", workspace="acme").principal)
    markers = ["zanzibar-ferry", "quokka-42", "marmalade-protocol"]
    say(nick, f"The {markers[0]} leaves at noon.")
    say(nick, f"The {markers[0]} leaves at dawn.")  # a conflict inside the scope
    nick.write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "code", "value": markers[1], "quote": markers[2]}]})
    nick.write_facts({"format": 1, "shared": True, "facts": [
        {"subject": "system/ferry", "attribute": "port", "value": "Dar"}]})
    say(bob, "The ferry to Pemba leaves at nine.")
    store.seal_scope("acme/user-nick")
    assert store.scan_for(markers[1:]) == []  # sealed: not even before forgetting
    assert store.scan_for(markers[:1])  # remembered text is plaintext (facts, claims)
    report = store.forget_scope("acme/user-nick")
    assert report.keys_destroyed == 1 and report.deleted["facts"] >= 3
    assert store.scan_for(markers) == []
    for table in ("facts", "documents", "claims", "evidence", "fact_history", "conflicts",
                  "mentions", "entities", "lineages"):
        assert _raw(store, f"SELECT count(*) AS n FROM {table} WHERE access_scope = "
                           "'acme/user-nick'")[0]["n"] == 0, table
    assert _raw(store, "SELECT count(*) AS n FROM scope_keys")[0]["n"] == 0
    # the other scopes stand, readable as before
    assert [k.current[0].value for k in bob.facts("system/ferry").keys] == ["Dar"]
    assert any("Pemba" in (i.fact.statement if i.fact else "")
               for i in bob.recall("ferry to Pemba").items)
    assert nick.facts().keys == tuple(k for k in nick.facts().keys if k.scope != "acme/user-nick")


def test_forgetting_is_owner_only_and_checks_its_argument(store) -> None:
    nick = _nick(store)
    with pytest.raises(AccessDenied):
        nick.forget_scope("acme/user-nick")
    for bad in ("acme", "user-nick", None, "acme/user-nick/x"):
        with pytest.raises(FactStoreError):
            store.forget_scope(bad)
    assert store.forget_scope("acme/user-nobody").total == 0
