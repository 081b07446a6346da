"""The report of one record for the page and the PDF, built as finished data from plain inputs.

The view reads what the request and the store know (`web.report_inputs.report_inputs`: the
query's seat and step, the match's hands and earlier totals, the current revision, a match
hand's audit within its match) and hands it here as `ReportInputs`; nothing here reads the
request or the store, and nothing audits a hand a second time. Here: the trace (one replay,
under the rules of the latest audit, in the chosen language; the stored document passed the
schema when it was stored, so the engine does not check it again), the report model
(`report.model.build_report`), the words of the viewer's event list, and every word, drawing and
row of the page (`web.page_model.page_report`) and of the PDF (`web.pdf.model.pdf_report`), so
their templates only lay out (issue 35.2).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app

from audit.api import trace_record
from audit.vocabulary import CODES, Lang, StepView, Trace, seat_label, zh_name
from report.model import ReportModel, build_report, key_steps, record_result, whatif_side
from report.table import TableView, opening_position, table_view
from records.platforms import Version
from web.numbers import read_number
from web.i18n import dictionary
from web.pdf.contents import Evidence
from web.pdf.model import VERBS, PdfReport, pdf_report
from web.page_model import page_report


@dataclass(frozen=True)
class ReportInputs:
    """What the report is built from, read by the view before: the record's detail
    (`web.views.record_detail`: document, audits, seats ...), the language, the query's `seat`
    and `step` as given, and what only the store and the engine know."""

    detail: Mapping[str, Any]
    lang: Lang
    seat: str | None = None
    step: str | None = None
    match_hands: Sequence[dict[str, Any]] = ()
    before: Sequence[int] | None = None
    """For a hand of a match, each seat's running total by the rules before it; None for a lone hand."""
    match_verdict: str | None = None
    """For a hand of a match, the verdict of its audit within the whole match (the view's one audit)."""
    tables: bool = True
    """Whether to build the page's table view (the PDF prints its own tables of the key steps)."""
    judge: Version | None = None
    """The platform profile version the latest audit was judged under (issue 36.3), None for one
    judged under the profile its record names."""


def trace_for(document: Any, audit_row: Mapping[str, Any] | None, record: Mapping[str, Any], lang: Lang,
              judge: Version | None = None) -> Trace | None:
    """The step views under the rules of the latest audit (a re-audit under another profile
    shows its own pass locks), in `lang`; None when the engine cannot replay the record."""
    profile = options = None
    if judge is not None:  # the platform's profile version that judged it (issue 36.3), its options on top
        options = audit_row["options"] if audit_row is not None else None
    elif audit_row is not None and (audit_row["options"] is not None or audit_row["profile"] != record["profile"]):
        profile, options = audit_row["profile"], audit_row["options"]
    try:
        return trace_record(document, profile=profile, options=options, lang=lang, schema_checked=True,
                                       base_profile=judge.profile() if judge is not None else None)
    except Exception:  # the engine promises not to raise; a report without steps beats a 500
        current_app.logger.exception("trace of record %s failed", record["id"])
        return None


def _model(inputs: ReportInputs) -> tuple[ReportModel, Trace | None, Mapping[str, Any] | None]:
    """The report model of the inputs, its trace and the latest audit row."""
    detail = inputs.detail
    latest = detail["audits"][-1] if detail["audits"] else None
    trace = trace_for(detail["document"], latest, detail, inputs.lang, inputs.judge)
    steps = trace.steps if trace is not None else []
    model = build_report(detail["document"], detail["audit"], trace, inputs.lang,
                         event_words(steps, detail.get("seats") or (), inputs.lang))
    return model, trace, latest


def report_context(inputs: ReportInputs) -> dict[str, Any]:
    """Everything the page's step-by-step body needs beyond the record detail: the report model
    (`report.model.ReportModel`), the table view unless `inputs.tables` is off, and `page`, every
    word, drawing and row of the body finished (`web.page_model.PageReport`); `_`, the page's
    words, looks a fixed word up in the language's dictionary, as the PDF's does."""
    detail = inputs.detail
    model, trace, _latest = _model(inputs)
    table = table_context(inputs, model) if inputs.tables else {}
    page = page_report(model, table.get("table"), detail, inputs.lang, inputs.match_hands)
    return {
        **model.context(),
        **table,
        "page": page,
        "_": page.words,
        "trace_verdict": current_verdict(inputs, trace),
        "judged_by": inputs.judge,
        "match_hands": list(inputs.match_hands),
        "current_revision": next((r for r in detail.get("revisions", []) if r["is_current"]), None),
    }


def pdf_model(inputs: ReportInputs, evidence: Evidence) -> PdfReport:
    """A record's PDF as finished data (`web.pdf.model`): every word, drawing and row."""
    model, trace, _latest = _model(inputs)
    return pdf_report(model, inputs.detail, evidence, inputs.lang, current_verdict(inputs, trace))


def table_context(inputs: ReportInputs, model: ReportModel) -> dict[str, Any]:
    """The table view (report.table) of the record's trace, the step it opens on (`?step=N`) and
    the seat it is seen from (`?seat=K`, default 0); its words and drawings are the page's
    (`web.page_model`)."""
    view = table_view(model.trace, inputs.detail.get("dealer"), totals=model.totals, ledger=model.ledger,
                      chicken_lines=model.chicken_lines, settled=model.settled,
                      before=list(inputs.before) if inputs.before is not None else None)
    if view is None:
        return {"table": None}
    perspective = read_number(inputs.seat, "seat", low=0, high=view.seats - 1) or 0
    return {"table": view, "table_position": opening_position(view, inputs.step),
            "perspective": perspective, "table_steps": table_steps(view)}


def table_steps(view: TableView) -> dict[str, Any]:
    """What static/replay.js needs to step the table without the server: per step its panels,
    wall count, acting seat and finding kind (the panels themselves are in the page's <template>s)."""
    return {"seats": view.seats, "last": view.last,
            "steps": [{"p": list(s.panels), "w": s.wall_left, "a": s.actor, "f": s.finding} for s in view.steps]}


def event_words(steps: Sequence[StepView], seats: Sequence[Any], lang: Lang) -> list[str]:
    """One short line per step for the viewer's event list (`2号位 小红 碰 一筒`), in `lang`:
    built here once per step, as a template macro per step cost a tenth of the page."""
    table = dictionary(lang)
    names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats or ()]
    out = []
    for sv in steps:
        ev = sv.event if isinstance(sv.event, dict) else None
        if ev is None:
            out.append(table.get("the deal", "the deal"))
            continue
        kind, sub = str(ev.get("type")), ev.get("kind")
        verb = VERBS.get((kind, sub if isinstance(sub, str) else None)) or VERBS.get((kind, None))
        tile = ev.get("tile")
        words = [seat_label(ev.get("seat"), lang, names), table.get(verb, verb) if verb else kind]
        if isinstance(tile, str) and tile in CODES:
            words.append(zh_name(tile) if lang is Lang.ZH else tile)
        out.append(" ".join(words))
    return out


def current_verdict(inputs: ReportInputs, trace: Trace | None) -> str | None:
    """What the engine installed now finds, to compare with the stored audit. A match hand is
    judged with its match (continuity findings are the match's): the view audited it once within
    its match (`ReportInputs.match_verdict`); a lone hand's verdict is its trace's."""
    if inputs.detail.get("match_id") is not None:
        return inputs.match_verdict
    return trace.audit.get("verdict") if trace is not None else None


__all__ = ["ReportInputs", "current_verdict", "event_words", "key_steps", "pdf_model", "record_result",
           "report_context", "table_context", "table_steps", "trace_for", "whatif_side"]
