"""records.migrations: one migration set, applied whole or not at all, by every entry point; a database
is the same whichever of them made it, and databases made before the sets were one catch up."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from app import create_app
from records.db import atomic, connect
from records.migrations import m006_conformance, migrate, migrations
from records.store import Store
from tests.conftest import app_config, example_path
from tests.records.test_store import put

Schema = list[tuple[str, str, str, str]]


def schema_of(path: str | Path) -> Schema:
    """Every table, index, trigger and view with its SQL, whitespace normalised, by type and name
    (SQLite's own `sqlite_*` objects left out: their presence follows from the SQL, or from ANALYZE)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                            "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").fetchall()
    finally:
        conn.close()
    return [(kind, name, table, " ".join(sql.split())) for kind, name, table, sql in rows]


def applied(path: str | Path) -> set[tuple[str, str]]:
    """The (set, name) of every migration a database has had."""
    conn = sqlite3.connect(path)
    try:
        return set(conn.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall())
    finally:
        conn.close()


EVERY_STEP = {("zhuoji-records", step.name) for step in migrations._migrations}


def _command(*args: str) -> Any:
    def make(tmp_path: Path) -> str:
        app = create_app(app_config(tmp_path, name="made.sqlite3"))
        result = app.test_cli_runner().invoke(args=list(args))
        assert result.exit_code == 0, result.output
        return str(app.config["DATABASE"])
    return make


def _first_request(tmp_path: Path) -> str:
    app = create_app(app_config(tmp_path, name="made.sqlite3"))
    assert app.test_client().get("/health").get_json() == {"status": "ok"}
    return str(app.config["DATABASE"])


def _load_samples(tmp_path: Path) -> str:
    empty = tmp_path / "nothing"
    empty.mkdir()
    return _command("load-samples", str(empty))(tmp_path)


def _store_open(tmp_path: Path) -> str:
    path = tmp_path / "made.sqlite3"
    Store.open(path).close()
    return str(path)


ENTRY_POINTS = {
    "flask init-db": _command("init-db"),
    "flask bootstrap": _command("bootstrap"),
    "flask load-samples": _load_samples,
    "the first request (web.db.get_store)": _first_request,
    "flask trail-head (init_db, like every command)": _command("trail-head"),
    "Store.open (the benchmarks, flask reaudit's writer)": _store_open,
}
"""Every way the project makes a database; the tests' own fixture is the `store` fixture below."""


def _path_of(db: Database) -> str:
    return str(db.execute("PRAGMA database_list").fetchone()[2])


def test_every_entry_point_makes_the_same_schema(tmp_path: Path, store: Store) -> None:
    fixture = _path_of(store.db)  # tests/conftest.py's `store`
    expected = schema_of(fixture)
    assert ("table", "conformance_runs", "conformance_runs") in [row[:3] for row in expected]
    assert applied(fixture) == EVERY_STEP
    for label, make in ENTRY_POINTS.items():
        folder = tmp_path / label.split(" (")[0].replace(" ", "-").replace(".", "-")
        folder.mkdir()
        path = make(folder)
        assert schema_of(path) == expected, label
        assert applied(path) == EVERY_STEP, label


def test_migrating_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    Store.open(path).close()
    before = schema_of(path)
    store = Store.open(path)
    names = [row[0] for row in store.db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert names == [step.name for step in migrations._migrations]  # each once, in the order written
    assert names[:2] == ["m001_tables", "m002_indexes"] and "m006_conformance" in names
    store.close()
    assert schema_of(path) == before


def test_a_database_whose_conformance_table_came_from_its_own_old_set_catches_up(tmp_path: Path) -> None:
    """Before issue 24, m006 was the set `zhuoji-conformance`, applied by the conformance pages only."""
    fresh = tmp_path / "fresh.sqlite3"
    Store.open(fresh).close()
    path = tmp_path / "old.sqlite3"
    db = connect(path)
    old = Migrations("zhuoji-conformance")
    old(name="m006_conformance")(m006_conformance)
    migrations.apply(db, stop_before="m006_conformance")
    old.apply(db)
    db.close()
    Store.open(path).close()
    assert schema_of(path) == schema_of(fresh)
    assert applied(path) == EVERY_STEP | {("zhuoji-conformance", "m006_conformance")}


def test_a_database_made_by_init_db_before_the_sets_were_one_gets_its_conformance_table(tmp_path: Path) -> None:
    """Such a database had every step of the records set but m006, which then ran after m007."""
    fresh = tmp_path / "fresh.sqlite3"
    Store.open(fresh).close()
    path = tmp_path / "old.sqlite3"
    db = connect(path)
    migrate(db)
    for name in ("conformance_runs_no_update", "conformance_runs_no_delete"):
        db.execute(f"DROP TRIGGER {name}")
    db.execute("DROP TABLE conformance_runs")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm006_conformance'")
    assert "conformance_runs" not in db.table_names()
    db.close()
    Store.open(path).close()
    assert schema_of(path) == schema_of(fresh) and applied(path) == EVERY_STEP


def test_a_failing_step_leaves_the_database_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def m099_fails(db: Database) -> None:
        db.execute("CREATE TABLE half_done (id INTEGER)")
        raise RuntimeError("step failed")

    steps = list(migrations._migrations)
    monkeypatch.setattr(migrations, "_migrations", [*steps[:3], Migrations._Migration("m099_fails", m099_fails),
                                                    *steps[3:]])
    path = tmp_path / "f.sqlite3"
    db = connect(path)
    with pytest.raises(RuntimeError, match="step failed"):
        migrate(db)
    assert db.table_names() == [] and not db.conn.in_transaction  # not even the first steps
    db.close()


def test_two_processes_starting_on_a_new_database_at_once_both_succeed(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def open_it() -> None:
        start.wait()
        try:
            Store.open(path).close()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert applied(path) == EVERY_STEP


def test_a_database_from_before_m004_verifies_after_the_upgrade(tmp_path: Path) -> None:
    """Rows written before the keyed chain (plain sha256, no per-row entries) are checked against
    what they recorded; the first keyed row marks where the keyed chain starts."""
    from records import trail as trail_module
    from records.verify import verify

    path = tmp_path / "old.sqlite3"
    db = connect(path)
    migrations.apply(db, stop_before="m004_trust")
    with atomic(db):
        db.execute("INSERT INTO accounts (name, role, password_hash, disabled, created_at) "
                   "VALUES ('old-admin', 'admin', 'x', 0, '2025-01-01')")
        prev = trail_module.GENESIS
        for at, action in (("2025-01-01T00:00:00.000Z", "account-create"), ("2025-01-02T00:00:00.000Z", "login")):
            detail = '{"account": "old-admin", "platform": null, "role": "admin"}'
            digest = trail_module.chain_hash(prev, at, "cli", action, None, detail)
            db.execute("INSERT INTO trail (at, actor, action, record_id, detail, prev, hash) "
                       "VALUES (?, 'cli', ?, NULL, ?, ?, ?)", [at, action, detail, prev, digest])
            prev = digest
    db.close()
    store = Store.open(path, trail_key=b"k")
    try:
        put(store, example_path("hot-shot-weile").read_bytes())
        assert verify(store.db, b"k") == []
        first_keyed = store.db.execute("SELECT id, detail FROM trail WHERE action = 'chain-keyed'").fetchone()
        assert first_keyed[0] == 3 and '"legacy_rows": 2' in first_keyed[1]
        store.db.execute("DROP TRIGGER trail_no_update")
        store.db.execute("UPDATE trail SET actor = 'someone' WHERE id = 1")
        assert [m.ident for m in verify(store.db, b"k") if m.kind == "trail"] == [1]
        prev = trail_module.GENESIS  # the unkeyed part rebuilt: the first keyed row's link breaks
        for row in store.db.execute("SELECT id, at, actor, action, record_id, detail FROM trail WHERE id <= 2 "
                                    "ORDER BY id").fetchall():
            digest = trail_module.chain_hash(prev, *row[1:])
            store.db.execute("UPDATE trail SET prev = ?, hash = ? WHERE id = ?", [prev, digest, row[0]])
            prev = digest
        assert [(m.ident, "broken" in m.message) for m in verify(store.db, b"k") if m.kind == "trail"] == [(3, True)]
    finally:
        store.close()



def test_a_damaged_record_of_the_steps_is_named_not_run_again(tmp_path: Path) -> None:
    """Issue 34.6: a step's row deleted from `_sqlite_migrations` before a later one, or a step this
    version does not know, is named by `damage` (and by verify, with its code); the last steps
    missing are a database `migrate` brings up to date, and m006 missing on a database from before
    issue 24 is its history, not damage."""
    from records.migrations import MIGRATIONS_DAMAGED, damage, migrations
    from records.verify import verify

    path = tmp_path / "m.sqlite3"
    store = Store.open(path, trail_key=b"k" * 32)
    try:
        assert damage(store.db) == []
        store.db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm010_search_turkish_i'")
        assert [line.split(":")[0] for line in damage(store.db)] == ["m010_search_turkish_i"]
        assert [m.code for m in verify(store.db, b"k" * 32)] == [MIGRATIONS_DAMAGED]
        store.db.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                         "VALUES ('zhuoji-records', 'm010_search_turkish_i', '2026-01-01')")
        store.db.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                         "VALUES ('zhuoji-records', 'm099_from_the_future', '2026-01-01')")
        assert [line.split(":")[0] for line in damage(store.db)] == ["m099_from_the_future"]
        last = migrations._migrations[-1].name  # whichever step is the newest
        store.db.execute("DELETE FROM _sqlite_migrations WHERE name IN ('m099_from_the_future', ?)", [last])
        assert damage(store.db) == []  # the last step missing: migrate would run it (and fail: verify names that)
        store.db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm006_conformance'")
        assert [line.split(":")[0] for line in damage(store.db)] == ["m006_conformance"]  # its table is there
        store.db.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                         "VALUES ('zhuoji-conformance', 'm006_conformance', '2025-01-01')")
        assert damage(store.db) == []  # the old set made it
        store.db.execute("DROP TABLE _sqlite_migrations")
        assert damage(store.db) == ["no record of the steps applied (_sqlite_migrations), yet their tables are there"]
    finally:
        store.close()
