"""The HTML pages: upload form, records list, report of one record.

They share the API's request handling (`web.views`, `web.upload_request`) so the
page and the JSON answer agree; templates get plain rows and the audit JSON, and
only label what they show.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from records import cases
from records.rows import VERDICTS
from records.store import Store
from report.dispute import difference
from web.auth import READERS, requires
from web.db import get_store
from web.errors import unknown_profile
from web.i18n import page_language
from web.record_page import profiles, report_page
from web.upload_request import run_upload, uploaded_files
from web.safe_audit import checked_reason, option_problem
from web.uploads import summarize, totals, upload_status
from web.views import form_options, parse_list_query, reaudit_record, record_detail, what_if_audit

bp = Blueprint("pages", __name__)


@bp.get("/")
@requires(*READERS)
def index() -> ResponseReturnValue:
    """The list is the home page."""
    return redirect(url_for("pages.records"))


@bp.get("/upload")
@requires(*READERS)
def upload_form() -> ResponseReturnValue:
    """The drop zone; static/upload.js posts each file to the API."""
    return render_template("upload.html", results=None, summary=None, totals=None, limit=_limit_text())


@bp.post("/upload")
@requires(*READERS)
def upload_submit() -> ResponseReturnValue:
    """The same upload without JavaScript: results rendered on the page."""
    results = run_upload(uploaded_files())
    status = upload_status(results)
    return render_template("upload.html", results=results, summary=summarize(results), totals=totals(results),
                           limit=_limit_text()), 200 if status in (200, 201) else status


def player_differences(store: Store, record_ids: list[int], player: str) -> dict[int, dict[str, Any]]:
    """The searched player's 差额 (记录 − 审计, `report.dispute.difference`) on each listed record where
    they sit (issue 33.3: a search by a player's name shows their difference per hand); None where a
    side is missing (an invalid or illegal audit)."""
    found: dict[int, dict[str, Any]] = {}
    for record_id, (seat, claimed, computed) in store.seat_scores(record_ids, player).items():
        gap = difference(computed, claimed) if claimed is not None and computed is not None else None
        found[record_id] = {"seat": seat, "difference": gap}
    return found


def _limit_text() -> str:
    """MAX_CONTENT_LENGTH for people."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return f"{limit / 1024 / 1024:.0f} MB" if limit >= 1024 * 1024 else f"{limit} B"


@bp.get("/records")
@requires(*READERS)
def records() -> ResponseReturnValue:
    """Filtered list with verdict tabs and pagination."""
    query = parse_list_query(request.args.to_dict())
    store = get_store()
    page = store.search(query)
    choices = {column: store.distinct(column) for column in ("platform", "profile", "client")}
    searched = query.player or (query.q or "").strip()
    differences = player_differences(store, [row["id"] for row in page.rows], searched) if searched else {}
    return render_template("records.html", page=page, query=query, verdicts=VERDICTS, choices=choices,
                           case_statuses=cases.STATUSES, differences=differences, searched_player=searched,
                           args=_filter_args(), tab_args=_filter_args(drop="verdict"), sorts=_sort_labels())


def _filter_args(drop: str | None = None) -> dict[str, str]:
    """The query string without paging and language (and `drop`), for tab and page links."""
    skip = {"page", "lang", drop}
    return {key: value for key, value in request.args.items() if key not in skip and value}


def _sort_labels() -> list[str]:
    """Sort keys offered in the form (labels are translated in the template)."""
    return ["id", "played_at", "game_id", "platform", "profile", "verdict"]


@bp.get("/records/<int:record_id>")
@requires(*READERS)
def report(record_id: int) -> ResponseReturnValue:
    """The report of one record: header, findings, the steps, settlement, revisions, audits."""
    return report_page(record_id)


@bp.post("/records/<int:record_id>/audit")
@requires(*READERS)
def reaudit(record_id: int) -> ResponseReturnValue:
    """The re-audit form, checked like the API (options included: a refused option is shown with
    the known parameters, nothing run). Storing asks first: without `confirm=yes` and a reason
    the answer is a page showing the audit that would be stored beside the stored one; with
    them, the audit is stored, the reason in the trail, and back to the report."""
    profile = request.form.get("profile") or None
    if profile is not None and profile not in profiles():
        raise unknown_profile(profile, profiles())
    options_text = request.form.get("options", "")
    options = form_options(options_text)
    lang = page_language()
    detail = record_detail(get_store(), record_id, lang)
    problem = option_problem(record_id, profile, options)
    if problem is not None:
        return render_template("whatif_refused.html", record=detail, problem=problem, profiles=profiles(),
                               chosen=profile, options_text=options_text, lang=lang), 400
    reason = checked_reason(request.form.get("reason"))
    asked = request.form.get("step") == "confirm"  # posted from the confirmation page itself
    if request.form.get("confirm") != "yes" or reason is None:
        preview = what_if_audit(record_id, profile, options, lang)
        return render_template("reaudit_confirm.html", record=detail, stored=detail["audit"], preview=preview,
                               chosen=profile, options_text=options_text, options=options, missing=asked,
                               reason=reason or ""), 400 if asked else 200
    reaudit_record(record_id, profile, options, reason=reason)
    return redirect(url_for("pages.report", record_id=record_id), code=303)

