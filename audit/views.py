"""Frozen views of a replay for step-by-step reports: seats, melds, steps, markers, chickens.

`audit.trace` builds them from the replayer's live state; reports (the web
pages, the PDF, `audit.render`'s drawings) only read them. They hold tile
codes and plain values, never engine objects, so this module imports nothing
of the engine and a report or a test can build a view by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


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
    won: str | None = None
    """The tile this seat won on (胡), from the win step on; None for a seat that has not won."""


class MarkerKind(str, Enum):
    """What a step marker points out: a moment the rules give a name to, which a reviewer would
    otherwise have to work out from the table. Each kind stands for one rule (`rule`)."""

    DECLARE = "declare"
    """报听: the seat declares ready (R5.1)."""
    LATE_KONG = "late_kong"
    """憨包豆: a kong not made at the first chance; it scores nothing (R4.6)."""
    PASS_LOCK = "pass_lock"
    """过胡: a seat passed a win it could take and is locked (R13.1); the marker names the seat."""
    CHARGE_CHICKEN = "charge_chicken"
    """冲锋鸡: the first chicken discarded, claimed by nobody (R11.3); the marker names the tile."""
    RESPONSIBILITY_CHICKEN = "responsibility_chicken"
    """责任鸡: that first chicken was ponged or konged (R11.4); the marker names the tile."""
    HOT_SHOT = "hot_shot"
    """热炮: the discard after a kong's replacement draw is won on (R8.1)."""
    ROB = "rob"
    """抢杠: the tile of an added kong is won on (R9.1)."""

    @property
    def rule(self) -> str:
        """The rule this kind of marker stands for."""
        return _RULES[self.value]


_RULES: dict[str, str] = {
    MarkerKind.DECLARE.value: "R5.1",
    MarkerKind.LATE_KONG.value: "R4.6",
    MarkerKind.PASS_LOCK.value: "R13.1",
    MarkerKind.CHARGE_CHICKEN.value: "R11.3",
    MarkerKind.RESPONSIBILITY_CHICKEN.value: "R11.4",
    MarkerKind.HOT_SHOT.value: "R8.1",
    MarkerKind.ROB.value: "R9.1",
}
"""The rule of each marker kind, keyed by the kind's value (a test checks every kind has one;
keyed by str, not by member: an Enum's hash is Python-level)."""


@dataclass(frozen=True)
class Marker:
    """A step marker: its kind, the seat or tile it names (if any) and the rule it cites. The
    words are left to the report, which labels the kind in the page's language."""

    kind: MarkerKind
    seat: int | None
    tile: str | None
    rule: str

    @classmethod
    def of(cls, kind: MarkerKind, *, seat: int | None = None, tile: str | None = None) -> Marker:
        """A marker citing its kind's rule."""
        return cls(kind, seat, tile, kind.rule)


@dataclass(frozen=True)
class StepView:
    """The table right after event `index` (index -1 is the deal)."""

    index: int
    event: dict[str, Any] | None
    seats: tuple[SeatView, ...]
    wall_left: int
    markers: tuple[Marker, ...]
    findings: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class ChickenView:
    """A seat's chickens at the end of a won hand, with the value they earned."""

    seat: int
    tiles: tuple[str, ...]
    value: int
    qualifies: bool
    note: str
    """The working in words, in the trace's language (rendered from `code` and `params`)."""
    code: str = "chicken_tally"
    """The note's catalogue code (audit/catalogue/notes.toml); re-render with `render_note`."""
    params: dict[str, Any] = field(default_factory=dict)
    reason: str = "counts"
    """Why the chickens count or not, a `ChickenReason` value: won, ready, burned, not_ready,
    counts (the profile counts them without a ready hand)."""
    reason_params: dict[str, Any] = field(default_factory=dict)
    """What the reason names: for burned, `by` (a BurnKind value) and `step`."""
    waits: tuple[str, ...] = ()
    """The tiles a seat that did not win was waiting on at the end (empty when not ready)."""


class ChickenReason(str, Enum):
    """Why a seat's chickens count at the end of a won hand, or why they do not (R11.6, R8.3, R9.3)."""

    WON = "won"
    """The seat won: its chickens count."""
    READY = "ready"
    """The seat was ready (听牌) at the end: its chickens count."""
    BURNED = "burned"
    """被烧: a 热炮 or 抢杠 burned the seat's credits (R8.3, R9.3)."""
    NOT_READY = "not_ready"
    """未听牌: the profile counts chickens only for a ready hand (R11.6)."""
    COUNTS = "counts"
    """The profile counts every seat's chickens, ready or not."""


@dataclass
class Trace:
    """The audit plus the state after every step, for step-by-step reports."""

    audit: dict[str, Any]
    steps: list[StepView] = field(default_factory=list)
    chickens: list[ChickenView] = field(default_factory=list)
    due_steps: list[int | None] = field(default_factory=list)
    """Per finding of `audit` (same order): the step it points at: its own step, or for a
    settlement finding (whose step is null) the step that made its payment due: the kong of a
    dou, the claim of a 责任鸡, the win for the rest (the `step` param of an attribution)."""
    chicken_tiles: tuple[str, ...] = ()
    """The chickens in play from the deal on (幺鸡, and 8p where the profile plays 乌骨鸡): what a
    table view shows as known before the flip."""
    flip_chickens: tuple[str, ...] = ()
    """The chickens the flip (翻牌) made, known only at the end of a settled hand; empty when
    nothing was turned."""


__all__ = ["ChickenReason", "ChickenView", "Marker", "MarkerKind", "MeldView", "SeatView", "StepView", "Trace"]
