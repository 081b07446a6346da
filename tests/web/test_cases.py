"""Cases and receipts over HTTP (issue 11): the JSON API exactly as the issue lists it, the pages,
the PDF bundle, errors as 400/404/409 naming the field, and roles (an uploader sees only its
platform's receipts and cases, and changes none)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import api_token, dumps, load_example, login, missettled, variant
from tests.web.test_pdf import needs_poppler, pages_of, text_of


def upload(client: FlaskClient, doc: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    """Upload one record; its result line."""
    response = client.post("/api/records", data=dumps(doc), content_type="application/json", headers=headers or {})
    return dict(response.get_json()["results"][0])


def two_revisions(client: FlaskClient) -> tuple[int, int]:
    """Game G-1 of platform alpha in two revisions (the second mis-settled)."""
    doc = variant(load_example("hot-shot-weile"), platform="alpha", game_id="G-1")
    return upload(client, doc)["record_id"], upload(client, missettled(doc))["record_id"]


def new_case(client: FlaskClient, number: str = "K-1", platform: str = "alpha") -> dict[str, Any]:
    """POST /api/cases; the body."""
    response = client.post("/api/cases", json={"number": number, "platform": platform, "player": "P1",
                                               "complaint": "我少收了 3 分"})
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.headers["Location"].endswith(f"/api/cases/{response.get_json()['id']}")
    return dict(response.get_json())


def test_the_case_api_from_opening_to_closing(client: FlaskClient) -> None:
    first, second = two_revisions(client)
    case = new_case(client)
    assert case["status"] == "open" and case["records"] == [] and case["decision"] is None
    attached = client.post(f"/api/cases/{case['id']}/records", json={"record": second, "revision": 1})
    assert attached.status_code == 201 and attached.get_json()["attached"] == first
    assert client.post(f"/api/cases/{case['id']}/records", json={"record": second}).status_code == 201
    again = client.post(f"/api/cases/{case['id']}/records", json={"record": second})
    assert again.status_code == 200
    body = client.get(f"/api/cases/{case['id']}").get_json()
    assert [r["id"] for r in body["records"]] == [first, second]
    assert [r["audit"]["verdict"] for r in body["records"]] == ["clean", "missettled"]
    audit_id = body["records"][1]["audits"][-1]["id"]
    decided = client.post(f"/api/cases/{case['id']}/decision", json={
        "outcome": "upheld", "note": "r2 underpays P1", "payments": [{"from": "P0", "to": "P1", "amount": 3}],
        "audit": audit_id})
    assert decided.status_code == 201
    decision = decided.get_json()["decision"]
    assert decision["audit_id"] == audit_id and decision["payments"] == [{"from": "P0", "to": "P1", "amount": 3}]
    assert client.post(f"/api/cases/{case['id']}/close").get_json()["status"] == "closed"
    listed = client.get("/api/cases", query_string={"status": "closed", "platform": "alpha", "q": "少收"}).get_json()
    assert [row["number"] for row in listed["cases"]] == ["K-1"] and listed["cases"][0]["outcome"] == "upheld"
    assert client.get("/api/cases", query_string={"number": "K-2"}).get_json()["total"] == 0
    assert client.post(f"/api/cases/{case['id']}/reopen").get_json()["status"] == "decided"
    actions = [e["action"] for e in client.get(f"/api/records/{second}/trail").get_json()]
    assert "case-attach" in actions


def test_case_api_errors_name_the_field(client: FlaskClient) -> None:
    first, _ = two_revisions(client)
    case = new_case(client)
    def refused(path: str, body: Any, status: int, field: str) -> None:
        response = client.post(path, json=body)
        assert response.status_code == status, (path, body, response.get_data(as_text=True))
        assert field in response.get_json()["details"], response.get_json()
    refused("/api/cases", {"number": "K-1", "platform": "alpha", "complaint": "x"}, 409, "number")
    refused("/api/cases", {"number": "K-3", "platform": "alpha"}, 400, "complaint")
    refused("/api/cases", {"number": "K-3", "platform": "alpha", "complaint": "x", "nope": 1}, 400, "nope")
    refused(f"/api/cases/{case['id']}/records", {"record": "1"}, 400, "record")
    refused(f"/api/cases/{case['id']}/records", {"record": 999}, 404, "record")
    refused(f"/api/cases/{case['id']}/records", {"record": first, "revision": 5}, 404, "revision")
    refused(f"/api/cases/{case['id']}/decision", {"outcome": "maybe", "note": "x"}, 400, "outcome")
    refused(f"/api/cases/{case['id']}/decision", {"outcome": "upheld", "note": "x",
                                                   "payments": [{"from": "a", "to": "b", "amount": -1}]}, 400,
            "payments")
    refused(f"/api/cases/{case['id']}/decision", {"outcome": "upheld", "note": "x", "audit": 999}, 400, "audit")
    refused(f"/api/cases/{case['id']}/close", {}, 409, "case")
    assert client.get("/api/cases/999").status_code == 404
    assert client.post("/api/cases", data="[", content_type="application/json").status_code == 400
    assert client.get("/api/cases", query_string={"status": "sleeping"}).status_code == 400


@needs_poppler
def test_case_pages_and_pdf(client: FlaskClient, tmp_path: Path) -> None:
    first, second = two_revisions(client)
    opened = client.post("/cases", data={"number": "K-7", "platform": "alpha", "player": "P1",
                                         "complaint": "两个版本的分数不一样"})
    assert opened.status_code == 303
    path = opened.headers["Location"]
    case_id = int(path.rsplit("/", 1)[1])
    assert client.post(f"/cases/{case_id}/records", data={"record": str(first)}).status_code == 303
    assert client.post(f"/cases/{case_id}/records", data={"record": f"#{second}"}).status_code == 303
    assert client.post(f"/cases/{case_id}/records", data={"record": "x"}).status_code == 400
    html = client.get(f"/cases/{case_id}").get_data(as_text=True)
    assert len(re.findall(r'class="case-record[ "]', html)) == 2 and "两个版本的分数不一样" in html and "投诉成立" in html
    decided = client.post(f"/cases/{case_id}/decision", data={"outcome": "partly_upheld", "note": "见 r2",
                                                             "from": ["0号位 P0", ""], "to": ["1号位 P1", ""],
                                                             "amount": ["3", ""], "audit": "", "confirm": "yes"})
    assert decided.status_code == 303
    html = client.get(f"/cases/{case_id}", query_string={"lang": "en"}).get_data(as_text=True)
    assert "complaint partly upheld" in html and "0号位 P0 pays 1号位 P1 3" in html  # the seats as chosen
    assert client.post(f"/cases/{case_id}/close", data={"confirm": "yes"}).status_code == 303
    listing = client.get("/cases", query_string={"status": "closed"}).get_data(as_text=True)
    assert "K-7" in listing
    pdf = client.get(f"/cases/{case_id}.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    bundle = tmp_path / "case.pdf"
    bundle.write_bytes(pdf.data)
    sheet = client.get(f"/records/{first}.pdf")
    (tmp_path / "one.pdf").write_bytes(sheet.data)
    text = text_of(bundle)
    assert text.index("K-7") < text.index("G-1")  # the case sheet first, then the reports
    assert text.index("K-7") < text.index("G-1 r1") < text.index("G-1 r2")  # the sheet, then both reports
    assert pages_of(bundle) >= pages_of(tmp_path / "one.pdf")  # in one flow (tests/web/test_pdf_pages.py)


def test_receipts_api_and_page(client: FlaskClient) -> None:
    two_revisions(client)
    client.post("/api/records", data=b'{"game_id": "G-lost", "seats": ', content_type="application/json")
    body = client.get("/api/receipts", query_string={"q": "g-lost"}).get_json()
    assert body["total"] == 1 and body["receipts"][0]["outcome"] == "rejected"
    assert body["receipts"][0]["game_id"] == "G-lost" and body["receipts"][0]["sha256"]
    assert client.get("/api/receipts", query_string={"outcome": "revision"}).get_json()["total"] == 1
    assert client.get("/api/receipts", query_string={"q": "admin"}).get_json()["total"] == 3
    assert client.get("/api/receipts", query_string={"outcome": "nope"}).status_code == 400
    page = client.get("/receipts", query_string={"outcome": "rejected"}).get_data(as_text=True)
    assert "G-lost" in page and "G-1" not in page


def test_refused_request_leaves_receipts(app: Flask, client: FlaskClient) -> None:
    headers = api_token(app, "beta-bot", "uploader", "beta")
    doc = variant(load_example("hot-shot-weile"), platform="alpha", game_id="G-wrong")
    response = client.post("/api/records", data=dumps(doc), content_type="application/json",
                           headers=headers)
    assert response.status_code == 403
    rows = client.get("/api/receipts", query_string={"outcome": "refused"}).get_json()["receipts"]
    assert len(rows) == 1 and rows[0]["error_codes"] == ["http-403"] and rows[0]["actor"] == "beta-bot"


def test_uploader_sees_only_its_platform(app: Flask, client: FlaskClient) -> None:
    two_revisions(client)
    alpha_case = new_case(client, "K-a", "alpha")
    new_case(client, "K-b", "beta")
    headers = api_token(app, "beta-bot", "uploader", "beta")
    upload(client, variant(load_example("hot-shot-weile"), platform="beta", game_id="G-b"), headers)
    mine = client.get("/api/receipts", headers=headers).get_json()
    assert {row["platform"] for row in mine["receipts"]} == {"beta"}
    assert client.get("/api/receipts", query_string={"platform": "alpha"}, headers=headers).status_code == 404
    cases = client.get("/api/cases", headers=headers).get_json()
    assert [row["number"] for row in cases["cases"]] == ["K-b"]
    assert client.get(f"/api/cases/{alpha_case['id']}", headers=headers).status_code == 404
    assert client.post("/api/cases", json={"number": "K-c", "platform": "beta", "complaint": "x"},
                       headers=headers).status_code == 403
    assert client.get("/cases", headers=headers).status_code == 403
    assert client.get("/receipts", headers=headers).status_code == 403  # the pages are for people
    assert client.post(f"/api/cases/{alpha_case['id']}/records", json={"record": 1}, headers=headers).status_code == 403


def test_auditor_may_work_cases(app: Flask) -> None:
    auditor = login(app, "au", "auditor")
    assert auditor.post("/api/cases", json={"number": "K-9", "platform": "", "complaint": "x"}).status_code == 201


def test_from_a_record_page_open_a_case_or_add_to_one(client: FlaskClient) -> None:
    first, second = two_revisions(client)
    page = client.get(f"/records/{first}").get_data(as_text=True)
    assert 'action="/cases/attach"' in page and "用这局立案" in page
    opened = client.post("/cases", data={"number": "K-r", "platform": "alpha", "complaint": "x", "record": str(first)})
    case_id = int(opened.headers["Location"].rsplit("/", 1)[1])
    added = client.post("/cases/attach", data={"number": "K-r", "record": str(second)})
    assert added.status_code == 303
    body = client.get(f"/api/cases/{case_id}").get_json()
    assert [row["id"] for row in body["records"]] == [first, second]
    assert client.post("/cases/attach", data={"number": "K-none", "record": str(first)}).status_code == 404
    assert "K-r" in client.get(f"/records/{first}").get_data(as_text=True)


@pytest.mark.parametrize("body, path", [
    (b'{"number": "K-1", "platform": "p", "complaint": "x", "player": "\\ud800"}', "body.player"),
    (b'{"number": "K-1", "platform": "p", "complaint": "x", "complaint": "y"}', "body"),
    (b'{"number": "K-1", "platform": "p", "complaint": NaN}', "body.complaint"),
    (b'{"number": 99999999999999999999999, "platform": "p", "complaint": "x"}', "body.number"),
])
def test_hostile_case_bodies_are_400_with_their_path(client: FlaskClient, body: bytes, path: str) -> None:
    """Cases read their JSON as strictly as uploads and notes (issue 12): lone surrogates, repeated
    keys, non-finite numbers and integers past 64 bits are refused naming the JSON path; nothing opened."""
    answer = client.post("/api/cases", data=body, content_type="application/json")
    assert answer.status_code == 400 and path in answer.get_json()["details"], answer.get_json()
    assert client.get("/api/cases").get_json()["total"] == 0
