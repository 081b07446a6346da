"""Schema check of `zhuoji/1` hand records and `zhuoji-match/1` matches.

The format (shared/spec/record-format.md) is a contract with platforms: a
record must be accepted exactly when it follows it, and every deviation must be
reported with the JSON path an operator can look up. The marshmallow schemas
below are the source of truth for the structure and for every structural
message. Checks that relate one field to another (seat indexes against the
number of seats, one score per seat, the R1.1 seat count and the R1.2 tile
accounting) are plain functions that run on the raw document afterwards.

marshmallow is slow (a few ms for a 100-event record), and nearly every record
an audit sees is well formed, so `validate_record` first runs a hand-written
structural check (`audit.structure.structure_ok`) that only answers "would marshmallow find
nothing?". Only when it says no does marshmallow run to produce the messages.
tests/test_schema.py checks that the two always agree.

Every problem carries a catalogue code and its params (audit/catalogue/findings.toml):
the validators raise `Msg`, a str (the English text marshmallow passes along)
that also holds the code and params; the few plain strings marshmallow
produces itself (unknown field, missing field) are mapped to codes by `_MARSHMALLOW`.
"""

from __future__ import annotations

import reprlib
import re
import sys
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema
from marshmallow.exceptions import SCHEMA
from marshmallow.utils import missing

from audit.catalogue import Lang, finding_message
from audit.kinds import EventType, MeldKind
from audit.ranges import BASE, DEALER_STREAK, DIE, POINTS
from audit.structure import (
    EVENT_TYPES,
    GAME_ID,
    ITEM_KINDS,
    KONG_KINDS,
    MATCH_FORMAT,
    RECORD_FORMAT,
    SEAT_COUNTS,
    TILE_CODES,
    TILES,
    WIN_KINDS,
    cross_ok,
    is_int,
    is_iso,
    is_tile_list,
    structure_ok,
)

__all__ = ["TILE_CODES", "SchemaError", "validate_match", "validate_record"]

_GAME_ID_CHARS = re.compile(r"[A-Za-z0-9._:-]*\Z")

UNKNOWN_FIELD = "unknown field"
MISSING_FIELD = "missing required field"
MAX_REPR = 40

# One global field order, valid at every level of the format (the tables of
# record-format.md read top to bottom), so errors sort in document order.
_FIELD_ORDER = (
    "format", "table_id", "hands", "game_id", "played_at", "platform", "client",
    "rules", "profile", "options", "base", "seats", "name", "player_id",
    "dealer", "dealer_streak", "dice", "deal", "wall", "events", "type", "seat",
    "tile", "kind", "from", "to", "amount", "note", "t", "result", "scores",
    "next_dealer", "flip", "items", "extra",
)
_RANK = {name: i for i, name in enumerate(_FIELD_ORDER)}

Part = str | int


class Msg(str):
    """A problem as marshmallow carries it (a str: the code) with its catalogue code and params.

    The words are rendered only when asked (`SchemaError.text`)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> "Msg":
        self = super().__new__(cls, code)
        self.code, self.params = code, params
        return self


Problem = tuple[tuple[Part, ...], Msg, str | None]

_MARSHMALLOW: dict[str, str] = {UNKNOWN_FIELD: "unknown_field", MISSING_FIELD: "missing_field"}
"""marshmallow's own messages (set through `error_messages`) -> codes."""


@dataclass(frozen=True)
class SchemaError:
    """One problem of a document: where (JSON path), what (a catalogue code and its params,
    `path` among them), and which rule if any."""

    path: str
    code: str
    params: dict[str, Any]
    rule: str | None

    @property
    def message(self) -> str:
        """What is wrong, in English, without the path."""
        return self.text(Lang.EN)

    def text(self, lang: Lang | str) -> str:
        """What is wrong, in `lang`, without the path or the rule."""
        return finding_message(self.code, {**self.params, "path": ""}, None, lang)


def as_msg(message: object) -> Msg:
    """A marshmallow message as a Msg: ours already are; marshmallow's own are mapped to codes."""
    if isinstance(message, Msg):
        return message
    text = str(message)
    code = _MARSHMALLOW.get(text)
    return Msg(code) if code is not None else Msg("unexpected_schema_message", text=text)


