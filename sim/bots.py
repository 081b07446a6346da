"""Seeded bots for the simulator: they pick among the moves the judge allows.

A bot never decides what is legal. It lists candidate events from the state,
keeps those `rules.check` accepts, and picks one by weighted knobs. The knobs
make rare events (热炮, 抢杠, 一炮多响, 憨包豆, 过胡 ...) frequent: a real
player seldom kongs late or passes a win, a test corpus needs both often.
Every random choice goes through the one `random.Random` the caller passes,
so the same seed always gives the same moves.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from audit.api import Profile
from audit.play import HOUSE_RULES, Event, GameState, SeatState, assess, check, current_win_kind, waits
from audit.vocabulary import BIRD, COPIES, NUM_KINDS, WUGU, EventType, MeldKind, WinKind


@dataclass(frozen=True)
class Knobs:
    """Probabilities of the bots' choices; each one makes some event common or rare."""

    win_self: float = 0.97
    """Take a legal self-draw win (the rest: play on, no lock)."""
    win_discard: float = 0.8
    """Take a legal win on a discard; the rest pass it (过胡, the seat is locked)."""
    rob: float = 0.85
    """Rob a legal added kong (抢杠) when the profile does not force it."""
    explicit_pass: float = 0.5
    """Write a `pass` event for a seat that lets a win (or a pong) go."""
    idle_pass: float = 0.02
    """Write a `pass` for a seat that could claim nothing (harmless, R16.8)."""
    pong: float = 0.55
    """Pong a discard the seat holds a pair of."""
    pong_bird: float = 0.9
    """Pong a 1s (the first one makes 责任鸡)."""
    exposed_kong: float = 0.8
    """Make an exposed kong (点豆) with three in hand."""
    pong_when_three: float = 0.5
    """Pong instead when declining the exposed kong (its later kong is 憨包豆)."""
    kong: float = 0.85
    """Make a concealed/added kong at its first chance."""
    late_kong: float = 0.35
    """Make a kong past its first chance, each turn it is possible (憨包豆)."""
    kong_into_rob: float = 0.9
    """Make an added kong when another seat waits on its tile (抢杠 bait)."""
    declare: float = 0.85
    """Declare ready (报听) when the rules and the hand allow."""
    feed: float = 0.1
    """Discard a tile other seats win on (one 炮, maybe 一炮多响)."""
    feed_hot: float = 0.6
    """The same right after a kong (热炮)."""
    feed_multi: float = 0.7
    """Discard a tile two or more seats can win on (一炮多响)."""
    ready_deal: float = 0.15
    """Chance that some seat is dealt a ready hand (报听, 地胡; the dealer sometimes a whole one, 天胡)."""
    sloppy: float = 0.06
    """Chance that a seat plays a whole hand discarding at random (more 荒庄)."""
    keep_bird: float = 1.5
    """Extra weight for keeping 1s in hand (chickens pay)."""
    keep_fourth: float = 4.0
    """Extra weight for keeping the fourth tile of an own pong (a later 转弯豆, maybe robbed)."""
    follow: float = 0.9
    """Where the profile plays 跟庄 (R17.8): follow the dealer's first discard with one's own first
    discard when holding it (asked only under such a profile, so other profiles play as before)."""
    feed_claim: float = 0.5
    """Where the profile plays R17.4 `any`: the chance that a deal gives one seat a pair of 1s (8p) and
    two others one each, that a seat discards one after the first while another holds a pair (the bots
    peek), and that a pair of the first one is kept for a later claim, so that a later claim makes a
    责任鸡 (asked only there)."""
    break_ready: float = 0.3
    """Where the profile plays R18.3 `ever`: a seat with a kong that has been ready after a discard
    discards a tile that leaves it not ready, so that its dou turns on that test (asked only there)."""
    bird_kong: float = 0.3
    """Where the profile plays R18.5 `keeps_charge`: the chance that a deal gives one seat three 1s (or,
    under 乌骨鸡, 8p) and another the fourth, and that the holder of the fourth discards it while it is
    the first (the bots peek), so that the first one is konged (asked only there)."""
    feed_bird: float = 0.8
    """Where the profile plays R19.6 `won_tile` `both`: the chance that a seat holding a chicken tile
    another seat can win on discards it (asked only there)."""
    liable_shot: float = 0.9
    """Where the profile plays R18.4 `void`: a seat holding three or four of a tile discards its lone
    1s (8p) while it is the first; a seat that owes a 冲锋鸡 or 责任鸡 (it discarded the first 1s or 8p)
    or claimed one takes each kong it may and then feeds a winnable tile, a 热炮: each with this
    probability (asked only there)."""

    @classmethod
    def with_overrides(cls, overrides: dict[str, Any]) -> "Knobs":
        """Knobs from `--knob NAME=P` values; an unknown name is a ValueError."""
        names = {f.name for f in fields(cls)}
        bad = sorted(set(overrides) - names)
        if bad:
            raise ValueError(f"unknown knob {', '.join(bad)} (known: {', '.join(sorted(names))})")
        return cls(**{k: float(v) for k, v in overrides.items()})


