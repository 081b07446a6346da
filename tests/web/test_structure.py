"""The web package's own structure: no import cycle among its modules (imports at the top and
inside functions alike), and no blueprint imports another (what several share lives in modules
that are not blueprints: web.views, web.upload_request, web.report_model, web.drawings, ...)."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

WEB = ROOT / "web"


def module_name(path: Path) -> str:
    """web/pdf/forms.py -> web.pdf.forms; web/__init__.py -> web."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in WEB.rglob("*.py")}


def imports(path: Path) -> set[str]:
    """The web modules a file imports anywhere in it; `from web import api` imports web.api."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(subs if len(subs) == len(node.names) else {node.module} | subs)
    return found & MODULES.keys()


GRAPH = {name: imports(path) - {name} for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import cycle once, as the path that closes it (depth-first)."""
    found: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        for target in sorted(graph[name]):
            if target in path:
                found.append(path[path.index(target):] + [target])
            elif target not in done:
                visit(target, path + [target])
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    return found


def test_no_import_cycle_among_web_modules() -> None:
    assert cycles(GRAPH) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]


def test_blueprints_never_import_each_other() -> None:
    blueprints = {name for name, path in MODULES.items() if "Blueprint(" in path.read_text(encoding="utf-8")}
    assert {"web.api", "web.pages", "web.report", "web.login"} <= blueprints
    assert {(name, target) for name in blueprints for target in GRAPH[name] & blueprints} == set()