# ---------------------------------------------------------------- messages


def short(value: object) -> str:
    """repr of a bad value, cut to 40 chars, so a message stays one readable line.

    Never raises: documents may hold huge ints (repr fails past 4300 digits),
    deeply nested lists (repr recurses) or objects with a broken __repr__.
    """
    try:
        text = repr(value[:MAX_REPR + 1]) if isinstance(value, str) else _REPR.repr(value)
    except Exception:  # noqa: BLE001 - any failure of repr must not escape
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


def _make_repr() -> reprlib.Repr:
    """A depth- and size-limited repr for lists and objects inside messages."""
    limited = reprlib.Repr()
    limited.maxlevel, limited.maxlist, limited.maxdict = 2, 4, 3
    limited.maxstring = limited.maxother = limited.maxlong = MAX_REPR
    return limited


_REPR = _make_repr()


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


def _schema_problems(schema: Schema, doc: object) -> list[Problem]:
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


# ---------------------------------------------------------------- cross-field checks


def _cross_problems(doc: object) -> list[Problem]:
    """Checks across fields, on the raw document: each skips what is malformed."""
    if not isinstance(doc, dict):
        return []
    seats = doc.get("seats")
    if not isinstance(seats, list):
        return []
    if len(seats) not in SEAT_COUNTS:
        return [(("seats",), Msg("seat_count", seats=len(seats)), "R1.1")]
    n = len(seats)
    return [*_seat_index_problems(doc, n), *_count_problems(doc, n), *_tile_problems(doc, n)]


def _seat_index_problems(doc: dict, n: int) -> list[Problem]:
    """Seat indexes must name a seat of this table (non-ints are schema errors already)."""
    return [
        (where, Msg("seat_out_of_range", got=short(seat), seats=n), None)
        for where, seat in (*_top_seat_refs(doc), *_event_seat_refs(doc.get("events"), n))
        if is_int(seat) and not 0 <= seat < n
    ]


def _top_seat_refs(doc: dict) -> Iterator[tuple[tuple[Part, ...], object]]:
    """The seat indexes outside `events`, with their paths."""
    yield ("dealer",), doc.get("dealer")
    result = doc.get("result")
    if not isinstance(result, dict):
        return
    yield ("result", "next_dealer"), result.get("next_dealer")
    items = result.get("items")
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if isinstance(item, dict):
            yield ("result", "items", i, "from"), item.get("from")
            yield ("result", "items", i, "to"), item.get("to")


def _event_seat_refs(events: object, n: int) -> Iterator[tuple[tuple[Part, ...], object]]:
    """The suspicious `seat`/`from` values of events; the usual all-in-range list costs one pass."""
    valid = range(n)
    if not isinstance(events, list) or all(
        e.get("seat") in valid and e.get("from", 0) in valid for e in events if isinstance(e, dict)
    ):
        return
    for i, event in enumerate(events):
        if isinstance(event, dict):
            yield ("events", i, "seat"), event.get("seat")
            yield ("events", i, "from"), event.get("from")


def _count_problems(doc: dict, n: int) -> Iterator[Problem]:
    """One hand per seat in `deal`, one score per seat in `result.scores`."""
    deal = doc.get("deal")
    if isinstance(deal, list) and len(deal) != n:
        yield ("deal",), Msg("deal_count", hands=len(deal), seats=n), None
    result = doc.get("result")
    scores = result.get("scores") if isinstance(result, dict) else None
    if isinstance(scores, list) and len(scores) != n:
        yield ("result", "scores"), Msg("scores_count", scores=len(scores), seats=n), None


