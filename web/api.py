"""The JSON API under /api: upload, list, fetch, audit and re-audit records.

Everything about the game comes from the engine through the store; this module
only reads requests, calls the store and shapes responses with the schemas.
What the pages ask alike (find a record, read a list query, re-audit, read an
upload) lives in `web.views` and `web.upload_request`.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from audit.vocabulary import rerender, seat_names
from web import engine
from web.api_schemas import AuditRowSchema, ReauditRequestSchema, RecordDetailSchema, RecordPageSchema
from web.api_schemas import UploadResponseSchema
from web.auth import API_READERS, READERS, requires, scope_query
from web.db import get_store
from web.downloads import content_disposition
from web.errors import bad_fields, unknown_profile
from web.i18n import api_language
from web.openapi import build_spec
from web.upload_request import run_upload, uploaded_files
from web.uploads import summarize, upload_status
from web.views import find_record, first_messages, json_object, localized_row, parse_list_query, reaudit_record, record_detail

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.post("/records")
@requires(*API_READERS)
def upload() -> ResponseReturnValue:
    """Upload records (multipart files or a raw body); one result per hand."""
    results = run_upload(uploaded_files())
    body = UploadResponseSchema().dump({"results": results, "summary": summarize(results)})
    return jsonify(body), upload_status(results)


@bp.get("/records")
@requires(*API_READERS)
def list_records() -> ResponseReturnValue:
    """Filtered, sorted, paginated records with counts per verdict (an uploader's platform only)."""
    page = get_store().search(scope_query(parse_list_query(request.args.to_dict())))
    body = {"records": page.rows, "total": page.total, "page": page.page, "per_page": page.per_page,
            "pages": page.pages, "counts": page.counts, "exact": page.exact}
    return jsonify(RecordPageSchema().dump(body))


@bp.get("/records/<int:record_id>")
@requires(*API_READERS)
def get_record(record_id: int) -> ResponseReturnValue:
    """One record with its revisions, every audit and the document."""
    return jsonify(RecordDetailSchema().dump(record_detail(get_store(), record_id, api_language())))


@bp.get("/records/<int:record_id>/raw")
@requires(*API_READERS)
def get_raw(record_id: int) -> ResponseReturnValue:
    """The bytes exactly as received."""
    store = get_store()
    record = find_record(store, record_id)
    response = Response(store.raw(record_id), mimetype="application/json")
    response.headers["Content-Disposition"] = content_disposition(f"{record['game_id']}.r{record['revision']}.json")
    return response


@bp.get("/records/<int:record_id>/audit")
@requires(*API_READERS)
def get_audit(record_id: int) -> ResponseReturnValue:
    """The contract audit JSON of the latest audit, messages and notes in the asked language."""
    store = get_store()
    find_record(store, record_id)
    audit = store.latest_audit(record_id)
    return jsonify(rerender(audit, api_language(), seat_names(store.document(record_id))) if audit else audit)


@bp.get("/records/<int:record_id>/audits")
@requires(*API_READERS)
def list_audits(record_id: int) -> ResponseReturnValue:
    """Every audit of a record, oldest first."""
    store = get_store()
    find_record(store, record_id)
    lang = api_language()
    names = seat_names(store.document(record_id))
    return jsonify(AuditRowSchema(many=True).dump([localized_row(row, lang, names)
                                                   for row in store.audits(record_id)]))


def reaudit_request() -> dict[str, Any]:
    """The re-audit body, checked: JSON object, known profile, options an object."""
    data = request.get_data(cache=True)
    body = json_object(data, ReauditRequestSchema()) if data.strip() else {}
    try:
        values: dict[str, Any] = ReauditRequestSchema().load(body)
    except ValidationError as exc:
        raise bad_fields("bad_body", exc.messages) from exc
    known = engine.profiles()
    if values["profile"] is not None and values["profile"] not in known:
        raise unknown_profile(values["profile"], list(known))
    return values


@bp.post("/records/<int:record_id>/audit")
@requires(*READERS)
def post_audit(record_id: int) -> ResponseReturnValue:
    """Audit again under {profile, options}; the new audit is stored and returned."""
    values = reaudit_request()
    row = reaudit_record(record_id, values["profile"], values["options"], api_language(),
                         reason=(values.get("reason") or "").strip() or None)
    response = jsonify(AuditRowSchema().dump(row))
    response.headers["Location"] = url_for("api.get_audit", record_id=record_id)
    return response, 201


@bp.get("/profiles")
@requires(*API_READERS)
def list_profiles() -> ResponseReturnValue:
    """Profiles the engine knows, for re-audit clients."""
    return jsonify({"profiles": engine.profiles(), "engine_version": engine.version()})


@bp.get("/openapi.json")
@requires(*API_READERS)
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3 description generated from the schemas."""
    return jsonify(build_spec().to_dict())
