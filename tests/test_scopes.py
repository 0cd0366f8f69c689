"""Credentials and scopes: a token reads only the scopes it was granted, through every tool
and in the database itself (row-level security), and two workspaces never share a row."""

from __future__ import annotations

import itertools
import os
import random
import stat

import pytest

from factstore.errors import AccessDenied, FactStoreError, InvalidInput, InvalidToken, NotFound
from factstore.principals import (
    Principal,
    fold,
    local_owner,
    personal_scope,
    scope_kind,
    split_scope,
)
from factstore.store.credentials import granted_scopes
from tests.helpers import say

#: every table row-level security guards (sql/018_scopes.sql)
SCOPED_TABLES = ("documents", "facts", "evidence", "conflicts", "fact_history",
                 "document_extractions", "lineages", "lineage_events", "claims", "entities",
                 "entity_names", "entity_keys", "mentions", "document_bindings", "relations",
                 "relation_evidence", "entity_merges", "merge_proposals")


# -- pure: names and folding -------------------------------------------------------------

def test_scopes_fold_the_workspace_and_refuse_malformed_names() -> None:
    assert fold("acme", "user-nick") == "acme/user-nick"
    assert split_scope("acme/channel-ops") == ("acme", "channel-ops")
    assert scope_kind("acme/channel-ops") == "channel"
    assert scope_kind("acme/shared-main") == "shared"
    assert scope_kind("acme/user-nick") == "personal"
    for bad in ("Acme", "", "a/b", "acme corp"):
        with pytest.raises(InvalidInput):
            fold(bad, "user-nick")
    for bad in ("nick", "team-x", "user-", "user-Nick", "user-a/b"):
        with pytest.raises(InvalidInput):
            fold("acme", bad)


def test_two_users_never_fold_into_one_personal_scope() -> None:
    users = ["nick", "nick!", "n.i.c.k", "ni ck", "x" * 70, "x" * 71, "!!!", "@@@", "n-i-c-k"]
    scopes = [personal_scope("acme", u) for u in users]
    assert len(set(scopes)) == len(users)
    for scope in scopes:
        split_scope(scope)  # each is a well-formed stored scope
    # case folds, as a user's `me` subject does: one person
    assert personal_scope("acme", "Nick") == personal_scope("acme", "nick") == "acme/user-nick"


def test_a_token_is_granted_its_personal_and_shared_scopes_by_default() -> None:
    assert granted_scopes("nick", "acme", None) == ("acme/user-nick", "acme/shared-main")
    assert granted_scopes("nick", "acme", ["channel-ops", "acme/user-nick"]) == (
        "acme/channel-ops", "acme/user-nick")
    with pytest.raises(InvalidInput, match="belongs to workspace 'evil'"):
        granted_scopes("nick", "acme", ["evil/shared-main"])
    with pytest.raises(InvalidInput):
        granted_scopes("nick", "acme", [])


def test_a_principal_writes_only_where_it_may_read() -> None:
    nick = Principal("nick", "acme", ("acme/user-nick",))
    assert nick.write_scope(False) == "acme/user-nick"
    with pytest.raises(AccessDenied, match="shared memory"):
        nick.write_scope(True)
    bot = Principal("bot", "acme", ("acme/channel-ops",))
    assert bot.home == "acme/channel-ops"  # no personal scope: it writes in its channel
    assert local_owner("nick").may_read("other/user-x")


# -- tokens ------------------------------------------------------------------------------

def test_tokens_authenticate_until_revoked_and_keep_no_secret(store) -> None:
    made = store.create_token("nick", workspace="acme", label="laptop")
    assert store.authenticate(made.token) == made.principal
    secret = made.token.rsplit("_", 1)[1]
    assert store.scan_for([secret]) == []  # only its digest is stored
    # the last character changed (never to itself: a token ending in "A" stays valid)
    changed = made.token[:-1] + ("B" if made.token.endswith("A") else "A")
    for bad in ("", "fst_tok-000000000000_" + "x" * 43, changed,
                "Bearer " + made.token, None):
        with pytest.raises(InvalidToken):
            store.authenticate(bad)
    revoked = store.revoke_token(made.token_id)
    assert revoked.revoked_at is not None
    with pytest.raises(InvalidToken, match="revoked"):
        store.authenticate(made.token)
    assert [t.id for t in store.list_tokens()] == [made.token_id]  # kept, listed revoked
    with pytest.raises(NotFound):
        store.revoke_token("tok-000000000000")


