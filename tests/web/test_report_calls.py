"""A record's PDF and its page are built, then laid out (issue 35.2): the report model carries
every word, drawing and row before a template runs, so a PDF or a page enters the word and
drawing helpers (`web.i18n`, `web.labels`, `web.drawings`, `web.table_html`, `web.pdf.images`)
the same number of times whatever the hand's length. Counted with `sys.setprofile` over one whole
`GET /records/<id>.pdf` (the model, the templates and WeasyPrint's fetcher) or `GET /records/<id>`
(the model and the templates, the page's frame included): one entry is a call into a helper module
from outside it (the helper's own calls inside it are not counted)."""
from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import ROOT

HELPERS = {"web.i18n": ROOT / "web" / "i18n.py", "web.labels": ROOT / "web" / "labels.py",
           "web.drawings": ROOT / "web" / "drawings.py", "web.pdf.images": ROOT / "web" / "pdf" / "images.py",
           "web.table_html": ROOT / "web" / "table_html.py"}
"""The modules whose entries are counted, by the file their code lives in."""

HANDS = ("illegal-pass-locked", "clean-kuhu-triple", "missettled-rob-paid-by-three")
"""A short hand (4 events, an illegal step), a typical one (97 events) and a long one (114)."""


@contextmanager
def entries() -> Iterator[Counter[str]]:
    """Count, per helper module, the calls that enter it from code outside it."""
    files = {str(path): name for name, path in HELPERS.items()}
    counts: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = files.get(frame.f_code.co_filename)
        if module is not None and (frame.f_back is None or files.get(frame.f_back.f_code.co_filename) != module):
            counts[module] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(previous)


def pdf_entries(client: FlaskClient, record_id: int, lang: str) -> Counter[str]:
    """The helper entries of one PDF of a record in a language (the PDF checked to be one)."""
    with entries() as counts:
        response = client.get(f"/records/{record_id}.pdf", query_string={"lang": lang})
    assert response.status_code == 200 and response.data.startswith(b"%PDF-")
    return Counter(counts)


@pytest.fixture
def stored(upload: Callable[..., Any]) -> dict[str, int]:
    """The three hands, uploaded: record id by sample name."""
    ids = {}
    for name in HANDS:
        (result,) = upload((ROOT / "samples" / f"{name}.json").read_bytes()).get_json()["results"]
        ids[name] = int(result["record_id"])
    return ids


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_pdf_enters_the_helpers_a_constant_number_of_times(client: FlaskClient, stored: dict[str, int],
                                                             lang: str) -> None:
    events = {name: len(json.loads((ROOT / "samples" / f"{name}.json").read_text("utf-8"))["events"])
              for name in HANDS}
    assert events[HANDS[0]] < 10 < 90 < events[HANDS[1]] < events[HANDS[2]]  # the hands differ in length
    client.get(f"/records/{stored[HANDS[0]]}.pdf")  # first request: imports and templates loaded
    counts = {name: pdf_entries(client, record_id, lang) for name, record_id in stored.items()}
    short, typical, long = (counts[name] for name in HANDS)
    for module in HELPERS:
        assert short[module] == typical[module] == long[module], (module, counts)
    assert sum(short.values()) > 0  # the profile did see the helpers (chrome, the fetcher's drawings)


def page_entries(client: FlaskClient, record_id: int, lang: str) -> Counter[str]:
    """The helper entries of one record's page in a language (the page checked to show its steps)."""
    with entries() as counts:
        response = client.get(f"/records/{record_id}", query_string={"lang": lang})
    assert response.status_code == 200 and b'class="steps-table"' in response.data
    return Counter(counts)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_enters_the_helpers_a_constant_number_of_times(client: FlaskClient, stored: dict[str, int],
                                                              lang: str) -> None:
    for record_id in stored.values():  # imports and templates loaded; each record's trail holds one view more
        client.get(f"/records/{record_id}", query_string={"lang": lang})
    counts = {name: page_entries(client, record_id, lang) for name, record_id in stored.items()}
    short, typical, long = (counts[name] for name in HANDS)
    for module in HELPERS:
        assert short[module] == typical[module] == long[module], (module, counts)
    assert short["web.drawings"] > 0 and short["web.table_html"] > 0  # the profile did see the page's drawings


def test_the_counter_counts_entries_not_inner_calls(app: Any) -> None:
    from web import labels

    with app.test_request_context("/?lang=zh"):
        from flask import g

        g.lang = "zh"
        with entries() as counts:
            labels.option_value_words("chicken.charge", [True, 2])  # calls itself, and web.i18n once
            labels.tile_name("1m")
    assert counts["web.labels"] == 2 and counts["web.i18n"] == 1


def imports_of(path: Path) -> set[str]:
    """Every module and `module.name` a file imports, imports inside functions included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


@pytest.mark.parametrize("path", ["web/report_model.py", "web/pdf/model.py", "web/page_model.py"])
def test_the_report_is_built_from_plain_inputs(path: str) -> None:
    """No request, no store, no audit: the view reads those (web/report_inputs.py) and passes them."""
    imported = imports_of(ROOT / path)
    assert not imported & {"flask.request", "flask.g", "records.store", "web.db", "web.views", "records.pipeline"}