def legal(st: GameState, ev: Event) -> bool:
    """Whether the judge accepts `ev` as the next event (numbered as it would be)."""
    ev.step = st.steps
    return check(st, ev) is None


# ------------------------------------------------------------------ the own turn

def turn_move(st: GameState, rng: random.Random, knobs: Knobs, sloppy: bool) -> Event:
    """The actor's move after a draw (or on the dealer's first turn): win, kong, declare or discard."""
    a = st.actor
    seat = st.seats[a]
    if st.pending_declare == a:
        return Event(0, EventType.DISCARD, a, ready_discards(seat)[0][1])
    win = self_draw_win(st, a)
    if win is not None and rng.random() < knobs.win_self:
        return win
    if seat.declared is not None and st.last_draw is not None:
        return Event(0, EventType.DISCARD, a, st.last_draw)
    kong = kong_move(st, rng, knobs)
    if kong is not None:
        return kong
    if not sloppy and _may_declare(st, a) and rng.random() < knobs.declare:
        return Event(0, EventType.DECLARE, a)
    return Event(0, EventType.DISCARD, a, choose_discard(st, a, rng, knobs, sloppy))


def self_draw_win(st: GameState, a: int) -> Event | None:
    """The legal self-draw win, if any; on the dealer's dealt 14 the best-valued tile (R16.15)."""
    if current_win_kind(st, a) is not WinKind.SELF_DRAW:
        return None
    if st.last_draw is not None:
        ev = Event(0, EventType.WIN, a, st.last_draw, WinKind.SELF_DRAW)
        return ev if legal(st, ev) else None
    best: tuple[int, Event] | None = None
    for t in range(NUM_KINDS):
        if st.seats[a].hand[t]:
            ev = Event(0, EventType.WIN, a, t, WinKind.SELF_DRAW)
            if legal(st, ev):
                units = assess(st, a, t, WinKind.SELF_DRAW).payer_total
                if best is None or units > best[0]:
                    best = (units, ev)
    return best[1] if best else None


def kong_move(st: GameState, rng: random.Random, knobs: Knobs) -> Event | None:
    """A concealed or added kong the judge allows, made with the knob of its timing (R4.6)."""
    a = st.actor
    seat = st.seats[a]
    pongs = {m.tile for m in seat.melds if m.kind is MeldKind.PONG}
    for t in range(NUM_KINDS):
        if seat.hand[t] == 4:
            kind = MeldKind.CONCEALED
        elif seat.hand[t] and t in pongs:
            kind = MeldKind.ADDED
        else:
            continue
        ev = Event(0, EventType.KONG, a, t, kind)
        if legal(st, ev) and rng.random() < _kong_chance(st, a, t, kind, knobs):
            return ev
    return None


def _kong_chance(st: GameState, a: int, t: int, kind: MeldKind, knobs: Knobs) -> float:
    """First chance (R4.6) or late; an added kong somebody waits on is bait for 抢杠."""
    seat = st.seats[a]
    first = t in seat.turn_draws or (kind is MeldKind.CONCEALED and seat.first_turn)
    p = knobs.kong if first else knobs.late_kong
    if kind is MeldKind.ADDED and any(st.seats[o].wins_with(t) for o in range(st.n) if o != a):
        p = max(p, knobs.kong_into_rob)
    return p


def _may_declare(st: GameState, a: int) -> bool:
    """报听 is allowed now (R5.1) and some discard leaves the hand ready."""
    return (st.profile.declared is not None and legal(st, Event(0, EventType.DECLARE, a))
            and bool(ready_discards(st.seats[a])))


