"""R3 patterns in play, R6 payments and bonuses, R7 通行证, R10.1 multiple wins, R14.1/R14.2."""
from __future__ import annotations

import pytest

from tests.helpers import INERT, illegal, kinds, legal, play, quiet_round

PING = "234s 567s 678m 23p 99m"           # waits 1p/4p: 平胡
PAIRS = "22s 44s 66s 77s 88p 33p 4m"      # waits 4m: 七对
PAIRS2 = "11p 22p 66p 99p 33s 88s 4m"     # waits 4m: 七对
DEALER_4P = "123m 456m 789m 234p 5p 4p"
DEALER_4M = "123m 456m 789m 234p 5p 4m"


def test_ping_hu_by_discard_needs_a_pass() -> None:
    """R7.3: 平胡 on a discard without kong, 报听 or 热炮 is illegal."""
    assert illegal(play([DEALER_4P, PING, INERT[1], INERT[2]], "0 discard 4p\n1 win 4p")) == (1, "R7.3")


def test_pattern_above_ping_hu_needs_no_pass() -> None:
    """R7.2: 七对 wins a discard; R6.3 the discarder alone pays; R14.1 the winner deals next."""
    s = legal(play([DEALER_4M, PAIRS, INERT[1], INERT[2]], "0 discard 4m\n1 win 4m discard", flip="4s"))
    assert kinds(s["items"], "hand") == {(0, 1): 10}
    assert s["next_dealer"] == 1 and s["next_dealer_streak"] == 0


def test_own_kong_is_a_pass() -> None:
    """R7.3: a concealed kong earlier in the hand lets 平胡 win a discard; the dou is paid (R4.7)."""
    hands = ["123m 456m 678s 234p 4p 6s", "5555s 234s 23p 99m 78m", INERT[1], INERT[2]]
    events = ("0 discard 6s\n1 draw 9m\n1 kong 5s concealed\n1 draw 1p\n1 discard 1p\n"
              + quiet_round(2, ["2m", "4m"]) + "\n0 draw 1p\n0 discard 1p\n1 win 1p")
    s = legal(play(hands, events, flip="4s"))
    assert kinds(s["items"], "hand") == {(0, 1): 1}
    assert kinds(s["items"], "dou") == {(0, 1): 3, (2, 1): 3, (3, 1): 3}


def test_multiple_wins_on_one_discard() -> None:
    """R10.1 each winner settles with the discarder; R14.2 next dealer per profile."""
    hands = [DEALER_4M, PAIRS, PAIRS2, INERT[1]]
    events = "0 discard 4m\n2 win 4m\n1 win 4m"
    weile = legal(play(hands, events, flip="4s"))
    assert kinds(weile["items"], "hand") == {(0, 1): 10, (0, 2): 10}
    assert weile["next_dealer"] == 1  # nearest winner from the dealer
    senyan = legal(play(hands, events, profile="senyan", flip="4s"))
    assert kinds(senyan["items"], "hand") == {(0, 1): 30, (0, 2): 30}
    assert senyan["next_dealer"] == 0  # discarder


def test_a_seat_wins_once() -> None:
    hands = [DEALER_4M, PAIRS, PAIRS2, INERT[1]]
    assert illegal(play(hands, "0 discard 4m\n1 win 4m\n1 win 4m")) == (2, "R10.1")


def test_nearest_winner_counts_from_the_dealer() -> None:
    """R14.2: dealer 2 discards; winners 1 and 3: the first winner from the dealer in seat order is 3."""
    s = legal(play([PAIRS, INERT[1].replace("9s", "5s"), DEALER_4M, PAIRS2], "2 discard 4m\n3 win 4m\n0 win 4m",
                   dealer=2, flip="4s"))
    assert s["next_dealer"] == 3


KONG_DEALER = "5555m 555p 555s 678m 9m"


@pytest.mark.parametrize("profile,hand,dealer_item", [
    ("weile", 5, 0),    # 平胡 1 + 自摸 1 + 杠开 3
    ("cuocuo", 3, 1),   # 1 + 1 + 1, dealer bonus max(1, 0)
    ("kuhu", 1, 1),     # 1 + 0 + 0, dealer bonus 1 + 0
    ("senyan", 15, 0),  # 5 + 0 + 10
    ("guizhou", 2, 0),  # 1 + 1 + 0
])
def test_kong_flower(profile: str, hand: int, dealer_item: int) -> None:
    """R6.1 self-draw, R6.2 杠上开花 on the replacement tile, R6.4 dealer bonus."""
    s = legal(play([KONG_DEALER, *INERT], "0 kong 5m concealed\n0 draw 9m\n0 win 9m self_draw",
                   profile=profile, flip="1m"))
    assert kinds(s["items"], "hand") == {(1, 0): hand, (2, 0): hand, (3, 0): hand}
    assert kinds(s["items"], "dealer") == ({(1, 0): dealer_item, (2, 0): dealer_item, (3, 0): dealer_item}
                                           if dealer_item else {})


@pytest.mark.parametrize("profile,streak,bonus", [("kuhu", 2, 3), ("cuocuo", 2, 2), ("cuocuo", 0, 1),
                                                  ("weile", 5, 0)])
def test_dealer_bonus_modes(profile: str, streak: int, bonus: int) -> None:
    """R6.4: sum (kuhu: 1 + 1 x streak) versus max (cuocuo: max(1, 1 x streak))."""
    s = legal(play([KONG_DEALER, *INERT], "0 kong 5m concealed\n0 draw 9m\n0 win 9m",
                   profile=profile, streak=streak, flip="1m"))
    assert kinds(s["items"], "dealer") == ({(1, 0): bonus, (2, 0): bonus, (3, 0): bonus} if bonus else {})


def test_tian_hu_in_cuocuo() -> None:
    """R3.2 天胡 (cuocuo 20): the dealer wins on its dealt 14, a self-draw (R6.1)."""
    s = legal(play(["123m 456m 789m 234p 55p", *INERT], "0 win 5p", profile="cuocuo", flip="1m"))
    assert kinds(s["items"], "hand") == {(1, 0): 21, (2, 0): 21, (3, 0): 21}
    w = legal(play(["123m 456m 789m 234p 55p", *INERT], "0 win 5p", profile="weile", flip="1m"))
    assert kinds(w["items"], "hand") == {(1, 0): 2, (2, 0): 2, (3, 0): 2}
    assert illegal(play(["123m 456m 789m 234p 55p", *INERT], "0 win 9s")) == (0, "R6.1")


def test_win_kind_must_match_the_play() -> None:
    """R16.1: a kind that contradicts the play cites R6.1 / R6.3 / R9.1."""
    hands = [DEALER_4M, PAIRS, INERT[1], INERT[2]]
    assert illegal(play(hands, "0 discard 4m\n1 win 4m self_draw")) == (1, "R6.1")
    assert illegal(play(hands, "0 discard 4m\n1 win 4m rob")) == (1, "R9.1")
    assert illegal(play([KONG_DEALER, *INERT], "0 kong 5m concealed\n0 draw 9m\n0 win 9m discard")) == (2, "R6.3")
    assert illegal(play([KONG_DEALER, *INERT], "0 kong 5m concealed\n1 win 5m rob")) == (1, "R9.1")


def test_not_a_winning_hand() -> None:
    assert illegal(play([DEALER_4M, PAIRS, INERT[1], INERT[2]], "0 discard 5p\n1 win 5p")) == (1, "R3.1")


def test_win_on_the_wrong_tile() -> None:
    assert illegal(play([DEALER_4M, PAIRS, INERT[1], INERT[2]], "0 discard 4m\n1 win 3p")) == (1, "R6.3")
