"""The HTML of one record's PDF report, for its own route (`/records/<id>.pdf`) and for a case's
bundle (`/cases/<id>.pdf`), so that both print the same evidence: page 1 the dispute and what the
document is evidence of, then the whole hand."""
from __future__ import annotations

from typing import Any

from flask import render_template

from records import trail
from records.rows import now
from records.store import Store
from web.pdf.contents import drawn_steps, evidence, finding_steps
from web.report_model import report_context


def record_pdf_html(store: Store, detail: dict[str, Any]) -> str:
    """The PDF template rendered for a record's detail (`web.views.record_detail`)."""
    context = report_context(detail)
    findings = (detail["audit"] or {}).get("findings") or []
    return render_template("pdf/report.html", record=detail, audit=detail["audit"], pdf=True, **context,
                           evidence=evidence(detail, trail.notes(store.db, detail["id"]), now()),
                           drawn=drawn_steps(context["steps"], context["key_steps"]),
                           finding_steps=finding_steps(context["steps"], findings))


__all__ = ["record_pdf_html"]
