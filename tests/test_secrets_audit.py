"""No secret reaches the database: the corpus of tests/secrets_corpus.py is written through
every entry point that takes text, then every text, JSON and text-array column of every
table is searched for each secret verbatim (``Store.scan_for``). Nothing may match.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from factstore.backfill import FactRecord
from factstore.demo import CONTRADICTION, SEED_EXAMPLES
from factstore.extractors.rules import RuleExtractor
from tests.secrets_corpus import SECRETS

NEEDLES = [needle for _, _, needle in SECRETS]


def _with_secret(i: int) -> str:
    return SECRETS[i % len(SECRETS)][1]


def test_the_corpus_has_thirty_shapes() -> None:
    assert len(SECRETS) >= 30 and len({kind for kind, _, _ in SECRETS}) >= 20


def test_no_secret_reaches_any_column(open_store) -> None:
    store = open_store(extractor=RuleExtractor())
    # captures: the text (each secret in a sentence the rule extractor makes a fact of), the
    # source_ref and the scribe's name
    for i, (_, text, _) in enumerate(SECRETS):
        store.remember(f"The deploy for service {i} uses {text} in production.",
                       source_ref=f"https://ops:{i}Pw{i}xQ@wiki.internal/page/{i}"
                       if i % 3 == 0 else _with_secret(i + 7),
                       captured_by=_with_secret(i + 11) if i % 4 == 0 else None)
    # timelines: every text field of a written fact, a backfill, an end
    written = store.write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": f"secret_{i}", "value": f"it is {text}",
         "unit": "password=" + NEEDLES[i][:20], "source": f"chat {_with_secret(i + 3)}"[:512],
         "quote": f"I said {text}"[:2000], "observed_at": "2026-01-01T00:00:00Z"}
        for i, (_, text, _) in enumerate(SECRETS[:25])]})
    store.backfill_facts([
        {"subject": "project/vault", "attribute": f"key_{i}", "value": text,
         "source": "archive", "quote": text[:2000], "observed_at": "2025-06-01T00:00:00Z"}
        for i, (_, text, _) in enumerate(SECRETS)])
    fact_id = written.facts[0].id
    store.end_fact(fact_id, "2026-06", quote=f"ended: {_with_secret(5)}",
                   source=f"note {_with_secret(6)}"[:512])
    store.retract(written.facts[1].id, reason=f"it leaked {_with_secret(8)}")
    # imports: statement, quote, provenance, tags, meta
    records = [FactRecord(statement=f"Imported {text}", kind="REFERENCE", quote=text,
                          source_ref=_with_secret(i + 2), captured_by=_with_secret(i + 4),
                          said_at=datetime(2025, 1, 1, tzinfo=UTC),
                          meta={"note": _with_secret(i + 9), "nested": [_with_secret(i)]})
               for i, (_, text, _) in enumerate(SECRETS)]
    store.import_facts(records, embeddings=np.ones((len(records), store.embedder.dim),
                                                   dtype=np.float32))
    # governance: questions, notes, reasons, descriptions
    question = store.add_open_question(f"Rotate {_with_secret(1)}?", _with_secret(2),
                                       risk="high", cost="low")
    for i in range(3, 9):
        store.update_open_question(question.id, note=_with_secret(i),
                                   recorded_by=_with_secret(i + 1))
    store.registry_propose_root("vault", description=_with_secret(10))
    store.registry_approve_root("vault", reason=_with_secret(11))
    store.registry_add_leaf("vault.keys", description=_with_secret(12))
    store.registry_propose_root("creds", description=_with_secret(13))
    store.registry_reject_root("creds", reason=_with_secret(14))
    # a conflict, closed with reasoning that quotes a secret
    store.remember(SEED_EXAMPLES[4][1])
    store.remember(CONTRADICTION)
    conflict = store.open_conflicts()[0]
    store.resolve_both_stand(conflict.id, f"both hold; see {_with_secret(15)}")

    leaks = store.scan_for(NEEDLES)
    assert leaks == [], "\n".join(map(str, leaks))
    # and the audit itself can see a secret where one is: the needle list is not vacuous
    assert store.scan_for(["[REDACTED:"]) != []
