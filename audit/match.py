"""`zhuoji-match/1`: each hand audited on its own, then the continuity between hands.

A break (wrong dealer, wrong streak, other players) is an illegal finding with
step null on the later hand: the hand itself may be fine, its place in the
match is not.
"""
from __future__ import annotations

from typing import Any

from audit.findings import Finding, illegal
from audit.settle import Settlement


def players(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """Who sits where: the player id when given, else the name."""
    return [("id", s["player_id"]) if "player_id" in s else ("name", s["name"]) for s in doc["seats"]]


def continuity(prev_doc: dict[str, Any], sett: Settlement | None, doc: dict[str, Any], index: int) -> list[Finding]:
    """Findings for hand `index` given the hand before it (both schema-valid) and that hand's
    computed settlement (None when it had none: an illegal hand names no next dealer)."""
    out: list[Finding] = []
    if players(prev_doc) != players(doc):
        out.append(illegal("R1.1", "match_players_changed", {"hand": index, "previous": index - 1}, None))
    if sett is None:
        return out
    if doc["dealer"] != sett.next_dealer:
        out.append(illegal(sett.next_dealer_rule, "match_wrong_dealer",
                           {"hand": index, "dealer": doc["dealer"], "previous": index - 1, "next": sett.next_dealer},
                           None, expected=sett.next_dealer, actual=doc["dealer"]))
    elif doc.get("dealer_streak", 0) != sett.next_dealer_streak:
        out.append(illegal("R14.4", "match_wrong_streak",
                           {"hand": index, "streak": doc.get("dealer_streak", 0), "previous": index - 1,
                            "want": sett.next_dealer_streak},
                           None, expected=sett.next_dealer_streak, actual=doc.get("dealer_streak", 0)))
    return out
