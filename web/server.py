"""The gunicorn worker `make run` serves with: gunicorn's threaded worker, whose answer to a
request line too long for it (`LimitRequestLine`: past `--limit-request-line`, which `make run` sets
to gunicorn's most, 8,190 bytes, from its default of 4,094; an over-long `q`, say) is the
API's JSON error instead of gunicorn's own HTML page (issue 22.7).

Gunicorn refuses such a line before any application code runs and before it knows the path, so
the answer cannot depend on /api/; JSON is what the API's clients parse, and a person who typed an
8 KB URL reads it too. Every other error is gunicorn's as before. Flask's own limit on the URL
(`MAX_URL_LENGTH`, web/errors.py) answers the shorter ones in the format of the path.
"""
from __future__ import annotations

import json
from typing import Any

from gunicorn.http.errors import LimitRequestLine  # type: ignore[import-untyped]
from gunicorn.util import write_nonblock  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from web.errors import error_text
from web.i18n import DEFAULT_LANGUAGE

URL_TOO_LONG = "url_too_long"
"""The error code of a URL over either limit (here and in web/errors.py)."""


def too_long_answer(size: int, limit: int) -> bytes:
    """The whole HTTP answer to a request line of `size` bytes over `limit`: 414, JSON, code
    `url_too_long`, its message (web/errors.toml `request_line_too_long`) in Chinese: the line was
    refused unread, so neither `?lang=` nor Accept-Language is known, and Chinese is what the
    service speaks when nobody chose (the pages' default; decision in docs/service.md)."""
    message = error_text("request_line_too_long", DEFAULT_LANGUAGE, size=size, limit=limit)
    body = json.dumps({"status": 414, "error": "URI Too Long", "code": URL_TOO_LONG, "message": message,
                       "details": None}, ensure_ascii=False).encode("utf-8")
    head = ("HTTP/1.1 414 URI Too Long\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("ascii") + body


class Worker(ThreadWorker):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's gthread worker, answering an over-long request line in JSON."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, LimitRequestLine):
            self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
            try:
                write_nonblock(client, too_long_answer(getattr(exc, "size", 0), getattr(exc, "max_size", 0)))
            except OSError:
                pass
            return
        super().handle_error(req, client, addr, exc)


__all__ = ["URL_TOO_LONG", "Worker", "too_long_answer"]
