"""What the lists show beside their rows (not a blueprint): column headers that sort, and the
favicon. Times are `web.clock`'s (one zone on every page, issue 33.2).
"""
from __future__ import annotations

from typing import Any

from flask import Flask, request, url_for


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
    """The template global."""
    app.jinja_env.globals.update(sort_link=sort_link)
