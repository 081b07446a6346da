"""The project's import graph, read from the source with `ast` (tests/test_layers.py states the
contract on it; other structure tests ask it questions).

Every import counts, wherever it stands: a late import inside a function only hides
a dependency. `from pkg import name` is an import of `pkg.name` when that is a module.
Nothing is imported or installed to build it, so it sees imports no test executes.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

LAYERS = ("audit", "sim", "kit", "report", "fit", "records", "batch", "web", "app")
"""Bottom first: a module may import its own layer and those before it. The engine (audit/) at the
bottom; the tools above it (sim/: simulator, bots, mutator; kit/: the conformance kit, which plays
sim's games; report/: the dispute summary and charts; fit/: a platform's own profile found from
its records); the service's store (records/, whose
conformance runs use kit/); the batch (batch/, which reads files or the store); the web service
(web/); app.py, which wires it."""
_ENGINE_ONLY = frozenset({"flask", "werkzeug", "jinja2", "weasyprint", "sqlite3", "sqlite_utils", "marshmallow_sqlalchemy"})
FORBIDDEN: dict[str, frozenset[str]] = {
    "audit": _ENGINE_ONLY, "sim": _ENGINE_ONLY, "kit": _ENGINE_ONLY, "report": _ENGINE_ONLY, "fit": _ENGINE_ONLY,
    "records": frozenset({"flask", "jinja2", "weasyprint"}),
    "batch": frozenset({"flask", "jinja2", "weasyprint"}),
}
"""Third-party or stdlib packages a layer must not use: no Flask, no SQLite in the engine and the
tools above it, no Flask in storage or the batch."""


ENGINE_PUBLIC: frozenset[str] = frozenset({
    "audit.api",         # audit and trace a record or a match; profiles and what-if options; the format's reader
    "audit.play",        # the table, one replay step, the judge, the settlement, the house-rule registry (sim/, kit/, fit/)
    "audit.vocabulary",  # kinds, tiles, languages, finding and rule texts, numbers as text, views and SVG drawings
    "audit.cli",         # what every command shares with `python -m audit`: exit codes, usage errors, arguments
})
"""The engine's public face: the modules a package above `audit/` may import, and from each only the
names of its `__all__` (the contract; `public_names`). Every other engine module (state, replay,
settle, compare, profiles, catalogue, ...) is internal and reached through these four, so a
successor may rearrange it without touching the tools. The same four serve every layer above the
engine, the store, the batch and the web included (docs/decisions.md 35.3d)."""


def public_names(root: Path) -> dict[str, frozenset[str]]:
    """Each public module's `__all__`, read from its source (a literal list of strings)."""
    out: dict[str, frozenset[str]] = {}
    for module in ENGINE_PUBLIC:
        path = root.joinpath(*module.split(".")).with_suffix(".py")
        names: frozenset[str] = frozenset()
        if path.is_file():
            for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
                if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
                        and isinstance(node.value, (ast.List, ast.Tuple))):
                    names = frozenset(e.value for e in node.value.elts
                                      if isinstance(e, ast.Constant) and isinstance(e.value, str))
        out[module] = names
    return out


def unlisted_names(root: Path) -> list[str]:
    """`a -> audit.x.name` for every name a module above the engine imports from a public module
    that is not in its `__all__`, and `a -> audit.x` for a public module imported whole (its
    names, not the module, are the contract)."""
    listed = public_names(root)
    out: list[str] = []
    for name, path in module_files(root).items():
        if name.split(".")[0] in ("audit", "tests"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module in listed:
                out += [f"{name} -> {node.module}.{a.name}" for a in node.names if a.name not in listed[node.module]]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module == "audit":
                out += [f"{name} -> audit.{a.name}" for a in node.names if f"audit.{a.name}" in listed]
            elif isinstance(node, ast.Import):
                out += [f"{name} -> {a.name}" for a in node.names if a.name in listed]
    return sorted(out)


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the layers under `root`."""
    out: dict[str, Path] = {}
    for layer in LAYERS:
        single = root / f"{layer}.py"
        if single.is_file():
            out[layer] = single
        for path in sorted((root / layer).rglob("*.py")) if (root / layer).is_dir() else ():
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imported_names(path: Path, module: str, modules: set[str] | dict[str, Path]) -> Iterator[str]:
    """Every dotted name `path` imports, anywhere in the file (relative imports resolved).
    `from pkg import name` names `pkg.name` when that is a module of `modules`, else `pkg`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base


def import_graph(root: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between the project's modules, outside top-level packages each module imports)."""
    files = module_files(root)
    edges: dict[str, set[str]] = {name: set() for name in files}
    outside: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        for target in imported_names(path, name, files):
            if target in files:
                if target != name:
                    edges[name].add(target)
            elif target.split(".")[0] not in LAYERS:
                outside[name].add(target.split(".")[0])
    return edges, outside


def layer_of(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """`a -> b` for every import of a higher layer."""
    return sorted(f"{a} -> {b}" for a, targets in edges.items() for b in targets
                  if layer_of(b) > layer_of(a))


def internal_imports(edges: dict[str, set[str]]) -> list[str]:
    """`a -> audit.x` for every import of an engine module outside ENGINE_PUBLIC from above the engine."""
    return sorted(f"{a} -> {b}" for a, targets in edges.items() if a.split(".")[0] not in ("audit", "tests")
                  for b in targets if b.split(".")[0] == "audit" and b != "audit" and b not in ENGINE_PUBLIC)


def forbidden_imports(outside: dict[str, set[str]]) -> list[str]:
    """`module -> library` for every library its layer must not use."""
    return sorted(f"{name} -> {lib}" for name, libs in outside.items()
                  for lib in libs & FORBIDDEN.get(name.split(".")[0], frozenset()))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def problems(root: Path) -> list[str]:
    """Every breach of the contract under `root`, one line each."""
    edges, outside = import_graph(root)
    return ([f"upward import: {line}" for line in upward_imports(edges)]
            + [f"engine internal: {line}" for line in internal_imports(edges)]
            + [f"engine name not public: {line}" for line in unlisted_names(root)]
            + [f"forbidden library: {line}" for line in forbidden_imports(outside)]
            + [f"import cycle: {' <-> '.join(group)}" for group in cycles(edges)])
