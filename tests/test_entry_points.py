"""One answer to a byte order mark, and one strict reading of JSON, at every entry point (issue
22.1 and 22.6): the upload, `python -m audit`, the batch, `kit check` (and the service's
conformance answers) and `python -m fit`.

A UTF-8 BOM (what Windows editors write) is accepted everywhere: each entry point gives the same
answer for a file with one as for the same file without. A repeated key, a lone surrogate, an
integer past 64 bits, NaN and deep nesting are refused everywhere, naming the JSON path: the
one-hand command exits 2, the batch writes an invalid row, the kit counts the line as malformed.
"""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from audit.cli import run as audit_cli
from fit.cli import read_records
from kit.build import build_kit, write_kit
from kit.cli import run as kit_cli
from tests.conftest import load_example, login, make_zip
from tests.kit.kit_clients import answer_kit

BOM = b"\xef\xbb\xbf"
RECORD = json.dumps(load_example("hot-shot-weile"), ensure_ascii=False).encode("utf-8")
LINES = RECORD + b"\n" + json.dumps(load_example("hot-shot-weile") | {"game_id": "second"}).encode() + b"\n"
HOSTILE = {
    "repeated key": (b'{"rules": {"profile": "weile", "profile": "kuhu"}}', "rules"),  # the object's path
    "lone surrogate": (b'{"game_id": "\\ud800"}', "game_id"),
    "huge integer": (b'{"base": 92233720368547758070}', "base"),
    "NaN": (b'{"base": NaN}', "base"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000, None),
}


