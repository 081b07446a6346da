"""records.receipts: one append-only receipt per submitted item, accepted or refused, each in the
trail; found by game id, uploader and outcome (issue 11)."""
from __future__ import annotations

import sqlite3

import pytest

from records import receipts, trail
from records.ingest import read_upload
from records.pipeline import Pipeline
from records.receipts import ReceiptQuery
from records.store import Store
from records.verify import verify as verify_store
from tests.conftest import dumps, load_example, variant


def submit(store: Store, name: str, data: bytes, uploader: str = "alpha-bot") -> list[dict[str, object]]:
    """Upload one file the way the API does (results, then receipts)."""
    return Pipeline(store).upload_batches([read_upload(name, data)], uploader=uploader, actor=uploader)


def test_every_line_leaves_a_receipt_good_or_bad(store: Store) -> None:
    good = variant(load_example("hot-shot-weile"), game_id="G-good", platform="alpha")
    body = dumps(good) + b"\n" + b'{"game_id": "G-broken", "seats": [\n' + b"\n" + dumps(good) + b"\n"
    results = submit(store, "day.jsonl", body)
    assert [r["status"] for r in results] == ["created", "rejected", "duplicate"]
    page = receipts.find(store.db, ReceiptQuery())
    assert page.total == 3 and page.counts["rejected"] == 1 and page.counts["created"] == 1
    broken = receipts.find(store.db, ReceiptQuery(q="g-BROKEN")).rows
    assert len(broken) == 1
    (row,) = broken
    assert (row["outcome"], row["file"], row["line"], row["game_id"]) == ("rejected", "day.jsonl", 2, "G-broken")
    assert row["error_codes"] == ["json"] and row["sha256"] and row["uploader"] == "alpha-bot"
    assert row["record_id"] is None
    assert {r["outcome"] for r in receipts.find(store.db, ReceiptQuery(q="alpha-bot")).rows} == {
        "created", "rejected", "duplicate"}
    assert [r["outcome"] for r in receipts.find(store.db, ReceiptQuery(outcome="duplicate")).rows] == ["duplicate"]


def test_schema_errors_keep_their_paths(store: Store) -> None:
    bad = variant(load_example("hot-shot-weile"), game_id="G-schema", dealer=9)
    submit(store, "bad.json", dumps(bad))
    (row,) = receipts.find(store.db, ReceiptQuery(q="g-schema")).rows
    assert row["outcome"] == "rejected" and "schema" in row["error_codes"]
    assert "dealer" in [error["path"] for error in row["errors"]]


def test_each_receipt_is_in_the_trail(store: Store) -> None:
    submit(store, "a.json", dumps(load_example("hot-shot-weile")))
    submit(store, "b.json", b"nope")
    entries = trail.entries(store.db, actions=("receipt",))
    ids = {row["id"] for row in receipts.find(store.db, ReceiptQuery()).rows}
    assert {entry["detail"]["receipt_id"] for entry in entries} == ids and len(ids) == 2
    assert verify_store(store.db, store.trail_key) == []


def test_receipts_are_append_only(store: Store) -> None:
    submit(store, "b.json", b"nope")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute("UPDATE receipts SET outcome = 'created'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute("DELETE FROM receipts")


def test_platform_view_and_rejected_by_day(store: Store) -> None:
    submit(store, "a.json", dumps(variant(load_example("hot-shot-weile"), platform="alpha")), uploader="a")
    submit(store, "b.json", dumps(variant(load_example("hot-shot-weile"), platform="beta")), uploader="b")
    submit(store, "c.json", b"{", uploader="a")
    own = receipts.find(store.db, ReceiptQuery(platform="alpha", visible_to="a")).rows
    assert sorted(row["outcome"] for row in own) == ["created", "rejected"]  # its platform, and what it sent
    assert sum(receipts.rejected_by_day(store.db).values()) == 1
