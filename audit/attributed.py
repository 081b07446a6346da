"""R16.16 in words: the findings that name the payment behind a wrong total.

`audit.attribute` finds the readings; this module turns each into findings, one
per (kind, payer, payee) whose amount differs, each citing the rule the
comparison of items cites for that difference (so a record with its items and
the same record with only its scores name the same rule), with the step that
made the payment due, so a report can go there.
"""
from __future__ import annotations

import json
from typing import Any, Final

from audit.house_rules import is_house_rule
from audit.attribute import MAX_CHANGES, Change, Reading, attribute
from audit.compare import compare_items
from audit.findings import Finding, Kind
from audit.kinds import ItemKind, MeldKind
from audit.settle import Item, Settlement
from audit.state import GameState
from audit.tiles import code as tile_code

CODES: Final[dict[Change, str]] = {
    Change.MISSING: "net_item_missing", Change.DOUBLED: "net_item_doubled", Change.REVERSED: "net_item_reversed",
    Change.WRONG_PAYER: "net_item_wrong_payer", Change.WRONG_PAYEE: "net_item_wrong_payee",
    Change.NOT_OWED: "net_item_not_owed", Change.AMOUNT: "net_item_amount", Change.COUNT: "net_item_count",
    Change.MODEL: "net_item_model", Change.PARAMETER: "net_item_parameter",
}
"""The finding code of each kind of change (audit/catalogue/findings.toml)."""

READING_NAMES: Final = ("only", "1", "2", "3", "4")
"""Values of the `reading` param (forms.toml `reading`): `only` when one reading fits."""


def _key(it: Item) -> tuple[str, int, int]:
    return it.kind.value, it.payer, it.payee


def _change_at(reading: Reading, key: tuple[str, int, int]) -> Change:
    """Which of the reading's changes made the payment `key` differ."""
    for edit in reading.edits:
        it = edit.item
        touched = {_key(it), (it.kind.value, it.payee, it.payer),
                   (it.kind.value, edit.seat if edit.seat is not None else -1, it.payee),
                   (it.kind.value, it.payer, edit.seat if edit.seat is not None else -1)}
        if key in touched:
            return edit.change
    return reading.changes[0]


def due_step(st: GameState, kind: str, payer: int, payee: int, items: list[Item]) -> int:
    """The step that made a payment due: the kong for a dou, the claim for a 责任鸡, the win for
    the rest (hand, dealer, 热炮 transfer and chickens are settled on the win); the last step
    for what an exhaustive draw settles."""
    same = [i for i in items if _key(i) == (kind, payer, payee) or _key(i) == (kind, payee, payer)]
    tile = next((i.params.get("tile") for i in same if "tile" in i.params), None)
    if kind == ItemKind.DOU.value or any(i.rule == "R11.4" for i in same):
        for owner in (payee, payer):
            for m in st.seats[owner].melds:
                if (m.is_kong or m.kind is MeldKind.PONG) and (tile is None or tile_code(m.tile) == tile):
                    if kind == ItemKind.DOU.value and not m.is_kong:
                        continue
                    return m.step
    wins = [w for w in st.wins if w.seat in (payee, payer)] or list(st.wins)
    return wins[0].step if wins else st.steps - 1


def _ledger_json(reading: Reading, base: int) -> list[dict[str, Any]]:
    return [{"kind": it.kind.value, "from": it.payer, "to": it.payee, "amount": it.amount * base}
            for it in reading.ledger]


def _reading_findings(st: GameState, sett: Settlement, reading: Reading, name: str, base: int) -> list[Finding]:
    out: list[Finding] = []
    both = sett.items + list(reading.ledger)
    for f in compare_items(_ledger_json(reading, base), sett, base):
        kind, payer, payee = f.params["kind"], f.params["payer"], f.params["payee"]
        change = _change_at(reading, (kind, payer, payee))
        step = due_step(st, kind, payer, payee, both)
        params: dict[str, Any] = {"kind": kind, "payer": payer, "payee": payee, "due": f.params["due"],
                                  "fits": f.params["paid"], "step": step, "reading": name}
        rule = f.rule
        if change is Change.PARAMETER:
            params |= {"parameter": reading.parameter, "value": json.dumps(reading.value, ensure_ascii=False)}
        if change is Change.PARAMETER and reading.rule is not None:
            rule = reading.rule  # a house rule, the flip, qualification: the rule of what was misread (R16.16)
        elif reading.rule is not None and is_house_rule(reading.rule):
            rule = reading.rule  # a house rule the platform did not play names that rule (R16.16)
        # A settlement finding's own `step` is null (record-format.md); the step that made the
        # payment due is its `step` param, where the report goes (audit.trace).
        out.append(Finding(Kind.MISSETTLED, rule, CODES[change], params, None, payee, f.params["due"],
                           f.params["paid"]))
    return out


def attributed(st: GameState, sett: Settlement, claimed_units: list[int], base: int) -> list[Finding]:
    """The findings naming the payment(s) behind a wrong total; when several readings fit equally
    well, a lead finding says so and each reading's findings carry its number; when none fits
    within the bound, one finding says that (the per-seat differences stay the whole story)."""
    att = attribute(st, sett, claimed_units)
    if att.too_many:
        return [Finding(Kind.MISSETTLED, "R15.1", "net_many_readings", {"readings": att.too_many})]
    if not att.readings:
        return [Finding(Kind.MISSETTLED, "R15.1", "net_not_explained", {"bound": MAX_CHANGES})]
    many = len(att.readings) > 1
    out = [Finding(Kind.MISSETTLED, "R15.1", "net_either", {"readings": len(att.readings)})] if many else []
    for i, reading in enumerate(att.readings, 1):
        out += _reading_findings(st, sett, reading, READING_NAMES[i] if many else "only", base)
    return out
