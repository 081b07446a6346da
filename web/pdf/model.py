"""A record's PDF as finished data (issue 35.2): every word in the chosen language, every drawing
registered, every row ready, before a template runs; `templates/pdf/` only lays it out.

Built from plain inputs (`pdf_report`): the report model (`report.model.ReportModel`), the
record's detail, the evidence block, the language and what the engine installed now finds. The
words come from one dictionary of the language (`web.i18n.dictionary`), the rules' names and
texts from the rulebook, the seats' names from the catalogue; the tables of the key steps are
drawn in one call (`web.drawings.step_pictures`), the chickens' tiles in another. So a PDF
enters the word and drawing helpers the same number of times whatever the hand's length
(tests/web/test_report_calls.py)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from audit.vocabulary import CODES, Lang, Marker, StepView, render_value, rule_text, seat_label, zh_name
from audit.vocabulary import label as rule_label
from report import dispute
from report.model import DifferingPayment, ReportModel
from web import clock
from web.drawings import embedded_hands, step_pictures
from web.i18n import HTML_LANG, dictionary
from web.labels import MARKER_TERMS, profile_title
from web.pdf.contents import Evidence, drawn_steps, finding_steps, segments

VERDICTS = frozenset({"invalid", "illegal", "missettled", "clean"})
"""Verdicts with a word of their own (macros.html `verdict_label`)."""
ITEM_KINDS = frozenset({"hand", "dealer", "dou", "chicken", "hot_shot", "draw_settle", "follow_dealer", "schema",
                        "illegal", "missettled"})
"""Payment kinds (and finding kinds) with a word of their own (macros.html `kind_label`)."""
VERBS: dict[tuple[str, str | None], str] = {
    ("draw", None): "draws", ("discard", None): "discards", ("declare", None): "declares ready",
    ("pong", None): "pongs", ("kong", "concealed"): "concealed kong", ("kong", "added"): "added kong",
    ("kong", "exposed"): "exposed kong", ("kong", None): "kong", ("win", "self_draw"): "wins by self-draw",
    ("win", "discard"): "wins on the discard", ("win", "rob"): "robs the kong", ("win", None): "wins",
    ("pass", None): "passes",
}
"""An event's verb by (type, kind): the message ids of report/step_macros.html `verb`."""


class Words:
    """The words of one language: message ids looked up in the language's dictionary (fetched
    once) and their %(name)s parameters filled in; seats, tiles, rules and markers named."""

    def __init__(self, lang: Lang, seats: Sequence[Any] = ()) -> None:
        self.lang = lang
        self.table = dictionary(lang)
        self.names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats or ()]

    def __call__(self, message: str, **params: object) -> str:
        text = self.table.get(message, message)
        return text % params if params else text

    def seat(self, seat: Any) -> str:
        """A seat as every page names it (`2号位 小红`), `–` for none."""
        return "–" if seat is None else seat_label(seat, self.lang, self.names)

    def tile(self, code: object) -> str:
        """A tile by its Chinese name on a Chinese page, by its code on an English one."""
        if not isinstance(code, str) or code not in CODES:
            return str(code)
        return zh_name(code) if self.lang is Lang.ZH else code

    def verdict(self, verdict: str | None) -> str:
        """A verdict in words (`not audited` for none)."""
        if verdict is None or verdict == "unaudited":
            return self("not audited")
        return self(verdict) if verdict in VERDICTS else verdict

    def kind(self, kind: str) -> str:
        """A payment kind in words."""
        return self(kind) if kind in ITEM_KINDS else kind

    def step(self, index: int | None) -> str:
        """`第 N 步` / `step N`, `–` for none."""
        return "–" if index is None else self("step %(step)s", step=index)

    def event(self, step: StepView) -> str:
        """A step's event as words: `2号位 小红 打出 七万` (the deal: `发牌`)."""
        event = step.event if isinstance(step.event, dict) else None
        if not event:
            return self("the deal")
        kind, sub = str(event.get("type")), event.get("kind")
        verb = VERBS.get((kind, sub if isinstance(sub, str) else None)) or VERBS.get((kind, None))
        text = f"{self.seat(event.get('seat'))} {self(verb) if verb else kind}"
        return f"{text} {self.tile(event['tile'])}" if event.get("tile") else text

    def marker(self, marker: Marker) -> str:
        """A step marker in words: its term (glossed on an English page), seat, tile and rule."""
        term, gloss = MARKER_TERMS[marker.kind.value]
        text = term if self.lang is Lang.ZH else f"{term} ({gloss})"
        if marker.seat is not None:
            text += f" {self.seat(marker.seat)}"
        if marker.tile:
            text += f" {self.tile(marker.tile)}"
        return f"{text} {marker.rule}" if marker.rule else text

    def line(self, step: StepView) -> str:
        """A step as one line of the hand: its number, event, the wall left and its markers."""
        head = f"{self.step(step.index)} " if step.index >= 0 else ""
        tail = "".join(f" · {self.marker(item)}" for item in step.markers)
        return f"{head}{self.event(step)} · {self('Wall')} {step.wall_left}{tail}"

    def reading(self, reading: str | None) -> str:
        """Which reading of a wrong total a row belongs to (`解释一：`); nothing for the only one."""
        return render_value("reading", reading, self.lang) if reading and reading != "only" else ""


