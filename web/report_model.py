"""What the report of one record shows, as plain data: its steps, the ledger, the totals.

Everything about the game comes from `audit.api` (the audit, the table after
each step, the chickens); this module only fetches and groups it for the
templates of the report page, its PDF and the what-if comparison (whose audit
under other rules it runs without storing it). The ledger
groups payments by (kind, payer, payee) the way the record format compares
them, and never computes an amount.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app

from audit import api as engine_api
from audit import render
from audit.views import Trace
from web.i18n import page_language


@dataclass(frozen=True)
class LedgerRow:
    """Payments of one (kind, payer, payee): what the rules give and what the record claims."""

    kind: str
    payer: int | None
    payee: int | None
    rules: tuple[str, ...]
    notes: tuple[str, ...]
    computed: int | None
    claimed: int | None

    @property
    def difference(self) -> int | None:
        """Claimed minus computed; None when the record has no items (a missing computed side is 0)."""
        return None if self.claimed is None else self.claimed - (self.computed or 0)


def _key(item: dict[str, Any]) -> tuple[str, Any, Any]:
    """How the record format compares items: summed per (kind, from, to)."""
    return (str(item.get("kind")), item.get("from"), item.get("to"))


def _amount(value: Any) -> int:
    """An item's amount; anything that is not a number counts as 0 (the schema rejects it anyway)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def ledger(computed: Sequence[dict[str, Any]] | None, claimed: Sequence[dict[str, Any]] | None) -> list[LedgerRow]:
    """One row per (kind, payer, payee) of either side, computed order first. `claimed` is None
    when the record has no `result.items`; then only the computed side is shown."""
    groups: dict[tuple[str, Any, Any], dict[str, Any]] = {}
    for item in computed or ():
        group = groups.setdefault(_key(item), {"rules": [], "notes": [], "computed": 0, "claimed": None})
        group["computed"] += _amount(item.get("amount"))
        for field, value in (("rules", item.get("rule")), ("notes", item.get("note"))):
            if value and value not in group[field]:
                group[field].append(value)
    for item in claimed or ():
        group = groups.setdefault(_key(item), {"rules": [], "notes": [], "computed": None, "claimed": None})
        group["claimed"] = (group["claimed"] or 0) + _amount(item.get("amount"))
    if claimed is not None:
        for group in groups.values():
            group["claimed"] = group["claimed"] or 0
    return [LedgerRow(kind, payer, payee, tuple(g["rules"]), tuple(g["notes"]), g["computed"], g["claimed"])
            for (kind, payer, payee), g in groups.items()]


@dataclass(frozen=True)
class Compared:
    """One value the audit computes beside what the record claims (a seat's total, the next dealer)."""

    label: Any
    computed: Any
    claimed: Any

    @property
    def differs(self) -> bool:
        """Whether the record claims something else (a value it does not give never differs)."""
        return self.claimed is not None and self.computed is not None and self.claimed != self.computed

    @property
    def difference(self) -> int | None:
        """Claimed minus computed for numbers."""
        if isinstance(self.claimed, int) and isinstance(self.computed, int):
            return self.claimed - self.computed
        return None


def seat_totals(computed: Sequence[int] | None, claimed: Sequence[Any] | None) -> list[Compared]:
    """Net per seat: the audit's `settlement.scores` beside the record's `result.scores`."""
    count = max(len(computed or ()), len(claimed or ()))
    return [Compared(seat, _at(computed, seat), _at(claimed, seat)) for seat in range(count)]


def _at(values: Sequence[Any] | None, index: int) -> Any:
    """values[index], or None past the end or when there are no values."""
    return values[index] if values is not None and index < len(values) else None


def record_result(document: Any) -> dict[str, Any]:
    """The record's claimed `result` (empty when the document has none)."""
    result = document.get("result") if isinstance(document, dict) else None
    return result if isinstance(result, dict) else {}


def trace_for(document: Any, audit_row: dict[str, Any] | None, record: dict[str, Any]) -> Trace | None:
    """The step views under the rules of the latest audit (a re-audit under another profile
    shows its own pass locks), in the page's language; None when the engine cannot replay the
    record."""
    profile = options = None
    if audit_row is not None and (audit_row["options"] is not None or audit_row["profile"] != record["profile"]):
        profile, options = audit_row["profile"], audit_row["options"]
    try:
        return engine_api.trace_record(document, profile=profile, options=options, lang=page_language())
    except Exception:  # the engine promises not to raise; a report without steps beats a 500
        current_app.logger.exception("trace of record %s failed", record["id"])
        return None


def report_context(detail: dict[str, Any]) -> dict[str, Any]:
    """Everything the step-by-step body needs beyond the record detail."""
    document = detail["document"]
    audit = detail["audit"] or {}
    trace = trace_for(document, detail["audits"][-1] if detail["audits"] else None, detail)
    settlement = audit.get("settlement") or {}
    result = record_result(document)
    claimed_items = result.get("items") if isinstance(result.get("items"), list) else None
    steps = trace.steps if trace is not None else []
    return {
        "trace": trace,
        "steps": steps,
        "slots": render.discard_slots(steps),
        "claimed": result,
        "ledger": ledger(settlement.get("items"), claimed_items) if settlement or claimed_items else [],
        "has_claimed_items": claimed_items is not None,
        "totals": seat_totals(settlement.get("scores"), result.get("scores")),
        "next_dealer": Compared("next_dealer", settlement.get("next_dealer"), result.get("next_dealer")),
        "flip": Compared("flip", settlement.get("flip"), result.get("flip")),
        "chickens": trace.chickens if trace is not None else [],
        "trace_verdict": trace.audit.get("verdict") if trace is not None else None,
    }




def whatif_side(audit: dict[str, Any], profile: Any, options: Any, claimed: dict[str, Any]) -> dict[str, Any]:
    """One column of the what-if comparison."""
    settlement = audit.get("settlement") or {}
    return {"audit": audit, "profile": profile or audit.get("profile"), "options": options,
            "totals": seat_totals(settlement.get("scores"), claimed.get("scores")),
            "next_dealer": settlement.get("next_dealer"), "next_streak": settlement.get("next_dealer_streak"),
            "flip": settlement.get("flip")}
