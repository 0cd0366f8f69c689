"""The compiler's stage of the write path: a capture's drafts filed, keyed, dated and
written as timeline facts in the capture's own transaction (seed 002 §9).

Three steps inside ``write_capture``, in the store's lock order (store/locks.py):

1. :func:`plan`, before any lock: subjects filed (the owner's ``me``, a speaker's or a
   name's entity subject), attributes keyed through the registry, the subjects' current
   facts read, the pure :func:`factstore.compiler.reconcile.reconcile` run. It names the
   timeline keys the capture will write.
2. :func:`lock`: those keys first (step 1 of the order), then the kinds of the kind-typed
   facts that state values of them (their verdicts may move with the timeline).
3. :func:`write`, after the capture's facts and entities: the timeline facts written with
   the capture's own document as their testimony (a re-run writes nothing), ends written,
   each kind-typed fact linked to the observations it states, every draft logged.

When a key moves on, :func:`sync_stated` moves the kind-typed facts that state its old
value with it (``timelines.resolve_key`` calls it for every key it resolves).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from factstore.compiler.drafts import Compilation, Draft, Refusal
from factstore.compiler.reconcile import Current, Ending, Planned, reconcile
from factstore.compiler.stated import HOLDS_AGAIN, MOVED_ON, Link, stated_verdicts
from factstore.compiler.subjects import SubjectRef, slug, timeline_subject
from factstore.compiler.vocabulary import BY_KEY
from factstore.redaction import redact
from factstore.store import attributes as attribute_sql
from factstore.store import entities as entity_sql
from factstore.store import locks, transitions
from factstore.store.sealed import open_row
from factstore.timelines.format_v1 import validate_request
from factstore.timelines.resolution import rfc3339
from factstore.timelines.values import value_key
from factstore.writepath.anchors import locate

__all__ = ["CompilePlan", "existing_for", "lock", "plan", "sync_stated", "write"]

Key = tuple[str, str, str]
#: The current facts a plan reads per capture (seed 002 §9: "the newest 60").
EXISTING_LIMIT = 60


@dataclass
class CompilePlan:
    """What one capture will write to its timelines."""

    compiler: str
    scope: str
    observed: datetime | None
    planned: list[Planned] = field(default_factory=list)
    endings: list[Ending] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    #: named subjects: (name as written, namespace) -> the subject they file under
    named: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def keys(self) -> list[Key]:
        found = {(self.scope, str(p.fact["subject"]), str(p.fact["attribute"]))
                 for p in self.planned}
        found |= {(self.scope, e.current.subject, e.current.attribute) for e in self.endings}
        return sorted(found)


def plan(cur: Any, compilation: Compilation | None, *, observed: datetime | None,
         owner: str, source: str | None) -> CompilePlan | None:
    """Read what the drafts need and reconcile them; None when there is nothing to do.
    ``observed`` None means the capture has no time at all: every draft is refused."""
    if compilation is None or not (compilation.drafts or compilation.refusals):
        return None
    scope = _write_scope(cur)
    result = CompilePlan(compilation.compiler, scope, observed,
                         refusals=list(compilation.refusals))
    if observed is None:
        result.refusals += [Refusal(d.quote, "no time: the capture says neither when it was "
                                             "said nor when it was captured")
                            for d in compilation.drafts]
        return result
    registry = attribute_sql.snapshot(cur)
    named = {(d.subject.name, d.subject.namespace) for d in compilation.drafts
             if d.subject.kind == "named" and d.subject.name}
    speakers = {d.subject.name for d in compilation.drafts
                if d.subject.kind != "named" and d.subject.name}
    result.named = {key: _subject_of_name(cur, key[0], key[1]) for key in named}
    spoken = {name: _subject_of_name(cur, name, "person") for name in speakers}

    def subject_of(ref: SubjectRef, attribute: str | None) -> str | None:
        if ref.kind == "named":
            return result.named.get((ref.name or "", ref.namespace))
        if ref.name is not None and ref.name not in spoken:
            return None
        speaker = SubjectRef(ref.kind, None) if ref.name is None else ref
        filed = timeline_subject(speaker, member_holds=bool(
            attribute in BY_KEY and BY_KEY[attribute].member_holds), owner=owner)
        if filed is None:
            return None
        if ref.name is not None:  # a speaker's own entity subject, and its group
            own = spoken[ref.name]
            filed = own + filed[len(f"person/{slug(ref.name)}"):]
        return owner if filed == "me" else filed

    subjects = set()
    for draft in compilation.drafts:
        for attribute in (draft.attribute, None, *BY_KEY):
            found = subject_of(draft.subject, attribute)
            if found:
                subjects.add(found)
    existing = _current_facts(cur, scope, sorted(subjects))
    planned, endings, refused = reconcile(
        compilation.drafts, observed=observed, subject_of=subject_of, existing=existing,
        registry=registry, cardinality_of=lambda key: _stored_cardinality(cur, scope, key),
        source=source)
    # a model's "ended" (seed 002 §9): only ids it was shown, still current now
    by_id = {c.id: c for c in _current_by_id(cur, scope, [e.id for e in compilation.ended])}
    for ended in compilation.ended:
        current = by_id.get(ended.id)
        if ended.id not in compilation.shown or current is None:
            refused.append(Refusal(ended.quote[:200], f"fact #{ended.id} was not shown or is "
                                                      "no longer current"))
            continue
        stub = Draft(SubjectRef("speaker"), current.attribute, None, None, ended.quote,
                     (0, 0))
        if current.valid_from is None or ended.valid_to > current.valid_from:
            endings.append(Ending(current, ended.valid_to, stub))
    result.planned, result.endings = planned, endings
    result.refusals += refused
    return result


def existing_for(cur: Any, subjects: Sequence[str]) -> list[Current]:
    """What a model compiler is shown: the newest current facts of the subjects in the
    transaction's write scope (seed 002 §9 "EXISTING FACTS")."""
    return _current_facts(cur, _write_scope(cur), subjects)


