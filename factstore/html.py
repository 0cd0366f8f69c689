"""HTML tables for the result types a notebook shows (their ``_repr_html_``).

Pure functions over the frozen results: no store, no Jupyter import. Every text from the
store is escaped. The plain ``repr`` of each result is untouched, so a terminal shows the
dataclass as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape
from typing import Any

from factstore import questions as questions_rules

_STYLE = ("<style>.fs-t{border-collapse:collapse;font-size:13px}.fs-t th,.fs-t td{border:"
          "1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}.fs-t th{"
          "background:#f6f6f6}.fs-t caption{text-align:left;font-weight:600;padding:4px 0}"
          "</style>")


def table(caption: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """One escaped HTML table; cells are shown as text (None as an em dash)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>"
                   for row in rows)
    return (f'{_STYLE}<table class="fs-t"><caption>{escape(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, datetime):
        return escape(value.isoformat(timespec="seconds"))
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, _Pre):
        return f"<pre>{escape(value)}</pre>"
    return escape(str(value))


def recall_html(result: Any) -> str:
    """RecallResult: each item with its label, similarity and what it is."""
    rows = [(i + 1, item.label.code, item.label.text, item.similarity,
             item.fact.kind.value if item.fact else "document", item.text,
             item.fact.id if item.fact else item.document.id,
             item.document.source_ref if item.document else None,
             ", ".join(item.matched_by) or None,
             ", ".join(f"#{p}" for p in item.partner_ids) or None)
            for i, item in enumerate(result.items)]
    html = table(f"recall {result.query!r}: answered by the {result.layer} layer",
                 ("#", "label", "what the label means", "cosine", "kind", "text", "id",
                  "source", "found by", "contested with"), rows)
    if result.timelines:
        html += table("timelines", ("line",), [(line,) for line in result.timelines])
    return html


def resolve_calls(conflict: Any) -> tuple[str, str, str]:
    """The three exact calls that close an open conflict: a wins, b wins, both stand."""
    return (f"store.resolve_conflict({conflict.id}, winner_id={conflict.fact_a.id}, "
            "reasoning='...')",
            f"store.resolve_conflict({conflict.id}, winner_id={conflict.fact_b.id}, "
            "reasoning='...')",
            f"store.resolve_both_stand({conflict.id}, reasoning='...')")


def conflict_html(conflict: Any) -> str:
    """Conflict: the two sides head to head, and the exact call that resolves it."""
    a, b = conflict.fact_a, conflict.fact_b
    rows = [(side, f.id, f.kind.value, f.verdict.value, f.statement, f.evidence_quote,
             f.evidence_source_ref, f.t_said or f.t_captured) for side, f in (("a", a), ("b", b))]
    html = table(f"conflict #{conflict.id} ({conflict.lane}, {conflict.status}"
                 + (f", cosine {conflict.similarity:.3f}" if conflict.similarity else "")
                 + (f", differs in {', '.join(conflict.differences)}"
                    if conflict.differences else "") + ")",
                 ("side", "fact", "kind", "verdict", "statement", "quote", "source", "when"),
                 rows)
    if conflict.status == "open":
        html += "<pre>" + escape("\n".join(resolve_calls(conflict))) + "</pre>"
    else:
        html += f"<p>{escape(conflict.resolution or 'resolved')}: " \
                f"{escape(conflict.reasoning or '')}</p>"
    return html


def question_html(question: Any) -> str:
    """OpenQuestion: the entry, what the discipline recommends, and its evidence."""
    html = table(f"open question #{question.id}: {question.title}",
                 ("status", "risk", "cost", "recommendation", "body"),
                 [(question.status, question.risk, question.cost, question.recommendation,
                   question.body)])
    if question.evidence:
        html += table("evidence", ("recorded", "by", "note"),
                      [(e.recorded_at, e.recorded_by, e.note) for e in question.evidence])
    return html


