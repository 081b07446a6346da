"""The record's page drawn for a view (not a blueprint): its own route (web/pages.py) and the case
forms of its top that answer a refusal with the page again (web/cases.py), so no blueprint imports
another."""
from __future__ import annotations

from typing import Any

from flask import render_template, request

from web import engine
from web.db import get_store
from web.i18n import page_language
from web.report_inputs import report_inputs
from web.report_model import report_context
from web.views import record_detail


def report_page(record_id: int, **extra: Any) -> str:
    """The record's page; `extra` for its templates (a refused case form shown again)."""
    store = get_store()
    lang = page_language()
    detail = record_detail(store, record_id, lang)
    context = report_context(report_inputs(store, detail, lang, request.args))
    return render_template("report/steps_page.html", record=detail, audit=detail["audit"],
                           uploads=store.uploads(record_id), profiles=profiles(), **context, **extra)


def profiles() -> list[str]:
    """Profiles for the re-audit form; empty (form hidden) while no engine is installed."""
    try:
        return engine.profiles()
    except ImportError:
        return []


__all__ = ["profiles", "report_page"]