def lock(cur: Any, compile_plan: CompilePlan | None) -> set[str]:
    """Step 1 of the lock order: the plan's timeline keys; returns the kinds of the facts
    that state values of those keys (the caller locks them with its own, step 3)."""
    if compile_plan is None or not compile_plan.keys:
        return set()
    keys = compile_plan.keys
    locks.lock_timeline_keys(cur, keys)
    cur.execute(
        "SELECT DISTINCT k.kind FROM fact_states s JOIN evidence e ON e.id = s.observation_id "
        "JOIN facts t ON t.id = e.fact_id JOIN facts k ON k.id = s.fact_id "
        "WHERE (t.timeline_scope, t.subject, t.attribute) IN (SELECT * FROM unnest("
        "%s::text[], %s::text[], %s::text[]))",
        ([k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys]))
    return {r["kind"] for r in cur.fetchall()}


@dataclass(frozen=True)
class CompileReport:
    """What one capture's compile wrote: facts, ends, refusals."""

    written: tuple[tuple[int, str], ...] = ()
    ended: tuple[int, ...] = ()
    refused: tuple[Refusal, ...] = ()


def write(cur: Any, compile_plan: CompilePlan | None, *, text: str, document_id: int,
          duplicate: bool, stated: Sequence[tuple[int, str]], at: datetime) -> CompileReport:
    """Write the plan (see the module docstring). ``stated`` is each kind-typed fact the
    capture wrote (or found again) with its quote, to link to the values it states."""
    if compile_plan is None:
        return CompileReport()
    from factstore.store import timelines as timeline_sql

    _bind_named(cur, compile_plan, at)
    facts = [p.fact for p in compile_plan.planned]
    facts += [_ended_fact(e, compile_plan) for e in compile_plan.endings]
    written = []
    if facts:
        checked, _ = validate_request({"format": 1, "facts": facts}, now=at, batch=True)
        result = timeline_sql.write(cur, checked, [() for _ in checked], compile_plan.scope,
                                    None, None, at, document=(document_id, duplicate),
                                    new_entities=False)
        written = [(w.id, w.outcome) for w in result.facts]
        _learn(cur, compile_plan, at)
        _link(cur, compile_plan, text, document_id, stated, at)
    _log(cur, compile_plan, document_id, written, at)
    return CompileReport(tuple(written), tuple(e.current.id for e in compile_plan.endings),
                         tuple(compile_plan.refusals))


