"""records.storage: verbatim bytes, revisions, re-audits, filters and counts (audits by the real engine
through records.pipeline; the pipeline's own order and failures are tests/records/test_pipeline.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from records.ingest import read_upload
from records.pipeline import OptionsRefused, Pipeline
from records.storage import RecordQuery, Store, Stored, UnknownRecord, connect, section_of
from tests.conftest import dumps, example_path, load_example, missettled, reference_paths, variant


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


def test_unknown_record(store: Store) -> None:
    for call in (store.record, store.raw, store.audits, store.revisions, store.latest_audit):
        with pytest.raises(UnknownRecord) as excinfo:
            call(404)
        assert "record 404 does not exist" in str(excinfo.value)


def test_connection_settings_and_idempotent_migrations(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    Store.open(path).close()
    store = Store.open(path)
    assert store.db.journal_mode == "wal"
    assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    names = [row[0] for row in store.db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert names[:2] == ["m001_tables", "m002_indexes"] and "m003_trust" in names
    store.close()
    assert connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.fixture
def filled(store: Store) -> Store:
    """The 30 reference games, a few changed so every filter has something to find."""
    for index, path in enumerate(reference_paths()):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if index % 5 == 0:
            doc = missettled(doc)
        if index % 2 == 0:
            doc["client"] = "zz-client 5.0.1"
        if index == 3:
            doc["played_at"] = "2025-01-02T23:30:00+08:00"
        one(store, doc)
    return store


def ids(store: Store, **filters: Any) -> list[int]:
    """Record ids matching filters, in the list's order."""
    return [row["id"] for row in store.search(RecordQuery(per_page=200, **filters)).rows]


def test_counts_per_verdict_ignore_the_verdict_filter(filled: Store) -> None:
    page = filled.search(RecordQuery(verdict="missettled"))
    assert page.counts == {"invalid": 0, "illegal": 0, "missettled": 6, "clean": 24}
    assert page.total == 6 and all(row["verdict"] == "missettled" for row in page.rows)


def test_rule_filter_by_section_and_by_rule(filled: Store) -> None:
    rules = {code for row in filled.search(RecordQuery(verdict="missettled")).rows for code in row["rules"].split()}
    assert rules, "missettled records name the rules they break"
    code = sorted(rules)[0]
    by_rule = ids(filled, rule=code)
    by_section = ids(filled, rule=section_of(code))
    assert by_rule and set(by_rule) <= set(by_section)
    assert ids(filled, rule="R99") == []


def test_profile_platform_client_player_filters(filled: Store) -> None:
    assert len(ids(filled, profile="kuhu")) == 6
    assert len(ids(filled, platform="gen-holdout")) == 30 and ids(filled, platform="other") == []
    assert len(ids(filled, client="zz-client")) == 15
    assert ids(filled, client="zz%") == []  # a prefix, with % taken literally
    named = ids(filled, player="阿明")
    assert named and all("阿明" in filled.record(i)["players"] for i in named)
    by_id = ids(filled, player="u55128")
    assert by_id and all(any(p["player_id"] == "u55128" for p in filled.players(i)) for i in by_id)


def test_date_range_and_game_id_prefix(filled: Store) -> None:
    early = ids(filled, date_to="2025-12-31")
    assert len(early) == 1
    assert ids(filled, date_from="2025-01-02", date_to="2025-01-02") == early
    assert len(ids(filled, date_from="2026-01-01")) == 29
    assert len(ids(filled, game_id="ref-senyan")) == 6


def test_sorting_and_pagination(filled: Store) -> None:
    newest = ids(filled)
    assert newest == sorted(newest, reverse=True)
    oldest_played = filled.search(RecordQuery(sort="played_at", descending=False, per_page=1)).rows[0]
    assert oldest_played["played_at"].startswith("2025-01-02")
    by_game = [row["game_id"] for row in filled.search(RecordQuery(sort="game_id", descending=False, per_page=50)).rows]
    assert by_game == sorted(by_game)
    page = filled.search(RecordQuery(page=3, per_page=7))
    assert (page.total, page.pages, len(page.rows)) == (30, 5, 7)
    assert [row["id"] for row in page.rows] == newest[14:21]
    assert filled.search(RecordQuery(page=9, per_page=7)).rows == []


def test_distinct_values_for_the_filter_menus(filled: Store) -> None:
    assert filled.distinct("profile") == ["cuocuo", "guizhou", "kuhu", "senyan", "weile"]
    with pytest.raises(ValueError):
        filled.distinct("raw")


# ----- the upload path: schema_checked, batches of units, the idle connection ----------------------


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


def test_a_database_from_before_m004_verifies_after_the_upgrade(tmp_path: Path) -> None:
    """Rows written before the keyed chain (plain sha256, no per-row entries) are checked against
    what they recorded; the first keyed row marks where the keyed chain starts."""
    from records import trail as trail_module
    from records.storage import connect, migrations
    from records.verify import verify

    path = tmp_path / "old.sqlite3"
    db = connect(path)
    migrations.apply(db, stop_before="m004_trust")
    db.execute("INSERT INTO accounts (name, role, password_hash, disabled, created_at) "
               "VALUES ('old-admin', 'admin', 'x', 0, '2025-01-01')")
    prev = trail_module.GENESIS
    for at, action in (("2025-01-01T00:00:00.000Z", "account-create"), ("2025-01-02T00:00:00.000Z", "login")):
        detail = '{"account": "old-admin", "platform": null, "role": "admin"}'
        digest = trail_module.chain_hash(prev, at, "cli", action, None, detail)
        db.execute("INSERT INTO trail (at, actor, action, record_id, detail, prev, hash) VALUES (?, 'cli', ?, NULL, ?, ?, ?)",
                   [at, action, detail, prev, digest])
        prev = digest
    db.conn.commit()
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
