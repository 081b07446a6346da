"""Cases: one player's complaint, the records it is about, and what was decided. No Flask here.

A dispute is rarely one record: "game X, I was paid 3 too little" may involve
two revisions of X, or several hands of a match. A case has a number (unique per
platform; `next_number` proposes the next of the platform's yearly sequence,
`2026-0001`, and a case opened without one gets it), a platform, the player and
the complaint; records (any revision) are attached to it, the first attached
being the disputed one (`disputed`); a decision names its outcome, who owes whom
how much, and the audit it rests on; then the case is closed (and may be reopened).

- `cases` rows change only in `status` and `updated_at`; `case_records` only
  grows; `case_decisions` is append-only (triggers in m005): a later decision
  supersedes an earlier one, which stays.
- Every change is a trail entry in the same transaction (callers hold
  `records.db.atomic`), so the hash chain covers the whole story.
- A record may be attached only if it is of the case's platform; a decision's
  audit must be an audit of an attached record; a closed case refuses changes.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any

from sqlite_utils import Database

from records import clock, search, trail
from records.paging import Page, offset
from records.refusal import FieldRefusal

STATUSES = ("open", "decided", "closed")
"""open: being worked; decided: a decision is recorded; closed: done (reopening goes back to
`decided` when there is a decision, else `open`)."""
OUTCOMES = ("upheld", "partly_upheld", "dismissed", "withdrawn")
"""What was decided about the complaint."""
CASE_LIMITS = {"number": 64, "platform": 200, "player": 200, "complaint": 4000, "note": 4000}
"""Longest value of each text field, in characters."""


class CaseError(FieldRefusal):
    """A change a case refuses: a FieldRefusal (the field, a stable code such as
    `case_number_taken` that the page dictionary words, web/i18n_cases.py, and its params) with
    `status`, the HTTP answer (400, 404, 409)."""

    def __init__(self, status: int, field: str, message: str, code: str, **params: Any) -> None:
        super().__init__(field, message, code, **params)
        self.status = status


@dataclass(frozen=True)
class CaseQuery:
    """Filters and page of the case list."""

    status: str | None = None
    platform: str | None = None
    number: str | None = None
    q: str | None = None
    """Fragment of the number, platform, player or complaint (folded)."""
    page: int = 1
    per_page: int = 50


def search_text(number: str, platform: str, player: str | None, complaint: str) -> str:
    """The folded search text of a case (derived: `verify` recomputes it)."""
    return search.joined([number, platform, player, complaint])


NUMBER_DIGITS = 4
"""The sequence part of an assigned number has at least this many digits (`2026-0001`)."""


def _sequence(year: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(year)}-(\d+)")


def next_number(db: Database, platform: str, at: str, zone: tzinfo | None = None) -> str:
    """The next number of the platform's sequence for the year of `at` (an ISO time, UTC, as
    `records.rows.now` gives) in `zone`, the service's clock (`records.clock`, +08:00 unless
    given): `YYYY-NNNN`, one past the highest `YYYY-<digits>` the platform has that year. A
    number typed by hand in another shape does not move the sequence; one in this shape does (so
    the next is never taken). Read inside the transaction that opens the case for the number to
    stay free."""
    year = (clock.day_of(at, zone or clock.parse_zone(clock.DEFAULT_ZONE)) or at)[:4]
    shape = _sequence(year)
    highest = 0
    for (number,) in db.execute("SELECT number FROM cases WHERE platform = ? AND number >= ? AND number < ?",
                                [platform.strip(), f"{year}-", f"{year}-\U0010ffff"]):
        match = shape.fullmatch(number)
        if match:
            highest = max(highest, int(match.group(1)))
    return f"{year}-{highest + 1:0{NUMBER_DIGITS}d}"


def open_case(db: Database, *, number: str | None, platform: str, player: str | None, complaint: str,
              actor: str, at: str, key: bytes, zone: tzinfo | None = None) -> int:
    """Open a case; `number` None (or blank) takes the platform's next number (`next_number`, the
    year of `at` in `zone`); CaseError(409) when the number is taken on that platform. Inside a
    write transaction."""
    platform, complaint = platform.strip(), complaint.strip()
    number = (number or "").strip() or next_number(db, platform, at, zone)
    player = (player or "").strip() or None
    if not complaint:
        raise CaseError(400, "complaint", "a case needs the complaint's text", "case_complaint_missing")
    if db.execute("SELECT 1 FROM cases WHERE platform = ? AND number = ?", [platform, number]).fetchone():
        raise CaseError(409, "number", f"case {number!r} already exists on platform {platform!r}",
                        "case_number_taken", number=number, platform=platform)
    cursor = db.execute(
        "INSERT INTO cases (number, platform, player, complaint, status, created_at, created_by, updated_at, text) "
        "VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?)",
        [number, platform, player, complaint, at, actor, at, search_text(number, platform, player, complaint)])
    case_id = int(cursor.lastrowid or 0)
    trail.append(db, at=at, actor=actor, key=key, action="case-open",
                 detail={"case_id": case_id, "number": number, "platform": platform, "player": player,
                         "complaint_sha256": hashlib.sha256(complaint.encode("utf-8")).hexdigest()})
    return case_id


def case_row(db: Database, case_id: int) -> dict[str, Any]:
    """A case's own row; CaseError(404) when there is none."""
    rows = list(db.query("SELECT id, number, platform, player, complaint, status, created_at, created_by, "
                         "updated_at FROM cases WHERE id = ?", [case_id]))
    if not rows:
        raise CaseError(404, "case", f"case {case_id} does not exist", "case_missing", case=case_id)
    return rows[0]


