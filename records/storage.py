"""The record store: every uploaded hand kept verbatim, with every audit of it.

SQLite through sqlite-utils, no Flask. Design (see docs/service.md):
- `documents` holds bytes exactly as received, with their sha256; rows are
  only ever inserted. They sit apart from `records` so that list queries scan
  small rows and never page through blobs.
- `records` is one row per (platform, game_id, revision), with the parsed
  columns that search needs and a copy of the latest audit's verdict. The same
  bytes uploaded again return the existing row; different bytes for the same
  game become revision n+1 and the older revision stays retrievable.
- `audits` is one row per audit (profile, options, engine version, findings,
  settlement), so a re-audit under another profile or a newer engine adds a
  row and keeps the old ones; `audit_rules` indexes the rule codes of findings.
- `uploads` logs every receipt, duplicates included: who sent what, when.
- Bytes first: the hands of a batch of units (a unit is never split) are written in one
  transaction, then audited outside any transaction, then their audits are written in a second.

The store never runs the engine: `records.pipeline` takes an upload through
validate -> store bytes -> audit -> store audit and hands the store finished audits,
so the store decides nothing about the game and is tested without the engine.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from records import search, tally, trail
from records.ingest import Hand, Unit

VERDICTS = ("invalid", "illegal", "missettled", "clean")
"""Every verdict of the contract, worst first."""
PREFIX_END = "\U0010ffff"
"""The highest code point: prefix <= value < prefix + PREFIX_END selects values starting with prefix."""
BUSY_TIMEOUT_MS = 20000
"""How long a writer waits for another writer before giving up. An upload now writes three short
transactions (records, first audits, receipts), each with keyed trail entries; with 16 clients
uploading at once into one server process the queue for the write lock reached 2 s (measured
in tests/records/test_concurrency.py), and 5 s left too little margin: a request then failed
with "database is locked". 20 s keeps a busy queue a wait, not an error."""
UNAUDITED = "unaudited"
"""Pseudo-verdict of a stored record with no audit yet: the engine failed on it (`audit_error` says how)
or the process stopped between storing the bytes and auditing them. `flask reaudit --verdict unaudited`."""
APPEND_ONLY = ("documents", "audits", "uploads", "trail", "notes")
"""Tables no code path updates or deletes from; triggers make SQLite refuse it too."""

Outcome = list[dict[str, Any]] | str | None
"""What the engine made of a unit: its audits, why it failed, or None (not run: nothing to audit)."""

_AUDIT_JSON = json.JSONEncoder(ensure_ascii=False, check_circular=False)
"""Findings and settlements as stored: an audit is a tree of JSON values, so the circular-reference
check (a fifth of the encoding time of an audit, since findings and items carry `params`) is skipped."""

migrations = Migrations("zhuoji-records")


class UnknownRecord(LookupError):
    """No record has that id."""


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


@dataclass(frozen=True)
class RecordQuery:
    """Filters, sort and page of the records list; empty filters match everything."""

    verdict: str | None = None
    profile: str | None = None
    rule: str | None = None
    """A rule (`R8.3`) or a whole section (`R8`) named by a finding of the latest audit."""
    platform: str | None = None
    client: str | None = None
    """Prefix of the client string."""
    player: str | None = None
    """Exact name or player id of any seat."""
    date_from: str | None = None
    date_to: str | None = None
    """Inclusive bounds on the local date of `played_at` (YYYY-MM-DD)."""
    game_id: str | None = None
    """Prefix of the game id."""
    q: str | None = None
    """A fragment of the game id, a player's name or id, the platform or the client, in any case
    or width (`records.search`)."""
    case: str | None = None
    """A case number: records attached to that case, or with a note naming it."""
    decision: str | None = None
    """The decision of the record's latest note (`records.trail.DECISIONS`)."""
    all_revisions: bool = False
    sort: str = "id"
    descending: bool = True
    page: int = 1
    per_page: int = 50
    exact: bool = False
    """Count every match even when no tally answers and that takes longer than `COUNT_BUDGET`."""


