"""records.verify as a whole: it reads one snapshot, so a service writing while it runs is never
reported as tampering, and a damaged store is named, never a crash (the per-table checks are tested
with the tables they check)."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from records.db import atomic
import records.verify as verify_module
from records.rows import now
from records.security import ADMIN, Accounts, new_password
from records.store import Store
from records.verify import STORE_UNREADABLE, verify
from tests.records.test_search import doc
from tests.records.test_store import one

KEY = b"verify-test-key"


def add_token(path: Path, name: str) -> None:
    """An account and a token stored the service's way (trail entries included), on a connection
    of its own, as another request would."""
    other = Store.open(path, trail_key=KEY)
    try:
        accounts = Accounts(other.db, other.trail_key)
        with atomic(other.db):
            account = accounts.create(name, ADMIN, new_password(), stamp=now())
            accounts.create_token(account.id, label="t", created_by="t", stamp=now())
    finally:
        other.close()


def test_writes_made_while_verify_runs_are_not_seen_half(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "store.sqlite3"
    add_token(path, "before")
    store = Store.open(path, trail_key=KEY)
    assert verify(store.db, KEY) == []

    def meanwhile(context: Any) -> Any:
        add_token(path, "meanwhile")  # after verify read the trail, before it reads the tokens
        return iter(())

    monkeypatch.setattr(verify_module, "CHECKS", {"meanwhile": meanwhile, **verify_module.CHECKS})
    assert verify(store.db, KEY) == []
    assert not store.db.conn.in_transaction
    monkeypatch.undo()
    assert verify(store.db, KEY) == []  # the next run sees both, each with its entries
    assert store.db.execute("SELECT count(*) FROM tokens").fetchone()[0] == 2
    store.close()


def _break_page(path: Path, table: str) -> None:
    """Overwrite the first page of a table's b-tree in the file with bytes SQLite cannot read."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", [table]).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    with open(path, "r+b") as handle:
        handle.seek((root - 1) * size)
        handle.write(b"\xff" * 64)


def test_a_damaged_store_is_named_never_a_crash_and_the_other_checks_go_on(tmp_path: Path) -> None:
    """Issue 34.6: a check SQLite cannot finish (a page it cannot read, a table gone) is named with
    its table, and every other check still runs and names what it finds."""
    path = tmp_path / "store.sqlite3"
    store = Store.open(path, trail_key=KEY)
    ids = [one(store, doc(f"D-{n}", "alpha", "c", ("a", "1"), ("b", "2"), ("c", "3"), ("d", "4"))).record_id
           for n in range(3)]
    store.db.execute("UPDATE records SET verdict = 'illegal' WHERE id = ?", [ids[1]])  # a tampering beside
    store.close()
    _break_page(path, "receipts")
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TABLE case_decisions")
    finally:
        conn.close()
    store = Store.open(path, trail_key=KEY)
    try:
        found = verify(store.db, KEY)
    finally:
        store.close()
    unreadable = {m.kind for m in found if m.code == STORE_UNREADABLE}
    assert {"receipts", "cases"} <= unreadable, [m.describe() for m in found]
    assert any(m.kind == "record" and m.ident == ids[1] and "latest audit" in m.message for m in found)
    assert not [m for m in found if m.kind in ("search", "tokens", "accounts", "trail")], [m.describe() for m in found]
