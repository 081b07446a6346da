"""Marshmallow schemas of the JSON API: they shape the responses, check the inputs
and are the single source of `/api/openapi.json`.

The audit schemas describe the contract of record-format.md; the audit JSON
itself is returned as the engine produced it, so these only document it.
"""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from records import cases, trail
from records.queries import NO_CASE, SORTS
from records.receipts import STATUSES
from records.rows import UNAUDITED, VERDICTS
from records.search import MAX_QUERY
from web.numbers import Number


def _is_current(row: dict[str, Any]) -> bool:
    """SQLite stores the flag as 0/1; the API says true/false."""
    return bool(row.get("is_current"))


class FindingSchema(Schema):
    """One problem the audit found (contract)."""

    step = fields.Integer(allow_none=True, metadata={"description": "event index, null for record-level"})
    seat = fields.Integer(allow_none=True)
    rule = fields.String(metadata={"description": "rulebook section, e.g. R8.3"})
    kind = fields.String(validate=validate.OneOf(["schema", "illegal", "missettled"]))
    code = fields.String(metadata={"description": "stable snake_case name of the problem (format 1.1; "
                                                  "docs/findings.md lists every code)"})
    params = fields.Dict(metadata={"description": "the named values the message is made from"})
    message = fields.String(metadata={"description": "rendered from code and params in the asked language "
                                                     "(?lang= or Accept-Language; English by default)"})
    expected = fields.Raw(allow_none=True)
    actual = fields.Raw(allow_none=True)


class ItemSchema(Schema):
    """One payment of the computed settlement (contract)."""

    kind = fields.String(metadata={"description": "hand, dealer, dou, chicken, hot_shot, draw_settle or follow_dealer"})
    from_ = fields.Integer(data_key="from", attribute="from")
    to = fields.Integer()
    amount = fields.Integer()
    rule = fields.String()
    code = fields.String(metadata={"description": "the note's code (docs/findings.md, settlement notes)"})
    params = fields.Dict(metadata={"description": "the named values the note is made from"})
    note = fields.String(allow_none=True, metadata={"description": "rendered in the asked language"})


class SettlementSchema(Schema):
    """What the rules say the result is (contract)."""

    scores = fields.List(fields.Integer())
    next_dealer = fields.Integer()
    next_dealer_streak = fields.Integer()
    flip = fields.String(allow_none=True)
    items = fields.List(fields.Nested(ItemSchema))


class AuditSchema(Schema):
    """The contract audit JSON of one hand."""

    game_id = fields.String(allow_none=True)
    profile = fields.String(allow_none=True)
    verdict = fields.String(validate=validate.OneOf(VERDICTS))
    findings = fields.List(fields.Nested(FindingSchema))
    settlement = fields.Nested(SettlementSchema, allow_none=True)


class AuditRowSchema(Schema):
    """A stored audit: the contract JSON plus how and when it was made."""

    id = fields.Integer()
    record_id = fields.Integer()
    profile = fields.String(allow_none=True)
    options = fields.Dict(allow_none=True)
    engine_version = fields.String()
    verdict = fields.String()
    created_at = fields.String()
    audit = fields.Nested(AuditSchema)


class SeatSchema(Schema):
    """A seat as stored for the player filter."""

    seat = fields.Integer()
    name = fields.String(allow_none=True)
    player_id = fields.String(allow_none=True)


class RevisionSchema(Schema):
    """One stored revision of a game."""

    id = fields.Integer()
    revision = fields.Integer()
    current = fields.Function(_is_current, metadata={"type": "boolean"})
    sha256 = fields.String()
    uploaded_at = fields.String()
    uploader = fields.String(allow_none=True)
    source = fields.String(allow_none=True)
    verdict = fields.String(allow_none=True)


