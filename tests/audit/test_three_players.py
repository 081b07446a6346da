"""R1.1: three-player tables (guizhou): every "three others" becomes two."""
from __future__ import annotations

from tests.helpers import kinds, legal, play

ROB3 = ["123m 456m 789m 234p 5p 5s", "55s 1m 4m 7m 8m 2p 3p 6p 9p 2s 3s 6s", "34s 678p 789p 22m 456m"]
ROB3_PLAY = """
0 discard 5s
1 pong 5s
1 discard 1m
2 draw 2m
2 discard 2m
0 draw 7s
0 discard 7s
1 draw 5s
1 kong 5s added
2 win 5s rob
"""


def test_rob_pays_two_shares() -> None:
    s = legal(play(ROB3, ROB3_PLAY, profile="guizhou", flip="8s"))
    assert kinds(s["items"], "hand") == {(1, 2): 4}  # (平胡 1 + 自摸 1) x 2 shares
    assert sum(s["scores"]) == 0 and len(s["scores"]) == 3


def test_hot_shot_transfer_is_two_times_in_three_player() -> None:
    hands = ["5555m 1s 234p 678p 99s 3m", "12m 456p 789s 123s 66m", "66s 123p 789m 234m 55p"]
    events = "0 kong 5m concealed\n0 draw 2m\n0 discard 3m\n1 win 3m"
    s = legal(play(hands, events, profile="guizhou", flip="5s", options={"hot_shot": {"transfer_kong": True}}))
    assert kinds(s["items"], "hot_shot") == {(0, 1): 4}  # 2 others x dou.concealed 2
    assert kinds(s["items"], "hand") == {(0, 1): 1}


def test_three_seats_refused_where_the_profile_has_four() -> None:
    a = play(ROB3, ROB3_PLAY, profile="weile")
    assert [(f.kind.value, f.rule) for f in a.findings] == [("schema", "R1.1")]
