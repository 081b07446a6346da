"""Name the payment behind a wrong result that has no items (R16.16).

A platform that gets a hand wrong usually gets one rule wrong. Each model
below re-settles the hand the way a client with that one bug would; when the
claimed scores match a model exactly, the audit can say which payment is
wrong instead of only "seat 2 is off by 9".
"""
from __future__ import annotations

from typing import Final

from collections.abc import Callable
from dataclasses import dataclass, replace

from collections import Counter

from audit.house_rules import SECTIONS, HouseRule, Section
from audit.kinds import BurnKind, ItemKind, MeldKind
from audit.tiles import code
from audit.settle import Item, Settlement, net_scores, settle
from audit.profiles import Profile
from audit.state import GameState


@dataclass(frozen=True)
class Explanation:
    """The rule a platform most likely broke, and the finding code that says so (R16.16).

    The code is a finding code of its own (audit/catalogue/findings.toml): the
    per-seat `seat_net_differs` finding it explains takes this code, keeps its
    params (seat, claimed, computed) and cites this rule; its message is the
    seat's difference followed by the explanation."""

    rule: str
    code: str


Model = Callable[[GameState, Settlement], list[Item] | None]
"""The ledger a platform with one mistake would pay, or None where the mistake cannot arise."""


def settle_under(st: GameState, prof: Profile, *, ignore_burn: bool = False) -> list[Item]:
    """The ledger of the replayed hand `st` settled under another profile (the state is put back)."""
    own = st.profile
    st.profile = prof
    try:
        return settle(st, ignore_burn=ignore_burn).items
    finally:
        st.profile = own


def _with_profile(st: GameState, **changes: object) -> list[Item]:
    return settle_under(st, replace(st.profile, **changes))  # type: ignore[arg-type]


def _no_burn(rob: bool) -> Model:
    def model(st: GameState, sett: Settlement) -> list[Item] | None:
        w = st.window
        if not st.wins or w is None or w.rob != rob or (w.hot_kong is None and not w.rob):
            return None
        return settle(st, ignore_burn=True).items
    return model


def burned_credits(st: GameState, sett: Settlement, rob: bool, ready: bool = True) -> list[Item]:
    """The dou and chicken credits of the seats a 热炮 (`rob` False) or a 抢杠 (`rob` True) burned or
    voided (R8.3, R9.3): what the hand would pay them if nothing burned. `ready=False`: as if the
    burned seat qualified too (a platform that pays a shooter's chickens whatever its readiness)."""
    seats = {s for s, b in (*sett.burned.items(), *sett.void_kongs.items()) if (b.by is BurnKind.ROB) == rob}
    if not seats:
        return []
    have = Counter((i.kind, i.payer, i.payee, i.amount) for i in sett.items)
    extra: list[Item] = []
    prof = st.profile if ready else replace(
        st.profile, dou_requires_ready=False, chicken_requires_ready=False, dou_unready="void",
        chicken=replace(st.profile.chicken, exposed_payers="owner", qualified_pay_each_other=True))
    for it in settle_under(st, prof, ignore_burn=True):
        key = (it.kind, it.payer, it.payee, it.amount)
        if it.kind in (ItemKind.DOU, ItemKind.CHICKEN) and it.payee in seats and not have[key]:
            extra.append(it)
        elif have[key]:
            have[key] -= 1
    for seat in seats if rob else ():
        for m in st.seats[seat].melds:
            if m.robbed:  # the robbed 转弯豆 stays a pong on the table; the platform paid it as a kong
                value = st.profile.dou_value(MeldKind.ADDED.value)
                extra += [Item(ItemKind.DOU, o, seat, value, "R4.7", "dou", {"kong": MeldKind.ADDED.value,
                                                                           "tile": code(m.tile)})
                          for o in range(st.n) if o != seat]
    return extra


def _credits_paid(rob: bool, ready: bool = True) -> Model:
    """The burned or voided seat paid its own dou and chicken credits, the rest settled right: the
    rules' ledger plus those credits (a platform that forgets R8.3/R9.3 only for that seat's credits)."""
    def model(st: GameState, sett: Settlement) -> list[Item] | None:
        extra = burned_credits(st, sett, rob, ready)
        return [*sett.items, *extra] if extra else None
    return model


