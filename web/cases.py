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

from audit.vocabulary import Lang, rerender, seat_label, seat_names
from records import cases
from records.db import atomic
from records.rows import now
from records.security import UPLOADER
from records.store import Store
from web import clock
from web.auth import API_READERS, READERS, account_name, current_account, hidden_platform, requires
from web.db import get_store
from web.dispute_schemas import (MAX_AMOUNT, AttachRequestSchema, CaseQuerySchema, CaseRequestSchema,
                                 DecisionRequestSchema)
from report.corrections import corrections
from report.dispute import TEXTS as DISPUTE_TEXTS
from report.dispute import difference
from report.dispute import text as dispute_text
from web.errors import ApiError, wants_json
from web.numbers import query_error, query_values, read_number, require_number
from web.i18n import api_language, gettext_in, page_language
from web.i18n_cases import case_error
from web.record_page import report_page
from web.pdf.record import record_pdf_parts
from web.pdf.typeset import pdf_response
from web.views import json_object, record_detail

bp = Blueprint("cases", __name__)


# ----- shared --------------------------------------------------------------------------------


def _uploader_platform() -> str | None:
    """The platform an uploader is confined to; None for people who see everything."""
    account = current_account()
    return (account.platform or "") if account is not None and account.role == UPLOADER else None


def _language() -> Lang:
    """The language of this request's answer: the API's for /api/, else the page's."""
    return api_language() if wants_json() else page_language()


def refusal(status: int, field: str, code: str, **params: Any) -> ApiError:
    """A refused request as an HTTP error: its stable `code`, the message in the request's
    language (web/i18n_cases.py), the field it names."""
    message = case_error(code, _language(), **params)
    return ApiError(status, message, {field: [message]}, error_code=code)


def _fail(exc: cases.CaseError) -> ApiError:
    """A refused change as an HTTP error naming its field and code."""
    return refusal(exc.status, exc.field, exc.code, **exc.params)


def find_case(store: Store, case_id: int) -> dict[str, Any]:
    """The case row, or 404 (also for a case of another platform than an uploader's)."""
    try:
        case = cases.case_row(store.db, case_id)
    except cases.CaseError as exc:
        raise _fail(exc) from exc
    confined = _uploader_platform()
    if confined is not None and case["platform"] != confined:
        raise refusal(404, "case", "case_missing", case=case_id)
    return case


def _load(schema: Any, data: Any) -> dict[str, Any]:
    """Validate a body or query; 400 naming every bad field."""
    try:
        values: dict[str, Any] = schema.load(data)
    except ValidationError as exc:
        raise query_error(exc, "bad_request") from exc
    return values


def _body(schema: Any) -> dict[str, Any]:
    """The request body, read strictly (`audit.jsontext`, as uploads and notes are) as a JSON
    object, and checked by `schema`; a 400 saying why and where."""
    return _load(schema, json_object(request.get_data(cache=True) or b"null", schema))


def _change(work: Any) -> Any:
    """Run one change of a case in a write transaction; a refusal becomes its HTTP error."""
    store = get_store()
    try:
        with atomic(store.db):
            return work(store.db, account_name() or "unknown", now(), store.trail_key)
    except cases.CaseError as exc:
        raise _fail(exc) from exc


