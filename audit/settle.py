"""The settlement the rules require for a hand that ended legally (R4.7, R6, R8.3, R9.3, R11, R12, R14).

Every payment is an `Item` naming its kind, payer, payee, amount and rule, so
a report can show the working and the comparison (R15) can say which payment
a platform got wrong. Its note is a catalogue code with params (the working:
pattern, bonuses, chickens), rendered in words only by `to_json`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Final

from audit import hands, house
from audit.chickens import SeatChickens
from audit.catalogue import Lang
from audit.items import Item  # re-exported: `from audit.settle import Item` is the settlement's payment
from audit.kinds import BurnKind, ItemKind, MeldKind, WinKind
from audit.state import GameState, Meld, Win
from audit.values import Valued, dealer_bonus, note, ready_value, valuation
from audit.tiles import code

KIND_RULE: Final[dict[str, str]] = {
    ItemKind.HAND.value: "R6.3", ItemKind.DEALER.value: "R6.4", ItemKind.DOU.value: "R4.7",
    ItemKind.CHICKEN.value: "R11.6", ItemKind.HOT_SHOT.value: "R8.3", ItemKind.DRAW_SETTLE.value: "R12.1",
    ItemKind.FOLLOW_DEALER.value: "R17.8",
}
"""The rule a payment kind cites when the audit has no item of that kind to borrow it from; keyed by
the JSON name, because the comparison reads the record's items (and in ItemKind's order, its sort)."""


@dataclass
class Burn:
    """What burned a seat's credits or voided its kong: a 热炮 (`hot_shot`) or a 抢杠 (`rob`), at which step."""

    by: BurnKind
    step: int

    def __init__(self, by: BurnKind, step: int) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.by = by
        self.step = step


def net_scores(items: list[Item], n: int) -> list[int]:
    """Each seat's net from a list of payments: the one sum behind the computed settlement, the
    record's own items in the comparison (R15) and the mistake models (R16.16)."""
    out = [0] * n
    for it in items:
        out[it.payer] -= it.amount
        out[it.payee] += it.amount
    return out


