"""The report's routes besides the page itself (`pages.report`): its PDF, and the what-if comparison.

What they show comes from `web.report_model`; the drawings and labels are
template globals (`web.drawings`, `web.labels`); the PDF is typeset by
`web.pdf.typeset`.
"""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue

from web import engine
from web.auth import READERS, requires
from web.db import get_store
from web.i18n import page_language
from audit.rulebook import rule_text
from records import trail
from records.storage import now
from web.pdf.contents import evidence, finding_steps, key_steps, profile_name, tile_name
from web.pdf.typeset import pdf_response
from web.report_model import record_result, report_context, whatif_side
from web.views import form_options, record_detail, what_if_audit

bp = Blueprint("report", __name__)


@bp.get("/records/<int:record_id>.pdf")
@requires(*READERS)
def report_pdf(record_id: int) -> ResponseReturnValue:
    """The report as evidence: page 1 the dispute (verdict, each seat's difference, the
    findings, their steps drawn large, the ledger) and what the document is evidence of, then
    the whole hand, one line per event, the whole table drawn at its key steps."""
    store, lang = get_store(), page_language().value
    detail = record_detail(store, record_id, page_language())
    context = report_context(detail)
    findings = (detail["audit"] or {}).get("findings") or []
    html = render_template("pdf/report.html", record=detail, audit=detail["audit"], pdf=True, **context,
                           evidence=evidence(detail, trail.notes(store.db, record_id), now()),
                           key_steps=key_steps(context["steps"]),
                           finding_steps=finding_steps(context["steps"], findings),
                           tile_name=lambda code: tile_name(code, lang), profile_name=lambda name: profile_name(name, lang),
                           rule_words=lambda code: rule_text(code, lang))
    return pdf_response(html, f"{detail['game_id']}.r{detail['revision']}.pdf")


@bp.get("/records/<int:record_id>/whatif")
@requires(*READERS)
def what_if(record_id: int) -> ResponseReturnValue:
    """The latest stored audit beside an audit under another profile or options (nothing stored;
    the page offers to store it through the re-audit form)."""
    store, lang = get_store(), page_language().value
    detail = record_detail(store, record_id, page_language())
    profiles = engine.profiles()
    profile = request.args.get("profile") or None
    if profile is not None and profile not in profiles:
        abort(400, f"profile: unknown profile {profile!r}; known: {', '.join(profiles)}")
    options_text = request.args.get("options", "")
    options = form_options(options_text)
    claimed = record_result(detail["document"])
    latest = detail["audits"][-1] if detail["audits"] else {"profile": None, "options": None}
    stored = whatif_side(detail["audit"] or {}, latest["profile"], latest["options"], claimed)
    other = whatif_side(what_if_audit(record_id, profile, options, page_language()), profile, options, claimed)
    return render_template("report/whatif.html", record=detail, audit=detail["audit"], stored=stored,
                           other=other, profiles=profiles, chosen=profile, options_text=options_text,
                           claimed=claimed)
