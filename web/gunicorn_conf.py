"""gunicorn's settings for the service: `gunicorn -c python:web.gunicorn_conf --bind ... "app:create_app()"`
(`make run`, the README's command; how many workers and threads, and where to bind, stay on the
command line).

The limits let through what the application refuses itself, so the application answers, in the
format of the path (JSON under /api/, a Chinese or English page elsewhere; web/errors.py), and
gunicorn's worker (web/server.py) answers, in JSON, only what is past these (issue 34.5):

| what | gunicorn (here) | the application (config) |
|---|---|---|
| request line | 8,190 bytes (gunicorn's most) | `MAX_URL_LENGTH` 8,000 bytes of path and query |
| header fields | 200 | `MAX_HEADER_FIELDS` 100 |
| one header field | 32,768 bytes | `MAX_HEADER_FIELD_SIZE` 8,190 bytes |

A reverse proxy in front must let at least the application's limits through (docs/trust.md).
"""
from __future__ import annotations

worker_class = "web.server.Worker"
limit_request_line = 8190
limit_request_fields = 200
limit_request_field_size = 32768
