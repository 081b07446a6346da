"""R11 chickens: 冲锋鸡, 责任鸡 (and reverse), 翻牌鸡 (next / up_down, 金鸡), liabilities, 乌骨鸡."""
from __future__ import annotations

import json
from pathlib import Path

from audit.engine import audit_hand
from tests.helpers import INERT, kinds, legal, play

EXAMPLES = Path(__file__).resolve().parents[2] / "spec" / "examples"

DEALER = "123m 456m 789m 234p 5p 9s"          # after 9s waits 2p/5p; self-draws 2p at the end
S1 = "234s 567s 678m 99m 3p 1s"               # draws 4p, discards the first 1s: waits 2p/5p
S2 = "11s 777p 888s 22m 34m 9p"               # pongs 1s; ready after 9p, not after 2m
HANDS = [DEALER, S1, S2, INERT[2]]


def claimed(discard: str) -> str:
    return (f"0 discard 9s\n1 draw 4p\n1 discard 1s\n2 pong 1s\n2 discard {discard}\n"
            "3 draw 5m\n3 discard 5m\n0 draw 2p\n0 win 2p")


def test_responsibility_chicken() -> None:
    """R11.4: the first 1s is ponged: no 冲锋鸡; the discarder pays the ready claimer 2 extra (weile)."""
    s = legal(play(HANDS, claimed("9p"), flip="9p"))
    assert kinds(s["items"], "chicken") == {(0, 2): 3, (1, 2): 5, (3, 2): 3}


def test_non_qualifying_claimer_pays_exposed_chickens() -> None:
    """R11.6: seat 2 is not ready: it pays its melded 1s to each qualifying seat; no 责任鸡 in weile."""
    s = legal(play(HANDS, claimed("4m"), flip="9p"))
    assert kinds(s["items"], "chicken") == {(2, 0): 3, (2, 1): 3}


def test_responsibility_reverse_in_cuocuo() -> None:
    """R11.4 responsibility_reverse: the claimer does not qualify, the discarder does: claimer pays 1."""
    s = legal(play(HANDS, claimed("4m"), profile="cuocuo", flip="9p"))
    assert kinds(s["items"], "chicken") == {(2, 0): 3, (2, 1): 4}


def test_chickens_without_readiness_in_kuhu() -> None:
    """chicken_requires_ready false: every seat earns its chickens, ready or not (flip 5s -> 6s)."""
    weile = legal(play(HANDS, claimed("4m"), flip="5s"))
    kuhu = legal(play(HANDS, claimed("4m"), profile="kuhu", flip="5s"))
    assert (0, 3) not in kinds(weile["items"], "chicken")  # seat 3 holds 6s but is not ready
    assert kinds(kuhu["items"], "chicken")[(0, 3)] == 1
    assert kinds(kuhu["items"], "chicken")[(0, 2)] == 3  # seat 2's melded 1s earn in kuhu


CHARGE = ("0 discard 9s\n1 draw 4p\n1 discard 1s\n2 draw 1s\n2 discard 9p\n3 draw 5m\n3 discard 5m\n"
          "0 draw 3m\n0 discard 3m\n1 draw 7s\n1 discard 7s\n2 draw 6s\n2 discard 1s\n3 draw 6m\n3 discard 6m\n"
          "0 draw 2p\n0 win 2p")


def test_charge_chicken_and_discards_counting() -> None:
    """R11.3 冲锋鸡 counts for its discarder at charge value; R11.2 a later discarded 1s counts only
    where chicken_counts_discards (kuhu yes, senyan no)."""
    kuhu = legal(play(HANDS, CHARGE, profile="kuhu", flip="9p"))
    # seat 1: 冲锋鸡 2; seat 2: 11s in hand + one 1s discarded = 3
    assert kinds(kuhu["items"], "chicken")[(0, 1)] == 2
    assert kinds(kuhu["items"], "chicken")[(0, 2)] == 3
    senyan = legal(play(HANDS, CHARGE, profile="senyan", flip="9p"))
    assert kinds(senyan["items"], "chicken")[(0, 1)] == 4  # charge 4 counts although discards do not
    assert kinds(senyan["items"], "chicken")[(0, 2)] == 2  # the discarded 1s does not


