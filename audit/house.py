"""The chicken ledger (R11) with the profile's house-rule values (R17.1-R17.6, R17.9, R17.10, R18.4,
R18.5, R19.1, R19.2, R19.4, R19.6).

One computation for every profile: it reads each house-rule parameter where that parameter
changes a payment of R11, so at their defaults it pays exactly R11.

R17 reads a 冲锋鸡 as its tile, a normal chicken wherever it lies, plus an *extra* of
charge - normal (times the 金鸡 multiplier); R11 is unchanged by that reading. Each payment is
made of lines, each with the rule that decides it; lines are grouped into one payment per
(payer, payee, rule), so the comparison can cite R17.x when a platform gets that part wrong.
The notes word a 冲锋鸡 as R17 reads it (two parts) where the profile plays a chicken house
rule, else as R11 does (one chicken at charge value): words only, the amounts are the same.
A tile can be read in a seat's pond where it no longer lies: a konged first 1s (R18.5), a first
1s claimed by a seat that does not qualify (R19.2), the tile won on a discard (R19.6).
`waived` lists the payments a parameter cancels (qualifying seats paying each other, a 责任鸡 not
owed, a second 冲锋鸡, melded chickens under 包鸡 or R19.1, a claimed tile R19.2 takes off its
claimer, a burned shooter's liabilities under R18.4 and R19.4), for the comparison's words when
a platform pays them anyway; they are not paid. R18 is applied to what R17 gives (R18.6), R19 to
what both give (R19.7).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.chickens import Flip, SeatChickens, flip_of
from audit.items import Item
from audit.kinds import ItemKind, MeldKind, WinKind
from audit.state import FirstChicken, GameState
from audit.tiles import BIRD, WUGU, code
from audit.values import Note, note
from audit.profiles import Profile


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
    """A 冲锋鸡 of this hand: whose extra it is, and whether its tile lies in its holder's pond (on the
    table, or `virtual`: read there although it was claimed or won, R18.5, R19.2, R19.6)."""

    sp: Species
    fc: FirstChicken
    holder: int
    on_table: bool
    rule: str
    virtual: bool

    def __init__(self, sp: Species, fc: FirstChicken, holder: int, on_table: bool, rule: str,
                 virtual: bool = False) -> None:
        self.sp = sp
        self.fc = fc
        self.holder = holder
        self.on_table = on_table
        self.rule = rule
        self.virtual = virtual


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


@dataclass
class Group:
    """The lines of one rule, summed: one payment's amount, rule and params (shared by its payers)."""

    amount: int
    rule: str
    params: dict[str, Any]

    def __init__(self, amount: int, rule: str, params: dict[str, Any]) -> None:
        self.amount = amount
        self.rule = rule
        self.params = params


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


def two_parts(prof: Profile) -> bool:
    """Whether the notes word a 冲锋鸡 as R17 reads it, its tile and its extra: where the profile plays a
    chicken house rule (R17, R18.4, R18.5, R19.1, R19.2, R19.4, R19.6); else as R11 does, one chicken
    at charge value. Words only."""
    return prof.chicken_house_rules


def kong_claim(st: GameState, tile: int, discarder: int, claimer: int) -> bool:
    """Whether the claim of `discarder`'s `tile` by `claimer` was an exposed kong (a pong that later
    became an added kong, or was robbed, was a pong): only one meld of a tile can exist."""
    return any(m.tile == tile and m.from_seat == discarder and m.kind is MeldKind.EXPOSED
               for m in st.seats[claimer].melds)


