"""Platform profiles (issue 36.3, docs/decisions.md 36.3a): admins onboard a platform's own profile.

Pages, admin role only (the platform and version are query parameters: a platform name is free text):
- `GET /admin/platforms`: every platform with stored records or versions, the version in force today.
- `GET /admin/platforms/platform?platform=P`: its versions, the form comparing two, its re-audits.
- `GET /admin/platforms/version?platform=P&version=N`: one version: who, when, why, from which fit,
  in force from which day, the profile file, and its re-audits with the counts before and after;
  the button that re-audits the platform's stored records under it.
- `GET /admin/platforms/compare?platform=P&a=N&b=M`: two versions side by side, parameter by parameter.
- `GET /admin/platforms/new?platform=P`: the form of a new version (the latest one's file to edit).
- `POST /admin/platforms/from-fit`: the same form filled from a fit's result (web/fit.py's page).
- `POST /admin/platforms/adopt`: adopt (`records.platforms.adopt`); refused: the form again with why.
- `POST /admin/platforms/reaudit`: re-audit the records a version judges (`records.platform_reaudit`).
"""
from __future__ import annotations

import datetime
from typing import Any

import click
from flask import Blueprint, Flask, redirect, render_template, request, url_for
from flask.cli import with_appcontext
from flask.typing import ResponseReturnValue

from audit.api import PROFILE_DIR, ProfileError
from audit.vocabulary import Lang, parameters
from records import platform_reaudit, platforms
from records.platform_reaudit import ReauditRefused
from records.platforms import PlatformProfileRefused, Version
from records.security import ADMIN
from web.auth import account_name, requires
from web.commands import TEXT, CommandError, open_store
from web.db import get_pipeline, get_store
from web.errors import ApiError, coded, fail, option_words
from web.i18n import page_language
from web.numbers import CommandNumber, read_number

bp = Blueprint("platforms", __name__, url_prefix="/admin/platforms")

FIT_FIELDS = ("base", "name", "records", "usable", "clean_base", "clean_fitted", "source")
"""What the fit page says of the fit an adoption comes from (`fit_<name>` form fields), kept with the version."""
FIT_FIELD_CHARACTERS = 200
FIT_WORDS = {"base": "Starting profile", "name": "Fitted profile", "records": "Records read",
             "usable": "Records fitted", "clean_base": "Clean before", "clean_fitted": "Clean after",
             "source": "Records from"}
"""How the version page names each of them (message ids of web/i18n_platforms.py)."""


def _platform(values: Any) -> str:
    """The platform named by a query or form, or a 400 naming the field."""
    name = (values.get("platform") or "").strip()
    if not name or len(name) > platforms.PLATFORM_CHARACTERS:
        raise fail(400, "platform_name_bad", field="platform", limit=platforms.PLATFORM_CHARACTERS)
    return name


def _version(platform: str, number: int | None) -> Version:
    """Version `number` of the platform, or a 404 naming it."""
    found = platforms.by_number(get_store().db, platform, number) if number is not None else None
    if found is None:
        raise fail(404, "platform_version_missing", platform=platform, version=number)
    return found


def _number(field: str) -> int | None:
    return read_number(request.values.get(field), field, low=1, high=1_000_000)


@bp.before_request
def _to_the_list() -> ResponseReturnValue | None:
    """A page of one platform asked for without naming it: the list of platforms to choose from."""
    if request.method == "GET" and request.endpoint != "platforms.index" and not request.args.get("platform"):
        return redirect(url_for("platforms.index"), 303)
    return None


@bp.get("")
@requires(ADMIN)
def index() -> ResponseReturnValue:
    """Every platform: its current records, its latest version, the version in force today."""
    return render_template("platforms/index.html", rows=platforms.platforms(get_store().db))


@bp.get("/platform")
@requires(ADMIN)
def platform_page() -> ResponseReturnValue:
    """One platform's versions, the comparison form and its re-audits."""
    platform = _platform(request.args)
    db = get_store().db
    found = platforms.versions(db, platform)
    today = datetime.date.today().isoformat()
    current = platforms.pick(found, today)
    return render_template("platforms/platform.html", platform=platform, versions=found, current=current,
                           records=db.execute("SELECT count(*) FROM records WHERE platform = ? AND is_current = 1",
                                              [platform]).fetchone()[0])


@bp.get("/version")
@requires(ADMIN)
def version() -> ResponseReturnValue:
    """One version, its profile file and its re-audits."""
    return _version_page(_version(_platform(request.args), _number("version")))


def _version_page(found: Version, error: ApiError | None = None, status: int = 200) -> ResponseReturnValue:
    db = get_store().db
    runs = platform_reaudit.runs(db, found.id)
    return render_template("platforms/version.html", version=found, runs=runs, fit_words=FIT_WORDS,
                           judged=len(platform_reaudit.judged_ids(db, found)), adopted=request.args.get("adopted"),
                           error=error), status


@bp.get("/compare")
@requires(ADMIN)
def compare() -> ResponseReturnValue:
    """Two versions side by side: every parameter whose value differs."""
    platform = _platform(request.args)
    old, new = _version(platform, _number("a")), _version(platform, _number("b"))
    differences = platforms.compare(old, new)
    return render_template("platforms/compare.html", platform=platform, old=old, new=new, differences=differences,
                           words={d.parameter: parameter_words(d.parameter) for d in differences})


def parameter_words(path: str) -> str:
    """A profile parameter as the rulebook names it, in the page's language (the path when it names none)."""
    if page_language() is Lang.ZH:
        return option_words(path)
    named = parameters().get(path)
    return str(named["en"]) if named else path


