"""Eval ``entity-resolution``: do the names facts mention resolve to the right entities?

The entity layer resolves every name a fact mentions to a registry entity at write time
(tiers T0-T4, :mod:`factstore.entities.resolution`). This eval measures that resolution, not
name detection, on two kinds of dataset:

**Gold mentions** (the default, ``evals/data/entity_mentions.jsonl``; see its ``.md``):
each row is a name as written in a short document and its gold referent. A small extractor
(:class:`GoldMentions`) emits, for each distinct ``text`` of a document, one fact whose quote
is that text and whose ``mentions`` are exactly its gold ``(mention, type)`` pairs, its
subject the gold mention the text opens with (so the entity's profile gets that fact, as it
would from a real extractor's subject). Each document is remembered once, in file order,
with ``source_ref`` its lineage. By default the entity profiles are rebuilt after each
document (``Store.refresh_profiles``), as a background refresh would keep them, so T3 and
the resolver's context ranking have something to read; ``FACTSTORE_EVAL_ENTITY_PROFILES=off``
measures the store with no profile refresh at all. Every mention's entity is then read
back through ``Store.entities`` and ``Store.mentions`` (which follow merge redirects to the
survivor) and matched to its gold row by (document, name as written). A document that
writes one name twice resolves it once (the write path resolves each distinct name once per
capture); the dataset only repeats a name within a document for one referent.

**LoCoMo** (``--dataset ../shared/datasets/locomo``, or any LoCoMo-format file): every
session of every conversation is remembered as its own chat capture (``Speaker: text``
lines, lineage ``<sample>:session_<n>``, in order) with the extractor under test, which
adds each turn's speaker as a Person mention. Gold for speakers: one speaker name within
one conversation is one person across its sessions; the same name in two conversations is
two people. Named people in the turns (Person entities mentioned other than as speaker)
have no gold: a **silver** figure counts the same normalised name within one conversation
as one referent. ``FACTSTORE_EVAL_LOCOMO_SESSIONS=N`` keeps the first N sessions of each
conversation (the full set takes minutes).

Metrics (the same names on both; on LoCoMo they are over speaker mentions):

- ``pairwise_precision`` (primary, higher): of the mention pairs resolved to one entity, the
  share that are one referent. Primary rather than ``false_merge_rate`` because its
  denominator is the merges the resolver made, so one wrong merge costs the same whatever
  the size of the set; the false-merge rate divides by every different-referent pair, which
  grows with the square of the set and dilutes a bad merge towards zero.
- ``false_merge_rate`` (lower; target <= 0.01): different-referent pairs resolved to one
  entity / all different-referent pairs.
- ``pairwise_recall``, ``pairwise_f1`` (higher); ``split_rate`` (lower): one-referent pairs
  resolved apart / all one-referent pairs (1 - recall).
- ``bcubed_precision``, ``bcubed_recall`` (higher), per mention, averaged.

The notes give per-``case`` figures: ``accuracy``, the share of a case's mentions resolved to
the entity that holds most of their gold referent's mentions; ``clean``, the share resolved
to an entity holding no other referent (a merge of two referents can leave both majorities
on the merged entity, which accuracy alone would count right); and the false-merge pairs
involving the case. They also count tiers, entities made and pending merge proposals, and
on LoCoMo give each conversation's speakers' entity counts (and the other conversations
whose mentions, speaker or named, reached those entities) and the silver figures. Items:
one row per mention with its gold, predicted entity, tier and the resolver's reason from
the mention's audit.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.registry import DATA, EvalContext, EvalOutcome, EvalSpec, Metric, register
from evals.suites.locomo import load_conversations
from factstore.entities.names import normalise
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext

__all__ = ["DATASET", "SPEC", "GoldMentions", "documents", "load_entity_set", "pair_scores",
           "run_entity_resolution"]

NAME = "entity-resolution"
DATASET = DATA / "entity_mentions.jsonl"
ROW_KEYS = ("id", "doc", "lineage", "text", "mention", "type", "entity", "case")
#: 'each' (default): rebuild entity profiles after every document; 'off': never
PROFILES_ENV = "FACTSTORE_EVAL_ENTITY_PROFILES"
#: keep only the first N sessions of each LoCoMo conversation
SESSIONS_ENV = "FACTSTORE_EVAL_LOCOMO_SESSIONS"
#: a lineage's prefix -> the store's source type (chat-like sources are utterances)
SOURCE_TYPES = {"chat": "utterance", "sms": "utterance", "email": "capture",
                "note": "capture", "calendar": "capture", "file": "file"}
#: the statement kind the gold facts are written as: STATE never absorbs a neighbour
#: (outcome absorption folds EVENTs), so every text keeps its own fact and mentions
GOLD_KIND = "STATE"
LIMIT = 100_000


# --------------------------------------------------------------------------- loading


def load_entity_set(path: Path) -> list[dict[str, Any]]:
    """The gold mention rows of a ``.jsonl`` file, or LoCoMo conversations (a ``.json`` file
    or a folder) as :func:`evals.suites.locomo.load_conversations` gives them."""
    if path.suffix == ".jsonl":
        return _load_mentions(path)
    return load_conversations(path)


def _load_mentions(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    lineages: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or any(not isinstance(row.get(k), str) or not row[k]
                                            for k in ROW_KEYS if k != "type"):
            raise InvalidInput(f"{path}:{number}: expected an object with non-empty string "
                               f"fields {', '.join(ROW_KEYS)}")
        if row["id"] in seen:
            raise InvalidInput(f"{path}:{number}: id {row['id']!r} repeats")
        if row["mention"] not in row["text"]:
            raise InvalidInput(f"{path}:{number}: mention {row['mention']!r} is not written in "
                               "its text")
        if lineages.setdefault(row["doc"], row["lineage"]) != row["lineage"]:
            raise InvalidInput(f"{path}:{number}: document {row['doc']} has two lineages")
        seen.add(row["id"])
        rows.append({k: row.get(k) for k in ROW_KEYS})
    if not rows:
        raise InvalidInput(f"{path}: no mention rows")
    return rows


# --------------------------------------------------------------------------- gold extractor


def documents(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One capture per document, in file order: its distinct texts as lines, its lineage,
    and per text the gold (mention, type) pairs and the subject (the mention it opens with)."""
    docs: dict[str, dict[str, Any]] = {}
    for row in rows:
        doc = docs.setdefault(row["doc"], {"doc": row["doc"], "lineage": row["lineage"],
                                           "texts": {}})
        pairs = doc["texts"].setdefault(row["text"], [])
        if (row["mention"], row["type"]) not in pairs:
            pairs.append((row["mention"], row["type"]))
    out = []
    for doc in docs.values():
        prefix, _, _ = doc["lineage"].partition(":")
        facts = [(text, tuple(pairs), next((m for m, _ in pairs if text.startswith(m)), None))
                 for text, pairs in doc["texts"].items()]
        out.append({"doc": doc["doc"], "lineage": doc["lineage"],
                    "source_type": SOURCE_TYPES.get(prefix, "capture"),
                    "text": "\n".join(t for t, _, _ in facts), "facts": facts})
    return out