def _charge_of(st: GameState, sp: Species, fc: FirstChicken, qual: set[int]) -> Charge | None:
    """R11.3, R11.4, R17.3, R18.5, R19.2, R19.6: the 冲锋鸡 a first discarded chicken makes, if any."""
    c = st.profile.chicken
    if fc.won_on:
        # R11.3: a first 1s won on is a normal chicken in each winner's hand; R19.6 `both`: it also
        # stays in its discarder's pond, where R11.3 reads it as the 冲锋鸡.
        return Charge(sp, fc, fc.seat, True, "R19.6", True) if c.won_tile == "both" else None
    if fc.claimed_by is None:
        return Charge(sp, fc, fc.seat, True, sp.rule)
    if c.exposed_kong_claim == "keeps_charge" and kong_claim(st, sp.tile, fc.seat, fc.claimed_by):
        # R18.5, on R17.3's (and R19.2's) result: an exposed kong leaves its discarder the whole
        # 冲锋鸡, as if the tile still lay unclaimed in its pond; the kong keeps its four tiles.
        return Charge(sp, fc, fc.seat, True, "R18.5", True)
    if c.claimed_charge == "to_claimer":
        holder = fc.claimed_by if fc.claimed_by in qual else fc.seat
        return Charge(sp, fc, holder, False, "R17.3")
    if c.claimed_charge == "to_ready_claimer":
        # R19.2: the qualifying claimer's 冲锋鸡 (its tile in the claimer's meld, as R17.3), else its
        # discarder's whole 冲锋鸡, as if the tile still lay in the discarder's pond.
        if fc.claimed_by in qual:
            return Charge(sp, fc, fc.claimed_by, False, "R19.2")
        return Charge(sp, fc, fc.seat, True, "R19.2", True)
    return None


def charges(st: GameState, kinds: list[Species], qual: set[int]) -> tuple[list[Charge], list[Charge]]:
    """The 冲锋鸡 of this hand, and those R17.10 `first_any` takes away (one per hand, the first
    1s or 8p discarded)."""
    first_any = st.profile.chicken.charge_scope == "first_any"
    firsts = [(fc, sp) for sp in kinds for fc in [st.first_chicken.get(sp.tile)] if fc is not None]
    if first_any and len(firsts) > 1:
        firsts.sort(key=lambda p: p[0].step)
    out: list[Charge] = []
    dropped: list[Charge] = []
    for i, (fc, sp) in enumerate(firsts):
        ch = _charge_of(st, sp, fc, qual)
        if ch is None:
            continue
        if first_any and i > 0:
            ch.rule = "R17.10"
            dropped.append(ch)
        else:
            out.append(ch)
    return out, dropped


def _counts(st: GameState, seat: int, hand: list[int], tile: int, table_charge: bool) -> tuple[int, int, int, bool]:
    """(in hand, in melds, discards on the table apart from a 冲锋鸡 tile, concealed kong)."""
    s = st.seats[seat]
    melded = 0
    ck = False
    for m in s.melds:
        if m.tile == tile:
            melded += m.size
            if m.kind is MeldKind.CONCEALED and not m.robbed:
                ck = True
    discarded = 0
    for t, _ in s.discards:
        if t == tile:
            discarded += 1
    return hand[tile], melded, discarded - (1 if table_charge else 0), ck


