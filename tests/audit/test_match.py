"""Matches (zhuoji-match/1): continuity of dealer, streak and players."""
from __future__ import annotations

import copy

from audit.api import audit_document
from tests.audit.test_compare import example


def match(*hands: dict) -> dict:
    return {"format": "zhuoji-match/1", "table_id": "t1", "hands": list(hands)}


def test_continuity_ok() -> None:
    a = example("responsibility-chicken")       # dealer 0 wins: keeps the deal, streak 1
    b = copy.deepcopy(a)
    b["game_id"] = "next"
    b["dealer_streak"] = 1
    out = audit_document(match(a, b))
    assert [x["verdict"] for x in out] == ["clean", "clean"]


def test_wrong_dealer_streak_and_players() -> None:
    a = example("responsibility-chicken")
    b = copy.deepcopy(a)
    out = audit_document(match(a, b))  # streak should be 1
    assert out[1]["verdict"] == "illegal"
    assert [(f["rule"], f["step"]) for f in out[1]["findings"]] == [("R14.4", None)]
    c = copy.deepcopy(a)
    c["dealer_streak"] = 1
    c["seats"][2]["name"] = "someone else"
    assert [f["rule"] for f in audit_document(match(a, c))[1]["findings"]] == ["R1.1"]
    h = example("hot-shot-weile")  # seat 1 wins: seat 1 deals next, but the next hand has dealer 0
    out = audit_document(match(h, copy.deepcopy(h)))
    assert [(f["rule"], f["expected"], f["actual"]) for f in out[1]["findings"]] == [("R14.1", 1, 0)]


def test_bad_hand_inside_a_match_names_its_path() -> None:
    a = example("responsibility-chicken")
    b = copy.deepcopy(a)
    b["events"][0]["tile"] = "10m"
    out = audit_document(match(a, b))
    assert out[1]["verdict"] == "invalid"
    assert (out[1]["findings"][0]["code"], out[1]["findings"][0]["params"]["path"]) == \
        ("not_a_tile", "hands[1].events[0].tile")


def test_broken_envelope() -> None:
    out = audit_document({"format": "zhuoji-match/1", "hands": "nope"})
    assert len(out) == 1 and out[0]["verdict"] == "invalid"
