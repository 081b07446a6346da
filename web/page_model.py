"""A record's page as finished data (issue 35.2): every word in the page's language, every drawing
and every row of the step-by-step report made before a template runs; `templates/report/` only
lays it out, as the PDF's templates lay out `web.pdf.model`.

Built from plain inputs (`page_report`): the report model (`report.model.ReportModel`), the
table view (`report.table.TableView`, None without one), the record's detail, the language and
the match's hands. The words come from one dictionary of the language (`web.pdf.model.Words`),
the rules' names and texts from the rulebook; every step's table is drawn in one call
(`web.drawings.step_tables`), the table view's panels and tiles in another
(`web.table_html.table_drawings`), the small rows of tiles by `audit.render` itself. So a page
enters the word and drawing helpers the same number of times whatever the hand's length
(tests/web/test_report_calls.py); what the page shows beside the report (the page's frame, the
cases, notes, revisions, audits and uploads of the record) stays with its templates.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from audit.vocabulary import BlockKind, Marker, Span, SpanStyle, StepView, hand_svg, render_value, rule_text, term_label, tile_svg
from audit.vocabulary import label as rule_label
from report import dispute
from report.model import DifferingPayment, LedgerRow, ReportModel
from report.table import TableView
from web.drawings import step_tables
from web.labels import MARKER_TERMS
from web.pdf.model import VERBS, Words
from web.table_html import TableDrawings, panel_words, table_drawings


@dataclass(frozen=True)
class StepRow:
    """One step of the step list, finished: its anchor, number, event, table, markers, findings."""

    position: int
    index: int
    anchor: str
    """`step-N`, `step-deal` for the deal."""
    number: str
    """The step's number, the word for the deal."""
    event: Markup
    table: Markup
    wall: int
    markers: Markup
    findings: Markup | None
    """The finding row's contents (each finding with its rule quoted), None for a step without."""
    flagged: str
    """The kind of the step's first finding, "" when none."""
    before: bool
    """Whether the row shows the table before an illegal move (the replay did not make it)."""
    key: bool
    words: str
    """The event in words, for the event list."""


@dataclass(frozen=True)
class FindingLine:
    """A finding of the dispute summary: its sentence and the words of its links."""

    kind: str
    code: str
    sentence: str
    step_anchor: str | None
    step: str
    related: tuple[tuple[int, str], ...]
    """Other steps it names: (step, `step N`)."""
    ledger_anchor: str | None
    hands: tuple[tuple[int, str], ...]
    """For a match's finding, the hand it names: (record id, `第N局`)."""


@dataclass(frozen=True)
class IllegalMove:
    """The illegal move drawn before and after, in words."""

    heading: str
    move: Markup
    expectation: str | None
    expected_tiles: Markup | None
    actual_tiles: Markup | None
    before_label: str
    before: Markup
    after_label: str
    after: Markup
    rule: Markup


@dataclass(frozen=True)
class TotalLine:
    """A seat's row of the totals (and of the dispute summary's scores)."""

    anchor: Any
    seat: str
    computed: int | None
    claimed: int | None
    difference: int | None
    differs: bool
    undo: str | None = None


@dataclass(frozen=True)
class LedgerLine:
    """A row of the ledger, in words: a payment the rules make, or one only a reading of the
    record's totals finds (`unlisted`)."""

    anchor: str
    differs: bool
    only_claimed: bool
    unlisted: bool
    kind: str
    rules: str
    payer: str
    payee: str
    computed: Any
    claimed: Any
    difference: int | None
    working: Markup


@dataclass(frozen=True)
class ChickenLine:
    """A seat's chickens: tiles drawn, value, why they count or not (its waits drawn), the working."""

    reason_code: str
    seat: str
    tiles: Markup | None
    value: int
    reason: str
    waits: Markup | None
    note: str


@dataclass(frozen=True)
class FlipCell:
    """A side of the flip: the tile drawn and named, or a word (`none`, `not given`)."""

    tile: Markup | None
    name: str


@dataclass(frozen=True)
class Winner:
    """A winner on the win screen: the seat, the tile, how it won, and the hand drawn."""

    seat: str
    tile: str
    how: str
    drawn: Markup
    workings: tuple[str, ...]


@dataclass(frozen=True)
class TablePage:
    """The table view's words and drawings (templates/report/table.html)."""

    drawn: TableDrawings
    winners: tuple[Winner, ...]
    score_seats: tuple[str, ...]
    """The win screen's seats, in its scores' order."""
    win_chickens: tuple[tuple[str, Markup, int, str], ...]
    step_findings: Mapping[int, Markup]
    """A step's findings in words, by the step's position (only steps that have any)."""


