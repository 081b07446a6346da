"""TEMPORARY: the one chicken ledger (audit.house.chicken_items) and the one dou ledger (settle._dou)
against the two paths they replace (audit.chickens' R11 tally and payments, or audit.house_old's R17/R18
ledger, by Profile.house_chickens; settle._dou_items/_reversed_dou_items or _house_dou, by
Profile.house_dou), item by item, on simulated hands. Deleted with the old code."""
from __future__ import annotations

import os
from typing import Any

import pytest

from audit import chickens, house_old, settle as settle_mod
from audit.items import Item
from audit.kinds import BurnKind, ItemKind
from audit.profiles import ProfileError, resolve
from audit.settle import final_hand
from sim.simulate import playable, simulate

COUNT = int(os.environ.get("LEDGER_HANDS", "40"))

R17_R18 = [
    {"chicken.exposed_payers": "all_unready"}, {"chicken.qualified_pay_each_other": False},
    {"chicken.claimed_charge": "to_claimer"}, {"chicken.responsibility_claims": "any"},
    {"chicken.responsibility_if_discarder_ready": False}, {"chicken.wugu_gold": True},
    {"chicken.wugu_responsibility": False}, {"chicken.charge_scope": "first_any"},
    {"dou_unready": "reverse"}, {"follow_dealer": 1},
    {"dealer_bonus.on": "dealer_wins"}, {"dou.exposed_payer": "konger"}, {"dou_ready_test": "ever"},
    {"hot_shot.burn_liabilities": "void"}, {"chicken.exposed_kong_claim": "keeps_charge"},
]
COMBOS = [
    {"chicken.exposed_payers": "all_unready", "chicken.qualified_pay_each_other": False,
     "hot_shot.burn_liabilities": "void"},
    {"chicken.claimed_charge": "to_claimer", "chicken.exposed_kong_claim": "keeps_charge",
     "chicken.responsibility_claims": "any", "chicken.responsibility_if_discarder_ready": False},
    {"dou_unready": "reverse", "dou_ready_test": "ever", "dou.exposed_payer": "konger"},
    {"dou_unready": "reverse", "dou.exposed_payer": "konger"},
    {"wugu_ji": {"normal": 2, "charge": 4}, "chicken.wugu_gold": True, "chicken.charge_scope": "first_any",
     "chicken.claimed_charge": "to_claimer", "chicken.exposed_payers": "all_unready"},
    {"chicken.exposed_payers": "all_unready", "hot_shot.burn_liabilities": "void",
     "chicken.exposed_kong_claim": "keeps_charge", "dou_unready": "reverse", "dou_ready_test": "ever"},
    {"flip": "up_down", "wugu_ji": {"normal": 2, "charge": 4}, "chicken.responsibility_claims": "any"},
]
PROFILES = ["weile", "cuocuo", "kuhu", "senyan", "guizhou"]
CASES = [(name, opts) for name in PROFILES for opts in [{}, *R17_R18, *COMBOS]]


def _old_chickens(st: Any, sett: Any) -> tuple[list[Any], list[Item], list[Item]]:
    prof = st.profile
    won_or_ready = {w.seat for w in st.wins} | {s for s, v in sett.ready.items() if v is not None}
    burned = set(sett.burned)
    flip = chickens.flip_of(prof, sett.flip)
    if prof.house_chickens:
        void = {s for s, b in sett.burned.items() if b.by is BurnKind.HOT_SHOT} \
            if prof.hot_shot.burn_liabilities == "void" else set()
        tallies, pays, waived = house_old.settle_chickens(st, [final_hand(st, s) for s in range(st.n)],
                                                          won_or_ready, burned, flip, void)
    else:
        tallies = []
        for seat in range(st.n):
            qualifies = seat not in burned and (not prof.chicken_requires_ready or seat in won_or_ready)
            liable = prof.chicken_requires_ready and seat not in won_or_ready
            tallies.append(chickens.tally(st, seat, final_hand(st, seat), qualifies, liable, flip))
        pays, waived = chickens.payments(st, tallies, burned), []
    def items(ps: list[Any]) -> list[Item]:
        return [Item(ItemKind.CHICKEN, p.payer, p.payee, p.amount, p.rule, p.code, p.params) for p in ps]
    return tallies, items(pays), items(waived)


def _old_dou(st: Any, sett: Any) -> tuple[list[Item], list[Item]]:
    prof = st.profile
    won_or_ready = {w.seat for w in st.wins} | {s for s, v in sett.ready.items() if v is not None}
    burned = set(sett.burned)
    _, void_kong = settle_mod._burns(st)
    if prof.house_dou:
        return settle_mod._house_dou(st, won_or_ready, burned, void_kong)
    items = settle_mod._dou_items(st, won_or_ready, burned, void_kong)
    if prof.dou_unready == "reverse":
        items += settle_mod._reversed_dou_items(st, won_or_ready, burned, void_kong)
    return items, []


def _of(items: list[Item], kind: ItemKind) -> list[Item]:
    return [i for i in items if i.kind is kind]


def _key(i: Item) -> tuple[Any, ...]:
    return (i.kind.value, i.payer, i.payee, i.amount, i.rule, i.code, repr(i.params))


@pytest.mark.parametrize("name,options", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_one_ledger_pays_what_the_two_paths_paid(name: str, options: dict[str, Any]) -> None:
    try:
        resolve(name, playable(name, options)[0])
    except ProfileError:
        pytest.skip("the profile refuses these options")
    checked = 0
    for gen in simulate(name, options, COUNT, 11 + len(options)):
        st, sett = gen.state, gen.settlement
        if not st.wins:
            continue
        tallies, pays, waived = _old_chickens(st, sett)
        assert _of(sett.items, ItemKind.CHICKEN) == pays, gen.record["game_id"]
        assert _of(sett.waived, ItemKind.CHICKEN) == waived, gen.record["game_id"]
        assert sett.chickens == tallies, gen.record["game_id"]
        dou, dou_waived = _old_dou(st, sett)
        new_dou = _of(sett.items, ItemKind.DOU)
        if st.profile.house_dou and st.profile.dou_unready == "reverse":
            # The one dou ledger lists the dou paid to every konger, then R17.7's payments back (as
            # today's default path); the R18 path interleaved them seat by seat: same items.
            assert sorted(map(_key, new_dou)) == sorted(map(_key, dou)), gen.record["game_id"]
            assert sorted(map(_key, _of(sett.waived, ItemKind.DOU))) == sorted(map(_key, dou_waived))
            REORDERED.append(new_dou != dou)
        else:
            assert new_dou == dou, gen.record["game_id"]
            assert _of(sett.waived, ItemKind.DOU) == dou_waived, gen.record["game_id"]
        checked += 1
    COUNTED.append(checked)
    assert checked > COUNT // 3


COUNTED: list[int] = []
REORDERED: list[bool] = []
