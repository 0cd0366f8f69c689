"""Eval ``time-questions``: is a question asked as of the time it names, and only then?

Each question is read by :func:`factstore.timelines.question_time.read_question_time`
against its row's ``now`` and compared with its gold partial date (null: the question names
no time and is read as of now). Metrics:

- ``right_instant_share`` -- of the questions that name a time, the share read as of exactly
  the gold partial date (target >= 0.95; the primary metric);
- ``invented_share`` -- of the questions that name no time, the share given one anyway
  (target 0);
- ``missed_share`` -- of the questions that name a time, the share read as naming none.

**Datasets.** The default is the project set ``evals/data/time_questions.jsonl`` (written by
``evals/data/make_time_questions.py``). Real phrasing comes from two external sets, read by
path (``--dataset``):

- SituatedQA (the temporal ``qa_data`` JSON Lines, a file or its folder: the dev file is
  read): each ``edited_question`` ("... as of 2015", "... as of March 01, 2015") with its
  ``date`` as gold, and each original ``question`` that carries no digit and no month name
  and no relative time word ("last year", "this season", "ago") as a no-time question (an
  original that mentions a year is left out: whether it names the time asked about is a
  judgement the set does not make);
- TimeQA (``human_annotated_train.json``, the part here): questions of the form "... from A
  to B ..." with A as gold (the documented reading of a range) and "... in A ..." with A as
  gold, A a year or a month with its year, skipping a date that describes something
  ("founded in 1991", "built between 1772 and 1774"); other forms are left out.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.jsonl import first_record, numbered_records
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.errors import InvalidInput
from factstore.timelines.question_time import MONTHS, read_question_time

__all__ = ["DATASET", "SPEC", "load", "run"]

NAME = "time-questions"
DATASET = DATA / "time_questions.jsonl"
#: the 'now' external questions are read against (their dates are all in the past)
EXTERNAL_NOW = "2026-12-01T12:00:00Z"

_MONTH_WORD = re.compile(r"\b(?:" + "|".join(MONTHS) + r")\b", re.IGNORECASE)
#: Words that name a time relative to the asking, so a question using one names a time.
_RELATIVE_WORD = re.compile(r"\b(?:(?:last|this|next|past|previous)\s+(?:year|month|week|"
                            r"season|decade|century)|yesterday|today|tomorrow|tonight|ago)\b",
                            re.IGNORECASE)
#: "founded in 1991": a date that describes something, not the time asked about.
_DESCRIBED_BEFORE = re.compile(r"\b(?:born|died|founded|established|built|created|released|"
                               r"launched|formed|opened|chartered|incorporated)\s+$",
                               re.IGNORECASE)
_SITUATED_DATE = re.compile(r"(?P<month>[A-Z][a-z]+) (?P<day>\d{2}), (?P<year>\d{4})")
_TIMEQA_DATE = r"(?:(?P<m{n}>[A-Z][a-z]{{2,8}})\.? )?(?P<y{n}>\d{{4}})"
_TIMEQA_RANGE = re.compile(r"\b(?i:from) " + _TIMEQA_DATE.format(n=1) + r" to "
                           + _TIMEQA_DATE.format(n=2) + r"\b")
_TIMEQA_IN = re.compile(r"\b(?i:in) " + _TIMEQA_DATE.format(n=1) + r"\b")


def _bad(path: Path, line: int | str, msg: str) -> InvalidInput:
    return InvalidInput(f"{NAME}: {path}:{line}: {msg}")


def _project(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, raw in numbered_records(path, lambda line, msg: _bad(path, line, msg)):
        if not isinstance(raw, dict) or not isinstance(raw.get("question"), str):
            raise _bad(path, number, "each line must be an object with a 'question' string")
        gold = raw.get("gold")
        if gold is not None and not isinstance(gold, str):
            raise _bad(path, number, "'gold' must be a partial date string or null")
        rows.append({"id": str(raw.get("id", number)), "question": raw["question"],
                     "gold": gold, "rule": raw.get("rule"),
                     "now": raw.get("now") or EXTERNAL_NOW,
                     "source": raw.get("source", "project")})
    if not rows:
        raise InvalidInput(f"{NAME}: {path} has no questions")
    return rows


def _month(name: str | None) -> int | None:
    return MONTHS.get(name.lower()) if name else None


def _situated_gold(date: str) -> str | None:
    if re.fullmatch(r"\d{4}", date):
        return date
    match = _SITUATED_DATE.fullmatch(date)
    if match and _month(match["month"]):
        return f"{match['year']}-{_month(match['month']):02d}-{match['day']}"
    return None


def _situated(path: Path) -> list[dict[str, Any]]:
    file = path
    if path.is_dir():
        candidates = sorted(path.glob("qa_data*dev*.jsonl")) or sorted(path.glob("*.jsonl"))
        if not candidates:
            raise InvalidInput(f"{NAME}: no SituatedQA .jsonl file in {path}")
        file = candidates[0]
    rows, originals = [], {}
    for number, raw in numbered_records(file, lambda line, msg: _bad(file, line, msg)):
        gold = _situated_gold(str(raw.get("date", "")))
        if raw.get("edited_question") and gold:
            rows.append({"id": f"situatedqa-{number}", "question": raw["edited_question"],
                         "gold": gold, "rule": "explicit", "now": EXTERNAL_NOW,
                         "source": "situatedqa"})
        original = raw.get("question")
        if isinstance(original, str) and not re.search(r"\d", original) \
                and not _MONTH_WORD.search(original) and not _RELATIVE_WORD.search(original):
            originals.setdefault(original, number)
    rows += [{"id": f"situatedqa-q{n}", "question": q, "gold": None, "rule": None,
              "now": EXTERNAL_NOW, "source": "situatedqa"} for q, n in originals.items()]
    return rows


def _timeqa_date(match: re.Match[str], n: int) -> str | None:
    month = match[f"m{n}"]
    if month is None:
        return match[f"y{n}"]
    number = _month(month)
    return f"{match[f'y{n}']}-{number:02d}" if number else None


def _timeqa(path: Path) -> list[dict[str, Any]]:
    try:
        documents = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"{NAME}: cannot read TimeQA file {path}: {exc}") from None
    rows = []
    for document in documents:
        for index, entry in enumerate(document.get("questions", [])):
            question = entry[0] if isinstance(entry, list) and entry else None
            if not isinstance(question, str):
                continue
            ranged = next((m for m in _TIMEQA_RANGE.finditer(question)
                           if not _DESCRIBED_BEFORE.search(question[:m.start()])), None)
            single = None if ranged else next(
                (m for m in _TIMEQA_IN.finditer(question)
                 if not _DESCRIBED_BEFORE.search(question[:m.start()])), None)
            gold = _timeqa_date(ranged, 1) if ranged else (
                _timeqa_date(single, 1) if single else None)
            if gold is None:
                continue
            rows.append({"id": f"timeqa-{document.get('index', '')}-{index}",
                         "question": question, "gold": gold,
                         "rule": "range" if ranged else "named", "now": EXTERNAL_NOW,
                         "source": "timeqa"})
    return rows


def load(path: Path) -> list[dict[str, Any]]:
    """The project set, a SituatedQA temporal qa_data file or folder, or TimeQA's JSON."""
    path = Path(path)
    if not path.exists():
        raise InvalidInput(f"{NAME}: dataset {path} does not exist")
    if path.is_dir():
        if list(path.glob("human_annotated*.json")):
            return _timeqa(sorted(path.glob("human_annotated*.json"))[0])
        return _situated(path)
    if path.suffix == ".json":
        return _timeqa(path)
    first = first_record(path)
    if first is not None and "edited_question" in first:
        return _situated(path)
    if first is not None and "question" in first:
        return _project(path)
    raise InvalidInput(f"{NAME}: {path} is neither the project set, SituatedQA nor TimeQA")


