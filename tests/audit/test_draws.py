"""R12 exhaustive draw (荒庄查叫), R14.3 next dealer after a draw, R4.7/R11 void on a draw."""
from __future__ import annotations

from typing import Any

import pytest

from audit.engine import audit_hand
from sim.notation import parse_events, record, split_draws
from tests.helpers import INERT, kinds, legal


def exhaust(hands: list[str], prefix: str, *, first: int, profile: str = "weile", streak: int = 0,
            dealer: int = 0, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play `prefix`, then every seat draws and discards the drawn tile until the wall is empty."""
    base = record(hands, prefix, profile=profile, dealer=dealer)
    front, back = split_draws(parse_events(prefix))
    rest = base["wall"][len(front):len(base["wall"]) - len(back)]
    lines = [prefix]
    for k, t in enumerate(rest):
        seat = (first + k) % len(hands)
        lines += [f"{seat} draw {t}", f"{seat} discard {t}"]
    rec = record(hands, "\n".join(lines), profile=profile, streak=streak, dealer=dealer, options=options)
    return legal(audit_hand(rec))


DEALER_READY = "123m 456m 789m 234p 5p 9s"            # after 9s: waits 2p/5p, 平胡 1
NOT_READY = "123m 456m 789m 2p 4p 6p 8p 9s"             # after 9s: not ready
PAIRS_HAND = "22s 44s 66s 77s 88p 33p 4m"             # waits 4m: 七对 10


def test_cha_jiao_pays_ready_values() -> None:
    """R12.1: each not-ready seat pays each ready seat its ready value."""
    hands = [DEALER_READY, PAIRS_HAND, INERT[1], INERT[2]]
    s = exhaust(hands, "0 discard 9s", first=1)
    assert kinds(s["items"], "draw_settle") == {(2, 0): 1, (3, 0): 1, (2, 1): 10, (3, 1): 10}
    assert s["scores"] == [2, 20, -11, -11]
    assert s["flip"] is None
    assert kinds(s["items"], "chicken") == {} and kinds(s["items"], "dou") == {}


def test_nobody_or_everybody_ready_pays_nothing() -> None:
    s = exhaust([NOT_READY, INERT[0], INERT[1], INERT[2]], "0 discard 9s", first=1)
    assert s["items"] == [] and s["next_dealer"] == 0 and s["next_dealer_streak"] == 1


@pytest.mark.parametrize("profile,next_dealer", [("weile", 0), ("kuhu", 0)])
def test_next_dealer_by_ready_dealer_ready(profile: str, next_dealer: int) -> None:
    hands = [DEALER_READY, PAIRS_HAND, INERT[1], INERT[2]]
    s = exhaust(hands, "0 discard 9s", first=1, profile=profile, streak=2)
    assert s["next_dealer"] == next_dealer and s["next_dealer_streak"] == 3


def test_next_dealer_by_ready_first_ready_after_dealer() -> None:
    """R14.3 by_ready: dealer not ready, seat 1 ready, seats 2 and 3 not: seat 1 deals next.
    Under `stay` (kuhu) the dealer keeps the deal."""
    hands = [NOT_READY, PAIRS_HAND, INERT[1], INERT[2]]
    weile = exhaust(hands, "0 discard 9s", first=1, profile="weile")
    assert weile["next_dealer"] == 1 and weile["next_dealer_streak"] == 0
    kuhu = exhaust(hands, "0 discard 9s", first=1, profile="kuhu")
    assert kuhu["next_dealer"] == 0 and kuhu["next_dealer_streak"] == 1


def test_dou_void_on_exhaustive_draw() -> None:
    """R4.7/R12.2: a kong on a drawn-out hand pays nothing."""
    hands = ["5555m 555p 555s 678m 9m", INERT[0], INERT[1], INERT[2]]
    s = exhaust(hands, "0 kong 5m concealed\n0 draw 1p\n0 discard 1p", first=1, profile="kuhu")
    assert kinds(s["items"], "dou") == {}


def test_dealer_bonus_on_draw_cuocuo() -> None:
    """R12.1 with dealer_bonus_on_draw (cuocuo): payments involving the dealer carry R6.4."""
    hands = [DEALER_READY, PAIRS_HAND, INERT[1], INERT[2]]
    s = exhaust(hands, "0 discard 9s", first=1, profile="cuocuo", streak=3)
    assert kinds(s["items"], "dealer") == {(2, 0): 3, (3, 0): 3}  # max(1, 1 x 3)
    weile = exhaust(hands, "0 discard 9s", first=1, profile="weile", streak=3)
    assert kinds(weile["items"], "dealer") == {}
