"""Cardinality: whether an attribute holds one value at a time or accumulates many (seed 002 §3).

A one attribute (shoe_size, employer) has one value at a time, so a new value ends the old one.
A many attribute (uses_tool, speaks) accumulates: each distinct value has its own timeline.

The cardinality belongs to the attribute, not to a single write, so it is decided by the first
of: what the attribute's existing facts already store, what the write says, the registry below.
"""

from __future__ import annotations

from factstore.errors import CardinalityMismatch, InvalidInput

ONE = "one"
MANY = "many"
CARDINALITIES = (ONE, MANY)

#: Attributes that accumulate values unless their facts or a write say otherwise. Everything
#: not listed here is a one attribute.
MANY_ATTRIBUTES: frozenset[str] = frozenset({
    "uses_tool", "uses", "speaks", "knows", "member_of", "works_on", "owns", "skill", "skills",
    "likes", "dislikes", "tag", "tags", "alias", "aliases", "depends_on", "reports",
    "contributor", "contributors",
})


def registry_cardinality(attribute: str) -> str:
    """The built-in registry's answer: 'many' for the listed attributes, 'one' otherwise."""
    return MANY if attribute in MANY_ATTRIBUTES else ONE


def check_cardinality(cardinality: str, what: str = "cardinality") -> str:
    """Return ``cardinality`` if it is 'one' or 'many'; InvalidInput naming ``what`` otherwise."""
    if cardinality not in CARDINALITIES:
        raise InvalidInput(f"{what} must be 'one' or 'many', not {cardinality!r}")
    return cardinality


def decide_cardinality(stored: str | None, written: str | None, attribute: str) -> str:
    """The attribute's cardinality by the precedence of seed 002 §3.

    1. ``stored`` (the cardinality on the attribute's existing facts in the scope) wins; a
       ``written`` one that disagrees raises CardinalityMismatch rather than silently
       re-interpreting every existing fact of the timeline.
    2. ``written`` (the write's own cardinality field).
    3. The built-in registry for ``attribute``.
    """
    if stored is not None:
        check_cardinality(stored, f"stored cardinality of {attribute!r}")
    if written is not None:
        check_cardinality(written, f"cardinality of the write for {attribute!r}")
    if stored is not None:
        if written is not None and written != stored:
            raise CardinalityMismatch(attribute, stored, written)
        return stored
    if written is not None:
        return written
    return registry_cardinality(attribute)
