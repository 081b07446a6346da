"""Fit jobs on the service (issue 36.2, docs/fit.md): a fit of a platform's stored records, of any
number, or of uploaded files, run in the background. Past what one fit holds in memory
(`FIT_JOB_MEMORY_MB`, or `FIT_JOB_MAX_RECORDS` outright: `web.fit_records.max_job_records`) the
search runs on a sample of stored records of that size and every record is verified after
(`batch.fit_job`, docs/decisions.md 36.2c); uploaded files past it are refused (413
`fit_job_too_many`), as past the upload limits.

- `POST /fit/jobs`: the fit form's fields (as `POST /fit`, plus `by` and `period` for the fit by
  client build and period, issue 36.4); queues a job (`records.fit_jobs.create`) and goes to its
  page (303). No record to fit: the form again with `fit_no_records`, nothing stored.
- `GET /fit/jobs`: the jobs, newest first.
- `GET /fit/jobs/<id>`: the job from the store (so a reload, or a restart of the server, shows it
  as it is): its progress while it runs (`static/fit_job.js` asks the JSON below every two seconds,
  the page reloads when the job ends), its kept result when done, its error when it failed.
- `GET /fit/jobs/<id>.json`: its state: status, phase, records read and to read, values weighed,
  seconds left, the error's code and message, and, while a fit runs in the worker's process, where
  it is (`fit`: its phase, values weighed of an estimate, values taken, which of the job's fits;
  `verifying` with records done of all while a sampled job's records are verified); `sample`, the
  sample's size (None: no sample), and, once done, `verified`: the counts over every record.
- `POST /fit/jobs/<id>/cancel`: cancel a job not finished.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from fit.periods import BY, PERIODS
from records import fit_jobs
from records.fit_jobs import NoRecords, NotAllowed, Selection, TooMany
from web import engine
from web.auth import READERS, account_name, requires
from web.clock import local_time
from web.db import get_store
from web.errors import ApiError, error_text, fail, unknown_profile
from web.fit_records import Chosen, form_context, form_date, form_name, form_page, max_job_records, uploaded
from web.fit_worker import ensure_worker
from web.i18n import page_language

bp = Blueprint("fit_jobs", __name__)

def _choice(form: dict[str, str], key: str, allowed: tuple[str, ...], default: str | None) -> str | None:
    value = (form.get(key) or "").strip() or default
    if value is not None and value not in allowed:
        raise fail(400, "fit_choice_bad", field=key, value=value, allowed=", ".join(allowed))
    return value


def _params(form: dict[str, str]) -> dict[str, Any]:
    profile = form.get("profile") or "weile"
    if profile not in engine.profiles():
        raise unknown_profile(profile, list(engine.profiles()))
    return {"profile": profile, "name": form_name(form, profile), "lang": page_language().value, "min_gain": 1,
            "by": _choice(form, "by", BY, None), "period": _choice(form, "period", PERIODS, "week")}


def _create(form: dict[str, str]) -> int:
    params = _params(form)
    store, cap = get_store(), max_job_records()
    try:
        if form.get("source") == "stored":
            platform = (form.get("platform") or "").strip()
            if not platform:
                raise fail(400, "fit_platform_missing", field="platform")
            selection = Selection(platform, (form.get("client") or "").strip() or None,
                                  form_date(form, "date_from"), form_date(form, "date_to"))
            return fit_jobs.create(store.db, params=params, selection=selection, requested_by=account_name(),
                                   max_records=cap)
        files = [(f.filename, f.read()) for f in request.files.getlist("files") if f.filename]
        if not files:
            raise fail(400, "fit_files_missing", field="files")
        chosen = uploaded(files, cap=cap)
        return fit_jobs.create(store.db, params=params, uploaded=chosen.records, requested_by=account_name(),
                               max_records=cap)
    except NoRecords:
        raise fail(400, "fit_no_records", field="platform" if form.get("source") == "stored" else "files") from None
    except TooMany as exc:
        raise fail(413, "fit_job_too_many", field="files", **exc.params) from None


@bp.post("/fit/jobs")
@requires(*READERS)
def start() -> ResponseReturnValue:
    """Queue a job of the records the form names and go to its page; the form again when refused."""
    try:
        job_id = _create(request.form.to_dict())
    except ApiError as exc:
        return form_page(exc)
    ensure_worker(current_app._get_current_object())  # type: ignore[attr-defined]
    return redirect(url_for("fit_jobs.page", job_id=job_id), 303)


def _job(job_id: int) -> dict[str, Any]:
    job = fit_jobs.get(get_store().db, job_id)
    if job is None:
        raise fail(404, "fit_job_missing", id=job_id)
    return job


def _error(job: dict[str, Any]) -> str | None:
    if not job.get("error_code"):
        return None
    return error_text(job["error_code"], page_language(), **job["error_params"])


def state(job: dict[str, Any]) -> dict[str, Any]:
    """What the page and its poll show of a job."""
    verified = ((job["result"] or {}).get("sample") or {}).get("verified")
    return {"sample": job["params"].get("sample"), "verified": verified,"id": job["id"], "status": job["status"], "phase": job["phase"], "records_done": job["records_done"],
            "records_total": job["records_total"], "values_weighed": job["values_weighed"],
            "seconds_left": job["seconds_left"], "attempts": job["attempts"], "updated_at": job["updated_at"],
            "updated_shown": local_time(job["updated_at"]),
            "fit": job["progress"],
            "final": job["status"] in {s.value for s in fit_jobs.FINAL},
            "error": {"code": job["error_code"], "message": _error(job)} if job.get("error_code") else None}


@bp.get("/fit/jobs")
@requires(*READERS)
def listing() -> ResponseReturnValue:
    """The jobs, newest first."""
    return render_template("fit_jobs.html", jobs=fit_jobs.listing(get_store().db, 200))


@bp.get("/fit/jobs/<int:job_id>")
@requires(*READERS)
def page(job_id: int) -> ResponseReturnValue:
    """The job as the store has it: progress, or the kept result, or the error."""
    job = _job(job_id)
    result = job["result"] or {}
    chosen = Chosen(record_ids={k: int(v) for k, v in result.get("record_ids", {}).items()})
    return render_template("fit_job.html", **form_context(job=job, job_state=state(job), error_text=_error(job),
                                                          job_result=result or None, result=result.get("fit"),
                                                          chosen=chosen))


@bp.get("/fit/jobs/<int:job_id>.json")
@requires(*READERS)
def progress(job_id: int) -> ResponseReturnValue:
    """The job's state as JSON (the page's poll)."""
    return jsonify(state(_job(job_id)))


@bp.post("/fit/jobs/<int:job_id>/cancel")
@requires(*READERS)
def cancel(job_id: int) -> ResponseReturnValue:
    """Cancel a job not finished; 409 naming it when it has."""
    _job(job_id)
    try:
        fit_jobs.cancel(get_store().db, job_id)
    except NotAllowed:
        raise fail(409, "fit_job_finished", id=job_id) from None
    return redirect(url_for("fit_jobs.page", job_id=job_id), 303)


__all__ = ["bp", "state"]
