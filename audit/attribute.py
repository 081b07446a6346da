"""R16.16: name the payment behind a wrong total.

The audit knows the ledger the rules require, item by item, and the scores the
record claims. This module searches for the simplest changes of that ledger
that give exactly the claimed scores:

- one item changed: left out, counted twice, paid the wrong way round, paid by
  or to another seat, or an item the rules waive (R17) paid anyway;
- one mistake that changes a group of items: the models of `audit.explain`
  (热炮 burn forgotten, 抢杠 billed to all, ...) and one model per value of each
  profile parameter that changes amounts (R17 and R18 included);
- every payer's payments of one kind to one seat off by the same amount (COUNT; a chicken
  counted too many is paid also by a seat that paid that seat none), or one payment of another
  amount (AMOUNT), solved from the difference rather than enumerated;
- a 热炮/抢杠-burned seat's payments paid anyway: one group (a kong's dou, the seat's chickens) or
  two, the chickens also at the amount the scores give when a kong's dou is paid with them;
- two single-item changes, when nothing above fits.

A reading costs its number of changes (a model is one change); among readings of
the same cost the more common mistake wins (`WEIGHT`). Readings of equal cost and
weight are all returned: the audit never picks one of them silently.

Each reading is given as the ledger the platform would have paid; the comparison
(`audit.compare.compare_items`) then says, per (kind, payer, payee), which rule
the difference breaks, the same words and rule as when a record has its items.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from audit.candidates import models
from audit.explain import MODELS, burned_credits, settle_under
from audit.house_rules import BY_PATH
from audit.kinds import ItemKind
from audit.profiles import Profile
from audit.reads import Watch, bit
from audit.settle import Item, Settlement, net_scores, settle
from audit.state import GameState


class Change(Enum):
    """What a platform did to one payment (or, for the models, to a group of payments)."""

    MISSING = "missing"
    DOUBLED = "doubled"
    REVERSED = "reversed"
    WRONG_PAYER = "wrong_payer"
    WRONG_PAYEE = "wrong_payee"
    NOT_OWED = "not_owed"
    AMOUNT = "amount"
    COUNT = "count"
    MODEL = "model"
    PARAMETER = "parameter"


WEIGHT: Final[dict[Change, int]] = {
    Change.MISSING: 0, Change.DOUBLED: 0, Change.NOT_OWED: 0, Change.MODEL: 0, Change.PARAMETER: 0,
    Change.COUNT: 0, Change.AMOUNT: 1, Change.WRONG_PAYER: 1, Change.WRONG_PAYEE: 1, Change.REVERSED: 2,
}
"""How uncommon each mistake is on the platforms we audit (lower is more common): a payment left out
or counted twice, a waived one paid, a known platform mistake and a value read under another setting
are the everyday mistakes, and they tie with each other (scores alone cannot tell a missing payment
from one paid twice the other way, so the audit says both); a payment given to or taken from the
wrong seat is rarer; a payment turned round is rarest (it moves twice the amount). Every payment
of one kind to one seat off by the same amount (COUNT: a chicken or a pattern counted wrong, paid by
each payer) is everyday too; one payment of another amount (AMOUNT) fits any difference between two
seats, so it counts as rarer, except a hand payment (`AMOUNT_EVERYDAY`): a pattern valued wrong is the
most common mistake there is."""

AMOUNT_EVERYDAY: Final = frozenset({"hand"})
"""Item kinds whose one payment of another amount is an everyday mistake (weight 0)."""

MAX_CHANGES: Final = 2
"""The search bound: readings of at most this many single-item changes (a model counts as one)."""

MAX_READINGS: Final = 4
"""At most this many equally good readings are reported; more than that means the record says too
little to name the payment, and the audit says so instead."""


@dataclass(frozen=True)
class Edit:
    """One change of the required ledger: what was done, to which item, and the seat it went to."""

    change: Change
    item: Item
    seat: int | None = None
    delta: int = 0
    """AMOUNT and COUNT: what the platform added to each payment (negative: took off)."""
    group: tuple[Item, ...] = ()
    """COUNT: one payment per payer, each changed by `delta` (`item` is the first of them); a payer
    that paid none has a new one of amount 0 here."""

    def apply(self, ledger: list[Item]) -> list[Item]:
        """The ledger with this change made (the item is found by identity, never by value)."""
        it = self.item
        if self.change is Change.AMOUNT or self.change is Change.COUNT:
            changed = self.group or (it,)
            return [i for i in ledger if not any(i is g for g in changed)] + [
                Item(g.kind, g.payer, g.payee, g.amount + self.delta, g.rule, g.code, g.params) for g in changed]
        if self.change is Change.DOUBLED or self.change is Change.NOT_OWED:
            return [*ledger, it]
        rest = [i for i in ledger if i is not it]
        if self.change is Change.MISSING:
            return rest
        if self.change is Change.REVERSED:
            return [*rest, _moved(it, it.payee, it.payer)]
        assert self.seat is not None
        if self.change is Change.WRONG_PAYER:
            return [*rest, _moved(it, self.seat, it.payee)]
        return [*rest, _moved(it, it.payer, self.seat)]

    def effect(self, n: int) -> tuple[int, ...]:
        """What this change adds to each seat's net (claimed minus required)."""
        out = [0] * n
        it, a = self.item, self.item.amount
        if self.change is Change.AMOUNT or self.change is Change.COUNT:
            for g in self.group or (it,):
                out[g.payer] -= self.delta
                out[g.payee] += self.delta
        elif self.change is Change.MISSING:
            out[it.payer] += a
            out[it.payee] -= a
        elif self.change is Change.DOUBLED or self.change is Change.NOT_OWED:
            out[it.payer] -= a
            out[it.payee] += a
        elif self.change is Change.REVERSED:
            out[it.payer] += 2 * a
            out[it.payee] -= 2 * a
        elif self.change is Change.WRONG_PAYER:
            assert self.seat is not None
            out[it.payer] += a
            out[self.seat] -= a
        else:
            assert self.seat is not None
            out[it.payee] -= a
            out[self.seat] += a
        return tuple(out)


