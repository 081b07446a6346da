"""The replay as the table (issue 23, point 3): each step of the engine's trace as the seats see
it round the table, as plain data.

Built only from the trace (`audit.views`: the table after every step, one replay) and the report
that sits on it (`report.model`: the totals, the ledger's workings, the chickens). Nothing here
replays anything: a pond is the seat's discards as the trace shows them step by step, and a tile
that leaves a pond was taken by the seat whose claim made it leave (the engine removes a claimed
discard from its discarder's pond, the table keeps it there, marked, as players and Tenhou's
replayer do).

A step's seats are `SeatPanel` values, equal when nothing about the seat changed: the page draws
each distinct panel once and a step names its panels by number (`TableStep.panels`), so stepping
in the browser swaps panels instead of drawing a hundred tables.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from audit.vocabulary import EventType, MeldView, StepView, Trace, WinKind, is_digits


class Place(str, Enum):
    """Where the tile a step is about lies in its seat's panel."""

    HAND = "hand"
    DRAWN = "drawn"
    MELD = "meld"
    POND = "pond"
    WON = "won"


class PondTile(NamedTuple):
    """One discard in a pond, in the order it was made: the step that made it, and when a claim
    took it, the seat that claimed it and how (`pong`, `kong` or `win`). A named tuple: a step's
    panels are compared by value, and a tuple hashes in C (a dataclass in Python, per tile)."""

    tile: str
    step: int
    claimed_by: int | None = None
    claim: str | None = None

    @property
    def claimed(self) -> bool:
        """Whether another seat took this discard (it stays in the pond, marked)."""
        return self.claim is not None


class Mark(NamedTuple):
    """The tile (or meld) the step is about: the place in the acting seat's panel and its index
    there, `at` (the pond's, the meld's, the concealed tiles')."""

    place: Place
    at: int


@dataclass(frozen=True)
class SeatPanel:
    """One seat as the table shows it after a step: concealed tiles (the tile just drawn, or the
    tile won on, set apart), melds, the pond in order, the badges, the mark of the step's tile."""

    seat: int
    concealed: tuple[str, ...]
    drawn: str | None
    melds: tuple[MeldView, ...]
    pond: tuple[PondTile, ...]
    declared: bool
    locked: bool
    won: str | None
    mark: Mark | None = None
    acting: bool = False


@dataclass(frozen=True)
class TableStep:
    """One step at the table: its position in the trace, its event index (-1 the deal), the panel
    of each seat (indexes into `TableView.panels`), the wall count, the acting seat and the kind
    of the step's first finding."""

    position: int
    index: int
    panels: tuple[int, ...]
    wall_left: int
    actor: int | None
    finding: str | None
    findings: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class SeatScore:
    """A seat's running score: before this hand (the match's total so far, 0 for a lone hand), the
    hand's change by the rules and as the record claims it, and the total after by the rules."""

    seat: int
    before: int
    change: int | None
    claimed: int | None

    @property
    def after(self) -> int | None:
        """The total after the hand by the rules (None when the hand was not settled)."""
        return None if self.change is None else self.before + self.change

    @property
    def difference(self) -> int | None:
        """Record minus audit, the sign of every difference in the report (report.model)."""
        return None if self.claimed is None or self.change is None else self.claimed - self.change


@dataclass(frozen=True)
class Winner:
    """One winner on the win screen: the tile and how it was won, the whole hand, and the working
    of what each payer owes for it (the ledger's `hand` items to this seat)."""

    seat: int
    tile: str
    kind: str | None
    from_seat: int | None
    concealed: tuple[str, ...]
    melds: tuple[MeldView, ...]
    workings: tuple[str, ...]
    value: int | None


@dataclass(frozen=True)
class WinScreen:
    """What the table shows once the hand is over: the winners (none on an exhaustive draw), each
    seat's score, the flip and its chickens, each seat's chickens with their value."""

    ending: str
    """`win` or `draw` (荒庄)."""
    winners: tuple[Winner, ...]
    scores: tuple[SeatScore, ...]
    flip: str | None
    flip_chickens: tuple[str, ...]
    chickens: tuple[tuple[int, tuple[str, ...], int, str], ...]
    """(seat, chicken tiles, value, why they count or not) per seat that holds any."""


@dataclass(frozen=True)
class TableView:
    """The whole replay as the table: the distinct panels, each step naming its panels, the seats'
    running scores, the chickens known from the deal, and the win screen of a settled hand."""

    seats: int
    dealer: int | None
    panels: tuple[SeatPanel, ...]
    steps: tuple[TableStep, ...]
    scores: tuple[SeatScore, ...]
    chicken_tiles: tuple[str, ...]
    win: WinScreen | None

    @property
    def last(self) -> int:
        """The position of the last step."""
        return len(self.steps) - 1

    def step_at(self, position: int) -> TableStep:
        """The step at a position, clamped to the hand's steps."""
        return self.steps[max(0, min(position, self.last))]

    def position_of(self, index: int) -> int | None:
        """The position of event `index` (-1 the deal), None when the trace has no such step."""
        return next((s.position for s in self.steps if s.index == index), None)

    def seat_panels(self, step: TableStep) -> list[SeatPanel]:
        """The step's panels, by seat."""
        return [self.panels[i] for i in step.panels]

    def position_class(self, seat: int, perspective: int) -> str:
        """Where a seat sits for a viewer in `perspective`'s chair: bottom, then right, top, left in
        turn order; three seats leave the top empty."""
        relative = (seat - perspective) % self.seats
        names = ("bottom", "right", "top", "left") if self.seats == 4 else ("bottom", "right", "left")
        return names[relative] if relative < len(names) else f"seat-{relative}"


