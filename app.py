"""The audit service: `flask --app app run`, `flask --app app init-db`, `flask --app app load-samples DIR`.

Configuration comes from the defaults below, then `instance/config.py`, then
FLASK_* environment variables (e.g. FLASK_DATABASE), then `test_config`.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

MiB = 1024 * 1024


def default_config(instance_path: str) -> dict[str, Any]:
    """Every setting the service reads, with its default (documented in docs/service.md)."""
    return {
        # None: a random key kept in instance/secret_key (made on first start, mode 0600), so no
        # key is baked into the code and sessions survive restarts (web/auth.py).
        "SECRET_KEY": None,
        "DATABASE": os.path.join(instance_path, "zhuoji.sqlite3"),
        "MAX_CONTENT_LENGTH": 5 * MiB,
        "INGEST_MAX_FILE_BYTES": 5 * MiB,
        "INGEST_MAX_MEMBERS": 1000,
        "INGEST_MAX_TOTAL_BYTES": 50 * MiB,
        "INGEST_MAX_DEPTH": 64,
        "INGEST_MAX_RECORDS": 5000,
        "INGEST_MAX_EVENTS": 2000,
        "INGEST_MAX_STRING": 2000,
        "MAX_FORM_MEMORY_SIZE": 500_000,
        "MAX_FORM_PARTS": 1000,
        # Sessions and headers (web/auth.py, docs/trust.md). Secure from the configuration
        # only; `make run` serves http://127.0.0.1 and sets FLASK_SESSION_COOKIE_SECURE=false.
        "SESSION_COOKIE_SECURE": True,
        # The key of the trail's HMAC chain (web/db.py): TRAIL_KEY, else the file TRAIL_KEY_FILE
        # (None: instance/trail_key, made once). Keep it apart from the database.
        "TRAIL_KEY": None,
        "TRAIL_KEY_FILE": None,
        # Where views and exports are logged, apart from the main database so reads never take
        # its write lock (web/trail.py). None: the main database's path + "-access".
        "ACCESS_DATABASE": None,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": 12 * 3600,
        "CONTENT_SECURITY_POLICY": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        # Reverse proxies in front of the service (README): how many set X-Forwarded-For and
        # X-Forwarded-Proto, so that login throttling sees the client's address, not the proxy's.
        "TRUSTED_PROXIES": 0,
        # The one clock of every page and PDF (web/clock.py, issue 33.2): a fixed offset (+08:00,
        # -05:30) or an IANA name (Asia/Shanghai); FLASK_TIME_ZONE sets it. A bad value stops the start.
        "TIME_ZONE": "+08:00",
        # Fit jobs (issue 36.2, docs/fit.md): the memory one job's fit may take, in MB, from which
        # the most records it fits follows (records.fit_jobs.KB_PER_RECORD each, decisions 36.2c),
        # or that cap outright (None: from the memory); whether this process runs jobs in a thread
        # (None: yes, unless TESTING; false when `flask fit-worker` runs them apart); a Dask
        # scheduler's address to fit on.
        "FIT_JOB_MEMORY_MB": 4096,
        "FIT_JOB_MAX_RECORDS": None,
        "FIT_WORKER": None,
        "FIT_SCHEDULER": None,
        # Injection points for tests and tools; None means the real engine and audit.schema.
        "AUDITOR": None,
        "ENGINE_VERSION": None,
        "PROFILES": None,
        "SCHEMA_VALIDATORS": None,
    }


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app (flaskr's factory): config, instance folder, blueprints, commands."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(default_config(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env()
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)

    from audit.vocabulary import EventType, ItemKind, MeldKind, WinKind
    from web import register

    register(app)
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    app.jinja_env.globals.update(EventType=EventType, MeldKind=MeldKind, WinKind=WinKind, ItemKind=ItemKind)
    return app