def test_only_the_owner_manages_credentials_and_scopes(store) -> None:
    nick = store.as_principal(store.create_token("nick", workspace="acme").principal)
    for call in (lambda: nick.create_token("eve"), nick.list_tokens,
                 lambda: nick.authenticate("x"), nick.scopes,
                 lambda: nick.forget_scope("acme/user-nick"),
                 lambda: nick.seal_scope("acme/user-nick")):
        with pytest.raises(AccessDenied):
            call()
    with pytest.raises(AccessDenied, match="speaks for 'nick'"):
        nick.facts(user="bob")


def test_the_local_admin_token_lives_in_a_0600_file_under_the_home(store, tmp_path) -> None:
    token = store.local_admin_token(tmp_path)
    path = tmp_path / "admin-token"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert store.authenticate(token).owner
    assert store.local_admin_token(tmp_path) == token  # reused, not remade
    path.write_text("fst_tok-000000000000_" + "y" * 43)  # a stale file: made again
    fresh = store.local_admin_token(tmp_path)
    assert fresh != token and store.authenticate(fresh).owner


# -- the scopes a token reads ------------------------------------------------------------

def _views(store):
    made = {
        "nick": store.create_token("nick", workspace="acme"),
        "bob": store.create_token("bob", workspace="acme", scopes=["user-bob"]),
        "ops": store.create_token("ops-bot", workspace="acme", scopes=["channel-ops"]),
        "eve": store.create_token("eve", workspace="globex"),
    }
    return {name: store.as_principal(store.authenticate(m.token)) for name, m in made.items()}


def test_each_token_reads_only_its_scopes_through_every_tool(store) -> None:
    v = _views(store)
    say(v["nick"], "The deploy window is Friday.")
    say(v["bob"], "The deploy window is Monday.")
    say(v["ops"], "The deploy window is Sunday night.")
    say(v["eve"], "The deploy window is Tuesday.")
    v["nick"].write_facts({"format": 1, "shared": True, "facts": [
        {"subject": "system/deploy", "attribute": "window", "value": "Friday"}]})
    v["eve"].write_facts({"format": 1, "shared": True, "facts": [
        {"subject": "system/deploy", "attribute": "window", "value": "Tuesday"}]})

    def seen(view) -> set[str]:
        items = view.recall("when is the deploy window?", k=20).items
        return {i.fact.statement for i in items if i.fact}

    assert seen(v["nick"]) >= {"The deploy window is Friday."}
    assert seen(v["nick"]) & {"The deploy window is Monday.", "The deploy window is Tuesday.",
                              "The deploy window is Sunday night."} == set()
    assert seen(v["bob"]) == {"The deploy window is Monday."}
    assert seen(v["ops"]) == {"The deploy window is Sunday night."}
    assert "The deploy window is Tuesday." in seen(v["eve"])
    assert [k.current[0].value for k in v["nick"].facts("system/deploy").keys] == ["Friday"]
    assert [k.current[0].value for k in v["eve"].facts("system/deploy").keys] == ["Tuesday"]
    assert v["bob"].facts("system/deploy").keys == ()  # shared memory was not granted
    assert "Tuesday" not in v["nick"].brief("what is the deploy window?").text
    # no conflict across scopes: a write never sees, so never contests, another's facts
    with store._tx() as cur:
        cur.execute("SELECT count(*) AS n FROM conflicts c JOIN facts a ON a.id = c.fact_a "
                    "JOIN facts b ON b.id = c.fact_b WHERE a.access_scope <> b.access_scope")
        assert cur.fetchone()["n"] == 0
    for name, view in v.items():
        assert view.open_conflicts() == [], name
    # a fact of another scope is not found by id either
    eve_fact = next(i.fact for i in v["eve"].recall("deploy window Tuesday").items if i.fact)
    with pytest.raises(NotFound):
        v["nick"].fact(eve_fact.id)
    with pytest.raises(FactStoreError):
        v["nick"].retract(eve_fact.id, reason="not mine")
    assert store.fact(eve_fact.id).verdict.value == "active"


