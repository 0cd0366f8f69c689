"""Scopes on real conversation text: LoCoMo turns (the shared datasets folder) remembered
through each speaker's own token, then recalled and forgotten. Skipped when the datasets
are not beside the checkout (``../shared/datasets``, or ``FACTSTORE_DATASETS``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evals.loaders import load_locomo
from factstore.extractors.parsed import ParserExtractor

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("FACTSTORE_DATASETS") or ROOT.parent / "shared" / "datasets")
LOCOMO = DATASETS / "locomo"
TURNS = 50  # per conversation: enough facts and documents, a few seconds of extraction

pytestmark = pytest.mark.skipif(not LOCOMO.is_dir(), reason=f"no LoCoMo under {DATASETS}")


def _scope_of(store, table: str, ids: list[int]) -> set[str]:
    with store._tx() as cur:
        cur.execute(f"SELECT DISTINCT access_scope FROM {table} WHERE id = ANY(%s)", (ids,))
        return {r["access_scope"] for r in cur.fetchall()}


def test_each_speaker_reads_only_their_turns_and_forgetting_leaves_none(open_store) -> None:
    first, second = load_locomo(LOCOMO)[:2]
    store = open_store(extractor=ParserExtractor())
    views, said = {}, {}
    for n, conversation in enumerate((first, second)):
        workspace = f"conv{n}"
        for speaker in (conversation.speaker_a, conversation.speaker_b):
            made = store.create_token(speaker.lower(), workspace=workspace)
            views[(workspace, speaker)] = store.as_principal(made.principal)
        for turn in list(conversation.turns())[:TURNS]:
            key = (workspace, turn.speaker)
            views[key].remember(turn.text, source_ref=f"{conversation.sample_id}:{turn.dia_id}")
            said.setdefault(key, []).append(turn.text)
    questions = [q.question for q in first.qa[:8]] + [q.question for q in second.qa[:8]]
    for key, view in views.items():
        own = set(view.principal.scopes)
        for question in questions:
            items = view.recall(question, k=10).items
            facts = [i.fact.id for i in items if i.fact]
            documents = [i.document.id for i in items if i.document]
            assert _scope_of(store, "facts", facts) <= own, (key, question)
            assert _scope_of(store, "documents", documents) <= own, (key, question)
    # forgetting one speaker leaves no text of theirs anywhere, and the others' intact
    gone = ("conv0", first.speaker_a)
    scope = views[gone].principal.personal
    report = store.forget_scope(scope)
    assert report.deleted["documents"] == len(said[gone])
    needles = [t for t in said[gone] if len(t) > 40][:15]
    kept = [t for k, texts in said.items() if k != gone for t in texts if len(t) > 40][:15]
    assert needles and store.scan_for(needles) == []
    assert {n for _, _, n in store.scan_for(kept)} == set(kept)
