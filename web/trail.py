"""The audit trail and the notes, on the web: who did what to a record, and what auditors decided.

- Views and exports are logged by one after_request hook for every successful GET that names a
  record (`record_id` in the URL): an export when the answer is a download (an attachment or a
  PDF), a view otherwise. Routes need not remember to log, and new ones (the PDF) are covered.
- Uploads and re-audits are logged by the store in the same transaction as the data they
  describe; notes by `records.trail.add_note`, also in one transaction.
- The record page includes `templates/trail.html`, which calls `record_trail` and
  `record_notes` (template globals), so the report's view function needs no change.
- JSON: `GET /api/records/<id>/trail`, `GET` and `POST /api/records/<id>/notes` (their schemas
  are in `web.api_schemas`, their OpenAPI description in `web.openapi`).
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, g, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from records import trail
from records.db import atomic
from records.rows import now
from web.api_schemas import NoteRequestSchema, NoteSchema, TrailEntrySchema
from web.auth import READERS, account_name, current_account, requires
from web.db import get_access_db, get_store, trail_key
from web.errors import bad_fields, coded
from web.numbers import read_number
from web.views import find_record, json_object, merged_entries

bp = Blueprint("trail", __name__)

DOWNLOAD_TYPES = ("application/pdf", "application/zip")
"""Answers that count as an export even without Content-Disposition: attachment."""
SHOWN_ON_PAGE = 200
"""Newest trail rows shown on a record's page (the API can page further with `limit`)."""


# ----- logging views and exports --------------------------------------------------------------


def log_access(response: Any) -> Any:
    """Log a successful GET that names a record as a view or an export, and any other download
    (the overview PDF) as an export without a record, before the answer is sent."""
    record_id = (request.view_args or {}).get("record_id")
    if request.method != "GET" or response.status_code != 200 or current_account() is None:
        return response
    disposition = response.headers.get("Content-Disposition", "")
    export = "attachment" in disposition or response.mimetype in DOWNLOAD_TYPES
    if not isinstance(record_id, int) and not export:
        return response
    detail = {"endpoint": request.endpoint, "via": g.get("via")}
    if export:
        detail.update(format=response.mimetype, path=request.full_path.rstrip("?"))
    db = get_access_db()  # the access log's own file: a reader never takes the main write lock
    with atomic(db):
        trail.append(db, at=now(), actor=account_name(), action="export" if export else "view", key=trail_key(),
                     record_id=record_id if isinstance(record_id, int) else None, detail=detail)
    return response


def record_trail(record_id: int, limit: int = SHOWN_ON_PAGE) -> list[dict[str, Any]]:
    """Template global: the newest trail rows of a record (changes and reads)."""
    return merged_entries(record_id, limit)


def record_trail_count(record_id: int) -> int:
    """Template global: how many trail rows a record has."""
    return trail.count(get_store().db, record_id=record_id) + trail.count(get_access_db(), record_id=record_id)


def record_notes(record_id: int) -> list[dict[str, Any]]:
    """Template global: a record's notes, oldest first."""
    return trail.notes(get_store().db, record_id)


def _require_record(record_id: int) -> None:
    """404 naming the record unless it exists (and, for an uploader, is of its platform)."""
    find_record(get_store(), record_id)


def _add(record_id: int, values: dict[str, Any]) -> int:
    """Store a note and its trail entry in one transaction."""
    store = get_store()
    with atomic(store.db):
        return trail.add_note(store.db, record_id=record_id, author=account_name() or "unknown",
                              case_number=values.get("case_number"), decision=values.get("decision"),
                              text=values.get("text"), at=now(), key=store.trail_key)


# ----- routes ---------------------------------------------------------------------------------


@bp.post("/records/<int:record_id>/notes")
@requires(*READERS)
def add_note_form(record_id: int) -> ResponseReturnValue:
    """The note form on the record page; back to the page's notes."""
    _require_record(record_id)
    form = request.form
    try:
        _add(record_id, {"case_number": form.get("case_number"), "decision": form.get("decision") or "open",
                         "text": form.get("text")})
    except trail.NoteError as exc:
        raise coded(400, exc) from exc
    return redirect(url_for("pages.report", record_id=record_id, _anchor="notes"), code=303)


@bp.get("/api/records/<int:record_id>/notes")
@requires(*READERS)
def list_notes(record_id: int) -> ResponseReturnValue:
    """A record's notes, oldest first."""
    _require_record(record_id)
    return jsonify(NoteSchema(many=True).dump(record_notes(record_id)))


@bp.post("/api/records/<int:record_id>/notes")
@requires(*READERS)
def post_note(record_id: int) -> ResponseReturnValue:
    """Add a note: `{"case_number": "...", "decision": "confirmed", "text": "..."}`."""
    _require_record(record_id)
    schema = NoteRequestSchema()
    body = json_object(request.get_data(cache=True) or b"null", schema)
    try:
        values = schema.load(body)
        note_id = _add(record_id, values)
    except ValidationError as exc:
        raise bad_fields("bad_body", exc.normalized_messages()) from exc
    except trail.NoteError as exc:
        raise coded(400, exc) from exc
    note = next(row for row in record_notes(record_id) if row["id"] == note_id)
    return jsonify(NoteSchema().dump(note)), 201


@bp.get("/api/records/<int:record_id>/trail")
@requires(*READERS)
def get_trail(record_id: int) -> ResponseReturnValue:
    """A record's trail, newest first (`limit`, 1–1000, default 200)."""
    _require_record(record_id)
    limit = read_number(request.args.get("limit"), "limit", low=1, high=1000, default=SHOWN_ON_PAGE)
    assert limit is not None
    return jsonify(TrailEntrySchema(many=True).dump(record_trail(record_id, limit)))


def init_app(app: Flask) -> None:
    """Routes, the view/export logger and the template globals."""
    app.register_blueprint(bp)
    app.after_request(log_access)
    app.jinja_env.globals.update(record_trail=record_trail, record_trail_count=record_trail_count,
                                 record_notes=record_notes)
