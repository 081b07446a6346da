"""audit.house (R17 chickens) against audit.chickens: with every R17 parameter at its default the
house path must move exactly what R11 moves, pair by pair, in every profile."""
from __future__ import annotations

from collections import defaultdict

import pytest

from audit import chickens, house
from audit.settle import final_hand, settle
from sim.simulate import simulate


def _pairs(pays: list[chickens.Payment]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = defaultdict(int)
    for p in pays:
        out[(p.payer, p.payee)] += p.amount
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("name,options", [("weile", {}), ("cuocuo", {"wugu_ji": True}), ("kuhu", {}),
                                          ("senyan", {}), ("guizhou", {}), ("cuocuo", {"flip": "up_down"})])
def test_house_path_at_defaults_is_r11(name: str, options: dict) -> None:
    checked = 0
    for gen in simulate(name, options, 120, 7):
        st, sett = gen.state, gen.settlement
        if not st.wins:
            continue
        won_or_ready = {w.seat for w in st.wins} | {s for s, v in sett.ready.items() if v is not None}
        flip = chickens.flip_of(st.profile, sett.flip)
        hands = [final_hand(st, s) for s in range(st.n)]
        _, pays, waived = house.settle_chickens(st, hands, won_or_ready, set(sett.burned), flip)
        r11 = _pairs([chickens.Payment(i.payer, i.payee, i.amount, i.rule, i.code, i.params)
                      for i in sett.items if i.kind.value == "chicken"])
        assert _pairs(pays) == r11, gen.record["game_id"]
        assert waived == []
        checked += 1
    assert checked > 50
