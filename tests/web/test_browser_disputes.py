"""Issue 11 in a real browser (Playwright driving the system Chromium): search, case work, the
safe what-if and the upload page's explicit send, served by werkzeug on 127.0.0.1 in a thread
with a logged-in admin's session. Skips where Chromium or Playwright is missing. Screenshots go
to tests/artifacts/ (gitignored), for looking at."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import ROOT, dumps, load_example, login, missettled, variant
from tests.deadlines import wait_until
from tests.web.serving import CHROMIUM, headless_chromium, serving

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian package `chromium`)")
ARTIFACTS = ROOT / "tests" / "artifacts"


@pytest.fixture
def site(app: Flask) -> Iterator[tuple[str, dict[str, int]]]:
    """The app on an ephemeral port with three records (game G-1 in two revisions, one by 阿明 and
    Bob), every request carrying an admin's session cookie."""
    client = login(app)
    base = load_example("hot-shot-weile")
    seats = [dict(seat, name=name) for seat, name in zip(base["seats"], ("Bob", "阿明", "老王", "Di"))]
    doc = variant(base, game_id="GY-2026-0301-east", platform="alpha", seats=seats)
    ids = {}
    for name, body in (("first", doc), ("second", missettled(doc)),
                       ("other", variant(base, game_id="other-77", platform="alpha"))):
        response = client.post("/api/records", data=dumps(body), content_type="application/json")
        ids[name] = int(response.get_json()["results"][0]["record_id"])
    with serving(app, client) as url:
        yield url, ids


@pytest.fixture
def page() -> Iterator[Any]:
    """A fresh Chromium page."""
    with headless_chromium() as browser:
        yield browser.new_page(viewport={"width": 1280, "height": 900})


def shot(page: Any, name: str) -> None:
    """Keep a screenshot for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_search_box_finds_a_fragment_of_a_name(site: tuple[str, dict[str, int]], page: Any) -> None:
    url, ids = site
    page.goto(f"{url}/records")
    page.fill("#q", "BO")
    page.click("p.search button")
    page.wait_for_url("**q=BO**")
    rows = page.locator("table.records tbody tr")
    # both revisions of the game (issue 23: a newer one does not hide the one disputed), newest first
    assert rows.count() == 2 and f"#{ids['second']}" in rows.first.inner_text()
    assert f"#{ids['first']}" in rows.nth(1).inner_text()
    page.fill("#q", "明")
    page.click("p.search button")
    page.wait_for_url("**q=%E6%98%8E**")
    assert page.locator("table.records tbody tr").count() == 2
    page.click("th[aria-sort] >> text=牌局编号")
    assert page.locator("th[aria-sort=ascending]").count() == 1
    shot(page, "issue11-search")


def test_case_work_from_opening_to_closing(site: tuple[str, dict[str, int]], page: Any) -> None:
    url, ids = site
    page.goto(f"{url}/cases")
    page.fill("input[name=number]", "K-100")
    page.fill("input[name=platform]", "alpha")
    page.fill("input[name=player]", "阿明")
    page.fill("textarea[name=complaint]", "第二个版本少给了我 2 分")
    page.click("section.new-case button")
    page.wait_for_url("**/cases/*")
    for record_id in (ids["first"], ids["second"]):
        page.fill("form.attach input[name=record]", str(record_id))
        page.click("form.attach button")
        page.wait_for_load_state()
    assert page.locator(".case-record").count() == 2
    assert page.locator(".case-record td.differs").count() > 0  # the mis-settled revision differs
    page.select_option("form.decide select[name=outcome]", "upheld")
    page.locator("form.decide select[name=from]").first.select_option("0号位 Bob")
    page.locator("form.decide select[name=to]").first.select_option("1号位 阿明")
    page.locator("form.decide input[name=amount]").first.fill("2")
    page.fill("form.decide textarea[name=note]", "按第一版结算")
    page.click("form.decide button")
    page.wait_for_load_state()
    assert "0号位 Bob 付给 1号位 阿明 2 分" in page.inner_text(".restated")  # asked first, in words
    shot(page, "issue33-confirm")
    page.click("article.case-confirm form button >> nth=0")
    page.wait_for_load_state()
    assert "0号位 Bob 付给 1号位 阿明 2 分" in page.inner_text(".decisions")
    shot(page, "issue11-case")
    page.click("text=结案")
    page.wait_for_load_state()
    page.click("article.case-confirm form button")
    page.wait_for_load_state()
    assert "已结案" in page.inner_text("h1")
    page.goto(f"{url}/cases?status=closed")
    assert "K-100" in page.inner_text("table.cases")


def test_safe_what_if_refuses_a_typo_and_asks_before_storing(site: tuple[str, dict[str, int]], page: Any) -> None:
    url, ids = site
    record = ids["first"]
    page.goto(f"{url}/records/{record}/whatif")
    page.fill("textarea[name=options]", '{"nope": 1}')
    page.click("section.whatif button")
    page.wait_for_load_state()
    error = page.locator(".option-error .error-message")  # the option and the parameters by their words (33.4)
    assert error.get_attribute("data-field") == "options.nope" and error.get_attribute("data-code") == "unknown_parameter"
    assert page.locator('.option-error [data-name="hot_shot.bonus"]').inner_text() == "热炮加分"
    assert page.locator("form.keep").count() == 0  # nothing to store
    shot(page, "issue11-whatif-refused")
    page.fill("textarea[name=options]", '{"hot_shot": {"bonus": 2}}')
    page.click("section.whatif button")
    page.wait_for_load_state()
    page.click("form.keep button")
    page.wait_for_load_state()
    assert page.locator(".confirm-store").count() == 1
    shot(page, "issue11-confirm")
    page.fill("textarea[name=reason]", "平台确认热炮加 2")
    page.check("input[name=confirm]")
    page.click(".confirm-store button")
    page.wait_for_url(f"**/records/{record}")
    response = page.request.get(f"{url}/api/records/{record}/trail")
    reasons = [entry["detail"].get("reason") for entry in response.json() if entry["action"] == "reaudit"]
    assert reasons == ["平台确认热炮加 2"]


def test_upload_sends_only_on_send_and_totals_the_results(site: tuple[str, dict[str, int]], page: Any,
                                                          tmp_path: Path) -> None:
    url, _ = site
    good = tmp_path / "good.json"
    good.write_bytes(dumps(variant(load_example("hot-shot-weile"), game_id="up-1", platform="alpha")))
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"game_id": "up-bad", ')
    page.goto(f"{url}/upload")
    page.set_input_files("#files", [str(good), str(bad)])
    assert "2" in page.inner_text("#chosen")
    before = page.request.get(f"{url}/api/receipts?q=up-").json()["total"]
    assert before == 0  # choosing uploaded nothing (a late upload of the choice shows below as 已存在 1)
    page.click("#send")
    # polled from here: wait_for_function's own polling evaluates a string, which the page's CSP
    # (no 'unsafe-eval') refuses whenever the first check is not already true
    results = page.locator("#upload-results li.result-created, #upload-results li.result-rejected")
    wait_until(lambda: results.count() == 2, 30, "both files' results on the upload page")
    totals = page.inner_text("#upload-totals")
    assert "新保存 1" in totals and "拒收 1" in totals and "已存在 0" in totals
    number = page.locator("#upload-results a.record-number")  # the record number, linked to its case bar
    assert number.count() == 1 and number.first.get_attribute("href").endswith("#cases")
    assert number.first.inner_text().startswith("记录 #")
    shot(page, "issue11-upload")
    assert page.request.get(f"{url}/api/receipts?q=up-").json()["total"] == 2