def case_detail(store: Store, case_id: int, lang: Lang, basis_audit: int | None = None) -> dict[str, Any]:
    """A case with its records (each with its audits and the latest one in `lang`, and the
    scores it claims), its decisions (the last of which stands), the disputed record (the
    first attached), the audit a decision starts from (`basis_audit` when it is one of the
    case's, else the disputed record's own audit, never merely the newest) and the payments
    that audit's ledger differences suggest (report.corrections), seats named as on the
    record's page."""
    case = find_case(store, case_id)
    disputed = cases.disputed(store.db, case_id)
    records, audits_of = [], {}
    for row in cases.attached(store.db, case_id):
        audits = store.audits(row["id"])
        latest = next((audit for audit in audits if audit["id"] == row["latest_audit_id"]), None)
        document = store.document(row["id"])
        result = document.get("result") if isinstance(document, dict) else None
        for audit in audits:
            audits_of[audit["id"]] = (audit, document)
        records.append({**row, "seats": store.players(row["id"]),
                        "claimed_scores": result.get("scores") if isinstance(result, dict) else None,
                        "audits": [{key: audit[key] for key in ("id", "profile", "options", "engine_version",
                                                                "verdict", "created_at")} for audit in audits],
                        "audit": rerender(latest["audit"], lang, seat_names(document)) if latest else None})
    first = next((r for r in records if r["id"] == disputed), None)
    own = first["latest_audit_id"] if first is not None else None
    if basis_audit not in audits_of:
        basis_audit = own
    decisions = cases.decisions(store.db, case_id)
    basis = audits_of.get(basis_audit) if basis_audit is not None else None
    return {**case, "records": records, "decisions": decisions, "decision": decisions[-1] if decisions else None,
            "disputed_record": disputed, "basis_audit": basis_audit,
            "basis_is_disputed": basis_audit is not None and basis_audit == own,
            "suggested": suggested(*basis, lang) if basis is not None else None,
            "complainant": complainant(case.get("player"), basis, lang) if basis is not None else None}


def complainant(player: str | None, basis: tuple[dict[str, Any], Any], lang: Lang) -> dict[str, Any] | None:
    """The complainant's seat on the record the decision starts from, its 差额 (记录 − 审计, the one
    sign: `report.dispute.difference`) and the outcome that sign points to (issue 33.1b): negative,
    the record gave the complainant less than the rules, so the complaint stands (`upheld`);
    zero or positive, the record gave them at least their due (`dismissed`: 李娜 says she overpaid
    while the audit says she owes 12 more). None when the case names no player, the player sits at
    no seat of that record, or a side of the difference is missing (an invalid or illegal audit)."""
    if not player:
        return None
    audit_row, document = basis
    names = seat_names(document)
    seats = document.get("seats") if isinstance(document, dict) else None
    seat = next((index for index, entry in enumerate(seats if isinstance(seats, list) else [])
                 if isinstance(entry, dict) and player in (entry.get("player_id"), entry.get("name"))), None)
    result = document.get("result") if isinstance(document, dict) else None
    settlement = (audit_row.get("audit") or {}).get("settlement") or {}
    claimed = result.get("scores") if isinstance(result, dict) else None
    computed = settlement.get("scores")
    if seat is None or not isinstance(claimed, list) or not isinstance(computed, list) \
            or seat >= min(len(claimed), len(computed)):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (claimed[seat], computed[seat])):
        return None
    gap = difference(computed[seat], claimed[seat])
    return {"seat": seat, "label": seat_label(seat, lang, names), "difference": gap,
            "outcome": "upheld" if gap < 0 else "dismissed"}


def suggested(audit_row: dict[str, Any], document: Any, lang: Lang) -> dict[str, Any]:
    """The payments an audit's ledger differences call for, each seat by its label (the words of
    the record's page: `2号位 小红`) and its number."""
    names = seat_names(document)
    found = corrections(audit_row.get("audit"), document)
    return {"basis": found.basis.value if found.basis else None, "unbalanced": found.unbalanced,
            "audit": audit_row["id"],
            "payments": [{"from": seat_label(p.payer, lang, names), "to": seat_label(p.payee, lang, names),
                          "amount": p.amount, "from_seat": p.payer, "to_seat": p.payee} for p in found.payments]}


def seat_choices(detail: dict[str, Any], lang: Lang) -> list[str]:
    """The payer and payee a decision form offers: every seat of the case's records by its label,
    the disputed record's first, each once."""
    out: list[str] = []
    for record in detail["records"]:
        names = [str(seat.get("name") or "") for seat in record["seats"]]
        for seat in record["seats"]:
            label = seat_label(seat["seat"], lang, names)
            if label not in out:
                out.append(label)
    return out


def case_query() -> cases.CaseQuery:
    """The list's query string, checked, confined to an uploader's platform."""
    values = query_values(CaseQuerySchema(), request.args)
    confined = _uploader_platform()
    if confined is not None:
        if values.get("platform") not in (None, confined):
            raise hidden_platform(values["platform"])
        values["platform"] = confined
    return cases.CaseQuery(**values)


