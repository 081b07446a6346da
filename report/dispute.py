"""The dispute summary: what a player who disputes a payment reads first, as typed data.

A report (the HTML page, the PDF) shows the verdict, each seat's computed and
claimed score with the difference's direction written out (record − audit),
each finding as one sentence with the anchors of its step and of its ledger
row, and for an illegal move the table before and after the move with what
the rules expected; when the replay stopped early, which events were never
judged. Everything is built from the audit object (record-format.md), the
step views of `audit.trace` and the record itself, in one language; the
sentences come from the catalogue (`audit/catalogue/findings.toml` for the
findings, `audit/catalogue/dispute.toml` for the summary's own words). No
engine state, no Flask: the PDF and the page read the same summary.
"""
from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Formatter
from typing import Any, Final

from audit.vocabulary import (CATALOGUE_DIR, CODES, CatalogueError, EventType, Lang, MeldKind, MeldView,
                              SeatView, StepView, Trace, render_finding, render_value, seat_label, seat_names)

TEXTS_FILE: Final = CATALOGUE_DIR / "dispute.toml"


def _load_texts(path: Path) -> dict[str, dict[str, str]]:
    """The summary's sentences, checked once: every entry in every language, with the same
    placeholders in each (a missing language or a misspelt name fails at import)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogueError(f"{path.name}: cannot load: {exc}") from None
    out: dict[str, dict[str, str]] = {}
    for code, entry in raw.items():
        if not isinstance(entry, dict) or sorted(entry) != sorted(lang.value for lang in Lang):
            raise CatalogueError(f"dispute.{code}: needs exactly the languages {[lang.value for lang in Lang]}")
        names = {lang: {f for _, f, _, _ in Formatter().parse(text) if f} for lang, text in entry.items()}
        if len({frozenset(n) for n in names.values()}) != 1:
            raise CatalogueError(f"dispute.{code}: the languages use different placeholders {names}")
        out[code] = {str(lang): str(text) for lang, text in entry.items()}
    return out


TEXTS: Final = _load_texts(TEXTS_FILE)


def text(code: str, lang: Lang | str, **values: Any) -> str:
    """One sentence of the summary in `lang`, its placeholders filled with rendered values."""
    try:
        return TEXTS[code][Lang(lang).value].format(**values)
    except KeyError as exc:
        raise CatalogueError(f"dispute.{code}: no such text or placeholder ({exc})") from None


# ---------------------------------------------------------------- anchors

def step_anchor(index: int | None) -> str:
    """The HTML id of a step's row (`step-3`; the deal is `step-deal`)."""
    return "step-deal" if index is None or index < 0 else f"step-{index}"


def ledger_anchor(kind: Any, payer: Any, payee: Any) -> str:
    """The HTML id of a ledger row: payments compared per (kind, payer, payee)."""
    return f"ledger-{kind}-{'none' if payer is None else payer}-{'none' if payee is None else payee}"


def total_anchor(seat: Any) -> str:
    """The HTML id of a seat's row in the totals."""
    return f"total-{seat}"


FLIP_ANCHOR: Final = "flip"
NEXT_DEALER_ANCHOR: Final = "next-dealer"
TOTALS_ANCHOR: Final = "totals"
SETTLEMENT_ANCHOR: Final = "settlement"

STEP_PARAMS: Final = ("window_step", "lock_step", "burn_step")
"""Params of a finding that name another step involved (the window it failed to use, the pass
that locked the seat, the kong whose payment is burned)."""


# ---------------------------------------------------------------- the one sign

def difference(computed: int, claimed: int) -> int:
    """差额 = 记录 − 审计 (record − audit): the one sign of a difference on every page, PDF and
    answer of the service (issue 23). Positive: the record credits the seat (or the payment) more
    than the rules do; the seat then owes that much back. Every difference shown is this function,
    headed by `difference_heading`, which writes the formula out."""
    return claimed - computed


def difference_heading(lang: Lang | str) -> str:
    """The heading every difference column carries: the word and the formula, `差额 = 记录 − 审计`."""
    return text("difference_heading", lang)


# ---------------------------------------------------------------- the model

