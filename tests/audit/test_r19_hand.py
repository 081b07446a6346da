"""R19.3 `rob_kong_multiple` and R19.5 `hot_shot.multiplier`: the value of a robbed kong and of a hot
shot, in small hand-built hands whose payments are worked out by hand from the rulebook's words, each
alone, together, and with R17/R18. (tests/audit/test_r19.py has the other R19 sections.)

Readings taken (closest to the words):
- R19.5 "each winner's value is multiplied by N instead": the winner's value is the pattern with its
  报听 and 杀报 (R5.4: they act on the pattern value, "hot-shot bonuses are added after"), so all of
  it is multiplied; a hot shot is a discard, so no self-draw or 杠开 bonus is in it. The R6.4 dealer
  bonus is a separate `dealer` item added to a payment of the winner's value, not part of that
  value: it is not multiplied. The R8.3 transfer and burn stay as they are.
- R19.3 "N times the value the hand would have as a win on a discard (R6.3, with its 报听
  additions, without the self-draw bonus and without the three shares)": N x (pattern with the
  robber's 报听); no 见豆三 table (that is a self-draw total). 杀报 is read as on a discard (the
  robbed seat's), but never rides: a declared seat cannot kong (R5.2). It is one payment of a winner's
  value between the robbed seat and the robber, so R6.4 adds one dealer bonus when either is the
  dealer (not one per share: there are no shares), and R18.1 `dealer_wins` keeps it only when the
  dealer is the robber.
- A passed rob's value (R13.1, R16.13: "what the robbed seat would have paid in all") is N x that
  value; a passed hot shot's is the multiplied value.

Values: weile (报听 10 add, 杀报 10 add, self-draw 1, 杠开 3, 热炮 bonus 1, burn all, rob_kong_burn
true, no dealer bonus); cuocuo (报听/杀报 10 floor, self-draw 1, 热炮 bonus 0 with transfer_kong, dou
3/3/3, dealer bonus max(1, 1 x streak), must-win 热炮 and 抢杠); kuhu (self-draw 0, 热炮 bonus 0,
rob_kong_burn false, dealer bonus 1 + 1 x streak, every seat qualifies for chickens)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from audit.claims import assess
from audit.engine import audit_hand
from audit.kinds import WinKind
from audit.profiles import list_profiles, load_profile
from audit.tiles import parse
from tests.audit.test_hot_rob import ROB_HANDS, ROB_PLAY
from tests.audit.test_r18 import (DEALER_PAYS, ROB_DEALER, ROB_DEALER_PLAY, S1_NO_BIRD, SHOOTER, SHOT_CHARGE,
                                  VOID)
from tests.audit.test_r17 import DEALER
from sim.notation import record, with_result
from tests.helpers import INERT, kinds, legal, play

ROOT = Path(__file__).resolve().parents[2]

Ledger = list[tuple[str, int, int, int, str]]


def settled(hands: list[str], events: str, options: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """The settlement JSON of a legal hand; its scores sum to zero."""
    s = legal(play(hands, events, options=options, **kw))
    assert sum(s["scores"]) == 0
    return s


def ledger(s: dict[str, Any]) -> Ledger:
    """Every item as (kind, from, to, amount, rule), sorted."""
    return sorted((i["kind"], i["from"], i["to"], i["amount"], i["rule"]) for i in s["items"])


def parts(s: dict[str, Any]) -> list[list[str]]:
    """The part codes of each hand item's note (its working)."""
    return [[p["code"] for p in i["params"]["parts"]] for i in s["items"] if i["kind"] == "hand"]


