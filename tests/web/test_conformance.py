"""The conformance routes (issue 15): published JSON Schemas; runs of a kit's answers stored, shown and compared;
uploader tokens bound to their platform."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from kit.schemas import schema_bytes
from tests.kit.kit_clients import SETTLEMENT_FAULTS, answer_kit
from tests.conftest import api_token, login


@pytest.fixture
def app(tmp_path: Path, kits: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "service.sqlite3"), "CONFORMANCE_KITS": str(kits)})


def _answers(kits: Path, wrong: bool = False) -> bytes:
    fault = SETTLEMENT_FAULTS["dealer_stays_on_draw"][0] if wrong else None
    lines, _ = answer_kit(kits / "cuocuo-5", fault) if fault else answer_kit(kits / "cuocuo-5")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _post(client: FlaskClient, data: bytes, headers: dict[str, str] | None = None, **fields: str) -> Any:
    form = {"kit": "cuocuo-5", "platform": "club.example", "client_version": "2.1.0", **fields,
            "answers": (io.BytesIO(data), "answers.jsonl")}
    return client.post("/api/conformance/runs", data=form, headers=headers or {}, content_type="multipart/form-data")


def test_the_schemas_are_served_byte_for_byte(client: FlaskClient) -> None:
    for name in ("zhuoji-1.json", "zhuoji-match-1.json"):
        r = client.get(f"/api/schema/{name}")
        assert r.status_code == 200 and r.mimetype == "application/schema+json"
        assert r.data == schema_bytes(name)
        assert json.loads(r.data)["$schema"].endswith("2020-12/schema")


def test_an_unknown_schema_is_404_and_a_token_may_read_them(app: Flask, anon_client: FlaskClient) -> None:
    headers = api_token(app, "club", platform="club.example")
    assert anon_client.get("/api/schema/zhuoji-1.json").status_code == 401
    assert anon_client.get("/api/schema/zhuoji-1.json", headers=headers).status_code == 200
    assert anon_client.get("/api/schema/nope.json", headers=headers).status_code == 404


def test_a_run_is_checked_stored_and_two_runs_compare(app: Flask, anon_client: FlaskClient, kits: Path) -> None:
    headers = api_token(app, "club", platform="club.example")
    kit_list = anon_client.get("/api/conformance/kits", headers=headers).get_json()["kits"]
    assert [k["name"] for k in kit_list] == ["cuocuo-5"] and kit_list[0]["cases"] == 40
    good = _post(anon_client, _answers(kits), headers)
    assert good.status_code == 201, good.get_data(as_text=True)
    first = good.get_json()
    assert first["report"]["passed"] == 40 and first["ok"] == 1
    bad = _post(anon_client, _answers(kits, wrong=True), headers, client_version="2.2.0").get_json()
    assert bad["report"]["broken_rules"][0]["rule"] == "R14.3"
    diff = anon_client.get(f"/api/conformance/runs/{bad['id']}/compare/{first['id']}", headers=headers).get_json()
    failing = {c["case"] for c in bad["report"]["cases"] if not c["passed"]}
    assert {c["case"] for c in diff["newly_failing"]} == failing and diff["newly_passing"] == []
    back = anon_client.get(f"/api/conformance/runs/{first['id']}/compare/{bad['id']}", headers=headers).get_json()
    assert {c["case"] for c in back["newly_passing"]} == failing
    runs = anon_client.get("/api/conformance/runs", headers=headers).get_json()["runs"]
    assert [r["id"] for r in runs] == [bad["id"], first["id"]]
    zh = anon_client.get(f"/api/conformance/runs/{bad['id']}?lang=zh", headers=headers).get_json()
    assert any("下局庄家" in c["difference"] or "庄" in c["difference"] for c in zh["report"]["cases"] if not c["passed"])


def test_an_uploader_token_submits_and_reads_only_its_own_platform(app: Flask, anon_client: FlaskClient,
                                                                  kits: Path) -> None:
    mine = api_token(app, "club", platform="club.example")
    other = api_token(app, "rival", platform="rival.example")
    refused = _post(anon_client, _answers(kits), other)
    assert refused.status_code == 403 and "platform" in refused.get_json()["message"]
    run_id = _post(anon_client, _answers(kits), mine).get_json()["id"]
    assert anon_client.get(f"/api/conformance/runs/{run_id}", headers=other).status_code == 404
    assert anon_client.get("/api/conformance/runs", headers=other).get_json()["runs"] == []
    assert anon_client.get("/api/conformance/runs?platform=club.example", headers=other).status_code == 404
    implicit = _post(anon_client, _answers(kits), other, platform="")
    assert implicit.status_code == 201 and implicit.get_json()["platform"] == "rival.example"


@pytest.mark.parametrize(("fields", "field"), [({"kit": "nope"}, "kit"), ({"kit": "../x"}, "kit"),
                                               ({"client_version": ""}, "client_version")])
def test_bad_fields_are_400_naming_the_field(client: FlaskClient, kits: Path, fields: dict[str, str],
                                             field: str) -> None:
    r = _post(client, _answers(kits), None, **fields)
    assert r.status_code == 400 and field in r.get_json()["details"]


def test_malformed_answers_are_a_stored_failing_run_with_line_and_path(client: FlaskClient) -> None:
    r = _post(client, b'{"case": "s0001", "scores": "x"}\nnot json\n')
    assert r.status_code == 201
    rep = r.get_json()["report"]
    assert rep["ok"] is False and rep["malformed_lines"][0].startswith("line 2:")
    assert "line 1: $.scores" in next(c for c in rep["cases"] if c["case"] == "s0001")["difference"]


def test_the_pages_show_the_form_the_run_and_the_comparison(app: Flask, kits: Path) -> None:
    people = login(app)
    page = people.get("/conformance")
    assert page.status_code == 200 and "cuocuo-5" in page.get_data(as_text=True)
    form = {"kit": "cuocuo-5", "platform": "club.example", "client_version": "1",
            "answers": (io.BytesIO(_answers(kits)), "a.jsonl")}
    first = people.post("/conformance", data=form, content_type="multipart/form-data")
    assert first.status_code == 303
    form = {**form, "client_version": "2", "answers": (io.BytesIO(_answers(kits, wrong=True)), "a.jsonl")}
    second = people.post("/conformance", data=form, content_type="multipart/form-data")
    shown = people.get(second.headers["Location"]).get_data(as_text=True)
    assert "新出现的未通过" in shown and "R14.3" in shown
    assert people.get(second.headers["Location"] + "?lang=en").get_data(as_text=True).count("Newly failing") == 1
    missing = people.post("/conformance", data={"kit": "cuocuo-5", "platform": "p", "client_version": "1"},
                          content_type="multipart/form-data")
    assert missing.status_code == 400 and "answers" in missing.get_data(as_text=True)


def test_answers_with_a_bom_or_a_repeated_key_are_read_as_kit_check_reads_them(client: FlaskClient,
                                                                               kits: Path) -> None:
    """Issue 22.6: a Windows client's byte order mark changes nothing; issue 22.1: an answer line
    with a repeated key is a malformed line (two readers could count it differently), not a pass."""
    plain = _post(client, _answers(kits)).get_json()["report"]
    marked = _post(client, b"\xef\xbb\xbf" + _answers(kits)).get_json()["report"]
    assert plain["ok"] and marked["ok"] and marked["passed"] == plain["passed"] == plain["total"]
    first, *rest = _answers(kits).split(b"\n")
    twice = first[:-1] + b', "case": ' + json.dumps(json.loads(first)["case"]).encode() + b"}"
    refused = _post(client, b"\n".join([twice, *rest])).get_json()["report"]
    assert not refused["ok"] and refused["malformed_lines"][0].startswith("line 1:")


# ----- a broken kit among the good ones (issue 34.4) ---------------------------------------------

BROKEN = {"a-no-manifest": "kit_no_manifest", "b-not-json": "kit_manifest_not_json",
          "c-case-without-id": "kit_manifest_bad", "d-case-without-expected": "kit_case_bad",
          "e-case-files-broken": None}
"""Folders beside the good kit, each broken its own way -> the problem listed (None: a kit whose
manifest is sound and whose case files are not, found when a failing case is read)."""


@pytest.fixture(scope="module")
def mixed(kits: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The good kit `cuocuo-5` and the broken folders of BROKEN."""
    folder = tmp_path_factory.mktemp("mixed")
    shutil.copytree(kits / "cuocuo-5", folder / "cuocuo-5")
    (folder / "a-no-manifest" / "cases").mkdir(parents=True)
    (folder / "b-not-json").mkdir()
    (folder / "b-not-json" / "manifest.json").write_text('{"format": "zhuoji-kit/1", ', "utf-8")
    for name, change in (("c-case-without-id", lambda case: case.pop("id")),
                         ("d-case-without-expected", lambda case: case.pop("expected")),
                         ("e-case-files-broken", lambda case: None)):
        shutil.copytree(kits / "cuocuo-5", folder / name)
        manifest = json.loads((folder / name / "manifest.json").read_text("utf-8"))
        change(manifest["cases"][0])
        (folder / name / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    for case in (folder / "e-case-files-broken" / "cases").glob("*.json"):
        case.write_text("[", "utf-8")
    return folder


@pytest.fixture
def mixed_app(tmp_path: Path, mixed: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "service.sqlite3"), "CONFORMANCE_KITS": str(mixed)})


