"""`flask verify`: the tables checked against the trail, and the trail against its key and head.

A trail that is only a log proves little: someone with the database file could change a verdict,
repoint a record at forged bytes, raise an uploader to admin or revive a revoked token without
touching it. So every state change writes its entry in the same transaction (uploads, first
audits, re-audits, notes, account and token changes, logouts), carrying what it leaves behind,
and `verify` checks both directions per table:
- every row has its chained entry, and is what the entry says (a row without one was added behind
  the service's back; an entry without its row names a deletion);
- the current state is what the latest entries say (a record's latest audit and verdict, an
  account's role, platform, status, password and session generation, a token's revocation);
- columns derived from the stored bytes (the searchable ones, the seats) are what the bytes say.
The trail itself is walked with its HMAC key (`records.trail.verify_trail`), and against the
head an operator kept elsewhere when one is given.

Checks are registered per table (`@check("records")`), so a table added later registers its own
next to the others. Rows written before migration m004 (`trust_horizon`) are checked only against
what the older entries recorded. No Flask here.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

from sqlite_utils import Database

from records import cases, search, search_index, tally, trail
from records.db import snapshot
from records.conformance import run_digest
from records.migrations import EVIDENCE_HORIZONS, MIGRATIONS_DAMAGED, damage
from records.receipts import row_digest
from records.rows import audit_digest, players_of, rule_codes, searchable, section_of
from records.security import Accounts
from records.trail import Head, Mismatch

ACCOUNT_ACTIONS = ("account-create", "account-update", "bootstrap", "logout", "token-create", "token-revoke")
"""Entries that carry an account's whole state (records/security.py writes them)."""


@dataclass(frozen=True)
class Entry:
    """One trail row, detail parsed."""

    id: int
    at: str
    actor: str
    action: str
    record_id: int | None
    detail: dict[str, Any]