class GoldMentions:
    """An extractor that knows each document's gold mentions: one fact per text, quoting
    it whole, mentioning exactly its gold names (detection is not under test here)."""

    name = "gold-mentions/v1"

    def __init__(self, docs: Iterable[Mapping[str, Any]]) -> None:
        self._facts = {d["text"]: d["facts"] for d in docs}

    def extract(self, text: str, context: ExtractionContext) -> list[ExtractedFact]:
        return [ExtractedFact(statement=quote, kind=GOLD_KIND, quote=quote, subject=subject,
                              mentions=pairs)
                for quote, pairs, subject in self._facts.get(text, ())]


# --------------------------------------------------------------------------- scoring


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def pair_scores(gold: Sequence[Hashable], predicted: Sequence[Hashable]) -> dict[str, float | None]:
    """Pairwise and B-cubed figures of a predicted clustering against gold, both given as
    one cluster label per mention (counted from the contingency table, not pair by pair)."""
    if len(gold) != len(predicted):
        raise InvalidInput("pair_scores: gold and predicted differ in length")
    cells = Counter(zip(gold, predicted, strict=True))
    gold_sizes, pred_sizes = Counter(gold), Counter(predicted)
    together = sum(_pairs(n) for n in cells.values())
    same = sum(_pairs(n) for n in gold_sizes.values())
    merged = sum(_pairs(n) for n in pred_sizes.values())
    different = _pairs(len(gold)) - same
    precision = together / merged if merged else None
    recall = together / same if same else None
    f1 = (2 * precision * recall / (precision + recall)
          if precision is not None and recall is not None and precision + recall else None)
    n = len(gold)
    return {
        "pairwise_precision": precision,
        "false_merge_rate": (merged - together) / different if different else None,
        "pairwise_recall": recall,
        "pairwise_f1": f1 if f1 is not None else (0.0 if precision == 0 or recall == 0
                                                    else None),
        "split_rate": (same - together) / same if same else None,
        "bcubed_precision": (sum(c * c / pred_sizes[p] for (_, p), c in cells.items()) / n
                             if n else None),
        "bcubed_recall": (sum(c * c / gold_sizes[g] for (g, _), c in cells.items()) / n
                          if n else None),
        "false_merge_pairs": merged - together,
        "split_pairs": same - together,
    }


