"""The walk of one request through the project's modules, and how often it goes back (issue 35.1).

A profiler hook (`sys.setprofile`) sees every Python function call while a block runs; each call
of a function defined in a project file (`PACKAGES`, `app.py`) enters that file's module, and a
call of anything else (the standard library, Flask, sqlite-utils, a template) is not looked at.
The walk is the sequence of modules entered, a module named again only after control went to
another one; a *return* is an entry of a module the walk had already visited and left.

The engine is one step of the walk: once a call enters `audit/` (from outside it), nothing is
looked at until that call is over, so the walk names the engine's module that was called
(`audit.api`, `audit.schema`, ...) and not the replay inside it, which is the engine's own
business and is the same whatever the service around it does.

Two scopes (tests/web/test_upload_walk.py prints both for one upload, docs/decisions.md 35.1a):
`trace()` around `client.post(...)` walks the whole request, the hooks every request runs (the
guard, the language, the access log, the session cookie, the teardown) included; `traced_view`
walks only the route's handler, which is the upload itself and what issue 35.1 counts.

    from tests.trace_walk import trace, traced_view
    with trace() as whole, traced_view(app, "api.upload") as view:
        client.post("/api/records", data=body, content_type="application/json")
    print(view.describe())
"""
from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "audit", "batch", "fit", "kit", "records", "report", "sim", "web")
"""The project's packages (and `app.py`), as tests/imports.py knows them."""
Event = Literal["call", "return", "c_call", "c_return", "c_exception"]
"""What a profiler hook is told (`sys.setprofile`)."""
ENGINE = "audit"
"""The package traced as one step: its entry module is named, what it calls inside is not followed."""


def module_of(filename: str) -> str | None:
    """The dotted name of the project module a source file is, or None for any other file."""
    try:
        parts = Path(filename).resolve().relative_to(ROOT).with_suffix("").parts
    except ValueError:
        return None
    if not parts or parts[0] not in PACKAGES or Path(filename).suffix != ".py":
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@dataclass
class Walk:
    """The modules one traced block entered, in order (none twice in a row)."""

    modules: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    """The function through which each module of `modules` was entered (`module:function`)."""

    def enter(self, module: str, function: str = "") -> None:
        """Control is in `module` now, through `function`."""
        if not self.modules or self.modules[-1] != module:
            self.modules.append(module)
            self.functions.append(f"{module}:{function}")

    @property
    def visited(self) -> list[str]:
        """Every module of the walk once, in the order first entered."""
        return list(dict.fromkeys(self.modules))

    @property
    def returns(self) -> int:
        """How many times the walk entered a module it had visited and left before."""
        return len(self.modules) - len(self.visited)

    def returns_to(self) -> dict[str, int]:
        """Per module, how many times the walk came back to it (only those it came back to)."""
        counts: dict[str, int] = {}
        seen: set[str] = set()
        for module in self.modules:
            if module in seen:
                counts[module] = counts.get(module, 0) + 1
            seen.add(module)
        return counts

    def describe(self) -> str:
        """The walk as text: the count, the modules in order, and where it came back to."""
        again = ", ".join(f"{module} {count}" for module, count in sorted(self.returns_to().items(),
                                                                          key=lambda pair: (-pair[1], pair[0])))
        return (f"{len(self.visited)} modules, {self.returns} returns\n"
                f"walk: {' -> '.join(self.modules)}\n"
                f"returns to: {again or 'none'}")


@contextmanager
def trace() -> Iterator[Walk]:
    """Record the walk of the block's calls in this thread (the Flask test client runs the
    request in the caller's thread). A profiler hook already set (an outer `trace`) still sees
    every event, and is put back at the end."""
    walk = Walk()
    names: dict[CodeType, str | None] = {}
    inside: list[FrameType] = []  # the frame that entered the engine, while the engine runs

    previous = sys.getprofile()

    def hook(frame: FrameType, event: Event, arg: Any) -> None:
        if previous is not None:  # an outer walk goes on (the whole request around a traced view)
            previous(frame, event, arg)
        if inside:
            if event == "return" and frame is inside[0]:
                inside.clear()
            return
        if event != "call":
            return
        code = frame.f_code
        if code not in names:
            names[code] = module_of(code.co_filename)
        module = names[code]
        if module is None:
            return
        walk.enter(module, code.co_qualname)
        if module.partition(".")[0] == ENGINE:
            inside.append(frame)

    thread = threading.current_thread()
    sys.setprofile(hook)
    try:
        yield walk
    finally:
        sys.setprofile(previous)
        assert threading.current_thread() is thread


@contextmanager
def traced_view(app: Any, endpoint: str) -> Iterator[Walk]:
    """Trace the handler of `endpoint` (its decorators included) each time the block calls it;
    one walk, the calls' walks joined. The handler is put back at the end."""
    walk = Walk()
    view = app.view_functions[endpoint]

    @functools.wraps(view)  # keeps what decorators set on the handler (the roles `web.auth` checks)
    def handler(*args: Any, **kwargs: Any) -> Any:
        with trace() as one:
            answer = view(*args, **kwargs)
        for module, function in zip(one.modules, one.functions):
            walk.enter(module, function.partition(":")[2])
        return answer

    app.view_functions[endpoint] = handler
    try:
        yield walk
    finally:
        app.view_functions[endpoint] = view


__all__ = ["ENGINE", "PACKAGES", "Walk", "module_of", "trace", "traced_view"]