CLAIMS = frozenset({EventType.PONG.value, EventType.KONG.value, EventType.WIN.value})
"""Events that take the last discard from its discarder's pond."""


def _event(step: StepView) -> Mapping[str, Any]:
    return step.event if isinstance(step.event, dict) else {}


def ponds(steps: Sequence[StepView]) -> list[tuple[tuple[PondTile, ...], ...]]:
    """Each seat's pond after every step, every discard in order, claimed ones marked: a pond
    grows where the trace's discards grow; where they shrink, the step's seat claimed the tile."""
    out: list[tuple[tuple[PondTile, ...], ...]] = []
    current: list[list[PondTile]] = []
    previous: StepView | None = None
    for step in steps:
        if not current:
            current = [[] for _ in step.seats]
        event = _event(step)
        for seat, view in enumerate(step.seats):
            before = len(previous.seats[seat].discards) if previous is not None else 0
            pond = current[seat]
            if len(view.discards) > before:
                pond.extend(PondTile(tile, step.index) for tile in view.discards[before:])
            for _ in range(before - len(view.discards)):
                taken = max((i for i, t in enumerate(pond) if not t.claimed), default=None)
                if taken is not None:
                    claimer = event.get("seat") if event.get("type") in CLAIMS else None
                    pond[taken] = PondTile(pond[taken].tile, pond[taken].step,
                                           claimer if isinstance(claimer, int) else None, str(event.get("type")))
        out.append(tuple(tuple(p) for p in current))
        previous = step
    return out


def _without_one(tiles: Sequence[str], tile: str) -> tuple[str, ...]:
    """The tiles less one copy of `tile` (the tile set apart)."""
    out = list(tiles)
    if tile in out:
        out.remove(tile)
    return tuple(out)


def _mark(step: StepView, seat: int, pond: Sequence[PondTile], concealed: Sequence[str]) -> Mark | None:
    """Which tile of `seat` the step is about (its own event only)."""
    event = _event(step)
    if event.get("seat") != seat:
        return None
    kind, tile = event.get("type"), event.get("tile")
    view = step.seats[seat]
    if kind == EventType.DISCARD.value and pond:
        return Mark(Place.POND, len(pond) - 1)
    if kind == EventType.DRAW.value:
        return Mark(Place.DRAWN, 0)
    if kind == EventType.WIN.value and view.won is not None:
        return Mark(Place.WON, 0)
    if kind in (EventType.PONG.value, EventType.KONG.value):
        melds = [i for i, meld in enumerate(view.melds) if tile in meld.tiles]
        return Mark(Place.MELD, melds[-1]) if melds else None
    if isinstance(tile, str) and tile in concealed:
        return Mark(Place.HAND, list(concealed).index(tile))
    return None


def seat_panel(step: StepView, seat: int, pond: tuple[PondTile, ...]) -> SeatPanel:
    """One seat after a step: the tile just drawn (the seat's own draw) and the tile won on are
    set apart from the concealed tiles, as at the table."""
    view = step.seats[seat]
    event = _event(step)
    concealed = view.concealed
    drawn = None
    if event.get("seat") == seat and event.get("type") == EventType.DRAW.value and isinstance(event.get("tile"), str) \
            and event["tile"] in concealed:
        drawn = str(event["tile"])
        concealed = _without_one(concealed, drawn)
    if view.won is not None and (len(concealed) + 3 * len(view.melds)) % 3 == 2:
        concealed = _without_one(concealed, view.won)  # a self-draw: the tile is in the hand, set it apart
    return SeatPanel(seat, concealed, drawn, view.melds, pond, view.declared, view.locked, view.won,
                     _mark(step, seat, pond, concealed), event.get("seat") == seat)


