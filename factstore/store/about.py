"""Which timeline keys a question is about, looked up by index (migration 009).

The rule is :func:`factstore.timelines.about.keys_about`, decided on the plaintext keys. It
used to run over every (subject, attribute) of each attribute the question might name, a
DISTINCT over every row of those attributes (0.44 s at a million facts). It only needs a
few keys per attribute (its docstring says which), and each of those is an index lookup:

* two distinct subjects of the attribute (does only one subject have it?), two probes per
  attribute and scope on ``facts_timeline_slug``, which also says which candidate
  attributes exist at all;
* the subjects the question can mention: their slug's first and last part are question
  words (:func:`~factstore.timelines.about.slug_words`), looked up on the same index;
* the asker's own subject, on ``facts_timeline_key``, when the question says my/me.

Then :func:`~factstore.timelines.about.keys_about` decides on those keys, so the answer is
the one the whole-table rule gives (tests/test_timeline_about_sql.py checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factstore.compiler.vocabulary import QUESTION_WORDS
from factstore.store import attributes as attribute_sql
from factstore.timelines import about


def _slug_part(column: str, n: int) -> str:
    # Spelled exactly as in 009_timeline_about.sql: the planner matches index expressions
    # structurally, and about.slug_ends is the same rule in Python.
    return f"split_part(btrim(substr({column}, strpos({column}, '/') + 1), '-'), '-', {n})"


LAST = _slug_part("f.subject", -1)
FIRST = _slug_part("f.subject", 1)

#: Up to this many distinct question words, the scan for named subjects also requires the
#: slug's first part to be a question word; past it (an array as long as the question,
#: tested at every entry) the last part alone is looked up and the rule in Python drops the
#: rest.
MAX_PAIRED_WORDS = 24

TWO_SUBJECTS = f"""
SELECT a.attribute, one.subject AS one, two.subject AS two
FROM unnest(%(attributes)s::text[]) AS a(attribute)
CROSS JOIN unnest(%(scopes)s::text[]) AS s(scope)
CROSS JOIN LATERAL (
    SELECT f.subject, {LAST} AS last_part, {FIRST} AS first_part FROM facts f
    WHERE f.attribute IS NOT NULL AND f.timeline_scope = s.scope AND f.attribute = a.attribute
    ORDER BY {LAST}, {FIRST}, f.subject LIMIT 1) AS one
LEFT JOIN LATERAL (
    SELECT f.subject FROM facts f
    WHERE f.attribute IS NOT NULL AND f.timeline_scope = s.scope AND f.attribute = a.attribute
      AND ({LAST}, {FIRST}, f.subject) > (one.last_part, one.first_part, one.subject)
    ORDER BY {LAST}, {FIRST}, f.subject LIMIT 1) AS two ON true
"""


def _named(first_filter: str) -> str:
    # A loose index scan of facts_timeline_slug: per (scope, attribute, last-part word) the
    # first index entry, then each next one past the (first part, subject) before it: one
    # probe per distinct subject, so a key's 10,000 rows are not read to find its subject.
    # The bounds are row comparisons over the index's own columns and the order is its
    # order, so only this index can answer with LIMIT 1; plain equalities would let the
    # planner, before an ANALYZE, prefer facts_timeline_scope_attribute and a filter over
    # every row of the attribute.
    key = f"(f.timeline_scope, f.attribute, {LAST}, {FIRST}, f.subject)"
    step = f"""
        SELECT f.timeline_scope AS scope, f.attribute, {LAST} AS last_part,
               {FIRST} AS first_part, f.subject
        FROM facts f WHERE f.attribute IS NOT NULL
          AND (f.timeline_scope, f.attribute, {LAST}) <= (k.scope, k.attribute, k.last_part)"""
    order = f"ORDER BY f.timeline_scope, f.attribute, {LAST}, {FIRST}, f.subject LIMIT 1"
    return f"""
WITH RECURSIVE hit AS (
    SELECT x.* FROM (SELECT s.scope, a.attribute, w.word AS last_part
                     FROM unnest(%(scopes)s::text[]) AS s(scope)
                     CROSS JOIN unnest(%(attributes)s::text[]) AS a(attribute)
                     CROSS JOIN unnest(%(words)s::text[]) AS w(word)) AS k
    CROSS JOIN LATERAL ({step}
          AND {key} >= (k.scope, k.attribute, k.last_part, '', ''){first_filter}
        {order}) AS x
    UNION ALL
    SELECT x.* FROM hit AS k
    CROSS JOIN LATERAL ({step}
          AND {key} > (k.scope, k.attribute, k.last_part, k.first_part, k.subject){first_filter}
        {order}) AS x)
SELECT DISTINCT subject, attribute FROM hit
"""


#: Subjects whose slug's last part is a question word ...
NAMED = _named("")
#: ... and whose first part is one too.
NAMED_PAIRED = _named(f"\n          AND {FIRST} = ANY(%(words)s)")

HELD_BY = """
SELECT a.attribute FROM unnest(%(attributes)s::text[]) AS a(attribute)
WHERE EXISTS (SELECT 1 FROM facts f WHERE f.attribute IS NOT NULL
              AND f.timeline_scope = ANY(%(scopes)s) AND f.subject = %(subject)s
              AND f.attribute = a.attribute)
