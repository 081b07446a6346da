"""The report of one hand as plain data: the ledger with each item's working, the seats' totals
beside the record's, the payments that differ, the chickens with their reasons, the key steps and
the dispute summary, built once from the record, its stored audit and the engine's trace (one
replay). No Flask, no store, no request: the page (`web.pages`) and the PDF (`web.pdf.record`)
both render the same `ReportModel`; `web.report_model` does the looking-up (the trace, the
language, the match's hands) and hands it here."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from audit.vocabulary import ChickenView, Lang, StepView, Trace, discard_slots, render_note, render_value, seat_names
from report.dispute import DisputeSummary, difference, dispute_summary, due_steps_by_finding, finding_key, ledger_anchor
from report.dispute import text as dispute_text


@dataclass(frozen=True)
class ChickenLine:
    """A seat's chickens as the report shows them: the view, and why they count or not, in words."""

    view: ChickenView
    reason: str

    @property
    def counted(self) -> bool:
        """Whether the chickens earn (or, not qualifying, what they would have earned is void)."""
        return self.view.qualifies


def chicken_lines(chickens: Sequence[ChickenView], lang: Lang | str) -> list[ChickenLine]:
    """Each seat's chickens with the reason they count or not (胡牌 / 听牌 / 被烧 / 未听牌)."""
    out = []
    for c in chickens:
        values = dict(c.reason_params)
        if "by" in values:
            values["by"] = render_value("burn", values["by"], lang)
        out.append(ChickenLine(c, dispute_text(f"chicken_{c.reason}", lang, **values)))
    return out


@dataclass(frozen=True)
class DifferingPayment:
    """One payment (kind, payer, payee) on which the record and the rules part, for PDF page 1:
    from the item-by-item comparison when the record has items, else from the attribution of its
    wrong totals (R16.16: `inferred`, the amount that fits the record's scores, per reading)."""

    kind: str
    payer: int | None
    payee: int | None
    rule: str | None
    computed: int
    claimed: int
    inferred: bool
    reading: str | None = None
    step: int | None = None

    @property
    def difference(self) -> int:
        """`report.dispute.difference`: record − audit, the one sign of every difference."""
        return difference(self.computed, self.claimed)

    @property
    def anchor(self) -> str:
        """The id of its ledger row (`LedgerRow.anchor`), which the page marks (issue 33.3)."""
        return ledger_anchor(self.kind, self.payer, self.payee)


ATTRIBUTION_PREFIX = "net_item_"
"""The codes of audit.attributed that name one payment of a reading."""


def differing_payments(rows: Sequence["LedgerRow"], findings: Sequence[dict[str, Any]],
                       has_claimed_items: bool, dues: Mapping[str, int] | None = None) -> list[DifferingPayment]:
    """Every payment that differs, for the page an operator reads first; its rule and step are the
    finding's about it (`dues`: report.dispute.due_steps_by_finding), else the ledger row's rule."""
    if has_claimed_items:
        about = {(p.get("kind"), p.get("payer"), p.get("payee")): f for f in findings
                 if isinstance(p := f.get("params") or {}, dict) and "payer" in p and "payee" in p}
        out = []
        for r in rows:
            if not r.difference:
                continue
            f = about.get((r.kind, r.payer, r.payee))
            rule = f.get("rule") if f is not None else (r.rules[0] if r.rules else None)
            step = (dues or {}).get(finding_key(f)) if f is not None else None
            out.append(DifferingPayment(r.kind, r.payer, r.payee, rule, r.computed or 0, r.claimed or 0, False,
                                        step=step))
        return out
    out = []
    for f in findings:
        params = f.get("params") or {}
        if not str(f.get("code", "")).startswith(ATTRIBUTION_PREFIX) or not isinstance(params.get("due"), int):
            continue
        out.append(DifferingPayment(str(params.get("kind")), params.get("payer"), params.get("payee"), f.get("rule"),
                                    params["due"], int(params.get("fits") or 0), True, params.get("reading"),
                                    params.get("step")))
    return out


