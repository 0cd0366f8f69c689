"""The one seam: psycopg and pgvector are imported only inside factstore/store/."""

from __future__ import annotations

import ast
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BANNED = ("psycopg", "psycopg_pool", "pgvector")
SEAM = ROOT / "factstore" / "store"


def _imports(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _python_sources() -> list[tuple[Path, str]]:
    out = []
    for path in ROOT.rglob("*.py"):
        if any(part in (".venv", "build", ".factstore") for part in path.parts):
            continue
        out.append((path, path.read_text()))
    for path in ROOT.rglob("*.ipynb"):
        if ".venv" in path.parts:
            continue
        cells = json.loads(path.read_text()).get("cells", [])
        code = "\n".join("".join(c["source"]) for c in cells if c.get("cell_type") == "code")
        out.append((path, "\n".join(line for line in code.splitlines()
                                     if not line.startswith(("%", "!")))))
    return out


def test_no_database_driver_outside_the_store_package() -> None:
    offenders = []
    for path, source in _python_sources():
        if SEAM in path.parents or path == Path(__file__):
            continue
        found = _imports(source) & set(BANNED)
        if found:
            offenders.append(f"{path.relative_to(ROOT)}: {sorted(found)}")
    assert offenders == [], "only factstore/store/ may talk to Postgres:\n" + "\n".join(offenders)


def test_the_store_package_does_use_the_driver() -> None:
    # Guards the scan itself: if it stopped finding imports, the test above would pass vacuously.
    found = set()
    for path in SEAM.rglob("*.py"):
        found |= _imports(path.read_text())
    assert {"psycopg", "pgvector"} <= found


def test_scan_detects_a_violation() -> None:
    assert _imports("import psycopg\nfrom pgvector.psycopg import register_vector\n") >= {
        "psycopg", "pgvector"}
    assert "psycopg" not in _imports("from .psycopg import x\n")
