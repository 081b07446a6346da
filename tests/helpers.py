"""Shared helpers for the rule tests: audit a built record and read its outcome."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from audit.engine import HandAudit, audit_hand
from sim.notation import record

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def play(hands: list[str], events: str, **kw: Any) -> HandAudit:
    """Build a record (sim/notation.py) and audit it."""
    options = kw.pop("audit_options", None)
    what_if = kw.pop("audit_profile", None)
    return audit_hand(record(hands, events, **kw), profile=what_if, options=options)


def illegal(a: HandAudit) -> tuple[int | None, str | None]:
    """(step, rule) of the illegal finding; fails the test if there is none."""
    found = [f for f in a.findings if f.kind.value == "illegal"]
    assert found, f"expected an illegal move, got {[f.to_json() for f in a.findings]}"
    return found[0].step, found[0].rule


def legal(a: HandAudit) -> dict[str, Any]:
    """The settlement JSON of a hand that must replay legally."""
    bad = [f.to_json() for f in a.findings if f.kind.value != "missettled"]
    assert not bad, f"unexpected findings: {bad}"
    assert a.settlement is not None
    return a.settlement.to_json(a.base)


def sums(items: list[dict[str, Any]]) -> dict[tuple[str, int, int], int]:
    """Item amounts summed per (kind, from, to), zero sums dropped: how R15 compares."""
    d: dict[tuple[str, int, int], int] = defaultdict(int)
    for i in items:
        d[(i["kind"], i["from"], i["to"])] += i["amount"]
    return {k: v for k, v in d.items() if v}


def kinds(items: list[dict[str, Any]], kind: str) -> dict[tuple[int, int], int]:
    """Sums of one kind, keyed (from, to)."""
    return {(f, t): v for (k, f, t), v in sums(items).items() if k == kind}


# Three non-dealer hands that are far from ready and hold no pair: they draw and
# discard without creating claims. Free for the dealer: all 5m, 5p, 5s and 1s,
# and spare copies of the rest (see tests/audit/test_kongs.py for the counts).
INERT = [
    "1m 4m 7m 8m 2p 3p 6p 9p 2s 3s 6s 7s 9s",
    "2m 3m 6m 9m 1p 4p 7p 8p 2s 4s 7s 8s 9s",
    "1m 3m 4m 7m 8m 2p 3p 4p 6p 9p 3s 6s 9s",
]


def quiet_round(first: int, tiles: list[str], n: int = 4) -> str:
    """Events: seats first, first+1, ... each draw one tile and discard it at once."""
    lines = []
    for i, t in enumerate(tiles):
        seat = (first + i) % n
        lines += [f"{seat} draw {t}", f"{seat} discard {t}"]
    return "\n".join(lines)


def sample_players(name: str) -> tuple[str, ...]:
    """The players of `samples/<name>.json`: the names its messages speak of its seats with."""
    from audit.catalogue import seat_names
    return seat_names(json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8")))


def integers(value: Any) -> list[int]:
    """Every integer a JSON value holds (booleans are not integers), for range checks of answers."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in integers(v)]
    if isinstance(value, list):
        return [n for v in value for n in integers(v)]
    return []
