"""The JSON API under /api: upload, list, fetch, audit and re-audit records.

Everything about the game comes from the engine through the store; this module
only reads requests, calls the store and shapes responses with the schemas.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from records.ingest import Batch, read_upload
from records.pipeline import AuditFailed
from records.storage import RecordQuery, Store, UnknownRecord, identity
from web import engine
from web.auth import API_READERS, READERS, account_name, check_upload_platform, requires, scope_query
from web.auth import upload_label, visible
from web.api_schemas import (AuditRowSchema, ListQuerySchema, ReauditRequestSchema, RecordDetailSchema,
                                     RecordPageSchema, UploadResponseSchema)
from web.db import get_pipeline, get_store, ingest_limits, validators
from web.errors import ApiError
from web.uploads import OK_STATUSES, store_batches, summarize

bp = Blueprint("api", __name__, url_prefix="/api")

BODY_TYPES = {
    "application/json": "body.json",
    "application/x-ndjson": "body.jsonl",
    "application/jsonl": "body.jsonl",
    "application/x-jsonlines": "body.jsonl",
    "application/zip": "body.zip",
    "application/x-zip-compressed": "body.zip",
}
"""Raw-body content types and the file name they are read as."""


def uploaded_files() -> list[tuple[str, bytes]]:
    """(file name, bytes) of a multipart upload or of a raw body; 400/415 when there is none."""
    if request.mimetype == "multipart/form-data":
        files = [(storage.filename, storage.read())
                 for key in request.files for storage in request.files.getlist(key) if storage.filename]
        if not files:
            abort(400, "the multipart request holds no file; send one or more `files` parts")
        return files
    mimetype = request.mimetype
    name = request.args.get("filename") or BODY_TYPES.get(mimetype)
    if name is None:
        abort(415, f"content type {mimetype or '(none)'!r} is not accepted; send multipart files, "
                   "application/json, application/x-ndjson or application/zip")
    data = request.get_data(cache=False)
    if not data:
        abort(400, "the request body is empty; send a zhuoji/1 record, a match, JSON lines or a zip")
    return [(name, data)]


def uploader() -> str:
    """Who sent the upload: the account, plus the X-Uploader header or `uploader` field as a label."""
    value = request.headers.get("X-Uploader") or request.form.get("uploader") or request.args.get("uploader")
    return upload_label(value)


def upload_status(results: list[dict[str, Any]]) -> int:
    """201 when something new is stored, 200 for only duplicates, 207 mixed, 422 when nothing is good,
    202 when everything was stored but the engine failed on some (kept, flagged, not yet audited)."""
    good = [result for result in results if result["status"] in OK_STATUSES]
    if not good:
        return 422
    if len(good) < len(results):
        return 207
    if any(result["verdict"] is None for result in good):
        return 202
    return 201 if any(result["status"] != "duplicate" for result in good) else 200


def read_files(files: list[tuple[str, bytes]]) -> list[Batch]:
    """Read every file of a request before storing any, so that the request-wide record cap and
    the uploader's platform can refuse the whole upload (413, 403) with nothing stored."""
    limits, checks, batches, seen = ingest_limits(), validators(), [], 0
    for name, data in files:
        batch = read_upload(name, data, limits=limits, validators=checks, records_before=seen)
        if batch.refused is not None:
            raise ApiError(413, batch.refused.describe())
        seen += batch.records
        batches.append(batch)
    check_upload_platform([(hand.origin.label(), identity(hand.doc)[0])
                           for batch in batches for unit in batch.units for hand in unit.hands])
    return batches


