"""Tag registry governance as pure functions over a snapshot (seed 000 §6).

Resolution order: alias -> exact -> unique leaf name -> minted (dotted, parent exists) ->
unresolved (candidate root when entity-shaped). Roots are never minted.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.errors import InvalidInput, OrphanTag, RegistryError, RootlessTag
from factstore.registry import (
    TAG_SHAPE,
    RegistrySnapshot,
    alias_key,
    canonical_form,
    check_leaf,
    check_tag_shape,
    parent_of,
    resolve_topic,
)

TAGS = frozenset({
    "infra", "infra.ci", "infra.ci.nightly", "infra.runner",
    "docs", "docs.migration",
    "product", "product.runner",        # 'runner' is now an ambiguous leaf name
    "build_pipeline",
})
ALIASES = {"the nightly": "infra.ci.nightly", "ci": "infra.ci", "docs": "product"}
REGISTRY = RegistrySnapshot(tags=TAGS, aliases=ALIASES)


# --------------------------------------------------------------------------- canonical_form


@pytest.mark.parametrize(("topic", "form"), [
    ("Build Pipeline", "build_pipeline"),
    ("Ops.Runner", "ops.runner"),
    ("  ops . runner  ", "ops.runner"),
    ("sample-svc", "sample-svc"),
    ("UTF-16 input!", "utf-16_input"),
    ("..infra.ci..", "infra.ci"),
])
def test_canonical_form(topic, form):
    assert canonical_form(topic) == form


@given(st.text(max_size=30))
def test_canonical_form_is_idempotent(topic):
    form = canonical_form(topic)
    assert canonical_form(form) == form


def test_alias_key_is_case_and_whitespace_insensitive():
    assert alias_key("  The   NIGHTLY ") == "the nightly"


def test_parent_of():
    assert parent_of("infra.ci.nightly") == "infra.ci"
    assert parent_of("infra") is None


# --------------------------------------------------------------------------- resolution order


def test_alias_match_resolves_first():
    res = resolve_topic("The  Nightly", REGISTRY)
    assert (res.tag, res.via) == ("infra.ci.nightly", "alias")
    assert res.topic == "The  Nightly"


def test_alias_beats_an_exact_tag_of_the_same_spelling():
    # 'docs' is both a canonical tag and an alias for 'product': the alias wins
    res = resolve_topic("docs", REGISTRY)
    assert (res.tag, res.via) == ("product", "alias")


def test_exact_match_on_canonical_form():
    res = resolve_topic("Build Pipeline", REGISTRY)
    assert (res.tag, res.via) == ("build_pipeline", "exact")
    res = resolve_topic("Infra.CI.Nightly", REGISTRY)
    assert (res.tag, res.via) == ("infra.ci.nightly", "exact")


def test_unique_leaf_name_resolves():
    res = resolve_topic("Nightly", REGISTRY)
    assert (res.tag, res.via) == ("infra.ci.nightly", "leaf-name")
    res = resolve_topic("migration", REGISTRY)
    assert (res.tag, res.via) == ("docs.migration", "leaf-name")


def test_ambiguous_leaf_name_does_not_resolve():
    res = resolve_topic("runner", REGISTRY)
    assert res.tag is None
    assert res.via == "unresolved"
    assert res.candidate_root is False  # lowercase common word: meta only


def test_ambiguous_entity_shaped_leaf_name_is_a_candidate_root():
    res = resolve_topic("Runner", REGISTRY)
    assert res.tag is None
    assert res.via == "unresolved"
    assert res.candidate_root is True


def test_dotted_topic_with_existing_parent_mints():
    res = resolve_topic("Infra.CI.Weekly", REGISTRY)
    assert (res.tag, res.via) == ("infra.ci.weekly", "minted")


def test_dotted_topic_with_missing_parent_is_unresolved_candidate():
    res = resolve_topic("infra.gpu.pool", REGISTRY)
    assert res.tag is None
    assert res.via == "unresolved"
    assert res.candidate_root is True  # dot path is entity-shaped


def test_bare_unknown_topic_is_never_minted_as_a_root():
    for topic in ("kubernetes", "Kubernetes", "K8s"):
        res = resolve_topic(topic, REGISTRY)
        assert res.tag is None and res.via == "unresolved", topic
    assert resolve_topic("kubernetes", REGISTRY).candidate_root is False
    assert resolve_topic("Kubernetes", REGISTRY).candidate_root is True
    assert resolve_topic("k8s", REGISTRY).candidate_root is True


def test_empty_topic_is_unresolved():
    res = resolve_topic("  !! ", REGISTRY)
    assert res.tag is None and res.via == "unresolved"


def test_leaf_name_is_not_used_for_dotted_topics():
    # 'ci.nightly' is not a tag and its parent 'ci' is not a tag: no leaf lookup, no mint
    res = resolve_topic("ci.nightly", RegistrySnapshot(tags=TAGS, aliases={}))
    assert res.tag is None and res.via == "unresolved"


@given(st.text(st.sampled_from(list("abcAB. -_1")), max_size=16))
def test_resolution_never_yields_a_new_root(topic):
    res = resolve_topic(topic, REGISTRY)
    if res.tag is not None:
        assert res.tag in TAGS or parent_of(res.tag) in TAGS
        assert TAG_SHAPE.match(res.tag)
    else:
        assert res.via == "unresolved"


# --------------------------------------------------------------------------- check_leaf / shape


def test_check_leaf_accepts_a_leaf_under_an_existing_parent():
    assert check_leaf("infra.ci.weekly", TAGS) == "infra.ci.weekly"


def test_check_leaf_refuses_a_bare_tag_as_a_back_door_root():
    with pytest.raises(RootlessTag) as info:
        check_leaf("kubernetes", TAGS)
    assert "registry_propose_root" in str(info.value)
    assert isinstance(info.value, RegistryError)


def test_check_leaf_refuses_an_orphan():
    with pytest.raises(OrphanTag) as info:
        check_leaf("infra.gpu.pool", TAGS)
    assert "'infra.gpu'" in str(info.value)


def test_check_leaf_checks_shape_before_governance():
    with pytest.raises(InvalidInput):
        check_leaf("Infra.CI", TAGS)


@pytest.mark.parametrize("tag", ["infra", "infra.ci.nightly", "a1.b_2.c-3", "x"])
def test_check_tag_shape_accepts_canonical_paths(tag):
    assert check_tag_shape(tag) == tag


@pytest.mark.parametrize("tag", ["", "Infra", "infra..ci", ".infra", "infra.", "-infra",
                                 "infra._ci", "in fra", "infra/ci", "ops.rünner", None, 7])
def test_check_tag_shape_rejects_bad_shapes(tag):
    with pytest.raises(InvalidInput) as info:
        check_tag_shape(tag)
    assert "canonical dotted path" in str(info.value)
