"""The FactStoreError tree.

Every failure a caller can cause is one of these, and its message says what was wrong and
what to do about it. A call that raises has written nothing: every Store method is one
transaction.
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


class SchemaError(FactStoreError):
    """The database schema is missing a prerequisite (pgvector, a migration) or is newer than this code."""
