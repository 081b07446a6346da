"""The OpenAPI description of issue 11's JSON routes (receipts, cases), merged into
`/api/openapi.json` by `web.openapi.build_spec`. Data next to the schemas it names."""
from __future__ import annotations

from typing import Any

from web import dispute_schemas as d

SCHEMAS = {
    "Receipt": d.ReceiptSchema, "ReceiptPage": d.ReceiptPageSchema, "CaseRequest": d.CaseRequestSchema,
    "AttachRequest": d.AttachRequestSchema, "Payment": d.PaymentSchema, "DecisionRequest": d.DecisionRequestSchema,
}
CASE_ID = {"in": "path", "name": "case_id", "required": True, "schema": {"type": "integer", "minimum": 1}}
CASE = {"type": "object", "description": "the case: id, number, platform, player, complaint, status, created_at, "
                                         "created_by, updated_at, records (each with audits and its latest audit), "
                                         "decisions, decision; disputed_record (the first attached), basis_audit "
                                         "(the audit the decision form starts from: the disputed record's) and "
                                         "suggested {basis, payments [{from, to, amount, from_seat, to_seat}], "
                                         "unbalanced} (report.corrections, from that audit's ledger differences)"}


def _error(description: str) -> dict[str, Any]:
    """An error response with the Error body."""
    return {"description": description, "content": {"application/json": {"schema": "Error"}}}


def _case(description: str) -> dict[str, Any]:
    """A response whose body is a case."""
    return {"description": description, "content": {"application/json": {"schema": CASE}}}


def _body(schema: str) -> dict[str, Any]:
    """A required JSON request body."""
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _query(schema: Any) -> list[dict[str, Any]]:
    """Query parameters from a query schema (marshmallow field -> OpenAPI type, roughly)."""
    out = []
    for name, field in schema().fields.items():
        kind = {"Integer": "integer", "Date": "string"}.get(type(field).__name__, "string")
        parameter: dict[str, Any] = {"in": "query", "name": name, "required": False, "schema": {"type": kind}}
        if type(field).__name__ == "Date":
            parameter["schema"]["format"] = "date"
        out.append(parameter)
    return out


def paths() -> dict[str, dict[str, Any]]:
    """Every receipts and cases operation."""
    bad, missing, conflict = _error("bad request, naming the field"), _error("unknown case or record"), \
        _error("the case refuses the change (number taken, closed, not decided)")
    return {
        "/api/receipts": {"get": {
            "summary": "Receipts of every submitted item, newest first", "parameters": _query(d.ReceiptQuerySchema),
            "responses": {"200": {"description": "a page", "content": {"application/json": {"schema": "ReceiptPage"}}},
                          "400": bad, "404": _error("another platform (uploader)")}}},
        "/api/cases": {
            "post": {"summary": "Open a case", "requestBody": _body("CaseRequest"),
                     "responses": {"201": _case("the new case, with its id"), "400": bad, "409": conflict}},
            "get": {"summary": "Cases, newest first", "parameters": _query(d.CaseQuerySchema),
                    "responses": {"200": {"description": "{cases, total, page, per_page, pages, counts}",
                                          "content": {"application/json": {"schema": {"type": "object"}}}},
                                  "400": bad, "404": _error("another platform (uploader)")}}},
        "/api/cases/{case_id}": {"get": {
            "summary": "A case with its records, audits and decision", "parameters": [CASE_ID],
            "responses": {"200": _case("the case"), "404": missing}}},
        "/api/cases/{case_id}/records": {"post": {
            "summary": "Attach a record (or another revision of its game)", "parameters": [CASE_ID],
            "requestBody": _body("AttachRequest"),
            "responses": {"201": _case("attached"), "200": _case("already attached"), "400": bad, "404": missing,
                          "409": conflict}}},
        "/api/cases/{case_id}/decision": {"post": {
            "summary": "Record a decision", "parameters": [CASE_ID], "requestBody": _body("DecisionRequest"),
            "responses": {"201": _case("decided"), "400": bad, "404": missing, "409": conflict}}},
        "/api/cases/{case_id}/close": {"post": {
            "summary": "Close a decided case", "parameters": [CASE_ID],
            "responses": {"200": _case("closed"), "404": missing, "409": conflict}}},
        "/api/cases/{case_id}/reopen": {"post": {
            "summary": "Reopen a closed case", "parameters": [CASE_ID],
            "responses": {"200": _case("reopened"), "404": missing, "409": conflict}}},
    }