def _tile_problems(doc: dict, n: int) -> list[Problem]:
    """R1.2: dealer 14 tiles, others 13, and deal + wall exactly four of each tile.

    Only judged when deal, wall and dealer are well formed: otherwise the
    counts would describe a document the schema already rejected. A wrong
    tile mix is reported at `wall` when every hand has the right size (the
    wall holds the rest), at `deal` when the hand sizes are already off.
    """
    deal, wall, dealer = doc.get("deal"), doc.get("wall"), doc.get("dealer")
    if not (is_int(dealer) and 0 <= dealer < n and isinstance(deal, list) and len(deal) == n):
        return []
    if not (all(is_tile_list(hand) for hand in deal) and is_tile_list(wall)):
        return []
    problems: list[Problem] = []
    for seat, hand in enumerate(deal):
        expected = 14 if seat == dealer else 13
        if len(hand) != expected:
            message = Msg("hand_size", seat=seat, count=len(hand), want=expected)
            problems.append((("deal", seat), message, "R1.2"))
    off = _tiles_off(deal, wall)
    if off:
        problems.append((("deal",) if problems else ("wall",), Msg("tile_counts", off=off), "R1.2"))
    return problems


def _tiles_off(deal: list[list[str]], wall: list[str]) -> list[list[Any]]:
    """[[tile, count], ...] of the tiles deal + wall do not hold four of (empty when all do)."""
    counts = Counter(wall)
    for hand in deal:
        counts.update(hand)
    return [[t, counts[t]] for t in TILE_CODES if counts[t] != 4]


# ---------------------------------------------------------------- ordering and public API


def _sort_key(parts: tuple[Part, ...], doc: object) -> tuple[tuple[int, int, int], ...]:
    """Document order: indexes numerically, known fields by the format tables,
    unknown fields after them in the order the document has them."""
    key = []
    node = doc
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            key.append((0, part, 0))
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
        else:
            key.append((1, _RANK.get(str(part), len(_RANK)), _doc_position(node, part)))
            node = node.get(part) if isinstance(node, dict) else None
    return tuple(key)


def _doc_position(node: object, part: Part) -> int:
    """Where an unknown key sits in its object (0 when not applicable)."""
    if part in _RANK or not isinstance(node, dict):
        return 0
    for i, name in enumerate(node):
        if name == part:
            return i
    return 0


def _path(parts: tuple[Part, ...]) -> str:
    """("result", "items", 2, "kind") -> "result.items[2].kind"."""
    text = ""
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _finish(problems: list[Problem], doc: object) -> list[SchemaError]:
    """Sort into document order (stable: same-path messages keep their order)."""
    problems.sort(key=lambda p: _sort_key(p[0], doc))
    out = []
    for parts, message, rule in problems:
        path = _path(parts)
        out.append(SchemaError(path, message.code, {"path": path, **message.params}, rule))
    return out


def _record_problems(doc: object) -> list[Problem]:
    """Unsorted problems of one record: structure (fast path or marshmallow), then cross checks."""
    if structure_ok(doc):
        assert isinstance(doc, dict)
        return [] if cross_ok(doc) else _cross_problems(doc)
    return _schema_problems(_RECORD, doc) + _cross_problems(doc)


def _guarded(check: Callable[[object], list[Problem]], doc: object) -> list[Problem]:
    """Last line of defence: the validator must never raise, whatever it is given.

    Tests assert this message never appears for JSON input; it exists so that a
    bug here turns into an `invalid` record instead of a crashed audit.
    """
    try:
        return check(doc)
    except Exception as err:  # noqa: BLE001
        return [((), Msg("internal_validator_error", error=type(err).__name__), None)]


def validate_record(doc: object) -> list[SchemaError]:
    """Every problem of a parsed JSON document against zhuoji/1, in document order; [] when valid."""
    return _finish(_guarded(_record_problems, doc), doc)


def _match_problems(doc: object) -> list[Problem]:
    """The match envelope, then each hand as a record with its path prefixed."""
    problems = _schema_problems(_MATCH, doc)
    hands = doc.get("hands") if isinstance(doc, dict) else None
    for i, hand in enumerate(hands if isinstance(hands, list) else ()):
        problems += [(("hands", i, *parts), m, r) for parts, m, r in _guarded(_record_problems, hand)]
    return problems


def validate_match(doc: object) -> list[SchemaError]:
    """For {"format": "zhuoji-match/1", "table_id"?: str, "hands": [record, ...], "extra"?: {}}:
    paths inside hands are prefixed "hands[3].events[2].tile"."""
    return _finish(_guarded(_match_problems, doc), doc)
