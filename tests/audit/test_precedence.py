"""R16.17: when one move breaks several rules, the finding cites the first that fails, in order:
turn order, the move and the tiles it needs, the seat's state, and last a must-win the move skips.
R16.18: scores that do not sum to 0 are a mis-settlement (R15.1), not a schema error."""
from __future__ import annotations

from typing import Any

import pytest

from audit.engine import HandAudit, audit_hand
from tests.audit.test_declared import HANDS as DECLARED_HANDS
from tests.audit.test_hot_rob import ROB_HANDS, ROB_PLAY
from sim.notation import record
from tests.helpers import play


def first(a: HandAudit) -> tuple[int | None, int | None, str | None, str]:
    """(step, seat, rule, code) of the first finding."""
    assert a.findings, "expected a finding"
    f = a.findings[0]
    return f.step, f.seat, f.rule, f.code


# A hot shot in cuocuo (must_win = hot_shot): the dealer, seat 3, kongs 5m, draws its
# replacement and discards 3s; seat 0 waits on 3s (12s) and must win it.
SHOOTER = "5555m 1p 4p 7p 2s 5s 8s 6s 9s 3s 1m"
MUST_WIN = "123m 678m 789p 12s 99p"
QUIET = "2m 3m 8m 1p 4p 7p 2s 5s 8s 6m 9m 6s 9s"
PAIR = "33s 1m 4m 7m 2p 5p 8p 3p 6p 1s 4s 7s"
NO_PAIR = "3s 9s 1m 4m 7m 2p 5p 8p 3p 6p 1s 4s 7s"
THREE = "333s 1m 4m 7m 2p 5p 8p 3p 6p 4s 7s"
HOT = "3 kong 5m concealed\n3 draw 9m\n3 discard 3s\n"


def after_hot_shot(seat2: str, event: str, **kw: Any) -> HandAudit:
    return play([MUST_WIN, QUIET, seat2, SHOOTER], HOT + event, profile="cuocuo", dealer=3, **kw)


# ---------------------------------------------------------------- the rulebook's three examples

def test_declared_seat_ponging_without_a_pair_cites_r4_1() -> None:
    """R16.17 example 1: the move's own tiles (R4.1) come before the seat's state (R5.2 frozen hand)."""
    # Seat 1 declares after its first draw; the dealer's next discard 5s is one seat 1 does not pair.
    events = "0 discard 9s\n1 draw 4p\n1 declare\n1 discard 9p\n2 draw 2m\n2 discard 2m\n3 draw 5m\n" \
             "3 discard 5m\n0 draw 3m\n0 discard 3m\n1 pong 3m"
    a = play(DECLARED_HANDS, events)
    assert first(a) == (10, 1, "R4.1", "pong_without_pair")
    assert a.replay is not None and a.replay.state.seats[1].declared is not None


def test_pong_without_a_pair_after_a_hot_shot_cites_r4_1() -> None:
    """R16.17 example 2: seat 0 must win the hot shot; seat 2 pongs without a pair: R4.1, not R8.2."""
    assert first(after_hot_shot(NO_PAIR, "2 pong 3s")) == (3, 2, "R4.1", "pong_without_pair")


def test_pong_with_a_pair_after_a_hot_shot_cites_r8_2() -> None:
    """R16.17 example 3: the same pong with the pair breaks no rule of its own: the skipped must-win (R8.2)."""
    assert first(after_hot_shot(PAIR, "2 pong 3s")) == (3, 0, "R8.2", "must_win_hot_shot")


# ---------------------------------------------------------------- after a hot shot (R8.2)

