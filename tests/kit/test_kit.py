"""The conformance kit (issue 15): build covers and is reproducible; check passes a right client and names
the broken rule of each wrong one; bad input gets line and path, never a traceback."""
from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from kit.build import KitError, build_kit, write_kit
from kit.check import check, load_kit, read_answers
from kit.cli import run
from audit import house_rules
from tests.kit.kit_clients import SETTLEMENT_FAULTS, answer_kit

PROFILE, CASES, SEED, MIN = "weile", 60, 3, 2


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    write_kit(build_kit(PROFILE, {}, cases=CASES, seed=SEED, min_count=MIN), out)
    return out


def _manifest(kit: Path) -> dict:
    return json.loads((kit / "manifest.json").read_text("utf-8"))


def _check(kit: Path, tmp_path: Path, lines: list[str], *extra: str) -> tuple[int, str, dict]:
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(kit), str(answers), "--json", str(tmp_path / "r.json"), *extra], out, err)
    assert err.getvalue() == ""
    return code, out.getvalue(), json.loads((tmp_path / "r.json").read_text("utf-8"))


# ------------------------------------------------------------------ build

def test_the_kit_has_its_files_and_its_size(kit: Path) -> None:
    m = _manifest(kit)
    assert m["format"] == "zhuoji-kit/1" and m["profile"] == PROFILE and m["seed"] == SEED
    assert len(m["cases"]) == CASES
    for case in m["cases"]:
        rec = json.loads((kit / case["file"]).read_text("utf-8"))
        assert "result" not in rec and "extra" not in rec and rec["format"] == "zhuoji/1"
        assert case["kind"] in ("settlement", "rejection")
    assert (kit / "README.md").read_text("utf-8").count("| `R") >= 15
    assert {p.name for p in (kit / "schemas").iterdir()} == {"zhuoji-1.json", "zhuoji-match-1.json"}


def test_every_case_with_the_right_answer_validates_against_the_kits_json_schema(kit: Path) -> None:
    from jsonschema import Draft202012Validator

    lines, _ = answer_kit(kit)
    answers = {a["case"]: a for a in map(json.loads, lines)}
    validator = Draft202012Validator(json.loads((kit / "schemas" / "zhuoji-1.json").read_text("utf-8")))
    for case in _manifest(kit)["cases"]:
        rec = json.loads((kit / case["file"]).read_text("utf-8"))
        assert not validator.is_valid(rec)  # no result: the client adds its own
        ans = answers[case["id"]]
        rec["result"] = ({k: ans[k] for k in ("scores", "next_dealer", "flip", "items")} if case["kind"] == "settlement"
                         else {"scores": [0] * len(rec["seats"]), "next_dealer": 0})
        assert validator.is_valid(rec), case["id"]


def test_every_applicable_item_reaches_its_count_by_the_cases_own_account(kit: Path) -> None:
    m = _manifest(kit)
    tally: dict[str, int] = {}
    for case in m["cases"]:
        names = case["sections"] + case["events"] + [f"p:{p}" for p in case["parameters"]]
        if "mutation" in case:
            names.append(f"reject:{case['mutation']}")
        for name in set(names):
            tally[name] = tally.get(name, 0) + 1
    rows = {r["item"]: r for r in m["coverage"]}
    for item, row in rows.items():
        assert row["cases"] == tally.get(item, 0), item
        assert row["cases"] >= row["required"], item
    assert rows["R8"]["required"] == MIN and rows["乌骨鸡"]["applies"] is False  # weile plays no 8p chicken
    assert rows["热炮 burn=all"]["required"] == MIN and rows["一炮多响"]["cases"] >= MIN


def test_rejection_cases_carry_the_engines_own_finding(kit: Path) -> None:
    from audit.api import audit_record

    for case in _manifest(kit)["cases"]:
        if case["kind"] != "rejection":
            continue
        rec = json.loads((kit / case["file"]).read_text("utf-8"))
        rec["result"] = {"scores": [0] * len(rec["seats"]), "next_dealer": 0, "flip": None}
        found = audit_record(rec)["findings"]
        assert [(f["rule"], f["step"]) for f in found] == [(case["expected"]["rule"], case["expected"]["rejected_at"])]


def test_same_arguments_same_bytes() -> None:
    a = build_kit("cuocuo", {}, cases=40, seed=5, min_count=1)
    b = build_kit("cuocuo", {}, cases=40, seed=5, min_count=1)
    assert a == b  # and another seed is another kit: the module's kit (weile, seed 3) is checked below
    assert json.loads(a["manifest.json"])["seed"] == 5