@dataclass(frozen=True)
class PageReport:
    """Everything the step-by-step body of a record's page shows, finished."""

    words: Words
    """The page's words: its templates' `_` (a fixed word looked up in the language's dictionary)."""
    difference_heading: str
    """The heading of every difference column (`差额 = 记录 − 审计`)."""
    seats: tuple[str, ...]
    """Each seat as the page names it (`2号位 小红`)."""
    dealer: str
    match_hands: tuple[str, ...]
    """Each hand of the record's match as the page names it (`第2局`), in the match's order."""
    findings: tuple[FindingLine, ...]
    dispute_seats: tuple[TotalLine, ...]
    quoted: tuple[Markup, ...]
    """The rules the findings break, quoted (an illegal move's is quoted under its drawing)."""
    illegal: IllegalMove | None
    steps: tuple[StepRow, ...]
    totals: tuple[TotalLine, ...]
    next_dealer: tuple[str, str, str]
    """The next dealer: computed, claimed, and the rule when they differ."""
    flip: tuple[FlipCell, FlipCell, str]
    """The flip in the ledger's totals: computed, claimed, and the rule when they differ."""
    chicken_flip: tuple[FlipCell, FlipCell]
    """The flip in the chickens' section, drawn larger."""
    ledger: tuple[LedgerLine, ...]
    chickens: tuple[ChickenLine, ...]
    table: TablePage | None


class Pen:
    """Small rows of tiles for a page with the tile sprite (`audit.render`, as `web.drawings.hand`)."""

    @staticmethod
    def hand(codes: Sequence[str], width: float) -> Markup:
        return Markup(hand_svg(list(codes), width=width, sprite=True))

    @staticmethod
    def tile(code: str, width: float, highlight: bool = False) -> Markup:
        return Markup(tile_svg(code, width=width, highlight=highlight))


class RuleQuotes:
    """Rules quoted in the page's language as blocks of styled spans (never markdown), each
    written once per page; a parameter the rulebook names in code is given in words beside it."""

    def __init__(self, words: Words) -> None:
        self.words = words
        self.done: dict[str | None, Markup] = {}

    def __call__(self, code: str | None) -> Markup:
        if code not in self.done:
            self.done[code] = self._quote(code)
        return self.done[code]

    def _spans(self, spans: Sequence[Span]) -> Markup:
        out = []
        for span in spans:
            if span.style is SpanStyle.STRONG:
                out.append(Markup("<strong>{}</strong>").format(span.text))
            elif span.style is SpanStyle.CODE:
                term = term_label(span.text, self.words.lang)
                out.append(Markup('<span class="term" title="{}">{}</span>').format(span.text, term) if term
                           else Markup("<code>{}</code>").format(span.text))
            else:
                out.append(escape(span.text))
        return Markup("").join(out)

    def _quote(self, code: str | None) -> Markup:
        rule = rule_text(code, self.words.lang)
        if not rule:
            return Markup("")
        lang = "zh-CN" if rule.lang.value == "zh" else "en"
        # the blockquote keeps its line breaks (`white-space: pre-line`, static/report.css): the
        # breaks before its first paragraph and after its last are part of how it looks
        parts = [Markup('<blockquote class="rule-text" lang="{}">\n  <p class="rule-source">{} {} · {}</p>').format(
            lang, self.words("Rulebook"), rule.code, rule.title)]
        rows = [block for block in rule.blocks if block.kind is BlockKind.TABLE_ROW]
        for block in rule.blocks:
            if block.kind is BlockKind.ITEM:
                parts.append(Markup('<p class="rule-item depth-{}">• {}</p>').format(block.depth, self._spans(block.spans)))
            elif block.kind is not BlockKind.TABLE_ROW:
                parts.append(Markup('<p class="depth-{}">{}</p>').format(block.depth, self._spans(block.spans)))
        if rows:
            cells = (Markup("<tr>{}</tr>").format(Markup("").join(Markup("<td>{}</td>").format(self._spans([span]))
                                                                 for span in block.spans)) for block in rows)
            parts.append(Markup('<table class="rule-table">{}</table>').format(Markup("").join(cells)))
        parts.append(Markup("\n</blockquote>"))
        return Markup("").join(parts)


