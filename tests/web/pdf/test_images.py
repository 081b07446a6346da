"""web/pdf/images.py: the drawings a PDF embeds are kept on `g` under URLs named by their
content, once each, with the pieces of every picture for the PDF's image cache."""
from __future__ import annotations

import json

from flask import Flask

from audit import render
from audit.api import trace_record
from tests.conftest import ROOT
from web.pdf.images import PDF_IMAGES, embedded, image_url, images, picture_url, pictures


def test_a_drawing_is_registered_once_under_its_content(app: Flask) -> None:
    with app.test_request_context("/records/1.pdf"):
        first, again, other = image_url("<svg>a</svg>"), image_url("<svg>a</svg>"), image_url("<svg>b</svg>")
        assert first == again != other and first.startswith(PDF_IMAGES) and first.endswith(".svg")
        assert images() == {first[len(PDF_IMAGES):]: "<svg>a</svg>", other[len(PDF_IMAGES):]: "<svg>b</svg>"}
        assert str(embedded("<svg>a</svg>", "hand-image")) == f'<img class="hand-image" alt="" src="{first}">'
    with app.test_request_context("/records/2.pdf"):
        assert images() == {} and pictures() == {}  # per request: nothing leaks into the next PDF


def test_a_picture_registers_its_svg_and_every_piece(app: Flask) -> None:
    doc = json.loads((ROOT / "samples" / "clean-weile-hot-shot.json").read_text(encoding="utf-8"))
    picture = render.table_picture(trace_record(doc).steps[3])
    with app.test_request_context("/records/1.pdf"):
        url = picture_url(picture)
        units, placed = pictures()[url]
        assert units == picture.units and len(placed) == len(picture.pieces)
        assert {path[len(PDF_IMAGES):] for path, *_box in placed} | {url[len(PDF_IMAGES):]} == set(images())
        assert placed[0][1:] == (picture.pieces[0].x, picture.pieces[0].y, picture.pieces[0].width,
                                 picture.pieces[0].height)
