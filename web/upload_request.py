"""An upload as a request (not a blueprint): its files, its uploader, and the status it answers.

Shared by the API's upload and the upload form without JavaScript, so both read,
refuse and store exactly alike; what happens to each file is `web.uploads`.
"""
from __future__ import annotations

from typing import Any

from flask import request

from records.ingest import Batch, read_upload
from records.rows import identity, sha256
from web.auth import account_name, check_upload_platform, upload_label
from web.db import get_pipeline, get_store, ingest_limits, validators
from web.errors import ApiError, fail, refused_upload
from web.i18n import request_language
from web.uploads import OK_STATUSES, keep_receipts, localized, store_batches

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
            raise fail(400, "no_file_part", field="files")
        return files
    mimetype = request.mimetype
    name = request.args.get("filename") or BODY_TYPES.get(mimetype)
    if name is None:
        raise fail(415, "content_type_refused", mimetype=mimetype, accepted=["multipart/form-data", *BODY_TYPES])
    data = request.get_data(cache=False)
    if not data:
        raise fail(400, "body_empty")
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
            raise refused_upload(batch.refused)
        seen += batch.records
        batches.append(batch)
    check_upload_platform([(hand.origin.label(), identity(hand.doc)[0])
                           for batch in batches for unit in batch.units for hand in unit.hands])
    return batches


def run_upload(files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """Process every file of a request into result lines (shared with the upload form). A request
    refused whole (size, platform) still leaves one receipt per file, saying why."""
    try:
        batches = read_files(files)
    except ApiError as exc:
        refused = [{"source": name, "file": name, "status": "refused", "sha256": sha256(data),
                    "errors": [{"code": f"http-{exc.code}", "path": None, "message": exc.description,
                                "problem": exc.error_code, "params": _plain(exc.params)}]}
                   for name, data in files]
        keep_receipts(get_store(), refused, uploader=uploader(), actor=account_name())
        raise
    results = store_batches(get_pipeline(), batches, uploader=uploader(), actor=account_name())
    if not results:
        raise fail(400, "upload_empty")
    return localized(results, request_language())


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """The params of a refusal a receipt keeps to word it again: those JSON holds as they are."""
    return {key: value for key, value in params.items() if isinstance(value, (str, int, float, bool, list))}
