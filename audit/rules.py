"""The judge: is this event legal in this state? One function per event type.

Each check returns None or the Finding that names the rule (R16.1 fixes which
section a kind of mistake cites) and says what is wrong as a catalogue code
with its params (audit/catalogue/findings.toml). Nothing here changes the state.

When one move breaks several rules, the finding cites the first that fails in
the order of R16.17: whose turn it is (R2.1-R2.3, R16.1), what the move is and
the tiles it needs (R2.4-R2.6, R3.1, R4.1-R4.5, R6, R7.3, R9.1), the seat's
state (R5.2 frozen hand, R13 pass locks), and last a must-win the move skips
(R8.2, R9.2, R16.6), cited only at an event that breaks no rule of its own.
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


def check(st: GameState, ev: Event) -> Finding | None:
    """The first rule `ev` breaks in state `st` (in the order of R16.17), or None."""
    if st.phase is Phase.WON and ev.type is not EventType.WIN:
        earlier = must_win_at_end(st)
        if earlier is not None:
            return earlier
        return illegal("R2.6", "event_after_win", {"event": ev.type.value, "seat": ev.seat}, ev.step, ev.seat)
    if st.pending_declare is not None and not (ev.type is EventType.DISCARD and ev.seat == st.pending_declare):
        return illegal("R5.1", "declare_not_followed_by_discard", {"declarer": st.pending_declare},
                       ev.step, ev.seat)
    found = _check_type(st, ev)
    if found is None:
        w = st.window
        if w is not None and w.must_win:
            # Last (R16.17): a must-win the move skips is cited only when the move breaks no rule of its own.
            return _must_win_failure(st, ev)
    return found


def _check_type(st: GameState, ev: Event) -> Finding | None:
    """The check of the event's own type."""
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
    params: dict[str, object] = {"event": ev.type.value, "seat": ev.seat, "actor": st.actor}
    if st.phase is Phase.TURN and st.actor == st.dealer and st.seats[st.dealer].draws == 0 \
            and st.seats[st.dealer].discards_made == 0:
        rule, what = "R2.1", "out_of_turn_dealer_first"
    elif st.phase in (Phase.TURN, Phase.REPLACEMENT, Phase.ROB):
        rule, what = "R2.2", _turn_code(st)
    else:
        rule, what = "R2.3", _claim_code(st)
        if st.phase is not Phase.AFTER_PONG:
            params["next"] = st.next_seat(st.actor)
    return illegal(rule, what, params, ev.step, ev.seat)


def _turn_code(st: GameState) -> str:
    if st.phase is Phase.REPLACEMENT:
        return "out_of_turn_replacement"
    if st.phase is Phase.ROB:
        return "out_of_turn_rob"
    return "out_of_turn_discard"


def _claim_code(st: GameState) -> str:
    if st.phase is Phase.AFTER_PONG:
        return "out_of_turn_after_pong"
    return "out_of_turn_claim"


# ------------------------------------------------------------------ per type

def _check_draw(st: GameState, ev: Event) -> Finding | None:
    if st.phase in (Phase.REPLACEMENT, Phase.ROB):
        if ev.seat != st.actor:
            return out_of_turn(st, ev)
        return _wall_tile(st, ev, replacement=True)
    if st.phase is not Phase.CLAIM or ev.seat != st.next_seat(st.actor):
        return out_of_turn(st, ev)
    if st.wall_left <= 0:
        return illegal("R2.6", "draw_wall_empty", {}, ev.step, ev.seat)
    return _wall_tile(st, ev, replacement=False)


def _wall_tile(st: GameState, ev: Event, replacement: bool) -> Finding | None:
    want = st.next_wall_tile(replacement)
    if want is None:
        return illegal("R4.5", "no_replacement_tile", {}, ev.step, ev.seat)
    if ev.tile != want:
        where = "back" if replacement and st.profile.replacement_from == "back" else "front"
        return illegal("R2.4", "draw_wrong_tile", {"seat": ev.seat, "tile": code(ev.tile or 0), "end": where,
                                                   "want": code(want)},
                       ev.step, ev.seat, expected=code(want), actual=code(ev.tile or 0))
    return None


def _check_discard(st: GameState, ev: Event) -> Finding | None:
    if st.phase not in (Phase.TURN, Phase.AFTER_PONG) or ev.seat != st.actor:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    if seat.hand[ev.tile] <= 0:
        return illegal("R2.5", "discard_not_held", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat,
                       actual=code(ev.tile))
    if st.pending_declare == ev.seat:
        return _declared_ready(st, ev)
    if seat.declared is not None and st.last_draw is not None and ev.tile != st.last_draw:
        return illegal("R5.2", "declared_must_discard_draw", {"seat": ev.seat, "drawn": code(st.last_draw),
                                                              "tile": code(ev.tile)},
                       ev.step, ev.seat, expected=code(st.last_draw), actual=code(ev.tile))
    return None


