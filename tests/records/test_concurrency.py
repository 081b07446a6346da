"""Concurrency and faults against a real server process (`flask run` on 127.0.0.1).

- The connection settings that make concurrent use safe: WAL, a busy timeout.
- A small version of bench/load_test.py: 16 uploading clients and 4 readers; every upload
  accounted for, no duplicates, no errors.
- SIGKILL in the middle of a batch upload: every acknowledged record is there byte for byte,
  nothing unacknowledged is half there, and a retry after the restart completes everything.
"""
from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bench.load_test import (PLATFORM, TRAIL_KEY, Server, Tally, account_for, admin_token, batches, generated, request,
                             run_load, upload_batch)
from records.db import BUSY_TIMEOUT_MS, connect
from records.rows import sha256
from records.store import Store
from records.verify import verify
from tests.deadlines import scaled, wait_until
from web.db import get_store


def test_wal_and_busy_timeout_are_set(app: Flask) -> None:
    with app.app_context():
        db = get_store().db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT_MS >= 1000
    assert connect(app.config["DATABASE"]).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_concurrent_uploads_and_reads_are_all_accounted_for(tmp_path: Path) -> None:
    db_path = tmp_path / "load.sqlite3"
    token = admin_token(db_path)
    server = Server(db_path, log_path=tmp_path / "server.log").start(timeout=scaled(30))
    records = generated(160, "suite")
    try:
        tally, elapsed = run_load(server.port, token, records, uploaders=16, readers=4, batch=5, deadline_s=scaled(240))
    finally:
        server.stop()
    assert account_for(db_path, records, tally) == []
    assert len(tally.latencies["upload"]) == 32 and tally.latencies.get("read")
    assert "Traceback" not in (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")


# ----- SIGKILL in the middle of a batch upload --------------------------------------------------


def _upload_until_killed(port: int, token: str, work: list[list[tuple[str, bytes]]], tally: Tally) -> None:
    """Send batches one after another until the server stops answering."""
    for batch in work:
        try:
            upload_batch(port, {"Authorization": f"Bearer {token}"}, batch, tally)
        except (OSError, http.client.HTTPException):  # refused, reset, or cut off mid-answer
            return


def _kill_mid_batch(server: Server, token: str, records: list[tuple[str, bytes]]) -> Tally:
    """Four clients upload batches of 10; the server is killed once 8 batches are acknowledged,
    while the others are still being processed."""
    tally = Tally()
    work = batches(records, 10)
    threads = [threading.Thread(target=_upload_until_killed, args=(server.port, token, work[i::4], tally))
               for i in range(4)]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(tally.results) >= 80 or not any(t.is_alive() for t in threads), 120,
               "80 acknowledged uploads")
    server.kill()
    for thread in threads:
        thread.join(timeout=scaled(60))
    return tally


def _stored(db_path: Path) -> list[dict[str, Any]]:
    """Every record of the test platform, with its bytes, receipts and trail rows counted."""
    store = Store.open(db_path)
    try:
        return list(store.db.query(
            "SELECT r.id, r.game_id, r.sha256, r.verdict, r.latest_audit_id, d.raw, "
            "(SELECT count(*) FROM uploads u WHERE u.record_id = r.id) AS receipts, "
            "(SELECT count(*) FROM receipts c WHERE c.record_id = r.id AND c.outcome = 'created') AS creating, "
            "(SELECT count(*) FROM record_players p WHERE p.record_id = r.id) AS seats, "
            "(SELECT count(*) FROM trail t WHERE t.record_id = r.id AND t.action = 'upload') AS trail_rows "
            "FROM records r LEFT JOIN documents d ON d.id = r.document_id WHERE r.platform = ?", [PLATFORM]))
    finally:
        store.close()


def _check_whole(rows: list[dict[str, Any]], sent: dict[str, bytes]) -> None:
    """Each stored record is entirely there: exact bytes, its hash, seats, receipt and trail row, the
    receipt of the submission that created it, and its audit (records, audits and receipts of a
    batch commit together: issue 22.5)."""
    for row in rows:
        raw = bytes(row["raw"])
        assert raw == sent[row["game_id"]] and sha256(raw) == row["sha256"], row["game_id"]
        assert row["seats"] == len(json.loads(raw)["seats"]) and row["receipts"] >= 1 and row["trail_rows"] >= 1
        assert row["creating"] == 1 and row["verdict"] is not None and row["latest_audit_id"] is not None


def test_sigkill_mid_batch_keeps_every_acknowledged_record_whole(tmp_path: Path) -> None:
    db_path = tmp_path / "kill.sqlite3"
    token = admin_token(db_path)
    records = generated(400, "kill")
    sent = dict(records)
    tally = _kill_mid_batch(Server(db_path).start(timeout=scaled(30)), token, records)
    acknowledged = {result["game_id"]: result["record_id"] for result in tally.results}
    assert len(acknowledged) >= 80 and len(acknowledged) < len(records)

    rows = _stored(db_path)
    by_game = {row["game_id"]: row for row in rows}
    assert len(by_game) == len(rows)  # no game twice
    assert all(by_game[game]["id"] == record_id for game, record_id in acknowledged.items())
    assert all(by_game[game]["verdict"] is not None for game in acknowledged)  # acknowledged = audited
    _check_whole(rows, sent)

    server = Server(db_path).start(timeout=scaled(30))  # restart, and the clients retry everything
    try:
        retry = Tally()
        for batch in batches(records, 50):
            upload_batch(server.port, {"Authorization": f"Bearer {token}"}, batch, retry)
        assert request(server.port, "GET", "/health")[0] == 200
    finally:
        server.stop()
    assert retry.errors == []
    statuses = {result["game_id"]: result["status"] for result in retry.results}
    assert all(statuses[game] == "duplicate" for game in by_game)
    assert all(statuses[game] == "created" for game in sent if game not in by_game)
    final = _stored(db_path)
    assert len(final) == len(records) and all(row["verdict"] is not None for row in final)
    _check_whole(final, sent)
    store = Store.open(db_path, trail_key=TRAIL_KEY)
    try:
        assert verify(store.db, store.trail_key) == []
    finally:
        store.close()


@pytest.mark.benchmark
def test_full_load_benchmark(tmp_path: Path) -> None:
    """The 2,000-record run of bench/load_test.py (deselected by `make test`; run with -m benchmark)."""
    from bench.load_test import main

    assert main(["--records", "2000", "--uploaders", "16", "--readers", "4"]) == 0
