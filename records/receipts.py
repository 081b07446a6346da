"""Receipts: one row for every item ever submitted, accepted or refused. No Flask here.

A platform asks "did game X reach you, and why was it refused?" weeks later; the
records only hold what was accepted. So every result line of an upload (a
stored hand, a duplicate, a refused line of a .jsonl, a bad zip member, a whole
request refused for its size or its platform) leaves a receipt: who sent it,
when, from which file/member/line, the game id when it could be read, the
sha256 of the bytes, the outcome, and the error codes with their JSON paths.
Receipts are append-only (triggers in m005, like the trail) and each one is a
trail entry, so the hash chain covers them. Found by a folded substring
(`records.search`) of game id, uploader, source, platform and outcome.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

from sqlite_utils import Database

from records import clock, search, trail
from records.paging import Page, offset

OUTCOMES = ("created", "revision", "duplicate", "rejected", "skipped", "refused")
"""What became of a submitted item: stored (three ways), refused by ingest or the schema
(`rejected`), not a record at all (`skipped`: a stray file in a zip), or refused with the
whole request before anything was read into the store (`refused`: size, platform)."""
ACCEPTED = ("created", "revision", "duplicate")
"""Outcomes whose bytes are in the store."""
NOT_ACCEPTED = ("rejected", "refused")
"""Outcomes the overview counts as rejected submissions."""


@dataclass(frozen=True)
class ReceiptQuery:
    """Filters and page of the receipts list; empty filters match everything."""

    q: str | None = None
    """Fragment of the game id, uploader, source, platform or outcome (folded)."""
    outcome: str | None = None
    platform: str | None = None
    visible_to: str | None = None
    """With `platform`: an uploader's view, its platform's receipts plus what it sent itself
    (a refused item may name no readable platform)."""
    date_from: str | None = None
    date_to: str | None = None
    """Inclusive bounds on the date of `at` (YYYY-MM-DD) in `zone`, the service's clock."""
    zone: tzinfo = field(default_factory=lambda: clock.parse_zone(clock.DEFAULT_ZONE))
    page: int = 1
    per_page: int = 50


def add(db: Database, results: Iterable[dict[str, Any]], *, uploader: str | None, actor: str | None,
        at: str, key: bytes) -> list[int]:
    """Write one receipt (and its trail entry) per result line; call inside a write
    transaction. A result line is the upload's (`web.uploads`): source, file, member, line,
    hand, status, record_id, game_id, platform, revision, sha256, errors."""
    ids = []
    for result in map(_storable, results):
        errors = [{"code": error.get("code"), "path": error.get("path"), "message": error.get("message"),
                   **{key: error[key] for key in ("problem", "params", "line", "column") if error.get(key)}}
                  for error in result.get("errors") or []]
        codes = sorted({str(error["code"]) for error in errors if error["code"]})
        outcome = result["status"] if result["status"] in OUTCOMES else "rejected"
        row = {"at": at, "uploader": uploader, "actor": actor, "source": result.get("source") or "",
               "file": result.get("file") or "", "member": result.get("member"), "line": result.get("line"),
               "hand": result.get("hand"), "game_id": result.get("game_id"), "platform": result.get("platform"),
               "sha256": result.get("sha256"), "outcome": outcome, "record_id": result.get("record_id"),
               "revision": result.get("revision"), "error_codes": " ".join(codes),
               "errors_json": json.dumps(errors, ensure_ascii=False),
               "text": search.joined([result.get("game_id"), uploader, actor, result.get("source"),
                                      result.get("platform"), outcome])}
        columns = ", ".join(row)
        cursor = db.execute(f"INSERT INTO receipts ({columns}) VALUES ({', '.join('?' * len(row))})",
                            list(row.values()))
        receipt_id = int(cursor.lastrowid or 0)
        trail.append(db, at=at, actor=actor or uploader, action="receipt", key=key, record_id=result.get("record_id"),
                     detail={"receipt_id": receipt_id, "outcome": outcome, "game_id": result.get("game_id"),
                             "sha256": result.get("sha256"), "source": row["source"], "errors": codes,
                             "row_sha256": row_digest({"id": receipt_id, **row})})
        ids.append(receipt_id)
    return ids


def row_digest(row: dict[str, Any]) -> str:
    """sha256 of a receipt row, every column (`id` included): its entry records it, so that
    `verify` names a change of any of them (uploader, platform, error texts, ...)."""
    return trail.digest({name: row.get(name) for name in COLUMNS})