def _declared_ready(st: GameState, ev: Event) -> Finding | None:
    """R5.1: the hand left after the declaring discard must be ready."""
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    cnt = list(seat.hand)
    cnt[ev.tile] -= 1
    if hands.waits(cnt, seat.meld_tiles()):
        return None
    return illegal("R5.1", "declare_not_ready", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat)


def _check_declare(st: GameState, ev: Event) -> Finding | None:
    if st.phase is not Phase.TURN or ev.seat != st.actor:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    if st.profile.declared is None:
        return illegal("R5.1", "declare_not_in_profile", {}, ev.step, ev.seat)
    if seat.declared is not None:
        return illegal("R5.1", "declare_twice", {"seat": ev.seat}, ev.step, ev.seat)
    if seat.discards_made:
        return illegal("R5.1", "declare_after_discard", {"seat": ev.seat}, ev.step, ev.seat)
    if ev.seat != st.dealer and (seat.melds or seat.draws != 1 or st.replacement):
        return illegal("R5.1", "declare_too_late", {"seat": ev.seat}, ev.step, ev.seat)
    return None


def _check_pong(st: GameState, ev: Event) -> Finding | None:
    w = st.window
    if st.phase is not Phase.CLAIM or w is None or ev.seat == w.source:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    if ev.from_seat is not None and ev.from_seat != w.source:
        return illegal("R2.3", "pong_wrong_source", {"named": ev.from_seat, "source": w.source}, ev.step, ev.seat,
                       expected=w.source, actual=ev.from_seat)
    if ev.tile != w.tile:
        return illegal("R4.1", "pong_wrong_tile", {"seat": ev.seat, "tile": code(ev.tile), "want": code(w.tile)},
                       ev.step, ev.seat, expected=code(w.tile), actual=code(ev.tile))
    if seat.hand[ev.tile] < 2:
        return illegal("R4.1", "pong_without_pair", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat)
    if seat.declared is not None:
        return illegal("R5.2", "pong_when_declared", {"seat": ev.seat}, ev.step, ev.seat)
    if ev.tile in seat.pong_locks:
        return illegal("R13.2", "pong_locked", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat)
    return None


def _check_kong(st: GameState, ev: Event) -> Finding | None:
    kind = ev.kind
    if kind is MeldKind.EXPOSED:
        return _check_exposed(st, ev)
    if st.phase is Phase.AFTER_PONG and ev.seat == st.actor:
        return illegal("R2.3", "kong_after_pong", {"seat": ev.seat}, ev.step, ev.seat)
    if st.phase is not Phase.TURN or ev.seat != st.actor:
        return out_of_turn(st, ev)
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    if kind is MeldKind.CONCEALED and seat.hand[ev.tile] < 4:
        return illegal("R4.3", "concealed_kong_without_four", {"seat": ev.seat, "tile": code(ev.tile),
                                                               "held": seat.hand[ev.tile]}, ev.step, ev.seat)
    if kind is MeldKind.ADDED and not (seat.hand[ev.tile] >= 1 and any(
            m.kind is MeldKind.PONG and m.tile == ev.tile for m in seat.melds)):
        return illegal("R4.4", "added_kong_without_pong", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat)
    return _kong_common(st, ev)


def _check_exposed(st: GameState, ev: Event) -> Finding | None:
    w = st.window
    if st.phase is not Phase.CLAIM or w is None or ev.seat == w.source:
        return out_of_turn(st, ev)
    assert ev.tile is not None
    if ev.from_seat is not None and ev.from_seat != w.source:
        return illegal("R2.3", "kong_wrong_source", {"named": ev.from_seat, "source": w.source}, ev.step, ev.seat,
                       expected=w.source, actual=ev.from_seat)
    if ev.tile != w.tile or st.seats[ev.seat].hand[ev.tile] < 3:
        return illegal("R4.2", "exposed_kong_without_three", {"seat": ev.seat, "tile": code(ev.tile),
                                                              "discard": code(w.tile)}, ev.step, ev.seat)
    return _kong_common(st, ev)


