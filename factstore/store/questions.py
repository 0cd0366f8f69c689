"""The open-questions queue's SQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from factstore.errors import InvalidInput, QuestionNotFound
from factstore.questions import check_level, check_status, recommend
from factstore.results import OpenQuestion, QuestionEvidence, QuestionQueue


def list_questions(cur: Any, status: str | None = None) -> QuestionQueue:
    if status is not None:
        check_status(status)
    cur.execute("SELECT * FROM open_questions WHERE %(s)s::text IS NULL OR status = %(s)s "
                "ORDER BY id", {"s": status})
    rows = cur.fetchall()
    cur.execute("SELECT * FROM open_question_evidence WHERE question_id = ANY(%s) ORDER BY id",
                ([r["id"] for r in rows],))
    evidence: dict[int, list[QuestionEvidence]] = {}
    for e in cur.fetchall():
        evidence.setdefault(e["question_id"], []).append(
            QuestionEvidence(e["note"], e["recorded_at"], e["recorded_by"]))
    return QuestionQueue(OpenQuestion(r["id"], r["title"], r["body"], r["risk"], r["cost"], r["status"],
                         recommend(r["risk"], r["cost"]), tuple(evidence.get(r["id"], ())),
                         r["created_at"], r["updated_at"]) for r in rows)


def get(cur: Any, question_id: int) -> OpenQuestion:
    found = [q for q in list_questions(cur) if q.id == question_id]
    if not found:
        raise QuestionNotFound(f"no open-questions entry #{question_id}; list them with "
                               "open_questions()")
    return found[0]


def update(cur: Any, question_id: int, *, status: str | None, risk: str | None,
           cost: str | None, note: str | None, recorded_by: str | None,
           at: datetime) -> OpenQuestion:
    """Change status/risk/cost and/or append evidence. Evidence is never rewritten."""
    if status is None and risk is None and cost is None and note is None:
        raise InvalidInput("nothing to update: pass status, risk, cost or a note")
    if status is not None:
        check_status(status)
    if risk is not None:
        check_level("risk", risk)
    if cost is not None:
        check_level("cost", cost)
    if note is not None and (not isinstance(note, str) or not note.strip()):
        raise InvalidInput("a note must be non-empty text")
    cur.execute("SELECT id FROM open_questions WHERE id = %s FOR UPDATE", (question_id,))
    if cur.fetchone() is None:
        raise QuestionNotFound(f"no open-questions entry #{question_id}; list them with "
                               "open_questions()")
    cur.execute("UPDATE open_questions SET status = COALESCE(%s, status), risk = COALESCE(%s, "
                "risk), cost = COALESCE(%s, cost), updated_at = %s WHERE id = %s",
                (status, risk, cost, at, question_id))
    if note is not None:
        cur.execute("INSERT INTO open_question_evidence (question_id, note, recorded_by, "
                    "recorded_at) VALUES (%s, %s, %s, %s)",
                    (question_id, note.strip(), recorded_by, at))
    return get(cur, question_id)


def add(cur: Any, title: str, body: str, risk: str, cost: str, at: datetime) -> OpenQuestion:
    """File a new gap; its status starts as what the discipline recommends, made explicit."""
    for name, value in (("title", title), ("body", body)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidInput(f"an open question needs a non-empty {name}")
    rec = recommend(check_level("risk", risk), check_level("cost", cost))
    status = {"park": "parked", "blocker": "blocker", "resolve": "open"}[rec]
    cur.execute("INSERT INTO open_questions (id, title, body, risk, cost, status, created_at, "
                "updated_at) VALUES ((SELECT COALESCE(max(id), 0) + 1 FROM open_questions), "
                "%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (title.strip(), body.strip(), risk, cost, status, at, at))
    return get(cur, cur.fetchone()["id"])
