"""R19 house-rule variants of the chicken settlement in play (R19.1, R19.2, R19.4, R19.6) and the
corrected R18.5: small hand-built hands whose chicken payments are worked out by hand from the
rulebook's words, alone and with R17 and R18 (R19.7: R19 applies to their result). Values: weile
(chicken normal 1, charge 3 so a 冲锋 extra of 2, 责任鸡 2, 热炮 bonus 1, burn all, chickens and
dou only for a seat that won or is ready, discards counted) unless said; kuhu (normal 1, charge 2,
责任鸡 1, every seat qualifies). Every hand's scores sum to zero (`settled`).

Items are compared exactly: (payer, payee, amount, rule) of every chicken item, and the waived ones."""
from __future__ import annotations

from typing import Any

import pytest

from audit.engine import audit_hand
from tests.audit.test_r17 import DEALER, HANDS, S1, S2, claimed
from tests.audit.test_r18 import S1_NO_BIRD, settled, waived
from sim.notation import record, with_result
from tests.helpers import INERT, kinds, legal, play

Row = tuple[int, int, int, str]


def chickens(s: dict[str, Any]) -> list[Row]:
    """(from, to, amount, rule) of every chicken item, sorted."""
    return sorted((i["from"], i["to"], i["amount"], i["rule"]) for i in s["items"] if i["kind"] == "chicken")


def waived_chickens(hands: list[str], events: str, options: dict[str, Any], **kw: Any) -> list[Row]:
    return sorted((p, q, a, r) for k, p, q, a, r in waived(hands, events, options, **kw) if k == "chicken")


# ---------------------------------------------------------------- R18.5 corrected

KEEPS = {"chicken.exposed_kong_claim": "keeps_charge"}
KONG_EXAMPLE = (["2m 3m 6m 9m 1p 4p 7p 8p 2s 4s 7s 8s 9s 5m", "1s 1s 1s 2m 6m 9m 1p 4p 7p 2s 4s 7s 8s",
                 "1m 1m 4m 7m 8m 2p 3p 6p 9p 2s 6s 7s 9s", "123m 456m 789m 234p 1s"],
                "0 discard 5m\n1 draw 5s\n1 discard 5s\n2 draw 5s\n2 discard 5s\n3 draw 5p\n3 discard 1s\n"
                "1 kong 1s exposed\n1 draw 9s\n1 discard 9s\n2 draw 6s\n2 discard 6s\n3 draw 2p\n3 win 2p")
"""The rulebook's example of R18.5: seat 3 discards the first 1s (waiting on 2p/5p), seat 1 makes an
exposed kong of it, seat 3 self-draws a 平胡. Flip 2s -> 3s, which nobody holds."""


@pytest.mark.parametrize("options", [{}, {"chicken_counts_discards": False}])
def test_r18_5_the_rulebooks_example(options: dict[str, Any]) -> None:
    """kuhu (normal 1, charge 2, 责任鸡 1; every seat qualifies). R11.4: seat 1's four 1s earn 4 from
    each other seat, and seat 3 owes it the 责任鸡 1 more: (0,1) 4, (2,1) 4, (3,1) 5. keeps_charge:
    "seat 3 receives 2 from each other seat for the 冲锋鸡, and seat 1's kong holds four chickens":
    (0,3) 2, (1,3) 2, (2,3) 2 citing R18.5, (0,1) 4, (2,1) 4, (3,1) 4, the 责任鸡 waived citing R18.5.
    The 冲锋鸡 counts for its discarder whether discards count or not (R11.3): the same with
    `chicken_counts_discards` false ("discards not counted", as the example says). Chickens: seat 0
    -6, seat 1 +12 - 2 = +10, seat 2 -6, seat 3 +6 - 4 = +2."""
    hands, events = KONG_EXAMPLE
    plain = settled(hands, events, options, profile="kuhu", flip="2s")
    assert chickens(plain) == [(0, 1, 4, "R11.6"), (2, 1, 4, "R11.6"), (3, 1, 1, "R11.4"), (3, 1, 4, "R11.6")]
    s = settled(hands, events, {**options, **KEEPS}, profile="kuhu", flip="2s")
    assert chickens(s) == [(0, 1, 4, "R11.6"), (0, 3, 2, "R18.5"), (1, 3, 2, "R18.5"), (2, 1, 4, "R11.6"),
                           (2, 3, 2, "R18.5"), (3, 1, 4, "R11.6")]
    assert waived_chickens(hands, events, {**options, **KEEPS}, profile="kuhu", flip="2s") == [(3, 1, 1, "R18.5")]
    assert kinds(s["items"], "dou") == {(3, 1): 1}  # R4.7: the discarder pays the 点豆, as before


