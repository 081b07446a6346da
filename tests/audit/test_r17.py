"""R17 house-rule variants in play: small hand-built hands whose every chicken, dou and 跟庄
payment is worked out by hand from R17's words (weile values unless said: chicken normal 1,
charge 3 so a 冲锋 extra of 2, 责任鸡 2; 8p under `wugu_ji` {normal 2, charge 4}: extra 2)."""
from __future__ import annotations

from typing import Any

import pytest

from audit.engine import audit_hand
from audit.kinds import ItemKind
from audit.profiles import resolve
from audit.replay import replay
from audit.settle import follows_dealer, settle
from audit.tiles import code
from sim.notation import record, with_result
from tests.helpers import INERT, kinds, legal, play

DEALER = "123m 456m 789m 234p 5p 9s"          # after 9s waits 2p/5p; self-draws 2p at the end
S1 = "234s 567s 678m 99m 3p 1s"               # draws 4p, discards the first 1s: waits 2p/5p
S2 = "11s 777p 888s 22m 34m 9p"               # pongs 1s; ready after 9p, not after 4m
HANDS = [DEALER, S1, S2, INERT[2]]
WUGU = {"wugu_ji": {"normal": 2, "charge": 4}}


def claimed(discard: str) -> str:
    """Seat 1's first 1s is ponged by seat 2; seat 0 self-draws 2p."""
    return (f"0 discard 9s\n1 draw 4p\n1 discard 1s\n2 pong 1s\n2 discard {discard}\n"
            "3 draw 5m\n3 discard 5m\n0 draw 2p\n0 win 2p")


CHARGE = ("0 discard 9s\n1 draw 4p\n1 discard 1s\n2 draw 1s\n2 discard 9p\n3 draw 5m\n3 discard 5m\n"
          "0 draw 3m\n0 discard 3m\n1 draw 7s\n1 discard 7s\n2 draw 6s\n2 discard 1s\n3 draw 6m\n3 discard 6m\n"
          "0 draw 2p\n0 win 2p")
"""Seat 1 (ready) discards the 冲锋鸡; seat 2 ends not ready with 11s in hand and one 1s discarded;
seat 3 not ready; seat 0 self-draws. Flip 9p -> 1p, which nobody holds."""

# R17.1 example: seat 0 wins holding one 1s, seats 1-3 not ready, seat 1 discarded the 冲锋鸡.
BAOJI_HANDS = ["123m 456m 789m 123s 5p 9p", "1m 4m 7m 8m 2p 3p 6p 9p 1s 2s 3s 6s 7s", INERT[1], INERT[2]]
BAOJI = "0 discard 9p\n1 draw 5m\n1 discard 1s\n2 draw 5s\n2 discard 5s\n3 draw 5m\n3 discard 5m\n0 draw 5p\n0 win 5p"


def chicken(hands: list[str], events: str, options: dict[str, Any] | None = None, **kw: Any) -> dict:
    s = legal(play(hands, events, options=options, **kw))
    assert sum(s["scores"]) == 0
    return kinds(s["items"], "chicken")


# ---------------------------------------------------------------- R17.1 包鸡

def test_r17_1_example_of_the_rulebook() -> None:
    """Owner (R11.6): seat 0 +6 (its 1s from each, seat 1's 冲锋鸡 3); 包鸡: seat 0 +8, seat 1 -4,
    seats 2 and 3 -2 each, exactly the rulebook's example."""
    assert chicken(BAOJI_HANDS, BAOJI, flip="5s") == {(1, 0): 4, (2, 0): 1, (3, 0): 1}
    s = legal(play(BAOJI_HANDS, BAOJI, options={"chicken.exposed_payers": "all_unready"}, flip="5s"))
    got = kinds(s["items"], "chicken")
    assert got == {(1, 0): 4, (2, 0): 2, (3, 0): 2}
    assert {i["rule"] for i in s["items"] if i["kind"] == "chicken" and i["from"] == 2} == {"R11.6", "R17.1"}