@dataclass(frozen=True)
class LedgerRow:
    """Payments of one (kind, payer, payee): what the rules give and what the record claims.
    `notes` are the computed items' notes; `claimed_notes` the record's own, shown for a row
    only the record claims; `workings` each computed item's arithmetic in words."""

    kind: str
    payer: int | None
    payee: int | None
    rules: tuple[str, ...]
    notes: tuple[str, ...]
    computed: int | None
    claimed: int | None
    claimed_notes: tuple[str, ...] = ()
    workings: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The row's HTML id, the one a finding about these payments links to."""
        return ledger_anchor(self.kind, self.payer, self.payee)

    @property
    def only_claimed(self) -> bool:
        """A payment the record makes and the rules do not."""
        return self.computed is None

    @property
    def difference(self) -> int | None:
        """`report.dispute.difference` (record − audit); None when the record has no items (a missing
        computed side is 0)."""
        return None if self.claimed is None else difference(self.computed or 0, self.claimed)


def _key(item: dict[str, Any]) -> tuple[str, Any, Any]:
    """How the record format compares items: summed per (kind, from, to)."""
    return (str(item.get("kind")), item.get("from"), item.get("to"))


def _amount(value: Any) -> int:
    """An item's amount; anything that is not a number counts as 0 (the schema rejects it anyway)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def working(item: dict[str, Any], base: int, lang: Lang | str, names: Sequence[str] = ()) -> str:
    """A computed item's arithmetic in words, from its structured note (pattern value, 报听/杀报,
    bonuses, shares) and the base: `平胡 1分，自摸 +1，抢杠包3家，共 6分 × 底分 1 = 6`."""
    amount = _amount(item.get("amount"))
    words = render_note(item, lang, names) if "code" in item and "params" in item else str(item.get("note") or "")
    if base > 1 and amount % base == 0:
        return dispute_text("item_arithmetic", lang, working=words, units=amount // base, base=base, amount=amount)
    return dispute_text("item_arithmetic_base_one", lang, working=words, amount=amount)


def ledger(computed: Sequence[dict[str, Any]] | None, claimed: Sequence[dict[str, Any]] | None,
           base: int = 1, lang: Lang | str = Lang.EN, names: Sequence[str] = ()) -> list[LedgerRow]:
    """One row per (kind, payer, payee) of either side, computed order first. `claimed` is None
    when the record has no `result.items`; then only the computed side is shown."""
    groups: dict[tuple[str, Any, Any], dict[str, Any]] = {}

    def group_of(item: dict[str, Any], computed_side: bool) -> dict[str, Any]:
        return groups.setdefault(_key(item), {"rules": [], "notes": [], "claimed_notes": [], "workings": [],
                                              "computed": 0 if computed_side else None, "claimed": None})

    for item in computed or ():
        group = group_of(item, True)
        if group["computed"] is None:
            group["computed"] = 0
        group["computed"] += _amount(item.get("amount"))
        group["workings"].append(working(item, base, lang, names))
        for field, value in (("rules", item.get("rule")), ("notes", item.get("note"))):
            if value and value not in group[field]:
                group[field].append(value)
    for item in claimed or ():
        group = group_of(item, False)
        group["claimed"] = (group["claimed"] or 0) + _amount(item.get("amount"))
        note = item.get("note")
        if isinstance(note, str) and note and note not in group["claimed_notes"]:
            group["claimed_notes"].append(note)
    if claimed is not None:
        for group in groups.values():
            group["claimed"] = group["claimed"] or 0
    return [LedgerRow(kind, payer, payee, tuple(g["rules"]), tuple(g["notes"]), g["computed"], g["claimed"],
                      tuple(g["claimed_notes"]), tuple(g["workings"]))
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
        """`report.dispute.difference` (record − audit) for numbers."""
        if isinstance(self.claimed, int) and isinstance(self.computed, int):
            return difference(self.computed, self.claimed)
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


KEY_EVENTS = frozenset({"pong", "kong", "declare", "win"})
"""Event types the viewer's key steps filter keeps: claims, kongs, declarations, wins."""
KEY_MARKERS = frozenset({"pass_lock", "hot_shot", "rob", "late_kong", "responsibility_chicken"})
"""Marker kinds that make a step key besides its event (a lock, a hot shot, a robbed kong ...)."""


def key_steps(steps: Sequence[StepView]) -> frozenset[int]:
    """The steps that matter when stepping through a dispute: claims, kongs, declarations, wins,
    pass locks (and the other named moments), and every step with a finding."""
    out = set()
    for sv in steps:
        kind = sv.event.get("type") if isinstance(sv.event, dict) else None
        if kind in KEY_EVENTS or sv.findings or any(m.kind.value in KEY_MARKERS for m in sv.markers):
            out.add(sv.index)
    return frozenset(out)


