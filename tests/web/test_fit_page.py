"""The fit page (issue 21.4): upload records or choose stored ones; the fit, in Chinese and English;
the profile file downloaded only once the loader reads it back; bad input answered, never a 500."""
from __future__ import annotations

import html as html_module
import io
import json
import re
import tomllib
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from audit.profiles import Profile, build
from sim.simulate import simulate
from tests.conftest import login

PLAYED = {"chicken.charge": 4}


@pytest.fixture(scope="module")
def hands() -> list[dict[str, Any]]:
    """12 hands of a platform that pays 4 for a 冲锋鸡 and says it plays plain weile; one mistake."""
    out = []
    for gen in simulate("weile", PLAYED, 12, 41):
        gen.record["rules"] = {"profile": "weile"}
        gen.record["platform"] = "club.example"
        out.append(gen.record)
    wrong = out[5]
    wrong["result"]["scores"][0] += 2
    wrong["result"]["scores"][2] -= 2
    return out


def _jsonl(docs: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs).encode("utf-8")


def _fit(client: FlaskClient, data: bytes, file_name: str = "records.jsonl", lang: str = "en", **form: str) -> Any:
    fields: dict[str, Any] = {"source": "upload", "profile": "weile", **form}
    if data:
        fields["files"] = (io.BytesIO(data), file_name)
    return client.post(f"/fit?lang={lang}", data=fields, content_type="multipart/form-data")


def _profile_file(html: str) -> str:
    """The profile file a fit page shows (the textarea the download form posts)."""
    found = re.search(r'<textarea name="profile_file"[^>]*>(.*?)</textarea>', html, re.S)
    assert found is not None
    return html_module.unescape(found.group(1))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_form_is_there_in_both_languages(client: FlaskClient) -> None:
    zh = client.get("/fit?lang=zh").get_data(as_text=True)
    assert "按平台的牌局拟合规则配置" in zh and 'name="files"' in zh and 'name="platform"' in zh
    en = client.get("/fit?lang=en").get_data(as_text=True)
    assert "Fit a platform&#39;s profile" in en or "Fit a platform's profile" in en
    assert 'href="/fit"' in client.get("/records?lang=en").get_data(as_text=True)


def test_an_upload_is_fitted_and_its_mistake_listed(client: FlaskClient, hands: list[dict[str, Any]]) -> None:
    r = _fit(client, _jsonl(hands), name="platform")
    html = r.get_data(as_text=True)
    assert r.status_code == 200, html
    text = _text(html)
    assert "12 of 12 records fitted: clean under weile" in text and "under platform 11." in text
    assert "chicken.charge" in text and "records.jsonl:6" in text  # the mistake, by file and line
    data = tomllib.loads(_profile_file(html))
    assert build(Profile, data).chicken.charge == 4 and data["name"] == "platform"
    zh = _text(_fit(client, _jsonl(hands), lang="zh").get_data(as_text=True))
    assert "拟合结果" in zh and "任何取值都解释不了的牌局" in zh and "冲锋鸡" in zh


def test_stored_records_of_a_platform_are_fitted_with_links(client: FlaskClient, hands: list[dict[str, Any]]) -> None:
    stored = client.post("/api/records", data=_jsonl(hands), content_type="application/x-ndjson")
    assert stored.status_code in (201, 207), stored.get_data(as_text=True)
    r = client.post("/fit?lang=en", data={"source": "stored", "platform": "club.example", "profile": "weile",
                                          "limit": "50"}, content_type="multipart/form-data")
    html = r.get_data(as_text=True)
    assert r.status_code == 200, html
    assert "12 of 12 records fitted" in _text(html)
    assert re.search(r'<a href="/records/\d+">record \d+ \(' + re.escape(hands[5]["game_id"]), html)


def test_the_profile_file_downloads_once_the_loader_reads_it(client: FlaskClient, hands: list[dict[str, Any]]) -> None:
    toml = _profile_file(_fit(client, _jsonl(hands[:4]), name="ours").get_data(as_text=True))
    r = client.post("/fit/profile.toml", data={"name": "ours", "profile_file": toml})
    assert r.status_code == 200 and r.mimetype == "application/toml"
    assert r.headers["Content-Disposition"] == "attachment; filename=\"ours.toml\"; filename*=UTF-8''ours.toml"
    assert r.get_data(as_text=True) == toml
    bad = client.post("/fit/profile.toml", data={"name": "ours", "profile_file": toml.replace("charge = 4", "charge = -1")})
    assert bad.status_code == 400 and "chicken.charge" in bad.get_data(as_text=True)
    misnamed = client.post("/fit/profile.toml", data={"name": "theirs", "profile_file": toml})
    assert misnamed.status_code == 400
    assert client.post("/fit/profile.toml", data={"name": 'a"b', "profile_file": toml}).status_code == 400


@pytest.mark.parametrize(("form", "data", "status", "code"), [
    ({}, b"", 400, "fit_files_missing"),
    ({"profile": "nosuch"}, b"{}", 400, "unknown_profile"),
    ({"name": "a b"}, b"{}", 400, "profile_name_bad"),
    ({"name": "x" * 65}, b"{}", 400, "profile_name_bad"),  # the engine's one rule: 64 at most
    ({"name": "-x"}, b"{}", 400, "profile_name_bad"),
    ({}, b'{"a": NaN}\n', 400, "fit_nothing_read"),
    ({"source": "stored"}, b"", 400, "fit_platform_missing"),
    ({"source": "stored", "platform": "club.example", "date_from": "2026-13-01"}, b"", 400, "date_bad"),
    ({"source": "stored", "platform": "club.example", "limit": "many"}, b"", 400, "number_not_digits"),
])
def test_bad_input_is_the_form_again_with_the_problem(client: FlaskClient, form: dict[str, str], data: bytes,
                                                      status: int, code: str) -> None:
    r = _fit(client, data, **form)
    html = r.get_data(as_text=True)
    assert r.status_code == status and f'data-code="{code}"' in html and 'name="files"' in html


def test_what_cannot_be_read_is_named(client: FlaskClient, hands: list[dict[str, Any]]) -> None:
    data = _jsonl(hands[:3]) + b'{"format": "zhuoji/1", "a": [1, 1e400]}\n'
    html = _fit(client, data).get_data(as_text=True)
    assert "records.jsonl:4" in html and "1e400" in html and "3 of 3 records fitted" in _text(html)


def test_a_fit_past_the_cap_is_refused(app: Flask, hands: list[dict[str, Any]]) -> None:
    app.config["FIT_MAX_RECORDS"] = 3
    r = _fit(login(app, "cap"), _jsonl(hands[:4]))
    assert r.status_code == 413 and 'data-code="fit_too_many"' in r.get_data(as_text=True)


def test_an_auditor_may_fit_and_nobody_else_without_an_account(app: Flask, anon_client: FlaskClient) -> None:
    assert anon_client.get("/fit").status_code in (302, 303, 401)
    assert login(app, "aud", role="auditor").get("/fit").status_code == 200