def _moved(it: Item, payer: int, payee: int) -> Item:
    return Item(it.kind, payer, payee, it.amount, it.rule, it.code, it.params)


@dataclass(frozen=True)
class Reading:
    """One way the platform could have reached the claimed scores.

    `changes` says what it did, one entry per single-item change, or one for a model (`code` is
    then the model's finding code, `parameter` and `value` the setting it read for a parameter
    model); `ledger` is what it would have paid, in units."""

    changes: tuple[Change, ...]
    ledger: tuple[Item, ...]
    edits: tuple[Edit, ...] = ()
    code: str | None = None
    rule: str | None = None
    parameter: str | None = None
    value: Any = None

    @property
    def cost(self) -> tuple[int, int]:
        """(number of changes, how uncommon): the ranking of readings."""
        everyday = sum(1 for e in self.edits if e.change is Change.AMOUNT and e.item.kind.value in AMOUNT_EVERYDAY)
        return len(self.changes), sum(WEIGHT[c] for c in self.changes) - everyday


@dataclass(frozen=True)
class Attribution:
    """The best readings (several when they tie), or none within the bound."""

    readings: tuple[Reading, ...]
    too_many: int = 0
    """How many readings tie when they are more than MAX_READINGS (0 otherwise): the record does not
    say which payment is wrong."""


Key = tuple[str, int, int]


def signature(ledger: tuple[Item, ...] | list[Item]) -> frozenset[tuple[Key, int]]:
    """A ledger as its sums per (kind, payer, payee): two readings with the same sums are one reading."""
    sums: dict[Key, int] = defaultdict(int)
    for it in ledger:
        sums[(it.kind.value, it.payer, it.payee)] += it.amount
    return frozenset((k, v) for k, v in sums.items() if v)


