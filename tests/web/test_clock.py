"""One clock (issue 33.2): every time an operator reads, on every page and in every PDF, is in the
service's zone (`TIME_ZONE`, +08:00 unless configured), written without a zone of its own, and the
zone is named once per page and once per PDF. Dates typed into the receipts' and the trail's filters
are days of that zone; a case's yearly number takes that zone's year."""
from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Iterator
from datetime import timedelta, timezone
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import records.rows
from app import create_app
from records import clock
from tests.conftest import ROOT, api_token, app_config, dumps, login
from tests.web.test_pdf import needs_poppler, pdf_of, text_of
from tests.kit.kit_clients import answer_kit

UPLOADED = dt.datetime(2026, 12, 3, 15, 59, 30, tzinfo=timezone.utc)
"""The instant every stamp of the walk carries: 23:59:30 at +08:00 (the issue's page showed it as
both 23:59 +08:00 and 15:59 UTC)."""
SHOWN = "2026-12-03 23:59:30"
PLAYED_AT = "2026-12-03T15:30:00Z"
"""A record written in UTC by its platform: shown at +08:00 like everything else."""
PLAYED_SHOWN = "2026-12-03 23:30"
TIME = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?")


class Frozen(dt.datetime):
    """`records.rows.now` reads the clock through this: every stored stamp is UPLOADED."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return UPLOADED if tz is None else UPLOADED.astimezone(tz)


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records.rows, "datetime", Frozen)


def visible_text(html: str) -> str:
    """What a reader sees of a page: no scripts, styles, tags or attributes (a `<time datetime>`
    attribute is machine-readable ISO and may keep its zone)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<svg\b.*?</svg>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def walked(tmp_path: Path, kits: Path, frozen: None) -> Iterator[tuple[Flask, FlaskClient, dict[str, int]]]:
    """A service where everything happened at UPLOADED: a record (two revisions, a note, a case with
    a decision), a refused upload, an uploader account with a token, a conformance run."""
    app = create_app(app_config(tmp_path, CONFORMANCE_KITS=str(kits)))
    client = login(app)
    doc = records_doc()
    first = client.post("/api/records", data=dumps(doc), content_type="application/json").get_json()
    record_id = int(first["results"][0]["record_id"])
    doc["base"] = 2
    second = client.post("/api/records", data=dumps(doc), content_type="application/json").get_json()
    record_id = int(second["results"][0]["record_id"])
    client.post("/api/records", data=b"{", content_type="application/json")  # a refused receipt
    note = client.post(f"/api/records/{record_id}/notes", json={"text": "玩家申诉", "decision": "open"})
    assert note.status_code == 201
    case = client.post("/api/cases", json={"platform": doc["platform"], "complaint": "少了 3 分"}).get_json()
    assert client.post(f"/api/cases/{case['id']}/records", json={"record": record_id}).status_code == 201
    decided = client.post(f"/api/cases/{case['id']}/decision", json={"outcome": "dismissed", "note": "按审计"})
    assert decided.status_code == 201
    api_token(app, "uploader-1", "uploader", platform=doc["platform"])
    lines, _ = answer_kit(kits / "cuocuo-5")
    form = {"kit": "cuocuo-5", "platform": "club.example", "client_version": "2.1.0",
            "answers": (io.BytesIO(("\n".join(lines) + "\n").encode()), "answers.jsonl")}
    run = client.post("/api/conformance/runs", data=form, content_type="multipart/form-data")
    assert run.status_code == 201, run.get_data(as_text=True)[:300]
    job = client.post("/fit/jobs", data={"source": "stored", "platform": doc["platform"], "profile": "weile"},
                      content_type="multipart/form-data")  # queued: no worker runs in tests
    assert job.status_code == 303, job.get_data(as_text=True)[:300]
    ids = {"record": record_id, "case": int(case["id"]), "run": int(run.get_json()["id"]),
           "job": int(job.headers["Location"].rsplit("/", 1)[1])}
    yield app, client, ids


def records_doc() -> dict[str, Any]:
    """A sample record as its platform wrote it in UTC."""
    doc = json.loads((ROOT / "samples" / "missettled-burn-not-applied.json").read_text(encoding="utf-8"))
    doc["played_at"] = PLAYED_AT
    doc["game_id"] = "clock-1"
    return doc


