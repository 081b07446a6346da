"""audit/kinds.py is the single source of the format's kinds: the schema accepts exactly the enum
values for an event's `type`, a kong's and a win's `kind` and an item's `kind`; the engine's
objects carry members; and no bare kind literal comes back into audit/."""
from __future__ import annotations

import ast
from collections import Counter
from enum import Enum
from typing import Any

import pytest

from audit import kinds, structure
from audit.kinds import BurnKind, EventType, ItemKind, MeldKind, WinKind
from audit.schema import validate_record
from audit.state import Event
from audit.structure import structure_ok
from tests.conftest import ROOT, load_example

AUDIT = ROOT / "audit"
ENUMS: list[type[Enum]] = [EventType, MeldKind, WinKind, ItemKind, BurnKind]

Doc = dict[str, Any]


def _record() -> Doc:
    """A clean 4-seat example whose result lists its items."""
    doc = load_example("hot-shot-weile")
    doc["result"]["items"] = [{"kind": "hand", "from": 0, "to": 1, "amount": 0}]
    return doc


def _problems(doc: Doc) -> list[tuple[str, str | None]]:
    """What the schema says, as (path, rule); and the compiled check must agree on yes/no."""
    errors = [(e.path, e.rule) for e in validate_record(doc)]
    assert structure_ok(doc) == (not errors)
    return errors


def _with_event(event: Doc) -> Doc:
    doc = _record()
    doc["events"].append(event)
    return doc


EVENT_OF_TYPE: dict[EventType, Doc] = {
    EventType.DRAW: {"type": "draw", "seat": 1, "tile": "5m"},
    EventType.DISCARD: {"type": "discard", "seat": 1, "tile": "5m"},
    EventType.DECLARE: {"type": "declare", "seat": 1},
    EventType.PONG: {"type": "pong", "seat": 1, "tile": "5m", "from": 0},
    EventType.KONG: {"type": "kong", "seat": 1, "tile": "5m", "kind": "exposed", "from": 0},
    EventType.WIN: {"type": "win", "seat": 1, "tile": "5m"},
    EventType.PASS: {"type": "pass", "seat": 1},
}


# ----------------------------------------------------------------- the schema reads the enums

def test_the_structure_vocabularies_are_the_enum_values_in_order() -> None:
    """The schema's OneOf choices and the compiled check are built from the enums, nothing else."""
    assert structure.EVENT_TYPES == tuple(e.value for e in EventType)
    assert structure.KONG_KINDS == ("concealed", "added", "exposed") == tuple(k.value for k in kinds.KONG_KINDS)
    assert structure.WIN_KINDS == tuple(k.value for k in WinKind)
    assert structure.ITEM_KINDS == tuple(k.value for k in ItemKind)
    assert set(EVENT_OF_TYPE) == set(EventType)


@pytest.mark.parametrize("type_", list(EventType))
def test_every_event_type_is_accepted(type_: EventType) -> None:
    assert _problems(_with_event(EVENT_OF_TYPE[type_])) == []


@pytest.mark.parametrize("word", ["chi", "Draw", "draw ", "kong_added", ""])
def test_any_other_event_type_is_refused(word: str) -> None:
    doc = _with_event({"type": word, "seat": 1})
    assert ("events[%d].type" % (len(doc["events"]) - 1), None) in _problems(doc)


@pytest.mark.parametrize("kind", kinds.KONG_KINDS)
def test_every_kong_kind_is_accepted(kind: MeldKind) -> None:
    event: Doc = {"type": "kong", "seat": 1, "tile": "5m", "kind": kind.value}
    if kind is MeldKind.EXPOSED:
        event["from"] = 0
    assert _problems(_with_event(event)) == []


@pytest.mark.parametrize("word", [MeldKind.PONG.value, "rob", "hidden", "self_draw"])
def test_no_other_kong_kind_is_accepted(word: str) -> None:
    doc = _with_event({"type": "kong", "seat": 1, "tile": "5m", "kind": word})
    assert ("events[%d].kind" % (len(doc["events"]) - 1), None) in _problems(doc)


@pytest.mark.parametrize("kind", list(WinKind))
def test_every_win_kind_is_accepted(kind: WinKind) -> None:
    assert _problems(_with_event({"type": "win", "seat": 1, "tile": "5m", "kind": kind.value})) == []


@pytest.mark.parametrize("word", ["tsumo", "ron", "exposed", "hot_shot"])
def test_no_other_win_kind_is_accepted(word: str) -> None:
    doc = _with_event({"type": "win", "seat": 1, "tile": "5m", "kind": word})
    assert ("events[%d].kind" % (len(doc["events"]) - 1), None) in _problems(doc)


@pytest.mark.parametrize("kind", list(ItemKind))
def test_every_item_kind_is_accepted(kind: ItemKind) -> None:
    doc = _record()
    doc["result"]["items"][0]["kind"] = kind.value
    assert _problems(doc) == []


@pytest.mark.parametrize("word", ["kong", "bonus", "self_draw", "Hand"])
def test_no_other_item_kind_is_accepted(word: str) -> None:
    doc = _record()
    doc["result"]["items"][0]["kind"] = word
    assert ("result.items[0].kind", None) in _problems(doc)


# ----------------------------------------------------------------- the engine carries members