def burned_items(st: GameState, sett: Settlement) -> list[Item]:
    """The dou and chicken credits a 热炮 or 抢杠 burned (R8.3, R9.3): the payments the hand would
    owe if nothing burned that the rules' ledger lacks. A platform that pays one of them anyway
    makes the commonest 热炮 mistake, one item not owed (R16.16)."""
    out: dict[tuple[str, int, int, int], Item] = {}
    if sett.burned or sett.void_kongs:
        for rob in (False, True):
            for ready in (True, False):
                for it in burned_credits(st, sett, rob, ready):
                    out.setdefault((it.kind.value, it.payer, it.payee, it.amount), it)
    return list(out.values())


def unready_dou(st: GameState, sett: Settlement) -> list[Item]:
    """The dou R4.7 withholds from the seats that neither won nor are ready (`dou_requires_ready`): the
    payments the hand would owe them without that test that the rules' ledger lacks. A platform that
    pays one seat's kong anyway makes one change (one payment, or the kong's group, not owed); the
    model `net_dou_to_unready` pays every such seat's kongs at once."""
    if not st.profile.dou_requires_ready or not st.wins:
        return []
    have = Counter((i.kind, i.payer, i.payee, i.amount) for i in sett.items)
    out = []
    for it in settle_under(st, replace(st.profile, dou_requires_ready=False, dou_unready="void")):
        key = (it.kind, it.payer, it.payee, it.amount)
        if have[key]:
            have[key] -= 1
        elif it.kind is ItemKind.DOU:
            out.append(it)
    return out


def burned_groups(burned: Sequence[Item]) -> list[tuple[Item, ...]]:
    """Burned credits grouped as a platform forgets them: every dou of one kong, or every chicken
    credit of the burned seat; paying one whole group is one mistake (R8.3 not applied to it). A
    group of one payment (an exposed kong's dou, paid by its discarder) is one too. The dou withheld
    from an unready seat (`unready_dou`) group the same way, one kong a group."""
    groups: dict[tuple[str, int, str], list[Item]] = defaultdict(list)
    for it in burned:
        tile = str(it.params.get("tile", "")) if it.kind.value == "dou" else ""
        groups[(it.kind.value, it.payee, tile)].append(it)
    return [tuple(g) for g in groups.values()]


def _burned_chickens(burned: Sequence[Item], n: int, rest: tuple[int, ...]) -> tuple[Item, ...] | None:
    """The chicken credits of one burned seat paid anyway, at the amount `rest` gives, the same from
    each seat that would pay them (a platform that forgets R8.3/R9.3 for the seat's chickens and
    values them its own way, each 1s a plain chicken: only the payments, not their valuation, are
    what the scores can show); None unless `rest` is exactly that."""
    for seat in sorted({it.payee for it in burned if it.kind is ItemKind.CHICKEN}):
        mine = [it for it in burned if it.kind is ItemKind.CHICKEN and it.payee == seat]
        payers = sorted({it.payer for it in mine})
        amount = -rest[payers[0]]
        if len(payers) >= 2 and amount > 0 and rest[seat] == amount * len(payers) and all(
                rest[s] == (-amount if s in payers else 0) for s in range(n) if s != seat):
            like = mine[0]
            return tuple(Item(ItemKind.CHICKEN, p, seat, amount, like.rule, like.code, like.params) for p in payers)
    return None


def _burned_readings(sett: Settlement, n: int, target: tuple[int, ...], burned: Sequence[Item]) -> list[Reading]:
    """Readings that pay one group of burned credits, or two (a kong's dou and the chickens); with a
    kong's dou, the chickens also at the amount the scores give (`_burned_chickens`). Not alone: a
    uniform payment to the burned seat would then always read as chickens, its kong's dou included."""
    groups = burned_groups(burned)
    out = []
    for i, g in enumerate(groups):
        for h in [()] + groups[i + 1:]:
            if len(g) + len(h) < 2 or len(g) == len(h) == 1:
                continue  # one burned payment, or two, are single-item changes (`_edits`)
            ledger = (*sett.items, *g, *h)
            if _net(ledger, n) == target:
                out.append(Reading((Change.NOT_OWED,) * (2 if h else 1), ledger))
    for g in (g for g in groups if g[0].kind is ItemKind.DOU):
        base = (*sett.items, *g)
        paid = _burned_chickens(burned, n, tuple(t - b for t, b in zip(target, _net(base, n))))
        if paid is not None:
            out.append(Reading((Change.NOT_OWED, Change.NOT_OWED), (*base, *paid)))
    return out


