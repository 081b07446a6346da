"""The report in a real browser: headless Chromium opens the report of a hand with an illegal
move, served by werkzeug on 127.0.0.1 in a thread, and we check the DOM it built and the pixels
it drew. Skips, naming the package, where Chromium is not installed (Debian `chromium`;
scripts/install-system.sh). The screenshot is kept in tests/artifacts/ (gitignored)."""
from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from audit.rulebook import rule_text
from tests.conftest import ROOT, login
from tests.deadlines import scaled
from tests.web.serving import CHROMIUM, headless_chromium, serving

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian package `chromium`; "
                                                         "run scripts/install-system.sh)")
ARTIFACTS = ROOT / "tests" / "artifacts"
FLAGGED = (253, 236, 234)
"""static/report.css: background of a step with an illegal finding (#fdecea)."""
TILE_FACE = (253, 251, 243)
"""audit/render.py FACE: the face of every drawn tile (#fdfbf3)."""


@pytest.fixture
def served(app: Flask) -> Iterator[tuple[str, int]]:
    """The app on an ephemeral port with one illegal record, every request carrying the session
    of a logged-in auditor (Chromium's command line cannot log in by itself)."""
    client = login(app)
    body = (ROOT / "samples" / "illegal-pass-locked.json").read_bytes()
    (result,) = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
    with serving(app, client) as url:
        yield url, int(result["record_id"])


