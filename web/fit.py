"""The fit page (issue 21.4, docs/fit.md): a platform's own profile from its records.

- `GET /fit`: the form: upload record files, or choose stored records (a platform, and a client
  prefix and dates if wanted), and the profile to start from.
- `POST /fit`: the fit of those records (`fit.api.fit_records`), shown: the values taken, the
  evidence per parameter, the records no value explains (stored ones link to their report), and
  the fitted profile file. Nothing is stored.
- `POST /fit/profile.toml`: the profile file of a fit, as a download, once the loader has read it
  back (the page sends the file it shows; the service keeps nothing between the two requests).
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request
from flask.typing import ResponseReturnValue

from audit.api import ProfileError, parse_profile
from audit.vocabulary import Lang
from fit.api import fit_records
from web import engine
from web.auth import READERS, requires
from web.db import get_store
from web.downloads import content_disposition
from web.errors import ApiError, fail, option_words, unknown_profile
from web.numbers import ROW_ID_MAX, read_number
from web.fit_records import Chosen, form_context, form_date, form_name, stored, uploaded
from web.i18n import page_language

bp = Blueprint("fit", __name__)


def _context(**extra: Any) -> dict[str, Any]:
    """What the form needs (`web.fit_records.form_context`)."""
    return form_context(**extra)


def _limit(form: dict[str, str]) -> int | None:
    return read_number(form.get("limit"), "limit", low=1, high=ROW_ID_MAX)


def _chosen(form: dict[str, str]) -> Chosen:
    """The records the form asks for; ApiError naming the field otherwise."""
    if form.get("source") == "stored":
        platform = (form.get("platform") or "").strip()
        if not platform:
            raise fail(400, "fit_platform_missing", field="platform")
        return stored(get_store(), platform, client=(form.get("client") or "").strip() or None,
                      date_from=form_date(form, "date_from"), date_to=form_date(form, "date_to"), limit=_limit(form))
    files = [(f.filename, f.read()) for f in request.files.getlist("files") if f.filename]
    if not files:
        raise fail(400, "fit_files_missing", field="files")
    return uploaded(files)


@bp.get("/fit")
@requires(*READERS)
def form() -> ResponseReturnValue:
    """The form."""
    return render_template("fit.html", **_context(result=None, chosen=None))


@bp.post("/fit")
@requires(*READERS)
def run() -> ResponseReturnValue:
    """Fit the records the form names and show the fit (or the form again with the problem)."""
    form = request.form.to_dict()
    profile = form.get("profile") or "weile"
    chosen: Chosen | None = None
    try:
        if profile not in engine.profiles():
            raise unknown_profile(profile, list(engine.profiles()))
        name = form_name(form, profile)
        chosen = _chosen(form)
        if not chosen.records:
            raise fail(400, "fit_nothing_read", field="files")
        result = fit_records(chosen.records, profile=profile, name=name, lang=page_language())
    except ApiError as exc:
        return render_template("fit.html", **_context(result=None, chosen=chosen, error=exc.description,
                                                      error_code=exc.error_code)), exc.code or 400
    return render_template("fit.html", **_context(result=result, chosen=chosen))


@bp.post("/fit/profile.toml")
@requires(*READERS)
def download() -> ResponseReturnValue:
    """The profile file the page shows, as `<name>.toml`, once the loader accepts it."""
    text = request.form.get("profile_file", "")
    name = form_name({"name": request.form.get("name", "")}, "")
    try:
        parse_profile(text, name)
    except ProfileError as exc:
        lang = page_language()
        problem = exc.text(lang, with_path=True) if lang is Lang.EN else f"{option_words(exc.path)}：{exc.text(lang)}"
        raise fail(400, "profile_file_refused", field="profile_file", problem=problem) from None
    return Response(text, mimetype="application/toml",
                    headers={"Content-Disposition": content_disposition(f"{name}.toml")})