def chicken_items(st: GameState, hands: list[list[int]], won_or_ready: set[int], burned: set[int],
                  shot: set[int], turned: int | None) -> tuple[list[SeatChickens], list[Item], list[Item]]:
    """Tallies, payments and waived payments of the chickens (R11) under the profile's house-rule values.

    `hands`: each seat's final concealed tiles (a winner's with the tile it won on); `burned`: seats
    whose credits are burned (R8.3, R9.3), `shot` those of them burned by a 热炮 (R18.4 and R19.4 speak
    of the shooter); `turned`: the flip tile (R11.5), None when the wall was empty."""
    prof = st.profile
    c = prof.chicken
    n = st.n
    flip = flip_of(prof, turned)
    # (R18.4/R19.4 asked only where a 热炮 burned its shooter, R19.6 only where a discard was won on: a
    # hand reads (audit.reads) only the house rules that can act on it, and the fit tries no other.)
    burn_liabilities = prof.hot_shot.burn_liabilities if shot else "kept"
    void = shot if burn_liabilities != "kept" else set()
    """R18.4 `void` (and R19.4 `void_all`): burned 热炮 shooters that owe no 冲锋鸡 and no 责任鸡."""
    free_all = shot if burn_liabilities == "void_all" else set()
    """R19.4 `void_all`: burned 热炮 shooters whose own chickens cost them nothing either."""
    req = prof.chicken_requires_ready
    qual = {s for s in range(n) if s not in burned and (not req or s in won_or_ready)}
    kinds = species(st, flip)
    live, dropped = charges(st, kinds, qual)
    here = {(ch.holder, ch.sp.tile): ch for ch in live if ch.on_table}
    """The 冲锋鸡 lying in a seat's pond: its own discard on the table, or read there (`virtual`)."""
    won = _won_tiles(st) if any(x.kind is WinKind.DISCARD for x in st.wins) and c.won_tile == "both" else {}
    """R19.6: the tile won on a discard, also in its discarder's pond (a 冲锋鸡 of its own aside)."""
    claimed_free = {(ch.fc.claimed_by, ch.sp.tile) for ch in live if ch.rule == "R19.2" and ch.virtual}
    """R19.2: a claimer that does not qualify, whose claimed first chicken stays its discarder's."""
    two: bool | None = None
    """R17's words or R11's (`two_parts`), asked only where they differ: a 冲锋鸡 or a liability."""
    baoji = c.exposed_payers == "all_unready"
    melded_free = c.unready_melded == "free"
    counts_discards = prof.chicken_counts_discards
    credit: list[list[Line]] = [[] for _ in range(n)]
    owed: list[list[Line]] = [[] for _ in range(n)]
    waived_owed: list[list[Line]] = [[] for _ in range(n)]
    tallies: list[SeatChickens] = []
    pool: list[tuple[int, Line]] = []
    """R17.1: the discarded chickens of the seats that do not qualify, by whose they are, owed by every
    seat that does not qualify."""
    shooter_charge: list[tuple[int, Line]] = []
    """R17.1 with R18.4: a void shooter's 冲锋鸡 tile, owed by every other non-qualifying seat."""
    for seat in range(n):
        t = SeatChickens(seat, seat in qual)
        base_rule = "R11.7" if seat in burned else "R11.6"
        liable = req and seat not in won_or_ready
        cr = credit[seat]
        ow = owed[seat]
        for sp in kinds:
            ch = here.get((seat, sp.tile))
            real = ch is not None and not ch.virtual
            in_hand, melded, discarded, _ = _counts(st, seat, hands[seat], sp.tile, real)
            w = won.get((seat, sp.tile), 0) if won else 0
            if w and ch is not None and ch.rule == "R19.6":
                w -= 1  # the won tile is this seat's 冲锋鸡, read in its pond as such
            free = 1 if claimed_free and (seat, sp.tile) in claimed_free else 0
            t.tiles += [sp.name] * (in_hand + melded + discarded + w + (1 if ch is not None else 0))
            counted = in_hand + melded - free + (discarded if counts_discards else 0)
            value = sp.normal * sp.mult
            if counted:
                cr.append(Line(counted * value, sp.rule, _count_part(counted, sp), False))
            if two is None and (ch is not None or (liable and melded + discarded)):
                two = two_parts(prof)
            if two is False:
                # R11's words: a 冲锋鸡 is one chicken at charge value, in the tally of its discarder
                # whether it qualifies (a credit) or not (a liability, listed first).
                if ch is not None:
                    whole = sp.charge * sp.mult
                    cr.append(Line(whole, sp.rule, _charge_part(sp), False))
                    ow.append(Line(whole, base_rule, note("charge_chicken", {"chicken": sp.name, "amount": whole}),
                                   False))
                exposed = melded + discarded
                if liable and exposed:
                    ow.append(Line(exposed * value, base_rule, _exposed_part(exposed, sp), False))
                continue
            if w and counts_discards:
                cr.append(Line(w * value, "R19.6", _won_part(w, sp), False))
            if ch is not None:
                cr.append(Line(value, ch.rule, _count_part(1, sp), False))
            if seat in qual:
                continue
            rule = sp.rule if sp.rule != "R11.6" else base_rule
            if baoji:
                # R18.4 on R17.1: a void shooter's own 冲锋鸡 tile leaves its own share of the pool.
                apart = ch is not None and seat in void
                k = discarded + (1 if real and not apart else 0)
                if k:
                    pool.append((seat, Line(k * value, "R17.1", _shared_part(k, sp, seat), False)))
                if w:
                    pool.append((seat, Line(w * value, "R19.6", _shared_part(w, sp, seat), False)))
                if ch is not None and ch.virtual and not apart:
                    pool.append((seat, Line(value, ch.rule, _shared_part(1, sp, seat), False)))
                if apart and ch is not None:
                    shooter_charge.append((seat, Line(value, "R17.1" if real else ch.rule,
                                                      _shared_part(1, sp, seat), False)))
                if liable and melded:
                    waived_owed[seat].append(Line(melded * value, "R17.1", _exposed_part(melded, sp), False))
            else:
                if liable:
                    _exposed_lines(melded - free, discarded, w, free, sp, rule, melded_free, seat in free_all,
                                   ow, waived_owed[seat])
                if ch is not None:
                    charge_tile = Line(value, rule if real else ch.rule, _count_part(1, sp), False)
                    if seat in void:
                        charge_tile.rule = "R18.4"
                        waived_owed[seat].append(charge_tile)
                    else:
                        ow.append(charge_tile)
        _flip_lines(st, seat, hands[seat], flip, kinds, won, cr)
        tallies.append(t)
    if two is None and (live or pool or shooter_charge):
        two = two_parts(prof)
    if two:
        for ch in live:
            _charge_lines(ch, qual, credit, owed if ch.holder not in void else waived_owed, burned, void)
        for seat in range(n):
            if seat in qual:
                continue
            for owner, line in pool:
                if owner == seat and seat in free_all:
                    waived_owed[seat].append(Line(line.amount, "R19.4", line.part, False))
                else:
                    owed[seat].append(line)
            for shooter, line in shooter_charge:
                if seat != shooter:
                    owed[seat].append(line)
                else:
                    waived_owed[seat].append(Line(line.amount, "R18.4", line.part, False))
    pays: list[Item] = []
    waived: list[Item] = []
    each_other = c.qualified_pay_each_other
    for seat in sorted(qual):
        groups = _grouped(credit[seat])
        extras: list[Group] = []
        skipped: list[Group] = []
        if not each_other:
            extras = _grouped([ln for ln in credit[seat] if ln.extra], "R17.2")
            skipped = _grouped([ln for ln in credit[seat] if not ln.extra], "R17.2")
        for payer in range(n):
            if payer == seat:
                continue
            if payer in qual and not each_other:
                pays += _paid(payer, seat, extras, "chicken_credit")
                waived += _paid(payer, seat, skipped, "chicken_credit")
            else:
                pays += _paid(payer, seat, groups, "chicken_credit")
    for seat in range(n):
        if seat in qual:
            continue
        groups = _grouped(owed[seat])
        aside = _grouped(waived_owed[seat])
        for payee in sorted(qual):
            pays += _paid(seat, payee, groups, "chicken_owed")
            waived += _paid(seat, payee, aside, "chicken_owed")
    for ch in dropped:
        waived += _charge_payments(ch, qual, n)
    resp, resp_waived = _responsibility(st, won_or_ready, qual, void)
    pays += resp
    waived += resp_waived
    for t in tallies:
        t.credit = sum(ln.amount for ln in credit[t.seat])
        t.parts = [ln.part for ln in credit[t.seat]]
        t.liability = sum(ln.amount for ln in owed[t.seat])
        t.liability_parts = [ln.part for ln in owed[t.seat]]
    return tallies, [p for p in pays if p.amount], [p for p in waived if p.amount]


