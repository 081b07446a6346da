"""The Flask service: every route, every error, the CLI, translations and the OpenAPI document."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from tests.conftest import (EXAMPLES, REFERENCE, ROOT, dumps, example_path, failing_auditor, load_example, login,
                            make_zip, missettled, variant)
from web.i18n import ZH

Upload = Callable[..., Any]


def created_id(response: Any) -> int:
    """The record id of the only result of an upload."""
    (result,) = response.get_json()["results"]
    return int(result["record_id"])


@pytest.fixture
def record_id(upload: Upload) -> int:
    """One stored clean record."""
    return created_id(upload(example_path("hot-shot-weile").read_bytes()))


# ----- uploads ---------------------------------------------------------------------------------


def test_upload_raw_json_then_duplicate_then_revision(upload: Upload) -> None:
    doc = load_example("charge-chicken-gold")
    first = upload(dumps(doc))
    assert first.status_code == 201
    (result,) = first.get_json()["results"]
    assert result["status"] == "created" and result["revision"] == 1 and result["verdict"] == "clean"
    assert result["game_id"] == doc["game_id"] and result["errors"] == []
    again = upload(dumps(doc))
    assert again.status_code == 200 and again.get_json()["results"][0]["status"] == "duplicate"
    changed = upload(dumps(missettled(doc)))
    (result,) = changed.get_json()["results"]
    assert changed.status_code == 201 and result["status"] == "revision" and result["revision"] == 2
    assert result["verdict"] == "missettled"


def test_upload_multipart_many_files(client: FlaskClient) -> None:
    files = [(io.BytesIO(path.read_bytes()), path.name) for path in sorted(REFERENCE.glob("ref-weile-*.json"))]
    response = client.post("/api/records", data={"files": files, "uploader": "阿明"})
    body = response.get_json()
    assert response.status_code == 201 and body["summary"]["created"] == 6
    assert {result["verdict"] for result in body["results"]} == {"clean"}
    detail = client.get(f"/api/records/{body['results'][0]['record_id']}").get_json()
    assert detail["uploader"] == "admin / 阿明"  # the account, then the client's own label


def test_upload_jsonl_and_zip_bodies(upload: Upload) -> None:
    lines = b"\n".join(dumps(variant(load_example("hot-shot-weile"), game_id=f"l-{i}")) for i in range(3))
    response = upload(lines, "application/x-ndjson")
    assert response.status_code == 201 and [r["line"] for r in response.get_json()["results"]] == [1, 2, 3]
    archive = make_zip({"a.json": dumps(variant(load_example("hot-shot-weile"), game_id="zip-a")),
                        "notes.txt": b"junk"})
    response = upload(archive, "application/zip")
    body = response.get_json()
    assert response.status_code == 207
    assert [r["status"] for r in body["results"]] == ["created", "skipped"]
    assert body["results"][1]["source"] == "body.zip!notes.txt"


def test_upload_match(upload: Upload) -> None:
    hands = [variant(load_example("hot-shot-weile"), game_id=f"match-{i}") for i in range(2)]
    response = upload(dumps({"format": "zhuoji-match/1", "table_id": "t1", "hands": hands}))
    results = response.get_json()["results"]
    assert response.status_code == 201 and [r["hand"] for r in results] == [0, 1]
    assert [r["source"] for r in results] == ["body.json#hands[0]", "body.json#hands[1]"]


def test_upload_with_filename_parameter(upload: Upload) -> None:
    line = dumps(load_example("hot-shot-weile"))
    response = upload(line, "application/octet-stream", query_string={"filename": "feed.jsonl"})
    assert response.status_code == 201 and response.get_json()["results"][0]["source"] == "feed.jsonl:1"


def test_mixed_batch_keeps_good_hands_and_names_bad_ones(client: FlaskClient) -> None:
    bad = load_example("hot-shot-weile")
    bad["events"][2]["tile"] = "10m"
    files = [(io.BytesIO(dumps(variant(load_example("hot-shot-weile"), game_id="good"))), "good.json"),
             (io.BytesIO(dumps(bad)), "bad.json"),
             (io.BytesIO(b'{\n "format": "zhuoji/1",\n}'), "broken.json")]
    response = client.post("/api/records", data={"files": files})
    assert response.status_code == 207
    good, wrong, broken = response.get_json()["results"]
    assert good["status"] == "created"
    assert wrong["status"] == "rejected" and wrong["errors"][0]["path"] == "events[2].tile"
    assert wrong["errors"][0]["message"].startswith("bad.json: events[2].tile: ")
    assert broken["errors"][0]["code"] == "json" and (broken["errors"][0]["line"], broken["errors"][0]["column"]) == (3, 1)
    assert client.get("/api/records").get_json()["total"] == 1


def test_jsonl_upload_with_bad_lines_and_repeats_keeps_line_order(upload: Upload, client: FlaskClient) -> None:
    good = [dumps(variant(load_example("hot-shot-weile"), game_id=f"o-{i}")) for i in range(3)]
    match = dumps({"format": "zhuoji-match/1", "table_id": "t", "hands": [json.loads(good[2]), {"game_id": "x"}]})
    body = b"\n".join([good[0], b"{oops", good[1], good[0], b"", match, dumps(missettled(json.loads(good[1])))])
    response = upload(body, "application/x-ndjson")
    results = response.get_json()["results"]
    assert response.status_code == 207
    assert [(r["line"], r["hand"], r["status"]) for r in results] == [
        (1, None, "created"), (2, None, "rejected"), (3, None, "created"), (4, None, "duplicate"),
        (6, 1, "rejected"), (6, 0, "created"), (7, None, "revision")]  # a match: its bad hands first
    assert [r["verdict"] for r in results] == ["clean", None, "clean", "clean", None, "clean", "missettled"]
    assert results[3]["record_id"] == results[0]["record_id"]
    for result in results:
        if result["record_id"] is not None:
            assert len(client.get(f"/api/records/{result['record_id']}/audits").get_json()) == 1


def test_multipart_files_are_stored_together_and_answered_per_file(client: FlaskClient) -> None:
    bad = load_example("hot-shot-weile")
    bad["events"][2]["tile"] = "10m"
    good = dumps(variant(load_example("hot-shot-weile"), game_id="f-1"))
    files = [(io.BytesIO(dumps(bad)), "same.json"), (io.BytesIO(dumps(bad)), "same.json"),
             (io.BytesIO(good), "a.json"), (io.BytesIO(good), "b.json")]
    results = client.post("/api/records", data={"files": files}).get_json()["results"]
    assert [(r["source"], r["status"], len(r["errors"])) for r in results] == [
        ("same.json", "rejected", 1), ("same.json", "rejected", 1), ("a.json", "created", 0),
        ("b.json", "duplicate", 0)]
    assert results[3]["verdict"] == "clean" and results[3]["record_id"] == results[2]["record_id"]


def test_all_bad_is_422_and_nothing_stored(upload: Upload, client: FlaskClient) -> None:
    response = upload(b"[]")
    assert response.status_code == 422
    assert response.get_json()["results"][0]["errors"][0]["code"] == "format"
    assert client.get("/api/records").get_json()["total"] == 0


@pytest.mark.parametrize(("kwargs", "status", "fragment"), [
    ({"data": b"", "content_type": "application/json"}, 400, "body is empty"),
    ({"data": b"hello", "content_type": "text/plain"}, 415, "'text/plain' is not accepted"),
    ({"data": {"uploader": "x"}, "content_type": "multipart/form-data"}, 400, "holds no file"),
    ({"data": {"files": (io.BytesIO(b""), "")}, "content_type": "multipart/form-data"}, 400, "holds no file"),
    ({"data": b"\n\n", "content_type": "application/x-ndjson"}, 400, "holds no hand"),
])
def test_upload_request_errors(client: FlaskClient, kwargs: dict[str, Any], status: int, fragment: str) -> None:
    response = client.post("/api/records", **kwargs)
    body = response.get_json()
    assert response.status_code == status and body["status"] == status and fragment in body["message"]


def test_upload_too_large_is_413(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"), "MAX_CONTENT_LENGTH": 1000})
    client = login(app)
    data = example_path("hot-shot-weile").read_bytes()
    response = client.post("/api/records", data=data, content_type="application/json")
    assert response.status_code == 413 and "limit of 1000 bytes" in response.get_json()["message"]
    page = client.post("/upload", data={"files": (io.BytesIO(data), "a.json")})
    assert page.status_code == 413 and 'data-code="body_too_large"' in page.get_data(as_text=True)
    assert client.get("/api/records").get_json()["total"] == 0


def test_engine_failure_is_reported_per_hand_and_the_record_kept_unaudited(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "e.sqlite3"), "AUDITOR": failing_auditor})
    client = login(app)
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                           content_type="application/json")
    assert response.status_code == 202  # stored, not audited: the bytes come first (docs/trust.md)
    (result,) = response.get_json()["results"]
    assert result["status"] == "created" and result["verdict"] is None
    error = result["errors"][0]
    assert error["code"] == "engine" and "engine exploded" in error["message"]
    body = client.get("/api/records").get_json()
    assert body["total"] == 1 and body["counts"]["unaudited"] == 1


def test_a_record_whose_profile_is_no_name_is_stored_invalid_not_unaudited(client: FlaskClient,
                                                                          upload: Upload) -> None:
    doc = load_example("hot-shot-weile")
    doc["rules"]["profile"] = "a" * 300  # once: "File name too long" out of the engine, stored unaudited (202)
    response = upload(dumps(doc))
    assert response.status_code == 201, response.get_data(as_text=True)
    (result,) = response.get_json()["results"]
    assert result["verdict"] == "invalid" and not result.get("errors")
    record = result["record_id"]
    audit = client.get(f"/api/records/{record}/audit").get_json()
    assert [(f["code"], f["params"]["path"]) for f in audit["findings"]] == [("unknown_profile_name", "rules.profile")]
    again = client.post(f"/api/records/{record}/audit", json={})  # a re-audit under its own profile: the same
    assert again.status_code == 201 and again.get_json()["verdict"] == "invalid"
    assert client.get(f"/records/{record}").status_code == 200
    assert client.get(f"/records/{record}/whatif", query_string={"profile": "cuocuo"}).status_code == 200
    refused = client.get(f"/records/{record}/whatif", query_string={"profile": "b" * 300})
    assert refused.status_code == 400 and 'data-code="unknown_profile"' in refused.get_data(as_text=True)


# ----- listing ---------------------------------------------------------------------------------


@pytest.fixture
def several(upload: Upload) -> list[int]:
    """Reference games of two profiles, one of them wrongly settled."""
    ids = []
    for index, path in enumerate(sorted(REFERENCE.glob("ref-*-0000.json"))):
        doc = json.loads(path.read_text(encoding="utf-8"))
        ids.append(created_id(upload(dumps(missettled(doc) if index == 0 else doc))))
    return ids


def test_api_list_filters_and_counts(client: FlaskClient, several: list[int]) -> None:
    body = client.get("/api/records").get_json()
    assert body["total"] == 5 and body["counts"]["missettled"] == 1 and body["counts"]["clean"] == 4
    assert [row["id"] for row in body["records"]] == sorted(several, reverse=True)
    row = body["records"][0]
    assert row["current"] is True and isinstance(row["rules"], list)
    only = client.get("/api/records", query_string={"verdict": "missettled"}).get_json()
    assert only["total"] == 1 and only["records"][0]["rules"]
    rule = only["records"][0]["rules"][0]
    assert client.get("/api/records", query_string={"rule": rule}).get_json()["total"] == 1
    assert client.get("/api/records", query_string={"profile": "weile"}).get_json()["total"] == 1
    query = {"platform": "gen-holdout", "client": "web", "date_from": "2026-01-01", "date_to": "2026-12-31",
             "game_id": "ref-", "sort": "game_id", "order": "asc", "page": 1, "per_page": 2, "revisions": "all"}
    page = client.get("/api/records", query_string=query).get_json()
    assert page["per_page"] == 2 and page["pages"] == -(-page["total"] // 2)
    names = [r["game_id"] for r in page["records"]]
    assert names == sorted(names)


@pytest.mark.parametrize(("query", "field"), [
    ({"verdict": "dirty"}, "verdict"), ({"page": "0"}, "page"), ({"per_page": "500"}, "per_page"),
    ({"date_from": "yesterday"}, "date_from"), ({"sort": "raw"}, "sort"), ({"colour": "red"}, "colour"),
    ({"rule": "DROP TABLE"}, "rule"),
])
def test_api_list_bad_parameters(client: FlaskClient, query: dict[str, str], field: str) -> None:
    response = client.get("/api/records", query_string=query)
    body = response.get_json()
    assert response.status_code == 400 and field in body["details"] and field in body["message"]
    page = client.get("/records", query_string=query)
    assert page.status_code == 400 and field in page.get_data(as_text=True)


def test_records_page(client: FlaskClient, several: list[int]) -> None:
    page = client.get("/records", query_string={"verdict": "missettled", "player": "", "sort": "played_at"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "牌局记录" in text and "结算有误" in text
    assert text.count('<tr>') == 1 + 1  # header row + the one missettled record
    empty = client.get("/records", query_string={"game_id": "nothing-like-this"})
    assert "没有符合条件的记录" in empty.get_data(as_text=True)
    paged = client.get("/records", query_string={"per_page": 2, "page": 2}).get_data(as_text=True)
    assert 'rel="prev"' in paged and 'rel="next"' in paged and "第 2 / 3 页" in paged


# ----- one record ------------------------------------------------------------------------------


def test_api_record_detail_raw_and_audit(client: FlaskClient, record_id: int) -> None:
    detail = client.get(f"/api/records/{record_id}").get_json()
    assert detail["game_id"] == "example-hot-shot-weile" and detail["document"]["format"] == "zhuoji/1"
    assert [seat["name"] for seat in detail["seats"]] == ["P0", "P1", "P2", "P3"]
    assert len(detail["revisions"]) == 1 and len(detail["audits"]) == 1
    raw = client.get(f"/api/records/{record_id}/raw")
    assert raw.data == example_path("hot-shot-weile").read_bytes()
    assert "attachment" in raw.headers["Content-Disposition"]
    audit = client.get(f"/api/records/{record_id}/audit").get_json()
    expected = json.loads((EXAMPLES / "hot-shot-weile.audit.json").read_text(encoding="utf-8"))
    assert set(audit) == {"game_id", "profile", "verdict", "findings", "settlement"}
    assert audit["verdict"] == expected["verdict"] and audit["settlement"]["scores"] == expected["settlement"]["scores"]


def test_reaudit_stores_a_new_audit(client: FlaskClient, record_id: int) -> None:
    response = client.post(f"/api/records/{record_id}/audit", json={"profile": "cuocuo"})
    body = response.get_json()
    assert response.status_code == 201 and body["profile"] == "cuocuo" and body["verdict"] == "missettled"
    assert response.headers["Location"].endswith(f"/api/records/{record_id}/audit")
    assert client.get(f"/api/records/{record_id}/audit").get_json()["profile"] == "cuocuo"
    audits = client.get(f"/api/records/{record_id}/audits").get_json()
    assert [a["profile"] for a in audits] == ["weile", "cuocuo"]
    empty = client.post(f"/api/records/{record_id}/audit")
    assert empty.status_code == 201 and empty.get_json()["profile"] == "weile"


@pytest.mark.parametrize(("body", "content_type", "fragment"), [
    (b"{nope", "application/json", "not valid JSON"),
    (b"[1]", "application/json", "must be a JSON object"),
    (b'{"profile": "mars"}', "application/json", "unknown profile 'mars'"),
    (b'{"options": [1]}', "application/json", "options"),
    (b'{"colour": 1}', "application/json", "colour"),
])
def test_reaudit_bad_requests(client: FlaskClient, record_id: int, body: bytes, content_type: str,
                              fragment: str) -> None:
    response = client.post(f"/api/records/{record_id}/audit", data=body, content_type=content_type)
    assert response.status_code == 400 and fragment in response.get_json()["message"]
    assert len(client.get(f"/api/records/{record_id}/audits").get_json()) == 1


def test_reaudit_engine_failure_is_502(app: Flask, client: FlaskClient, record_id: int) -> None:
    app.config["AUDITOR"] = failing_auditor
    response = client.post(f"/api/records/{record_id}/audit", json={})
    assert response.status_code == 502 and "engine exploded" in response.get_json()["message"]


@pytest.mark.parametrize("url", ["/api/records/999", "/api/records/999/audit", "/api/records/999/audits",
                                 "/api/records/999/raw"])
def test_unknown_record_is_a_json_404(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404 and response.get_json()["message"] == "record 999 does not exist"


def test_unknown_record_reaudit_and_page(client: FlaskClient) -> None:
    response = client.post("/api/records/999/audit", json={})
    assert response.status_code == 404 and "record 999" in response.get_json()["message"]
    page = client.get("/records/999")
    assert page.status_code == 404 and 'data-code="record_missing"' in page.get_data(as_text=True)
    assert "record 999 does not exist" in client.get("/records/999?lang=en").get_data(as_text=True)


def test_unknown_url_and_method_are_json_under_api(client: FlaskClient) -> None:
    assert client.get("/api/nothing").get_json()["status"] == 404
    assert client.delete("/api/records").get_json()["status"] == 405


def test_report_page(client: FlaskClient, upload: Upload, record_id: int) -> None:
    upload(dumps(missettled(load_example("hot-shot-weile"))))
    client.post(f"/api/records/{record_id}/audit", json={"profile": "cuocuo", "options": {}})
    text = client.get(f"/records/{record_id}").get_data(as_text=True)
    for fragment in ("example-hot-shot-weile", "r1", "r2", "热炮", "R8.3", "cuocuo", "weile", "校验值",
                     "结算", "重新审计", "审计记录", "下载原始字节"):
        assert fragment in text, fragment
    english = client.get(f"/records/{record_id}", query_string={"lang": "en"}).get_data(as_text=True)
    assert "Settlement" in english and "Revisions" in english and 'lang="en"' in english


def test_report_reaudit_form(client: FlaskClient, record_id: int) -> None:
    asked = client.post(f"/records/{record_id}/audit", data={"profile": "kuhu", "options": ""})
    assert asked.status_code == 200 and 'name="confirm"' in asked.get_data(as_text=True)  # issue 11: asks first
    assert client.get(f"/api/records/{record_id}/audit").get_json()["profile"] != "kuhu"
    response = client.post(f"/records/{record_id}/audit", data={"profile": "kuhu", "options": "", "step": "confirm",
                                                               "confirm": "yes", "reason": "played under kuhu"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/records/{record_id}")
    assert client.get(f"/api/records/{record_id}/audit").get_json()["profile"] == "kuhu"
    bad = client.post(f"/records/{record_id}/audit", data={"profile": "", "options": "{oops"})
    assert bad.status_code == 400 and 'data-code="not_json"' in bad.get_data(as_text=True)
    wrong = client.post(f"/records/{record_id}/audit", data={"profile": "", "options": "[]"})
    assert wrong.status_code == 400
    unknown = client.post(f"/records/{record_id}/audit", data={"profile": "mars"})
    assert unknown.status_code == 400


# ----- upload page, language, OpenAPI ----------------------------------------------------------


def test_home_redirects_to_the_list(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 302 and response.headers["Location"].endswith("/records")


def test_upload_page_has_no_inline_script(client: FlaskClient) -> None:
    text = client.get("/upload").get_data(as_text=True)
    assert "上传牌局记录" in text and 'id="drop-zone"' in text
    assert [body.strip() for body in re.findall(r"<script[^>]*>(.*?)</script>", text, re.S)] == [""]
    assert "upload.js" in text and " style=" not in text and "onclick" not in text
    assert client.get("/static/upload.js").status_code == 200


def test_upload_form_without_javascript(client: FlaskClient) -> None:
    data = {"files": [(io.BytesIO(example_path("hot-shot-weile").read_bytes()), "a.json"),
                      (io.BytesIO(b"{"), "b.json")]}
    response = client.post("/upload", data=data)
    text = response.get_data(as_text=True)
    assert response.status_code == 207 and "已保存" in text and "已拒收" in text and "b.json" in text
    only_bad = client.post("/upload", data={"files": [(io.BytesIO(b"{"), "c.json")]})
    assert only_bad.status_code == 422
    good = dumps(variant(load_example("hot-shot-weile"), game_id="form-ok"))
    ok = client.post("/upload", data={"files": [(io.BytesIO(good), "d.json")]})
    assert ok.status_code == 200 and "新保存 1 · 新版本 0 · 已存在 0" in ok.get_data(as_text=True)  # issue 11 totals


def test_language_switch_is_remembered(client: FlaskClient) -> None:
    assert "上传" in client.get("/upload").get_data(as_text=True)
    english = client.get("/upload", query_string={"lang": "en"})
    assert "Upload records" in english.get_data(as_text=True)
    assert "lang=en" in english.headers["Set-Cookie"]
    assert "Upload records" in client.get("/upload").get_data(as_text=True)
    assert "上传牌局记录" in client.get("/upload", query_string={"lang": "zh"}).get_data(as_text=True)
    assert "上传牌局记录" in client.get("/upload", query_string={"lang": "fr"}).get_data(as_text=True)


def test_openapi_document(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/records", "/api/records/{record_id}", "/api/records/{record_id}/audit"} <= set(spec["paths"])
    schemas = spec["components"]["schemas"]
    assert {"Audit", "Finding", "Settlement", "RecordPage", "UploadResponse", "Error"} <= set(schemas)
    assert "from" in schemas["SettlementItem"]["properties"]
    parameters = {p["name"] for p in spec["paths"]["/api/records"]["get"]["parameters"]}
    assert {"verdict", "rule", "player", "date_from", "page"} <= parameters


def test_profiles_endpoint(client: FlaskClient) -> None:
    body = client.get("/api/profiles").get_json()
    assert "weile" in body["profiles"] and body["engine_version"]


# ----- CLI -------------------------------------------------------------------------------------


def test_init_db_command(runner: FlaskCliRunner, app: Flask) -> None:
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0 and "Initialised the database" in result.output
    assert Path(app.config["DATABASE"]).exists()
    assert runner.invoke(args=["init-db"]).exit_code == 0  # idempotent, drops nothing


def test_load_samples_command(runner: FlaskCliRunner, client: FlaskClient) -> None:
    result = runner.invoke(args=["load-samples", str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    assert result.output.count(" created record ") == 5 and "audit.json" not in result.output
    assert "created 5" in result.output
    again = runner.invoke(args=["load-samples", str(EXAMPLES)])
    assert "duplicate 5" in again.output
    assert client.get("/api/records").get_json()["counts"]["clean"] == 5


def test_load_samples_reports_bad_files(runner: FlaskCliRunner, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    result = runner.invoke(args=["load-samples", str(tmp_path)])
    assert result.exit_code == 1 and "bad.json: rejected: bad.json (line 1, column 2)" in result.output


# ----- every template string is translated ------------------------------------------------------

MSGID = re.compile(r"""_\(\s*(["'])(.+?)\1""", re.S)
TEMPLATES = ROOT / "templates"


def template_files() -> list[Path]:
    """Every template."""
    return sorted(TEMPLATES.rglob("*.html"))


def test_every_msgid_has_a_chinese_translation() -> None:
    sources = template_files() + sorted((ROOT / "web").glob("*.py"))
    missing = {(path.name, match.group(2)) for path in sources
               for match in MSGID.finditer(path.read_text(encoding="utf-8"))
               if match.group(2) not in ZH}
    assert missing == set()


def test_templates_have_no_untranslated_text() -> None:
    allowed = {"sha256", "r", "#", "R8 / R8.3"}
    for path in template_files():
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", text, flags=re.S)
        text = re.sub(r"<script.*?</script>|<[^>]+>", " ", text, flags=re.S)
        words = {word for word in re.findall(r"[A-Za-z][A-Za-z0-9 ./]*", text)} - allowed
        assert {word.strip() for word in words} - allowed == set(), path.name


def test_every_route_and_command_is_documented(app: Flask) -> None:
    docs = "".join((ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("service.md", "trust.md"))
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<\w+:(\w+)>", r"<\1>", re.sub(r"<(?:\w+:)?record_id>", "<id>", rule.rule))
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert f"{method} {path}`" in docs or f"`{method} {path}" in docs, f"{method} {path}"
    for command in ("init-db", "load-samples"):
        assert f"flask --app app {command}" in docs