def _changeable(db: Database, case_id: int) -> dict[str, Any]:
    """The case, unless it is closed (409)."""
    case = case_row(db, case_id)
    if case["status"] == "closed":
        raise CaseError(409, "case", f"case {case['number']} is closed; reopen it first", "case_closed",
                        number=case["number"])
    return case


def attach(db: Database, *, case_id: int, record_id: int, revision: int | None, actor: str, at: str, key: bytes) -> tuple[int, bool]:
    """Attach a record (or, with `revision`, that revision of the record's game) to a case.
    Returns (the record id attached, whether it is new to the case)."""
    case = _changeable(db, case_id)
    row = db.execute("SELECT id, platform, game_id, revision FROM records WHERE id = ?", [record_id]).fetchone()
    if row is None:
        raise CaseError(404, "record", f"record {record_id} does not exist", "case_record_missing", record=record_id)
    if revision is not None and revision != row[3]:
        other = db.execute("SELECT id FROM records WHERE platform = ? AND game_id = ? AND revision = ?",
                           [row[1], row[2], revision]).fetchone()
        if other is None:
            raise CaseError(404, "revision", f"game {row[2]} has no revision {revision}", "case_revision_missing",
                            game=row[2], revision=revision)
        record_id = int(other[0])
    if row[1] != case["platform"]:
        raise CaseError(400, "record", f"record {record_id} is of platform {row[1]!r}, the case of {case['platform']!r}",
                        "case_other_platform", record=record_id, platform=row[1], case_platform=case["platform"])
    if db.execute("SELECT 1 FROM case_records WHERE case_id = ? AND record_id = ?", [case_id, record_id]).fetchone():
        return record_id, False
    db.execute("INSERT INTO case_records (case_id, record_id, added_at, added_by) VALUES (?, ?, ?, ?)",
               [case_id, record_id, at, actor])
    db.execute("UPDATE cases SET updated_at = ? WHERE id = ?", [at, case_id])
    trail.append(db, at=at, actor=actor, key=key, action="case-attach", record_id=record_id,
                 detail={"case_id": case_id, "number": case["number"], "game_id": row[2],
                         "revision": revision or row[3]})
    return record_id, True