@pytest.mark.parametrize(("seat2", "event", "want"), [
    (NO_PAIR, "2 kong 3s exposed", (3, 2, "R4.2", "exposed_kong_without_three")),
    (THREE, "2 kong 3s exposed", (3, 0, "R8.2", "must_win_hot_shot")),
    (THREE, "2 kong 3s exposed from=1", (3, 2, "R2.3", "kong_wrong_source")),
    (PAIR, "2 pong 3s from=1", (3, 2, "R2.3", "pong_wrong_source")),
    (PAIR, "2 pong 1m from=1", (3, 2, "R2.3", "pong_wrong_source")),
    (PAIR, "1 draw 1m", (3, 1, "R2.3", "out_of_turn_claim")),
    (PAIR, "0 draw 1m", (3, 0, "R8.2", "must_win_hot_shot")),
    (PAIR, "3 discard 1m", (3, 3, "R2.3", "out_of_turn_claim")),
    (PAIR, "2 kong 3s concealed", (3, 2, "R2.3", "out_of_turn_claim")),
], ids=["kong-without-three", "kong-with-three", "kong-wrong-source", "pong-wrong-source",
        "pong-wrong-source-and-tile", "draw-out-of-turn",
        "draw-by-next-seat", "discard", "concealed-kong"])
def test_after_a_hot_shot(seat2: str, event: str, want: tuple[int, int, str, str]) -> None:
    """Turn order, then the move's tiles; the must-win only for a move that breaks no rule of its own."""
    assert first(after_hot_shot(seat2, event)) == want


def test_a_win_that_is_no_winning_hand_cites_r3_1_before_the_pass_lock() -> None:
    """The hand a win needs (R3.1) comes before the seat's pass of the tile (R13.1)."""
    a = play([MUST_WIN, QUIET, PAIR, SHOOTER], HOT + "2 pass\n2 win 3s", profile="weile", dealer=3)
    assert first(a) == (4, 2, "R3.1", "not_a_winning_hand")


def test_wrong_draw_after_a_hot_shot_cites_the_wall() -> None:
    rec = record([MUST_WIN, QUIET, PAIR, SHOOTER], HOT + "0 draw 1m", profile="cuocuo", dealer=3)
    rec["events"][3]["tile"] = "9p"  # the wall gives 1m
    assert first(audit_hand(rec)) == (3, 0, "R2.4", "draw_wrong_tile")


# ---------------------------------------------------------------- after an added kong that must be robbed (R9.2)

@pytest.mark.parametrize(("event", "want"), [
    ("1 draw 6m", (11, 2, "R9.2", "must_win_rob")),
    ("2 draw 6m", (11, 2, "R2.2", "out_of_turn_rob")),
    ("2 pong 5s", (11, 2, "R2.2", "out_of_turn_rob")),
    ("3 kong 5p concealed", (11, 3, "R2.2", "out_of_turn_rob")),
    ("1 discard 1m", (11, 1, "R2.2", "out_of_turn_rob")),
], ids=["replacement", "draw-out-of-turn", "pong", "kong", "discard"])
def test_after_an_added_kong_that_must_be_robbed(event: str, want: tuple[int, int, str, str]) -> None:
    assert first(play(ROB_HANDS, ROB_PLAY + event, profile="cuocuo")) == want


def test_wrong_replacement_after_an_added_kong_cites_the_wall() -> None:
    rec = record(ROB_HANDS, ROB_PLAY + "1 draw 6m", profile="cuocuo")
    rec["events"][11]["tile"] = "9p" if rec["wall"][-1] != "9p" else "8p"
    assert first(audit_hand(rec)) == (11, 1, "R2.4", "draw_wrong_tile")


# ---------------------------------------------------------------- R16.18

def test_r16_18_scores_not_summing_to_zero_are_missettled() -> None:
    """The hand is replayed and settled; the sum is an R15.1 finding and so is each wrong seat."""
    from tests.audit.test_turns import HANDS, ROUND

    rec = record(HANDS, ROUND + "0 draw 5p\n0 win 5p", flip="7p",
                 result={"scores": [6, -2, -2, -1], "next_dealer": 0})
    out = audit_hand(rec).to_json()
    assert out["verdict"] == "missettled" and out["settlement"] is not None
    assert [(f["rule"], f["code"], f["seat"], f["expected"], f["actual"]) for f in out["findings"]] == [
        ("R15.1", "scores_sum_not_zero", None, 0, 1),
        ("R15.1", "seat_net_differs", 3, -2, -1),
    ]