def test_r17_1_a_qualifying_discarder_is_not_shared() -> None:
    """CHARGE: seat 1 qualifies (its 冲锋鸡 is its own credit, 3 from each); seat 2's discarded 1s
    costs 1 from each of seats 2 and 3 to each of seats 0 and 1; seat 2's concealed 11s cost nothing."""
    assert chicken(HANDS, CHARGE, flip="9p") == {(0, 1): 3, (2, 1): 4, (3, 1): 3, (2, 0): 1}
    got = chicken(HANDS, CHARGE, {"chicken.exposed_payers": "all_unready"}, flip="9p")
    assert got == {(0, 1): 3, (2, 1): 4, (3, 1): 4, (2, 0): 1, (3, 0): 1}


def test_r17_1_melded_chickens_of_a_non_qualifying_seat_cost_nothing() -> None:
    """claimed(4m): seat 2 pongs the first 1s and ends not ready. Owner: it pays its 3 melded 1s to
    seats 0 and 1; 包鸡: melded chickens cost nothing."""
    assert chicken(HANDS, claimed("4m"), flip="9p") == {(2, 0): 3, (2, 1): 3}
    assert chicken(HANDS, claimed("4m"), {"chicken.exposed_payers": "all_unready"}, flip="9p") == {}


# ---------------------------------------------------------------- R17.2

def test_r17_2_qualifying_seats_pay_each_other_only_the_extra() -> None:
    """CHARGE: seat 0 (won) pays seat 1 only the 冲锋 extra 2; seats 2 and 3 still pay 3."""
    s = legal(play(HANDS, CHARGE, options={"chicken.qualified_pay_each_other": False}, flip="9p"))
    assert kinds(s["items"], "chicken") == {(0, 1): 2, (2, 1): 4, (3, 1): 3, (2, 0): 1}
    assert [i["rule"] for i in s["items"] if i["kind"] == "chicken" and (i["from"], i["to"]) == (0, 1)] == ["R17.2"]


def test_r17_2_responsibility_still_paid() -> None:
    """claimed(9p): seat 2 (ready) melds 3 1s: only seat 3 pays it 3; seat 1 still owes the 责任鸡 2."""
    assert chicken(HANDS, claimed("9p"), flip="9p") == {(0, 2): 3, (1, 2): 5, (3, 2): 3}
    got = chicken(HANDS, claimed("9p"), {"chicken.qualified_pay_each_other": False}, flip="9p")
    assert got == {(1, 2): 2, (3, 2): 3}


def test_r17_1_with_r17_2() -> None:
    got = chicken(HANDS, CHARGE, {"chicken.qualified_pay_each_other": False,
                                  "chicken.exposed_payers": "all_unready"}, flip="9p")
    assert got == {(0, 1): 2, (2, 1): 4, (3, 1): 4, (2, 0): 1, (3, 0): 1}


# ---------------------------------------------------------------- R17.3