@dataclass(frozen=True)
class EventLine:
    """One step written as text: its words and the finding kind that flags it ("" if none)."""

    text: str
    flagged: str


@dataclass(frozen=True)
class DifferingRow:
    """A payment on which the record and the rules part, in words (PDF page 1, the case sheet)."""

    kind: str
    payer: str
    payee: str
    rule: str
    computed: int
    claimed: int
    difference: int
    step: str


@dataclass(frozen=True)
class DifferingTable:
    """The payments that differ, with their column heading and whether they are inferred (R16.16)."""

    rows: tuple[DifferingRow, ...]
    inferred: bool
    heading: str


@dataclass(frozen=True)
class FindingText:
    """A finding on page 1: its sentence and where it points, in words."""

    kind: str
    sentence: str
    step: str | None
    ledger: bool
    related: tuple[str, ...]


@dataclass(frozen=True)
class RuleLine:
    """A rule named on a drawn finding step: `Step N · 名称 R8.3`, and the rule's text."""

    step: str
    label: str
    text: Any


@dataclass(frozen=True)
class DrawnFinding:
    """A finding's step drawn large on page 1: its rule lines, captions and tables."""

    rules: tuple[RuleLine, ...]
    expectation: str | None
    pictures: tuple[tuple[str, Markup], ...]


@dataclass(frozen=True)
class LedgerLine:
    """A row of the settlement, in words."""

    kind: str
    rules: str
    payer: str
    payee: str
    computed: Any
    claimed: Any
    difference: int | None
    note: str
    claimed_note: str | None


@dataclass(frozen=True)
class ChickenRow:
    """A seat's chickens: its tiles drawn, value, whether they count and why."""

    seat: str
    tiles: Markup | None
    value: int
    qualifies: str
    note: str


@dataclass(frozen=True)
class KeyStep:
    """A step the hand draws as a whole table, with the events since the one before."""

    before: tuple[EventLine, ...]
    line: EventLine
    findings: tuple[tuple[str, str], ...]
    picture: Markup


@dataclass(frozen=True)
class PdfReport:
    """Everything templates/pdf/ shows of one record, finished."""

    words: Mapping[str, str]
    html_lang: str
    title: str
    verdict: str
    verdict_label: str
    facts: dict[str, str]
    players: str
    evidence: Evidence
    evidence_words: dict[str, str | None]
    dispute: dispute.DisputeSummary
    totals: tuple[tuple[str, Any, Any, Any, bool, str | None], ...]
    show_undo: bool
    differing: DifferingTable
    findings: tuple[FindingText, ...]
    drawn: tuple[DrawnFinding, ...]
    engine_note: str | None
    has_claimed_items: bool
    ledger: tuple[LedgerLine, ...]
    next_dealer: tuple[str, str, str, str]
    next_dealer_differs: bool
    flip: tuple[str, str, str]
    flip_differs: bool
    chickens: tuple[ChickenRow, ...]
    hand: tuple[KeyStep, ...]


def _line(step: StepView, words: Words) -> EventLine:
    """A step of the hand as its line and the kind of its first finding."""
    return EventLine(words.line(step), str(step.findings[0].get("kind") or "") if step.findings else "")


