"""Cases on the web: the JSON API under /api/cases, the pages under /cases, and the PDF bundle.

What a case is and what may change lives in `records.cases`; this module reads
requests, checks roles and platforms, and shapes answers. Auditors and admins
open, attach, decide, close and reopen; an uploader may read its own platform's
cases through the API (another platform's case is a 404, as for records).
Every change is one write transaction with its trail entry.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from audit.catalogue import Lang, rerender, seat_names
from records import cases
from records.rows import now
from records.security import UPLOADER
from records.store import Store
from web.auth import API_READERS, READERS, account_name, current_account, requires
from web.db import get_store
from web.dispute_schemas import AttachRequestSchema, CaseQuerySchema, CaseRequestSchema, DecisionRequestSchema
from web.errors import ApiError, bad_fields, fail
from web.i18n import api_language, page_language, request_language
from web.pdf.bundle import bundle_response
from web.pdf.record import record_pdf_html
from web.views import first_messages, record_detail, strict_json

bp = Blueprint("cases", __name__)


# ----- shared --------------------------------------------------------------------------------


def _uploader_platform() -> str | None:
    """The platform an uploader is confined to; None for people who see everything."""
    account = current_account()
    return (account.platform or "") if account is not None and account.role == UPLOADER else None


def _fail(exc: cases.CaseError) -> ApiError:
    """A refused change as an HTTP error naming its field (in the request's language when the
    refusal has a code)."""
    if exc.code is not None:
        return fail(exc.status, exc.code, field=exc.field, **exc.params)
    return ApiError(exc.status, str(exc), {exc.field: [str(exc)]})


def find_case(store: Store, case_id: int) -> dict[str, Any]:
    """The case row, or 404 (also for a case of another platform than an uploader's)."""
    try:
        case = cases.case_row(store.db, case_id)
    except cases.CaseError as exc:
        raise _fail(exc) from exc
    confined = _uploader_platform()
    if confined is not None and case["platform"] != confined:
        raise fail(404, "case_missing", field="case", id=case_id)
    return case


def _load(schema: Any, data: Any) -> dict[str, Any]:
    """Validate a body or query; 400 naming every bad field."""
    try:
        values: dict[str, Any] = schema.load(data)
    except ValidationError as exc:
        raise bad_fields("bad_body", exc.messages) from exc
    return values


def _json_object() -> dict[str, Any]:
    """The request body as a JSON object, read strictly (`audit.jsontext`, as uploads and notes
    are), or a 400 saying why and where."""
    body = strict_json(request.get_data(cache=True) or b"null", "body")  # hostile values: 400 with the path
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return body


def _change(work: Any) -> Any:
    """Run one change of a case in a write transaction; a refusal becomes its HTTP error."""
    store = get_store()
    try:
        with store.atomic():
            return work(store.db, account_name() or "unknown", now(), store.trail_key)
    except cases.CaseError as exc:
        raise _fail(exc) from exc


def case_detail(store: Store, case_id: int, lang: Lang) -> dict[str, Any]:
    """A case with its records (each with its audits and the latest one in `lang`, and the
    scores it claims) and its decisions, the last of which stands."""
    case = find_case(store, case_id)
    records = []
    for row in cases.attached(store.db, case_id):
        audits = store.audits(row["id"])
        latest = next((audit for audit in audits if audit["id"] == row["latest_audit_id"]), None)
        document = store.document(row["id"])
        result = document.get("result") if isinstance(document, dict) else None
        records.append({**row, "seats": store.players(row["id"]),
                        "claimed_scores": result.get("scores") if isinstance(result, dict) else None,
                        "audits": [{key: audit[key] for key in ("id", "profile", "options", "engine_version",
                                                                "verdict", "created_at")} for audit in audits],
                        "audit": rerender(latest["audit"], lang, seat_names(document)) if latest else None})
    decisions = cases.decisions(store.db, case_id)
    return {**case, "records": records, "decisions": decisions, "decision": decisions[-1] if decisions else None}


def case_query() -> cases.CaseQuery:
    """The list's query string, checked, confined to an uploader's platform."""
    values = _load(CaseQuerySchema(), {k: v for k, v in request.args.items() if v != ""})
    values.pop("lang", None)
    confined = _uploader_platform()
    if confined is not None:
        if values.get("platform") not in (None, confined):
            raise ApiError(404, f"platform {values['platform']!r} is not visible to this account")
        values["platform"] = confined
    return cases.CaseQuery(**values)


def _open(values: dict[str, Any]) -> int:
    """Open a case from checked values."""
    return int(_change(lambda db, actor, at, key: cases.open_case(db, actor=actor, at=at, key=key, **values)))


def _attach(case_id: int, values: dict[str, Any]) -> tuple[int, bool]:
    """Attach a record (an uploader's platform rule does not apply: only people attach)."""
    find_case(get_store(), case_id)
    attached: tuple[int, bool] = _change(lambda db, actor, at, key: cases.attach(
        db, case_id=case_id, record_id=values["record"], revision=values.get("revision"), actor=actor, at=at, key=key))
    return attached


def _decide(case_id: int, values: dict[str, Any]) -> int:
    """Record a decision from checked values."""
    find_case(get_store(), case_id)
    payments = [{"from": p["from_"], "to": p["to"], "amount": p["amount"]} for p in values.get("payments") or []]
    return int(_change(lambda db, actor, at, key: cases.decide(
        db, case_id=case_id, outcome=values["outcome"], note=values["note"], payments=payments,
        audit_id=values.get("audit"), actor=actor, at=at, key=key)))


# ----- JSON API ------------------------------------------------------------------------------


@bp.post("/api/cases")
@requires(*READERS)
def api_open() -> ResponseReturnValue:
    """Open a case: `{"number", "platform", "player", "complaint"}` -> 201 with the case and its id."""
    case_id = _open(_load(CaseRequestSchema(), _json_object()))
    response = jsonify(case_detail(get_store(), case_id, api_language()))
    response.headers["Location"] = url_for("cases.api_case", case_id=case_id)
    return response, 201


@bp.get("/api/cases")
@requires(*API_READERS)
def api_list() -> ResponseReturnValue:
    """Cases, newest first: `status`, `platform`, `number`, `q`, `page`, `per_page`."""
    page = cases.find(get_store().db, case_query())
    return jsonify({"cases": page.rows, "total": page.total, "page": page.page, "per_page": page.per_page,
                    "pages": page.pages, "counts": page.counts})


@bp.get("/api/cases/<int:case_id>")
@requires(*API_READERS)
def api_case(case_id: int) -> ResponseReturnValue:
    """The case with its records, their audits, and its decisions (`decision`: the one standing)."""
    return jsonify(case_detail(get_store(), case_id, api_language()))


@bp.post("/api/cases/<int:case_id>/records")
@requires(*READERS)
def api_attach(case_id: int) -> ResponseReturnValue:
    """Attach `{"record": ID}` (optionally `"revision": N`, another revision of its game):
    201, or 200 when it was attached already."""
    record_id, new = _attach(case_id, _load(AttachRequestSchema(), _json_object()))
    body = case_detail(get_store(), case_id, api_language())
    return jsonify({**body, "attached": record_id}), 201 if new else 200


@bp.post("/api/cases/<int:case_id>/decision")
@requires(*READERS)
def api_decide(case_id: int) -> ResponseReturnValue:
    """Decide: `{"outcome", "note"}`, optionally `"payments": [{"from", "to", "amount"}]` and
    `"audit"` (an audit id of an attached record) -> 201 with the case."""
    _decide(case_id, _load(DecisionRequestSchema(), _json_object()))
    return jsonify(case_detail(get_store(), case_id, api_language())), 201


@bp.post("/api/cases/<int:case_id>/close")
@requires(*READERS)
def api_close(case_id: int) -> ResponseReturnValue:
    """Close a decided case."""
    find_case(get_store(), case_id)
    _change(lambda db, actor, at, key: cases.close(db, case_id=case_id, actor=actor, at=at, key=key))
    return jsonify(case_detail(get_store(), case_id, api_language()))


@bp.post("/api/cases/<int:case_id>/reopen")
@requires(*READERS)
def api_reopen(case_id: int) -> ResponseReturnValue:
    """Reopen a closed case."""
    find_case(get_store(), case_id)
    _change(lambda db, actor, at, key: cases.reopen(db, case_id=case_id, actor=actor, at=at, key=key))
    return jsonify(case_detail(get_store(), case_id, api_language()))


# ----- pages ---------------------------------------------------------------------------------


@bp.get("/cases")
@requires(*READERS)
def case_list() -> ResponseReturnValue:
    """The case list with status tabs, search, and the form that opens a case."""
    query = case_query()
    page = cases.find(get_store().db, query)
    args = {key: value for key, value in request.args.items() if key not in ("page", "lang", "status") and value}
    platforms = get_store().distinct("platform")
    return render_template("cases/list.html", page=page, query=query, statuses=cases.STATUSES, args=args,
                           platforms=platforms, form={})


def _form_values(schema: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A page form checked like the API's body (a bad field is a 400 page naming it)."""
    return _load(schema, data)


@bp.post("/cases")
@requires(*READERS)
def case_open_form() -> ResponseReturnValue:
    """Open a case from the form; then its page."""
    form = request.form
    values = _form_values(CaseRequestSchema(), {key: form.get(key, "") for key in ("number", "platform", "player",
                                                                                     "complaint")})
    record_id = _int_field("record", required=False)
    case_id = _open(values)
    if record_id is not None:  # opened from a record's page: that record is the first attached
        _attach(case_id, {"record": record_id})
    return redirect(url_for("cases.case_page", case_id=case_id), code=303)


@bp.post("/cases/attach")
@requires(*READERS)
def case_attach_by_number() -> ResponseReturnValue:
    """From a record's page: attach it to the case with this number (404 naming it when none)."""
    number = (request.form.get("number") or "").strip()
    found = cases.find(get_store().db, cases.CaseQuery(number=number, per_page=1)).rows if number else []
    if not found:
        raise ApiError(404, f"number: no case has the number {number!r}", {"number": ["no such case"]})
    record_id = _int_field("record")
    assert record_id is not None
    _attach(int(found[0]["id"]), {"record": record_id})
    return redirect(url_for("cases.case_page", case_id=found[0]["id"], _anchor="records"), code=303)


@bp.get("/cases/<int:case_id>")
@requires(*READERS)
def case_page(case_id: int) -> ResponseReturnValue:
    """The case: its complaint, its records side by side with their audits, the decisions and the
    forms to attach, decide, close or reopen."""
    detail = case_detail(get_store(), case_id, page_language())
    return render_template("cases/case.html", case=detail, outcomes=cases.OUTCOMES)


def _int_field(name: str, required: bool = True) -> int | None:
    """A whole-number form field; 400 naming it otherwise."""
    text = (request.form.get(name) or "").strip().lstrip("#")
    if not text and not required:
        return None
    if not text.isdigit():
        raise ApiError(400, f"{name}: a whole number", {name: ["a whole number"]})
    return int(text)


@bp.post("/cases/<int:case_id>/records")
@requires(*READERS)
def case_attach_form(case_id: int) -> ResponseReturnValue:
    """Attach a record by id (and optionally a revision of its game) from the case page."""
    values = _form_values(AttachRequestSchema(), {"record": _int_field("record"),
                                                  "revision": _int_field("revision", required=False)})
    _attach(case_id, values)
    return redirect(url_for("cases.case_page", case_id=case_id, _anchor="records"), code=303)


@bp.post("/cases/<int:case_id>/decision")
@requires(*READERS)
def case_decide_form(case_id: int) -> ResponseReturnValue:
    """Record a decision from the case page; payments are rows of from / to / amount (empty rows ignored)."""
    form = request.form
    payments = []
    for payer, payee, amount in zip(form.getlist("from"), form.getlist("to"), form.getlist("amount")):
        if payer.strip() or payee.strip() or amount.strip():
            if not amount.strip().isdigit():
                raise ApiError(400, "payments: amount: a whole number of points", {"amount": ["a whole number"]})
            payments.append({"from": payer.strip(), "to": payee.strip(), "amount": int(amount)})
    values = _form_values(DecisionRequestSchema(), {"outcome": form.get("outcome", ""), "note": form.get("note", ""),
                                                    "payments": payments,
                                                    "audit": _int_field("audit", required=False)})
    _decide(case_id, values)
    return redirect(url_for("cases.case_page", case_id=case_id, _anchor="decision"), code=303)


@bp.post("/cases/<int:case_id>/close")
@requires(*READERS)
def case_close_form(case_id: int) -> ResponseReturnValue:
    """Close the case from its page."""
    find_case(get_store(), case_id)
    _change(lambda db, actor, at, key: cases.close(db, case_id=case_id, actor=actor, at=at, key=key))
    return redirect(url_for("cases.case_page", case_id=case_id), code=303)


@bp.post("/cases/<int:case_id>/reopen")
@requires(*READERS)
def case_reopen_form(case_id: int) -> ResponseReturnValue:
    """Reopen the case from its page."""
    find_case(get_store(), case_id)
    _change(lambda db, actor, at, key: cases.reopen(db, case_id=case_id, actor=actor, at=at, key=key))
    return redirect(url_for("cases.case_page", case_id=case_id), code=303)


@bp.get("/cases/<int:case_id>.pdf")
@requires(*READERS)
def case_pdf(case_id: int) -> ResponseReturnValue:
    """One PDF: the case sheet, then the report of each attached record (as `/records/<id>.pdf`)."""
    store = get_store()
    lang = page_language()
    detail = case_detail(store, case_id, lang)
    htmls = [render_template("pdf/case.html", case=detail, outcomes=cases.OUTCOMES, pdf=True)]
    for row in detail["records"]:
        record = record_detail(store, row["id"], lang)
        htmls.append(record_pdf_html(store, record))
    return bundle_response(htmls, f"case-{detail['number']}.pdf")


def record_cases(record_id: int) -> list[dict[str, Any]]:
    """Template global: the cases a record is attached to (for a link from its page)."""
    return cases.of_record(get_store().db, record_id)


def init_app(app: Flask) -> None:
    """Routes and the template global."""
    app.register_blueprint(bp)
    app.jinja_env.globals.update(record_cases=record_cases)


__all__ = ["bp", "case_detail", "find_case", "init_app"]
