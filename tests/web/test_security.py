"""CSRF, cookies, security headers, escaping of outside text, and every configurable limit."""
from __future__ import annotations

import io
import json
import re
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import (ROOT, add_account, api_token, dumps, example_path, load_example, login, make_zip,
                            variant)

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def limited_app(tmp_path: Path, **config: Any) -> Flask:
    """An app with some limits changed."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "limits.sqlite3"), **config})


def session_client(app: Flask) -> FlaskClient:
    """A client logged in through the form that does NOT add the CSRF token by itself."""
    client = login(app, "csrf-tester", "admin")
    client.csrf = None
    return client


@pytest.fixture
def record_id(client: FlaskClient) -> int:
    """One stored record."""
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                           content_type="application/json")
    return int(response.get_json()["results"][0]["record_id"])


# ----- CSRF -----------------------------------------------------------------------------------


def test_every_form_post_needs_the_session_csrf_token(app: Flask, record_id: int) -> None:
    plain = session_client(app)
    posts = [("/upload", {"uploader": "x"}), (f"/records/{record_id}/audit", {}),
             (f"/records/{record_id}/notes", {"text": "x"}), ("/admin/accounts", {"name": "x", "role": "auditor"}),
             ("/admin/accounts/1/tokens", {}), ("/logout", {})]
    for url, data in posts:
        for token in (None, "forged"):
            form = dict(data, csrf_token=token) if token else data
            response = plain.post(url, data=form)
            assert response.status_code == 400 and 'data-code="csrf_refused"' in response.get_data(as_text=True), (url, token)
    assert plain.get("/records").status_code == 200  # still logged in: the logout was refused


def test_the_token_from_the_page_is_accepted(app: Flask, record_id: int) -> None:
    plain = session_client(app)
    page = plain.get(f"/records/{record_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1) == token  # type: ignore[union-attr]
    response = plain.post(f"/records/{record_id}/notes", data={"text": "ok", "csrf_token": token})
    assert response.status_code == 303


def test_session_api_posts_need_the_header_but_bearer_tokens_do_not(app: Flask, record_id: int) -> None:
    plain = session_client(app)
    assert plain.post(f"/api/records/{record_id}/audit", json={}).status_code == 400
    with plain.session_transaction() as session:
        token = session["csrf"]
    assert plain.post(f"/api/records/{record_id}/audit", json={}, headers={"X-CSRF-Token": token}).status_code == 201
    headers = api_token(app, "robot", "auditor")
    assert app.test_client().post(f"/api/records/{record_id}/audit", json={}, headers=headers).status_code == 201


def test_login_form_needs_its_csrf_token(app: Flask) -> None:
    add_account(app, "someone", "auditor")
    fresh = app.test_client()
    response = fresh.post("/login", data={"name": "someone", "password": "correct horse battery"})
    assert response.status_code == 400


def test_upload_script_sends_the_csrf_header() -> None:
    script = (ROOT / "static" / "upload.js").read_text(encoding="utf-8")
    assert "X-CSRF-Token" in script and 'meta[name="csrf-token"]' in script


# ----- cookies and headers --------------------------------------------------------------------


def _cookie(response: Any) -> str:
    """The session Set-Cookie header."""
    return next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("session="))


def test_session_cookie_is_httponly_and_samesite_lax(client: FlaskClient) -> None:
    cookie = _cookie(client.get("/records"))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


@pytest.mark.parametrize(("setting", "host", "secure"), [
    (None, "audit.example.org", True), (None, "localhost", True), (None, "127.0.0.1:5000", True),
    (False, "audit.example.org", False), (False, "localhost", False), (True, "localhost", True),
    ("auto", "localhost", True)])
def test_secure_cookie_comes_from_configuration_not_the_host(tmp_path: Path, setting: Any, host: str,
                                                             secure: bool) -> None:
    config = {"DATABASE": str(tmp_path / "c.sqlite3")}
    if setting is not None:
        config["SESSION_COOKIE_SECURE"] = setting
    app = create_app(config)
    response = app.test_client().get("/login", base_url=f"https://{host}")
    assert ("Secure" in _cookie(response)) is secure


@pytest.mark.parametrize("url", ["/records", "/api/records", "/login", "/records/999", "/api/records/999",
                                 "/health"])
def test_security_headers_everywhere(client: FlaskClient, url: str) -> None:
    headers = client.get(url).headers
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
    assert headers["Cache-Control"] == "no-store"


def test_templates_have_no_inline_script_or_event_handlers() -> None:
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        bodies = [body.strip() for body in re.findall(r"<script[^>]*>(.*?)</script>", text, re.S)]
        assert all(body == "" for body in bodies), path.name
        assert not re.search(r"\son[a-z]+\s*=", text), path.name
        assert "javascript:" not in text and "|safe" not in text, path.name


# ----- escaping -------------------------------------------------------------------------------


def test_outside_text_is_shown_as_text(client: FlaskClient) -> None:
    doc = load_example("hot-shot-weile")
    doc["seats"][1]["name"] = HOSTILE
    doc["client"] = HOSTILE
    response = client.post("/api/records", data=dumps(doc), content_type="application/json",
                           headers={"X-Uploader": HOSTILE})
    record_id = response.get_json()["results"][0]["record_id"]
    client.post(f"/records/{record_id}/notes", data={"case_number": HOSTILE[:60], "text": HOSTILE})
    pages = [client.get(f"/records/{record_id}"), client.get("/records"), client.get("/admin/trail")]
    for page in pages:
        text = page.get_data(as_text=True)
        assert "<script>alert" not in text and "<img src=x" not in text
        assert "&lt;script&gt;alert" in text
    report = pages[0].get_data(as_text=True)
    assert report.count("&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") >= 3  # name, client, note


def test_every_template_is_autoescaped_whatever_its_name(app: Flask) -> None:
    with app.test_request_context():
        assert app.jinja_env.autoescape is True
        assert render_template_string("{{ text }}", text=HOSTILE).startswith("&lt;script&gt;")


def test_pdf_and_html_share_escaping(app: Flask, client: FlaskClient) -> None:
    """The PDF is rendered from the same templates; when its route exists, its source escapes too."""
    pdf = [rule for rule in app.url_map.iter_rules() if "pdf" in rule.rule]
    if not pdf:
        pytest.skip("no PDF route yet")
    doc = load_example("hot-shot-weile")
    doc["seats"][1]["name"] = HOSTILE
    response = client.post("/api/records", data=dumps(doc), content_type="application/json")
    record_id = response.get_json()["results"][0]["record_id"]
    url = re.sub(r"<(?:\w+:)?record_id>", str(record_id), pdf[0].rule)
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed: cannot read the PDF's text")
    text = subprocess.run(["pdftotext", "-", "-"], input=response.data, capture_output=True, check=True).stdout
    assert '<script>alert("x")</script>' in text.decode("utf-8")  # printed as text, so it was escaped


# ----- limits ---------------------------------------------------------------------------------


def _lines(count: int, tag: str) -> bytes:
    """`count` distinct records as JSON lines."""
    doc = load_example("hot-shot-weile")
    return b"\n".join(dumps(variant(doc, game_id=f"{tag}-{index}")) for index in range(count))


def test_request_size_limit(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, MAX_CONTENT_LENGTH=2000))
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes() * 2,
                           content_type="application/json")
    assert response.status_code == 413 and "limit of 2000 bytes" in response.get_json()["message"]


def test_records_per_request_limit_refuses_the_whole_upload(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_RECORDS=3))
    response = client.post("/api/records", data=_lines(4, "cap"), content_type="application/x-ndjson")
    body = response.get_json()
    assert response.status_code == 413 and "more than 3 records" in body["message"]
    assert client.get("/api/records").get_json()["total"] == 0
    files = [(io.BytesIO(_lines(2, f"f{i}")), f"f{i}.jsonl") for i in range(2)]
    assert client.post("/api/records", data={"files": files}).status_code == 413  # counted across files
    assert client.post("/api/records", data=_lines(3, "ok"), content_type="application/x-ndjson").status_code == 201


def test_records_per_request_limit_counts_match_hands(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_RECORDS=2))
    hands = [variant(load_example("hot-shot-weile"), game_id=f"m-{i}") for i in range(3)]
    response = client.post("/api/records", data=dumps({"format": "zhuoji-match/1", "table_id": "t", "hands": hands}),
                           content_type="application/json")
    assert response.status_code == 413


def test_events_per_hand_limit(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_EVENTS=3))  # the example has 4 events
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                           content_type="application/json")
    (result,) = response.get_json()["results"]
    assert response.status_code == 422 and result["errors"][0]["code"] == "limit"
    assert result["errors"][0]["path"] == "events" and "at most 3 per hand" in result["errors"][0]["message"]


def test_string_length_limit(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_STRING=50))
    doc = load_example("hot-shot-weile")
    doc["seats"][2]["name"] = "名" * 51
    (result,) = client.post("/api/records", data=dumps(doc), content_type="application/json").get_json()["results"]
    assert result["errors"][0]["code"] == "limit" and result["errors"][0]["path"] == "seats[2].name"
    doc["seats"][2]["name"] = "ok"
    doc["k" * 60] = 1
    (result,) = client.post("/api/records", data=dumps(doc), content_type="application/json").get_json()["results"]
    assert result["errors"][0]["code"] == "limit"


def test_nesting_depth_limit(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_DEPTH=8))
    doc = load_example("hot-shot-weile")
    doc["extra"] = json.loads("[" * 10 + "]" * 10)
    (result,) = client.post("/api/records", data=dumps(doc), content_type="application/json").get_json()["results"]
    assert result["errors"][0]["code"] == "limit" and "deeper than 8" in result["errors"][0]["message"]
    deep = b"[" * 200_000 + b"]" * 200_000  # deep enough to exhaust the parser
    response = client.post("/api/records", data=deep, content_type="application/json")
    assert response.status_code == 422


def test_zip_member_count_and_total_size_limits(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_MEMBERS=2, INGEST_MAX_TOTAL_BYTES=6000))
    members = {f"{i}.json": dumps(variant(load_example("hot-shot-weile"), game_id=f"z{i}")) for i in range(3)}
    response = client.post("/api/records", data=make_zip(members), content_type="application/zip")
    (result,) = response.get_json()["results"]
    assert response.status_code == 422 and "at most 2 are accepted" in result["errors"][0]["message"]
    bomb = make_zip({"a.json": b" " * 5000 + b"{}", "b.json": b" " * 5000 + b"{}"})
    results = client.post("/api/records", data=bomb, content_type="application/zip").get_json()["results"]
    assert any("6000 bytes in total" in error["message"] or "zip bomb" in error["message"]
               for result in results for error in result["errors"])


def test_zip_bomb_costs_at_most_the_cap(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, INGEST_MAX_FILE_BYTES=100_000))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.json", b"0" * 50_000_000)  # 50 MB of zeros in about 50 kB
    response = client.post("/api/records", data=buffer.getvalue(), content_type="application/zip")
    (result,) = response.get_json()["results"]
    assert response.status_code == 422 and "zip bomb guard" in result["errors"][0]["message"]


def _empty_name_zip() -> bytes:
    """A zip whose only member has a zero-length name (the fuzzer found it; zipfile's
    ZipInfo.is_dir() raises IndexError on it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.json", b"{}")
    data = bytearray(buffer.getvalue())
    directory = data.index(b"PK\x01\x02")
    length = struct.unpack_from("<H", data, directory + 28)[0]
    struct.pack_into("<H", data, directory + 28, 0)
    del data[directory + 46:directory + 46 + length]
    end = data.index(b"PK\x05\x06")
    struct.pack_into("<I", data, end + 12, struct.unpack_from("<I", data, end + 12)[0] - length)
    return bytes(data)


def test_zip_member_without_a_name_is_an_archive_error(client: FlaskClient) -> None:
    response = client.post("/api/records", data=_empty_name_zip(), content_type="application/zip")
    (result,) = response.get_json()["results"]
    assert response.status_code == 422 and result["errors"][0]["code"] == "archive"


def test_form_part_limit(tmp_path: Path) -> None:
    client = login(limited_app(tmp_path, MAX_FORM_PARTS=3))
    files = [(io.BytesIO(b"{}"), f"{i}.json") for i in range(5)]
    assert client.post("/api/records", data={"files": files}).status_code == 413


def test_note_length_limits(client: FlaskClient, record_id: int) -> None:
    too_long = client.post(f"/api/records/{record_id}/notes", json={"text": "x" * 4001})
    assert too_long.status_code == 400 and "text" in too_long.get_json()["details"]
    case = client.post(f"/api/records/{record_id}/notes", json={"text": "x", "case_number": "c" * 65})
    assert case.status_code == 400 and "case_number" in case.get_json()["details"]
    form = client.post(f"/records/{record_id}/notes", data={"text": "x" * 4001})
    assert form.status_code == 400


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"options":' * 50_000, b"\xff\xfe", b'{"profile": 1e999}'])
def test_hostile_reaudit_bodies_are_400(client: FlaskClient, record_id: int, body: bytes) -> None:
    response = client.post(f"/api/records/{record_id}/audit", data=body, content_type="application/json")
    assert response.status_code == 400


def test_huge_ids_are_404_not_500(client: FlaskClient) -> None:
    for url in ("/api/records/99999999999999999999", "/records/9223372036854775808",
                "/api/records/9223372036854775808/trail"):
        assert client.get(url).status_code == 404
