"""The platform-profile pages (issue 36.3): an admin onboards a platform in the browser, from a fit of
its stored records to its adopted profile and the re-audit of its history, in Chinese and English,
without a file; uploads of the platform are then judged by it and the record page says so; bad
input is the form again with a coded message and nothing stored; only admins."""
from __future__ import annotations

import datetime
import html as html_module
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from records.store import Store
from sim.simulate import simulate
from tests.conftest import login
from tests.records.test_platforms import profile_text
from web.db import trail_key

PLATFORM = "club.example"


@pytest.fixture(scope="module")
def hands() -> list[dict[str, Any]]:
    """12 hands of a platform that pays 4 for a 冲锋鸡 and says it plays plain weile."""
    out = []
    for gen in simulate("weile", {"chicken.charge": 4}, 12, 41):
        gen.record["rules"] = {"profile": "weile"}
        gen.record["platform"] = PLATFORM
        out.append(gen.record)
    return out


def _jsonl(docs: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs).encode("utf-8")


def _hidden(html: str, form_class: str) -> dict[str, str]:
    """The named inputs and textareas of the form of that class."""
    found = re.search(rf'<form class="{form_class}"(.*?)</form>', html, re.S)
    assert found is not None, html
    body = found.group(1)
    fields = {m.group(1): html_module.unescape(m.group(2))
              for m in re.finditer(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', body, re.S)}
    fields.update({m.group(1): html_module.unescape(m.group(2))
                   for m in re.finditer(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', body, re.S)})
    return fields


def _verdicts(app: Flask) -> dict[int, tuple[str, int | None]]:
    """Per current record of the platform: its latest verdict and the version id that judged it."""
    store = Store.open(app.config["DATABASE"], trail_key=b"")
    try:
        return {row[0]: (row[1], row[2]) for row in store.db.execute(
            "SELECT r.id, r.verdict, a.platform_profile_id FROM records r JOIN audits a ON a.id = r.latest_audit_id "
            "WHERE r.platform = ? AND r.is_current = 1", [PLATFORM])}
    finally:
        store.close()


def _onboard(client: FlaskClient, lang: str, hands: list[dict[str, Any]]) -> str:
    """Fit the stored records, take the fit to the adoption form, adopt; the version page's HTML."""
    fitted = client.post(f"/fit?lang={lang}", data={"source": "stored", "platform": PLATFORM, "profile": "weile",
                                                    "name": "club", "limit": "50"},
                         content_type="multipart/form-data")
    assert fitted.status_code == 200, fitted.get_data(as_text=True)
    carried = _hidden(fitted.get_data(as_text=True), "adopt-fit")
    assert carried["platform"] == PLATFORM and 'name = "club"' in carried["profile_file"]
    form = client.post(f"/admin/platforms/from-fit?lang={lang}", data=carried)
    assert form.status_code == 200
    fields = _hidden(form.get_data(as_text=True), "adopt")
    assert fields["profile_file"] == carried["profile_file"] and fields["fit_base"] == "weile"
    fields.update(why="fitted on the stored history", effective_from="2000-01-01")
    adopted = client.post(f"/admin/platforms/adopt?lang={lang}", data=fields)
    assert adopted.status_code == 303, adopted.get_data(as_text=True)
    page = client.get(adopted.headers["Location"])
    assert page.status_code == 200
    return page.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_admin_onboards_a_platform_and_its_history_and_uploads_are_judged_by_it(
        app: Flask, hands: list[dict[str, Any]], lang: str) -> None:
    client = login(app)
    stored = client.post("/api/records", data=_jsonl(hands[:10]), content_type="application/x-ndjson")
    assert stored.status_code in (201, 207), stored.get_data(as_text=True)
    before = _verdicts(app)
    assert all(judge is None for _, judge in before.values()) and "missettled" in {v for v, _ in before.values()}
    page = _onboard(client, lang, hands)
    assert "已采用第 1 版" in page if lang == "zh" else "Version 1 adopted" in page
    assert 'class="reaudit-offer"' in page
    done = client.post(f"/admin/platforms/reaudit?lang={lang}", data={"platform": PLATFORM, "version": "1"})
    assert done.status_code == 303
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert 'data-status="finished"' in page and 'class="counts verdict-counts"' in page
    after = _verdicts(app)
    assert set(after) == set(before) and {judge for _, judge in after.values()} == {1}
    assert {v for v, _ in after.values()} == {"clean"}  # the fit explains every hand of the platform
    new = client.post("/api/records", data=_jsonl(hands[10:11]), content_type="application/x-ndjson")
    assert new.status_code in (201, 207)
    (record_id,) = set(_verdicts(app)) - set(after)
    assert _verdicts(app)[record_id] == ("clean", 1)
    record = client.get(f"/records/{record_id}?lang={lang}").get_data(as_text=True)
    assert 'data-platform-version="1"' in record
    assert ("判定所用规则" in record and "平台 club.example 第 1 版（自 2000-01-01 起）" in record) if lang == "zh" \
        else "platform club.example, version 1 (in force from 2000-01-01)" in record


def test_versions_are_listed_and_compared(app: Flask) -> None:
    client = login(app)
    for name, value in (("acme", "[4]"), ("acme2", "[3, 4]")):
        r = client.post("/admin/platforms/adopt", data={"platform": PLATFORM, "why": "edited by hand",
                                                       "effective_from": "2026-01-01",
                                                       "profile_file": profile_text(name, players=value)})
        assert r.status_code == 303
    listing = client.get("/admin/platforms?lang=zh").get_data(as_text=True)
    assert PLATFORM in listing and "第 2 版" in listing
    versions = client.get(f"/admin/platforms/platform?platform={PLATFORM}&lang=en").get_data(as_text=True)
    assert "version 1" in versions and "version 2" in versions and "edited by hand" in versions
    compared = client.get(f"/admin/platforms/compare?platform={PLATFORM}&a=1&b=2&lang=zh")
    text = compared.get_data(as_text=True)
    assert compared.status_code == 200 and ">players</code>" in text and "人数" in text
    assert "[3, 4]</code>" in text
    missing = client.get(f"/admin/platforms/compare?platform={PLATFORM}&a=1&b=9")
    assert missing.status_code == 404 and 'platform_version_missing' in missing.get_data(as_text=True)


@pytest.mark.parametrize(("change", "status", "code"), [
    ({"profile_file": "name = ["}, 400, "platform_profile_not_loaded"),
    ({"profile_file": profile_text(players="[5]")}, 400, "platform_profile_not_loaded"),
    ({"why": ""}, 400, "platform_why_missing"),
    ({"effective_from": "2026-02-30"}, 400, "date_bad"),
    ({"platform": ""}, 400, "platform_name_bad"),
    ({"expected_latest": "many"}, 400, "number_not_digits"),
])
def test_bad_input_is_the_form_again_and_nothing_is_adopted(app: Flask, change: dict[str, str], status: int,
                                                            code: str) -> None:
    client = login(app)
    form = {"platform": PLATFORM, "why": "w", "effective_from": "2026-01-01", "profile_file": profile_text(),
            **change}
    for lang in ("zh", "en"):
        r = client.post(f"/admin/platforms/adopt?lang={lang}", data=form)
        html = r.get_data(as_text=True)
        assert r.status_code == status and f'data-code="{code}"' in html and 'name="profile_file"' in html
        assert "Traceback" not in html
    assert _count(app) == 0


def _count(app: Flask) -> int:
    store = Store.open(app.config["DATABASE"], trail_key=b"")
    try:
        return int(store.db.execute("SELECT count(*) FROM platform_profiles").fetchone()[0])
    finally:
        store.close()


def test_an_adoption_racing_another_is_refused_not_stacked(app: Flask) -> None:
    left, right = login(app, "left"), login(app, "right")
    forms = [client.get(f"/admin/platforms/new?platform={PLATFORM}") for client in (left, right)]
    fields = [_hidden(f.get_data(as_text=True), "adopt") for f in forms]
    assert fields[0]["expected_latest"] == fields[1]["expected_latest"] == "0"
    for f in fields:
        f.update(why="mine", profile_file=profile_text())
    assert left.post("/admin/platforms/adopt", data=fields[0]).status_code == 303
    late = right.post("/admin/platforms/adopt?lang=zh", data=fields[1])
    assert late.status_code == 409 and 'data-code="platform_profile_stale"' in late.get_data(as_text=True)
    assert _count(app) == 1


def test_only_admins_see_or_change_platform_profiles(app: Flask, anon_client: FlaskClient) -> None:
    auditor = login(app, "aud", role="auditor")
    for path in ("/admin/platforms", f"/admin/platforms/new?platform={PLATFORM}"):
        assert auditor.get(path).status_code == 403
        assert anon_client.get(path).status_code in (302, 303, 401)
    r = auditor.post("/admin/platforms/adopt", data={"platform": PLATFORM, "why": "w", "effective_from": "2026-01-01",
                                                    "profile_file": profile_text()})
    assert r.status_code == 403 and _count(app) == 0
    assert 'href="/admin/platforms"' not in auditor.get("/fit").get_data(as_text=True)


def test_the_trail_tells_adoptions_and_reaudits(app: Flask) -> None:
    client = login(app)
    today = datetime.date.today().isoformat()
    r = client.post("/admin/platforms/adopt", data={"platform": PLATFORM, "why": "first", "effective_from": today,
                                                   "profile_file": profile_text()})
    assert r.status_code == 303
    assert client.post("/admin/platforms/reaudit", data={"platform": PLATFORM, "version": "1"}).status_code == 303
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            actions = [row[0] for row in store.db.execute("SELECT action FROM trail WHERE action LIKE 'platform-%'")]
        finally:
            store.close()
    assert actions == ["platform-adopt", "platform-reaudit"]
    trail_page = client.get("/admin/trail?lang=zh").get_data(as_text=True)
    assert "采用第 1 版规则" in trail_page


def test_the_command_reaudits_a_history_too_long_for_a_request(app: Flask, hands: list[dict[str, Any]]) -> None:
    client = login(app)
    assert client.post("/api/records", data=_jsonl(hands[:3]), content_type="application/x-ndjson").status_code in (
        201, 207)
    r = client.post("/admin/platforms/adopt", data={"platform": PLATFORM, "why": "w", "effective_from": "2000-01-01",
                                                   "profile_file": profile_text()})
    assert r.status_code == 303
    runner = app.test_cli_runner()
    done = runner.invoke(args=["platform-reaudit", "--platform", PLATFORM, "--version", "1", "--actor", "ops"])
    assert done.exit_code == 0, done.output
    assert "3 re-audited, 0 failed" in done.output
    assert {judge for _, judge in _verdicts(app).values()} == {1}
    missing = runner.invoke(args=["platform-reaudit", "--platform", PLATFORM, "--version", "2"])
    assert missing.exit_code == 2 and "no version 2" in missing.output
