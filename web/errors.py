"""Every error becomes a clear 4xx: JSON under /api/, a page elsewhere.

The message always says what was wrong with what (file, JSON path, record id),
so a client never has to guess; 413 names the configured limit.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge


class ApiError(HTTPException):
    """An HTTP error with structured details (per-field or per-path problems) and, when the
    refusal has one, its stable `error_code` (`case_number_taken`), which the API answers as
    `code` so a client (and a test) never reads the wording."""

    def __init__(self, code: int, message: str, details: Any = None, *, error_code: str | None = None) -> None:
        super().__init__(description=message)
        self.code = code
        self.details = details
        self.error_code = error_code
        """A stable code for the kind of problem (`number_not_digits`, ...), in the body as `code`."""


def wants_json() -> bool:
    """API paths answer in JSON; everything else with a page."""
    return request.path.startswith("/api/")


def error_response(code: int, name: str, message: str, details: Any = None,
                   error_code: str | None = None) -> ResponseReturnValue:
    """The one place error responses are built."""
    if wants_json():
        body = {"status": code, "error": name, "message": message, "details": details}
        if error_code:
            body["code"] = error_code
        return jsonify(body), code
    return render_template("error.html", code=code, name=name, message=message, details=details,
                           error_code=error_code), code


def handle_http(exc: HTTPException) -> ResponseReturnValue:
    """Any HTTP error raised with abort() or by Werkzeug (routing redirects pass through)."""
    if exc.code is not None and exc.code < 400:
        return exc
    code = exc.code or 500
    return error_response(code, exc.name, exc.description or exc.name, getattr(exc, "details", None),
                          getattr(exc, "error_code", None))


def handle_too_large(exc: RequestEntityTooLarge) -> ResponseReturnValue:
    """413 naming the limit, so the client knows how to split its upload."""
    config = current_app.config
    limit = config.get("MAX_CONTENT_LENGTH")
    form_limit = _form_limit(exc)
    if form_limit == "parts":
        message = (f"the form has more than {config.get('MAX_FORM_PARTS')} parts (MAX_FORM_PARTS); "
                   "send fewer files per request")
    elif form_limit == "memory":
        message = (f"a form field that is not a file is larger than {config.get('MAX_FORM_MEMORY_SIZE')} bytes "
                   "(MAX_FORM_MEMORY_SIZE); send records as files")
    else:
        message = f"request body is larger than the limit of {limit} bytes; split the upload into smaller files"
    return error_response(413, exc.name, message)


def _form_limit(exc: BaseException) -> str | None:
    """Which of werkzeug's form limits raised (it says none in the exception): `parts` when its
    multipart parser counted too many parts, `memory` when a field outgrew the form memory, else
    None (the body size). Read from the innermost frame that raised."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return None
    code = tb.tb_frame.f_code
    if "werkzeug" not in code.co_filename:
        return None
    if code.co_name == "next_event":  # MultipartDecoder counting parts against max_form_parts
        return "parts"
    if code.co_name in ("receive_data", "parse"):  # a field's bytes against max_form_memory_size
        return "memory"
    return None


DEFAULT_MAX_URL_LENGTH = 8000
"""Bytes of path and query string accepted (`MAX_URL_LENGTH`), below gunicorn's 8,190 for the
whole request line, so Flask answers most over-long URLs itself, in the path's format."""


def refuse_long_url() -> ResponseReturnValue | None:
    """414 with code `url_too_long` for a URL past `MAX_URL_LENGTH`, before anything reads it:
    JSON under /api/, the error page elsewhere (the server's own page only past its own limit,
    and then JSON too: web/server.py)."""
    limit = int(current_app.config.get("MAX_URL_LENGTH") or DEFAULT_MAX_URL_LENGTH)
    size = len(request.full_path.encode("utf-8", "surrogateescape"))
    if size <= limit:
        return None
    message = f"the URL is {size} bytes, over the limit of {limit} (MAX_URL_LENGTH): send a shorter query"
    return error_response(414, "URI Too Long", message, None, "url_too_long")


def init_app(app: Flask) -> None:
    """Register the handlers."""
    app.before_request(refuse_long_url)
    app.register_error_handler(RequestEntityTooLarge, handle_too_large)
    app.register_error_handler(HTTPException, handle_http)