def test_r18_5_with_r17_1_the_tile_is_shared_as_if_on_the_table() -> None:
    """weile, test_r18's KONGED with seat 1 never ready (it draws 5s, not 4p) and 包鸡: seat 2 (ready)
    makes an exposed kong of seat 1's first 1s; the dealer self-draws. R18.5 leaves seat 1 the whole
    冲锋鸡 "as if the tile still lay unclaimed in the discarder's pond": a non-qualifying seat's
    discarded chicken under R17.1, so its tile (1) is paid to each qualifying seat (0 and 2) by every
    seat that does not qualify (1 and 3), its extra (2) by seat 1 alone; seat 2's four 1s earn 4 from
    each other seat. Without 包鸡 seat 1 pays the whole 3 alone."""
    from tests.audit.test_r18 import KONGED, KONGED_HANDS
    events = KONGED.replace("1 draw 4p", "1 draw 5s")
    alone = settled(KONGED_HANDS, events, KEEPS, flip="9p")
    assert chickens(alone) == [(0, 2, 4, "R11.6"), (1, 0, 3, "R18.5"), (1, 2, 3, "R18.5"), (1, 2, 4, "R11.6"),
                               (3, 2, 4, "R11.6")]
    both = settled(KONGED_HANDS, events, {**KEEPS, "chicken.exposed_payers": "all_unready"}, flip="9p")
    assert chickens(both) == [(0, 2, 4, "R11.6"), (1, 0, 3, "R18.5"), (1, 2, 3, "R18.5"), (1, 2, 4, "R11.6"),
                              (3, 0, 1, "R18.5"), (3, 2, 1, "R18.5"), (3, 2, 4, "R11.6")]


# ---------------------------------------------------------------- R19.1 chicken.unready_melded

FREE = {"chicken.unready_melded": "free"}
MELD_HANDS = [DEALER, S1, S2, "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 3s 6s 1s"]
MELD = ("0 discard 9s\n1 draw 5m\n1 discard 5m\n2 draw 6m\n2 discard 6m\n3 draw 5m\n3 discard 1s\n"
        "0 draw 3m\n0 discard 3m\n1 draw 4p\n1 discard 1s\n2 pong 1s\n2 discard 4m\n3 draw 6m\n3 discard 6m\n"
        "0 draw 7s\n0 discard 7s\n1 draw 2p\n1 win 2p")
"""Seat 3 (never ready) discards the first 1s (its 冲锋鸡); seat 2 pongs seat 1's 1s, the second one
discarded, and ends not ready; seat 1 self-draws; the dealer is ready. Flip 9p -> 1p, which nobody
holds."""


def test_r19_1_melded_chickens_of_a_seat_that_does_not_qualify_cost_nothing() -> None:
    """R11.6: seat 2 pays each qualifying seat (0 and 1) 3 for its pong of three 1s, seat 3 its 冲锋鸡 3.
    free: the pong costs nothing (waived citing R19.1); seat 3's discarded 冲锋鸡 is still paid."""
    plain = settled(MELD_HANDS, MELD, flip="9p")
    assert chickens(plain) == [(2, 0, 3, "R11.6"), (2, 1, 3, "R11.6"), (3, 0, 3, "R11.6"), (3, 1, 3, "R11.6")]
    free = settled(MELD_HANDS, MELD, FREE, flip="9p")
    assert chickens(free) == [(3, 0, 3, "R11.6"), (3, 1, 3, "R11.6")]
    assert waived_chickens(MELD_HANDS, MELD, FREE, flip="9p") == [(2, 0, 3, "R19.1"), (2, 1, 3, "R19.1")]
    assert free["scores"] == [-2 + 3, 6 + 3, -2, -2 - 6]  # seat 1's 平胡 1 + self-draw 1 = 2 from each


