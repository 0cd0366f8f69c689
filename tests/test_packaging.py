"""A non-editable install works: the wheel carries the migrations and every eval's default
dataset (issue 9 §4).

The wheel is built from a copy of the source (so the working tree gets no build/ folder),
installed with ``pip install --no-deps --target`` into a scratch folder, and used from a
subprocess whose cwd is elsewhere and whose PYTHONPATH is only that folder, so the repo's
own source cannot be what gets imported. The subprocess opens a store on a fresh database
of the test server (FACTSTORE_DSN), so the migrations must come out of the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from factstore.store import server

REPO = Path(__file__).resolve().parents[1]

#: Run inside the installed copy. A tiny embedder keeps torch out of it: only the schema is
#: under test, and the migrations take the embedder's dimension.
PROBE = """
import json, sys
from pathlib import Path
import numpy as np
import evals, factstore
from evals.registry import load_all
from factstore import Store
from factstore.store import migrations

class Tiny:
    name, dim = "test/tiny", 8
    def embed(self, texts):
        return np.ones((len(texts), self.dim), dtype=np.float32) / np.sqrt(self.dim)

store = Store.open(database=sys.argv[1], embedder=Tiny())
try:
    described = store.describe()
finally:
    store.close()
specs = load_all()
print(json.dumps({
    "factstore": factstore.__file__, "evals": evals.__file__,
    "sql_dir": str(migrations.sql_dir()),
    "known": [m.version for m in migrations.discover()],
    "applied": list(described.schema_versions),
    "datasets": {name: [str(s.default_dataset), Path(s.default_dataset).exists()]
                 for name, s in specs.items()},
}))
"""


def _run(*args: str, cwd: Path, timeout: float = 180, **env: str) -> str:
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            env={**os.environ, **env})
    assert result.returncode == 0, f"{args[:4]} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture()
def installed(tmp_path: Path) -> tuple[Path, Path]:
    """(the wheel, the --target folder it was installed into)."""
    src = tmp_path / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist")
    for name in ("factstore", "evals"):
        shutil.copytree(REPO / name, src / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    wheels, target = tmp_path / "wheels", tmp_path / "site"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q")
    _run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels),
         str(src), cwd=tmp_path)
    [wheel] = wheels.glob("factstore-*.whl")
    _run(*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel),
         cwd=tmp_path)
    return wheel, target


def test_the_wheel_ships_the_migrations_and_the_eval_datasets(installed, admin_dsn: str,
                                                              tmp_path: Path) -> None:
    wheel, target = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped_sql = sorted(n for n in names if n.startswith("factstore/sql/"))
    assert shipped_sql and shipped_sql == sorted(f"factstore/sql/{p.name}"
                                 for p in (REPO / "factstore" / "sql").glob("*.sql"))
    assert "evals/data/locomo.json" in names
    assert not any(n.startswith("tests/") for n in names)

    database = f"pkg{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PYTHONPATH": str(target), "FACTSTORE_DSN": admin_dsn, "HF_HUB_OFFLINE": "1",
           "FACTSTORE_SQL_DIR": "", "FACTSTORE_HOME": str(elsewhere / "unused-home")}
    try:
        out = _run(sys.executable, "-c", PROBE, database, cwd=elsewhere, **env)
    finally:
        server.drop_database(admin_dsn, database)
    probe = json.loads(out.strip().splitlines()[-1])

    # The installed copy, not the repo, was imported and read.
    for key in ("factstore", "evals", "sql_dir"):
        assert Path(probe[key]).is_relative_to(target), (key, probe[key])
    assert probe["known"] and probe["applied"] == probe["known"]
    assert "locomo-recall" in probe["datasets"]
    for name, (path, exists) in probe["datasets"].items():
        assert exists and Path(path).is_relative_to(target / "evals" / "data"), (name, path)
