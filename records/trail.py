"""The audit trail, auditors' notes and the integrity check. No Flask here.

- `trail` is append-only: who uploaded, viewed, re-audited, annotated or
  exported what, and when; also logins and account changes. This module has
  no UPDATE or DELETE of it, and SQLite triggers (m003_trust in storage) abort
  any that someone tries. Each row also carries `hash` = sha256(previous
  row's hash + this row's content), so a row edited or removed with the
  triggers dropped (someone with the file) breaks the chain and `verify` says
  where.
- `notes` are auditors' annotations of a record (case number, decision,
  text): added, never edited, also protected by triggers; each note is also
  a trail entry, so the chain covers it.
- `verify` re-hashes every stored byte string against the sha256 recorded
  when it arrived, and walks the chain.

Appends must run inside the caller's write transaction (`Store.write()`), so
reading the previous hash and inserting the next row cannot interleave.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

GENESIS = "0" * 64
"""The `prev` of the first trail row."""
ACTIONS = ("upload", "view", "export", "reaudit", "annotate", "login", "login-failed", "logout",
           "account-create", "account-update", "token-create", "token-revoke", "bootstrap",
           "receipt", "case-open", "case-attach", "case-decide", "case-close", "case-reopen")
"""Every action the trail records."""
DECISIONS = ("open", "confirmed", "dismissed", "escalated", "closed")
"""What an auditor may record as the decision on a case."""
NOTE_LIMITS = {"case_number": 64, "text": 4000}
"""Longest case number and note text, in characters."""


class NoteError(ValueError):
    """A note that breaks a rule; the message names the field."""


def _content(at: str, actor: str, action: str, record_id: int | None, detail: str | None) -> str:
    """The canonical text a row's hash covers."""
    return json.dumps([at, actor, action, record_id, detail], ensure_ascii=False, separators=(",", ":"))


def chain_hash(prev: str, at: str, actor: str, action: str, record_id: int | None, detail: str | None) -> str:
    """sha256 over the previous hash and this row."""
    return hashlib.sha256((prev + "\n" + _content(at, actor, action, record_id, detail)).encode("utf-8")).hexdigest()


def append(db: Database, *, at: str, actor: str | None, action: str, record_id: int | None = None,
           detail: dict[str, Any] | None = None) -> int:
    """Add one trail row, chained to the last; call inside a write transaction."""
    if action not in ACTIONS:
        raise ValueError(f"unknown trail action {action!r}")
    who = actor or "system"
    text = None if detail is None else json.dumps(detail, ensure_ascii=False, sort_keys=True)
    row = db.execute("SELECT hash FROM trail ORDER BY id DESC LIMIT 1").fetchone()
    prev = row[0] if row else GENESIS
    digest = chain_hash(prev, at, who, action, record_id, text)
    cursor = db.execute("INSERT INTO trail (at, actor, action, record_id, detail, prev, hash) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)", [at, who, action, record_id, text, prev, digest])
    return int(cursor.lastrowid or 0)


