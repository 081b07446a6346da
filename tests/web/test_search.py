"""The records list and `GET /api/records` as a search (issue 11): one `q` box, record ids,
local times with their offset, sortable headers, and bad filters as 400s in the asker's format."""
from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.conftest import dumps, load_example, variant


def post(client: FlaskClient, doc: dict[str, Any]) -> int:
    """Upload one record; its id."""
    response = client.post("/api/records", data=dumps(doc), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    return int(response.get_json()["results"][0]["record_id"])


def two(client: FlaskClient) -> tuple[int, int]:
    """Two records: one played at +08:00 by 阿明 and Bob, one at Z an hour later in UTC terms."""
    base = load_example("hot-shot-weile")
    seats = [dict(seat, name=name) for seat, name in zip(base["seats"], ("Bob", "阿明", "C", "D"))]
    first = post(client, variant(base, game_id="GY-0301-east", platform="alpha", seats=seats,
                                 played_at="2026-03-01T20:15:00+08:00"))
    second = post(client, variant(base, game_id="GY-0301-west", platform="beta",
                                  played_at="2026-03-01T13:15:00Z"))
    return first, second


def test_api_q_finds_fragments_case_insensitively(client: FlaskClient) -> None:
    first, second = two(client)
    def ids(**args: str) -> list[int]:
        body = client.get("/api/records", query_string=args).get_json()
        return sorted(row["id"] for row in body["records"])
    assert ids(q="bo") == [first] and ids(q="阿") == [first] and ids(q="0301") == [first, second]
    assert ids(q="WEST") == [second] and ids(q="ALPHA") == [first]
    row = client.get("/api/records", query_string={"q": "east"}).get_json()["records"][0]
    assert row["played_at"] == "2026-03-01T20:15:00+08:00" and row["played_utc"] == "2026-03-01T12:15:00Z"


def test_played_at_sorts_as_an_instant(client: FlaskClient) -> None:
    first, second = two(client)
    rows = client.get("/api/records", query_string={"sort": "played_at", "order": "asc"}).get_json()["records"]
    assert [row["id"] for row in rows] == [first, second]  # 12:15Z before 13:15Z, whatever the text says


def test_page_has_the_box_ids_local_times_and_sortable_headers(client: FlaskClient) -> None:
    first, _ = two(client)
    html = client.get("/records", query_string={"q": "bo", "lang": "en"}).get_data(as_text=True)
    assert 'name="q"' in html and 'value="bo"' in html
    assert f"#{first}" in html and "2026-03-01 20:15" in html and "20:15 UTC" not in html
    assert "GY-0301-west" not in html
    assert 'href="/records?q=bo&amp;sort=played_at&amp;order=desc"' in html  # keeps the search
    sorted_html = client.get("/records", query_string={"sort": "played_at", "order": "asc"}).get_data(as_text=True)
    assert 'aria-sort="ascending"' in sorted_html and "2026-03-01 21:15" in sorted_html  # 13:15Z on the +08:00 clock
    assert "13:15" not in sorted_html.replace('datetime="2026-03-01T13:15', "")


def test_bad_filter_is_a_400_page_for_a_browser_and_json_for_the_api(client: FlaskClient) -> None:
    page = client.get("/records", query_string={"case_status": "maybe"})
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert '<dt data-field="case_status">案件状态</dt>' in page.get_data(as_text=True)  # named in words (33.4)
    api = client.get("/api/records", query_string={"case_status": "maybe"})
    assert api.status_code == 400 and api.mimetype == "application/json" and "case_status" in api.get_json()["details"]
    gone = client.get("/api/records", query_string={"decision": "confirmed"})  # the notes' label: no filter now
    assert gone.status_code == 400 and "decision" in gone.get_json()["details"]
    too_long = client.get("/api/records", query_string={"q": "x" * 201})
    assert too_long.status_code == 400 and "q" in too_long.get_json()["details"]


def test_case_filter_case_status_and_case_number_search_on_the_page(client: FlaskClient) -> None:
    """Issue 33.5: after closing case 2026-0001, 已结案 finds its record and searching `2026-0001` too."""
    first, second = two(client)
    response = client.post(f"/api/records/{first}/notes", json={"case_number": "K-1", "text": "paid 3 too little"})
    assert response.status_code == 201
    body = client.get("/api/records", query_string={"case": "K-1"}).get_json()
    assert [row["id"] for row in body["records"]] == [first]
    case = client.post("/api/cases", json={"platform": "beta", "complaint": "x"}).get_json()
    assert client.post(f"/api/cases/{case['id']}/records", json={"record": second}).status_code in (200, 201)
    assert client.post(f"/api/cases/{case['id']}/decision", json={"outcome": "upheld", "note": "n"}).status_code == 201
    assert client.post(f"/api/cases/{case['id']}/close").status_code == 200
    body = client.get("/api/records", query_string={"case_status": "closed"}).get_json()
    assert [row["id"] for row in body["records"]] == [second]
    page = client.get("/records", query_string={"q": case["number"], "lang": "zh"}).get_data(as_text=True)
    assert f'href="/records/{second}"' in page and f'href="/records/{first}"' not in page
    assert 'name="case_status"' in page and 'name="decision"' not in page


def test_counts_cut_short_say_at_least_and_offer_the_full_count(client: FlaskClient,
                                                                  monkeypatch: Any) -> None:
    import records.queries as queries

    first, second = two(client)
    monkeypatch.setattr(queries, "COUNT_STEP", 1)
    monkeypatch.setattr(queries, "COUNT_BUDGET", 1)
    mix = {"player": "阿明", "game_id": "GY", "per_page": "1"}
    body = client.get("/api/records", query_string=mix).get_json()
    assert body["exact"] is False and body["total"] <= 1 and [r["id"] for r in body["records"]] == [first]
    short = client.get("/api/records", query_string={**mix, "per_page": "50"}).get_json()
    assert short["exact"] is True and short["total"] == 1  # a short first page is the whole count
    assert short["counts"]["clean"] == 1
    assert client.get("/api/records", query_string={**mix, "exact": "true"}).get_json()["exact"] is True
    assert client.get("/api/records", query_string={"platform": "alpha"}).get_json()["exact"] is True
    html = client.get("/records", query_string={**mix, "lang": "zh"}).get_data(as_text=True)
    assert 'class="total inexact"' in html and "exact=true" in html and "≥" in html
    full = client.get("/records", query_string={**mix, "exact": "true"}).get_data(as_text=True)
    assert 'class="total inexact"' not in full and "≥" not in full
    assert client.get("/records", query_string={**mix, "exact": "false"}).status_code == 200


def test_a_search_the_damaged_index_cannot_answer_is_a_503_naming_the_commands(app: Any, client: FlaskClient) -> None:
    """Issue 34.6: the trigram index's structure record deleted (every search of three characters
    or more then fails in SQLite), and the gram table dropped (one or two): a page in the reader's
    language and JSON under /api, status 503 and code `search_index_damaged`, never a 500; the
    list without `q` still answers."""
    import sqlite3

    from web.errors import words

    two(client)
    db = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    try:
        db.execute("DELETE FROM record_search_fts_data WHERE id = 10")
        db.execute("DROP TABLE record_grams")
    finally:
        db.close()
    for q in ("0301", "bo"):
        api = client.get("/api/records", query_string={"q": q})
        assert api.status_code == 503 and api.get_json()["code"] == "search_index_damaged"
        for lang in ("zh", "en"):
            page = client.get("/records", query_string={"q": q, "lang": lang})
            html = page.get_data(as_text=True)
            assert page.status_code == 503 and 'data-code="search_index_damaged"' in html
            assert words()["search_index_damaged"][lang] in html
    assert client.get("/api/records").status_code == 200 and client.get("/records").status_code == 200