def _rob_by_all(st: GameState, sett: Settlement) -> list[Item] | None:
    robs = [i for i in sett.items if i.kind is ItemKind.HAND and i.rule == "R9.3"]
    if not robs:
        return None
    items = [i for i in sett.items if i not in robs]
    for it in robs:
        share = it.amount // (st.n - 1)
        items += [Item(ItemKind.HAND, o, it.payee, share, "R9.3", it.code, it.params) for o in range(st.n) if o != it.payee]
    return items


def _without(kind: ItemKind | None = None, rule: str | None = None) -> Model:
    def model(st: GameState, sett: Settlement) -> list[Item] | None:
        kept = [i for i in sett.items if not ((kind is None or i.kind is kind) and (rule is None or i.rule == rule))]
        if len(kept) == len(sett.items):
            return None
        return kept
    return model


def _dou_ignores_ready(st: GameState, sett: Settlement) -> list[Item] | None:
    # (R17.7 倒赔 needs the readiness rule, so the model plays without it too; R18.3's test then
    # has nothing to act on.)
    if not st.profile.dou_requires_ready or not st.wins:
        return None
    return _with_profile(st, dou_requires_ready=False, dou_unready="void")


def _chickens_ignore_ready(st: GameState, sett: Settlement) -> list[Item] | None:
    # (R17.1 包鸡 and R17.2 need the readiness rule, so the model plays without them too.)
    prof = st.profile
    if not prof.chicken_requires_ready or not st.wins:
        return None
    return _with_profile(st, chicken_requires_ready=False, chicken=replace(
        prof.chicken, exposed_payers="owner", qualified_pay_each_other=True))


def _house_rule_not_played(rule: HouseRule, section: Section) -> Model:
    """R17-R19: the profile plays `section` of house rule `rule` (audit/house_rules.py); the platform
    settled by today's rule. None when the profile plays another value (or has no such table), and on an
    exhaustive draw unless the rule acts there (`on_draw`)."""
    group, _, field_ = rule.path.rpartition(".")

    def model(st: GameState, sett: Settlement) -> list[Item] | None:
        prof = st.profile
        if rule.section_of(rule.value(prof)) is not section or not (st.wins or rule.on_draw):
            return None
        if group:
            holder = getattr(prof, group)
            changes: dict[str, object] = {field_: rule.default}
            return _with_profile(st, **{group: replace(holder, **changes)})
        return _with_profile(st, **{field_: rule.default})
    return model


def not_played_code(rule: str) -> str:
    """The finding code that names house-rule section `rule` as not played (`net_r17_1_not_played`)."""
    return "net_" + rule.lower().replace(".", "_") + "_not_played"


MODELS: Final[list[tuple[str, str, Model]]] = [
    *((section.rule, not_played_code(section.rule), _house_rule_not_played(rule, section))
      for section, rule in SECTIONS),
    ("R8.3", "net_hot_shot_burn_not_applied", _no_burn(False)),
    ("R9.3", "net_rob_burn_not_applied", _no_burn(True)),
    ("R8.3", "net_hot_shot_burn_not_applied", _credits_paid(False)),
    ("R8.3", "net_hot_shot_burn_not_applied", _credits_paid(False, ready=False)),
    ("R9.3", "net_rob_burn_not_applied", _credits_paid(True)),
    ("R9.3", "net_rob_burn_not_applied", _credits_paid(True, ready=False)),
    ("R9.3", "net_rob_billed_to_all", _rob_by_all),
    ("R6.4", "net_dealer_bonus_missing", _without(kind=ItemKind.DEALER)),
    ("R8.3", "net_hot_shot_transfer_missing", _without(kind=ItemKind.HOT_SHOT)),
    ("R11.4", "net_responsibility_missing", _without(rule="R11.4")),
    ("R4.7", "net_dou_to_unready", _dou_ignores_ready),
    ("R11.6", "net_chickens_to_unready", _chickens_ignore_ready),
    ("R4.7", "net_dou_missing", _without(kind=ItemKind.DOU)),
    ("R11.6", "net_chickens_missing", _without(kind=ItemKind.CHICKEN)),
]
"""(rule, finding code, model), tried in order: the first whose scores are the claimed ones explains them.
The house-rule models (R17-R19) come first and answer only where the profile plays that house rule."""


def explain(st: GameState, sett: Settlement, claimed_units: list[int]) -> Explanation | None:
    """The first mistake model whose scores are exactly the claimed ones."""
    for rule, what, model in MODELS:
        items = model(st, sett)
        scores = None if items is None else net_scores(items, st.n)
        if scores is not None and scores == claimed_units and scores != sett.scores():
            return Explanation(rule, what)
    return None
