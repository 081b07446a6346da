"""What the lists show beside their rows (not a blueprint): times as people read them, and
column headers that sort.

A record's `played_at` is shown in its own local time with its offset named
(`2026-03-01 20:15 UTC+08:00`), since that is the time the players and the
platform speak of; the list sorts by the same instant in UTC (`played_utc`), so
+08:00 and Z rows interleave correctly. Service timestamps (uploads, receipts,
the trail) are UTC and say so, except beside a record: on its page and its case they are shown
in the record's own offset (`local_time(stamp, record.played_at)`), the clock its players read.
A record's PDF follows the same rule (templates/pdf/summary.html: played, audited, exported and
decided times at the record's offset). In Chinese the zone is written the same way
(`UTC+08:00`), not 北京时间: a record may carry any offset, and one spelling serves all.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import Flask, request, url_for


def local_time(stamp: str | None, like: str | None = None) -> str:
    """`2026-03-01T20:15:00+08:00` -> `2026-03-01 20:15 UTC+08:00`; `...Z` -> `... UTC`; a time
    without a zone as given (minutes), anything unreadable unchanged. With `like` (a record's
    `played_at`), an instant with a zone is shown at `like`'s offset instead."""
    if not stamp:
        return ""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    zone = _offset_of(like)
    if zone is not None and moment.utcoffset() is not None:
        moment = moment.astimezone(zone)
    text = moment.strftime("%Y-%m-%d %H:%M")
    if moment.second or moment.microsecond:
        text = moment.strftime("%Y-%m-%d %H:%M:%S")
    offset = moment.utcoffset()
    if offset is None:
        return text
    minutes = int(offset.total_seconds() // 60)
    if minutes == 0:
        return f"{text} UTC"
    sign = "+" if minutes > 0 else "-"
    return f"{text} UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _offset_of(stamp: str | None) -> Any:
    """The zone (a fixed offset) of an ISO time, or None when it has none or cannot be read."""
    if not stamp:
        return None
    try:
        zone = datetime.fromisoformat(stamp.replace("Z", "+00:00")).tzinfo
    except ValueError:
        return None
    if zone is None:
        return None
    offset = zone.utcoffset(None)
    return zone if isinstance(offset, timedelta) else None


def sort_link(endpoint: str, key: str, current: str, descending: bool) -> dict[str, Any]:
    """A sortable header: its URL (the same filters, this key, the other order when it is the
    current key) and its state for `aria-sort`."""
    args: dict[str, Any] = {name: value for name, value in request.args.items()
                            if name not in ("page", "sort", "order", "lang") and value}
    active = key == current
    order = ("asc" if descending else "desc") if active else ("asc" if key in ("game_id", "platform", "client",
                                                                               "players") else "desc")
    state = ("descending" if descending else "ascending") if active else "none"
    return {"href": url_for(endpoint, **args, sort=key, order=order), "state": state}


def favicon(app: Flask) -> None:
    """`/favicon.ico` (browsers ask for it at the root) answered by the static view, so it is
    public like every static file and cached like them."""
    app.add_url_rule("/favicon.ico", endpoint="static", defaults={"filename": "favicon.ico"})


def init_app(app: Flask) -> None:
    """The template filter and global."""
    app.jinja_env.filters["local_time"] = local_time
    app.jinja_env.globals.update(sort_link=sort_link)
