"""Tag registry governance through the store: gated roots, auto-minted leaves, aliases."""

from __future__ import annotations

from datetime import timedelta

import pytest

from factstore.errors import InvalidInput, OrphanTag, RootlessTag, TagNotFound
from tests.helpers import say


def _root(store, tag="infra"):
    store.registry_propose_root(tag, f"{tag} things")
    return store.registry_approve_root(tag, "approved in review")


def test_a_proposed_root_waits_for_a_person(store):
    proposed = store.registry_propose_root("infra", "infrastructure")
    assert (proposed.status, proposed.origin) == ("pending", "proposal")
    assert store.registry_tags() == []
    approved = store.registry_approve_root("infra", "yes")
    assert approved.status == "approved"
    (tag,) = store.registry_tags()
    assert (tag.tag, tag.parent, tag.description) == ("infra", None, "infrastructure")


def test_a_rejected_root_is_kept_as_rejected(store):
    store.registry_propose_root("misc")
    rejected = store.registry_reject_root("misc", "too vague")
    assert rejected.status == "rejected" and store.registry_tags() == []
    assert [c.proposed_tag for c in store.registry_candidates("rejected")] == ["misc"]
    with pytest.raises(InvalidInput, match="already rejected"):
        store.registry_approve_root("misc")


def test_add_leaf_refuses_rootless_and_orphan_tags(store):
    with pytest.raises(RootlessTag, match="registry_propose_root"):
        store.registry_add_leaf("infra", "a root in disguise")
    with pytest.raises(OrphanTag, match="'infra'"):
        store.registry_add_leaf("infra.ci")
    _root(store)
    with pytest.raises(OrphanTag, match="'infra.ci'"):
        store.registry_add_leaf("infra.ci.nightly")
    with pytest.raises(InvalidInput, match="canonical dotted path"):
        store.registry_add_leaf("Infra.CI")
    assert [t.tag for t in store.registry_tags()] == ["infra"]


def test_add_leaf_mints_under_an_existing_parent_once(store):
    _root(store)
    first = store.registry_add_leaf("infra.ci", "continuous integration")
    again = store.registry_add_leaf("infra.ci", "ignored")
    assert first.created and not again.created
    assert first.tag.parent == "infra" and again.tag.description == "continuous integration"


def test_propose_root_refuses_dotted_and_existing(store):
    with pytest.raises(InvalidInput, match="registry_add_leaf"):
        store.registry_propose_root("infra.ci")
    _root(store)
    with pytest.raises(InvalidInput, match="already exists"):
        store.registry_propose_root("infra")


def test_resolution_order_alias_exact_leaf_minted_unresolved(store):
    _root(store)
    store.registry_add_leaf("infra.ci")
    store.registry_add_alias("The Build Bot", "infra.ci")
    assert store.registry_query("the build  bot").resolution.via == "alias"
    assert store.registry_query("infra.ci").resolution.via == "exact"
    leaf = store.registry_query("CI").resolution
    assert (leaf.via, leaf.tag) == ("leaf-name", "infra.ci")
    minted = store.registry_query("infra.deploys").resolution
    assert (minted.via, minted.tag) == ("minted", "infra.deploys")
    unresolved = store.registry_query("Kubernetes").resolution
    assert (unresolved.via, unresolved.tag, unresolved.candidate_root) == (
        "unresolved", None, True)
    # a query never writes: the minted leaf was only a resolution
    assert "infra.deploys" not in {t.tag for t in store.registry_tags()}


def test_registry_query_lists_matching_tags(store):
    _root(store)
    store.registry_add_leaf("infra.ci", "continuous integration runners")
    store.registry_add_alias("jenkins", "infra.ci")
    assert [m.tag for m in store.registry_query("integration").matches] == ["infra.ci"]
    assert store.registry_query("jenkins").matches[0].aliases == ("jenkins",)
    with pytest.raises(InvalidInput):
        store.registry_query("  ")


def test_aliases_are_never_silently_repointed(store):
    _root(store)
    store.registry_add_leaf("infra.ci")
    store.registry_add_leaf("infra.cd")
    store.registry_add_alias("pipeline", "infra.ci")
    with pytest.raises(InvalidInput, match="already maps to 'infra.ci'"):
        store.registry_add_alias("Pipeline", "infra.cd")
    with pytest.raises(TagNotFound):
        store.registry_add_alias("x", "nope.tag")


def test_approving_a_candidate_root_tags_the_facts_that_surfaced_it(store):
    result = say(store, "sample-svc is green right now.", subject="sample-svc",
                 topics=("Kubernetes",))
    fact_id = result.outcomes[0].fact.id
    assert [r.proposed_tag for r in result.candidate_roots] == ["kubernetes"]
    store.registry_approve_root("kubernetes", "we run it")
    assert store.fact(fact_id).tags == ("kubernetes",)
    # the original spelling now heals to the root through an alias... or exactly
    assert store.registry_query("Kubernetes").resolution.tag == "kubernetes"


def test_repeated_candidate_topics_count_up(store):
    say(store, "sample-svc is green right now.", subject="sample-svc", topics=("Kubernetes",))
    say(store, "The user prefers dark-mode editors.", "PREFERENCE", topics=("kubernetes.io",))
    (candidate,) = store.registry_candidates()
    assert candidate.seen_count == 2


def test_tag_lifetimes_are_set_and_cleared(store):
    _root(store)
    assert store.registry_set_lifetime("infra", "2d").default_lifetime == timedelta(days=2)
    assert store.registry_set_lifetime("infra", None).default_lifetime is None
    with pytest.raises(TagNotFound):
        store.registry_set_lifetime("nope", "1d")
    with pytest.raises(InvalidInput, match="not understood"):
        store.registry_set_lifetime("infra", "soon")