def _audit_cli(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = audit_cli(["--json", *args, str(path)], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("name", "data"), [("one.json", RECORD), ("day.jsonl", LINES)])
def test_the_audit_command_reads_a_bom_as_it_reads_the_file_without(tmp_path: Path, name: str, data: bytes) -> None:
    (tmp_path / name).write_bytes(data)
    (tmp_path / f"bom-{name}").write_bytes(BOM + data)
    plain, marked = _audit_cli(tmp_path / name), _audit_cli(tmp_path / f"bom-{name}")
    assert plain == marked and plain[0] in (0, 1) and plain[2] == ""


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_the_audit_command_refuses_hostile_json_naming_the_path(tmp_path: Path, kind: str) -> None:
    data, path = HOSTILE[kind]
    (tmp_path / "x.json").write_bytes(data)
    (tmp_path / "x.jsonl").write_bytes(RECORD + b"\n" + data + b"\n")
    for name, where in (("x.json", "x.json"), ("x.jsonl", "x.jsonl line 2")):
        code, out, err = _audit_cli(tmp_path / name)
        assert code == 2 and "Traceback" not in err and where in err, err
        if path:
            assert f"{path}:" in err


def test_the_audit_commands_options_are_read_strictly(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_bytes(RECORD)
    code, _out, err = _audit_cli(tmp_path / "one.json", "--option", 'chicken={"charge": 1, "charge": 9}')
    assert code == 2 and "chicken" in err and "twice" in err


def _batch_rows(tmp_path: Path, name: str, data: bytes) -> list[tuple[str, str | None, Any]]:
    from batch.inputs import plan
    from batch.rows import Settings, audits

    folder = tmp_path / name.replace(".", "_")
    folder.mkdir(parents=True)
    (folder / name).write_bytes(data)
    return [(item.audit["verdict"], item.audit["game_id"], [(f["code"], f["params"]) for f in item.audit["findings"]])
            for part in plan([str(folder / name)]).partitions for item in audits(part.read(), Settings())]


@pytest.mark.parametrize(("name", "data"), [("one.json", RECORD), ("day.jsonl", LINES)])
def test_the_batch_reads_a_bom_as_it_reads_the_file_without(tmp_path: Path, name: str, data: bytes) -> None:
    plain = _batch_rows(tmp_path / "plain", name, data)
    marked = _batch_rows(tmp_path / "marked", name, BOM + data)
    assert plain == marked and plain and all(verdict != "invalid" for verdict, _, _ in plain)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_the_batch_writes_an_invalid_row_for_hostile_json(tmp_path: Path, kind: str) -> None:
    data, path = HOSTILE[kind]
    rows = _batch_rows(tmp_path, "x.jsonl", RECORD + b"\n" + data + b"\n")
    assert rows[0][0] != "invalid" and rows[1][0] == "invalid"
    code, params = rows[1][2][0]
    assert code in ("json_refused", "not_json")
    if path:
        assert code == "json_refused" and params["path"] == path


def test_the_batch_and_the_command_agree_on_a_repeated_key(tmp_path: Path) -> None:
    """The issue's case: `python -m audit` said clean where the upload refused; now both refuse."""
    doc = RECORD[:-1] + b', "base": 1, "base": 2}'
    (tmp_path / "twice.json").write_bytes(doc)
    assert _audit_cli(tmp_path / "twice.json")[0] == 2
    assert _batch_rows(tmp_path, "twice.json", doc)[0][0] == "invalid"


def test_fit_reads_a_bom_as_it_reads_the_file_without(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(LINES)
    (tmp_path / "b.jsonl").write_bytes(BOM + LINES)
    (tmp_path / "c.json").write_bytes(BOM + RECORD)
    plain = read_records([str(tmp_path / "a.jsonl")])
    assert len(plain) == 2
    assert [r.doc for r in read_records([str(tmp_path / "b.jsonl")])] == [r.doc for r in plain]
    assert read_records([str(tmp_path / "c.json")])[0].doc == plain[0].doc


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    write_kit(build_kit("weile", {}, cases=30, seed=3, min_count=1), out)
    return out


def _kit_check(kit: Path, answers: Path) -> tuple[int, dict[str, Any]]:
    report = answers.with_suffix(".report.json")
    code = kit_cli(["check", str(kit), str(answers), "--json", str(report)], io.StringIO(), io.StringIO())
    return code, json.loads(report.read_text("utf-8"))


def test_kit_check_reads_a_bom_as_it_reads_the_answers_without(kit: Path, tmp_path: Path) -> None:
    lines, _ = answer_kit(kit)
    text = ("\n".join(lines) + "\n").encode("utf-8")
    (tmp_path / "plain.jsonl").write_bytes(text)
    (tmp_path / "bom.jsonl").write_bytes(BOM + text)
    plain, marked = _kit_check(kit, tmp_path / "plain.jsonl"), _kit_check(kit, tmp_path / "bom.jsonl")
    assert plain[0] == marked[0] == 0 and plain[1]["passed"] == marked[1]["passed"] == plain[1]["total"]


def test_kit_check_refuses_an_answer_with_a_repeated_key(kit: Path, tmp_path: Path) -> None:
    """A repeated key could make a wrong answer count as right (the reader keeping the last one)."""
    lines, _ = answer_kit(kit)
    first = json.loads(lines[0])
    twice = lines[0][:-1] + ", " + json.dumps({"case": first["case"]})[1:]  # the same object, `case` again
    (tmp_path / "a.jsonl").write_text("\n".join([twice, *lines[1:]]) + "\n", encoding="utf-8")
    code, report = _kit_check(kit, tmp_path / "a.jsonl")
    assert code != 0 and report["malformed_lines"][0].startswith("line 1: ") and "twice" in report["malformed_lines"][0]


# ----- the upload ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "data"), [("one.json", RECORD), ("day.jsonl", LINES)])
def test_the_upload_reads_a_bom_as_it_reads_the_file_without(tmp_path: Path, name: str, data: bytes) -> None:
    from app import create_app
    from tests.conftest import app_config

    answers = []
    for label, body in (("plain", data), ("bom", BOM + data)):
        (tmp_path / label).mkdir()
        app: Flask = create_app(app_config(tmp_path / label))
        client = login(app)
        kinds = {"one.json": "application/json", "day.jsonl": "application/x-ndjson"}
        single = client.post("/api/records", data=body, content_type=kinds[name])
        zipped = client.post("/api/records", data=make_zip({f"a/{name}": body}), content_type="application/zip")
        for response in (single, zipped):
            assert response.status_code in (200, 201), response.get_data(as_text=True)
        answers.append([(r["status"], r.get("game_id")) for r in single.get_json()["results"]])
        stored = client.get("/api/records").get_json()["records"]
        assert stored and all(r["verdict"] != "invalid" for r in stored)
    assert answers[0] == answers[1]


# ----- one line reader: lines end at "\n" only (issue 34.3) -------------------------------------------

SEPARATORS = ("\u2028", "\u2029", "\u0085")
"""Line separators of str.splitlines() that JSON allows unescaped inside a string."""
SPLIT = b"".join(json.dumps(load_example("hot-shot-weile") | {"game_id": f"split-{i}", "seats": [
    {"name": f"P{seat}{sep}x"} for seat in range(4)]}, ensure_ascii=False).encode("utf-8") + b"\r\n"
    for i, sep in enumerate(SEPARATORS))
"""Three records, each with one of the separators inside its seats' names, in Windows line ends."""


def test_every_jsonl_entry_point_reads_separators_inside_strings_as_one_line(tmp_path: Path) -> None:
    from app import create_app
    from tests.conftest import app_config

    assert SPLIT.count(b"\n") == 3 and all(sep.encode("utf-8") in SPLIT for sep in SEPARATORS)
    (tmp_path / "three.jsonl").write_bytes(SPLIT)
    games = [f"split-{i}" for i in range(3)]
    names = [[f"P{seat}{sep}x" for seat in range(4)] for sep in SEPARATORS]

    code, out, err = _audit_cli(tmp_path / "three.jsonl")  # python -m audit
    assert code in (0, 1) and err == "" and [a["game_id"] for a in json.loads(out)] == games

    rows = _batch_rows(tmp_path / "batch", "three.jsonl", SPLIT)  # python -m batch
    assert [(verdict, game) for verdict, game, _ in rows] == [("clean", game) for game in games]

    fitted = read_records([str(tmp_path / "three.jsonl")])  # python -m fit
    assert [[seat["name"] for seat in r.doc["seats"]] for r in fitted] == names

    app: Flask = create_app(app_config(tmp_path / "service"))  # the upload
    client = login(app)
    answer = client.post("/api/records", data=SPLIT, content_type="application/x-ndjson")
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert [(r["status"], r["game_id"]) for r in answer.get_json()["results"]] == [("created", g) for g in games]


def test_kit_check_reads_separators_inside_an_answers_strings_as_one_line(kit: Path, tmp_path: Path) -> None:
    lines, _ = answer_kit(kit)
    marked = [json.dumps(json.loads(line) | {"extra": f"note{sep}more"}, ensure_ascii=False)
              for line, sep in zip(lines, SEPARATORS)] + lines[3:]
    (tmp_path / "a.jsonl").write_bytes(("\r\n".join(marked) + "\r\n").encode("utf-8"))
    code, report = _kit_check(kit, tmp_path / "a.jsonl")
    assert code == 0 and report["malformed_lines"] == [] and report["passed"] == report["total"]


@pytest.mark.parametrize("bad", ["٥", "²", "+5", " 5", "5_0", "1" + "0" * 25])
def test_command_line_numbers_are_ascii_digits(tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--workers ٥` was 5 (argparse's int()); every command reads its numbers as the service does."""
    from fit.cli import run as fit_cli
    from batch.cli import run as batch_cli
    from sim.simulate import run as simulate

    (tmp_path / "one.json").write_bytes(RECORD)
    err = io.StringIO()
    commands = [lambda: fit_cli([str(tmp_path / "one.json"), "--min-gain", bad], io.StringIO(), io.StringIO()),
                lambda: batch_cli([str(tmp_path), "--out", str(tmp_path / "o"), "--workers", bad],
                                  out=io.StringIO(), err=io.StringIO()),
                lambda: kit_cli(["build", "--profile", "weile", "--out", str(tmp_path / "k"), "--cases", bad],
                                io.StringIO(), err),
                lambda: simulate(["--hands", bad, "--out", str(tmp_path / "s.jsonl")])]
    for command in commands:
        code: Any
        try:
            code = command()
        except SystemExit as stopped:  # argparse's own exit
            code = stopped.code
        assert code == 2
        assert "is not a whole number" in capsys.readouterr().err + err.getvalue()
        err.truncate(0)