def _form_page(values: dict[str, Any], error: ApiError | None = None, status: int = 200) -> ResponseReturnValue:
    """The adoption form with `values` (platform, profile_file, why, effective_from, expected_latest, fit_*)."""
    return render_template("platforms/adopt.html", values=values, fit_fields=FIT_FIELDS, error=error), status


def _defaults(platform: str) -> dict[str, Any]:
    """A new version's form: the latest version's file (or the default profile's) to edit, in force from today."""
    db = get_store().db
    latest = platforms.versions(db, platform)[:1]
    text = latest[0].text if latest else (PROFILE_DIR / "weile.toml").read_text(encoding="utf-8")
    return {"platform": platform, "profile_file": text, "effective_from": datetime.date.today().isoformat(),
            "why": "", "expected_latest": str(platforms.latest_number(db, platform))}


@bp.get("/new")
@requires(ADMIN)
def new() -> ResponseReturnValue:
    """The form of a new version, to edit."""
    return _form_page(_defaults(_platform(request.args)))


@bp.post("/from-fit")
@requires(ADMIN)
def from_fit() -> ResponseReturnValue:
    """The form of a new version filled from a fit's result: its profile file and what it says of itself."""
    form = request.form
    platform = (form.get("platform") or "").strip()
    values = _defaults(platform) if platform else {"platform": "", "effective_from": datetime.date.today().isoformat(),
                                                   "why": "", "expected_latest": ""}
    values["profile_file"] = form.get("profile_file", "")
    values.update({f"fit_{name}": form.get(f"fit_{name}", "")[:FIT_FIELD_CHARACTERS] for name in FIT_FIELDS})
    return _form_page(values)


def _fit(form: Any) -> dict[str, Any] | None:
    """What the form says of the fit the version comes from, None when it comes from no fit."""
    fit = {name: form.get(f"fit_{name}", "")[:FIT_FIELD_CHARACTERS] for name in FIT_FIELDS}
    return {name: value for name, value in fit.items() if value} or None


def _refused(exc: PlatformProfileRefused) -> ApiError:
    """An adoption refused, in the page's language; a profile that did not load says where and why."""
    if exc.problem is not None:
        problem: ProfileError = exc.problem
        lang = page_language()
        words = (problem.text(lang, with_path=True) if lang is Lang.EN
                 else f"{option_words(problem.path)}：{problem.text(lang)}" if problem.path else problem.text(lang))
        return fail(400, exc.code, field=exc.field, problem=words)
    status = 409 if exc.code == "platform_profile_stale" else 400
    return coded(status, exc)


@bp.post("/adopt")
@requires(ADMIN)
def adopt() -> ResponseReturnValue:
    """Adopt the form's profile file as the platform's next version; the form again when refused."""
    form = request.form
    values = form.to_dict()
    try:
        platform = _platform(form)
        expected = read_number(form.get("expected_latest"), "expected_latest", low=0, high=1_000_000)
        found = platforms.adopt(get_store().db, platform, form.get("profile_file", ""), who=account_name() or "",
                                why=form.get("why", ""), effective_from=form.get("effective_from", ""),
                                fit=_fit(form), expected_latest=expected, key=get_store().trail_key)
    except PlatformProfileRefused as exc:
        error = _refused(exc)
        return _form_page(values, error, error.code or 400)
    except ApiError as exc:
        return _form_page(values, exc, exc.code or 400)
    return redirect(url_for("platforms.version", platform=found.platform, version=found.version, adopted=1), 303)


@bp.post("/reaudit")
@requires(ADMIN)
def reaudit() -> ResponseReturnValue:
    """Re-audit the platform's stored records the version judges, under it (or resume its interrupted run)."""
    found = _version(_platform(request.form), _number("version"))
    try:
        platform_reaudit.run(get_pipeline(), found, who=account_name() or "", key=get_store().trail_key)
    except ReauditRefused as exc:
        return _version_page(found, coded(409, exc), 409)
    return redirect(url_for("platforms.version", platform=found.platform, version=found.version), 303)


@click.command("platform-reaudit")
@click.option("--platform", "platform", type=TEXT, required=True, help="The platform, as its records name it.")
@click.option("--version", "number", type=CommandNumber(1), required=True, help="The version to re-audit under.")
@click.option("--actor", type=TEXT, default="cli", show_default=True, help="Name the trail records.")
@with_appcontext
def platform_reaudit_command(platform: str, number: int, actor: str) -> None:
    """Re-audit the stored records a platform profile version judges, under it (or resume its
    interrupted run): the page's button, for a history too long for one request. Prints the
    counts per verdict before and after."""
    store = open_store()
    found = platforms.by_number(store.db, platform, number)
    if found is None:
        raise CommandError(f"platform {platform} has no version {number}")

    def progress(run: platform_reaudit.Run) -> None:
        click.echo(f"{run.done + run.failed} of {run.total}", err=True)

    try:
        done = platform_reaudit.run(get_pipeline(), found, who=actor, key=store.trail_key, on_batch=progress)
    except ReauditRefused as exc:
        raise CommandError(str(exc)) from None
    click.echo(f"{done.done} re-audited, {done.failed} failed; before {done.before['verdicts']}, "
               f"after {(done.after or {}).get('verdicts')}")


def init_app(app: Flask) -> None:
    """Register the pages and the command."""
    app.register_blueprint(bp)
    app.cli.add_command(platform_reaudit_command)


__all__ = ["bp", "init_app"]
