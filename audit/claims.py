"""Who could win what, and for how much: shared by the judge and the pass inference.

When a discard or an added kong opens a claim window, every other seat's
legal win is worked out once (R7, R8.2, R9.2, R13.1); the window remembers it
so that closing the window can lock the seats that let a win go, and a
must-win profile can name the seat that failed to win.
"""
from __future__ import annotations

from dataclasses import dataclass

from audit import hands
from audit.hands import Pattern, Scored
from audit.kinds import WinKind
from audit.state import Event, GameState, Phase, Win
from audit.values import Valued, valuation


@dataclass
class Assessment:
    """A seat's possible win on a tile: its pattern, value, and what stands in its way."""

    kind: WinKind
    scored: Scored | None
    valued: Valued | None
    payer_total: int
    needs_pass: bool
    locked: bool
    situational: tuple[Pattern, ...]
    kong_flower: bool
    hot: bool
    source: int | None

    def __init__(self, kind: WinKind, scored: Scored | None, valued: Valued | None, payer_total: int, needs_pass: bool,
                 locked: bool, situational: tuple[Pattern, ...], kong_flower: bool, hot: bool, source: int | None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.kind = kind
        self.scored = scored
        self.valued = valued
        self.payer_total = payer_total
        self.needs_pass = needs_pass
        self.locked = locked
        self.situational = situational
        self.kong_flower = kong_flower
        self.hot = hot
        self.source = source

    @property
    def legal(self) -> bool:
        """A winning hand that 通行证 and the pass lock allow."""
        return self.scored is not None and not self.needs_pass and not self.locked


def current_win_kind(st: GameState, seat: int) -> WinKind | None:
    """The kind of win the phase allows this seat: self-draw, discard, rob, or None."""
    w = st.window
    if st.phase is Phase.TURN and st.actor == seat and (st.last_draw is not None or _dealer_first(st, seat)):
        return WinKind.SELF_DRAW
    if st.phase in (Phase.CLAIM, Phase.ROB, Phase.WON) and w is not None and seat != w.source:
        if st.phase is Phase.WON and any(x.seat == seat for x in st.wins):
            return None
        return WinKind.ROB if w.rob else WinKind.DISCARD
    return None


def _dealer_first(st: GameState, seat: int) -> bool:
    s = st.seats[seat]
    return seat == st.dealer and s.draws == 0 and s.discards_made == 0 and not s.melds


def _situational(st: GameState, seat: int, kind: WinKind) -> tuple[Pattern, ...]:
    """天胡/地胡 (R3.2): at once, before anybody pongs or kongs."""
    s = st.seats[seat]
    if st.any_claim or s.discards_made or kind is WinKind.ROB:
        return ()
    if seat == st.dealer:
        return (Pattern.TIAN_HU,) if kind is WinKind.SELF_DRAW and s.draws == 0 else ()
    if (kind is WinKind.SELF_DRAW and s.draws == 1) or (kind is WinKind.DISCARD and s.draws == 0):
        return (Pattern.DI_HU,)
    return ()


def assess(st: GameState, seat: int, tile: int, kind: WinKind) -> Assessment:
    """Everything the rules need to know about `seat` winning `tile` now."""
    prof = st.profile
    s = st.seats[seat]
    self_draw = kind is WinKind.SELF_DRAW
    cnt = s.hand if self_draw else _plus(s.hand, tile)
    meld_tiles = s.meld_tiles()
    situ = _situational(st, seat, kind)
    scored = hands.score(cnt, len(s.melds), meld_tiles, tile, prof.hand_values,
                         needs_winning_tile=prof.long_qi_dui_needs_winning_tile, situational=situ)
    w = st.window
    source = None if self_draw or w is None else w.source
    hot = kind is WinKind.DISCARD and w is not None and w.hot
    flower = self_draw and st.replacement
    if scored is None:
        return Assessment(kind, None, None, 0, False, False, situ, flower, hot, source)
    source_declared = source is not None and st.seats[source].declared is not None
    kill = kind is WinKind.DISCARD and source_declared
    valued, total = valuation(prof, scored, kind, declared=s.declared, source_declared=source_declared,
                              kong_flower=flower, hot=hot, n=st.n)
    needs_pass = (kind is WinKind.DISCARD and scored.pattern is Pattern.PING_HU and not s.made_kong
                  and s.declared is None and not kill and not hot)
    locked = not self_draw and s.lock is not None and not (
        prof.pass_lock_allows_higher and total > s.lock.value)
    return Assessment(kind, scored, valued, total, needs_pass, locked, situ, flower, hot, source)


def _plus(cnt: list[int], tile: int) -> list[int]:
    out = list(cnt)
    out[tile] += 1
    return out


def open_window(st: GameState) -> None:
    """Work out, once, who could legally win, must win, or could pong the window's tile."""
    w = st.window
    assert w is not None
    kind = WinKind.ROB if w.rob else WinKind.DISCARD
    # (the profile is asked only where a must-win can arise: the fit tries `must_win` on those hands alone)
    must = (w.rob or w.hot) and ("rob_kong" if w.rob else "hot_shot") in st.profile.must_win
    tile = w.tile
    suit, add = tile // 9, hands.POW5[tile % 9]
    for seat in range(st.n):
        if seat == w.source:
            continue
        s = st.seats[seat]
        k = s.keys
        k0, k1, k2 = k[0], k[1], k[2]
        if suit == 0:
            k0 += add
        elif suit == 1:
            k1 += add
        else:
            k2 += add
        if hands.is_winning_keys(k0, k1, k2, not s.melds):
            a = assess(st, seat, w.tile, kind)
            if a.legal:
                w.could_win[seat] = a.payer_total
                if must:
                    w.must_win.add(seat)
        if not w.rob and s.declared is None and s.hand[w.tile] >= 2:
            w.could_pong.add(seat)


def make_win(st: GameState, ev: Event) -> Win:
    """The Win record of an accepted win event."""
    assert ev.tile is not None
    kind = current_win_kind(st, ev.seat) or WinKind.SELF_DRAW
    a = assess(st, ev.seat, ev.tile, kind)
    return Win(ev.seat, ev.tile, kind, ev.step, a.source, a.kong_flower, a.hot, a.situational, a.valued,
               a.scored, st.profile)