@dataclass(frozen=True)
class SeatLine:
    """A seat's net score: computed by the audit, claimed by the record, and the sentence."""

    seat: int
    computed: int | None
    claimed: int | None
    sentence: str
    anchor: str
    undo: str | None = None
    """An illegal hand: what undoing the record means for this seat (`应退回 2`), else None."""

    @property
    def difference(self) -> int | None:
        """`difference` (record − audit); None when a side is missing."""
        if self.computed is None or self.claimed is None:
            return None
        return difference(self.computed, self.claimed)

    @property
    def differs(self) -> bool:
        """Whether the record claims another score than the audit computes."""
        return bool(self.difference)


@dataclass(frozen=True)
class FindingLine:
    """One finding as one sentence, with where a reader checks it: its step's row, its ledger
    (or totals) row, and other steps its params name."""

    kind: str
    rule: str | None
    code: str
    seat: int | None
    step: int | None
    sentence: str
    step_anchor: str | None
    ledger_anchor: str | None
    related_steps: tuple[int, ...]
    expected: Any
    actual: Any
    related_hand: int | None = None
    """For a match continuity finding, the earlier hand (its index in the match) it compares with."""


@dataclass(frozen=True)
class IllegalMove:
    """The illegal move drawn both ways: the table before it (what the engine replayed to) and
    after it as the record has it, with what the rules expected instead."""

    step: int
    code: str
    rule: str | None
    before: StepView
    after: StepView
    before_label: str
    after_label: str
    expectation: str | None
    expected_tiles: tuple[str, ...]
    actual_tiles: tuple[str, ...]


@dataclass(frozen=True)
class LaterEvent:
    """An event after the replay stopped, which nothing judged."""

    index: int
    seat: int | None
    type: str
    tile: str | None
    text: str


@dataclass(frozen=True)
class Stopped:
    """The replay stopped at `step`; `events` (after it) were not judged."""

    step: int
    sentence: str
    events: tuple[LaterEvent, ...]


@dataclass(frozen=True)
class DisputeSummary:
    """What the report shows first: verdict, seats, findings, the illegal move, the stop."""

    lang: Lang
    verdict: str
    verdict_label: str
    headline: str
    direction: str
    settled: bool
    no_settlement: str | None
    seats: tuple[SeatLine, ...]
    findings: tuple[FindingLine, ...]
    illegal: IllegalMove | None
    stopped: Stopped | None

    @property
    def differing_seats(self) -> tuple[SeatLine, ...]:
        """The seats whose claimed score the audit does not confirm."""
        return tuple(s for s in self.seats if s.differs) if self.settled else ()


# ---------------------------------------------------------------- building it

def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _undo(seat: str, theirs: int, lang: Lang, short: bool = False) -> str:
    """What undoing the record means for one seat of an illegal hand (the payments have no basis):
    the sentence, or (`short`) the table cell."""
    head = "undo" if short else "seat_undo"
    if theirs > 0:
        return text(f"{head}_returns", lang, seat=seat, claimed=_signed(theirs), amount=theirs)
    if theirs < 0:
        return text(f"{head}_gets_back", lang, seat=seat, claimed=_signed(theirs), amount=-theirs)
    return text(f"{head}_nothing", lang, seat=seat)


def _seat_lines(computed: Sequence[Any] | None, claimed: Sequence[Any] | None, settled: bool,
                lang: Lang, illegal: bool = False, names: Sequence[str] = ()) -> tuple[SeatLine, ...]:
    count = max(len(computed or ()), len(claimed or ()))
    out = []
    for seat in range(count):
        mine = _int(computed[seat]) if computed is not None and seat < len(computed) else None
        theirs = _int(claimed[seat]) if claimed is not None and seat < len(claimed) else None
        name = seat_label(seat, lang, names)
        if illegal and theirs is not None:
            sentence = _undo(name, theirs, lang)
        elif not settled or mine is None:
            sentence = text("seat_no_settlement", lang, seat=name, claimed=_score(theirs, lang))
        elif theirs is None:
            sentence = text("seat_not_claimed", lang, seat=name, computed=_signed(mine))
        elif theirs == mine:
            sentence = text("seat_agrees", lang, seat=name, computed=_signed(mine))
        else:
            sentence = text("seat_differs", lang, seat=name, claimed=_signed(theirs), computed=_signed(mine),
                            difference=_signed(difference(mine, theirs)))
        undo = _undo(name, theirs, lang, short=True) if illegal and theirs is not None else None
        out.append(SeatLine(seat, mine if settled else None, theirs, sentence, total_anchor(seat), undo))
    return tuple(out)


