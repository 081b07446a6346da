"""The marshmallow schemas of `zhuoji/1` and `zhuoji-match/1`: the source of truth for the
structure and its messages (`audit.schema` is the public face).

Imported only when a hand-written fast path (`audit.structure.structure_ok`,
`audit.schema.envelope_ok`) refuses a document: marshmallow itself costs about 0.15 s
to import, and a command over well-formed records need not pay it (issue 35.6).

The validators raise `Msg`; the few plain strings marshmallow produces itself
(unknown field, missing field) are mapped to codes by `_MARSHMALLOW`.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Container, Iterable, Iterator
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema
from marshmallow.exceptions import SCHEMA
from marshmallow.utils import missing

from audit.kinds import EventType, MeldKind
from audit.ranges import BASE, DEALER_STREAK, DIE, POINTS
from audit.schema_problems import Msg, Part, Problem, short
from audit.structure import (
    EVENT_TYPES,
    GAME_ID,
    ITEM_KINDS,
    KONG_KINDS,
    MATCH_FORMAT,
    RECORD_FORMAT,
    TILES,
    WIN_KINDS,
    is_int,
    is_iso,
)

_GAME_ID_CHARS = re.compile(r"[A-Za-z0-9._:-]*\Z")

UNKNOWN_FIELD = "unknown field"
MISSING_FIELD = "missing required field"
_MARSHMALLOW: dict[str, str] = {UNKNOWN_FIELD: "unknown_field", MISSING_FIELD: "missing_field"}
"""marshmallow's own messages (set through `error_messages`) -> codes."""


def as_msg(message: object) -> Msg:
    """A marshmallow message as a Msg: ours already are; marshmallow's own are mapped to codes."""
    if isinstance(message, Msg):
        return message
    text = str(message)
    code = _MARSHMALLOW.get(text)
    return Msg(code) if code is not None else Msg("unexpected_schema_message", text=text)


# ---------------------------------------------------------------- fields


class _Base(fields.Field):
    """Common behaviour: our wording for missing, null and wrongly typed values."""

    what = "value"
    default_error_messages = {"required": MISSING_FIELD}

    def _type_error(self, value: object) -> ValidationError:
        """The error for a value of the wrong JSON type, showing the value."""
        return ValidationError(Msg("wrong_type", type=self.what, got=short(value)))

    def _validate_missing(self, value: object) -> None:
        """A null where a value is expected is a type error, not a separate kind."""
        if value is missing and self.required:
            raise self.make_error("required")
        if value is None and not self.allow_none:
            raise self._type_error(None)


class Int(_Base):
    """A JSON integer; booleans and floats (even 2.0) are refused."""

    what = "integer"

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._type_error(value)
        return value


class Str(_Base):
    """A JSON string."""

    what = "string"

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise self._type_error(value)
        return value


class Obj(_Base):
    """A JSON object with anything inside (`extra`, `rules.options`): kept, not judged."""

    what = "object"

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict:
        if not isinstance(value, dict):
            raise self._type_error(value)
        return value