def account_ids(client: FlaskClient) -> list[int]:
    html = client.get("/admin/accounts").get_data(as_text=True)
    return sorted({int(found) for found in re.findall(r'href="/admin/accounts/(\d+)"', html)})


def test_every_page_shows_every_time_on_one_clock_and_names_it_once(walked: tuple[Flask, FlaskClient,
                                                                                   dict[str, int]]) -> None:
    _, client, ids = walked
    pages = ["/records", "/records?revisions=all", f"/records/{ids['record']}", "/cases", f"/cases/{ids['case']}",
             "/receipts", "/admin/trail", "/admin/accounts", "/conformance", f"/conformance/runs/{ids['run']}",
             "/fit/jobs", f"/fit/jobs/{ids['job']}",
             *(f"/admin/accounts/{account}" for account in account_ids(client))]
    for lang, label in (("zh", "时间均为 UTC+08:00"), ("en", "Times in UTC+08:00")):
        for url in pages:
            response = client.get(f"{url}{'&' if '?' in url else '?'}lang={lang}")
            assert response.status_code == 200, url
            text = visible_text(response.get_data(as_text=True))
            times = set(TIME.findall(text))
            assert times, url  # each of these pages shows at least one time
            assert times <= {SHOWN, PLAYED_SHOWN}, (url, times - {SHOWN, PLAYED_SHOWN})
            assert "15:59" not in text and "15:30" not in text, url  # never the UTC reading of the instant
            assert text.count(label) == 1, (url, text.count(label))
            assert text.count("UTC") == 1, url  # the label is the only zone on the page
            assert not re.search(r"[+-]\d{2}:\d{2}\b", text.replace("UTC+08:00", "")), url


def test_the_record_page_shows_its_history_at_the_service_clock(walked: tuple[Flask, FlaskClient,
                                                                            dict[str, int]]) -> None:
    _, client, ids = walked
    html = client.get(f"/records/{ids['record']}").get_data(as_text=True)
    text = visible_text(html)
    assert PLAYED_SHOWN in text  # played_at written in UTC, read at +08:00
    for section in ("uploads", "audits", "revisions"):  # each history table shows the instant once more
        found = re.search(rf'id="{section}".*?</(?:section|details)>', html, re.S)
        if found:
            assert SHOWN in visible_text(found.group(0)), section
    assert text.count(SHOWN) >= 4  # uploads, audits, revisions, the note


@needs_poppler
@pytest.mark.parametrize("which", ["record", "case"])
def test_a_pdf_shows_one_zone_and_one_date_for_one_instant(walked: tuple[Flask, FlaskClient, dict[str, int]],
                                                           tmp_path: Path, which: str) -> None:
    _, client, ids = walked
    url = f"/records/{ids['record']}.pdf" if which == "record" else f"/cases/{ids['case']}.pdf"
    text = text_of(pdf_of(client, url, tmp_path))
    flat = re.sub(r"\s+", " ", text)
    assert set(TIME.findall(flat)) == {SHOWN, PLAYED_SHOWN}
    assert "15:59" not in flat and flat.count("UTC") == 1 and flat.count("UTC+08:00") == 1


def test_a_configured_zone_is_the_clock_and_its_name(tmp_path: Path, frozen: None) -> None:
    app = create_app(app_config(tmp_path, TIME_ZONE="-05:30"))
    client = login(app)
    doc = records_doc()
    client.post("/api/records", data=dumps(doc), content_type="application/json")
    text = visible_text(client.get("/records", query_string={"lang": "en"}).get_data(as_text=True))
    assert "2026-12-03 10:00" in text and "2026-12-03 10:29:30" in text  # 15:30Z and 15:59:30Z at -05:30
    assert text.count("Times in UTC-05:30") == 1 and text.count("UTC") == 1


def test_an_iana_zone_is_named_by_its_name(tmp_path: Path) -> None:
    app = create_app(app_config(tmp_path, TIME_ZONE="Asia/Shanghai"))
    text = visible_text(login(app).get("/records", query_string={"lang": "en"}).get_data(as_text=True))
    assert "Times in Asia/Shanghai" in text


