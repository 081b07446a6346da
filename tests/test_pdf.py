"""`GET /records/<id>.pdf` and `GET /overview.pdf`: WeasyPrint output read back with poppler
(pdftotext, pdfinfo). Those checks skip, naming the tool, where poppler-utils is missing
(scripts/install-system.sh installs it with the CJK font)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import ROOT

Upload = Callable[..., Any]
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None,
                                   reason="pdftotext/pdfinfo not installed (Debian poppler-utils; "
                                          "run scripts/install-system.sh)")


def stored(upload: Upload, name: str) -> int:
    """Upload a sample record; its record id."""
    (result,) = upload((ROOT / "samples" / f"{name}.json").read_bytes()).get_json()["results"]
    return int(result["record_id"])


def pdf_of(client: FlaskClient, url: str, tmp_path: Path, **query: str) -> Path:
    """Fetch a PDF, check the response, and keep it in a file for poppler."""
    response = client.get(url, query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf" and response.data.startswith(b"%PDF-")
    assert response.headers["Content-Disposition"].startswith("inline; filename=")
    path = tmp_path / "out.pdf"
    path.write_bytes(response.data)
    return path


def text_of(path: Path) -> str:
    """The PDF's text in reading order."""
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def pages_of(path: Path) -> int:
    """The page count pdfinfo reports."""
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", info, re.M)
    assert match, info
    return int(match.group(1))


def test_pdf_is_served_for_a_record(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")
    path = pdf_of(client, f"/records/{record_id}.pdf", tmp_path)
    assert path.stat().st_size > 10_000
    assert 'filename="clean-weile-hot-shot.r1.pdf"' in client.get(f"/records/{record_id}.pdf").headers[
        "Content-Disposition"]


@needs_poppler
def test_pdf_text_has_patterns_findings_and_page_headers(client: FlaskClient, upload: Upload,
                                                         tmp_path: Path) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    path = pdf_of(client, f"/records/{record_id}.pdf", tmp_path)
    text = text_of(path)
    pages = pages_of(path)
    assert pages > 0
    for fragment in ("平胡", "热炮", "逐步回放", "明细账", "翻牌与鸡", "missettled-burn-not-applied",
                     "seat 0's chicken credits are burned", "热炮 R8.3"):
        assert fragment in text, fragment
    assert re.search(rf"\b1\s*/\s*{pages}\b", text)  # the page header: page numbers (CSS counter(page))
    assert text.count("missettled-burn-not-applied") >= pages  # the game id heads every page


@needs_poppler
def test_pdf_of_an_illegal_hand_quotes_the_rule(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "illegal-pass-locked")
    text = text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))
    assert "过胡与过碰 R13.1" in text and "Winning while locked is illegal" in text
    assert "passed a win at step 0" in text and "[过]" in text


@needs_poppler
def test_pdf_in_english_of_a_long_hand(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "clean-weile-rob-double")
    path = pdf_of(client, f"/records/{record_id}.pdf", tmp_path, lang="en")
    text = text_of(path)
    assert pages_of(path) > 3
    assert "Step by step" in text and "Totals per seat" in text and "抢杠" in text and "平胡" in text
    assert re.search(r"\b113\b", text) and "the deal" in text


@needs_poppler
def test_overview_pdf(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    for name in ("clean-weile-hot-shot", "missettled-burn-not-applied", "illegal-pass-locked"):
        stored(upload, name)
    path = pdf_of(client, "/overview.pdf", tmp_path)
    text = text_of(path)
    assert pages_of(path) >= 1
    assert "总览" in text and "各平台结论" in text and "热炮 R8" in text and "sample-platform" in text


def test_pdf_of_an_unknown_record_is_404(client: FlaskClient) -> None:
    response = client.get("/records/4242.pdf")
    assert response.status_code == 404 and "record 4242 does not exist" in response.get_data(as_text=True)


def test_the_pdf_reads_only_static_files(app: Flask) -> None:
    from records.web.report import _static_fetcher

    with app.test_request_context("/records/1.pdf"):
        fetcher = _static_fetcher()
        css = fetcher.fetch("http://localhost/static/report.css")
        assert b"@page" in css.read()
        for url in ("http://example.com/evil.css", "http://localhost/static/../app.py", "file:///etc/passwd",
                    "http://localhost/static/nothing.css"):
            with pytest.raises(ValueError):
                fetcher.fetch(url)
        assert fetcher.fetch("data:text/plain;base64,aGk=").read() == b"hi"
