"""The notebooks: committed without outputs, and each executed top to bottom (nbclient)
against a fresh database and a fresh home, failing on any error cell."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from factstore.store import server

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMES = ("timelines.ipynb", "open_questions.ipynb", "threshold_tuning.ipynb",
         "eval_trends.ipynb", "archive_explore.ipynb")


def test_the_five_notebooks_are_committed_without_outputs() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)
    for name in NAMES:
        nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        assert nb["metadata"]["kernelspec"]["name"] == "factstore", name
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, name
        assert not any("psycopg" in "".join(c["source"]) for c in nb["cells"]), name


@pytest.fixture(scope="module")
def notebook_env(admin_dsn, tmp_path_factory):
    name = f"notebooks_fresh_{os.getpid()}"
    server.drop_database(admin_dsn, name)
    server.ensure_database(admin_dsn, name)
    yield {"FACTSTORE_DSN": server.with_database(admin_dsn, name),
           "FACTSTORE_HOME": str(tmp_path_factory.mktemp("notebook-home")),
           # the timelines notebook compiles a real LoCoMo conversation when it is there;
           # the tests read the bundled fixture instead (the datasets are not the tests')
           "FACTSTORE_DATASETS": str(tmp_path_factory.mktemp("no-datasets"))}
    server.drop_database(admin_dsn, name)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_top_to_bottom(name, notebook_env, monkeypatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    for key, value in notebook_env.items():
        monkeypatch.setenv(key, value)
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert errors == []
    first = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert "seeded" in first  # says whether the store is the demo's or the user's
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for o in c.outputs)
    assert images >= 1, "every notebook draws at least one plot from the store"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_make_notebooks_serves_the_five_notebooks_with_the_project_kernel(tmp_path) -> None:
    port, token = _free_port(), "t" + os.urandom(8).hex()
    env = {**os.environ, "JUPYTER_TOKEN": token, "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg")}
    lab = subprocess.Popen(["make", "-s", "notebooks", f"NOTEBOOK_PORT={port}"], cwd=ROOT,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           start_new_session=True)

    def get(path: str) -> dict | None:
        url = f"http://127.0.0.1:{port}{path}?token={token}"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return json.loads(response.read())
        except (OSError, ValueError):
            return None

    try:
        deadline, specs = time.monotonic() + 120, None
        while time.monotonic() < deadline and specs is None:
            assert lab.poll() is None, lab.stderr.read().decode()[-3000:]
            specs = get("/api/kernelspecs")
            if specs is None:
                time.sleep(0.5)
        assert specs is not None, "make notebooks did not answer in time"
        assert "factstore" in specs["kernelspecs"]
        listing = get("/api/contents/")
        assert listing is not None
        assert sorted(c["name"] for c in listing["content"] if c["type"] == "notebook") == \
            sorted(NAMES)
    finally:
        if lab.poll() is None:
            os.killpg(lab.pid, signal.SIGTERM)
            try:
                lab.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(lab.pid, signal.SIGKILL)
                lab.wait(timeout=10)