@dataclass
class Context:
    """The database, the key, and the trail read once for every check."""

    db: Database
    key: bytes
    entries: list[Entry] = field(default_factory=list)
    _keyed: dict[tuple[str, tuple[str, ...], int], dict[int, Entry]] = field(default_factory=dict, repr=False)

    @cached_property
    def horizon(self) -> dict[str, int]:
        """Per table, the last id written before m004 (0 on a database made since), as the keyed
        `chain-keyed` row recorded it: raising `trust_horizon` afterwards relaxes nothing. Only a
        chain with no keyed row yet (nothing written since m004) reads the table."""
        for entry in self.entries:
            if entry.action == "chain-keyed":
                recorded = entry.detail.get("horizon")
                if not isinstance(recorded, dict):
                    return {}
                kept = {str(name): value for name, value in recorded.items() if isinstance(value, int)}
                # a step added after the chain was keyed (m009) is read from the table: weaker, only
                # for databases whose chain began before it (docs/trust.md, "Third pass")
                return {**trail.horizon(self.db), **kept}
        return trail.horizon(self.db)

    def legacy(self, table: str, row_id: int) -> bool:
        """Whether a row predates the entries `verify` relies on."""
        return row_id <= self.horizon.get(table, 0)

    def by_action(self, *actions: str) -> list[Entry]:
        """Entries of these actions, oldest first."""
        return [entry for entry in self.entries if entry.action in actions]

    def keyed(self, field_name: str, *actions: str) -> dict[int, Entry]:
        """The latest entry per value of an integer detail field (upload_id, audit_id, ...), worked
        out once per field and actions (the trail is read before any check that asks)."""
        memo = (field_name, actions, len(self.entries))
        known = self._keyed.get(memo)
        if known is not None:
            return known
        found: dict[int, Entry] = {}
        for entry in self.by_action(*actions):
            value = entry.detail.get(field_name)
            if isinstance(value, int) and not isinstance(value, bool):
                found[value] = entry
        self._keyed[memo] = found
        return found

    def rows(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        """Query rows as dicts."""
        return list(self.db.query(sql, params or []))

    @cached_property
    def document_pass(self) -> dict[str, list[Mismatch]]:
        """What the records and seats checks find in one read of every record with its bytes
        (`_document_pass`), computed once for both."""
        return _document_pass(self)


NOT_EVIDENCE = {
    "login_throttle": "throttle counters (issue 12): how many wrong passwords a name or an address sent lately; "
                      "changing them only moves when the next login attempt is let through, and every failed "
                      "login is in the trail already (`login-failed`)",
    "_sqlite_migrations": "sqlite-utils' list of the schema steps applied: bookkeeping of the schema, not of "
                          "anything sent, stored or decided; a step missing before a later one, or one this version "
                          "does not know, is named all the same (`records.migrations.damage`, issue 34.6)",
    "fit_jobs": "fit jobs (issue 36.2): a queue of analyses and their kept answers; nothing in it judges a record: "
                "a fitted profile judges only once adopted, and the adopted version (its text and the fit's summary "
                "it keeps) is checked against its `platform-adopt` entry (`check_platform_profiles`)",
    "fit_job_inputs": "the records of an uploaded fit job's files, kept only until the job ends (issue 36.2): "
                      "inputs of an analysis, never stored as records nor audited",
}
"""The tables of the store `verify` does not check, and why (SQLite's own `sqlite_*` tables aside);
tests/web/test_evidence_columns.py tampers every column of every other table and expects verify to
name it, so a table added without a check fails there until it is covered or listed here."""

Check = Callable[[Context], Iterator[Mismatch]]
CHECKS: dict[str, Check] = {}
"""Per table, what `verify` checks of it, in registration order."""


def check(table: str) -> Callable[[Check], Check]:
    """Register a table's check (another module adds its own tables' the same way)."""

    def register(function: Check) -> Check:
        CHECKS[table] = function
        return function

    return register


def _read_entries(db: Database) -> list[Entry]:
    """Every trail row, oldest first (a detail that does not parse counts as empty; the chain says
    whether it was changed)."""
    entries = []
    for row_id, at, actor, action, record_id, detail in db.execute(
            "SELECT id, at, actor, action, record_id, detail FROM trail ORDER BY id"):
        try:
            parsed = json.loads(detail) if detail else {}
        except ValueError:
            parsed = {}
        entries.append(Entry(row_id, at, actor, action, record_id, parsed if isinstance(parsed, dict) else {}))
    return entries


SEARCH_TEXT = "search_text_differs"
"""Code of a search text (`record_search`) that is not what its record and seats make, or of no record."""
FIRST = ("search",)
"""Checks `verify` runs before anything else is read: the search check writes to `temp` (FTS5's
integrity-check on a copy, `records.search_index`), which SQLite refuses for the rest of a
transaction once a read met a page it cannot read."""
STORE_UNREADABLE = "store_unreadable"
"""Code of a check SQLite could not finish: the table (or an index over it) is damaged."""


def verify(db: Database, key: bytes, *, head: Head | None = None,
           tables: tuple[str, ...] | None = None) -> list[Mismatch]:
    """Everything `flask verify` checks, in one list (empty when all is well). Every read is
    made in one read transaction, so a service writing while `verify` runs (minutes at
    1,000,000 records) is seen as it was when verify began: a token or record stored meanwhile,
    with its trail entry, is neither half seen nor reported as added behind the service's back.
    A damaged store never ends it: a check SQLite cannot finish is named (`STORE_UNREADABLE`, what
    it found until then kept) and the others go on; so is a damaged record of the schema's steps."""
    with snapshot(db):
        entries: list[Entry] = []
        context = Context(db, key, entries)
        chosen = [table for table in CHECKS if tables is None or table in tables]
        found: list[Mismatch] = []
        for table in FIRST:  # before anything else is read
            if table in chosen:
                found += _guarded(table, partial(CHECKS[table], context))
        found += _guarded("schema", lambda: [Mismatch("schema", 0, line, MIGRATIONS_DAMAGED) for line in damage(db)])

        def read() -> list[Mismatch]:
            entries.extend(_read_entries(db))
            return []

        found += _guarded("trail", read)
        found += _guarded("trail", lambda: trail.verify_trail(db, key, head))
        for table in chosen:
            if table not in FIRST:
                found += _guarded(table, partial(CHECKS[table], context))
        return found


def _guarded(table: str, run: Callable[[], Iterable[Mismatch]]) -> list[Mismatch]:
    """What a check finds; where SQLite stops it (a damaged page, an index it cannot open, a table
    gone), what it found until then and the error, naming the table."""
    found: list[Mismatch] = []
    try:
        for mismatch in run():
            found.append(mismatch)
    except sqlite3.DatabaseError as error:
        found.append(Mismatch(table, 0, f"cannot be read to the end: {error}", STORE_UNREADABLE))
    return found


def _sha(data: bytes | str) -> str:
    """Hex sha256 of stored bytes (an edit with SQL text functions turns a BLOB into TEXT)."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else bytes(data)).hexdigest()


def _json_or_none(text: Any) -> Any:
    """A stored JSON text parsed, or None when it no longer parses (an edit verify names)."""
    try:
        return json.loads(text) if isinstance(text, (str, bytes)) else None
    except ValueError:
        return None


def _differs(row: dict[str, Any], detail: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    """The fields an entry records that the row no longer has."""
    return [name for name in names if name in detail and detail[name] != row.get(name)]


# ----- tables kept in step with the trail, compared both ways --------------------------------

Row = dict[str, Any]


@dataclass(frozen=True)
class Ledger:
    """A table whose every row has a trail entry carrying its id, and how `verify` names a row
    without its entry (added behind the service's back) and an entry without its row (deleted)."""

    kind: str
    """The name a mismatch carries (`Mismatch.kind`)."""
    rows: str
    """The query of the rows (each with its `id`)."""
    field: str
    """The entry's detail field holding the row's id."""
    actions: tuple[str, ...]
    """The actions of the entries; the latest per id counts."""
    added: str
    """The message of a row without its entry, filled from the row (`{record_id}`)."""
    deleted: Callable[[Entry], str]
    """The message of an entry without its row."""
    horizon: str | None = None
    """The `trust_horizon` table whose older rows may have no entry (None: every row has one)."""


LEDGERS: dict[str, Ledger] = {ledger.kind: ledger for ledger in (
    Ledger("upload", "SELECT * FROM uploads", "upload_id", ("upload",),
           "receipt without an upload entry: added behind the service's back",
           lambda entry: f"receipt deleted (record {entry.record_id}, trail {entry.id})", "uploads"),
    Ledger("audit", "SELECT * FROM audits", "audit_id", ("audit", "reaudit"),
           "record {record_id}: no trail entry: this audit was added behind the service's back",
           lambda entry: f"deleted: record {entry.record_id}, trail {entry.id}", "audits"),
    Ledger("note", "SELECT * FROM notes", "note_id", ("annotate",),
           "record {record_id}: no trail entry: this note was added behind the service's back",
           lambda entry: f"deleted: record {entry.record_id}, trail {entry.id}", "notes"),
    Ledger("account", "SELECT id FROM accounts ORDER BY id", "account_id", ACCOUNT_ACTIONS,
           "{account}: no trail entry: this account was added behind the service's back",
           lambda entry: f"{entry.detail.get('account')}: deleted (trail {entry.id})", "accounts"),
    Ledger("token", "SELECT * FROM tokens ORDER BY id", "token_id", ("token-create",),
           "{prefix}…: no trail entry: this token was added behind the service's back",
           lambda entry: f"deleted (trail {entry.id})", "tokens"),
    Ledger("receipt", "SELECT * FROM receipts ORDER BY id", "receipt_id", ("receipt",),
           "receipt without a trail entry: added behind the service's back",
           lambda entry: f"receipt deleted (trail {entry.id})"),
    Ledger("case", "SELECT * FROM cases", "case_id", ("case-open",),
           "case {number}: no trail entry: added behind the service's back",
           lambda entry: f"case {entry.detail.get('number')} deleted (trail {entry.id})"),
    Ledger("decision", "SELECT * FROM case_decisions", "decision_id", ("case-decide",),
           "decision without a trail entry: added behind the service's back",
           lambda entry: f"decision deleted (trail {entry.id})"),
    Ledger("conformance", "SELECT * FROM conformance_runs", "run_id", ("conformance",),
           "run without a trail entry: added behind the service's back",
           lambda entry: f"run deleted (trail {entry.id})", "conformance_runs"),
)}
"""Every table `verify` holds against its entries row by row, both ways (the records and matches,
whose entries are their uploads, are read in passes of their own)."""


def _both_ways(context: Context, ledger: Ledger, differs: Callable[[Row, Entry], Iterable[Mismatch]], *,
               rows: Iterable[Row] | None = None,
               unentered: Callable[[Row], Iterable[Mismatch]] | None = None) -> Iterator[Mismatch]:
    """A ledger's rows (streamed from its query unless given) against its entries: a row without its
    entry is named unless it predates the horizon, a row with one is what `differs` finds, an entry
    without its row is a deletion. `unentered` checks more of a row that has no entry."""
    entries = context.keyed(ledger.field, *ledger.actions)
    present: set[int] = set()
    for row in context.db.query(ledger.rows) if rows is None else rows:
        present.add(row["id"])
        entry = entries.get(row["id"])
        if entry is not None:
            yield from differs(row, entry)
            continue
        if ledger.horizon is None or not context.legacy(ledger.horizon, row["id"]):
            yield Mismatch(ledger.kind, row["id"], ledger.added.format_map(row))
        if unentered is not None:
            yield from unentered(row)
    for row_id, entry in entries.items():
        if row_id not in present:
            yield Mismatch(ledger.kind, row_id, ledger.deleted(entry))


# ----- records, their bytes, receipts and matches ---------------------------------------------


@check("records")
def check_records(context: Context) -> Iterator[Mismatch]:
    """Each record against its upload entry and its bytes; no entry without its record; the
    current revision; the latest audit."""
    yield from context.document_pass["records"]
    for platform, game_id, top, current, current_revision in context.db.execute(
            "SELECT platform, game_id, max(revision), sum(is_current), max(CASE WHEN is_current = 1 THEN revision END) "
            "FROM records GROUP BY platform, game_id"):
        if current != 1 or current_revision != top:
            yield Mismatch("record", 0, f"{platform}/{game_id}: revision {top} should be the one current revision")
    yield from _latest_audits(context)
    yield from _audit_errors(context)
    yield from _creating_receipts(context)


def _audit_errors(context: Context) -> Iterator[Mismatch]:
    """A record's engine-failure flag (`audit_error`) is the error of its last `audit-failed`
    entry while no audit came after it, and empty once one did."""
    last: dict[int, Entry] = {}
    for entry in context.by_action("audit", "reaudit", "audit-failed"):
        if entry.record_id is not None:
            last[entry.record_id] = entry
    for record_id, game_id, error in context.db.execute("SELECT id, game_id, audit_error FROM records"):
        found = last.get(record_id)
        expected = found.detail.get("error") if found is not None and found.action == "audit-failed" else None
        if error != expected and not (found is None and context.legacy("audit_errors", record_id)):
            yield Mismatch("record", record_id, f"{game_id}: its engine-failure flag (audit_error) is not what the "
                                                "trail recorded")


def _creating_receipts(context: Context) -> Iterator[Mismatch]:
    """Every record has the receipt of the submission that created it (written in the record's own
    transaction since m009: a kill cannot leave one without the other)."""
    for record_id, game_id in context.db.execute(
            "SELECT id, game_id FROM records r WHERE NOT EXISTS (SELECT 1 FROM receipts c WHERE c.record_id = r.id "
            "AND c.outcome IN ('created', 'revision'))"):
        if not context.legacy("record_receipts", record_id):
            yield Mismatch("record", record_id, f"{game_id}: no receipt of the submission that created it")


@check("record_search")
def check_search(context: Context) -> Iterator[Mismatch]:
    """The folded search text of every record, recomputed from its columns and seats (derived;
    found in the records' pass), and no text of a record that does not exist."""
    yield from context.document_pass["record_search"]
    for (record_id,) in context.db.execute(
            "SELECT record_id FROM record_search WHERE record_id NOT IN (SELECT id FROM records)"):
        yield Mismatch("record", record_id, "search text (record_search) of a record that does not exist", SEARCH_TEXT)


@check("trust_horizon")
def check_horizon(context: Context) -> Iterator[Mismatch]:
    """The horizon table is what the chain-keyed entry recorded of it."""
    recorded: dict[str, Any] | None = None
    for entry in context.by_action("chain-keyed"):
        found = entry.detail.get("horizon")
        recorded = found if isinstance(found, dict) else {}
        break
    if recorded is None:
        return
    table = trail.horizon(context.db)
    for name, value in recorded.items():
        if table.get(name) != value:
            yield Mismatch("trail", 0, f"trust_horizon {name}: {table.get(name)}, the chain-keyed entry recorded "
                                       f"{value}")
    for name in set(table) - set(recorded) - set(EVIDENCE_HORIZONS):
        yield Mismatch("trail", 0, f"trust_horizon {name}: not a horizon any migration writes")


def _document_pass(context: Context) -> dict[str, list[Mismatch]]:
    """One read of every record with its bytes, each document parsed once (at 1,000,000 records
    the parsing is most of `verify`): the record against its upload entry and against the
    columns parsed from its bytes, the seats against the bytes, and upload entries whose record
    is gone. The seats are read alongside, in record order, never all held at once."""
    found: dict[str, list[Mismatch]] = {"records": [], "record_players": [], "record_search": []}
    entries = {entry.record_id: entry for entry in context.by_action("upload")
               if entry.detail.get("outcome") in ("created", "revision") and entry.record_id is not None}
    seats = _seats_by_record(context.db)
    pending = next(seats, None)
    seen: set[int] = set()
    for row in context.db.query("SELECT r.*, d.raw, d.raw_kind, s.text AS search_text FROM records r "
                                "LEFT JOIN documents d ON d.id = r.document_id "
                                "LEFT JOIN record_search s ON s.record_id = r.id ORDER BY r.id"):  # one row (and its bytes) in memory at a time
        record_id = row["id"]
        seen.add(record_id)
        found["records"] += _against_entry(context, row, entries.get(record_id))
        while pending is not None and pending[0] < record_id:
            pending = next(seats, None)
        stored_seats = pending[1] if pending is not None and pending[0] == record_id else []
        seat_rows = [{"name": name, "player_id": player_id} for _, name, player_id in stored_seats]
        if row["search_text"] != search.record_text(row["game_id"], row["platform"], row["client"], seat_rows):
            found["record_search"].append(Mismatch("record", record_id, f"{row['game_id']}: its search text "
                                                   "(record_search) is not what its columns and seats make",
                                                   SEARCH_TEXT))
        doc = _parsed(row["raw"])
        if doc is None:
            continue
        wrong = [name for name, value in searchable(doc).items() if row.get(name) != value]
        if wrong:
            found["records"].append(Mismatch("record", record_id, f"{row['game_id']}: {', '.join(wrong)} differ "
                                                                  "from what the stored bytes say"))
        if stored_seats != [(seat["seat"], seat["name"], seat["player_id"]) for seat in players_of(record_id, doc)]:
            found["record_players"].append(Mismatch("record", record_id, "its seats (record_players) differ from "
                                                                         "what the stored bytes say"))
    for record_id, entry in entries.items():
        if record_id not in seen:
            found["records"].append(Mismatch("record", record_id, f"deleted: its upload is trail row {entry.id} "
                                                                  f"({entry.detail.get('game_id', '?')})"))
    return found


def _against_entry(context: Context, row: dict[str, Any], entry: Entry | None) -> list[Mismatch]:
    """A record row against the upload entry that created it."""
    identity = ("platform", "game_id", "revision", "document_id", "match_id", "match_index", "sha256", "source",
                "uploader")
    label = f"{row['game_id']}"
    if entry is None:
        if context.legacy("records", row["id"]):
            return []
        return [Mismatch("record", row["id"], f"{label}: no upload entry in the trail: this record was added "
                                              "behind the service's back")]
    changed = _differs(row, entry.detail, identity)
    if row["uploaded_at"] != entry.at:
        changed.append("uploaded_at")
    if "raw_kind" in entry.detail and row.get("raw_kind") != entry.detail["raw_kind"]:
        changed.append("raw_kind (documents)")
    if changed:
        return [Mismatch("record", row["id"], f"{label}: {', '.join(changed)} no longer what its upload "
                                              f"(trail {entry.id}) recorded")]
    return []


def _seats_by_record(db: Database) -> Iterator[tuple[int, list[tuple[Any, ...]]]]:
    """(record id, [(seat, name, player_id), ...]) for every record with seats, in record order."""
    current: int | None = None
    group: list[tuple[Any, ...]] = []
    for record_id, seat, name, player_id in db.execute(
            "SELECT record_id, seat, name, player_id FROM record_players ORDER BY record_id, seat"):
        if record_id != current:
            if current is not None:
                yield current, group
            current, group = record_id, []
        group.append((seat, name, player_id))
    if current is not None:
        yield current, group


def _parsed(raw: bytes | str | None) -> dict[str, Any] | None:
    """A stored document as the object it was parsed into at upload; None when there are no
    bytes, or they no longer parse into an object (the documents check names changed bytes)."""
    if raw is None:
        return None
    try:
        doc = json.loads(raw.decode("utf-8-sig") if isinstance(raw, bytes) else str(raw))
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def _latest_audits(context: Context) -> Iterator[Mismatch]:
    """Each record's latest audit and verdict are those of its latest audit entry."""
    latest: dict[int, Entry] = {}
    for entry in context.by_action("audit", "reaudit"):
        if entry.record_id is not None and isinstance(entry.detail.get("audit_id"), int):
            current = latest.get(entry.record_id)
            if current is None or entry.detail["audit_id"] > current.detail["audit_id"]:
                latest[entry.record_id] = entry
    audits = {row["id"]: row for row in context.rows(
        "SELECT id, record_id, verdict, profile, findings_json FROM audits")}
    newest_row: dict[int, int] = {}
    for audit in audits.values():
        newest_row[audit["record_id"]] = max(newest_row.get(audit["record_id"], 0), audit["id"])
    for row in context.rows("SELECT id, game_id, latest_audit_id, verdict, audit_profile, rules, findings_count "
                            "FROM records"):
        found = latest.get(row["id"])
        if found is not None:
            expected, verdict = found.detail["audit_id"], found.detail.get("verdict")
        elif context.legacy("records", row["id"]) and row["id"] in newest_row:
            expected, verdict = newest_row[row["id"]], audits[newest_row[row["id"]]]["verdict"]
        else:
            expected, verdict = None, None
        if row["latest_audit_id"] != expected or row["verdict"] != verdict:
            yield Mismatch("record", row["id"], f"{row['game_id']}: latest audit {row['latest_audit_id']} "
                                                f"({row['verdict']}), the trail says {expected} ({verdict})")
            continue
        stored_audit = audits.get(expected) if expected is not None else None
        if expected is None and (row["audit_profile"], row["rules"], row["findings_count"]) != (None, None, None):
            yield Mismatch("record", row["id"], f"{row['game_id']}: never audited, yet it has an audit's profile, "
                                                "rules or finding count")
        if stored_audit is None:
            continue
        try:
            findings = json.loads(stored_audit["findings_json"])
        except (TypeError, ValueError):
            continue  # the audits check names the edited row
        codes = " ".join(rule_codes(findings)) if isinstance(findings, list) else None
        if (row["audit_profile"], row["rules"], row["findings_count"]) != (
                stored_audit["profile"], codes, len(findings) if isinstance(findings, list) else None):
            yield Mismatch("record", row["id"], f"{row['game_id']}: profile, rules or finding count differ from "
                                                f"its latest audit {expected}")


@check("record_players")
def check_players(context: Context) -> Iterator[Mismatch]:
    """The seats of each record against the stored bytes (found in the records' pass)."""
    yield from context.document_pass["record_players"]


@check("tally")
def check_tally(context: Context) -> Iterator[Mismatch]:
    """The counts per verdict the list reads (`records.tally`) against a recount of the records:
    triggers keep them, so a difference means rows were written around the triggers."""
    for line in tally.differences(context.db):
        yield Mismatch("tally", 0, line)


@check("search")
def check_search_index(context: Context) -> Iterator[Mismatch]:
    """The search indexes (`records.search_index`) against a recomputation from the stored search
    texts: derived data, so any difference means rows were written around the store."""
    for difference in search_index.differences(context.db):
        yield Mismatch("search", 0, difference.line(), difference.code)


@check("documents")
def check_documents(context: Context) -> Iterator[Mismatch]:
    """Every record's and match's bytes against the sha256 recorded at upload; no stray document."""
    cursor = context.db.execute("SELECT r.id, r.game_id, r.sha256, d.sha256, d.size, d.raw FROM records r "
                                "LEFT JOIN documents d ON d.id = r.document_id ORDER BY r.id")
    for record_id, game_id, recorded, doc_hash, size, raw in cursor:
        if raw is None:
            yield Mismatch("record", record_id, f"{game_id}: its bytes are missing")
            continue
        actual = _sha(raw)
        if actual != recorded or actual != doc_hash or len(raw) != size:
            yield Mismatch("record", record_id, f"{game_id}: sha256 of the stored bytes is {actual}, recorded {recorded}")
    for match_id, recorded, raw, size, doc_hash in context.db.execute(
            "SELECT m.id, m.sha256, d.raw, d.size, d.sha256 FROM matches m LEFT JOIN documents d "
            "ON d.id = m.document_id"):
        match_hash = None if raw is None else _sha(raw)
        if match_hash != recorded or doc_hash != recorded or (raw is not None and len(raw) != size):
            yield Mismatch("match", match_id, f"sha256 of the stored match is {match_hash}, recorded {recorded}")
    for (document_id,) in context.db.execute(
            "SELECT id FROM documents WHERE id NOT IN (SELECT document_id FROM records WHERE document_id IS NOT NULL) "
            "AND id NOT IN (SELECT document_id FROM matches WHERE document_id IS NOT NULL)"):
        yield Mismatch("document", document_id, "belongs to no record and no match: added behind the service's back")


@check("matches")
def check_matches(context: Context) -> Iterator[Mismatch]:
    """Each match against the upload entries of its hands."""
    recorded: dict[int, Entry] = {}
    for entry in context.by_action("upload"):
        match_id = entry.detail.get("match_id")
        if isinstance(match_id, int):
            recorded.setdefault(match_id, entry)
    for row in context.rows("SELECT m.id, m.sha256, m.document_id, m.source, m.uploader, m.uploaded_at, d.raw_kind "
                            "FROM matches m LEFT JOIN documents d ON d.id = m.document_id"):
        named = recorded.get(row["id"])
        if named is None:
            if not context.legacy("matches", row["id"]):
                yield Mismatch("match", row["id"], "no upload in the trail names this match: added behind the "
                                                   "service's back")
        elif (named.detail.get("match_sha256"), named.detail.get("match_document_id")) != (
                row["sha256"], row["document_id"]):
            yield Mismatch("match", row["id"], f"sha256 or document differ from its upload (trail {named.id})")
        elif (row["uploader"], row["uploaded_at"]) != (named.detail.get("uploader"), named.at) or any(
                name in named.detail and named.detail[name] != row[column]
                for name, column in (("match_source", "source"), ("match_raw_kind", "raw_kind"))):
            yield Mismatch("match", row["id"], f"source, uploader, time or kind differ from its upload "
                                               f"(trail {named.id})")
        yield from _match_columns(context, row["id"])
    present = {row["id"] for row in context.rows("SELECT id FROM matches")}
    for match_id, entry in recorded.items():
        if match_id not in present:
            yield Mismatch("match", match_id, f"deleted: its upload is trail row {entry.id}")


def _match_columns(context: Context, match_id: int) -> Iterator[Mismatch]:
    """A match's table id and hand count against its stored document."""
    row = context.db.execute("SELECT m.table_id, m.hands, d.raw FROM matches m JOIN documents d ON d.id = m.document_id "
                             "WHERE m.id = ?", [match_id]).fetchone()
    if row is None:
        return
    try:
        doc = json.loads(row[2].decode("utf-8-sig") if isinstance(row[2], bytes) else str(row[2]))
    except ValueError:
        return
    hands = doc.get("hands") if isinstance(doc, dict) else None
    table = doc.get("table_id") if isinstance(doc, dict) else None
    if (row[0], row[1]) != (table if isinstance(table, str) else None, len(hands) if isinstance(hands, list) else None):
        yield Mismatch("match", match_id, "table id or hand count differ from the stored match")


@check("uploads")
def check_uploads(context: Context) -> Iterator[Mismatch]:
    """Every receipt against its upload entry, both ways."""
    ledger = LEDGERS["upload"]
    rows = context.rows(ledger.rows)
    yield from _both_ways(context, ledger, _upload_differs, rows=rows)
    entries = context.keyed(ledger.field, *ledger.actions)
    legacy_counts: dict[int, int] = defaultdict(int)
    for entry in context.by_action("upload"):
        if "upload_id" not in entry.detail and entry.record_id is not None:
            legacy_counts[entry.record_id] += 1
    unlogged: dict[int, int] = defaultdict(int)
    for row in rows:
        if row["id"] not in entries:
            unlogged[row["record_id"]] += 1
    for record_id, expected in legacy_counts.items():
        count = unlogged.get(record_id, 0)
        if count < expected:
            yield Mismatch("upload", record_id, f"record {record_id} has {count} receipts from before m004, the trail "
                                                f"{expected}: receipts were deleted")


def _upload_differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
    changed = _differs(row, entry.detail, ("sha256", "source", "uploader", "outcome"))
    if row["record_id"] != entry.record_id or row["uploaded_at"] != entry.at:
        changed.append("record or time")
    if changed:
        yield Mismatch("upload", row["id"], f"receipt changed ({', '.join(changed)}; trail {entry.id})")


# ----- audits and notes -----------------------------------------------------------------------


@check("audits")
def check_audits(context: Context) -> Iterator[Mismatch]:
    """Every audit row against the digest its entry recorded, both ways."""
    ledger = LEDGERS["audit"]
    rows = {row["id"]: row for row in context.rows(ledger.rows)}
    yield from _both_ways(context, ledger, _audit_differs, rows=rows.values())
    indexed: dict[int, list[str]] = defaultdict(list)
    for audit_id, rule, section in context.db.execute(
            "SELECT audit_id, rule, section FROM audit_rules ORDER BY audit_id, rule"):
        indexed[audit_id].append(rule if section == section_of(str(rule)) else f"{rule} (section {section})")
    for audit_id, row in rows.items():
        try:
            findings = json.loads(row["findings_json"])
        except (TypeError, ValueError):
            continue
        expected = sorted(rule_codes(findings)) if isinstance(findings, list) else []
        if indexed.get(audit_id, []) != expected:
            yield Mismatch("audit", audit_id, f"record {row['record_id']}: its rule index (audit_rules) differs from "
                                              "its findings")


def _audit_differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
    digest = entry.detail.get("audit_sha256")
    if row["record_id"] != entry.record_id or row["verdict"] != entry.detail.get("verdict") or (
            digest is not None and digest != audit_digest(row)):
        yield Mismatch("audit", row["id"], f"record {row['record_id']}: changed after it was written "
                                           f"(trail {entry.id})")


@check("notes")
def check_notes(context: Context) -> Iterator[Mismatch]:
    """Every note against its annotate entry (text digest, decision, case, author, time), both ways."""
    yield from _both_ways(context, LEDGERS["note"], _note_differs)


def _note_differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
    text = row["text"] if isinstance(row["text"], str) else ""
    expected = {"case_number": row["case_number"], "decision": row["decision"],
                "text_sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()}
    changed = [name for name, value in expected.items() if entry.detail.get(name) != value]
    if (row["record_id"], row["author"], row["created_at"]) != (entry.record_id, entry.actor, entry.at):
        changed.append("record, author or time")
    if changed:
        yield Mismatch("note", row["id"], f"record {row['record_id']}: {', '.join(changed)} changed after it was "
                                          f"written (trail {entry.id})")


# ----- accounts and tokens --------------------------------------------------------------------


@check("accounts")
def check_accounts(context: Context) -> Iterator[Mismatch]:
    """Each account's role, platform, status, password and session generation are what its latest
    entry says; an account without entries was added behind the service's back."""
    ledger = LEDGERS["account"]
    by_name: dict[str, Entry] = {}
    for entry in context.by_action(*ledger.actions):
        if "account_id" not in entry.detail and isinstance(entry.detail.get("account"), str):
            by_name[entry.detail["account"]] = entry
    accounts = Accounts(context.db, context.key)
    created = context.keyed("account_id", "account-create", "bootstrap")

    def differs(state: Row, last: Entry) -> Iterator[Mismatch]:
        changed = _differs(state, last.detail, ("account", "role", "platform", "disabled", "password", "generation"))
        creation = created.get(state["id"])
        if creation is not None and (creation.at, creation.actor) != _creation(context, state["id"]):
            changed.append("created_at or created_by")
        if changed:
            yield Mismatch("account", state["id"], f"{state['account']}: {', '.join(changed)} changed behind the "
                                                   f"service's back (the trail says {_shown(last.detail, changed)}, "
                                                   f"trail {last.id})")

    def unentered(state: Row) -> Iterator[Mismatch]:  # from before m004: its role and platform by name
        legacy = by_name.get(state["account"])
        if context.legacy("accounts", state["id"]) and legacy is not None and _differs(
                state, legacy.detail, ("role", "platform")):
            yield Mismatch("account", state["id"], f"{state['account']}: role or platform differ from trail "
                                                   f"{legacy.id}")

    states = ({"id": account_id, **accounts.state(account_id)} for (account_id,) in context.db.execute(ledger.rows))
    yield from _both_ways(context, ledger, differs, rows=states, unentered=unentered)


def _creation(context: Context, account_id: int) -> tuple[Any, Any]:
    """An account row's (created_at, created_by), as its creation entry's (time, actor) would read."""
    row = context.db.execute("SELECT created_at, created_by FROM accounts WHERE id = ?", [account_id]).fetchone()
    return (row[0], row[1] or "system") if row else (None, None)


def _shown(detail: dict[str, Any], names: list[str]) -> str:
    """`role=uploader, disabled=False` for a message (never the password fingerprint)."""
    return ", ".join(f"{name}={detail.get(name)!r}" for name in names if name != "password") or "another password"


@check("tokens")
def check_tokens(context: Context) -> Iterator[Mismatch]:
    """Each token was created through the service, belongs to whom it did, and is revoked iff the
    trail revoked it."""
    revoked = context.keyed("token_id", "token-revoke")

    def differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
        if (entry.detail.get("account_id"), entry.detail.get("token_hash")) != (
                row["account_id"], trail.fingerprint(context.key, str(row["token_hash"]))):
            yield Mismatch("token", row["id"], f"{row['prefix']}…: its account or hash changed (trail {entry.id})")
        elif (row["prefix"], row["created_at"], row["created_by"] or "system") != (
                entry.detail.get("token"), entry.at, entry.actor) or (
                "label" in entry.detail and entry.detail["label"] != row["label"]):
            yield Mismatch("token", row["id"], f"{row['prefix']}…: prefix, label or creation changed "
                                               f"(trail {entry.id})")
        yield from _revocation(row, revoked, created=True)

    yield from _both_ways(context, LEDGERS["token"], differs,
                          unentered=lambda row: _revocation(row, revoked, created=False))


def _revocation(row: Row, revoked: dict[int, Entry], *, created: bool) -> Iterator[Mismatch]:
    """A token's revocation against its `token-revoke` entry (`created`: the token has its creation entry)."""
    gone = revoked.get(row["id"])
    if gone is None and row["revoked_by"] is not None:
        yield Mismatch("token", row["id"], f"{row['prefix']}…: names who revoked it, but the trail never did")
    if gone is not None and row["revoked_at"] is not None and (row["revoked_at"], row["revoked_by"] or "system") != (
            gone.at, gone.actor):
        yield Mismatch("token", row["id"], f"{row['prefix']}…: revoked at or by differ from trail {gone.id}")
    if gone is not None and row["revoked_at"] is None:
        yield Mismatch("token", row["id"], f"{row['prefix']}…: revoked (trail {gone.id}) but working again")
    elif row["revoked_at"] is not None and gone is None and created:
        yield Mismatch("token", row["id"], f"{row['prefix']}…: marked revoked without a trail entry")


# ----- receipts and cases (issue 11) ---------------------------------------------------------

CASE_STATUS_AFTER = {"case-open": "open", "case-decide": "decided", "case-close": "closed", "case-reopen": "decided"}
"""The status each case entry leaves a case in (records/cases.py)."""


@check("receipts")
def check_receipts(context: Context) -> Iterator[Mismatch]:
    """Every receipt of a submitted item against its `receipt` entry, both ways: a receipt edited,
    forged or deleted behind the service's back is named."""
    yield from _both_ways(context, LEDGERS["receipt"], _receipt_differs)  # streamed: one a record, and more


def _receipt_differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
    changed = _differs(row, entry.detail, ("game_id", "sha256", "source", "outcome"))
    if "row_sha256" in entry.detail and entry.detail["row_sha256"] != row_digest(row):
        changed.append("a column (uploader, platform, file, line, errors, ...)")
    if row["at"] != entry.at or row["record_id"] != entry.record_id:
        changed.append("time or record")
    if " ".join(entry.detail.get("errors") or []) != (row["error_codes"] or ""):
        changed.append("error codes")
    if changed:
        yield Mismatch("receipt", row["id"], f"receipt changed ({', '.join(changed)}; trail {entry.id})")


@check("cases")
def check_cases(context: Context) -> Iterator[Mismatch]:
    """Each case against its `case-open` entry (number, platform, player, complaint digest), its
    status against the last entry of the case, and its decisions and attached records against
    theirs, both ways."""
    last: dict[int, Entry] = {}
    touched: dict[int, Entry] = {}
    for entry in context.by_action(*CASE_STATUS_AFTER, "case-attach"):
        case_id = entry.detail.get("case_id")
        if isinstance(case_id, int):
            touched[case_id] = entry
            if entry.action in CASE_STATUS_AFTER:
                last[case_id] = entry

    def differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
        changed = _differs(row, entry.detail, ("number", "platform", "player"))
        if entry.detail.get("complaint_sha256") != hashlib.sha256(str(row["complaint"]).encode("utf-8")).hexdigest():
            changed.append("complaint")
        if (row["created_at"], row["created_by"] or "system") != (entry.at, entry.actor):
            changed.append("created_at or created_by")
        if row["updated_at"] != touched[row["id"]].at:
            changed.append("updated_at")
        if changed:
            yield Mismatch("case", row["id"], f"case {row['number']}: {', '.join(changed)} changed (trail {entry.id})")
        if row["text"] != cases.search_text(row["number"], row["platform"], row["player"], row["complaint"]):
            yield Mismatch("case", row["id"], f"case {row['number']}: its search text is not what its fields make")
        final = last.get(row["id"])
        if final is not None and CASE_STATUS_AFTER[final.action] != row["status"]:
            yield Mismatch("case", row["id"], f"case {row['number']}: status {row['status']!r}, but the trail "
                                              f"(entry {final.id}) left it {CASE_STATUS_AFTER[final.action]!r}")

    yield from _both_ways(context, LEDGERS["case"], differs)
    yield from _both_ways(context, LEDGERS["decision"], _decision_differs)
    yield from _check_case_records(context)


def _decision_differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
    """A decision against its `case-decide` entry (outcome, payments, audit, note digest)."""
    changed = _differs(row, entry.detail, ("case_id", "outcome", "audit_id"))
    if entry.detail.get("payments") != _json_or_none(row["payments_json"]):
        changed.append("payments")
    if entry.detail.get("note_sha256") != hashlib.sha256(str(row["note"]).encode("utf-8")).hexdigest():
        changed.append("note")
    if (row["decided_at"], row["decided_by"] or "system") != (entry.at, entry.actor):
        changed.append("decided_at or decided_by")
    if changed:
        yield Mismatch("decision", row["id"], f"decision changed ({', '.join(changed)}; trail {entry.id})")


def _check_case_records(context: Context) -> Iterator[Mismatch]:
    """Each record attached to a case has its `case-attach` entry, and each entry its row."""
    attached = {(int(entry.detail.get("case_id", 0)), entry.record_id): entry
                for entry in context.by_action("case-attach")}
    present = {(row["case_id"], row["record_id"])
               for row in context.rows("SELECT case_id, record_id FROM case_records")}
    for pair in present - set(attached):
        yield Mismatch("case", pair[0], f"record {pair[1]} attached without a trail entry")
    for row in context.rows("SELECT * FROM case_records"):
        entry = attached.get((row["case_id"], row["record_id"]))
        if entry is not None and (row["added_at"], row["added_by"] or "system") != (entry.at, entry.actor):
            yield Mismatch("case", row["case_id"], f"record {row['record_id']}: who or when attached it changed "
                                                   f"(trail {entry.id})")
    for pair in set(attached) - present:
        yield Mismatch("case", pair[0], f"record {pair[1]} detached behind the service's back "
                                        f"(trail {attached[pair].id})")


# ----- conformance runs (issue 15) -------------------------------------------------------------


@check("conformance_runs")
def check_conformance(context: Context) -> Iterator[Mismatch]:
    """Every conformance run against the digest of its whole row its `conformance` entry recorded,
    both ways."""
    yield from _both_ways(context, LEDGERS["conformance"], _run_differs)


def _run_differs(row: Row, entry: Entry) -> Iterator[Mismatch]:
    if entry.detail.get("row_sha256") != run_digest(row) or (row["created_at"], row["uploader"] or "system") != (
            entry.at, entry.actor):
        yield Mismatch("conformance", row["id"], f"run changed after it was stored (trail {entry.id})")



# ----- platform profiles (issue 36.3) ----------------------------------------------------------


@check("platform_profiles")
def check_platform_profiles(context: Context) -> Iterator[Mismatch]:
    """Every adopted version against its platform-adopt entry (text digest and every field), both ways."""
    entries = context.keyed("profile_id", "platform-adopt")
    rows = {row["id"]: row for row in context.rows("SELECT * FROM platform_profiles")}
    for version_id, row in rows.items():
        entry = entries.get(version_id)
        if entry is None:
            yield Mismatch("platform profile", version_id, f"{row['platform']} version {row['version']}: no trail "
                                                           "entry: this version was added behind the service's back")
            continue
        text = row["text"] if isinstance(row["text"], str) else ""
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        expected = {"platform": row["platform"], "version": row["version"], "name": row["name"],
                    "effective_from": row["effective_from"], "why": row["why"], "text_sha256": row["text_sha256"]}
        changed = [name for name, value in expected.items() if entry.detail.get(name) != value]
        fit = entry.detail.get("fit")
        if row["fit"] != (None if fit is None else json.dumps(fit, ensure_ascii=False, sort_keys=True)):
            changed.append("fit")  # as records.platforms.adopt wrote it
        if digest != row["text_sha256"]:
            changed.append("text")
        if (row["who"], row["created_at"]) != (entry.actor, entry.at):
            changed.append("who or when")
        if changed:
            yield Mismatch("platform profile", version_id, f"{row['platform']} version {row['version']}: "
                                                           f"{', '.join(changed)} changed after it was adopted "
                                                           f"(trail {entry.id})")
    for version_id, entry in entries.items():
        if version_id not in rows:
            yield Mismatch("platform profile", version_id, f"deleted: {entry.detail.get('platform')} version "
                                                           f"{entry.detail.get('version')}, trail {entry.id}")


@check("platform_reaudits")
def check_platform_reaudits(context: Context) -> Iterator[Mismatch]:
    """Every finished platform re-audit against its platform-reaudit entry (counts before and after,
    progress, who, when), both ways. A run still going has no entry yet: its progress is a working
    copy until it finishes (each audit it wrote is checked with the audits)."""
    entries = context.keyed("run_id", "platform-reaudit")
    rows = {row["id"]: row for row in context.rows("SELECT * FROM platform_reaudits")}
    for run_id, row in rows.items():
        entry = entries.get(run_id)
        if entry is None:
            if row["status"] != "running" or row["finished_at"] is not None or row["after_json"] is not None:
                yield Mismatch("platform re-audit", run_id, f"{row['platform']}: finished without a trail entry")
            continue
        expected = {"platform": row["platform"], "profile_id": row["profile_id"], "started_at": row["started_at"],
                    "total": row["total"], "done": row["done"], "failed": row["failed"],
                    "before": _json_or_none(row["before_json"]), "after": _json_or_none(row["after_json"])}
        changed = [name for name, value in expected.items() if entry.detail.get(name) != value]
        if (row["who"], row["finished_at"], row["updated_at"], row["status"]) != (entry.actor, entry.at, entry.at,
                                                                                  "finished"):
            changed.append("who, when or status")
        if changed:
            yield Mismatch("platform re-audit", run_id, f"{row['platform']}: {', '.join(changed)} changed after it "
                                                        f"finished (trail {entry.id})")
    for run_id, entry in entries.items():
        if run_id not in rows:
            yield Mismatch("platform re-audit", run_id, f"deleted: {entry.detail.get('platform')}, trail {entry.id}")


__all__ = ["CASE_STATUS_AFTER", "CHECKS", "FIRST", "LEDGERS", "NOT_EVIDENCE", "SEARCH_TEXT", "STORE_UNREADABLE", "Context", "Entry", "Ledger", "check", "verify"]
