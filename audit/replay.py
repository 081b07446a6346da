"""Drive a record's events through judge and state: one replay step, two policies.

`step` is the only place where an event meets the rules: judge it
(`rules.check`), value a win (`claims.make_win`), change the table
(`GameState.apply`), and work out who could win the claim window it opens
(`claims.open_window`). `replay` (the audit) and the simulator's bots both go
through it, so there is one copy of every rule. The collecting policy (the
audit) stops at the first illegal move and returns its finding; the strict
policy (the simulator, `replay(strict=True)`) raises `IllegalMoveError`
instead. An optional observer sees the state after every step, which is how
step-by-step reports get their snapshots without a second replayer.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from audit.claims import make_win, open_window
from audit.findings import Finding, IllegalMoveError, illegal
from audit.kinds import EventType
from audit.profiles import Profile
from audit.rules import check, must_win_at_end
from audit.state import Event, GameState, Phase
from audit.tiles import parse_all


class Ending(str, Enum):
    """How the replayed hand ended."""

    WIN = "win"
    """One or more seats won (R10.1)."""
    DRAW = "draw"
    """Exhaustive draw: wall empty, last discard unclaimed (R10.2)."""


Observer = Callable[[GameState, Event | None, Finding | None], None]


@dataclass
class Replay:
    """The end state (or the state before the illegal move) and what went wrong."""

    state: GameState
    finding: Finding | None = None
    ending: Ending | None = None
    events: list[Event] = field(default_factory=list)

    def __init__(self, state: GameState, finding: Finding | None = None, ending: Ending | None = None,
                 events: list[Event] | None = None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.state = state
        self.finding = finding
        self.ending = ending
        self.events = [] if events is None else events


def start_state(record: dict[str, Any], profile: Profile) -> GameState:
    """The table after the deal of a schema-valid record."""
    deal = [parse_all(d) for d in record["deal"]]
    return GameState.start(profile, record["dealer"], record.get("dealer_streak", 0), deal,
                           parse_all(record["wall"]))


def advance(st: GameState, ev: Event) -> None:
    """Apply an event the judge accepted (or a clean record's, trusted): a win is valued on the
    table it was made on, then the state changes, then a discard or an added kong opens its
    claim window with every seat's possible win worked out once (R7, R8.2, R9.2, R13.1)."""
    t = ev.type
    if t is EventType.WIN:
        st.apply(ev, make_win(st, ev))
        return
    st.apply(ev)
    if t is EventType.DISCARD or (t is EventType.KONG and st.phase is Phase.ROB):
        open_window(st)


def step(st: GameState, ev: Event) -> Finding | None:
    """One event: the first rule it breaks (the state is then unchanged), or None once applied."""
    finding = check(st, ev)
    if finding is None:
        advance(st, ev)
    return finding


def replay(record: dict[str, Any], profile: Profile, *, strict: bool = False,
           observer: Observer | None = None) -> Replay:
    """Replay every event; stop at the first illegal one (strict: raise it)."""
    st = start_state(record, profile)
    out = Replay(st)
    if observer:
        observer(st, None, None)
    for i, raw in enumerate(record["events"]):
        ev = Event.from_json(i, raw)
        out.events.append(ev)
        finding = step(st, ev)
        if finding is not None:
            return _stop(out, finding, strict, observer, ev)
        if observer:
            observer(st, ev, None)
    finding, out.ending = _ending(st)
    if finding is not None:
        return _stop(out, finding, strict, observer, None)
    return out


def _stop(out: Replay, finding: Finding, strict: bool, observer: Observer | None, ev: Event | None) -> Replay:
    if strict:
        raise IllegalMoveError(finding)
    out.finding = finding
    if observer:
        observer(out.state, ev, finding)
    return out


def _ending(st: GameState) -> tuple[Finding | None, Ending | None]:
    """R10: did the record stop at the end of the hand, and which end?"""
    if st.phase is Phase.WON:
        return must_win_at_end(st), Ending.WIN
    if st.phase is Phase.CLAIM and st.wall_left <= 0:
        return must_win_at_end(st), Ending.DRAW
    return _stops_early(st), None


def _stops_early(st: GameState) -> Finding:
    """R10: the record ends while the hand goes on; say who was to move."""
    if st.phase is Phase.CLAIM:
        return illegal("R10", "record_stops_before_draw", {"seat": st.next_seat(st.actor), "left": st.wall_left}, None)
    if st.phase in (Phase.REPLACEMENT, Phase.ROB):
        return illegal("R10", "record_stops_before_replacement", {"seat": st.actor}, None)
    return illegal("R10", "record_stops_before_move", {"seat": st.actor}, None)