def test_a_broken_kit_is_listed_with_why_and_the_others_stay_usable(mixed_app: Flask, mixed: Path) -> None:
    people = login(mixed_app)
    listed = people.get("/api/conformance/kits")
    assert listed.status_code == 200, listed.get_data(as_text=True)  # once: a 500 for everyone
    body = listed.get_json()
    assert [k["name"] for k in body["kits"]] == ["cuocuo-5", "e-case-files-broken"]
    assert {b["name"]: b["code"] for b in body["broken"]} == {k: v for k, v in BROKEN.items() if v}
    assert all(b["reason"] for b in body["broken"])
    assert next(b for b in body["broken"] if b["code"] == "kit_case_bad")["params"]["field"] == "expected"
    zh = people.get("/api/conformance/kits?lang=zh").get_json()["broken"]
    assert all(re.search("[\u4e00-\u9fff]", b["reason"]) for b in zh)
    page = people.get("/conformance")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "已损坏的测试包" in html
    assert all(f'data-code="{code}"' in html for code in BROKEN.values() if code)
    assert '<option value="a-no-manifest">' not in html and '<option value="cuocuo-5">' in html
    assert _post(people, _answers(mixed), kit="cuocuo-5").status_code == 201


@pytest.mark.parametrize("name", list(BROKEN))
def test_answers_to_a_broken_kit_are_refused_409_naming_it(mixed_app: Flask, mixed: Path, name: str) -> None:
    people = login(mixed_app)
    wrong = _answers(mixed, wrong=True)  # failing cases: their files are read
    refused = _post(people, wrong, kit=name)
    body = refused.get_json()
    assert refused.status_code == 409 and body["code"] == "kit_broken" and "kit" in body["details"], body
    assert name in body["message"]
    page = people.post("/conformance", data={"kit": name, "platform": "club.example", "client_version": "1",
                                             "answers": (io.BytesIO(wrong), "a.jsonl")},
                       content_type="multipart/form-data", headers={"Accept-Language": "zh"})
    assert page.status_code == 409 and 'data-code="kit_broken"' in page.get_data(as_text=True)
    assert people.get("/api/conformance/runs").get_json()["runs"] == []  # nothing stored


def test_a_kit_name_that_is_no_folder_name_is_400(mixed_app: Flask, mixed: Path) -> None:
    people = login(mixed_app)
    for name in ("a\x00b", "x" * 300, ".hidden"):
        refused = _post(people, _answers(mixed), kit=name)
        assert refused.status_code == 400 and refused.get_json()["code"] == "kit_name_bad", name
