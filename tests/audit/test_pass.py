"""R13 passing a win (过胡) and passing a pong (过碰)."""
from __future__ import annotations

from tests.helpers import INERT, illegal, kinds, legal, play

DEALER = "123m 456m 789m 234p 5p 9s"
SOFT = "234s 456s 678m 23p 1p 9p"       # draws 4p, declares, discards 9p: waits 1p
BIG = "555s 777p 888s 99p 22m"          # 大对子 waiting 9p / 2m
HANDS = [DEALER, SOFT, BIG, INERT[2]]


def test_win_while_pass_locked_is_illegal() -> None:
    """R13.1: seat 2 lets the dealer's 2m go, seat 1 discards another 2m before seat 2 draws."""
    events = "0 discard 2m\n1 draw 2m\n1 discard 2m\n2 win 2m"
    assert illegal(play(HANDS, events)) == (3, "R13.1")


def test_lock_released_by_own_draw() -> None:
    """R13.1 pass_lock_until draw: after its own draw the seat may win a discard again."""
    events = ("0 discard 2m\n1 draw 2m\n1 discard 2m\n2 draw 3s\n2 discard 3s\n3 draw 6m\n3 discard 6m\n"
              "0 draw 7s\n0 discard 7s\n1 draw 4p\n1 discard 9p\n2 win 9p")
    s = legal(play(HANDS, events, flip="1m"))
    assert kinds(s["items"], "hand") == {(1, 2): 5}


def test_lock_until_discard_in_cuocuo() -> None:
    """pass_lock_until discard: the lock outlives the seat's draw until it discards."""
    events = ("0 discard 2m\n1 draw 2m\n1 discard 2m\n2 draw 3s\n2 discard 3s\n3 draw 6m\n3 discard 6m\n"
              "0 draw 7s\n0 discard 7s\n1 draw 4p\n1 discard 9p\n2 win 9p")
    # seat 2 discarded 3s after its draw: released; the win is legal
    s = legal(play(HANDS, events, profile="cuocuo", flip="1m"))
    assert kinds(s["items"], "hand") == {(1, 2): 5}


def test_higher_win_allowed_only_where_the_profile_says() -> None:
    """pass_lock_allows_higher: seat 2 lets seat 3's 9p go (大对子 5), then wins the declared
    dealer's 2m with 杀报 (cuocuo: max(5, 10) = 10 > 5, allowed); weile never allows it."""
    events = ("0 declare\n0 discard 9s\n1 draw 7s\n1 discard 7s\n2 draw 3s\n2 discard 3s\n"
              "3 draw 6m\n3 discard 9p\n0 draw 2m\n0 discard 2m\n2 win 2m")
    assert illegal(play(HANDS, events, profile="weile")) == (10, "R13.1")
    s = legal(play(HANDS, events, profile="cuocuo", flip="1m"))
    assert kinds(s["items"], "hand") == {(0, 2): 10}
    assert kinds(s["items"], "dealer") == {(0, 2): 1}


def test_di_hu_counts_in_the_passed_value() -> None:
    """R3.2 地胡 (cuocuo 20): seat 2 could win the dealer's first discard before its first draw."""
    a = play(HANDS, "0 discard 2m\n1 draw 4p\n1 declare\n1 discard 9p\n2 win 9p", profile="cuocuo")
    assert illegal(a) == (4, "R13.1")
    f = a.findings[0]
    assert f.code == "win_pass_locked_not_higher" and (f.params["value"], f.params["passed"]) == (20, 20)


def test_explicit_pass_then_win_is_illegal() -> None:
    assert illegal(play(HANDS, "0 discard 2m\n2 pass\n2 win 2m")) == (2, "R13.1")


def test_pass_pong_lock_in_cuocuo() -> None:
    """R13.2: seat 2 could pong the 2m and let it go; it may not pong 2m before its next discard."""
    events = "0 discard 2m\n1 draw 2m\n1 discard 2m\n2 pong 2m"
    assert illegal(play(HANDS, events, profile="cuocuo")) == (3, "R13.2")
    assert illegal(play(HANDS, events, profile="weile")) == (None, "R10")