class AnyValue(_Base):
    """Any value at all; the caller validates it separately (match hands)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return value


class Tile(_Base):
    """One of the 27 tile codes `1m`..`9s`."""

    what = "tile"

    def _type_error(self, value: object) -> ValidationError:
        return ValidationError(Msg("not_a_tile", got=short(value)))

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str) or value not in TILES:
            raise self._type_error(value)
        return value


class ListOf(_Base, fields.List):
    """A JSON list whose size problem is reported together with its items' problems.

    marshmallow runs list validators only when every item is valid; a record
    with both a wrong die count and a bad die must show both.
    """

    what = "list"

    def __init__(
        self,
        inner: fields.Field,
        *,
        sizes: Container[int] | None = None,
        size_error: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(inner, **kwargs)
        self.sizes, self.size_error = sizes, size_error

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list:
        if not isinstance(value, list):
            raise self._type_error(value)
        size_msg = Msg(self.size_error, count=len(value)) if self.sizes is not None and len(value) not in self.sizes \
            else None
        try:
            loaded = super()._deserialize(value, attr, data, **kwargs)
        except ValidationError as err:
            if size_msg is not None:
                raise ValidationError({SCHEMA: [size_msg], **err.messages}) from err  # type: ignore[dict-item]  # a list's errors are a dict
            raise
        if size_msg is not None:
            raise ValidationError(size_msg)
        return loaded


class NestedObj(_Base, fields.Nested):
    """A nested object checked by its own schema; a non-object is a type error here."""

    what = "object"

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if not isinstance(value, dict):
            raise self._type_error(value)
        return super()._deserialize(value, attr, data, **kwargs)


# ---------------------------------------------------------------- validators


class OneOf(validate.OneOf):
    """validate.OneOf with our message: code `not_one_of`, the value shown as a cut repr.

    Formatting a raw 5000-digit int raises ValueError, and a raw string loses
    its quotes; both would break the message style.
    """

    def __init__(self, choices: Iterable[str]) -> None:
        super().__init__(choices)

    def _format_error(self, value: Any) -> str:
        return Msg("not_one_of", choices=[str(c) for c in self.choices], got=short(value))


class Range(validate.Range):
    """validate.Range with a catalogue code of its own (and safe for 5000-digit ints)."""

    def __init__(self, min: int, max: int | None = None, *, code: str) -> None:  # noqa: A002 - marshmallow's names
        super().__init__(min, max)
        self.code = code

    def _format_error(self, value: Any, message: str) -> str:
        if is_int(value) and self.max is not None and value > self.max and self.code != "die_out_of_range":
            return Msg("int_out_of_range", got=short(value), low=self.min, high=self.max)  # too big, not too small
        if self.code == "int_out_of_range":
            return Msg(self.code, got=short(value), low=self.min, high=self.max)
        return Msg(self.code, got=short(value))


class Equal(validate.Equal):
    """validate.Equal with our message: code `wrong_format`."""

    def __init__(self, expected: str) -> None:
        super().__init__(expected)

    def _format_error(self, value: Any) -> str:
        return Msg("wrong_format", want=self.comparable, got=short(value))


def _check_game_id(value: str) -> None:
    """1-128 chars of A-Za-z0-9._:- ; both problems are named if both occur."""
    if GAME_ID.match(value):
        return
    problems = []
    if not 1 <= len(value) <= 128:
        problems.append(Msg("game_id_length", length=len(value)))
    if not _GAME_ID_CHARS.match(value):
        problems.append(Msg("game_id_chars", got=short(value)))
    raise ValidationError(problems)  # type: ignore[arg-type]  # a list of str subclasses


def _check_iso(value: str) -> None:
    """marshmallow validator wrapper of `_is_iso`."""
    if not is_iso(value):
        raise ValidationError(Msg("not_iso", got=short(value)))


def _non_empty(value: str) -> None:
    """rules.profile names a profile; which ones exist is checked elsewhere."""
    if not value:
        raise ValidationError(Msg("empty_string"))


# ---------------------------------------------------------------- schemas


class _Strict(Schema):
    """Every object of the format refuses unknown fields (except inside `extra`)."""

    error_messages = {"unknown": UNKNOWN_FIELD, "type": "must be an object"}

    class Meta:
        unknown = RAISE


class RulesSchema(_Strict):
    profile = Str(required=True, validate=_non_empty)
    options = Obj()


class SeatSchema(_Strict):
    name = Str(required=True)
    player_id = Str()
    extra = Obj()


class _EventSchema(_Strict):
    """Fields every event has; subclasses add the fields of one type."""

    type = Str(required=True, validate=OneOf(EVENT_TYPES))
    seat = Int(required=True)
    t = Str()
    extra = Obj()


class TileEventSchema(_EventSchema):
    """draw and discard."""

    tile = Tile(required=True)


class PongSchema(TileEventSchema):
    from_ = Int(data_key="from")


class KongSchema(TileEventSchema):
    kind = Str(required=True, validate=OneOf(KONG_KINDS))
    from_ = Int(data_key="from")

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def _from_only_when_exposed(self, data: Any, original: Any, **kwargs: Any) -> None:
        """Only an exposed kong takes a tile from another seat (record-format.md)."""
        if isinstance(original, dict) and "from" in original:
            if original.get("kind") in (MeldKind.CONCEALED, MeldKind.ADDED):
                raise ValidationError(Msg("from_not_allowed"), "from")


class WinSchema(TileEventSchema):
    kind = Str(validate=OneOf(WIN_KINDS))


class UntypedEventSchema(_EventSchema):
    """An event whose type is missing or wrong: still check what can be checked."""

    tile = Tile()
    kind = Str()
    from_ = Int(data_key="from")


_EVENT_SCHEMAS: dict[str, Schema] = {
    EventType.DRAW.value: TileEventSchema(),
    EventType.DISCARD.value: TileEventSchema(),
    EventType.DECLARE.value: _EventSchema(),
    EventType.PASS.value: _EventSchema(),
    EventType.PONG.value: PongSchema(),
    EventType.KONG.value: KongSchema(),
    EventType.WIN.value: WinSchema(),
}
_UNTYPED_EVENT = UntypedEventSchema()


class Event(_Base):
    """An event, checked by the schema of its `type`: fields differ per type."""

    what = "object"

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if not isinstance(value, dict):
            raise self._type_error(value)
        kind = value.get("type")
        schema = _EVENT_SCHEMAS.get(kind, _UNTYPED_EVENT) if isinstance(kind, str) else _UNTYPED_EVENT
        try:
            return schema.load(value)
        except ValidationError as err:
            raise ValidationError(err.messages) from err


class ItemSchema(_Strict):
    kind = Str(required=True, validate=OneOf(ITEM_KINDS))
    from_ = Int(required=True, data_key="from")
    to = Int(required=True)
    amount = Int(required=True, validate=Range(POINTS.low, POINTS.high, code="int_out_of_range"))
    note = Str()


class ResultSchema(_Strict):
    scores = ListOf(Int(validate=Range(POINTS.low, POINTS.high, code="int_out_of_range")), required=True)
    next_dealer = Int(required=True)
    flip = Tile(allow_none=True)
    items = ListOf(NestedObj(ItemSchema))
    extra = Obj()


class RecordSchema(_Strict):
    """The top level of a `zhuoji/1` record, field for field as the format table."""

    format = Str(required=True, validate=Equal(RECORD_FORMAT))
    game_id = Str(required=True, validate=_check_game_id)
    played_at = Str(validate=_check_iso)
    platform = Str()
    client = Str()
    rules = NestedObj(RulesSchema, required=True)
    base = Int(validate=Range(BASE.low, BASE.high, code="not_positive"))
    seats = ListOf(NestedObj(SeatSchema), required=True)
    dealer = Int(required=True)
    dealer_streak = Int(validate=Range(DEALER_STREAK.low, DEALER_STREAK.high, code="negative"))
    dice = ListOf(
        Int(validate=Range(DIE.low, DIE.high, code="die_out_of_range")),
        sizes=(2,),
        size_error="dice_count",
    )
    deal = ListOf(ListOf(Tile()), required=True)
    wall = ListOf(Tile(), required=True)
    events = ListOf(Event(), required=True)
    result = NestedObj(ResultSchema, required=True)
    extra = Obj()


class MatchSchema(_Strict):
    """`zhuoji-match/1`: hands are checked one by one by validate_record."""

    format = Str(required=True, validate=Equal(MATCH_FORMAT))
    table_id = Str()
    hands = ListOf(
        AnyValue(allow_none=True),
        required=True,
        sizes=range(1, sys.maxsize),
        size_error="no_hands",
    )
    extra = Obj()


_RECORD = RecordSchema()
_MATCH = MatchSchema()


# ---------------------------------------------------------------- marshmallow errors -> problems


def schema_problems(schema: Schema, doc: object) -> list[Problem]:
    """Run a marshmallow schema and flatten its nested error dict into paths."""
    if not isinstance(doc, dict):
        return [((), Msg("wrong_type", type="object", got=short(doc)), None)]
    try:
        schema.load(doc)
    except ValidationError as err:
        return list(_flatten(err.messages, ()))
    return []


def _flatten(messages: Any, where: tuple[Part, ...]) -> Iterator[Problem]:
    """{"events": {17: {"tile": ["not a tile"]}}} -> (("events", 17, "tile"), "not a tile")."""
    if isinstance(messages, dict):
        for key, sub in messages.items():
            if key == SCHEMA:
                yield from _flatten_schema_key(sub, where)
            else:
                yield from _flatten(sub, (*where, key))
    elif isinstance(messages, list):
        for message in messages:
            yield from _flatten(message, where)
    else:
        yield (where, as_msg(messages), None)


def _flatten_schema_key(messages: Any, where: tuple[Part, ...]) -> Iterator[Problem]:
    """`_schema` holds errors of the object itself, or of a document key named `_schema`."""
    for where_, message, rule in _flatten(messages, where):
        if message.code == "unknown_field" and where_ == where:
            where_ = (*where, SCHEMA)
        yield (where_, message, rule)


def record_problems(doc: object) -> list[Problem]:
    """The structural problems marshmallow finds in one record (the cross checks aside)."""
    return schema_problems(_RECORD, doc)


def match_problems(doc: object) -> list[Problem]:
    """The problems marshmallow finds in a match's envelope (its hands aside)."""
    return schema_problems(_MATCH, doc)
