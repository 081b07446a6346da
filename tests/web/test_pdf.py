"""`GET /records/<id>.pdf` and `GET /overview.pdf`: WeasyPrint output read back with poppler
(pdftotext, pdfinfo). Those checks skip, naming the tool, where poppler-utils is missing
(scripts/install-system.sh installs it with the CJK font)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import zlib
from pathlib import Path
from typing import Any, Callable

import pytest

from audit import rulebook
from flask import g
from flask.testing import FlaskClient

from audit import render
from audit.api import trace_record
from audit.catalogue import render_finding
from web import report
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


_STREAM = re.compile(rb"\d+ 0 obj\s*<<(.*?)>>\s*stream\r?\n", re.S)


def streams_of(pdf: bytes) -> list[tuple[bytes, bytes]]:
    """(dictionary, decoded content) of every stream object in a PDF (WeasyPrint writes each
    with a direct /Length, Flate-compressed or raw)."""
    found = []
    for match in _STREAM.finditer(pdf):
        head = match[1]
        length = re.search(rb"/Length (\d+)", head)
        assert length, head
        body = pdf[match.end():match.end() + int(length[1])]
        found.append((head, zlib.decompress(body) if b"/FlateDecode" in head else body))
    return found


def placements(pdf: bytes) -> tuple[int, int]:
    """How many times the pages place a form XObject (`/x12 Do`), and how many forms there are:
    a tile is drawn once into a form and placed by reference (web.pdf.forms)."""
    streams = streams_of(pdf)
    forms = [content for head, content in streams if b"/Subtype /Form" in head]
    pages = [content for head, content in streams if b"/Subtype" not in head and b"/Length1" not in head]
    return sum(len(re.findall(rb"/x\d+ Do\b", content)) for content in pages), len(forms)


def pieces_of(name: str) -> int:
    """Tiles, seat labels and shadings of every step of a sample, as the PDF should place them."""
    steps = trace_record(json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))).steps
    slots = render.discard_slots(steps)
    return sum(len(render.table_picture(step, discard_slots=slots).pieces) for step in steps)


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
    for fragment in ("平胡", "热炮", "逐步回放", "明细账", "翻牌与鸡", "missettled-burn-not-applied", "热炮 R8.3"):
        assert fragment in text, fragment
    assert re.search(rf"\b1\s*/\s*{pages}\b", text)  # the page header: page numbers (CSS counter(page))
    assert text.count("missettled-burn-not-applied") >= pages  # the game id heads every page
    burn = burn_finding(client, record_id)
    assert squeezed(render_finding(burn, "zh")) in squeezed(text)  # the page's language: Chinese
    english = text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path, lang="en"))
    assert squeezed(render_finding(burn, "en")) in squeezed(english)


def burn_finding(client: FlaskClient, record_id: int) -> dict[str, Any]:
    """The stored audit's burn finding, found by its code (R8.3)."""
    audit = client.get(f"/api/records/{record_id}/audit").get_json()
    (finding,) = [f for f in audit["findings"] if f["code"] == "burn_not_applied"]
    assert finding["rule"] == "R8.3"
    return finding


def squeezed(text: str) -> str:
    """Text without whitespace: pdftotext breaks lines where the page does."""
    return re.sub(r"\s+", "", text)


@needs_poppler
def test_pdf_of_an_illegal_hand_quotes_the_rule(client: FlaskClient, upload: Upload, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    drawings: dict[str, str] = {}
    typeset = report.pdf_response

    def keeping_drawings(html: str, filename: str) -> Any:
        drawings.update(g.get("pdf_images", {}))
        return typeset(html, filename)

    monkeypatch.setattr(report, "pdf_response", keeping_drawings)
    record_id = stored(upload, "illegal-pass-locked")
    text = text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))
    chinese = rulebook.rule_text("R13.1", "zh")
    assert chinese is not None and "过胡与过碰 R13.1" in text and squeezed(chinese.blocks[0].spans[-1].text[:12]) in squeezed(text)
    audit = client.get(f"/api/records/{record_id}/audit").get_json()
    (locked,) = [f for f in audit["findings"] if f["code"] == "win_pass_locked"]
    assert locked["rule"] == "R13.1" and squeezed(render_finding(locked, "zh")) in squeezed(text)
    assert any('class="badge"' in svg and ">过</text>" in svg for svg in drawings.values())  # seat 2 pass-locked


def test_pdf_draws_the_tiles_of_every_step(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "clean-cuocuo-long")  # 79 events, no finding: no step stands out
    pdf = pdf_of(client, f"/records/{record_id}.pdf", tmp_path).read_bytes()
    placed, forms = placements(pdf)
    expected = pieces_of("clean-cuocuo-long")
    # every step's table (not only the last or those with findings): a middle step left out
    # places fewer pieces; the few extra are the flip tile and the chickens
    assert expected <= placed <= expected + 10, (placed, expected)
    assert forms * 20 < placed  # each distinct tile or label drawn once, however often placed


@needs_poppler
def test_pdf_in_english_of_a_long_hand(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "clean-weile-rob-double")
    path = pdf_of(client, f"/records/{record_id}.pdf", tmp_path, lang="en")
    text = text_of(path)
    assert pages_of(path) > 3
    assert "Step by step" in text and "Totals per seat" in text and "抢杠" in text and "平胡" in text
    assert re.search(r"\b113\b", text) and "the deal" in text
    placed, forms = placements(path.read_bytes())
    assert pieces_of("clean-weile-rob-double") <= placed and forms * 50 < placed


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