def sample(name: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The settlement of `samples/<name>.json` (itself clean today) with `options` in its rules."""
    doc = json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))
    if options:
        doc["rules"]["options"] = options
    s = legal(audit_hand(doc))
    assert sum(s["scores"]) == 0
    return s


MULT2 = {"hot_shot.multiplier": 2}
ROB4 = {"rob_kong_multiple": 4}

# ---------------------------------------------------------------- R19.5 hot_shot.multiplier

WINNER = "555m 555p 888s 22m 66m"
"""Ready on 2m and 6m, 大对子 (5) either way."""
HOT_HANDS = ["555s 1m 4m 7m 8m 2p 3p 6p 9p 7s 9s 2m", WINNER, INERT[1], INERT[2]]
HOT = ("0 discard 9s\n1 draw 4s\n1 discard 4s\n2 draw 8p\n2 discard 8p\n3 draw 7p\n3 discard 7p\n"
       "0 draw 5s\n0 kong 5s concealed\n0 draw 3s\n0 discard 2m\n1 win 2m")
"""The dealer draws its fourth 5s, conceals the kong, draws 3s and discards 2m: seat 1 wins the hot
shot with 大对子. Nobody holds a chicken (flip 9p makes 1p the flip chicken: only seat 2, not ready)."""
HOT_DECLARED = HOT.replace("1 draw 4s\n1 discard 4s", "1 draw 4s\n1 declare\n1 discard 4s")
"""The same, seat 1 declared (软报) at its first discard."""
KILL_HANDS = ["5555s 123p 456p 789p 2m", WINNER, INERT[1], INERT[2]]
KILL = "0 kong 5s concealed\n0 draw 1m\n0 declare\n0 discard 2m\n1 win 2m"
"""The dealer conceals its dealt 5555s on its first turn, draws 1m, declares (硬报, R16.7) and shoots
2m: seat 1's 大对子 on a declared seat's discard carries 杀报."""


def test_r19_5_the_rulebooks_example() -> None:
    """大对子 5 on a hot shot: R8.3 (weile bonus 1) 5 + 1 = 6; N = 2: 5 x 2 = 10, the bonus not added
    (not 11, not 12). The shooter pays; the burn leaves nothing else to pay."""
    today = settled(HOT_HANDS, HOT, flip="9p")
    assert ledger(today) == [("hand", 0, 1, 6, "R6.3")] and parts(today) == [["hot_shot_bonus"]]
    s = settled(HOT_HANDS, HOT, MULT2, flip="9p")
    assert ledger(s) == [("hand", 0, 1, 10, "R19.5")] and s["scores"] == [-10, 10, 0, 0]
    assert parts(s) == [["hot_shot_multiplier"]]
    assert [i["note"] for i in s["items"]] == ["大对子 5, all x2 (热炮)"]
    assert ledger(settled(HOT_HANDS, HOT, {"hot_shot.multiplier": 3}, flip="9p")) == [("hand", 0, 1, 15, "R19.5")]


def test_r19_5_multiplies_the_winners_declared_value() -> None:
    """Seat 1 declared (weile add 10): R8.3: 5 + 10 + 1 = 16. R19.5 multiplies the winner's value,
    报听 included: (5 + 10) x 2 = 30 (not 5 x 2 + 10 = 20)."""
    assert ledger(settled(HOT_HANDS, HOT_DECLARED, flip="9p")) == [("hand", 0, 1, 16, "R6.3")]
    s = settled(HOT_HANDS, HOT_DECLARED, MULT2, flip="9p")
    assert ledger(s) == [("hand", 0, 1, 30, "R19.5")]
    assert parts(s) == [["declared_bonus", "hot_shot_multiplier"]]


def test_r19_5_multiplies_kill_declared_in_weile() -> None:
    """The shooter declared: 杀报 (weile add 10). R8.3: 5 + 10 + 1 = 16; R19.5: (5 + 10) x 2 = 30."""
    assert ledger(settled(KILL_HANDS, KILL, flip="9p")) == [("hand", 0, 1, 16, "R6.3")]
    s = settled(KILL_HANDS, KILL, MULT2, flip="9p")
    assert ledger(s) == [("hand", 0, 1, 30, "R19.5")] and parts(s) == [["kill_declared", "hot_shot_multiplier"]]


def test_r19_5_in_cuocuo_with_its_transfer_and_dealer_bonus() -> None:
    """cuocuo: 杀报 floor max(5, 10) = 10, 热炮 bonus 0: R8.3 pays 10. The dealer (the shooter) adds
    its bonus max(1, 1 x 0) = 1 as a dealer item; transfer_kong: the concealed kong would have earned
    3 x 3 = 9 (kind hot_shot). R19.5 N = 2: the value 10 x 2 = 20; the bonus stays 1 and the transfer
    9 (neither is the winner's value). Net: the dealer -30, seat 1 +30."""
    today = settled(KILL_HANDS, KILL, profile="cuocuo", flip="9p")
    assert ledger(today) == [("dealer", 0, 1, 1, "R6.4"), ("hand", 0, 1, 10, "R6.3"), ("hot_shot", 0, 1, 9, "R8.3")]
    s = settled(KILL_HANDS, KILL, MULT2, profile="cuocuo", flip="9p")
    assert ledger(s) == [("dealer", 0, 1, 1, "R6.4"), ("hand", 0, 1, 20, "R19.5"), ("hot_shot", 0, 1, 9, "R8.3")]
    assert s["scores"] == [-30, 30, 0, 0]


def test_r19_5_the_dealer_bonus_is_not_multiplied_and_r18_1() -> None:
    """kuhu, streak 2: the dealer shoots seat 1's 大对子: bonus 0, so R8.3 pays 5, and the dealer bonus
    1 + 1 x 2 = 3 rides it. N = 3: 5 x 3 = 15 and still 3 (not (5 + 3) x 3 = 24). Seat 2's 1p is the
    flip chicken (flip 9p); in kuhu every seat qualifies, so each other seat pays it 1. R18.1
    `dealer_wins`: the dealer pays a non-dealer winner no bonus (waived citing R18.1); the 15 stays."""
    chickens = [("chicken", 0, 2, 1, "R11.6"), ("chicken", 1, 2, 1, "R11.6"), ("chicken", 3, 2, 1, "R11.6")]
    today = settled(HOT_HANDS, HOT, profile="kuhu", streak=2, flip="9p")
    assert ledger(today) == [*chickens, ("dealer", 0, 1, 3, "R6.4"), ("hand", 0, 1, 5, "R6.3")]
    s = settled(HOT_HANDS, HOT, {"hot_shot.multiplier": 3}, profile="kuhu", streak=2, flip="9p")
    assert ledger(s) == [*chickens, ("dealer", 0, 1, 3, "R6.4"), ("hand", 0, 1, 15, "R19.5")]
    both = {"hot_shot.multiplier": 3, "dealer_bonus.on": "dealer_wins"}
    a = play(HOT_HANDS, HOT, options=both, profile="kuhu", streak=2, flip="9p")
    assert ledger(legal(a)) == [*chickens, ("hand", 0, 1, 15, "R19.5")]
    assert a.settlement is not None
    assert [(i.kind.value, i.payer, i.payee, i.amount, i.rule) for i in a.settlement.waived] == [
        ("dealer", 0, 1, 3, "R18.1")]


def test_r19_5_multiplies_each_winner_of_a_double_hot_shot() -> None:
    """samples/clean-weile-double-hot-shot: seat 3 shoots, seat 0 wins 清龙七对 30 and seat 2 (declared)
    清龙七对 30 + 报听 10. R8.3: 31 and 41; N = 2: 30 x 2 = 60 and (30 + 10) x 2 = 80, each on its
    own (R10.1). The chickens are untouched."""
    today = sample("clean-weile-double-hot-shot")
    s = sample("clean-weile-double-hot-shot", MULT2)
    assert kinds(today["items"], "hand") == {(3, 0): 31, (3, 2): 41}
    assert kinds(s["items"], "hand") == {(3, 0): 60, (3, 2): 80}
    assert {i["rule"] for i in s["items"] if i["kind"] == "hand"} == {"R19.5"}
    assert [i for i in s["items"] if i["kind"] != "hand"] == [i for i in today["items"] if i["kind"] != "hand"]


def test_r19_5_multiplies_only_a_hot_shot() -> None:
    """A 杠开 (the dealer conceals 5555s and wins 平胡 on its replacement, weile 1 + 自摸 1 + 杠开 3 = 5
    from each, dou 3 from each), a plain discard (test_r18's 大对子 on the dealer's first discard, 5)
    and a rob (R9.3, 6) are no hot shots: the same settlement under N = 2."""
    flower_hands = ["5555s 123p 456p 789p 1m", *INERT]
    flower = "0 kong 5s concealed\n0 draw 1m\n0 win 1m"
    s = settled(flower_hands, flower, MULT2, flip="2m")
    assert kinds(s["items"], "hand") == {(1, 0): 5, (2, 0): 5, (3, 0): 5}
    assert kinds(s["items"], "dou") == {(1, 0): 3, (2, 0): 3, (3, 0): 3}
    assert s == settled(flower_hands, flower, flip="2m")
    discard = settled(DEALER_PAYS, "0 discard 2m\n1 win 2m", MULT2, flip="9s")
    assert ledger(discard) == [("hand", 0, 1, 5, "R6.3")]
    rob = settled(ROB_HANDS, ROB_PLAY + "2 win 5s rob", MULT2, flip="8s")
    assert ledger(rob) == [("hand", 1, 2, 6, "R9.3")]


def test_r19_5_with_r18_4_and_r17_1() -> None:
    """test_r18's SHOT_CHARGE: seat 3 shoots the dealer's 平胡 after discarding the first 1s (冲锋鸡 3,
    seats 0 and 1 qualify). N = 3: 1 x 3 = 3 (R8.3: 1 + 1 = 2). R18.4 `kept`: seat 3 still owes its
    冲锋鸡 to seats 0 and 1 (R11.7); `void`: it owes none (R19.7: R19.5 on the result of R18: the hand payment
    alone, seat 3 -3). R17.1 包鸡: seat 2 (not ready) also pays 1 for seat 3's discarded 1s."""
    hands = [DEALER, S1_NO_BIRD, INERT[0], SHOOTER]
    three = {"hot_shot.multiplier": 3}
    kept = settled(hands, SHOT_CHARGE, three, flip="9p")
    assert ledger(kept) == [("chicken", 3, 0, 3, "R11.7"), ("chicken", 3, 1, 3, "R11.7"), ("hand", 3, 0, 3, "R19.5")]
    void = settled(hands, SHOT_CHARGE, {**three, **VOID}, flip="9p")
    assert ledger(void) == [("hand", 3, 0, 3, "R19.5")] and void["scores"] == [3, 0, 0, -3]
    baoji = settled(hands, SHOT_CHARGE, {**three, "chicken.exposed_payers": "all_unready"}, flip="9p")
    assert kinds(baoji["items"], "chicken") == {(3, 0): 3, (3, 1): 3, (2, 0): 1, (2, 1): 1}
    assert kinds(baoji["items"], "hand") == {(3, 0): 3}


def test_r19_5_the_value_of_a_passed_hot_shot() -> None:
    """R13.1: the lock of a seat that lets a hot shot go holds the value it passed. spec/examples'
    weile hot shot (seat 1's 平胡 on the dealer's 3m) passed, then seat 1 draws; with
    `pass_lock_until: discard` the lock stays: 1 + 1 = 2 by R8.3, 1 x 3 = 3 under N = 3."""
    doc = json.loads((ROOT / "spec" / "examples" / "hot-shot-weile.json").read_text(encoding="utf-8"))
    doc["events"][3:] = [{"type": "pass", "seat": 1}, {"type": "draw", "seat": 1, "tile": doc["wall"][0]}]
    for options, value in (({}, 2), ({"hot_shot.multiplier": 3}, 3)):
        doc["rules"]["options"] = {"pass_lock_until": "discard", **options}
        a = audit_hand(doc)
        assert a.replay is not None
        lock = a.replay.state.seats[1].lock
        assert lock is not None and lock.value == value


# ---------------------------------------------------------------- R19.3 rob_kong_multiple

ROB = ROB_PLAY + "2 win 5s rob"
"""tests/audit/test_hot_rob.py: seat 2 (平胡, waits 2s/5s) robs seat 1's added kong of 5s."""
ROB_DECLARED = ROB.replace("2 draw 2m\n2 discard 2m", "2 draw 2m\n2 declare\n2 discard 2m")
"""The same, the robber declared (软报) at its first discard."""


def test_r19_3_the_rulebooks_example() -> None:
    """平胡 robbed, weile: R9.3 3 x (1 + 1) = 6; N = 4: the robbed seat pays 4 x 1 = 4. The kong does
    not stand and rob_kong_burn still burns seat 1 (R9.3, read as before)."""
    today = settled(ROB_HANDS, ROB, flip="8s")
    assert ledger(today) == [("hand", 1, 2, 6, "R9.3")] and parts(today) == [["self_draw_bonus", "rob_shares"]]
    a = play(ROB_HANDS, ROB, options=ROB4, flip="8s")
    s = legal(a)
    assert ledger(s) == [("hand", 1, 2, 4, "R19.3")] and s["scores"] == [0, -4, 4, 0]
    assert parts(s) == [["rob_multiple"]]
    assert [i["note"] for i in s["items"]] == ["平胡 1, 抢杠 valued as a discard, x4, paid by the robbed seat alone"]
    assert a.settlement is not None and set(a.settlement.burned) == {1} and set(a.settlement.void_kongs) == {1}


def test_r19_3_the_robbers_declared_value() -> None:
    """weile add: R9.3 3 x (1 + 10 + 1) = 36; N = 2: 2 x (1 + 10) = 22 (no self-draw bonus).
    cuocuo floor: R9.3 3 x (max(1, 10) + 1) = 33 plus the dealer's share's bonus 1; N = 2:
    2 x max(1, 10) = 20 and no bonus (two non-dealers). With 见豆三 R9.3 reads the self-draw table
    (3 x max(3, 13) = 39); R19.3 values a discard, which has no table: still 20."""
    two = {"rob_kong_multiple": 2}
    assert ledger(settled(ROB_HANDS, ROB_DECLARED, flip="8s")) == [("hand", 1, 2, 36, "R9.3")]
    assert ledger(settled(ROB_HANDS, ROB_DECLARED, two, flip="8s")) == [("hand", 1, 2, 22, "R19.3")]
    cuocuo = settled(ROB_HANDS, ROB_DECLARED, profile="cuocuo", flip="8s")
    assert ledger(cuocuo) == [("dealer", 1, 2, 1, "R6.4"), ("hand", 1, 2, 33, "R9.3")]
    s = settled(ROB_HANDS, ROB_DECLARED, two, profile="cuocuo", flip="8s")
    assert ledger(s) == [("hand", 1, 2, 20, "R19.3")] and parts(s) == [["declared_bonus", "rob_multiple"]]
    jds = settled(ROB_HANDS, ROB_DECLARED, {"jian_dou_san": True}, profile="cuocuo", flip="8s")
    assert ledger(jds) == [("dealer", 1, 2, 1, "R6.4"), ("hand", 1, 2, 39, "R9.3")]
    assert ledger(settled(ROB_HANDS, ROB_DECLARED, {"jian_dou_san": True, **two}, profile="cuocuo",
                          flip="8s")) == [("hand", 1, 2, 20, "R19.3")]


def test_r19_3_kill_declared_is_read_as_on_a_discard() -> None:
    """"As a win on a discard" would carry 杀报 were the robbed seat declared; a declared seat cannot
    kong (R5.2), so no record gets there. Asked of the window itself with the robbed seat marked
    declared: weile add, 1 + 10 = 11 per unit, 22 in all under N = 2; R9.3's self-draw value never
    takes it: 1 + 1 = 2, 6 in all."""
    for options, units, total in (({"rob_kong_multiple": 2}, 11, 22), ({}, 2, 6)):
        a = audit_hand(record(ROB_HANDS, ROB_PLAY, options=options))
        assert a.replay is not None
        st = a.replay.state
        st.seats[1].declared = "soft"
        got = assess(st, 2, parse("5s"), WinKind.ROB)
        assert got.valued is not None and (got.valued.units, got.payer_total) == (units, total)


def test_r19_3_a_dealer_robber_gets_one_dealer_bonus() -> None:
    """test_r18's ROB_DEALER, cuocuo, streak 2 (bonus max(1, 1 x 2) = 2): the dealer robs seat 1's
    平胡. R9.3: 3 x (1 + 1) = 6 and a bonus on each of the three shares, 6. N = 4: 4 x 1 = 4 and one
    bonus, 2, on the one payment; R18.1 `dealer_wins` keeps it (the dealer receives as the winner).
    The dealer's discarded 9s is the flip chicken (flip 8s): 1 from each."""
    chickens = [("chicken", 1, 0, 1, "R11.6"), ("chicken", 2, 0, 1, "R11.6"), ("chicken", 3, 0, 1, "R11.6")]
    today = settled(ROB_DEALER, ROB_DEALER_PLAY, profile="cuocuo", streak=2, flip="8s")
    assert ledger(today) == [*chickens, ("dealer", 1, 0, 6, "R6.4"), ("hand", 1, 0, 6, "R9.3")]
    for options in (ROB4, {**ROB4, "dealer_bonus.on": "dealer_wins"}):
        s = settled(ROB_DEALER, ROB_DEALER_PLAY, options, profile="cuocuo", streak=2, flip="8s")
        assert ledger(s) == [*chickens, ("dealer", 1, 0, 2, "R6.4"), ("hand", 1, 0, 4, "R19.3")]
        assert s["scores"] == [9, -7, -1, -1]


ROBBED_DEALER_HANDS = ["55s 123m 456m 789m 1p 2p 9p", "1m 4m 7m 8m 2p 3p 6p 9p 2s 3s 6s 7s 5s",
                       "34s 678p 789p 22m 456m", INERT[2]]
ROBBED_DEALER = ("0 discard 1p\n1 draw 5m\n1 discard 5s\n0 pong 5s\n0 discard 2p\n1 draw 3m\n1 discard 3m\n"
                 "2 draw 5p\n2 discard 5p\n3 draw 8s\n3 discard 8s\n0 draw 5s\n0 kong 5s added\n2 win 5s rob")
"""The dealer pongs seat 1's 5s, later adds its drawn fourth 5s; seat 2 (平胡 on 2s/5s) robs it."""


def test_r19_3_a_robbed_dealer_pays_one_dealer_bonus_and_r18_1() -> None:
    """cuocuo, streak 0 (bonus 1): R9.3: the dealer pays 3 x (1 + 1) = 6, and its own share carries
    the bonus 1. N = 4: 4 x 1 = 4 and the bonus 1 on that payment (the dealer pays). R18.1
    `dealer_wins`: a dealer who pays a non-dealer winner pays no bonus: waived citing R18.1."""
    today = settled(ROBBED_DEALER_HANDS, ROBBED_DEALER, profile="cuocuo", flip="8s")
    assert ledger(today) == [("dealer", 0, 2, 1, "R6.4"), ("hand", 0, 2, 6, "R9.3")]
    s = settled(ROBBED_DEALER_HANDS, ROBBED_DEALER, ROB4, profile="cuocuo", flip="8s")
    assert ledger(s) == [("dealer", 0, 2, 1, "R6.4"), ("hand", 0, 2, 4, "R19.3")]
    a = play(ROBBED_DEALER_HANDS, ROBBED_DEALER, options={**ROB4, "dealer_bonus.on": "dealer_wins"},
             profile="cuocuo", flip="8s")
    assert ledger(legal(a)) == [("hand", 0, 2, 4, "R19.3")]
    assert a.settlement is not None
    assert [(i.kind.value, i.payer, i.payee, i.amount, i.rule) for i in a.settlement.waived] == [
        ("dealer", 0, 2, 1, "R18.1")]


def test_r19_3_a_rob_between_non_dealers_carries_no_dealer_bonus() -> None:
    """cuocuo, seat 2 robs seat 1: R9.3 puts the bonus 1 on the dealer's share (R6.4); under R19.3
    there are no shares, and the one payment is between two non-dealers: 4 x 1 = 4, no bonus."""
    assert ledger(settled(ROB_HANDS, ROB, profile="cuocuo", flip="8s")) == [
        ("dealer", 1, 2, 1, "R6.4"), ("hand", 1, 2, 6, "R9.3")]
    assert ledger(settled(ROB_HANDS, ROB, ROB4, profile="cuocuo", flip="8s")) == [("hand", 1, 2, 4, "R19.3")]


BIRD_HANDS = [ROB_HANDS[0], "55s 1s 4m 7m 8m 2p 3p 6p 9p 2s 3s 6s", ROB_HANDS[2], ROB_HANDS[3]]
BIRD_ROB = ROB.replace("1 discard 1m", "1 discard 4m")
"""The rob of ROB_HANDS, the robbed seat 1 keeping a 1s in hand."""


def test_r19_3_rob_kong_burn_is_read_as_before() -> None:
    """kuhu (every seat qualifies for chickens; self-draw 0; bonus 1 on the dealer's share under R9.3):
    N = 4: 4 x 1 = 4, no dealer bonus. rob_kong_burn false (kuhu's): seat 1's 1s earns 1 from each
    other seat; true: burned, nothing. Seat 3's 9s (flip 8s) earns 1 from each either way."""
    flip = [("chicken", 0, 3, 1, "R11.6"), ("chicken", 1, 3, 1, "R11.6"), ("chicken", 2, 3, 1, "R11.6")]
    bird = [("chicken", 0, 1, 1, "R11.6"), ("chicken", 2, 1, 1, "R11.6"), ("chicken", 3, 1, 1, "R11.6")]
    today = settled(BIRD_HANDS, BIRD_ROB, profile="kuhu", flip="8s")
    assert ledger(today) == sorted([*bird, *flip, ("dealer", 1, 2, 1, "R6.4"), ("hand", 1, 2, 3, "R9.3")])
    kept = settled(BIRD_HANDS, BIRD_ROB, ROB4, profile="kuhu", flip="8s")
    assert ledger(kept) == sorted([*bird, *flip, ("hand", 1, 2, 4, "R19.3")]) and kept["scores"] == [-2, -2, 2, 2]
    burned = settled(BIRD_HANDS, BIRD_ROB, {**ROB4, "rob_kong_burn": True}, profile="kuhu", flip="8s")
    assert ledger(burned) == sorted([*flip, ("hand", 1, 2, 4, "R19.3")]) and burned["scores"] == [-1, -5, 3, 3]
    for options, burn in ((ROB4, {1}), ({**ROB4, "rob_kong_burn": False}, set())):
        a = play(ROB_HANDS, ROB, options=options, flip="8s")
        assert a.settlement is not None and set(a.settlement.burned) == burn


def test_r19_3_each_robber_of_a_double_rob() -> None:
    """samples/clean-weile-rob-double: seats 3 and 1 both rob seat 2's 1p, each 平胡. R9.3:
    3 x (1 + 1) = 6 each; N = 2: 2 x 1 = 2 each, both paid by seat 2 alone. The dou and chickens
    (seat 2 burned) are untouched."""
    today = sample("clean-weile-rob-double")
    s = sample("clean-weile-rob-double", {"rob_kong_multiple": 2})
    assert kinds(today["items"], "hand") == {(2, 3): 6, (2, 1): 6}
    assert kinds(s["items"], "hand") == {(2, 3): 2, (2, 1): 2}
    assert {i["rule"] for i in s["items"] if i["kind"] == "hand"} == {"R19.3"}
    assert [i for i in s["items"] if i["kind"] != "hand"] == [i for i in today["items"] if i["kind"] != "hand"]


HIGHER = {"pass_lock_allows_higher": True}
PASSED_ROB = ROB_PLAY + "2 pass\n1 draw 9m\n1 discard 2s\n2 win 2s"
"""Seat 2 lets seat 1's added 5s go (a rob it could make), then wins seat 1's 2s, a hot shot (the
kong stood, seat 1 drew its replacement), before its own next draw: still locked (weile: until
its draw). Where `pass_lock_allows_higher`, it may win only what is worth more than the passed rob
(R13.1; R16.13: what the robbed seat would have paid in all)."""


@pytest.mark.parametrize("options,passed,value,rule", [
    ({}, 6, 2, None),                                           # R9.3: 3 x (1 + 1) = 6; 平胡 1 + 1 = 2
    ({"rob_kong_multiple": 1}, 1, 2, "R6.3"),                   # 1 x 1 = 1 < 2: allowed
    ({"rob_kong_multiple": 2}, 2, 2, None),                     # 2 x 1 = 2, not higher
    ({"rob_kong_multiple": 2, "hot_shot.multiplier": 3}, 2, 3, "R19.5"),   # 1 x 3 = 3 > 2
    ({"hot_shot.multiplier": 3}, 6, 3, None),                   # 3 < 6
    ({"hot_shot.multiplier": 7}, 6, 7, "R19.5"),                # 7 > 6
])
def test_r19_3_and_r19_5_the_values_a_pass_lock_compares(options: dict[str, Any], passed: int, value: int,
                                                            rule: str | None) -> None:
    """The lock holds the passed rob's value, the win is judged by its own value, each read with R19."""
    a = play(ROB_HANDS, PASSED_ROB, options={**HIGHER, **options}, flip="8s")
    assert a.replay is not None
    lock = a.replay.state.seats[2].lock
    assert lock is not None and lock.value == passed
    if rule is None:
        found = [f for f in a.findings if f.kind.value == "illegal"]
        assert [(f.rule, f.code, f.params["passed"], f.params["value"]) for f in found] == [
            ("R13.1", "win_pass_locked_not_higher", passed, value)]
    else:
        s = legal(a)
        assert ledger(s) == [("hand", 1, 2, value, rule)] and sum(s["scores"]) == 0


# ---------------------------------------------------------------- both, and neither

def test_both_absent_change_nothing() -> None:
    """No bundled profile sets either; written as null in the options they are today's rule: R9.3's
    shares and R8.3's bonus, the same settlement as without them."""
    for name in list_profiles():
        prof = load_profile(name)
        assert prof.rob_kong_multiple is None and prof.hot_shot.multiplier is None, name
    null = {"rob_kong_multiple": None, "hot_shot": {"multiplier": None}}
    for hands, events, kw in ((ROB_HANDS, ROB, {"flip": "8s"}), (HOT_HANDS, HOT_DECLARED, {"flip": "9p"}),
                              (KILL_HANDS, KILL, {"flip": "9p", "profile": "cuocuo"}),
                              (ROB_DEALER, ROB_DEALER_PLAY, {"flip": "8s", "profile": "cuocuo", "streak": 2})):
        assert settled(hands, events, null, **kw) == settled(hands, events, **kw)
    for name in ("clean-weile-double-hot-shot", "clean-weile-rob-double"):
        assert sample(name, null) == sample(name)
    assert {i["rule"] for i in settled(ROB_HANDS, ROB, null, flip="8s")["items"]} == {"R9.3"}
    assert parts(settled(HOT_HANDS, HOT, null, flip="9p")) == [["hot_shot_bonus"]]


def test_both_set_each_acts_on_its_own_win() -> None:
    """A rob is no hot shot and a hot shot no rob: with both parameters, each hand settles as under
    its own parameter alone."""
    both = {**ROB4, **MULT2}
    assert settled(ROB_HANDS, ROB, both, flip="8s") == settled(ROB_HANDS, ROB, ROB4, flip="8s")
    assert settled(HOT_HANDS, HOT, both, flip="9p") == settled(HOT_HANDS, HOT, MULT2, flip="9p")
    assert settled(KILL_HANDS, KILL, both, profile="cuocuo", flip="9p") == settled(
        KILL_HANDS, KILL, MULT2, profile="cuocuo", flip="9p")


# ---------------------------------------------------------------- the comparison names R19.x

@pytest.mark.parametrize("hands,events,options,kw,rules", [
    (ROB_HANDS, ROB, ROB4, {"flip": "8s"}, {"R19.3"}),
    (ROB_HANDS, ROB_DECLARED, {"rob_kong_multiple": 2}, {"flip": "8s"}, {"R19.3"}),
    # cuocuo: the bonus on the dealer's share, gone with the shares, is R6.4's (two non-dealers)
    (ROB_HANDS, ROB, ROB4, {"flip": "8s", "profile": "cuocuo"}, {"R19.3", "R6.4"}),
    (HOT_HANDS, HOT, MULT2, {"flip": "9p"}, {"R19.5"}),
    (KILL_HANDS, KILL, MULT2, {"flip": "9p", "profile": "cuocuo"}, {"R19.5"}),
])
def test_a_platform_that_settles_todays_way_is_missettled_citing_r19(
        hands: list[str], events: str, options: dict[str, Any], kw: dict[str, Any], rules: set[str]) -> None:
    """The record claims today's settlement item by item: under the parameter the hand payment is
    missettled citing R19.x; claiming the parameter's settlement is clean."""
    plain = legal(play(hands, events, **kw))
    rec = with_result(record(hands, events, options=options, **kw), plain)
    a = audit_hand(rec)
    found = [f for f in a.findings if f.kind.value == "missettled"]
    assert found and {f.rule for f in found} == rules, [(f.rule, f.code) for f in found]
    assert {f.rule for f in found if f.params.get("kind") == "hand"} == rules - {"R6.4"}
    assert audit_hand(with_result(rec, legal(a))).findings == []


@pytest.mark.parametrize("name,options,rule", [
    ("clean-weile-double-hot-shot", MULT2, "R19.5"),
    ("clean-weile-rob-double", {"rob_kong_multiple": 2}, "R19.3"),
])
def test_scores_only_todays_settlement_is_named_as_r19_not_played(name: str, options: dict[str, Any],
                                                                   rule: str) -> None:
    """Scores only, today's settlement, two winners (so no single payment explains it): every seat's
    difference is put down to the house rule not played (audit.explain's model settles the replayed
    hand under today's rule, which values the wins again); the other way round, a profile playing
    today's rule names the parameter the platform played."""
    doc = json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))
    doc["result"].pop("items")
    played = {**doc, "rules": {"profile": "weile", "options": options}}
    code = "net_" + rule.lower().replace(".", "_") + "_not_played"
    found = [f for f in audit_hand(played).findings if f.code == code]
    assert found and {f.rule for f in found} == {rule}
    other = sample(name, options)
    doc["result"] = {"scores": other["scores"], "next_dealer": other["next_dealer"]}
    named = [f for f in audit_hand(doc).findings if f.code == "net_item_parameter"]
    assert named and {(f.rule, f.params["parameter"]) for f in named} == {
        (rule, "hot_shot.multiplier" if rule == "R19.5" else "rob_kong_multiple")}