def test_r19_1_the_rulebooks_example() -> None:
    """"seat 2, not ready, ponged seat 1's second 1s; seat 1 wins; seat 2 pays seat 1 nothing for that
    pong's three 1s": MELD, where seat 1 holds no 1s of its own at the end, so nothing at all from seat 2."""
    free = settled(MELD_HANDS, MELD, FREE, flip="9p")
    assert (2, 1) not in kinds(free["items"], "chicken")


def test_r19_1_with_r17_1() -> None:
    """包鸡: melded chickens already cost nothing (waived citing R17.1, read first: R19.7); seat 3's
    discarded 冲锋鸡 tile (1) is paid by every seat that does not qualify (2 and 3) to each qualifying
    seat, its extra (2) by seat 3 alone: R19.1 changes nothing more, and seat 2 still pays its share
    of seat 3's discard ("its discarded ones are still paid as R17.1 says")."""
    baoji = {"chicken.exposed_payers": "all_unready"}
    want = [(2, 0, 1, "R17.1"), (2, 1, 1, "R17.1"), (3, 0, 1, "R17.1"), (3, 0, 2, "R11.6"), (3, 1, 1, "R17.1"),
            (3, 1, 2, "R11.6")]
    assert chickens(settled(MELD_HANDS, MELD, baoji, flip="9p")) == want
    assert chickens(settled(MELD_HANDS, MELD, {**baoji, **FREE}, flip="9p")) == want
    assert waived_chickens(MELD_HANDS, MELD, {**baoji, **FREE}, flip="9p") == [(2, 0, 3, "R17.1"),
                                                                              (2, 1, 3, "R17.1")]


def test_r19_1_a_burned_shooter_that_is_not_ready_pays_no_melded_chickens() -> None:
    """R16.3: a burned seat that is not ready pays for its exposed 1s as any seat that does not
    qualify; free: its melded ones cost nothing either. SHOT_MELD: seat 3 pongs the dealer's first 1s,
    later conceals 1111p and shoots the 热炮 the dealer wins, not ready. R11.7: its pong costs 3 to each
    qualifying seat (0 and 1); no 责任鸡 (the claimer does not qualify); free: nothing, waived citing
    R19.1. It pays the dealer's flip credit 2 (R11.6) either way."""
    hands, events = SHOT_MELD
    plain = settled(hands, events, flip="2m")
    assert [r for r in chickens(plain) if r[0] == 3] == [(3, 0, 2, "R11.6"), (3, 0, 3, "R11.7"), (3, 1, 3, "R11.7")]
    free = settled(hands, events, FREE, flip="2m")
    assert [r for r in chickens(free) if r[0] == 3] == [(3, 0, 2, "R11.6")]
    assert waived_chickens(hands, events, FREE, flip="2m") == [(3, 0, 3, "R19.1"), (3, 1, 3, "R19.1")]


# ---------------------------------------------------------------- R19.2 chicken.claimed_charge to_ready_claimer

READY_CLAIMER = {"chicken.claimed_charge": "to_ready_claimer"}