class PageWords(Words):
    """The words of a page: `web.pdf.model.Words` and what only the page shows with drawings
    (an event with its tile, a marker chip, a finding with its rule quoted)."""

    def __init__(self, lang: Any, seats: Sequence[Any] = ()) -> None:
        super().__init__(lang, seats)
        self.quote = RuleQuotes(self)
        policies = current_app.jinja_env.policies
        self._dumps = policies["json.dumps_function"], policies["json.dumps_kwargs"]

    def json(self, value: Any) -> Markup:
        """A value as the templates' `tojson` writes it."""
        dumps, kwargs = self._dumps
        return htmlsafe_json_dumps(value, dumps=dumps, **kwargs)

    def verb(self, event: Mapping[str, Any]) -> str:
        """An event's verb (`碰`), its type when it has none of its own."""
        kind, sub = event.get("type"), event.get("kind")
        verb = VERBS.get((str(kind), sub if isinstance(sub, str) else None)) or VERBS.get((str(kind), None))
        return self(verb) if verb else str(kind)

    def event_html(self, event: Mapping[str, Any] | None) -> Markup:
        """An event as the step list shows it: the seat, the verb, the tile drawn and named, from whom."""
        if event is None:
            return escape(self("the deal"))
        out = Markup('<span class="actor">{}</span> <span class="verb">{}</span>').format(
            self.seat(event.get("seat")), self.verb(event))
        if event.get("tile"):
            out += Markup(' {} <span class="tile-name">{}</span>').format(Pen.hand([event["tile"]], 16),
                                                                         self.tile(event["tile"]))
        if event.get("from") is not None:
            out += Markup(" <small>{} {}</small>").format(self("from"), self.seat(event.get("from")))
        return out

    def chip(self, marker: Marker) -> Markup:
        """A step marker as a chip: its term (glossed on an English page), the seat, the tile, the rule."""
        term, gloss = MARKER_TERMS[marker.kind.value]
        out = Markup('<span class="marker marker-{}">{}').format(marker.kind.value,
                                                                   term if self.lang.value == "zh" else f"{term} ({gloss})")
        if marker.seat is not None:
            out += Markup(" {}").format(self.seat(marker.seat))
        if marker.tile:
            out += Markup(" {}").format(Pen.hand([marker.tile], 14))
        if marker.rule:
            out += Markup(' <small class="rule-code">{}</small>').format(marker.rule)
        return out + Markup("</span>")

    def value(self, value: Any) -> Markup:
        """A finding's expected or actual value: a tile by its name, anything else as JSON."""
        if isinstance(value, str) and self.tile(value) != value:
            return escape(self.tile(value))
        if value is None:
            return Markup("–")
        return escape(value) if isinstance(value, str) else self.json(value)

    def finding(self, finding: Mapping[str, Any]) -> Markup:
        """A finding under its step: kind, rule, seat, message, the values, the rule quoted. Its
        line breaks are where the page has always had them: Chromium shapes the text between them
        as runs of their own, so moving one moves a glyph by a fraction of a pixel."""
        kind = str(finding.get("kind"))
        out = Markup('\n<div class="finding finding-{}">\n  <p><span class="kind">{}</span>\n    ').format(kind, self.kind(kind))
        if finding.get("rule"):
            out += Markup('<strong class="rule-name">{}</strong>').format(rule_label(finding["rule"]))
        out += Markup("\n    ")
        if finding.get("seat") is not None:
            out += Markup("· {}").format(self.seat(finding["seat"]))
        out += Markup("\n    · {}\n    ").format(finding.get("message"))
        if finding.get("expected") is not None or finding.get("actual") is not None:
            out += Markup('<span class="values">({} {}, {} {})</span>').format(
                self("Expected"), self.value(finding.get("expected")), self("Actual"), self.value(finding.get("actual")))
        quote = self.quote(finding.get("rule"))
        return out + Markup("</p>\n  {}\n</div>").format(Markup("\n") + quote if quote else quote)


def _anchor(index: int | None) -> str:
    return "step-" + (str(index) if index is not None and index >= 0 else "deal")


def _steps(model: ReportModel, words: PageWords, tables: Mapping[int, Markup]) -> tuple[StepRow, ...]:
    """The step list's rows."""
    illegal_step = model.dispute.illegal.step if model.dispute.illegal else None
    event_words = model.event_words
    rows = []
    for position, step in enumerate(model.steps):
        flagged = str(step.findings[0].get("kind") or "") if step.findings else ""
        findings = Markup("").join(words.finding(f) for f in step.findings) if step.findings else None
        rows.append(StepRow(
            position, step.index, _anchor(step.index), str(step.index) if step.index >= 0 else words("deal"),
            words.event_html(step.event if isinstance(step.event, dict) else None), tables[id(step)], step.wall_left,
            Markup("").join(words.chip(item) + Markup(" ") for item in step.markers), findings, flagged,
            flagged == "illegal" and step.index == illegal_step, step.index in model.key_steps,
            event_words[position] if position < len(event_words) else ""))
    return tuple(rows)


