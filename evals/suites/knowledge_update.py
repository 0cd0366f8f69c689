"""Eval ``knowledge-update``: when the world changes and someone says so in plain words, does
the store notice -- and only then?

**The project set** (``evals/data/knowledge_updates.jsonl``, described in
``knowledge_updates.md``): scenarios of two to four captures remembered with their own
``said_at``, in personal, ops and org speech, plain and as natural chat. Each scenario gets a
fresh store; its captures go through ``remember`` in the order given and, in a second store,
in reverse order (the update before the original, as a backfill would bring them). Then:

- ``new_first`` (primary) -- of the update scenarios, the share where recall serves the new
  value first as current: among the current values of the timelines recall answers with,
  or, when it answers with none, in its first item served as present-tense truth;
- ``stale_served`` -- of the update scenarios, the share where an old value is still served
  as current (a timeline's current value, or any item served as present-tense truth);
- ``as_of_accuracy`` -- of every dated check, the share where ``brief(question, as_of=...)``
  reads the value of that time off the timelines;
- ``false_supersession`` -- of the non-update, many-valued and negated scenarios, the share
  where the last capture (the distractor) took a value that still holds off what is served
  as current, or made a value that never held current;
- ``held_served`` -- of the same scenarios, the share where every value that holds is served
  as current at the end (whether the store read them at all);
- ``event_at_resolved`` -- of the updates whose sentence names a relative or partial time,
  the share whose EVENT fact's ``event_at`` falls in the period that time names;
- ``order_agreement`` -- the share of scenarios whose reversed arrival gives the same
  current values and the same dated answers.

**SituatedQA** (``--dataset ../shared/datasets/situatedqa``, the temporal ``raw_data``
dev file): each question's answer timeline (every annotator's ``prev_answers``/
``prev_start`` and ``cur_answers``/``cur_start``) becomes dated format v1 facts, written in a
shuffled arrival order; the question is filed as a glossary subject named by its own words
with its wh-word as the attribute (the set has no statements to compile, so this arm
measures the timelines and the reads, not the compiler). Each ``edited_question`` ("... as
of 2019") is asked through ``brief``, and the question itself as of now: ``new_first``,
``stale_served`` and ``as_of_accuracy`` as above.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.jsonl import first_record, numbered_records
from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore.errors import InvalidInput
from factstore.kinds import Kind
from factstore.timelines.dates import parse_partial

__all__ = ["DATASET", "SPEC", "holds", "load", "run"]

NAME = "knowledge-update"
DATASET = DATA / "knowledge_updates.jsonl"
#: when the questions are asked: after every capture of the project set
ASKED_AT = datetime(2026, 12, 7, 12, tzinfo=UTC)
#: when SituatedQA's annotators observed their timelines (the set was collected in 2021)
SITUATED_OBSERVED = "2021-12-31T00:00:00Z"
CASES = ("update", "non-update", "many", "negated")
_WH = ("who", "what", "when", "where", "which", "how", "whom", "whose")


def _bad(path: Path, line: int | str, msg: str) -> InvalidInput:
    return InvalidInput(f"{NAME}: {path}:{line}: {msg}")


def _norm(text: str) -> list[str]:
    # "1,050" and "1050" are one number
    return re.sub(r"[^a-z0-9]+", " ", re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.lower())).split()


def holds(expected: str, served: str) -> bool:
    """Whether a served text carries an expected value: every word of it, in any order
    ("head of design" in "head of design"; "7" in "7", never in "17")."""
    want, have = _norm(expected), set(_norm(served))
    return bool(want) and all(w in have for w in want)


# -- loading -------------------------------------------------------------------------------

def _project(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, raw in numbered_records(path, lambda line, msg: _bad(path, line, msg)):
        if not isinstance(raw, dict) or not isinstance(raw.get("captures"), list) or \
                not isinstance(raw.get("question"), str):
            raise _bad(path, number, "each line needs 'captures' (a list) and 'question'")
        if raw.get("case") not in CASES:
            raise _bad(path, number, f"'case' must be one of {', '.join(CASES)}")
        for capture in raw["captures"]:
            if not isinstance(capture, dict) or not isinstance(capture.get("text"), str):
                raise _bad(path, number, "each capture needs a 'text'")
        rows.append({"source": "project", **raw})
    if not rows:
        raise InvalidInput(f"{NAME}: {path} has no scenarios")
    return rows


def _partial(start: Mapping[str, Any] | None) -> str | None:
    if not isinstance(start, Mapping) or not start.get("year"):
        return None
    text = f"{int(start['year']):04d}"
    if start.get("month"):
        text += f"-{int(start['month']):02d}"
        if start.get("date"):
            text += f"-{int(start['date']):02d}"
    return text


def _slug_words(question: str) -> list[str]:
    words, total = [], 0
    for word in re.findall(r"[a-z0-9]+", question.lower().replace("'s", "")):
        if total + len(word) + 1 > 120:
            break
        words.append(word)
        total += len(word) + 1
    return words


def _situated(path: Path) -> list[dict[str, Any]]:
    file = path
    if path.is_dir():
        found = sorted(path.glob("raw_data*dev*.jsonl")) or sorted(path.glob("raw_data*.jsonl"))
        if not found:
            raise InvalidInput(f"{NAME}: no SituatedQA raw_data .jsonl in {path}")
        file = found[0]
    rows, seen = [], set()
    for number, raw in numbered_records(file, lambda line, msg: _bad(file, line, msg)):
        timelines = raw.get("timelines") or []
        question = raw.get("question")
        if not timelines or not isinstance(question, str):
            continue
        words = _slug_words(question)
        if not words or words[0] not in _WH or len(words) < 2:
            continue
        subject = "glossary/" + "-".join(words[1:])
        if subject in seen:
            continue
        seen.add(subject)
        facts, starts = [], set()
        for timeline in timelines:
            for side in ("prev", "cur"):
                answers = timeline.get(f"{side}_answers") or []
                start = _partial(timeline.get(f"{side}_start"))
                if not answers or not start:
                    continue
                value = " ".join(str(answers[0]).split())[:2000]
                if value:
                    facts.append({"subject": subject, "attribute": words[0], "value": value,
                                  "valid_from": start, "observed_at": SITUATED_OBSERVED,
                                  "source": f"situatedqa:{raw.get('id')}#{side}",
                                  "cardinality": "one"})
                    starts.add(start)
        if not facts:
            continue
        current = sorted({a for t in timelines for a in (t.get("cur_answers") or [])})
        previous = sorted({a for t in timelines for a in (t.get("prev_answers") or [])}
                          - set(current))
        checks = [{"at": str(pair["date"]), "question": pair["edited_question"],
                   "value": sorted(set(pair.get("answers") or []))}
                  for pair in raw.get("context_answer_pairs") or []
                  if pair.get("edited_question") and pair.get("answers") and
                  re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", str(pair.get("date", "")))]
        rows.append({"id": f"situatedqa-{number}", "source": "situatedqa",
                     "domain": "situatedqa", "style": "dated", "case": "update" if previous
                     else "non-update", "split": "external", "facts": facts,
                     "question": question, "current": current, "stale": previous,
                     "checks": checks})
    return rows


def load(path: Path) -> list[dict[str, Any]]:
    """The project set, or a SituatedQA temporal raw_data file or its folder."""
    path = Path(path)
    if not path.exists():
        raise InvalidInput(f"{NAME}: dataset {path} does not exist")
    if path.is_dir():
        return _situated(path)
    first = first_record(path)
    if first is not None and "timelines" in first:
        return _situated(path)
    if first is not None and "captures" in first:
        return _project(path)
    raise InvalidInput(f"{NAME}: {path} is neither the project set nor SituatedQA raw_data")


# -- reading what a store serves -------------------------------------------------------------

def _value_text(fact: Any) -> str:
    return f"{fact.value} {fact.unit}" if fact.unit else str(fact.value)


def _key_answers(key: Any) -> list[str]:
    """What a timeline key answers: its current values, or, for a key read because the
    question named its value and asks who holds it, its subject ('project/project-fjord'
    answers "Which projects does Ugo lead?")."""
    if getattr(key, "holder", False):
        return [key.subject.split("/", 1)[-1].replace("-", " ")]
    return [_value_text(f) for f in key.current]


def served_current(result: Any) -> tuple[list[str], list[str]]:
    """(the current values of the timelines recall answers with, the statements of the
    items it serves as present-tense truth), in the order served."""
    values = [v for key in result.answers for v in _key_answers(key)]
    truths = [item.fact.statement for item in result.items
              if item.fact is not None and item.label.present_tense]
    return values, truths


def _as_of_values(brief: Any) -> list[str]:
    return [v for key in brief.keys for v in _key_answers(key)]


def _wanted(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


# -- the project set -----------------------------------------------------------------------

def _event_ok(result: Any, expected: str) -> bool:
    period = parse_partial(expected)
    return any(o.fact.kind is Kind.EVENT and o.fact.event_at is not None
               and period.start <= o.fact.event_at < period.end for o in result.outcomes)


def _play(store: Any, captures: Sequence[Mapping[str, Any]], item: Mapping[str, Any]
          ) -> dict[str, Any]:
    results = {}
    before: list[str] | None = None
    for position, (index, capture) in enumerate(captures):
        if position == len(captures) - 1 and item["case"] != "update":
            # what was served as current before the last capture: a non-update must leave
            # it current (the false supersession the eval counts is this, not a miss)
            before = served_current(store.recall(item["question"], now=ASKED_AT))[0]
        results[index] = store.remember(capture["text"], said_at=capture["said_at"],
                                        source_ref=f"{item['id']}#c{index}")
    recall = store.recall(item["question"], now=ASKED_AT)
    values, truths = served_current(recall)
    dated = []
    for check in item.get("as_of") or []:
        brief = store.brief(item["question"], as_of=check["at"])
        dated.append(_as_of_values(brief))
    return {"results": results, "values": values, "truths": truths, "dated": dated,
            "lines": list(recall.timelines), "before": before}


def _judge(item: Mapping[str, Any], played: Mapping[str, Any]) -> dict[str, Any]:
    values, truths = played["values"], played["truths"]
    current = _wanted(item.get("current") or [])
    first = values if values else truths[:1]
    row: dict[str, Any] = {}
    if item["case"] == "update":
        row["new_first"] = bool(current) and all(any(holds(c, v) for v in first)
                                                 for c in current)
        row["stale_served"] = any(holds(s, v) for s in _wanted(item.get("stale") or [])
                                  for v in values + truths)
    else:
        # what still holds is served (coverage: the store read it at all) ...
        row["held_served"] = all(any(holds(c, v) for v in values + truths) for c in current)
        # ... and the last capture took nothing current away, and made nothing current
        # that never held (a false supersession)
        lost = [v for v in played["before"] or []
                if any(holds(c, v) for c in current) and v not in values]
        invented = any(holds(n, v) for n in _wanted(item.get("not_current") or [])
                       for v in values)
        row["false_supersession"] = bool(lost) or invented
    checks = item.get("as_of") or []
    row["as_of"] = [all(any(holds(w, v) for v in got) for w in _wanted(check["value"]))
                    for check, got in zip(checks, played["dated"], strict=True)]
    return row


def _run_project(ctx: EvalContext, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        given = list(enumerate(item["captures"]))
        runs = {}
        for order, captures in (("given", given), ("reversed", given[::-1])):
            store = ctx.open_store()
            runs[order] = _play(store, captures, item)
            store.close()
        judged = _judge(item, runs["given"])
        reversed_judged = _judge(item, runs["reversed"])
        event = item.get("event_time")
        row = {"id": item["id"], "source": "project", "domain": item.get("domain"),
               "style": item.get("style"), "case": item["case"],
               "split": item.get("split", "dev"), "question": item["question"],
               "current": item.get("current"), "stale": item.get("stale"),
               "served_values": runs["given"]["values"], "lines": runs["given"]["lines"],
               "served_truths": runs["given"]["truths"][:3], **judged,
               "order_agrees": (sorted(runs["given"]["values"]) ==
                                sorted(runs["reversed"]["values"]) and
                                judged["as_of"] == reversed_judged["as_of"])}
        if event and item["case"] == "update":
            last = max(index for index, _ in given)
            row["event_at_ok"] = _event_ok(runs["given"]["results"][last], event["at"])
        out.append(row)
    return out


# -- SituatedQA ----------------------------------------------------------------------------

def _run_situated(ctx: EvalContext, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    store = ctx.open_store()
    out = []
    for item in items:
        facts = list(item["facts"])
        random.Random(item["id"]).shuffle(facts)
        for start in range(0, len(facts), 50):
            store.write_facts({"format": 1, "facts": facts[start:start + 50]},
                              now=ASKED_AT)
        now_brief = store.brief(item["question"])
        values = _as_of_values(now_brief)
        current = item["current"]
        row: dict[str, Any] = {"id": item["id"], "source": "situatedqa", "domain": "situatedqa",
                               "style": "dated", "case": item["case"], "split": "external",
                               "question": item["question"], "current": current,
                               "stale": item["stale"], "served_values": values}
        if item["case"] == "update":
            row["new_first"] = any(holds(c, v) for c in current for v in values)
            row["stale_served"] = any(holds(s, v) and not any(holds(c, v) for c in current)
                                      for s in item["stale"] for v in values)
        else:
            row["false_supersession"] = not any(holds(c, v) for c in current for v in values)
        row["as_of"] = []
        for check in item["checks"]:
            got = _as_of_values(store.brief(check["question"]))
            row["as_of"].append(any(holds(w, v) for w in check["value"] for v in got))
        out.append(row)
    return out


# -- metrics -------------------------------------------------------------------------------

def _share(rows: Iterable[Mapping[str, Any]], field: str) -> float | None:
    values = [bool(r[field]) for r in rows if field in r]
    return sum(values) / len(values) if values else None


def _as_of_share(rows: Iterable[Mapping[str, Any]]) -> float | None:
    checks = [c for r in rows for c in r.get("as_of", [])]
    return sum(checks) / len(checks) if checks else None


def _metrics(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    found = {"new_first": _share(rows, "new_first"),
             "stale_served": _share(rows, "stale_served"),
             "as_of_accuracy": _as_of_share(rows),
             "false_supersession": _share(rows, "false_supersession"),
             "held_served": _share(rows, "held_served"),
             "event_at_resolved": _share(rows, "event_at_ok"),
             "order_agreement": _share(rows, "order_agrees")}
    return {k: round(v, 4) for k, v in found.items() if v is not None}


def run(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Play every scenario (see the module docstring) and judge what the store serves."""
    project = [i for i in items if i.get("source") == "project"]
    situated = [i for i in items if i.get("source") == "situatedqa"]
    rows = _run_project(ctx, project) + _run_situated(ctx, situated)
    by: dict[str, dict[str, Any]] = defaultdict(dict)
    for field in ("split", "domain", "style", "case"):
        groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for row in rows:
            groups[str(row.get(field))].append(row)
        by[field] = {name: _metrics(group) | {"scenarios": len(group)}
                     for name, group in sorted(groups.items())}
    wrong = [{k: r.get(k) for k in ("id", "case", "question", "current", "stale",
                                     "served_values", "lines", "served_truths")}
             for r in rows if r.get("new_first") is False or r.get("stale_served") is True
             or r.get("false_supersession") is True or r.get("held_served") is False
             or False in r.get("as_of", [])]
    notes = {"scenarios": len(rows), "by": dict(by), "wrong_count": len(wrong),
             "wrong": wrong[:60], "asked_at": ASKED_AT.isoformat()}
    return EvalOutcome(items=[json.loads(json.dumps(r, default=str)) for r in rows],
                       metrics=_metrics(rows), notes=notes)


SPEC = register(EvalSpec(
    name=NAME,
    description="Plain-language updates noticed (new value served first, stale values gone, "
                "as-of reads right) and non-updates left alone, on the project set or "
                "SituatedQA's answer timelines",
    metrics=(
        Metric("new_first", "higher", 0.01),
        Metric("stale_served", "lower", 0.01),
        Metric("as_of_accuracy", "higher", 0.01),
        Metric("false_supersession", "lower", 0.01),
        Metric("held_served", "higher", 0.01),
        Metric("event_at_resolved", "higher", 0.01),
        Metric("order_agreement", "higher", 0.01),
    ),
    default_dataset=DATASET,
    load=load,
    run=run,
))
