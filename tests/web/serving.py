"""The app served on an ephemeral port of 127.0.0.1 for a real browser, every request carrying a
logged-in client's session cookie (Chromium cannot log in by itself): shared by the browser tests."""
from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from tests.deadlines import patient, playwright_ms, scaled


@contextmanager
def serving(app: Flask, client: FlaskClient) -> Iterator[str]:
    """The base URL of the app served in a thread with `client`'s session; shut down after."""
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
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=scaled(10))


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium (scripts/install-system.sh), driven by Playwright without `playwright install`."""


class Chromium:
    """A Playwright browser whose contexts and pages wait as long as the machine needs: every
    action, navigation and request deadline is Playwright's 30 s scaled (tests/deadlines.py)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        """A fresh context (its own cookies and storage) with scaled default timeouts."""
        return patient(self.browser.new_context(**options))

    def new_page(self, **options: Any) -> Any:
        """A page in a context of its own, with scaled default timeouts."""
        return patient(self.browser.new_page(**options))


@contextmanager
def headless_chromium() -> Iterator[Chromium]:
    """A headless Chromium for a browser test's fixture (the test is skipped without Playwright);
    the only place the suite launches one, so every page gets the scaled deadlines."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chrome = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], timeout=playwright_ms())
        try:
            yield Chromium(chrome)
        finally:
            chrome.close()
