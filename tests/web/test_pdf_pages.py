"""PDFs without waste (issue 23.6), read back with poppler: no page less than half full but the
last, one font family and one page-number sequence in a record's PDF and in a case's PDF of two
revisions, and every tile printed at least 4 mm wide.

A page's fill is its used height: from the top of the page area (below the margin boxes of
static/pdf.css's @page) to the lowest ink of the page as pdftoppm renders it, over the page
area's height. Ink is what a reader sees; the check does not depend on how the page was laid out."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest
from flask.testing import FlaskClient

from audit import render
from tests.conftest import ROOT, missettled, variant
from tests.web.test_cases import upload as upload_doc
from tests.web.test_pdf import fonts_of, page_texts, pdf_of, stored
from web import drawings

Upload = Callable[..., Any]
pytestmark = pytest.mark.skipif(any(shutil.which(tool) is None for tool in ("pdftotext", "pdffonts", "pdftoppm")),
                                reason="pdftotext/pdffonts/pdftoppm not installed (Debian poppler-utils)")

PAGE_MM, TOP_MM, BOTTOM_MM = 210.0, 12.0, 10.0
"""A4 landscape's height and static/pdf.css's @page margins: the page area between them."""
MM_PER_PX = 25.4 / 96
"""A CSS pixel on paper."""
SAMPLES = ("clean-kuhu-triple", "missettled-rob-paid-by-three", "illegal-pass-locked", "clean-cuocuo-long",
           "missettled-burn-not-applied")


def fills(path: Path, dpi: int = 36) -> list[float]:
    """Each page's used height as a fraction of its page area (see the module's docstring)."""
    out = subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(path)], check=True, capture_output=True).stdout
    found, position = [], 0
    while position < len(out):  # one binary PGM per page, one after another
        header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", out[position:])
        assert header, out[position:position + 20]
        width, height = int(header[1]), int(header[2])
        start = position + header.end()
        pixels, position = out[start:start + width * height], start + width * height
        top, bottom = round(TOP_MM / PAGE_MM * height), height - round(BOTTOM_MM / PAGE_MM * height)
        inked = [row for row in range(top, bottom) if min(pixels[row * width:(row + 1) * width]) < 200]
        found.append(((inked[-1] + 1 - top) if inked else 0) / (bottom - top))
    return found


def assert_without_waste(path: Path, title: str) -> list[str]:
    """Every page but the last at least half full, one font family, pages numbered 1..N; the pages' text."""
    pages = page_texts(path)
    filled = fills(path)
    assert len(filled) == len(pages)
    assert all(fill >= 0.5 for fill in filled[:-1]), [round(fill, 2) for fill in filled]
    assert {re.sub(r"-Bold$", "", name) for name in fonts_of(path)} == {"WenQuanYi-Micro-Hei"}, fonts_of(path)
    for number, text in enumerate(pages, 1):  # one sequence, in the top right margin box
        assert re.search(rf"\b{number}\s*/\s*{len(pages)}\b", text), (number, text[:200])
        assert title in text
    return pages


@pytest.mark.parametrize("name", SAMPLES)
def test_a_record_pdf_wastes_no_page(client: FlaskClient, upload: Upload, tmp_path: Path, name: str) -> None:
    record_id = stored(upload, name)
    assert_without_waste(pdf_of(client, f"/records/{record_id}.pdf", tmp_path), name)


def test_a_case_of_two_revisions_is_one_document(client: FlaskClient, tmp_path: Path) -> None:
    doc = variant(json.loads((ROOT / "samples" / "clean-kuhu-triple.json").read_text(encoding="utf-8")),
                  game_id="G-case-1")
    first, second = upload_doc(client, doc)["record_id"], upload_doc(client, missettled(doc))["record_id"]
    case = client.post("/api/cases", json={"number": "K-7", "platform": doc["platform"], "player": "P1",
                                           "complaint": "两个版本的分数不一样"}).get_json()
    for record_id in (first, second):
        assert client.post(f"/api/cases/{case['id']}/records", json={"record": record_id}).status_code in (200, 201)
    path = pdf_of(client, f"/cases/{case['id']}.pdf", tmp_path)
    pages = assert_without_waste(path, "")
    whole = "".join(pages)
    assert whole.index("K-7") < whole.index("G-case-1 r1") < whole.index("G-case-1 r2")
    # issue 33.6: page 1 holds the case, the seat tables and the disputed record's differing payments;
    # each record's report starts a page, so no report heading is left at the foot of another page
    first = pages[0]
    assert "K-7" in first and "差额" in first and "与规则不符的款项 · G-case-1 r2" in first
    starts = []
    for n, text in enumerate(pages):
        lines = [line.strip() for line in text.split("\n") if line.strip()]  # line 0: the running header
        titled = [i for i, line in enumerate(lines) if i > 0 and line.startswith("审计报告 · G-case-1 r")]
        assert titled in ([], [1]), (n, lines[:4])  # a report's title opens its page, never ends one
        starts += [n] if titled else []
    assert len(starts) == 2 and 0 not in starts


def test_every_tile_is_printed_at_least_4_mm_wide(client: FlaskClient, upload: Upload, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    widths: list[float] = []
    for function in ("table_picture", "hand_svg", "seat_picture"):
        original = getattr(render, function)

        def spy(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            widths.append(kwargs.get("width", 20))
            return _original(*args, **kwargs)

        for module in (render, drawings):  # where the drawing is defined, and where the web imported it
            if hasattr(module, function):
                monkeypatch.setattr(module, function, spy)
    for name in ("missettled-rob-paid-by-three", "illegal-pass-locked"):
        pdf_of(client, f"/records/{stored(upload, name)}.pdf", tmp_path)
    assert widths and min(widths) * MM_PER_PX >= 4.0, sorted(set(widths))