COLUMNS = ("id", "at", "uploader", "actor", "source", "file", "member", "line", "hand", "game_id", "platform",
           "sha256", "outcome", "record_id", "revision", "error_codes", "errors_json", "text")
"""Every column of `receipts` (m005)."""


def _storable(value: Any) -> Any:
    """A result line with every string made storable: a game id or message read from refused
    bytes may hold a lone surrogate (issue 12), kept visible as its escape, never a 500."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {key: _storable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_storable(item) for item in value]
    return value


def _where(query: ReceiptQuery) -> tuple[str, list[Any]]:
    """WHERE clause and parameters of a receipts query."""
    clauses: list[str] = []
    params: list[Any] = []
    if query.q and search.fold(query.q):
        clauses.append(search.MATCH)
        params.append(search.pattern(query.q))
    if query.outcome:
        clauses.append("outcome = ?")
        params.append(query.outcome)
    if query.platform is not None:
        if query.visible_to:
            clauses.append("(platform = ? OR actor = ?)")
            params += [query.platform, query.visible_to]
        else:
            clauses.append("platform = ?")
            params.append(query.platform)
    if query.date_from:
        clauses.append("at >= ?")
        params.append(clock.day_start(query.date_from, query.zone))
    if query.date_to:
        clauses.append("at < ?")
        params.append(clock.day_end(query.date_to, query.zone))  # every stamp of that day sorts below it
    return " AND ".join(clauses) or "1", params


def find(db: Database, query: ReceiptQuery) -> Page:
    """The receipts matching a query, newest first."""
    base = ReceiptQuery(**{**query.__dict__, "outcome": None})
    where, params = _where(base)
    counts = dict.fromkeys(OUTCOMES, 0)
    for outcome, count in db.execute(f"SELECT outcome, count(*) FROM receipts WHERE {where} GROUP BY outcome",
                                     params):
        counts[outcome] = count
    where, params = _where(query)
    total = counts.get(query.outcome, 0) if query.outcome else sum(counts.values())
    skipped = offset(query.page, query.per_page)
    rows = [_row(row) for row in db.query(
        f"SELECT id, at, uploader, actor, source, file, member, line, hand, game_id, platform, sha256, outcome, "
        f"record_id, revision, error_codes, errors_json FROM receipts WHERE {where} ORDER BY id DESC "
        f"LIMIT ? OFFSET ?", params + [query.per_page, skipped])]
    return Page(rows, total, max(query.page, 1), query.per_page, counts)


def _row(row: dict[str, Any]) -> dict[str, Any]:
    """A stored receipt with its errors parsed."""
    errors = json.loads(row.pop("errors_json") or "[]")
    return {**row, "error_codes": (row["error_codes"] or "").split(), "errors": errors}


def of_record(db: Database, record_id: int) -> list[dict[str, Any]]:
    """Every receipt that points at a record, oldest first."""
    return [_row(row) for row in db.query(
        "SELECT id, at, uploader, actor, source, file, member, line, hand, game_id, platform, sha256, outcome, "
        "record_id, revision, error_codes, errors_json FROM receipts WHERE record_id = ? ORDER BY id", [record_id])]


def rejected_by_day(db: Database, *, zone: tzinfo | None = None, platform: str | None = None,
                    date_from: str | None = None, date_to: str | None = None) -> dict[str, int]:
    """Refused submissions per day of `zone` (the service's clock, +08:00 unless given; `YYYY-MM-DD`
    -> count, oldest first), for the overview. SQLite counts them per UTC minute (every zone's
    offset is whole minutes), Python adds the minutes up into the zone's days."""
    zone = zone or clock.parse_zone(clock.DEFAULT_ZONE)
    where, params = _where(ReceiptQuery(platform=platform, date_from=date_from, date_to=date_to, zone=zone))
    marks = ", ".join("?" * len(NOT_ACCEPTED))
    days: dict[str, int] = {}
    for minute, count in db.execute(
            f"SELECT substr(at, 1, 16) AS minute, count(*) FROM receipts WHERE {where} AND outcome IN ({marks}) "
            "GROUP BY minute", params + list(NOT_ACCEPTED)):
        day = clock.day_of(f"{minute}:00+00:00", zone) or str(minute)[:10]
        days[day] = days.get(day, 0) + count
    return dict(sorted(days.items()))


__all__ = ["ACCEPTED", "COLUMNS", "row_digest", "NOT_ACCEPTED", "OUTCOMES", "ReceiptQuery", "add", "find", "of_record",
           "rejected_by_day"]