def differing_table(payments: Sequence[DifferingPayment], words: Words) -> DifferingTable:
    """The payments that differ as rows of words."""
    rows = tuple(DifferingRow(words.reading(p.reading) + words.kind(p.kind), words.seat(p.payer), words.seat(p.payee),
                              rule_label(p.rule) if p.rule else "–", p.computed, p.claimed, p.difference,
                              words.step(p.step))
                 for p in payments)
    return DifferingTable(rows, bool(payments) and payments[0].inferred, dispute.difference_heading(words.lang))


def _pictures(model: ReportModel, record: Mapping[str, Any], words: Words,
              wanted: Sequence[StepView]) -> dict[int, Markup]:
    """The tables of the steps the PDF draws, by the step view's identity (an illegal move's
    `after` is not the trace's view of its step), each drawn once, all in one call."""
    unique = list({id(step): step for step in wanted}.values())
    drawn = step_pictures(unique, record.get("dealer"), model.slots, words("D"), seats=record.get("seats") or ())
    return {id(step): picture for step, picture in zip(unique, drawn)}


def _drawn_findings(model: ReportModel, words: Words, pictures: Mapping[int, Markup],
                    found: Sequence[tuple[StepView | None, StepView]]) -> tuple[DrawnFinding, ...]:
    """Page 1's drawn steps: the illegal move before and after, else each finding's step, else
    the table as the hand ended."""
    illegal = model.dispute.illegal
    if illegal is not None:
        rule = RuleLine(words("Step %(step)s", step=illegal.step), rule_label(illegal.rule),
                        rule_text(illegal.rule, words.lang))
        return (DrawnFinding((rule,), illegal.expectation, (
            (illegal.before_label, pictures[id(illegal.before)]),
            (f"{illegal.after_label}: {words.event(illegal.after)}", pictures[id(illegal.after)]))),)
    if found:
        return tuple(DrawnFinding(tuple(RuleLine(words("Step %(step)s", step=at.index), rule_label(f.get("rule")),
                                                 rule_text(f.get("rule"), words.lang)) for f in at.findings),
                                  None, ((words("Step %(step)s: %(event)s", step=at.index, event=words.event(at)),
                                          pictures[id(at)]),))
                     for _before, at in found)
    if model.steps and model.dispute.findings:
        last = model.steps[-1]
        caption = words("The table as the hand ended (step %(step)s: %(event)s)", step=last.index,
                        event=words.event(last))
        return (DrawnFinding((), None, ((caption, pictures[id(last)]),)),)
    return ()


def _ledger(model: ReportModel, words: Words) -> tuple[LedgerLine, ...]:
    """The settlement's rows in words."""
    claimed_words = words("In the record")
    return tuple(LedgerLine(
        words.kind(row.kind), ", ".join(rule_label(code) for code in row.rules) or "–",
        words.seat(row.payer), words.seat(row.payee), row.computed if row.computed is not None else "–",
        row.claimed, row.difference, "；".join(row.workings) if row.workings else "；".join(row.notes),
        f"{claimed_words}: {'；'.join(row.claimed_notes)}"
        if row.claimed_notes and (row.only_claimed or row.difference) else None)
        for row in model.ledger)


def _flip(model: ReportModel, words: Words) -> tuple[str, str, str]:
    """The flip row: the rule, what the rules find, what the record says."""
    flip = model.flip
    if not model.settled:
        computed = "–"
    else:
        computed = words.tile(flip.computed) if flip.computed else words("none")
    if "flip" in model.claimed:
        claimed = words.tile(flip.claimed) if flip.claimed else words("none")
    else:
        claimed = words("not given")
    return rule_label("R11.5"), computed, claimed


def _findings(model: ReportModel, words: Words) -> tuple[FindingText, ...]:
    """Page 1's findings as sentences with the steps they point to."""
    return tuple(FindingText(line.kind, line.sentence,
                             f"→ {words.step(line.step)}" if line.step is not None else None, bool(line.ledger_anchor),
                             tuple(words.step(other) for other in line.related_steps))
                 for line in model.dispute.findings)


