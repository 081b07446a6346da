"""The table view and the match page in Chromium (Playwright), at 1400 and 390 px: tiles measured
in the DOM, stepping with the keys and the timeline (the panels the script puts in place are the
ones the server draws for that step), the seat switch, the win screen, the phone layout that
stacks the seats, and the match bar's colours. Screenshots go to tests/artifacts/."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.conftest import ROOT, login
from tests.web.serving import headless_chromium, serving
from tests.web.test_browser import ARTIFACTS, CHROMIUM, open_page

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian package `chromium`)")
SAMPLES = ("clean-kuhu-triple", "illegal-match-dealer", "clean-guizhou-3p")


@pytest.fixture
def site(app: Flask) -> Iterator[tuple[str, dict[str, list[int]]]]:
    client = login(app)
    ids = {}
    for name in SAMPLES:
        body = (ROOT / "samples" / f"{name}.json").read_bytes()
        results = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
        ids[name] = [int(r["record_id"]) for r in results]
    with serving(app, client) as url:
        yield url, ids


@pytest.fixture
def browser() -> Iterator[Any]:
    with headless_chromium() as chrome:
        yield chrome


VISIBLE_WIDTHS = "ts => ts.filter(t => t.getClientRects().length).map(t => t.getBoundingClientRect().width)"
"""The drawn width of each tile on screen (the flip's tiles wait hidden for the last step)."""


def step_shown(page: Any) -> str:
    text: str = page.eval_on_selector("#table .table-step .n", "e => e.textContent.trim()")
    return text


def panels(page: Any) -> list[str]:
    """Each seat's panel as the page shows it, by seat."""
    html: list[str] = page.eval_on_selector_all("#table .felt .seat-slot .seat-panel", "ps => ps.map(p => p.outerHTML)")
    return html


def test_tiles_are_at_least_24_px_wide_at_1400(site: tuple[str, dict[str, list[int]]], browser: Any) -> None:
    base, ids = site
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in ("zh", "en"):
        page = open_page(browser, f"{base}/records/{ids['clean-kuhu-triple'][0]}?step=60&lang={lang}", width=1400)
        widths = page.eval_on_selector_all("#table .felt svg.t:not(.r)", VISIBLE_WIDTHS)
        ponds = page.eval_on_selector_all("#table .pond svg.t", VISIBLE_WIDTHS)
        assert len(widths) > 60 and len(ponds) > 20
        assert min(widths) >= 24 and min(ponds) >= 24, (min(widths), min(ponds))
        assert page.evaluate("document.documentElement.scrollWidth") == 1400
        page.locator("#table").screenshot(path=str(ARTIFACTS / f"table-kuhu-triple-1400-{lang}.png"))
        assert page.errors == []


def test_keys_and_timeline_step_the_table_as_the_server_draws_it(site: tuple[str, dict[str, list[int]]],
                                                                  browser: Any) -> None:
    base, ids = site
    record = ids["clean-kuhu-triple"][0]
    page = open_page(browser, f"{base}/records/{record}#step-37")
    assert step_shown(page) == "37"
    page.keyboard.press("ArrowRight")
    assert step_shown(page) == "38" and page.evaluate("location.hash") == "#step-38"
    served = open_page(browser, f"{base}/records/{record}?step=38", script=False)
    assert panels(page) == panels(served)
    wall = page.eval_on_selector("#table .wall-count", "e => e.textContent")
    assert wall == served.eval_on_selector("#table .wall-count", "e => e.textContent")
    page.click("#table .timeline li:nth-child(11) a")  # position 10: event 9
    assert step_shown(page) == "9"
    assert panels(page) == panels(open_page(browser, f"{base}/records/{record}?step=9", script=False))
    assert not page.is_visible("#table .win-screen")
    page.click("#table .table-controls a[data-go=last]")
    assert page.is_visible("#table .win-screen") and page.is_visible("#table .score-end >> nth=0")
    page.click("#table .table-controls a[data-go=prev]")
    assert not page.is_visible("#table .win-screen")
    page.click("#table .perspective a[data-seat='2']")
    assert "pos-bottom" in (page.get_attribute("#table .seat-slot[data-seat='2']", "class") or "")
    assert "pos-top" in (page.get_attribute("#table .seat-slot[data-seat='0']", "class") or "")
    assert "seat=2" in page.url and "seat=2" in (page.get_attribute("#table .timeline li:nth-child(3) a", "href") or "")
    page.focus("#table .table-controls a[data-go=first]")
    page.keyboard.press("End")  # Home / End work with the focus in the table too
    assert page.is_visible("#table .win-screen")
    page.keyboard.press("Home")
    assert step_shown(page) == "" and not page.is_visible("#table .win-screen")
    assert page.errors == []


def test_without_script_the_table_links_step(site: tuple[str, dict[str, list[int]]], browser: Any) -> None:
    base, ids = site
    page = open_page(browser, f"{base}/records/{ids['clean-kuhu-triple'][0]}?step=10", script=False)
    assert step_shown(page) == "10"
    page.click("#table .table-controls a[data-go=next]")
    page.wait_for_load_state("load")
    assert step_shown(page) == "11" and "step=11" in page.url
    page.click("#table .perspective a[data-seat='3']")
    page.wait_for_load_state("load")
    assert "pos-bottom" in (page.get_attribute("#table .seat-slot[data-seat='3']", "class") or "")
    assert step_shown(page) == "11"


@pytest.mark.parametrize("name", ["clean-kuhu-triple", "clean-guizhou-3p"])
def test_the_phone_stacks_the_seats(site: tuple[str, dict[str, list[int]]], browser: Any, name: str) -> None:
    base, ids = site
    ARTIFACTS.mkdir(exist_ok=True)
    page = open_page(browser, f"{base}/records/{ids[name][0]}?step=40&seat=1&lang=zh", width=390)
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    boxes = page.eval_on_selector_all("#table .felt > *", """es => es.map(e => {
        const r = e.getBoundingClientRect(); return [e.className, r.left, r.top, r.right]; })""")
    assert all(right <= 390 for _, _, _, right in boxes)
    assert len({round(left) for _, left, _, _ in boxes}) == 1  # one column
    order = [cls for cls, _, _, _ in sorted(boxes, key=lambda b: b[2])]
    expected = ["centre", "pos-bottom", "pos-right", "pos-top", "pos-left"] if name == "clean-kuhu-triple" \
        else ["centre", "pos-bottom", "pos-right", "pos-left"]
    assert [next(c for c in cls.split() if c in expected) for cls in order] == expected
    widths = page.eval_on_selector_all("#table .felt svg.t:not(.r)", VISIBLE_WIDTHS)
    assert min(widths) >= 20
    page.locator("#table").screenshot(path=str(ARTIFACTS / f"table-{name}-390-zh.png"))
    assert page.errors == []


def test_the_match_page_and_the_match_bar(site: tuple[str, dict[str, list[int]]], browser: Any) -> None:
    base, ids = site
    first, second = ids["illegal-match-dealer"]
    page = open_page(browser, f"{base}/records/{second}")
    colour, background = page.eval_on_selector(".match-hands a.verdict-link",
                                                "a => [getComputedStyle(a).color, getComputedStyle(a).backgroundColor]")
    assert colour == "rgb(255, 255, 255)" and background == "rgb(46, 125, 50)"  # white on the clean green
    page.click("a.match-page-link")
    page.wait_for_load_state("load")
    assert page.is_visible("table.match-hands-table") and page.url.endswith(tuple("0123456789"))
    for width in (1400, 390):
        match = open_page(browser, page.url + "?lang=zh", width=width)
        assert match.evaluate("document.documentElement.scrollWidth") == width
        match.screenshot(path=str(ARTIFACTS / f"match-{width}-zh.png"), full_page=True)
        assert match.errors == []
