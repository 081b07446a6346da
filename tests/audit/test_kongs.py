"""R4 pong and kong: tiles needed, R4.5 empty wall, R4.6 first chance (憨包豆), R4.7 dou payments."""
from __future__ import annotations

from sim.notation import record
from tests.helpers import INERT, illegal, kinds, legal, play, quiet_round
from audit.engine import audit_hand

DEALER = "5555m 555p 555s 678m 9m"  # kong 5m, then waits 9m


def first_chance_kong(profile: str) -> dict:
    events = "0 kong 5m concealed\n0 draw 1p\n0 discard 1p\n" + quiet_round(1, ["2m", "4m", "6m"]) + \
        "\n0 draw 9m\n0 win 9m"
    return legal(play([DEALER, *INERT], events, profile=profile, flip="1m"))


def test_concealed_kong_first_chance_weile() -> None:
    s = first_chance_kong("weile")
    assert kinds(s["items"], "dou") == {(1, 0): 3, (2, 0): 3, (3, 0): 3}
    assert s["scores"] == [15, -5, -5, -5]


def test_concealed_kong_first_chance_cuocuo_with_dealer_bonus() -> None:
    s = first_chance_kong("cuocuo")
    assert kinds(s["items"], "dou") == {(1, 0): 3, (2, 0): 3, (3, 0): 3}
    assert kinds(s["items"], "dealer") == {(1, 0): 1, (2, 0): 1, (3, 0): 1}
    assert s["scores"] == [18, -6, -6, -6]


def test_concealed_kong_values_per_profile() -> None:
    """R4.7 dou.concealed: kuhu 2, senyan 5 (kuhu/senyan have no self-draw bonus)."""
    kuhu = first_chance_kong("kuhu")
    assert kinds(kuhu["items"], "dou") == {(1, 0): 2, (2, 0): 2, (3, 0): 2}
    senyan = first_chance_kong("senyan")
    assert kinds(senyan["items"], "dou") == {(1, 0): 5, (2, 0): 5, (3, 0): 5}


LATE_DEALER = "5555m 555p 555s 67m 9m 1p"
LATE_EVENTS = ("0 discard 1p\n" + quiet_round(1, ["2m", "4m", "6m"]) +
               "\n0 draw 8m\n0 kong 5m concealed\n0 draw 2p\n0 discard 2p\n" +
               quiet_round(1, ["1s", "7p", "8s"]) + "\n0 draw 9m\n0 win 9m")


def test_late_concealed_kong_is_hanbao_dou_in_cuocuo() -> None:
    """R4.6: the fourth 5m was dealt and this is not the first turn: no dou where late kongs don't score."""
    s = legal(play([LATE_DEALER, *INERT], LATE_EVENTS, profile="cuocuo", flip="1m"))
    assert kinds(s["items"], "dou") == {}


def test_late_concealed_kong_scores_in_weile() -> None:
    s = legal(play([LATE_DEALER, *INERT], LATE_EVENTS, profile="weile", flip="1m"))
    assert kinds(s["items"], "dou") == {(1, 0): 3, (2, 0): 3, (3, 0): 3}


def test_dou_requires_ready() -> None:
    """R4.7: weile pays a seat's dou only if it won or is ready; kuhu pays regardless."""
    hands = ["123m 456m 789m 234p 5p 9s", "5555s 1m 4m 7m 8m 2p 3p 6p 9p 2s", INERT[1], INERT[2]]
    events = ("0 discard 9s\n1 draw 1p\n1 kong 5s concealed\n1 draw 5p\n1 discard 5p\n"
              + quiet_round(2, ["2m", "4m"]) + "\n0 draw 2p\n0 win 2p")
    weile = legal(play(hands, events, profile="weile", flip="1m"))
    assert kinds(weile["items"], "dou") == {}
    kuhu = legal(play(hands, events, profile="kuhu", flip="1m"))
    assert kinds(kuhu["items"], "dou") == {(0, 1): 2, (2, 1): 2, (3, 1): 2}


def test_exposed_kong_paid_by_discarder() -> None:
    """R4.2/R4.7: seat 1 kongs the dealer's 5s; only the discarder pays dou.exposed."""
    hands = ["123m 456m 789m 23p 55p 5s", "555s 5m 5m 5p 1m 4m 7m 2p 3p 6p 7s", INERT[1], INERT[2]]
    events = ("0 discard 5s\n1 kong 5s exposed from=0\n1 draw 8p\n1 discard 1m\n"
              + quiet_round(2, ["2m", "4m"]) + "\n0 draw 1p\n0 win 1p")
    s = legal(play(hands, events, profile="kuhu", flip="1m"))
    assert kinds(s["items"], "dou") == {(0, 1): 1}
    s = legal(play(hands, events, profile="senyan", flip="1m"))
    assert kinds(s["items"], "dou") == {(0, 1): 5}


CLAIMS = ["123m 456m 789m 2p 55p 5s 4p", "55s 5m 5m 5p 1m 4m 7m 2p 3p 6p 7s 8s", INERT[1], INERT[2]]


def test_kong_and_pong_without_the_tiles() -> None:
    assert illegal(play(CLAIMS, "0 discard 5s\n1 kong 5s exposed")) == (1, "R4.2")
    assert illegal(play(CLAIMS, "0 kong 5p concealed")) == (0, "R4.3")
    assert illegal(play(CLAIMS, "0 kong 5p added")) == (0, "R4.4")
    assert illegal(play(CLAIMS, "0 discard 4p\n1 pong 4p")) == (1, "R4.1")
    assert illegal(play(CLAIMS, "0 discard 4p\n1 pong 5s")) == (1, "R4.1")


def test_pong_then_must_discard() -> None:
    """R2.3: no kong, draw or win in the turn of a pong."""
    assert illegal(play(CLAIMS, "0 discard 5s\n1 pong 5s\n1 kong 5s added")) == (2, "R2.3")
    assert illegal(play(CLAIMS, "0 discard 5s\n1 pong 5s\n1 draw 1p")) == (2, "R2.3")
    assert illegal(play(CLAIMS, "0 discard 5s\n1 pong 5s from=2")) == (1, "R2.3")


def test_no_kong_when_the_wall_is_empty() -> None:
    """R4.5: the seat that draws the last tile may not kong it."""
    hands = ["123m 456m 789m 234p 5p 1s", INERT[0], INERT[1], "555s 1m 3m 4m 7m 8m 2p 3p 4p 6p 9p"]
    rec = record(hands, "0 discard 1s")
    wall = [t for t in rec["wall"] if t != "5s"] + ["5s"]
    events = ["0 discard 1s"]
    for k, t in enumerate(wall):
        seat = (1 + k) % 4
        events.append(f"{seat} draw {t}")
        if k < len(wall) - 1:
            events.append(f"{seat} discard {t}")
    assert (len(wall)) % 4 == 3  # the last tile goes to seat 3
    rec = record(hands, "\n".join(events) + "\n3 kong 5s concealed")
    rec["wall"] = wall
    a = audit_hand(rec)
    assert illegal(a) == (len(events), "R4.5")