def _now(text: str) -> datetime:
    instant = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return instant if instant.tzinfo else instant.replace(tzinfo=UTC)


def _share(rows: list[dict[str, Any]], test: Any) -> float | None:
    return sum(1 for r in rows if test(r)) / len(rows) if rows else None


def run(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Read every question and compare its instant with the gold one."""
    results = []
    for item in items:
        found = read_question_time(item["question"], _now(item["now"]))
        results.append({**item, "read": found.as_of if found else None,
                        "read_rule": found.rule if found else None,
                        "phrase": found.phrase if found else None})
    timed = [r for r in results if r["gold"] is not None]
    untimed = [r for r in results if r["gold"] is None]
    metrics = {
        "right_instant_share": _share(timed, lambda r: r["read"] == r["gold"]),
        "invented_share": _share(untimed, lambda r: r["read"] is not None),
        "missed_share": _share(timed, lambda r: r["read"] is None),
    }
    by_rule: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in timed:
        by_rule[row["rule"] or "?"].append(row)
    wrong = [{k: r[k] for k in ("id", "question", "gold", "read", "phrase")}
             for r in results if r["read"] != r["gold"]]
    notes = {
        "questions": len(results), "naming_a_time": len(timed), "naming_none": len(untimed),
        "sources": sorted({r["source"] for r in results}),
        "right_by_rule": {rule: round(_share(rows, lambda r: r["read"] == r["gold"]) or 0, 4)
                          for rule, rows in sorted(by_rule.items())},
        "wrong": wrong[:40], "wrong_count": len(wrong),
    }
    return EvalOutcome(items=results, metrics=metrics, notes=notes)


SPEC = register(EvalSpec(
    name=NAME,
    description="Questions read as of the time they name: right instants, and none invented "
                "where no time is named",
    metrics=(
        Metric("right_instant_share", "higher", 0.01),
        Metric("invented_share", "lower"),
        Metric("missed_share", "lower", 0.01),
    ),
    default_dataset=DATASET,
    load=load,
    run=run,
))
