"""`python -m audit`: output shapes and exit codes (record-format.md)."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from audit.cli import run

EX = Path(__file__).resolve().parents[2] / "spec" / "examples"


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def test_one_clean_file_prints_one_object() -> None:
    code, out, _ = cli("--json", str(EX / "hot-shot-weile.json"))
    assert code == 0
    doc = json.loads(out)
    assert doc["verdict"] == "clean" and doc["settlement"]["scores"] == [-5, 3, 5, -3]


def test_several_files_print_an_array_and_exit_1_on_findings() -> None:
    code, out, _ = cli("--json", "--profile", "cuocuo", str(EX / "hot-shot-weile.json"), str(EX / "hot-shot-cuocuo.json"))
    assert code == 1
    docs = json.loads(out)
    assert [d["verdict"] for d in docs] == ["missettled", "clean"]
    assert all(d["profile"] == "cuocuo" for d in docs)


def test_summary_lines() -> None:
    code, out, _ = cli("--profile", "cuocuo", str(EX / "hot-shot-weile.json"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("example-hot-shot-weile [cuocuo]: missettled")
    # The record's scores are exactly cuocuo's without the 热炮 kong transfer: the audit names it.
    _, js, _ = cli("--json", "--profile", "cuocuo", str(EX / "hot-shot-weile.json"))
    finding = json.loads(js)["findings"][0]
    assert finding["code"] == "net_hot_shot_transfer_missing"
    assert lines[1] == f"  - record R8.3: {finding['message']}"


def test_lang_zh_renders_messages_notes_and_lines_in_chinese() -> None:
    from audit.catalogue import render_finding, render_note, seat_names

    names = seat_names(json.loads((EX / "hot-shot-weile.json").read_text(encoding="utf-8")))
    assert names and all(names)
    _, en, _ = cli("--json", "--profile", "cuocuo", str(EX / "hot-shot-weile.json"))
    code, zh, _ = cli("--json", "--lang", "zh", "--profile", "cuocuo", str(EX / "hot-shot-weile.json"))
    assert code == 1
    en_doc, zh_doc = json.loads(en), json.loads(zh)
    assert [f["message"] for f in zh_doc["findings"]] == [render_finding(f, "zh", names) for f in en_doc["findings"]]
    assert [i["note"] for i in zh_doc["settlement"]["items"]] == \
        [render_note(i, "zh", names) for i in en_doc["settlement"]["items"]]
    _, text, _ = cli("--lang", "zh", "--profile", "cuocuo", str(EX / "hot-shot-weile.json"))
    lines = text.splitlines()
    assert lines[0].startswith("example-hot-shot-weile [cuocuo]: 结算有误  得分 ")
    assert lines[1] == f"  - 整局：{zh_doc['findings'][0]['message']}"


def test_bad_lang_is_exit_2() -> None:
    code, out, err = cli("--lang", "fr", str(EX / "hot-shot-weile.json"))
    assert code == 2 and out == "" and "--lang" in err


def test_option_error_in_the_asked_language() -> None:
    from audit.catalogue import finding_message

    code, _, err = cli("--lang", "zh", "--option", "chicken.nosuch=1", str(EX / "hot-shot-weile.json"))
    want = finding_message("unknown_parameter", {"path": "rules.options (chicken.nosuch)"}, None, "zh")
    assert code == 2 and err == f"error: {want}\n"


def test_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert cli(str(bad))[0] == 2
    assert cli(str(tmp_path / "missing.json"))[0] == 2
    assert cli("--profile", "nosuch", str(EX / "hot-shot-weile.json"))[0] == 2
    code, _, err = cli("--option", "chicken.nosuch=1", str(EX / "hot-shot-weile.json"))
    assert code == 2 and "chicken.nosuch" in err


def test_schema_invalid_is_exit_1(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"format": "zhuoji/1"}), encoding="utf-8")
    code, out, _ = cli("--json", str(p))
    assert code == 1 and json.loads(out)["verdict"] == "invalid"


def test_option_values_parse_as_json() -> None:
    code, out, _ = cli("--json", "--option", "hot_shot.bonus=0", str(EX / "hot-shot-weile.json"))
    assert code == 1
    assert json.loads(out)["settlement"]["scores"] == [-4, 2, 5, -3]


def test_jsonl_input(tmp_path: Path) -> None:
    p = tmp_path / "many.jsonl"
    lines = [(EX / n).read_text(encoding="utf-8").replace("\n", "") for n in ("hot-shot-weile.json", "cha-jiao-declared.json")]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = cli("--json", str(p))
    assert code == 0 and len(json.loads(out)) == 2


def test_module_entry_point() -> None:
    proc = subprocess.run([sys.executable, "-m", "audit", "--json", str(EX / "cha-jiao-declared.json")],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 0 and json.loads(proc.stdout)["verdict"] == "clean"


def test_engine_error_is_exit_2_not_a_traceback(monkeypatch) -> None:
    import audit.cli as cli_mod

    def boom(*args, **kwargs):
        raise RuntimeError("simulated engine bug")

    monkeypatch.setattr(cli_mod, "audit_document", boom)
    code, _, err = cli(str(EX / "hot-shot-weile.json"))
    assert code == 2 and "internal error" in err


SAMPLES = EX.parents[1] / "samples"


def test_an_option_is_checked_against_each_records_own_profile() -> None:
    """Issue 33.1(c): R18.1's `dealer_bonus.on` needs a dealer bonus, which kuhu has and weile has not.
    Without --profile each record keeps its own profile: the kuhu record is audited under the option,
    the weile record is left out with an error naming its file and game id (exit 2), nothing else is."""
    kuhu, weile = SAMPLES / "clean-r18-1-dealer-wins.json", SAMPLES / "clean-weile-hot-shot.json"
    code, out, err = cli("--json", "--option", "dealer_bonus.on=dealer_wins", str(kuhu))
    assert code == 0 and json.loads(out)["profile"] == "kuhu"
    code, out, err = cli("--json", "--option", "dealer_bonus.on=dealer_wins", str(kuhu), str(weile))
    assert code == 2 and json.loads(out)["game_id"] == "clean-r18-1-dealer-wins"
    assert str(weile) in err and "[clean-weile-hot-shot]" in err and "R18.1" in err
    # the same option under a --profile that cannot honour it is refused before anything is read
    code, out, err = cli("--profile", "weile", "--option", "dealer_bonus.on=dealer_wins", str(kuhu))
    assert code == 2 and out == "" and "dealer_bonus" in err


def test_an_option_checked_per_record_also_for_the_hands_of_a_match() -> None:
    match = json.loads((SAMPLES / "illegal-match-dealer.json").read_text(encoding="utf-8"))
    from audit.cli import option_refusal

    refused = option_refusal(match, {"dealer_bonus.on": "dealer_wins"})
    assert refused is not None and refused[0] == match["hands"][0]["game_id"]
    assert refused[1].code == "house_rule_needs_section"
    assert option_refusal(match, {"chicken.charge": 4}) is None


def test_an_option_outside_its_range_is_refused_before_anything_runs() -> None:
    """Issue 34.1: `--option` integers are ranged as every other door ranges them (audit/ranges.py)."""
    for value in ("1001", str(2**63 - 1), str(2**70), "9" * 400):
        code, out, err = cli("--json", "--option", f"hot_shot.bonus={value}", str(EX / "hot-shot-weile.json"))
        assert code == 2 and out == "" and "hot_shot.bonus" in err and len(err) < 300, value
    assert cli("--json", "--option", "rob_kong_multiple=0", str(EX / "hot-shot-weile.json"))[0] == 2


def test_a_profile_that_is_no_name_is_exit_2_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    for name in ("a" * 300, "-x", "../weile"):
        code, out, err = cli(f"--profile={name}", str(EX / "hot-shot-weile.json"))
        assert code == 2 and out == "" and err.startswith("error: --profile: ") and "Traceback" not in err, err
        assert err.count("\n") == 1
    code, _, err = cli("--lang", "zh", "--profile", "a" * 300, str(EX / "hot-shot-weile.json"))
    assert code == 2 and "不是规则配置的名称" in err


def test_a_record_whose_profile_is_no_name_is_invalid_exit_1(tmp_path: Path) -> None:
    doc = json.loads((EX / "hot-shot-weile.json").read_text(encoding="utf-8"))
    doc["rules"]["profile"] = "a" * 300
    p = tmp_path / "long.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = cli("--json", str(p))
    assert code == 1 and err == ""
    audit = json.loads(out)
    assert audit["verdict"] == "invalid" and [f["code"] for f in audit["findings"]] == ["unknown_profile_name"]