def _findings(model: ReportModel, words: PageWords, match_hands: Sequence[Mapping[str, Any]],
              hand_words: Sequence[str]) -> tuple[FindingLine, ...]:
    """The dispute summary's findings with the words of their links."""
    out = []
    for line in model.dispute.findings:
        hands = tuple((int(hand["id"]), name) for hand, name in zip(match_hands, hand_words)
                      if line.code.startswith("match_") and hand["match_index"] == line.related_hand)
        out.append(FindingLine(line.kind, line.code, line.sentence, line.step_anchor,
                               words("step %(step)s", step=line.step) if line.step_anchor else "",
                               tuple((other, words("step %(step)s", step=other)) for other in line.related_steps),
                               line.ledger_anchor, hands))
    return tuple(out)


def _illegal(model: ReportModel, words: PageWords, tables: Mapping[int, Markup]) -> IllegalMove | None:
    move = model.dispute.illegal
    if move is None:
        return None
    return IllegalMove(
        f"{words('The illegal move')} · {rule_label(move.rule)}",
        Markup("{}: {}").format(words("Step %(step)s", step=move.step), words.event_html(move.after.event)),
        move.expectation, Pen.hand(move.expected_tiles, 22) if move.expected_tiles else None,
        Pen.hand(move.actual_tiles, 22) if move.actual_tiles else None,
        move.before_label, tables[id(move.before)], move.after_label, tables[id(move.after)], words.quote(move.rule))


def _reading_mark(payment: DifferingPayment, words: PageWords) -> Markup:
    reading = render_value("reading", payment.reading, words.lang) if payment.reading else ""
    return Markup('<span class="work-line reading-mark">{}{}</span>').format(
        reading, words("the record's totals fit %(amount)s here", amount=payment.claimed))


def _ledger_line(row: LedgerRow, model: ReportModel, words: PageWords, marked: Mapping[str, list[DifferingPayment]]) -> LedgerLine:
    differs = bool(model.settled and row.difference)
    readings = marked.get(row.anchor, [])
    working = Markup("").join(Markup('<span class="work-line">{}</span>').format(text) for text in row.workings)
    if row.only_claimed:
        working += Markup("").join(Markup('<span class="work-line record-note">{}</span>').format(
            dispute.text("record_note", words.lang, note=note)) for note in row.claimed_notes)
    working += Markup("").join(_reading_mark(payment, words) for payment in readings if payment.inferred)
    return LedgerLine(row.anchor, differs or bool(readings), row.only_claimed, False, words.kind(row.kind),
                      ", ".join(rule_label(code) for code in row.rules) or "–", words.seat(row.payer),
                      words.seat(row.payee), row.computed if row.computed is not None else "–", row.claimed,
                      row.difference if differs else None, working)


def _ledger(model: ReportModel, words: PageWords) -> tuple[LedgerLine, ...]:
    """The ledger's rows, then a row for each differing payment no row holds."""
    marked = model.marked()
    rows = [_ledger_line(row, model, words, marked) for row in model.ledger]
    rows += [LedgerLine(p.anchor, True, False, True, words.kind(p.kind), rule_label(p.rule) if p.rule else "–",
                        words.seat(p.payer), words.seat(p.payee), p.computed, p.claimed, p.difference,
                        _reading_mark(p, words))
             for p in model.unlisted()]
    return tuple(rows)


def _flip(model: ReportModel, words: PageWords, large: bool) -> tuple[FlipCell, FlipCell]:
    """The flip computed and claimed: in the totals a row of one tile, in the chickens' section one
    tile drawn larger, the claimed one outlined when they differ."""
    flip = model.flip

    def cell(code: str | None, highlight: bool = False) -> FlipCell:
        if not code:
            return FlipCell(None, words("none"))
        return FlipCell(Pen.tile(code, 26, highlight) if large else Pen.hand([code], 18), words.tile(code))

    claimed = cell(flip.claimed, bool(flip.differs)) if "flip" in model.claimed else FlipCell(None, words("not given"))
    return cell(flip.computed), claimed


