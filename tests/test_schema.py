"""Schema and opening: numbered migrations, embedder identity, embedded server by default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from factstore import Store
from factstore.embedders.ollama import OllamaEmbedder
from factstore.errors import EmbedderMismatch, InvalidInput
from factstore.store import migrations
from factstore.store.server import check_database_name, with_database
from tests.helpers import ScriptedExtractor, fact
from tests.ollama_standin import OllamaStandIn

ROOT = Path(__file__).resolve().parents[1]


class Renamed:
    """The real local model under another name: the store must still refuse it."""

    def __init__(self, inner, name):
        self.inner, self.name, self.dim = inner, name, inner.dim

    def embed(self, texts):
        return self.inner.embed(texts)


def test_migrations_are_numbered_plain_sql_applied_once(open_store):
    files = migrations.discover()
    assert [m.version for m in files] == sorted(m.version for m in files)
    assert all(m.path.parent == ROOT / "factstore" / "sql" for m in files)
    first = open_store().describe()
    again = open_store().describe()  # re-applying is a no-op
    assert first.schema_versions == again.schema_versions == tuple(m.version for m in files)


def test_the_sql_files_also_run_as_psql_scripts():
    text = migrations.discover()[0].text(384)
    assert "vector(384)" in text and ":dim" not in text
    assert "'384'" in text  # the quoted psql form :'dim' becomes a string literal


def test_the_store_records_its_embedder_and_refuses_another_name(open_store, embedder):
    store = open_store()
    assert store.describe().embedder == embedder.name
    with pytest.raises(EmbedderMismatch, match="refusing to mix"):
        open_store(embedder=Renamed(embedder, "someone-else/minilm"))


def test_the_store_refuses_an_embedder_of_another_dimension(open_store):
    open_store()
    with OllamaStandIn(dim=768) as standin:
        with pytest.raises(EmbedderMismatch, match="384-d"):
            open_store(embedder=OllamaEmbedder(host=standin.host))


@pytest.mark.empty_database
def test_an_ollama_embedded_store_works_end_to_end(admin_dsn, database):
    with OllamaStandIn(dim=768) as standin:
        extractor = ScriptedExtractor()
        text = "The nightly job is green right now"
        extractor.add(text, fact("The nightly job is green right now."))
        with Store.open(with_database(admin_dsn, database), extractor=extractor,
                        embedder=OllamaEmbedder(host=standin.host)) as store:
            result = store.remember(text)
            assert result.outcomes[0].outcome == "written"
            assert store.describe().embedding_dim == 768
            assert standin.embed_requests  # vectors really came over HTTP


def test_database_names_are_validated():
    with pytest.raises(InvalidInput, match="database name"):
        check_database_name("Robert'); DROP TABLE facts;--")


def test_store_open_with_no_arguments_uses_the_embedded_server_under_factstore_home(home):
    # `home` lives where no other pytest session resets permissions (tests/conftest.py)
    script = (
        "from factstore import Store\n"
        "from tests.helpers import ScriptedExtractor\n"
        "s = Store.open(extractor=ScriptedExtractor())\n"
        "d = s.describe()\n"
        "print(d.database)\n"
        "print(d.server_version, d.pgvector_version)\n"
        "s.close()\n"
    )
    env = {"FACTSTORE_HOME": str(home), "HF_HUB_OFFLINE": "1",
           "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    database_line, versions = out.stdout.strip().splitlines()[-2:]
    assert str(home / "pgdata") in database_line
    assert "dbname=factstore" in database_line
    server_version, pgvector = versions.split()
    assert int(server_version.split(".")[0]) >= 15
    assert tuple(int(p) for p in pgvector.split(".")[:2]) >= (0, 5)
