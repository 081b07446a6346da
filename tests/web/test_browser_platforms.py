"""Issue 36.3 in a real browser (Playwright driving the system Chromium), in Chinese, at 1400 px and
390 px: an admin onboards a platform from its stored history to its adopted profile without a
file (fit, adopt, re-audit), then a record of the platform says which version judged it. No page
of the way scrolls sideways. Screenshots go to tests/artifacts/ (gitignored), for looking at."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from sim.simulate import simulate
from tests.conftest import login
from tests.web.serving import CHROMIUM, headless_chromium, serving
from tests.web.test_browser_disputes import ARTIFACTS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian package `chromium`)")

PLATFORM = "club.example"


@pytest.fixture
def site(app: Flask) -> Iterator[tuple[str, int]]:
    """8 stored hands of a platform that pays 4 for a 冲锋鸡 and says it plays plain weile."""
    client = login(app)
    lines = []
    for gen in simulate("weile", {"chicken.charge": 4}, 8, 41):
        gen.record["rules"] = {"profile": "weile"}
        gen.record["platform"] = PLATFORM
        lines.append(json.dumps(gen.record, ensure_ascii=False))
    response = client.post("/api/records", data=("\n".join(lines) + "\n").encode("utf-8"),
                           content_type="application/x-ndjson")
    assert response.status_code in (201, 207), response.get_data(as_text=True)
    record_id = int(response.get_json()["results"][0]["record_id"])
    with serving(app, client) as url:
        yield url, record_id


def _fits(page: Any, width: int, name: str) -> None:
    """The page does not scroll sideways; its screenshot kept."""
    page.wait_for_load_state()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"issue36-{name}-{width}.png"), full_page=True)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, name


@pytest.mark.parametrize("width", [1400, 390])
def test_an_admin_onboards_a_platform_in_the_browser(site: tuple[str, int], width: int) -> None:
    url, record_id = site
    with headless_chromium() as browser:
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(f"{url}/fit?lang=zh")
        page.check("input[name=source][value=stored]")
        page.select_option("#platform", PLATFORM)
        page.fill("#name", "club")
        page.click("form.fit button[type=submit]")
        page.wait_for_load_state()
        _fits(page, width, "fit")
        page.click("form.adopt-fit button[type=submit]")
        page.wait_for_load_state()
        assert page.input_value("form.adopt input[name=platform]") == PLATFORM
        assert 'name = "club"' in page.input_value("form.adopt textarea[name=profile_file]")
        _fits(page, width, "adopt")
        page.fill("form.adopt input[name=why]", "按已存牌局拟合")
        page.fill("form.adopt input[name=effective_from]", "2000-01-01")
        page.click("form.adopt button[type=submit]")
        page.wait_for_load_state()
        assert page.locator("p.adopted").count() == 1
        _fits(page, width, "adopted")
        page.click("section.reaudit-offer form button[type=submit]")
        page.wait_for_load_state()
        assert page.locator("div.reaudit-run[data-status=finished]").count() == 1
        _fits(page, width, "reaudited")
        page.goto(f"{url}/records/{record_id}?lang=zh", wait_until="domcontentloaded")
        judged = page.locator("dd.judged-by")
        assert judged.get_attribute("data-platform-version") == "1"
        assert "判定所用规则" in page.content()
        _fits(page, width, "record")