def _chickens(model: ReportModel, words: PageWords) -> tuple[ChickenLine, ...]:
    waiting = dispute.text("waits", words.lang)
    return tuple(ChickenLine(
        line.view.reason, words.seat(line.view.seat), Pen.hand(line.view.tiles, 20) if line.view.tiles else None,
        line.view.value, line.reason,
        Markup('<span class="waits">{} {}</span>').format(waiting, Pen.hand(line.view.waits, 18)) if line.view.waits else None,
        line.view.note)
        for line in model.chicken_lines)


def _table(view: TableView | None, words: PageWords) -> TablePage | None:
    """The table view's drawings (one call) and words."""
    if view is None:
        return None
    labels = [words.seat(seat) for seat in range(view.seats)]
    drawn = table_drawings(view, panel_words(labels))
    winners = []
    for winner, hand in zip(view.win.winners if view.win else (), drawn.winners):
        if winner.kind == "self_draw":
            how = f" · {words('wins by self-draw')}"
        elif winner.kind == "rob":
            how = f" · {words('robs the kong')} · {words.seat(winner.from_seat)}"
        else:
            how = f" · {words('wins on the discard')} · {words('discarded by')} {words.seat(winner.from_seat)}"
        winners.append(Winner(words.seat(winner.seat), f"{words('wins on')} {words.tile(winner.tile)}", how, hand,
                              winner.workings))
    before = words("The table before this move: the rules refuse it, so the replay did not make it.")
    findings = {}
    for step in view.steps:
        if step.findings:
            findings[step.position] = Markup("").join(
                Markup('<p class="finding-{}">{}{}</p>').format(
                    f.get("kind"), f.get("message"),
                    Markup(" <small>{}</small>").format(before) if f.get("kind") == "illegal" and f.get("step") == step.index
                    else "")
                for f in step.findings)
    win = view.win
    return TablePage(drawn, tuple(winners), tuple(words.seat(score.seat) for score in (win.scores if win else ())),
                     tuple((words.seat(seat), tiles, value, reason)
                           for (seat, _codes, value, reason), tiles in zip(win.chickens if win else (), drawn.win_chickens)),
                     findings)


def page_report(model: ReportModel, view: TableView | None, record: Mapping[str, Any], lang: Any,
                match_hands: Sequence[Mapping[str, Any]] = ()) -> PageReport:
    """The page of a record, finished: from its report model, its table view, its detail
    (`web.views.record_detail`), the language and the hands of its match."""
    seats = record.get("seats") or ()
    words = PageWords(lang, seats)
    illegal = model.dispute.illegal
    wanted = list(model.steps) + ([illegal.before, illegal.after] if illegal is not None else [])
    unique = list({id(step): step for step in wanted}.values())
    tables = dict(zip((id(step) for step in unique),
                      step_tables(unique, record.get("dealer"), model.slots, words("D"), seats=seats)))
    hand_words = tuple(dispute.text("match_hand", lang, index=hand["match_index"], number=hand["match_index"] + 1)
                       for hand in match_hands)
    count = max(len(seats), len(model.steps[0].seats) if model.steps else 0)
    quoted = tuple(dict.fromkeys(line.rule for line in model.dispute.findings if line.kind != "illegal" and line.rule))
    next_dealer = model.next_dealer
    return PageReport(
        words=words, difference_heading=dispute.difference_heading(lang), seats=tuple(words.seat(seat) for seat in range(count)), dealer=words.seat(record.get("dealer")),
        match_hands=hand_words, findings=_findings(model, words, match_hands, hand_words),
        dispute_seats=tuple(TotalLine(line.seat, words.seat(line.seat), line.computed, line.claimed, line.difference,
                                      line.differs, line.undo) for line in model.dispute.seats),
        quoted=tuple(words.quote(code) for code in quoted), illegal=_illegal(model, words, tables),
        steps=_steps(model, words, tables),
        totals=tuple(TotalLine(row.label, words.seat(row.label), row.computed, row.claimed, row.difference, row.differs)
                     for row in model.totals),
        next_dealer=(words.seat(next_dealer.computed), words.seat(next_dealer.claimed),
                     rule_label("R14") if next_dealer.differs else ""),
        flip=(*_flip(model, words, False), rule_label("R11.5") if model.flip.differs else ""),
        chicken_flip=_flip(model, words, True), ledger=_ledger(model, words), chickens=_chickens(model, words),
        table=_table(view, words))


__all__ = ["PageReport", "PageWords", "StepRow", "page_report"]