def ready_discards(seat: SeatState) -> list[tuple[int, int]]:
    """(number of waits, tile) for each discard that leaves the hand ready, most waits first."""
    work = list(seat.hand)
    melds = seat.meld_tiles()
    out = []
    for t in range(NUM_KINDS):
        if work[t]:
            work[t] -= 1
            w = waits(work, melds)
            work[t] += 1
            if w:
                out.append((len(w), t))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


# ------------------------------------------------------------------ discards

def choose_discard(st: GameState, a: int, rng: random.Random, knobs: Knobs, sloppy: bool) -> int:
    """Keep the hand close to ready: the discard leaving the most live waits, else the loosest tile.

    A ready 13-tile hand has at most one isolated tile (the single wait of 单钓
    or 七对), so with three isolated tiles no discard can be ready and with two
    only those two can: the wait search, most of the simulator's time, runs
    only where it can succeed, and on at most LOOSE tiles.
    """
    seat = st.seats[a]
    held = [t for t in range(NUM_KINDS) if seat.hand[t]]
    if sloppy:
        return rng.choice(held)
    house = _house_discard(st, a, rng, knobs)
    if house is not None:
        return house
    if st.profile.follow_dealer is not None:
        tile = _follow_tile(st, a)
        if tile is not None and rng.random() < knobs.follow:
            return tile
    fed = _feed_tile(st, a, held, rng, knobs)
    if fed is not None:
        return fed
    pongs = {m.tile for m in seat.melds if m.kind is MeldKind.PONG}
    loose = sorted(held, key=lambda t: _connected(seat.hand, t, not seat.melds, knobs)
                   + (knobs.keep_fourth if t in pongs else 0.0) + rng.random() * 0.5)
    alone = [t for t in loose if _isolated(seat.hand, t)]
    tries = [] if len(alone) >= 3 else (alone if len(alone) == 2 else loose[:LOOSE])
    live = _live_counts(st, a) if tries else []
    work = list(seat.hand)
    melds = seat.meld_tiles()
    best, most = loose[0], 0
    for t in tries:
        work[t] -= 1
        n_live = sum(live[x] for x in waits(work, melds))
        work[t] += 1
        if n_live > most:
            best, most = t, n_live
    return best


def _follow_tile(st: GameState, a: int) -> int | None:
    """R17.8: the dealer's first discard, when this is `a`'s first discard, every seat between the
    dealer and `a` followed it, and `a` holds one; for the dealer's own first discard, a tile every
    other seat holds (the bots peek, as when they feed a win)."""
    seat = st.seats[a]
    if seat.discards_made:
        return None
    if a == st.dealer:
        common = [t for t in range(NUM_KINDS) if seat.hand[t] and all(o.hand[t] for o in st.seats)]
        return common[0] if common else None
    tile = st.seats[st.dealer].first_discard
    between = [(st.dealer + i) % st.n for i in range(1, (a - st.dealer) % st.n)]
    if tile < 0 or not seat.hand[tile] or any(st.seats[s].first_discard != tile for s in between):
        return None
    return tile


def _house_discard(st: GameState, a: int, rng: random.Random, knobs: Knobs) -> int | None:
    """The discards that make a house rule happen (R17.4, R18.3, R18.4, R18.5, R19.4), asked only under a
    profile that plays it (so every other profile draws the same random numbers as before)."""
    for find, knob in _house_ways(st.profile):
        tile = find(st, a)
        if tile is not None and rng.random() < getattr(knobs, knob):
            return tile
    return None


_WAYS: dict[int, tuple[Profile, list[tuple[Callable[[GameState, int], int | None], str]]]] = {}


def _house_ways(prof: Profile) -> list[tuple[Callable[[GameState, int], int | None], str]]:
    """(discard finder, knob) of each house rule the profile plays whose knob (audit/house_rules.py) is
    a discard strategy, in STRATEGIES order; worked out once per profile (asked at every discard)."""
    hit = _WAYS.get(id(prof))
    if hit is not None and hit[0] is prof:
        return hit[1]
    ways = [(find, knob) for knob, find in STRATEGIES.items() for rule in HOUSE_RULES
            if rule.knob == knob and rule.played(prof) is not None]
    if len(_WAYS) > 64:
        _WAYS.clear()
    _WAYS[id(prof)] = (prof, ways)
    return ways


def _chicken_tiles(st: GameState) -> tuple[int, ...]:
    return (BIRD, WUGU) if st.profile.wugu_on else (BIRD,)


