"""The gunicorn worker `make run` serves with (settings: web/gunicorn_conf.py): gunicorn's threaded
worker, whose answers to a request gunicorn refuses itself before any application code runs are the
API's JSON errors instead of gunicorn's own HTML pages:

- a request line too long for it (`LimitRequestLine`: past `limit_request_line`, which the settings
  set to gunicorn's most, 8,190 bytes, from its default of 4,094; an over-long `q`, say): 414, code
  `url_too_long` (issue 22.7);
- header fields past its limits (`LimitRequestHeaders`: more than `limit_request_fields`, a field
  over `limit_request_field_size` bytes, set well above the application's own limits): 431, code
  `too_many_headers` or `header_too_large` (issue 34.5).

Gunicorn refuses such a request before it knows the path (for the headers: before it hands the
path on), so the answer cannot depend on /api/; JSON is what the API's clients parse, and a person
who sent a 40 KB cookie reads it too. Every other error is gunicorn's as before. Flask's own limits
(`MAX_URL_LENGTH`, `MAX_HEADER_FIELDS`, `MAX_HEADER_FIELD_SIZE`: web/errors.py) answer the smaller
ones in the format of the path.
"""
from __future__ import annotations

import json
from typing import Any

from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine  # type: ignore[import-untyped]
from gunicorn.util import write_nonblock  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from web.errors import error_text
from web.i18n import DEFAULT_LANGUAGE

URL_TOO_LONG = "url_too_long"
"""The error code of a URL over either limit (here and in web/errors.py)."""


def _json_answer(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP answer with the API's JSON error body; the connection closes after it."""
    body = json.dumps({"status": status, "error": reason, "code": code, "message": message, "details": None},
                      ensure_ascii=False).encode("utf-8")
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("ascii") + body


def headers_answer(too_many: bool, fields: int, size: int) -> bytes:
    """The whole HTTP answer to header fields over gunicorn's limits (`fields` of `size` bytes at
    most): 431, JSON, code `too_many_headers` or `header_too_large` as the application's own
    refusals, the message (web/errors.toml `request_headers_too_large`) in Chinese, as for 414."""
    message = error_text("request_headers_too_large", DEFAULT_LANGUAGE, fields=fields, size=size)
    return _json_answer(431, "Request Header Fields Too Large", "too_many_headers" if too_many else "header_too_large",
                        message)


def too_long_answer(size: int, limit: int) -> bytes:
    """The whole HTTP answer to a request line of `size` bytes over `limit`: 414, JSON, code
    `url_too_long`, its message (web/errors.toml `request_line_too_long`) in Chinese: the line was
    refused unread, so neither `?lang=` nor Accept-Language is known, and Chinese is what the
    service speaks when nobody chose (the pages' default; decision in docs/service.md)."""
    message = error_text("request_line_too_long", DEFAULT_LANGUAGE, size=size, limit=limit)
    return _json_answer(414, "URI Too Long", URL_TOO_LONG, message)


class Worker(ThreadWorker):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's gthread worker, answering an over-long request line or header fields past its
    limits in JSON."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, LimitRequestLine):
            answer = too_long_answer(getattr(exc, "size", 0), getattr(exc, "max_size", 0))
        elif isinstance(exc, LimitRequestHeaders):
            # gunicorn says which limit only in its words: "limit request headers fields" (too many),
            # "... fields size" (one too large), "max buffer headers" (all of them too large)
            answer = headers_answer(str(exc) == "limit request headers fields", self.cfg.limit_request_fields,
                                    self.cfg.limit_request_field_size)
        else:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            write_nonblock(client, answer)
        except OSError:
            pass


__all__ = ["URL_TOO_LONG", "Worker", "headers_answer", "too_long_answer"]
