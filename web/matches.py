"""The match page (issue 23, point 4): a match's hands in order, each verdict, the running totals
per player and the continuity checks between hands (`report.match`, from the stored audits,
which the pipeline made with the whole match: `audit.match.continuity`)."""
from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

from web.auth import READERS, requires
from web.db import get_store
from web.errors import fail
from web.report_inputs import match_page
from web.views import find_record

bp = Blueprint("matches", __name__)


@bp.get("/matches/<int:match_id>")
@requires(*READERS)
def match(match_id: int) -> ResponseReturnValue:
    """One match: a 404 naming the id when there is none, or when this account may not see its
    hands (an uploader sees its own platform's, as for a record)."""
    store = get_store()
    view = match_page(store, match_id)
    if view is None or not view.hands:
        raise fail(404, "match_missing", id=match_id)
    first = find_record(store, view.hands[0].record_id)
    return render_template("match.html", match=view, seats=store.players(first["id"]), first=first)
