"""The whole application type-checks (`[tool.mypy]` in pyproject.toml).

mypyc compiles the engine from these annotations (docs/performance.md), so a
wrong hint is not only a documentation bug: it becomes a run-time TypeError in
the compiled build. The web layer is checked too, so hints stay true everywhere.
"""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT
from tests.deadlines import scaled


def test_mypy_finds_nothing() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                         text=True, timeout=scaled(600))
    assert out.returncode == 0, out.stdout + out.stderr
