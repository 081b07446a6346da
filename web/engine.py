"""What the web layer may ask the engine besides audits: its profiles and version.

Both can be configured (`PROFILES`, `ENGINE_VERSION`) so tests can pin them.
"""
from __future__ import annotations

from flask import current_app

from audit.api import list_profiles
from web.db import configured_engine


def profiles() -> list[str]:
    """Profile names the engine accepts for a re-audit."""
    configured = current_app.config.get("PROFILES")
    if configured is not None:
        return list(configured)
    return list(list_profiles())


def version() -> str:
    """The engine version stamped on new audits."""
    return configured_engine().version
