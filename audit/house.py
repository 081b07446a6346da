"""R17 house-rule variants of the chicken settlement (R17.1-R17.6, R17.9, R17.10).

`audit.chickens` settles R11 as the five source profiles play it; a profile that
turns any R17 chicken parameter on is settled here instead (`Chicken.r17`), so
the default path stays today's code, byte for byte and at its speed.

R17 reads a 冲锋鸡 as its tile, a normal chicken wherever it lies, plus an
*extra* of charge - normal (times the 金鸡 multiplier). Each payment is a line
with the rule that decides it; lines are grouped into one payment per (payer,
payee, rule), so the comparison can cite R17.x when a platform gets that part
wrong. `waived` lists the payments a parameter cancels (qualifying seats paying
each other, a 责任鸡 not owed, a second 冲锋鸡, melded chickens under 包鸡), for
the comparison's words when a platform pays them anyway; they are not paid.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.chickens import Flip, Payment, SeatChickens
from audit.kinds import MeldKind
from audit.state import FirstChicken, GameState
from audit.tiles import BIRD, WUGU, code
from audit.values import Note, note


@dataclass
class Species:
    """One chicken tile in play: its values and its multiplier in this hand."""

    tile: int
    name: str
    normal: int
    charge: int
    mult: int
    rule: str
    """The rule of its plain payments: R11.6, or R17.6 for an 8p made 金鸡."""

    def __init__(self, tile: int, name: str, normal: int, charge: int, mult: int, rule: str) -> None:
        self.tile = tile
        self.name = name
        self.normal = normal
        self.charge = charge
        self.mult = mult
        self.rule = rule

    @property
    def extra(self) -> int:
        """R17: the 冲锋 extra, charge - normal, times the multiplier."""
        return (self.charge - self.normal) * self.mult


@dataclass
class Charge:
    """A 冲锋鸡 of this hand: whose extra it is, and whether its tile lies on its discarder's table."""

    sp: Species
    fc: FirstChicken
    holder: int
    on_table: bool
    rule: str

    def __init__(self, sp: Species, fc: FirstChicken, holder: int, on_table: bool, rule: str) -> None:
        self.sp = sp
        self.fc = fc
        self.holder = holder
        self.on_table = on_table
        self.rule = rule


@dataclass
class Line:
    """One part of what a seat earns from (or owes to) each other seat."""

    amount: int
    rule: str
    part: Note
    extra: bool
    """A 冲锋 extra: paid by every other seat even where qualifying seats do not pay each other (R17.2)."""

    def __init__(self, amount: int, rule: str, part: Note, extra: bool) -> None:
        self.amount = amount
        self.rule = rule
        self.part = part
        self.extra = extra


def species(st: GameState, flip: Flip | None) -> list[Species]:
    """1s, and 8p under wugu_ji; R11.5 金鸡 for 1s, R17.6 for 8p."""
    prof = st.profile
    c = prof.chicken
    gold = c.gold_multiplier if flip is not None and flip.gold else 1
    out = [Species(BIRD, "1s", c.normal, c.charge, gold, "R11.6")]
    if prof.wugu_on and prof.wugu_ji is not None:
        gold8 = c.wugu_gold and flip is not None and WUGU in flip.chickens
        out.append(Species(WUGU, "8p", prof.wugu_ji.normal, prof.wugu_ji.charge,
                           c.gold_multiplier if gold8 else 1, "R17.6" if gold8 else "R11.6"))
    return out


def _charge_of(st: GameState, sp: Species, fc: FirstChicken, qual: set[int]) -> Charge | None:
    """R11.3, R11.4, R17.3: the 冲锋鸡 a first discarded chicken makes, if any."""
    if fc.won_on:
        return None
    if fc.claimed_by is None:
        return Charge(sp, fc, fc.seat, True, sp.rule)
    if st.profile.chicken.claimed_charge != "to_claimer":
        return None
    holder = fc.claimed_by if fc.claimed_by in qual else fc.seat
    return Charge(sp, fc, holder, False, "R17.3")


