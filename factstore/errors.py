"""The FactStoreError tree.

Every failure a caller can cause is one of these, and its message says what was wrong and
what to do about it. A call that raises has written nothing: every Store method is one
transaction (a bulk call's committed chunks stay, whole, and a re-run skips them).
"""

from __future__ import annotations


class FactStoreError(Exception):
    """Base of every error the store raises on purpose."""


class InvalidInput(FactStoreError, ValueError):
    """An argument is missing, malformed or out of range."""


class NotFound(FactStoreError, LookupError):
    """An id or name does not exist in the store."""


class ConflictNotFound(NotFound):
    """No conflict has that id."""


class FactNotFound(NotFound):
    """No fact has that id."""


class QuestionNotFound(NotFound):
    """No open-questions entry has that id."""


class TagNotFound(NotFound):
    """The registry has no such canonical tag."""


class SourceNotFound(NotFound):
    """No document has that lineage."""


class SourceStateError(FactStoreError):
    """The source exists but cannot change that way (already removed, not removed)."""


class SourceRemoved(SourceStateError):
    """A capture would add a new version to a removed source: restore it first."""


class ClaimNotFound(NotFound):
    """No claim has that id."""


class EntityNotFound(NotFound):
    """No entity has that id, name or timeline subject."""


class GroupNotFound(NotFound):
    """No contradiction group has that id."""


class ConflictStateError(FactStoreError):
    """The conflict exists but cannot be closed that way (already closed, wrong lane)."""


class WinnerNotInPair(ConflictStateError):
    """resolve_conflict named a winner that is neither side of the conflict."""


class RegistryError(FactStoreError):
    """A tag registry governance rule refused the call."""


class RootlessTag(RegistryError):
    """A bare tag with no dotted parent would be a back-door root."""


class OrphanTag(RegistryError):
    """A dotted tag whose parent does not exist."""


class EmbedderMismatch(FactStoreError):
    """The store's vectors were built by another embedder (name or dimension)."""


class EmbedderError(FactStoreError):
    """The embedding backend failed or answered with the wrong shape."""


class ExtractorError(FactStoreError):
    """The extractor failed or answered with output that does not parse."""


class DatabaseUnavailable(FactStoreError):
    """The store could not reach or start its Postgres server."""


class PermissionDenied(DatabaseUnavailable):
    """The server refused the store's role something it needs (creating a database, an
    extension, a table): a grant, not a retry, fixes it."""


class SchemaError(FactStoreError):
    """The database schema is missing a prerequisite (pgvector, a migration) or is newer than this code."""


class AlreadyRetracted(InvalidInput):
    """A retraction of a fact that is already withdrawn: nothing was written. Two callers
    retracting the same fact at once see one success and one of these."""


class CardinalityMismatch(InvalidInput):
    """A write names a cardinality that disagrees with the one the attribute's facts store.

    The seed's ``422 facts/cardinality-mismatch``; an InvalidInput so callers that map
    InvalidInput to a 4xx keep working.
    """

    code = "facts/cardinality-mismatch"
    status = 422

    def __init__(self, attribute: str, stored: str, written: str) -> None:
        self.attribute = attribute
        self.stored = stored
        self.written = written
        super().__init__(
            f"attribute {attribute!r} is stored as cardinality {stored!r} but the write says "
            f"{written!r}; omit cardinality or send {stored!r} (the attribute's existing facts "
            f"decide it), or write the fact under another attribute")

    def __reduce__(self):
        # The constructor takes the parts, not the message, so pickling must pass them back.
        return (type(self), (self.attribute, self.stored, self.written))


class StoreBusy(DatabaseUnavailable):
    """Concurrent writers collided (a deadlock or a serialization failure) and kept colliding.

    The database is up and nothing was written: the call lost a lock race to other writers,
    was retried a few times, and may simply be retried later. A DatabaseUnavailable, so a
    caller that backs off on an unreachable store backs off here too.
    """

    def __init__(self, message: str, *, sqlstate: str | None = None,
                 attempts: int = 1) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        self.attempts = attempts


class AccessDenied(FactStoreError):
    """The credential may not do that: a scope it was not granted, or an owner-only tool."""


class InvalidToken(AccessDenied):
    """The token is missing, malformed, unknown or revoked."""


class SealError(FactStoreError):
    """A sealed value could not be opened or sealed: a wrong key, a wrong binding (scope,
    row id, key version), a tampered ciphertext, a destroyed key or no master key."""


class AttributeNotFound(NotFound):
    """No such key in the attribute registry."""
