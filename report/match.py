"""A match as one page (issue 23, point 4): its hands in order, each verdict, each seat's running
total, and the continuity between hands, as plain data.

The continuity is the engine's (`audit.match.continuity`, run by the audit of the whole match):
its findings `match_players_changed` (R1.1), `match_wrong_dealer` (R14) and `match_wrong_streak`
(R14.4) sit on the later hand's stored audit. This module decides nothing: it lists, per hand
after the first, the three checks with what the previous hand's settlement makes due and what the
hand says, and marks a check failed exactly when the engine's finding for it is there. The engine
checks the streak only when the dealer is right, and neither when the previous hand has no
settlement (an illegal hand names no next dealer): such a check is `not checked`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any


class Check(str, Enum):
    """The continuity checks between two hands of a match (record-format.md, Matches)."""

    PLAYERS = "players"
    DEALER = "dealer"
    STREAK = "streak"

    @property
    def code(self) -> str:
        """The engine's finding code when the check fails."""
        return _CODES[self.value]

    @property
    def rule(self) -> str:
        """The rule the check stands for."""
        return _RULES[self.value]


_CODES = {"players": "match_players_changed", "dealer": "match_wrong_dealer", "streak": "match_wrong_streak"}
_RULES = {"players": "R1.1", "dealer": "R14", "streak": "R14.4"}


class Outcome(str, Enum):
    """A check's outcome: held, broken (the engine's finding is on the hand), or not checked."""

    HELD = "held"
    BROKEN = "broken"
    NOT_CHECKED = "not_checked"


@dataclass(frozen=True)
class ContinuityCheck:
    """One check of a hand against the hand before it."""

    check: Check
    outcome: Outcome
    expected: Any
    actual: Any
    rule: str | None = None
    """The rule the engine's finding cites (the dealer rule depends on how the hand ended)."""


@dataclass(frozen=True)
class MatchHand:
    """One hand in the match: the record, its verdict, its dealer, each seat's change by the rules
    and as claimed, the running totals after it, and its checks against the hand before."""

    record_id: int
    index: int
    game_id: str
    revision: int
    verdict: str | None
    dealer: Any
    streak: Any
    scores: tuple[int | None, ...]
    claimed: tuple[int | None, ...]
    totals: tuple[int, ...]
    claimed_totals: tuple[int, ...]
    checks: tuple[ContinuityCheck, ...]
    settled: bool

    @property
    def broken(self) -> bool:
        """Whether any continuity check failed on this hand."""
        return any(c.outcome is Outcome.BROKEN for c in self.checks)


@dataclass(frozen=True)
class MatchView:
    """The whole match."""

    match_id: int
    table_id: str | None
    seats: int
    hands: tuple[MatchHand, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the match by the rules (hands without a settlement add 0)."""
        return self.hands[-1].totals if self.hands else (0,) * self.seats

    @property
    def claimed_totals(self) -> tuple[int, ...]:
        """Each seat's total over the match as the records claim it."""
        return self.hands[-1].claimed_totals if self.hands else (0,) * self.seats

    @property
    def unsettled(self) -> int:
        """How many hands have no settlement (their rule-based change is unknown, counted as 0)."""
        return sum(1 for h in self.hands if not h.settled)


@dataclass(frozen=True)
class HandInput:
    """What the store holds of one hand: its row, its document and its latest stored audit."""

    row: Mapping[str, Any]
    document: Mapping[str, Any]
    audit: Mapping[str, Any] | None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _scores(values: Any, seats: int) -> tuple[int | None, ...]:
    values = values if isinstance(values, list) else []
    return tuple(_int(values[i]) if i < len(values) else None for i in range(seats))


def players(document: Mapping[str, Any]) -> tuple[Any, ...]:
    """Who sits where, as the engine compares them: the player id when given, else the name."""
    seats = document.get("seats")
    out = []
    for seat in seats if isinstance(seats, list) else []:
        if isinstance(seat, dict):
            out.append(seat.get("player_id") if "player_id" in seat else seat.get("name"))
    return tuple(out)


def continuity_checks(previous: HandInput, hand: HandInput) -> tuple[ContinuityCheck, ...]:
    """The three checks of `hand` against `previous`, their outcome read from the engine's findings
    on `hand`'s stored audit."""
    findings = {str(f.get("code")): f for f in (hand.audit or {}).get("findings") or [] if isinstance(f, dict)}
    settlement = (previous.audit or {}).get("settlement") or {}

    def outcome(check: Check, checked: bool) -> Outcome:
        if check.code in findings:
            return Outcome.BROKEN
        return Outcome.HELD if checked else Outcome.NOT_CHECKED

    def rule(check: Check) -> str:
        found = findings.get(check.code)
        return str(found.get("rule")) if found is not None and found.get("rule") else check.rule

    out = [ContinuityCheck(Check.PLAYERS, outcome(Check.PLAYERS, True), players(previous.document),
                           players(hand.document), rule(Check.PLAYERS))]
    settled = bool(settlement)
    dealer_ok = settled and Check.DEALER.code not in findings
    out.append(ContinuityCheck(Check.DEALER, outcome(Check.DEALER, settled), settlement.get("next_dealer"),
                               hand.document.get("dealer"), rule(Check.DEALER)))
    out.append(ContinuityCheck(Check.STREAK, outcome(Check.STREAK, dealer_ok), settlement.get("next_dealer_streak"),
                               hand.document.get("dealer_streak", 0), rule(Check.STREAK)))
    return tuple(out)


def running_totals(audits: Sequence[Mapping[str, Any] | None], seats: int) -> list[tuple[int, ...]]:
    """Each seat's total by the rules after each hand (a hand without settlement adds nothing)."""
    totals = [0] * seats
    out = []
    for audit in audits:
        for seat, score in enumerate(_scores(((audit or {}).get("settlement") or {}).get("scores"), seats)):
            totals[seat] += score or 0
        out.append(tuple(totals))
    return out


def match_view(match_id: int, table_id: str | None, hands: Sequence[HandInput]) -> MatchView:
    """The match page's data from its hands in play order."""
    seats = max((len(players(h.document)) for h in hands), default=0)
    totals = running_totals([h.audit for h in hands], seats)
    claimed_running = [0] * seats
    out = []
    for i, hand in enumerate(hands):
        audit = hand.audit or {}
        settlement = audit.get("settlement") or {}
        result = hand.document.get("result") if isinstance(hand.document.get("result"), dict) else {}
        claimed = _scores((result or {}).get("scores"), seats)
        for seat, score in enumerate(claimed):
            claimed_running[seat] += score or 0
        checks = continuity_checks(hands[i - 1], hand) if i > 0 else ()
        row = hand.row
        out.append(MatchHand(int(row["id"]), int(row.get("match_index") or i), str(row.get("game_id") or ""),
                             int(row.get("revision") or 1), audit.get("verdict") or row.get("verdict"),
                             hand.document.get("dealer"), hand.document.get("dealer_streak", 0),
                             _scores(settlement.get("scores"), seats), claimed, totals[i], tuple(claimed_running),
                             checks, bool(settlement)))
    return MatchView(match_id, table_id, seats, tuple(out))


__all__ = ["Check", "ContinuityCheck", "HandInput", "MatchHand", "MatchView", "Outcome", "continuity_checks",
           "match_view", "players", "running_totals"]
