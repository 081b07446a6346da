"""HTML in, an inline PDF response out: WeasyPrint with our fetcher and our image cache."""
from __future__ import annotations

from flask import Response, request

from web.downloads import content_disposition
from web.pdf.fetcher import static_fetcher
from web.pdf.forms import DrawOnce
from web.pdf.images import pictures


def pdf_response(html: str, filename: str) -> Response:
    """Typeset HTML with WeasyPrint into an inline PDF download named `filename` (web.downloads)."""
    from weasyprint import HTML

    cache = DrawOnce(pictures())
    pdf = HTML(string=html, base_url=request.url_root, url_fetcher=static_fetcher()).write_pdf(cache=cache)
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition(filename, "inline")
    return response