def _edits(sett: Settlement, n: int, burned: Sequence[Item] = ()) -> list[Edit]:
    """Every single-item change of the required ledger (and every waived, burned or withheld item
    paid anyway: `burned` holds the burned credits and the dou withheld from unready seats)."""
    out: list[Edit] = []
    for it in sett.items:
        out += [Edit(Change.MISSING, it), Edit(Change.DOUBLED, it), Edit(Change.REVERSED, it)]
        others = [s for s in range(n) if s not in (it.payer, it.payee)]
        out += [Edit(Change.WRONG_PAYER, it, s) for s in others]
        out += [Edit(Change.WRONG_PAYEE, it, s) for s in others]
    out += [Edit(Change.NOT_OWED, it) for it in sett.waived]
    out += [Edit(Change.NOT_OWED, it) for it in burned]
    return out


def _valued(sett: Settlement, diff: tuple[int, ...], payers_of: dict[int, frozenset[int]] | None = None
            ) -> list[Edit]:
    """Edits of amounts that fit `diff` exactly, solved rather than enumerated: one payment between
    the only two seats the difference touches (AMOUNT), or every payer's payments of one kind to one
    seat, each payer off by the same amount (COUNT; `payers_of`: the seats that pay each seat a
    chicken credit, so a chicken counted too many is paid also by a seat that owed it none)."""
    out: list[Edit] = []
    moved = [s for s, d in enumerate(diff) if d]
    if len(moved) == 2:
        for it in sett.items:
            if {it.payer, it.payee} == set(moved):
                delta = diff[it.payee]
                if delta and it.amount + delta > 0:
                    out.append(Edit(Change.AMOUNT, it, delta=delta))
    groups: dict[tuple[ItemKind, int], dict[int, list[Item]]] = defaultdict(lambda: defaultdict(list))
    for it in sett.items:
        groups[(it.kind, it.payee)][it.payer].append(it)
    for (kind, payee), by_payer in groups.items():
        tries = [frozenset(by_payer)]
        if kind is ItemKind.CHICKEN and payers_of and payee in payers_of:
            tries.append(frozenset(by_payer) | payers_of[payee])
        for payers in dict.fromkeys(tries):
            edit = _count(kind, payee, by_payer, payers, diff)
            if edit is not None:
                out.append(edit)
    return out


def _count(kind: ItemKind, payee: int, by_payer: dict[int, list[Item]], payers: frozenset[int],
           diff: tuple[int, ...]) -> Edit | None:
    """COUNT: every seat of `payers` pays `payee` the same amount more (or less) of `kind`, the rest
    nothing, where that fits `diff`. A payer with several payments of the kind to the seat (a chicken
    credit and an exposed chicken owed) has its largest one changed; a payer with none a new one."""
    if len(payers) < 2:
        return None
    order = sorted(payers)
    delta = -diff[order[0]]
    if delta == 0 or diff[payee] != delta * len(order) or any(
            diff[s] != (-delta if s in payers else 0) for s in range(len(diff)) if s != payee):
        return None
    like = next(iter(by_payer.values()))[0]  # a new payment is worded as the seat's others
    group: list[Item] = []
    for p in order:
        mine = by_payer.get(p)
        if mine:
            carrier = max(mine, key=lambda i: i.amount)
            if carrier.amount + delta <= 0:
                return None
        elif delta > 0:
            carrier = Item(kind, p, payee, 0, like.rule, like.code, like.params)
        else:
            return None
        group.append(carrier)
    return Edit(Change.COUNT, group[0], delta=delta, group=tuple(group))


