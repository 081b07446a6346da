"""The engine's tests run with the web stack absent (issue 35.3): in a process where importing Flask,
Werkzeug, sqlite-utils or WeasyPrint fails, every test module of the engine, the simulator, the report
model and the conformance kit is collected, and a sample of them passes. A test module (or the
conftest) that reaches for the service again fails here."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT
from tests.deadlines import scaled

BLOCKED = ("flask", "werkzeug", "sqlite_utils", "weasyprint")
ENGINE_TESTS = ("tests/audit", "tests/sim", "tests/report", "tests/kit")
SAMPLE = ("tests/audit/test_cli.py", "tests/audit/test_profiles.py", "tests/report/test_dispute.py",
          "tests/report/test_table.py", "tests/sim/test_simulate.py::test_an_out_that_cannot_be_written_is_an_error_exit_2",
          "tests/kit/test_kit.py::test_check_that_cannot_run_exits_2")
"""One cheap file or test of each folder: the whole of them runs in the suite itself, so this run proves only
that they need nothing of the web stack (the whole of tests/sim/test_simulate.py here cost 47 s of every
`make test`, issue 35.4)."""

RUNNER = """
import importlib.abc, sys
BLOCKED = {blocked!r}
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is not installed here (tests/test_engine_alone.py)")
        return None
sys.meta_path.insert(0, Absent())
import pytest
sys.exit(pytest.main({args!r}))
"""


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    code = RUNNER.format(blocked=BLOCKED, args=["-p", "no:cacheprovider", "-p", "no:xdist", "-q", *args])
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=scaled(900))


def test_the_engines_tests_are_collected_without_the_web_stack() -> None:
    found = _run(["--collect-only", *ENGINE_TESTS])
    assert found.returncode == 0, found.stdout[-3000:] + found.stderr[-2000:]  # a collection error is 2
    counts = {line.split(":")[0]: int(line.rsplit(":", 1)[1]) for line in found.stdout.splitlines()
              if line.startswith("tests/") and line.rsplit(":", 1)[-1].strip().isdigit()}
    assert all(any(path.startswith(folder) for path in counts) for folder in ENGINE_TESTS), sorted(counts)
    assert sum(counts.values()) > 1500, sum(counts.values())


def test_a_sample_of_them_passes_without_the_web_stack() -> None:
    ran = _run(["-x", *SAMPLE])
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]


def test_the_blocker_blocks() -> None:
    code = RUNNER.split("import pytest")[0].format(blocked=BLOCKED) + "\nimport flask\n"
    failed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=scaled(60))
    assert failed.returncode != 0 and "not installed here" in failed.stderr