def charges(st: GameState, kinds: list[Species], qual: set[int]) -> tuple[list[Charge], list[Charge]]:
    """The 冲锋鸡 of this hand, and those R17.10 `first_any` takes away (one per hand, the first
    1s or 8p discarded)."""
    firsts = [(fc, sp) for sp in kinds for fc in [st.first_chicken.get(sp.tile)] if fc is not None]
    if st.profile.chicken.charge_scope == "first_any" and len(firsts) > 1:
        firsts.sort(key=lambda p: p[0].step)
    out: list[Charge] = []
    dropped: list[Charge] = []
    for i, (fc, sp) in enumerate(firsts):
        ch = _charge_of(st, sp, fc, qual)
        if ch is None:
            continue
        if st.profile.chicken.charge_scope == "first_any" and i > 0:
            ch.rule = "R17.10"
            dropped.append(ch)
        else:
            out.append(ch)
    return out, dropped


def _counts(st: GameState, seat: int, hand: list[int], tile: int, table_charge: bool) -> tuple[int, int, int, bool]:
    """(in hand, in melds, discards on the table apart from a 冲锋鸡 tile, concealed kong)."""
    s = st.seats[seat]
    melded = sum(m.size for m in s.melds if m.tile == tile)
    ck = any(m.tile == tile and m.kind is MeldKind.CONCEALED and not m.robbed for m in s.melds)
    discarded = sum(1 for t, _ in s.discards if t == tile)
    return hand[tile], melded, discarded - (1 if table_charge else 0), ck


def settle_chickens(st: GameState, hands: list[list[int]], won_or_ready: set[int], burned: set[int],
                    flip: Flip | None) -> tuple[list[SeatChickens], list[Payment], list[Payment]]:
    """Tallies, payments and waived payments of the chickens under the profile's R17 parameters."""
    prof = st.profile
    c = prof.chicken
    n = st.n
    qual = {s for s in range(n) if s not in burned and (not prof.chicken_requires_ready or s in won_or_ready)}
    kinds = species(st, flip)
    live, dropped = charges(st, kinds, qual)
    table_charge = {(ch.fc.seat, ch.sp.tile) for ch in live if ch.on_table}
    baoji = c.exposed_payers == "all_unready"
    credit: list[list[Line]] = [[] for _ in range(n)]
    owed: list[list[Line]] = [[] for _ in range(n)]
    waived_owed: list[list[Line]] = [[] for _ in range(n)]
    tallies: list[SeatChickens] = []
    pool: list[Line] = []
    for seat in range(n):
        t = SeatChickens(seat, seat in qual)
        base_rule = "R11.7" if seat in burned else "R11.6"
        exposed_liable = prof.chicken_requires_ready and seat not in won_or_ready
        for sp in kinds:
            tc = (seat, sp.tile) in table_charge
            in_hand, melded, discarded, _ = _counts(st, seat, hands[seat], sp.tile, tc)
            t.tiles += [sp.name] * (in_hand + melded + discarded + (1 if tc else 0))
            counted = in_hand + melded + (discarded if prof.chicken_counts_discards else 0)
            value = sp.normal * sp.mult
            if counted:
                credit[seat].append(Line(counted * value, sp.rule, _count_part(counted, sp), False))
            if tc:
                credit[seat].append(Line(value, sp.rule, _count_part(1, sp), False))
            if seat in qual:
                continue
            rule = sp.rule if sp.rule != "R11.6" else base_rule
            if baoji:
                if discarded + (1 if tc else 0):
                    k = discarded + (1 if tc else 0)
                    pool.append(Line(k * value, "R17.1",
                                     note("shared_discards", {"count": k, "chicken": sp.name, "seat": seat,
                                                              "amount": k * value}), False))
                if exposed_liable and melded:
                    waived_owed[seat].append(Line(melded * value, "R17.1", note("exposed_chickens", {
                        "count": melded, "chicken": sp.name, "amount": melded * value}), False))
            else:
                exposed = melded + discarded
                if exposed_liable and exposed:
                    owed[seat].append(Line(exposed * value, rule, note("exposed_chickens", {
                        "count": exposed, "chicken": sp.name, "amount": exposed * value}), False))
                if tc:
                    owed[seat].append(Line(value, rule, _count_part(1, sp), False))
        _flip_lines(st, seat, hands[seat], flip, kinds, credit[seat])
        tallies.append(t)
    for ch in live:
        _charge_lines(ch, qual, credit, owed, burned)
    for seat in range(n):
        if seat not in qual:
            owed[seat] = owed[seat] + pool
    pays: list[Payment] = []
    waived: list[Payment] = []
    for seat in sorted(qual):
        for payer in range(n):
            if payer == seat:
                continue
            if payer in qual and not c.qualified_pay_each_other:
                lines = [ln for ln in credit[seat] if ln.extra]
                skipped = [ln for ln in credit[seat] if not ln.extra]
                pays += _grouped(payer, seat, lines, "chicken_credit", "R17.2")
                waived += _grouped(payer, seat, skipped, "chicken_credit", "R17.2")
            else:
                pays += _grouped(payer, seat, credit[seat], "chicken_credit", None)
    for seat in range(n):
        if seat in qual:
            continue
        for payee in sorted(qual):
            pays += _grouped(seat, payee, owed[seat], "chicken_owed", None)
            waived += _grouped(seat, payee, waived_owed[seat], "chicken_owed", None)
    for ch in dropped:
        waived += _charge_payments(ch, qual, n)
    resp, resp_waived = _responsibility(st, won_or_ready, qual)
    pays += resp
    waived += resp_waived
    for t in tallies:
        t.credit = sum(ln.amount for ln in credit[t.seat])
        t.parts = [ln.part for ln in credit[t.seat]]
        t.liability = sum(ln.amount for ln in owed[t.seat])
        t.liability_parts = [ln.part for ln in owed[t.seat]]
    return tallies, [p for p in pays if p.amount], [p for p in waived if p.amount]