def timeline_html(answer: Any) -> str:
    """TimelineAnswer: per key its line, then every fact with both time axes."""
    known = f", as the store believed at {answer.known_at.isoformat()}" if answer.known_at \
        else ""
    parts = [f"<p><b>as of {escape(answer.as_of)}</b>{escape(known)}: "
             f"{len(answer.keys)} timeline(s)</p>"]
    for key in answer.keys:
        current = {f.id for f in key.current}
        rows = [("now" if f.id in current else "", f.id, f.value + (f" {f.unit}" if f.unit else ""),
                 f.valid_from, f.effective_valid_to or f.valid_to,
                 "retracted" if f.retracted else f.status, f.observed_at, f.recorded_at, f.source)
                for f in key.history]
        caption = f"{key.subject} · {key.attribute} ({key.cardinality})" + (
            f" — {key.omitted} older fact(s) not read" if key.omitted else "")
        parts.append(table(caption, ("", "fact", "value", "valid from", "valid to", "status",
                                     "observed", "recorded", "source"), rows))
        parts.append(f"<p><code>{escape(key.line)}</code></p>")
    return "".join(parts)


def conflicts_html(conflicts: Sequence[Any]) -> str:
    """A list of conflicts: one head-to-head row per pair, each open one with its calls."""
    if not conflicts:
        return "<p>no conflicts</p>"
    rows = []
    for c in conflicts:
        calls = ("\n".join(resolve_calls(c)) if c.status == "open" else f"{c.resolution or 'resolved'}: {c.reasoning or ''}")
        rows.append((c.id, c.lane, c.status, c.similarity,
                     f"#{c.fact_a.id} {c.fact_a.statement}", f"#{c.fact_b.id} {c.fact_b.statement}",
                     ", ".join(c.differences) or None, _Pre(calls)))
    return table(f"{len(conflicts)} conflict(s)",
                 ("#", "lane", "status", "cosine", "a", "b", "differs in", "to close it"), rows)


def queue_html(questions: Sequence[Any]) -> str:
    """The open-questions queue in its working order, with each entry's evidence count."""
    if not questions:
        return "<p>the open-questions queue is empty</p>"
    rows = [(q.id, q.title, q.status, q.risk, q.cost, q.recommendation, len(q.evidence),
             q.evidence[-1].note if q.evidence else None)
            for q in sorted(questions, key=questions_rules.queue_order)]
    return table(f"open-questions queue: {len(questions)} entr{'y' if len(questions) == 1 else 'ies'}",
                 ("#", "title", "status", "risk", "cost", "recommendation", "evidence",
                  "latest evidence"), rows)


def census_html(census: Any) -> str:
    """Census: totals by kind and verdict, documents by source, the largest topics."""
    by_kind: dict[tuple[str, str], int] = {}
    for f in census.facts:
        by_kind[(f.kind, f.verdict)] = by_kind.get((f.kind, f.verdict), 0) + f.count
    by_source: dict[tuple[str, str], int] = {}
    for d in census.documents:
        by_source[(d.source_type, d.routed)] = by_source.get((d.source_type, d.routed), 0) + d.count
    return (table("facts by kind and verdict", ("kind", "verdict", "facts"),
                  [(k, v, n) for (k, v), n in sorted(by_kind.items())])
            + table("documents by source and routing", ("source type", "routed", "documents"),
                    [(s, r, n) for (s, r), n in sorted(by_source.items())])
            + (table("largest topics (tags)", ("tag", "facts", "live"),
                     [(t.tag, t.facts, t.live) for t in census.topics]) if census.topics
               else "<p>no fact carries a tag</p>")
            + table("largest subjects", ("subject key", "facts", "live"),
                    [(s.subject_key, s.facts, s.live) for s in census.subjects]))


def dropped_html(dropped: Sequence[Any]) -> str:
    """The facts the write path refused, with the stage and reason."""
    if not dropped:
        return "<p>no fact was refused</p>"
    return table(f"{len(dropped)} refused fact(s)",
                 ("document", "extractor", "kind", "statement", "quote", "stage", "reason"),
                 [(d.document_id, d.extracted_by, d.kind, d.statement, d.quote, d.stage,
                   d.reason) for d in dropped])


