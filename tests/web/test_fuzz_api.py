"""Thousands of malformed requests against the API: never a 500, never a partial record, and
every stored record still audits the same afterwards.

Two fuzzers:
- hypothesis strategies written for this service: random bytes under every content type,
  mutated records (keys deleted, values replaced with hostile ones, bytes flipped), JSON lines,
  zips with hostile member names, multipart uploads, query strings, re-audit and note bodies,
  and since issue 12 the hostile tokens of bench/hostile_bodies.py (integers past 64 bits, lone
  surrogates, non-finite numbers, repeated keys, deep nesting) at any path of any of them, and in
  what-if options (about 2,000 requests);
- schemathesis (pinned in requirements.txt) driven by /api/openapi.json, positive and negative
  cases for every documented operation (about 180 requests). It runs offline against the WSGI
  app and found the first bug here: a record id past SQLite's integer range was a 500. Every
  JSON body it sends is sent again with a hostile token at one of its paths.
After each fuzzer the whole store is checked (`check_store`).
"""
from __future__ import annotations

import copy
import io
import json
import random
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from app import create_app
from records.pipeline import Pipeline
from records.store import Store
from records.verify import verify
from bench.hostile_bodies import HOSTILE_TOKENS, with_token
from tests.conftest import EXAMPLES, api_token, reference_paths
from web.db import trail_key

FUZZ = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))
pytestmark = pytest.mark.filterwarnings("ignore:Duplicate name:UserWarning")  # zips with repeated names, on purpose
UPLOAD_STATUSES = {200, 201, 202, 207, 400, 413, 415, 422}
SEEDS = [json.loads(path.read_text(encoding="utf-8")) for path in
         sorted(EXAMPLES.glob("*.json")) if not path.name.endswith(".audit.json")] + \
        [json.loads(path.read_text(encoding="utf-8")) for path in reference_paths()[:6]]


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """One app for the module (hypothesis reuses it across examples), with small limits so the
    limit paths are reached too."""
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path), "MAX_CONTENT_LENGTH": 256 * 1024,
                      "INGEST_MAX_RECORDS": 50, "INGEST_MAX_MEMBERS": 20, "INGEST_MAX_DEPTH": 32,
                      "INGEST_MAX_STRING": 500, "INGEST_MAX_EVENTS": 400})
    app.config["FUZZ_HEADERS"] = api_token(app, "fuzzer", "admin")
    return app


@pytest.fixture(scope="module")
def fuzz_client(fuzz_app: Flask) -> FlaskClient:
    """A client that authenticates with a bearer token (no CSRF involved)."""
    client = fuzz_app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = fuzz_app.config["FUZZ_HEADERS"]["Authorization"]
    return client


# ----- strategies -----------------------------------------------------------------------------