def _later_for_claim(st: GameState, a: int) -> int | None:
    """R17.4: a chicken tile whose first copy has been discarded, held by `a`, of which another seat
    holds a pair."""
    for tile in _chicken_tiles(st):
        if tile in st.first_chicken and st.seats[a].hand[tile] and any(
                o.hand[tile] == 2 for i, o in enumerate(st.seats) if i != a):
            return tile
    return None


def _is_first_chicken(st: GameState, tile: int, step: int) -> bool:
    fc = st.first_chicken.get(tile)
    return fc is not None and fc.step == step


def _first_for_kong(st: GameState, a: int) -> int | None:
    """R18.5: a chicken tile nobody has discarded yet, of which `a` holds one and another seat three."""
    for tile in _chicken_tiles(st):
        if tile not in st.first_chicken and st.seats[a].hand[tile] and any(
                o.hand[tile] == 3 for i, o in enumerate(st.seats) if i != a):
            return tile
    return None


def _charge_before_kong(st: GameState, a: int) -> int | None:
    """R18.4: a chicken tile nobody has discarded yet, held alone by a seat that holds three or four of
    another tile (a kong to come, then maybe a 热炮): discarding it first makes that seat liable."""
    seat = st.seats[a]
    if not any(c >= 3 for c in seat.hand):
        return None
    for tile in _chicken_tiles(st):
        if tile not in st.first_chicken and seat.hand[tile] == 1:
            return tile
    return None


def _breaking_tile(st: GameState, a: int) -> int | None:
    """R18.3: for a seat with a kong that was ready after one of its discards, a discard that leaves it
    not ready (the first by tile order), if any."""
    seat = st.seats[a]
    if seat.ready_step < 0 or not any(m.is_kong for m in seat.melds):
        return None
    work = list(seat.hand)
    melds = seat.meld_tiles()
    for t in range(NUM_KINDS):
        if work[t]:
            work[t] -= 1
            ready = bool(waits(work, melds))
            work[t] += 1
            if not ready:
                return t
    return None


def _bird_to_winner(st: GameState, a: int) -> int | None:
    """R19.6: a chicken tile `a` holds that another seat can win on by discard (the won tile then
    also lies in `a`'s pond)."""
    for tile in _chicken_tiles(st):
        if st.seats[a].hand[tile] and any(tile in st.seats[o].waits() and _could_win(st, o, tile)
                                          for o in range(st.n) if o != a):
            return tile
    return None


STRATEGIES: dict[str, Callable[[GameState, int], int | None]] = {
    "feed_claim": _later_for_claim, "bird_kong": _first_for_kong, "break_ready": _breaking_tile,
    "liable_shot": _charge_before_kong, "feed_bird": _bird_to_winner,
}
"""A house rule's knob (audit/house_rules.py `knob`) that names a discard strategy: the tile it discards."""


def _liable(st: GameState, a: int) -> bool:
    """R18.4 `void` (R19.4 `void_all`): whether `a` owes (or is owed as claimer) a 冲锋鸡 or 责任鸡 that a
    burn would change."""
    if st.profile.hot_shot.burn_liabilities == "kept":
        return False
    return any(fc.seat == a or fc.claimed_by == a for fc in st.first_chicken.values())


def _isolated(cnt: list[int], t: int) -> bool:
    """A single tile with no tile of its suit within two ranks: it belongs to no set or partial set."""
    r = t % 9
    return cnt[t] == 1 and not any(cnt[t + d] for d in (-2, -1, 1, 2) if 0 <= r + d <= 8)


LOOSE = 4
"""How many of the loosest tiles `choose_discard` tries for readiness."""


def _feed_tile(st: GameState, a: int, held: list[int], rng: random.Random, knobs: Knobs) -> int | None:
    """A tile other seats can legally win on: feeds 点炮, 热炮 after a kong, and 一炮多响 (peeking is allowed here).

    Reads the other seats' cached waits (R3.3), so it costs nothing when nobody is ready."""
    hot = st.seats[a].kong_this_turn is not None
    waiting = {o: st.seats[o].waits() for o in range(st.n) if o != a}
    best, most = None, 0
    for t in held:
        k = sum(1 for o, w in waiting.items() if t in w and (hot or _could_win(st, o, t)))
        if k > most:
            best, most = t, k
    if most >= 2 and rng.random() < knobs.feed_multi:
        return best
    p = (knobs.liable_shot if _liable(st, a) else knobs.feed_hot) if hot else knobs.feed
    if most and rng.random() < p:
        return best
    return None


