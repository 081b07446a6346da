"""An upload as a request (not a blueprint): its files, its uploader, and the status it answers.

Shared by the API's upload and the upload form without JavaScript, so both read,
refuse and store exactly alike; what happens to each file is `records.pipeline`.
"""
from __future__ import annotations

from typing import Any

from flask import request

from records.pipeline import RequestRefused
from web.auth import account_name, other_platform_refused, upload_label, upload_platform
from web.db import get_pipeline, ingest_limits, validators
from web.errors import fail, refused_upload
from web.i18n import request_language
from web.uploads import localized

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


def run_upload(files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """Process every file of a request into result lines (shared with the upload form): what the
    request says (limits, uploader, platform) is read first, then the pipeline takes the files the
    rest of the way in one call. A request refused whole (size, platform) still leaves one receipt
    per file, saying why."""
    sender, actor, platform = uploader(), account_name(), upload_platform()
    limits, checks, pipeline = ingest_limits(), validators(), get_pipeline()
    try:
        results = pipeline.upload_files(files, uploader=sender, actor=actor, limits=limits, validators=checks,
                                        platform=platform)
    except RequestRefused as refusal:
        exc = (refused_upload(refusal.problem) if refusal.problem is not None
               else other_platform_refused(refusal.other_platform, refusal.own))
        pipeline.keep_refusal(files, {"code": f"http-{exc.code}", "path": None, "message": exc.description,
                                      "problem": exc.error_code, "params": _plain(exc.params)},
                              uploader=sender, actor=actor)
        raise exc from refusal
    if not results:
        raise fail(400, "upload_empty")
    return localized(results, request_language())


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """The params of a refusal a receipt keeps to word it again: those JSON holds as they are."""
    return {key: value for key, value in params.items() if isinstance(value, (str, int, float, bool, list))}
