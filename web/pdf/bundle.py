"""Several HTML documents typeset into one PDF (a case: its sheet, then each record's report).

Each document is laid out on its own (its own page numbers, its own styles), then the
pages are put one after another in one file; the drawings share one draw-once cache
(`web.pdf.forms`), so a tile drawn in the first report is reused by the next.
"""
from __future__ import annotations

from flask import Response, request

from web.pdf.fetcher import static_fetcher
from web.pdf.forms import DrawOnce
from web.pdf.images import pictures


def bundle_response(htmls: list[str], filename: str) -> Response:
    """Typeset every HTML and answer one inline PDF holding all their pages, in order."""
    from weasyprint import HTML

    cache = DrawOnce(pictures())
    documents = [HTML(string=html, base_url=request.url_root, url_fetcher=static_fetcher()).render(cache=cache)
                 for html in htmls]
    pages = [page for document in documents for page in document.pages]
    pdf = documents[0].copy(pages).write_pdf()
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
