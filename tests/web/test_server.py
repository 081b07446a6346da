"""Header fields past the limits (issue 34.5): the application refuses them itself, 431 in the format of
the path (JSON under /api/, a page elsewhere); gunicorn, as `make run` starts it (web/gunicorn_conf.py),
lets them through to it, and answers past its own limits in JSON (web/server.py), never its HTML page."""
from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bench.load_test import HOST, TRAIL_KEY, free_port
from tests.conftest import ROOT
from tests.deadlines import scaled, wait_until
from web import gunicorn_conf
from web.errors import DEFAULT_MAX_HEADER_FIELD_SIZE, DEFAULT_MAX_HEADER_FIELDS
from web.server import headers_answer

BIG = "x" * 20_000
"""A 20 KB header value: past the application's limit, within gunicorn's."""
MANY = {f"X-Extra-{n}": "1" for n in range(150)}
"""150 header fields: past the application's limit, within gunicorn's."""


def _code(response: Any) -> str:
    if response.is_json:
        return str(response.get_json()["code"])
    found = re.search(r'data-code="([^"]+)"', response.get_data(as_text=True))
    assert found is not None, response.get_data(as_text=True)[:500]
    return found[1]


@pytest.mark.parametrize(("headers", "code"), [
    ({"X-Big": BIG}, "header_too_large"),
    (MANY, "too_many_headers"),
    ({"Cookie": f"junk={BIG}"}, "header_too_large"),
])
def test_the_application_refuses_header_fields_past_its_limits_in_the_paths_format(
        app: Flask, headers: dict[str, str], code: str) -> None:
    client = app.test_client(use_cookies=False)  # sends the Cookie header as given; refused before the sign-in check
    api = client.get("/api/records", headers=headers)
    assert api.status_code == 431 and api.is_json and api.get_json()["code"] == code, api.get_data()[:300]
    assert re.search("[\u4e00-\u9fff]", client.get("/api/records?lang=zh", headers=headers).get_json()["message"])
    page = client.get("/records", headers=headers)
    assert page.status_code == 431 and page.mimetype == "text/html" and _code(page) == code


def test_header_fields_within_the_limits_pass(client: FlaskClient) -> None:
    fine = {f"X-Extra-{n}": "1" for n in range(DEFAULT_MAX_HEADER_FIELDS - 20)}
    fine["X-Big"] = "x" * (DEFAULT_MAX_HEADER_FIELD_SIZE - len("X-Big: "))
    assert client.get("/api/records", headers=fine).status_code == 200


def test_the_limits_are_settings(app: Flask, client: FlaskClient) -> None:
    app.config.update(MAX_HEADER_FIELDS=200, MAX_HEADER_FIELD_SIZE=32_768)
    assert client.get("/api/records", headers={**MANY, "X-Big": BIG}).status_code == 200


def test_gunicorn_lets_through_what_the_application_refuses() -> None:
    assert gunicorn_conf.worker_class == "web.server.Worker"
    assert gunicorn_conf.limit_request_fields > DEFAULT_MAX_HEADER_FIELDS
    assert gunicorn_conf.limit_request_field_size > DEFAULT_MAX_HEADER_FIELD_SIZE
    assert gunicorn_conf.limit_request_line == 8190  # gunicorn's most


def test_gunicorns_own_refusal_of_header_fields_is_json() -> None:
    head, _, body = headers_answer(True, 200, 32_768).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 ") and b"application/json" in head
    answer = json.loads(body)
    assert answer["code"] == "too_many_headers" and "200" in answer["message"] and "32768" in answer["message"]
    assert re.search("[\u4e00-\u9fff]", answer["message"])  # Chinese: the language nobody chose
    assert json.loads(headers_answer(False, 200, 32_768).partition(b"\r\n\r\n")[2])["code"] == "header_too_large"


# ----- the real server ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """gunicorn on a loopback port with the settings `make run` gives it (one worker); its port."""
    folder = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    env = {**os.environ, "FLASK_DATABASE": str(folder / "service.sqlite3"), "FLASK_SECRET_KEY": secrets.token_hex(16),
           "FLASK_TRAIL_KEY": TRAIL_KEY.decode("ascii"), "PYTHONUNBUFFERED": "1"}
    with open(folder / "server.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:web.gunicorn_conf", "--bind",
                                    f"{HOST}:{port}", "--workers", "1", "--threads", "2", "app:create_app()"],
                                   cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        def answering() -> bool:
            assert process.poll() is None, (folder / "server.log").read_text(errors="replace")
            return _status(port, "/health") == 200

        wait_until(answering, 60, "gunicorn answering /health")
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=scaled(30))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=scaled(30))
    assert "Traceback" not in (folder / "server.log").read_text(encoding="utf-8", errors="replace")


def _status(port: int, path: str) -> int | None:
    try:
        return _get(port, path, {})[0]
    except OSError:
        return None


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, bytes]:
    """One GET on its own connection: (status, content type, body)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=scaled(30))
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(("headers", "code"), [
    ({"X-Big": BIG}, "header_too_large"),  # the application's refusals, through gunicorn
    (MANY, "too_many_headers"),
    ({"Cookie": f"junk={BIG}"}, "header_too_large"),
    ({"X-Big": "x" * 40_000}, "header_too_large"),  # past gunicorn's own limits: its worker's JSON
    ({f"X-Extra-{n}": "1" for n in range(250)}, "too_many_headers"),
])
def test_under_api_every_refusal_of_header_fields_is_json(gunicorn: int, headers: dict[str, str], code: str) -> None:
    status, content_type, body = _get(gunicorn, "/api/records", headers)
    assert status == 431 and content_type.startswith("application/json"), (status, content_type, body[:300])
    answer = json.loads(body)
    assert answer["status"] == 431 and answer["code"] == code


def test_elsewhere_the_application_answers_with_its_page(gunicorn: int) -> None:
    status, content_type, body = _get(gunicorn, "/records", {"X-Big": BIG})
    assert status == 431 and content_type.startswith("text/html") and b'data-code="header_too_large"' in body
    assert _get(gunicorn, "/api/records", {})[0] == 401  # within the limits: on to the sign-in check