def _won_tiles(st: GameState) -> dict[tuple[int, int], int]:
    """R19.6: (discarder, tile) of the discard won on (once, however many won it); a robbed kong's
    tile is not a discard."""
    out: dict[tuple[int, int], int] = {}
    for w in st.wins:
        if w.kind is WinKind.DISCARD and w.source is not None:
            out[(w.source, w.tile)] = 1
    return out


def _exposed_lines(melded: int, discarded: int, won: int, free: int, sp: Species, rule: str, melded_free: bool,
                   free_all: bool, owed: list[Line], waived: list[Line]) -> None:
    """R11.6 (R16.3, R16.12): what a seat that does not qualify pays each qualifying seat for its exposed
    chickens, its melded ones and its discards (`won`: R19.6's tile, in its pond too); R19.2 takes a
    claimed first chicken that stays its discarder's out of the claimer's meld, R19.1 `free` its melded
    ones, R19.4 `void_all` (a burned shooter) the rest: those go to `waived`, citing the rule."""
    value = sp.normal * sp.mult
    if free:
        waived.append(Line(free * value, "R19.2", _exposed_part(free, sp), False))
    if melded_free and melded:
        waived.append(Line(melded * value, "R19.1", _exposed_part(melded, sp), False))
        melded = 0
    exposed = melded + discarded
    if free_all:
        if exposed + won:
            waived.append(Line((exposed + won) * value, "R19.4", _exposed_part(exposed + won, sp), False))
        return
    if exposed:
        owed.append(Line(exposed * value, rule, _exposed_part(exposed, sp), False))
    if won:
        owed.append(Line(won * value, "R19.6", _won_part(won, sp), False))


