"""What a win, a ready hand or a dealer is worth, in units, with the working shown.

Pure functions of the profile: the settlement and the pass-lock test (R13.1,
which compares the values of two wins) must agree on every number, so both
come here.
"""
from __future__ import annotations

from dataclasses import dataclass

from audit.hands import Scored
from audit.profiles import Profile


@dataclass
class Valued:
    """A value in units and the arithmetic that produced it, for notes and reports."""

    units: int
    note: str

    def __init__(self, units: int, note: str) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.units = units
        self.note = note


def _apply_mode(value: int, bonus: int, mode: str) -> int:
    return value + bonus if mode == "add" else max(value, bonus)


def declared_value(prof: Profile, pattern_value: int, declared: str | None) -> tuple[int, str]:
    """R5.4: 报听 acting on a pattern value; hard (dealer) or soft."""
    d = prof.declared
    if declared is None or d is None:
        return pattern_value, ""
    bonus = d.hard if declared == "hard" else d.soft
    return _apply_mode(pattern_value, bonus, d.mode), f" 报听 {bonus} ({d.mode})"


def win_value(prof: Profile, scored: Scored, *, declared: str | None, kill: bool, self_draw: bool,
              kong_flower: bool, hot: bool) -> Valued:
    """R5.4, R6.1, R6.2, R8.3: one winner's value as paid by one payer (before dealer bonus)."""
    table = prof.jds_table
    note = f"{scored.pattern.zh} {scored.value}"
    if self_draw and table is not None and scored.pattern.key in table:
        units = table[scored.pattern.key]
        note = f"{scored.pattern.zh} 见豆三自摸 {units}"
        if declared is not None and "declared" in table:
            units = max(units, table["declared"])
            note += f" 报听 {table['declared']} (floor)"
    else:
        units, extra = declared_value(prof, scored.value, declared)
        note += extra
        k = prof.kill_declared
        if kill and k is not None:
            units = _apply_mode(units, k.value, k.mode)
            note += f" 杀报 {k.value} ({k.mode})"
        if self_draw and prof.self_draw_bonus:
            units += prof.self_draw_bonus
            note += f" +自摸 {prof.self_draw_bonus}"
    if kong_flower and prof.kong_flower_bonus:
        units += prof.kong_flower_bonus
        note += f" +杠开 {prof.kong_flower_bonus}"
    if hot and prof.hot_shot.bonus:
        units += prof.hot_shot.bonus
        note += f" +热炮 {prof.hot_shot.bonus}"
    return Valued(units, note)


def ready_value(prof: Profile, scored: Scored, declared: str | None) -> Valued:
    """R12.1: a ready seat's 查叫 value (pattern, with 报听 per R5.4, no bonuses)."""
    units, extra = declared_value(prof, scored.value, declared)
    return Valued(units, f"叫 {scored.pattern.zh} {scored.value}{extra}")


def dealer_bonus(prof: Profile, streak: int) -> int:
    """R6.4: the dealer item added to each hand payment involving the dealer (0 when none)."""
    b = prof.dealer_bonus
    if b is None:
        return 0
    if b.mode == "max":
        return max(b.base, b.per_streak * streak)
    return b.base + b.per_streak * streak