def test_r17_3_claimed_charge_to_a_qualifying_claimer() -> None:
    """claimed(9p): the claimer (ready) keeps the extra 2 from every other seat, and the 责任鸡 2."""
    got = chicken(HANDS, claimed("9p"), {"chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert got == {(0, 2): 5, (1, 2): 7, (3, 2): 5}


def test_r17_3_claimer_does_not_qualify_so_the_discarder_holds_it() -> None:
    """claimed(4m): seat 2 not ready: the extra is seat 1's (ready): 2 from each other seat; seat 2
    still pays its melded 1s (3) to seats 0 and 1; no 责任鸡 (claimer does not qualify)."""
    got = chicken(HANDS, claimed("4m"), {"chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert got == {(2, 0): 3, (2, 1): 5, (0, 1): 2, (3, 1): 2}


def test_r17_3_holder_that_does_not_qualify_pays_the_extra() -> None:
    """claimed(4m) with seat 1 not ready either (it draws 5s instead of 4p: never ready):
    the discarder holds the extra and pays it to each qualifying seat (seat 0 only)."""
    events = claimed("4m").replace("1 draw 4p\n1 discard 1s", "1 draw 5s\n1 discard 1s")
    owner = chicken(HANDS, events, flip="9p")
    assert owner == {(2, 0): 3}
    got = chicken(HANDS, events, {"chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert got == {(2, 0): 3, (1, 0): 2}


# ---------------------------------------------------------------- R17.4, R17.5

ANY_HANDS = [DEALER, S1, S2, "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 3s 6s 1s"]
ANY = ("0 discard 9s\n1 draw 4p\n1 discard 1s\n2 draw 5s\n2 discard 5s\n3 draw 5m\n3 discard 1s\n"
       "2 pong 1s\n2 discard 9p\n3 draw 6m\n3 discard 6m\n0 draw 2p\n0 win 2p")
"""Seat 1's first 1s stays on the table (冲锋鸡, seat 1 ready); seat 3's later 1s is ponged by seat 2 (ready)."""


def test_r17_4_any_claim_makes_a_responsibility_chicken() -> None:
    base = {(0, 1): 3, (2, 1): 3, (3, 1): 3, (0, 2): 3, (1, 2): 3, (3, 2): 3}
    assert chicken(ANY_HANDS, ANY, flip="9p") == base
    s = legal(play(ANY_HANDS, ANY, options={"chicken.responsibility_claims": "any"}, flip="9p"))
    assert kinds(s["items"], "chicken") == {**base, (3, 2): 5}
    assert [i["rule"] for i in s["items"] if i["code"] == "responsibility_chicken"] == ["R17.4"]


def test_r17_5_no_responsibility_when_the_discarder_is_ready() -> None:
    """claimed(9p): seat 1, the discarder, is ready: no 责任鸡 extra."""
    got = chicken(HANDS, claimed("9p"), {"chicken.responsibility_if_discarder_ready": False}, flip="9p")
    assert got == {(0, 2): 3, (1, 2): 3, (3, 2): 3}


def test_r17_5_the_reverse_payment_too() -> None:
    """cuocuo (responsibility_reverse): claimed(4m) makes the claimer pay the discarder 1 in reverse;
    with R17.5 false the discarder is ready, so neither direction is owed."""
    assert chicken(HANDS, claimed("4m"), profile="cuocuo", flip="9p") == {(2, 0): 3, (2, 1): 4}
    got = chicken(HANDS, claimed("4m"), {"chicken.responsibility_if_discarder_ready": False},
                  profile="cuocuo", flip="9p")
    assert got == {(2, 0): 3, (2, 1): 3}


def test_r17_4_with_r17_5() -> None:
    """ANY: the later claim's discarder (seat 3) is not ready: its 责任鸡 stays owed."""
    got = chicken(ANY_HANDS, ANY, {"chicken.responsibility_claims": "any",
                                   "chicken.responsibility_if_discarder_ready": False}, flip="9p")
    assert got[(3, 2)] == 5


# ---------------------------------------------------------------- R17.6, R17.9, R17.10 (乌骨鸡)

GOLD_HANDS = ["123m 456m 789m 888p 5p 9s", INERT[1], INERT[0], INERT[2]]
GOLD = "0 discard 9s\n1 draw 5m\n1 discard 8p\n2 draw 5s\n2 discard 5s\n3 draw 5m\n3 discard 5m\n0 draw 5p\n0 win 5p"
"""Seat 0 wins holding 888p; seat 1 (never ready) discards the first 8p (冲锋乌骨鸡); flip 7p -> 8p."""


def test_r17_6_wugu_gold() -> None:
    """R16.11: 3x8p at 2 = 6 plus 3 flip credits = 9 from each; seat 1's 冲锋 8p 4 more.
    R17.6: 3x8p x2 = 12, no flip credit; the 冲锋 8p (tile 2 + extra 2) x2 = 8."""
    assert chicken(GOLD_HANDS, GOLD, WUGU, flip="7p") == {(1, 0): 13, (2, 0): 9, (3, 0): 9}
    s = legal(play(GOLD_HANDS, GOLD, options={**WUGU, "chicken.wugu_gold": True}, flip="7p"))
    assert kinds(s["items"], "chicken") == {(1, 0): 20, (2, 0): 12, (3, 0): 12}
    assert {i["rule"] for i in s["items"] if i["kind"] == "chicken"} == {"R17.6"}


def test_r17_6_without_wugu_has_no_effect() -> None:
    assert chicken(GOLD_HANDS, GOLD, {"chicken.wugu_gold": True}, flip="7p") == chicken(GOLD_HANDS, GOLD, flip="7p")


WUGU_CLAIM_HANDS = [DEALER, "234s 567s 678m 99m 3p 8p", "88p 777p 888s 22m 34m 9p",
                    "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 3s 6s 1s"]
WUGU_CLAIM = ("0 discard 9s\n1 draw 4p\n1 discard 8p\n2 pong 8p\n2 discard 9p\n3 draw 5m\n3 discard 1s\n"
              "0 draw 2p\n0 win 2p")
"""Seat 1 (ready) discards the first 8p, seat 2 (ready) pongs it; then seat 3 (not ready) discards
the first 1s, which stays on the table; seat 0 self-draws; flip 9p -> 1p, which nobody holds."""


def test_r17_9_no_responsibility_for_8p() -> None:
    """3x8p at 2 = 6 from each to seat 2, 责任鸡 2 from seat 1; seat 3's 冲锋鸡 3 to each of 0, 1, 2."""
    base = {(0, 2): 6, (1, 2): 8, (3, 2): 9, (3, 0): 3, (3, 1): 3}
    assert chicken(WUGU_CLAIM_HANDS, WUGU_CLAIM, WUGU, flip="9p") == base
    got = chicken(WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.wugu_responsibility": False}, flip="9p")
    assert got == {**base, (1, 2): 6}


def test_r17_10_one_charge_per_hand() -> None:
    """The 8p came first (claimed: no 冲锋鸡 this hand); seat 3's 1s is a normal exposed chicken: 1."""
    got = chicken(WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.charge_scope": "first_any"}, flip="9p")
    assert got == {(0, 2): 6, (1, 2): 8, (3, 2): 7, (3, 0): 1, (3, 1): 1}


def test_r17_10_first_any_keeps_the_first_unclaimed() -> None:
    """Dealer discards the first 1s (its 冲锋鸡, 3), seat 1 then the first 8p: per species it is a
    冲锋乌骨鸡 (4 to seat 0); first_any: a plain exposed 8p (2)."""
    hands = ["123m 456m 789m 888p 5p 1s", INERT[1], INERT[0], INERT[2]]
    events = GOLD.replace("0 discard 9s", "0 discard 1s")
    assert chicken(hands, events, WUGU, flip="5s") == {(1, 0): 13, (2, 0): 9, (3, 0): 9}
    got = chicken(hands, events, {**WUGU, "chicken.charge_scope": "first_any"}, flip="5s")
    assert got == {(1, 0): 11, (2, 0): 9, (3, 0): 9}


def test_r17_3_with_r17_10() -> None:
    """The claimed first 8p keeps its extra 2 for seat 2 (every seat pays it); the 1s stays plain."""
    got = chicken(WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.charge_scope": "first_any",
                                                 "chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert got == {(0, 2): 8, (1, 2): 10, (3, 2): 9, (3, 0): 1, (3, 1): 1}
    per_species = chicken(WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert per_species == {(0, 2): 8, (1, 2): 10, (3, 2): 11, (3, 0): 3, (3, 1): 3}


def test_r17_3_with_r17_9() -> None:
    """A claimed first 8p keeps its 冲锋 role (extra 2) but makes no 责任鸡."""
    got = chicken(WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.claimed_charge": "to_claimer",
                                                 "chicken.wugu_responsibility": False}, flip="9p")
    assert got == {(0, 2): 8, (1, 2): 8, (3, 2): 11, (3, 0): 3, (3, 1): 3}


# ---------------------------------------------------------------- R17.7 倒赔

KONG_HANDS = [DEALER, S1, INERT[0], "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 1p 1p 1p"]
KONG = ("0 discard 9s\n1 draw 4p\n1 discard 1s\n2 draw 5s\n2 discard 5s\n3 draw 1p\n3 kong 1p concealed\n"
        "3 draw 6s\n3 discard 6s\n0 draw 2p\n0 win 2p")
"""Seat 3 (never ready) conceals 1111p; seat 0 wins, seat 1 is ready, seat 2 is not."""


def test_r17_7_unready_konger_pays_its_dou_back() -> None:
    assert kinds(legal(play(KONG_HANDS, KONG, flip="9p"))["items"], "dou") == {}
    s = legal(play(KONG_HANDS, KONG, options={"dou_unready": "reverse"}, flip="9p"))
    assert kinds(s["items"], "dou") == {(3, 0): 3, (3, 1): 3}
    assert {i["rule"] for i in s["items"] if i["kind"] == "dou"} == {"R17.7"} and sum(s["scores"]) == 0


def test_r17_7_a_burned_dou_stays_void() -> None:
    """Seat 3 shoots a 热炮 from its kong (weile burn all): its dou is void, never reversed."""
    events = KONG.replace("3 draw 6s\n3 discard 6s\n0 draw 2p\n0 win 2p", "3 draw 2p\n3 discard 2p\n0 win 2p")
    s = legal(play(KONG_HANDS, events, options={"dou_unready": "reverse"}, flip="9p"))
    assert kinds(s["items"], "dou") == {}


def test_r17_7_with_a_ready_konger_changes_nothing() -> None:
    events = KONG.replace("1 draw 4p\n1 discard 1s", "1 draw 4p\n1 discard 1s")
    normal = legal(play(KONG_HANDS, events, flip="9p"))
    rev = legal(play(KONG_HANDS, events, options={"dou_unready": "reverse"}, flip="9p"))
    assert kinds(normal["items"], "hand") == kinds(rev["items"], "hand")


# ---------------------------------------------------------------- R17.8 跟庄

FOLLOW_HANDS = [DEALER, INERT[0], INERT[1], INERT[2]]
FOLLOW = ("0 discard 9s\n1 draw 5m\n1 discard 9s\n2 draw 5s\n2 discard 9s\n3 draw 5m\n3 discard 9s\n"
          "0 draw 2p\n0 win 2p")


def test_r17_8_follow_dealer() -> None:
    s = legal(play(FOLLOW_HANDS, FOLLOW, options={"follow_dealer": 2}, flip="9p", base=5))
    assert kinds(s["items"], "follow_dealer") == {(0, 1): 10, (0, 2): 10, (0, 3): 10}
    assert {i["rule"] for i in s["items"] if i["kind"] == "follow_dealer"} == {"R17.8"}
    assert kinds(legal(play(FOLLOW_HANDS, FOLLOW, flip="9p"))["items"], "follow_dealer") == {}


def test_r17_8_one_different_first_discard_breaks_it() -> None:
    events = FOLLOW.replace("3 draw 5m\n3 discard 9s", "3 draw 5m\n3 discard 5m")
    s = legal(play(FOLLOW_HANDS, events, options={"follow_dealer": 2}, flip="9p"))
    assert kinds(s["items"], "follow_dealer") == {}


def test_r17_8_nothing_on_an_exhaustive_draw() -> None:
    """The same opening, settled as an exhaustive draw (the wins taken away): no 跟庄 item."""
    rep = replay(record(FOLLOW_HANDS, FOLLOW, options={"follow_dealer": 2}, flip="9p"),
                 resolve("weile", {"follow_dealer": 2}))
    st = rep.state
    assert st.wins and code(follows_dealer(st) or 0) == "9s"
    assert [i.kind for i in settle(st).items if i.kind is ItemKind.FOLLOW_DEALER]
    st.wins = []
    assert not [i for i in settle(st).items if i.kind is ItemKind.FOLLOW_DEALER]


def test_r17_8_three_players() -> None:
    hands = ["123m 456m 789m 234p 5p 9s", INERT[0], INERT[1]]
    events = "0 discard 9s\n1 draw 5m\n1 discard 9s\n2 draw 5s\n2 discard 9s\n0 draw 2p\n0 win 2p"
    s = legal(play(hands, events, profile="guizhou", options={"follow_dealer": 1}, flip="9p"))
    assert kinds(s["items"], "follow_dealer") == {(0, 1): 1, (0, 2): 1}


# ---------------------------------------------------------------- the comparison names R17.x

@pytest.mark.parametrize("hands,events,options,flip,rule", [
    (BAOJI_HANDS, BAOJI, {"chicken.exposed_payers": "all_unready"}, "5s", "R17.1"),
    (HANDS, CHARGE, {"chicken.qualified_pay_each_other": False}, "9p", "R17.2"),
    (HANDS, claimed("9p"), {"chicken.claimed_charge": "to_claimer"}, "9p", "R17.3"),
    (ANY_HANDS, ANY, {"chicken.responsibility_claims": "any"}, "9p", "R17.4"),
    (HANDS, claimed("9p"), {"chicken.responsibility_if_discarder_ready": False}, "9p", "R17.5"),
    (GOLD_HANDS, GOLD, {**WUGU, "chicken.wugu_gold": True}, "7p", "R17.6"),
    (KONG_HANDS, KONG, {"dou_unready": "reverse"}, "9p", "R17.7"),
    (FOLLOW_HANDS, FOLLOW, {"follow_dealer": 1}, "9p", "R17.8"),
    (WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.wugu_responsibility": False}, "9p", "R17.9"),
    (WUGU_CLAIM_HANDS, WUGU_CLAIM, {**WUGU, "chicken.charge_scope": "first_any"}, "9p", "R17.10"),
])
def test_a_platform_that_ignores_the_parameter_is_missettled_citing_it(
        hands: list[str], events: str, options: dict, flip: str, rule: str) -> None:
    """The record claims today's settlement (the parameter ignored) item by item: the audit under the
    parameter finds it missettled and cites R17.x."""
    plain = legal(play(hands, events, flip=flip, options={k: v for k, v in options.items() if k == "wugu_ji"}))
    rec = with_result(record(hands, events, flip=flip, options=options), plain)
    a = audit_hand(rec)
    found = [f for f in a.findings if f.kind.value == "missettled"]
    assert found and {f.rule for f in found} == {rule}, [(f.rule, f.code) for f in found]
    clean = with_result(rec, legal(a))
    assert audit_hand(clean).findings == []


# ---------------------------------------------------------------- more combinations and corners

def test_r17_1_with_r17_6() -> None:
    """GOLD under 包鸡 and 8p 金鸡: seat 1's discarded 8p (2 x 2 = 4) is paid by each of seats 1-3;
    its 冲锋 extra (4 - 2) x 2 = 4 stays seat 1's; seat 0's 888p 12 from each."""
    s = legal(play(GOLD_HANDS, GOLD, options={**WUGU, "chicken.wugu_gold": True,
                                              "chicken.exposed_payers": "all_unready"}, flip="7p"))
    assert kinds(s["items"], "chicken") == {(1, 0): 20, (2, 0): 16, (3, 0): 16}
    pool = [i for i in s["items"] if i["rule"] == "R17.1"]
    assert sorted((i["from"], i["amount"]) for i in pool) == [(1, 4), (2, 4), (3, 4)]


WUGU_ANY_HANDS = [DEALER, "234s 567s 678m 99m 3p 8p", "88p 777p 888s 22m 34m 9p",
                  "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 3s 6s 8p"]
WUGU_ANY = ANY.replace("1s", "8p")
"""ANY with 8p: seat 1's first 8p stays on the table (冲锋乌骨鸡 4, seat 1 ready); seat 3 (not ready)
later discards an 8p that seat 2 (ready) pongs (3 x 2 = 6 from each)."""


def test_r17_4_with_r17_5_and_r17_9() -> None:
    base = {(0, 1): 4, (2, 1): 4, (3, 1): 4, (0, 2): 6, (1, 2): 6, (3, 2): 6}
    assert chicken(WUGU_ANY_HANDS, WUGU_ANY, WUGU, flip="9p") == base
    anyc = {**WUGU, "chicken.responsibility_claims": "any"}
    assert chicken(WUGU_ANY_HANDS, WUGU_ANY, anyc, flip="9p") == {**base, (3, 2): 8}
    not_ready = {**anyc, "chicken.responsibility_if_discarder_ready": False}
    assert chicken(WUGU_ANY_HANDS, WUGU_ANY, not_ready, flip="9p") == {**base, (3, 2): 8}  # seat 3 not ready
    never = {**not_ready, "chicken.wugu_responsibility": False}
    assert chicken(WUGU_ANY_HANDS, WUGU_ANY, never, flip="9p") == base


def test_r17_7_example_of_the_rulebook() -> None:
    """A non-ready seat's added kong (3 from each) with only the winner ready: the konger pays the winner 3.
    Seat 3 pongs seat 2's 1p, later adds the fourth; nobody but the self-drawing dealer is ready."""
    hands = [DEALER, INERT[0], INERT[1], "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 1p 1p 3s"]
    events = ("0 discard 9s\n1 draw 5m\n1 discard 5m\n2 draw 5s\n2 discard 1p\n3 pong 1p\n3 discard 3s\n"
              "0 draw 3m\n0 discard 3m\n1 draw 6s\n1 discard 6s\n2 draw 5s\n2 discard 5s\n3 draw 1p\n3 kong 1p added\n"
              "3 draw 9m\n3 discard 9m\n0 draw 2p\n0 win 2p")
    assert kinds(legal(play(hands, events, flip="9p"))["items"], "dou") == {}
    s = legal(play(hands, events, options={"dou_unready": "reverse"}, flip="9p"))
    assert kinds(s["items"], "dou") == {(3, 0): 3}


def test_r17_8_counts_a_first_discard_after_the_seats_own_kong() -> None:
    """Seat 2 conceals 1111p before its first discard, a 9s like everybody's: still 跟庄."""
    hands = [DEALER, INERT[0], "1p 1p 1p 2m 3m 6m 9m 4p 7p 8p 2s 4s 9s", INERT[2]]
    events = FOLLOW.replace("2 draw 5s\n2 discard 9s", "2 draw 1p\n2 kong 1p concealed\n2 draw 5s\n2 discard 9s")
    s = legal(play(hands, events, options={"follow_dealer": 1}, flip="9p"))
    assert kinds(s["items"], "follow_dealer") == {(0, 1): 1, (0, 2): 1, (0, 3): 1}


def test_r17_8_another_dealer_pays_and_a_non_dealer_may_win() -> None:
    """Dealer seat 1; the first discards of seats 1, 2, 3, 0 are all 9s; seat 1 (the dealer) pays."""
    hands = [INERT[0], "123m 456m 789m 234p 5p 9s", INERT[1], INERT[2]]
    events = ("1 discard 9s\n2 draw 5m\n2 discard 9s\n3 draw 5s\n3 discard 9s\n0 draw 5m\n0 discard 9s\n"
              "1 draw 2p\n1 win 2p")
    s = legal(play(hands, events, options={"follow_dealer": 3}, dealer=1, flip="9p"))
    assert kinds(s["items"], "follow_dealer") == {(1, 0): 3, (1, 2): 3, (1, 3): 3}


def test_without_items_dou_paid_to_an_unready_konger_is_named_under_reverse() -> None:
    """KONG under 倒赔, claimed as if the unready konger were paid its dou (3 from each): R4.7's
    model (which plays without 倒赔, as it needs the readiness rule) names it."""
    opts = {"dou_unready": "reverse"}
    rep = replay(record(KONG_HANDS, KONG, flip="9p"), resolve("weile", {"dou_requires_ready": False}))
    scores = settle(rep.state).scores()
    rec = record(KONG_HANDS, KONG, flip="9p", options=opts)
    rec["result"] = {"scores": scores, "next_dealer": 0}
    codes = {(f.rule, f.code) for f in audit_hand(rec).findings if f.params.keys() == {"seat", "claimed", "computed"}}
    assert codes == {("R4.7", "net_dou_to_unready")}, codes


def test_r17_1_a_burned_seat_does_not_qualify_even_when_ready() -> None:
    """Reading (docs/decisions.md 14.3): "a seat that does not qualify" is R11.7's term, so a burned
    shooter that is ready shares in 包鸡. Seat 1 (ready) holds the 冲锋鸡; seat 3 discards a plain 1s,
    then conceals 1111p and shoots the 热炮 the dealer wins (burned, waiting on 4s/5s); seat 2 is not
    ready. Owner: only seat 1's 3 from each. 包鸡: seat 3's 1s costs 1 from each of seats 2 and 3 to
    each of seats 0 and 1."""
    hands = [DEALER, S1, INERT[0], "1p 1p 1p 2m 3m 4m 6m 7m 8m 5s 5s 1s 4s"]
    events = ("0 discard 9s\n1 draw 4p\n1 discard 1s\n2 draw 5m\n2 discard 5m\n3 draw 4s\n3 discard 1s\n"
              "0 draw 3m\n0 discard 3m\n1 draw 7s\n1 discard 7s\n2 draw 6s\n2 discard 6s\n"
              "3 draw 1p\n3 kong 1p concealed\n3 draw 2p\n3 discard 2p\n0 win 2p")
    a = play(hands, events, flip="9p")
    assert a.settlement is not None and 3 in a.settlement.burned and a.settlement.ready[3] is not None
    assert chicken(hands, events, flip="9p") == {(0, 1): 3, (2, 1): 3, (3, 1): 3}
    got = chicken(hands, events, {"chicken.exposed_payers": "all_unready"}, flip="9p")
    assert got == {(0, 1): 3, (2, 1): 4, (3, 1): 4, (2, 0): 1, (3, 0): 1}
