"""R8 热炮 (hot shot) and R9 抢杠 (robbing the kong), per profile."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from audit.engine import audit_hand
from tests.helpers import INERT, illegal, kinds, legal, play

EXAMPLES = Path(__file__).resolve().parents[2] / "spec" / "examples"


def hot_shot_record() -> dict:
    return json.loads((EXAMPLES / "hot-shot-weile.json").read_text(encoding="utf-8"))


def test_hot_shot_needs_no_pass_and_burns_all_in_weile() -> None:
    """R8.2: 平胡 wins the hot shot without 通行证; R8.3 bonus 1, burn all (no dou, no chicken credit)."""
    s = legal(audit_hand(hot_shot_record()))
    assert kinds(s["items"], "hand") == {(0, 1): 2}
    assert kinds(s["items"], "dou") == {}
    assert all(to != 0 for (frm, to) in kinds(s["items"], "chicken"))


def test_hot_shot_that_kong_in_senyan() -> None:
    """R8.3 that_kong: only the kong just made is void; the shooter keeps its chicken credits."""
    s = legal(audit_hand(hot_shot_record(), profile="senyan"))
    assert kinds(s["items"], "hand") == {(0, 1): 5}
    assert kinds(s["items"], "dou") == {}
    assert {(1, 0), (2, 0), (3, 0)} <= set(kinds(s["items"], "chicken"))


def test_hot_shot_transfer_kong_in_cuocuo() -> None:
    """R8.3 transfer_kong: the shooter pays the winner 3 x dou.concealed (kind hot_shot)."""
    s = legal(audit_hand(hot_shot_record(), profile="cuocuo"))
    assert kinds(s["items"], "hot_shot") == {(0, 1): 9}
    s2 = legal(audit_hand(hot_shot_record(), profile="kuhu"))
    assert kinds(s2["items"], "hot_shot") == {}


def test_must_win_hot_shot_in_cuocuo() -> None:
    """R8.2/R16.6: where must_win lists hot_shot, the event closing the window is illegal."""
    rec = hot_shot_record()
    rec["events"][3] = {"type": "draw", "seat": 1, "tile": rec["wall"][0]}
    rec["events"].append({"type": "discard", "seat": 1, "tile": rec["wall"][0]})
    assert illegal(audit_hand(rec, profile="cuocuo")) == (3, "R8.2")
    weile = audit_hand(rec)
    assert illegal(weile) == (None, "R10")  # legal in weile, just unfinished
    passed = copy.deepcopy(rec)
    passed["events"][3] = {"type": "pass", "seat": 1}
    assert illegal(audit_hand(passed, profile="cuocuo")) == (3, "R8.2")


# Rob: seat 1 pongs the dealer's 5s, later adds the drawn fourth 5s; seat 2 waits on 2s/5s.
ROB_HANDS = ["123m 456m 789m 234p 5p 5s", "55s 1m 4m 7m 8m 2p 3p 6p 9p 2s 3s 6s",
             "34s 678p 789p 22m 456m", INERT[2]]
ROB_PLAY = """
0 discard 5s
1 pong 5s
1 discard 1m
2 draw 2m
2 discard 2m
3 draw 5p
3 discard 5p
0 draw 7s
0 discard 7s
1 draw 5s
1 kong 5s added
"""


def test_rob_payments_per_profile() -> None:
    """R9.3: valued as self-draw; the robbed seat pays all three shares; the kong does not stand."""
    weile = legal(play(ROB_HANDS, ROB_PLAY + "2 win 5s rob", flip="8s"))
    assert kinds(weile["items"], "hand") == {(1, 2): 6}
    assert weile["scores"] == [0, -6, 6, 0]
    assert weile["next_dealer"] == 2
    cuocuo = legal(play(ROB_HANDS, ROB_PLAY + "2 win 5s", profile="cuocuo", flip="8s"))
    assert kinds(cuocuo["items"], "hand") == {(1, 2): 6}
    assert kinds(cuocuo["items"], "dealer") == {(1, 2): 1}  # only the dealer's share carries R6.4
    kuhu = legal(play(ROB_HANDS, ROB_PLAY + "2 win 5s", profile="kuhu", flip="8s"))
    assert kinds(kuhu["items"], "hand") == {(1, 2): 3}


def test_passing_a_rob_locks_and_must_win_rob() -> None:
    """R9.2: a seat that could rob and does not is locked; in cuocuo it had to rob."""
    events = ROB_PLAY + "1 draw 6m\n1 discard 6m"
    a = play(ROB_HANDS, events, profile="cuocuo")
    assert illegal(a) == (11, "R9.2")
    b = play(ROB_HANDS, events, profile="weile")
    assert illegal(b) == (None, "R10")
    assert b.replay is not None and b.replay.state.seats[2].lock is not None


def test_rob_kong_burn() -> None:
    """R9.3 rob_kong_burn: the robbed seat's dou and chicken credits are burned (weile), not in kuhu."""
    weile = audit_hand(__import__("sim.notation", fromlist=["record"]).record(
        ROB_HANDS, ROB_PLAY + "2 win 5s", flip="8s"))
    assert weile.settlement is not None and 1 in weile.settlement.burned
    kuhu = play(ROB_HANDS, ROB_PLAY + "2 win 5s", profile="kuhu", flip="8s")
    assert kuhu.settlement is not None and kuhu.settlement.burned == {}
