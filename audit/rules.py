"""The judge: is this event legal in this state? One function per event type.

Each check returns None or the Finding that names the rule (R16.1 fixes which
section a kind of mistake cites). Nothing here changes the state.
"""
from __future__ import annotations

from typing import Final


from audit import hands
from audit.claims import assess, current_win_kind
from audit.findings import Finding, illegal
from audit.kinds import EventType, MeldKind, WinKind
from audit.state import Event, GameState, Phase
from audit.tiles import code

_KIND_RULE: Final = {WinKind.SELF_DRAW: "R6.1", WinKind.DISCARD: "R6.3", WinKind.ROB: "R9.1"}
_KIND_ZH: Final = {"self_draw": "自摸", "discard": "点炮", "rob": "抢杠"}


def check(st: GameState, ev: Event) -> Finding | None:
    """The first rule `ev` breaks in state `st`, or None."""
    if st.phase is Phase.WON and ev.type is not EventType.WIN:
        earlier = must_win_at_end(st)
        if earlier is not None:
            return earlier
        return illegal("R2.6", f"{ev.type.value} by seat {ev.seat} after the hand ended with a win", ev.step, ev.seat)
    if st.pending_declare is not None and not (ev.type is EventType.DISCARD and ev.seat == st.pending_declare):
        return illegal("R5.1", f"seat {st.pending_declare} declared ready (报听) but its next move is not its discard",
                       ev.step, ev.seat)
    w = st.window
    if w is not None and w.must_win:
        must = _must_win_failure(st, ev)
        if must is not None:
            return must
    # An if-chain, not a dict keyed by EventType (an Enum's hash is Python-level).
    t = ev.type
    if t is EventType.DISCARD:
        return _check_discard(st, ev)
    if t is EventType.DRAW:
        return _check_draw(st, ev)
    if t is EventType.PASS:
        return _check_pass(st, ev)
    if t is EventType.PONG:
        return _check_pong(st, ev)
    if t is EventType.KONG:
        return _check_kong(st, ev)
    if t is EventType.WIN:
        return _check_win(st, ev)
    return _check_declare(st, ev)


def out_of_turn(st: GameState, ev: Event) -> Finding:
    """R16.1: which section an out-of-turn move cites depends on where the turn stands."""
    if st.phase is Phase.TURN and st.actor == st.dealer and st.seats[st.dealer].draws == 0 \
            and st.seats[st.dealer].discards_made == 0:
        rule, why = "R2.1", f"the dealer (seat {st.dealer}) moves first"
    elif st.phase in (Phase.TURN, Phase.REPLACEMENT, Phase.ROB):
        rule, why = "R2.2", _turn_text(st)
    else:
        rule, why = "R2.3", _claim_text(st)
    return illegal(rule, f"{ev.type.value} by seat {ev.seat} out of turn: {why}", ev.step, ev.seat)


def _turn_text(st: GameState) -> str:
    if st.phase is Phase.REPLACEMENT:
        return f"seat {st.actor} must draw its replacement tile after its kong"
    if st.phase is Phase.ROB:
        return f"seat {st.actor}'s added kong may only be robbed, then it draws its replacement"
    return f"it is seat {st.actor}'s turn to discard"


def _claim_text(st: GameState) -> str:
    if st.phase is Phase.AFTER_PONG:
        return f"seat {st.actor} ponged and must discard next"
    nxt = st.next_seat(st.actor)
    return f"after seat {st.actor}'s discard only a claim or seat {nxt}'s draw may follow"


# ------------------------------------------------------------------ per type

def _check_draw(st: GameState, ev: Event) -> Finding | None:
    if st.phase in (Phase.REPLACEMENT, Phase.ROB):
        if ev.seat != st.actor:
            return out_of_turn(st, ev)
        return _wall_tile(st, ev, replacement=True)
    if st.phase is not Phase.CLAIM or ev.seat != st.next_seat(st.actor):
        return out_of_turn(st, ev)
    if st.wall_left <= 0:
        return illegal("R2.6", "the wall is empty: the hand ended in an exhaustive draw (荒庄) with the last discard",
                       ev.step, ev.seat)
    return _wall_tile(st, ev, replacement=False)