def check_decision(db: Database, *, case_id: int, outcome: str, note: str, payments: list[dict[str, Any]],
                   audit_id: int | None) -> dict[str, Any]:
    """The case, if a decision of these values may be recorded on it; the refusal `decide` would
    raise otherwise. Writes nothing: the case page asks for a confirmation only of a decision that
    will be recorded (issue 33.1b)."""
    case = _changeable(db, case_id)
    if outcome not in OUTCOMES:
        raise CaseError(400, "outcome", f"one of {', '.join(OUTCOMES)}", "case_outcome_unknown", outcome=outcome)
    if not note.strip():
        raise CaseError(400, "note", "a decision needs a note saying why", "case_note_missing")
    for index, payment in enumerate(payments):
        if payment["from"] == payment["to"]:
            raise CaseError(400, f"payments[{index}]", f"`from` and `to` are the same ({payment['from']!r})",
                            "case_payment_to_self", index=index, seat=payment["from"])
    if audit_id is not None:
        found = db.execute("SELECT 1 FROM audits a JOIN case_records cr ON cr.record_id = a.record_id "
                           "WHERE a.id = ? AND cr.case_id = ?", [audit_id, case_id]).fetchone()
        if found is None:
            raise CaseError(400, "audit", f"audit {audit_id} is not an audit of a record attached to this case",
                            "case_audit_not_attached", audit=audit_id)
    return case


def decide(db: Database, *, case_id: int, outcome: str, note: str, payments: list[dict[str, Any]],
           audit_id: int | None, actor: str, at: str, key: bytes) -> int:
    """Record a decision (it supersedes earlier ones, which stay) and mark the case decided."""
    case = check_decision(db, case_id=case_id, outcome=outcome, note=note, payments=payments, audit_id=audit_id)
    note = note.strip()
    text = json.dumps(payments, ensure_ascii=False)
    cursor = db.execute("INSERT INTO case_decisions (case_id, outcome, note, payments_json, audit_id, decided_at, "
                        "decided_by) VALUES (?, ?, ?, ?, ?, ?, ?)", [case_id, outcome, note, text, audit_id, at, actor])
    decision_id = int(cursor.lastrowid or 0)
    db.execute("UPDATE cases SET status = 'decided', updated_at = ? WHERE id = ?", [at, case_id])
    trail.append(db, at=at, actor=actor, key=key, action="case-decide",
                 detail={"case_id": case_id, "number": case["number"], "decision_id": decision_id,
                         "outcome": outcome, "payments": payments, "audit_id": audit_id,
                         "note_sha256": hashlib.sha256(note.encode("utf-8")).hexdigest()})
    return decision_id


def close(db: Database, *, case_id: int, actor: str, at: str, key: bytes) -> None:
    """Close a decided case (an undecided one: 409, decide first)."""
    case = _changeable(db, case_id)
    if case["status"] != "decided":
        raise CaseError(409, "case", f"case {case['number']} has no decision yet; decide it before closing",
                        "case_not_decided", number=case["number"])
    db.execute("UPDATE cases SET status = 'closed', updated_at = ? WHERE id = ?", [at, case_id])
    trail.append(db, at=at, actor=actor, key=key, action="case-close", detail={"case_id": case_id, "number": case["number"]})


def reopen(db: Database, *, case_id: int, actor: str, at: str, key: bytes) -> None:
    """Reopen a closed case: back to `decided` (its decision stands until a new one)."""
    case = case_row(db, case_id)
    if case["status"] != "closed":
        raise CaseError(409, "case", f"case {case['number']} is not closed", "case_not_closed", number=case["number"])
    db.execute("UPDATE cases SET status = 'decided', updated_at = ? WHERE id = ?", [at, case_id])
    trail.append(db, at=at, actor=actor, key=key, action="case-reopen", detail={"case_id": case_id, "number": case["number"]})


def attached(db: Database, case_id: int) -> list[dict[str, Any]]:
    """The records of a case in the order they were attached (the disputed one first), with their
    identity and verdict."""
    return list(db.query(
        "SELECT r.id, r.platform, r.game_id, r.revision, r.is_current, r.verdict, r.played_at, r.players, "
        "r.latest_audit_id, cr.added_at, cr.added_by FROM case_records cr JOIN records r ON r.id = cr.record_id "
        "WHERE cr.case_id = ? ORDER BY cr.added_at, cr.rowid", [case_id]))


