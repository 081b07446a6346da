"""web/pdf/fetcher.py: a PDF loads our static files, the drawings this request registered and
data: URLs, and nothing else, whatever a record names."""
from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from web.pdf.fetcher import resolve, static_fetcher
from web.pdf.images import PDF_IMAGES, image_url


@pytest.fixture
def static(tmp_path: Path) -> Path:
    """A static folder with a stylesheet and a font, beside a file that is not in it."""
    folder = tmp_path / "static"
    (folder / "fonts").mkdir(parents=True)
    (folder / "report.css").write_text("@page { size: A4 }", encoding="utf-8")
    (folder / "fonts" / "cjk.woff2").write_bytes(b"font")
    (tmp_path / "secret.txt").write_text("no", encoding="utf-8")
    return folder.resolve()


def test_static_files_load_with_their_type(static: Path) -> None:
    assert resolve("http://localhost/static/report.css", static, {}) == (b"@page { size: A4 }", "text/css")
    assert resolve("http://localhost/static/report.css?v=3", static, {}) == (b"@page { size: A4 }", "text/css")
    assert resolve("http://localhost/static/fonts/cjk.woff2", static, {}) == (b"font", "application/octet-stream")


def test_registered_drawings_load_as_svg(static: Path) -> None:
    url = f"http://localhost{PDF_IMAGES}abc.svg"
    assert resolve(url, static, {"abc.svg": "<svg/>"}) == (b"<svg/>", "image/svg+xml")
    with pytest.raises(ValueError):
        resolve(f"http://localhost{PDF_IMAGES}other.svg", static, {"abc.svg": "<svg/>"})  # not this request's


def test_data_urls_are_left_to_weasyprint(static: Path) -> None:
    assert resolve("data:text/plain;base64,aGk=", static, {}) is None


@pytest.mark.parametrize("url", [
    "http://example.com/evil.css",
    "http://localhost/static/../secret.txt",
    "file:///etc/passwd",
    "http://localhost/static/nothing.css",
    "http://localhost/static/",
    "http://localhost/static/fonts",
])
def test_everything_else_is_refused(static: Path, url: str) -> None:
    with pytest.raises(ValueError, match="only load files under /static/"):
        resolve(url, static, {})


def test_the_weasyprint_fetcher_answers_by_these_rules(app: Flask) -> None:
    with app.test_request_context("/records/1.pdf"):
        name = image_url("<svg xmlns='http://www.w3.org/2000/svg'/>")
        fetcher = static_fetcher()
        assert b"@page" in fetcher.fetch("http://localhost/static/report.css").read()
        drawing = fetcher.fetch(f"http://localhost{name}")
        assert drawing.read().startswith(b"<svg") and drawing.content_type == "image/svg+xml"
        for url in ("http://example.com/evil.css", "http://localhost/static/../app.py", "file:///etc/passwd",
                    "http://localhost/static/nothing.css"):
            with pytest.raises(ValueError):
                fetcher.fetch(url)
        assert fetcher.fetch("data:text/plain;base64,aGk=").read() == b"hi"
