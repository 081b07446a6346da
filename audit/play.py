"""The engine as a player of games sees it: the table, one replay step, the judge, the claim
windows and the settlement, for the tools that play or plant games above the engine (sim/: the
simulator, its bots and the mutator; kit/: the conformance kit's coverage).

Like `audit.api` for auditing, this is a public face: the packages above the engine import its
internals only through here (tests/imports.py names every other import of them), so what they
rely on is one list, and the engine may rearrange the modules behind it.
"""
from __future__ import annotations

from audit import chickens, hands
from audit.claims import assess, current_win_kind
from audit.findings import IllegalMoveError
from audit.replay import advance, start_state, step
from audit.rules import check
from audit.settle import Settlement, final_hand, settle
from audit.state import Event, GameState, Phase, SeatState, Window, first_chance

__all__ = ["Event", "GameState", "IllegalMoveError", "Phase", "SeatState", "Settlement", "Window", "advance", "assess",
           "check", "chickens", "current_win_kind", "final_hand", "first_chance", "hands", "settle", "start_state",
           "step"]
