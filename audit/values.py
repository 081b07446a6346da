"""What a win, a ready hand or a dealer is worth, in units, with the working shown.

Pure functions of the profile: the settlement and the pass-lock test (R13.1,
which compares the values of two wins) must agree on every number, so both
come here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.hands import Scored
from audit.kinds import WinKind
from audit.profiles import Profile


Note = dict[str, Any]
"""A settlement note or a part of one, as JSON: {"code": ..., "params": {...}} (audit/catalogue/notes.toml)."""


def note(code: str, params: dict[str, Any]) -> Note:
    """A note (or note part) object; its words are rendered from the catalogue when asked."""
    return {"code": code, "params": params}


@dataclass
class Valued:
    """A value in units and the arithmetic that produced it (a note code and its params), for notes and reports."""

    units: int
    code: str
    params: dict[str, Any]

    def __init__(self, units: int, code: str, params: dict[str, Any]) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.units = units
        self.code = code
        self.params = params


def _apply_mode(value: int, bonus: int, mode: str) -> int:
    return value + bonus if mode == "add" else max(value, bonus)


def declared_value(prof: Profile, pattern_value: int, declared: str | None) -> tuple[int, list[Note]]:
    """R5.4: 报听 acting on a pattern value; hard (dealer) or soft. The note part says how."""
    d = prof.declared
    if declared is None or d is None:
        return pattern_value, []
    bonus = d.hard if declared == "hard" else d.soft
    return _apply_mode(pattern_value, bonus, d.mode), [note("declared_bonus", {"bonus": bonus, "mode": d.mode})]


def win_value(prof: Profile, scored: Scored, *, declared: str | None, kill: bool, self_draw: bool,
              kong_flower: bool, hot: bool) -> Valued:
    """R5.4, R6.1, R6.2, R8.3, R19.5: one winner's value as paid by one payer (before dealer bonus).

    A 抢杠 is valued as a self-draw (R9.3), or under R19.3 `rob_kong_multiple` as a win on the robbed
    seat's discard (the caller says which by `self_draw`); its shares or its multiple are the caller's
    (`claims.assess`, `settle._hand_items`)."""
    table = prof.jds_table if self_draw else None  # (asked only where it applies: audit.reads)
    key = scored.pattern.key
    parts: list[Note]
    if self_draw and table is not None and key in table:
        units = table[key]
        code, params = "win_value_jds", {"pattern": key, "units": units}
        parts = []
        if declared is not None and "declared" in table:
            units = max(units, table["declared"])
            parts.append(note("declared_floor", {"floor": table["declared"]}))
    else:
        units, parts = declared_value(prof, scored.value, declared)
        code, params = "win_value", {"pattern": key, "value": scored.value}
        k = prof.kill_declared
        if kill and k is not None:
            units = _apply_mode(units, k.value, k.mode)
            parts.append(note("kill_declared", {"value": k.value, "mode": k.mode}))
        if self_draw and prof.self_draw_bonus:
            units += prof.self_draw_bonus
            parts.append(note("self_draw_bonus", {"bonus": prof.self_draw_bonus}))
    if kong_flower and prof.kong_flower_bonus:
        units += prof.kong_flower_bonus
        parts.append(note("kong_flower_bonus", {"bonus": prof.kong_flower_bonus}))
    if hot:
        hs = prof.hot_shot
        if hs.multiplier is not None:
            # R19.5: "each winner's value is multiplied by N instead": the whole value (the pattern
            # with its 报听 and 杀报, R5.4); a hot shot is a discard, so no self-draw or 杠开 bonus.
            units *= hs.multiplier
            parts.append(note("hot_shot_multiplier", {"times": hs.multiplier}))
        elif hs.bonus:
            units += hs.bonus
            parts.append(note("hot_shot_bonus", {"bonus": hs.bonus}))
    params["parts"] = parts
    return Valued(units, code, params)


def valuation(prof: Profile, scored: Scored, kind: WinKind, *, declared: str | None, source_declared: bool,
              kong_flower: bool, hot: bool, n: int) -> tuple[Valued, int]:
    """A win's value per payer and what its payer pays in all (the amount R13.1 compares, R16.13):
    self-draw and discard as `win_value` says; a 抢杠 valued as a self-draw whose robbed seat pays
    the n - 1 shares (R9.3), or under R19.3 `rob_kong_multiple` N times its value as a win on the
    robbed seat's discard (R6.3 with R5.4: its 报听, and 杀报 as on that discard, which never rides
    here since a declared seat cannot kong, R5.2; no self-draw bonus, no 见豆三 table)."""
    if kind is WinKind.ROB:
        multiple = prof.rob_kong_multiple
        if multiple is None:
            v = win_value(prof, scored, declared=declared, kill=False, self_draw=True, kong_flower=False, hot=False)
            return v, v.units * (n - 1)
        v = win_value(prof, scored, declared=declared, kill=source_declared, self_draw=False, kong_flower=False,
                      hot=False)
        return v, v.units * multiple
    v = win_value(prof, scored, declared=declared, kill=kind is WinKind.DISCARD and source_declared,
                  self_draw=kind is WinKind.SELF_DRAW, kong_flower=kong_flower, hot=hot)
    return v, v.units


def ready_value(prof: Profile, scored: Scored, declared: str | None) -> Valued:
    """R12.1: a ready seat's 查叫 value (pattern, with 报听 per R5.4, no bonuses)."""
    units, parts = declared_value(prof, scored.value, declared)
    return Valued(units, "cha_jiao", {"pattern": scored.pattern.key, "value": scored.value, "parts": parts})


def dealer_bonus(prof: Profile, streak: int) -> int:
    """R6.4: the dealer item added to each hand payment involving the dealer (0 when none)."""
    b = prof.dealer_bonus
    if b is None:
        return 0
    if b.mode == "max":
        return max(b.base, b.per_streak * streak)
    return b.base + b.per_streak * streak