def _wall_tile(st: GameState, ev: Event, replacement: bool) -> Finding | None:
    want = st.next_wall_tile(replacement)
    if want is None:
        return illegal("R4.5", "no tile is left for the replacement draw", ev.step, ev.seat)
    if ev.tile != want:
        where = "back" if replacement and st.profile.replacement_from == "back" else "front"
        return illegal("R2.4", f"seat {ev.seat} draws {code(ev.tile or 0)} but the {where} of the wall is {code(want)}",
                       ev.step, ev.seat, expected=code(want), actual=code(ev.tile or 0))
    return None


def _check_discard(st: GameState, ev: Event) -> Finding | None:
    if st.phase not in (Phase.TURN, Phase.AFTER_PONG) or ev.seat != st.actor:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    if seat.hand[ev.tile] <= 0:
        return illegal("R2.5", f"seat {ev.seat} discards {code(ev.tile)} but holds none", ev.step, ev.seat,
                       actual=code(ev.tile))
    if st.pending_declare == ev.seat:
        return _declared_ready(st, ev)
    if seat.declared is not None and st.last_draw is not None and ev.tile != st.last_draw:
        return illegal("R5.2", f"seat {ev.seat} declared ready (报听): it must discard the drawn "
                       f"{code(st.last_draw)}, not {code(ev.tile)}", ev.step, ev.seat,
                       expected=code(st.last_draw), actual=code(ev.tile))
    return None


def _declared_ready(st: GameState, ev: Event) -> Finding | None:
    """R5.1: the hand left after the declaring discard must be ready."""
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    cnt = list(seat.hand)
    cnt[ev.tile] -= 1
    if hands.waits(cnt, seat.meld_tiles()):
        return None
    return illegal("R5.1", f"seat {ev.seat} declared ready (报听) but its hand is not ready after discarding "
                   f"{code(ev.tile)}", ev.step, ev.seat)


def _check_declare(st: GameState, ev: Event) -> Finding | None:
    if st.phase is not Phase.TURN or ev.seat != st.actor:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    if st.profile.declared is None:
        return illegal("R5.1", "this profile has no 报听: declaring ready is not allowed", ev.step, ev.seat)
    if seat.declared is not None:
        return illegal("R5.1", f"seat {ev.seat} has already declared ready", ev.step, ev.seat)
    if seat.discards_made:
        return illegal("R5.1", f"seat {ev.seat} may only declare before its first discard", ev.step, ev.seat)
    if ev.seat != st.dealer and (seat.melds or seat.draws != 1 or st.replacement):
        return illegal("R5.1", f"seat {ev.seat} may declare (软报) only right after its first draw, "
                       "without a pong or kong", ev.step, ev.seat)
    return None


def _check_pong(st: GameState, ev: Event) -> Finding | None:
    w = st.window
    if st.phase is not Phase.CLAIM or w is None or ev.seat == w.source:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    if ev.tile != w.tile:
        return illegal("R4.1", f"seat {ev.seat} pongs {code(ev.tile)} but the last discard is {code(w.tile)}",
                       ev.step, ev.seat, expected=code(w.tile), actual=code(ev.tile))
    if ev.from_seat is not None and ev.from_seat != w.source:
        return illegal("R2.3", f"the pong names seat {ev.from_seat} but seat {w.source} discarded it", ev.step, ev.seat,
                       expected=w.source, actual=ev.from_seat)
    if seat.hand[ev.tile] < 2:
        return illegal("R4.1", f"seat {ev.seat} pongs {code(ev.tile)} without a pair of it", ev.step, ev.seat)
    if seat.declared is not None:
        return illegal("R5.2", f"seat {ev.seat} declared ready (报听): no pong", ev.step, ev.seat)
    if ev.tile in seat.pong_locks:
        return illegal("R13.2", f"seat {ev.seat} passed a pong of {code(ev.tile)} and may not pong it before its "
                       "next discard (过碰)", ev.step, ev.seat)
    return None


