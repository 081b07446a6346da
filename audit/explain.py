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

from audit.kinds import ItemKind
from audit.settle import Item, Settlement, net_scores, settle
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


Model = Callable[[GameState, Settlement], list[int] | None]


def _with_profile(st: GameState, **changes: object) -> list[int]:
    prof = st.profile
    st.profile = replace(prof, **changes)  # type: ignore[arg-type]
    try:
        return settle(st).scores()
    finally:
        st.profile = prof


def _no_burn(rob: bool) -> Model:
    def model(st: GameState, sett: Settlement) -> list[int] | None:
        w = st.window
        if not st.wins or w is None or w.rob != rob or (w.hot_kong is None and not w.rob):
            return None
        return settle(st, ignore_burn=True).scores()
    return model


def _rob_by_all(st: GameState, sett: Settlement) -> list[int] | None:
    robs = [i for i in sett.items if i.kind is ItemKind.HAND and i.rule == "R9.3"]
    if not robs:
        return None
    items = [i for i in sett.items if i not in robs]
    for it in robs:
        share = it.amount // (st.n - 1)
        items += [Item(ItemKind.HAND, o, it.payee, share, "R9.3", it.code, it.params) for o in range(st.n) if o != it.payee]
    return net_scores(items, st.n)


def _without(kind: ItemKind | None = None, rule: str | None = None) -> Model:
    def model(st: GameState, sett: Settlement) -> list[int] | None:
        kept = [i for i in sett.items if not ((kind is None or i.kind is kind) and (rule is None or i.rule == rule))]
        if len(kept) == len(sett.items):
            return None
        return net_scores(kept, st.n)
    return model


def _dou_ignores_ready(st: GameState, sett: Settlement) -> list[int] | None:
    return _with_profile(st, dou_requires_ready=False) if st.profile.dou_requires_ready and st.wins else None


def _chickens_ignore_ready(st: GameState, sett: Settlement) -> list[int] | None:
    return _with_profile(st, chicken_requires_ready=False) if st.profile.chicken_requires_ready and st.wins else None


MODELS: Final[list[tuple[str, str, Model]]] = [
    ("R8.3", "net_hot_shot_burn_not_applied", _no_burn(False)),
    ("R9.3", "net_rob_burn_not_applied", _no_burn(True)),
    ("R9.3", "net_rob_billed_to_all", _rob_by_all),
    ("R6.4", "net_dealer_bonus_missing", _without(kind=ItemKind.DEALER)),
    ("R8.3", "net_hot_shot_transfer_missing", _without(kind=ItemKind.HOT_SHOT)),
    ("R11.4", "net_responsibility_missing", _without(rule="R11.4")),
    ("R4.7", "net_dou_to_unready", _dou_ignores_ready),
    ("R11.6", "net_chickens_to_unready", _chickens_ignore_ready),
    ("R4.7", "net_dou_missing", _without(kind=ItemKind.DOU)),
    ("R11.6", "net_chickens_missing", _without(kind=ItemKind.CHICKEN)),
]
"""(rule, finding code, model), tried in order: the first whose scores are the claimed ones explains them."""


def explain(st: GameState, sett: Settlement, claimed_units: list[int]) -> Explanation | None:
    """The first mistake model whose scores are exactly the claimed ones."""
    for rule, what, model in MODELS:
        scores = model(st, sett)
        if scores is not None and scores == claimed_units and scores != sett.scores():
            return Explanation(rule, what)
    return None
