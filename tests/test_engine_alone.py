"""The engine's tests run with the web stack absent (issue 35.3): in a process where importing Flask,
Werkzeug, sqlite-utils or WeasyPrint fails (`tests/engine_alone.py`), every test module of the
engine, the simulator, the report model and the conformance kit is collected, every module those
tests import inside a function imports too, and a sample of them passes. A test module (or the
conftest) that reaches for the service again, at its top or inside a test, fails here. All of them
pass so with `make test-engine-alone` (2,402 tests, 96 s on one core, 2026-12-05: not repeated in `make test`,
which runs every one of them with the stack present)."""
from __future__ import annotations

import ast
import subprocess
import sys

from tests.conftest import ROOT
from tests.deadlines import scaled
from tests.engine_alone import ENGINE_TESTS

SAMPLE = ("tests/audit/test_cli.py", "tests/audit/test_profiles.py", "tests/report/test_dispute.py",
          "tests/report/test_table.py", "tests/sim/test_simulate.py::test_an_out_that_cannot_be_written_is_an_error_exit_2",
          "tests/kit/test_kit.py::test_check_that_cannot_run_exits_2")
"""One cheap file or test of each folder: the whole of them runs in the suite itself, so this run proves only
that they need nothing of the web stack (the whole of tests/sim/test_simulate.py here cost 47 s of every
`make test`, issue 35.4)."""


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.engine_alone", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=scaled(900))


def _blocked_python(code: str) -> subprocess.CompletedProcess[str]:
    prelude = "from tests.engine_alone import block\nblock()\n"
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=scaled(120))


def imported_inside_functions() -> set[str]:
    """The modules the engine's tests import inside a function or a test: collection imports only a
    module's top, so these are the ones a test reaches for only when it runs."""
    names: set[str] = set()
    for folder in ENGINE_TESTS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            top = {id(node) for node in tree.body}
            for node in ast.walk(tree):
                if isinstance(node, ast.Import) and id(node) not in top:
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and id(node) not in top and node.level == 0 and node.module:
                    names.add(node.module)
    return names


def test_the_engines_tests_are_collected_without_the_web_stack() -> None:
    found = _run(["--collect-only", *ENGINE_TESTS])
    assert found.returncode == 0, found.stdout[-3000:] + found.stderr[-2000:]  # a collection error is 2
    counts = {line.split(":")[0]: int(line.rsplit(":", 1)[1]) for line in found.stdout.splitlines()
              if line.startswith("tests/") and line.rsplit(":", 1)[-1].strip().isdigit()}
    assert all(any(path.startswith(folder) for path in counts) for folder in ENGINE_TESTS), sorted(counts)
    assert sum(counts.values()) > 1500, sum(counts.values())


def test_what_they_import_inside_a_test_imports_without_the_web_stack() -> None:
    names = sorted(imported_inside_functions())
    assert {"audit.api", "sim.mutate", "kit.build"} <= set(names)  # the walk sees imports inside tests
    ran = _blocked_python(f"import importlib\nfor name in {names!r}:\n    importlib.import_module(name)\n")
    assert ran.returncode == 0, ran.stderr[-2000:]


def test_a_sample_of_them_passes_without_the_web_stack() -> None:
    ran = _run(["-x", *SAMPLE])
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]


def test_the_blocker_blocks() -> None:
    failed = _blocked_python("import flask\n")
    assert failed.returncode != 0 and "not installed here" in failed.stderr
    lazily = _blocked_python("import importlib\nimportlib.import_module('web.i18n')\n")
    assert lazily.returncode != 0 and "not installed here" in lazily.stderr
