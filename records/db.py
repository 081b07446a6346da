"""The connection to the store's SQLite file, and its transactions; nothing about tables.

As sqlite-utils keeps its `Database` (connection, transactions) apart from each `Table`'s work,
this module opens a connection set up for a busy service (`connect`, `close`) and gives every
writer one way to make a transaction (`atomic`) and every long reader one way to see a fixed
state (`snapshot`). The tables are `records.migrations`' job, writing rows `records.store`'s,
reading them `records.queries`'. No Flask.
"""
from __future__ import annotations

import atexit
import itertools
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlite_utils import Database

BUSY_TIMEOUT_MS = 20000
"""How long a writer waits for another writer before giving up. An upload now writes three short
transactions (records, first audits, receipts), each with keyed trail entries; with 16 clients
uploading at once into one server process the queue for the write lock reached 2 s (measured
in tests/records/test_concurrency.py), and 5 s left too little margin: a request then failed
with "database is locked". 20 s keeps a busy queue a wait, not an error."""

COMMIT_HOOKS: list[Callable[[str], None]] = []
"""Called with "before-commit" and "after-commit" around every outermost commit of `atomic`: the
fault-injection point of tests/records/test_kills.py, which exits the process there (os._exit) to
prove that a kill at any commit boundary leaves a transaction's rows all there or all gone. Empty
in the service (one truth test per commit)."""

_savepoints = itertools.count()
"""Numbers the savepoints of nested `atomic` blocks, so an inner name never shadows an outer one."""


def connect(path: str | Path) -> Database:
    """A connection set up for a busy web service: WAL, busy timeout, foreign keys."""
    db = Database(path)
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA foreign_keys = ON")
    if str(path) != ":memory:":
        _wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        _anchor(path)
    return db


def _wal(db: Database) -> None:
    """Switch a database to WAL once. Processes starting on a new database at once race to switch
    it, and SQLite answers the loser's `journal_mode` change "database is locked" at once, without
    its busy handler (tests/records/test_migrations.py's three openers met it one time in nine):
    the loser asks again until the busy timeout's span has passed; a database already in WAL is
    only read."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_S)


WAL_RETRY_S = 0.01
"""Pause between two attempts to switch a new database to WAL (`_wal`)."""


def close(db: Database) -> None:
    """Close the connection, letting SQLite refresh the planner's statistics first
    (its advice for short-lived connections; bounded by analysis_limit). Under concurrent
    writers the optimize may find the database locked: it is only advice, so that is skipped
    rather than turning an answered request into a 500 (bench/load_test.py found it); on a damaged
    store it may find a page it cannot read, which `verify` names: skipped too (issue 34.6)."""
    try:
        db.execute("PRAGMA analysis_limit = 1000")
        db.execute("PRAGMA optimize")
    except sqlite3.DatabaseError:
        pass
    finally:
        db.close()


@contextmanager
def atomic(db: Database, *, immediate: bool = True) -> Iterator[Database]:
    """One transaction around the block: committed when the block ends, rolled back when it
    raises anything at all (a KeyboardInterrupt too), the exception then passed on. The one way
    this project writes, as sqlite-utils' `Database.atomic`.

    Outermost it is `BEGIN IMMEDIATE`, so that two writers queue on the busy timeout instead of
    one failing when its read would turn into a write. Inside a transaction already (an outer
    `atomic`, a migration) it is a SAVEPOINT: a failing inner block undoes its own writes only,
    and the outer block, which sees the exception, decides about the rest; a failing outer block
    undoes everything, its inner blocks' writes included. So writes made by separate functions,
    each in its own `atomic`, are put in one transaction by calling them inside one more.

    `immediate=False` begins a deferred transaction, for a block that writes only this
    connection's temporary tables: it must not take the database's write lock, or a reader
    would queue behind uploads."""
    conn = db.conn
    if conn.in_transaction:
        name = f"atomic_{next(_savepoints)}"
        conn.execute(f"SAVEPOINT {name}")
        try:
            yield db
        except BaseException:
            if conn.in_transaction:  # an error (a RAISE(ROLLBACK) trigger) may have ended it all already
                conn.execute(f"ROLLBACK TO {name}")
                conn.execute(f"RELEASE {name}")
            raise
        conn.execute(f"RELEASE {name}")
        return
    conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield db
    except BaseException:
        conn.rollback()
        raise
    try:
        for hook in COMMIT_HOOKS:
            hook("before-commit")
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    for hook in COMMIT_HOOKS:
        hook("after-commit")


@contextmanager
def snapshot(db: Database) -> Iterator[Database]:
    """One read transaction around the block: every read in it sees the database as it was at
    the first one, whatever other connections commit meanwhile, and nothing is locked (a
    deferred BEGIN). Made for reads only: the transaction is rolled back at the end. Inside a
    transaction already, the block reads in that one, which is left as it is."""
    conn = db.conn
    if conn.in_transaction:
        yield db
        return
    conn.execute("BEGIN")
    try:
        yield db
    finally:
        conn.rollback()


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


__all__ = ["BUSY_TIMEOUT_MS", "COMMIT_HOOKS", "atomic", "close", "connect", "snapshot"]
