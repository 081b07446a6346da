"""What a record's report is built from, read where the view reads the request and the store
(issue 35.2): the query's seat and step, the match's hands, each seat's total before a match
hand, and a match hand's verdict within its whole match (its one audit there). The report itself
is built from these plain inputs by `web.report_model`, which reads neither."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app

from audit.vocabulary import Lang
from records import platforms
from records.store import Store
from report.match import HandInput, MatchView, match_view, running_totals
from web.report_model import ReportInputs
from web.views import what_if_audit


def report_inputs(store: Store, detail: dict[str, Any], lang: Lang, args: Mapping[str, str] | None = None,
                  *, tables: bool = True) -> ReportInputs:
    """The inputs of a record's report: `detail` (`web.views.record_detail`) in `lang`, the
    query's `seat` and `step` (`args`, the page's), and what the store and the engine know now.
    `tables=False` (the PDF) leaves out what only the page's table view needs."""
    args = args or {}
    in_match = detail.get("match_id") is not None
    return ReportInputs(detail=detail, lang=lang, seat=args.get("seat"), step=args.get("step"),
                        match_hands=store.match_hands(detail["match_id"]) if in_match else [],
                        before=match_before(store, detail) if tables else None,
                        match_verdict=match_verdict(detail, lang) if in_match else None, tables=tables,
                        judge=judged_by(store, detail))


def judged_by(store: Store, detail: dict[str, Any]) -> platforms.Version | None:
    """The platform profile version the record's latest audit was judged under (issue 36.3), None
    for one judged under the profile its record names."""
    latest = detail["audits"][-1] if detail["audits"] else None
    version_id = latest.get("platform_profile_id") if latest is not None else None
    return platforms.get(store.db, version_id) if version_id is not None else None


def match_verdict(detail: dict[str, Any], lang: Lang) -> str | None:
    """A match hand's verdict by the engine installed now, judged with its match (continuity
    findings are the match's), under the rules of its latest audit; None when the engine fails
    (the stored verdict stays, as a lone hand's would)."""
    latest = detail["audits"][-1] if detail["audits"] else None
    profile = latest["profile"] if latest is not None else None
    options = latest["options"] if latest is not None else None
    try:
        audit = what_if_audit(detail["id"], profile, options, lang)
    except Exception:  # an engine failure leaves the stored verdict alone
        current_app.logger.exception("match audit of record %s failed", detail["id"])
        return None
    verdict = audit.get("verdict")
    return verdict if isinstance(verdict, str) else None


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


def match_page(store: Store, match_id: int) -> MatchView | None:
    """The match page's data (report.match.MatchView) from its stored hands, audits and documents."""
    match = store.match(match_id)
    if match is None:
        return None
    hands = [HandInput(h, store.document(h["id"]), stored_audit(store, h["id"])) for h in store.match_hands(match_id)]
    return match_view(match_id, match.get("table_id"), hands)


__all__ = ["match_before", "match_page", "match_verdict", "report_inputs", "stored_audit"]
