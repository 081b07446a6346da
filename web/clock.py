"""One clock on every page (issue 33.2): the configured zone (`TIME_ZONE`, `+08:00` unless set; a
fixed offset or an IANA name) read once at start, the `local_time` filter that shows every stamp in
it, and the zone named once per page and once per PDF (`time_zone_note()`: templates/base.html's
footer, templates/pdf/*.html).

Every stamp with a zone is converted: service stamps (UTC, `...Z`: uploads, audits, receipts, the
trail, cases, accounts, conformance runs, a PDF's export time) and a record's `played_at`, whatever
offset the platform wrote; a time without a zone is shown as given. No stamp carries its own zone
on the page (`2026-12-03 23:59`), so a page never shows one instant twice in two zones. The JSON
API keeps the stored ISO stamps (`...Z`, `played_at` as recorded), as `<time datetime>` does.
"""
from __future__ import annotations

from datetime import tzinfo

from flask import Flask, current_app

from records import clock

EXTENSION = "zhuoji_time_zone"


def zone() -> tzinfo:
    """The service's zone (parsed from `TIME_ZONE` when the app was made)."""
    found: tzinfo = current_app.extensions[EXTENSION]
    return found


def local_time(stamp: str | None) -> str:
    """The template filter: a stamp in the service's zone, no zone named (`records.clock.shown`)."""
    return clock.shown(stamp, zone())


def zone_label() -> str:
    """The zone as a page names it: `UTC+08:00` (or an IANA name)."""
    return clock.zone_name(zone())


def init_app(app: Flask) -> None:
    """Read `TIME_ZONE` (a bad value stops the app here, saying what is accepted), then the filter
    and the global."""
    try:
        app.extensions[EXTENSION] = clock.parse_zone(str(app.config.get("TIME_ZONE") or clock.DEFAULT_ZONE))
    except ValueError as exc:
        raise RuntimeError(f"configuration: {exc}") from exc
    app.jinja_env.filters["local_time"] = local_time
    app.jinja_env.globals.update(time_zone_label=zone_label)