def test_a_query_that_forgets_its_scope_filter_still_reads_nothing_else(store) -> None:
    """Row-level security: raw SQL with no WHERE at all, run in a narrowed transaction."""
    v = _views(store)
    say(v["nick"], "Nick prefers tea.")
    say(v["bob"], "Bob prefers coffee.")
    say(v["eve"], "Eve prefers mate.")
    v["eve"].write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "drink", "value": "mate", "quote": "I drink mate"}]})
    for name, view in v.items():
        allowed = set(view.principal.scopes)
        with view._tx() as cur:
            for table in SCOPED_TABLES:
                cur.execute(f"SELECT DISTINCT access_scope FROM {table}")
                leaked = {r["access_scope"] for r in cur.fetchall()} - allowed
                assert not leaked, (name, table, leaked)
    with v["nick"]._tx() as cur:
        cur.execute("SELECT statement FROM facts")
        assert {r["statement"] for r in cur.fetchall()} == {"Nick prefers tea."}
    with pytest.raises(FactStoreError), v["nick"]._tx() as cur:
        cur.execute("SELECT * FROM credentials")  # not even readable


def test_a_narrowed_write_cannot_land_in_another_scope(store) -> None:
    v = _views(store)
    with pytest.raises(FactStoreError), v["bob"]._tx() as cur:
        cur.execute("INSERT INTO lineages (lineage, access_scope) VALUES ('x', 'acme/user-nick')")
    with pytest.raises(AccessDenied):
        v["bob"].write_facts({"format": 1, "shared": True, "facts": [
            {"subject": "me", "attribute": "city", "value": "Oslo"}]})
    assert store.row_counts()["facts"] == 0


def test_a_generated_stream_reads_the_same_per_token_in_every_arrival_order(open_store) -> None:
    """Three workspaces x two users, restatements and changes mixed, written in three
    orders: each token's view is the same every time and holds only its own scopes."""
    rng = random.Random(7)
    people = [(w, u) for w in ("acme", "globex", "initech") for u in ("ana", "ben")]
    stream = []
    for i in range(36):
        w, u = people[i % len(people)]
        city = rng.choice(["Oslo", "Lima", "Pune"])
        shared = rng.random() < 0.3
        stream.append((w, u, {"format": 1, "shared": shared, "facts": [
            {"subject": "me", "attribute": "city", "value": city,
             "valid_from": f"20{10 + i % 7}"},
            {"subject": f"project/p{i % 4}", "attribute": "owner", "value": u}]}))
    results = []
    for order in range(3):
        store = open_store()
        tokens = {p: store.create_token(p[1], workspace=p[0]) for p in people}
        views = {p: store.as_principal(tokens[p].principal) for p in people}
        shuffled = stream[:] if order == 0 else rng.sample(stream, len(stream))
        for w, u, payload in shuffled:
            views[(w, u)].write_facts(payload)
        seen = {}
        for p, view in views.items():
            keys = view.facts().keys
            assert {k.scope for k in keys} <= set(view.principal.scopes), p
            seen[p] = sorted((k.subject, k.attribute, k.scope,
                              tuple(sorted(f.value for f in k.current))) for k in keys)
        results.append(seen)
    assert results[0] == results[1] == results[2]
    # each workspace's shared project owners came only from its own users
    for (w, _), rows in results[0].items():
        owners = {v for s, a, scope, vals in rows if a == "owner" for v in vals}
        assert owners <= {"ana", "ben"} and all(r[2].startswith(w + "/") for r in rows)


@pytest.mark.parametrize("pair", list(itertools.combinations(["nick", "bob", "eve"], 2)))
def test_retracting_across_scopes_is_refused_and_writes_nothing(store, pair) -> None:
    v = _views(store)
    a, b = pair
    made = v[a].write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "city", "value": "Oslo"}]})
    before = store.row_counts()
    with pytest.raises(FactStoreError):
        v[b].retract(made.facts[0].id, reason="not yours")
    with pytest.raises(FactStoreError):
        v[b].end_fact(made.facts[0].id, "2030")
    assert store.row_counts() == before


def test_a_principal_with_few_rows_among_many_still_finds_its_nearest(store) -> None:
    """Row-level security filters after the HNSW scan: the scan must keep going (pgvector's
    iterative scan) until the principal's own rows are found."""
    nick = store.as_principal(store.create_token("nick", workspace="acme").principal)
    store.remember_many([{"text": f"svc-{i:03d} deploys from the blue pipeline at {i % 24}:00",
                          "source_ref": f"chat:{i}"} for i in range(400)])
    store.analyze_tables()
    nick.remember("svc-999 deploys from the green pipeline at noon", source_ref="chat:nick")
    with nick._tx() as cur:
        cur.execute("SET LOCAL enable_seqscan = off")  # the plan a large table gets
        cur.execute("SELECT count(*) AS n FROM documents")
        assert cur.fetchone()["n"] == 1
    items = nick.recall("which pipeline does svc-999 deploy from?", k=5).items
    assert any(i.document and "svc-999" in i.document.content for i in items)
