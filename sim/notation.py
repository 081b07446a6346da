"""A compact notation for `zhuoji/1` records: rule tests and the samples' recipes write hands and
events by hand without counting 108 tiles.

Hands are written compactly ("123m 456p 99s"), events one per line
("0 discard 3m", "1 kong 5m concealed", "2 win 3m"). Draws name their tile;
the builder puts normal draws at the front of the wall in order, replacement
draws (right after a kong) at the back, the flip tile (if given) next at the
front, and every tile left over in the middle, so deal + wall is always the
108 tiles.
"""
from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from audit.vocabulary import CODES, EventType, WinKind


def tiles(text: str) -> list[str]:
    """'123m 55p' -> ['1m', '2m', '3m', '5p', '5p']."""
    out: list[str] = []
    for group in text.split():
        suit = group[-1]
        out += [f"{r}{suit}" for r in group[:-1]]
    return out


def parse_events(text: str) -> list[dict[str, Any]]:
    """One event per non-empty line: seat type [tile] [kind|from=N]."""
    out = []
    for line in text.strip().split("\n"):
        parts = line.split("#")[0].split()
        if not parts:
            continue
        ev: dict[str, Any] = {"type": parts[1], "seat": int(parts[0])}
        rest = parts[2:]
        if rest and rest[0][0] in "123456789" and rest[0][-1] in "mps":
            ev["tile"] = rest.pop(0)
        for extra in rest:
            if extra.startswith("from="):
                ev["from"] = int(extra[5:])
            else:
                ev["kind"] = extra
        out.append(ev)
    return out


def split_draws(events: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Tiles of normal draws (front) and of replacement draws (right after a kong: back)."""
    front: list[str] = []
    back: list[str] = []
    prev: dict[str, Any] | None = None
    for ev in events:
        if ev["type"] == EventType.DRAW:
            (back if prev is not None and prev["type"] == EventType.KONG else front).append(ev["tile"])
        if ev["type"] != EventType.PASS and not (ev["type"] == EventType.WIN and ev.get("kind") == WinKind.ROB):
            prev = ev
    return front, back


def _wall(deal: list[list[str]], events: list[dict[str, Any]], flip: str | None) -> list[str]:
    front, back = split_draws(events)
    left = Counter({c: 4 for c in CODES})
    for t in [t for d in deal for t in d] + front + back + ([flip] if flip else []):
        left[t] -= 1
        if left[t] < 0:
            raise ValueError(f"builder: more than four {t}")
    middle = [t for t in CODES for _ in range(left[t])]
    return front + ([flip] if flip else []) + middle + back[::-1]


def record(hands: list[str], events: str, *, profile: str = "weile", options: dict[str, Any] | None = None,
           dealer: int = 0, streak: int = 0, flip: str | None = None, base: int = 1,
           result: dict[str, Any] | None = None) -> dict[str, Any]:
    """A complete record; `result` defaults to a placeholder the tests do not rely on."""
    deal = [tiles(h) for h in hands]
    evs = parse_events(events)
    n = len(hands)
    rec: dict[str, Any] = {
        "format": "zhuoji/1", "game_id": "test-hand", "rules": {"profile": profile}, "base": base,
        "seats": [{"name": f"P{i}"} for i in range(n)], "dealer": dealer, "dealer_streak": streak,
        "deal": deal, "wall": _wall(deal, evs, flip), "events": evs,
        "result": result or {"scores": [0] * n, "next_dealer": dealer},
    }
    if options:
        rec["rules"]["options"] = options
    return rec


def with_result(rec: dict[str, Any], settlement: dict[str, Any], *, items: bool = True) -> dict[str, Any]:
    """A copy whose `result` claims exactly `settlement` (for missettlement tests to then break)."""
    out = copy.deepcopy(rec)
    out["result"] = {"scores": settlement["scores"], "next_dealer": settlement["next_dealer"],
                     "flip": settlement["flip"]}
    if items:
        # The record's item has no rule, code or params (record-format.md): kind, from, to, amount, note.
        out["result"]["items"] = [{k: v for k, v in it.items() if k not in ("rule", "code", "params")}
                                  for it in settlement["items"]]
    return out
