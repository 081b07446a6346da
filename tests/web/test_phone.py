"""Every page at 390 px (issue 23, point 5): a phone shows the page without sideways scrolling of
the page itself (a table may scroll inside its own box), and its tiles and chart labels stay
readable. Headless Chromium driven by Playwright opens every page of the URL map with sample data
behind it (tests/web/site.py, the same walk as the Chinese-everywhere test) in Chinese, one after
the other in one tab. A page that breaks a rule is kept as a screenshot in tests/artifacts/phone-*.png;
with `ZHUOJI_TEST_SCREENSHOTS=1` every page is (a full-page picture of each was a third of the walk's
time, issue 35.4)."""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from app import create_app
from kit.build import build_kit, write_kit
from tests.conftest import ROOT, app_config
from tests.web.serving import CHROMIUM, headless_chromium, serving
from tests.web.site import Site, build_site, page_urls

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian package `chromium`)")
ARTIFACTS = ROOT / "tests" / "artifacts"
WIDTH = 390
MIN_TILE_PX = 16
"""The narrowest a tile of the before/after pictures may be on a phone (issue 23.5: they were about 7).
Tiles written inline in a sentence are drawn at the text's size (about 15 px) and are not counted."""
MIN_LABEL_PX = 9
"""The smallest chart label, in CSS pixels as drawn (the labels were about 6)."""
MIN_CONTROL_PX = 44
"""The shortest side of a control a thumb presses (issue 33.6: timeline ticks were 2.7 px, buttons
21-29 px): buttons, fields, drop-downs, disclosure summaries, the timeline, pager, tab and menu links.
A checkbox counts with its label (the label is what a thumb presses); a link inside a sentence is
text, not a control."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    folder = tmp_path_factory.mktemp("phone-site")
    write_kit(build_kit("cuocuo", {}, cases=32, seed=5, min_count=1), folder / "kits" / "cuocuo-5")
    app = create_app(app_config(folder, CONFORMANCE_KITS=str(folder / "kits")))
    built = build_site(app, folder / "kits")
    with serving(app, built.client) as url:
        yield built, url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium() as chrome:
        yield chrome


WIDE = """width => Array.from(document.querySelectorAll('body *'))
    .filter(e => e.offsetParent !== null && e.getBoundingClientRect().width > 0)
    .filter(e => !Array.from(document.querySelectorAll('*')).some(s => s !== e && s.contains(e)
        && ['auto', 'scroll'].includes(getComputedStyle(s).overflowX)))
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className : ''))
    .slice(0, 8)"""
"""Elements that reach past the screen's right edge and are not inside a box that scrolls."""

TILES = """() => Array.from(document.querySelectorAll('.before-after svg use[href^="#zj-"]'))
    .filter(e => e.getBoundingClientRect().width > 0 && e.closest('svg').getBoundingClientRect().height > 0)
    .map(e => e.getBoundingClientRect().width)"""

CONTROLS = """min => Array.from(document.querySelectorAll('button, input:not([type=hidden]), select, textarea, summary, '
    + 'ol.timeline a, nav.pager a, nav.tabs a, header.site a, nav.lang a, nav.report-nav a, .table-controls a'))
    .filter(e => e.offsetParent !== null)
    .map(e => ['checkbox', 'radio'].includes(e.type) && e.closest('label') ? e.closest('label') : e)
    .map(e => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width > 0 && Math.min(r.width, r.height) < min - 0.5)
    .map(([e, r]) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className : '')
        + (e.name ? '[' + e.name + ']' : '') + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))
    .slice(0, 6)"""
"""Controls whose shorter side is under `min` CSS pixels."""

LABELS = """() => Array.from(document.querySelectorAll('svg.chart-svg text'))
    .map(t => t.getBoundingClientRect().height).filter(h => h > 0)"""


SCREENSHOTS = "ZHUOJI_TEST_SCREENSHOTS"
"""Set (to anything but 0) for a screenshot of every page of the walk, not only of those that break a rule."""


def every_screenshot(environ: dict[str, str] | None = None) -> bool:
    """Whether the walk keeps a screenshot of every page (`ZHUOJI_TEST_SCREENSHOTS` set)."""
    value = (os.environ if environ is None else environ).get(SCREENSHOTS, "").strip()
    return value not in ("", "0")


def slug(url: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", url).strip("-") or "root"


ERROR_PAGES = ("/records?case_status=maybe&per_page=abc", "/records?date_from=2026-13-40&page=0", "/records/999999",
               "/records/1/diff?with=abc", "/cases?status=maybe", "/receipts?outcome=maybe&page=x",
               "/records/1/whatif?opt.hot_shot.bonus=%D9%A5", "/admin/trail?action=maybe", "/no/such/page")
"""Refusals an operator meets (issue 33.6: a 400 page was 470 px wide at 390)."""


def test_every_page_fits_a_phone(site: tuple[Site, str], browser: Any) -> None:
    built, base = site
    ARTIFACTS.mkdir(exist_ok=True)
    keep_all = every_screenshot()
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, device_scale_factor=1)
    page = context.new_page()  # one tab: a navigation starts a fresh document (a new tab per page cost a fifth)
    overflowing: dict[str, Any] = {}
    small: dict[str, Any] = {}
    cramped: dict[str, Any] = {}
    for url in [*page_urls(built), *ERROR_PAGES]:
        page.goto(base + url + ("&" if "?" in url else "?") + "lang=zh")
        page.wait_for_load_state("load")
        broken = False
        scroll = page.evaluate("document.scrollingElement.scrollWidth")
        if scroll > WIDTH:
            overflowing[url] = (scroll, page.evaluate(WIDE, WIDTH))
            broken = True
        controls = page.evaluate(CONTROLS, MIN_CONTROL_PX)
        if controls:
            cramped[url] = controls
            broken = True
        tiles = [w for w in page.evaluate(TILES) if w < MIN_TILE_PX]
        labels = [h for h in page.evaluate(LABELS) if h < MIN_LABEL_PX]
        if tiles or labels:
            small[url] = {"tiles": len(tiles), "smallest tile": min(tiles, default=None), "labels": len(labels),
                          "smallest label": min(labels, default=None)}
            broken = True
        if broken or keep_all:
            page.screenshot(path=str(ARTIFACTS / f"phone-{slug(url)}.png"), full_page=True)
    context.close()
    assert not overflowing, "\n".join(f"{url}: {found}" for url, found in overflowing.items())
    assert not small, "\n".join(f"{url}: {found}" for url, found in small.items())
    assert not cramped, "\n".join(f"{url}: {found}" for url, found in cramped.items())


def test_screenshots_of_every_page_only_when_asked() -> None:
    assert not every_screenshot({}) and not every_screenshot({SCREENSHOTS: "0"}) and not every_screenshot({SCREENSHOTS: " "})
    assert every_screenshot({SCREENSHOTS: "1"}) and every_screenshot({SCREENSHOTS: "yes"})


def test_the_records_list_shows_the_verdict_on_a_phone(site: tuple[Site, str], browser: Any) -> None:
    """Issue 33.6: the list's verdict column is on the screen at 390 px without scrolling the table."""
    _, base = site
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    page.goto(base + "/records?lang=zh")
    badges = page.eval_on_selector_all("table.records td .verdict", "els => els.map(e => e.getBoundingClientRect().right)")
    assert badges and all(0 < right <= WIDTH for right in badges), badges
    context.close()