def entries(db: Database, *, record_id: int | None = None, limit: int = 200,
            actions: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The newest trail rows (of one record, when given), newest first, detail parsed."""
    clauses: list[str] = []
    params: list[Any] = []
    if record_id is not None:
        clauses.append("record_id = ?")
        params.append(record_id)
    if actions:
        clauses.append(f"action IN ({', '.join('?' * len(actions))})")
        params += list(actions)
    where = " AND ".join(clauses) or "1"
    rows = db.query(f"SELECT id, at, actor, action, record_id, detail FROM trail WHERE {where} "
                    "ORDER BY id DESC LIMIT ?", params + [limit])
    return [{**row, "detail": json.loads(row["detail"]) if row["detail"] else None} for row in rows]


def count(db: Database, *, record_id: int) -> int:
    """How many trail rows name a record."""
    return int(db.execute("SELECT count(*) FROM trail WHERE record_id = ?", [record_id]).fetchone()[0])


# ----- notes ---------------------------------------------------------------------------------


def check_note(case_number: str | None, decision: str | None, text: str | None) -> tuple[str | None, str, str]:
    """A note's fields cleaned up, or NoteError naming the field."""
    case = (case_number or "").strip() or None
    body = (text or "").strip()
    if case is not None and len(case) > NOTE_LIMITS["case_number"]:
        raise NoteError(f"case_number: at most {NOTE_LIMITS['case_number']} characters")
    if decision not in DECISIONS:
        raise NoteError(f"decision: one of {', '.join(DECISIONS)}")
    if not body:
        raise NoteError("text: a note needs some text")
    if len(body) > NOTE_LIMITS["text"]:
        raise NoteError(f"text: at most {NOTE_LIMITS['text']} characters")
    return case, decision, body


def add_note(db: Database, *, record_id: int, author: str, case_number: str | None, decision: str | None,
             text: str | None, at: str) -> int:
    """Add a note and its trail entry; call inside a write transaction. Notes are never edited:
    a correction is a new note."""
    case, chosen, body = check_note(case_number, decision, text)
    cursor = db.execute("INSERT INTO notes (record_id, author, case_number, decision, text, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)", [record_id, author, case, chosen, body, at])
    note_id = int(cursor.lastrowid or 0)
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    append(db, at=at, actor=author, action="annotate", record_id=record_id,
           detail={"note_id": note_id, "case_number": case, "decision": chosen, "text_sha256": digest})
    return note_id


def notes(db: Database, record_id: int) -> list[dict[str, Any]]:
    """A record's notes, oldest first (a case reads as a story)."""
    return list(db.query("SELECT id, author, case_number, decision, text, created_at FROM notes "
                         "WHERE record_id = ? ORDER BY id", [record_id]))


# ----- verification --------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """One thing `verify` found wrong."""

    kind: str
    """record | match | trail"""
    ident: int
    message: str

    def describe(self) -> str:
        """One line for the terminal."""
        return f"{self.kind} {self.ident}: {self.message}"


def _sha(data: bytes) -> str:
    """Hex sha256 of bytes."""
    return hashlib.sha256(data).hexdigest()


def _as_bytes(value: bytes | str) -> bytes:
    """A stored value as bytes: an edit made with SQL text functions turns a BLOB into TEXT,
    and verify must report that, not crash on it."""
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def verify_records(db: Database) -> Iterator[Mismatch]:
    """Every record's bytes against the sha256 recorded at upload (on the record and on the document)."""
    cursor = db.execute("SELECT r.id, r.game_id, r.sha256, d.sha256, d.size, d.raw FROM records r "
                        "LEFT JOIN documents d ON d.id = r.document_id ORDER BY r.id")
    for record_id, game_id, recorded, doc_hash, size, raw in cursor:  # one row in memory at a time
        if raw is None:
            yield Mismatch("record", record_id, f"{game_id}: its bytes are missing")
            continue
        actual = _sha(_as_bytes(raw))
        if actual != recorded or actual != doc_hash or len(raw) != size:
            yield Mismatch("record", record_id,
                           f"{game_id}: sha256 of the stored bytes is {actual}, recorded {recorded}")


def verify_matches(db: Database) -> Iterator[Mismatch]:
    """Every match document against its recorded sha256."""
    cursor = db.execute("SELECT m.id, m.sha256, d.raw FROM matches m LEFT JOIN documents d ON d.id = m.document_id")
    for match_id, recorded, raw in cursor:
        actual = None if raw is None else _sha(_as_bytes(raw))
        if actual != recorded:
            yield Mismatch("match", match_id, f"sha256 of the stored match is {actual}, recorded {recorded}")


def verify_trail(db: Database) -> Iterator[Mismatch]:
    """Walk the hash chain; report each row whose link or content does not add up."""
    prev = GENESIS
    cursor = db.execute("SELECT id, at, actor, action, record_id, detail, prev, hash FROM trail ORDER BY id")
    for row_id, at, actor, action, record_id, detail, stored_prev, stored_hash in cursor:
        if stored_prev != prev:
            yield Mismatch("trail", row_id, "the chain is broken before this row (a row was removed or edited)")
        if chain_hash(stored_prev, at, actor, action, record_id, detail) != stored_hash:
            yield Mismatch("trail", row_id, "this row was changed after it was written")
        prev = stored_hash


def verify(db: Database) -> list[Mismatch]:
    """Everything `flask verify` checks, in one list (empty when all is well)."""
    return [*verify_records(db), *verify_matches(db), *verify_trail(db)]


__all__ = ["ACTIONS", "DECISIONS", "GENESIS", "Mismatch", "NOTE_LIMITS", "NoteError", "add_note", "append",
           "chain_hash", "check_note", "count", "entries", "notes", "verify"]