# -- subjects -------------------------------------------------------------------------------

def _write_scope(cur: Any) -> str:
    cur.execute("SELECT current_setting('factstore.write_scope') AS scope")
    return cur.fetchone()["scope"]


def _subject_of_name(cur: Any, name: str, namespace: str) -> str | None:
    """The subject a name files under: its entity's timeline subject when one entity goes
    by that name and has one, else ``<namespace>/<slug of the name>``."""
    found = sorted({entity_sql.follow(cur, e)[0] for e in entity_sql.find(cur, name)})
    if len(found) == 1:
        cur.execute("SELECT timeline_subject FROM entities WHERE id = %s", (found[0],))
        row = cur.fetchone()
        if row is not None and row["timeline_subject"]:
            return row["timeline_subject"]
    if not found and namespace == "person" and len(name.split()) == 1:
        # "Bram", after "Bram de Vries": the one person with a timeline who goes by that
        # first name (match-biased, as the resolver's T4; two such people: no guess)
        prefix = (slug(name) or "") + "-"
        cur.execute("SELECT DISTINCT timeline_subject FROM entities WHERE merged_into IS NULL "
                    "AND timeline_subject LIKE %s AND timeline_subject NOT LIKE %s LIMIT 2",
                    (f"person/{prefix}%", "%-group"))
        rows = cur.fetchall()
        if len(rows) == 1:
            return rows[0]["timeline_subject"]
    named = slug(name)
    return f"{namespace}/{named}" if named else None


def _bind_named(cur: Any, compile_plan: CompilePlan, at: datetime) -> None:
    """The entity a name resolved to in this capture (the entity stage ran before) takes
    the subject it files under, so 'person/priya' is the Person Priya, not a second one."""
    for (name, _namespace), subject in compile_plan.named.items():
        if subject is None:
            continue
        cur.execute("SELECT 1 FROM entities WHERE timeline_subject = %s", (subject,))
        if cur.fetchone() is not None:
            continue
        found = sorted({entity_sql.follow(cur, e)[0] for e in entity_sql.find(cur, name)})
        if len(found) == 1:
            cur.execute("UPDATE entities SET timeline_subject = %s WHERE id = %s AND "
                        "timeline_subject IS NULL", (subject, found[0]))


# -- reads ----------------------------------------------------------------------------------

def _current_facts(cur: Any, scope: str, subjects: Sequence[str]) -> list[Current]:
    """The newest current timeline facts of the subjects in the scope (at most 60)."""
    if not subjects:
        return []
    cur.execute(
        "SELECT id, subject, attribute, value, unit, cardinality, valid_from, observed_at, "
        "evidence_quote, evidence_source_ref, statement, statement_norm, access_scope, "
        "sealed_version FROM facts WHERE attribute IS NOT NULL AND timeline_scope = %s AND "
        "subject = ANY(%s) AND verdict IN ('active', 'contested') "
        "ORDER BY observed_at DESC, id DESC LIMIT %s", (scope, list(subjects), EXISTING_LIMIT))
    out = []
    for row in cur.fetchall():
        row = open_row("facts", row)
        out.append(Current(row["id"], row["subject"], row["attribute"], row["value"],
                           row["unit"], row["cardinality"], row["valid_from"],
                           row["observed_at"]))
    return out


def _current_by_id(cur: Any, scope: str, ids: Sequence[int]) -> list[Current]:
    if not ids:
        return []
    cur.execute(
        "SELECT id, subject, attribute, value, unit, cardinality, valid_from, observed_at, "
        "evidence_quote, evidence_source_ref, statement, statement_norm, access_scope, "
        "sealed_version FROM facts WHERE attribute IS NOT NULL AND timeline_scope = %s AND "
        "id = ANY(%s) AND verdict IN ('active', 'contested')", (scope, list(ids)))
    return [Current(r["id"], r["subject"], r["attribute"], r["value"], r["unit"],
                    r["cardinality"], r["valid_from"], r["observed_at"])
            for r in (open_row("facts", row) for row in cur.fetchall())]


def _stored_cardinality(cur: Any, scope: str, attribute: str) -> str | None:
    cur.execute("SELECT cardinality FROM facts WHERE timeline_scope = %s AND attribute = %s "
                "LIMIT 1", (scope, attribute))
    row = cur.fetchone()
    return row["cardinality"] if row else None


