"""Hostile values (issue 12): integers past 64 bits, lone surrogates, non-finite numbers, repeated
keys and deep nesting are 4xx naming the file, line and JSON path in every JSON the service reads,
never a 500, and a batch stores every good unit and reports each bad one."""
from __future__ import annotations

import io
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from records.store import Store
from tests.conftest import example_path, load_example, make_zip, variant

BIG = "9223372036854775808"
HOSTILE_FIELDS = [
    ("base", BIG, "base"),
    ("dealer_streak", "-" + BIG + "0", "dealer_streak"),
    ("client", '"\\ud800"', "client"),
    ("platform", '"x\\udc00"', "platform"),
    ("game_id", '"\\udbff"', "game_id"),
    ("extra", '{"v": 1e400}', "extra.v"),
    ("extra", '{"v": NaN}', "extra.v"),
    ("extra", '[Infinity]', "extra[0]"),
    ("extra", '{"k": 1, "k": 2}', "extra"),
]


def hostile_text(field: str, value: str) -> str:
    """A good record with one field's JSON replaced by hostile text."""
    doc = variant(load_example("hot-shot-weile"), **{field: "@@"})
    return json.dumps(doc, ensure_ascii=False).replace('"@@"', value)


def stored(app: Flask) -> int:
    """How many records the database holds."""
    store = Store.open(app.config["DATABASE"])
    try:
        return int(store.db.execute("SELECT count(*) FROM records").fetchone()[0])
    finally:
        store.close()


@pytest.mark.parametrize(("field", "value", "path"), HOSTILE_FIELDS)
def test_hostile_value_in_a_record_is_422_with_its_path(app: Flask, client: FlaskClient, field: str, value: str,
                                                        path: str) -> None:
    response = client.post("/api/records", data=hostile_text(field, value).encode("utf-8"),
                           content_type="application/json")
    assert response.status_code == 422
    (error,) = response.get_json()["results"][0]["errors"]
    assert error["code"] == "json" and error["path"] == path and "body.json" in error["message"]
    assert stored(app) == 0


def test_seat_name_with_a_lone_surrogate(client: FlaskClient) -> None:
    doc = load_example("hot-shot-weile")
    doc["seats"][2]["name"] = "@@"
    text = json.dumps(doc).replace('"@@"', '"\\ud83d"')
    error = client.post("/api/records", data=text, content_type="application/json").get_json()["results"][0]
    assert error["errors"][0]["path"] == "seats[2].name"


def test_jsonl_with_one_hostile_line_stores_every_good_line(app: Flask, client: FlaskClient) -> None:
    base = load_example("hot-shot-weile")
    lines = [json.dumps(variant(base, game_id=f"g-{i}"), ensure_ascii=False) for i in range(150)]
    lines.insert(100, hostile_text("base", BIG))
    body = ("\n".join(lines) + "\n").encode("utf-8")
    for attempt in range(2):  # a retry answers the same way: the good ones are duplicates
        response = client.post("/api/records", data=body, content_type="application/x-ndjson")
        assert response.status_code == 207
        results = response.get_json()["results"]
        bad = [result for result in results if result["status"] == "rejected"]
        assert len(results) == 151 and len(bad) == 1
        assert bad[0]["line"] == 101 and bad[0]["errors"][0]["path"] == "base"
        assert "body.jsonl:101" in bad[0]["errors"][0]["message"]
        expected = "duplicate" if attempt else "created"
        assert sum(result["status"] == expected for result in results) == 150
    assert stored(app) == 150


def test_hostile_zip_member_is_named(app: Flask, client: FlaskClient) -> None:
    archive = make_zip({"good.json": example_path("hot-shot-weile").read_bytes(),
                        "bad.json": hostile_text("client", '"\\ud800"').encode("utf-8")})
    response = client.post("/api/records", data={"files": [(io.BytesIO(archive), "batch.zip")]})
    assert response.status_code == 207
    bad = [result for result in response.get_json()["results"] if result["status"] == "rejected"]
    assert bad[0]["member"] == "bad.json" and bad[0]["errors"][0]["path"] == "client"
    assert stored(app) == 1


