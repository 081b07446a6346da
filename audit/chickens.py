"""R11 chickens (鸡): who holds which, what each seat earns, what it owes.

Settled only after a win. A seat's chickens are counted from its final hand
(a winner's includes the tile it won on), its melds, and its discards still
on the table. The payments follow R11.6/R11.7 with the readings of R16.3,
R16.11 and R16.12.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from audit.profiles import Profile
from audit.kinds import MeldKind
from audit.state import FirstChicken, GameState
from audit.tiles import BIRD, WUGU, code, next_rank
from audit.values import Note, note


@dataclass
class Flip:
    """The turned tile (R11.5), the flip chickens it makes, and whether it is 金鸡."""

    turned: int
    chickens: tuple[int, ...]
    gold: bool

    def __init__(self, turned: int, chickens: tuple[int, ...], gold: bool) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.turned = turned
        self.chickens = chickens
        self.gold = gold


@dataclass
class SeatChickens:
    """One seat's chicken tally: credit if it qualifies, liability if it does not."""

    seat: int
    qualifies: bool
    credit: int = 0
    liability: int = 0
    parts: list[Note] = field(default_factory=list)
    """The working of the credit, as note parts (audit/catalogue/notes.toml)."""
    liability_parts: list[Note] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)

    def __init__(self, seat: int, qualifies: bool, credit: int = 0, liability: int = 0,
                 parts: list[Note] | None = None, liability_parts: list[Note] | None = None,
                 tiles: list[str] | None = None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.seat = seat
        self.qualifies = qualifies
        self.credit = credit
        self.liability = liability
        self.parts = [] if parts is None else parts
        self.liability_parts = [] if liability_parts is None else liability_parts
        self.tiles = [] if tiles is None else tiles


@dataclass
class Payment:
    """A chicken transfer in units."""

    payer: int
    payee: int
    amount: int
    rule: str
    code: str
    """The note's catalogue code; `params` its values."""
    params: dict[str, Any]

    def __init__(self, payer: int, payee: int, amount: int, rule: str, code: str, params: dict[str, Any]) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.rule = rule
        self.code = code
        self.params = params


def flip_of(prof: Profile, turned: int | None) -> Flip | None:
    """R11.5: the flip chickens of a turned tile; 1s among them makes 金鸡."""
    if turned is None:
        return None
    steps = (1, -1) if prof.flip == "up_down" else (1,)
    chickens = tuple(dict.fromkeys(next_rank(turned, s) for s in steps))
    return Flip(turned, chickens, BIRD in chickens)


@dataclass
class Holding:
    """Where a seat's copies of one tile are: hand, melds, discards (charge tile apart)."""

    hand: int
    melded: int
    discarded: int
    charge: int
    concealed_kong: bool

    def __init__(self, hand: int, melded: int, discarded: int, charge: int, concealed_kong: bool) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.hand = hand
        self.melded = melded
        self.discarded = discarded
        self.charge = charge
        self.concealed_kong = concealed_kong


def holding(st: GameState, seat: int, hand: list[int], tile: int) -> Holding:
    """Copies of `tile` a seat has, split by where they lie."""
    s = st.seats[seat]
    melded = sum(m.size for m in s.melds if m.tile == tile)
    ck = any(m.tile == tile and m.kind is MeldKind.CONCEALED and not m.robbed for m in s.melds)
    discarded = sum(1 for t, _ in s.discards if t == tile)
    fc = charge_chicken(st, tile)
    charge = 1 if fc is not None and fc.seat == seat else 0
    return Holding(hand[tile], melded, discarded - charge, charge, ck)


def charge_chicken(st: GameState, tile: int) -> FirstChicken | None:
    """R11.3: the first discarded chicken of this kind, when nobody claimed or won it."""
    fc = st.first_chicken.get(tile)
    if fc is None or fc.claimed_by is not None or fc.won_on:
        return None
    return fc


def _chicken_values(prof: Profile, flip: Flip | None) -> list[tuple[int, int, int, int, str]]:
    """(tile, normal, charge, multiplier, code) of each chicken kind in play."""
    gold = prof.chicken.gold_multiplier if flip is not None and flip.gold else 1
    out = [(BIRD, prof.chicken.normal, prof.chicken.charge, gold, "1s")]
    if prof.wugu_on and prof.wugu_ji is not None:
        out.append((WUGU, prof.wugu_ji.normal, prof.wugu_ji.charge, 1, "8p"))
    return out


def tally(st: GameState, seat: int, hand: list[int], qualifies: bool, exposed_liable: bool,
          flip: Flip | None) -> SeatChickens:
    """Credit (R11.3-R11.6, R11.8) and liability (R11.6, R11.7) of one seat."""
    prof = st.profile
    out = SeatChickens(seat, qualifies)
    for tile, normal, charge, mult, name in _chicken_values(prof, flip):
        h = holding(st, seat, hand, tile)
        counted = h.hand + h.melded + (h.discarded if prof.chicken_counts_discards else 0)
        out.tiles += [code(tile)] * (h.hand + h.melded + h.discarded + h.charge)
        if counted:
            out.credit += counted * normal * mult
            params: dict[str, Any] = {"count": counted, "chicken": name, "amount": counted * normal * mult}
            if mult > 1:
                params["gold"] = mult
            out.parts.append(note("chicken_count_gold" if mult > 1 else "chicken_count", params))
        if h.charge:
            out.credit += charge * mult
            params = {"chicken": name, "amount": charge * mult}
            if mult > 1:
                out.parts.append(note("charge_chicken_gold", {**params, "gold": mult}))
            else:
                out.parts.append(note("charge_chicken", params))
            out.liability += charge * mult
            out.liability_parts.append(note("charge_chicken", params))
        exposed = h.melded + h.discarded
        if exposed_liable and exposed:
            out.liability += exposed * normal * mult
            out.liability_parts.append(note("exposed_chickens", {"count": exposed, "chicken": name,
                                                                 "amount": exposed * normal * mult}))
    _flip_credit(st, seat, hand, flip, out)
    return out


def _flip_credit(st: GameState, seat: int, hand: list[int], flip: Flip | None, out: SeatChickens) -> None:
    prof = st.profile
    if flip is None:
        return
    with_discards = prof.chicken_counts_discards and prof.flip_counts_discards
    for tile in flip.chickens:
        if tile == BIRD:
            continue
        h = holding(st, seat, hand, tile)
        if h.concealed_kong and prof.chicken.concealed_kong_flip is not None:
            value = prof.chicken.concealed_kong_flip + (h.hand + h.melded - 4) * prof.chicken.flip
        else:
            value = (h.hand + h.melded) * prof.chicken.flip
        copies = h.hand + h.melded
        if with_discards:
            value += (h.discarded + h.charge) * prof.chicken.flip
            copies += h.discarded + h.charge
        if value:
            out.credit += value
            out.parts.append(note("flip_chicken", {"count": copies, "tile": code(tile), "amount": value}))


def payments(st: GameState, tallies: list[SeatChickens], burned: set[int]) -> list[Payment]:
    """R11.6 credits and liabilities (R11.7 for a burned seat), R11.4 responsibility extras."""
    out: list[Payment] = []
    qual = [t.seat for t in tallies if t.qualifies]
    for t in tallies:
        if t.qualifies and t.credit:
            credit = {"parts": t.parts}
            out += [Payment(o, t.seat, t.credit, "R11.6", "chicken_credit", credit) for o in range(st.n) if o != t.seat]
    for t in tallies:
        if not t.qualifies and t.liability:
            owed = {"parts": t.liability_parts}
            rule = "R11.7" if t.seat in burned else "R11.6"
            out += [Payment(t.seat, q, t.liability, rule, "chicken_owed", owed) for q in qual]
    out += _responsibility(st, set(qual))
    return [p for p in out if p.amount]


def _responsibility(st: GameState, qual: set[int]) -> list[Payment]:
    prof = st.profile
    extra = prof.chicken.responsibility
    out: list[Payment] = []
    for tile in (BIRD, WUGU) if prof.wugu_on else (BIRD,):
        fc = st.first_chicken.get(tile)
        if fc is None or fc.claimed_by is None or not extra:
            continue
        claimer, discarder = fc.claimed_by, fc.seat
        if claimer in qual:
            out.append(Payment(discarder, claimer, extra, "R11.4", "responsibility_chicken", {"tile": code(tile)}))
        elif prof.responsibility_reverse and discarder in qual:
            out.append(Payment(claimer, discarder, extra, "R11.4", "responsibility_chicken_reverse",
                               {"tile": code(tile)}))
    return out
