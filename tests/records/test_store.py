"""records.store: verbatim bytes, revisions, re-audits, and writes that are whole or absent (audits by the
real engine through records.pipeline; the pipeline's own order and failures are tests/records/test_pipeline.py)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from records import receipts, trail
from records.db import atomic
from records.ingest import read_upload
from records.pipeline import OptionsRefused, Pipeline
from records.queries import RecordQuery, UnknownRecord
from records.receipts import Stored
from records.rows import now
from records.store import Store
from tests.conftest import dumps, example_path, load_example, missettled, variant


def put(store: Store, doc: dict[str, Any] | bytes, name: str = "hand.json", uploader: str = "tester") -> list[Stored]:
    """Ingest one file's bytes and store every good unit."""
    data = doc if isinstance(doc, bytes) else dumps(doc)
    batch = read_upload(name, data)
    assert batch.problems == []
    return [stored for unit in batch.units for stored in Pipeline(store).upload_one(unit, uploader=uploader)]


def one(store: Store, doc: dict[str, Any] | bytes, **kwargs: Any) -> Stored:
    """Store a single record."""
    (stored,) = put(store, doc, **kwargs)
    return stored


def table_count(store: Store, table: str) -> int:
    """Rows in a table."""
    return store.db[table].count


def test_record_is_stored_verbatim_with_its_audit(store: Store) -> None:
    data = example_path("hot-shot-weile").read_bytes()
    stored = one(store, data)
    assert (stored.status, stored.revision, stored.verdict) == ("created", 1, "clean")
    assert store.raw(stored.record_id) == data
    record = store.record(stored.record_id)
    assert record["game_id"] == "example-hot-shot-weile" and record["platform"] == ""
    assert record["profile"] == "weile" and record["dealer"] == 0 and record["players"] == "P0 / P1 / P2 / P3"
    audit = store.latest_audit(stored.record_id)
    assert audit["verdict"] == "clean" and audit["settlement"]["scores"] == [-5, 3, 5, -3]
    assert [row["outcome"] for row in store.uploads(stored.record_id)] == ["created"]
    assert store.uploads(stored.record_id)[0]["uploader"] == "tester"


def test_identical_bytes_return_the_existing_record(store: Store) -> None:
    doc = load_example("charge-chicken-gold")
    first = one(store, doc)
    again = one(store, doc, uploader="someone else")
    assert (again.status, again.record_id, again.revision) == ("duplicate", first.record_id, 1)
    assert table_count(store, "records") == 1 and table_count(store, "audits") == 1
    assert table_count(store, "documents") == 1
    assert [row["outcome"] for row in store.uploads(first.record_id)] == ["created", "duplicate"]


def test_different_bytes_make_a_new_revision_and_both_stay(store: Store) -> None:
    doc = load_example("responsibility-chicken")
    first = one(store, doc)
    second = one(store, missettled(doc))
    assert (second.status, second.revision, second.verdict) == ("revision", 2, "missettled")
    assert second.record_id != first.record_id
    revisions = store.revisions(first.record_id)
    assert [(row["revision"], row["is_current"]) for row in revisions] == [(1, 0), (2, 1)]
    assert json.loads(store.raw(first.record_id)) == doc
    assert store.search(RecordQuery()).total == 1
    assert store.search(RecordQuery(all_revisions=True)).total == 2
    # re-sending revision 1 is a duplicate of revision 1, not a third revision
    assert one(store, doc).record_id == first.record_id


def test_same_game_id_on_another_platform_is_another_game(store: Store) -> None:
    doc = load_example("hot-shot-cuocuo")
    a = one(store, variant(doc, platform="alpha"))
    b = one(store, variant(doc, platform="beta"))
    assert (a.revision, b.revision, b.status) == (1, 1, "created")


def test_reaudit_keeps_every_audit(store: Store) -> None:
    stored = one(store, load_example("hot-shot-weile"))
    row = Pipeline(store).reaudit(stored.record_id, profile="cuocuo", options=None)
    assert row["profile"] == "cuocuo" and row["verdict"] == "missettled" and row["options"] is None
    assert row["audit"]["verdict"] == "missettled" and row["engine_version"]
    audits = store.audits(stored.record_id)
    assert [audit["verdict"] for audit in audits] == ["clean", "missettled"]
    assert store.record(stored.record_id)["verdict"] == "missettled"
    assert store.latest_audit(stored.record_id) == row["audit"]
    with pytest.raises(OptionsRefused):  # issue 11: an audit made invalid by its options is never stored
        Pipeline(store).reaudit(stored.record_id, profile=None, options={"flip": "none"})
    again = Pipeline(store).reaudit(stored.record_id, profile=None, options={"flip": "up_down"})
    assert again["options"] == {"flip": "up_down"} and len(store.audits(stored.record_id)) == 3


