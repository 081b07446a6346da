"""The fast structural check of a `zhuoji/1` record: "would marshmallow find nothing?"

marshmallow (`audit/schema.py`) is the source of truth for the structure and
for every message, but it is slow (a few ms for a 100-event record), and nearly
every record an audit sees is well formed. This module answers only yes or no,
in a form the build compiles with mypyc (`make native`, see docs/performance.md):
documents are `Any` here because they are whatever JSON the client sent.
tests/test_schema.py checks that the two always agree.

It also holds the format's constant vocabularies as the plain str tuples the
schemas' `OneOf` and this check read, derived from `audit.kinds` (the one
source of the words) and `audit.tiles` (the one tile vocabulary). The check
compares raw JSON strings, so it binds each value it needs to a `Final` str
here: no enum is touched per event.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any, Final, TypeGuard

from audit import kinds
from audit.kinds import EventType, ItemKind, MeldKind, WinKind
from audit.ranges import BASE, DEALER_STREAK, POINTS
from audit.tiles import CODES

TILE_CODES: Final[tuple[str, ...]] = CODES
TILES: Final = frozenset(TILE_CODES)

RECORD_FORMAT: Final = "zhuoji/1"
MATCH_FORMAT: Final = "zhuoji-match/1"
EVENT_TYPES: Final[tuple[str, ...]] = tuple(e.value for e in EventType)
KONG_KINDS: Final[tuple[str, ...]] = tuple(k.value for k in kinds.KONG_KINDS)
WIN_KINDS: Final[tuple[str, ...]] = tuple(k.value for k in WinKind)
ITEM_KINDS: Final[tuple[str, ...]] = tuple(k.value for k in ItemKind)
_DRAW: Final[str] = EventType.DRAW.value
_DISCARD: Final[str] = EventType.DISCARD.value
_KONG: Final[str] = EventType.KONG.value
_WIN: Final[str] = EventType.WIN.value
_EXPOSED: Final[str] = MeldKind.EXPOSED.value
_IN_HAND_KONGS: Final[tuple[str, ...]] = (MeldKind.CONCEALED.value, MeldKind.ADDED.value)
"""The kongs made from the own hand: no `from`."""
SEAT_COUNTS: Final = (3, 4)
GAME_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,128}\Z")


def is_iso(value: str) -> bool:
    """played_at is free metadata, but it must at least parse as an ISO date-time."""
    try:
        datetime.fromisoformat(value)
    except (ValueError, TypeError, OverflowError):
        return False
    return True


def _has_keys(obj: dict[str, Any], allowed: frozenset[str], required: frozenset[str]) -> bool:
    """No unknown field and every required one present."""
    return obj.keys() <= allowed and required <= obj.keys()


def is_int(value: object) -> TypeGuard[int]:
    """Booleans are ints in Python, never in this format."""
    return isinstance(value, int) and not isinstance(value, bool)


def _opt(obj: dict[str, Any], key: str, check: Callable[[Any], bool]) -> bool:
    """An optional field passes when absent or when `check` accepts it."""
    return key not in obj or check(obj[key])


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _is_obj(value: object) -> bool:
    return isinstance(value, dict)


def _is_tile(value: object) -> bool:
    return isinstance(value, str) and value in TILES


def is_tile_list(value: object) -> TypeGuard[list[str]]:
    """A list of tile codes: one set inclusion (only strings are in TILES; an
    unhashable element raises TypeError, which also means no)."""
    if not isinstance(value, list):
        return False
    try:
        return TILES.issuperset(value)
    except TypeError:
        return False


_TOP_KEYS: Final = frozenset((
    "format", "game_id", "played_at", "platform", "client", "rules", "base", "seats", "dealer",
    "dealer_streak", "dice", "deal", "wall", "events", "result", "extra",
))
_TOP_REQUIRED: Final = frozenset(("format", "game_id", "rules", "seats", "dealer", "deal", "wall", "events", "result"))
_SEAT_KEYS: Final = frozenset(("name", "player_id", "extra"))
_RULES_KEYS: Final = frozenset(("profile", "options"))
_RESULT_KEYS: Final = frozenset(("scores", "next_dealer", "flip", "items", "extra"))
_ITEM_KEYS: Final = frozenset(("kind", "from", "to", "amount", "note"))
_ITEM_REQUIRED: Final = frozenset(("kind", "from", "to", "amount"))
_NAME: Final = frozenset(("name",))
_PROFILE: Final = frozenset(("profile",))
_RESULT_REQUIRED: Final = frozenset(("scores", "next_dealer"))
_BASE_EVENT: Final = frozenset(("type", "seat", "t", "extra"))
_EVENT_KEYS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    _DRAW: (_BASE_EVENT | {"tile"}, frozenset(("type", "seat", "tile"))),
    _DISCARD: (_BASE_EVENT | {"tile"}, frozenset(("type", "seat", "tile"))),
    EventType.DECLARE.value: (_BASE_EVENT, frozenset(("type", "seat"))),
    EventType.PASS.value: (_BASE_EVENT, frozenset(("type", "seat"))),
    EventType.PONG.value: (_BASE_EVENT | {"tile", "from"}, frozenset(("type", "seat", "tile"))),
    _KONG: (_BASE_EVENT | {"tile", "kind", "from"}, frozenset(("type", "seat", "tile", "kind"))),
    _WIN: (_BASE_EVENT | {"tile", "kind"}, frozenset(("type", "seat", "tile"))),
}


def _event_ok(event: Any) -> bool:
    """Fast twin of `Event`: the fields of its type, each of the right kind.

    Written for speed (a record has ~100 events): exact type tests, and an
    event made of its required fields only (the usual case) returns early.
    Being stricter than marshmallow (an int subclass fails here) is harmless:
    the document then simply goes through marshmallow.
    """
    if not isinstance(event, dict):
        return False
    kind = event.get("type")
    if not isinstance(kind, str):
        return False
    if kind == _DRAW or kind == _DISCARD:  # most events: type, seat, tile and perhaps t
        size = len(event)
        if size == 3 or (size == 4 and isinstance(event.get("t"), str)):
            tile = event.get("tile")
            return is_int(event.get("seat")) and isinstance(tile, str) and tile in TILES
    keys = _EVENT_KEYS.get(kind)
    if keys is None or not is_int(event.get("seat")):
        return False
    allowed, required = keys
    if "tile" in event:
        tile = event["tile"]
        if "tile" not in allowed or not isinstance(tile, str) or tile not in TILES:
            return False
    elif "tile" in required:
        return False
    if len(event) == len(required) and kind != _KONG:
        return True  # type, seat and tile (if any) are exactly the required fields
    for key in event:
        if key not in allowed:
            return False
    if "from" in event and not is_int(event["from"]):
        return False
    if "t" in event and not isinstance(event["t"], str):
        return False
    if "extra" in event and not isinstance(event["extra"], dict):
        return False
    return _event_kind_ok(kind, event)


def _event_kind_ok(kind: str, event: dict[str, Any]) -> bool:
    """kong/win `kind` values, and `from` only on an exposed kong."""
    if kind == _KONG:
        value = event.get("kind")
        return value == _EXPOSED or (value in _IN_HAND_KONGS and "from" not in event)
    if kind == _WIN:
        return _opt(event, "kind", lambda value: isinstance(value, str) and value in WIN_KINDS)
    return True


def _seat_ok(seat: object) -> bool:
    """Fast twin of SeatSchema."""
    return (
        isinstance(seat, dict)
        and _has_keys(seat, _SEAT_KEYS, _NAME)
        and isinstance(seat["name"], str)
        and _opt(seat, "player_id", _is_str)
        and _opt(seat, "extra", _is_obj)
    )


def _rules_ok(rules: object) -> bool:
    """Fast twin of RulesSchema."""
    return (
        isinstance(rules, dict)
        and _has_keys(rules, _RULES_KEYS, _PROFILE)
        and isinstance(rules["profile"], str)
        and rules["profile"] != ""
        and _opt(rules, "options", _is_obj)
    )


def _item_ok(item: object) -> bool:
    """Fast twin of ItemSchema."""
    return (
        isinstance(item, dict)
        and _has_keys(item, _ITEM_KEYS, _ITEM_REQUIRED)
        and isinstance(item["kind"], str)
        and item["kind"] in ITEM_KINDS
        and is_int(item["from"])
        and is_int(item["to"])
        and is_int(item["amount"])
        and POINTS.low <= item["amount"] <= POINTS.high
        and _opt(item, "note", _is_str)
    )


def _result_ok(result: object) -> bool:
    """Fast twin of ResultSchema."""
    return (
        isinstance(result, dict)
        and _has_keys(result, _RESULT_KEYS, _RESULT_REQUIRED)
        and isinstance(result["scores"], list)
        and all(is_int(s) and POINTS.low <= s <= POINTS.high for s in result["scores"])
        and is_int(result["next_dealer"])
        and _opt(result, "flip", lambda flip: flip is None or _is_tile(flip))
        and _opt(result, "items", lambda i: isinstance(i, list) and all(_item_ok(x) for x in i))
        and _opt(result, "extra", _is_obj)
    )


def _metadata_ok(doc: dict[str, Any]) -> bool:
    """Fast twin of the scalar top-level fields of RecordSchema."""
    return (
        doc["format"] == RECORD_FORMAT
        and isinstance(doc["game_id"], str)
        and GAME_ID.match(doc["game_id"]) is not None
        and _opt(doc, "played_at", lambda p: isinstance(p, str) and is_iso(p))
        and _opt(doc, "platform", _is_str)
        and _opt(doc, "client", _is_str)
        and _opt(doc, "base", lambda b: is_int(b) and BASE.low <= b <= BASE.high)
        and is_int(doc["dealer"])
        and _opt(doc, "dealer_streak", lambda s: is_int(s) and DEALER_STREAK.low <= s <= DEALER_STREAK.high)
        and _opt(doc, "dice", _dice_ok)
        and _opt(doc, "extra", _is_obj)
    )


def _dice_ok(dice: object) -> bool:
    return isinstance(dice, list) and len(dice) == 2 and all(is_int(d) and 1 <= d <= 6 for d in dice)


def structure_ok(doc: Any) -> bool:
    """True exactly when RecordSchema would report nothing; ~15x faster than asking it."""
    return (
        isinstance(doc, dict)
        and _has_keys(doc, _TOP_KEYS, _TOP_REQUIRED)
        and _metadata_ok(doc)
        and _rules_ok(doc["rules"])
        and isinstance(doc["seats"], list)
        and all(_seat_ok(s) for s in doc["seats"])
        and isinstance(doc["deal"], list)
        and all(is_tile_list(hand) for hand in doc["deal"])
        and is_tile_list(doc["wall"])
        and isinstance(doc["events"], list)
        and all(_event_ok(e) for e in doc["events"])
        and _result_ok(doc["result"])
    )


def cross_ok(doc: dict[str, Any]) -> bool:
    """True exactly when the cross-field checks of `audit.schema` find nothing.

    Only for a document `structure_ok` accepted (so every field has its type):
    R1.1 seat count, every seat index in range, one hand and one score per
    seat, R1.2 hand sizes and four of each tile. The messages, when this says
    no, come from `audit.schema`.
    """
    n = len(doc["seats"])
    if n != 3 and n != 4:
        return False
    dealer = doc["dealer"]
    result = doc["result"]
    deal = doc["deal"]
    if not (0 <= dealer < n and 0 <= result["next_dealer"] < n and len(result["scores"]) == n and len(deal) == n):
        return False
    for item in result.get("items", ()):
        if not (0 <= item["from"] < n and 0 <= item["to"] < n):
            return False
    for event in doc["events"]:
        if not 0 <= event["seat"] < n or ("from" in event and not 0 <= event["from"] < n):
            return False
    for seat in range(n):
        if len(deal[seat]) != (14 if seat == dealer else 13):
            return False
    counts = Counter(doc["wall"])  # counted in C, a third of the cost of a loop here
    for hand in deal:
        counts.update(hand)
    return len(counts) == len(TILE_CODES) and all(count == 4 for count in counts.values())
