"""The engine's wheel (`make dist`, issue 15): built from the checkout, installed into a fresh virtualenv
(no system site-packages, no checkout on the path), where `zhuoji-kit` builds and checks a kit and
`zhuoji-audit` audits a record, reading profiles, catalogues, schemas and the rulebook as package data."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.deadlines import scaled
from tests.kit.kit_clients import answer_kit

ROOT = Path(__file__).resolve().parents[2]


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=scaled(600), check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtualenv with the wheel and its declared dependencies installed."""
    work = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, str(ROOT / "scripts" / "build_dist.py"), str(work / "dist")], work)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheel = next((work / "dist").glob("zhuoji_audit-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "audit/rulebook.md" in names and "audit/profiles/weile.toml" in names
    # the batch's worker imports report/ and records.ingest; the service (web/) and tests stay out
    assert "report/charts.py" in names and "records/ingest.py" in names
    assert not any(n.startswith(("web/", "tests/")) for n in names)
    # No pip of its own (seeding one costs more than the rest of the set-up): this process's pip
    # installs into it (`--python`), the wheel and its declared dependencies as a user's pip would.
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")], work)
    assert made.returncode == 0, made.stderr
    pip = _run([sys.executable, "-m", "pip", "--python", str(work / "venv" / "bin" / "python"), "install", "-q",
                str(wheel)], work)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-2000:]
    return work / "venv" / "bin"


def test_the_installed_engine_runs_outside_the_checkout(installed: Path, tmp_path: Path) -> None:
    where = _run([str(installed / "python"), "-c", "import audit, marshmallow, orjson; from audit.rulebook import rules; "
                  "print(audit.__file__); print(len(rules()))"], tmp_path)
    assert where.returncode == 0, where.stderr
    path, count = where.stdout.split()
    assert str(installed.parent) in path and not path.startswith(str(ROOT)) and int(count) > 50
    example = ROOT / "spec" / "examples" / "hot-shot-weile.json"
    audited = _run([str(installed / "zhuoji-audit"), "--json", str(example)], tmp_path)
    from audit.api import audit_document

    here = audit_document(json.loads(example.read_text("utf-8")))
    assert audited.returncode == (0 if here[0]["verdict"] == "clean" else 1), audited.stderr
    assert json.loads(audited.stdout) in (here, here[0])


def test_zhuoji_kit_builds_and_checks_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    kit = tmp_path / "kit"
    built = _run([str(installed / "zhuoji-kit"), "build", "--profile", "cuocuo", "--cases", "40", "--min-count", "1",
                  "--seed", "5", "--out", str(kit)], tmp_path)
    assert built.returncode == 0, built.stderr
    lines, _ = answer_kit(kit)
    (tmp_path / "answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    checked = _run([str(installed / "zhuoji-kit"), "check", str(kit), "answers.jsonl", "--junit", "junit.xml",
                    "--lang", "zh"], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "40" in checked.stdout and (tmp_path / "junit.xml").is_file()
    wrong = [json.dumps({**json.loads(line), "next_dealer": 0}) if '"scores"' in line else line for line in lines]
    (tmp_path / "wrong.jsonl").write_text("\n".join(wrong) + "\n", encoding="utf-8")
    failed = _run([str(installed / "zhuoji-kit"), "check", str(kit), "wrong.jsonl"], tmp_path)
    assert failed.returncode == 1 and "R14" in failed.stdout


def test_the_installed_wheel_carries_what_a_batch_worker_imports(installed: Path, tmp_path: Path) -> None:
    """A Dask worker runs batch.work and batch.inputs, which import report.charts and records.ingest:
    the wheel carries them (issue 24, point 4; the preflight stopped with "No module named 'report'")."""
    found = _run([str(installed / "python"), "-c", "import report.charts, records.ingest, importlib.util; "
                  "print(records.ingest.__file__, importlib.util.find_spec('batch.work').origin)"], tmp_path)
    assert found.returncode == 0, found.stderr  # (batch.work itself needs the [batch] extra: pyarrow)
    assert not any(p.startswith(str(ROOT)) for p in found.stdout.split())
