"""Client engines for the kit tests: one that answers from the engine's own replay and settlement, and
wrong ones, each with one fault of a class a real client has (issue 15).

A client reads only what a client team gets: the case files and each case's `kind` in the manifest.
`answer_kit` returns the answer lines; each wrong client also says which cases its fault changed
(its answer differs from the right one), which is exactly the set the check must fail.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from audit.kinds import ItemKind
from audit.profiles import resolve
from audit.replay import replay
from audit.settle import Item, Settlement, net_scores, settle
from sim.simulate import result_json
from audit.state import GameState

Fault = Callable[[GameState, Settlement, dict[str, Any]], dict[str, Any]]


def _answer(sett: Settlement, items: list[Item], base: int, with_items: bool) -> dict[str, Any]:
    res = result_json(sett, base)
    res["scores"] = [s * base for s in net_scores(items, sett.n)]
    if with_items:
        res["items"] = [{"kind": i.kind.value, "from": i.payer, "to": i.payee, "amount": i.amount * base}
                        for i in items]
    else:
        res.pop("items")
    return res


def right(st: GameState, sett: Settlement, rec: dict[str, Any]) -> dict[str, Any]:
    return _answer(sett, sett.items, rec.get("base", 1), True)


def hot_burn_ignored(st: GameState, sett: Settlement, rec: dict[str, Any]) -> dict[str, Any]:
    """热炮: settles as if the shot burned nothing (scores only, no items)."""
    w = st.window
    if st.wins and w is not None and not w.rob and w.hot_kong is not None:
        sett = settle(st, ignore_burn=True)
    return _answer(sett, sett.items, rec.get("base", 1), False)


def rob_billed_to_three(st: GameState, sett: Settlement, rec: dict[str, Any]) -> dict[str, Any]:
    """抢杠: the robber's hand payment split among every other seat, as a self-draw (items given)."""
    items: list[Item] = []
    for it in sett.items:
        if it.kind is ItemKind.HAND and it.rule == "R9.3":
            share = it.amount // (st.n - 1)
            items += [Item(ItemKind.HAND, o, it.payee, share, it.rule, it.code, it.params)
                      for o in range(st.n) if o != it.payee]
        else:
            items.append(it)
    return _answer(sett, items, rec.get("base", 1), True)


def no_responsibility(st: GameState, sett: Settlement, rec: dict[str, Any]) -> dict[str, Any]:
    """责任鸡: the claimer's extra never paid (items given)."""
    items = [it for it in sett.items if not (it.kind is ItemKind.CHICKEN and it.rule == "R11.4")]
    return _answer(sett, items, rec.get("base", 1), True)


def dealer_stays_on_draw(st: GameState, sett: Settlement, rec: dict[str, Any]) -> dict[str, Any]:
    """R14.3: after an exhaustive draw the dealer always deals again."""
    out = _answer(sett, sett.items, rec.get("base", 1), True)
    if not st.wins:
        out["next_dealer"] = st.dealer
    return out


def dou_doubled(st: GameState, sett: Settlement, rec: dict[str, Any]) -> dict[str, Any]:
    """R4.7: every kong paid twice its value (scores only: the check has to find the rule from the nets)."""
    items = [Item(it.kind, it.payer, it.payee, it.amount * (2 if it.kind is ItemKind.DOU else 1), it.rule, it.code,
                  it.params) for it in sett.items]
    return _answer(sett, items, rec.get("base", 1), False)


SETTLEMENT_FAULTS: dict[str, tuple[Fault, str]] = {
    "hot_burn_ignored": (hot_burn_ignored, "R8.3"), "rob_billed_to_three": (rob_billed_to_three, "R9.3"),
    "no_responsibility": (no_responsibility, "R11.4"), "dealer_stays_on_draw": (dealer_stays_on_draw, "R14.3"),
    "dou_doubled": (dou_doubled, "R4.7"),
}
"""Each wrong settlement client and the rule its fault breaks."""


def answer_kit(kit: Path, fault: Fault = right, accepts: str | None = None) -> tuple[list[str], set[str]]:
    """Answer every case; `accepts` names a rule whose illegal moves the validator lets through.

    Returns the answer lines and the ids whose answer differs from the right client's."""
    manifest = json.loads((kit / "manifest.json").read_text("utf-8"))
    lines, changed = [], set()
    for case in manifest["cases"]:
        rec = json.loads((kit / case["file"]).read_text("utf-8"))
        prof = resolve(rec["rules"]["profile"], rec["rules"].get("options"))
        rep = replay(rec, prof)
        if case["kind"] == "rejection":
            f = rep.finding
            step = f.step if f is not None else None
            ans: dict[str, Any] = {"case": case["id"], "rejected_at": step}
            if accepts is not None and f is not None and f.rule == accepts:
                ans["rejected_at"] = None
                changed.add(case["id"])
        else:
            sett = settle(rep.state)
            ans = {"case": case["id"], **fault(rep.state, sett, rec)}
            good = right(rep.state, sett, rec)
            if ans["scores"] != good["scores"] or ans["next_dealer"] != good["next_dealer"] or (
                    "items" in ans and _sums(ans["items"]) != _sums(good["items"])):
                changed.add(case["id"])
        lines.append(json.dumps(ans, ensure_ascii=False))
    return lines, changed


def _sums(items: list[dict[str, Any]]) -> dict[tuple[str, int, int], int]:
    out: dict[tuple[str, int, int], int] = {}
    for i in items:
        key = (i["kind"], i["from"], i["to"])
        out[key] = out.get(key, 0) + i["amount"]
    return {k: v for k, v in out.items() if v}


__all__ = ["SETTLEMENT_FAULTS", "answer_kit", "right"]