def _open(values: dict[str, Any], record_id: int | None = None, *, others: bool = False) -> int:
    """Open a case from checked values, with its first record attached when one is named (from a
    record's page; `others`: that record's other revisions too), in one transaction: a record
    that does not exist or is of another platform refuses the whole request and leaves no case
    behind (issue 22.3)."""
    store = get_store()
    if record_id is not None and not store.db.execute("SELECT 1 FROM records WHERE id = ?", [record_id]).fetchone():
        raise refusal(404, "record", "case_record_missing", record=record_id)

    def work(db: Any, actor: str, at: str, key: bytes) -> int:
        case_id = cases.open_case(db, actor=actor, at=at, key=key, zone=clock.zone(), **values)
        if record_id is not None:  # opened from a record's page: that record is the first attached
            cases.attach(db, case_id=case_id, record_id=record_id, revision=None, actor=actor, at=at, key=key)
            if others:
                for revision in store.revisions(record_id):
                    cases.attach(db, case_id=case_id, record_id=revision["id"], revision=None, actor=actor, at=at,
                                 key=key)
        return case_id

    return int(_change(work))


def _attach(case_id: int, values: dict[str, Any]) -> tuple[int, bool]:
    """Attach a record (an uploader's platform rule does not apply: only people attach)."""
    find_case(get_store(), case_id)
    attached: tuple[int, bool] = _change(lambda db, actor, at, key: cases.attach(
        db, case_id=case_id, record_id=values["record"], revision=values.get("revision"), actor=actor, at=at, key=key))
    return attached


def _payments(values: dict[str, Any]) -> list[dict[str, Any]]:
    """A checked decision's payments as stored (`from`, `to`, `amount`)."""
    return [{"from": p["from_"], "to": p["to"], "amount": p["amount"]} for p in values.get("payments") or []]


def _decide(case_id: int, values: dict[str, Any], *, close: bool = False) -> int:
    """Record a decision from checked values (and with `close`, close the case in the same
    transaction: the confirmation's 记录裁定并结案, one click for the two)."""
    find_case(get_store(), case_id)

    def work(db: Any, actor: str, at: str, key: bytes) -> int:
        decision = cases.decide(db, case_id=case_id, outcome=values["outcome"], note=values["note"],
                                payments=_payments(values), audit_id=values.get("audit"), actor=actor, at=at, key=key)
        if close:
            cases.close(db, case_id=case_id, actor=actor, at=at, key=key)
        return decision

    return int(_change(work))


def _check_decision(case_id: int, values: dict[str, Any]) -> None:
    """Refuse now what `_decide` would refuse, writing nothing (before the confirmation page)."""
    try:
        cases.check_decision(get_store().db, case_id=case_id, outcome=values["outcome"], note=values["note"],
                             payments=_payments(values), audit_id=values.get("audit"))
    except cases.CaseError as exc:
        raise _fail(exc) from exc


# ----- JSON API ------------------------------------------------------------------------------


@bp.post("/api/cases")
@requires(*READERS)
def api_open() -> ResponseReturnValue:
    """Open a case: `{"number", "platform", "player", "complaint"}` -> 201 with the case and its id."""
    case_id = _open(_body(CaseRequestSchema()))
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
    record_id, new = _attach(case_id, _body(AttachRequestSchema()))
    body = case_detail(get_store(), case_id, api_language())
    return jsonify({**body, "attached": record_id}), 201 if new else 200


@bp.post("/api/cases/<int:case_id>/decision")
@requires(*READERS)
def api_decide(case_id: int) -> ResponseReturnValue:
    """Decide: `{"outcome", "note"}`, optionally `"payments": [{"from", "to", "amount"}]` and
    `"audit"` (an audit id of an attached record) -> 201 with the case."""
    _decide(case_id, _body(DecisionRequestSchema()))
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
    """Open a case from the form; then its page. The number field comes filled with the
    platform's next number (`number_suggested`): left as it is, the case takes the next number
    free when it is saved (another case may have taken that one meanwhile); changed, the typed
    number is the case's. From a record's page (`record`) that record is attached first, then,
    with `revisions=all`, the other revisions of its game; all in the one transaction that
    opens the case, so a refusal leaves nothing behind."""
    form = request.form
    values = _form_values(CaseRequestSchema(), {key: form.get(key, "") for key in ("number", "platform", "player",
                                                                                     "complaint")})
    if (values.get("number") or "").strip() == (form.get("number_suggested") or "").strip():
        values["number"] = None
    record_id = _int_field("record", required=False)
    try:
        case_id = _open(values, record_id, others=form.get("revisions") == "all")
    except ApiError as exc:
        if record_id is None or exc.code not in (400, 404, 409):
            raise
        return _record_page_again(record_id, exc, "open"), exc.code
    return redirect(url_for("cases.case_page", case_id=case_id), code=303)


