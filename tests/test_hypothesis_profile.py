"""The property tests are derandomized in CI and explore locally (issue 35.4)."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, hypothesis_profile


def test_ci_runs_draw_fixed_examples() -> None:
    assert hypothesis_profile({"CI": "1"}) == hypothesis_profile({"CI": "true"}) == "ci"
    assert hypothesis_profile({}) == hypothesis_profile({"CI": "0"}) == hypothesis_profile({"CI": ""}) == "project"
    assert "export CI=1" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_ci_profile_is_the_one_loaded_under_ci() -> None:
    probe = ("import tests.conftest\nfrom hypothesis import settings\n"
             "print(settings.default.derandomize, settings.default.database)")
    found = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={"CI": "1", "PATH": ""},
                           capture_output=True, text=True, check=True).stdout.split()
    assert found == ["True", "None"]