def _winners(trace: Trace, ledger: Sequence[Any]) -> tuple[Winner, ...]:
    """The win events that end the hand (several after one discard: 一炮多响), each with the
    final hand and the ledger's workings of its `hand` payments."""
    steps = trace.steps
    last = steps[-1] if steps else None
    if last is None:
        return ()
    out = []
    how = _how_won(steps)
    for step in reversed(steps):
        event = _event(step)
        if event.get("type") != EventType.WIN.value:
            break
        seat = event.get("seat")
        if not isinstance(seat, int) or seat >= len(last.seats):
            continue
        view = last.seats[seat]
        tile = view.won or str(event.get("tile"))
        concealed = view.concealed
        if (len(concealed) + 3 * len(view.melds)) % 3 == 2:
            concealed = _without_one(concealed, tile)
        rows = [r for r in ledger if r.kind == "hand" and r.payee == seat]
        workings = tuple(w for r in rows for w in r.workings)
        value = sum(r.computed or 0 for r in rows) if rows else None
        kind, from_seat = how
        out.append(Winner(seat, tile, kind.value, from_seat, concealed, view.melds, workings, value))
    return tuple(reversed(out))


def _how_won(steps: Sequence[StepView]) -> tuple[WinKind, int | None]:
    """How the closing wins were made, read from the table rather than from the record's optional
    `kind` (issue 33.3: a discard win was shown as 自摸 where the record said so, and no discarder
    was ever named, the format's win event carrying none): the event before them (passes skipped)
    is a discard (点炮, from its seat), an added kong (抢杠, from the konger), or a draw or the deal
    (自摸)."""
    for step in reversed(steps):
        event = _event(step)
        kind = event.get("type")
        if kind in (EventType.WIN.value, EventType.PASS.value):
            continue
        seat = event.get("seat") if isinstance(event.get("seat"), int) else None
        if kind == EventType.DISCARD.value:
            return WinKind.DISCARD, seat
        if kind == EventType.KONG.value:
            return WinKind.ROB, seat
        break
    return WinKind.SELF_DRAW, None


def seat_scores(seats: int, before: Sequence[int] | None, totals: Sequence[Any]) -> tuple[SeatScore, ...]:
    """Each seat's score before the hand (`before`: the match's running totals, else 0) and the
    hand's change by the rules and as claimed (`totals`: report.model.Compared per seat)."""
    out = []
    for seat in range(seats):
        start = before[seat] if before is not None and seat < len(before) else 0
        total = totals[seat] if seat < len(totals) else None
        change = total.computed if total is not None and isinstance(total.computed, int) else None
        claimed = total.claimed if total is not None and isinstance(total.claimed, int) else None
        out.append(SeatScore(seat, start, change, claimed))
    return tuple(out)


def table_view(trace: Trace | None, dealer: Any, *, totals: Sequence[Any] = (), ledger: Sequence[Any] = (),
               chicken_lines: Sequence[Any] = (), settled: bool = False,
               before: Sequence[int] | None = None) -> TableView | None:
    """The table view of a traced hand; None without steps (the engine could not replay it).
    `totals`, `ledger` and `chicken_lines` are the report's (report.model.ReportModel), so the win
    screen shows the same numbers as the settlement below it; `before` the seats' running totals
    before this hand (a match's), else every seat starts at 0."""
    if trace is None or not trace.steps:
        return None
    steps = trace.steps
    count = len(steps[0].seats)
    panels: list[SeatPanel] = []
    numbers: dict[SeatPanel, int] = {}
    table_steps = []
    for position, (step, pond) in enumerate(zip(steps, ponds(steps))):
        ids = []
        for seat in range(count):
            panel = seat_panel(step, seat, pond[seat])
            if panel not in numbers:
                numbers[panel] = len(panels)
                panels.append(panel)
            ids.append(numbers[panel])
        actor = _event(step).get("seat")
        table_steps.append(TableStep(position, step.index, tuple(ids), step.wall_left,
                                     actor if isinstance(actor, int) else None,
                                     str(step.findings[0].get("kind")) if step.findings else None, step.findings))
    scores = seat_scores(count, before, totals)
    win = None
    if settled:
        winners = _winners(trace, ledger)
        settlement = trace.audit.get("settlement") or {}
        flip = settlement.get("flip")
        chickens = tuple((line.view.seat, tuple(line.view.tiles), line.view.value, line.reason)
                         for line in chicken_lines if line.view.tiles)
        win = WinScreen("win" if winners else "draw", winners, scores, flip if isinstance(flip, str) else None,
                        tuple(trace.flip_chickens), chickens)
    return TableView(count, dealer if isinstance(dealer, int) else None, tuple(panels), tuple(table_steps), scores,
                     tuple(trace.chicken_tiles), win)


def opening_position(view: TableView, requested: Any) -> int:
    """The step a page opens on: `?step=N` (an event index, `deal` or -1 for the deal) when the
    hand has it, else the first step with a finding (as the viewer opens), else the deal."""
    if isinstance(requested, str):
        text = requested.strip()
        index = -1 if text == "deal" else (int(text) if is_digits(text.removeprefix("-")) and len(text) < 19 else None)
        found = view.position_of(index) if index is not None else None
        if found is not None:
            return found
    return next((s.position for s in view.steps if s.finding), 0)


__all__ = ["Mark", "Place", "PondTile", "SeatPanel", "SeatScore", "TableStep", "TableView", "WinScreen", "Winner",
           "opening_position", "ponds", "seat_panel", "seat_scores", "table_view"]