hostile_text = st.one_of(st.text(max_size=40), st.sampled_from([
    "", "\x00", "<script>alert(1)</script>", "'; DROP TABLE records; --", "../../etc/passwd", "\ud7ff\ufffd",
    "9" * 400, "名" * 501, "NaN", "-0", "1e999", "\u202e"]))
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                      st.floats(allow_nan=False, allow_infinity=False), hostile_text)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(hostile_text, inner, max_size=4)),
                          max_leaves=12)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a document."""
    yield prefix
    children = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for key, child in children:
        yield from paths(child, prefix + (key,))


def mutate(doc: Any, path: tuple[Any, ...], action: str, value: Any) -> Any:
    """Delete, replace or wrap the value at `path` (the document itself when path is empty)."""
    if not path:
        return value if action != "wrap" else [doc]
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if action == "delete":
        del parent[key]
    elif action == "wrap":
        parent[key] = {"x": [parent[key]]}
    else:
        parent[key] = value
    return doc


@st.composite
def mutated_record(draw: st.DrawFn) -> bytes:
    """A valid record with one to three hostile changes, then maybe its bytes damaged."""
    doc = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    doc["game_id"] = f"fuzz-{draw(st.integers(0, 10**9))}"
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths(doc))))
        doc = mutate(doc, path, draw(st.sampled_from(["delete", "replace", "wrap"])), draw(json_value))
    data = json.dumps(doc, ensure_ascii=draw(st.booleans())).encode("utf-8")
    damage = draw(st.sampled_from(["none", "none", "truncate", "flip", "bom", "nan"]))
    if damage == "truncate" and data:
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif damage == "flip" and data:
        index = draw(st.integers(0, len(data) - 1))
        data = data[:index] + bytes([data[index] ^ draw(st.integers(1, 255))]) + data[index + 1:]
    elif damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "nan":
        data = data.replace(b'"base": 1', b'"base": NaN', 1)
    return data


@st.composite
def token_record(draw: st.DrawFn) -> bytes:
    """A valid record with one hostile token (bench/hostile_bodies.py: huge integers, lone
    surrogates, non-finite numbers, repeated keys, deep nesting) at any path."""
    doc = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    doc["game_id"] = f"token-{draw(st.integers(0, 10**9))}"
    path = draw(st.sampled_from([path for path in paths(doc) if path]))
    return with_token(doc, path, draw(st.sampled_from(HOSTILE_TOKENS)), ensure_ascii=draw(st.booleans()))


@st.composite
def token_json(draw: st.DrawFn) -> bytes:
    """Any JSON value (a re-audit or note body) with a hostile token somewhere in it."""
    value = draw(st.one_of(st.dictionaries(st.sampled_from(["profile", "options", "text", "decision", "case_number"]),
                                           json_value, min_size=1, max_size=4), json_value))
    path = draw(st.sampled_from(list(paths(value))))
    return with_token(value, path, draw(st.sampled_from(HOSTILE_TOKENS)))


@st.composite
def valid_record(draw: st.DrawFn) -> bytes:
    """A record that passes the schema (a seed with a fresh game id)."""
    doc = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    doc["game_id"] = f"ok-{draw(st.integers(0, 10**9))}"
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


any_body = st.one_of(st.binary(max_size=3000), mutated_record(), token_record(),
                     json_value.map(lambda value: json.dumps(value).encode("utf-8")),
                     st.sampled_from([b"[" * 5000, b"{" * 5000, b'{"a":' * 3000, b"\n" * 50, b"\xff" * 10]))
content_types = st.sampled_from(["application/json", "application/x-ndjson", "application/zip", "text/plain",
                                 "application/octet-stream", "", "multipart/form-data; boundary=x",
                                 "application/json; charset=latin-1"])


@st.composite
def lines_body(draw: st.DrawFn) -> bytes:
    """JSON lines mixing good records, hostile ones and junk."""
    items = draw(st.lists(st.one_of(mutated_record(), st.builds(lambda: b""), st.binary(max_size=40),
                                    valid_record(), token_record()), min_size=1, max_size=8))
    return draw(st.sampled_from([b"\n", b"\r\n"])).join(items)


member_names = st.one_of(st.sampled_from(["a.json", "b.jsonl", "dir/c.json", "../../evil.json", "/abs.json",
                                          "__MACOSX/._a.json", ".hidden.json", "nested.zip", "notes.txt",
                                          "名字.json", "x" * 300 + ".json"]), st.text(max_size=20))


@st.composite
def zip_body(draw: st.DrawFn) -> bytes:
    """A zip whose members are records, junk and hostile names; sometimes corrupted."""
    buffer = io.BytesIO()
    compression = draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name in draw(st.lists(member_names, max_size=6)):
            content = draw(st.one_of(mutated_record(), valid_record(), lines_body(), token_record(),
                                     st.binary(max_size=200)))
            try:
                archive.writestr(name or "empty-name", content)
            except (ValueError, IndexError):  # names zipfile itself cannot write ("/", "\x00")
                continue
    data = buffer.getvalue()
    if draw(st.booleans()) and len(data) > 30:
        cut = draw(st.integers(1, len(data) - 1))
        data = data[:cut] if draw(st.booleans()) else data[:cut] + b"\x00" * 16 + data[cut + 16:]
    return data


# ----- checks ---------------------------------------------------------------------------------


def record_count(app: Flask) -> int:
    """Rows in `records`."""
    store = Store.open(app.config["DATABASE"])
    try:
        return int(store.db.execute("SELECT count(*) FROM records").fetchone()[0])
    finally:
        store.close()


def check_answer(response: Any, before: int, app: Flask) -> None:
    """Never a 500; JSON always; and the records added are exactly the ones reported new."""
    assert response.status_code in UPLOAD_STATUSES, (response.status_code, response.get_data()[:300])
    body = response.get_json()
    assert isinstance(body, dict)
    new = 0
    if "results" in body:
        new = sum(result["status"] in ("created", "revision") for result in body["results"])
        for result in body["results"]:
            assert (result["record_id"] is None) == (result["status"] in ("rejected", "skipped"))
    else:
        assert body["status"] == response.status_code and body["message"]
    assert record_count(app) == before + new


def check_store(app: Flask) -> None:
    """Every stored record is whole, matches its hash, has its receipt and trail row, and audits
    now exactly as it did when it was uploaded (its first audit: later ones may be what-ifs
    under other profiles and options, which the fuzzers send too)."""
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
    try:
        assert verify(store.db, store.trail_key) == []
        rows = list(store.db.query("SELECT r.id, r.verdict, r.latest_audit_id, "
                                   "(SELECT count(*) FROM uploads u WHERE u.record_id = r.id) AS receipts, "
                                   "(SELECT count(*) FROM trail t WHERE t.record_id = r.id AND t.action = 'upload') "
                                   "AS logged FROM records r"))
        for row in rows:
            assert row["verdict"] is not None and row["receipts"] >= 1 and row["logged"] >= 1, row
            assert Pipeline(store).what_if(row["id"]) == store.audits(row["id"])[0]["audit"], row["id"]
        current = store.db.execute("SELECT platform, game_id, sum(is_current) FROM records "
                                   "GROUP BY platform, game_id HAVING sum(is_current) != 1").fetchall()
        assert current == []
    finally:
        store.close()


# ----- hypothesis fuzzers -----------------------------------------------------------------------


@settings(FUZZ, max_examples=700)
@given(body=any_body, content_type=content_types, filename=st.one_of(st.none(), member_names))
def test_raw_bodies_never_500(fuzz_app: Flask, fuzz_client: FlaskClient, body: bytes, content_type: str,
                              filename: str | None) -> None:
    before = record_count(fuzz_app)
    query = {"filename": filename} if filename else {}
    response = fuzz_client.post("/api/records", data=body, content_type=content_type, query_string=query)
    check_answer(response, before, fuzz_app)


@settings(FUZZ, max_examples=600)
@given(body=st.one_of(mutated_record(), lines_body(), token_record()))
def test_mutated_records_and_lines_never_500(fuzz_app: Flask, fuzz_client: FlaskClient, body: bytes) -> None:
    before = record_count(fuzz_app)
    response = fuzz_client.post("/api/records", data=body, content_type="application/x-ndjson")
    check_answer(response, before, fuzz_app)


@settings(FUZZ, max_examples=300)
@given(body=zip_body(), as_multipart=st.booleans(), name=member_names)
def test_zips_and_multipart_never_500(fuzz_app: Flask, fuzz_client: FlaskClient, body: bytes, as_multipart: bool,
                                      name: str) -> None:
    before = record_count(fuzz_app)
    if as_multipart:
        response = fuzz_client.post("/api/records", data={"files": (io.BytesIO(body), name or "x.zip"),
                                                          "uploader": name})
    else:
        response = fuzz_client.post("/api/records", data=body, content_type="application/zip")
    check_answer(response, before, fuzz_app)


query_keys = st.sampled_from(["verdict", "profile", "rule", "platform", "client", "player", "date_from",
                              "date_to", "game_id", "revisions", "sort", "order", "page", "per_page", "lang",
                              "x", "limit"])


@settings(FUZZ, max_examples=400)
@given(query=st.dictionaries(query_keys, hostile_text, max_size=5), body=json_value,
       raw=st.one_of(st.none(), st.binary(max_size=200), token_json()), record=st.integers(-3, 2**63 + 5),
       options=token_json())
def test_queries_reaudits_and_notes_never_500(fuzz_app: Flask, fuzz_client: FlaskClient, query: dict[str, str],
                                              body: Any, raw: bytes | None, record: int, options: bytes) -> None:
    record_id = record if record > 100 or record < 1 else 1 + record % 3
    for url in ("/api/records", "/records", f"/api/records/{record_id}/trail"):
        assert fuzz_client.get(url, query_string=query).status_code in (200, 400, 404, 414), url  # 414: MAX_URL_LENGTH
    for url in (f"/records/{record_id}", f"/records/{record_id}/whatif"):
        page = fuzz_client.get(url, query_string={**query, "options": options.decode("utf-8")})
        assert page.status_code in (200, 400, 404, 414), (url, page.status_code)  # 414: past MAX_URL_LENGTH
    data = raw if raw is not None else json.dumps(body).encode("utf-8")
    for url in (f"/api/records/{record_id}/audit", f"/api/records/{record_id}/notes"):
        response = fuzz_client.post(url, data=data, content_type="application/json")
        assert response.status_code in (201, 400, 404, 405), (url, response.status_code, response.get_data()[:300])


def test_store_is_whole_and_audits_the_same_after_fuzzing(fuzz_app: Flask, fuzz_client: FlaskClient) -> None:
    """Runs after the fuzzers above (file order, as `make test`'s `--dist loadfile` keeps it). Run
    apart from them (another worker took them: `-n` without loadfile), the store is empty, so the
    seeds are uploaded first: the test never depends on how a run was split (issue 35.4)."""
    if record_count(fuzz_app) == 0:
        body = "\n".join(json.dumps(seed, ensure_ascii=False) for seed in SEEDS).encode("utf-8")
        fuzz_client.post("/api/records", data=body, content_type="application/x-ndjson")
    assert record_count(fuzz_app) > 0
    check_store(fuzz_app)


# ----- schemathesis -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api_schema(fuzz_app: Flask) -> Any:
    """The service's own OpenAPI document, bound to the WSGI app (no network)."""
    from web.openapi import build_spec

    with fuzz_app.test_request_context():
        document = build_spec().to_dict()
    schema = schemathesis.openapi.from_dict(document)
    schema.app = fuzz_app
    return schema


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_schemathesis_never_500(case: Any, fuzz_app: Flask) -> None:
    if "record_id" in (case.path_parameters or {}) and isinstance(case.path_parameters["record_id"], int):
        value = case.path_parameters["record_id"]
        case.path_parameters["record_id"] = value if abs(value) > 2**40 else 1 + abs(value) % 3  # hit real ones
    response = case.call(headers=fuzz_app.config["FUZZ_HEADERS"])
    case.validate_response(response, checks=[not_a_server_error])
    if isinstance(case.body, (dict, list)) and case.method.upper() in ("POST", "PUT", "PATCH"):
        # the same body with a hostile token (bench/hostile_bodies.py) at one of its paths
        rng = random.Random(repr(case.body))
        body = with_token(case.body, rng.choice(list(paths(case.body))), rng.choice(HOSTILE_TOKENS))
        url = case.formatted_path if hasattr(case, "formatted_path") else case.path.format(**case.path_parameters)
        hostile = fuzz_app.test_client().open(url, method=case.method, data=body, content_type="application/json",
                                              headers=fuzz_app.config["FUZZ_HEADERS"])
        assert hostile.status_code < 500, (url, hostile.status_code, hostile.get_data()[:300])


def test_store_is_whole_after_schemathesis(fuzz_app: Flask) -> None:
    check_store(fuzz_app)
