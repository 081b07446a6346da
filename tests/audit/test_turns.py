"""R2 turn order, R2.4 the wall, R2.5 tiles held, R2.6/R10 the end, R16.8 passes."""
from __future__ import annotations

import pytest

from sim.notation import record
from tests.helpers import illegal, legal, play
from audit.engine import audit_hand

# A quiet table: nobody can claim the discards below.
HANDS = [
    "123m 456m 789m 234p 5p 9s",       # dealer: after 9s, waits 2p/5p
    "234s 567s 88s 1p 3p 7p 9p 9m",
    "345s 678s 22m 1p 4p 6p 7p 9p",
    "11s 66s 99s 2m 5m 8m 2p 4p 5p 6p",
]
ROUND = """
0 discard 9s
1 draw 4s
1 discard 4s
2 draw 9m
2 discard 9m
3 draw 7s
3 discard 7s
"""


def test_quiet_round_then_self_draw_is_legal() -> None:
    a = play(HANDS, ROUND + "0 draw 5p\n0 win 5p", flip="7p")
    s = legal(a)
    assert s["scores"] == [6, -2, -2, -2]
    assert s["next_dealer"] == 0 and s["next_dealer_streak"] == 1


@pytest.mark.parametrize("events,step,rule", [
    ("1 discard 9p", 0, "R2.1"),                                   # the dealer moves first
    ("0 draw 1m", 0, "R2.1"),                                      # the dealer does not draw first
    ("0 discard 9s\n2 draw 4s", 1, "R2.3"),                        # after a discard: the next seat draws
    ("0 discard 9s\n1 draw 4s\n1 draw 9m", 2, "R2.2"),             # two draws in one turn
    ("0 discard 9s\n1 draw 4s\n2 discard 1p", 2, "R2.2"),          # another seat discards in a turn
    ("0 discard 9s\n0 discard 1m", 1, "R2.3"),                     # the discarder moves again
    ("0 discard 9s\n1 draw 4s\n1 discard 5m", 2, "R2.5"),          # discarding a tile not held
])
def test_turn_order(events: str, step: int, rule: str) -> None:
    assert illegal(play(HANDS, events)) == (step, rule)


def test_draw_must_match_the_wall() -> None:
    rec = record(HANDS, ROUND)
    rec["events"][1]["tile"] = "1m"  # the wall gives 4s
    a = audit_hand(rec)
    assert illegal(a) == (1, "R2.4")
    assert a.findings[0].expected == "4s" and a.findings[0].actual == "1m"


def test_replacement_draw_comes_from_the_back() -> None:
    hands = ["7777m 123p 456p 78s 99s", *HANDS[1:]]
    rec = record(hands, "0 kong 7m concealed\n0 draw 2m\n0 discard 9s")
    assert rec["wall"][-1] == "2m"
    assert illegal(audit_hand(rec)) == (None, "R10")  # legal so far, just unfinished
    rec["wall"][-1], rec["wall"][0] = rec["wall"][0], rec["wall"][-1]
    assert illegal(audit_hand(rec)) == (1, "R2.4")


def test_replacement_from_front_option() -> None:
    """Profile parameter replacement_from: front takes the replacement from the front."""
    hands = ["7777m 123p 456p 78s 99s", *HANDS[1:]]
    rec = record(hands, "0 kong 7m concealed\n0 draw 2m\n0 discard 9s")
    rec["wall"].remove("2m")
    rec["wall"].insert(0, "2m")
    rec["rules"]["options"] = {"replacement_from": "front"}
    assert illegal(audit_hand(rec)) == (None, "R10")
    rec["rules"]["options"] = {}
    assert illegal(audit_hand(rec)) == (1, "R2.4")


def test_nothing_after_a_win() -> None:
    a = play(HANDS, ROUND + "0 draw 5p\n0 win 5p\n1 draw 1m", flip="7p")
    assert illegal(a) == (9, "R2.6")


def test_record_that_stops_early_cites_r10() -> None:
    a = play(HANDS, ROUND)
    assert illegal(a) == (None, "R10")
    assert a.settlement is None


def test_pass_rules() -> None:
    """R16.8: a harmless pass is fine; outside a window, or by the discarder, it is R2.3."""
    ok = play(HANDS, "0 discard 9s\n3 pass\n1 draw 4s\n1 discard 4s\n2 draw 9m\n2 discard 9m\n3 draw 7s\n"
                     "3 discard 7s\n0 draw 5p\n0 win 5p", flip="7p")
    assert legal(ok)["scores"] == [6, -2, -2, -2]
    assert illegal(play(HANDS, "0 pass")) == (0, "R2.3")
    assert illegal(play(HANDS, "0 discard 9s\n0 pass")) == (1, "R2.3")
    assert illegal(play(HANDS, ROUND + "0 draw 5p\n0 win 5p\n1 pass", flip="7p")) == (9, "R2.6")


def test_exhaustive_draw_ends_the_hand() -> None:
    """R10.2: once the wall is empty and the last discard unclaimed, nothing may follow."""
    rec = record(HANDS, "0 discard 9s")
    n = len(rec["wall"])
    events = ["0 discard 9s"]
    # Everybody draws and discards the drawn tile until the wall is empty.
    wall = rec["wall"]
    seat = 1
    for t in wall:
        events += [f"{seat} draw {t}", f"{seat} discard {t}"]
        seat = (seat + 1) % 4
    text = "\n".join(events)
    rec = record(HANDS, text)
    assert len(rec["wall"]) == n
    a = audit_hand(rec)
    if a.findings and a.findings[0].kind.value == "illegal":
        pytest.skip("a discard was claimable on this wall")  # pragma: no cover
    s = legal(a)
    assert s["flip"] is None
    rec["events"].append({"type": "draw", "seat": seat, "tile": "1m"})
    assert illegal(audit_hand(rec)) == (len(events), "R2.6")


def test_state_snapshot_is_independent() -> None:
    """GameState.copy: a report can keep the table before a step while the replay goes on."""
    from audit.profiles import load_profile
    from audit.replay import start_state
    from audit.state import Event
    rec = record(HANDS, ROUND)
    st = start_state(rec, load_profile("weile"))
    before = st.copy()
    st.apply(Event.from_json(0, rec["events"][0]))
    assert before.seats[0].hand != st.seats[0].hand and before.phase.value == "turn"
    assert before.profile is st.profile
    assert before.seats[0].keys != st.seats[0].keys and before.seats[0].discards == []
    assert st.seats[0].discards and st.window is not None and before.window is None


def test_state_snapshot_settles_like_the_state() -> None:
    """A copy taken at any step carries everything the rules read: settling the end state's copy
    gives the same ledger, on a reference game with kongs, chickens and a claim window."""
    import json

    from audit.profiles import resolve
    from audit.replay import replay
    from audit.settle import settle
    from tests.conftest import REFERENCE

    for path in sorted(REFERENCE.glob("*.json"))[:6]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        prof = resolve(doc["rules"]["profile"], doc["rules"].get("options"))
        snapshots = []
        rep = replay(doc, prof, observer=lambda st, ev, f: snapshots.append((st.copy(), st.seats[0].keys[:])))
        assert all(copy.seats[0].keys == keys for copy, keys in snapshots)
        assert settle(rep.state.copy()).to_json(1) == settle(rep.state).to_json(1)
