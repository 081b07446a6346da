"""The format's kinds, one word per thing: event types, meld kinds, win kinds, payment kinds.

Each enum is the single source of its words: the schema (`audit.schema`, and
`audit.structure`'s compiled check) accepts exactly these values, the engine,
the simulator and the mutator build and compare these members, and the report
templates compare the JSON strings against them (they are str-valued, so
`"rob" == WinKind.ROB`). tests/audit/test_kinds.py fails when a bare kind
literal reappears in `audit/`.

Hot code compares members with `is` and never calls an enum per event: where
it reads a raw JSON string it either compares it with the member's value
bound to a `Final` str (`audit.structure`) or goes through the str-keyed
look-up tables at the bottom (`EventType("draw")` costs a Python-level call).
"""
from __future__ import annotations

from enum import Enum
from typing import Final


class EventType(str, Enum):
    """Event types of the record format (`events[i].type`)."""

    DRAW = "draw"
    """Take the next wall tile (front, or back after a kong)."""
    DISCARD = "discard"
    """Put a tile out."""
    DECLARE = "declare"
    """报听: declare ready before the first discard."""
    PONG = "pong"
    """Claim the last discard with a pair."""
    KONG = "kong"
    """Make a kong of one of three kinds."""
    WIN = "win"
    """胡."""
    PASS = "pass"
    """Explicitly decline a claim."""


class MeldKind(str, Enum):
    """Exposed or concealed sets; the three kongs differ in who pays (R4.7).

    A kong event's JSON `kind` is one of the last three."""

    PONG = "pong"
    """碰: three, one of them claimed from a discard."""
    CONCEALED = "concealed"
    """闷豆: four from the own hand."""
    ADDED = "added"
    """转弯豆/爬坡豆: the fourth tile added to the seat's own pong."""
    EXPOSED = "exposed"
    """点豆: three in hand plus a discard."""


class WinKind(str, Enum):
    """How a 胡 was made (a win event's optional `kind`)."""

    SELF_DRAW = "self_draw"
    """自摸: on the seat's own draw; every other seat pays (R6.1)."""
    DISCARD = "discard"
    """点炮: on another seat's discard, which that seat pays (R6.3)."""
    ROB = "rob"
    """抢杠: on the tile of another seat's added kong; the robbed seat pays every share (R9.3)."""


class ItemKind(str, Enum):
    """Kinds of settlement payment (`result.items[i].kind`)."""

    HAND = "hand"
    """The hand's value (R6.1, R6.3, R9.3)."""
    DEALER = "dealer"
    """The dealer bonus 庄 riding on a hand or 查叫 payment (R6.4)."""
    DOU = "dou"
    """豆: what a kong that stands earns (R4.7)."""
    CHICKEN = "chicken"
    """鸡: chicken credits and their extras (R11)."""
    HOT_SHOT = "hot_shot"
    """热炮 transfer: the shooter pays the winner what its last kong would have earned (R8.3)."""
    DRAW_SETTLE = "draw_settle"
    """查叫: not-ready seats pay ready ones at an exhaustive draw (R12.1)."""
    FOLLOW_DEALER = "follow_dealer"
    """跟庄 / 开局跟: the dealer pays each other seat when the first discards all match (R17.8, R17.11)."""


class BurnKind(str, Enum):
    """What burns a seat's credits or voids its kong at the end of a won hand."""

    HOT_SHOT = "hot_shot"
    """热炮: the shooter's dou and chicken credits burn (R8.3), or only the kong it shot from."""
    ROB = "rob"
    """抢杠: the robbed seat's credits burn, where the profile says (R9.3)."""


KONG_KINDS: Final = (MeldKind.CONCEALED, MeldKind.ADDED, MeldKind.EXPOSED)
"""The meld kinds a kong event may name."""

EVENT_TYPES: Final[dict[str, EventType]] = {e.value: e for e in EventType}
"""Event types by their JSON name: a plain dict look-up, much cheaper than `EventType(name)`."""
MELD_KINDS: Final[dict[str, MeldKind]] = {k.value: k for k in MeldKind}
"""Meld kinds by their JSON name (a kong's `kind`)."""
WIN_KINDS: Final[dict[str, WinKind]] = {k.value: k for k in WinKind}
"""Win kinds by their JSON name."""
ITEM_KINDS: Final[dict[str, ItemKind]] = {k.value: k for k in ItemKind}
"""Payment kinds by their JSON name."""
