"""The entity layer through the Store: resolution at write time, the registry's reads,
reversible merges, proposals, profiles and withdrawal, relations and traversal, timeline
subjects, and the recall hook."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from factstore.entities.resolution import Decision, Mention, Scored
from factstore.errors import EntityNotFound, FactStoreError, InvalidInput
from factstore.settings import Settings
from tests.helpers import fact


def tell(store, text: str, *facts, **capture):
    """Script the facts for a text and remember it."""
    store.extractor.add(text, *facts)
    return store.remember(text, **capture)


def works_at(person: str, org: str, text: str | None = None, **fields):
    text = text or f"{person} works at {org}"
    return fact(f"{person} works at {org}.", "STATE", quote=text, subject=person,
                mentions=((person, "Person"), (org, "Organization")),
                relations=((person, "works_at", org),), **fields)


def by_name(store, name: str):
    found = [e for e in store.entities() if e.canonical_name == name]
    assert len(found) == 1, [e.canonical_name for e in store.entities()]
    return found[0]


def test_mentions_resolve_across_documents_by_name_and_context(store):
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Priya approved the falcon-sync cutover",
         fact("Priya approved the falcon-sync cutover.", "EVENT", subject="Priya",
              mentions=(("Priya", "Person"), ("falcon-sync", "Project"))),
         source_ref="chat:2")
    priya = by_name(store, "Priya Patel")
    assert priya.entity_type == "Person"
    assert "Priya" in store.aliases(priya.id)
    tiers = {m.name: m.tier for m in store.mentions(priya.id)}
    # an exact name never accepts across documents by itself: T3/T4 decided both
    assert tiers["Priya"] in ("T3", "T4")
    assert {e.canonical_name for e in store.entities()} == {"Priya Patel", "Arc Labs",
                                                             "falcon-sync"}
    # the fact's subject is the entity
    event = next(f for f in store.facts_by_verdict("active") if f.kind.value == "EVENT")
    assert event.subject_entity == priya.id


def test_positive_distinction_makes_a_new_entity(store):
    tell(store, "Alex Kim works at Arc Labs", works_at("Alex Kim", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Alex Moreno works at Brightwater", works_at("Alex Moreno", "Brightwater"),
         source_ref="mail:1")
    kim, moreno = by_name(store, "Alex Kim"), by_name(store, "Alex Moreno")
    assert kim.id != moreno.id
    moreno_mention = next(m for m in store.mentions(moreno.id) if m.name == "Alex Moreno")
    # Alex Kim shares the first name's keys, but another surname is no fitting name
    assert moreno_mention.tier == "none"
    assert all(c["id"] != kim.id for c in moreno_mention.audit["candidates"])
    # a bare "Alex" fits both: the match-biased decision picks one, never a third entity
    tell(store, "Alex fixed the pager", fact("Alex fixed the pager.", "EVENT",
                                             quote="Alex fixed the pager", subject="Alex",
                                             mentions=(("Alex", "Person"),)),
         source_ref="chat:9")
    assert len(store.entities(entity_type="Person", name="Alex")) == 2
    # the same exact name with another employer (a one-valued relation) is someone else
    tell(store, "Daniel Reyes works at Arc Labs", works_at("Daniel Reyes", "Arc Labs"),
         source_ref="chat:2")
    tell(store, "Daniel Reyes works at Reyes Plumbing",
         works_at("Daniel Reyes", "Reyes Plumbing"), source_ref="sms:1")
    assert len(store.entities(name="Daniel Reyes")) == 2


def test_exact_name_alone_is_decided_by_t4_not_t0(store):
    tell(store, "Dana Whitfield works at Arc Labs", works_at("Dana Whitfield", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Dana Whitfield joined the call",
         fact("Dana Whitfield joined the call.", "EVENT", subject="Dana Whitfield",
              mentions=(("Dana Whitfield", "Person"),)), source_ref="chat:2")
    dana = by_name(store, "Dana Whitfield")
    records = store.mentions(dana.id)
    assert len(records) == 2
    assert all(m.tier != "T0" for m in records)
    assert records[0].audit["candidates"][0]["id"] == dana.id


class SaysNew:
    """A resolver that never matches: makes duplicates for the merge tests."""

    name = "test/always-new"

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        return Decision(None, "new: test resolver", 1.0)


def test_merge_is_a_reversible_redirect(open_store):
    store = open_store(resolver=SaysNew())
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Priya Patel leads the platform team at Arc Labs",
         works_at("Priya Patel", "Arc Labs", "Priya Patel leads the platform team at Arc Labs"),
         source_ref="chat:2")
    twins = store.entities(name="Priya Patel")
    assert len(twins) == 2
    a, b = twins
    before_b = store.mentions(b.id)
    result = store.merge(a.id, b.id, "same person: one manager")
    assert result.action == "merged" and result.survivor.id == a.id
    read = store.entity(b.id)
    assert read.id == a.id and read.redirected_from == (b.id,)
    assert b.id in read.merged
    assert len(store.entities(name="Priya Patel")) == 1
    assert len(store.entities(name="Priya Patel", include_merged=True)) == 2
    assert {m.id for m in store.mentions(a.id)} >= {m.id for m in before_b}
    with pytest.raises(InvalidInput):
        store.merge(a.id, b.id, "again")
    undone = store.unmerge(b.id, "two people after all")
    assert undone.action == "unmerged"
    assert store.entity(b.id).id == b.id and store.entity(b.id).redirected_from == ()
    assert [m.id for m in store.mentions(b.id)] == [m.id for m in before_b]
    assert len(store.entities(name="Priya Patel")) == 2
    with pytest.raises(InvalidInput):
        store.unmerge(b.id, "not merged now")


def test_profiles_raise_deduplicated_proposals_and_never_merge(open_store):
    store = open_store(resolver=SaysNew(), settings=Settings(entity_merge_propose=0.5))
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Priya Patel works at Arc Labs on the platform team",
         works_at("Priya Patel", "Arc Labs", "Priya Patel works at Arc Labs on the platform "
                  "team"), source_ref="chat:2")
    refresh = store.refresh_profiles()
    assert refresh.rebuilt >= 2 and refresh.proposed >= 1
    proposals = store.merge_proposals()
    pairs = {frozenset((p.entity_a, p.entity_b)) for p in proposals}
    assert len(pairs) == len(proposals)  # one proposal per pair
    people = {e.id for e in store.entities(name="Priya Patel")}
    assert any(pair == people for pair in pairs)
    assert len(store.entities(name="Priya Patel")) == 2  # nothing merged by itself
    # a new change of evidence and another refresh propose nothing twice
    tell(store, "Priya Patel works at Arc Labs since 2024",
         works_at("Priya Patel", "Arc Labs", "Priya Patel works at Arc Labs since 2024"),
         source_ref="chat:3")
    store.refresh_profiles()
    again = [p for p in store.merge_proposals() if frozenset((p.entity_a, p.entity_b)) == people]
    assert len(again) == 1
    rejected = store.reject_merge(again[0].id, "a father and daughter")
    assert rejected.status == "rejected"
    store.remember("Priya Patel", source_ref="chat:4")  # no facts: nothing changes
    for e in store.entities(name="Priya Patel"):
        store.add_alias(e.id, f"P. Patel {e.id[-4:]}")  # marks both stale
    store.refresh_profiles()
    assert not [p for p in store.merge_proposals()
                if frozenset((p.entity_a, p.entity_b)) == people]
    with pytest.raises(InvalidInput):
        store.reject_merge(again[0].id, "twice")
    with pytest.raises(EntityNotFound):
        store.reject_merge(10_000, "none")


def test_profile_cleared_when_its_source_is_removed(store):
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:secret")
    priya = by_name(store, "Priya Patel")
    store.refresh_profiles()
    built = store.entity(priya.id)
    assert built.profile and "Arc Labs" in built.profile and not built.profile_stale
    store.remove_source("utterance:chat:secret", "the user asked to forget it")
    gone = store.entity(priya.id)
    assert gone.profile is None and gone.profile_stale
    assert store.relations(priya.id) == []
    assert store.relations(priya.id, include_unsupported=True)[0].support == 0
    store.refresh_profiles()
    assert store.entity(priya.id).profile is None  # nothing supports one now
    store.restore_source("utterance:chat:secret", "kept after all")
    assert store.entity(priya.id).profile_stale
    store.refresh_profiles()
    assert "Arc Labs" in store.entity(priya.id).profile


def test_relations_and_neighbours_weighted_by_confidence(store):
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Priya Patel works at Arc Labs, again",
         works_at("Priya Patel", "Arc Labs", "Priya Patel works at Arc Labs, again"),
         source_ref="mail:2")
    tell(store, "Ben Osei reports to Priya Patel",
         fact("Ben Osei reports to Priya Patel.", quote="Ben Osei reports to Priya Patel",
              subject="Ben Osei", mentions=(("Ben Osei", "Person"), ("Priya Patel", "Person")),
              relations=(("Ben Osei", "reports_to", "Priya Patel"),)), source_ref="chat:3")
    tell(store, "Arc Labs acquired Quill",
         fact("Arc Labs acquired Quill.", "EVENT", quote="Arc Labs acquired Quill",
              subject="Arc Labs", mentions=(("Arc Labs", "Organization"),
                                            ("Quill", "Organization")),
              relations=(("Arc Labs", "acquired", "Quill"),)), source_ref="chat:4")
    priya = by_name(store, "Priya Patel")
    rels = {r.predicate: r for r in store.relations(priya.id)}
    assert rels["works_at"].support == 2 and rels["works_at"].confidence == 0.75
    assert rels["reports_to"].confidence == 0.5
    one = store.neighbours(priya.id)
    assert [n.entity.canonical_name for n in one] == ["Arc Labs", "Ben Osei"]
    two = store.neighbours(priya.id, depth=2)
    quill = next(n for n in two if n.entity.canonical_name == "Quill")
    assert quill.depth == 2 and quill.weight == pytest.approx(0.75 * 0.5)
    only = store.neighbours(priya.id, depth=2, predicates=["reports_to"])
    assert [n.entity.canonical_name for n in only] == ["Ben Osei"]
    assert not store.neighbours(priya.id, predicates=["married_to"])
    with pytest.raises(InvalidInput):
        store.neighbours(priya.id, predicates=["likes"])
    with pytest.raises(InvalidInput):
        store.neighbours(priya.id, depth=0)


def test_recall_pulls_related_entities_facts_only_when_asked(open_store):
    store = open_store(settings=Settings(recall_neighbours=3))
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    tell(store, "Arc Labs is headquartered in Lisbon",
         fact("Arc Labs is headquartered in Lisbon.", quote="Arc Labs is headquartered in "
              "Lisbon", subject="Arc Labs", mentions=(("Arc Labs", "Organization"),
                                                      ("Lisbon", "Place")),
              relations=(("Arc Labs", "located_in", "Lisbon"),)), source_ref="chat:2")
    result = store.recall("Where does Priya Patel work?")
    served = {i.fact.statement: i.served_as for i in result.items if i.fact}
    assert served.get("Arc Labs is headquartered in Lisbon.") in ("hit", "neighbour")
    off = open_store()  # the same database, recall_neighbours=0 (default)
    plain = off.recall("Where does Priya Patel work?")
    assert all(i.served_as != "neighbour" for i in plain.items)


def test_timeline_subjects_are_registry_entities(store):
    store.write_facts({"format": 1, "facts": [
        {"subject": "person/ana-lopez", "attribute": "employer", "value": "Arc Labs",
         "valid_from": "2024-01", "quote": "Ana joined Arc Labs in January 2024"}]})
    ana = store.entity("person/ana-lopez")
    assert (ana.canonical_name, ana.entity_type) == ("Ana Lopez", "Person")
    assert ana.timeline_subject == "person/ana-lopez"
    rows = [f for f in store.facts_by_verdict() if f.subject == "person/ana-lopez"]
    assert rows and {f.subject_entity for f in rows} == {ana.id}
    store.backfill_facts([{"subject": "person/ana-lopez", "attribute": "city",
                           "value": "Lisbon", "valid_from": "2024-02"},
                          {"subject": "me", "attribute": "city", "value": "Porto",
                           "valid_from": "2023"}])
    me = store.entity("me")
    assert me.entity_type == "Person"
    assert len(store.entities(name="Ana Lopez")) == 1
    assert me.timeline_subject.startswith("person/")  # 'me' is the user's own subject
    rows = [f for f in store.facts_by_verdict()
            if f.subject in ("person/ana-lopez", me.timeline_subject)]
    assert len(rows) == 3
    assert {f.subject_entity for f in rows} == {ana.id, me.id}


def test_bad_input_is_typed_and_writes_nothing(store):
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    priya = by_name(store, "Priya Patel")
    before = (len(store.entities(include_merged=True)), store.aliases(priya.id))
    for call in (lambda: store.entity("nobody at all"),
                 lambda: store.entity(""),
                 lambda: store.merge(priya.id, priya.id, "self"),
                 lambda: store.merge(priya.id, "0190aaaa-0000-7000-8000-000000000000", "x"),
                 lambda: store.unmerge(priya.id, "not merged"),
                 lambda: store.add_alias(priya.id, "!!!"),
                 lambda: store.add_alias(priya.id, "sk-live-abcdefghijklmnopqrstuvwx"),
                 lambda: store.entities(entity_type="person"),
                 lambda: store.merge_proposals("maybe"),
                 lambda: store.neighbours(priya.id, depth=7),
                 lambda: store.mentions(priya.id, limit=0),
                 lambda: store.refresh_profiles(limit=0)):
        with pytest.raises(FactStoreError):
            call()
    assert (len(store.entities(include_merged=True)), store.aliases(priya.id)) == before


def test_typed_attributes_keep_their_history(store):
    tell(store, "Arc Labs is in Lisbon",
         fact("Arc Labs is in Lisbon.", quote="Arc Labs is in Lisbon", subject="Arc Labs",
              mentions=(("Arc Labs", "Organization"), ("Lisbon", "Place"))),
         source_ref="chat:1")
    arc = store.set_entity_attribute("Arc Labs", "founded", "2019", "int")
    assert arc.attributes["founded"]["value"] == 2019
    assert arc.attributes["founded"]["type"] == "int"
    arc = store.set_entity_attribute("Arc Labs", "founded", 2018, "int")
    assert arc.attributes["founded"]["value"] == 2018
    assert [h["value"] for h in arc.attributes["_history"]["founded"]] == [2019]
    store.set_entity_attribute(arc.id, "public", "false", "bool")
    assert store.entity(arc.id).attributes["public"]["value"] is False
    for bad in (("Founded", 1, "int"), ("founded", "soon", "int"), ("founded", 1, "money"),
                ("opened", "next week", "date"), ("public", "maybe", "bool"),
                ("ratio", "nan", "float")):
        with pytest.raises(InvalidInput):
            store.set_entity_attribute(arc.id, *bad)
    assert store.entity(arc.id).attributes["founded"]["value"] == 2018


def test_busy_entities_sharing_a_word_never_crowd_out_the_fitting_one(open_store):
    store = open_store(settings=Settings(entity_candidates=3))
    tell(store, "Fernhill Logistics moved the pickup",
         fact("Fernhill Logistics moved the pickup.", "EVENT",
              quote="Fernhill Logistics moved the pickup", subject="Fernhill Logistics",
              mentions=(("Fernhill Logistics", "Organization"),)), source_ref="mail:0")
    for n, word in enumerate(("Arbor", "Birch", "Cedar", "Dover", "Elm", "Fjord", "Grove",
                              "Heath")):
        for repeat in range(2):  # busier than Fernhill: more mentions each
            text = f"{word} Logistics shipped crate {n}-{repeat}"
            tell(store, text, fact(f"{word} Logistics shipped a crate.", "EVENT", quote=text,
                                   subject=f"{word} Logistics",
                                   mentions=((f"{word} Logistics", "Organization"),)),
                 source_ref=f"mail:{n}-{repeat}")
    tell(store, "Fernhill Logistics confirmed the slot",
         fact("Fernhill Logistics confirmed the slot.", "EVENT",
              quote="Fernhill Logistics confirmed the slot", subject="Fernhill Logistics",
              mentions=(("Fernhill Logistics", "Organization"),)), source_ref="mail:last")
    fernhill = store.entities(name="Fernhill")
    assert len(fernhill) == 1 and fernhill[0].mentions == 2
    latest = store.mentions(fernhill[0].id)[0]
    assert latest.audit["candidates"][0]["id"] == fernhill[0].id
    assert not latest.audit["truncated"]


def test_a_capture_resolves_its_fullest_names_first(store):
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    text = "Priya called back. Priya Nair is the kids' pediatrician"
    tell(store, text,
         fact("Priya called back.", "EVENT", quote="Priya called back", subject="Priya",
              mentions=(("Priya", "Person"),)),
         fact("Priya Nair is the kids' pediatrician.", quote="Priya Nair is the kids' "
              "pediatrician", subject="Priya Nair", mentions=(("Priya Nair", "Person"),)),
         source_ref="sms:1")
    nair = by_name(store, "Priya Nair")
    names = {m.name: m for m in store.mentions(nair.id)}
    # the bare "Priya" said first leans on the full name said later in the same message
    assert set(names) == {"Priya", "Priya Nair"}
    assert "already in this document" in names["Priya"].audit["reason"]
    assert [m.name for m in store.mentions(by_name(store, "Priya Patel").id)] == ["Priya Patel"]


def test_entity_results_show_in_a_notebook_and_as_frames(store):
    tell(store, "Priya Patel works at Arc Labs", works_at("Priya Patel", "Arc Labs"),
         source_ref="chat:1")
    priya = by_name(store, "Priya Patel")
    html = store.entities()._repr_html_()
    assert "Priya Patel" in html and "Arc Labs" in html and "<table" in html
    near = store.neighbours(priya.id)
    assert "works_at" in near._repr_html_() and "Arc Labs" in near._repr_html_()
    frame = near.to_pandas()
    assert list(frame["name"]) == ["Arc Labs"] and list(frame["depth"]) == [1]
    assert set(store.entities().to_polars()["canonical_name"]) == {"Priya Patel", "Arc Labs"}
