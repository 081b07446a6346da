"""Request helpers the blueprints share (not a blueprint): find a record, read a list query,
read the options of a re-audit and run it.

The JSON API and the HTML pages answer the same questions through these, so a
page and its JSON agree; blueprints import this module and never each other.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import current_app
from marshmallow import Schema

from audit.api import JsonTextError, loads
from audit.vocabulary import Lang, rerender, seat_names
from records import trail
from records.pipeline import AuditFailed, OptionsRefused
from records.queries import RecordQuery, UnknownRecord
from records.store import Store
from web.api_schemas import ListQuerySchema
from web.auth import account_name, visible
from web.db import get_access_db, get_pipeline, get_store
from records import problem_words
from records.ingest import json_refusal
from web.errors import ApiError, bad_fields, fail, field_name
from web.i18n import request_language
from web.numbers import query_values
from web.safe_audit import check_options, refused_error


def find_record(store: Store, record_id: int) -> dict[str, Any]:
    """The record's row or a 404 naming the id (also for a record an uploader may not see)."""
    try:
        record = store.record(record_id)
    except UnknownRecord:
        raise fail(404, "record_missing", id=record_id)
    if not visible(record):
        raise fail(404, "record_missing", id=record_id)
    return record


def record_detail(store: Store, record_id: int, lang: Lang) -> dict[str, Any]:
    """Everything known about a record, as the detail schema wants it; every audit's messages
    and notes in `lang`."""
    record = find_record(store, record_id)
    document = store.document(record_id)
    names = seat_names(document)
    audits = [localized_row(row, lang, names) for row in store.audits(record_id)]
    return {**record, "seats": store.players(record_id), "revisions": store.revisions(record_id),
            "audits": audits, "audit": audits[-1]["audit"] if audits else None,
            "document": document}


def localized_row(row: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> dict[str, Any]:
    """An audit row of the store whose audit speaks `lang`, seats named by the record's players:
    stored audits keep `code` and `params`, so one stored in English reads in Chinese
    (catalogue.rerender)."""
    return {**row, "audit": rerender(row["audit"], lang, names)} if row.get("audit") else row


def parse_list_query(args: dict[str, str]) -> RecordQuery:
    """Query string -> RecordQuery; a bad value is a 400 naming the parameter."""
    values = query_values(ListQuerySchema(), args)
    revisions = values.pop("revisions")
    if revisions is None:  # a search looks for a game, and a newer revision must not hide the disputed one
        revisions = "all" if any(values.get(key) for key in SEARCHES) else "current"
    return RecordQuery(all_revisions=revisions == "all", descending=values.pop("order") == "desc", **values)


SEARCHES = ("q", "game_id", "case")
"""The list filters that look for particular games: given any of them (and no `revisions`), the
list shows every revision of what they find, older ones marked (issue 23)."""


def first_messages(messages: Any) -> str:
    """A one-line summary of marshmallow's error dict."""
    if isinstance(messages, dict):
        return "; ".join(f"{key}: {first_messages(value)}" for key, value in messages.items())
    if isinstance(messages, list):
        return " ".join(str(message) for message in messages)
    return str(messages)


def strict_json(data: bytes | str, what: str) -> Any:
    """A JSON text from a request, read strictly (`audit.jsontext`); a 400 naming `what` and the
    JSON path of the refused value (NaN, 1e400, an integer past 64 bits, a lone surrogate, a
    repeated key, deep nesting)."""
    try:
        return loads(data, max_depth=current_app.config["INGEST_MAX_DEPTH"])
    except JsonTextError as exc:
        where = f"{what}.{exc.path}" if exc.path else what
        message = exc.message
        if exc.line is not None:
            message = f"not valid JSON (line {exc.line}, column {exc.column}: {message.removeprefix('malformed JSON: ')})"
        lang = request_language()
        reason = message
        if lang is not Lang.EN:  # the upload's words for the same refusal (records/problems.toml)
            reason = problem_words.message(*json_refusal(exc), lang, message)
            if exc.line is not None:
                reason += problem_words.where("", exc.line, exc.column, None, lang)
        raise fail(400, "not_json", field=where, reason=reason) from exc


def json_object(data: bytes, schema: Schema) -> dict[str, Any]:
    """A request body read strictly (`strict_json`) that must be a JSON object: else a 400
    `body_not_object` naming the keys `schema` reads."""
    body = strict_json(data, "body")
    if not isinstance(body, dict):
        raise fail(400, "body_not_object", field="body",
                   keys=[field_name(key, request_language()) for key in schema.fields])
    return body


def form_options(text: str) -> dict[str, Any] | None:
    """The options textarea: empty, or a JSON object."""
    if not text.strip():
        return None
    options = strict_json(text, "options")
    if not isinstance(options, dict):
        raise fail(400, "options_not_object", field="options")
    return options


def reaudit_record(record_id: int, profile: str | None, options: dict[str, Any] | None,
                   lang: Lang = Lang.EN, reason: str | None = None) -> dict[str, Any]:
    """Re-audit through the pipeline (options checked first: `web.safe_audit`); the stored row,
    its audit in `lang`; an engine failure is a 502, nothing stored."""
    find_record(get_store(), record_id)
    check_options(record_id, profile, options, lang)
    try:
        row = get_pipeline().reaudit(record_id, profile=profile, options=options, actor=account_name(),
                                     reason=reason)
    except OptionsRefused as exc:
        raise refused_error(exc, lang) from exc
    except AuditFailed as exc:
        current_app.logger.exception("re-audit of record %s failed", record_id)
        raise fail(502, exc.code, **exc.params) from exc
    return localized_row(row, lang, seat_names(get_store().document(record_id)))


def what_if_audit(record_id: int, profile: str | None, options: dict[str, Any] | None,
                  lang: Lang) -> dict[str, Any]:
    """The audit of a stored record under other rules, nothing stored (a match hand with its
    whole match, so continuity findings stay), in `lang`; options the engine would refuse are a
    400 before it runs (`web.safe_audit`); an engine failure is a 502."""
    check_options(record_id, profile, options, lang)
    try:
        return get_pipeline().what_if(record_id, profile=profile, options=options, lang=lang)
    except AuditFailed as exc:
        current_app.logger.exception("what-if audit of record %s failed", record_id)
        raise fail(502, exc.code, **exc.params) from exc


def merged_entries(record_id: int | None, limit: int) -> list[dict[str, Any]]:
    """The newest rows of the main trail and the access log together, newest first."""
    rows = (trail.entries(get_store().db, record_id=record_id, limit=limit)
            + trail.entries(get_access_db(), record_id=record_id, limit=limit))
    rows = [row for row in rows if row["action"] != "chain-keyed"]
    rows.sort(key=lambda row: (row["at"], row["action"] in ("view", "export")), reverse=True)
    return rows[:limit]
