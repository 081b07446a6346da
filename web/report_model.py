"""The report of one record for the page and the PDF: the looking-up around `report.model`.

The report itself is plain data (`report.model.build_report`: from the record, its stored audit
and the engine's trace). What needs the request is here: the trace (one replay, under the rules
of the latest audit, in the page's language; the stored document passed the schema when it was
stored, so the engine does not check it again), the words of the viewer's event list (the page's
dictionary), the match's hands and, for a match hand, the verdict of its whole match now.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import current_app, request
from markupsafe import Markup

from audit import api as engine_api
from audit.catalogue import Lang
from audit.tiles import CODES, zh_name
from audit.views import StepView, Trace
from report.match import HandInput, match_view, running_totals
from report.model import ReportModel, build_report, key_steps, record_result, whatif_side
from report.table import TableView, opening_position, table_view
from records import platforms
from records.store import Store
from web.numbers import read_number
from web.db import get_store
from web.i18n import gettext as _
from web.i18n import page_language, seat_words
from web.table_html import meld_row, panel_html, panel_words, tiles_html
from web.views import what_if_audit


def trace_for(document: Any, audit_row: dict[str, Any] | None, record: dict[str, Any]) -> Trace | None:
    """The step views under the rules of the latest audit (a re-audit under another profile
    shows its own pass locks), in the page's language; None when the engine cannot replay the
    record."""
    profile = options = None
    judge = judged_by(audit_row)
    if judge is not None:  # the platform's profile version that judged it (issue 36.3), its options on top
        options = audit_row["options"] if audit_row is not None else None
    elif audit_row is not None and (audit_row["options"] is not None or audit_row["profile"] != record["profile"]):
        profile, options = audit_row["profile"], audit_row["options"]
    try:
        return engine_api.trace_record(document, profile=profile, options=options, lang=page_language(),
                                       schema_checked=True, base_profile=judge.profile() if judge else None)
    except Exception:  # the engine promises not to raise; a report without steps beats a 500
        current_app.logger.exception("trace of record %s failed", record["id"])
        return None


def judged_by(audit_row: dict[str, Any] | None) -> platforms.Version | None:
    """The platform profile version an audit was judged under (issue 36.3), None for one judged
    under the profile its record names."""
    version_id = audit_row.get("platform_profile_id") if audit_row is not None else None
    return platforms.get(get_store().db, version_id) if version_id is not None else None


def report_context(detail: dict[str, Any], *, table: bool = True) -> dict[str, Any]:
    """Everything the step-by-step body needs beyond the record detail (`report.model.ReportModel`),
    and what only the store and the engine know now: the match's hands, the current revision, the
    verdict the engine installed now gives. `table=False` leaves out the table view and its
    drawings (`table_context`), which only the page shows: the PDF prints its own tables of the
    key steps from the same model."""
    lang = page_language()
    latest = detail["audits"][-1] if detail["audits"] else None
    trace = trace_for(detail["document"], latest, detail)
    steps = trace.steps if trace is not None else []
    model = build_report(detail["document"], detail["audit"], trace, lang,
                         event_words(steps, detail.get("seats") or ()))
    return {
        **model.context(),
        **(table_context(detail, model) if table else {}),
        "trace_verdict": current_verdict(detail, latest, trace),
        "judged_by": judged_by(latest),
        "match_hands": get_store().match_hands(detail["match_id"]) if detail.get("match_id") is not None else [],
        "current_revision": next((r for r in detail.get("revisions", []) if r["is_current"]), None),
    }


def table_context(detail: dict[str, Any], model: ReportModel) -> dict[str, Any]:
    """The table view (report.table) of the record's trace, the step it opens on (`?step=N`) and
    the seat it is seen from (`?seat=K`, default 0), and the drawing helpers its template uses."""
    store = get_store()
    before = match_before(store, detail)
    view = table_view(model.trace, detail.get("dealer"), totals=model.totals, ledger=model.ledger,
                      chicken_lines=model.chicken_lines, settled=model.settled, before=before)
    if view is None:
        return {"table": None}
    perspective = read_number(request.args.get("seat"), "seat", low=0, high=view.seats - 1) or 0
    words = panel_words([seat_words(seat, detail.get("seats") or ()) for seat in range(view.seats)])
    drawn: dict[int, Markup] = {}

    def seat_panel_html(number: int) -> Markup:
        """Panel `number` of the view, drawn once per page (a shown panel is also in the store)."""
        if number not in drawn:
            drawn[number] = panel_html(view.panels[number], view.seats, words)
        return drawn[number]

    return {"table": view, "table_position": opening_position(view, request.args.get("step")),
            "perspective": perspective, "table_steps": table_steps(view),
            "seat_panel_html": seat_panel_html,
            "table_tiles": tiles_html, "table_melds": meld_row}


def table_steps(view: TableView) -> dict[str, Any]:
    """What static/replay.js needs to step the table without the server: per step its panels,
    wall count, acting seat and finding kind (the panels themselves are in the page's <template>s)."""
    return {"seats": view.seats, "last": view.last,
            "steps": [{"p": list(s.panels), "w": s.wall_left, "a": s.actor, "f": s.finding} for s in view.steps]}


def stored_audit(store: Store, record_id: int) -> dict[str, Any] | None:
    """The record's latest stored audit (contract JSON), None when the engine failed on it."""
    record = store.record(record_id)
    return store.latest_audit(record_id) if record.get("latest_audit_id") is not None else None


def match_before(store: Store, detail: dict[str, Any]) -> list[int] | None:
    """For a hand of a match, each seat's running total by the rules before it (the stored audits
    of the hands before); None for a lone hand."""
    if detail.get("match_id") is None:
        return None
    earlier = [h for h in store.match_hands(detail["match_id"]) if (h["match_index"] or 0) < (detail["match_index"] or 0)]
    seats = len(detail.get("seats") or ())
    if not earlier:
        return [0] * seats
    return list(running_totals([stored_audit(store, h["id"]) for h in earlier], seats)[-1])


def match_page(store: Store, match_id: int) -> Any:
    """The match page's data (report.match.MatchView) from its stored hands, audits and documents."""
    match = store.match(match_id)
    if match is None:
        return None
    hands = [HandInput(h, store.document(h["id"]), stored_audit(store, h["id"])) for h in store.match_hands(match_id)]
    return match_view(match_id, match.get("table_id"), hands)


VERBS: dict[tuple[str, str | None], str] = {
    ("draw", None): "draws", ("discard", None): "discards", ("declare", None): "declares ready",
    ("pong", None): "pongs", ("kong", "concealed"): "concealed kong", ("kong", "added"): "added kong",
    ("kong", "exposed"): "exposed kong", ("kong", None): "kong", ("win", "self_draw"): "wins by self-draw",
    ("win", "discard"): "wins on the discard", ("win", "rob"): "robs the kong", ("win", None): "wins",
    ("pass", None): "passes",
}
"""The step table's verbs (report/step_macros.html `verb`, the same message ids) by (type, kind)."""


def event_words(steps: Sequence[StepView], seats: Sequence[Any] = ()) -> list[str]:
    """One short line per step for the viewer's event list (`2号位 小红 碰 一筒`), in the page's
    language: built here once per step, as a template macro per step cost a tenth of the page."""
    lang = page_language()
    out = []
    for sv in steps:
        ev = sv.event if isinstance(sv.event, dict) else None
        if ev is None:
            out.append(_("the deal"))
            continue
        kind, sub = str(ev.get("type")), ev.get("kind")
        verb = VERBS.get((kind, sub if isinstance(sub, str) else None)) or VERBS.get((kind, None))
        tile = ev.get("tile")
        words = [seat_words(ev.get("seat"), seats), _(verb) if verb else kind]
        if isinstance(tile, str) and tile in CODES:
            words.append(zh_name(tile) if lang is Lang.ZH else tile)
        out.append(" ".join(words))
    return out


def current_verdict(detail: dict[str, Any], latest: dict[str, Any] | None, trace: Trace | None) -> str | None:
    """What the engine installed now finds, to compare with the stored audit. A match hand is
    judged with its match (continuity findings are the match's), so its verdict is the one the
    pipeline's audit of the whole match gives; a lone hand's is its trace's."""
    if detail.get("match_id") is None:
        return trace.audit.get("verdict") if trace is not None else None
    profile = latest["profile"] if latest is not None else None
    options = latest["options"] if latest is not None else None
    try:
        audit = what_if_audit(detail["id"], profile, options, page_language())
    except Exception:  # an engine failure leaves the stored verdict alone, as a lone hand's would
        current_app.logger.exception("match audit of record %s failed", detail["id"])
        return None
    verdict = audit.get("verdict")
    return verdict if isinstance(verdict, str) else None


__all__ = ["current_verdict", "event_words", "key_steps", "match_before", "match_page", "record_result",
           "report_context", "stored_audit", "table_context", "table_steps", "trace_for", "whatif_side"]
