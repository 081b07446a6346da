"""Tests of audit.schema: the zhuoji/1 contract (shared/spec/record-format.md).

Valid records must pass untouched; each mutation must be reported at its
exact JSON path (and rule, for R1.1/R1.2); nothing may ever raise; and the
hand-written fast path must agree with the marshmallow schema, which is the
source of truth for the messages.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The project has no conftest/pyproject setting pythonpath yet: make `records`
# importable when run as `.venv/bin/pytest tests/audit/test_schema.py`.
if str(Path(__file__).resolve().parents[2]) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from audit.catalogue import LANGS  # noqa: E402
from audit.structure import cross_ok, structure_ok  # noqa: E402
from audit.schema import (  # noqa: E402
    _cross_problems,
    TILE_CODES,
    SchemaError,
    envelope_ok,
    validate_match,
    validate_record,
)
from audit.schema_marshmallow import _MATCH, _RECORD, schema_problems as _schema_problems  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SPEC = Path("/work/shared/spec")
RECORD_FILES = sorted(
    p
    for p in [*SPEC.glob("examples/*.json"), *SPEC.glob("reference/*.json")]
    if not p.name.endswith(".audit.json")
)
BASE_FILE = SPEC / "reference" / "ref-cuocuo-90210-0003.json"  # 4 seats, dealer 1, items, pong from, kong, pass
THREE_SEAT_FILE = SPEC / "reference" / "ref-guizhou-90210-0003.json"

Doc = dict[str, Any]


def load(path: Path) -> Doc:
    return json.loads(path.read_text(encoding="utf-8"))


BASE: Doc = load(BASE_FILE)


def base() -> Doc:
    """A fresh deep copy of the base record, for one mutation."""
    return copy.deepcopy(BASE)


def index_of(doc: Doc, event_type: str, **fields: Any) -> int:
    """Index of the first event of `kind` with the given fields (keeps tests readable)."""
    for i, event in enumerate(doc["events"]):
        if event["type"] == event_type and all(event.get(k) == v for k, v in fields.items()):
            return i
    raise LookupError(event_type)


DISCARD = index_of(BASE, "discard")
PONG_FROM = next(i for i, e in enumerate(BASE["events"]) if e["type"] == "pong" and "from" in e)
KONG = index_of(BASE, "kong", kind="concealed")
WIN = index_of(BASE, "win")
PASS = index_of(BASE, "pass")
DEALER = BASE["dealer"]


def pairs(errors: list[SchemaError]) -> list[tuple[str, str | None]]:
    return [(e.path, e.rule) for e in errors]


def agree(doc: object) -> None:
    """The fast path says 'fine' exactly when marshmallow finds nothing."""
    assert structure_ok(doc) == (_schema_problems(_RECORD, doc) == []), doc


# ---------------------------------------------------------------- valid records


def test_tile_codes() -> None:
    assert len(TILE_CODES) == 27
    assert TILE_CODES[:3] == ("1m", "2m", "3m")
    assert TILE_CODES[-1] == "9s"
    assert len(set(TILE_CODES)) == 27


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.name)
def test_example_and_reference_records_are_valid(path: Path) -> None:
    doc = load(path)
    assert validate_record(doc) == []
    assert _schema_problems(_RECORD, doc) == []  # marshmallow agrees, not only the fast path
    assert structure_ok(doc)


def test_three_seat_reference_is_valid() -> None:
    doc = load(THREE_SEAT_FILE)
    assert len(doc["seats"]) == 3
    assert validate_record(doc) == []


def set_path(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


VALID_VARIANTS: list[tuple[str, Callable[[Doc], Any]]] = [
    ("extra top", lambda d: d.update(extra={"anything": [1, {"x": None}]})),
    ("extra seat", lambda d: d["seats"][2].update(extra={"vip": True})),
    ("extra event", lambda d: d["events"][0].update(extra={"ms": 12})),
    ("extra result", lambda d: d["result"].update(extra={"room": "a"})),
    ("t on event", lambda d: d["events"][DISCARD].update(t="2026-11-29T20:15:00+08:00")),
    ("options", lambda d: d["rules"].update(options={"chicken.charge": 3, "flip": "up_down"})),
    ("unknown profile name is not judged here", lambda d: d["rules"].update(profile="my-club")),
    ("flip null", lambda d: d["result"].update(flip=None)),
    ("no optional fields", lambda d: [d.pop(k, None) for k in ("played_at", "platform", "client", "base", "dealer_streak", "dice")]),
    ("no items", lambda d: d["result"].pop("items")),
    ("empty items", lambda d: d["result"].update(items=[])),
    ("item note", lambda d: d["result"]["items"][0].update(note="平胡")),
    ("scores need not sum to zero", lambda d: d["result"]["scores"].__setitem__(0, 999)),
    ("played_at date only", lambda d: d.update(played_at="2026-11-29")),
    ("game_id limits", lambda d: d.update(game_id="a" * 128)),
    ("game_id chars", lambda d: d.update(game_id="Az09._:-")),
    ("win without kind", lambda d: d["events"][WIN].pop("kind")),
    ("pong without from", lambda d: d["events"][PONG_FROM].pop("from")),
    ("exposed kong with from", lambda d: d["events"].__setitem__(KONG, {"type": "kong", "seat": 0, "tile": "1m", "kind": "exposed", "from": 2})),
    ("negative amount", lambda d: d["result"]["items"][0].update(amount=-3)),
    ("empty name", lambda d: d["seats"][0].update(name="")),
    ("largest base", lambda d: d.update(base=1_000_000)),  # audit/ranges.py; 10**30 is refused now (issue 22.2)
    ("largest streak", lambda d: d.update(dealer_streak=1_000)),
]


@pytest.mark.parametrize("mutate", [m for _, m in VALID_VARIANTS], ids=[n for n, _ in VALID_VARIANTS])
def test_allowed_variants_stay_valid(mutate: Callable[[Doc], Any]) -> None:
    doc = base()
    mutate(doc)
    assert validate_record(doc) == []
    agree(doc)


# ---------------------------------------------------------------- single mutations


def move_dealer_tile_to_wall(d: Doc) -> None:
    d["wall"].append(d["deal"][DEALER].pop())


def fifth_copy(d: Doc) -> None:
    """Turn one wall tile into another tile: one tile 5 times, another 3 times."""
    d["wall"][0] = "5m" if d["wall"][0] != "5m" else "6m"


MUTATIONS: list[tuple[str, Callable[[Doc], Any], list[tuple[str, str | None]]]] = [
    ("format", lambda d: d.update(format="zhuoji/2"), [("format", None)]),
    ("format missing", lambda d: d.pop("format"), [("format", None)]),
    ("game_id chars", lambda d: d.update(game_id="tbl 7/x"), [("game_id", None)]),
    ("game_id 129", lambda d: d.update(game_id="a" * 129), [("game_id", None)]),
    ("game_id empty", lambda d: d.update(game_id=""), [("game_id", None)]),
    ("game_id trailing newline", lambda d: d.update(game_id="abc\n"), [("game_id", None)]),
    ("game_id int", lambda d: d.update(game_id=7), [("game_id", None)]),
    ("unknown top field", lambda d: d.update(comment="hi"), [("comment", None)]),
    ("played_at not iso", lambda d: d.update(played_at="yesterday"), [("played_at", None)]),
    ("played_at int", lambda d: d.update(played_at=20261129), [("played_at", None)]),
    ("platform null", lambda d: d.update(platform=None), [("platform", None)]),
    ("rules missing", lambda d: d.pop("rules"), [("rules", None)]),
    ("rules not object", lambda d: d.update(rules="weile"), [("rules", None)]),
    ("profile empty", lambda d: d["rules"].update(profile=""), [("rules.profile", None)]),
    ("profile missing", lambda d: d["rules"].pop("profile"), [("rules.profile", None)]),
    ("options list", lambda d: d["rules"].update(options=[]), [("rules.options", None)]),
    ("rules unknown", lambda d: d["rules"].update(variant=1), [("rules.variant", None)]),
    ("base 0", lambda d: d.update(base=0), [("base", None)]),
    ("base negative", lambda d: d.update(base=-2), [("base", None)]),
    ("base float", lambda d: d.update(base=1.0), [("base", None)]),
    ("base bool", lambda d: d.update(base=True), [("base", None)]),
    ("base past its range", lambda d: d.update(base=1_000_001), [("base", None)]),
    ("base near 2**63", lambda d: d.update(base=2**63 - 1), [("base", None)]),
    ("streak past its range", lambda d: d.update(dealer_streak=1_001), [("dealer_streak", None)]),
    ("score past 2**53", lambda d: d["result"]["scores"].__setitem__(0, 2**53), [("result.scores[0]", None)]),
    ("seats 5", lambda d: d["seats"].append({"name": "E"}), [("seats", "R1.1")]),
    ("seats 2", lambda d: d.update(seats=d["seats"][:2]), [("seats", "R1.1")]),
    ("seats not list", lambda d: d.update(seats={"name": "A"}), [("seats", None)]),
    ("seat name missing", lambda d: d["seats"][1].pop("name"), [("seats[1].name", None)]),
    ("seat name int", lambda d: d["seats"][1].update(name=5), [("seats[1].name", None)]),
    ("seat unknown", lambda d: d["seats"][1].update(nick="x"), [("seats[1].nick", None)]),
    ("seat not object", lambda d: d["seats"].__setitem__(2, "C"), [("seats[2]", None)]),
    ("player_id int", lambda d: d["seats"][0].update(player_id=1001), [("seats[0].player_id", None)]),
    ("seat extra list", lambda d: d["seats"][0].update(extra=[]), [("seats[0].extra", None)]),
    ("dealer out of range", lambda d: d.update(dealer=4), [("dealer", None)]),
    ("dealer negative", lambda d: d.update(dealer=-1), [("dealer", None)]),
    ("dealer bool", lambda d: d.update(dealer=True), [("dealer", None)]),
    ("dealer string", lambda d: d.update(dealer="1"), [("dealer", None)]),
    ("dealer_streak negative", lambda d: d.update(dealer_streak=-1), [("dealer_streak", None)]),
    ("dice one", lambda d: d.update(dice=[3]), [("dice", None)]),
    ("dice three", lambda d: d.update(dice=[1, 2, 3]), [("dice", None)]),
    ("dice 0", lambda d: d.update(dice=[0, 3]), [("dice[0]", None)]),
    ("dice 7", lambda d: d.update(dice=[3, 7]), [("dice[1]", None)]),
    ("dice bool", lambda d: d.update(dice=[True, 3]), [("dice[0]", None)]),
    ("dice string", lambda d: d.update(dice="35"), [("dice", None)]),
    ("bad tile in deal", lambda d: d["deal"][2].__setitem__(3, "10m"), [("deal[2][3]", None)]),
    ("honour tile in deal", lambda d: d["deal"][0].__setitem__(0, "E"), [("deal[0][0]", None)]),
    ("hand not list", lambda d: d["deal"].__setitem__(1, "1m2m"), [("deal[1]", None)]),
    ("deal one hand short", lambda d: d["deal"].pop(), [("deal", None)]),
    ("bad tile in wall", lambda d: d["wall"].__setitem__(5, "0p"), [("wall[5]", None)]),
    ("wall tile int", lambda d: d["wall"].__setitem__(5, 5), [("wall[5]", None)]),
    ("wall missing", lambda d: d.pop("wall"), [("wall", None)]),
    ("bad tile in event", lambda d: d["events"][DISCARD].update(tile="10m"), [(f"events[{DISCARD}].tile", None)]),
    ("missing tile on discard", lambda d: d["events"][DISCARD].pop("tile"), [(f"events[{DISCARD}].tile", None)]),
    ("tile null on discard", lambda d: d["events"][DISCARD].update(tile=None), [(f"events[{DISCARD}].tile", None)]),
    ("tile on pass", lambda d: d["events"][PASS].update(tile="1m"), [(f"events[{PASS}].tile", None)]),
    ("kind on draw", lambda d: d["events"][DISCARD].update(kind="x"), [(f"events[{DISCARD}].kind", None)]),
    ("from on concealed kong", lambda d: d["events"][KONG].update({"from": 0}), [(f"events[{KONG}].from", None)]),
    ("from on added kong", lambda d: d["events"][KONG].update({"from": 0, "kind": "added"}), [(f"events[{KONG}].from", None)]),
    ("kong kind invalid", lambda d: d["events"][KONG].update(kind="hidden"), [(f"events[{KONG}].kind", None)]),
    ("kong kind missing", lambda d: d["events"][KONG].pop("kind"), [(f"events[{KONG}].kind", None)]),
    ("win kind invalid", lambda d: d["events"][WIN].update(kind="tsumo"), [(f"events[{WIN}].kind", None)]),
    ("event type invalid", lambda d: d["events"][DISCARD].update(type="chow"), [(f"events[{DISCARD}].type", None)]),
    ("event type missing", lambda d: d["events"][DISCARD].pop("type"), [(f"events[{DISCARD}].type", None)]),
    ("event type list", lambda d: d["events"][DISCARD].update(type=["discard"]), [(f"events[{DISCARD}].type", None)]),
    ("event seat missing", lambda d: d["events"][DISCARD].pop("seat"), [(f"events[{DISCARD}].seat", None)]),
    ("event seat out of range", lambda d: d["events"][DISCARD].update(seat=4), [(f"events[{DISCARD}].seat", None)]),
    ("event seat bool", lambda d: d["events"][DISCARD].update(seat=False), [(f"events[{DISCARD}].seat", None)]),
    ("pong from out of range", lambda d: d["events"][PONG_FROM].update({"from": 9}), [(f"events[{PONG_FROM}].from", None)]),
    ("pong from string", lambda d: d["events"][PONG_FROM].update({"from": "1"}), [(f"events[{PONG_FROM}].from", None)]),
    ("event t int", lambda d: d["events"][0].update(t=1), [("events[0].t", None)]),
    ("event extra string", lambda d: d["events"][0].update(extra="x"), [("events[0].extra", None)]),
    ("event unknown", lambda d: d["events"][0].update(who="me"), [("events[0].who", None)]),
    ("event not object", lambda d: d["events"].__setitem__(1, ["draw", 0]), [("events[1]", None)]),
    ("event null", lambda d: d["events"].__setitem__(1, None), [("events[1]", None)]),
    ("events not list", lambda d: d.update(events={"0": {}}), [("events", None)]),
    ("result missing", lambda d: d.pop("result"), [("result", None)]),
    ("result list", lambda d: d.update(result=[]), [("result", None)]),
    ("scores wrong length", lambda d: d["result"]["scores"].pop(), [("result.scores", None)]),
    ("scores float", lambda d: d["result"]["scores"].__setitem__(1, 2.5), [("result.scores[1]", None)]),
    ("scores bool", lambda d: d["result"]["scores"].__setitem__(1, True), [("result.scores[1]", None)]),
    ("scores missing", lambda d: d["result"].pop("scores"), [("result.scores", None)]),
    ("next_dealer out of range", lambda d: d["result"].update(next_dealer=7), [("result.next_dealer", None)]),
    ("next_dealer missing", lambda d: d["result"].pop("next_dealer"), [("result.next_dealer", None)]),
    ("flip bad", lambda d: d["result"].update(flip="0m"), [("result.flip", None)]),
    ("items not list", lambda d: d["result"].update(items={}), [("result.items", None)]),
    ("item kind invalid", lambda d: d["result"]["items"][2].update(kind="bonus"), [("result.items[2].kind", None)]),
    ("item from out of range", lambda d: d["result"]["items"][0].update({"from": 4}), [("result.items[0].from", None)]),
    ("item to negative", lambda d: d["result"]["items"][0].update(to=-1), [("result.items[0].to", None)]),
    ("item amount missing", lambda d: d["result"]["items"][0].pop("amount"), [("result.items[0].amount", None)]),
    ("item extra not allowed", lambda d: d["result"]["items"][0].update(extra={}), [("result.items[0].extra", None)]),
    ("result unknown", lambda d: d["result"].update(total=0), [("result.total", None)]),
    ("extra not object", lambda d: d.update(extra="x"), [("extra", None)]),
    ("R1.2 dealer 13 tiles", move_dealer_tile_to_wall, [(f"deal[{DEALER}]", "R1.2")]),
    ("R1.2 dealer tile lost", lambda d: d["deal"][DEALER].pop(), [("deal", "R1.2"), (f"deal[{DEALER}]", "R1.2")]),
    ("R1.2 fifth copy", fifth_copy, [("wall", "R1.2")]),
    ("R1.2 wall short", lambda d: d["wall"].pop(), [("wall", "R1.2")]),
]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [(m, e) for _, m, e in MUTATIONS],
    ids=[n for n, _, _ in MUTATIONS],
)
def test_mutation_is_reported_at_its_path(
    mutate: Callable[[Doc], Any], expected: list[tuple[str, str | None]]
) -> None:
    doc = base()
    mutate(doc)
    errors = validate_record(doc)
    assert pairs(errors) == expected
    for e in errors:  # every problem has a code whose text renders in every language
        assert e.params["path"] == e.path and all(e.text(lang) for lang in LANGS)
        assert e.message and e.message == e.message.strip()
    agree(doc)


@pytest.mark.parametrize(
    ("mutate", "path", "code", "params"),
    [
        (lambda d: d["events"][DISCARD].update(tile="10m"), f"events[{DISCARD}].tile", "not_a_tile", {"got": "'10m'"}),
        (lambda d: d["events"][DISCARD].pop("tile"), f"events[{DISCARD}].tile", "missing_field", {}),
        (lambda d: d.update(comment=1), "comment", "unknown_field", {}),
        (lambda d: d["events"][DISCARD].update(seat=5), f"events[{DISCARD}].seat", "seat_out_of_range",
         {"got": "5", "seats": 4}),
        (lambda d: d.update(dealer=True), "dealer", "wrong_type", {"type": "integer", "got": "True"}),
        (lambda d: d.update(played_at="soon"), "played_at", "not_iso", {"got": "'soon'"}),
        (lambda d: d.update(seats=d["seats"] * 2), "seats", "seat_count", {"seats": 8}),
        (lambda d: d["deal"][2].pop(), "deal[2]", "hand_size", {"seat": 2, "count": 12, "want": 13}),
        (lambda d: d["wall"].__setitem__(0, "x" * 100), "wall[0]", "not_a_tile",
         {"got": "'" + "x" * 36 + "..."}),  # repr cut to 40 chars
        (lambda d: d.update(format="zhuoji/2"), "format", "wrong_format", {"want": "zhuoji/1", "got": "'zhuoji/2'"}),
        (lambda d: d["events"][KONG].update(kind="hidden"), f"events[{KONG}].kind", "not_one_of",
         {"choices": ["concealed", "added", "exposed"], "got": "'hidden'"}),
        (lambda d: d["events"][KONG].update({"from": 0}), f"events[{KONG}].from", "from_not_allowed", {}),
        (lambda d: d.update(base=0), "base", "not_positive", {"got": "0"}),
        (lambda d: d.update(dealer_streak=-1), "dealer_streak", "negative", {"got": "-1"}),
        (lambda d: d.update(dice=[3, 7]), "dice[1]", "die_out_of_range", {"got": "7"}),
        (lambda d: d.update(dice=[3]), "dice", "dice_count", {"count": 1}),
        (lambda d: d["rules"].update(profile=""), "rules.profile", "empty_string", {}),
        (lambda d: d["deal"].pop(), "deal", "deal_count", {"hands": 3, "seats": 4}),
        (lambda d: d["result"]["scores"].pop(), "result.scores", "scores_count", {"scores": 3, "seats": 4}),
        (lambda d: d.update(game_id="a b"), "game_id", "game_id_chars", {"got": "'a b'"}),
        (lambda d: d.update(game_id=""), "game_id", "game_id_length", {"length": 0}),
    ],
)
def test_codes(mutate: Callable[[Doc], Any], path: str, code: str, params: dict[str, Any]) -> None:
    doc = base()
    mutate(doc)
    errors = validate_record(doc)
    assert any((e.path, e.code, e.params) == (path, code, {"path": path, **params}) for e in errors), errors


def test_messages_are_short_even_for_huge_values() -> None:
    doc = base()
    doc["dealer"] = list(range(10_000))
    doc["wall"][0] = 10**5000
    for error in validate_record(doc):
        assert all(len(error.text(lang)) < 120 for lang in LANGS)


def test_tile_count_names_over_and_under() -> None:
    doc = base()
    old = doc["wall"][0]
    new = "5m" if old != "5m" else "6m"
    doc["wall"][0] = new
    (error,) = validate_record(doc)
    # tiles are named in TILE_CODES order
    off = sorted([[new, 5], [old, 3]], key=lambda pair: TILE_CODES.index(pair[0]))
    assert error == SchemaError("wall", "tile_counts", {"path": "wall", "off": off}, "R1.2")


def test_r12_not_judged_when_deal_is_malformed() -> None:
    doc = base()
    doc["deal"][0][0] = "10m"
    doc["deal"][1].pop()
    assert pairs(validate_record(doc)) == [("deal[0][0]", None)]


def test_r12_not_judged_when_dealer_is_bad() -> None:
    doc = base()
    doc["dealer"] = 9
    doc["deal"][1].pop()
    assert pairs(validate_record(doc)) == [("dealer", None)]


def test_seat_range_uses_the_tables_seat_count() -> None:
    doc = load(THREE_SEAT_FILE)
    doc["events"][0]["seat"] = 3
    assert validate_record(doc) == [SchemaError("events[0].seat", "seat_out_of_range",
                                                {"path": "events[0].seat", "got": "3", "seats": 3}, None)]


@pytest.mark.parametrize("root", [[], [BASE], None, "zhuoji/1", 3, 2.5, True, b"{}"], ids=repr)
def test_non_object_root(root: object) -> None:
    errors = validate_record(root)
    assert pairs(errors) == [("", None)]
    assert errors[0].code == "wrong_type" and errors[0].params["type"] == "object"


def test_empty_object_lists_every_required_field() -> None:
    assert pairs(validate_record({})) == [
        (name, None)
        for name in ("format", "game_id", "rules", "seats", "dealer", "deal", "wall", "events", "result")
    ]


def test_several_errors_all_reported_in_document_order() -> None:
    doc = base()
    doc["zzz"] = 1  # unknown fields sort after the known ones
    doc["result"]["items"][1]["kind"] = "tip"
    doc["events"][PASS]["tile"] = "1m"
    doc["events"][DISCARD]["tile"] = "10m"
    doc["wall"][3] = "10s"
    doc["seats"][3]["name"] = None
    doc["game_id"] = "bad id"
    doc["dice"] = [9, 9, 9]
    doc["base"] = 0
    doc["result"]["next_dealer"] = -1
    doc["aaa"] = 1
    first, second = sorted((DISCARD, PASS))
    assert pairs(validate_record(doc)) == [
        ("game_id", None),
        ("base", None),
        ("seats[3].name", None),
        ("dice", None),
        ("dice[0]", None),
        ("dice[1]", None),
        ("dice[2]", None),
        ("wall[3]", None),
        (f"events[{first}].tile", None),
        (f"events[{second}].tile", None),
        ("result.next_dealer", None),
        ("result.items[1].kind", None),
        ("zzz", None),
        ("aaa", None),
    ]


def test_game_id_with_both_problems_names_both() -> None:
    doc = base()
    doc["game_id"] = "x y" * 50
    errors = validate_record(doc)
    assert [(e.path, e.code) for e in errors] == [("game_id", "game_id_length"), ("game_id", "game_id_chars")]
    assert errors[0].params["length"] == 150


def test_document_key_named_schema_is_reported_as_unknown_field() -> None:
    doc = base()
    doc["events"][0]["_schema"] = 1
    assert validate_record(doc) == [SchemaError("events[0]._schema", "unknown_field", {"path": "events[0]._schema"}, None)]


def test_validate_record_does_not_modify_the_document() -> None:
    doc = base()
    doc["events"][DISCARD]["tile"] = "10m"
    snapshot = copy.deepcopy(doc)
    validate_record(doc)
    assert doc == snapshot


# ---------------------------------------------------------------- robustness


def deep_list(depth: int) -> list:
    node: list = []
    for _ in range(depth):
        node = [node]
    return node


def deep_dict(depth: int) -> dict:
    node: dict = {}
    for _ in range(depth):
        node = {"a": node}
    return node


@pytest.mark.parametrize("where", [("wall",), ("deal", 0), ("events", 0), ("extra",), ("events", 0, "extra"), ("result",), ("seats", 0, "name")])
@pytest.mark.parametrize("value", [deep_list(50_000), deep_dict(50_000)], ids=["list", "dict"])
def test_deeply_nested_values_never_raise(where: tuple[Any, ...], value: Any) -> None:
    doc = base()
    set_path(doc, where, value)
    errors = validate_record(doc)
    assert all(isinstance(e, SchemaError) for e in errors)
    assert not any(e.code == "internal_validator_error" for e in errors)
    for check in (validate_record, validate_match):
        assert check(value) and not any(e.code == "internal_validator_error" for e in check(value))


class Weird:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    "value",
    [Weird(), float("nan"), float("inf"), 10**5000, -(10**5000), {1: 2}, (1, 2), {"1m"}, b"1m"],
    ids=["bad-repr", "nan", "inf", "huge-int", "huge-negative", "int-key", "tuple", "set", "bytes"],
)
def test_odd_python_values_never_raise(value: Any) -> None:
    for where in [("dealer",), ("wall", 0), ("events", DISCARD, "tile"), ("events", DISCARD), ("dice",), ("result", "flip"), ("base",)]:
        doc = base()
        set_path(doc, where, value)
        errors = validate_record(doc)
        assert not any(e.code == "internal_validator_error" for e in errors)
        assert errors or where == ("base",)  # a 5000-digit base is a positive integer
    assert validate_record(value) and validate_match(value)


def all_paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every container slot of a document (tile lists sampled, to keep this small)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.append((*prefix, key))
            found.extend(all_paths(value, (*prefix, key)))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:6]):
            found.append((*prefix, i))
            found.extend(all_paths(value, (*prefix, i)))
    return found


BASE_PATHS = all_paths(BASE)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.just(5000).map(lambda digits: 10**digits)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from([*TILE_CODES, "10m", "", "draw", "pass", "kong", "exposed", "concealed", "rob", "hand", "zhuoji/1", "extra", "from", "_schema"])
    | st.integers(min_value=-1, max_value=5)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8) | st.sampled_from(["tile", "seat", "type", "kind", "from", "extra", "name"]), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(BASE_PATHS), value=json_values, action=st.sampled_from(["set", "delete", "add"]))
def test_random_values_at_random_places_never_raise(path: tuple[Any, ...], value: Any, action: str) -> None:
    doc = base()
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    if action == "set":
        parent[path[-1]] = value
    elif action == "delete":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent["new_field"] = value
    else:
        parent.append(value)
    errors = validate_record(doc)
    assert all(isinstance(e, SchemaError) and isinstance(e.path, str) for e in errors)
    assert not any(e.code in ("internal_validator_error", "unexpected_schema_message") for e in errors)
    agree(doc)
    match_errors = validate_match({"format": "zhuoji-match/1", "hands": [doc]})
    prefixed = [f"hands[0]{'.' if e.path and e.path[0] != '[' else ''}{e.path}" for e in errors]
    assert match_errors == [SchemaError(p, e.code, {**e.params, "path": p}, e.rule) for p, e in zip(prefixed, errors)]


@settings(max_examples=300, deadline=None)
@given(doc=json_values)
def test_random_documents_never_raise(doc: Any) -> None:
    for check in (validate_record, validate_match):
        errors = check(doc)
        assert all(isinstance(e, SchemaError) for e in errors)
        assert not any(e.code in ("internal_validator_error", "unexpected_schema_message") for e in errors)
    agree(doc)


# ---------------------------------------------------------------- fast path agreement


MUTANT_VALUES: list[Any] = [
    None, True, False, 0, 1, 3, 4, -1, 2.0, "", "x", "1m", "10m", "9s", [], {}, ["1m"], [1, 2],
    {"name": "A"}, "draw", "pass", "kong", "win", "exposed", "concealed", "added", "rob", "self_draw",
    "hand", "zhuoji/1", "2026-11-29T20:15:00", {"type": "draw", "seat": 0, "tile": "1m"},
]


def random_mutants(count: int, seed: int) -> list[Any]:
    """Deterministic single and double mutations of every valid record."""
    rng = random.Random(seed)
    docs = [load(p) for p in RECORD_FILES]
    mutants = []
    for n in range(count):
        doc = copy.deepcopy(docs[n % len(docs)])
        for _ in range(rng.choice((1, 1, 2))):
            paths = all_paths(doc)
            if not paths:
                break
            path = rng.choice(paths)
            parent = doc
            for part in path[:-1]:
                parent = parent[part]
            roll = rng.random()
            if roll < 0.15:
                del parent[path[-1]]
            elif roll < 0.25 and isinstance(parent, dict):
                parent[rng.choice(["tile", "from", "kind", "extra", "t", "note", "junk"])] = rng.choice(MUTANT_VALUES)
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(MUTANT_VALUES))
        mutants.append(doc)
    return mutants


def test_fast_path_agrees_with_marshmallow_on_valid_and_mutated_documents() -> None:
    docs = [load(p) for p in RECORD_FILES] + random_mutants(800, seed=1129)
    structurally_valid = 0
    for doc in docs:
        marshmallow_clean = _schema_problems(_RECORD, doc) == []
        assert structure_ok(doc) == marshmallow_clean, doc
        structurally_valid += marshmallow_clean
        if not marshmallow_clean:
            assert validate_record(doc)  # the marshmallow errors are what is reported
    # both sides of the comparison are exercised: some mutations keep the
    # structure valid (e.g. "1m" -> "9s", seat 3 -> 4), most break it
    assert len(RECORD_FILES) < structurally_valid < len(docs) // 2


def test_fast_cross_check_agrees_with_the_detailed_one() -> None:
    """`cross_ok` (compiled fast path) says yes exactly when `_cross_problems` finds nothing."""
    docs = [load(p) for p in RECORD_FILES] + random_mutants(1500, seed=2026)
    rng = random.Random(7)
    for doc in [load(p) for p in RECORD_FILES] * 6:  # mutations that keep the structure valid
        roll = rng.randrange(6)
        if roll == 0:
            doc["events"][rng.randrange(len(doc["events"]))]["seat"] = rng.choice((3, 4, 7))
        elif roll == 1:
            doc["wall"][rng.randrange(len(doc["wall"]))] = rng.choice(TILE_CODES)
        elif roll == 2:
            doc["deal"][rng.randrange(len(doc["deal"]))].append(doc["wall"].pop())
        elif roll == 3:
            doc["result"]["scores"].append(0)
        elif roll == 4:
            doc["dealer"] = rng.choice((2, 3, 4))
        else:
            doc["seats"] = doc["seats"][:2]
        docs.append(doc)
    checked = disagreeing = 0
    for doc in docs:
        if not structure_ok(doc):
            continue
        checked += 1
        if cross_ok(doc) != (_cross_problems(doc) == []):
            disagreeing += 1
    assert disagreeing == 0
    assert checked > 200


def test_every_mutation_case_agrees() -> None:
    for _, mutate, _ in MUTATIONS:
        doc = base()
        mutate(doc)
        agree(doc)
    for _, mutate in VALID_VARIANTS:
        doc = base()
        mutate(doc)
        agree(doc)


# ---------------------------------------------------------------- matches


def match(*hands: Any, **extra: Any) -> Doc:
    return {"format": "zhuoji-match/1", "table_id": "tbl7", "hands": list(hands), **extra}


def test_valid_match() -> None:
    hands = [load(p) for p in RECORD_FILES[:3]]
    assert validate_match(match(*hands)) == []
    assert validate_match(match(*hands, extra={"club": 1})) == []


def test_match_paths_are_prefixed() -> None:
    bad = base()
    bad["events"][2]["tile"] = "10m"
    bad["seats"][1]["name"] = 1
    errors = validate_match(match(base(), base(), base(), bad))
    assert errors == [
        SchemaError("hands[3].seats[1].name", "wrong_type",
                    {"path": "hands[3].seats[1].name", "type": "string", "got": "1"}, None),
        SchemaError("hands[3].events[2].tile", "not_a_tile", {"path": "hands[3].events[2].tile", "got": "'10m'"}, None),
    ]


def test_match_r12_rule_kept() -> None:
    bad = base()
    bad["deal"][DEALER].pop()
    errors = validate_match(match(bad))
    assert pairs(errors) == [("hands[0].deal", "R1.2"), (f"hands[0].deal[{DEALER}]", "R1.2")]


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ({"format": "zhuoji/1", "hands": [BASE]}, [("format", None)]),
        ({"hands": [BASE]}, [("format", None)]),
        ({"format": "zhuoji-match/1"}, [("hands", None)]),
        ({"format": "zhuoji-match/1", "hands": []}, [("hands", None)]),
        ({"format": "zhuoji-match/1", "hands": BASE}, [("hands", None)]),
        ({"format": "zhuoji-match/1", "hands": [BASE], "table_id": 7}, [("table_id", None)]),
        ({"format": "zhuoji-match/1", "hands": [BASE], "extra": 1}, [("extra", None)]),
        ({"format": "zhuoji-match/1", "hands": [BASE], "date": "x"}, [("date", None)]),
        ({"format": "zhuoji-match/1", "hands": [None, "x"]}, [("hands[0]", None), ("hands[1]", None)]),
        ({"format": "zhuoji-match/1", "hands": [{}]}, [(f"hands[0].{n}", None) for n in ("format", "game_id", "rules", "seats", "dealer", "deal", "wall", "events", "result")]),
        ([BASE], [("", None)]),
        (None, [("", None)]),
    ],
)
def test_match_envelope(doc: Any, expected: list[tuple[str, str | None]]) -> None:
    assert pairs(validate_match(doc)) == expected


ENVELOPES: list[Any] = [
    match(BASE), match(BASE, extra={}), {"format": "zhuoji-match/1", "hands": [None]}, {"hands": [1], "format": "zhuoji-match/1"},
    match(), match(BASE, table_id=None), match(BASE, table_id=""), match(BASE, extra=[]), match(BASE, extra=None),
    {"format": "zhuoji-match/1", "hands": "x"}, {"format": "zhuoji/1", "hands": [1]}, {"format": 1, "hands": [1]},
    {"format": None, "hands": [1]}, {"hands": [1]}, {"format": "zhuoji-match/1"}, {"format": "zhuoji-match/1", "hands": None},
    match(BASE, _schema=1), match(BASE, date="x"), {}, [], None, "zhuoji-match/1", 7,
]


@pytest.mark.parametrize("doc", ENVELOPES)
def test_match_envelope_fast_path_agrees_with_marshmallow(doc: Any) -> None:
    """`envelope_ok` (marshmallow not imported) says yes exactly when the match schema finds nothing."""
    assert envelope_ok(doc) == (_schema_problems(_MATCH, doc) == [])


def test_a_well_formed_record_or_match_is_checked_without_marshmallow() -> None:
    """The fast paths answer for well-formed documents: marshmallow is imported only for a document
    one of them refuses (issue 35.6). Checked in a new interpreter, where nothing imported it before."""
    code = ("import json, sys; from audit.schema import validate_match, validate_record; "
            f"doc = json.loads({json.dumps(json.dumps(BASE))}); "
            "assert validate_record(doc) == [] and validate_match({'format': 'zhuoji-match/1', 'hands': [doc]}) == []; "
            "assert 'marshmallow' not in sys.modules; "
            "doc['events'][0]['tile'] = '10m'; assert validate_record(doc); assert 'marshmallow' in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_match_with_several_bad_hands_in_order() -> None:
    a, b = base(), base()
    a["format"] = "x"
    b["result"]["scores"] = [0]
    errors = validate_match({"hands": [a, b], "format": "zhuoji-match/1", "junk": 1})
    assert pairs(errors) == [
        ("hands[0].format", None),
        ("hands[1].result.scores", None),
        ("junk", None),
    ]