@dataclass(frozen=True)
class Page:
    """One page of records plus the counts the list page shows."""

    rows: list[dict[str, Any]]
    total: int
    counts: dict[str, int]
    page: int
    per_page: int
    exact: bool = True
    """False when counting stopped at `COUNT_BUDGET`: `counts` and `total` are then lower bounds."""

    @property
    def pages(self) -> int:
        """How many pages the whole result has (at least 1)."""
        return max(1, -(-self.total // self.per_page))


SORTS: dict[str, str] = {
    "id": "r.id",
    "uploaded_at": "r.id",
    "played_at": "r.played_utc",
    "game_id": "r.game_id",
    "platform": "r.platform",
    "profile": "r.profile",
    "verdict": "r.verdict",
    "revision": "r.revision",
    "client": "r.client",
    "players": "r.players",
    "findings": "r.findings_count",
}
"""Sort keys the list accepts, mapped to columns (never interpolate user text)."""
WALKABLE = {"r.id": "idx_records_walk_id", "r.played_utc": "idx_records_walk_played"}
"""Sort columns the page query may walk (`Store._walks`), and m007's index it walks for each."""
WALK_MIN = 20_000
"""Fewest matches for which the page is read along the sort order: below it reading every match
through the filters' indexes costs at most a few tens of milliseconds, and the filters' own
plan does not depend on the matches being spread evenly along the order."""
COUNT_STEP = 1000
COUNT_BUDGET = 600
"""How long a row-by-row count may run, in calls of SQLite's progress handler every `COUNT_STEP`
virtual-machine instructions: work, not time, so a loaded machine stops at the same place (give
or take one step, which SQLite counts per statement across runs). Measured at 1,000,000 records
(bench/bench_store_scale.py): 7 - 11 calls per ms on this machine, so about 55 - 85 ms, which
leaves the page query room inside 200 ms. Only mixes no tally answers are counted row by row; past the
budget the counts are the matches found so far, flagged not exact."""

LIST_COLUMNS = """r.id, r.platform, r.game_id, r.revision, r.is_current, r.client, r.profile,
r.played_at, r.played_utc, r.players, r.dealer, r.dealer_streak, r.base, r.verdict, r.audit_profile, r.rules,
r.findings_count, r.sha256, r.uploaded_at, r.uploader, r.source, r.match_id, r.match_index,
r.latest_audit_id, r.audit_error"""


@migrations()
def m001_tables(db: Database) -> None:
    """The five tables of the first release."""
    db.table("documents").create({"id": int, "sha256": str, "size": int, "raw_kind": str, "raw": bytes},
                           pk="id", not_null={"sha256", "size", "raw_kind", "raw"})
    db.table("matches").create({"id": int, "table_id": str, "hands": int, "document_id": int, "sha256": str,
                          "source": str, "uploader": str, "uploaded_at": str},
                         pk="id", foreign_keys=[("document_id", "documents", "id")])
    db.table("records").create(_record_columns(), pk="id",
                         not_null={"platform", "game_id", "revision", "is_current", "sha256"},
                         foreign_keys=[("document_id", "documents", "id"), ("match_id", "matches", "id")])
    db.table("record_players").create({"record_id": int, "seat": int, "name": str, "player_id": str},
                                pk=("record_id", "seat"), foreign_keys=[("record_id", "records", "id")])
    db.table("audits").create({"id": int, "record_id": int, "game_id": str, "profile": str, "options_json": str,
                         "engine_version": str, "verdict": str, "findings_json": str,
                         "settlement_json": str, "created_at": str},
                        pk="id", foreign_keys=[("record_id", "records", "id")])
    db.table("audit_rules").create({"audit_id": int, "rule": str, "section": str},
                             pk=("audit_id", "rule"), foreign_keys=[("audit_id", "audits", "id")])
    db.table("uploads").create({"id": int, "record_id": int, "sha256": str, "source": str, "uploader": str,
                          "uploaded_at": str, "outcome": str},
                         pk="id", foreign_keys=[("record_id", "records", "id")])


def _record_columns() -> dict[str, type]:
    """Columns of `records`: identity, provenance, searchable fields, latest audit."""
    return {"id": int, "platform": str, "game_id": str, "revision": int, "is_current": int,
            "sha256": str, "document_id": int, "match_id": int, "match_index": int,
            "source": str, "uploader": str, "uploaded_at": str,
            "client": str, "profile": str, "played_at": str, "played_date": str, "played_utc": str,
            "base": int, "dealer": int, "dealer_streak": int, "players": str,
            "latest_audit_id": int, "verdict": str, "audit_profile": str, "rules": str,
            "findings_count": int}


@migrations()
def m002_indexes(db: Database) -> None:
    """Indexes for the identity rules and for every list filter. Each filter column leads an
    index ending in (is_current, verdict), so the counts per verdict are read from the index
    alone; measured with bench/bench_service.py at 100,000 rows."""
    db.table("records").create_index(["platform", "game_id", "revision"], unique=True)
    db.table("records").create_index(["verdict", "is_current"])
    for column in ("profile", "platform", "client", "played_date", "game_id"):
        db.table("records").create_index([column, "is_current", "verdict"])
    for column in ("played_utc", "latest_audit_id", "match_id"):
        db.table("records").create_index([column])
    db.table("record_players").create_index(["name"])
    db.table("record_players").create_index(["player_id"])
    db.table("audits").create_index(["record_id"])
    db.table("audit_rules").create_index(["rule", "audit_id"])
    db.table("audit_rules").create_index(["section", "audit_id"])
    db.table("uploads").create_index(["record_id"])
    db.table("matches").create_index(["table_id"])


@migrations()
def m003_trust(db: Database) -> None:
    """Accounts and API tokens (records/security.py), the append-only trail and notes
    (records/trail.py), the flag of a record whose audit failed, and triggers that make the
    insert-only tables refuse UPDATE and DELETE."""
    db.table("accounts").create({"id": int, "name": str, "role": str, "platform": str, "password_hash": str,
                                 "disabled": int, "created_at": str, "created_by": str},
                                pk="id", not_null={"name", "role", "password_hash", "disabled"})
    db.table("accounts").create_index(["name"], unique=True)
    db.table("tokens").create({"id": int, "account_id": int, "token_hash": str, "prefix": str, "label": str,
                               "created_at": str, "created_by": str, "revoked_at": str, "revoked_by": str},
                              pk="id", not_null={"account_id", "token_hash"},
                              foreign_keys=[("account_id", "accounts", "id")])
    db.table("tokens").create_index(["token_hash"], unique=True)
    db.table("trail").create({"id": int, "at": str, "actor": str, "action": str, "record_id": int, "detail": str,
                              "prev": str, "hash": str}, pk="id", not_null={"at", "actor", "action", "prev", "hash"})
    db.table("trail").create_index(["record_id"])
    db.table("notes").create({"id": int, "record_id": int, "author": str, "case_number": str, "decision": str,
                              "text": str, "created_at": str}, pk="id",
                             not_null={"record_id", "author", "decision", "text", "created_at"},
                             foreign_keys=[("record_id", "records", "id")])
    db.table("notes").create_index(["record_id"])
    db.table("records").add_column("audit_error", str)
    for table in APPEND_ONLY:
        for event in ("UPDATE", "DELETE"):
            db.execute(f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {event} refused'); END")


IMMUTABLE_RECORD_COLUMNS = ("id", "platform", "game_id", "revision", "sha256", "document_id", "match_id",
                            "match_index", "source", "uploader", "uploaded_at", "client", "profile", "played_at",
                            "played_date", "played_utc", "base", "dealer", "dealer_streak", "players")
"""What a record is and where it came from: set once at upload, never changed by any code path (only
`is_current` and the copy of the latest audit are)."""
HORIZON_TABLES = ("records", "documents", "matches", "audits", "uploads", "notes", "accounts", "tokens")
"""Tables whose rows `verify` checks against the trail; `trust_horizon` says which were there before m004."""


@migrations()
def m004_trust(db: Database) -> None:
    """Trust, second pass (issue 12): the session generation of an account, login throttling,
    the horizon of rows written before every state change had its trail entry, and triggers that
    forbid changing what a record is, its bytes, and deleting records, seats, matches, accounts
    or tokens, or reviving a revoked token."""
    db.execute("ALTER TABLE accounts ADD COLUMN generation INTEGER NOT NULL DEFAULT 0")
    db.table("login_throttle").create({"key": str, "failures": int, "refused": int, "last_at": float,
                                       "blocked_until": float, "logged_at": float}, pk="key")
    db.table("trust_horizon").create({"name": str, "max_id": int}, pk="name")
    db.table("trail").create_index(["action"])  # `chain-keyed` found at once, however long the unkeyed part
    for table in HORIZON_TABLES:
        top = db.execute(f"SELECT coalesce(max(id), 0) FROM {table}").fetchone()[0]
        db.execute("INSERT INTO trust_horizon (name, max_id) VALUES (?, ?)", [table, top])
    columns = ", ".join(IMMUTABLE_RECORD_COLUMNS)
    refusals = {
        "records_fixed": f"BEFORE UPDATE OF {columns} ON records",
        "records_no_delete": "BEFORE DELETE ON records",
        "record_players_no_update": "BEFORE UPDATE ON record_players",
        "record_players_no_delete": "BEFORE DELETE ON record_players",
        "matches_no_update": "BEFORE UPDATE ON matches",
        "matches_no_delete": "BEFORE DELETE ON matches",
        "audit_rules_no_update": "BEFORE UPDATE ON audit_rules",
        "audit_rules_no_delete": "BEFORE DELETE ON audit_rules",
        "accounts_fixed": "BEFORE UPDATE OF id, name, created_at, created_by ON accounts",
        "accounts_no_delete": "BEFORE DELETE ON accounts",
        "tokens_fixed": "BEFORE UPDATE OF id, account_id, token_hash, prefix, created_at, created_by ON tokens",
        "tokens_no_delete": "BEFORE DELETE ON tokens",
        "tokens_no_revival": "BEFORE UPDATE OF revoked_at, revoked_by ON tokens WHEN OLD.revoked_at IS NOT NULL",
        "trust_horizon_no_update": "BEFORE UPDATE ON trust_horizon",
        "trust_horizon_no_delete": "BEFORE DELETE ON trust_horizon",
    }
    for name, when in refusals.items():
        table = when.split(" ON ")[1].split()[0]
        db.execute(f"CREATE TRIGGER {name} {when} "
                   f"BEGIN SELECT RAISE(ABORT, '{table}: {name.split('_', 1)[1].replace('_', ' ')} (refused)'); END")


@migrations()
def m005_cases(db: Database) -> None:
    """Issue 11: the folded search text of every record (`records.search`), the receipt of
    every submitted item, accepted or not (`records.receipts`), and cases across records with
    their decisions (`records.cases`). Receipts and decisions are append-only like the trail;
    the text of records already stored is computed here once."""
    db.table("record_search").create({"record_id": int, "text": str}, pk="record_id", not_null={"text"},
                                     foreign_keys=[("record_id", "records", "id")])
    seats: dict[int, list[dict[str, Any]]] = {}
    for row in db.query("SELECT record_id, name, player_id FROM record_players ORDER BY record_id, seat"):
        seats.setdefault(row["record_id"], []).append(row)
    db.conn.executemany("INSERT INTO record_search (record_id, text) VALUES (?, ?)",
                        [(row["id"], search.record_text(row["game_id"], row["platform"], row["client"],
                                                        seats.get(row["id"], [])))
                         for row in db.query("SELECT id, game_id, platform, client FROM records")])
    db.table("receipts").create({"id": int, "at": str, "uploader": str, "actor": str, "source": str, "file": str,
                                 "member": str, "line": int, "hand": int, "game_id": str, "platform": str,
                                 "sha256": str, "outcome": str, "record_id": int, "revision": int,
                                 "error_codes": str, "errors_json": str, "text": str},
                                pk="id", not_null={"at", "source", "file", "outcome", "text"},
                                foreign_keys=[("record_id", "records", "id")])
    for columns in (["at"], ["outcome", "at"], ["game_id"], ["record_id"], ["platform", "at"]):
        db.table("receipts").create_index(columns)
    db.table("cases").create({"id": int, "number": str, "platform": str, "player": str, "complaint": str,
                              "status": str, "created_at": str, "created_by": str, "updated_at": str,
                              "text": str},
                             pk="id", not_null={"number", "platform", "complaint", "status", "created_at", "text"})
    db.table("cases").create_index(["number"], unique=True)
    db.table("cases").create_index(["status", "id"])
    db.table("case_records").create({"case_id": int, "record_id": int, "added_at": str, "added_by": str},
                                    pk=("case_id", "record_id"),
                                    foreign_keys=[("case_id", "cases", "id"), ("record_id", "records", "id")])
    db.table("case_records").create_index(["record_id"])
    db.table("case_decisions").create({"id": int, "case_id": int, "outcome": str, "note": str, "payments_json": str,
                                       "audit_id": int, "decided_at": str, "decided_by": str},
                                      pk="id", not_null={"case_id", "outcome", "note", "payments_json", "decided_at"},
                                      foreign_keys=[("case_id", "cases", "id"), ("audit_id", "audits", "id")])
    db.table("case_decisions").create_index(["case_id"])
    for column in ("actor", "at"):  # the admin trail's filters (records/trail_pages.py); `action`: m004
        db.table("trail").create_index([column])
    for table in APPEND_ONLY_M005:
        for event in ("UPDATE", "DELETE"):
            db.execute(f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {event} refused'); END")


APPEND_ONLY_M005 = ("receipts", "case_decisions")
"""The append-only tables of m005 (a decision is corrected by a later one, never edited)."""


@migrations()
def m007_tally(db: Database) -> None:
    """Issue 13: records per verdict kept by triggers (`records.tally`), filled from the records
    already stored, so the list's counts at 1,000,000 records read a few thousand tally rows
    instead of every record a filter matches; and the two indexes a page read along the sort
    order walks (`WALKABLE`): each holds every column the dimension filters test, so rows that
    do not match are skipped inside the index, and the table is read only for the page. The
    one of played_utc replaces m002's index on that column alone."""
    tally.install(db)
    db.execute("DROP INDEX idx_records_played_utc")
    for name, columns in WALK_INDEXES.items():
        db.execute(f"CREATE INDEX {name} ON records ({', '.join(columns)})")


WALK_COLUMNS = ("is_current", "verdict", "platform", "profile", "client", "played_date")
"""What the dimension filters test, held by the walked indexes."""
WALK_INDEXES = {"idx_records_walk_id": ("id", *WALK_COLUMNS),
                "idx_records_walk_played": ("played_utc", "id", *WALK_COLUMNS)}
"""m007's indexes, in the order of the sort each serves (id, then played_utc with id to break ties)."""


def connect(path: str | Path) -> Database:
    """A connection set up for a busy web service: WAL, busy timeout, foreign keys."""
    db = Database(path)
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA foreign_keys = ON")
    if str(path) != ":memory:":
        db.enable_wal()
        db.execute("PRAGMA synchronous = NORMAL")
        _anchor(path)
    return db


ANCHORS_KEPT = 4
"""Databases (the last used) for which this process keeps an idle connection open; see `_anchor`."""
_anchors: OrderedDict[str, sqlite3.Connection] = OrderedDict()
_anchors_lock = threading.Lock()
_anchors_pid = os.getpid()
_abandoned: list[OrderedDict[str, sqlite3.Connection]] = []
"""A forked child's copies of its parent's idle connections: kept, never closed, as SQLite asks."""


def _anchor(path: str | Path) -> None:
    """Keep one idle connection open to the database. When the last connection to a WAL database
    closes, SQLite copies the WAL back into the database and syncs it; with one connection per
    request that happened at the end of every request when requests came one at a time, 20-30 ms
    per upload request (measured with bench/bench_service.py). With this connection open a close
    is never the last one, and the WAL is copied back by the automatic checkpoints every 1000
    pages instead, as under concurrent load. It holds no transaction, so it never blocks a writer
    or a checkpoint, and it is closed (checkpointing) when the process exits."""
    global _anchors, _anchors_pid
    key = str(Path(path).resolve())
    with _anchors_lock:
        if _anchors_pid != os.getpid():  # a forked child: the parent's connections are not ours to use
            _abandoned.append(_anchors)
            _anchors, _anchors_pid = OrderedDict(), os.getpid()
        if key in _anchors:
            _anchors.move_to_end(key)
            return
        conn = sqlite3.connect(key, check_same_thread=False)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchall()  # a read opens the WAL index
        _anchors[key] = conn
        while len(_anchors) > ANCHORS_KEPT:
            _anchors.popitem(last=False)[1].close()


@atexit.register
def _close_anchors() -> None:
    """Close this process's idle connections, so that the last close checkpoints the WAL as before."""
    with _anchors_lock:
        while _anchors and _anchors_pid == os.getpid():
            _anchors.popitem()[1].close()


def migrate(db: Database) -> None:
    """Bring the schema up to date; safe to call on every start."""
    migrations.apply(db)


def now() -> str:
    """UTC timestamp with milliseconds, sortable as text."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def sha256(data: bytes) -> str:
    """Hex digest used as the identity of stored bytes."""
    return hashlib.sha256(data).hexdigest()


class Store:
    """Records, documents and audits in one SQLite database. `trail_key` keys the trail's chain
    (the web layer and the commands pass the configured key; the default empty key is for tools
    and tests that open a scratch database)."""

    def __init__(self, db: Database, trail_key: bytes = b"") -> None:
        self.db = db
        self.trail_key = trail_key

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> Store:
        """Connect, migrate and wrap; the usual way to get a store."""
        db = connect(path)
        migrate(db)
        return cls(db, **kwargs)

    def close(self) -> None:
        """Close the connection, letting SQLite refresh the planner's statistics first
        (its advice for short-lived connections; bounded by analysis_limit). Under concurrent
        writers the optimize may find the database locked: it is only advice, so that is skipped
        rather than turning an answered request into a 500 (bench/load_test.py found it)."""
        try:
            self.db.execute("PRAGMA analysis_limit = 1000")
            self.db.execute("PRAGMA optimize")
        except sqlite3.OperationalError:
            pass
        finally:
            self.db.close()

    @contextmanager
    def write(self) -> Iterator[Database]:
        """One write transaction, taken with BEGIN IMMEDIATE so two writers queue
        on the busy timeout instead of failing when a read would turn into a write."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.rollback()
            raise
        self.db.commit()

    # ----- writing ---------------------------------------------------------------

    def insert_units(self, units: Sequence[Unit], *, uploader: str | None = None,
                     actor: str | None = None) -> list[list[Stored]]:
        """Phase one of an upload: the bytes, records, seats and receipts of every hand of these
        units, in one transaction (a unit is never split), none audited yet. `actor` is the
        account named in the trail (default: the uploader)."""
        stamp = now()
        with self.write():
            return [self._insert_unit(unit, uploader, actor or uploader, stamp) for unit in units]

    def _insert_unit(self, unit: Unit, uploader: str | None, actor: str | None, stamp: str) -> list[Stored]:
        """Phase one: the bytes, records, seats and receipts of a unit (inside a transaction)."""
        match_id: int | None = None
        results = []
        for hand in unit.hands:
            existing, latest = self._known(hand)
            if existing is not None:
                results.append(self._log_duplicate(hand, existing, uploader, actor, stamp))
                continue
            if unit.is_match and match_id is None:
                match_id = self._insert_match(unit, uploader, stamp)
            results.append(self._insert_hand(hand, match_id, uploader, actor, stamp, latest))
        return results

    def attach_first_audits(self, stored: Sequence[list[Stored]], outcomes: Sequence[Outcome],
                            engine_version: str, actor: str | None = None) -> list[list[Stored]]:
        """Phase two of an upload, in one transaction: give each stored record without an audit
        its first one from its unit's outcome, or flag it when the engine failed on the unit."""
        if all(outcome is None for outcome in outcomes):
            return list(stored)  # only duplicates of audited records: nothing to write
        stamp = now()
        with self.write():
            return [[self._first_audit(item, outcome, engine_version, stamp, actor) for item in items]
                    for items, outcome in zip(stored, outcomes)]

    def _first_audit(self, item: Stored, outcome: Outcome, engine_version: str, stamp: str,
                     actor: str | None) -> Stored:
        """A record's first audit from its unit's outcome (inside the second transaction)."""
        if item.verdict is not None:
            return item
        if isinstance(outcome, list):
            return self._attach_audit(item, outcome[item.hand.index], engine_version, stamp, actor)
        if isinstance(outcome, str):  # kept, marked so that lists and `reaudit` find it
            self.db.execute("UPDATE records SET audit_error = ? WHERE id = ? AND latest_audit_id IS NULL",
                            [outcome, item.record_id])
            return replace(item, audit_error=outcome)
        row = self.db.execute("SELECT verdict, audit_error FROM records WHERE id = ?", [item.record_id]).fetchone()
        return replace(item, verdict=row[0], audit_error=row[1])  # set by an earlier unit of this batch

    def _attach_audit(self, item: Stored, audit: dict[str, Any], engine_version: str, stamp: str,
                      actor: str | None) -> Stored:
        """The first audit of a record, unless a concurrent upload of the same bytes got there first."""
        row = self.db.execute("SELECT latest_audit_id, verdict FROM records WHERE id = ?", [item.record_id]).fetchone()
        if row[0] is None:
            self._insert_audit(item.record_id, audit, None, engine_version, stamp, actor=actor)
            return replace(item, verdict=audit["verdict"], audit_error=None)
        return replace(item, verdict=row[1], audit_error=None)

    def load_audited(self, pairs: Iterable[tuple[Hand, dict[str, Any]]], *, engine_version: str,
                     uploader: str | None = None) -> int:
        """Bulk-load standalone hands whose audits are already known (imports, benchmarks),
        in one transaction; bytes already held are skipped. Returns how many were stored."""
        stamp, stored = now(), 0
        with self.write():
            for hand, audit in pairs:
                existing, latest = self._known(hand)
                if existing is None:
                    record_id = self._insert_hand(hand, None, uploader, uploader, stamp, latest).record_id
                    self._insert_audit(record_id, audit, None, engine_version, stamp, actor=uploader)
                    stored += 1
        return stored

    def add_audit(self, record_id: int, audit: dict[str, Any], *, options: dict[str, Any] | None,
                  engine_version: str, actor: str | None = None, reason: str | None = None) -> dict[str, Any]:
        """A further audit of a stored record (a re-audit): it becomes the latest, the old ones
        stay, and the trail names `actor` (and the `reason` given, when one is) in the same transaction."""
        self.record(record_id)  # UnknownRecord before any write
        audit_id = self.add_audits([(record_id, audit)], options=options, engine_version=engine_version,
                                   actor=actor, reason=reason)[0]
        return self.audit_row(audit_id)

    def add_audits(self, audits: Sequence[tuple[int, dict[str, Any]]], *, options: dict[str, Any] | None,
                   engine_version: str, actor: str | None = None, reason: str | None = None) -> list[int]:
        """Further audits of stored records in one transaction (`flask reaudit` writes a batch's
        results this way): each becomes its record's latest, the old ones stay, and each has its
        trail entry naming `actor` (and `reason`, when one is given). Returns the new audit ids, in order."""
        stamp = now()
        ids: list[int] = []
        with self.write():
            for record_id, audit in audits:
                row = self.db.execute("SELECT latest_audit_id FROM records WHERE id = ?", [record_id]).fetchone()
                if row is None:
                    raise UnknownRecord(f"record {record_id} does not exist")
                ids.append(self._insert_audit(record_id, audit, options, engine_version, stamp,
                                              trail_action="reaudit", actor=actor, previous=row[0], reason=reason))
        return ids

    def audit_target(self, record: dict[str, Any]) -> tuple[object, int, int]:
        """What to audit for a record: the whole match for a match hand (continuity matters)."""
        if record["match_id"] is not None:
            match = self.db.execute("SELECT d.raw, m.hands FROM matches m JOIN documents d ON d.id = m.document_id "
                                    "WHERE m.id = ?", [record["match_id"]]).fetchone()
            return _loads(match[0]), record["match_index"], match[1]
        return self.document(record["id"]), 0, 1

    def _known(self, hand: Hand) -> tuple[dict[str, Any] | None, int]:
        """The stored revision of this game with exactly these bytes, if any, and the game's highest
        revision (0 for a new game), in one look-up: the row with these bytes sorts first, else the
        newest (the unique (platform, game_id, revision) index finds the game's few rows)."""
        platform, game_id = identity(hand.doc)
        row = self.db.execute(
            "SELECT id, revision, verdict, audit_error, sha256 = ? AS same FROM records "
            "WHERE platform = ? AND game_id = ? ORDER BY same DESC, revision DESC LIMIT 1",
            [hand.sha256, platform, game_id]).fetchone()
        if row is None:
            return None, 0
        if row[4]:
            return {"id": row[0], "revision": row[1], "verdict": row[2], "audit_error": row[3]}, row[1]
        return None, row[1]

    def _log_duplicate(self, hand: Hand, existing: dict[str, Any], uploader: str | None, actor: str | None,
                       stamp: str) -> Stored:
        """Record the receipt of bytes we already hold, and point at them."""
        self._log_upload(existing["id"], hand, uploader, actor, stamp, "duplicate")
        platform, game_id = identity(hand.doc)
        return Stored(hand, existing["id"], game_id, platform, existing["revision"], "duplicate", existing["verdict"],
                      existing["audit_error"])

    def _insert_document(self, raw: bytes, raw_kind: str, digest: str) -> int:
        """Keep bytes verbatim (`digest` is their sha256); documents are never updated or deleted."""
        return self._insert("documents", {"sha256": digest, "size": len(raw), "raw_kind": raw_kind, "raw": raw})

    def _insert_match(self, unit: Unit, uploader: str | None, stamp: str) -> int:
        """Keep a match document whole so its hands can be re-audited with continuity."""
        digest = sha256(unit.raw)
        document_id = self._insert_document(unit.raw, "file" if unit.origin.member is None else "member", digest)
        row = {"table_id": unit.table_id, "hands": unit.audit_count, "document_id": document_id,
               "sha256": digest, "source": unit.origin.label(), "uploader": uploader,
               "uploaded_at": stamp}
        return self._insert("matches", row)

    def _insert_hand(self, hand: Hand, match_id: int | None, uploader: str | None, actor: str | None,
                     stamp: str, latest: int) -> Stored:
        """Insert one record as revision `latest` + 1 of its game (`_known`, read inside this
        transaction), not yet audited."""
        platform, game_id = identity(hand.doc)
        revision = latest + 1
        row = {"platform": platform, "game_id": game_id, "revision": revision, "is_current": 1,
               "sha256": hand.sha256, "document_id": self._insert_document(hand.raw, hand.raw_kind, hand.sha256),
               "match_id": match_id, "match_index": hand.index if match_id is not None else None,
               "source": hand.origin.label(), "uploader": uploader, "uploaded_at": stamp,
               **searchable(hand.doc)}
        if latest:  # a first revision has no older one to retire
            self.db.execute("UPDATE records SET is_current = 0 WHERE platform = ? AND game_id = ?",
                            [platform, game_id])
        record_id = self._insert("records", row)
        players = players_of(record_id, hand.doc)
        self._insert_many("record_players", players)
        self._insert("record_search", {"record_id": record_id,
                                       "text": search.record_text(game_id, platform, row["client"], players)})
        self._log_upload(record_id, hand, uploader, actor, stamp, "created" if revision == 1 else "revision")
        return Stored(hand, record_id, game_id, platform, revision, "created" if revision == 1 else "revision", None)

    def _insert_audit(self, record_id: int, audit: dict[str, Any], options: dict[str, Any] | None,
                      engine_version: str, stamp: str, *, trail_action: str | None = "audit",
                      actor: str | None = None, previous: int | None = None, reason: str | None = None) -> int:
        """Store an audit and make it the record's latest (verdict and rule codes for search), with
        its trail entry (`audit` for a first audit, `reaudit` later) carrying a digest of the row."""
        findings = audit.get("findings") or []
        row = {"record_id": record_id, "game_id": audit.get("game_id"), "profile": audit.get("profile"),
               "options_json": None if options is None else json.dumps(options, ensure_ascii=False, allow_nan=False),
               "engine_version": engine_version, "verdict": audit["verdict"],
               "findings_json": _AUDIT_JSON.encode(findings),
               "settlement_json": _AUDIT_JSON.encode(audit.get("settlement")), "created_at": stamp}
        audit_id = self._insert("audits", row)
        if trail_action is not None:
            trail.append(self.db, at=stamp, actor=actor, action=trail_action, record_id=record_id, key=self.trail_key,
                         detail={"audit_id": audit_id, "profile": audit.get("profile"), "options": options,
                                 "verdict": audit["verdict"], "engine_version": engine_version,
                                 "previous_audit_id": previous, "audit_sha256": audit_digest({**row, "id": audit_id}),
                                 **({"reason": reason} if reason else {})})
        codes = rule_codes(findings)
        self._insert_many("audit_rules", [{"audit_id": audit_id, "rule": code, "section": section_of(code)}
                                          for code in codes])
        self.db.execute("UPDATE records SET latest_audit_id = ?, verdict = ?, audit_profile = ?, rules = ?, "
                        "findings_count = ?, audit_error = NULL WHERE id = ?",
                        [audit_id, audit["verdict"], audit.get("profile"), " ".join(codes), len(findings), record_id])
        return audit_id

    def _log_upload(self, record_id: int, hand: Hand, uploader: str | None, actor: str | None, stamp: str,
                    outcome: str) -> None:
        """Every receipt is logged, even of bytes already held, in the receipts and in the trail;
        the entry names the receipt and what the record is, for `verify`."""
        digest, source = hand.sha256, hand.origin.label()
        upload_id = self._insert("uploads", {"record_id": record_id, "sha256": digest, "source": source,
                                             "uploader": uploader, "uploaded_at": stamp, "outcome": outcome})
        row = self.db.execute("SELECT platform, game_id, revision, document_id, match_id, match_index FROM records "
                              "WHERE id = ?", [record_id]).fetchone()
        detail: dict[str, Any] = {"outcome": outcome, "sha256": digest, "source": source, "uploader": uploader,
                                  "upload_id": upload_id}
        if outcome != "duplicate":
            detail.update(platform=row[0], game_id=row[1], revision=row[2], document_id=row[3], match_id=row[4],
                          match_index=row[5])
            if row[4] is not None:
                match = self.db.execute("SELECT sha256, document_id FROM matches WHERE id = ?", [row[4]]).fetchone()
                detail.update(match_sha256=match[0], match_document_id=match[1])
        trail.append(self.db, at=stamp, actor=actor, action="upload", record_id=record_id, detail=detail,
                     key=self.trail_key)

    def _insert(self, table: str, row: dict[str, Any]) -> int:
        """INSERT one row and return its id. Plain SQL: sqlite-utils' insert() introspects the
        table on every call, which cost more than the audit itself in the upload path."""
        columns = ", ".join(row)
        marks = ", ".join("?" * len(row))
        row_id = self.db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(row.values())).lastrowid
        assert row_id is not None  # always set after a successful INSERT
        return row_id

    def _insert_many(self, table: str, rows: list[dict[str, Any]]) -> None:
        """INSERT rows that share their keys (table and keys come from this module, never from input)."""
        if rows:
            columns = ", ".join(rows[0])
            marks = ", ".join("?" * len(rows[0]))
            self.db.conn.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                                     [list(row.values()) for row in rows])

    # ----- reading ---------------------------------------------------------------

    def record(self, record_id: int) -> dict[str, Any]:
        """One record's row (no bytes); UnknownRecord if there is none."""
        rows = list(self.db.query(f"SELECT {LIST_COLUMNS}, r.document_id FROM records r WHERE r.id = ?",
                                  [record_id]))
        if not rows:
            raise UnknownRecord(f"record {record_id} does not exist")
        return rows[0]

    def raw(self, record_id: int) -> bytes:
        """The bytes of a record exactly as they were received."""
        row = self.db.execute("SELECT d.raw FROM records r JOIN documents d ON d.id = r.document_id "
                              "WHERE r.id = ?", [record_id]).fetchone()
        if row is None:
            raise UnknownRecord(f"record {record_id} does not exist")
        return bytes(row[0])

    def document(self, record_id: int) -> Any:
        """The parsed record."""
        return _loads(self.raw(record_id))

    def players(self, record_id: int) -> list[dict[str, Any]]:
        """The seats in order, with names and player ids."""
        return list(self.db.query("SELECT seat, name, player_id FROM record_players WHERE record_id = ? "
                                  "ORDER BY seat", [record_id]))

    def revisions(self, record_id: int) -> list[dict[str, Any]]:
        """Every stored revision of the record's game, oldest first."""
        record = self.record(record_id)
        return list(self.db.query(
            "SELECT id, revision, is_current, sha256, uploaded_at, uploader, source, verdict FROM records "
            "WHERE platform = ? AND game_id = ? ORDER BY revision", [record["platform"], record["game_id"]]))

    def match_hands(self, match_id: int) -> list[dict[str, Any]]:
        """The hands of one match in play order: a report links a
        hand to the hands before and after it."""
        return list(self.db.query(
            "SELECT id, match_index, game_id, revision, verdict FROM records WHERE match_id = ? "
            "ORDER BY match_index", [match_id]))

    def audits(self, record_id: int) -> list[dict[str, Any]]:
        """Every audit of a record, oldest first, each in full."""
        self.record(record_id)
        ids = [row[0] for row in self.db.execute("SELECT id FROM audits WHERE record_id = ? ORDER BY id",
                                                 [record_id])]
        return [self.audit_row(audit_id) for audit_id in ids]

    def audit_row(self, audit_id: int) -> dict[str, Any]:
        """An audit with its metadata; `audit` is the contract JSON."""
        row = next(self.db.query("SELECT * FROM audits WHERE id = ?", [audit_id]))
        return {"id": row["id"], "record_id": row["record_id"], "profile": row["profile"],
                "options": _loads(row["options_json"]) if row["options_json"] else None,
                "engine_version": row["engine_version"], "verdict": row["verdict"],
                "created_at": row["created_at"], "audit": _contract(row)}

    def latest_audit(self, record_id: int) -> dict[str, Any]:
        """The contract audit JSON of the record's latest audit."""
        record = self.record(record_id)
        audit: dict[str, Any] = self.audit_row(record["latest_audit_id"])["audit"]
        return audit

    def uploads(self, record_id: int) -> list[dict[str, Any]]:
        """Every receipt of this record's bytes."""
        return list(self.db.query("SELECT source, uploader, uploaded_at, outcome FROM uploads "
                                  "WHERE record_id = ? ORDER BY id", [record_id]))

    def search(self, query: RecordQuery) -> Page:
        """One page of records matching every filter, and counts per verdict. A `q` search scans
        the search texts once into a temporary table (this connection's, in memory), which the
        counts and the page then share, instead of scanning twice. The counts come from
        `records.tally` when it answers the filters; knowing them, the page is read either through
        the filters' indexes (few matches) or along the sort order (`_walks`)."""
        hits = bool(query.q and search.fold(query.q))
        clauses, params = where_filters(replace(query, q=None))
        if hits:
            self._search_hits(query.q or "")
            clauses.append("r.id IN (SELECT id FROM temp.search_hits)")
        counts, exact = self._tallied_counts(query), True
        if counts is None:
            counts, exact = self._verdict_counts(clauses, params, None if query.exact else COUNT_BUDGET)
        if query.verdict == UNAUDITED:
            total = counts.get(UNAUDITED, 0)
        elif query.verdict:
            total = counts.get(query.verdict, 0)
        else:
            total = sum(counts.values())
        column = SORTS.get(query.sort, "r.id")
        offset = (max(query.page, 1) - 1) * query.per_page
        rows = None
        if not hits and self._walks(query, column, total, offset):
            rows = self._page(query, column, offset, clauses=None, params=None)
        elif not hits and not exact and column in WALKABLE:
            # the count ran out of budget, so many records match: try the walk, within a budget too
            rows = self._page(query, column, offset, clauses=None, params=None, budget=COUNT_BUDGET)
        if rows is None:  # unbudgeted: always the rows
            rows = self._page(query, column, offset, clauses=clauses, params=params) or []
        if not exact:
            counts, total, exact = _counted_from_page(rows, query.verdict, counts, total, offset,
                                                      len(rows) < query.per_page)
        return Page(rows, total, counts, max(query.page, 1), query.per_page, exact)

    def _page(self, query: RecordQuery, column: str, offset: int, *, clauses: list[str] | None,
              params: list[Any] | None, budget: int | None = None) -> list[dict[str, Any]] | None:
        """The rows of the page: through the filters' indexes (`clauses` and `params`, from
        `where_filters`), or, with None, walking m007's index of the sort order (`_walks`). With
        a `budget`, None when it runs out before the page is read."""
        walk = clauses is None
        if clauses is None or params is None:
            clauses, params = where_filters(replace(query, q=None), walk=True)
        if query.verdict == UNAUDITED:
            clauses = clauses + ["+r.verdict IS NULL" if walk else "r.verdict IS NULL"]
        elif query.verdict:
            clauses, params = clauses + ["+r.verdict = ?" if walk else "r.verdict = ?"], params + [query.verdict]
        where = " AND ".join(clauses) or "1"
        direction = "DESC" if query.descending else "ASC"
        order = f"{column} {direction}" + ("" if column == "r.id" else f", r.id {direction}")
        source = f"records r INDEXED BY {WALKABLE[column]}" if walk else "records r"
        sql = f"SELECT {LIST_COLUMNS} FROM {source} WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?"
        rows: list[dict[str, Any]] | None = None
        with self._budget(budget) as within:
            rows = list(self.db.query(sql, params + [query.per_page, offset]))
        return rows if within() else None

    @contextmanager
    def _budget(self, budget: int | None) -> Iterator[Callable[[], bool]]:
        """Run the statements of the block within `budget` calls of SQLite's progress handler
        (`COUNT_BUDGET`; None: no limit). Yields a function that says whether the block ended
        within it; a statement past the budget is interrupted and its error swallowed here."""
        ended = [True]
        if budget is None:
            yield lambda: ended[0]
            return
        spent = [0]

        def tick() -> int:
            spent[0] += 1
            return 1 if spent[0] > budget else 0  # non-zero interrupts the statement

        self.db.conn.set_progress_handler(tick, COUNT_STEP)
        try:
            yield lambda: ended[0]
        except sqlite3.OperationalError as error:
            if "interrupt" not in str(error):
                raise
            ended[0] = False
        finally:
            self.db.conn.set_progress_handler(None, 0)

    def _walks(self, query: RecordQuery, column: str, matches: int, offset: int) -> bool:
        """Whether to read the page along the sort order rather than through the filters' indexes.
        Through the indexes costs about one row look-up per match (all of them are read, to find
        the first of the sort); along the order, about (offset + page) x records / matches rows
        are read before the page is full, if the matches are spread evenly. Walking is chosen
        only for orders an index delivers, when at least `WALK_MIN` records match, and when it
        reads fewer rows than the matches."""
        if column not in WALKABLE or matches < WALK_MIN:
            return False
        row = self.db.execute("SELECT sum(n) FROM record_tally" +
                              ("" if query.all_revisions else " WHERE is_current = 1")).fetchone()
        records = int(row[0] or 0)
        return (offset + query.per_page) * records < matches * matches

    def _search_hits(self, text: str) -> None:
        """Fill temp.search_hits with the ids of records whose search text contains `text`."""
        self.db.execute("PRAGMA temp_store = MEMORY")
        self.db.execute("CREATE TEMP TABLE IF NOT EXISTS search_hits (id INTEGER PRIMARY KEY)")
        self.db.execute("DELETE FROM temp.search_hits")
        self.db.execute(f"INSERT INTO temp.search_hits SELECT record_id FROM record_search WHERE {search.MATCH}",
                        [search.pattern(text)])
        self.db.conn.commit()  # ends the implicit transaction of the temp writes (main is untouched)

    def _tallied_counts(self, query: RecordQuery) -> dict[str, int] | None:
        """The counts per verdict from `records.tally` when its rows answer this query's filters
        (the same numbers `_verdict_counts` gives, from a few rows); None when they do not."""
        filters = tally_filters(query)
        found = None if filters is None else tally.counts(self.db, filters, PREFIX_END)
        if found is None:
            return None
        counts = dict.fromkeys(VERDICTS, 0)
        for verdict, count in found.items():
            counts[verdict or UNAUDITED] = count
        return counts

    def _verdict_counts(self, clauses: list[str], params: list[Any],
                        budget: int | None = None) -> tuple[dict[str, int], bool]:
        """Counts per verdict under every filter but the verdict one (for the tabs), row by row;
        records with no audit yet are counted as `unaudited`, a key present only when there are
        some. With a `budget` (`COUNT_BUDGET`) SQLite is interrupted once it is spent and the
        counts so far are returned with False (lower bounds); True when every match was counted."""
        where = " AND ".join(clauses) or "1"
        counts = dict.fromkeys(VERDICTS, 0)
        sql = f"SELECT r.verdict, count(*) FROM records r WHERE {where} GROUP BY r.verdict"
        if budget is None:
            for verdict, count in self.db.execute(sql, params):
                counts[verdict or UNAUDITED] = count
            return counts, True
        with self._budget(budget) as within:
            for (verdict,) in self.db.execute(f"SELECT r.verdict FROM records r WHERE {where}", params):
                key = verdict or UNAUDITED
                counts[key] = counts.get(key, 0) + 1
        return counts, within()

    def distinct(self, column: str) -> list[str]:
        """Values seen in a column, for the filter drop-downs."""
        if column not in {"platform", "profile", "client"}:
            raise ValueError(f"no distinct values for column {column!r}")
        return [row[0] for row in self.db.execute(
            f"SELECT DISTINCT {column} FROM records WHERE {column} IS NOT NULL AND {column} != '' "
            f"ORDER BY {column} LIMIT 200")]


AUDIT_FIELDS = ("id", "record_id", "game_id", "profile", "options_json", "engine_version", "verdict", "findings_json",
                "settlement_json", "created_at")
"""The columns of an audit row its trail entry's digest covers (all of them)."""


def audit_digest(row: dict[str, Any]) -> str:
    """sha256 of an audit row as stored: its trail entry records it, `verify` recomputes it."""
    return trail.digest([row.get(name) for name in AUDIT_FIELDS])


def _loads(data: bytes | str) -> Any:
    """Parse stored JSON (documents may carry a UTF-8 byte order mark)."""
    if isinstance(data, bytes):
        data = data.decode("utf-8-sig")
    return json.loads(data)


def _contract(row: dict[str, Any]) -> dict[str, Any]:
    """The audit JSON in the contract's shape and key order."""
    return {"game_id": row["game_id"], "profile": row["profile"], "verdict": row["verdict"],
            "findings": json.loads(row["findings_json"]), "settlement": json.loads(row["settlement_json"])}


def identity(doc: dict[str, Any]) -> tuple[str, str]:
    """(platform, game_id): what makes two uploads the same game. No platform is ''."""
    platform = doc.get("platform")
    return (platform if isinstance(platform, str) else "", str(doc.get("game_id")))


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def searchable(doc: dict[str, Any]) -> dict[str, Any]:
    """The parsed columns of a record; the document stays the authority."""
    rules = _object(doc.get("rules"))
    played = _text(doc.get("played_at"))
    seats = _array(doc.get("seats"))
    return {"client": _text(doc.get("client")), "profile": _text(rules.get("profile")),
            "played_at": played, "played_date": played[:10] if played and _DATE.match(played) else None,
            "played_utc": _utc(played), "base": doc.get("base", 1), "dealer": doc.get("dealer"),
            "dealer_streak": doc.get("dealer_streak", 0),
            "players": " / ".join(str(seat.get("name", "")) for seat in seats if isinstance(seat, dict))}


def _object(value: Any) -> dict[str, Any]:
    """A JSON object field, or {} when absent or not an object."""
    return value if isinstance(value, dict) else {}


def _array(value: Any) -> list[Any]:
    """A JSON array field, or [] when absent or not an array."""
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    """A string field, or None when absent or not a string."""
    return value if isinstance(value, str) else None


def _utc(played: str | None) -> str | None:
    """`played_at` in UTC for sorting across time zones; as given when it has no zone."""
    if not played:
        return None
    try:
        moment = datetime.fromisoformat(played.replace("Z", "+00:00"))
    except ValueError:
        return played
    if moment.tzinfo is None:
        return moment.isoformat()
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def players_of(record_id: int, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of `record_players` for the player filter."""
    seats = _array(doc.get("seats"))
    return [{"record_id": record_id, "seat": index, "name": _text(seat.get("name")),
             "player_id": _text(seat.get("player_id"))}
            for index, seat in enumerate(seats) if isinstance(seat, dict)]


def rule_codes(findings: Sequence[Any]) -> list[str]:
    """The distinct rule codes of findings, in first-seen order."""
    codes: list[str] = []
    for finding in findings:
        rule = finding.get("rule") if isinstance(finding, dict) else None
        if isinstance(rule, str) and rule and rule not in codes:
            codes.append(rule)
    return codes


def section_of(rule: str) -> str:
    """`R8.3` -> `R8`; a code without a dot is its own section."""
    return rule.split(".", 1)[0]


def _counted_from_page(rows: list[dict[str, Any]], verdict: str | None, counts: dict[str, int], total: int,
                       offset: int, short: bool) -> tuple[dict[str, int], int, bool]:
    """(counts, total, exact) of a count stopped at its budget, made better by the page: its
    rows are matches, so the lower bounds are at least what it shows; a short first page holds
    every match, so its rows are the count (all verdicts when no verdict filter is set; only
    the chosen one, and the total, when one is)."""
    seen = dict.fromkeys(VERDICTS, 0)
    for row in rows:
        key = row["verdict"] or UNAUDITED
        seen[key] = seen.get(key, 0) + 1
    if offset == 0 and short:
        if verdict:
            return {**counts, verdict: len(rows)}, len(rows), False
        return seen, len(rows), True
    if offset == 0:
        keys = [*counts, *(key for key in seen if key not in counts and seen[key])]
        counts = {key: max(counts.get(key, 0), seen.get(key, 0)) for key in keys}
    bound = max(total, offset + len(rows))
    if not verdict:
        bound = max(bound, sum(counts.values()))
    return counts, bound, False


def tally_filters(query: RecordQuery) -> tally.Filters | None:
    """The query's filters as `records.tally` takes them; None when one of them is outside
    every tally (a game id, a case, a decision, a search text)."""
    if query.game_id or query.case or query.decision or (query.q and search.fold(query.q)):
        return None
    return tally.Filters(current_only=not query.all_revisions, platform=query.platform, profile=query.profile,
                         client=query.client, date_from=query.date_from, date_to=query.date_to,
                         player=query.player, rule=query.rule)


def where_filters(query: RecordQuery, *, walk: bool = False) -> tuple[list[str], list[Any]]:
    """WHERE clauses and parameters for every filter except the verdict (the list, its counts
    per verdict and the overview charts share them, so a chart and its linked list agree).

    `walk=True` writes the same conditions so that no index can serve them (a unary `+` on each
    column, correlated EXISTS probes instead of IN lists): SQLite then reads the records in the
    order of the sort and stops after the page, which is what `Store.search` wants when most
    records match (`WALK_MIN`)."""
    col = (lambda name: f"+r.{name}") if walk else (lambda name: f"r.{name}")
    clauses: list[str] = [] if query.all_revisions else [f"{col('is_current')} = 1"]
    params: list[Any] = []
    exact = {"profile": query.profile, "platform": query.platform}
    for column, value in exact.items():
        if value:
            clauses.append(f"{col(column)} = ?")
            params.append(value)
    for column, value in {"client": query.client, "game_id": query.game_id}.items():
        if value:  # a range, not LIKE, so the index serves it; the prefix is literal and case-sensitive
            clauses.append(f"{col(column)} >= ? AND {col(column)} < ?")
            params += [value, value + PREFIX_END]
    if query.player:
        clauses.append("EXISTS (SELECT 1 FROM record_players p WHERE p.record_id = r.id AND (p.name = ? OR "
                       "p.player_id = ?))" if walk else
                       "r.id IN (SELECT record_id FROM record_players WHERE name = ? OR player_id = ?)")
        params += [query.player, query.player]
    if query.q and search.fold(query.q):
        clauses.append(f"r.id IN (SELECT record_id FROM record_search WHERE {search.MATCH})")
        params.append(search.pattern(query.q))
    if query.case:
        clauses.append("(r.id IN (SELECT cr.record_id FROM case_records cr JOIN cases c ON c.id = cr.case_id "
                       "WHERE c.number = ?) OR r.id IN (SELECT record_id FROM notes WHERE case_number = ?))")
        params += [query.case.strip(), query.case.strip()]
    if query.decision:
        clauses.append("r.id IN (SELECT n.record_id FROM notes n WHERE n.decision = ? AND n.id = "
                       "(SELECT max(m.id) FROM notes m WHERE m.record_id = n.record_id))")
        params.append(query.decision)
    if query.rule:
        column = "rule" if "." in query.rule else "section"
        clauses.append(f"EXISTS (SELECT 1 FROM audit_rules a WHERE a.audit_id = r.latest_audit_id AND a.{column} = ?)"
                       if walk else f"r.latest_audit_id IN (SELECT audit_id FROM audit_rules WHERE {column} = ?)")
        params.append(query.rule)
    if query.date_from:
        clauses.append(f"{col('played_date')} >= ?")
        params.append(query.date_from)
    if query.date_to:
        clauses.append(f"{col('played_date')} <= ?")
        params.append(query.date_to)
    return clauses, params


__all__ = ["APPEND_ONLY", "UNAUDITED", "AuditFailed", "Auditor", "Page", "RecordQuery", "Store", "Stored",
           "UnknownRecord", "VERDICTS", "connect", "identity", "migrate", "migrations", "now", "rule_codes",
           "searchable", "section_of", "sha256", "tally_filters", "where_filters"]