def test_match_hands_are_stored_and_reaudited_with_the_match(store: Store) -> None:
    hands = [variant(load_example("hot-shot-weile"), game_id=f"mh-{i}") for i in range(2)]
    results = put(store, dumps({"format": "zhuoji-match/1", "table_id": "t9", "hands": hands}), name="m.json")
    assert [r.status for r in results] == ["created", "created"]
    record = store.record(results[1].record_id)
    assert record["match_id"] is not None and record["match_index"] == 1
    assert json.loads(store.raw(results[1].record_id)) == hands[1]
    row = Pipeline(store).reaudit(results[1].record_id)
    assert row["audit"]["game_id"] == "mh-1"
    assert table_count(store, "matches") == 1


# ----- whole or absent: each write is one atomic block, and several share an outer one -----------

WRITTEN = ("documents", "records", "record_players", "record_search", "uploads", "trail", "audits", "audit_rules",
           "record_tally", "record_key_tally", "notes")
"""Every table an upload, an audit or a note writes to (the tallies through their triggers)."""


def units_of(*names: str) -> list[Any]:
    """One unit per example record, read as one JSON-lines upload."""
    data = b"\n".join(example_path(name).read_bytes().replace(b"\n", b"") for name in names)
    batch = read_upload("hands.jsonl", data)
    assert batch.problems == [] and len(batch.units) == len(names)
    return list(batch.units)


def counts(store: Store) -> dict[str, int]:
    """Rows in every written table."""
    return {table: table_count(store, table) for table in WRITTEN}


def test_a_failure_mid_write_leaves_nothing(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    before = counts(store)
    real, calls = trail.append, []

    def third_fails(*args: Any, **kwargs: Any) -> int:
        calls.append(kwargs["action"])
        if len(calls) == 3:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(trail, "append", third_fails)
    with pytest.raises(OSError, match="disk full"):
        store.insert_units(units_of("hot-shot-weile", "charge-chicken-gold", "responsibility-chicken"))
    assert calls == ["upload"] * 3  # two hands were written in full before the third failed
    assert counts(store) == before and not store.db.conn.in_transaction
    monkeypatch.setattr(trail, "append", real)
    stored = store.insert_units(units_of("hot-shot-weile"))  # the connection is usable again
    assert [[item.status for item in items] for items in stored] == [["created"]]


def test_audits_of_a_batch_with_an_unknown_record_are_none_of_them_stored(store: Store) -> None:
    stored = one(store, load_example("hot-shot-weile"))
    audit = store.latest_audit(stored.record_id)
    before = counts(store)
    with pytest.raises(UnknownRecord):
        store.add_audits([(stored.record_id, audit), (404, audit)], options=None, engine_version="t")
    assert counts(store) == before and [a["id"] for a in store.audits(stored.record_id)] == [1]


def test_writes_made_inside_one_atomic_are_one_transaction(store: Store) -> None:
    """What issue 22 needs: the store's writes and a caller's own rows committed together or not at all."""
    before = counts(store)
    with pytest.raises(RuntimeError):
        with atomic(store.db):
            (items,) = store.insert_units(units_of("hot-shot-weile"))
            trail.add_note(store.db, record_id=items[0].record_id, author="a", case_number=None, decision="open",
                           text="seen", at=now(), key=store.trail_key)
            raise RuntimeError("the caller's own step failed")
    assert counts(store) == before
    with atomic(store.db):
        (items,) = store.insert_units(units_of("hot-shot-weile"))
        receipts.add(store.db, [{"source": "hands.jsonl", "file": "hands.jsonl", "status": "created",
                                 "record_id": items[0].record_id}], uploader="u", actor="u", at=now(),
                     key=store.trail_key)
    assert table_count(store, "records") == 1 and table_count(store, "receipts") == 1
    actions = [row[0] for row in store.db.execute("SELECT action FROM trail ORDER BY id")]
    assert [action for action in actions if action != "chain-keyed"] == ["upload", "receipt"]
