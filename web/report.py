"""The report's routes besides the page itself (`pages.report`): its PDF, and the what-if comparison.

What they show comes from `web.report_model`, built from what the view reads
(`web.report_inputs`); the PDF's words and drawings are finished before its
templates run (`web.pdf.model`), and `web.pdf.typeset` typesets it.
"""
from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from records.revision_diff import revision_diff
from web import engine
from web.auth import READERS, requires
from web.db import get_store
from web import whatif_fields
from web.errors import fail, unknown_profile
from web.i18n import page_language
from web.pdf.record import record_pdf_html
from web.pdf.typeset import pdf_response
from web.report_model import record_result, whatif_side
from web.safe_audit import option_problem
from web.numbers import require_number
from web.views import find_record, form_options, record_detail, what_if_audit

bp = Blueprint("report", __name__)


@bp.get("/records/<int:record_id>.pdf")
@requires(*READERS)
def report_pdf(record_id: int) -> ResponseReturnValue:
    """The report as evidence: page 1 the dispute (verdict, each seat's difference, the
    findings, their steps drawn large, the ledger) and what the document is evidence of, then
    the whole hand, one line per event, the whole table drawn at its key steps."""
    store = get_store()
    lang = page_language()
    detail = record_detail(store, record_id, lang)
    html = record_pdf_html(store, detail, lang)
    return pdf_response(html, f"{detail['game_id']}.r{detail['revision']}.pdf")


@bp.get("/records/<int:record_id>/whatif")
@requires(*READERS)
def what_if(record_id: int) -> ResponseReturnValue:
    """The latest stored audit beside an audit under another profile or options (nothing stored;
    the page offers to store it through the re-audit form)."""
    store = get_store()
    detail = record_detail(store, record_id, page_language())
    profiles = engine.profiles()
    profile = request.args.get("profile") or None
    if profile is not None and profile not in profiles:
        raise unknown_profile(profile, list(profiles))
    options = form_options(request.args.get("options", ""))
    drawn = request.args.get(whatif_fields.FIELDS_FOR) or profile or detail.get("profile")
    if drawn in profiles and any(key.startswith(whatif_fields.PREFIX) for key in request.args):
        options = whatif_fields.form_options(request.args, drawn, options)
    options_text = whatif_fields.options_json(options)
    problem = option_problem(record_id, profile, options)
    if problem is not None:  # shown with the form, nothing run (web.safe_audit)
        return render_template("whatif_refused.html", record=detail, problem=problem, profiles=profiles,
                               chosen=profile, options_text=options_text, lang=page_language()), 400
    claimed = record_result(detail["document"])
    latest = detail["audits"][-1] if detail["audits"] else {"profile": None, "options": None}
    stored = whatif_side(detail["audit"] or {}, latest["profile"], latest["options"], claimed)
    other = whatif_side(what_if_audit(record_id, profile, options, page_language()), profile, options, claimed)
    return render_template("report/whatif.html", record=detail, audit=detail["audit"], stored=stored,
                           other=other, profiles=profiles, chosen=profile, options_text=options_text,
                           claimed=claimed)


@bp.get("/records/<int:record_id>/diff")
@requires(*READERS)
def revision_diff_page(record_id: int) -> ResponseReturnValue:
    """Two revisions of one game side by side: the fields, events and result entries that
    differ. `with` names the other revision's record id (default: the current revision, or
    the one before when this is the current one); it must be a revision of the same game."""
    store = get_store()
    record = find_record(store, record_id)
    revisions = store.revisions(record_id)
    other_text = request.args.get("with", "")
    if other_text:
        other_id = require_number(other_text, "with")
        if other_id not in {r["id"] for r in revisions}:
            raise fail(400, "not_a_revision", field="with", value=other_text, game=record["game_id"])
    else:
        current = next((r for r in revisions if r["is_current"]), revisions[-1])
        earlier = [r for r in revisions if r["revision"] < record["revision"]]
        other_id = current["id"] if current["id"] != record_id else (earlier[-1]["id"] if earlier else record_id)
    other = find_record(store, other_id)
    old, new = (record, other) if record["revision"] <= other["revision"] else (other, record)
    diff = revision_diff(store.document(old["id"]), store.document(new["id"]))
    record = {**record, "seats": store.players(record_id)}  # seats by their names, as on the record's page
    return render_template("report/diff.html", record=record, old=old, new=new, diff=diff, revisions=revisions)
