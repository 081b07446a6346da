"""The engine's public face: what the CLI, the web service and the simulator call.

Everything here takes a parsed JSON document (whatever the client sent, valid or
not) and returns plain data in the shape fixed by record-format.md, so callers
never need to know the replayer's internals.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENGINE_VERSION = "1.0.0"


@dataclass(frozen=True)
class MeldView:
    """A meld as shown in a report: kind is pong / concealed / added / exposed."""

    kind: str
    tiles: tuple[str, ...]
    from_seat: int | None


@dataclass(frozen=True)
class SeatView:
    """One seat after a step: what a reviewer needs to see to follow the play."""

    concealed: tuple[str, ...]
    melds: tuple[MeldView, ...]
    discards: tuple[str, ...]
    declared: bool
    locked: bool


@dataclass(frozen=True)
class StepView:
    """The table right after event `index` (index -1 is the deal)."""

    index: int
    event: dict[str, Any] | None
    seats: tuple[SeatView, ...]
    wall_left: int
    markers: tuple[str, ...]
    findings: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class ChickenView:
    """A seat's chickens at the end of a won hand, with the value they earned."""

    seat: int
    tiles: tuple[str, ...]
    value: int
    qualifies: bool
    note: str


@dataclass
class Trace:
    """The audit plus the state after every step, for step-by-step reports."""

    audit: dict[str, Any]
    steps: list[StepView] = field(default_factory=list)
    chickens: list[ChickenView] = field(default_factory=list)
