"""records.db: the connection's settings, the idle connection that leaves checkpoints to SQLite, and the
transactions: `atomic` commits, rolls back on any exception, nests as savepoints and takes the write
lock at once; `snapshot` reads one fixed state."""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlite_utils import Database

from records.db import BUSY_TIMEOUT_MS, atomic, connect, snapshot
from records.store import Store
from tests.conftest import load_example
from tests.records.test_store import one


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A database with one table of numbers."""
    path = tmp_path / "t.sqlite3"
    db = connect(path)
    db.execute("CREATE TABLE t (v INTEGER NOT NULL)")
    db.close()
    return path


@pytest.fixture
def db(path: Path) -> Iterator[Database]:
    """A connection to it, as the store makes them."""
    db = connect(path)
    yield db
    db.close()


@pytest.fixture
def other(path: Path) -> Iterator[sqlite3.Connection]:
    """A second connection that never waits for a lock (autocommit, no busy timeout)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    yield conn
    conn.close()


def put(db: Database, *numbers: int) -> None:
    for number in numbers:
        db.execute("INSERT INTO t (v) VALUES (?)", [number])


def values(db: Database | sqlite3.Connection) -> list[int]:
    return [row[0] for row in db.execute("SELECT v FROM t ORDER BY v")]


def test_connection_settings(db: Database) -> None:
    assert db.journal_mode == "wal"
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT_MS
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: safe under WAL


def test_closing_a_connection_leaves_the_checkpoint_to_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    store = Store.open(path)
    one(store, load_example("hot-shot-weile"))
    store.close()
    assert path.with_name("c.sqlite3-wal").exists()  # not checkpointed and removed by the close
    other = connect(path)
    busy, _, _ = other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    assert busy == 0  # the idle connection holds no transaction: a full checkpoint goes through
    assert other["records"].count == 1
    other.close()


def test_atomic_commits_the_block(db: Database, other: sqlite3.Connection) -> None:
    with atomic(db) as same:
        assert same is db
        put(db, 1, 2)
        assert values(other) == []  # nothing is seen before the commit
    assert values(other) == [1, 2] and not db.conn.in_transaction


@pytest.mark.parametrize("error", [ValueError("bad"), KeyboardInterrupt(), sqlite3.IntegrityError("constraint")])
def test_atomic_rolls_back_on_any_exception_and_passes_it_on(db: Database, error: BaseException) -> None:
    with pytest.raises(type(error)):
        with atomic(db):
            put(db, 1)
            raise error
    assert values(db) == [] and not db.conn.in_transaction


def test_a_statement_that_fails_rolls_back_the_whole_block(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="NOT NULL"):
        with atomic(db):
            put(db, 1)
            db.execute("INSERT INTO t (v) VALUES (NULL)")
    assert values(db) == []


def test_a_failing_inner_block_undoes_only_its_own_writes(db: Database) -> None:
    with atomic(db):
        put(db, 1)
        with pytest.raises(ValueError):
            with atomic(db):
                put(db, 2)
                with atomic(db):
                    put(db, 3)
                raise ValueError("the inner block fails after its own inner one ended")
        with atomic(db):
            put(db, 4)
        assert db.conn.in_transaction
    assert values(db) == [1, 4]


def test_a_failing_outer_block_undoes_its_inner_blocks_too(db: Database) -> None:
    with pytest.raises(ValueError):
        with atomic(db):
            put(db, 1)
            with atomic(db):
                put(db, 2)
                with atomic(db):
                    put(db, 3)
            raise ValueError("the outer block fails after every inner one ended well")
    assert values(db) == [] and not db.conn.in_transaction


def test_an_inner_failure_the_outer_block_does_not_catch_undoes_everything(db: Database) -> None:
    with pytest.raises(ValueError):
        with atomic(db):
            put(db, 1)
            with atomic(db):
                put(db, 2)
                raise ValueError("not caught by the outer block")
    assert values(db) == []


def test_an_error_that_ends_the_transaction_itself_is_passed_on_unchanged(db: Database) -> None:
    db.execute("CREATE TRIGGER t_no_nine BEFORE INSERT ON t WHEN NEW.v = 9 "
               "BEGIN SELECT RAISE(ROLLBACK, 'nine refused'); END")
    with pytest.raises(sqlite3.IntegrityError, match="nine refused"):  # not "no such savepoint"
        with atomic(db):
            put(db, 1)
            with atomic(db):
                put(db, 9)
    assert values(db) == [] and not db.conn.in_transaction


def test_a_commit_that_fails_is_rolled_back(db: Database) -> None:
    db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    db.execute("CREATE TABLE child (parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        with atomic(db):
            put(db, 1)
            db.execute("INSERT INTO child (parent_id) VALUES (7)")  # checked only at COMMIT
    assert values(db) == [] and not db.conn.in_transaction


def test_atomic_takes_the_write_lock_at_once(db: Database, other: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE: a second writer queues from the start, before the block has written anything."""
    with atomic(db):
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    with atomic(db, immediate=False):  # deferred: for writes to this connection's temporary tables
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")


def test_snapshot_reads_one_state_and_locks_nothing(db: Database, other: sqlite3.Connection) -> None:
    put(db, 1)
    with snapshot(db):
        assert values(db) == [1]
        other.execute("INSERT INTO t (v) VALUES (2)")  # a writer is not held up by the reader
        assert values(db) == [1]
    assert values(db) == [1, 2] and not db.conn.in_transaction


def test_snapshot_inside_a_transaction_reads_in_it_and_leaves_it_open(db: Database) -> None:
    with atomic(db):
        put(db, 1)
        with snapshot(db):
            assert values(db) == [1]
        assert db.conn.in_transaction
    assert values(db) == [1]
