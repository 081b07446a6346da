"""The store's schema: one ordered migration set, the only one, that every entry point runs.

`flask init-db`, `flask bootstrap`, the first request of a process (`web.db.get_store`),
`flask load-samples` and every other command, `Store.open` (the tests' fixtures, the benchmarks,
`flask reaudit`) all call `migrate`, so a database is the same whichever made it
(tests/records/test_migrations.py compares them). The steps are sqlite-utils' `Migrations`,
applied in the order they are written here, each named `mNNN_what`; a step is never edited once
released, a change of the schema is a new step at the end. `python -m batch --from-db` only reads
a database and never migrates it. No Flask.
"""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from records import fit_jobs, search, search_index, tally
from records.db import atomic

migrations = Migrations("zhuoji-records")
"""The one migration set of the service's database (sqlite-utils records it in `_sqlite_migrations`)."""
APPEND_ONLY = ("documents", "audits", "uploads", "trail", "notes")
"""Tables no code path updates or deletes from; triggers make SQLite refuse it too."""


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
def m006_conformance(db: Database) -> None:
    """Issue 15: the runs of the conformance kit (`records.conformance`), their look-up index, and
    the triggers that make them insert-only. Until issue 24 this step was a migration set of its
    own (`zhuoji-conformance`), applied when a conformance page was first opened, so a database
    made by `flask init-db` had no such table; where that set made it already, it is kept as it is."""
    if db.table("conformance_runs").exists():
        return
    db.table("conformance_runs").create({
        "id": int, "kit": str, "kit_sha256": str, "profile": str, "platform": str, "client_version": str,
        "uploader": str, "created_at": str, "total": int, "passed": int, "ok": int, "answers_sha256": str,
        "report": str}, pk="id",
        not_null={"kit", "kit_sha256", "platform", "client_version", "created_at", "total", "passed", "report"})
    db.table("conformance_runs").create_index(["kit_sha256", "platform", "id"])
    for event in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER conformance_runs_no_{event.lower()} BEFORE {event} ON conformance_runs "
                   f"BEGIN SELECT RAISE(ABORT, 'conformance_runs is append-only: {event} refused'); END")


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


@migrations()
def m008_case_numbers(db: Database) -> None:
    """Issue 23: case numbers are unique per platform, not across platforms (each platform has
    its own yearly sequence, `records.cases.next_number`), so m005's unique index on the number
    alone becomes one on (platform, number); it also serves the sequence's range read."""
    db.execute("DROP INDEX IF EXISTS idx_cases_number")
    db.execute("CREATE UNIQUE INDEX idx_cases_platform_number ON cases (platform, number)")


EVIDENCE_HORIZONS = ("conformance_runs", "record_receipts", "audit_errors")
"""What m009 started to cover with trail entries (issue 22.4, 22.5): conformance runs (a
`conformance` entry each), a record's receipt of the submission that created it (written in the
record's own transaction since then), a record's engine-failure flag (an `audit-failed` entry).
`trust_horizon` gets the last id written before (0 on a new database), so `verify` asks this only
of later rows."""


@migrations()
def m009_evidence(db: Database) -> None:
    """Issue 22: the horizon of what verify covers since this step (`EVIDENCE_HORIZONS`)."""
    tops = {"conformance_runs": "SELECT coalesce(max(id), 0) FROM conformance_runs",
            "record_receipts": "SELECT coalesce(max(id), 0) FROM records",
            "audit_errors": "SELECT coalesce(max(id), 0) FROM records"}
    for name in EVIDENCE_HORIZONS:
        db.execute("INSERT INTO trust_horizon (name, max_id) VALUES (?, ?)", [name, db.execute(tops[name]).fetchone()[0]])


@migrations()
def m010_search_turkish_i(db: Database) -> None:
    """Issue 22.7: `search.fold` makes İ and ı plain i (casefold had made İ into i + U+0307 and left
    ı as it was). A record's search text is derived from its row and seats, so the texts the old
    folding wrote differently (only those holding ı or U+0307) are computed again. Receipts' and
    cases' texts are append-only and keep the folding they were written with."""
    changed = [row["record_id"] for row in db.query(
        "SELECT record_id FROM record_search WHERE instr(text, ?) > 0 OR instr(text, ?) > 0", ["\u0131", "\u0307"])]
    for record_id in changed:
        record = db.execute("SELECT game_id, platform, client FROM records WHERE id = ?", [record_id]).fetchone()
        seats = list(db.query("SELECT name, player_id FROM record_players WHERE record_id = ? ORDER BY seat",
                              [record_id]))
        db.execute("UPDATE record_search SET text = ? WHERE record_id = ?",
                   [search.record_text(record[0], record[1], record[2], seats), record_id])


@migrations()
def m011_search_index(db: Database) -> None:
    """Issue 23.7: the search answered from an index instead of a scan of every text
    (`records.search_index`): FTS5 trigrams of `record_search` for queries of three characters
    or more, a table of each field's one- and two-character grams for shorter ones, both filled
    here from the texts already stored; `record_search` becomes insert-only (its text comes from
    immutable columns), so the trigram index, which reads it as external content, cannot drift."""
    search_index.install(db)


