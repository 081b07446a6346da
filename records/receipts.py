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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

from sqlite_utils import Database

from audit.api import Origin
from records import clock, search, trail
from records.ingest import Batch, Hand, Problem, Unit
from records.paging import Page, offset

OUTCOMES = ("created", "revision", "duplicate", "rejected", "skipped", "refused")
"""What became of a submitted item: stored (three ways), refused by ingest or the schema
(`rejected`), not a record at all (`skipped`: a stray file in a zip), or refused with the
whole request before anything was read into the store (`refused`: size, platform)."""
ACCEPTED = ("created", "revision", "duplicate")
"""Outcomes whose bytes are in the store."""
NOT_ACCEPTED = ("rejected", "refused")
"""Outcomes the overview counts as rejected submissions."""


STATUSES = ACCEPTED + ("rejected", "skipped")
"""Every status a result line of a stored upload can have (`refused` is a whole request's)."""


@dataclass(frozen=True)
class Stored:
    """What happened to one hand of an upload."""

    hand: Hand
    record_id: int
    game_id: str
    platform: str
    revision: int
    status: str
    """created (first revision), revision (new bytes for a known game) or duplicate."""
    verdict: str | None
    audit_error: str | None = None
    """Why the record has no audit yet (the engine failed); the bytes are stored all the same."""


def origin_fields(origin: Origin, source: str | None = None) -> dict[str, Any]:
    """The fields of a result line (and of its receipt) that say where it comes from; `source` is
    `origin.label()` when the caller has it already (a hand's `source`)."""
    return {"source": origin.label() if source is None else source, "file": origin.file, "member": origin.member, "line": origin.line,
            "hand": origin.hand}


def problem_error(problem: Problem) -> dict[str, Any]:
    """One problem as the API shows it and a receipt keeps it; `message` already names the place."""
    return {"code": problem.code, "message": problem.describe(), "path": problem.path, "rule": problem.rule,
            "line": problem.line, "column": problem.column, "problem": problem.problem or None,
            "params": dict(problem.params)}


def stored_line(stored: Stored) -> dict[str, Any]:
    """The result line of a hand that is in the store (the upload's answer, and its receipt)."""
    errors = [] if stored.audit_error is None else [problem_error(Problem(
        stored.hand.origin, "engine", f"stored, but not audited: {stored.audit_error}", problem="not_audited",
        params={"error": stored.audit_error}))]
    return {**origin_fields(stored.hand.origin, stored.hand.source), "status": stored.status, "record_id": stored.record_id,
            "game_id": stored.game_id, "platform": stored.platform, "revision": stored.revision,
            "verdict": stored.verdict, "sha256": stored.hand.sha256, "errors": errors}



Slot = dict[str, Any] | int
"""A result line in file order: finished (a refused item), or the index of the unit whose stored
hands make its lines."""


class Lines:
    """An upload's result lines in file order, handed out batch by batch (`take`) as the pipeline
    stores the units they describe, so that each batch's transaction keeps its own lines' receipts."""

    def __init__(self, batches: Sequence[Batch]) -> None:
        self.units = [item for batch in batches if batch.refused is None for item in batch.items
                      if isinstance(item, Unit)]
        """The good units of every file, in order: what the pipeline audits and stores."""
        self.slots = _slots(batches)
        self.taken = 0
        """Slots already handed out."""
        self.lines: list[dict[str, Any]] = []
        """Every line handed out so far."""

    def take(self, start: int, done: Sequence[list[Stored] | str]) -> list[dict[str, Any]]:
        """The lines of a batch of units (`start` the index of its first, `done` what became of each),
        with the refused lines before the next batch's (all that remain, after the last)."""
        end = start + len(done)
        new: list[dict[str, Any]] = []
        while self.taken < len(self.slots):
            slot = self.slots[self.taken]
            if isinstance(slot, int):
                if slot >= end:
                    break
                new += _unit_lines(self.units[slot], done[slot - start])
            else:
                new.append(slot)
            self.taken += 1
        self.lines += new
        return new


def _slots(batches: Sequence[Batch]) -> list[Slot]:
    """Every file's lines in order, a unit standing for the lines of its hands (a list per file,
    so that the problems of two files never merge into one line)."""
    slots: list[Slot] = []
    index = 0
    for batch in batches:
        if batch.refused is not None:
            slots.append(_problem_line(batch.refused))
            continue
        first = len(slots)
        for item in batch.items:
            if isinstance(item, Problem):
                _add_problem(slots, item, first)
            else:
                slots.append(index)
                index += 1
    return slots


def _unit_lines(unit: Unit, items: list[Stored] | str) -> list[dict[str, Any]]:
    """The lines of one unit's hands: stored, or all refused by the store."""
    if isinstance(items, str):
        return [_problem_line(Problem(hand.origin, "store", items, problem="store_failed", params={"error": items}))
                for hand in unit.hands]
    return [stored_line(stored) for stored in items]


def stored_lines(_start: int, done: Sequence[list[Stored] | str]) -> list[dict[str, Any]]:
    """The lines of the stored hands of a batch of units alone (`Lines.take` without the refused
    lines): every stored record has the receipt of what created it."""
    return [stored_line(item) for items in done if not isinstance(items, str) for item in items]


def _problem_line(problem: Problem) -> dict[str, Any]:
    """A bad item: rejected, or skipped when it was never meant to be a record."""
    status = "skipped" if problem.code == "junk" else "rejected"
    return {**origin_fields(problem.origin), "status": status, "record_id": None, "game_id": problem.game_id,
            "platform": None, "revision": None, "verdict": None, "sha256": problem.sha256,
            "errors": [problem_error(problem)]}


def _add_problem(slots: list[Slot], problem: Problem, first: int) -> None:
    """Several errors of one item (every bad schema path) go on one result line (never merged
    into a line of an earlier file: `first` is where this file's lines start)."""
    last = slots[-1] if len(slots) > first else None
    if isinstance(last, dict) and last["status"] == "rejected" and last["source"] == problem.origin.label():
        last["errors"].append(problem_error(problem))
    else:
        slots.append(_problem_line(problem))


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
    transaction. A result line is the upload's (`Lines`, `stored_line`): source, file, member, line,
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


__all__ = ["ACCEPTED", "COLUMNS", "Lines", "NOT_ACCEPTED", "OUTCOMES", "ReceiptQuery", "STATUSES", "Slot", "Stored", "add", "find",
           "of_record", "origin_fields", "problem_error", "rejected_by_day", "row_digest", "stored_line", "stored_lines"]