# -- writes ---------------------------------------------------------------------------------

def _ended_fact(ending: Ending, compile_plan: CompilePlan) -> dict[str, object]:
    """The stored claim observed again with its end (seed 002 §9 ``ended``)."""
    current = ending.current
    fact: dict[str, object] = {
        "subject": current.subject, "attribute": current.attribute, "value": current.value,
        "valid_from": current.valid_from or rfc3339(current.observed_at),
        "valid_to": ending.valid_to, "quote": ending.draft.quote[:2000],
        "observed_at": rfc3339(compile_plan.observed),  # type: ignore[arg-type]
        "cardinality": current.cardinality}
    if current.unit:
        fact["unit"] = current.unit
    return fact


def _learn(cur: Any, compile_plan: CompilePlan, at: datetime) -> None:
    """New keys and the words they were read from go into the registry, for review."""
    for item in compile_plan.planned:
        key = str(item.fact["attribute"])
        attribute_sql.learn(cur, key, str(item.fact["cardinality"]), item.draft.alias, at)


def _observations(cur: Any, document_id: int, keys: Iterable[Key]) -> list[dict[str, Any]]:
    keys = list(keys)
    cur.execute(
        "SELECT e.id, e.fact_id, e.quote, e.value, e.unit, e.valid_from, e.valid_to, "
        "e.access_scope, e.sealed_version, f.subject, f.attribute FROM evidence e "
        "JOIN facts f ON f.id = e.fact_id WHERE e.document_id = %s AND "
        "(f.timeline_scope, f.subject, f.attribute) IN (SELECT * FROM unnest(%s::text[], "
        "%s::text[], %s::text[]))",
        (document_id, [k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys]))
    return [open_row("evidence", r) for r in cur.fetchall()]


def _link(cur: Any, compile_plan: CompilePlan, text: str, document_id: int,
          stated: Sequence[tuple[int, str]], at: datetime) -> None:
    """Each kind-typed fact of the capture states the values compiled from its clause."""
    spans = []
    for fact_id, quote in stated:
        span = locate(quote, text) if quote else None
        if span is not None:
            spans.append((fact_id, span))
    if not spans:
        return
    rows = _observations(cur, document_id, compile_plan.keys)
    pairs = set()
    for item in compile_plan.planned:
        a, b = item.draft.span
        observation = next((r for r in rows if r["subject"] == item.fact["subject"]
                            and r["attribute"] == item.fact["attribute"]
                            and r["value"] == item.fact["value"]
                            and r["valid_from"] == item.fact.get("valid_from")
                            and (r["quote"] or "") == item.fact["quote"]), None)
        if observation is None:
            continue
        for fact_id, (c, d) in spans:
            if c < b and a < d:  # the clause and the fact's quote overlap
                pairs.add((fact_id, observation["id"]))
    if pairs:
        cur.executemany("INSERT INTO fact_states (fact_id, observation_id) VALUES (%s, %s) "
                        "ON CONFLICT DO NOTHING", sorted(pairs))
        sync_stated(cur, compile_plan.keys, at)


def _log(cur: Any, compile_plan: CompilePlan, document_id: int,
         written: Sequence[tuple[int, str]], at: datetime) -> None:
    rows = []
    outcomes = list(written)
    for index, item in enumerate(compile_plan.planned):
        fact_id, outcome = outcomes[index] if index < len(outcomes) else (None, "refused")
        rows.append((outcome if outcome in ("corroborated", "unchanged") else "written",
                     item.fact["subject"], item.fact["attribute"], item.fact["value"], fact_id,
                     item.draft.quote, None))
    for ending in compile_plan.endings:
        rows.append(("ended", ending.current.subject, ending.current.attribute,
                     ending.current.value, ending.current.id, ending.draft.quote,
                     f"ended {ending.valid_to}"))
    for refusal in compile_plan.refusals:
        rows.append(("refused", None, refusal.attribute, None, None, refusal.quote,
                     redact(refusal.reason)[0][:500]))
    if not rows:
        return
    cur.executemany(
        "INSERT INTO compile_log (document_id, compiler, outcome, subject, attribute, value, "
        "fact_id, quote, reason, at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT DO NOTHING",
        [(document_id, compile_plan.compiler, o, s, a, v, f, q[:2000], r, at)
         for o, s, a, v, f, q, r in rows])