class RecordSummarySchema(Schema):
    """A record as listed: identity, searchable fields and the latest verdict."""

    id = fields.Integer()
    platform = fields.String(metadata={"description": "'' when the record names none"})
    game_id = fields.String()
    revision = fields.Integer()
    current = fields.Function(_is_current, metadata={"type": "boolean"})
    client = fields.String(allow_none=True)
    profile = fields.String(allow_none=True, metadata={"description": "the profile the record names"})
    audit_profile = fields.String(allow_none=True, metadata={"description": "the profile of the latest audit"})
    played_at = fields.String(allow_none=True, metadata={"description": "as recorded, with its own offset"})
    played_utc = fields.String(allow_none=True, metadata={"description": "the same instant in UTC (sort key)"})
    player_names = fields.String(attribute="players", allow_none=True)
    dealer = fields.Integer(allow_none=True)
    dealer_streak = fields.Integer(allow_none=True)
    base = fields.Integer(allow_none=True)
    verdict = fields.String(allow_none=True)
    rules = fields.Method("rule_list", metadata={"type": "array", "items": {"type": "string"}})
    findings_count = fields.Integer(allow_none=True)
    sha256 = fields.String()
    uploaded_at = fields.String()
    uploader = fields.String(allow_none=True)
    source = fields.String(allow_none=True)
    match_id = fields.Integer(allow_none=True)
    match_index = fields.Integer(allow_none=True)

    def rule_list(self, row: dict[str, Any]) -> list[str]:
        """Rule codes of the latest audit's findings."""
        return (row.get("rules") or "").split()


class RecordDetailSchema(RecordSummarySchema):
    """A record with its seats, revisions, audits and the document itself."""

    seats = fields.List(fields.Nested(SeatSchema))
    revisions = fields.List(fields.Nested(RevisionSchema))
    audits = fields.List(fields.Nested(AuditRowSchema))
    audit = fields.Nested(AuditSchema, metadata={"description": "the latest audit"})
    document = fields.Raw(metadata={"description": "the record as received, parsed"})


class RecordPageSchema(Schema):
    """One page of the records list with counts per verdict."""

    records = fields.List(fields.Nested(RecordSummarySchema))
    total = fields.Integer()
    page = fields.Integer()
    per_page = fields.Integer()
    pages = fields.Integer()
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())
    exact = fields.Boolean(metadata={"description": "false when counting stopped early: total and counts are "
                                                    "then lower bounds (ask again with exact=true)"})


class UploadErrorSchema(Schema):
    """Why an item of an upload was not stored."""

    code = fields.String(metadata={"description": "json, encoding, format, schema, limit, junk, archive, engine or store"})
    message = fields.String(metadata={"description": "names the file, member, line and JSON path"})
    path = fields.String(allow_none=True, metadata={"description": "JSON path from the schema check"})
    rule = fields.String(allow_none=True)
    line = fields.Integer(allow_none=True, metadata={"description": "line of a JSON syntax error"})
    column = fields.Integer(allow_none=True)
    problem = fields.String(allow_none=True, metadata={
        "description": "what is wrong, as a stable code (records/problems.toml, or a schema code of the finding "
                       "catalogue); `message` is its text in the request's language"})
    params = fields.Dict(allow_none=True, metadata={"description": "the values the message is made from"})


class HandResultSchema(Schema):
    """What happened to one hand (or one bad item) of an upload."""

    source = fields.String(metadata={"description": "file!member:line#hands[i]"})
    file = fields.String()
    member = fields.String(allow_none=True)
    line = fields.Integer(allow_none=True)
    hand = fields.Integer(allow_none=True)
    status = fields.String(validate=validate.OneOf(STATUSES))
    record_id = fields.Integer(allow_none=True)
    game_id = fields.String(allow_none=True)
    platform = fields.String(allow_none=True)
    revision = fields.Integer(allow_none=True)
    verdict = fields.String(allow_none=True)
    sha256 = fields.String(allow_none=True, metadata={"description": "of the item's bytes, when they were read"})
    errors = fields.List(fields.Nested(UploadErrorSchema))


class UploadResponseSchema(Schema):
    """Per-hand results of an upload and how many ended in each status."""

    results = fields.List(fields.Nested(HandResultSchema))
    summary = fields.Dict(keys=fields.String(), values=fields.Integer())


class ErrorSchema(Schema):
    """Every 4xx/5xx of the API."""

    status = fields.Integer()
    error = fields.String()
    code = fields.String(metadata={"description": "what went wrong, as a stable code (web/errors.toml)"})
    message = fields.String(metadata={"description": "in the request's language (?lang=, Accept-Language)"})
    details = fields.Raw(allow_none=True)
    code = fields.String(metadata={"description": "stable code of the problem where one is given "
                                                  "(number_not_digits, number_out_of_range, number_missing, ...)"})


