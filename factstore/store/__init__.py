"""The store seam: the only package that imports psycopg or pgvector."""

from factstore.store.core import Store

__all__ = ["Store"]