# -- one truth: kind-typed facts move with their timeline ----------------------------------

def sync_stated(cur: Any, keys: Sequence[Key], at: datetime) -> None:
    """The kind-typed facts that state values of ``keys`` take the timeline's word
    (compiler/stated.py): one none of whose values holds at ``at`` is superseded, with the
    value that holds instead; one this rule superseded comes back when a value holds
    again. Parked, withdrawn, otherwise superseded and EVENT facts stay as they are."""
    from factstore.store import timelines as timeline_sql
    from factstore.timelines.resolution import current_at

    keys = list(keys)
    if not keys:
        return
    cur.execute(
        "SELECT DISTINCT s.fact_id FROM fact_states s JOIN evidence e ON e.id = "
        "s.observation_id JOIN facts t ON t.id = e.fact_id WHERE (t.timeline_scope, "
        "t.subject, t.attribute) IN (SELECT * FROM unnest(%s::text[], %s::text[], "
        "%s::text[]))", ([k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys]))
    stating = [r["fact_id"] for r in cur.fetchall()]
    if not stating:
        return
    cur.execute(
        "SELECT s.fact_id, k.kind, k.verdict AS kind_verdict, e.value, e.unit, "
        "e.access_scope, e.sealed_version, e.id AS evidence_id, t.id AS timeline_id, "
        "t.timeline_scope, t.subject, "
        "t.attribute, t.cardinality, "
        "(SELECT h.reason_code FROM fact_history h WHERE h.fact_id = s.fact_id "
        " ORDER BY h.id DESC LIMIT 1) AS last_code "
        "FROM fact_states s JOIN facts k ON k.id = s.fact_id "
        "JOIN evidence e ON e.id = s.observation_id JOIN facts t ON t.id = e.fact_id "
        "WHERE s.fact_id = ANY(%s)", (stating,))
    rows = [open_row("evidence", r, id_column="evidence_id") for r in cur.fetchall()]
    now: dict[Key, tuple] = {}
    for row in rows:
        key = (row["timeline_scope"], row["subject"], row["attribute"])
        if key not in now:
            facts = timeline_sql.load_key(cur, key)
            held = current_at(facts, at, row["cardinality"]) if facts else ()
            now[key] = tuple(held)
    links = []
    for row in rows:
        key = (row["timeline_scope"], row["subject"], row["attribute"])
        stated = value_key(row["value"], row["unit"])
        held = now[key]
        holds = any(f.value_key == stated for f in held)
        other = next((f for f in held if f.value_key != stated), None)
        links.append(Link(row["fact_id"], row["kind"], row["kind_verdict"], row["last_code"],
                          f"{row['attribute']}({row['subject']})", row["value"], holds,
                          other.id if other else None, other.value if other else None,
                          row["timeline_id"]))
    changes = stated_verdicts(links)
    if changes:
        # step 3 of the lock order: the kinds of the plain facts whose verdicts move
        cur.execute("SELECT DISTINCT kind FROM facts WHERE id = ANY(%s)",
                    ([c.fact_id for c in changes],))
        locks.lock_kinds(cur, [r["kind"] for r in cur.fetchall()])
    for change in changes:
        cur.execute("SELECT verdict FROM facts WHERE id = %s FOR NO KEY UPDATE",
                    (change.fact_id,))
        before = cur.fetchone()["verdict"]
        if change.to == "superseded":
            cur.execute("UPDATE facts SET verdict = 'superseded', superseded_by = %s, "
                        "t_superseded = %s WHERE id = %s", (change.by, at, change.fact_id))
            transitions.record(cur, change.fact_id, before, "superseded", change.reason, at,
                               code=MOVED_ON)
            transitions.close_conflicts_of(cur, change.fact_id, at, "superseded", None)
        else:
            cur.execute("UPDATE facts SET verdict = 'active', superseded_by = NULL, "
                        "t_superseded = NULL WHERE id = %s", (change.fact_id,))
            transitions.record(cur, change.fact_id, before, "active", change.reason, at,
                               code=HOLDS_AGAIN)
