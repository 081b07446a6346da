"""Every number and JSON body the service reads, sent in the forms `int()` and `json.loads` let
through (issue 22.1), to every route of the URL map: a 4xx naming the field, with a `code` under
/api/, never a 500. Plus the smaller ones of issue 22.7.

The routes that read a number are found, not listed: each GET route is sent every numeric name
at once with a superscript digit, and web.numbers' messages record which field each route read
(in-process); then each (route, field) found gets every bad form alone. A minimum of pairs that
must be found keeps the discovery honest.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

import web.numbers
from tests.conftest import api_token, dumps, load_example, login, variant

BAD_NUMBERS = ["²", "٥", "５", "+5", " 5", "5 ", "5_0", "-1", "1e3", "0x10", "five", "9" * 25, str(2**63), "0" * 30 + "1"]
"""Forms that are not ASCII digits in range: superscript, Arabic-Indic, full-width, signs, spaces,
underscores, exponents, hex, words, past 64 bits, and 31 digits that int() reads as 1."""
BAD_SEGMENTS = ["²", "٥", "５", "+5", "5_0", "-1", "9" * 25, str(2**63)]
NUMERIC_NAMES = ("page", "per_page", "limit", "with", "record", "revision", "audit", "amount")
MUST_FIND = {("api.list_records", "page"), ("api.list_records", "per_page"), ("pages.records", "page"),
             ("trail.get_trail", "limit"), ("report.revision_diff_page", "with"), ("admin.trail_page", "record"),
             ("admin.trail_page", "per_page"), ("receipts.list_receipts", "page"), ("cases.api_list", "per_page")}
"""Pairs the discovery must find (if it finds none, it is broken, not the routes clean)."""


@pytest.fixture
def served(app: Flask) -> Iterator[tuple[Flask, FlaskClient]]:
    """An admin client on a service holding record 1 and case 1."""
    client = login(app)
    doc = load_example("hot-shot-weile")
    assert client.post("/api/records", data=dumps(doc), content_type="application/json").status_code == 201
    opened = client.post("/api/cases", json={"number": "A-1", "platform": doc.get("platform") or "p",
                                            "player": "x", "complaint": "why"})
    assert opened.status_code == 201, opened.get_data(as_text=True)
    yield app, client


def _path(rule: Any, segment: str = "1") -> str:
    values = {arg: (segment if rule._converters[arg].__class__ is web.numbers.RowId else "x") for arg in rule.arguments}
    path = rule.rule
    for arg, value in values.items():
        path = re.sub(rf"<(?:[^:<>]+:)?{arg}>", quote(value), path)
    return path


def _get_rules(app: Flask) -> list[Any]:
    return [r for r in app.url_map.iter_rules() if "GET" in (r.methods or ()) and r.endpoint != "static"
            and not r.rule.endswith((".pdf", ".zip", ".csv", ".json", ".toml")) and "/raw" not in r.rule]


def _discover(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str]]:
    """(endpoint, field) of every GET route that reads one of NUMERIC_NAMES as a number."""
    seen: list[str] = []
    describe = web.numbers.describe

    def spy(problem: Any, field: str, got: str, low: int, high: int) -> str:
        seen.append(field)
        return describe(problem, field, got, low, high)

    monkeypatch.setattr(web.numbers, "describe", spy)
    found: set[tuple[str, str]] = set()
    for rule in _get_rules(app):
        remaining = set(NUMERIC_NAMES)
        while remaining:  # read_number stops at the first bad field: drop it and ask again
            seen.clear()
            response = client.get(_path(rule), query_string={name: "²" for name in remaining})
            assert response.status_code < 500, (rule.rule, response.get_data(as_text=True)[:300])
            fields = {f for f in seen if f in remaining}
            if not fields:
                break
            found |= {(rule.endpoint, f) for f in fields}
            remaining -= fields
    monkeypatch.setattr(web.numbers, "describe", describe)
    return found


def test_every_number_of_every_get_route_is_read_by_the_number_reader(
        served: tuple[Flask, FlaskClient], monkeypatch: pytest.MonkeyPatch) -> None:
    app, client = served
    found = _discover(app, client, monkeypatch)
    assert MUST_FIND <= found, MUST_FIND - found
    rules = {r.endpoint: r for r in _get_rules(app)}
    for endpoint, field in sorted(found):
        rule = rules[endpoint]
        for bad in BAD_NUMBERS:
            response = client.get(_path(rule), query_string={field: bad})
            assert response.status_code == 400, (endpoint, field, bad, response.status_code)
            if rule.rule.startswith("/api/"):
                body = response.get_json()
                assert body["code"].startswith("number_") and field in body["details"], (endpoint, field, bad)
            else:
                assert response.content_type.startswith("text/html") and field in response.get_data(as_text=True)


def test_the_number_error_speaks_the_asked_language(served: tuple[Flask, FlaskClient]) -> None:
    _app, client = served
    en = client.get("/api/records", query_string={"page": "٥"}).get_json()
    zh = client.get("/api/records", query_string={"page": "٥", "lang": "zh"}).get_json()
    assert en["code"] == zh["code"] == "number_not_digits" and en["message"] != zh["message"]
    assert list(zh["details"]) == list(en["details"]) == ["page"]  # the field by its key; named in words (33.4)
    assert "page" in en["message"] and "页码" in zh["message"] and "整数" in zh["message"]
    page = client.get("/records", query_string={"page": "²", "lang": "zh"})
    assert page.status_code == 400 and "整数" in page.get_data(as_text=True)


def test_every_id_in_a_path_is_ascii_digits_or_not_found(served: tuple[Flask, FlaskClient]) -> None:
    app, client = served
    rules = [r for r in app.url_map.iter_rules()
             if any(c.__class__ is web.numbers.RowId for c in r._converters.values())]
    assert len(rules) >= 30
    for rule in rules:
        for segment in BAD_SEGMENTS:
            for method in sorted((rule.methods or set()) & {"GET", "POST"}):
                response = client.open(_path(rule, segment), method=method)
                assert response.status_code in (404, 405), (rule.rule, segment, method, response.status_code)
    assert client.get("/api/records/1").status_code == 200  # the same routes with ASCII digits work


FORMS = [("/cases", {"number": "B-1", "platform": "p", "player": "x", "complaint": "c"}, "record"),
         ("/cases/attach", {"number": "A-1"}, "record"),
         ("/cases/1/records", {}, "record"),
         ("/cases/1/records", {"record": "1"}, "revision"),
         ("/cases/1/decision", {"outcome": "upheld", "note": "n", "from": "a", "to": "b"}, "amount"),
         ("/cases/1/decision", {"outcome": "upheld", "note": "n"}, "audit"),
         ("/fit", {"source": "stored", "platform": "p", "profile": "weile"}, "limit")]
"""Every form field that holds a number, with the other fields it needs."""


@pytest.mark.parametrize(("url", "form", "field"), FORMS, ids=[f"{u} {f}" for u, _, f in FORMS])
def test_every_numeric_form_field_refuses_what_is_not_ascii_digits(served: tuple[Flask, FlaskClient], url: str,
                                                                  form: dict[str, str], field: str) -> None:
    _app, client = served
    for bad in BAD_NUMBERS:
        response = client.post(url, data={**form, field: bad})
        assert response.status_code == 400, (url, field, bad, response.status_code)
        assert field in response.get_data(as_text=True)


HOSTILE_BODIES = {
    "lone surrogate": b'{"note": "\\ud800", "outcome": "upheld", "record": 1, "text": "\\udfff"}',
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "nested 65": b'{"a":' * 65 + b"1" + b"}" * 65,
    "huge integer": b'{"record": 92233720368547758070, "text": "x", "outcome": "upheld", "note": "n"}',
    "repeated key": b'{"record": 1, "record": 2, "text": "x", "text": "y"}',
    "NaN": b'{"record": NaN}',
    "bool as number": b'{"record": true, "amount": true}',
    "bom and repeated key": b'\xef\xbb\xbf{"profile": "weile", "profile": "cuocuo"}',
}


def test_every_json_body_is_read_strictly(served: tuple[Flask, FlaskClient]) -> None:
    """Every POST route under /api/ that takes JSON, each hostile body: 4xx with a JSON error."""
    app, client = served
    rules = [r for r in app.url_map.iter_rules() if r.rule.startswith("/api/") and "POST" in (r.methods or ())
             and r.endpoint not in ("cases.api_close", "cases.api_reopen", "conformance.api_submit")]
    assert len(rules) >= 6
    for rule in rules:
        for name, body in HOSTILE_BODIES.items():
            response = client.post(_path(rule), data=body, content_type="application/json")
            assert 400 <= response.status_code < 500, (rule.rule, name, response.status_code)
            assert response.is_json, (rule.rule, name)


def test_a_json_body_with_a_bom_is_read(served: tuple[Flask, FlaskClient]) -> None:
    _app, client = served
    response = client.post("/api/cases", data=b"\xef\xbb\xbf" + json.dumps(
        {"number": "C-1", "platform": "p", "player": "x", "complaint": "c"}).encode(), content_type="application/json")
    assert response.status_code == 201


# ----- issue 22.7 ---------------------------------------------------------------------------------


def test_search_folds_the_turkish_dotted_and_dotless_i(served: tuple[Flask, FlaskClient]) -> None:
    _app, client = served
    base = load_example("hot-shot-weile")
    ids: dict[str, int] = {}
    for name in ("İSMAİL", "ılgaz", "Işık"):
        seats = [dict(seat, name=name if i == 0 else seat["name"]) for i, seat in enumerate(base["seats"])]
        response = client.post("/api/records", data=dumps(variant(base, game_id=f"tr-{len(ids)}", seats=seats)),
                               content_type="application/json")
        ids[name] = response.get_json()["results"][0]["record_id"]

    def found(q: str) -> set[int]:
        return {row["id"] for row in client.get("/api/records", query_string={"q": q}).get_json()["records"]}

    for q in ("ismail", "İsmail", "ISMAIL", "ısmaıl"):
        assert found(q) == {ids["İSMAİL"]}, q
    for q in ("ilgaz", "ILGAZ", "ılgaz", "İLGAZ"):
        assert found(q) == {ids["ılgaz"]}, q
    assert found("işik") == found("IŞIK") == found("ışık") == {ids["Işık"]}


@pytest.mark.parametrize("length", [201, 5_000, 7_900])
def test_an_over_long_q_under_api_answers_json(served: tuple[Flask, FlaskClient], length: int) -> None:
    _app, client = served
    response = client.get("/api/records", query_string={"q": "a" * length})
    assert response.status_code == 400 and response.is_json and "q" in response.get_json()["details"]
    page = client.get("/records", query_string={"q": "a" * length})
    assert page.status_code == 400 and page.content_type.startswith("text/html")


def test_a_url_past_the_limit_is_414_in_the_format_of_its_path(served: tuple[Flask, FlaskClient]) -> None:
    _app, client = served
    response = client.get("/api/records", query_string={"q": "a" * 9_000})
    assert response.status_code == 414 and response.get_json()["code"] == "url_too_long"
    page = client.get("/records", query_string={"q": "a" * 9_000})
    assert page.status_code == 414 and page.content_type.startswith("text/html")


def test_gunicorns_own_refusal_of_a_long_request_line_is_json() -> None:
    from web.server import too_long_answer

    head, _, body = too_long_answer(9_000, 8_190).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 414 ") and b"application/json" in head
    answer = json.loads(body)
    assert answer["code"] == "url_too_long" and "9000" in answer["message"] and "8190" in answer["message"]
    assert re.search("[\u4e00-\u9fff]", answer["message"])  # Chinese: the language nobody chose
    assert int(re.search(rb"Content-Length: (\d+)", head)[1]) == len(body)  # type: ignore[index]


def test_an_uploader_token_cannot_open_the_conformance_pages(served: tuple[Flask, FlaskClient]) -> None:
    app, _client = served
    headers = api_token(app, "feed", platform="p")
    anon = app.test_client()
    for url in ("/conformance", "/conformance/runs/1"):
        assert anon.get(url, headers=headers).status_code == 403, url
    assert anon.post("/conformance", headers=headers, data={"kit": "x"}).status_code == 403
    assert anon.get("/api/conformance/runs", headers=headers).status_code == 200  # the API stays its
