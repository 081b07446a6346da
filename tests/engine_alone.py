"""Run pytest with the web stack absent: importing Flask, Werkzeug, sqlite-utils or WeasyPrint fails
in this process, as on a machine that has only the engine's requirements (issue 35.3).

    .venv/bin/python -m tests.engine_alone                # every test of the engine's folders
    .venv/bin/python -m tests.engine_alone -x tests/audit/test_cli.py

`make test-engine-alone` runs the first; tests/test_engine_alone.py runs collection, a sample and
the modules imported inside tests through the same blocker."""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

BLOCKED = frozenset({"flask", "werkzeug", "sqlite_utils", "weasyprint"})
ENGINE_TESTS = ("tests/audit", "tests/sim", "tests/report", "tests/kit")
"""The engine, the simulator, the report model and the conformance kit: the folders that must not
need the service."""


class Absent(importlib.abc.MetaPathFinder):
    """Refuses every module of the blocked packages, whatever is installed."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] in BLOCKED:
            raise ImportError(f"{fullname} is not installed here (tests/engine_alone.py)")
        return None


def block() -> None:
    """From now on, in this process, the web stack cannot be imported."""
    sys.meta_path.insert(0, Absent())


def main(argv: list[str]) -> int:
    """pytest over `argv` (the engine's folders when empty), one process, the stack blocked."""
    block()
    import pytest

    return int(pytest.main(["-p", "no:cacheprovider", "-p", "no:xdist", "-q", *(argv or ENGINE_TESTS)]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
