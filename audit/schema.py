"""Schema check of `zhuoji/1` hand records and `zhuoji-match/1` matches.

The format (shared/spec/record-format.md) is a contract with platforms: a
record must be accepted exactly when it follows it, and every deviation must be
reported with the JSON path an operator can look up. The marshmallow schemas
(`audit.schema_marshmallow`) are the source of truth for the structure and for
every structural message. Checks that relate one field to another (seat indexes
against the number of seats, one score per seat, the R1.1 seat count and the
R1.2 tile accounting) are plain functions here that run on the raw document afterwards.

marshmallow is slow (a few ms for a 100-event record, and about 0.15 s to import),
and nearly every record an audit sees is well formed, so `validate_record` first
runs a hand-written structural check (`audit.structure.structure_ok`) that only
answers "would marshmallow find nothing?"; a match's envelope has its own
(`envelope_ok`). Only when one says no is marshmallow imported and run, to
produce the messages (issue 35.6: a command over well-formed records never
imports it). tests/audit/test_schema.py checks that the two always agree.

Every problem carries a catalogue code and its params (audit/catalogue/findings.toml):
the validators raise `Msg`, a str (the English text marshmallow passes along)
that also holds the code and params.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from audit.catalogue import Lang, finding_message
from audit.schema_problems import Msg, Part, Problem, short
from audit.structure import MATCH_FORMAT, SEAT_COUNTS, TILE_CODES, cross_ok, is_int, is_tile_list, structure_ok

__all__ = ["TILE_CODES", "SchemaError", "envelope_ok", "validate_match", "validate_record"]

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
    from audit.schema_marshmallow import record_problems  # only for a record the fast path refuses

    return record_problems(doc) + _cross_problems(doc)


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


_ENVELOPE_KEYS: Final = frozenset({"format", "table_id", "hands", "extra"})


def envelope_ok(doc: object) -> bool:
    """True exactly when marshmallow finds nothing wrong with a match's envelope (its hands aside):
    an object of the format's keys, the match format, at least one hand, a string `table_id` and an
    object `extra` where they are given."""
    return (isinstance(doc, dict) and doc.keys() <= _ENVELOPE_KEYS and doc.get("format") == MATCH_FORMAT
            and isinstance(doc.get("hands"), list) and len(doc["hands"]) > 0
            and isinstance(doc.get("table_id", ""), str) and isinstance(doc.get("extra", {}), dict))


def _match_problems(doc: object) -> list[Problem]:
    """The match envelope, then each hand as a record with its path prefixed."""
    problems: list[Problem] = []
    if not envelope_ok(doc):
        from audit.schema_marshmallow import match_problems  # only for an envelope the fast path refuses

        problems = match_problems(doc)
    hands = doc.get("hands") if isinstance(doc, dict) else None
    for i, hand in enumerate(hands if isinstance(hands, list) else ()):
        problems += [(("hands", i, *parts), m, r) for parts, m, r in _guarded(_record_problems, hand)]
    return problems


def validate_match(doc: object) -> list[SchemaError]:
    """For {"format": "zhuoji-match/1", "table_id"?: str, "hands": [record, ...], "extra"?: {}}:
    paths inside hands are prefixed "hands[3].events[2].tile"."""
    return _finish(_guarded(_match_problems, doc), doc)