@pytest.fixture
def record_id(client: FlaskClient) -> int:
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                           content_type="application/json")
    return int(response.get_json()["results"][0]["record_id"])


@pytest.mark.parametrize(("options", "path"), [
    ('{"x": 1e400}', "options.x"), ('{"x": NaN}', "options.x"), ('{"x": ' + BIG + "}", "options.x"),
    ('{"x": "\\ud800"}', "options.x"), ('{"x": 1, "x": 2}', "options"),
])
def test_hostile_reaudit_options_are_400_nothing_stored(app: Flask, client: FlaskClient, record_id: int,
                                                        options: str, path: str) -> None:
    body = '{"options": ' + options + "}"
    response = client.post(f"/api/records/{record_id}/audit", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "body." + path in response.get_json()["details"]
    store = Store.open(app.config["DATABASE"])
    try:
        assert store.db.execute("SELECT count(*) FROM audits").fetchone()[0] == 1
    finally:
        store.close()


@pytest.mark.parametrize("options", ['{"x": 1e400}', '{"a":' * 70 + "1" + "}" * 70, "[" * 50_000,
                                     '{"x": "\\udfff"}', '{"x": 1, "x": 1}'])
def test_hostile_what_if_and_form_options_are_400(client: FlaskClient, record_id: int, options: str) -> None:
    url_bytes = len(f"/records/{record_id}/whatif?options=") + 3 * len(options)  # "[" is %5B
    expected = 414 if url_bytes > 8000 else 400  # past MAX_URL_LENGTH the URL itself is refused (issue 22.7)
    assert client.get(f"/records/{record_id}/whatif", query_string={"options": options}).status_code == expected
    form = client.post(f"/records/{record_id}/audit", data={"options": options, "profile": ""})
    assert form.status_code == 400


@pytest.mark.parametrize("text", ['"\\ud800"', '"a", "text": "b"', "1e400"])
def test_hostile_note_bodies_are_400(client: FlaskClient, record_id: int, text: str) -> None:
    body = '{"decision": "open", "text": ' + text + "}"
    response = client.post(f"/api/records/{record_id}/notes", data=body, content_type="application/json")
    assert response.status_code == 400


def test_note_form_with_broken_utf8_is_kept_as_text(client: FlaskClient, record_id: int) -> None:
    response = client.post(f"/records/{record_id}/notes", data=b"decision=open&text=%ED%A0%80x",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code in (303, 400)


@pytest.mark.parametrize("name", ["_method", "_anchor", "_scheme", "_external", "endpoint"])
def test_reserved_query_parameters_do_not_reach_url_for(client: FlaskClient, record_id: int, name: str) -> None:
    assert client.get("/records", query_string={name: "https"}).status_code == 400  # an unknown filter
    response = client.get(f"/records/{record_id}", query_string={name: "https"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "https://" not in page and f"{name}=" not in page


def test_control_characters_in_next_fall_back_to_the_list(app: Flask) -> None:
    from tests.conftest import TEST_PASSWORD, add_account
    add_account(app, "nexter", "auditor")
    client = app.test_client()
    client.get("/login")
    with client.session_transaction() as session:
        token = session["csrf"]
    response = client.post("/login", data={"name": "nexter", "password": TEST_PASSWORD, "csrf_token": token,
                                           "next": "/records\r\nSet-Cookie: x=1"})
    assert response.status_code == 303 and "\n" not in response.headers["Location"]


def test_too_many_parts_names_the_part_limit(tmp_path: object) -> None:
    from app import create_app
    from tests.conftest import login
    client = login(create_app({"TESTING": True, "DATABASE": f"{tmp_path}/parts.sqlite3", "MAX_FORM_PARTS": 3}))
    files = [(io.BytesIO(b"{}"), f"{i}.json") for i in range(5)]
    response = client.post("/api/records", data={"files": files})
    assert response.status_code == 413 and "MAX_FORM_PARTS" in response.get_json()["message"]


@pytest.mark.parametrize("uid", [2**64, -1, True, "1"])
def test_a_session_with_an_impossible_account_id_is_nobody(app: Flask, client: FlaskClient, uid: object) -> None:
    with client.session_transaction() as session:
        session["uid"] = uid
    response = client.get("/records")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
