"""What a PDF may load: our stylesheets and fonts under /static/, the drawings this request
registered (`web.pdf.images`) and data: URLs; everything else is refused.

WeasyPrint would otherwise follow any URL a document names; a record is
client input, so the PDF must never touch the network or the disk beyond
/static/, whatever the record contains.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import current_app

from web.pdf.images import PDF_IMAGES, images


def resolve(url: str, static: Path, drawings: dict[str, str]) -> tuple[bytes, str] | None:
    """The bytes and content type the PDF gets for `url`; None for a data: URL (WeasyPrint
    decodes those itself). ValueError for anything else than a registered drawing or a file
    under `static` (an absolute, resolved folder)."""
    if url.startswith("data:"):
        return None
    if PDF_IMAGES in url and url.split(PDF_IMAGES, 1)[1] in drawings:
        return drawings[url.split(PDF_IMAGES, 1)[1]].encode("utf-8"), "image/svg+xml"
    path = url.split("/static/", 1)[1].split("?", 1)[0] if "/static/" in url else ""
    target = (static / path).resolve()
    if not path or static not in target.parents or not target.is_file():
        raise ValueError(f"the PDF may only load files under /static/, not {url!r}")
    return target.read_bytes(), "text/css" if target.suffix == ".css" else "application/octet-stream"


def static_fetcher() -> Any:
    """A WeasyPrint fetcher that answers by `resolve`, for the app's static folder and the
    drawings of this request."""
    from email.message import EmailMessage

    from weasyprint.urls import URLFetcher, URLFetcherResponse

    static = Path(current_app.static_folder or "static").resolve()
    drawings = images()
    svg_headers = EmailMessage()  # built once: a header set through `email` costs 1 ms (measured)
    svg_headers["Content-Type"] = "image/svg+xml"

    class StaticFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            found = resolve(url, static, drawings)
            if found is None:
                return super().fetch(url, headers)
            data, kind = found
            return URLFetcherResponse(url, data, svg_headers if kind == "image/svg+xml" else {"Content-Type": kind})

    return StaticFetcher()
