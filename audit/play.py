"""The engine as a player of games sees it: the table, one replay step, the judge, the claim
windows, the hand shapes and the settlement, for the tools that play or plant games above the
engine (sim/: the simulator, its bots and the mutator; kit/: the conformance kit's coverage), the
registry of house rules (R17-R19) they derive their cases from, and what the fit (fit/) needs to
play a record again under other values: the hand audit, the whole replay, the values tried per
parameter (`candidates`), what a settlement read (`reads`) and the comparison of two settlements
(`agrees`).

One of the engine's public modules, as `audit.api` (audit and trace; profiles; the format's
reader) and `audit.vocabulary` (kinds, tiles, texts, drawings) are: the packages above the engine
import these names and nothing from the modules behind them (tests/imports.py checks both, and
that every name imported is one of `__all__`), so the engine may rearrange those modules freely.
Re-exports only: nothing here runs when a name is used.
"""
from __future__ import annotations

from audit.candidates import Trial, options_key, setting_options, trial, trials, value_at
from audit.chickens import flip_of
from audit.claims import assess, current_win_kind
from audit.compare import agrees
from audit.engine import HandAudit, audit_hand
from audit.findings import IllegalMoveError, Verdict, verdict_of
from audit.hands import all_pungs_shape, is_winning, one_suit, seven_pairs_shape, standard_shape, waits
from audit.hands import candidates as hand_patterns
from audit.house_rules import HOUSE_RULES, HouseRule, is_house_rule
from audit.house_rules import SECTIONS as HOUSE_RULE_SECTIONS
from audit.house_rules import Fault as HouseRuleFault
from audit.house_rules import Need as HouseRuleNeed
from audit.house_rules import Section as HouseRuleSection
from audit.house_rules import played as house_rules_played
from audit.reads import Watch, differing, flatten
from audit.replay import advance, replay, start_state, step
from audit.rules import check
from audit.settle import Settlement, final_hand, settle
from audit.state import Event, GameState, Phase, SeatState, Window, first_chance

__all__ = [
    # the table, one replay step, the judge, the claim windows
    "Event", "GameState", "IllegalMoveError", "Phase", "SeatState", "Window", "advance", "assess", "check",
    "current_win_kind", "first_chance", "replay", "start_state", "step",
    # hand shapes (R3) and the chicken flip (R11)
    "all_pungs_shape", "flip_of", "hand_patterns", "is_winning", "one_suit", "seven_pairs_shape", "standard_shape",
    "waits",
    # the settlement
    "Settlement", "final_hand", "settle",
    # the registry of house rules (audit.house_rules): one record per parameter, its sections, what it needs
    "HOUSE_RULES", "HOUSE_RULE_SECTIONS", "HouseRule", "HouseRuleFault", "HouseRuleNeed", "HouseRuleSection",
    "house_rules_played", "is_house_rule",
    # what the fit plays a record again with
    "HandAudit", "Trial", "Verdict", "Watch", "agrees", "audit_hand", "differing", "flatten", "options_key",
    "setting_options", "trial", "trials", "value_at", "verdict_of",
]