def _count_part(count: int, sp: Species) -> Note:
    params: dict[str, Any] = {"count": count, "chicken": sp.name, "amount": count * sp.normal * sp.mult}
    if sp.mult > 1:
        params["gold"] = sp.mult
        return note("chicken_count_gold", params)
    return note("chicken_count", params)


def _charge_lines(ch: Charge, qual: set[int], credit: list[list[Line]], owed: list[list[Line]],
                  burned: set[int]) -> None:
    """The extra of a live 冲锋鸡: a credit of its qualifying holder, or its holder's debt (R11.6, R17.3)."""
    extra = ch.sp.extra
    if not extra:
        return
    part = _extra_part(ch, extra)
    if ch.holder in qual:
        credit[ch.holder].append(Line(extra, ch.rule, part, True))
    else:
        rule = ch.rule if ch.rule != "R11.6" else ("R11.7" if ch.holder in burned else "R11.6")
        owed[ch.holder].append(Line(extra, rule, part, True))


def _extra_part(ch: Charge, extra: int) -> Note:
    params: dict[str, Any] = {"chicken": ch.sp.name, "amount": extra}
    if ch.fc.claimed_by is not None:
        return note("claimed_charge_extra", {**params, "seat": ch.fc.claimed_by})
    if ch.sp.mult > 1:
        return note("charge_extra_gold", {**params, "gold": ch.sp.mult})
    return note("charge_extra", params)


def _charge_payments(ch: Charge, qual: set[int], n: int) -> list[Payment]:
    """What a 冲锋鸡's extra alone would move (for a 冲锋鸡 R17.10 takes away)."""
    extra = ch.sp.extra
    params = {"parts": [_extra_part(ch, extra)]}
    if ch.holder in qual:
        return [Payment(o, ch.holder, extra, ch.rule, "chicken_credit", params) for o in range(n) if o != ch.holder]
    return [Payment(ch.holder, q, extra, ch.rule, "chicken_owed", params) for q in sorted(qual)]


