"""Shared helpers for the rule tests: audit a built record and read its outcome."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from audit.engine import HandAudit, audit_hand
from tests.builder import record


def play(hands: list[str], events: str, **kw: Any) -> HandAudit:
    """Build a record (tests/builder.py) and audit it."""
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
