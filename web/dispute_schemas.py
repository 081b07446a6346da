"""Marshmallow schemas of issue 11's requests and answers: receipts, cases, decisions (not a
blueprint). Kept apart from `web.api_schemas` so each file has one subject; query strings are
RAISE on unknown keys, like the records list, so a typo is a 400 naming it."""
from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import RAISE, Schema, fields, validate

from records import trail
from records.cases import CASE_LIMITS, OUTCOMES, STATUSES
from records.receipts import OUTCOMES as RECEIPT_OUTCOMES
from records.search import MAX_QUERY
from records.trail_pages import TrailQuery
from web import clock
from web.errors import ApiError
from web.numbers import Number, ROW_ID_MAX, WholeNumber, query_values

MAX_AMOUNT = 1_000_000_000
"""Largest payment a decision orders (points)."""


ZONE_DAY = "inclusive; a day of the service's zone (TIME_ZONE, +08:00 unless configured), as the pages show times"
"""What a date filter on a service stamp means (issue 33.2)."""


class ReceiptQuerySchema(Schema):
    """Query string of `GET /api/receipts` and `/receipts`."""

    class Meta:
        unknown = RAISE

    q = fields.String(validate=validate.Length(max=MAX_QUERY),
                      metadata={"description": "fragment of the game id, uploader, source, platform or outcome"})
    outcome = fields.String(validate=validate.OneOf(RECEIPT_OUTCOMES))
    platform = fields.String(validate=validate.Length(max=200))
    date_from = fields.Date(metadata={"description": ZONE_DAY})
    date_to = fields.Date(metadata={"description": ZONE_DAY})
    page = Number(low=1, high=1_000_000, load_default=1)
    per_page = Number(low=1, high=200, load_default=50)
    lang = fields.String(validate=validate.OneOf(["zh", "en"]))


class ReceiptErrorSchema(Schema):
    """One error of a refused item."""

    code = fields.String(allow_none=True)
    path = fields.String(allow_none=True)
    message = fields.String(allow_none=True)


class ReceiptSchema(Schema):
    """What was submitted, by whom, when, and what became of it."""

    id = fields.Integer()
    at = fields.String(metadata={"description": "UTC (ISO 8601, `Z`); pages show it in the service's zone"})
    uploader = fields.String(allow_none=True)
    actor = fields.String(allow_none=True)
    source = fields.String()
    file = fields.String()
    member = fields.String(allow_none=True)
    line = fields.Integer(allow_none=True)
    hand = fields.Integer(allow_none=True)
    game_id = fields.String(allow_none=True)
    platform = fields.String(allow_none=True)
    sha256 = fields.String(allow_none=True)
    outcome = fields.String(validate=validate.OneOf(RECEIPT_OUTCOMES))
    record_id = fields.Integer(allow_none=True)
    revision = fields.Integer(allow_none=True)
    error_codes = fields.List(fields.String())
    errors = fields.List(fields.Nested(ReceiptErrorSchema))


class ReceiptPageSchema(Schema):
    """One page of receipts, newest first, with counts per outcome."""

    receipts = fields.List(fields.Nested(ReceiptSchema))
    total = fields.Integer()
    page = fields.Integer()
    per_page = fields.Integer()
    pages = fields.Integer()
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())


class CaseRequestSchema(Schema):
    """Body of `POST /api/cases`."""

    class Meta:
        unknown = RAISE

    number = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=CASE_LIMITS["number"]),
                           metadata={"description": "unique per platform; left out (or blank): the platform's next "
                                                    "number, YYYY-NNNN (records.cases.next_number)"})
    platform = fields.String(required=True, validate=validate.Length(max=CASE_LIMITS["platform"]))
    player = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=CASE_LIMITS["player"]))
    complaint = fields.String(required=True, validate=validate.Length(min=1, max=CASE_LIMITS["complaint"]))


class AttachRequestSchema(Schema):
    """Body of `POST /api/cases/<id>/records`."""

    class Meta:
        unknown = RAISE

    record = WholeNumber(required=True, low=1, high=ROW_ID_MAX)
    revision = WholeNumber(load_default=None, allow_none=True, low=1, high=1_000_000,
                           metadata={"description": "another revision of the same game"})


class PaymentSchema(Schema):
    """Who owes whom how much, as decided."""

    class Meta:
        unknown = RAISE

    from_ = fields.String(required=True, data_key="from", validate=validate.Length(min=1, max=200))
    to = fields.String(required=True, validate=validate.Length(min=1, max=200))
    amount = WholeNumber(required=True, low=1, high=MAX_AMOUNT)


class DecisionRequestSchema(Schema):
    """Body of `POST /api/cases/<id>/decision`."""

    class Meta:
        unknown = RAISE

    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))
    note = fields.String(required=True, validate=validate.Length(min=1, max=CASE_LIMITS["note"]))
    payments = fields.List(fields.Nested(PaymentSchema), load_default=list, validate=validate.Length(max=20))
    audit = WholeNumber(load_default=None, allow_none=True, low=1, high=ROW_ID_MAX,
                        metadata={"description": "the audit the decision rests on (an audit of an attached record)"})


class CaseQuerySchema(Schema):
    """Query string of `GET /api/cases` and `/cases`."""

    class Meta:
        unknown = RAISE

    status = fields.String(validate=validate.OneOf(STATUSES))
    platform = fields.String(validate=validate.Length(max=200))
    number = fields.String(validate=validate.Length(max=CASE_LIMITS["number"]))
    q = fields.String(validate=validate.Length(max=MAX_QUERY))
    page = Number(low=1, high=1_000_000, load_default=1)
    per_page = Number(low=1, high=200, load_default=50)
    lang = fields.String(validate=validate.OneOf(["zh", "en"]))


class TrailQuerySchema(Schema):
    """Query string of the admin trail page."""

    class Meta:
        unknown = RAISE

    actor = fields.String(validate=validate.Length(max=200))
    action = fields.String(validate=validate.OneOf(trail.ACTIONS))
    record = Number(low=1, high=ROW_ID_MAX)
    date_from = fields.Date(metadata={"description": ZONE_DAY})
    date_to = fields.Date(metadata={"description": ZONE_DAY})
    page = Number(low=1, high=1_000_000, load_default=1)
    per_page = Number(low=1, high=500, load_default=100)
    lang = fields.String(validate=validate.OneOf(["zh", "en"]))


def trail_query() -> TrailQuery:
    """The admin trail page's query string, checked (a bad value is a 400 naming it)."""
    values = query_values(TrailQuerySchema(), request.args)
    if "record" in values:
        values["record_id"] = values.pop("record")
    return TrailQuery(**values, zone=clock.zone())