def majority(gold: Sequence[Hashable], predicted: Sequence[Hashable]) -> dict[Hashable, Hashable]:
    """Each gold cluster's majority predicted entity (a tie goes to the one seen first)."""
    counts: dict[Hashable, Counter] = defaultdict(Counter)
    for g, p in zip(gold, predicted, strict=True):
        counts[g][p] += 1
    return {g: c.most_common(1)[0][0] for g, c in counts.items()}


def _false_merges(rows: Sequence[Mapping[str, Any]]) -> list[tuple[Mapping, Mapping]]:
    """Every pair of rows resolved to one entity whose gold referents differ."""
    by_entity: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_entity[row["predicted"]].append(row)
    out = []
    for group in by_entity.values():
        for i, a in enumerate(group):
            out.extend((a, b) for b in group[i + 1:] if a["gold"] != b["gold"])
    return out


def _read_mentions(store: Any) -> tuple[dict[tuple[int, str], dict[str, Any]], dict[str, Any]]:
    """Every mention record, keyed by (document id, name as written), with the surviving
    entity it resolved to (the entity whose ``mentions`` listed it); and the entities."""
    found: dict[tuple[int, str], dict[str, Any]] = {}
    entities = {e.id: e for e in store.entities(limit=LIMIT)}
    for entity in entities.values():
        for m in store.mentions(entity.id, limit=LIMIT):
            # oldest record first (mentions are listed newest first); one per key is enough,
            # since one capture resolves a name once
            found[(m.document_id, m.name)] = {
                "entity": entity.id, "entity_name": entity.canonical_name,
                "entity_type": entity.entity_type, "tier": m.tier, "role": m.role,
                "reason": (m.audit or {}).get("reason"), "raw_entity": m.entity_id,
                "candidates": len((m.audit or {}).get("candidates", ()))}
    return found, entities


def _profiles_each() -> bool:
    value = os.environ.get(PROFILES_ENV, "each").strip().lower()
    if value not in ("each", "off"):
        raise InvalidInput(f"{PROFILES_ENV} must be 'each' or 'off', not {value!r}")
    return value == "each"


# --------------------------------------------------------------------------- gold mentions


def _run_gold(ctx: EvalContext, rows: list[dict[str, Any]]) -> EvalOutcome:
    docs = documents(rows)
    store = ctx.open_store()
    # Detection is not under test: the store reads each document through the gold extractor
    # (Store.extractor is the public seam every write goes through).
    store.extractor = GoldMentions(docs)
    refresh = _profiles_each()
    started = time.perf_counter()
    doc_ids: dict[str, int] = {}
    for doc in docs:
        result = store.remember(doc["text"], source_type=doc["source_type"],
                                source_ref=doc["lineage"])
        doc_ids[doc["doc"]] = result.document.id
        if refresh:
            store.refresh_profiles(limit=LIMIT)
    elapsed = time.perf_counter() - started
    found, entities = _read_mentions(store)
    out: list[dict[str, Any]] = []
    for row in rows:
        hit = found.get((doc_ids[row["doc"]], row["mention"]))
        out.append({"id": row["id"], "doc": row["doc"], "mention": row["mention"],
                    "type": row["type"], "case": row["case"], "gold": row["entity"],
                    # a mention the store did not record stands alone (a split, never a merge)
                    "predicted": hit["entity"] if hit else f"unresolved:{row['id']}",
                    "predicted_name": hit["entity_name"] if hit else None,
                    "tier": hit["tier"] if hit else None,
                    "reason": hit["reason"] if hit else None,
                    "candidates": hit["candidates"] if hit else 0})
    gold = [r["gold"] for r in out]
    predicted = [r["predicted"] for r in out]
    scores = pair_scores(gold, predicted)
    best = majority(gold, predicted)
    holds: dict[str, set[str]] = defaultdict(set)
    for r in out:
        holds[r["predicted"]].add(r["gold"])
    for r in out:
        r["correct"] = r["predicted"] == best[r["gold"]]
        # majority alone hides a merge (both referents' majority is the merged entity):
        # clean says the entity holds no other referent
        r["clean"] = len(holds[r["predicted"]]) == 1
    wrong_pairs = _false_merges(out)
    cases: dict[str, dict[str, Any]] = {}
    for case in sorted({r["case"] for r in out}):
        mine = [r for r in out if r["case"] == case]
        cases[case] = {"mentions": len(mine),
                       "accuracy": round(sum(r["correct"] for r in mine) / len(mine), 4),
                       "clean": round(sum(r["clean"] for r in mine) / len(mine), 4),
                       "false_merge_pairs": sum(case in (a["case"], b["case"])
                                                for a, b in wrong_pairs)}
    merged_golds = defaultdict(set)
    for a, b in wrong_pairs:
        merged_golds[a["predicted"]].update((a["gold"], b["gold"]))
    metrics = {k: v for k, v in scores.items() if not k.endswith("_pairs")}
    notes = {
        "mentions": len(out), "gold_entities": len(set(gold)), "documents": len(docs),
        "entities_made": len(entities),
        "unresolved": sum(r["tier"] is None for r in out),
        "false_merge_pairs": scores["false_merge_pairs"], "split_pairs": scores["split_pairs"],
        "accuracy": round(sum(r["correct"] for r in out) / len(out), 4),
        "clean": round(sum(r["clean"] for r in out) / len(out), 4),
        "cases": cases,
        "tiers": dict(sorted(Counter(str(r["tier"]) for r in out).items())),
        "merged_referents": {entities[e].canonical_name if e in entities else e: sorted(g)
                             for e, g in sorted(merged_golds.items())},
        "profiles": "refreshed after each document" if refresh else "never refreshed",
        # the run record names the harness's extractor; this one read the documents
        "extractor_used": GoldMentions.name,
        "merge_proposals": len(store.merge_proposals("pending")),
        "seconds": round(elapsed, 2),
        "false_merge_target": 0.01,
    }
    return EvalOutcome(items=out, metrics=metrics, notes=notes)


