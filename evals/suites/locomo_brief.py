"""Eval ``locomo-brief``: does a store of chats brief an agent? LoCoMo's questions through
``Store.brief``, per category.

Each conversation is remembered turn by turn into a store of its own (``remember_many``:
each turn a chat line, ``said_at`` its session's date), so the compiler and the write path
run as they do for a user. Every question with an answer (categories 1-4; 5 is adversarial
and has none) is asked through ``brief``, which carries the timelines the question is about
and what recall serves beside them, each line labelled (an EVENT with the date it
happened, read from "yesterday" or "last week" against the session's date).

Metrics, over the questions:

- ``answer_in_brief`` (primary) -- the share whose gold answer the brief's text carries:
  every content word of the answer, or, for a date, the date itself (written as the brief
  writes it, ``2023-05-07``, or as the answer does);
- ``temporal_in_brief`` -- the same over category 2 (temporal) alone;
- ``brief_empty`` -- the share of briefs with no line at all;
- ``answer_in_brief_cat<N>`` -- per category (1 multi-hop, 2 temporal, 3 open-domain,
  4 single-hop).

The default dataset is the project's tiny LoCoMo-format fixture; the figures come from the
real conversations: ``--dataset ../shared/datasets/locomo``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from evals.suites.locomo import load_conversations
from evals.suites.locomo_retrieval import turn_captures
from factstore.timelines.question_time import MONTHS

__all__ = ["DATASET", "SPEC", "answer_in", "run"]

NAME = "locomo-brief"
DATASET = DATA / "locomo.json"
BATCH = 64
_STOP = frozenset(("the", "a", "an", "of", "to", "in", "on", "at", "and", "or", "for", "with",
                   "is", "was", "her", "his", "their", "she", "he", "they", "it", "that",
                   "this", "by", "from", "as", "be", "about"))
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})\s+(" + "|".join(MONTHS) + r")\.?,?\s+(\d{4})\b",
                             re.I)
_MONTH_DAY_YEAR = re.compile(r"\b(" + "|".join(MONTHS) + r")\.?\s+(\d{1,2}),?\s+(\d{4})\b",
                             re.I)
_MONTH_YEAR = re.compile(r"\b(" + "|".join(MONTHS) + r")\.?,?\s+(\d{4})\b", re.I)
_YEAR = re.compile(r"\b(19|20)\d{2}\b")


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP]


def gold_dates(answer: str) -> list[str]:
    """The partial dates an answer names ('7 May 2023' -> 2023-05-07)."""
    found = []
    for day, month, year in _DAY_MONTH_YEAR.findall(answer):
        found.append(f"{year}-{MONTHS[month.lower()]:02d}-{int(day):02d}")
    for month, day, year in _MONTH_DAY_YEAR.findall(answer):
        found.append(f"{year}-{MONTHS[month.lower()]:02d}-{int(day):02d}")
    if not found:
        for month, year in _MONTH_YEAR.findall(answer):
            found.append(f"{year}-{MONTHS[month.lower()]:02d}")
    if not found:
        found += [m.group(0) for m in _YEAR.finditer(answer)]
    return found


def answer_in(answer: str, brief: str) -> bool:
    """Whether the brief carries the answer: its date (as the brief writes dates, or as the
    answer does), else every content word of it."""
    dates = gold_dates(answer)
    if dates:
        return any(d in brief for d in dates) or answer.lower() in brief.lower()
    want = _words(answer)
    have = set(_words(brief))
    return bool(want) and all(w in have for w in want)


def run(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Remember each conversation turn by turn, then brief every answerable question."""
    rows = []
    for conversation in items:
        store = ctx.open_store()
        store.remember_many(turn_captures(conversation), batch_size=BATCH)
        for qa in conversation.get("qa", []):
            if qa.get("answer") is None or qa.get("category") == 5:
                continue
            brief = store.brief(qa["question"])
            text = brief.text
            rows.append({"conversation": conversation["sample_id"],
                         "category": qa["category"], "question": qa["question"],
                         "answer": str(qa["answer"]), "found": answer_in(str(qa["answer"]), text),
                         "empty": not (brief.lines or brief.recalled),
                         "timeline_lines": len(brief.lines),
                         "recalled_lines": len(brief.recalled),
                         "brief": text[-1500:]})
        store.close()
    metrics = _metrics(rows)
    by_conversation: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_conversation[row["conversation"]].append(row)
    notes = {"questions": len(rows),
             "by_conversation": {k: _metrics(v) for k, v in sorted(by_conversation.items())},
             "missed_temporal": [{k: r[k] for k in ("question", "answer", "brief")}
                                 for r in rows if r["category"] == 2 and not r["found"]][:20],
             "asked_at": datetime.now().isoformat(timespec="seconds")}
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


def _share(rows: list[Mapping[str, Any]], field: str) -> float | None:
    return round(sum(bool(r[field]) for r in rows) / len(rows), 4) if rows else None


def _metrics(rows: list[Mapping[str, Any]]) -> dict[str, float]:
    out = {"answer_in_brief": _share(rows, "found"),
           "temporal_in_brief": _share([r for r in rows if r["category"] == 2], "found"),
           "brief_empty": _share(rows, "empty")}
    for category in (1, 2, 3, 4):
        out[f"answer_in_brief_cat{category}"] = _share(
            [r for r in rows if r["category"] == category], "found")
    return {k: v for k, v in out.items() if v is not None}


def load(path: Path) -> list[dict[str, Any]]:
    """LoCoMo conversations (a file or its folder)."""
    return load_conversations(Path(path))


SPEC = register(EvalSpec(
    name=NAME,
    description="LoCoMo questions through brief: is the answer in what the store briefs, per "
                "category (temporal through events dated from relative times)",
    metrics=(
        Metric("answer_in_brief", "higher", 0.01),
        Metric("temporal_in_brief", "higher", 0.01),
        Metric("brief_empty", "lower", 0.01),
        Metric("answer_in_brief_cat1", "higher", 0.02),
        Metric("answer_in_brief_cat2", "higher", 0.02),
        Metric("answer_in_brief_cat3", "higher", 0.02),
        Metric("answer_in_brief_cat4", "higher", 0.02),
    ),
    default_dataset=DATASET,
    load=load,
    run=run,
))