@migrations()
def m012_platform_profiles(db: Database) -> None:
    """Issue 36.3: a platform's own profiles in versions (`records.platforms`): each version's
    profile file as text, who adopted it, when, why, from which fit, and from which day it is in
    force; the audit rows name the version that judged them; a platform re-audit keeps its run
    (status, progress, the counts before and after). Versions are insert-only (triggers)."""
    db.table("platform_profiles").create({"id": int, "platform": str, "version": int, "name": str, "text": str,
                                          "who": str, "created_at": str, "why": str, "fit": str,
                                          "effective_from": str, "text_sha256": str},
                                         pk="id", not_null={"platform", "version", "name", "text", "who",
                                                            "created_at", "why", "effective_from", "text_sha256"})
    db.table("platform_profiles").create_index(["platform", "version"], unique=True)
    db.table("platform_profiles").create_index(["platform", "effective_from"])
    for event in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER platform_profiles_no_{event.lower()} BEFORE {event} ON platform_profiles "
                   f"BEGIN SELECT RAISE(ABORT, 'platform_profiles is append-only: {event} refused'); END")
    db.execute("ALTER TABLE audits ADD COLUMN platform_profile_id INTEGER REFERENCES platform_profiles(id)")
    db.table("platform_reaudits").create({"id": int, "platform": str, "profile_id": int, "who": str,
                                          "started_at": str, "updated_at": str, "finished_at": str,
                                          "status": str, "total": int, "done": int, "failed": int,
                                          "before_json": str, "after_json": str},
                                         pk="id", not_null={"platform", "profile_id", "who", "started_at",
                                                            "status", "total", "done", "failed", "before_json"},
                                         foreign_keys=[("profile_id", "platform_profiles", "id")])
    db.table("platform_reaudits").create_index(["profile_id"])


@migrations()
def m013_fit_jobs(db: Database) -> None:
    """Issue 36.2: fits run in the background (`records.fit_jobs`): the jobs, their progress and
    kept result, and the records of an uploaded set until its job is done."""
    fit_jobs.install(db)


@migrations()
def m014_fit_job_progress(db: Database) -> None:
    """Issue 36.2: a running fit job's progress inside the fit (`records.fit_jobs.progress`: the fit's
    phase, values weighed of an estimate, values taken), as JSON."""
    fit_jobs.install_progress(db)


MIGRATIONS_DAMAGED = "migrations_damaged"
"""Code of a record of applied steps (`_sqlite_migrations`) that `damage` finds wrong."""
LEGACY_GAPS = {"m006_conformance": "before issue 24 a database made by init-db had every step but m006, "
                                   "which then runs after the later ones"}
"""Steps that may be missing before a step applied after them, and why (see `damage`)."""


def damage(db: Database) -> list[str]:
    """What is wrong with the record of the steps applied (`_sqlite_migrations`), one line each;
    nothing when it lists this version's steps, the last ones perhaps still to come (`migrate`
    applies them). Named: a step missing before one applied after it (its row deleted: run again
    on a schema that has it, it fails or repeats itself, so `migrate` must not be trusted with it),
    a step this version does not know (written by a newer version, or the row edited), and no
    record at all beside tables the steps made. m006 may be missing where the database predates
    issue 24 (`LEGACY_GAPS`): without its table, or with the row of the old `zhuoji-conformance` set."""
    if not db.table(migrations.migrations_table).exists():
        if db.table("records").exists():
            return [f"no record of the steps applied ({migrations.migrations_table}), yet their tables are there"]
        return []
    applied = [name for (name,) in db.execute(f"SELECT name FROM {migrations.migrations_table} "
                                              "WHERE migration_set = ? ORDER BY rowid", [migrations.name])]
    known = [step.name for step in migrations._migrations]
    problems = [f"{name}: recorded as applied, but not a step of this version" for name in applied if name not in known]
    done = [known.index(name) for name in applied if name in known]
    last = max(done, default=-1)
    for name in known[:last]:
        if name not in applied and not _legacy_gap(db, name):
            problems.append(f"{name}: not recorded as applied, though {known[last]} after it is (its row in "
                            f"{migrations.migrations_table} was deleted)")
    return problems


def _legacy_gap(db: Database, name: str) -> bool:
    """Whether a step missing before later ones is one a database may lack (`LEGACY_GAPS`)."""
    if name != "m006_conformance":
        return False
    return not db.table("conformance_runs").exists() or db.execute(
        f"SELECT 1 FROM {migrations.migrations_table} WHERE migration_set = 'zhuoji-conformance' "
        "AND name = 'm006_conformance'").fetchone() is not None


def migrate(db: Database) -> None:
    """Bring the schema up to date; safe and cheap to call on every start (a database with
    nothing pending is only read). The pending steps run in one transaction (`atomic`; each
    step a savepoint inside it), so two processes starting on a new database at once queue on
    the write lock and the second finds nothing left to do, and a failing step leaves the
    database as it was before any of them."""
    if migrations.pending(db):
        with atomic(db):
            migrations.apply(db)


__all__ = ["APPEND_ONLY", "APPEND_ONLY_M005", "EVIDENCE_HORIZONS", "HORIZON_TABLES", "IMMUTABLE_RECORD_COLUMNS",
           "LEGACY_GAPS", "MIGRATIONS_DAMAGED", "WALK_COLUMNS", "WALK_INDEXES", "damage", "migrate", "migrations"]