def test_r19_2_a_qualifying_claimer_holds_the_charge_chicken() -> None:
    """claimed("9p"): seat 2 (ready) pongs seat 1's first 1s. As R17.3 to_claimer: its three melded 1s
    (3 from each other seat) and the 冲锋 extra 2 from each, citing R19.2; the 责任鸡 2 from seat 1
    (R11.4). Seat 2: +5 +7 +5."""
    s = settled(HANDS, claimed("9p"), READY_CLAIMER, flip="9p")
    assert chickens(s) == [(0, 2, 2, "R19.2"), (0, 2, 3, "R11.6"), (1, 2, 2, "R11.4"), (1, 2, 2, "R19.2"),
                           (1, 2, 3, "R11.6"), (3, 2, 2, "R19.2"), (3, 2, 3, "R11.6")]
    to_claimer = settled(HANDS, claimed("9p"), {"chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert kinds(s["items"], "chicken") == kinds(to_claimer["items"], "chicken")


def test_r19_2_a_claimer_that_does_not_qualify_leaves_the_whole_charge_chicken_to_its_discarder() -> None:
    """claimed("4m"): seat 2 pongs seat 1's first 1s and ends not ready; seat 1 is ready. R19.2: seat 1's
    whole 冲锋鸡 (tile 1 + extra 2 = charge 3) from every other seat, citing R19.2; the claimed tile costs
    seat 2 nothing (waived citing R19.2), its other two melded 1s 2 to each qualifying seat (0 and 1);
    no 责任鸡 (the claimer does not qualify). Compare R17.3 to_claimer: seat 1 gets only the extra 2 and
    seat 2 pays its three melded 1s."""
    s = settled(HANDS, claimed("4m"), READY_CLAIMER, flip="9p")
    assert chickens(s) == [(0, 1, 3, "R19.2"), (2, 0, 2, "R11.6"), (2, 1, 2, "R11.6"), (2, 1, 3, "R19.2"),
                           (3, 1, 3, "R19.2")]
    assert waived_chickens(HANDS, claimed("4m"), READY_CLAIMER, flip="9p") == [(2, 0, 1, "R19.2"),
                                                                              (2, 1, 1, "R19.2")]
    assert s["scores"] == [6 - 3 + 2, -2 + 9 + 2, -2 - 2 - 5, -2 - 3]  # the dealer's 平胡: 2 from each
    to_claimer = settled(HANDS, claimed("4m"), {"chicken.claimed_charge": "to_claimer"}, flip="9p")
    assert kinds(to_claimer["items"], "chicken") == {(2, 0): 3, (2, 1): 5, (0, 1): 2, (3, 1): 2}


def test_r19_2_a_discarder_that_does_not_qualify_pays_the_whole_charge_chicken() -> None:
    """claimed("4m") with seat 1 never ready too (it draws 5s): seat 1 holds the whole 冲锋鸡 and, not
    qualifying, pays its charge 3 to each qualifying seat (only the dealer); seat 2 pays the dealer for
    its two other melded 1s."""
    events = claimed("4m").replace("1 draw 4p", "1 draw 5s")
    s = settled(HANDS, events, READY_CLAIMER, flip="9p")
    assert chickens(s) == [(1, 0, 3, "R19.2"), (2, 0, 2, "R11.6")]


def test_r19_2_with_r17_5() -> None:
    """claimed("9p") with R17.5 false: the discarder (seat 1) is ready, so no 责任鸡 (waived citing
    R17.5), as under to_claimer; with seat 1 never ready (it draws 5s) the 责任鸡 2 stays owed."""
    opts = {**READY_CLAIMER, "chicken.responsibility_if_discarder_ready": False}
    s = settled(HANDS, claimed("9p"), opts, flip="9p")
    assert chickens(s) == [(0, 2, 2, "R19.2"), (0, 2, 3, "R11.6"), (1, 2, 2, "R19.2"), (1, 2, 3, "R11.6"),
                           (3, 2, 2, "R19.2"), (3, 2, 3, "R11.6")]
    assert waived_chickens(HANDS, claimed("9p"), opts, flip="9p") == [(1, 2, 2, "R17.5")]
    events = claimed("9p").replace("1 draw 4p", "1 draw 5s")
    unready = settled(HANDS, events, opts, flip="9p")
    assert kinds(unready["items"], "chicken") == {(0, 2): 5, (1, 2): 7, (3, 2): 5}


def test_r19_2_with_r17_1_the_discarders_tile_is_shared() -> None:
    """claimed("4m") with seat 1 never ready (draws 5s) and 包鸡: seat 1's 冲锋鸡 tile, read in its pond,
    is a non-qualifying seat's discarded chicken: every seat that does not qualify (1, 2, 3) pays the
    dealer its 1, seat 1 alone the extra 2; seat 2's melded 1s cost nothing (R17.1)."""
    events = claimed("4m").replace("1 draw 4p", "1 draw 5s")
    s = settled(HANDS, events, {**READY_CLAIMER, "chicken.exposed_payers": "all_unready"}, flip="9p")
    assert chickens(s) == [(1, 0, 3, "R19.2"), (2, 0, 1, "R19.2"), (3, 0, 1, "R19.2")]


def test_r19_2_with_r18_5_an_exposed_kong_leaves_the_discarder_the_charge_chicken() -> None:
    """Reading: R18.5 reads a konged first 1s as still unclaimed in its discarder's pond, so there is
    no claimed first 1s left for R19.2 (R19.7): test_r18's KONGED (seat 2, ready, konges seat 1's first
    1s) settles under both exactly as under R18.5 alone."""
    from tests.audit.test_r18 import KONGED, KONGED_HANDS
    both = settled(KONGED_HANDS, KONGED, {**READY_CLAIMER, **KEEPS}, flip="9p")
    assert both["items"] == settled(KONGED_HANDS, KONGED, KEEPS, flip="9p")["items"]


# ---------------------------------------------------------------- R19.4 hot_shot.burn_liabilities void_all

VOID = {"hot_shot.burn_liabilities": "void"}
VOID_ALL = {"hot_shot.burn_liabilities": "void_all"}
SHOOTER = "1p 1p 1p 2m 3m 4m 6m 7m 8m 5s 1s 1s 4s"
SHOT_HANDS = [DEALER, S1_NO_BIRD, INERT[0], SHOOTER]
SHOT = ("0 discard 9s\n1 draw 4p\n1 discard 6s\n2 draw 5m\n2 discard 5m\n3 draw 4s\n3 discard 1s\n"
        "0 draw 3m\n0 discard 3m\n1 draw 7s\n1 discard 7s\n2 draw 6s\n2 discard 6s\n3 draw 9m\n3 discard 1s\n"
        "0 draw 6p\n0 discard 6p\n1 draw 8s\n1 discard 8s\n2 draw 3s\n2 discard 3s\n"
        "3 draw 1p\n3 kong 1p concealed\n3 draw 2p\n3 discard 2p\n0 win 2p")
"""Seat 3 discards the first 1s (its 冲锋鸡) and later a second 1s, conceals 1111p and shoots the 热炮
the dealer wins (平胡 1 + bonus 1 = 2), ending not ready; seat 1 is ready, seat 2 is not. Flip 2m ->
3m: the dealer holds one and discarded one, a flip credit of 2 from every other seat (seat 3's 3m is
burned)."""


def test_r19_4_a_burned_shooter_owes_nothing_for_its_own_chickens() -> None:
    """kept (R11.7, R16.3): seat 3 pays each qualifying seat (0 and 1) its 冲锋鸡 3 and its other
    discarded 1s 1. void (R18.4): no 冲锋鸡; the 1 for the other 1s stays. void_all: nothing for its own
    chickens either (the 1 waived citing R19.4, the 冲锋鸡 citing R18.4, as void); the dealer's flip
    credit 2, another seat's chickens, it still pays."""
    kept = settled(SHOT_HANDS, SHOT, flip="2m")
    assert chickens(kept) == [(1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (3, 0, 2, "R11.6"), (3, 0, 4, "R11.7"),
                              (3, 1, 4, "R11.7")]
    void = settled(SHOT_HANDS, SHOT, VOID, flip="2m")
    assert [r for r in chickens(void) if r[0] == 3] == [(3, 0, 1, "R11.7"), (3, 0, 2, "R11.6"), (3, 1, 1, "R11.7")]
    s = settled(SHOT_HANDS, SHOT, VOID_ALL, flip="2m")
    assert chickens(s) == [(1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (3, 0, 2, "R11.6")]
    assert waived_chickens(SHOT_HANDS, SHOT, VOID_ALL, flip="2m") == [
        (3, 0, 1, "R19.4"), (3, 0, 3, "R18.4"), (3, 1, 1, "R19.4"), (3, 1, 3, "R18.4")]
    assert s["scores"] == [2 + 6, -2, -2, -2 - 2]


def test_r19_4_with_r17_1_the_other_seats_still_pay_their_shares() -> None:
    """包鸡: seat 3's two discarded 1s (the 冲锋鸡 tile and the other) are paid at 1 each by every seat that
    does not qualify (2 and 3) to each qualifying seat, the 冲锋 extra 2 by seat 3 alone. void_all: seat 3
    owes nothing for its own chickens (its share of its plain 1s waived citing R19.4, of its 冲锋鸡 tile
    and the extra citing R18.4); seat 2's shares stay (2 to each), as does the flip credit every seat
    pays the dealer."""
    baoji = {"chicken.exposed_payers": "all_unready"}
    kept = settled(SHOT_HANDS, SHOT, baoji, flip="2m")
    assert kinds(kept["items"], "chicken") == {(1, 0): 2, (2, 0): 4, (3, 0): 6, (2, 1): 2, (3, 1): 4}
    s = settled(SHOT_HANDS, SHOT, {**baoji, **VOID_ALL}, flip="2m")
    assert chickens(s) == [(1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (2, 0, 2, "R17.1"), (2, 1, 2, "R17.1"),
                           (3, 0, 2, "R11.6")]
    assert waived_chickens(SHOT_HANDS, SHOT, {**baoji, **VOID_ALL}, flip="2m") == [
        (3, 0, 1, "R19.4"), (3, 0, 3, "R18.4"), (3, 1, 1, "R19.4"), (3, 1, 3, "R18.4")]


SHOT_MELD = ([DEALER.replace("9s", "1s"), S1_NO_BIRD, INERT[0], "1p 1p 1p 2m 3m 4m 6m 7m 9m 5s 1s 1s 4s"],
             "0 discard 1s\n3 pong 1s\n3 discard 5s\n0 draw 3m\n0 discard 3m\n1 draw 4p\n1 discard 6s\n"
             "2 draw 5m\n2 discard 5m\n3 draw 1p\n3 kong 1p concealed\n3 draw 2p\n3 discard 2p\n0 win 2p")
"""The dealer's first discard, 1s, is ponged by seat 3, which later conceals 1111p and shoots the 热炮
the dealer wins (平胡 1 + bonus 1 = 2), seat 3 ending not ready (234m 67m 9m 4s); seat 1 is ready,
seat 2 is not. Flip 2m -> 3m: the dealer holds one and discarded one (2 from every other seat)."""


def test_r19_4_with_r17_1_and_a_pong() -> None:
    """SHOT_MELD: R11.7/R16.3: seat 3 (burned, not ready) pays each qualifying seat 3 for its pong of
    three 1s; void: the same (no 冲锋鸡, no 责任鸡 here); void_all: nothing (waived citing R19.4);
    with 包鸡 the pong costs nothing in any case (R17.1, read first)."""
    hands, events = SHOT_MELD
    void = settled(hands, events, VOID, flip="2m")
    assert [r for r in chickens(void) if r[0] == 3] == [(3, 0, 2, "R11.6"), (3, 0, 3, "R11.7"), (3, 1, 3, "R11.7")]
    s = settled(hands, events, VOID_ALL, flip="2m")
    assert [r for r in chickens(s) if r[0] == 3] == [(3, 0, 2, "R11.6")]
    assert waived_chickens(hands, events, VOID_ALL, flip="2m") == [(3, 0, 3, "R19.4"), (3, 1, 3, "R19.4")]
    baoji = {"chicken.exposed_payers": "all_unready"}
    assert waived_chickens(hands, events, {**baoji, **VOID_ALL}, flip="2m") == [(3, 0, 3, "R17.1"),
                                                                               (3, 1, 3, "R17.1")]


# ---------------------------------------------------------------- R19.6 chicken.won_tile both

BOTH = {"chicken.won_tile": "both"}
BIG = "111m 555m 555p 555s 1s 9s"
"""The dealer: after 9s a 大对子 waiting on 1s (weile 5), winnable on a discard without 通行证 (R7.2)."""
FIRST_WON = ([BIG, S1, INERT[0], INERT[1]], "0 discard 9s\n1 draw 4p\n1 discard 1s\n0 win 1s")
"""Seat 1 discards the first 1s (ready on 2p/5p after it) and the dealer wins on it. Flip 9p -> 1p,
held only by seat 3, which does not qualify."""


def test_r19_6_a_first_1s_won_on_is_its_discarders_charge_chicken() -> None:
    """R11.3: a first 1s won on is no 冲锋鸡, a normal chicken in the winner's hand: the dealer's two
    1s earn 2 from every other seat. both: the 1s also stays in seat 1's pond, where R11.3 reads it as
    the 冲锋鸡: seat 1 (ready) receives its charge 3 from every other seat, citing R19.6; the dealer
    still counts the tile (2 from each)."""
    hands, events = FIRST_WON
    plain = settled(hands, events, flip="9p")
    assert chickens(plain) == [(1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (3, 0, 2, "R11.6")]
    s = settled(hands, events, BOTH, flip="9p")
    assert chickens(s) == [(0, 1, 3, "R19.6"), (1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (2, 1, 3, "R19.6"),
                           (3, 0, 2, "R11.6"), (3, 1, 3, "R19.6")]
    assert kinds(s["items"], "hand") == {(1, 0): 5}


def test_r19_6_a_first_1s_won_on_from_a_seat_that_does_not_qualify() -> None:
    """FIRST_WON with seat 1 never ready (it draws 6p): seat 1 pays its 冲锋鸡 3 to each qualifying seat
    (the dealer only), citing R19.6."""
    hands, events = FIRST_WON
    s = settled(hands, events.replace("1 draw 4p", "1 draw 6p"), BOTH, flip="9p")
    assert chickens(s) == [(1, 0, 2, "R11.6"), (1, 0, 3, "R19.6"), (2, 0, 2, "R11.6"), (3, 0, 2, "R11.6")]


SECOND_WON = ([BIG, S1, INERT[0], "2m 3m 6m 9m 1p 4p 7p 8p 2s 4s 7s 8s 1s"],
              "0 discard 9s\n1 draw 5m\n1 discard 5m\n2 draw 6m\n2 discard 6m\n3 draw 3m\n3 discard 1s\n"
              "0 draw 4s\n0 discard 4s\n1 draw 4p\n1 discard 1s\n0 win 1s")
"""Seat 3 (never ready) discards the first 1s (its 冲锋鸡; the dealer, who could win it, passes and is
locked until its draw); seat 1 (ready after it) discards the second 1s and the dealer wins on it."""


def test_r19_6_the_won_tile_counts_for_a_qualifying_discarder() -> None:
    """R11: the dealer's two 1s earn 2 from every other seat; seat 3 pays its 冲锋鸡 3 to each qualifying
    seat (0 and 1). both (chicken_counts_discards true in weile): seat 1's won 1s is in its pond too, a
    credit of 1 from every other seat citing R19.6; with chicken_counts_discards false it earns nothing
    (the 冲锋鸡 of seat 3 counts either way, R11.3)."""
    hands, events = SECOND_WON
    plain = settled(hands, events, flip="9p")
    base = [(1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (3, 0, 2, "R11.6"), (3, 0, 3, "R11.6"), (3, 1, 3, "R11.6")]
    assert chickens(plain) == base
    s = settled(hands, events, BOTH, flip="9p")
    assert chickens(s) == sorted(base + [(0, 1, 1, "R19.6"), (2, 1, 1, "R19.6"), (3, 1, 1, "R19.6")])
    off = {"chicken_counts_discards": False}
    assert chickens(settled(hands, events, {**BOTH, **off}, flip="9p")) == \
        chickens(settled(hands, events, off, flip="9p")) == base


def test_r19_6_the_won_tile_is_a_liability_of_a_discarder_that_does_not_qualify() -> None:
    """SECOND_WON with seat 1 never ready (it draws 6p): under both it pays its won 1s, "still in its
    pond", 1 to each qualifying seat (the dealer only), citing R19.6."""
    hands, events = SECOND_WON
    events = events.replace("1 draw 4p", "1 draw 6p")
    plain = settled(hands, events, flip="9p")
    assert chickens(plain) == [(1, 0, 2, "R11.6"), (2, 0, 2, "R11.6"), (3, 0, 2, "R11.6"), (3, 0, 3, "R11.6")]
    s = settled(hands, events, BOTH, flip="9p")
    assert chickens(s) == sorted(chickens(plain) + [(1, 0, 1, "R19.6")])


def test_r19_6_the_won_tile_counts_for_flip_chickens_in_the_pond() -> None:
    """SECOND_WON with flip 9s: 1s is 金鸡 (x2), no flip credit of its own. Plain: the dealer's two 1s 4
    from each, seat 3's 冲锋鸡 6 to each of 0 and 1. both: seat 1's won 1s in its pond, 1 x 2 = 2 from
    each citing R19.6."""
    hands, events = SECOND_WON
    s = settled(hands, events, BOTH, flip="9s")
    assert chickens(s) == [(0, 1, 2, "R19.6"), (1, 0, 4, "R11.6"), (2, 0, 4, "R11.6"), (2, 1, 2, "R19.6"),
                           (3, 0, 4, "R11.6"), (3, 0, 6, "R11.6"), (3, 1, 2, "R19.6"), (3, 1, 6, "R11.6")]


def test_r19_6_with_r17_1() -> None:
    """SECOND_WON with seat 1 never ready and 包鸡: seat 1's won 1s, in its pond, is a non-qualifying seat's
    discarded chicken: every seat that does not qualify (1, 2, 3) pays the dealer 1 for it, citing R19.6;
    seat 3's 冲锋鸡 tile likewise (R17.1), its extra 2 by seat 3 alone."""
    hands, events = SECOND_WON
    events = events.replace("1 draw 4p", "1 draw 6p")
    s = settled(hands, events, {**BOTH, "chicken.exposed_payers": "all_unready"}, flip="9p")
    assert chickens(s) == [(1, 0, 1, "R17.1"), (1, 0, 1, "R19.6"), (1, 0, 2, "R11.6"), (2, 0, 1, "R17.1"),
                           (2, 0, 1, "R19.6"), (2, 0, 2, "R11.6"), (3, 0, 1, "R17.1"), (3, 0, 1, "R19.6"),
                           (3, 0, 2, "R11.6"), (3, 0, 2, "R11.6")]


def test_r19_6_a_robbed_kongs_tile_is_the_winners_only() -> None:
    """test_hot_rob's rob in kuhu (every seat qualifies, discards count for flip chickens), flip 4s: the
    robbed 5s is a flip chicken. It is not a discard, so both changes nothing: no flip credit for the
    robbed seat's pond."""
    from tests.audit.test_hot_rob import ROB_HANDS, ROB_PLAY
    plain = settled(ROB_HANDS, ROB_PLAY + "2 win 5s", profile="kuhu", flip="4s")
    s = settled(ROB_HANDS, ROB_PLAY + "2 win 5s", BOTH, profile="kuhu", flip="4s")
    assert chickens(s) == chickens(plain)


def test_r19_6_a_discard_won_by_two_seats_is_in_the_pond_once() -> None:
    """FIRST_WON with seat 2 also waiting on 1s (a 大对子 too) and winning it: both winners count the
    tile in hand (R16.5), seat 1's pond holds it once: its 冲锋鸡 3 from every other seat, once."""
    hands = [BIG, S1, "222m 777p 888p 666s 1s", INERT[1]]
    s = settled(hands, "0 discard 9s\n1 draw 4p\n1 discard 1s\n0 win 1s\n2 win 1s", BOTH, flip="9p")
    assert [r for r in chickens(s) if r[1] == 1] == [(0, 1, 3, "R19.6"), (2, 1, 3, "R19.6"), (3, 1, 3, "R19.6")]


# ---------------------------------------------------------------- the comparison names R19.x

@pytest.mark.parametrize("hands,events,options,kw,rule", [
    (MELD_HANDS, MELD, FREE, {"flip": "9p"}, "R19.1"),
    (HANDS, claimed("4m").replace("1 draw 4p", "1 draw 5s"), READY_CLAIMER, {"flip": "9p"}, "R19.2"),
    (SHOT_HANDS, SHOT, VOID_ALL, {"flip": "2m"}, "R19.4"),
    (FIRST_WON[0], FIRST_WON[1], BOTH, {"flip": "9p"}, "R19.6"),
])
def test_a_platform_that_ignores_the_parameter_is_missettled_citing_it(
        hands: list[str], events: str, options: dict[str, Any], kw: dict[str, Any], rule: str) -> None:
    """The record claims the settlement without the parameter, item by item: the audit under it finds
    the record missettled, the R19 findings citing R19.x (R19.4's hand also cites R18.4, the part of
    void_all that is void's); claiming the parameter's settlement is clean."""
    plain = legal(play(hands, events, **kw))
    rec = with_result(record(hands, events, options=options, **kw), plain)
    a = audit_hand(rec)
    found = {f.rule for f in a.findings if f.kind.value == "missettled"}
    assert rule in found and found <= {rule, "R18.4"}, found
    assert audit_hand(with_result(rec, legal(a))).findings == []
