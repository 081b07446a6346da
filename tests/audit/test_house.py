"""audit.house: the one chicken ledger, R11 with the profile's house-rule values.

At the defaults it pays R11.6 exactly as the tallies say (each qualifying seat its credit from each
other seat, each seat that does not qualify its liability to each qualifying seat, plus R11.4's
责任鸡); a house-rule value that cannot act on a hand changes no amount, only the words of a 冲锋鸡
(R17's tile plus extra instead of R11's one chicken at charge value)."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from audit.engine import audit_hand
from audit.kinds import ItemKind
from sim.simulate import simulate
from tests.audit.test_r17 import CHARGE, HANDS
from tests.helpers import legal, play, sums

PROFILES = [("weile", {}), ("cuocuo", {"wugu_ji": True}), ("kuhu", {}), ("senyan", {}), ("guizhou", {}),
            ("cuocuo", {"flip": "up_down"})]


def _pairs(items: list[Any], code: str) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = defaultdict(int)
    for i in items:
        if i.kind is ItemKind.CHICKEN and i.code == code:
            out[(i.payer, i.payee)] += i.amount
    return dict(out)


@pytest.mark.parametrize("name,options", PROFILES)
def test_at_the_defaults_the_ledger_pays_the_tallies(name: str, options: dict[str, Any]) -> None:
    """R11.6/R11.7 read off the tallies: a qualifying seat's credit from every other seat, the
    liability of a seat that does not qualify to every qualifying seat; nothing else but R11.4's
    责任鸡, and nothing waived."""
    checked = 0
    for gen in simulate(name, options, 120, 7):
        sett = gen.settlement
        if not gen.state.wins:
            continue
        qual = [t.seat for t in sett.chickens if t.qualifies]
        credit = {(o, t.seat): t.credit for t in sett.chickens if t.qualifies and t.credit
                  for o in range(gen.state.n) if o != t.seat}
        owed = {(t.seat, q): t.liability for t in sett.chickens if not t.qualifies and t.liability for q in qual}
        assert _pairs(sett.items, "chicken_credit") == credit, gen.record["game_id"]
        assert _pairs(sett.items, "chicken_owed") == owed, gen.record["game_id"]
        rules = {i.rule for i in sett.items if i.kind is ItemKind.CHICKEN}
        assert rules <= {"R11.4", "R11.6", "R11.7"}
        assert {i.code for i in sett.items if i.rule == "R11.4"} <= {"responsibility_chicken",
                                                                     "responsibility_chicken_reverse"}
        assert sett.waived == []
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("name,options", PROFILES)
def test_a_house_rule_that_cannot_act_changes_only_the_words(name: str, options: dict[str, Any]) -> None:
    """`chicken.wugu_gold` without 8p in play (R17.6 acts "under wugu_ji") changes no payment: the same
    sums per (kind, payer, payee), the same rules; only a 冲锋鸡's words may differ."""
    if options.get("wugu_ji"):
        pytest.skip("8p is in play: R17.6 acts")
    worded = 0
    for gen in simulate(name, options, 60, 5):
        if not gen.state.wins:
            continue
        plain = audit_hand(gen.record)
        house = audit_hand(gen.record, options={"chicken.wugu_gold": True})
        assert plain.settlement is not None and house.settlement is not None
        a, b = plain.settlement.to_json(1), house.settlement.to_json(1)
        assert sums(a["items"]) == sums(b["items"]) and a["scores"] == b["scores"], gen.record["game_id"]
        assert [(i["kind"], i["from"], i["to"], i["rule"]) for i in a["items"]] == \
            [(i["kind"], i["from"], i["to"], i["rule"]) for i in b["items"]]
        assert house.settlement.waived == []
        worded += a["items"] != b["items"]
    assert worded  # some hand had a 冲锋鸡 to word


def _parts(s: dict[str, Any], payer: int, payee: int) -> list[tuple[str, int]]:
    return [(p["code"], p["params"]["amount"]) for i in s["items"]
            if i["kind"] == "chicken" and (i["from"], i["to"]) == (payer, payee) for p in i["params"]["parts"]]


def test_a_charge_chicken_in_r11s_words_and_in_r17s() -> None:
    """test_r17's CHARGE (weile: normal 1, charge 3): seat 1 (ready) discarded the 冲锋鸡 and holds no
    other 1s; seat 0 pays it 3. R11 words it as one chicken at charge value; R17 (any chicken house
    rule in play, here R17.5, which has no 责任鸡 to act on) as its tile 1 plus its extra 2."""
    r11 = legal(play(HANDS, CHARGE, flip="9p"))
    assert _parts(r11, 0, 1) == [("charge_chicken", 3)]
    r17 = legal(play(HANDS, CHARGE, options={"chicken.responsibility_if_discarder_ready": False}, flip="9p"))
    assert _parts(r17, 0, 1) == [("chicken_count", 1), ("charge_extra", 2)]
    assert sums(r11["items"]) == sums(r17["items"])


def test_gold_words_the_charge_chicken_with_its_multiplier() -> None:
    """CHARGE with flip 9s (1s 金鸡 x2): seat 1's 冲锋鸡 is 3 x 2 = 6 from each other seat; seat 2 (not
    ready) owes its discarded 1s 1 x 2 = 2 to seats 0 and 1 (its two 1s in hand cost nothing)."""
    s = legal(play(HANDS, CHARGE, flip="9s"))
    assert _parts(s, 0, 1) == [("charge_chicken_gold", 6)]
    assert _parts(s, 2, 0) == [("exposed_chickens", 2)]
    assert [i["amount"] for i in s["items"] if i["kind"] == "chicken" and (i["from"], i["to"]) == (2, 1)] == [6, 2]