def whatif_side(audit: dict[str, Any], profile: Any, options: Any, claimed: dict[str, Any]) -> dict[str, Any]:
    """One column of the what-if comparison."""
    settlement = audit.get("settlement") or {}
    return {"audit": audit, "profile": profile or audit.get("profile"), "options": options,
            "totals": seat_totals(settlement.get("scores"), claimed.get("scores")),
            "next_dealer": settlement.get("next_dealer"), "next_streak": settlement.get("next_dealer_streak"),
            "flip": settlement.get("flip")}


@dataclass(frozen=True)
class ReportModel:
    """Everything the report shows of one hand beyond the record's own facts, as data."""

    trace: Trace | None
    steps: list[StepView]
    slots: int
    key_steps: frozenset[int]
    claimed: dict[str, Any]
    ledger: list[LedgerRow]
    has_claimed_items: bool
    differing: list[DifferingPayment]
    totals: list[Compared]
    next_dealer: Compared
    flip: Compared
    chickens: list[ChickenView]
    chicken_lines: list[ChickenLine]
    dispute: DisputeSummary
    settled: bool
    base: int
    event_words: list[str] = field(default_factory=list)

    def context(self) -> dict[str, Any]:
        """The template variables (the names the templates have always used)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__} | {
            "marked": self.marked(), "unlisted": self.unlisted()}

    def marked(self) -> dict[str, list[DifferingPayment]]:
        """The differing payments by the anchor of their ledger row: the rows the page marks, as PDF
        page 1 lists them (issue 33.3), with each reading's amount where the record gives only totals."""
        out: dict[str, list[DifferingPayment]] = {}
        for payment in self.differing if self.settled else ():  # no settlement: claims are not differences
            out.setdefault(payment.anchor, []).append(payment)
        return out

    def unlisted(self) -> list[DifferingPayment]:
        """Differing payments with no ledger row (a payment a reading says the record made and the
        rules do not): the page adds a row for each, so the finding's link lands on it."""
        rows = {row.anchor for row in self.ledger}
        seen: set[str] = set()
        out = []
        for payment in self.differing if self.settled else ():
            if payment.anchor not in rows and payment.anchor not in seen:
                seen.add(payment.anchor)
                out.append(payment)
        return out


def _base(document: Any) -> int:
    base = document.get("base") if isinstance(document, dict) else None
    return base if isinstance(base, int) and not isinstance(base, bool) and base > 0 else 1


def build_report(document: Any, audit: Mapping[str, Any] | None, trace: Trace | None, lang: Lang | str,
                 event_words: Sequence[str] = ()) -> ReportModel:
    """The report of a record from its document, its stored audit (the verdict and ledger shown are
    the stored ones) and the engine's trace (the steps; None when the engine could not replay)."""
    audit = audit or {}
    settlement = audit.get("settlement") or {}
    result = record_result(document)
    claimed_items = result.get("items") if isinstance(result.get("items"), list) else None
    steps = trace.steps if trace is not None else []
    base = _base(document)
    rows = ledger(settlement.get("items"), claimed_items, base, lang, seat_names(document)) \
        if settlement or claimed_items else []
    chickens = trace.chickens if trace is not None else []
    return ReportModel(
        trace, steps, discard_slots(steps), key_steps(steps), result, rows, claimed_items is not None,
        differing_payments(rows, audit.get("findings") or [], claimed_items is not None, due_steps_by_finding(trace)),
        seat_totals(settlement.get("scores"), result.get("scores")),
        Compared("next_dealer", settlement.get("next_dealer"), result.get("next_dealer")),
        Compared("flip", settlement.get("flip"), result.get("flip")),
        chickens, chicken_lines(chickens, lang), dispute_summary(audit, trace, document, lang), bool(settlement), base,
        list(event_words))


__all__ = ["ChickenLine", "Compared", "DifferingPayment", "LedgerRow", "ReportModel", "build_report",
           "chicken_lines", "differing_payments", "key_steps", "ledger", "record_result", "seat_totals",
           "whatif_side", "working"]