def test_build_fails_naming_the_item_under_its_count(tmp_path: Path) -> None:
    err = io.StringIO()
    code = run(["build", "--profile", "weile", "--cases", "40", "--min-count", "1", "--max-hands", "25",
                "--out", str(tmp_path / "k")], io.StringIO(), err)
    assert code == 1 and "抢杠" in err.getvalue() and not (tmp_path / "k").exists()
    with pytest.raises(KitError):
        build_kit("weile", {}, cases=40, min_count=1, max_hands=25)


@pytest.mark.parametrize("argv", [["build", "--profile", "nope", "--out", "x"],
                                  ["build", "--profile", "weile", "--cases", "3", "--out", "x"],
                                  ["build", "--profile", "weile", "--option", "chicken.nope=1", "--out", "x"],
                                  ["frobnicate"]])
def test_build_usage_errors_exit_2(argv: list[str]) -> None:
    err = io.StringIO()
    assert run(argv, io.StringIO(), err) == 2 and err.getvalue().startswith("error:")


# ------------------------------------------------------------------ check

def test_build_with_out_naming_a_file_is_refused_before_building(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import kit.build

    def never(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the kit was built before --out was checked")

    monkeypatch.setattr(kit.build, "build_kit", never)
    (tmp_path / "taken").write_bytes(b"someone's file")
    err = io.StringIO()
    assert run(["build", "--profile", "weile", "--out", str(tmp_path / "taken")], io.StringIO(), err) == 2
    assert err.getvalue().startswith("error: --out") and (tmp_path / "taken").read_bytes() == b"someone's file"


def test_the_right_client_passes_every_case(kit: Path, tmp_path: Path) -> None:
    lines, changed = answer_kit(kit)
    assert changed == set()
    code, text, rep = _check(kit, tmp_path, lines, "--junit", str(tmp_path / "j.xml"))
    assert code == 0 and rep["passed"] == rep["total"] == CASES and rep["broken_rules"] == []
    suite = ET.parse(tmp_path / "j.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == str(CASES) and suite.get("failures") == "0"


@pytest.mark.parametrize("fault", sorted(SETTLEMENT_FAULTS))
def test_a_wrong_client_fails_exactly_the_cases_of_its_rule(kit: Path, tmp_path: Path, fault: str) -> None:
    client, rule = SETTLEMENT_FAULTS[fault]
    lines, changed = answer_kit(kit, client)
    assert changed, f"the kit has no case where {fault} matters"
    code, text, rep = _check(kit, tmp_path, lines, "--junit", str(tmp_path / "j.xml"))
    failing = {c["case"] for c in rep["cases"] if not c["passed"]}
    assert code == 1 and failing == changed
    assert rep["broken_rules"][0]["rule"] == rule and rep["broken_rules"][0]["failing_cases"] == len(changed)
    for c in rep["cases"]:
        if not c["passed"]:
            assert rule in c["cited_rules"] and c["findings"] and c["step_report"].startswith("zhuoji-audit")
    assert rule in text
    junit = ET.parse(tmp_path / "j.xml").getroot()
    assert {f.get("type") for f in junit.iter("failure")} and all(rule in (f.get("type") or "")
                                                                  for f in junit.iter("failure"))


def test_a_validator_that_accepts_an_illegal_move_fails_those_cases(kit: Path, tmp_path: Path) -> None:
    lines, changed = answer_kit(kit, accepts="R4.1")
    assert changed
    code, text, rep = _check(kit, tmp_path, lines, "--lang", "zh")
    failing = {c["case"]: c for c in rep["cases"] if not c["passed"]}
    assert code == 1 and set(failing) == changed
    assert rep["broken_rules"] == [{"rule": "R4.1", "failing_cases": len(changed)}]
    m = {c["id"]: c for c in _manifest(kit)["cases"]}
    assert all(m[c]["mutation"] == "pong_without_pair" for c in changed)
    assert all(f["findings"][0]["code"] == m[c]["expected"]["code"] for c, f in failing.items())
    assert "接受了全部行牌" in next(iter(failing.values()))["difference"]


def test_missing_extra_and_malformed_answers_are_named_with_line_and_path(kit: Path, tmp_path: Path) -> None:
    lines, _ = answer_kit(kit)
    settle_line = next(i for i, l in enumerate(lines) if '"scores"' in l)
    bad = json.loads(lines[settle_line])
    bad["scores"][1] = "3"
    lines[settle_line] = json.dumps(bad)
    dropped = json.loads(lines.pop())["case"]
    lines += ['{"case": "s9999", "rejected_at": null}', "{not json", "[1, 2]", '{"rejected_at": 3}']
    code, text, rep = _check(kit, tmp_path, lines)
    assert code == 1
    assert rep["missing"] == [dropped]
    assert rep["extra"] == [f"line {len(lines) - 3}: s9999"]
    assert [e.split(":")[0] for e in rep["malformed_lines"]] == [f"line {len(lines) - 2}", f"line {len(lines) - 1}",
                                                                f"line {len(lines)}"]
    case = next(c for c in rep["cases"] if c["case"] == bad["case"])
    assert case["status"] == "malformed" and f"line {settle_line + 1}: $.scores[1]" in case["difference"]
    assert "Traceback" not in text


@pytest.mark.parametrize("what", ["no kit", "no answers", "bad lang"])
def test_check_that_cannot_run_exits_2(kit: Path, tmp_path: Path, what: str) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("", encoding="utf-8")
    argv = {"no kit": ["check", str(tmp_path), str(answers)], "no answers": ["check", str(kit), str(tmp_path / "x")],
            "bad lang": ["check", str(kit), str(answers), "--lang", "fr"]}[what]
    err = io.StringIO()
    assert run(argv, io.StringIO(), err) == 2 and err.getvalue().startswith("error:")


def test_html_report_names_the_broken_rule_in_chinese(kit: Path, tmp_path: Path) -> None:
    lines, _ = answer_kit(kit, SETTLEMENT_FAULTS["no_responsibility"][0])
    _check(kit, tmp_path, lines, "--lang", "zh", "--html", str(tmp_path / "r.html"))
    page = (tmp_path / "r.html").read_text("utf-8")
    assert "客户端算错的规则" in page and "R11.4" in page


def test_check_in_process_matches_the_cli(kit: Path, tmp_path: Path) -> None:
    lines, _ = answer_kit(kit)
    (tmp_path / "a.jsonl").write_text("\n".join(lines), encoding="utf-8")
    rep = check(load_kit(kit), read_answers(tmp_path / "a.jsonl"))
    assert rep.ok and rep.passed == CASES


@pytest.mark.parametrize(("profile", "item", "applies"), [
    ("senyan", "R5", False), ("weile", "R5", True), ("senyan", "乌骨鸡", True), ("weile", "乌骨鸡", False),
    ("cuocuo", "must-win", True), ("kuhu", "must-win", False), ("cuocuo", "过碰", True), ("weile", "杀报", True),
    ("senyan", "杀报", False), ("senyan", "热炮 burn=that_kong", True), ("cuocuo", "热炮 burn=all+transfer_kong", True),
])
def test_what_applies_is_read_from_the_profile(profile: str, item: str, applies: bool) -> None:
    from kit.build import rejection_classes
    from kit.coverage import requirements
    from audit.profiles import resolve

    prof = resolve(profile, {})
    rows = {r.item: r for r in requirements(prof, rejection_classes(prof))}
    assert rows[item].applies(prof) is applies
    assert ("declare_not_ready" in rejection_classes(prof)) is (prof.declared is not None)


def _section_on(top: str) -> dict[str, Any]:
    """Every house rule of a section (R18, R19) at its value of that section (audit/house_rules.py)."""
    return {h.path: sec.values[0] if sec.values else h.tries[-1] for sec, h in house_rules.SECTIONS
            if sec.rule.startswith(top + ".")}


R18_ON = _section_on("R18")
"""The five R18 conventions (cuocuo has the dealer bonus R18.1 needs)."""
R19_ON = _section_on("R19")
"""The R19 conventions (R19.2 and R19.4 as values of R17.3's and R18.4's parameters)."""


@pytest.mark.parametrize(("profile", "options", "items", "section"), [
    ("weile", {"follow_dealer": 1}, ["p:follow_dealer"], "R17"),
    ("weile", {"chicken": {"claimed_charge": "to_claimer"}}, ["p:chicken.claimed_charge"], "R17"),
    ("weile", {"chicken.wugu_gold": True}, ["p:chicken.wugu_gold"], "R17"),
    ("cuocuo", R18_ON, [f"p:{name}" for name in R18_ON], "R18"),
    ("weile", R19_ON, [f"p:{name}" for name in R19_ON], "R19"),
])
def test_a_house_rule_turned_on_is_covered_by_its_own_cases(profile: str, options: dict, items: list[str],
                                                            section: str) -> None:
    """R17, R18 and R19 parameters apply only where the options turn them on; then the kit needs their section
    and each parameter in at least `min_count` cases, each counted only when its settlement cites the
    rule. (R17.6 acts only under 乌骨鸡: the kit, like the simulator, brings it into play.)"""
    from kit.build import rejection_classes
    from kit.coverage import requirements
    from audit.profiles import resolve

    default = resolve(profile, {})
    rows = {r.item: r for r in requirements(default, rejection_classes(default))}
    assert not rows[section].applies(default) and not any(rows[item].applies(default) for item in items)
    manifest = json.loads(build_kit(profile, options, cases=200, seed=1, min_count=3)["manifest.json"])
    coverage = {row["item"]: row for row in manifest["coverage"]}
    assert coverage[section]["applies"]
    played = resolve(profile, options)
    rules = {f"p:{h.path}": (h.section_of(h.value(played)) or h.sections[0]).rule for h in house_rules.HOUSE_RULES}
    for item in items:
        assert coverage[item]["applies"] and coverage[item]["cases"] >= coverage[item]["required"] == 3, item
        cited = [case for case in manifest["cases"] if item[2:] in case.get("parameters", [])]
        assert len(cited) == coverage[item]["cases"] and all(rules[item] in case["rules"] for case in cited)


# ------------------------------------------------------------------ broken kits (issue 34.4)

def _first(m: dict, kind: str) -> dict:
    return next(c for c in m["cases"] if c["kind"] == kind)


BREAKS: dict[str, tuple[Any, str, dict[str, Any]]] = {
    "not json": (lambda kit, m: (kit / "manifest.json").write_text("{not json", "utf-8"), "kit_manifest_not_json", {}),
    "no manifest": (lambda kit, m: (kit / "manifest.json").unlink(), "kit_no_manifest", {}),
    "not a kit": (lambda kit, m: m.update(format="zhuoji-kit/9"), "kit_manifest_bad", {"field": "format"}),
    "cases not a list": (lambda kit, m: m.update(cases={}), "kit_manifest_bad", {"field": "cases"}),
    "a case without id": (lambda kit, m: m["cases"][1].pop("id"), "kit_manifest_bad", {"field": "cases[1].id"}),
    "a case without expected": (lambda kit, m: _first(m, "settlement").pop("expected"), "kit_case_bad",
                                {"field": "expected"}),
    "a rejection of no known code": (lambda kit, m: _first(m, "rejection")["expected"].update(code="nosuch"),
                                     "kit_case_bad", {"field": "expected.code"}),
    "a case out of the kit": (lambda kit, m: _first(m, "settlement").update(file="../../etc/passwd"), "kit_case_bad",
                              {"field": "file"}),
    "a case twice": (lambda kit, m: m["cases"].append(m["cases"][0]), "kit_case_repeated", {}),
    "a case file missing": (lambda kit, m: (kit / _first(m, "settlement")["file"]).unlink(), "kit_case_file_missing",
                            {}),
    # issue 34.3: the fields the issue names, an id that would name a file outside the failures
    # folder (`FAILURES/../../escaped.json`), a payment between seats the case does not have
    "a case without kind": (lambda kit, m: _first(m, "settlement").pop("kind"), "kit_case_bad", {"field": "kind"}),
    "a case without sections": (lambda kit, m: _first(m, "rejection").pop("sections"), "kit_case_bad",
                                {"field": "sections"}),
    "an id that is a path": (lambda kit, m: _first(m, "settlement").update(id="../../escaped"), "kit_manifest_bad", {}),
    "a payment from no seat": (lambda kit, m: _first(m, "settlement")["expected"]["items"][0].update({"from": 9}),
                               "kit_case_bad", {"field": "expected.items"}),
}


@pytest.mark.parametrize("how", list(BREAKS))
def test_a_broken_kit_is_named_by_its_problem_never_a_traceback(kit: Path, tmp_path: Path, how: str) -> None:
    import shutil

    from kit.check import KIT_PROBLEMS, CheckError

    broken = tmp_path / "broken"
    shutil.copytree(kit, broken)
    m = _manifest(broken)
    change, code, params = BREAKS[how]
    change(broken, m)
    if (broken / "manifest.json").is_file() and how != "not json":
        (broken / "manifest.json").write_text(json.dumps(m), "utf-8")
    with pytest.raises(CheckError) as excinfo:
        load_kit(broken)
    assert excinfo.value.code == code and code in KIT_PROBLEMS
    assert params.items() <= excinfo.value.params.items()
    assert str(broken.parent) not in json.dumps(excinfo.value.params)  # no path of the machine in what is shown
    err = io.StringIO()
    answers = tmp_path / "a.jsonl"
    answers.write_text("", encoding="utf-8")
    assert run(["check", str(broken), str(answers)], io.StringIO(), err) == 2 and err.getvalue().startswith("error:")


def test_a_case_file_that_is_no_record_stops_the_check_naming_it(kit: Path, tmp_path: Path) -> None:
    import shutil

    from kit.check import CheckError

    broken = tmp_path / "broken"
    shutil.copytree(kit, broken)
    for case in (broken / "cases").glob("*.json"):
        case.write_text("[1, 2", "utf-8")
    loaded = load_kit(broken)  # the manifest is sound; a case file is read when its case fails
    lines, _ = answer_kit(kit, SETTLEMENT_FAULTS["no_responsibility"][0])
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CheckError) as excinfo:
        check(loaded, read_answers(answers))
    assert excinfo.value.code == "kit_case_file_bad" and excinfo.value.params["file"].startswith("cases/")