def credit_payers(st: GameState, sett: Settlement) -> dict[int, frozenset[int]]:
    """The seats that pay each qualifying seat a chicken of its hand (R11.6; R17.2: not the other
    qualifying seats where they do not pay each other)."""
    qual = {t.seat for t in sett.chickens if t.qualifies}
    each_other = st.profile.chicken.qualified_pay_each_other
    return {x: frozenset(o for o in range(st.n) if o != x and (each_other or o not in qual)) for x in qual}


def _diff(claimed: list[int], required: list[int]) -> tuple[int, ...]:
    return tuple(c - r for c, r in zip(claimed, required))


def _net(ledger: list[Item] | tuple[Item, ...], n: int) -> tuple[int, ...]:
    """Each seat's net of a ledger (settle.net_scores), as a key for the effect index."""
    return tuple(net_scores(list(ledger), n))


# ---------------------------------------------------------------- parameter models

def house_rule_section(path: str, value: Any) -> str | None:
    """The house-rule section (R17-R19) a reading under `path` = `value` cites: the section defining the
    value, or the parameter's own when the value is today's rule (a payment it changes cites it, R16.16)."""
    rule = BY_PATH.get(path)
    if rule is None:
        return None
    section = rule.section_of(value)
    return section.rule if section is not None else rule.rule

PARAMETER_RULE: Final[dict[str, str]] = {
    "flip": "R11.5", "flip_counts_discards": "R11.5", "flip_up_down_counts_discards": "R11.5",
    "chicken.concealed_kong_flip": "R11.5", "chicken.gold_multiplier": "R11.5",
    "chicken_requires_ready": "R11.7", "chicken_counts_discards": "R11.7",
}
"""A reading under another value of a parameter cites the rule that states what the parameter
changes when that is not the payment's own: which tiles the flip makes chickens (and 金鸡) is
R11.5, who qualifies R11.7 (R11.6, who pays whom, is cited by the payments it does not change);
a house rule cites its section (`house_rule_section`)."""


# ---------------------------------------------------------------- the search

_WATCHES: dict[int, tuple[Profile, Watch]] = {}


def settle_reads(st: GameState) -> int:
    """The parameters the settlement of the replayed hand reads (`audit.reads`, as the fit uses it): the
    ledger is a function of those alone, so a reading under another value of any other parameter
    would pay exactly the rules' ledger and is not tried. One settlement more, then a few dozen fewer."""
    prof = st.profile
    hit = _WATCHES.get(id(prof))
    if hit is None or hit[0] is not prof:
        if len(_WATCHES) >= 16:
            _WATCHES.clear()
        hit = _WATCHES[id(prof)] = (prof, Watch(prof))
    watch = hit[1]
    st.profile = watch.start()
    try:
        settle(st)
    finally:
        st.profile = prof
    return watch.reads.mask


def _was_read(mask: int, path: str) -> bool:
    """Whether `path`, or a table it lives in (read when the engine asks whether it exists), was read."""
    parts = path.split(".")
    return any(mask & bit(".".join(parts[:i])) for i in range(1, len(parts) + 1))


def _model_readings(st: GameState, sett: Settlement, target: tuple[int, ...]) -> Iterator[Reading]:
    """Readings of one mistake that changes a group of items: explain's models, then the parameters."""
    for rule, code, model in MODELS:
        ledger = model(st, sett)
        if ledger is not None and _net(ledger, st.n) == target:
            yield Reading((Change.MODEL,), tuple(ledger), code=code, rule=rule)
    mask = settle_reads(st)
    for m in models(st.profile):
        if not _was_read(mask, m.path):
            continue  # the settlement never asked it: another value cannot change the ledger
        prof = m.profile  # built here, on first use: most are never asked (issue 35.6)
        if prof is None:
            continue  # the loader refuses that value on this profile
        path, value = m.path, m.value
        ledger = settle_under(st, prof)
        if _net(ledger, st.n) == target:
            yield Reading((Change.PARAMETER,), tuple(ledger), rule=house_rule_section(path, value) or PARAMETER_RULE.get(path),
                          parameter=path, value=value)


