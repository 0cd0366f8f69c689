"""Store.remember_many: the write path for many captures at once (an archive backfill).

A mixin of Store. The expensive, order-free work is batched: every capture is checked,
redacted and extracted first (a bad one refuses the whole call, nothing written), then the
captures' heads are embedded together and their statements together, ``batch_size``
captures at a time. The decisions are not batched: each capture is written in input order,
in a transaction of its own, through the very ``write_capture`` that ``remember`` uses, so
every restatement, lane, conflict and routing is what sequential ``remember`` calls decide,
including two near-duplicates in one batch (the second sees the first, committed).

The embedding of the next batch runs in a thread while the current batch is written, and
each capture commits without waiting for its WAL flush; one waiting commit at the end (or
on an error) makes every reported result durable before the call returns.

A capture's transaction is whole or absent; a re-run of the same captures after a crash
finds what landed (a document is unique per lineage and content, and the write path calls a
re-run of a capture ``unchanged``), so resuming is running the call again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from factstore.errors import InvalidInput
from factstore.inputs import check_count, show
from factstore.results import RememberResult
from factstore.store.remember import DOC_EMBED_CHARS

#: The fields a capture may carry beside its text, as ``remember`` takes them.
CAPTURE_FIELDS = ("source_type", "source_ref", "said_at", "captured_by", "captured_at")


class BulkTools:
    """remember_many; mixed into Store (which provides _capture_of, _embed, _write_capture)."""

    def remember_many(self, captures: Iterable[str | Mapping[str, Any]], *,
                      batch_size: int = 64,
                      progress: Callable[[int, int], None] | None = None
                      ) -> list[RememberResult]:
        """Remember many captures; one RememberResult per capture, in input order.

        Each capture is a text, or a mapping with ``text`` and any of ``source_type``,
        ``source_ref``, ``said_at``, ``captured_by``, ``captured_at``. Every decision equals
        what ``remember`` called on each in turn would decide. ``progress(done, total)`` is
        called after each capture is written.
        """
        check_count("batch_size", batch_size, 1, 10_000)
        if progress is not None and not callable(progress):
            raise InvalidInput(f"progress must be a callable(done, total), got {show(progress)}")
        items = captures_of(captures)
        prepared = []
        for index, (text, fields) in enumerate(items):
            try:
                prepared.append(self._capture_of(text, **fields, batch=True))  # type: ignore[attr-defined]
            except InvalidInput as exc:
                raise InvalidInput(f"captures[{index}]: {exc}; nothing was written") from None
        batches = [prepared[i:i + batch_size] for i in range(0, len(prepared), batch_size)]
        results: list[RememberResult] = []
        # The next batch is embedded while this one is written (the model releases the GIL
        # while it computes, the writes mostly wait on the server).
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed") as embedding:
            pending = embedding.submit(self._batch_vectors, batches[0]) if batches else None
            for index, batch in enumerate(batches):
                assert pending is not None
                vectors = pending.result()
                pending = (embedding.submit(self._batch_vectors, batches[index + 1])
                           if index + 1 < len(batches) else None)
                try:
                    for (capture, facts), capture_vectors in zip(batch, vectors, strict=True):
                        results.append(self._write_capture(  # type: ignore[attr-defined]
                            capture, facts, capture_vectors, wait_for_disk=False))
                        if progress is not None:
                            progress(len(results), len(prepared))
                except BaseException:
                    if pending is not None:
                        pending.cancel()
                    self._flush()  # what committed stays committed: make it durable
                    raise
        self._flush()
        return results

    def _flush(self) -> None:
        """Wait until every capture this call committed is on disk.

        Each capture commits without waiting for its WAL flush (``synchronous_commit =
        off``: the write is the same, only the wait moves); one commit that does wait
        flushes everything before it, so when remember_many returns, every result it
        reports survives a crash of the server or the machine."""
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT pg_current_xact_id()")  # a commit record to wait for

    def _batch_vectors(self, batch: list[tuple[Any, Any]]) -> list[np.ndarray]:
        """Each capture's vectors as remember makes them (its head, then its statements),
        embedded two calls per batch: heads together, statements together (a short
        statement batched with a capture's head would be padded to the head's length)."""
        heads = self._embed([c.text[:DOC_EMBED_CHARS] for c, _ in batch])  # type: ignore[attr-defined]
        statements = [f.statement for _, p in batch for f in p.facts]
        embedded = self._embed(statements) if statements else None  # type: ignore[attr-defined]
        out, offset = [], 0
        for i, (_, p) in enumerate(batch):
            n = len(p.facts)
            rows = [heads[i:i + 1]] + ([embedded[offset:offset + n]] if n else [])
            out.append(np.concatenate(rows))
            offset += n
        return out


def captures_of(captures: object) -> list[tuple[object, dict[str, Any]]]:
    """(text, fields) per capture, or InvalidInput naming the first malformed one."""
    if isinstance(captures, str | bytes | Mapping) or not isinstance(captures, Iterable):
        raise InvalidInput(f"remember_many takes a list of captures (texts or mappings with "
                           f"'text'), got {show(captures)}")
    out = []
    for index, item in enumerate(captures):
        if isinstance(item, str):
            out.append((item, {}))
            continue
        if not isinstance(item, Mapping) or "text" not in item:
            raise InvalidInput(f"captures[{index}] must be a text or a mapping with 'text', "
                               f"got {show(item)}")
        unknown = sorted(str(k) for k in item if k != "text" and k not in CAPTURE_FIELDS)
        if unknown:
            raise InvalidInput(f"captures[{index}] has unknown field(s) {', '.join(unknown)}; "
                               f"a capture takes text and {', '.join(CAPTURE_FIELDS)}")
        out.append((item["text"], {k: item[k] for k in CAPTURE_FIELDS if k in item}))
    return out
