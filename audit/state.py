"""The table during a hand, and how an event changes it.

`GameState.apply` trusts its input, like a chess board's push: judging an
event is `rules.check`'s job, and valuing possible and actual wins is
`audit.claims`'; the one replay step (`audit.replay.step`) calls all three in
turn, for the audit and the simulator alike. Keeping them apart lets a report
show the table before and after any step (`copy`), and keeps this module free
of hand valuation (it imports nothing that imports it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from audit import hands
from audit.kinds import EVENT_TYPES, MELD_KINDS, WIN_KINDS, EventType, MeldKind, WinKind
from audit.profiles import Profile
from audit.values import Valued
from audit.tiles import BIRD, CODES, WUGU, NUM_KINDS


class Phase(str, Enum):
    """Whose move it is and what kind of move may come next (R2)."""

    TURN = "turn"
    """The actor holds 14 and may win, kong, declare or discard."""
    AFTER_PONG = "after_pong"
    """The actor ponged and must discard (R2.3)."""
    REPLACEMENT = "replacement"
    """The actor konged (concealed/exposed) and draws from the back next."""
    ROB = "rob"
    """The actor declared an added kong: others may rob it (R9.1), then the replacement draw."""
    CLAIM = "claim"
    """The actor discarded: others may win, pong or kong it; else the next seat draws."""
    WON = "won"
    """Somebody won: only more wins on the same tile may follow (R10.1)."""


class Event:
    """A parsed event; `step` is its index in `events`. A slotted class, not a frozen
    dataclass: the replayer builds one per event and that cost shows in the benchmark.
    `kind` is a kong's MeldKind or a win's WinKind (None where the record gives none)."""

    __slots__ = ("step", "type", "seat", "tile", "kind", "from_seat")

    def __init__(self, step: int, type: EventType, seat: int, tile: int | None = None,
                 kind: MeldKind | WinKind | None = None, from_seat: int | None = None) -> None:
        self.step, self.type, self.seat, self.tile, self.kind, self.from_seat = step, type, seat, tile, kind, from_seat

    def __repr__(self) -> str:
        kind = self.kind.value if self.kind is not None else None
        return f"Event({self.step}, {self.type.value}, seat={self.seat}, tile={self.tile}, kind={kind})"

    @classmethod
    def from_json(cls, step: int, raw: dict[str, Any]) -> "Event":
        """Build from a schema-valid event object."""
        type_ = EVENT_TYPES[raw["type"]]
        if type_ is EventType.DRAW or type_ is EventType.DISCARD:  # most events; never a kind or a from
            return Event(step, type_, raw["seat"], _TILE_INDEX[raw["tile"]])
        tile = raw.get("tile")
        name = raw.get("kind")
        kind: MeldKind | WinKind | None = None
        if name is not None:
            kind = MELD_KINDS[name] if type_ is EventType.KONG else WIN_KINDS[name]
        return Event(step, type_, raw["seat"], _TILE_INDEX[tile] if tile is not None else None, kind, raw.get("from"))

    def to_json(self) -> dict[str, Any]:
        """The record's event object (record-format.md, Events): what `from_json` reads back."""
        out: dict[str, Any] = {"type": self.type.value, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = CODES[self.tile]
        if self.kind is not None:
            out["kind"] = self.kind.value
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return out


_TILE_INDEX: Final = {c: i for i, c in enumerate(CODES)}


@dataclass
class Meld:
    """A pong or kong; `scores` is R4.6's first-chance test for kongs."""

    kind: MeldKind
    tile: int
    owner: int
    from_seat: int | None
    step: int
    scores: bool = True
    pong_held_three: bool = False
    robbed: bool = False

    def __init__(self, kind: MeldKind, tile: int, owner: int, from_seat: int | None,
                 step: int, scores: bool = True, pong_held_three: bool = False, robbed: bool = False) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.kind = kind
        self.tile = tile
        self.owner = owner
        self.from_seat = from_seat
        self.step = step
        self.scores = scores
        self.pong_held_three = pong_held_three
        self.robbed = robbed

    @property
    def size(self) -> int:
        """Tiles in the meld."""
        return 3 if self.kind is MeldKind.PONG or self.robbed else 4

    @property
    def is_kong(self) -> bool:
        """Whether this meld is a kong that stands."""
        return self.kind is not MeldKind.PONG and not self.robbed


@dataclass
class Lock:
    """R13.1: a seat that passed a win; `value` is what the passed win was worth."""

    value: int
    step: int

    def __init__(self, value: int, step: int) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.value = value
        self.step = step


@dataclass
class SeatState:
    """One seat's tiles and flags."""

    hand: list[int]
    melds: list[Meld] = field(default_factory=list)
    discards: list[tuple[int, int]] = field(default_factory=list)
    declared: str | None = None
    declared_step: int | None = None
    draws: int = 0
    discards_made: int = 0
    turn_draws: set[int] = field(default_factory=set)
    first_turn: bool = False
    kong_this_turn: Meld | None = None
    made_kong: bool = False
    lock: Lock | None = None
    pong_locks: set[int] = field(default_factory=set)
    version: int = 0
    _waits: tuple[int, list[int]] | None = None
    keys: list[int] = field(default_factory=list)
    first_discard: int = -1
    """The tile of the seat's first discard, -1 before it (R17.8 跟庄); `first_discard_step` its step."""
    first_discard_step: int = -1
    ready_step: int = -1
    """R18.3 `ever`: the step of the first own discard after which the seat was ready (R3.3), -1 while
    it never was (kept only where the profile plays that test)."""

    def __init__(self, hand: list[int], melds: list[Meld] | None = None,
                 discards: list[tuple[int, int]] | None = None, declared: str | None = None,
                 declared_step: int | None = None, draws: int = 0, discards_made: int = 0,
                 turn_draws: set[int] | None = None, first_turn: bool = False, kong_this_turn: Meld | None = None,
                 made_kong: bool = False, lock: Lock | None = None, pong_locks: set[int] | None = None,
                 version: int = 0, _waits: tuple[int, list[int]] | None = None,
                 keys: list[int] | None = None, first_discard: int = -1, first_discard_step: int = -1,
                 ready_step: int = -1) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.hand = hand
        self.melds = [] if melds is None else melds
        self.discards = [] if discards is None else discards
        self.declared = declared
        self.declared_step = declared_step
        self.draws = draws
        self.discards_made = discards_made
        self.turn_draws = set() if turn_draws is None else turn_draws
        self.first_turn = first_turn
        self.kong_this_turn = kong_this_turn
        self.made_kong = made_kong
        self.lock = lock
        self.pong_locks = set() if pong_locks is None else pong_locks
        self.version = version
        self._waits = _waits
        self.keys = [] if keys is None else keys
        self.first_discard = first_discard
        self.first_discard_step = first_discard_step
        self.ready_step = ready_step
        self.__post_init__()

    def meld_tiles(self) -> list[int]:
        """Every tile in the melds (a kong lists its tile four times)."""
        return [m.tile for m in self.melds for _ in range(m.size)]

    def __post_init__(self) -> None:
        self.keys = [hands.suit_key(self.hand, s) for s in range(3)]

    def add(self, tile: int, k: int) -> None:
        """Change the count of one tile, keeping the packed suit keys in step."""
        self.hand[tile] += k
        self.keys[tile // 9] += k * hands.POW5[tile % 9]
        self.version += 1

    def waits(self) -> list[int]:
        """R3.3 waits of the 13-tile hand, cached until the hand changes (the bots ask often)."""
        if self._waits is None or self._waits[0] != self.version:
            self._waits = (self.version, hands.waits(self.hand, self.meld_tiles()))
        return self._waits[1]

    def wins_with(self, tile: int) -> bool:
        """Whether `tile` completes the 13-tile hand (R3.1): three look-ups, no search."""
        return hands.wins_with(self.hand, self.keys, not self.melds, tile)


@dataclass
class Win:
    """One 胡: who, on what, and from whom (payer for a discard or a rob)."""

    seat: int
    tile: int
    kind: WinKind
    step: int
    source: int | None
    kong_flower: bool
    hot: bool
    situational: tuple[hands.Pattern, ...] = ()
    valued: Valued | None = None
    """Its value per payer (R5.4, R6, R8.3, R19.3, R19.5), worked out once when the win is judged."""
    scored: hands.Scored | None = None
    """The pattern it was valued from."""
    valued_by: Profile | None = None
    """The profile it was valued under (a settlement under another one may value it again)."""

    def __init__(self, seat: int, tile: int, kind: WinKind, step: int, source: int | None, kong_flower: bool, hot: bool,
                 situational: tuple[hands.Pattern, ...] = (), valued: Valued | None = None,
                 scored: hands.Scored | None = None, valued_by: Profile | None = None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.seat = seat
        self.tile = tile
        self.kind = kind
        self.step = step
        self.source = source
        self.kong_flower = kong_flower
        self.hot = hot
        self.situational = situational
        self.valued = valued
        self.scored = scored
        self.valued_by = valued_by


@dataclass
class FirstChicken:
    """The first discarded 1s (or 8p): 冲锋鸡 unless claimed (R11.3, R11.4)."""

    tile: int
    seat: int
    step: int
    claimed_by: int | None = None
    won_on: bool = False

    def __init__(self, tile: int, seat: int, step: int, claimed_by: int | None = None, won_on: bool = False) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.tile = tile
        self.seat = seat
        self.step = step
        self.claimed_by = claimed_by
        self.won_on = won_on


@dataclass
class Window:
    """An open claim window on a discard or an added kong (R2.3, R9.1, R13)."""

    source: int
    tile: int
    step: int
    rob: bool
    hot_kong: Meld | None = None
    could_win: dict[int, int] = field(default_factory=dict)
    must_win: set[int] = field(default_factory=set)
    could_pong: set[int] = field(default_factory=set)
    passed: set[int] = field(default_factory=set)

    def __init__(self, source: int, tile: int, step: int, rob: bool, hot_kong: Meld | None = None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.source = source
        self.tile = tile
        self.step = step
        self.rob = rob
        self.hot_kong = hot_kong
        self.could_win = {}
        self.must_win = set()
        self.could_pong = set()
        self.passed = set()

    @property
    def hot(self) -> bool:
        """R8.1: the discarder konged and drew its replacement this turn."""
        return self.hot_kong is not None


@dataclass
class GameState:
    """Everything the rules need to judge the next event."""

    profile: Profile
    n: int
    dealer: int
    streak: int
    wall: list[int]
    seats: list[SeatState]
    front: int = 0
    back: int = 0
    phase: Phase = Phase.TURN
    actor: int = 0
    last_draw: int | None = None
    replacement: bool = False
    any_claim: bool = False
    window: Window | None = None
    wins: list[Win] = field(default_factory=list)
    first_chicken: dict[int, FirstChicken] = field(default_factory=dict)
    pending_declare: int | None = None
    steps: int = 0

    def __init__(self, profile: Profile, n: int, dealer: int, streak: int, wall: list[int], seats: list[SeatState],
                 front: int = 0, back: int = 0, phase: Phase = Phase.TURN, actor: int = 0,
                 last_draw: int | None = None, replacement: bool = False, any_claim: bool = False,
                 window: Window | None = None, wins: list[Win] | None = None,
                 first_chicken: dict[int, FirstChicken] | None = None, pending_declare: int | None = None,
                 steps: int = 0) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.profile = profile
        self.n = n
        self.dealer = dealer
        self.streak = streak
        self.wall = wall
        self.seats = seats
        self.front = front
        self.back = back
        self.phase = phase
        self.actor = actor
        self.last_draw = last_draw
        self.replacement = replacement
        self.any_claim = any_claim
        self.window = window
        self.wins = [] if wins is None else wins
        self.first_chicken = {} if first_chicken is None else first_chicken
        self.pending_declare = pending_declare
        self.steps = steps

    @classmethod
    def start(cls, profile: Profile, dealer: int, streak: int, deal: list[list[int]], wall: list[int]) -> "GameState":
        """The table after the deal: the dealer moves first (R2.1)."""
        seats = [SeatState(hand=_counts(d)) for d in deal]
        seats[dealer].first_turn = True
        return cls(profile=profile, n=len(deal), dealer=dealer, streak=streak, wall=list(wall),
                   seats=seats, back=len(wall), phase=Phase.TURN, actor=dealer)

    # ------------------------------------------------------------ queries

    @property
    def wall_left(self) -> int:
        """Tiles not yet drawn."""
        return self.back - self.front

    def next_wall_tile(self, replacement: bool) -> int | None:
        """The tile a draw must take (R2.4), None when the wall is empty."""
        if self.wall_left <= 0:
            return None
        if replacement and self.profile.replacement_from == "back":
            return self.wall[self.back - 1]
        return self.wall[self.front]

    def next_seat(self, seat: int) -> int:
        """Play order (R1.1)."""
        return (seat + 1) % self.n

    def copy(self) -> "GameState":
        """A snapshot for reports: seats, melds, window and wins copied, the profile shared (it is
        immutable). Written out rather than `copy.deepcopy`, which cannot rebuild compiled classes;
        a meld keeps its identity across the seat's list, its kong of the turn and a window."""
        melds: dict[int, Meld] = {}
        dup = GameState(self.profile, self.n, self.dealer, self.streak, list(self.wall),
                        [_copy_seat(seat, melds) for seat in self.seats], front=self.front, back=self.back,
                        phase=self.phase, actor=self.actor, last_draw=self.last_draw,
                        replacement=self.replacement, any_claim=self.any_claim,
                        window=_copy_window(self.window, melds), pending_declare=self.pending_declare,
                        steps=self.steps)
        dup.wins = [Win(w.seat, w.tile, w.kind, w.step, w.source, w.kong_flower, w.hot, w.situational, w.valued,
                        w.scored, w.valued_by)
                    for w in self.wins]
        dup.first_chicken = {tile: FirstChicken(fc.tile, fc.seat, fc.step, fc.claimed_by, fc.won_on)
                             for tile, fc in self.first_chicken.items()}
        return dup

    # ------------------------------------------------------------ apply

    def apply(self, ev: Event, win: Win | None = None) -> None:
        """Change the table by one event that `rules.check` accepted.

        Mechanics only: a discard or an added kong opens its claim window, but who
        could win it, and what a win is worth, is `audit.claims`' work, which the
        replay step (`audit.replay.advance`) does around this call; so a win event
        comes with its `win`, valued by `claims.make_win` before the table changes."""
        self.steps = ev.step + 1
        # An if-chain, not a dict keyed by EventType: an Enum member's hash is a
        # Python-level method, which costs more than the whole chain.
        t = ev.type
        if t is EventType.DISCARD:
            _apply_discard(self, ev)
        elif t is EventType.DRAW:
            _apply_draw(self, ev)
        elif t is EventType.PASS:
            _apply_pass(self, ev)
        elif t is EventType.PONG:
            _apply_pong(self, ev)
        elif t is EventType.KONG:
            _apply_kong(self, ev)
        elif t is EventType.WIN:
            assert win is not None, "a win event is applied with its Win (claims.make_win)"
            _apply_win(self, win)
        else:
            _apply_declare(self, ev)

    def _take_from_wall(self, replacement: bool) -> int:
        if replacement and self.profile.replacement_from == "back":
            self.back -= 1
            return self.wall[self.back]
        self.front += 1
        return self.wall[self.front - 1]

    def close_window(self, closer: Event | None) -> None:
        """Lock every seat that could have won and did not (R13.1, R16.13), and pong locks (R13.2)."""
        w = self.window
        if w is None:
            return
        self.window = None
        releasing = closer.seat if closer is not None and closer.type is EventType.DRAW else None
        for seat, value in w.could_win.items():
            if seat == releasing and self.profile.pass_lock_until == "draw":
                continue
            old = self.seats[seat].lock
            if old is None or value > old.value:
                self.seats[seat].lock = Lock(value, w.step)
        if w.could_pong and self.profile.pass_pong_lock:
            for seat in w.could_pong:
                if closer is None or closer.seat != seat or closer.type not in (EventType.PONG, EventType.KONG):
                    self.seats[seat].pong_locks.add(w.tile)


def _copy_meld(meld: Meld, memo: dict[int, Meld]) -> Meld:
    dup = memo.get(id(meld))
    if dup is None:
        dup = memo[id(meld)] = Meld(meld.kind, meld.tile, meld.owner, meld.from_seat, meld.step, meld.scores,
                                    meld.pong_held_three, meld.robbed)
    return dup


def _copy_seat(seat: SeatState, memo: dict[int, Meld]) -> SeatState:
    lock = Lock(seat.lock.value, seat.lock.step) if seat.lock is not None else None
    kong = _copy_meld(seat.kong_this_turn, memo) if seat.kong_this_turn is not None else None
    return SeatState(list(seat.hand), melds=[_copy_meld(meld, memo) for meld in seat.melds],
                     discards=list(seat.discards), declared=seat.declared, declared_step=seat.declared_step,
                     draws=seat.draws, discards_made=seat.discards_made, turn_draws=set(seat.turn_draws),
                     first_turn=seat.first_turn, kong_this_turn=kong,
                     made_kong=seat.made_kong, lock=lock, pong_locks=set(seat.pong_locks), version=seat.version,
                     first_discard=seat.first_discard, first_discard_step=seat.first_discard_step,
                     ready_step=seat.ready_step)


def _copy_window(window: Window | None, memo: dict[int, Meld]) -> Window | None:
    if window is None:
        return None
    hot = _copy_meld(window.hot_kong, memo) if window.hot_kong is not None else None
    dup = Window(window.source, window.tile, window.step, window.rob, hot)
    dup.could_win = dict(window.could_win)
    dup.must_win = set(window.must_win)
    dup.could_pong = set(window.could_pong)
    dup.passed = set(window.passed)
    return dup


def _counts(tiles: list[int]) -> list[int]:
    out = [0] * NUM_KINDS
    for t in tiles:
        out[t] += 1
    return out


def _apply_draw(st: GameState, ev: Event) -> None:
    replacement = st.phase in (Phase.REPLACEMENT, Phase.ROB)
    st.close_window(ev)
    tile = st._take_from_wall(replacement)
    seat = st.seats[ev.seat]
    seat.add(tile, 1)
    if not replacement:
        seat.turn_draws = set()
        seat.kong_this_turn = None
        seat.first_turn = seat.draws == 0 and ev.seat != st.dealer
    if seat.lock is not None and st.profile.pass_lock_until == "draw":
        seat.lock = None  # R13.1: any own draw, a replacement draw included
    seat.draws += 1
    seat.turn_draws.add(tile)
    st.last_draw = tile
    st.replacement = replacement
    st.phase = Phase.TURN
    st.actor = ev.seat


def _apply_discard(st: GameState, ev: Event) -> None:
    seat = st.seats[ev.seat]
    assert ev.tile is not None
    seat.add(ev.tile, -1)
    seat.discards.append((ev.tile, ev.step))
    if seat.discards_made == 0:
        seat.first_discard = ev.tile
        seat.first_discard_step = ev.step
    seat.discards_made += 1
    seat.pong_locks.clear()
    if seat.lock is not None and st.profile.pass_lock_until == "discard":
        seat.lock = None
    hot_kong = seat.kong_this_turn
    seat.kong_this_turn = None
    seat.first_turn = False
    if (ev.tile == BIRD or (ev.tile == WUGU and st.profile.wugu_on)) and ev.tile not in st.first_chicken:
        st.first_chicken[ev.tile] = FirstChicken(ev.tile, ev.seat, ev.step)
    if seat.ready_step < 0 and st.profile.dou_ready_test == "ever" and seat.waits():
        seat.ready_step = ev.step  # R18.3: ready right after one of its own discards
    st.pending_declare = None
    st.phase = Phase.CLAIM
    st.actor = ev.seat
    st.last_draw = None
    st.window = Window(ev.seat, ev.tile, ev.step, rob=False, hot_kong=hot_kong)


def _apply_declare(st: GameState, ev: Event) -> None:
    seat = st.seats[ev.seat]
    seat.declared = "hard" if ev.seat == st.dealer else "soft"
    seat.declared_step = ev.step
    st.pending_declare = ev.seat


def _claim_discard(st: GameState, ev: Event) -> tuple[int, int]:
    """Take the last discard off the table for a pong or an exposed kong."""
    w = st.window
    assert w is not None
    st.close_window(ev)
    src = st.seats[w.source]
    src.discards.pop()
    fc = st.first_chicken.get(w.tile)
    if fc is not None and fc.step == w.step:
        fc.claimed_by = ev.seat
    st.any_claim = True
    return w.source, w.tile


def _apply_pong(st: GameState, ev: Event) -> None:
    source, tile = _claim_discard(st, ev)
    seat = st.seats[ev.seat]
    held_three = seat.hand[tile] >= 3
    seat.add(tile, -2)
    seat.melds.append(Meld(MeldKind.PONG, tile, ev.seat, source, ev.step, pong_held_three=held_three))
    seat.kong_this_turn = None
    st.phase = Phase.AFTER_PONG
    st.actor = ev.seat
    st.last_draw = None


def _apply_kong(st: GameState, ev: Event) -> None:
    seat = st.seats[ev.seat]
    tile = ev.tile
    assert tile is not None
    kind = ev.kind
    assert isinstance(kind, MeldKind), "a schema-valid kong names its kind"
    st.any_claim = True
    if kind is MeldKind.EXPOSED:
        source, _ = _claim_discard(st, ev)
        seat.add(tile, -3)
        meld = Meld(kind, tile, ev.seat, source, ev.step)
        seat.melds.append(meld)
        seat.turn_draws = set()
        seat.first_turn = seat.draws == 0 and ev.seat != st.dealer
    elif kind is MeldKind.CONCEALED:
        seat.add(tile, -4)
        meld = Meld(kind, tile, ev.seat, None, ev.step,
                    scores=st.profile.late_kong_scores or first_chance(st, ev.seat, tile, kind))
        seat.melds.append(meld)
    else:
        scores = st.profile.late_kong_scores or first_chance(st, ev.seat, tile, kind)
        seat.add(tile, -1)
        meld = next(m for m in seat.melds if m.kind is MeldKind.PONG and m.tile == tile)
        meld.kind = MeldKind.ADDED
        meld.step = ev.step
        meld.scores = scores
    seat.made_kong = True
    seat.kong_this_turn = meld
    st.actor = ev.seat
    st.last_draw = None
    if kind is MeldKind.ADDED:
        st.phase = Phase.ROB
        st.window = Window(ev.seat, tile, ev.step, rob=True)
    else:
        st.phase = Phase.REPLACEMENT


def first_chance(st: GameState, seat: int, tile: int, kind: MeldKind) -> bool:
    """R4.6: is a concealed or added kong of `tile` made now at its first chance (and so scores
    where the profile has no `late_kong_scores`)? Concealed: its fourth tile came in this turn, or
    this is the seat's first turn. Added: the fourth tile was drawn this turn, onto a pong not made
    while holding three. Asked before the kong is applied; False where there is no such pong."""
    s = st.seats[seat]
    if kind is MeldKind.CONCEALED:
        return tile in s.turn_draws or s.first_turn
    pong = next((m for m in s.melds if m.kind is MeldKind.PONG and m.tile == tile), None)
    return pong is not None and tile in s.turn_draws and not pong.pong_held_three


def _apply_win(st: GameState, win: Win) -> None:
    st.wins.append(win)
    if win.kind is WinKind.SELF_DRAW:
        st.window = None
    else:
        w = st.window
        assert w is not None
        fc = st.first_chicken.get(win.tile)
        if fc is not None and fc.step == w.step and not w.rob:
            fc.won_on = True
        if not w.rob and len(st.wins) == 1:
            st.seats[w.source].discards.pop()
        if w.rob and len(st.wins) == 1:
            robbed = st.seats[w.source]
            meld = next(m for m in robbed.melds if m.step == w.step)
            meld.robbed = True
            meld.kind = MeldKind.PONG
    st.phase = Phase.WON


def _apply_pass(st: GameState, ev: Event) -> None:
    if st.window is not None:
        st.window.passed.add(ev.seat)