def _edit_readings(sett: Settlement, n: int, diff: tuple[int, ...], burned: Sequence[Item],
                   payers: dict[int, frozenset[int]] | None = None) -> tuple[list[Reading], list[Reading]]:
    """(readings of one item change, readings of two), each fitting `diff` exactly."""
    edits = _edits(sett, n, burned)
    by_effect: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(edits):
        by_effect[e.effect(n)].append(i)
    ones = [Reading((edits[i].change,), tuple(edits[i].apply(sett.items)), (edits[i],)) for i in by_effect.get(diff, [])]
    ones += [Reading((e.change,), tuple(e.apply(sett.items)), (e,)) for e in _valued(sett, diff, payers)]
    twos: list[Reading] = []
    if ones:
        return ones, twos
    for i, e in enumerate(edits):
        eff = e.effect(n)
        rest = tuple(d - x for d, x in zip(diff, eff))
        for j in by_effect.get(rest, []):
            other = edits[j]
            if j <= i or other.item is e.item and other.change is not Change.NOT_OWED:
                continue
            twos.append(Reading((e.change, other.change), tuple(other.apply(e.apply(sett.items))), (e, other)))
    return ones, twos


NAMED_OPTIONS: Final = frozenset({"flip", "jian_dou_san.enabled", "wugu_ji.enabled"})
"""The options a record names in `rules.options` (profiles.py `_apply_special`): a platform that
reads one of them the other way makes the commonest mistake of all."""


def _rule_of(r: Reading) -> str | None:
    """The rule a reading is a story about when it is not the payments' own: a flip or
    qualification parameter, a house rule (its cited rule, audit.attributed); None otherwise."""
    return r.rule if r.changes[0] is Change.PARAMETER else None


def _preference(r: Reading) -> int:
    """Which of two readings that pay exactly the same (one signature) the audit states: a named
    option read the other way, then a change of items, then one of explain's models, then a house
    rule not played, then another value of any other parameter (they explain the same payments, and the
    first is the likelier story: a client that reads the flip as the next rank, not one that
    values every chicken 0)."""
    if r.changes[0] is Change.PARAMETER:
        return 0 if r.parameter in NAMED_OPTIONS else 3 if r.parameter in BY_PATH else 4
    return 2 if r.changes[0] is Change.MODEL else 1


def attribute(st: GameState, sett: Settlement, claimed_units: list[int]) -> Attribution:
    """The simplest readings of the required ledger that give exactly `claimed_units`."""
    n = st.n
    required = _net(sett.items, n)
    diff = _diff(claimed_units, list(required))
    if not any(diff) or sum(diff) != 0:
        return Attribution(())
    target = tuple(claimed_units)
    withheld = burned_items(st, sett) + unready_dou(st, sett)
    ones, twos = _edit_readings(sett, n, diff, withheld, credit_payers(st, sett))
    found = ones + list(_model_readings(st, sett, target)) + _burned_readings(sett, n, target, withheld) \
        + (twos if not ones else [])
    if not found:
        return Attribution(())
    best = min(r.cost for r in found)
    kept: dict[tuple[frozenset[tuple[Key, int]], str | None], Reading] = {}
    for r in sorted((r for r in found if r.cost == best), key=_preference):
        # the same payments under another rule is another story: both are said (R16.16); but a house
        # rule (R17, R18) read the other way that pays what a plainer reading pays tells nothing more
        # (R18.1 `dealer_wins` is any dealer bonus the dealer pays left out)
        sig = signature(r.ledger)
        if r.parameter in BY_PATH and (sig, None) in kept:
            continue
        kept.setdefault((sig, _rule_of(r)), r)
    readings = tuple(kept.values())
    if len(readings) > MAX_READINGS:
        return Attribution((), too_many=len(readings))
    return Attribution(readings)