def _record_page_again(record_id: int, exc: ApiError, which: str) -> str:
    """The record's page with its refused case form (`open` or `attach`) as it was sent and the
    refusal beside it (issue 33: a Chinese message next to the field, nothing stored); a record
    that does not exist stays the error page."""
    if not get_store().db.execute("SELECT 1 FROM records WHERE id = ?", [record_id]).fetchone():
        raise exc
    form = request.form
    field = next(iter(exc.details), "") if isinstance(exc.details, dict) else ""
    error = {"form": which, "field": field, "message": exc.description, "code": exc.error_code,
             **{key: form.get(key, "") for key in ("number", "player", "complaint")}}
    return report_page(record_id, case_form_error=error)


@bp.post("/cases/attach")
@requires(*READERS)
def case_attach_by_number() -> ResponseReturnValue:
    """From a record's page: attach it to the case of its platform with this number (404 naming
    it when none)."""
    number = (request.form.get("number") or "").strip()
    record_id = _int_field("record")
    assert record_id is not None
    row = get_store().db.execute("SELECT platform FROM records WHERE id = ?", [record_id]).fetchone()
    if row is None:
        raise refusal(404, "record", "case_record_missing", record=record_id)
    try:
        case_id = cases.by_number(get_store().db, row[0] or "", number) if number else None
        if case_id is None:
            raise refusal(404, "number", "case_number_unknown", number=number, platform=row[0] or "")
        _attach(case_id, {"record": record_id})
    except ApiError as exc:
        if exc.code not in (400, 404, 409):
            raise
        return _record_page_again(record_id, exc, "attach"), exc.code
    return redirect(url_for("cases.case_page", case_id=case_id, _anchor="records"), code=303)


@bp.get("/cases/<int:case_id>")
@requires(*READERS)
def case_page(case_id: int) -> ResponseReturnValue:
    """The case: its complaint, its records side by side with their audits, the decisions and the
    forms to attach, decide, close or reopen. `?audit=ID` fills the decision form from that
    audit instead of the disputed record's; `?rows=N` adds empty payment rows."""
    lang = page_language()
    detail = case_detail(get_store(), case_id, lang, _int_arg("audit"))
    extra = min(max(_int_arg("rows") or 1, 1), 20)
    return render_template("cases/case.html", case=detail, outcomes=cases.OUTCOMES,
                           seat_choices=seat_choices(detail, lang), extra_rows=extra,
                           other_revisions=_other_revisions(detail), note_default=note_default(detail, lang))


def note_default(detail: dict[str, Any], lang: Lang) -> str:
    """The decision's note as the form offers it (the operator edits it): the audit it rests on,
    that audit's verdict in a sentence, and the payments suggested."""
    basis = detail["basis_audit"]
    if basis is None:
        return ""
    verdict = next((audit["verdict"] for record in detail["records"] for audit in record["audits"]
                    if audit["id"] == basis), None)
    headline = dispute_text(f"verdict_{verdict}", lang) if f"verdict_{verdict}" in DISPUTE_TEXTS else ""
    payments = (detail["suggested"] or {}).get("payments") or []
    paid = "；".join(gettext_in(lang, "%(payer)s pays %(payee)s %(amount)s", payer=p["from"], payee=p["to"],
                                amount=p["amount"]) for p in payments)
    return gettext_in(lang, "Decided on audit #%(id)s: %(headline)s", id=basis, headline=headline) + \
        (f" {paid}" if paid else "")


def _int_arg(name: str) -> int | None:
    """A whole-number query parameter, or None when absent (the page's default); anything but ASCII
    digits in range is a 400 naming it, as every number the service reads (web.numbers)."""
    return read_number(request.args.get(name), name)


