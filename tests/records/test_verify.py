"""records.verify as a whole: it reads one snapshot, so a service writing while it runs is never
reported as tampering (the per-table checks are tested with the tables they check)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import records.verify as verify_module
from records.rows import now
from records.security import ADMIN, Accounts, new_password
from records.store import Store
from records.verify import verify

KEY = b"verify-test-key"


def add_token(path: Path, name: str) -> None:
    """An account and a token stored the service's way (trail entries included), on a connection
    of its own, as another request would."""
    other = Store.open(path, trail_key=KEY)
    try:
        accounts = Accounts(other.db, other.trail_key)
        with other.atomic():
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