def _could_win(st: GameState, o: int, t: int) -> bool:
    """Whether seat `o` could take `t` by discard with 通行证 and no lock (before any window opens)."""
    return assess(st, o, t, WinKind.DISCARD).legal


def _live_counts(st: GameState, a: int) -> list[int]:
    """Copies of each tile the seat cannot see (its hand, every meld and discard on the table)."""
    seen = list(st.seats[a].hand)
    for s in st.seats:
        for t in s.meld_tiles():
            seen[t] += 1
        for t, _ in s.discards:
            seen[t] += 1
    return [max(0, COPIES - c) for c in seen]


def _connected(cnt: list[int], t: int, concealed: bool, knobs: Knobs) -> float:
    """How much a tile belongs with its neighbours: copies, then ranks one and two away."""
    r = t % 9

    def near(d: int) -> int:
        return cnt[t + d] if 0 <= r + d <= 8 else 0

    score = 4.0 * (cnt[t] - 1) + 2.0 * (near(-1) + near(1)) + 1.0 * (near(-2) + near(2))
    if r in (0, 8):
        score -= 0.5
    if concealed and cnt[t] == 2 and sum(1 for c in cnt if c >= 2) >= 5:
        score += 3.0
    if t == BIRD:
        score += knobs.keep_bird
    return score


# ------------------------------------------------------------------ claim windows

def window_moves(st: GameState, rng: random.Random, knobs: Knobs) -> list[Event]:
    """Everything that follows a discard or an added kong: passes, wins, a claim, or the next draw."""
    w = st.window
    assert w is not None
    order = [(w.source + i) % st.n for i in range(1, st.n)]
    kind = WinKind.ROB if w.rob else WinKind.DISCARD
    can_win = [s for s in order if legal(st, Event(0, EventType.WIN, s, w.tile, kind))]
    p = knobs.rob if w.rob else knobs.win_discard
    winners = [s for s in can_win if s in w.must_win or rng.random() < p]
    out = [Event(0, EventType.PASS, s) for s in can_win if s not in winners and rng.random() < knobs.explicit_pass]
    if rng.random() < knobs.idle_pass:
        idle = [s for s in order if s not in can_win and st.seats[s].hand[w.tile] < 2]
        out += [Event(0, EventType.PASS, rng.choice(idle))] if idle else []
    if winners:
        return out + [Event(0, EventType.WIN, s, w.tile, kind) for s in winners]
    if not w.rob:
        claim = _claim(st, rng, knobs, order, out)
        if claim is not None:
            return out + [claim]
    nxt = _next_draw(st)
    return out + ([nxt] if nxt is not None else [])


def _claim(st: GameState, rng: random.Random, knobs: Knobs, order: list[int], out: list[Event]) -> Event | None:
    """A pong or exposed kong of the discard (at most one seat can hold two of it)."""
    w = st.window
    assert w is not None
    for s in order:
        held = st.seats[s].hand[w.tile]
        if held < 2:
            continue
        kong = Event(0, EventType.KONG, s, w.tile, MeldKind.EXPOSED, w.source)
        pong = Event(0, EventType.PONG, s, w.tile, None, w.source)
        if held >= 3 and legal(st, kong) and rng.random() < knobs.exposed_kong:
            return kong
        p = knobs.pong_when_three if held >= 3 else (knobs.pong_bird if w.tile == BIRD else knobs.pong)
        if st.profile.chicken.responsibility_claims == "any" and _is_first_chicken(st, w.tile, w.step):
            p = 1 - knobs.feed_claim  # R17.4: leave the first for a later claim now and then
        if legal(st, pong) and rng.random() < p:
            return pong
        passed = any(e.seat == s for e in out)
        if not passed and legal(st, Event(0, EventType.PASS, s)) and rng.random() < knobs.explicit_pass / 4:
            out.append(Event(0, EventType.PASS, s))
    return None


def _next_draw(st: GameState) -> Event | None:
    """The replacement draw after an added kong, the next seat's draw, or None: 荒庄 (R10.2)."""
    w = st.window
    assert w is not None
    if w.rob:
        return Event(0, EventType.DRAW, w.source, st.next_wall_tile(True))
    if st.wall_left <= 0:
        return None
    return Event(0, EventType.DRAW, st.next_seat(w.source), st.next_wall_tile(False))
