"""The engine as a player of games sees it: the table, one replay step, the judge, the claim
windows and the settlement, for the tools that play or plant games above the engine (sim/: the
simulator, its bots and the mutator; kit/: the conformance kit's coverage), and what the fit
(fit/) needs to play a record again under other values: the hand audit, the whole replay, the
values tried per parameter (`candidates`), what a settlement read (`reads`) and the comparison of
two settlements (`agrees`).

Like `audit.api` for auditing, this is a public face: the packages above the engine import its
internals only through here (tests/imports.py names every other import of them), so what they
rely on is one list, and the engine may rearrange the modules behind it.
"""
from __future__ import annotations

from audit import chickens, hands
from audit.candidates import Trial, options_key, setting_options, trial, trials, value_at
from audit.claims import assess, current_win_kind
from audit.compare import agrees
from audit.engine import HandAudit, audit_hand
from audit.findings import IllegalMoveError, Verdict, verdict_of
from audit.reads import Watch, differing, flatten
from audit.replay import advance, replay, start_state, step
from audit.rules import check
from audit.settle import Settlement, final_hand, settle
from audit.state import Event, GameState, Phase, SeatState, Window, first_chance

__all__ = ["Event", "GameState", "HandAudit", "IllegalMoveError", "Phase", "SeatState", "Settlement", "Trial", "Verdict",
           "Watch", "Window", "advance", "agrees", "assess", "audit_hand", "check", "chickens", "current_win_kind",
           "differing", "final_hand", "first_chance", "flatten", "hands", "options_key", "replay", "setting_options",
           "settle", "start_state", "step", "trial", "trials", "value_at", "verdict_of"]