@pytest.mark.parametrize("raw", [
    {"type": "kong", "seat": 2, "tile": "9p", "kind": "concealed"},
    {"type": "kong", "seat": 2, "tile": "9p", "kind": "added"},
    {"type": "kong", "seat": 2, "tile": "9p", "kind": "exposed", "from": 1},
    {"type": "win", "seat": 0, "tile": "1s", "kind": "self_draw"},
    {"type": "win", "seat": 0, "tile": "1s", "kind": "discard"},
    {"type": "win", "seat": 0, "tile": "1s", "kind": "rob"},
    {"type": "win", "seat": 0, "tile": "1s"},
    {"type": "pong", "seat": 3, "tile": "2m", "from": 2},
    {"type": "declare", "seat": 1},
    {"type": "pass", "seat": 1},
    {"type": "draw", "seat": 0, "tile": "7s"},
    {"type": "discard", "seat": 0, "tile": "7s"},
])
def test_events_parse_to_members_and_write_back_the_same_json(raw: Doc) -> None:
    """Event.from_json and Event.to_json (the simulator's writer) are inverses on the format."""
    ev = Event.from_json(4, raw)
    assert ev.type is EventType(raw["type"])
    if "kind" in raw:
        assert ev.kind is (MeldKind if raw["type"] == "kong" else WinKind)(raw["kind"])
    else:
        assert ev.kind is None
    assert ev.to_json() == raw and list(ev.to_json()) == list(raw)


def test_a_settlement_carries_members_and_writes_their_values() -> None:
    from audit.engine import audit_hand

    hand = audit_hand(load_example("hot-shot-weile"))
    assert hand.settlement is not None and hand.replay is not None
    assert all(type(item.kind) is ItemKind for item in hand.settlement.items)
    assert all(type(win.kind) is WinKind for win in hand.replay.state.wins)
    assert all(type(item["kind"]) is str for item in hand.to_json()["settlement"]["items"])


# ----------------------------------------------------------------- one definition, documented

def _enum_classes(tree: ast.Module) -> list[ast.ClassDef]:
    return [node for node in tree.body if isinstance(node, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id == "Enum" for b in node.bases)]


def test_every_member_has_a_docstring() -> None:
    tree = ast.parse((AUDIT / "kinds.py").read_text(encoding="utf-8"))
    classes = _enum_classes(tree)
    assert {c.name for c in classes} == {e.__name__ for e in ENUMS}
    for cls in classes:
        body = cls.body
        members = [i for i, node in enumerate(body) if isinstance(node, ast.Assign)]
        assert members, cls.name
        for i in members:
            doc = body[i + 1] if i + 1 < len(body) else None
            assert isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) \
                and isinstance(doc.value.value, str) and doc.value.value.strip(), f"{cls.name}: member {i}"


SCANNED = frozenset(("self_draw", "rob", "hot_shot", "draw_settle", "concealed", "exposed", "added"))
"""Kind words that mean nothing else in audit/ (discard, draw, pong, hand... do)."""

ALLOWED = Counter({
    # Phase.ROB: the state's phase after an added kong (its value is never written anywhere).
    ("state.py", "rob"): 1,
    # The profile's `must_win` word for R8.2 (profiles.Profile.must_win), not the payment kind.
    ("claims.py", "hot_shot"): 1,
    # views.MarkerKind: the step markers' own enum (a 热炮 or 抢杠 marker), not the payment or win kind.
    ("views.py", "hot_shot"): 1, ("views.py", "rob"): 1,
})
"""Known exceptions, at most this many each; an entry goes when its table does."""


def _annotation_nodes(tree: ast.Module) -> set[int]:
    """Ids of every node inside a type annotation (a Literal of profile words is a type)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            roots += [a.annotation for a in (*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs,
                                             node.args.vararg, node.args.kwarg) if a is not None and a.annotation]
            if node.returns is not None:
                roots.append(node.returns)
    return {id(sub) for root in roots for sub in ast.walk(root)}


def bare_kind_literals(source: str) -> Counter[str]:
    """The scanned kind words written as string constants in `source`, annotations aside."""
    tree = ast.parse(source)
    skip = _annotation_nodes(tree)
    return Counter(node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                   and isinstance(node.value, str) and node.value in SCANNED and id(node) not in skip)


def test_the_scan_finds_a_bare_kind() -> None:
    source = 'def f(w: "Win", k: Literal["rob"]) -> bool:\n    return w.kind == "self_draw" or k in ("added",)\n'
    assert bare_kind_literals(source) == Counter({"self_draw": 1, "added": 1})


def test_no_bare_kind_literal_outside_kinds() -> None:
    """Kinds are written as members (`WinKind.ROB`), or as `.value` where raw JSON is built."""
    found: Counter[tuple[str, str]] = Counter()
    for path in sorted(AUDIT.glob("*.py")):
        if path.name == "kinds.py":
            continue
        for word, count in bare_kind_literals(path.read_text(encoding="utf-8")).items():
            found[(path.name, word)] += count
    extra = {key: count for key, count in found.items() if count > ALLOWED[key]}
    assert extra == {}, "write the audit.kinds member instead"


def test_every_enum_member_round_trips_through_its_table() -> None:
    for table, enum in ((kinds.EVENT_TYPES, EventType), (kinds.MELD_KINDS, MeldKind), (kinds.WIN_KINDS, WinKind),
                        (kinds.ITEM_KINDS, ItemKind)):
        assert table == {m.value: m for m in enum}
        assert all(type(name) is str for name in table)

