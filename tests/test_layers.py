"""The layer contract of docs/architecture.md, checked on the source.

    app.py  ->  web/  ->  records/  ->  audit/

Each layer imports only the layers below it (and the standard library and its
own third-party tools); no package imports a higher one, and no two modules
import each other, directly or round a loop, wherever the import stands
(a late import inside a function counts: it only hides a cycle). The engine
and the storage layer keep away from the libraries of the layers above them.
The graph and the checks are tests/imports.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.imports import COMPOSITION_ROOTS, LAYERS, import_graph, module_files, problems


def test_the_project_keeps_its_layers() -> None:
    assert problems(ROOT) == []


def test_every_layer_is_found() -> None:
    files = module_files(ROOT)
    assert {name.split(".")[0] for name in files} == set(LAYERS)
    assert {"audit.engine", "audit.schema", "records.storage", "records.pipeline", "web.api", "app"} <= set(files)


def _tree(tmp_path: Path, sources: dict[str, str]) -> Path:
    for name, text in sources.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


CLEAN = {"audit/__init__.py": "", "audit/tiles.py": "import json\n", "audit/engine.py": "from audit import tiles\n",
         "records/__init__.py": "", "records/storage.py": "import sqlite3\nfrom audit.engine import x\n",
         "web/__init__.py": "", "web/api.py": "import flask\nfrom records import storage\n",
         "app.py": "from web import api\n"}


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    assert problems(_tree(tmp_path, CLEAN)) == []


def test_the_batch_command_is_the_only_composition_root_below_app() -> None:
    """`python -m audit.batch --from-db` needs the store: its `__main__` (an entry point, like
    app.py) may import records.batch_source and nothing else above its layer; the library code
    of audit/batch stays pure (its modules import no records and no SQLite)."""
    edges, outside = import_graph(ROOT)
    assert COMPOSITION_ROOTS == {"audit.batch.__main__": frozenset({"records.batch_source"})}
    assert {b for b in edges["audit.batch.__main__"] if not b.startswith("audit.")} == {"records.batch_source"}
    for name, targets in edges.items():
        if name.startswith("audit.batch.") and name != "audit.batch.__main__":
            assert all(t.startswith("audit.") for t in targets), name
            assert not outside[name] & {"sqlite3", "sqlite_utils"}, name


def test_a_composition_root_reaching_further_or_imported_is_named(tmp_path: Path) -> None:
    tree = {**CLEAN, "audit/batch/__init__.py": "", "records/batch_source.py": "from audit import tiles\n",
            "audit/batch/__main__.py": "from records import batch_source\nfrom records import storage\n"}
    assert problems(_tree(tmp_path, tree)) == ["upward import: audit.batch.__main__ -> records.storage"]
    tree["audit/engine.py"] = "from audit import tiles\nfrom audit.batch import __main__\n"
    assert "import of an entry point: audit.engine -> audit.batch.__main__" in problems(_tree(tmp_path, tree))


@pytest.mark.parametrize(("change", "expected"), [
    ({"audit/tiles.py": "from records.storage import Store\n"}, "upward import: audit.tiles -> records.storage"),
    ({"records/storage.py": "def f():\n    from web import api\n"}, "upward import: records.storage -> web.api"),
    ({"audit/engine.py": "from audit import tiles\nimport sqlite3\n"}, "forbidden library: audit.engine -> sqlite3"),
    ({"records/storage.py": "from flask import g\n"}, "forbidden library: records.storage -> flask"),
    ({"audit/tiles.py": "def f():\n    from audit.engine import run\n"},
     "import cycle: audit.engine <-> audit.tiles"),
    ({"audit/tiles.py": "from . import engine\n"}, "import cycle: audit.engine <-> audit.tiles"),
])
def test_each_breach_is_named(tmp_path: Path, change: dict[str, str], expected: str) -> None:
    assert expected in problems(_tree(tmp_path, {**CLEAN, **change}))
