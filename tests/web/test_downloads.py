"""Download names (issue 34.2): every Content-Disposition is RFC 6266 / 5987, ASCII, one line, its
quoted fallback closed, whatever the name (a case number typed by hand, a profile name)."""
from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient

from audit.profiles import PROFILE_DIR
from tests.conftest import example_path
from web.downloads import ascii_fallback, content_disposition

HEADER = re.compile(r'(attachment|inline); filename="([ !#-\[\]-~]*)"; filename\*=UTF-8\'\'([A-Za-z0-9%!#$&+\-.^_`|~]*)')
"""The whole header, as the helper writes it: a quoted fallback of printable ASCII but `"` and `\\`,
then the RFC 5987 form (attr-chars and percent escapes only)."""

NAMES = {
    "chinese": ("贵阳-0007", "__-0007"),
    "crlf": ("a\r\nSet-Cookie: x=1", "a__Set-Cookie: x=1"),
    "nul": ("a\x00b", "a_b"),
    "quote": ('a"; filename="evil.exe', "a__ filename=_evil.exe"),
    "backslash": ("a\\b/c", "a_b_c"),
    "percent": ("100%", "100_"),
}
"""name -> what a client reads from the fallback `filename="..."` (ASCII only)."""


def parsed(header: str) -> tuple[str, str, str]:
    """(disposition, fallback, the name filename* decodes to); fails unless the header is one line
    of ASCII in the helper's exact shape."""
    assert header.isascii() and not re.search(r"[\x00-\x1f\x7f]", header), repr(header)
    found = HEADER.fullmatch(header)
    assert found is not None, header
    return found[1], found[2], unquote(found[3], encoding="utf-8", errors="strict")


@pytest.mark.parametrize(("name", "fallback"), list(NAMES.values()), ids=list(NAMES))
def test_the_header_carries_the_name_encoded_and_an_ascii_fallback(name: str, fallback: str) -> None:
    disposition, shown, decoded = parsed(content_disposition(f"{name}.pdf"))
    assert disposition == "attachment" and shown == f"{fallback}.pdf"
    assert decoded == f"{name}.pdf".replace("\r", "_").replace("\n", "_").replace("\x00", "_").replace(
        "\\", "_").replace("/", "_")
    assert parsed(content_disposition("x.pdf", "inline"))[:2] == ("inline", "x.pdf")


def test_a_name_with_nothing_printable_in_ascii_still_has_a_fallback() -> None:
    assert ascii_fallback("\x00") == "_" and ascii_fallback("  ") == "download"
    assert parsed(content_disposition("微乐"))[1:] == ("__", "微乐")


def _case(client: FlaskClient, number: str) -> int:
    response = client.post("/api/cases", json={"number": number, "platform": "alpha", "complaint": "少收了"})
    assert response.status_code == 201, response.get_data(as_text=True)
    return int(response.get_json()["id"])


@pytest.mark.parametrize("key", ["chinese", "crlf", "nul", "quote"])
def test_the_case_pdf_is_named_after_its_number_whatever_it_holds(client: FlaskClient, key: str) -> None:
    number, fallback = NAMES[key]
    case_id = _case(client, number)
    pdf = client.get(f"/cases/{case_id}.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    disposition, shown, decoded = parsed(pdf.headers["Content-Disposition"])
    assert disposition == "inline" and shown == f"case-{fallback}.pdf"
    assert decoded == f"case-{number}.pdf".replace("\r", "_").replace("\n", "_").replace("\x00", "_")


def test_the_raw_export_and_the_record_pdf(client: FlaskClient) -> None:
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                           content_type="application/json")
    record_id = response.get_json()["results"][0]["record_id"]
    raw = client.get(f"/api/records/{record_id}/raw")
    assert parsed(raw.headers["Content-Disposition"]) == (
        "attachment", "example-hot-shot-weile.r1.json", "example-hot-shot-weile.r1.json")
    pdf = client.get(f"/records/{record_id}.pdf")
    assert parsed(pdf.headers["Content-Disposition"])[::2] == ("inline", "example-hot-shot-weile.r1.pdf")


def test_a_profile_file_of_a_chinese_name_downloads(client: FlaskClient) -> None:
    text = (PROFILE_DIR / "weile.toml").read_text(encoding="utf-8").replace('name = "weile"', 'name = "贵阳"')
    response = client.post("/fit/profile.toml", data={"name": "贵阳", "profile_file": text})
    assert response.status_code == 200 and response.get_data(as_text=True) == text
    assert parsed(response.headers["Content-Disposition"]) == ("attachment", "__.toml", "贵阳.toml")