def _score(value: int | None, lang: Lang) -> str:
    return "–" if value is None else _signed(value)


def _ledger_anchor_of(finding: Mapping[str, Any]) -> str | None:
    """Where the settlement shows what a missettled finding is about."""
    if finding.get("kind") != "missettled":
        return None
    params = finding.get("params") or {}
    code = str(finding.get("code", ""))
    if "payer" in params and "payee" in params and "kind" in params:
        return ledger_anchor(params["kind"], params["payer"], params["payee"])
    if code.startswith("flip_"):
        return FLIP_ANCHOR
    if code.startswith("next_dealer_"):
        return NEXT_DEALER_ANCHOR
    if "seat" in params:
        return total_anchor(params["seat"])
    return TOTALS_ANCHOR


def _finding_line(finding: Mapping[str, Any], steps: set[int], lang: Lang, names: Sequence[str] = (),
                  due: int | None = None) -> FindingLine:
    """One finding's line; `due` is the step it points at (Trace.due_steps: a settlement finding's
    is the step that made its payment due), linked beside its ledger row."""
    step = _int(finding.get("step"))
    step = step if step is not None else due
    params = finding.get("params") or {}
    related = tuple(sorted({v for name in STEP_PARAMS if (v := _int(params.get(name))) is not None} - {step}))
    sentence = render_finding(finding, lang, names) if "code" in finding else str(finding.get("message", ""))
    return FindingLine(str(finding.get("kind")), finding.get("rule"), str(finding.get("code", "")),
                       _int(finding.get("seat")), step, sentence,
                       step_anchor(step) if step is not None and step in steps else None,
                       _ledger_anchor_of(finding), tuple(s for s in related if s in steps),
                       finding.get("expected"), finding.get("actual"),
                       _int(params.get("previous")) if str(finding.get("code", "")).startswith("match_") else None)


def _tiles_of(value: Any) -> tuple[str, ...]:
    """The tile codes a value names (one code, or a list of them); () for anything else."""
    if isinstance(value, str) and value in CODES:
        return (value,)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) and v in CODES for v in value):
        return tuple(value)
    return ()


def _rendered(value: Any, lang: Lang) -> str:
    tiles = _tiles_of(value)
    if tiles:
        return ("、" if lang is Lang.ZH else ", ").join(render_value("tile", t, lang) for t in tiles)
    return str(value)


def _expectation(finding: Mapping[str, Any], lang: Lang, players: Sequence[str] = ()) -> str | None:
    """What the rules expected, in words: the code's own sentence when the summary has one
    (the wall's tile, the missing pair), else the finding's expected and actual values."""
    code = f"expect_{finding.get('code')}"
    params = finding.get("params") or {}
    if code in TEXTS:
        names = {f for _, f, _, _ in Formatter().parse(TEXTS[code][lang.value]) if f}
        if names <= set(params):
            values = {n: _param(n, params[n], lang, players) for n in names}
            return text(code, lang, **values)
    expected, actual = finding.get("expected"), finding.get("actual")
    if expected is not None and actual is not None:
        return text("expected_value", lang, expected=_rendered(expected, lang), actual=_rendered(actual, lang))
    if expected is not None:
        return text("expected_only", lang, expected=_rendered(expected, lang))
    return None


def _param(name: str, value: Any, lang: Lang, names: Sequence[str] = ()) -> str:
    if name == "seat":
        return seat_label(value, lang, names)
    if isinstance(value, str) and value in CODES:
        return render_value("tile", value, lang)
    return str(value)


def _sorted_tiles(codes: Sequence[str]) -> tuple[str, ...]:
    order = {c: i for i, c in enumerate(CODES)}
    return tuple(sorted(codes, key=lambda c: order.get(c, len(order))))


def _without(codes: Sequence[str], tile: str, count: int) -> tuple[str, ...]:
    out = list(codes)
    for _ in range(count):
        if tile in out:
            out.remove(tile)
    return tuple(out)