def _check_kong(st: GameState, ev: Event) -> Finding | None:
    kind = ev.kind
    if kind is MeldKind.EXPOSED:
        return _check_exposed(st, ev)
    if st.phase is Phase.AFTER_PONG and ev.seat == st.actor:
        return illegal("R2.3", f"seat {ev.seat} ponged and must discard: no kong in the turn of the pong",
                       ev.step, ev.seat)
    if st.phase is not Phase.TURN or ev.seat != st.actor:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    if kind is MeldKind.CONCEALED and seat.hand[ev.tile] < 4:
        return illegal("R4.3", f"seat {ev.seat} declares a concealed kong of {code(ev.tile)} holding "
                       f"{seat.hand[ev.tile]}", ev.step, ev.seat)
    if kind is MeldKind.ADDED and not (seat.hand[ev.tile] >= 1 and any(
            m.kind is MeldKind.PONG and m.tile == ev.tile for m in seat.melds)):
        return illegal("R4.4", f"seat {ev.seat} adds {code(ev.tile)} to a kong without its pong and the fourth tile",
                       ev.step, ev.seat)
    return _kong_common(st, ev)


def _check_exposed(st: GameState, ev: Event) -> Finding | None:
    w = st.window
    if st.phase is not Phase.CLAIM or w is None or ev.seat == w.source:
        return out_of_turn(st, ev)
    assert ev.tile is not None
    if ev.tile != w.tile or st.seats[ev.seat].hand[ev.tile] < 3:
        return illegal("R4.2", f"seat {ev.seat} makes an exposed kong of {code(ev.tile)} without three in hand "
                       f"and the last discard ({code(w.tile)})", ev.step, ev.seat)
    if ev.from_seat is not None and ev.from_seat != w.source:
        return illegal("R2.3", f"the kong names seat {ev.from_seat} but seat {w.source} discarded it", ev.step, ev.seat,
                       expected=w.source, actual=ev.from_seat)
    return _kong_common(st, ev)


def _kong_common(st: GameState, ev: Event) -> Finding | None:
    if st.wall_left <= 0:
        return illegal("R4.5", "no kong when the wall is empty (no replacement tile)", ev.step, ev.seat)
    if st.seats[ev.seat].declared is not None:
        return illegal("R5.2", f"seat {ev.seat} declared ready (报听): no kong", ev.step, ev.seat)
    return None


def _check_win(st: GameState, ev: Event) -> Finding | None:
    kind = current_win_kind(st, ev.seat)
    if kind is None:
        if st.phase is Phase.WON and any(w.seat == ev.seat for w in st.wins):
            return illegal("R10.1", f"seat {ev.seat} wins twice", ev.step, ev.seat)
        if st.phase is Phase.WON:
            return illegal("R2.6", f"seat {ev.seat} cannot win after the hand ended", ev.step, ev.seat)
        if ev.kind is WinKind.ROB and st.phase is Phase.REPLACEMENT:
            return illegal("R9.1", f"seat {ev.seat} cannot rob a concealed or exposed kong (only an added kong)",
                           ev.step, ev.seat)
        return out_of_turn(st, ev)
    assert ev.tile is not None
    if ev.kind is not None and ev.kind is not kind:
        assert isinstance(ev.kind, WinKind)
        return illegal(_KIND_RULE[ev.kind], f"the win is marked {ev.kind.value} ({_KIND_ZH[ev.kind]}) but the play makes "
                       f"it {kind.value} ({_KIND_ZH[kind]})", ev.step, ev.seat, expected=kind.value, actual=ev.kind.value)
    bad_tile = _win_tile(st, ev, kind)
    if bad_tile is not None:
        return bad_tile
    if ev.seat in (st.window.passed if st.window is not None and kind is not WinKind.SELF_DRAW else set()):
        return illegal("R13.1", f"seat {ev.seat} passed this tile and cannot win it", ev.step, ev.seat)
    return _win_legality(st, ev, kind)