def _grouped(payer: int, payee: int, lines: list[Line], what: str, rule: str | None) -> list[Payment]:
    """One payment per rule (in the order the rules first appear), its parts the lines' parts."""
    rules: list[str] = []
    for ln in lines:
        if ln.rule not in rules:
            rules.append(ln.rule)
    out = []
    for r in rules:
        mine = [ln for ln in lines if ln.rule == r]
        out.append(Payment(payer, payee, sum(ln.amount for ln in mine), rule or r, what,
                           {"parts": [ln.part for ln in mine]}))
    return out


def _flip_lines(st: GameState, seat: int, hand: list[int], flip: Flip | None, kinds: list[Species],
                out: list[Line]) -> None:
    """R11.5, R11.8 flip credits; a 金鸡 tile (1s, or 8p under R17.6) earns none of its own."""
    prof = st.profile
    if flip is None:
        return
    gold_tiles = {sp.tile for sp in kinds if sp.mult > 1}
    with_discards = prof.chicken_counts_discards and prof.flip_counts_discards
    for tile in flip.chickens:
        if tile == BIRD or tile in gold_tiles:
            continue
        in_hand, melded, discarded, ck = _counts(st, seat, hand, tile, False)
        if ck and prof.chicken.concealed_kong_flip is not None:
            value = prof.chicken.concealed_kong_flip + (in_hand + melded - 4) * prof.chicken.flip
        else:
            value = (in_hand + melded) * prof.chicken.flip
        copies = in_hand + melded
        if with_discards:
            value += discarded * prof.chicken.flip
            copies += discarded
        if value:
            out.append(Line(value, "R11.6", note("flip_chicken", {"count": copies, "tile": code(tile),
                                                                  "amount": value}), False))


def _claims(st: GameState, tile: int) -> list[tuple[int, int, bool]]:
    """(discarder, claimer, is the first discarded one) of every pong or exposed kong of `tile` (R17.4)."""
    fc = st.first_chicken.get(tile)
    first = [(fc.seat, fc.claimed_by, True)] if fc is not None and fc.claimed_by is not None else []
    if st.profile.chicken.responsibility_claims != "any":
        return first
    out: list[tuple[int, int, bool]] = list(first)
    for seat, s in enumerate(st.seats):
        for m in s.melds:
            if m.tile == tile and m.from_seat is not None and not (first and first[0][1] == seat):
                out.append((m.from_seat, seat, False))
    return out


def _responsibility(st: GameState, won_or_ready: set[int], qual: set[int]) -> tuple[list[Payment], list[Payment]]:
    """R11.4 责任鸡 extras, with R17.4 (any claim), R17.5 (not when the discarder won or is ready)
    and R17.9 (never for 8p)."""
    prof = st.profile
    c = prof.chicken
    extra = c.responsibility
    pays: list[Payment] = []
    waived: list[Payment] = []
    if not extra:
        return pays, waived
    for tile in (BIRD, WUGU) if prof.wugu_on else (BIRD,):
        for discarder, claimer, first in _claims(st, tile):
            rule = "R11.4" if first else "R17.4"
            params = {"tile": code(tile)}
            pay: Payment | None = None
            if claimer in qual:
                pay = Payment(discarder, claimer, extra, rule, "responsibility_chicken", params)
            elif prof.responsibility_reverse and discarder in qual:
                pay = Payment(claimer, discarder, extra, rule, "responsibility_chicken_reverse", params)
            if pay is None:
                continue
            if tile == WUGU and not c.wugu_responsibility:
                pay.rule = "R17.9"
                waived.append(pay)
            elif not c.responsibility_if_discarder_ready and discarder in won_or_ready:
                pay.rule = "R17.5"
                waived.append(pay)
            else:
                pays.append(pay)
    return pays, waived