class ReauditRequestSchema(Schema):
    """Body of POST /api/records/<id>/audit; both fields may be omitted."""

    class Meta:
        unknown = RAISE

    profile = fields.String(allow_none=True, load_default=None)
    options = fields.Dict(keys=fields.String(), allow_none=True, load_default=None)
    reason = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=1000),
                           metadata={"description": "why this audit becomes the latest (kept in the trail)"})


class ListQuerySchema(Schema):
    """Query string of the records list (HTML and JSON alike)."""

    class Meta:
        unknown = RAISE

    verdict = fields.String(validate=validate.OneOf(VERDICTS + (UNAUDITED,)))
    profile = fields.String()
    rule = fields.String(validate=validate.Regexp(r"^[A-Z][0-9]*(\.[0-9]+)*$",
                                                  error="Not a rule number such as R8 or R8.3."),
                         metadata={"description": "R8 (section) or R8.3 (rule)"})
    platform = fields.String()
    client = fields.String(metadata={"description": "prefix"})
    player = fields.String(metadata={"description": "exact name or player id"})
    date_from = fields.Date(metadata={"description": "inclusive; the date the record's played_at gives"})
    date_to = fields.Date(metadata={"description": "inclusive; the date the record's played_at gives"})
    game_id = fields.String(metadata={"description": "prefix"})
    q = fields.String(validate=validate.Length(max=MAX_QUERY),
                      metadata={"description": "fragment of the game id, a player name or id, the platform or "
                                               "the client; any case or width"})
    case = fields.String(validate=validate.Length(max=64), metadata={"description": "case number"})
    case_status = fields.String(validate=validate.OneOf([NO_CASE, *cases.STATUSES]),
                                metadata={"description": "status of a case the record is attached to (open, "
                                                         "decided, closed), or none: attached to no case"})
    revisions = fields.String(validate=validate.OneOf(["current", "all"]), load_default=None,
                              metadata={"description": "current: the current revision of each game; all: every "
                                                       "revision; left out: every revision when searching "
                                                       "(q, game_id or case), else the current ones"})
    sort = fields.String(validate=validate.OneOf(sorted(SORTS)), load_default="id")
    order = fields.String(validate=validate.OneOf(["asc", "desc"]), load_default="desc")
    page = Number(low=1, high=1_000_000, load_default=1,
                  metadata={"description": "capped so the offset stays a SQLite integer"})
    per_page = Number(low=1, high=200, load_default=50)
    exact = fields.Boolean(load_default=False,
                           metadata={"description": "count every match, however long it takes (a mix of filters "
                                                    "no tally answers is otherwise counted within a budget)"})
    lang = fields.String(validate=validate.OneOf(["zh", "en"]), metadata={"description": "UI language"})


# ----- the trail and the notes (web.trail) ------------------------------------------------------


class NoteSchema(Schema):
    """An auditor's note on a record; never edited, a correction is a new note."""

    id = fields.Integer()
    author = fields.String()
    case_number = fields.String(allow_none=True)
    decision = fields.String(validate=validate.OneOf(trail.DECISIONS))
    text = fields.String()
    created_at = fields.String()


class NoteRequestSchema(Schema):
    """The body of `POST /api/records/<id>/notes`."""

    class Meta:
        unknown = RAISE

    case_number = fields.String(load_default=None, allow_none=True,
                                validate=validate.Length(max=trail.NOTE_LIMITS["case_number"]))
    decision = fields.String(load_default="open", validate=validate.OneOf(trail.DECISIONS))
    text = fields.String(required=True, validate=validate.Length(min=1, max=trail.NOTE_LIMITS["text"]))


class TrailEntrySchema(Schema):
    """One row of the append-only trail."""

    id = fields.Integer()
    at = fields.String()
    actor = fields.String()
    action = fields.String(validate=validate.OneOf(trail.ACTIONS))
    record_id = fields.Integer(allow_none=True)
    detail = fields.Dict(allow_none=True)
