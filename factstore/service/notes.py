"""A note (seed 002 §4, ``POST /v1/notes`` and the ``note`` tool): a body kept in memory and
the dated facts it states, each citing the note.

Composed from two Store calls, so it is ordered to refuse before writing: every check that
can fail on the caller's input (the body, the shared grant, every fact's shape and the
timelines' cardinality) runs before the note is remembered, because ``write_facts`` checks
everything and writes all or nothing and runs first. What is left is a database fault
between the two commits; re-posting the same note then repeats nothing (the facts are
corroborated, the note lands on its lineage).
"""

from __future__ import annotations

import hashlib
from typing import Any

from factstore.captures import check_capture
from factstore.errors import InvalidInput
from factstore.store import Store

__all__ = ["keep_note", "note_ref"]

#: what a note's document is to the write path: something a person chose to capture
NOTE_SOURCE_TYPE = "capture"


def note_ref(scope: str, body: str) -> str:
    """``note:<scope>/<slug>``: the note's source ref, its lineage and its facts' source.
    The slug is the body's hash, so one note posted twice is one lineage, not two."""
    return f"note:{scope}/note-{hashlib.sha256(body.encode()).hexdigest()[:16]}"


def keep_note(store: Store, body: str, facts: list[dict[str, Any]] | None = None,
              shared: bool = False) -> dict[str, Any]:
    """Keep ``body`` and write ``facts`` (format v1 facts, no ``format`` key): each fact's
    ``source`` defaults to the note and its quote to nothing. Returns ``{"note": ref,
    "facts": WriteFactsResult | None, "remembered": RememberResult}``."""
    check_capture(body, source_type=NOTE_SOURCE_TYPE)  # pure: a bad body writes nothing
    if facts is not None and not isinstance(facts, list):
        raise InvalidInput("facts must be a list of fact objects (write_facts' shape), "
                           f"got {type(facts).__name__}")
    # The note lands in the caller's own scope (remember takes no shared flag); its facts
    # may go to shared memory, and a credential without that grant is refused here, first.
    store.principal.write_scope(shared is True)
    ref = note_ref(store.principal.home, body)
    written = None
    if facts:
        cited = [{**f, "source": f.get("source") or ref} if isinstance(f, dict) else f
                 for f in facts]
        written = store.write_facts({"format": 1, "facts": cited, "shared": shared})
    # a note that carries its facts was compiled by its writer: its body is not compiled
    # again (a second, less precise reading of the same values)
    remembered = store.remember(body, source_ref=ref, source_type=NOTE_SOURCE_TYPE,
                                compile=not facts)
    return {"note": ref, "facts": written, "remembered": remembered}
