"""Receipts on the web: `GET /api/receipts` and the `/receipts` page (`records.receipts`).

Anyone who may read the API may ask what was submitted; an uploader sees its
own platform's receipts and whatever it sent itself (a refused item may have no
readable platform), never another platform's.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from records import problem_words, receipts
from records.security import UPLOADER
from web import clock
from web.auth import API_READERS, READERS, current_account, hidden_platform, requires
from web.db import get_store
from web.dispute_schemas import ReceiptPageSchema, ReceiptQuerySchema
from web.errors import bad_fields, reworded
from web.i18n import page_language
from web.numbers import query_values
from web.uploads import localized_error
from web.views import first_messages

bp = Blueprint("receipts", __name__)


def receipt_query() -> receipts.ReceiptQuery:
    """The query string checked (a bad value is a 400 naming it), scoped to an uploader's platform."""
    values = query_values(ReceiptQuerySchema(), request.args)
    account = current_account()
    if account is not None and account.role == UPLOADER:
        if values.get("platform") not in (None, account.platform):
            raise hidden_platform(values["platform"])
        values.update(platform=account.platform or "", visible_to=account.name)
    return receipts.ReceiptQuery(**values, zone=clock.zone())


@bp.get("/api/receipts")
@requires(*API_READERS)
def list_receipts() -> ResponseReturnValue:
    """Receipts, newest first: `q` (game id, uploader, source, platform, outcome), `outcome`,
    `platform`, `date_from`/`date_to` (days of the service's zone, `web.clock`), `page`, `per_page`."""
    page = receipts.find(get_store().db, receipt_query())
    return jsonify(ReceiptPageSchema().dump({"receipts": page.rows, "total": page.total, "page": page.page,
                                             "per_page": page.per_page, "pages": page.pages,
                                             "counts": page.counts}))


@bp.get("/receipts")
@requires(*READERS)
def receipts_page() -> ResponseReturnValue:
    """The receipts as a page: search box, outcome tabs with counts, one row per item."""
    query = receipt_query()
    page = receipts.find(get_store().db, query)
    args = {key: value for key, value in request.args.items() if key not in ("page", "lang", "outcome") and value}
    return render_template("receipts.html", page=page, query=query, outcomes=receipts.OUTCOMES, args=args,
                           error_text=lambda source, error: _error_text(source, error))


def _error_text(source: str, error: dict[str, Any]) -> str:
    """A receipt's error in the page's language, without the place (the row shows it); a whole
    request refused (another platform's records, too large) by its refusal's words (web/errors.toml)."""
    lang = page_language()
    problem = error.get("problem")
    if problem and not problem_words.known(str(problem)):
        again = reworded(str(problem), error.get("params") or {}, lang)
        if again is not None:
            return again
    shown = localized_error(source, error, lang)
    return str(shown.get("text") or shown["message"])
