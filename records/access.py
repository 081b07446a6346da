"""The access log: views and exports, kept in a database of their own. No Flask here.

Viewing a record is logged (who read what, and when), but a log row is a write, and on the main
database every GET of a record page would then be a write transaction queueing behind uploads and
in front of them. So views and exports go to a second SQLite file (by default the main one's path
+ `-access`) with the same `trail` table, chained and keyed exactly like the main trail: readers
take only that file's write lock, never the main one's, and uploads never wait for a reader.

What changes state (uploads, audits, notes, accounts) stays in the main trail, in the same
transaction as the change; `flask verify` walks both chains.
"""
from __future__ import annotations

from pathlib import Path

from sqlite_utils import Database

from records.db import BUSY_TIMEOUT_MS, atomic

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS trail (id INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL, "
    "action TEXT NOT NULL, record_id INTEGER, detail TEXT, prev TEXT NOT NULL, hash TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS idx_trail_record_id ON trail (record_id)",
    "CREATE TRIGGER IF NOT EXISTS trail_no_update BEFORE UPDATE ON trail "
    "BEGIN SELECT RAISE(ABORT, 'trail is append-only: UPDATE refused'); END",
    "CREATE TRIGGER IF NOT EXISTS trail_no_delete BEFORE DELETE ON trail "
    "BEGIN SELECT RAISE(ABORT, 'trail is append-only: DELETE refused'); END",
)
"""The access log's trail table (the main database's layout), append-only by trigger. Idempotent
statements in one write transaction, so many processes opening a new log at once cannot race."""


def create(db: Database) -> None:
    """Make the table, its index and triggers if they are missing."""
    with atomic(db):
        for statement in SCHEMA:
            db.execute(statement)


def path_for(database: str | Path) -> str:
    """The access log beside a main database."""
    return f"{database}-access"


def connect(path: str | Path) -> Database:
    """A connection to the access log (WAL, busy timeout), migrated."""
    db = Database(path)
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if str(path) != ":memory:":
        db.enable_wal()
        db.execute("PRAGMA synchronous = NORMAL")
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'trail_no_delete'").fetchone() is None:
        create(db)
    return db


__all__ = ["SCHEMA", "connect", "create", "path_for"]
