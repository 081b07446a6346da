"""`python -m fit`: files in, the fit printed, the profile written; exit codes; bad input."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from audit.catalogue import finding_message
from fit.cli import run
from audit.profiles import Profile, build, list_profiles, load_profile
from sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
PLAYED = {"chicken.charge": 4}


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def hands() -> list[dict[str, Any]]:
    """16 hands of a platform that pays 4 for a 冲锋鸡 and says it plays plain weile."""
    out = []
    for gen in simulate("weile", PLAYED, 16, 31):
        gen.record["rules"] = {"profile": "weile"}
        out.append(gen.record)
    return out


def _jsonl(path: Path, docs: list[Any]) -> Path:
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    return path


def test_a_fit_prints_writes_the_profile_and_exits_0(hands: list[dict[str, Any]], tmp_path: Path) -> None:
    records = _jsonl(tmp_path / "platform.jsonl", hands)
    out = tmp_path / "ours.toml"
    code, text, err = cli(str(records), "--profile", "weile", "--out", str(out))
    assert code == 0 and err == ""
    lines = text.splitlines()
    assert lines[0].startswith("fit of 16/16 records, from weile: clean ") and lines[0].endswith("-> 16 (ours)")
    assert any(line.startswith("  1. chicken.charge (") and " = 4: fixes " in line for line in lines)
    assert lines[-1] == f"profile written to {out}"
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    prof = build(Profile, data)
    assert prof.name == "ours" and prof.chicken.charge == 4
    assert "# fitted: 3 in weile; changes " in out.read_text(encoding="utf-8")
    env = {**os.environ, "ZHUOJI_PROFILE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    audited = subprocess.run([sys.executable, "-m", "audit", "--profile", "ours", str(records)], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=False)
    assert audited.returncode == 0, audited.stdout + audited.stderr  # every record clean under the written profile


def test_json_output_and_a_folder_of_files(hands: list[dict[str, Any]], tmp_path: Path) -> None:
    for i, doc in enumerate(hands[:6]):
        (tmp_path / f"{i}.json").write_text(json.dumps(doc), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    code, text, _ = cli(str(tmp_path), "--json")
    doc = json.loads(text)
    assert code in (0, 1) and doc["records"] == 6 and doc["base"] == "weile" and doc["profile"] == "weile_fit"
    assert all(u["source"] in {str(tmp_path / f"{i}.json") for i in range(6)} for u in doc["unexplained"])
    assert set(doc) >= {"options", "fitted", "clean", "steps", "evidence", "unexplained", "invalid", "search"}


def test_a_mistake_is_listed_and_exits_1(hands: list[dict[str, Any]], tmp_path: Path) -> None:
    wrong = json.loads(json.dumps(hands[3]))
    wrong["result"]["scores"][0] += 1
    wrong["result"]["scores"][1] -= 1
    records = _jsonl(tmp_path / "p.jsonl", [*hands[:3], wrong, *hands[4:]])
    code, text, _ = cli(str(records), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["options"] == PLAYED
    [u] = doc["unexplained"]
    assert u["source"] == f"{records} line 4" and u["verdict"] == "missettled"
    assert {f["rule"] for f in u["findings"]} == {"R15.1"}


def test_chinese_lines(hands: list[dict[str, Any]], tmp_path: Path) -> None:
    code, text, _ = cli(str(_jsonl(tmp_path / "p.jsonl", hands)), "--lang", "zh")
    assert code == 0
    assert text.startswith("拟合 16/16 局, 基于 weile: 无误 ")
    assert "冲锋鸡" in text and "纠正" in text


def test_a_record_the_schema_refuses_is_listed(hands: list[dict[str, Any]], tmp_path: Path) -> None:
    bad = {k: v for k, v in hands[0].items() if k != "wall"}
    code, text, _ = cli(str(_jsonl(tmp_path / "p.jsonl", [bad, *hands[1:4]])), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["usable"] == 3
    [u] = doc["invalid"]
    assert u["verdict"] == "invalid" and u["findings"][0]["params"]["path"] == "wall"


@pytest.mark.parametrize(("text", "where"), [
    ('{"format": "zhuoji/1",\n', "line 2: malformed JSON: Expecting property name enclosed in double quotes (column 23)"),
    ('{"a": NaN}\n', "line 2: a: NaN is not valid JSON"),
    ('{"a": {"b": 1, "b": 2}}\n', "line 2: a: key 'b' appears twice"),
    ('{"a": [1, 1e400]}\n', "line 2: a[1]: 1e400 is outside the range"),
])
def test_text_that_is_not_json_is_exit_2_naming_the_line_and_path(hands: list[dict[str, Any]], tmp_path: Path,
                                                                    text: str, where: str) -> None:
    records = tmp_path / "p.jsonl"
    records.write_text(json.dumps(hands[0]) + "\n" + text, encoding="utf-8")
    out = tmp_path / "never.toml"
    code, printed, err = cli(str(records), "--out", str(out))
    assert code == 2 and printed == "" and not out.exists()
    assert err.startswith(f"error: {records} {where}"), err


def test_a_whole_file_that_is_not_json(tmp_path: Path) -> None:
    bad = tmp_path / "r.json"
    bad.write_text('{"deal": [1, 2,', encoding="utf-8")
    code, _, err = cli(str(bad))
    assert code == 2 and err.startswith(f"error: {bad}: malformed JSON") and err.endswith("(line 1, column 16)\n")


@pytest.mark.parametrize(("args", "says"), [
    (["--profile", "nosuch"], None),
    (["--lang", "fr"], "--lang must be one of"),
    (["--min-gain", "0"], "--min-gain must be 1 or more"),
    (["--out", "x.toml", "--name", "y"], "--name 'y': a profile file is named after its profile"),
    (["--name", "a b"], "'a b' is not a profile name"),
    (["--profile", "a" * 300], "--profile: 'aaaa"),  # once: a traceback, "File name too long"
    (["--name=-x"], "--name: '-x' is not a profile name"),
    (["--name", "x" * 65], "is not a profile name"),
    (["--out", "y" * 300 + ".toml"], "--out: 'yyyy"),  # refused before the file is written
])
def test_bad_arguments_are_exit_2(hands: list[dict[str, Any]], tmp_path: Path, args: list[str], says: str | None) -> None:
    records = _jsonl(tmp_path / "p.jsonl", hands[:2])
    code, printed, err = cli(str(records), *args)
    if says is None:
        says = finding_message("unknown_profile", {"path": "rules.profile", "name": "'nosuch'",
                                                   "known": list_profiles()},
                               None, "en")
    assert code == 2 and printed == "" and says in err, err


def test_missing_or_empty_input_is_exit_2(tmp_path: Path) -> None:
    code, _, err = cli(str(tmp_path / "absent.jsonl"))
    assert code == 2 and "cannot read" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    code, _, err = cli(str(empty))
    assert code == 2 and err == f"error: no record in {empty}\n"


def test_python_dash_m_runs_the_command(hands: list[dict[str, Any]], tmp_path: Path) -> None:
    records = _jsonl(tmp_path / "p.jsonl", hands[:3])
    done = subprocess.run([sys.executable, "-m", "fit.cli", str(records), "--json"], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["records"] == 3
    assert load_profile("weile").name == "weile"
