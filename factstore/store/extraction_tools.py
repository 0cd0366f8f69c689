"""Store.land_documents and Store.extract_documents: landing an archive first, extracting it
later in bulk (the Dagster batch-extraction asset, ``factstore migrate --no-extract``).

A mixin of Store. ``land_documents`` checks and redacts each capture as ``remember`` does
and stores its document alone, routed ``unextracted`` (a document already stored for that
lineage and content is left as it is). ``extract_documents`` takes the oldest unextracted
documents and runs each through the very write path ``remember`` uses, as the capture it
was (its source, its times), so every decision is what ``remember`` would have made; the
document's routing is set in the same transaction. Each fact records the extractor that
wrote it (``Fact.extracted_by``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from factstore.errors import InvalidInput
from factstore.inputs import check_count, check_flag, show
from factstore.results import DocumentRecord, RememberResult
from factstore.store import remember as remember_sql
from factstore.store import retry
from factstore.store.bulk_tools import captures_of
from factstore.store.remember import DOC_EMBED_CHARS


class ExtractionTools:
    """land_documents and extract_documents; mixed into Store."""

    def land_documents(self, captures: Iterable[str | Mapping[str, Any]], *,
                       batch_size: int = 64,
                       progress: Callable[[int, int], None] | None = None
                       ) -> list[DocumentRecord]:
        """Store each capture's document without extracting it; one DocumentRecord each.

        Takes what ``remember_many`` takes. A document already stored (same lineage and
        content) comes back with ``duplicate`` True and is not touched. Extract the landed
        ones later with ``extract_documents``.
        """
        check_count("batch_size", batch_size, 1, 10_000)
        _check_progress(progress)
        prepared = []
        for index, (text, fields) in enumerate(captures_of(captures)):
            try:
                prepared.append(self._capture_of(text, **fields,  # type: ignore[attr-defined]
                                                 extract=False)[0])
            except InvalidInput as exc:
                raise InvalidInput(f"captures[{index}]: {exc}; nothing was written") from None
        out: list[DocumentRecord] = []
        for start in range(0, len(prepared), batch_size):
            batch = prepared[start:start + batch_size]
            vectors = self._embed([c.text[:DOC_EMBED_CHARS] for c in batch])  # type: ignore[attr-defined]
            for capture, vector in zip(batch, vectors, strict=True):
                out.append(self._land_one(capture, vector))
                if progress is not None:
                    progress(len(out), len(prepared))
        return out

    @retry.retry_transient
    def _land_one(self, capture: remember_sql.Capture, vector: np.ndarray) -> DocumentRecord:
        with self._tx() as cur:  # type: ignore[attr-defined]
            return remember_sql.land_unextracted(cur, capture, vector)

    def extract_documents(self, *, limit: int = 10_000, batch_size: int = 64,
                          regenerate: bool = False,
                          progress: Callable[[int, int], None] | None = None
                          ) -> list[RememberResult]:
        """Extract up to ``limit`` of the oldest unextracted documents through the write
        path, in document order; one RememberResult each (empty when none is waiting).

        With ``regenerate``, also every document this store's extractor has not read yet
        (say, after switching to another model): its facts are a new generation beside the
        first, each recording its extractor; a fact the document already testifies to (the
        same kind and quote) is left ``unchanged``, so a re-extraction never adds support.
        Each document is written in a transaction of its own, so a run stopped part way
        is resumed by running it again (what was extracted is no longer waiting).
        """
        check_count("limit", limit, 1, 1_000_000)
        check_count("batch_size", batch_size, 1, 10_000)
        check_flag("regenerate", regenerate)
        _check_progress(progress)
        name = getattr(self.extractor, "name", None)  # type: ignore[attr-defined]
        if regenerate and not name:
            raise InvalidInput("regenerate needs an extractor with a name (and version), to "
                               "know which documents it has read")
        with self._tx() as cur:  # type: ignore[attr-defined]
            rows = remember_sql.unextracted_documents(cur, limit, name if regenerate else None)
        results: list[RememberResult] = []
        for start in range(0, len(rows), batch_size):
            batch = [self._capture_of(  # type: ignore[attr-defined]
                r["content"], source_type=r["source_type"], source_ref=r["source_ref"],
                said_at=r["said_at"], captured_by=r["captured_by"],
                captured_at=r["captured_at"]) for r in rows[start:start + batch_size]]
            statements = [f.statement for _, p in batch for f in p.facts]
            embedded = self._embed(statements) if statements else None  # type: ignore[attr-defined]
            offset, dim = 0, self.embedder.dim  # type: ignore[attr-defined]
            for capture, facts in batch:
                n = len(facts.facts)
                # The document is stored already: its head vector is not needed again.
                head = np.zeros((1, dim), dtype=np.float32)
                vectors = head if not n else np.concatenate([head, embedded[offset:offset + n]])
                offset += n
                results.append(self._write_capture(capture, facts, vectors))  # type: ignore[attr-defined]
                if progress is not None:
                    progress(len(results), len(rows))
        return results


def _check_progress(progress: object) -> None:
    if progress is not None and not callable(progress):
        raise InvalidInput(f"progress must be a callable(done, total), got {show(progress)}")