def _kong_common(st: GameState, ev: Event) -> Finding | None:
    if st.wall_left <= 0:
        return illegal("R4.5", "kong_empty_wall", {}, ev.step, ev.seat)
    if st.seats[ev.seat].declared is not None:
        return illegal("R5.2", "kong_when_declared", {"seat": ev.seat}, ev.step, ev.seat)
    return None


def _check_win(st: GameState, ev: Event) -> Finding | None:
    kind = current_win_kind(st, ev.seat)
    if kind is None:
        if st.phase is Phase.WON and any(w.seat == ev.seat for w in st.wins):
            return illegal("R10.1", "win_twice", {"seat": ev.seat}, ev.step, ev.seat)
        if st.phase is Phase.WON:
            return illegal("R2.6", "win_after_end", {"seat": ev.seat}, ev.step, ev.seat)
        if ev.kind is WinKind.ROB and st.phase is Phase.REPLACEMENT:
            return illegal("R9.1", "rob_not_added_kong", {"seat": ev.seat}, ev.step, ev.seat)
        return out_of_turn(st, ev)
    assert ev.tile is not None
    if ev.kind is not None and ev.kind is not kind:
        assert isinstance(ev.kind, WinKind)
        return illegal(_KIND_RULE[ev.kind], "win_kind_mismatch", {"marked": ev.kind.value, "kind": kind.value},
                       ev.step, ev.seat, expected=kind.value, actual=ev.kind.value)
    bad_tile = _win_tile(st, ev, kind)
    if bad_tile is not None:
        return bad_tile
    return _win_legality(st, ev, kind)


def _win_tile(st: GameState, ev: Event, kind: WinKind) -> Finding | None:
    assert ev.tile is not None
    if kind is WinKind.SELF_DRAW:
        want = st.last_draw
        if want is None:
            if st.seats[ev.seat].hand[ev.tile] > 0:
                return None
            return illegal("R6.1", "self_draw_tile_not_held", {"seat": ev.seat, "tile": code(ev.tile)},
                           ev.step, ev.seat)
    else:
        assert st.window is not None
        want = st.window.tile
    if ev.tile != want:
        return illegal(_KIND_RULE[kind], "win_wrong_tile", {"seat": ev.seat, "tile": code(ev.tile), "want": code(want)},
                       ev.step, ev.seat, expected=code(want), actual=code(ev.tile))
    return None


def _win_legality(st: GameState, ev: Event, kind: WinKind) -> Finding | None:
    """The hand itself (R3.1, R7.3), then the seat's pass locks (R13.1), in the order of R16.17."""
    assert ev.tile is not None
    a = assess(st, ev.seat, ev.tile, kind)
    if a.scored is None:
        return illegal("R3.1", "not_a_winning_hand", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat)
    if a.needs_pass:
        return illegal("R7.3", "ping_hu_without_pass", {"seat": ev.seat, "tile": code(ev.tile)}, ev.step, ev.seat)
    if ev.seat in (st.window.passed if st.window is not None and kind is not WinKind.SELF_DRAW else set()):
        return illegal("R13.1", "win_passed_tile", {"seat": ev.seat}, ev.step, ev.seat)
    if a.locked:
        lock = st.seats[ev.seat].lock
        assert lock is not None
        params: dict[str, object] = {"seat": ev.seat, "lock_step": lock.step, "until": st.profile.pass_lock_until}
        if not st.profile.pass_lock_allows_higher:
            return illegal("R13.1", "win_pass_locked", params, ev.step, ev.seat)
        params["value"], params["passed"] = a.payer_total, lock.value
        return illegal("R13.1", "win_pass_locked_not_higher", params, ev.step, ev.seat)
    return None


def _check_pass(st: GameState, ev: Event) -> Finding | None:
    w = st.window
    if st.phase not in (Phase.CLAIM, Phase.ROB) or w is None or ev.seat == w.source:
        return illegal("R2.3", "pass_outside_window", {"seat": ev.seat}, ev.step, ev.seat)
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
    step = ev.step if ev is not None else w.step
    params = {"seat": seat, "tile": code(w.tile), "window_step": w.step}
    if w.rob:
        return illegal("R9.2", "must_win_rob", params, step, seat)
    return illegal("R8.2", "must_win_hot_shot", params, step, seat)


def must_win_at_end(st: GameState) -> Finding | None:
    """R16.6: the record ends with other seats' wins: name the discard or added kong itself."""
    w = st.window
    if w is None or not w.must_win:
        return None
    missing = sorted(w.must_win - {x.seat for x in st.wins}, key=lambda s: (s - w.source) % st.n)
    if not missing:
        return None
    return _must_win_finding(st, None, missing[0])


