"""FactStoreResource: how every asset gets its Store (live, or replaying a cassette).

The resource only configures and opens ``factstore.Store``; every asset calls Store
methods, never the database. Two configurations:

- **live**: the embedded server under ``home`` (or a server reached by ``dsn``), the local
  embedder and the rule extractor (or an Ollama model);
- **replay**: the same, with the extractor answering from a recorded cassette, so a test or
  an eval regression run sees exactly the extractions it saw when the cassette was made.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path

from dagster import ConfigurableResource
from pydantic import Field

from factstore import Store
from factstore.embedders import embedder_from_name
from factstore.errors import InvalidInput
from factstore.extractors import extractor_from_name
from factstore.extractors.base import Extractor
from factstore.settings import Settings


class FactStoreResource(ConfigurableResource):
    """Where the store lives and what it runs with; ``open()`` hands out a Store."""

    home: str | None = Field(default=None, description="FACTSTORE_HOME of the embedded server "
                             "(default $FACTSTORE_HOME or ./.factstore)")
    dsn: str | None = Field(default=None, description="a Postgres server reached by DSN "
                            "instead of the embedded one")
    database: str | None = Field(default=None, description="the database on that server "
                                 "(default $FACTSTORE_DATABASE or factstore)")
    embedder: str = Field(default="local", description="local | ollama | ollama:<model>")
    extractor: str = Field(default="parser",
                           description="parser | rules | ollama | ollama:<model>")
    replay_cassette: str | None = Field(default=None, description="answer extraction from "
                                        "this cassette (the replay configuration)")
    settings: dict[str, str] = Field(default_factory=dict, description="setting overrides, "
                                     "as FACTSTORE_<NAME> would give them (e.g. "
                                     "{'similarity_threshold': '0.85'})")

    @classmethod
    def live(cls, home: str | None = None, *, dsn: str | None = None,
             database: str | None = None, **kwargs: object) -> "FactStoreResource":
        """The embedded server under ``home``, or the server at ``dsn``."""
        return cls(home=home, dsn=dsn, database=database, **kwargs)

    @classmethod
    def replay(cls, cassette: str | os.PathLike[str], home: str | None = None, *,
               dsn: str | None = None, database: str | None = None,
               **kwargs: object) -> "FactStoreResource":
        """As live, with extraction answered from ``cassette``."""
        return cls(home=home, dsn=dsn, database=database, replay_cassette=str(cassette),
                   **kwargs)

    def store_settings(self) -> Settings:
        known = {f.name for f in fields(Settings)}
        unknown = sorted(set(self.settings) - known)
        if unknown:
            raise InvalidInput(f"FactStoreResource.settings: unknown setting(s) {unknown}; "
                               f"known: {', '.join(sorted(known))}")
        env = {**os.environ, **{f"FACTSTORE_{k.upper()}": str(v)
                                for k, v in self.settings.items()}}
        return Settings.from_env(env)

    def build_extractor(self) -> Extractor:
        if self.replay_cassette:
            from factstore.extractors.replay import ReplayExtractor

            return ReplayExtractor(Path(self.replay_cassette))
        return extractor_from_name(self.extractor)

    def open(self) -> Store:
        """A Store on the configured server (close it, or use ``store()``)."""
        return Store.open(self.dsn, home=self.home, database=self.database,
                          embedder=embedder_from_name(self.embedder),
                          extractor=self.build_extractor(), settings=self.store_settings())

    @contextmanager
    def store(self) -> Iterator[Store]:
        """A Store for the length of a ``with`` block."""
        opened = self.open()
        try:
            yield opened
        finally:
            opened.close()

    @property
    def home_path(self) -> Path:
        return Path(self.home or os.environ.get("FACTSTORE_HOME") or ".factstore").resolve()
