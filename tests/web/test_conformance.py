"""The conformance routes (issue 15): the published JSON Schemas."""
from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from audit.kit.schemas import schema_bytes
from tests.conftest import api_token


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