def disputed(db: Database, case_id: int) -> int | None:
    """The disputed record of a case: the first one attached (opening a case from a record's page
    attaches that record first, then the other revisions of its game); None while none is."""
    row = db.execute("SELECT record_id FROM case_records WHERE case_id = ? ORDER BY added_at, rowid LIMIT 1",
                     [case_id]).fetchone()
    return int(row[0]) if row else None


def by_number(db: Database, platform: str, number: str) -> int | None:
    """The id of the platform's case with this number (numbers are unique per platform), or None."""
    row = db.execute("SELECT id FROM cases WHERE platform = ? AND number = ?",
                     [platform.strip(), number.strip()]).fetchone()
    return int(row[0]) if row else None


def decisions(db: Database, case_id: int) -> list[dict[str, Any]]:
    """Every decision of a case, oldest first (the last one stands)."""
    rows = db.query("SELECT id, outcome, note, payments_json, audit_id, decided_at, decided_by FROM case_decisions "
                    "WHERE case_id = ? ORDER BY id", [case_id])
    return [{**{k: v for k, v in row.items() if k != "payments_json"}, "payments": json.loads(row["payments_json"])}
            for row in rows]


def of_record(db: Database, record_id: int) -> list[dict[str, Any]]:
    """The cases a record is attached to."""
    return list(db.query("SELECT c.id, c.number, c.status FROM case_records cr JOIN cases c ON c.id = cr.case_id "
                         "WHERE cr.record_id = ? ORDER BY c.id", [record_id]))


def standing_of_record(db: Database, record_id: int) -> dict[str, Any] | None:
    """The newest case a record is attached to, with its status and its standing decision's outcome
    and time (None, None while undecided); None when the record is in no case. What a record's PDF
    names as its case (issue 33.5: one status, the case's, not a note's label)."""
    row = db.execute("SELECT c.id, c.number, c.status FROM case_records cr JOIN cases c ON c.id = cr.case_id "
                     "WHERE cr.record_id = ? ORDER BY c.id DESC LIMIT 1", [record_id]).fetchone()
    if row is None:
        return None
    decided = db.execute("SELECT outcome, decided_at FROM case_decisions WHERE case_id = ? ORDER BY id DESC LIMIT 1",
                         [row[0]]).fetchone()
    return {"number": row[1], "status": row[2], "outcome": decided[0] if decided else None,
            "decided_at": decided[1] if decided else None}


def find(db: Database, query: CaseQuery) -> Page:
    """Cases matching every filter, newest first."""
    clauses: list[str] = []
    params: list[Any] = []
    if query.platform is not None:
        clauses.append("platform = ?")
        params.append(query.platform)
    if query.number:
        clauses.append("number = ?")
        params.append(query.number.strip())
    if query.q and search.fold(query.q):
        clauses.append(search.MATCH)
        params.append(search.pattern(query.q))
    where = " AND ".join(clauses) or "1"
    counts = dict.fromkeys(STATUSES, 0)
    for status, count in db.execute(f"SELECT status, count(*) FROM cases WHERE {where} GROUP BY status", params):
        counts[status] = count
    if query.status:
        where, params = f"{where} AND status = ?", params + [query.status]
    total = counts.get(query.status, 0) if query.status else sum(counts.values())
    rows = list(db.query(
        f"SELECT c.id, c.number, c.platform, c.player, c.complaint, c.status, c.created_at, c.created_by, "
        f"c.updated_at, (SELECT count(*) FROM case_records cr WHERE cr.case_id = c.id) AS records, "
        f"(SELECT outcome FROM case_decisions d WHERE d.case_id = c.id ORDER BY d.id DESC LIMIT 1) AS outcome "
        f"FROM cases c WHERE {where} ORDER BY c.id DESC LIMIT ? OFFSET ?",
        params + [query.per_page, offset(query.page, query.per_page)]))
    return Page(rows, total, max(query.page, 1), query.per_page, counts)


__all__ = ["CASE_LIMITS", "CaseError", "CaseQuery", "NUMBER_DIGITS", "OUTCOMES", "STATUSES", "attach", "standing_of_record",
           "attached", "by_number", "case_row", "close", "decide", "decisions", "disputed", "find", "next_number",
           "of_record", "open_case", "reopen", "search_text"]