def run_upload(files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """Process every file of a request into result lines (shared with the upload form)."""
    results = store_batches(get_pipeline(), read_files(files), uploader=uploader(), actor=account_name())
    if not results:
        abort(400, "the upload holds no hand: every file was empty")
    return results


@bp.post("/records")
@requires(*API_READERS)
def upload() -> ResponseReturnValue:
    """Upload records (multipart files or a raw body); one result per hand."""
    results = run_upload(uploaded_files())
    body = UploadResponseSchema().dump({"results": results, "summary": summarize(results)})
    return jsonify(body), upload_status(results)


def parse_list_query(args: dict[str, str]) -> RecordQuery:
    """Query string -> RecordQuery; a bad value is a 400 naming the parameter."""
    try:
        values = ListQuerySchema().load({key: value for key, value in args.items() if value != ""})
    except ValidationError as exc:
        raise ApiError(400, "bad query parameter: " + _first_messages(exc.messages), exc.messages) from exc
    values.pop("lang", None)
    for key in ("date_from", "date_to"):
        if key in values:
            values[key] = values[key].isoformat()
    return RecordQuery(all_revisions=values.pop("revisions") == "all",
                       descending=values.pop("order") == "desc", **values)


def _first_messages(messages: Any) -> str:
    """A one-line summary of marshmallow's error dict."""
    if isinstance(messages, dict):
        return "; ".join(f"{key}: {_first_messages(value)}" for key, value in messages.items())
    if isinstance(messages, list):
        return " ".join(str(message) for message in messages)
    return str(messages)


@bp.get("/records")
@requires(*API_READERS)
def list_records() -> ResponseReturnValue:
    """Filtered, sorted, paginated records with counts per verdict (an uploader's platform only)."""
    page = get_store().search(scope_query(parse_list_query(request.args.to_dict())))
    body = {"records": page.rows, "total": page.total, "page": page.page, "per_page": page.per_page,
            "pages": page.pages, "counts": page.counts}
    return jsonify(RecordPageSchema().dump(body))


def find_record(store: Store, record_id: int) -> dict[str, Any]:
    """The record's row or a 404 naming the id (also for a record an uploader may not see)."""
    try:
        record = store.record(record_id)
    except UnknownRecord:
        abort(404, f"record {record_id} does not exist")
    if not visible(record):
        abort(404, f"record {record_id} does not exist")
    return record


def record_detail(store: Store, record_id: int) -> dict[str, Any]:
    """Everything known about a record, as the detail schema wants it."""
    record = find_record(store, record_id)
    audits = store.audits(record_id)
    return {**record, "seats": store.players(record_id), "revisions": store.revisions(record_id),
            "audits": audits, "audit": audits[-1]["audit"] if audits else None,
            "document": store.document(record_id)}


@bp.get("/records/<int:record_id>")
@requires(*API_READERS)
def get_record(record_id: int) -> ResponseReturnValue:
    """One record with its revisions, every audit and the document."""
    return jsonify(RecordDetailSchema().dump(record_detail(get_store(), record_id)))


@bp.get("/records/<int:record_id>/raw")
@requires(*API_READERS)
def get_raw(record_id: int) -> ResponseReturnValue:
    """The bytes exactly as received."""
    store = get_store()
    record = find_record(store, record_id)
    response = Response(store.raw(record_id), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{record["game_id"]}.r{record["revision"]}.json"'
    return response


@bp.get("/records/<int:record_id>/audit")
@requires(*API_READERS)
def get_audit(record_id: int) -> ResponseReturnValue:
    """The contract audit JSON of the latest audit, as the engine produced it."""
    store = get_store()
    find_record(store, record_id)
    return jsonify(store.latest_audit(record_id))


@bp.get("/records/<int:record_id>/audits")
@requires(*API_READERS)
def list_audits(record_id: int) -> ResponseReturnValue:
    """Every audit of a record, oldest first."""
    store = get_store()
    find_record(store, record_id)
    return jsonify(AuditRowSchema(many=True).dump(store.audits(record_id)))


def reaudit_request() -> dict[str, Any]:
    """The re-audit body, checked: JSON object, known profile, options an object."""
    data = request.get_data(cache=True)
    try:
        body = request.get_json(silent=True) if data.strip() else {}
    except RecursionError:  # nesting deep enough to exhaust the parser is not JSON we accept
        body = None
    if body is None:
        abort(400, "the request body is not valid JSON; send {\"profile\": ..., \"options\": {...}}")
    if not isinstance(body, dict):
        abort(400, "the request body must be a JSON object with optional `profile` and `options`")
    try:
        values: dict[str, Any] = ReauditRequestSchema().load(body)
    except ValidationError as exc:
        raise ApiError(400, "bad re-audit request: " + _first_messages(exc.messages), exc.messages) from exc
    known = engine.profiles()
    if values["profile"] is not None and values["profile"] not in known:
        raise ApiError(400, f"profile: unknown profile {values['profile']!r}; known: {', '.join(known)}",
                       {"profile": [f"one of {known}"]})
    return values


def reaudit(record_id: int, profile: str | None, options: dict[str, Any] | None) -> dict[str, Any]:
    """Re-audit through the pipeline; an engine failure is a 502, nothing stored."""
    find_record(get_store(), record_id)
    try:
        return get_pipeline().reaudit(record_id, profile=profile, options=options, actor=account_name())
    except AuditFailed as exc:
        current_app.logger.exception("re-audit of record %s failed", record_id)
        raise ApiError(502, str(exc)) from exc


@bp.post("/records/<int:record_id>/audit")
@requires(*READERS)
def post_audit(record_id: int) -> ResponseReturnValue:
    """Audit again under {profile, options}; the new audit is stored and returned."""
    values = reaudit_request()
    row = reaudit(record_id, values["profile"], values["options"])
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
    from web.openapi import build_spec

    return jsonify(build_spec().to_dict())