def _win_tile(st: GameState, ev: Event, kind: WinKind) -> Finding | None:
    assert ev.tile is not None
    if kind is WinKind.SELF_DRAW:
        want = st.last_draw
        if want is None:
            if st.seats[ev.seat].hand[ev.tile] > 0:
                return None
            return illegal("R6.1", f"seat {ev.seat} wins on {code(ev.tile)}, which is not in its hand", ev.step, ev.seat)
    else:
        assert st.window is not None
        want = st.window.tile
    if ev.tile != want:
        return illegal(_KIND_RULE[kind], f"seat {ev.seat} wins on {code(ev.tile)} but the tile is {code(want)}",
                       ev.step, ev.seat, expected=code(want), actual=code(ev.tile))
    return None


def _win_legality(st: GameState, ev: Event, kind: WinKind) -> Finding | None:
    assert ev.tile is not None
    a = assess(st, ev.seat, ev.tile, kind)
    if a.scored is None:
        return illegal("R3.1", f"seat {ev.seat} declares a win on {code(ev.tile)} but its hand is not a winning hand",
                       ev.step, ev.seat)
    if a.needs_pass:
        return illegal("R7.3", f"seat {ev.seat} wins {code(ev.tile)} by discard with 平胡 and no 通行证 "
                       "(no kong, no 报听, not a 热炮)", ev.step, ev.seat)
    if a.locked:
        lock = st.seats[ev.seat].lock
        assert lock is not None
        higher = (f"; this win is worth {a.payer_total}, not more than the passed {lock.value}"
                  if st.profile.pass_lock_allows_higher else "")
        return illegal("R13.1", f"seat {ev.seat} passed a win at step {lock.step} (过胡) and may not win by "
                       f"discard until its next {st.profile.pass_lock_until}{higher}", ev.step, ev.seat)
    return None


def _check_pass(st: GameState, ev: Event) -> Finding | None:
    w = st.window
    if st.phase not in (Phase.CLAIM, Phase.ROB) or w is None or ev.seat == w.source:
        return illegal("R2.3", f"seat {ev.seat} passes outside a claim window", ev.step, ev.seat)
    if ev.seat in w.must_win:
        return _must_win_finding(st, ev, ev.seat)
    return None


def _must_win_failure(st: GameState, ev: Event) -> Finding | None:
    """R8.2/R9.2, R16.6: a claim window closed by a draw, pong or kong while a seat had to win."""
    w = st.window
    if w is None or not w.must_win or st.phase not in (Phase.CLAIM, Phase.ROB):
        return None
    closes = ev.type in (EventType.DRAW, EventType.PONG, EventType.KONG)
    if not closes:
        return None
    seat = min(w.must_win, key=lambda s: (s - w.source) % st.n)
    return _must_win_finding(st, ev, seat)


def _must_win_finding(st: GameState, ev: Event | None, seat: int) -> Finding:
    w = st.window
    assert w is not None
    rule = "R9.2" if w.rob else "R8.2"
    what = "rob the added kong (抢杠)" if w.rob else "win the hot shot (热炮)"
    step = ev.step if ev is not None else w.step
    return illegal(rule, f"seat {seat} was ready on {code(w.tile)} and had to {what} at step {w.step}",
                   step, seat)


def must_win_at_end(st: GameState) -> Finding | None:
    """R16.6: the record ends with other seats' wins: name the discard or added kong itself."""
    w = st.window
    if w is None or not w.must_win:
        return None
    missing = sorted(w.must_win - {x.seat for x in st.wins}, key=lambda s: (s - w.source) % st.n)
    if not missing:
        return None
    return _must_win_finding(st, None, missing[0])


