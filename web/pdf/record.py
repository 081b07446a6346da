"""The HTML of one record's PDF report, for its own route (`/records/<id>.pdf`) and for a case's
PDF (`/cases/<id>.pdf`), so that both print the same evidence: page 1 the dispute and what the
document is evidence of, then the settlement and the whole hand. A case prints each record's
body (`record_pdf_body`) inside its own document, so the case is one layout: one font, one
page-number sequence, and a record starts where the previous one ends (issue 23.6).

The view reads the store (the record's case and notes, the report's inputs) and the report is
then built as finished data (`web.report_model.pdf_model`, issue 35.2): the templates lay it
out, looking their fixed words up in its `words` (`_` in templates/pdf/ is that lookup)."""
from __future__ import annotations

from typing import Any

from flask import render_template
from markupsafe import Markup

from audit.vocabulary import Lang
from records import cases, trail
from records.rows import now
from records.store import Store
from web.pdf.contents import evidence
from web.pdf.model import DifferingTable, PdfReport
from web.report_inputs import report_inputs
from web.report_model import pdf_model


def pdf_report_of(store: Store, detail: dict[str, Any], lang: Lang) -> PdfReport:
    """A record's PDF as finished data: its inputs and evidence read from the store, then built."""
    facts = evidence(detail, cases.standing_of_record(store.db, detail["id"]), trail.notes(store.db, detail["id"]), now())
    return pdf_model(report_inputs(store, detail, lang, tables=False), facts)


def _context(report: PdfReport, detail: dict[str, Any]) -> dict[str, Any]:
    """The template variables: the finished report, the record's facts, `_` the word lookup."""
    return {"report": report, "record": detail, "pdf": True, "_": report.words.__getitem__}


def record_pdf_html(store: Store, detail: dict[str, Any], lang: Lang) -> str:
    """The whole HTML document of a record's PDF."""
    return render_template("pdf/report.html", **_context(pdf_report_of(store, detail, lang), detail))


def record_pdf_body(store: Store, detail: dict[str, Any], lang: Lang) -> Markup:
    """A record's report without its document around it, for a case's PDF (whose first page
    names the time zone once for the whole document: `zone_named`)."""
    return record_pdf_parts(store, detail, lang)[0]


def record_pdf_parts(store: Store, detail: dict[str, Any], lang: Lang) -> tuple[Markup, DifferingTable]:
    """A record's report body and its differing payments in words, from one model: the case
    sheet puts the disputed record's on its page 1 (issue 33.6)."""
    report = pdf_report_of(store, detail, lang)
    body = render_template("pdf/report_body.html", **_context(report, detail), zone_named=True)
    return Markup(body), report.differing


__all__ = ["pdf_report_of", "record_pdf_body", "record_pdf_html", "record_pdf_parts"]