def test_gold_and_up_down_flip() -> None:
    """R11.5: turned 9s makes 1s the flip chicken: 金鸡 x2; up_down also makes 8s a flip chicken."""
    doc = json.loads((EXAMPLES / "charge-chicken-gold.json").read_text(encoding="utf-8"))
    plain = legal(audit_hand(doc))
    assert kinds(plain["items"], "chicken")[(0, 3)] == 2
    up_down = legal(audit_hand(doc, options={"flip": "up_down"}))
    assert kinds(up_down["items"], "chicken")[(0, 3)] == 3  # 1s x2 plus one 8s


def test_concealed_kong_of_the_flip_chicken_in_cuocuo() -> None:
    """R11.8: a concealed kong of the flip chicken is worth chicken.concealed_kong_flip (7) in cuocuo."""
    events = "0 kong 5m concealed\n0 draw 9m\n0 win 9m"
    hands = ["5555m 555p 555s 678m 9m", *INERT]
    cuocuo = legal(play(hands, events, profile="cuocuo", flip="4m"))
    assert kinds(cuocuo["items"], "chicken") == {(1, 0): 7, (2, 0): 7, (3, 0): 7}
    weile = legal(play(hands, events, profile="weile", flip="4m"))
    assert kinds(weile["items"], "chicken") == {(1, 0): 4, (2, 0): 4, (3, 0): 4}


def test_wugu_ji_option() -> None:
    """R11.1/R16.10: wugu_ji makes 8p a chicken at the given values; 金鸡 never multiplies it."""
    hands = ["5555m 555p 555s 678m 9m", *INERT]
    events = "0 kong 5m concealed\n0 draw 9m\n0 win 9m"
    plain = legal(play(hands, events, profile="kuhu", flip="1m"))
    wugu = legal(play(hands, events, profile="kuhu", flip="1m", options={"wugu_ji": {"normal": 2, "charge": 4}}))
    # seats 2 (INERT[1]) and 3 (INERT[2]) -- only INERT[1] holds an 8p
    assert kinds(wugu["items"], "chicken").get((0, 2), 0) - kinds(plain["items"], "chicken").get((0, 2), 0) == 2


def test_no_chickens_without_a_win() -> None:
    from tests.audit.test_draws import exhaust
    s = exhaust([DEALER, S1, S2, INERT[2]], "0 discard 9s", first=1, profile="kuhu")
    assert kinds(s["items"], "chicken") == {}


def test_burned_seat_still_pays_its_charge_chicken() -> None:
    """R11.7: the 热炮 shooter discarded the 冲锋鸡: burned, it pays it (charge value) to each
    qualifying seat; its own chicken credits are gone (R8.3)."""
    hands = ["5555m 1s 234p 678p 99s 3m", "12m 456p 789s 123s 66m", "66s 123p 789m 234m 55p",
             "1m 4m 7m 9m 1p 3p 5p 6p 8p 9p 2s 4s 7s"]
    events = ("0 discard 1s\n1 draw 9p\n1 discard 9p\n2 draw 8s\n2 discard 8s\n3 draw 7p\n3 discard 7p\n"
              "0 draw 4s\n0 kong 5m concealed\n0 draw 2m\n0 discard 3m\n1 win 3m")
    weile = legal(play(hands, events, flip="5s"))
    ch = kinds(weile["items"], "chicken")
    assert ch[(0, 1)] == 1 + 3 and ch[(0, 2)] == 2 + 3  # credits + 冲锋鸡 3 owed by the burned dealer
    assert not any(to == 0 for (_, to) in ch)
    assert kinds(weile["items"], "dou") == {}
    kuhu = legal(play(hands, events, profile="kuhu", flip="5s"))
    owed = [i for i in kuhu["items"] if i["kind"] == "chicken" and i["from"] == 0 and i["rule"] == "R11.7"]
    assert {(i["to"], i["amount"]) for i in owed} == {(1, 2), (2, 2), (3, 2)}


def test_no_chow() -> None:
    """R1.3: there is no chow event; it is a schema error."""
    from audit.api import audit_record
    doc = json.loads((EXAMPLES / "hot-shot-weile.json").read_text(encoding="utf-8"))
    doc["events"][2] = {"type": "chow", "seat": 1, "tile": "3m"}
    out = audit_record(doc)
    assert out["verdict"] == "invalid"
    assert (out["findings"][0]["code"], out["findings"][0]["params"]["path"]) == ("not_one_of", "events[2].type")
