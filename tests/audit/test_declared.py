"""R5 declared ready (报听): who may declare, readiness, the frozen hand, values, 杀报."""
from __future__ import annotations

import pytest

from tests.helpers import INERT, illegal, kinds, legal, play, quiet_round

DEALER = "123m 456m 789m 234p 5p 9s"  # after 9s: waits 2p/5p (平胡)
SOFT = "234s 456s 678m 23p 1p 9p"     # draws 4p, discards 9p: waits 1p
HANDS = [DEALER, SOFT, INERT[1], INERT[2]]


def test_hard_declare_self_draw_value_add_and_floor() -> None:
    """R5.4: weile add (1 + 10) + self-draw 1; cuocuo floor max(1, 10) + 1 and dealer bonus."""
    events = "0 declare\n0 discard 9s\n" + quiet_round(1, ["7s", "2m", "5m"]) + "\n0 draw 2p\n0 win 2p"
    weile = legal(play(HANDS, events, profile="weile", flip="1m"))
    assert kinds(weile["items"], "hand") == {(1, 0): 12, (2, 0): 12, (3, 0): 12}
    cuocuo = legal(play(HANDS, events, profile="cuocuo", flip="1m"))
    assert kinds(cuocuo["items"], "hand") == {(1, 0): 11, (2, 0): 11, (3, 0): 11}
    guizhou = legal(play(HANDS, events, profile="guizhou", flip="1m"))
    assert kinds(guizhou["items"], "hand") == {(1, 0): 21, (2, 0): 21, (3, 0): 21}  # hard 20 floor + 1


def test_declared_hand_is_frozen() -> None:
    """R5.2: a declared seat discards what it draws (unless it wins)."""
    events = "0 declare\n0 discard 9s\n" + quiet_round(1, ["7s", "2m", "5m"]) + "\n0 draw 3m\n0 discard 1m"
    assert illegal(play(HANDS, events)) == (9, "R5.2")


def test_declare_must_leave_a_ready_hand() -> None:
    """R5.1 is named at the discard that follows the declaration."""
    assert illegal(play(HANDS, "0 declare\n0 discard 1m")) == (1, "R5.1")


def test_declare_needs_declared_values() -> None:
    assert illegal(play(HANDS, "0 declare\n0 discard 9s", profile="senyan")) == (0, "R5.1")


def test_declare_must_come_right_before_the_discard() -> None:
    assert illegal(play(HANDS, "0 declare\n0 kong 1m concealed")) == (1, "R5.1")


SOFT_EVENTS = "0 discard 9s\n1 draw 4p\n1 declare\n1 discard 9p\n" + quiet_round(2, ["2m", "5m", "3m"])


def test_soft_declare_and_kill_declared() -> None:
    """R5.1 soft; R5.3 the dealer wins 平胡 on the declared seat's discard without 通行证; R5.4 杀报."""
    events = SOFT_EVENTS + "\n1 draw 5p\n1 discard 5p\n0 win 5p"
    weile = legal(play(HANDS, events, profile="weile", flip="1m"))
    assert kinds(weile["items"], "hand") == {(1, 0): 11}  # 1 + 杀报 10 (add)
    cuocuo = legal(play(HANDS, events, profile="cuocuo", flip="1m"))
    assert kinds(cuocuo["items"], "hand") == {(1, 0): 10}  # max(1, 10)
    assert kinds(cuocuo["items"], "dealer") == {(1, 0): 1}
    guizhou = legal(play(HANDS, events, profile="guizhou", flip="1m"))
    assert kinds(guizhou["items"], "hand") == {(1, 0): 1}  # no 杀报 there, but still no 通行证 needed


def test_declared_seat_wins_by_discard_without_pass() -> None:
    """R5.3: the declared seat's 平胡 by discard is legal; its value carries 报听 (soft)."""
    events = SOFT_EVENTS + "\n1 draw 5p\n1 discard 5p\n2 draw 1p\n2 discard 1p\n1 win 1p"
    # seat 0 could win the 5p (杀报) and let it go: it is pass-locked, which changes nothing here.
    s = legal(play(HANDS, events, profile="weile", flip="1m"))
    assert kinds(s["items"], "hand") == {(2, 1): 11}


def test_frozen_seat_may_not_pong() -> None:
    events = "0 discard 9s\n1 draw 4p\n1 declare\n1 discard 9p\n2 draw 3s\n2 discard 3s\n1 pong 3s"
    hands = [DEALER, "234s 456s 678m 23p 1p 9p".replace("234s", "33s 4s").replace("456s", "56s 2s"), INERT[1], INERT[2]]
    a = play(hands, events)
    step, rule = illegal(a)
    assert rule in ("R5.1", "R5.2")  # whichever breaks first: not ready, or a pong after declaring


def test_soft_declare_only_right_after_the_first_draw() -> None:
    events = "0 discard 9s\n1 draw 4p\n1 discard 9p\n2 draw 2m\n2 discard 2m\n3 draw 5m\n3 discard 5m\n" \
             "0 draw 3m\n0 discard 3m\n1 draw 7s\n1 declare"
    assert illegal(play(HANDS, events)) == (10, "R5.1")


@pytest.mark.parametrize("profile,expected", [("weile", 11), ("cuocuo", 10), ("kuhu", 10), ("guizhou", 10)])
def test_declared_ready_value_on_exhaustive_draw(profile: str, expected: int) -> None:
    """R12.1 + R5.4: a declared seat's 查叫 value (soft 10; weile adds, the others take the floor)."""
    from tests.audit.test_draws import exhaust
    s = exhaust(HANDS, "0 discard 9s\n1 draw 4p\n1 declare\n1 discard 9p", first=2, profile=profile)
    got = {v for (f, t), v in kinds(s["items"], "draw_settle").items() if t == 1}
    assert got == {expected}