# --------------------------------------------------------------------------- LoCoMo


def _sessions_limit() -> int | None:
    value = os.environ.get(SESSIONS_ENV, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise InvalidInput(f"{SESSIONS_ENV} must be a positive whole number, not {value!r}")
    return int(value)


def session_captures(conversations: Sequence[Mapping[str, Any]], limit: int | None = None
                     ) -> list[dict[str, Any]]:
    """One chat capture per session (its turns as ``Speaker: text`` lines, said at the
    session's date), at most ``limit`` sessions per conversation, in order."""
    out = []
    for conversation in conversations:
        for session in list(conversation["sessions"])[:limit]:
            lines = [f"{t['speaker']}: {t['text']}" if t.get("speaker") else t["text"]
                     for t in session["turns"] if t["text"].strip()]
            if not lines:
                continue
            when = session.get("when")
            out.append({"conversation": conversation["sample_id"],
                        "speakers": (conversation["speaker_a"], conversation["speaker_b"]),
                        "text": "\n".join(lines), "source_type": "utterance",
                        "source_ref": f"{conversation['sample_id']}:session_{session['number']}",
                        "said_at": (datetime.fromisoformat(when).replace(tzinfo=UTC)
                                    if isinstance(when, str) else None)})
    return out


def _run_locomo(ctx: EvalContext, conversations: list[dict[str, Any]]) -> EvalOutcome:
    limit = _sessions_limit()
    captures = session_captures(conversations, limit)
    store = ctx.open_store()
    refresh = _profiles_each()
    started = time.perf_counter()
    conversation_of: dict[int, str] = {}
    for capture in captures:
        result = store.remember(capture["text"], source_type=capture["source_type"],
                                source_ref=capture["source_ref"], said_at=capture["said_at"])
        conversation_of[result.document.id] = capture["conversation"]
        if refresh:
            store.refresh_profiles(limit=LIMIT)
    elapsed = time.perf_counter() - started
    entities = {e.id: e for e in store.entities(limit=LIMIT)}
    records = [(entity, m) for entity in entities.values()
               for m in store.mentions(entity.id, limit=LIMIT)]
    speakers = {c["sample_id"]: (c["speaker_a"], c["speaker_b"]) for c in conversations}
    rows = []
    for entity, m in sorted(records, key=lambda x: x[1].id):
        conversation = conversation_of.get(m.document_id)
        if conversation is None:
            continue
        is_speaker = m.role == "speaker"
        if not is_speaker and entity.entity_type != "Person":
            continue  # the silver figure is about people; other names have no referent rule
        rows.append({"mention_id": m.id, "conversation": conversation, "name": m.name,
                     "role": m.role, "speaker": is_speaker,
                     # gold for speakers, silver for named people: (conversation, name)
                     "gold": f"{conversation}/{normalise(m.name)}",
                     "predicted": entity.id, "predicted_name": entity.canonical_name,
                     "tier": m.tier, "reason": (m.audit or {}).get("reason"),
                     "names_a_speaker": normalise(m.name) in
                     {normalise(s) for s in speakers[conversation]}})
    spoken = [r for r in rows if r["speaker"]]
    named = [r for r in rows if not r["speaker"]]
    scores = pair_scores([r["gold"] for r in spoken], [r["predicted"] for r in spoken])
    silver = pair_scores([r["gold"] for r in named], [r["predicted"] for r in named])
    per_conversation = {}
    speaker_entity: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in spoken:
        speaker_entity[(r["conversation"], normalise(r["name"]))][r["predicted"]] += 1
    for sample, pair in speakers.items():
        if not any(r["conversation"] == sample for r in spoken):
            continue
        made = {name: len(speaker_entity[(sample, normalise(name))]) for name in pair}
        shared = sorted(entity for entity in speaker_entity[(sample, normalise(pair[0]))]
                        if entity in speaker_entity[(sample, normalise(pair[1]))])
        # an entity this conversation's speakers share with another conversation's people
        elsewhere = sorted({r["conversation"] for r in rows if r["conversation"] != sample
                            and any(r["predicted"] in speaker_entity[(sample, normalise(n))]
                                    for n in pair)})
        per_conversation[sample] = {"speakers": list(pair), "entities": made,
                                    "speakers_merged": len(shared),
                                    "entity_shared_with": elsewhere}
    repeated = Counter(normalise(n) for pair in speakers.values() for n in set(pair))
    speaker_best = {key: c.most_common(1)[0][0] for key, c in speaker_entity.items()}
    to_speaker = [r for r in named if r["names_a_speaker"]]
    metrics = {k: v for k, v in scores.items() if not k.endswith("_pairs")}
    notes = {
        "conversations": len(per_conversation), "sessions": len(captures),
        "sessions_per_conversation": limit or "all",
        "speaker_mentions": len(spoken), "speaker_false_merge_pairs":
            scores["false_merge_pairs"], "speaker_split_pairs": scores["split_pairs"],
        "speakers": per_conversation,
        "names_in_several_conversations": sorted(n for n, k in repeated.items() if k > 1),
        "silver": "named people: one normalised name within one conversation is one referent "
                  "(silver, not gold)",
        "named_person_mentions": len(named),
        "silver_pairwise_precision": silver["pairwise_precision"],
        "silver_pairwise_recall": silver["pairwise_recall"],
        "silver_false_merge_rate": silver["false_merge_rate"],
        "silver_false_merge_pairs": silver["false_merge_pairs"],
        # "Caroline" said by Melanie: does it reach the speaker Caroline's entity?
        "named_speaker_mentions": len(to_speaker),
        "named_speaker_joined": sum(speaker_best.get((r["conversation"],
                                                      normalise(r["name"]))) == r["predicted"]
                                    for r in to_speaker),
        "entities_made": len(entities),
        "tiers": dict(sorted(Counter(str(r["tier"]) for r in rows).items())),
        "profiles": "refreshed after each session" if refresh else "never refreshed",
        "merge_proposals": len(store.merge_proposals("pending")),
        "seconds": round(elapsed, 2),
        "false_merge_target": 0.01,
    }
    return EvalOutcome(items=rows, metrics=metrics, notes=notes)


def run_entity_resolution(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    """Gold mention rows or LoCoMo conversations (see the module doc)."""
    if items and "sessions" in items[0]:
        return _run_locomo(ctx, items)
    if not items:
        raise InvalidInput("entity-resolution: the dataset has no mentions or conversations")
    return _run_gold(ctx, items)


SPEC = register(EvalSpec(
    name=NAME,
    description="Entity resolution at write time: pairwise merge precision / false merges "
                "of gold mentions (or LoCoMo speakers) across documents",
    metrics=(
        Metric("pairwise_precision", "higher", 0.01),
        Metric("false_merge_rate", "lower", 0.001),
        Metric("pairwise_recall", "higher", 0.01),
        Metric("pairwise_f1", "higher", 0.01),
        Metric("split_rate", "lower", 0.01),
        Metric("bcubed_precision", "higher", 0.01),
        Metric("bcubed_recall", "higher", 0.01),
    ),
    default_dataset=DATASET,
    load=load_entity_set,
    run=run_entity_resolution,
))