def _count_part(count: int, sp: Species) -> Note:
    params: dict[str, Any] = {"count": count, "chicken": sp.name, "amount": count * sp.normal * sp.mult}
    if sp.mult > 1:
        params["gold"] = sp.mult
        return note("chicken_count_gold", params)
    return note("chicken_count", params)


def _charge_part(sp: Species) -> Note:
    """R11.3's words for a 冲锋鸡 credit: one chicken at charge value (金鸡 included)."""
    params: dict[str, Any] = {"chicken": sp.name, "amount": sp.charge * sp.mult}
    if sp.mult > 1:
        return note("charge_chicken_gold", {**params, "gold": sp.mult})
    return note("charge_chicken", params)


def _exposed_part(count: int, sp: Species) -> Note:
    return note("exposed_chickens", {"count": count, "chicken": sp.name, "amount": count * sp.normal * sp.mult})


def _shared_part(count: int, sp: Species, seat: int) -> Note:
    """R17.1: `count` chickens `seat` discarded, paid by every seat that does not qualify."""
    amount = count * sp.normal * sp.mult
    return note("shared_discards", {"count": count, "chicken": sp.name, "seat": seat, "amount": amount})


def _won_part(count: int, sp: Species) -> Note:
    """R19.6: the tile won on, read in its discarder's pond too."""
    return note("won_discard", {"count": count, "chicken": sp.name, "amount": count * sp.normal * sp.mult})


def _charge_lines(ch: Charge, qual: set[int], credit: list[list[Line]], owed: list[list[Line]],
                  burned: set[int], void: set[int]) -> None:
    """The extra of a live 冲锋鸡: a credit of its qualifying holder, or its holder's debt (R11.6, R17.3,
    R18.5); a void shooter's debt (R18.4) goes to `owed`, which the caller then passes as the waived."""
    extra = ch.sp.extra
    if not extra:
        return
    part = _extra_part(ch, extra)
    if ch.holder in qual:
        credit[ch.holder].append(Line(extra, ch.rule, part, True))
    elif ch.holder in void:
        owed[ch.holder].append(Line(extra, "R18.4", part, True))
    else:
        rule = ch.rule if ch.rule != "R11.6" else ("R11.7" if ch.holder in burned else "R11.6")
        owed[ch.holder].append(Line(extra, rule, part, True))


def _extra_part(ch: Charge, extra: int) -> Note:
    params: dict[str, Any] = {"chicken": ch.sp.name, "amount": extra}
    if ch.rule == "R18.5" and ch.fc.claimed_by is not None:
        return note("konged_charge_extra", {**params, "seat": ch.fc.claimed_by})
    if ch.rule == "R19.2" and ch.virtual and ch.fc.claimed_by is not None:
        return note("claimed_charge_kept", {**params, "seat": ch.fc.claimed_by})
    if ch.fc.won_on:
        return note("won_charge_extra", params)
    if ch.fc.claimed_by is not None:
        return note("claimed_charge_extra", {**params, "seat": ch.fc.claimed_by})
    if ch.sp.mult > 1:
        return note("charge_extra_gold", {**params, "gold": ch.sp.mult})
    return note("charge_extra", params)


def _charge_payments(ch: Charge, qual: set[int], n: int) -> list[Item]:
    """What a 冲锋鸡's extra alone would move (for a 冲锋鸡 R17.10 takes away)."""
    extra = ch.sp.extra
    params = {"parts": [_extra_part(ch, extra)]}
    if ch.holder in qual:
        return [Item(ItemKind.CHICKEN, o, ch.holder, extra, ch.rule, "chicken_credit", params)
                for o in range(n) if o != ch.holder]
    return [Item(ItemKind.CHICKEN, ch.holder, q, extra, ch.rule, "chicken_owed", params) for q in sorted(qual)]


