"""The 接口 menu as a page (issue 23, point 1): every route of the JSON API with what it does, in the
page's language (`web/api_guide.toml`), its method and path, and how to sign in; the OpenAPI JSON
stays one link away for programs. The routes are read from the URL map, so the page lists what the
service answers, not a copy of it."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, current_app, render_template
from flask.typing import ResponseReturnValue

from web.auth import READERS, requires
from web.i18n import page_language

bp = Blueprint("api_guide", __name__)
WORDS_FILE = Path(__file__).with_name("api_guide.toml")


@dataclass(frozen=True)
class Route:
    """One route of the API as the page lists it."""

    methods: str
    path: str
    endpoint: str
    words: str


@lru_cache(maxsize=1)
def words() -> dict[str, dict[str, str]]:
    """api_guide.toml, read once."""
    return tomllib.loads(WORDS_FILE.read_text(encoding="utf-8"))


def routes(language: str) -> list[Route]:
    """Every /api/ route, in path order; an endpoint without words shows its name."""
    found = []
    for rule in sorted(current_app.url_map.iter_rules(), key=lambda r: (r.rule, sorted(r.methods or ()))):
        if not rule.rule.startswith("/api/"):
            continue
        methods = " ".join(sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))
        entry = words().get(rule.endpoint, {})
        found.append(Route(methods, rule.rule, rule.endpoint, entry.get(language, rule.endpoint)))
    return found


@bp.get("/api-guide")
@requires(*READERS)
def guide() -> ResponseReturnValue:
    """The list of the API's routes."""
    return render_template("api_guide.html", routes=routes(page_language().value))
