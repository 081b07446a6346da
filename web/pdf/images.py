"""The drawings a PDF embeds, kept on `g` for the PDF's URL fetcher (no route serves them).

Templates call these through the drawing globals (`web.drawings`) while the PDF's
HTML is rendered; `web.pdf.fetcher` hands the SVGs over and `web.pdf.forms`
places the pieces of each registered picture.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from flask import g
from markupsafe import Markup

from audit.vocabulary import Picture

PDF_IMAGES = "/_pdf-images/"
"""URL prefix of the drawings a PDF embeds; only the PDF's fetcher answers it (no route)."""

Placed = tuple[tuple[str, float, float, float, float], ...]
"""A picture's pieces: (image URL path, x, y, width, height) in the picture's units."""


def image_url(svg: str) -> str:
    """The URL path under which the PDF's fetcher hands over an SVG (kept on `g`), named by its
    content: WeasyPrint loads and parses each URL once per document."""
    names: dict[str, str] = g.setdefault("pdf_names", {})
    name = names.get(svg)
    if name is None:
        name = names[svg] = hashlib.sha1(svg.encode("utf-8")).hexdigest()[:16] + ".svg"
        g.setdefault("pdf_images", {})[name] = svg
    return PDF_IMAGES + name


def embedded(svg: str, css_class: str) -> Markup:
    """An SVG as an <img> for WeasyPrint, kept on `g` and handed over by the PDF's URL fetcher.
    As an image WeasyPrint skips the HTML styling of every SVG node (a third faster, measured)
    and the drawing's ids stay out of the document; by URL rather than as a data: URL its HTML
    parser does not wade through the base64 (0.3 s for a long hand, measured)."""
    return Markup('<img class="{}" alt="" src="{}">').format(css_class, image_url(svg))


def picture_url(picture: Picture) -> str:
    """Register a picture of placed pieces: its SVG of <image>s under its URL, and each piece
    for the PDF's image cache (`web.pdf.forms`), which places them without that SVG's walk."""
    url = image_url(picture.svg(image_url))
    placed = tuple((image_url(piece.svg), piece.x, piece.y, piece.width, piece.height) for piece in picture.pieces)
    g.setdefault("pdf_pictures", {})[url] = (picture.units, placed)
    return url


def picture_urls(pictures: Sequence[Picture]) -> list[str]:
    """Register several pictures at once (`picture_url` each), in one call for a report built
    before its templates run (issue 35.2): every piece is named first, so the pictures' SVGs
    look the names up rather than calling back into this module per piece."""
    names = {piece.svg: image_url(piece.svg) for picture in pictures for piece in picture.pieces}
    pictures_of: dict[str, tuple[tuple[float, float], Placed]] = g.setdefault("pdf_pictures", {})
    urls = []
    for picture in pictures:
        url = image_url(picture.svg(names.__getitem__))
        pictures_of[url] = (picture.units, tuple((names[piece.svg], piece.x, piece.y, piece.width, piece.height)
                                                 for piece in picture.pieces))
        urls.append(url)
    return urls


def embedded_all(svgs: Sequence[str], css_class: str) -> list[Markup]:
    """`embedded` for several SVGs in one call."""
    return [embedded(svg, css_class) for svg in svgs]


def images() -> dict[str, str]:
    """The SVGs this request registered, by file name."""
    registered: dict[str, str] = g.get("pdf_images", {})
    return registered


def pictures() -> dict[str, tuple[tuple[float, float], Placed]]:
    """The pictures this request registered: URL path -> (units, placed pieces)."""
    registered: dict[str, tuple[tuple[float, float], Placed]] = g.get("pdf_pictures", {})
    return registered
