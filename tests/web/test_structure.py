"""The web package's own structure: no blueprint imports another (what several share lives in
modules that are not blueprints: web.views, web.upload_request, web.report_model, web.drawings, ...).
Cycles and layers of the whole tree are tests/test_layers.py."""
from __future__ import annotations

from tests.conftest import ROOT
from tests.imports import import_graph, module_files


def test_blueprints_never_import_each_other() -> None:
    files = module_files(ROOT)
    graph, _ = import_graph(ROOT)
    blueprints = {name for name, path in files.items()
                  if name.startswith("web") and "Blueprint(" in path.read_text(encoding="utf-8")}
    assert {"web.api", "web.pages", "web.report", "web.login"} <= blueprints
    assert {(name, target) for name in blueprints for target in graph[name] & blueprints} == set()
