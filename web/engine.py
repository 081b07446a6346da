"""What the web layer may ask the engine besides audits: its profiles and version.

Imported late so the service starts (and its tests of everything else run)
even while the engine is being replaced.
"""
from __future__ import annotations

from flask import current_app


def profiles() -> list[str]:
    """Profile names the engine accepts for a re-audit."""
    configured = current_app.config.get("PROFILES")
    if configured is not None:
        return list(configured)
    from audit import api

    return list(api.list_profiles())


def version() -> str:
    """The engine version stamped on new audits."""
    configured = current_app.config.get("ENGINE_VERSION")
    if configured:
        return str(configured)
    from audit import api

    return api.ENGINE_VERSION