def _other_revisions(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """Revisions of the attached records' games not attached yet (one click each on the page)."""
    store = get_store()
    attached = {record["id"] for record in detail["records"]}
    out: list[dict[str, Any]] = []
    for record in detail["records"]:
        for revision in store.revisions(record["id"]):
            if revision["id"] not in attached and all(o["id"] != revision["id"] for o in out):
                out.append({**revision, "game_id": record["game_id"]})
    return out


def _int_field(name: str, required: bool = True) -> int | None:
    """A whole-number form field; 400 naming it otherwise."""
    text = (request.form.get(name) or "").removeprefix("#")  # `#12`, as the pages write ids, is 12
    if not required:
        return read_number(text, name)
    return require_number(text, name)


@bp.post("/cases/<int:case_id>/records")
@requires(*READERS)
def case_attach_form(case_id: int) -> ResponseReturnValue:
    """Attach a record by id (and optionally a revision of its game) from the case page; a refusal
    answers with the case page, the refusal beside the attach form (nothing stored)."""
    try:
        values = _form_values(AttachRequestSchema(), {"record": _int_field("record"),
                                                      "revision": _int_field("revision", required=False)})
        _attach(case_id, values)
    except ApiError as exc:
        lang = page_language()
        detail = case_detail(get_store(), case_id, lang)
        if exc.code not in (400, 404, 409) or detail["status"] == "closed":
            raise
        return _case_page_again(detail, lang, exc, "attach"), exc.code
    return redirect(url_for("cases.case_page", case_id=case_id, _anchor="records"), code=303)


def form_payments(form: Any, choices: list[str]) -> list[dict[str, Any]]:
    """The decision form's rows of payer / payee / amount: a row left wholly empty (or with the
    amount emptied) is not a payment; a payer or payee must be one of the seats offered
    (`choices`); every refusal names its row and has its code. Nothing is written here."""
    payments = []
    for index, (payer, payee, amount) in enumerate(zip(form.getlist("from"), form.getlist("to"),
                                                       form.getlist("amount"))):
        payer, payee = payer.strip(), payee.strip()
        if not amount:  # read as sent (the one number reader): " 5" is refused, not trimmed
            continue
        points = require_number(amount, f"payments[{index}].amount", low=1, high=MAX_AMOUNT)
        if not payer or not payee:
            raise refusal(400, f"payments[{index}]", "case_payment_incomplete", index=index + 1)
        for seat in (payer, payee):
            if seat not in choices:
                raise refusal(400, f"payments[{index}]", "case_payment_seat_unknown", index=index + 1, seat=seat)
        payments.append({"from": payer, "to": payee, "amount": points})
    return payments


@bp.post("/cases/<int:case_id>/decision")
@requires(*READERS)
def case_decide_form(case_id: int) -> ResponseReturnValue:
    """Record a decision from the case page; payments are rows of payer / payee (chosen from the
    seats) / amount, filled in from the audit's ledger differences (rows without an amount ignored)."""
    form = request.form
    lang = page_language()
    detail = case_detail(get_store(), case_id, lang)
    try:
        payments = form_payments(form, seat_choices(detail, lang))
        values = _form_values(DecisionRequestSchema(), {"outcome": form.get("outcome", ""),
                                                        "note": form.get("note", ""), "payments": payments,
                                                        "audit": _int_field("audit", required=False)})
        if form.get("confirm") != "yes":  # checked, nothing written: the decision restated, one button to record it
            _check_decision(case_id, values)
            against = outcome_against(detail["complainant"], values["outcome"], lang)
            return render_template("cases/confirm.html", case=detail, action="decide", title=gettext_in(
                lang, "Record the decision"), outcome=values["outcome"], note=values["note"], payments=payments,
                audit=values.get("audit"), against=against)
        _decide(case_id, values, close=form.get("close") == "yes")
    except ApiError as exc:
        if exc.code not in (400, 409) or detail["status"] == "closed":
            raise
        return _case_page_again(detail, lang, exc, "decide"), exc.code
    return redirect(url_for("cases.case_page", case_id=case_id, _anchor="decision"), code=303)


def _case_page_again(detail: dict[str, Any], lang: Lang, exc: ApiError, which: str) -> str:
    """The case page with a refused form (`decide` or `attach`) as it was sent and the refusal beside
    its field (issue 33: bad input is a Chinese message next to the field, nothing stored)."""
    form = request.form
    field = next(iter(exc.details), "") if isinstance(exc.details, dict) else ""
    sent: dict[str, Any] | None = None
    if which == "decide":
        rows = [{"from": payer, "to": payee, "amount": amount}
                for payer, payee, amount in zip(form.getlist("from"), form.getlist("to"), form.getlist("amount"))]
        sent = {"outcome": form.get("outcome", ""), "note": form.get("note", ""), "audit": form.get("audit", ""),
                "rows": rows}
    error = {"form": which, "field": field.split("[")[0].split(".")[0], "message": exc.description,
             "code": exc.error_code, "record": form.get("record", ""), "revision": form.get("revision", "")}
    return render_template("cases/case.html", case=detail, outcomes=cases.OUTCOMES,
                           seat_choices=seat_choices(detail, lang), extra_rows=1,
                           other_revisions=_other_revisions(detail),
                           note_default=sent["note"] if sent else note_default(detail, lang),
                           form_error=error, sent=sent)


def outcome_against(found: dict[str, Any] | None, outcome: str, lang: Lang) -> str | None:
    """The warning of the confirmation when the outcome goes against the complainant's 差额 (upheld
    while the record gave them at least their due, dismissed while it gave them less); None when it
    does not, or there is no complainant to weigh."""
    if found is None or outcome not in ("upheld", "partly_upheld", "dismissed"):
        return None
    gap = found["difference"]
    if outcome in ("upheld", "partly_upheld") and gap >= 0:
        return gettext_in(lang, "The audit finds that the record gives the complainant %(seat)s at least their due "
                                "(difference %(difference)s), yet the complaint is upheld.",
                          seat=found["label"], difference=f"+{gap}" if gap > 0 else "0")
    if outcome == "dismissed" and gap < 0:
        return gettext_in(lang, "The audit finds that the record gives the complainant %(seat)s %(points)s points "
                                "less than the rules, yet the complaint is dismissed.",
                          seat=found["label"], points=-gap)
    return None


@bp.post("/cases/<int:case_id>/close")
@requires(*READERS)
def case_close_form(case_id: int) -> ResponseReturnValue:
    """Close the case from its page, after a page that restates the standing decision (a case that
    cannot be closed is refused as before, without it)."""
    lang = page_language()
    detail = case_detail(get_store(), case_id, lang)
    decision = detail["decision"]
    if request.form.get("confirm") != "yes" and decision is not None and detail["status"] == "decided":
        return render_template("cases/confirm.html", case=detail, action="close",
                               title=gettext_in(lang, "Close the case"), outcome=decision["outcome"],
                               note=decision["note"], payments=decision["payments"], audit=decision["audit_id"],
                               against=None)
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
    reports, differing = [], []
    for row in detail["records"]:
        record = record_detail(store, row["id"], lang)
        body, differs = record_pdf_parts(store, record, lang)
        reports.append(body)
        if differs.rows:  # page 1 names the payments each record gets wrong (issue 33.6), the disputed one first
            differing.append({"record": record, "payments": differs,
                              "disputed": row["id"] == detail["disputed_record"]})
    differing.sort(key=lambda entry: not entry["disputed"])
    html = render_template("pdf/case.html", case=detail, outcomes=cases.OUTCOMES, pdf=True, reports=reports,
                           differing=differing)
    return pdf_response(html, f"case-{detail['number']}.pdf")


def record_cases(record_id: int) -> list[dict[str, Any]]:
    """Template global: the cases a record is attached to (for a link from its page)."""
    return cases.of_record(get_store().db, record_id)


def next_case_number(platform: str | None) -> str:
    """Template global: the number a case opened now on this platform would get (shown in the
    form, editable)."""
    return cases.next_number(get_store().db, platform or "", now(), clock.zone())


def init_app(app: Flask) -> None:
    """Routes and the template globals."""
    app.register_blueprint(bp)
    app.jinja_env.globals.update(record_cases=record_cases, next_case_number=next_case_number)


__all__ = ["bp", "case_detail", "find_case", "init_app"]
