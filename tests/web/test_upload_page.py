"""The upload page (issue 11): the same totals line with and without script, a duplicate never
counted as saved, and the script sends only on Send (the browser test drives it)."""
from __future__ import annotations

import io
from typing import Any

from flask.testing import FlaskClient

from tests.conftest import dumps, load_example, variant
from web.uploads import totals


def test_totals_count_each_outcome_once() -> None:
    lines: list[dict[str, Any]] = [{"status": "created", "verdict": "clean"}, {"status": "revision", "verdict": "illegal"},
             {"status": "duplicate", "verdict": "clean"}, {"status": "rejected", "verdict": None},
             {"status": "created", "verdict": None}, {"status": "skipped", "verdict": None}]
    assert totals(lines) == {"created": 1, "revision": 1, "duplicate": 1, "rejected": 1, "skipped": 1, "failed": 1}


def test_form_without_script_shows_the_totals(client: FlaskClient) -> None:
    doc = dumps(variant(load_example("hot-shot-weile"), game_id="T-1"))
    files = [(io.BytesIO(doc), "a.json"), (io.BytesIO(doc), "again.json"), (io.BytesIO(b"{"), "bad.json")]
    response = client.post("/upload", data={"files": files}, content_type="multipart/form-data",
                           query_string={"lang": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 207
    assert "Created 1 · new revision 0 · duplicate 1 · rejected 1 · failed 0" in html


def test_the_page_asks_for_an_explicit_send(client: FlaskClient) -> None:
    html = client.get("/upload").get_data(as_text=True)
    assert 'id="send"' in html and "data-msg-auditing" in html and "data-msg-totals" in html