@pytest.mark.parametrize("value", ["Mars/Olympus", "+25:00", "8", "CST", "+08:99", "../etc/passwd"])
def test_a_bad_zone_stops_the_start_naming_the_setting(tmp_path: Path, value: str) -> None:
    with pytest.raises(RuntimeError, match="TIME_ZONE") as caught:
        create_app(app_config(tmp_path, TIME_ZONE=value))
    assert "+08:00" in str(caught.value)  # says what it accepts


@pytest.mark.parametrize(("text", "minutes"), [("+08:00", 480), ("-05:30", -330), ("+0800", 480), ("UTC+08:00", 480),
                                               ("UTC", 0), ("Z", 0), ("+14:00", 840)])
def test_fixed_offsets_are_read(text: str, minutes: int) -> None:
    assert clock.parse_zone(text).utcoffset(None) == timedelta(minutes=minutes)


def test_stamps_are_shown_at_the_zone_without_a_suffix() -> None:
    east = clock.parse_zone("+08:00")
    assert clock.shown("2026-12-03T15:59:30.123Z", east) == "2026-12-03 23:59:30"
    assert clock.shown("2026-12-03T15:59:00+00:00", east) == "2026-12-03 23:59"
    assert clock.shown("2026-12-03T20:13:00+08:00", east) == "2026-12-03 20:13"
    assert clock.shown("2026-12-03T07:13:00-05:00", east) == "2026-12-03 20:13"
    assert clock.shown("2026-12-03T20:13:00", east) == "2026-12-03 20:13"  # no zone: as given
    assert clock.shown("yesterday", east) == "yesterday" and clock.shown(None, east) == ""
    assert clock.zone_name(east) == "UTC+08:00" and clock.zone_name(clock.parse_zone("-05:30")) == "UTC-05:30"
    assert clock.zone_name(clock.parse_zone("Asia/Shanghai")) == "Asia/Shanghai"
    assert clock.day_start("2026-12-04", east) == "2026-12-03T16:00:00.000Z"
    assert clock.day_end("2026-12-03", east) == "2026-12-03T16:00:00.000Z"


def test_date_filters_on_service_stamps_are_days_of_the_zone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A receipt stamped 16:30Z on Dec 3 was made on Dec 4 at +08:00: the receipts and the trail
    find it under Dec 4, and the overview counts its refusal on Dec 4."""
    late = dt.datetime(2026, 12, 3, 16, 30, tzinfo=timezone.utc)

    class Late(dt.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return late

    monkeypatch.setattr(records.rows, "datetime", Late)
    app = create_app(app_config(tmp_path))
    client = login(app)
    client.post("/api/records", data=b"{", content_type="application/json")
    def receipts(day: str) -> int:
        return int(client.get("/api/receipts", query_string={"date_from": day, "date_to": day}).get_json()["total"])
    assert receipts("2026-12-04") == 1 and receipts("2026-12-03") == 0
    def trail(day: str) -> str:
        return client.get("/admin/trail", query_string={"date_from": day, "date_to": day, "action": "receipt"}
                          ).get_data(as_text=True)
    assert "2026-12-04 00:30" in visible_text(trail("2026-12-04")) and "00:30" not in visible_text(trail("2026-12-03"))
    html = client.get("/overview", query_string={"lang": "en"}).get_data(as_text=True)
    rejected = html[html.index('id="chart-rejected"'):]
    assert "2026-12-04" in rejected and "2026-12-03" not in rejected


def test_a_case_number_takes_the_year_of_the_zone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opened at 2026-12-31 17:00Z, which is 2027-01-01 01:00 at +08:00: the first case of 2027."""
    class NewYear(dt.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return dt.datetime(2026, 12, 31, 17, 0, tzinfo=timezone.utc)

    monkeypatch.setattr(records.rows, "datetime", NewYear)
    client = login(create_app(app_config(tmp_path)))
    case = client.post("/api/cases", json={"platform": "alpha", "complaint": "x"}).get_json()
    assert case["number"] == "2027-0001"