"""


def keys_about(cur: Any, question: str, scopes: Sequence[str], me: str | None
               ) -> list[tuple[str, str]]:
    """The (subject, attribute) keys in ``scopes`` the question is about, sorted: what
    ``about.keys_about(question, <every key of the scopes>, me)`` answers."""
    return _about(cur, question, scopes, me)[0]


def keys_and_holders(cur: Any, question: str, scopes: Sequence[str], me: str | None
                     ) -> tuple[list[tuple[str, str]], set[tuple[str, str]]]:
    """:func:`keys_about`, with the keys that answer a question naming a value and asking
    who or what holds it ("Which projects does Ugo lead?", "Who is on the Identity
    team?": timelines/about.holder_keys), and which of the keys those are."""
    chosen, attributes, asking = _about(cur, question, scopes, me)
    if not attributes:
        return chosen, set()
    # the attributes a key was chosen for by its subject (named, or the asker's own): a
    # question naming a value asks for its holders only where no subject answers it
    by_subject = {a for s, a in chosen if about.subject_mentioned(s, question)
                  or s in asking}
    holders = about.holder_keys(question, named_values(cur, question, attributes, scopes),
                                by_subject)
    if not holders:
        return chosen, set()
    held = {a for _, a in holders}
    # a value's holders replace the guess that the attribute's only subject is meant
    keys = sorted({k for k in chosen if k[1] not in held or k[1] in by_subject} |
                  set(holders))
    return keys, set(holders)


def _about(cur: Any, question: str, scopes: Sequence[str], me: str | None
           ) -> tuple[list[tuple[str, str]], list[str], set[str]]:
    """(the keys chosen, the candidate attributes some subject holds, the asker's
    subjects)."""
    candidates = about.attribute_candidates(question)
    candidates += about.registry_candidates(question, attribute_sql.snapshot(cur),
                                            QUESTION_WORDS)
    candidates = list(dict.fromkeys(candidates))
    if not candidates:
        return [], [], set()
    found = some_subjects(cur, candidates, scopes)
    if not found:
        return [], [], set()
    attributes = sorted({attribute for _, attribute in found})
    found += named_subjects(cur, question, attributes, scopes)
    asking = set()
    if me is not None and (about.mentions_me(question) or about.mentions_we(question)):
        asking |= {me, about.group_of(me)}
    # a named person's group: what their "we" said (compiler/subjects.py)
    asking |= {about.group_of(s) for s, _ in found
               if about.subject_mentioned(s, question) and not s.endswith(about.GROUP_SUFFIX)}
    for subject in sorted(asking):
        found += [(subject, attribute) for attribute in held_by(cur, subject, attributes,
                                                                scopes)]
    return about.keys_about(question, found, me), attributes, asking


HOLDING = """
SELECT DISTINCT f.subject, f.attribute, f.value FROM facts f
WHERE f.attribute = ANY(%(attributes)s) AND f.timeline_scope = ANY(%(scopes)s)
  AND f.sealed_version IS NULL
  AND regexp_split_to_array(btrim(regexp_replace(lower(f.value), '[^a-z0-9]+', ' ', 'g')),
                            ' ') <@ %(words)s::text[]
"""


def named_values(cur: Any, question: str, attributes: Sequence[str],
                 scopes: Sequence[str]) -> list[tuple[str, str, str]]:
    """(subject, attribute, value) of every timeline row of ``attributes`` whose words,
    folded as question words are, are all question words (about.value_named then checks
    their order). Sealed rows are not matched: their values are not plaintext."""
    cur.execute(HOLDING, {"attributes": list(attributes), "scopes": list(scopes),
                          "words": sorted(set(about.words(question)))})
    return [(r["subject"], r["attribute"], r["value"]) for r in cur.fetchall()]


def some_subjects(cur: Any, attributes: Sequence[str], scopes: Sequence[str]
                  ) -> list[tuple[str, str]]:
    """Up to two distinct subjects per attribute and scope, as (subject, attribute): enough
    to tell one subject from several. Attributes nobody has are absent."""
    cur.execute(TWO_SUBJECTS, {"attributes": list(attributes), "scopes": list(scopes)})
    found = []
    for row in cur.fetchall():
        found.append((row["one"], row["attribute"]))
        if row["two"] is not None:
            found.append((row["two"], row["attribute"]))
    return found


def named_subjects(cur: Any, question: str, attributes: Sequence[str],
                   scopes: Sequence[str]) -> list[tuple[str, str]]:
    """Every key of ``attributes`` whose subject the question may mention (its slug's ends
    are question words), a superset of those it does mention."""
    words = about.slug_words(question)
    query = NAMED_PAIRED if len(words) <= MAX_PAIRED_WORDS + 1 else NAMED
    cur.execute(query, {"attributes": list(attributes), "scopes": list(scopes),
                        "words": words})
    return [(row["subject"], row["attribute"]) for row in cur.fetchall()]


def held_by(cur: Any, subject: str, attributes: Sequence[str],
            scopes: Sequence[str]) -> list[str]:
    """Which of ``attributes`` the subject has in ``scopes``."""
    cur.execute(HELD_BY, {"attributes": list(attributes), "scopes": list(scopes),
                           "subject": subject})
    return [row["attribute"] for row in cur.fetchall()]
