"""The HTML of one record's PDF report, for its own route (`/records/<id>.pdf`) and for a case's
PDF (`/cases/<id>.pdf`), so that both print the same evidence: page 1 the dispute and what the
document is evidence of, then the settlement and the whole hand. A case prints each record's
body (`record_pdf_body`) inside its own document, so the case is one layout: one font, one
page-number sequence, and a record starts where the previous one ends (issue 23.6)."""
from __future__ import annotations

from typing import Any

from flask import render_template
from markupsafe import Markup

from records import cases, trail
from records.rows import now
from records.store import Store
from web.pdf.contents import drawn_steps, evidence, finding_steps, segments
from web.report_model import report_context


def _context(store: Store, detail: dict[str, Any]) -> dict[str, Any]:
    """What the PDF's templates read of a record's detail (`web.views.record_detail`)."""
    context = report_context(detail, table=False)
    findings = (detail["audit"] or {}).get("findings") or []
    drawn = drawn_steps(context["steps"], context["key_steps"])
    return {"record": detail, "audit": detail["audit"], "pdf": True, **context,
            "evidence": evidence(detail, cases.standing_of_record(store.db, detail["id"]),
                                 trail.notes(store.db, detail["id"]), now()),
            "drawn": drawn, "segments": segments(context["steps"], drawn),
            "finding_steps": finding_steps(context["steps"], findings)}


def record_pdf_html(store: Store, detail: dict[str, Any]) -> str:
    """The whole HTML document of a record's PDF."""
    return render_template("pdf/report.html", **_context(store, detail))


def record_pdf_body(store: Store, detail: dict[str, Any]) -> Markup:
    """A record's report without its document around it, for a case's PDF (whose first page
    names the time zone once for the whole document: `zone_named`)."""
    return record_pdf_parts(store, detail)[0]


def record_pdf_parts(store: Store, detail: dict[str, Any]) -> tuple[Markup, list[Any]]:
    """A record's report body and its differing payments (`report.model.DifferingPayment`), from one
    model: the case sheet puts the disputed record's on its page 1 (issue 33.6)."""
    context = _context(store, detail)
    return Markup(render_template("pdf/report_body.html", **context, zone_named=True)), list(context["differing"])


__all__ = ["record_pdf_body", "record_pdf_html", "record_pdf_parts"]
