"""The report in a real browser: headless Chromium opens the report of a hand with an illegal
move, served by werkzeug on 127.0.0.1 in a thread, and we check the DOM it built and the pixels
it drew. Skips, naming the package, where Chromium is not installed (Debian `chromium`;
scripts/install-system.sh). The screenshot is kept in tests/artifacts/ (gitignored)."""
from __future__ import annotations

import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.conftest import ROOT, login

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
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
    cookie = client.get_cookie("session")
    assert cookie is not None
    session = f"session={cookie.value}"

    def with_session(environ: dict[str, Any], start_response: Any) -> Any:
        environ["HTTP_COOKIE"] = session
        return app.wsgi_app(environ, start_response)

    server = make_server("127.0.0.1", 0, with_session, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", int(result["record_id"])
    finally:
        server.shutdown()
        thread.join(timeout=10)


def chromium(tmp_path: Path, *args: str) -> str:
    """Run headless Chromium with a throw-away profile; its standard output."""
    assert CHROMIUM is not None
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={tmp_path / 'chromium-profile'}"]
    done = subprocess.run([CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_browser_builds_the_report_with_the_illegal_step_highlighted(served: tuple[str, int],
                                                                     tmp_path: Path) -> None:
    base, record_id = served
    dom = chromium(tmp_path, "--dump-dom", f"{base}/records/{record_id}")
    step = re.search(r'<tr id="step-3" class="([^"]*)"', dom)
    assert step and "flagged-illegal" in step.group(1)
    assert "过胡与过碰 R13.1" in dom and "Winning while locked is illegal." in dom
    assert 'class="tile-sprite"' in dom and len(re.findall(r'<use href="#zj-\d[mps]', dom)) > 150
    assert len(re.findall(r'<svg [^>]*class="table"', dom)) == 5  # the deal and four events


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
