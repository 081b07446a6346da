"""Conformance on the service (issue 15): the published JSON Schemas, and client builds' kit answers.

- `GET /api/schema/zhuoji-1.json`, `/api/schema/zhuoji-match-1.json`: the engine's data files
  (`audit/schemas/`) byte for byte, so a client team writing in another language validates its
  records before it uploads.
- A team uploads a kit's answers for a client build (platform + client version): `POST
  /api/conformance/runs` (multipart: `kit`, `platform`, `client_version`, file `answers`) or the
  form on `/conformance`. The run is checked by the engine (`kit.check`) and stored
  (`records.conformance`); its page shows the report, and any two runs of the same kit compare:
  newly failing and newly passing cases, so a regression between builds shows at once.
- An uploader token submits and reads runs of its own platform only (as for records), through the
  API: the pages (`/conformance`, a run's page) are for people (admin, auditor), as every page is
  (docs/trust.md: uploaders have no web pages).

Kits are folders under `CONFORMANCE_KITS` (default `instance/kits`), written there with
`zhuoji-kit build --out instance/kits/NAME`; the service only reads them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from sqlite_utils import Database

from kit.schemas import SCHEMA_NAMES, schema_bytes
from records import conformance
from records.rows import now
from records.security import UPLOADER
from web.auth import API_READERS, READERS, account_name, current_account, hidden_platform, requires
from web.db import get_store
from web.errors import ApiError, coded, error_text, fail, words
from web.numbers import read_number
from web.i18n import api_language, page_language, request_language

bp = Blueprint("conformance", __name__)

MAX_ANSWERS = 20 * 1024 * 1024
"""Largest answers file accepted (a 10,000-case kit answers in about 5 MB)."""


@bp.get("/api/schema/<name>")
@requires(*API_READERS)
def schema(name: str) -> ResponseReturnValue:
    """A published JSON Schema (draft 2020-12), byte for byte the wheel's and the kit's."""
    if name not in SCHEMA_NAMES:
        raise fail(404, "schema_missing", name=name, published=list(SCHEMA_NAMES))
    return Response(schema_bytes(name), mimetype="application/schema+json")


# ----- helpers ------------------------------------------------------------------------------------


def kits_folder() -> Path:
    """Where the service's kits are."""
    configured = current_app.config.get("CONFORMANCE_KITS")
    return Path(configured) if configured else Path(current_app.instance_path) / "kits"


def _db() -> Database:
    """The request's connection (the runs' table is made by `records.migrations`, as every table)."""
    return get_store().db


def _platform_scope() -> str | None:
    """An uploader's platform (it sees and submits only that one); None for people."""
    account = current_account()
    return account.platform if account is not None and account.role == UPLOADER else None


def _run_or_404(run_id: int, lang: Any) -> dict[str, Any]:
    found = conformance.run(_db(), run_id, lang)
    scope = _platform_scope()
    if found is None or (scope is not None and found["platform"] != scope):
        raise fail(404, "run_missing", id=run_id)
    return found


def _submit(form: dict[str, str], answers: bytes | None) -> int:
    """Check and store one run from request fields; ApiError 400/403 naming the field."""
    scope = _platform_scope()
    platform = (form.get("platform") or "").strip() or (scope or "")
    if scope is not None and platform != scope:
        raise fail(403, "run_other_platform", field="platform", platform=platform, own=scope)
    if answers is None:
        raise fail(400, "answers_missing", field="answers")
    if len(answers) > MAX_ANSWERS:
        raise fail(413, "answers_too_large", field="answers", limit=MAX_ANSWERS)
    try:
        return conformance.submit(_db(), kits_folder(), kit_name=form.get("kit", ""), platform=platform,
                                  client_version=form.get("client_version", ""), answers=answers,
                                  uploader=account_name(), stamp=now(), key=get_store().trail_key)
    except conformance.ConformanceError as exc:
        if exc.code == "kit_broken":  # the request is fine, the kit is not: 409, with what is wrong with it
            reason = problem_text(exc.params["problem"], exc.params["problem_params"], request_language())
            raise fail(409, "kit_broken", field="kit", name=exc.params["name"], reason=reason) from None
        raise coded(400, exc) from None


def _answers_upload() -> bytes | None:
    file = request.files.get("answers")
    if file is not None:
        data: bytes = file.read(MAX_ANSWERS + 1)
        return data
    return None


def _compare(base_id: int, head_id: int, lang: Any) -> dict[str, Any]:
    base, head = _run_or_404(base_id, lang), _run_or_404(head_id, lang)
    try:
        return conformance.compare(base, head)
    except conformance.ConformanceError as exc:
        raise coded(409, exc) from None