def chromium(tmp_path: Path, *args: str) -> str:
    """Run headless Chromium with a throw-away profile; its standard output."""
    assert CHROMIUM is not None
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={tmp_path / 'chromium-profile'}"]
    done = subprocess.run([CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=scaled(180))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_browser_builds_the_report_with_the_illegal_step_highlighted(served: tuple[str, int],
                                                                     tmp_path: Path) -> None:
    base, record_id = served
    dom = chromium(tmp_path, "--dump-dom", f"{base}/records/{record_id}")
    step = re.search(r'<tr id="step-3" class="([^"]*)"', dom)
    assert step and "flagged-illegal" in step.group(1)
    chinese = rule_text("R13.1", "zh")
    assert chinese is not None and "过胡与过碰 R13.1" in dom and chinese.blocks[0].spans[-1].text in dom
    assert 'class="tile-sprite"' in dom and len(re.findall(r'<use href="#zj-\d[mps]', dom)) > 150
    assert len(re.findall(r'<svg [^>]*class="table"', dom)) == 5 + 2  # the deal, four events, the move before and after


def test_browser_draws_the_tiles_and_the_highlight(served: tuple[str, int], tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image")
    base, record_id = served
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report-illegal-pass-locked.png"
    shot.unlink(missing_ok=True)
    chromium(tmp_path, "--window-size=1400,2200", f"--screenshot={shot}", f"{base}/records/{record_id}")
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with image.open(shot) as picture:
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
    counts = {colour: count for count, colour in colours}
    assert counts.get(FLAGGED, 0) > 5_000, "the illegal step's row is painted"
    assert counts.get(TILE_FACE, 0) > 20_000, "the tiles are drawn"


# ----- the replay viewer and the phone width, driven by Playwright ------------------------------------

SITE_SAMPLES = ("illegal-wall-tampered", "missettled-rob-paid-by-three", "clean-kuhu-triple")


@pytest.fixture
def site(app: Flask) -> Iterator[tuple[str, dict[str, int]]]:
    """The app on an ephemeral port with a few hands, every request logged in (as `served`)."""
    client = login(app)
    ids = {}
    for name in SITE_SAMPLES:
        body = (ROOT / "samples" / f"{name}.json").read_bytes()
        (result,) = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
        ids[name] = int(result["record_id"])
    with serving(app, client) as url:
        yield url, ids


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (no `playwright install`)."""
    with headless_chromium() as chrome:
        yield chrome


def open_page(browser: Any, url: str, width: int = 1400, script: bool = True) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)  # a script error or a CSP refusal
            if message.type == "error" and "favicon" not in (message.location or {}).get("url", "") else None)
    page.goto(url)
    page.wait_for_load_state("load")
    page.errors = errors
    return page


def current(page: Any) -> str:
    """The id of the step the viewer shows, checked against the highlighted event and the address."""
    ids = page.eval_on_selector_all("#viewer tr.step.current", "rows => rows.map(r => r.id)")
    assert len(ids) == 1, ids
    visible = page.eval_on_selector_all("#viewer tr.step", "rows => rows.filter(r => r.offsetParent !== null).length")
    assert visible == 1, "one table at a time"
    listed = page.eval_on_selector_all(".event-list li.current a", "links => links.map(a => a.getAttribute('href'))")
    assert listed == [f"#{ids[0]}"]
    step_id: str = ids[0]
    return step_id


def test_viewer_keys_buttons_slider_and_next_finding(site: tuple[str, dict[str, int]], browser: Any) -> None:
    base, ids = site
    page = open_page(browser, f"{base}/records/{ids['illegal-wall-tampered']}")
    assert current(page) == "step-21"  # opens on the finding
    page.keyboard.press("ArrowLeft")
    assert current(page) == "step-20" and page.evaluate("location.hash") == "#step-20"
    page.keyboard.press("ArrowRight")
    assert current(page) == "step-21"
    page.click("button[data-go=first]")
    assert current(page) == "step-deal"
    page.click("button[data-go=next]")
    assert current(page) == "step-0"
    page.click("button[data-go=prev]")
    assert current(page) == "step-deal"
    page.click("button[data-go=next-finding]")
    assert current(page) == "step-21" and page.is_visible("#viewer tr.finding-row.current")
    page.click("button[data-go=first]")
    page.keyboard.press("n")
    assert current(page) == "step-21"
    page.click("button[data-go=last]")
    assert current(page) == "step-21"  # the replay stopped there
    page.fill(".step-slider", "5")
    assert current(page) == "step-4"  # position 5 after the deal
    page.check("[data-filter=key]")
    page.click("button[data-go=first]")
    first_key = current(page)
    page.click("button[data-go=next]")
    second_key = current(page)
    keys = page.eval_on_selector_all("#viewer tr.step[data-key]", "rows => rows.map(r => r.id)")
    assert [first_key, second_key] == keys[:2] and "step-21" in keys
    assert page.errors == []


def test_a_missettled_hand_opens_on_the_step_that_made_the_payment_due(site: tuple[str, dict[str, int]],
                                                                      browser: Any) -> None:
    """Issue 20, point 5: a settlement finding (step null in the JSON) stops the viewer at its due
    step, the win here (the hand payments of a 抢杠 shared by three); the finding buttons that have
    nowhere to go are disabled, never silently doing nothing."""
    base, ids = site
    doc = json.loads((ROOT / "samples" / "missettled-rob-paid-by-three.json").read_text(encoding="utf-8"))
    win = next(i for i, ev in enumerate(doc["events"]) if ev["type"] == "win")
    page = open_page(browser, f"{base}/records/{ids['missettled-rob-paid-by-three']}")
    assert current(page) == f"step-{win}" and page.is_visible("#viewer tr.finding-row.current")
    assert page.is_disabled("button[data-go=next-finding]") and page.is_disabled("button[data-go=prev-finding]")
    page.click("button[data-go=first]")
    assert page.is_disabled("button[data-go=prev-finding]") and not page.is_disabled("button[data-go=next-finding]")
    page.keyboard.press("n")
    assert current(page) == f"step-{win}"
    assert page.errors == []


def test_a_link_to_a_step_opens_that_step(site: tuple[str, dict[str, int]], browser: Any) -> None:
    base, ids = site
    page = open_page(browser, f"{base}/records/{ids['clean-kuhu-triple']}#step-37")
    assert current(page) == "step-37"
    page.click(".event-list a[href='#step-40']")
    assert current(page) == "step-40" and page.evaluate("location.hash") == "#step-40"
    page.evaluate("location.hash = '#step-12'")
    page.wait_for_selector("#step-12.current", state="attached")  # not wait_for_function: the CSP refuses eval
    assert current(page) == "step-12"
    missettled = open_page(browser, f"{base}/records/{ids['missettled-rob-paid-by-three']}")
    missettled.click(".dispute-findings a.to-ledger >> nth=0")
    assert missettled.evaluate("location.hash").startswith("#ledger-hand-")
    assert missettled.is_visible(missettled.evaluate("location.hash"))


def test_without_script_every_step_is_shown(site: tuple[str, dict[str, int]], browser: Any) -> None:
    base, ids = site
    page = open_page(browser, f"{base}/records/{ids['clean-kuhu-triple']}", script=False)
    rows = page.eval_on_selector_all("#viewer tr.step", "rows => rows.filter(r => r.offsetParent !== null).length")
    assert rows == page.eval_on_selector_all("#viewer tr.step", "rows => rows.length") > 90
    assert not page.is_visible(".viewer-controls")


@pytest.mark.parametrize("width", [1400, 390])
def test_screenshots_and_the_phone_width(site: tuple[str, dict[str, int]], browser: Any, width: int) -> None:
    base, ids = site
    ARTIFACTS.mkdir(exist_ok=True)
    for name, record_id in ids.items():
        for lang in ("zh", "en"):
            page = open_page(browser, f"{base}/records/{record_id}?lang={lang}", width=width)
            page.screenshot(path=str(ARTIFACTS / f"report-{name}-{width}-{lang}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") == width, (name, lang)
            # nothing reaches past the screen's right edge but what scrolls inside its own box (the
            # step table, a wide table or picture: issue 23.5 lets them scroll in themselves)
            wide = page.evaluate("""width => Array.from(document.querySelectorAll('body *'))
                .filter(e => !e.closest('.step-scroll') && !e.closest('.tile-sprite') && e.offsetParent !== null)
                .filter(e => { for (let p = e.parentElement; p; p = p.parentElement) {
                    const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return false; }
                    return true; })
                .filter(e => e.getBoundingClientRect().right > width + 0.5)
                .map(e => e.tagName + '.' + e.className)""", width)
            assert wide == [], (name, lang, wide[:5])
            # the site header wraps by words: no link or name is narrower than two characters
            narrow = page.evaluate("""() => Array.from(document.querySelectorAll('header.site a, header.site .who'))
                .filter(e => e.getBoundingClientRect().height > 2.5 * parseFloat(getComputedStyle(e).lineHeight || 20))
                .map(e => e.textContent)""")
            assert narrow == [], narrow
            assert page.errors == []


def test_the_records_list_with_counts_cut_short(site: tuple[str, dict[str, int]], browser: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import records.queries as queries

    base, _ = site
    monkeypatch.setattr(queries, "COUNT_STEP", 1)
    monkeypatch.setattr(queries, "COUNT_BUDGET", 1)
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in ("zh", "en"):
        page = open_page(browser, f"{base}/records?player=阿明&profile=weile&per_page=1&lang={lang}", width=1400)
        page.screenshot(path=str(ARTIFACTS / f"records-inexact-{lang}.png"), full_page=True)
        assert page.is_visible("p.total.inexact") and page.errors == []
        counts = page.eval_on_selector_all("nav.tabs .count", "spans => spans.map(s => s.textContent.trim())")
        assert counts and all(text.startswith("≥") for text in counts), counts
        page.click("p.total.inexact a")
        page.wait_for_load_state("load")
        assert "exact=true" in page.url and "per_page=1" in page.url and not page.is_visible("p.total.inexact")
        assert page.eval_on_selector_all("nav.tabs .count", "spans => spans.map(s => s.textContent)")[0].strip() \
            .isdigit()
    phone = open_page(browser, f"{base}/records?player=阿明&profile=weile&per_page=1&lang=zh", width=390)
    phone.screenshot(path=str(ARTIFACTS / "records-inexact-390-zh.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") == 390  # only the table scrolls sideways
    assert phone.is_visible("p.total.inexact a") and phone.errors == []
