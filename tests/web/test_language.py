"""The language of findings and notes on the web (record-format.md, format 1.1): the API speaks
English unless `?lang=zh` or `Accept-Language: zh` asks otherwise; a page speaks its own language.
Stored audits keep `code` and `params`, so one stored in English reads in Chinese; an audit stored
before codes existed keeps its words."""
from __future__ import annotations

import json
from html import unescape
from typing import Any, Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from audit.catalogue import render_finding, render_note, seat_names
from records.store import Store
from tests.conftest import ROOT

Upload = Callable[..., Any]
NAMES = seat_names(json.loads((ROOT / "samples" / "missettled-burn-not-applied.json").read_text(encoding="utf-8")))
"""The players of the sample every test here uploads: the messages name them."""


def stored(upload: Upload, name: str) -> int:
    (result,) = upload((ROOT / "samples" / f"{name}.json").read_bytes()).get_json()["results"]
    return int(result["record_id"])


def burn_audit(client: FlaskClient, record_id: int, **kwargs: Any) -> dict[str, Any]:
    response = client.get(f"/api/records/{record_id}/audit", **kwargs)
    assert response.status_code == 200
    audit: dict[str, Any] = response.get_json()
    return audit


def burn(audit: dict[str, Any]) -> dict[str, Any]:
    (finding,) = [f for f in audit["findings"] if f["code"] == "burn_not_applied"]
    assert finding["rule"] == "R8.3" and finding["params"]["burn"] == "hot_shot"
    return finding


@pytest.mark.parametrize(("kwargs", "lang"), [
    ({}, "en"),
    ({"query_string": {"lang": "zh"}}, "zh"),
    ({"query_string": {"lang": "en"}, "headers": {"Accept-Language": "zh-CN"}}, "en"),
    ({"headers": {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}}, "zh"),
    ({"headers": {"Accept-Language": "fr-FR, en;q=0.5, zh;q=0.3"}}, "en"),
    ({"headers": {"Accept-Language": "de"}}, "en"),
])
def test_the_api_speaks_the_asked_language(client: FlaskClient, upload: Upload, kwargs: dict[str, Any],
                                           lang: str) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    audit = burn_audit(client, record_id, **kwargs)
    finding = burn(audit)
    assert finding["message"] == render_finding(finding, lang, NAMES)
    assert all(item["note"] == render_note(item, lang, NAMES) for item in audit["settlement"]["items"])


def test_the_page_cookie_does_not_change_the_api(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    client.get("/records?lang=zh")  # the pages remember Chinese in a cookie
    finding = burn(burn_audit(client, record_id))
    assert finding["message"] == render_finding(finding, "en", NAMES)


def test_record_detail_audit_list_and_reaudit_follow_the_language(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    zh = {"Accept-Language": "zh"}
    detail = client.get(f"/api/records/{record_id}", headers=zh).get_json()
    assert burn(detail["audit"])["message"] == render_finding(burn(detail["audit"]), "zh", NAMES)
    rows = client.get(f"/api/records/{record_id}/audits", headers=zh).get_json()
    assert [burn(row["audit"])["message"] for row in rows] == [render_finding(burn(rows[0]["audit"]), "zh", NAMES)]
    again = client.post(f"/api/records/{record_id}/audit?lang=zh", json={})
    assert again.status_code == 201
    assert burn(again.get_json()["audit"])["message"] == render_finding(burn(again.get_json()["audit"]), "zh", NAMES)
    stored_row = client.get(f"/api/records/{record_id}/audits").get_json()[-1]
    assert burn(stored_row["audit"])["message"] == render_finding(burn(stored_row["audit"]), "en", NAMES)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_report_page_and_what_if_speak_the_page_language(client: FlaskClient, upload: Upload, lang: str) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    finding = burn(burn_audit(client, record_id))
    page = unescape(client.get(f"/records/{record_id}?lang={lang}").get_data(as_text=True))
    assert render_finding(finding, lang, NAMES) in page
    other = "zh" if lang == "en" else "en"
    assert render_finding(finding, other, NAMES) not in page
    whatif = unescape(client.get(f"/records/{record_id}/whatif?lang={lang}&profile=weile").get_data(as_text=True))
    assert whatif.count(render_finding(finding, lang, NAMES)) >= 2  # the stored audit and the what-if one


def test_an_audit_stored_before_codes_keeps_its_words(app: Flask, client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    old = burn_audit(client, record_id)
    old["findings"] = [{k: v for k, v in f.items() if k not in ("code", "params")} | {"message": "old words"}
                       for f in old["findings"]]
    old["settlement"]["items"] = [{k: v for k, v in i.items() if k not in ("code", "params")}
                                  for i in old["settlement"]["items"]]
    store = Store.open(app.config["DATABASE"])
    try:
        store.add_audit(record_id, old, options=None, engine_version="0.9.0")
    finally:
        store.close()
    for kwargs in ({}, {"query_string": {"lang": "zh"}}):
        audit = burn_audit(client, record_id, **kwargs)
        assert {f["message"] for f in audit["findings"]} == {"old words"}
        assert [i["note"] for i in audit["settlement"]["items"]] == [i["note"] for i in old["settlement"]["items"]]
    assert "old words" in client.get(f"/records/{record_id}?lang=zh").get_data(as_text=True)