def _grouped(lines: list[Line], rule: str | None = None) -> list[Group]:
    """One group per rule (in the order the rules first appear), its parts the lines' parts; `rule`,
    when given, is cited instead of the lines' own."""
    if not lines:
        return []
    first = lines[0].rule
    if all(ln.rule == first for ln in lines):
        return [Group(sum(ln.amount for ln in lines), rule or first, {"parts": [ln.part for ln in lines]})]
    rules: list[str] = []
    for ln in lines:
        if ln.rule not in rules:
            rules.append(ln.rule)
    out = []
    for r in rules:
        mine = [ln for ln in lines if ln.rule == r]
        out.append(Group(sum(ln.amount for ln in mine), rule or r, {"parts": [ln.part for ln in mine]}))
    return out


def _paid(payer: int, payee: int, groups: list[Group], what: str) -> list[Item]:
    """The payments of `groups` from `payer` to `payee`, one per group."""
    return [Item(ItemKind.CHICKEN, payer, payee, g.amount, g.rule, what, g.params) for g in groups]


def _flip_lines(st: GameState, seat: int, hand: list[int], flip: Flip | None, kinds: list[Species],
                won: dict[tuple[int, int], int], out: list[Line]) -> None:
    """R11.5, R11.8 flip credits; a 金鸡 tile (1s, or 8p under R17.6) earns none of its own. `won`: R19.6's
    tile won on, in its discarder's pond too, where discards count for flip chickens (R16.12)."""
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
        w = won.get((seat, tile), 0) if won and with_discards else 0
        if w:
            out.append(Line(w * prof.chicken.flip, "R19.6", note("flip_chicken", {
                "count": w, "tile": code(tile), "amount": w * prof.chicken.flip}), False))


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


def _responsibility(st: GameState, won_or_ready: set[int], qual: set[int],
                    void: set[int]) -> tuple[list[Item], list[Item]]:
    """R11.4 责任鸡 extras, with R17.4 (any claim), R17.5 (not when the discarder won or is ready),
    R17.9 (never for 8p), then R18.4 (a void shooter owes none, and is paid one it is owed as claimer)
    and R18.5 (an exposed kong makes none)."""
    prof = st.profile
    c = prof.chicken
    extra = c.responsibility
    pays: list[Item] = []
    waived: list[Item] = []
    if not extra:
        return pays, waived
    for tile in (BIRD, WUGU) if prof.wugu_on else (BIRD,):
        for discarder, claimer, first in _claims(st, tile):
            rule = "R11.4" if first else "R17.4"
            params = {"tile": code(tile)}
            pay: Item | None = None
            # R18.4: "a 责任鸡 another seat owes it as claimer is still paid to it" -- the burn no
            # longer stops it; readiness, where required, still does (R11.7 without the burn).
            paid_to_void = claimer in void and (not prof.chicken_requires_ready or claimer in won_or_ready)
            if claimer in qual or paid_to_void:
                pay = Item(ItemKind.CHICKEN, discarder, claimer, extra, "R18.4" if paid_to_void else rule,
                           "responsibility_to_burned" if paid_to_void else "responsibility_chicken", params)
            elif prof.responsibility_reverse and discarder in qual:
                pay = Item(ItemKind.CHICKEN, claimer, discarder, extra, rule, "responsibility_chicken_reverse", params)
            if pay is None:
                continue
            if tile == WUGU and not c.wugu_responsibility:
                pay.rule = "R17.9"
                waived.append(pay)
            elif not c.responsibility_if_discarder_ready and discarder in won_or_ready:
                pay.rule = "R17.5"
                waived.append(pay)
            elif pay.payer in void:
                pay.rule = "R18.4"
                waived.append(pay)
            elif c.exposed_kong_claim == "keeps_charge" and kong_claim(st, tile, discarder, claimer):
                pay.rule = "R18.5"
                waived.append(pay)
            else:
                pays.append(pay)
    return pays, waived