class _Pre(str):
    """A cell shown preformatted (calls a reader copies)."""


def belief_diff_html(diff: Any) -> str:
    """BeliefDiff: per key what the store believed then against now."""
    if not diff.changes:
        return (f"<p>nothing changed between {escape(diff.then.isoformat(timespec='seconds'))}"
                " and now</p>")
    return table(f"what the store believed at {diff.then.isoformat(timespec='seconds')} "
                 f"against {diff.now_label}",
                 ("subject", "attribute", "then", "now", "change"),
                 [(c.subject, c.attribute, c.then or None, c.now or None, c.change)
                  for c in diff.changes])


def claims_html(claims: Sequence[Any]) -> str:
    """ClaimList: testimony, one row per claim with its status and triage."""
    rows = [(c.id, c.status, c.triage, c.statement, c.asserter, c.asserted_at, c.lineage,
             c.document_version, c.extractor, c.fact_id) for c in claims]
    caption = (f"{len(rows)} claim(s) — testimony: what sources asserted, not what is true"
               if rows else "no claim matched")
    return table(caption, ("#", "status", "triage", "statement", "asserter", "asserted",
                           "lineage", "version", "extractor", "fact"), rows)


def why_html(why: Any) -> str:
    """Why: the fact, then every claim for and against it (the evidence bridge)."""
    fact = why.fact
    head = table(f"fact #{fact.id}: {why.support_count} supporting lineage(s)"
                 + (" — support withdrawn" if why.support_withdrawn else ""),
                 ("statement", "kind", "verdict"),
                 [(fact.statement, fact.kind.value, fact.verdict.value)])
    rows = [(x.stance, "counts" if x.current else x.not_current,
             x.claim.statement if x.claim else "(observation)", x.quote, x.lineage,
             x.document_version, x.claim.asserter if x.claim else None)
            for x in why.supports + why.contradicts]
    return head + table("the bridge", ("stance", "counts?", "claim", "quote", "lineage",
                                       "version", "asserter"), rows)


def context_html(bundle: Any) -> str:
    """ContextBundle: two tables, never one — testimony, then facts."""
    testimony = bundle.claims_and_sources
    claims = table(f"claims and sources for {bundle.query!r} (grain: claim)",
                   ("source", "claim", "quote", "asserter", "lineage"),
                   [(h.source_rank, h.claim.statement, h.claim.quote, h.claim.asserter,
                     h.claim.lineage) for h in testimony.claims])
    facts = table(f"facts for {bundle.query!r} (grain: fact; valid now)",
                  ("label", "statement", "id", "support"),
                  [(i.label.code, i.fact.statement, i.fact.id, i.fact.support_count)
                   for i in bundle.facts.items if i.fact is not None])
    return claims + facts


def entities_html(entities: Sequence[Any]) -> str:
    """EntityList: the registry, one row per entity with its names and profile state."""
    rows = [(e.id, e.canonical_name, e.entity_type,
             ", ".join(a for a in e.aliases if a != e.canonical_name) or None, e.mentions,
             e.timeline_subject, e.merged_into,
             "stale" if e.profile_stale else "current") for e in entities]
    caption = f"{len(rows)} entit{'y' if len(rows) == 1 else 'ies'}" if rows \
        else "no entity matched"
    return table(caption, ("id", "name", "type", "also", "mentions", "timeline subject",
                           "merged into", "profile"), rows)


def neighbours_html(neighbours: Sequence[Any]) -> str:
    """NeighbourList: entities reached over relations, strongest first, with the path."""
    rows = [(n.entity.canonical_name, n.entity.entity_type, n.depth, round(n.weight, 3),
             " / ".join(f"{r.subject_name} {r.predicate} {r.object_name}" for r in n.path))
            for n in neighbours]
    caption = f"{len(rows)} neighbour(s), strongest first" if rows else "no neighbour"
    return table(caption, ("name", "type", "depth", "weight", "path"), rows)