def pdf_report(model: ReportModel, record: Mapping[str, Any], evidence: Evidence, lang: Lang,
               trace_verdict: str | None) -> PdfReport:
    """The PDF of a record, finished: from its report model, its detail (`web.views.record_detail`),
    its evidence block, the language and the verdict the engine installed now gives."""
    words = Words(lang, record.get("seats") or ())
    audit = record.get("audit") or {}
    drawn = drawn_steps(model.steps, model.key_steps)
    parts = segments(model.steps, drawn)
    found = finding_steps(model.steps, audit.get("findings") or [])
    illegal = model.dispute.illegal
    wanted = [key for _before, key in parts] + [at for _before, at in found] + model.steps[-1:] + (
        [illegal.before, illegal.after] if illegal is not None else [])
    pictures = _pictures(model, record, words, wanted)
    chicken_tiles = embedded_hands([line.view.tiles for line in model.chicken_lines])
    titles = [profile_title(name, lang) for name in (record.get("profile"), audit.get("profile") or record.get("profile"))]
    game = f"{record['game_id']} r{record['revision']}"
    match = words("Match hand %(index)s", index=(record.get("match_index") or 0) + 1) \
        if record.get("match_id") else None
    seats = record.get("seats") or ()
    return PdfReport(
        words=words.table, html_lang=HTML_LANG[lang.value], title=f"{words('Audit report')} · {game}",
        verdict=str(record.get("verdict")), verdict_label=words.verdict(record.get("verdict")),
        facts={"game": f"{game} · {match}" if match else game,
               "platform": f"{record.get('platform') or '–'} · {record.get('client') or '–'}",
               "profile": titles[0] + (f" → {titles[1]}" if audit.get("profile") and audit.get("profile") !=
                                       record.get("profile") else ""),
               "dealer": f"{words.seat(record.get('dealer'))} · {words('Dealer streak')} {record.get('dealer_streak')}",
               "base": str(record.get("base"))},
        players=" · ".join(words.seat(seat["seat"]) + (f" ({seat['player_id']})" if seat.get("player_id") else "")
                           + (f" {words('D')}" if seat["seat"] == record.get("dealer") else "") for seat in seats),
        evidence=evidence,
        evidence_words={"audit": words("no. %(id)s", id=evidence.audit_id) if evidence.audit_id else None,
                        "zone": words("%(zone)s, every time in this document", zone=clock.zone_label()),
                        "decision": words("Decision: %(decision)s",
                                          decision=words(evidence.decision) if evidence.decision else "–")},
        dispute=model.dispute,
        totals=tuple((words.seat(s.seat), s.computed, s.claimed, s.difference, s.differs, s.undo)
                     for s in model.dispute.seats),
        show_undo=bool(model.dispute.seats and model.dispute.seats[0].undo),
        differing=differing_table(model.differing, words), findings=_findings(model, words),
        drawn=_drawn_findings(model, words, pictures, found),
        engine_note=words("The steps below are replayed by the engine installed now, which finds this record "
                          "%(verdict)s; re-audit to store its opinion.", verdict=words(trace_verdict))
        if trace_verdict and audit and trace_verdict != audit.get("verdict") else None,
        has_claimed_items=model.has_claimed_items, ledger=_ledger(model, words),
        next_dealer=(rule_label("R14"), words.seat(model.next_dealer.computed) if model.settled else "–",
                     words.seat(model.next_dealer.claimed), words.seat(model.next_dealer.claimed)
                     if model.next_dealer.claimed is not None else ""),
        next_dealer_differs=model.next_dealer.differs, flip=_flip(model, words), flip_differs=model.flip.differs,
        chickens=tuple(ChickenRow(words.seat(line.view.seat), tiles if line.view.tiles else None, line.view.value,
                                  f"{words('yes') if line.view.qualifies else words('no')} · {line.reason}",
                                  line.view.note)
                       for line, tiles in zip(model.chicken_lines, chicken_tiles)),
        hand=tuple(KeyStep(tuple(_line(step, words) for step in before), _line(key, words),
                           tuple((str(f.get("kind") or ""), str(f.get("message") or "")) for f in key.findings), pictures[id(key)])
                   for before, key in parts))


__all__ = ["DifferingTable", "PdfReport", "Words", "differing_table", "pdf_report"]
