"""The layer contract of docs/architecture.md, checked on the source.

    app.py  ->  web/  ->  batch/  ->  records/  ->  fit/  ->  report/  ->  kit/  ->  sim/  ->  audit/

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
from tests.imports import LAYERS, import_graph, module_files, problems, public_names


def test_the_project_keeps_its_layers() -> None:
    assert problems(ROOT) == []


def test_every_layer_is_found() -> None:
    files = module_files(ROOT)
    assert {name.split(".")[0] for name in files} == set(LAYERS)
    assert {"audit.engine", "audit.schema", "sim.simulate", "kit.check", "report.dispute", "records.store",
            "records.pipeline", "batch.driver", "web.api", "app"} <= set(files)


def _tree(tmp_path: Path, sources: dict[str, str]) -> Path:
    for name, text in sources.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


CLEAN = {"audit/__init__.py": "", "audit/tiles.py": "import json\n", "audit/engine.py": "from audit import tiles\n",
         "audit/api.py": "from audit import engine\n__all__ = [\"x\"]\n",
         "records/__init__.py": "", "records/storage.py": "import sqlite3\nfrom audit.api import x\n",
         "web/__init__.py": "", "web/api.py": "import flask\nfrom records import storage\n",
         "app.py": "from web import api\n"}


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    assert problems(_tree(tmp_path, CLEAN)) == []


def test_the_engine_and_its_tools_stay_off_sqlite_and_flask() -> None:
    """Nothing below records/ touches SQLite; nothing below web/ touches Flask (the batch reads the
    store through records/, never through its own connection)."""
    _, outside = import_graph(ROOT)
    for name, libs in outside.items():
        if name.split(".")[0] in {"audit", "sim", "kit", "report", "fit"}:
            assert not libs & {"sqlite3", "sqlite_utils", "flask"}, name
        if name.split(".")[0] in {"records", "batch"}:
            assert "flask" not in libs, name


def test_every_breach_is_named_not_only_the_first(tmp_path: Path) -> None:
    tree = {**CLEAN, "sim/__init__.py": "", "sim/bots.py": "from records import storage\n",
            "audit/values.py": "from sim import bots\nfrom web import api\n"}
    assert problems(_tree(tmp_path, tree)) == [
        "upward import: audit.values -> sim.bots", "upward import: audit.values -> web.api",
        "upward import: sim.bots -> records.storage"]


def test_an_engine_internal_imported_from_above_is_named(tmp_path: Path) -> None:
    tree = {**CLEAN, "web/views.py": "from audit.engine import x\nfrom audit.tiles import y\nfrom audit.api import x\n"}
    assert problems(_tree(tmp_path, tree)) == ["engine internal: web.views -> audit.engine",
                                               "engine internal: web.views -> audit.tiles"]


@pytest.mark.parametrize(("source", "expected"), [
    ("from audit.api import x, y\n", "engine name not public: web.views -> audit.api.y"),
    ("def f():\n    from audit.api import z as x\n", "engine name not public: web.views -> audit.api.z"),
    ("from audit import api\n", "engine name not public: web.views -> audit.api"),
    ("import audit.api\n", "engine name not public: web.views -> audit.api"),
])
def test_only_the_public_modules_listed_names_are_imported(tmp_path: Path, source: str, expected: str) -> None:
    """Issue 35.3: a public module's contract is its `__all__`; a name outside it, or the module
    imported whole (whose every attribute would then be reachable), is named."""
    assert problems(_tree(tmp_path, {**CLEAN, "web/views.py": source})) == [expected]


def test_the_public_modules_list_what_they_import() -> None:
    """Every public module declares `__all__`, and every name in it is bound there (mypy checks the
    types; this, that the contract names nothing that is not)."""
    import importlib

    for module, names in public_names(ROOT).items():
        assert names, module
        loaded = importlib.import_module(module)
        assert [n for n in sorted(names) if not hasattr(loaded, n)] == [], module


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
