"""The audit trail, auditors' notes and the integrity check. No Flask here.

- `trail` is append-only: who uploaded, viewed, re-audited, annotated or
  exported what, and when; also logins and account changes. This module has
  no UPDATE or DELETE of it, and SQLite triggers (m003_trust in `records.migrations`) abort
  any that someone tries. Each row also carries `hash` = HMAC-sha256 with the
  trail key (kept outside the database) of the previous row's hash and this
  row's content, so a row edited or removed with the triggers dropped (someone
  with the file) breaks the chain, and without the key it cannot be rebuilt;
  the head (`flask trail-head`) kept elsewhere catches rows cut off the end.
- `notes` are auditors' annotations of a record (case number, decision,
  text): added, never edited, also protected by triggers; each note is also
  a trail entry, so the chain covers it.
- `verify_trail` walks the chain; `records.verify` checks every table against
  the entries (every state change has its entry, and the state is what the
  entries say).

Appends must run inside the caller's write transaction (`records.db.atomic`), so
reading the previous hash and inserting the next row cannot interleave.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from audit.vocabulary import is_digits
from records.refusal import FieldRefusal

GENESIS = "0" * 64
"""The `prev` of the first trail row."""
ACTIONS = ("upload", "view", "export", "audit", "reaudit", "annotate", "login", "login-failed", "logout",
           "account-create", "account-update", "token-create", "token-revoke", "bootstrap", "chain-keyed",
           "receipt", "case-open", "case-attach", "case-decide", "case-close", "case-reopen", "conformance",
           "audit-failed", "platform-adopt", "platform-reaudit")
"""Every action the trail records."""
DECISIONS = ("open", "confirmed", "dismissed", "escalated", "closed")
"""What an auditor may record as the decision on a case."""
NOTE_LIMITS = {"case_number": 64, "text": 4000}
"""Longest case number and note text, in characters."""


class NoteError(FieldRefusal):
    """A note that breaks a rule: `field` is the field, `code` the stable name of the refusal (the
    web layer words it in the asker's language, web/errors.toml) and `params` its values; the
    message, in English, names the field first (`text: ...`)."""


def _content(at: str, actor: str, action: str, record_id: int | None, detail: str | None) -> str:
    """The canonical text a row's hash covers."""
    return json.dumps([at, actor, action, record_id, detail], ensure_ascii=False, separators=(",", ":"))


def chain_hash(prev: str, at: str, actor: str, action: str, record_id: int | None, detail: str | None,
               key: bytes | None = None) -> str:
    """HMAC-sha256 with the trail key over the previous hash and this row: without the key, kept
    outside the database, nobody can recompute the chain after editing it. `key=None` is the plain
    sha256 of rows written before the chain was keyed (migration m004)."""
    text = (prev + "\n" + _content(at, actor, action, record_id, detail)).encode("utf-8")
    if key is None:
        return hashlib.sha256(text).hexdigest()
    return hmac.new(key, text, hashlib.sha256).hexdigest()


def fingerprint(key: bytes, value: str) -> str:
    """A keyed digest of a secret-derived value (a password hash, a token hash) for the trail: it
    proves the value did not change without showing anything about it."""
    return hmac.new(key, ("fingerprint\n" + value).encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def digest(value: Any) -> str:
    """sha256 of a JSON value in canonical form: what a trail entry records of a stored row."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def append(db: Database, *, at: str, actor: str | None, action: str, record_id: int | None = None,
           detail: dict[str, Any] | None = None, key: bytes) -> int:
    """Add one trail row, chained to the last with the trail key; call inside a write transaction.
    The first keyed row after rows of the unkeyed chain (m003) is a `chain-keyed` row recording
    where the unkeyed part ends and which rows of every table were there before (`trust_horizon`)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown trail action {action!r}")
    if not _keyed(db):
        _append(db, at=at, actor="system", action="chain-keyed", record_id=None, key=key,
                detail={"horizon": horizon(db), "legacy_rows": _count_rows(db)})
    return _append(db, at=at, actor=actor, action=action, record_id=record_id, detail=detail, key=key)


def _append(db: Database, *, at: str, actor: str | None, action: str, record_id: int | None,
            detail: dict[str, Any] | None, key: bytes) -> int:
    """Insert one chained row."""
    who = actor or "system"
    text = None if detail is None else json.dumps(detail, ensure_ascii=False, sort_keys=True, allow_nan=False)
    row = db.execute("SELECT hash FROM trail ORDER BY id DESC LIMIT 1").fetchone()
    prev = row[0] if row else GENESIS
    digest_ = chain_hash(prev, at, who, action, record_id, text, key)
    cursor = db.execute("INSERT INTO trail (at, actor, action, record_id, detail, prev, hash) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)", [at, who, action, record_id, text, prev, digest_])
    return int(cursor.lastrowid or 0)


def _keyed(db: Database) -> bool:
    """Whether the chain already has its `chain-keyed` row (near its start, so the scan is short)."""
    return db.execute("SELECT 1 FROM trail WHERE action = 'chain-keyed' LIMIT 1").fetchone() is not None


def _count_rows(db: Database) -> int:
    """Rows of the trail so far."""
    return int(db.execute("SELECT count(*) FROM trail").fetchone()[0])


def horizon(db: Database) -> dict[str, int]:
    """Per table, the highest id present when migration m004 ran (`trust_horizon`): rows up to it
    were written before the trail recorded every state change, and `verify` checks them only
    against what the older entries say."""
    try:
        return {str(name): int(top) for name, top in db.execute("SELECT name, max_id FROM trust_horizon")}
    except Exception:  # noqa: BLE001 - no table: a database older than m004 has no horizon yet
        return {}


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
        raise NoteError("case_number", f"at most {NOTE_LIMITS['case_number']} characters", "too_long",
                        limit=NOTE_LIMITS["case_number"])
    if decision not in DECISIONS:
        raise NoteError("decision", f"one of {', '.join(DECISIONS)}", "not_one_of", choices=list(DECISIONS))
    if not body:
        raise NoteError("text", "a note needs some text", "note_text_missing")
    if len(body) > NOTE_LIMITS["text"]:
        raise NoteError("text", f"at most {NOTE_LIMITS['text']} characters", "too_long", limit=NOTE_LIMITS["text"])
    return case, decision, body


def add_note(db: Database, *, record_id: int, author: str, case_number: str | None, decision: str | None,
             text: str | None, at: str, key: bytes) -> int:
    """Add a note and its trail entry; call inside a write transaction. Notes are never edited:
    a correction is a new note."""
    case, chosen, body = check_note(case_number, decision, text)
    cursor = db.execute("INSERT INTO notes (record_id, author, case_number, decision, text, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)", [record_id, author, case, chosen, body, at])
    note_id = int(cursor.lastrowid or 0)
    text_sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    append(db, at=at, actor=author, action="annotate", record_id=record_id, key=key,
           detail={"note_id": note_id, "case_number": case, "decision": chosen, "text_sha256": text_sha})
    return note_id


def notes(db: Database, record_id: int) -> list[dict[str, Any]]:
    """A record's notes, oldest first (a case reads as a story)."""
    return list(db.query("SELECT id, author, case_number, decision, text, created_at FROM notes "
                         "WHERE record_id = ? ORDER BY id", [record_id]))


# ----- verification of the chain (records/verify.py checks the tables against it) --------------


@dataclass(frozen=True)
class Mismatch:
    """One thing `verify` found wrong."""

    kind: str
    """the table (record, document, audit, note, account, token, upload, match) or trail"""
    ident: int
    message: str
    code: str = ""
    """a stable name of the problem where one is given (`search_index_damaged`, `store_unreadable`, ...)"""

    def describe(self) -> str:
        """One line for the terminal (the code, when there is one, at its end in brackets)."""
        return f"{self.kind} {self.ident}: {self.message}" + (f" [{self.code}]" if self.code else "")


@dataclass(frozen=True)
class Head:
    """The last row of the chain: what an operator writes down elsewhere (`flask trail-head`)."""

    row_id: int
    hash: str

    def text(self) -> str:
        """`ID:HASH`, the form `verify --head` takes back."""
        return f"{self.row_id}:{self.hash}"

    @staticmethod
    def parse(text: str) -> Head:
        """`ID:HASH` -> Head; ValueError when it is not that."""
        ident, _, value = text.strip().partition(":")
        if not is_digits(ident) or len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
            raise ValueError("a head is ID:HASH as `flask trail-head` prints it (a row id, 64 hex digits)")
        return Head(int(ident), value)


def head(db: Database) -> Head | None:
    """The chain's last row, or None for an empty trail."""
    row = db.execute("SELECT id, hash FROM trail ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else Head(int(row[0]), str(row[1]))


def verify_trail(db: Database, key: bytes, anchor: Head | None = None) -> Iterator[Mismatch]:
    """Walk the chain: rows before the `chain-keyed` row carry plain sha256 (written before m004),
    every row from it on an HMAC with the key. Report each row whose link or content does not add
    up, an unkeyed part longer than the `chain-keyed` row says, and, given the head an operator
    kept, a chain that no longer holds it (rows cut off the end, or the chain rebuilt)."""
    prev, keyed_from, legacy = GENESIS, None, None
    seen_anchor = anchor is None
    cursor = db.execute("SELECT id, at, actor, action, record_id, detail, prev, hash FROM trail ORDER BY id")
    index = 0
    for row_id, at, actor, action, record_id, detail, stored_prev, stored_hash in cursor:
        if keyed_from is None and action == "chain-keyed":
            keyed_from = row_id
            legacy = _legacy_rows(detail)
            if legacy != index:
                yield Mismatch("trail", row_id, f"the unkeyed part of the chain has {index} rows, the chain-keyed "
                                                f"row says {legacy}: rows were added or removed before it")
        key_now = key if keyed_from is not None else None
        if stored_prev != prev:
            yield Mismatch("trail", row_id, "the chain is broken before this row (a row was removed or edited)")
        if chain_hash(stored_prev, at, actor, action, record_id, detail, key_now) != stored_hash:
            yield Mismatch("trail", row_id, "this row was changed after it was written"
                           + ("" if key_now is not None else " (or it was rewritten without the trail key)"))
        if anchor is not None and row_id == anchor.row_id:
            seen_anchor = True
            if stored_hash != anchor.hash:
                yield Mismatch("trail", row_id, "this row's hash is not the head kept outside the database: "
                                                "the chain was rebuilt")
        prev = stored_hash
        index += 1
    if not seen_anchor and anchor is not None:
        yield Mismatch("trail", anchor.row_id, "the head kept outside the database is gone: rows were cut off "
                                               "the end of the trail")
    if keyed_from is None and index and _has_keyed_entries(db):
        yield Mismatch("trail", 0, "the chain has no chain-keyed row, yet holds entries only the keyed chain "
                                   "writes: it was rebuilt without the key")


def _legacy_rows(detail: str | None) -> int | None:
    """The count of unkeyed rows a chain-keyed row records."""
    try:
        value = json.loads(detail or "{}").get("legacy_rows")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) else None


def _has_keyed_entries(db: Database) -> bool:
    """Entries of actions or fields that exist only since m004 (first audits, upload ids)."""
    row = db.execute("SELECT 1 FROM trail WHERE action = 'audit' OR detail LIKE '%\"upload_id\"%' LIMIT 1").fetchone()
    return row is not None


__all__ = ["ACTIONS", "DECISIONS", "GENESIS", "Head", "Mismatch", "NOTE_LIMITS", "NoteError", "add_note", "append",
           "chain_hash", "check_note", "count", "digest", "entries", "fingerprint", "head", "horizon", "notes",
           "verify_trail"]