def applied_as_recorded(before: StepView, event: Mapping[str, Any] | None, index: int) -> StepView:
    """The table after `event` done as the record says, though the rules refuse it: a drawn tile
    joins the hand, a discard leaves it (when held) for the river, a meld is laid down. Drawn for
    the reader beside the table before the move; nothing here is the engine's judgement."""
    seats = list(before.seats)
    seat = _int((event or {}).get("seat"))
    tile = (event or {}).get("tile")
    kind = (event or {}).get("type")
    wall = before.wall_left
    if seat is None or not 0 <= seat < len(seats) or not (isinstance(tile, str) and tile in CODES):
        return StepView(index, dict(event) if event else None, tuple(seats), wall, (), ())
    s = seats[seat]
    concealed, melds, discards = s.concealed, s.melds, s.discards
    giver = _int((event or {}).get("from"))
    if kind == EventType.DRAW.value:
        concealed, wall = _sorted_tiles((*concealed, tile)), max(wall - 1, 0)
    elif kind == EventType.DISCARD.value:
        concealed, discards = _without(concealed, tile, 1), (*discards, tile)
    elif kind == EventType.PONG.value:
        concealed, melds = _without(concealed, tile, 2), (*melds, MeldView(MeldKind.PONG.value, (tile,) * 3, giver))
    elif kind == EventType.KONG.value:
        meld_kind = str((event or {}).get("kind") or MeldKind.EXPOSED.value)
        if meld_kind == MeldKind.ADDED.value:
            kept = tuple(m for m in melds if not (m.kind == MeldKind.PONG.value and m.tiles[:1] == (tile,)))
            concealed, melds = _without(concealed, tile, 1), (*kept, MeldView(meld_kind, (tile,) * 4, giver))
        else:
            held = 4 if meld_kind == MeldKind.CONCEALED.value else 3
            concealed, melds = _without(concealed, tile, held), (*melds, MeldView(meld_kind, (tile,) * 4, giver))
    if kind in (EventType.PONG.value, EventType.KONG.value) and giver is not None and 0 <= giver < len(seats) \
            and seats[giver].discards[-1:] == (tile,):
        g = seats[giver]
        seats[giver] = SeatView(g.concealed, g.melds, g.discards[:-1], g.declared, g.locked)
    seats[seat] = SeatView(concealed, melds, discards, s.declared or kind == EventType.DECLARE.value, s.locked)
    return StepView(index, dict(event or {}), tuple(seats), wall, (), ())


def _illegal_move(finding: Mapping[str, Any], steps: Sequence[StepView], lang: Lang,
                  names: Sequence[str] = ()) -> IllegalMove | None:
    step = _int(finding.get("step"))
    at = next((i for i, sv in enumerate(steps) if sv.index == step), None)
    if step is None or at is None:
        return None
    before = steps[at]
    previous = steps[at - 1].index if at > 0 else -1
    after = applied_as_recorded(before, before.event, step)
    before_label = (text("before_move_deal", lang) if previous < 0
                    else text("before_move", lang, previous=previous))
    params = finding.get("params") or {}
    expected = _tiles_of(finding.get("expected")) or _tiles_of(params.get("want"))
    actual = _tiles_of(finding.get("actual")) or _tiles_of(params.get("tile"))
    return IllegalMove(step, str(finding.get("code", "")), finding.get("rule"), before, after, before_label,
                       text("after_move", lang, step=step), _expectation(finding, lang, names), expected, actual)


def _later_event(index: int, event: Any, lang: Lang) -> LaterEvent:
    ev = event if isinstance(event, dict) else {}
    seat = _int(ev.get("seat"))
    kind = str(ev.get("type", "?"))
    tile = ev.get("tile") if isinstance(ev.get("tile"), str) and ev.get("tile") in CODES else None
    try:
        verb = render_value("event", kind, lang)
    except CatalogueError:
        verb = kind
    words = text("later_event", lang, step=index, seat=render_value("seat", seat, lang) if seat is not None else "",
                 event=verb, tile=(" " if lang is Lang.EN else "") + render_value("tile", tile, lang) if tile else "")
    return LaterEvent(index, seat, kind, tile, words)