def problem_text(code: str, params: dict[str, Any], lang: Any) -> str:
    """Why a folder is no kit, in `lang` (web/errors.toml, the codes of kit.check.KIT_PROBLEMS)."""
    return error_text(code if code in words() else "kit_unreadable", lang, **params)


def _kit_rows(lang: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The kits, and the folders that are no kit, each with its problem's code, params and words
    in `lang` (issue 34.4: one bad folder is listed, it does not take the list down)."""
    kits, broken = conformance.scan_kits(kits_folder())
    return ([dict(k.__dict__) for k in kits],
            [{"name": b.name, "code": b.code, "params": b.params, "reason": problem_text(b.code, b.params, lang)}
             for b in broken])


def _index_page(status: int = 200, **extra: Any) -> ResponseReturnValue:
    """`/conformance`: the kits, the broken ones, the runs and the form (with a problem in `extra`)."""
    scope = _platform_scope()
    kits, broken = _kit_rows(page_language())
    return render_template("conformance/index.html", kits=kits, broken=broken, scope=scope,
                           runs=conformance.runs(_db(), platform=scope), **extra), status


# ----- API ----------------------------------------------------------------------------------------


@bp.get("/api/conformance/kits")
@requires(*API_READERS)
def api_kits() -> ResponseReturnValue:
    """The kits this service checks answers against, and (`broken`) the folders among them that are
    no kit, each with why (`code`, `params`, `reason` in the asked language); a run against one of
    those is refused (409 `kit_broken`)."""
    kits, broken = _kit_rows(api_language())
    return jsonify({"kits": kits, "broken": broken})


@bp.post("/api/conformance/runs")
@requires(*API_READERS)
def api_submit() -> ResponseReturnValue:
    """Check a client build's answers to a kit and store the run; 201 with the run's report."""
    run_id = _submit(request.form.to_dict(), _answers_upload())
    found = _run_or_404(run_id, api_language())
    return jsonify(found), 201, {"Location": url_for("conformance.api_run", run_id=run_id)}


@bp.get("/api/conformance/runs")
@requires(*API_READERS)
def api_runs() -> ResponseReturnValue:
    """Runs newest first (an uploader's platform only), filtered by `kit` and `platform`."""
    scope = _platform_scope()
    asked = request.args.get("platform") or None
    if scope is not None and asked not in (None, scope):
        raise hidden_platform(asked)
    return jsonify({"runs": conformance.runs(_db(), platform=scope or asked, kit=request.args.get("kit") or None)})


@bp.get("/api/conformance/runs/<int:run_id>")
@requires(*API_READERS)
def api_run(run_id: int) -> ResponseReturnValue:
    """One run and its report (messages in `?lang=` / Accept-Language)."""
    return jsonify(_run_or_404(run_id, api_language()))


@bp.get("/api/conformance/runs/<int:run_id>/compare/<int:base_id>")
@requires(*API_READERS)
def api_compare(run_id: int, base_id: int) -> ResponseReturnValue:
    """What changed from run `base_id` to run `run_id` (same kit): newly failing and newly passing cases."""
    return jsonify(_compare(base_id, run_id, api_language()))


# ----- pages --------------------------------------------------------------------------------------


@bp.get("/conformance")
@requires(*READERS)
def index() -> ResponseReturnValue:
    """The kits (and the broken ones, with why), the runs, and the form to submit a build's answers."""
    return _index_page()


@bp.post("/conformance")
@requires(*READERS)
def submit_form() -> ResponseReturnValue:
    """The page's form: check, store, then show the run (or the form again with the problem)."""
    try:
        run_id = _submit(request.form.to_dict(), _answers_upload())
    except ApiError as exc:
        return _index_page(exc.code or 400, error=exc.description, error_code=exc.error_code)
    return redirect(url_for("conformance.run_page", run_id=run_id), 303)


@bp.get("/conformance/runs/<int:run_id>")
@requires(*READERS)
def run_page(run_id: int) -> ResponseReturnValue:
    """One run's report; with the previous run of the same kit and platform compared (or `?with=ID`)."""
    lang = page_language()
    found = _run_or_404(run_id, lang)
    other = read_number(request.args.get("with"), "with", low=0) or conformance.previous(_db(), found)
    diff = None
    if other is not None and other != run_id:
        try:
            diff = conformance.compare(_run_or_404(other, lang), found)
        except conformance.ConformanceError:
            diff = None
    return render_template("conformance/run.html", run=found, report=found["report"], diff=diff,
                           runs=[r for r in conformance.runs(_db(), platform=found["platform"], kit=found["kit"])
                                 if r["id"] != run_id])