@dataclass
class Settlement:
    """What the hand is worth to each seat, and what the next hand looks like."""

    items: list[Item]
    next_dealer: int
    next_dealer_streak: int
    next_dealer_rule: str
    flip: int | None
    ending: str
    ready: dict[int, Valued | None] = field(default_factory=dict)
    burned: dict[int, Burn] = field(default_factory=dict)
    """Seats whose dou and chicken credits are burned (R8.3 burn all, R9.3), and by what."""
    chickens: list[SeatChickens] = field(default_factory=list)
    n: int = 4
    void_kongs: dict[int, Burn] = field(default_factory=dict)
    """Seats with a kong that scores nothing because of the ending: 热炮 that_kong, a robbed kong."""
    waived: list[Item] = field(default_factory=list)
    """Payments an R17 or R18 parameter cancels (never paid; the comparison's words when a platform pays
    them)."""

    def __init__(self, items: list[Item], next_dealer: int, next_dealer_streak: int, next_dealer_rule: str,
                 flip: int | None, ending: str, ready: dict[int, Valued | None] | None = None,
                 burned: dict[int, Burn] | None = None, tallies: list[SeatChickens] | None = None,
                 n: int = 4, void_kongs: dict[int, Burn] | None = None, waived: list[Item] | None = None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.items = items
        self.next_dealer = next_dealer
        self.next_dealer_streak = next_dealer_streak
        self.next_dealer_rule = next_dealer_rule
        self.flip = flip
        self.ending = ending
        self.ready = {} if ready is None else ready
        self.burned = {} if burned is None else burned
        self.chickens = [] if tallies is None else tallies
        self.n = n
        self.void_kongs = {} if void_kongs is None else void_kongs
        self.waived = [] if waived is None else waived

    def scores(self) -> list[int]:
        """Net units per seat."""
        return net_scores(self.items, self.n)

    def to_json(self, base: int, lang: Lang | str = Lang.EN, names: Sequence[str] = (),
                items: bool = True) -> dict[str, Any]:
        """The contract's settlement object, in points, item notes in `lang`; `items=False` leaves
        the items out (and so their notes unrendered) for a caller that reads only the totals."""
        out: dict[str, Any] = {"scores": [s * base for s in self.scores()], "next_dealer": self.next_dealer,
                               "next_dealer_streak": self.next_dealer_streak,
                               "flip": code(self.flip) if self.flip is not None else None}
        if items:
            out["items"] = self._items_json(base, lang, names)
        return out

    def _items_json(self, base: int, lang: Lang | str, names: Sequence[str] = ()) -> list[dict[str, Any]]:
        """Items share their params where they share their working (one win paid by three seats,
        one seat's chickens): each such note is rendered once."""
        done: dict[int, tuple[str, str]] = {}
        out = []
        for it in self.items:
            hit = done.get(id(it.params))
            if hit is None or hit[0] != it.code:
                hit = (it.code, it.note(lang, names))
                done[id(it.params)] = hit
            out.append(it.to_json(base, lang, hit[1]))
        return out


# ------------------------------------------------------------------ readiness

def final_hand(st: GameState, seat: int) -> list[int]:
    """A seat's concealed tiles at the end; a winner's include the tile it won on."""
    hand = list(st.seats[seat].hand)
    for w in st.wins:
        if w.seat == seat and w.kind is not WinKind.SELF_DRAW:
            hand[w.tile] += 1
    return hand


def readiness(st: GameState, seat: int) -> Valued | None:
    """R3.3 ready value (with 报听 per R5.4) of a seat that did not win; None if not ready."""
    s = st.seats[seat]
    prof = st.profile
    scored = hands.ready_value(s.hand, len(s.melds), s.meld_tiles(), prof.hand_values,
                               needs_winning_tile=prof.long_qi_dui_needs_winning_tile)
    return ready_value(prof, scored, s.declared) if scored is not None else None


# ------------------------------------------------------------------ settle

def settle(st: GameState, *, ignore_burn: bool = False) -> Settlement:
    """The full ledger of a hand that ended (wins, or an exhaustive draw).

    `ignore_burn` settles as if 热炮/抢杠 burned nothing: not a rule, a model of a common
    platform mistake, so that a wrong result can be explained (compare.explain)."""
    winners = {w.seat for w in st.wins}
    ready = {s: readiness(st, s) for s in range(st.n) if s not in winners}
    if st.wins:
        return _settle_wins(st, ready, ignore_burn)
    return _settle_draw(st, ready)


def _settle_wins(st: GameState, ready: dict[int, Valued | None], ignore_burn: bool = False) -> Settlement:
    items: list[Item] = []
    waived: list[Item] = []
    burned, void_kong = ({}, None) if ignore_burn else _burns(st)
    for w in st.wins:
        items += _hand_items(st, w, waived)
        items += _transfer_items(st, w, waived)
    won_or_ready = {w.seat for w in st.wins} | {s for s, v in ready.items() if v is not None}
    dou, dou_waived = _dou(st, won_or_ready, set(burned), void_kong)
    items += dou
    waived += dou_waived
    turned = st.wall[st.front] if st.wall_left > 0 else None
    shot = {s for s, b in burned.items() if b.by is BurnKind.HOT_SHOT}
    hands_ = [final_hand(st, s) for s in range(st.n)]
    tallies, chicken_items, chicken_waived = house.chicken_items(st, hands_, won_or_ready, set(burned), shot, turned)
    waived += chicken_waived
    items += chicken_items
    if st.profile.follow_dealer is not None:
        items += _follow_dealer_items(st)
    nxt, rule = _next_dealer_after_wins(st)
    return Settlement(items, nxt, st.streak + 1 if nxt == st.dealer else 0, rule, turned, "win",
                      ready, burned, tallies, st.n, _void_kongs(st, void_kong), waived)


def _void_kongs(st: GameState, void: Meld | None) -> dict[int, Burn]:
    """Why a seat's kong pays no dou although it was declared (for the comparison's words)."""
    w = st.window
    if w is None:
        return {}
    if w.rob:
        return {w.source: Burn(BurnKind.ROB, w.step)}
    if void is not None:
        return {void.owner: Burn(BurnKind.HOT_SHOT, w.step)}
    return {}


def _burns(st: GameState) -> tuple[dict[int, Burn], Meld | None]:
    """R8.3, R9.3: seats whose dou and chicken credits are burned, or the single kong voided."""
    w = st.window
    prof = st.profile
    if w is None or not st.wins:
        return {}, None
    if w.rob:
        return ({w.source: Burn(BurnKind.ROB, w.step)} if prof.rob_kong_burn else {}), None
    if w.hot_kong is None:
        return {}, None
    if prof.hot_shot.burn == "all":
        return {w.source: Burn(BurnKind.HOT_SHOT, w.step)}, None
    return {}, w.hot_kong


def _winner_only(st: GameState) -> bool:
    """R18.1 `dealer_wins`: the dealer bonus rides only what the dealer receives as a winner."""
    b = st.profile.dealer_bonus
    return b is not None and b.on == "dealer_wins"


def _dealer_item(st: GameState, payer: int, payee: int, amount: int, code: str, bonus: int, out: list[Item],
                 waived: list[Item], rule: str = "R6.4") -> None:
    """An R6.4 dealer item, or under R18.1 `dealer_wins` one the dealer does not receive: waived."""
    item = Item(ItemKind.DEALER, payer, payee, amount, rule, code, {"bonus": bonus})
    if _winner_only(st) and payee != st.dealer:
        item.rule = "R18.1"
        waived.append(item)
    else:
        out.append(item)


def _valued(st: GameState, w: Win) -> Valued:
    """The win's value as judged; valued again where the hand is settled under a profile whose R19.3
    or R19.5 value differs from the one it was judged under (`audit.explain.settle_under`: the
    attribution's readings of a house rule not played, or played by a platform). The other value
    parameters are read as judged."""
    a = w.valued
    assert a is not None, "a judged win carries its value"
    by, prof = w.valued_by, st.profile
    if by is prof or by is None or w.scored is None:
        return a
    # Each asked only of the win it values, so a hand reads (audit.reads) only the one that acts on it.
    if w.kind is WinKind.ROB:
        if by.rob_kong_multiple == prof.rob_kong_multiple:
            return a
    elif not w.hot or by.hot_shot.multiplier == prof.hot_shot.multiplier:
        return a
    source = w.source
    return valuation(prof, w.scored, w.kind, declared=st.seats[w.seat].declared,
                     source_declared=source is not None and st.seats[source].declared is not None,
                     kong_flower=w.kong_flower, hot=w.hot, n=st.n)[0]


def _hand_items(st: GameState, w: Win, waived: list[Item]) -> list[Item]:
    """R6.1/R6.3/R9.3 hand payments (R19.3, R19.5 where the profile sets them) and the R6.4 dealer items
    that ride on them (R18.1: `waived` gets those the dealer would pay)."""
    a = _valued(st, w)
    bonus = dealer_bonus(st.profile, st.streak)
    out: list[Item] = []
    if w.kind is WinKind.SELF_DRAW:
        for o in range(st.n):
            if o != w.seat:
                out.append(Item(ItemKind.HAND, o, w.seat, a.units, "R6.1", a.code, a.params))
                if bonus and st.dealer in (o, w.seat):
                    _dealer_item(st, o, w.seat, bonus, "dealer_bonus", bonus, out, waived)
        return out
    assert w.source is not None
    if w.kind is WinKind.DISCARD:
        # R19.5: a hot shot's value multiplied (values.win_value) is that rule's payment.
        rule = "R19.5" if w.hot and st.profile.hot_shot.multiplier is not None else "R6.3"
        out.append(Item(ItemKind.HAND, w.source, w.seat, a.units, rule, a.code, a.params))
        if bonus and st.dealer in (w.source, w.seat):
            _dealer_item(st, w.source, w.seat, bonus, "dealer_bonus", bonus, out, waived)
        return out
    multiple = st.profile.rob_kong_multiple
    if multiple is not None:
        # R19.3: the robbed seat alone pays N times the value as a win on its discard (claims.assess):
        # one payment of a winner's value, so R6.4 puts one dealer bonus on it, as on a discard.
        params = {**a.params, "parts": [*a.params["parts"], note("rob_multiple", {"times": multiple})]}
        out.append(Item(ItemKind.HAND, w.source, w.seat, a.units * multiple, "R19.3", a.code, params))
        if bonus and st.dealer in (w.source, w.seat):
            _dealer_item(st, w.source, w.seat, bonus, "dealer_bonus", bonus, out, waived)
        return out
    shares = [o for o in range(st.n) if o != w.seat]
    rob_params = {**a.params, "parts": [*a.params["parts"], note("rob_shares", {"shares": len(shares)})]}
    out.append(Item(ItemKind.HAND, w.source, w.seat, a.units * len(shares), "R9.3", a.code, rob_params))
    extra = sum(bonus for o in shares if st.dealer in (o, w.seat))
    if extra:
        _dealer_item(st, w.source, w.seat, extra, "dealer_bonus_rob", bonus, out, waived)
    return out


def _transfer_items(st: GameState, w: Win, waived: list[Item]) -> list[Item]:
    """R8.3 transfer_kong: the shooter pays each winner what its last kong would have earned (R18.2
    `konger`: an exposed kong earns the konger nothing, so its transfer is 0: waived)."""
    window = st.window
    if not w.hot or not st.profile.hot_shot.transfer_kong or window is None or window.hot_kong is None:
        return []
    kong = window.hot_kong
    kind = kong.kind.value
    times = 1 if kong.kind is MeldKind.EXPOSED else st.n - 1
    amount = times * st.profile.dou_value(kind)
    item = Item(ItemKind.HOT_SHOT, window.source, w.seat, amount, "R8.3", "hot_shot_transfer",
                {"kong": kind, "tile": code(kong.tile), "times": times, "value": st.profile.dou_value(kind)})
    if kong.kind is MeldKind.EXPOSED and st.profile.dou.exposed_payer == "konger":
        item.rule = "R18.2"
        waived.append(item)
        return []
    return [item]


def _dou(st: GameState, won_or_ready: set[int], burned: set[int], void: Meld | None) -> tuple[list[Item], list[Item]]:
    """R4.7 dou payments, with R17.7 (`dou_unready`), R18.3 (`dou_ready_test`) and R18.2
    (`dou.exposed_payer`), R17 read first (R18.6); the second list holds the payments the R18
    parameters cancel (for the comparison).

    Under `ever` a seat that did not win passes when it was ready right after one of its own
    discards (`SeatState.ready_step`), and the same test decides R17.7's reverse payments. A payment
    that exists only because of that test cites R18.3; a payment `at_end` would make and `ever`
    does not is waived citing R18.3."""
    prof = st.profile
    ever = prof.dou_requires_ready and prof.dou_ready_test == "ever"
    if not ever:
        items = _dou_pass(st, won_or_ready, won_or_ready, burned, void)
        waived: list[Item] = []
    else:
        passes = {w.seat for w in st.wins} | {s for s, seat in enumerate(st.seats) if seat.ready_step >= 0}
        items = _dou_pass(st, passes, won_or_ready, burned, void)
        now = {(i.payer, i.payee, i.params["tile"]) for i in items}
        waived = [Item(i.kind, i.payer, i.payee, i.amount, "R18.3", i.code, i.params)
                  for i in _dou_pass(st, won_or_ready, won_or_ready, burned, void)
                  if (i.payer, i.payee, i.params["tile"]) not in now]
    if prof.dou.exposed_payer == "konger":
        items, cancelled = _konger_pays(items)
        waived += cancelled
    return items, waived


def _dou_pass(st: GameState, passes: set[int], won_or_ready: set[int], burned: set[int],
              void: Meld | None) -> list[Item]:
    """R4.7 and R17.7 under one readiness test: `passes` are the seats whose dou score where
    `dou_requires_ready` (`won_or_ready` under R4.7's test, R18.3's `ever` otherwise). The dou paid to
    every konger first, then R17.7's payments back."""
    prof = st.profile
    req = prof.dou_requires_ready
    reverse = prof.dou_unready == "reverse"
    out: list[Item] = []
    back: list[Item] = []
    for seat, s in enumerate(st.seats):
        if seat in burned:
            continue  # R8.3/R9.3 (R18.2: "a burn voids it the same way"), never reversed (R17.7)
        scores = not req or seat in passes
        if not scores and not reverse:
            continue
        for m in s.melds:
            if not m.is_kong or not m.scores or m is void:
                continue
            value = prof.dou_value(m.kind.value)
            payers = [m.from_seat] if m.kind is MeldKind.EXPOSED else [o for o in range(st.n) if o != seat]
            params: dict[str, Any] = {"kong": m.kind.value, "tile": code(m.tile)}
            if scores:
                if req and seat not in won_or_ready:
                    rule, what, params = "R18.3", "dou_was_ready", {**params, "step": s.ready_step}
                else:
                    rule, what = "R4.7", "dou"
                out += [Item(ItemKind.DOU, p, seat, value, rule, what, params) for p in payers if p is not None]
                continue
            for p in payers:
                if p is None or p not in passes:
                    continue
                by_end = seat not in won_or_ready and p in won_or_ready
                rule, what = ("R17.7", "dou_reversed") if by_end else ("R18.3", "dou_reversed_ever")
                back.append(Item(ItemKind.DOU, seat, p, value, rule, what, params))
    return out + back


_PAID_TO_KONGER: Final = frozenset({"dou", "dou_was_ready"})
"""Note codes of a dou paid to its konger (the others are R17.7 payments back from it)."""


def _konger_pays(items: list[Item]) -> tuple[list[Item], list[Item]]:
    """R18.2 `konger`, on the result of R4.7/R17.7/R18.3: an exposed kong's dou is paid by the konger to
    the discarder instead; a dou that does not score is not paid in either direction, so R17.7's
    reverse payment of an exposed kong goes. Returns the payments and the ones R18.2 cancels."""
    out: list[Item] = []
    cancelled: list[Item] = []
    for it in items:
        if it.params.get("kong") != MeldKind.EXPOSED.value:
            out.append(it)
            continue
        cancelled.append(Item(it.kind, it.payer, it.payee, it.amount, "R18.2", it.code, it.params))
        if it.code in _PAID_TO_KONGER:
            out.append(Item(ItemKind.DOU, it.payee, it.payer, it.amount, "R18.2", "dou_konger_pays",
                            {"kong": it.params["kong"], "tile": it.params["tile"]}))
    return out, cancelled


def follows_dealer(st: GameState) -> int | None:
    """R17.8 跟庄: the tile, when the first discards of the dealer and of the next seats (all of them),
    in turn order, are the same tile; None otherwise."""
    order = [st.seats[(st.dealer + i) % st.n] for i in range(st.n)]
    tile = order[0].first_discard
    if tile < 0:
        return None
    for before, after in zip(order, order[1:]):
        if after.first_discard != tile or not before.first_discard_step < after.first_discard_step:
            return None
    return tile


def _follow_dealer_items(st: GameState) -> list[Item]:
    """R17.8: the dealer pays each other seat `follow_dealer` units (the hand ended with a win)."""
    units = st.profile.follow_dealer
    tile = follows_dealer(st)
    if tile is None or not units:
        return []
    params = {"tile": code(tile), "units": units}
    return [Item(ItemKind.FOLLOW_DEALER, st.dealer, o, units, "R17.8", "follow_dealer", params)
            for o in range(st.n) if o != st.dealer]


def _next_dealer_after_wins(st: GameState) -> tuple[int, str]:
    """R14.1, R14.2."""
    winners = [w.seat for w in st.wins]
    if len(winners) == 1:
        return winners[0], "R14.1"
    w = st.window
    assert w is not None
    if len(winners) == st.n - 1 or st.profile.double_win_next_dealer == "discarder":
        return w.source, "R14.2"
    order = [(st.dealer + i) % st.n for i in range(st.n)]
    return next(s for s in order if s in winners), "R14.2"


def _settle_draw(st: GameState, ready: dict[int, Valued | None]) -> Settlement:
    """R12: 查叫 between ready and not-ready seats; no dou, no chickens; R14.3 next dealer."""
    prof = st.profile
    ready_seats = [s for s in range(st.n) if ready[s] is not None]
    items: list[Item] = []
    waived: list[Item] = []
    if 0 < len(ready_seats) < st.n:
        bonus = dealer_bonus(prof, st.streak) if prof.dealer_bonus_on_draw else 0
        for payer in range(st.n):
            if payer in ready_seats:
                continue
            for payee in ready_seats:
                v = ready[payee]
                assert v is not None
                items.append(Item(ItemKind.DRAW_SETTLE, payer, payee, v.units, "R12.1", v.code, v.params))
                if bonus and st.dealer in (payer, payee):
                    _dealer_item(st, payer, payee, bonus, "dealer_bonus_draw", bonus, items, waived)
    nxt = _next_dealer_after_draw(st, ready_seats)
    return Settlement(items, nxt, st.streak + 1 if nxt == st.dealer else 0, "R14.3", None, "draw",
                      ready, {}, [], st.n, None, waived)


def _next_dealer_after_draw(st: GameState, ready_seats: list[int]) -> int:
    if st.profile.draw_next_dealer == "stay" or len(ready_seats) in (0, st.n):
        return st.dealer
    if len(ready_seats) == st.n - 1:
        return next(s for s in range(st.n) if s not in ready_seats)
    if st.dealer in ready_seats:
        return st.dealer
    return next(s for s in ((st.dealer + i) % st.n for i in range(1, st.n)) if s in ready_seats)