def _stopped(steps: Sequence[StepView], events: Sequence[Any], verdict: str, lang: Lang) -> Stopped | None:
    """When an illegal replay stopped before the last event: its step and the events after it."""
    if verdict != "illegal" or not steps or not events:
        return None
    last = steps[-1].index
    later = tuple(_later_event(i, events[i], lang) for i in range(max(last + 1, 0), len(events)))
    if not later:
        return None
    return Stopped(last, text("replay_stopped", lang, step=last, count=len(later)), later)


def _no_basis(finding: Mapping[str, Any] | None, lang: Lang, names: Sequence[str] = ()) -> str:
    """The record's payments after an illegal move: no basis, and whose move it was (R16, issue 20)."""
    assert finding is not None
    seat = _int(finding.get("seat"))
    who = seat_label(seat, lang, names) if seat is not None else "–"
    return text("illegal_no_basis", lang, seat=who, step=finding.get("step"))


def finding_key(finding: Mapping[str, Any]) -> str:
    return json.dumps([finding.get("code"), finding.get("params")], sort_keys=True, ensure_ascii=False)


def due_steps_by_finding(trace: Trace | None) -> dict[str, int]:
    """The step each finding of the trace's audit points at, by code and params: the stored audit
    summarised may be another object than the trace's (the same findings when the engine agrees)."""
    if trace is None:
        return {}
    return {finding_key(f): d for f, d in zip(trace.audit.get("findings") or [], trace.due_steps) if d is not None}


def dispute_summary(audit: Mapping[str, Any] | None, trace: Trace | None, document: Any,
                    lang: Lang | str = Lang.ZH) -> DisputeSummary:
    """The summary of one hand in `lang`, from its audit (the stored one: a match hand's audit
    keeps its continuity findings, so the verdict is the match's), the step views (for the
    drawings; None when the engine could not replay) and the record (its claimed result)."""
    lang = Lang(lang)
    audit = audit or {}
    verdict = str(audit.get("verdict") or "invalid")
    settlement = audit.get("settlement") if isinstance(audit.get("settlement"), dict) else None
    result = document.get("result") if isinstance(document, dict) else None
    result = result if isinstance(result, dict) else {}
    claimed = result.get("scores") if isinstance(result.get("scores"), list) else None
    computed = settlement.get("scores") if settlement is not None else None
    steps = trace.steps if trace is not None else []
    indices = {sv.index for sv in steps}
    findings = [f for f in audit.get("findings") or [] if isinstance(f, dict)]
    names = seat_names(document)
    due_of = due_steps_by_finding(trace)
    lines = tuple(_finding_line(f, indices, lang, names, due_of.get(finding_key(f))) for f in findings)
    first_illegal = next((f for f in findings if f.get("kind") == "illegal" and _int(f.get("step")) is not None),
                         None)
    events = document.get("events") if isinstance(document, dict) else None
    try:
        label = render_value("verdict", verdict, lang)
    except CatalogueError:
        label = verdict
    head = f"verdict_{verdict}"
    illegal_codes = {str(f.get("code", "")) for f in findings if f.get("kind") == "illegal"}
    if verdict == "illegal" and illegal_codes and all(code.startswith("match_") for code in illegal_codes):
        head = "verdict_match"  # a break in the match's continuity, not an illegal move (issue 33.3)
    illegal = verdict == "illegal" and settlement is None and first_illegal is not None
    return DisputeSummary(
        lang, verdict, label, text(head, lang) if head in TEXTS else label, text("direction", lang),
        settlement is not None,
        None if settlement is not None else _no_basis(first_illegal, lang, names) if illegal
        else text("no_settlement", lang),
        _seat_lines(computed, claimed, settlement is not None, lang, illegal, names), lines,
        _illegal_move(first_illegal, steps, lang, names) if first_illegal is not None else None,
        _stopped(steps, events if isinstance(events, list) else [], verdict, lang))


__all__ = ["difference", "difference_heading", "DisputeSummary", "FindingLine", "IllegalMove", "LaterEvent", "SeatLine", "Stopped",
           "applied_as_recorded", "dispute_summary", "due_steps_by_finding", "finding_key", "ledger_anchor", "step_anchor", "text", "total_anchor"]
