"""records.queries: one record and what belongs to it, and the list's filters, counts, sorting and pages
(the counts' tallies and the page walk at scale are tests/records/test_tally.py)."""
from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from records.db import atomic
from records.queries import RecordQuery, UnknownRecord
from records.rows import section_of
from records.store import Store
from tests.conftest import load_example, missettled, reference_paths
from tests.records.test_store import one


def test_unknown_record(store: Store) -> None:
    for call in (store.record, store.raw, store.audits, store.revisions, store.latest_audit):
        with pytest.raises(UnknownRecord) as excinfo:
            call(404)
        assert "record 404 does not exist" in str(excinfo.value)


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


# ----- the text search's temporary table: its own transaction, never the database's lock ---------


def test_a_text_search_inside_a_write_leaves_that_write_to_its_transaction(store: Store) -> None:
    stored = one(store, load_example("hot-shot-weile"))
    with pytest.raises(RuntimeError):
        with atomic(store.db):
            store.db.execute("UPDATE records SET is_current = 0 WHERE id = ?", [stored.record_id])
            assert store.search(RecordQuery(q="hot-shot", all_revisions=True)).total == 1
            raise RuntimeError("the write fails after the search")
    assert store.record(stored.record_id)["is_current"] == 1  # the search did not commit it


def test_a_text_search_needs_no_write_lock(store: Store) -> None:
    one(store, load_example("hot-shot-weile"))
    path = store.db.execute("PRAGMA database_list").fetchone()[2]
    writer = sqlite3.connect(path, isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")  # an upload holding the write lock
    try:
        assert store.search(RecordQuery(q="hot-shot")).total == 1
        assert not store.db.conn.in_transaction
    finally:
        writer.execute("ROLLBACK")
        writer.close()
