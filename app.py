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
        "SECRET_KEY": "dev",
        "DATABASE": os.path.join(instance_path, "zhuoji.sqlite3"),
        "MAX_CONTENT_LENGTH": 5 * MiB,
        "INGEST_MAX_FILE_BYTES": 5 * MiB,
        "INGEST_MAX_MEMBERS": 1000,
        "INGEST_MAX_TOTAL_BYTES": 50 * MiB,
        "INGEST_MAX_DEPTH": 64,
        # Injection points for tests and tools; None means the real engine and records.schema.
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

    from records.web import register

    register(app)
    return app
