"""The records a fit of the web page reads (not a blueprint): uploaded files, or stored records.

An upload is read as every upload is (`records.ingest.read_upload`: limits, strict JSON, the
schema), but nothing is stored: a fit is a question about the records, not a new copy of them.
Stored records are the latest revision of each record matching the page's filters, as the list
shows them. Either way at most `FIT_MAX_RECORDS` records (default 2000; the command line,
`python -m fit`, takes any number).
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, request, render_template

from audit.api import is_profile_name
from audit.vocabulary import NumberProblem

from records import fit_jobs
from records.ingest import read_upload
from records.queries import RecordQuery
from records.store import Store
from web import engine
from web.db import get_store, ingest_limits, validators
from web.errors import ApiError, fail, refused_upload
from web.i18n import request_language
from web.numbers import number_error

DEFAULT_MAX = 2000


@dataclass
class Chosen:
    """What a fit reads: (source, document) pairs, the stored record behind a source (for links),
    and the problems of what could not be read, each naming file, line and JSON path."""

    records: list[tuple[str, Any]] = field(default_factory=list)
    record_ids: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def max_records() -> int:
    """The most records one fit of the page reads."""
    return int(current_app.config.get("FIT_MAX_RECORDS") or DEFAULT_MAX)


def max_job_records() -> int:
    """The most records one fit job fits: `FIT_JOB_MAX_RECORDS` when set, else what
    `FIT_JOB_MEMORY_MB` holds (`records.fit_jobs.cap_for`, docs/decisions.md 36.2c)."""
    cap = current_app.config.get("FIT_JOB_MAX_RECORDS")
    if cap:
        return int(cap)
    return fit_jobs.cap_for(int(current_app.config.get("FIT_JOB_MEMORY_MB") or fit_jobs.MEMORY_MB))


def _over(count: int) -> ApiError:
    cap = max_records()
    return fail(413, "fit_too_many", field="files", count=count, cap=cap)


def uploaded(files: list[tuple[str, bytes]], cap: int | None = None) -> Chosen:
    """The hands of uploaded files (a match gives one per hand); a file or hand that cannot be read
    is a problem, the rest are read. 413 past `cap` (default `max_records()`)."""
    out = Chosen()
    seen = 0
    limits = ingest_limits()
    for name, data in files:
        batch = read_upload(name, data, limits=limits, validators=validators(), records_before=seen)
        if batch.refused is not None:
            raise refused_upload(batch.refused)
        seen += batch.records
        out.problems += [p.describe(request_language()) for p in batch.problems]
        out.records += [(hand.origin.label(), hand.doc) for unit in batch.units for hand in unit.hands]
    if len(out.records) > (cap or max_records()):
        raise _over(len(out.records)) if cap is None else fail(413, "fit_job_too_many", field="files",
                                                                 count=len(out.records), cap=cap,
                                                                 kb=fit_jobs.KB_PER_RECORD)
    return out


def stored(store: Store, platform: str, *, client: str | None = None, date_from: str | None = None,
           date_to: str | None = None, limit: int | None = None) -> Chosen:
    """The newest stored records of a platform (and client prefix, and dates), at most `limit`."""
    cap = max_records()
    limit = min(limit or cap, cap)
    if limit < 1:  # only a FIT_MAX_RECORDS set below 1: the form's own limit is read from 1 up
        raise number_error(NumberProblem.OUT_OF_RANGE, "limit", str(limit), 1, cap)
    query = RecordQuery(platform=platform, client=client or None, date_from=date_from or None, date_to=date_to or None,
                        per_page=limit)
    out = Chosen()
    for row in store.search(query).rows:
        source = f"record {row['id']} ({row['game_id']})"
        out.records.append((source, store.document(row["id"])))
        out.record_ids[source] = row["id"]
    return out


def form_name(form: dict[str, str], profile: str) -> str:
    """The fitted profile's name (a profile file is named after it): the engine's one rule
    (`audit.profiles.is_profile_name`)."""
    name = (form.get("name") or "").strip() or f"{profile}_fit"
    if not is_profile_name(name):
        raise fail(400, "profile_name_bad", field="name", name=name)
    return name


def form_date(form: dict[str, str], key: str) -> str | None:
    """A date field of the form (YYYY-MM-DD), None when empty; 400 naming the field otherwise."""
    text = (form.get(key) or "").strip()
    if not text:
        return None
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        raise fail(400, "date_bad", field=key, value=text) from None


def form_context(**extra: Any) -> dict[str, Any]:
    """What the fit form needs: the profiles, the platforms stored, the cap, and what was asked."""
    return {"profiles": engine.profiles(), "platforms": get_store().distinct("platform"), "cap": max_records(),
            "job_cap": max_job_records(), "job_kb": fit_jobs.KB_PER_RECORD,
            "asked": request.form.to_dict() if request.method == "POST" else {}, **extra}


def form_page(error: ApiError, chosen: Chosen | None = None) -> tuple[str, int]:
    """The fit form again with `error` beside it, and its status."""
    return render_template("fit.html", **form_context(result=None, chosen=chosen, error=error.description,
                                                      error_code=error.error_code)), error.code or 400


__all__ = ["Chosen", "form_context", "form_date", "form_name", "form_page", "max_job_records", "max_records", "stored",
           "uploaded"]
