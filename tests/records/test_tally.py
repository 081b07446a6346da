"""records.tally: the counts per verdict the triggers keep equal a count of the records, after
any sequence of uploads, revisions, first audits, audit failures and re-audits; the list reads
them; `verify` reports a tally written around the triggers; the migration fills them."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records import tally
from records.db import atomic
from records.ingest import Hand, Origin
from records.migrations import WALK_INDEXES
from records.queries import WALKABLE, RecordQuery, where_filters
from records.rows import UNAUDITED
from records.store import Store
from records.verify import verify

NAMES = ("阿明", "老王", "u1", "u2", "bo")
PLATFORMS = ("alpha", "beta", "")
CLIENTS = ("ios 4.2", "ios 5.0", "web 2.3", None)
DATES = ("2026-03-01T20:00:00+08:00", "2026-03-31T09:00:00+08:00", "2026-04-02T10:00:00Z", None, "yesterday")
PROFILES = ("weile", "kuhu", None)
RULES = ("R15.1", "R15.3", "R8.2", "R1.1")
VERDICTS = ("clean", "missettled", "illegal", "invalid")


def document(game: int, platform: str, client: str | None, played: str | None, profile: str | None,
             seats: list[tuple[str | None, str | None]], salt: int) -> dict[str, Any]:
    """A record as the list sees it (the store does not audit in `load_audited`)."""
    doc: dict[str, Any] = {"format": "zhuoji/1", "game_id": f"g{game}", "platform": platform, "salt": salt,
                           "seats": [{k: v for k, v in (("name", n), ("player_id", i)) if v is not None}
                                     for n, i in seats]}
    for key, value in (("client", client), ("played_at", played)):
        if value is not None:
            doc[key] = value
    if profile is not None:
        doc["rules"] = {"profile": profile}
    return doc


def audit(verdict: str, rules: list[str]) -> dict[str, Any]:
    """An audit as the store keeps it, with findings citing `rules`."""
    return {"game_id": None, "profile": "weile", "verdict": verdict, "settlement": None,
            "findings": [{"rule": rule, "code": "x", "kind": verdict, "step": None} for rule in rules]}


def hand(doc: dict[str, Any]) -> Hand:
    return Hand(Origin("t.json"), doc, json.dumps(doc, ensure_ascii=False).encode("utf-8"), "file")


QUERIES = [RecordQuery(), RecordQuery(all_revisions=True), RecordQuery(platform="alpha"),
           RecordQuery(platform=""), RecordQuery(profile="kuhu", platform="beta"), RecordQuery(client="ios"),
           RecordQuery(client="web", date_from="2026-03-05"), RecordQuery(date_to="2026-03-31"),
           RecordQuery(date_from="2026-03-01", date_to="2026-03-31", all_revisions=True),
           RecordQuery(rule="R15"), RecordQuery(rule="R15.3"), RecordQuery(rule="R1", all_revisions=True),
           *[RecordQuery(player=name) for name in NAMES], RecordQuery(player="u1", all_revisions=True),
           RecordQuery(player="阿明", platform="alpha"), RecordQuery(player="u2", platform=""),
           RecordQuery(rule="R15", platform="beta"), RecordQuery(rule="R8.2", platform="alpha", all_revisions=True)]


def assert_tallies_right(store: Store) -> None:
    """The tallies equal a recount, and the list's counts from them equal a count row by row."""
    assert tally.differences(store.db) == []
    for query in QUERIES:
        clauses, params = where_filters(query)
        assert store._tallied_counts(query) == store._verdict_counts(clauses, params)[0], query


seat = st.tuples(st.sampled_from((*NAMES, None)), st.sampled_from((*NAMES, None)))
step = st.one_of(
    st.tuples(st.just("upload"), st.integers(0, 5), st.sampled_from(PLATFORMS), st.sampled_from(CLIENTS),
              st.sampled_from(DATES), st.sampled_from(PROFILES), st.lists(seat, min_size=0, max_size=4),
              st.sampled_from(VERDICTS), st.lists(st.sampled_from(RULES), unique=True, max_size=3),
              st.booleans()),
    st.tuples(st.just("reaudit"), st.integers(0, 30), st.sampled_from(VERDICTS),
              st.lists(st.sampled_from(RULES), unique=True, max_size=3)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=14))
def test_the_tallies_follow_any_history(tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[Any, ...]]) -> None:
    store = Store.open(tmp_path_factory.mktemp("tally") / "store.sqlite3")
    try:
        for salt, item in enumerate(steps):
            if item[0] == "upload":
                _, game, platform, client, played, profile, seats, verdict, rules, audited = item
                doc = document(game, platform, client, played, profile, seats, salt)
                with atomic(store.db):
                    existing, latest = store._known(hand(doc))
                    stored = store._insert_hand(hand(doc), None, "t", "t", "2026-01-01", latest)
                    if audited:
                        store._insert_audit(stored.record_id, audit(verdict, rules), None, "e", "2026-01-01")
            else:
                _, pick, verdict, rules = item
                ids = [row[0] for row in store.db.execute("SELECT id FROM records ORDER BY id")]
                if ids:
                    store.add_audits([(ids[pick % len(ids)], audit(verdict, rules))], options=None,
                                     engine_version="e")
            assert_tallies_right(store)
    finally:
        store.close()


def test_the_same_name_in_two_seats_or_as_a_name_and_an_id_counts_once(store: Store) -> None:
    doc = document(1, "alpha", "ios", None, "weile", [("阿明", "阿明"), ("阿明", "u1"), ("u1", None)], 0)
    store.load_audited([(hand(doc), audit("missettled", ["R15.1", "R15.3"]))], engine_version="e")
    rows = dict(((kind, key), n) for kind, key, n in
                store.db.execute("SELECT kind, key, n FROM record_key_tally WHERE n != 0"))
    assert rows == {("player", "阿明"): 1, ("player", "u1"): 1, ("rule", "R15.1"): 1, ("rule", "R15.3"): 1,
                    ("section", "R15"): 1}
    assert store.search(RecordQuery(player="阿明")).counts["missettled"] == 1


def test_a_revision_moves_the_old_one_out_of_the_current_counts(store: Store) -> None:
    first = document(1, "alpha", "ios", None, "weile", [("老王", None)], 0)
    store.load_audited([(hand(first), audit("missettled", ["R15.1"]))], engine_version="e")
    store.load_audited([(hand({**first, "salt": 1}), audit("clean", []))], engine_version="e")
    assert store.search(RecordQuery(player="老王")).counts == {"clean": 1, "missettled": 0, "illegal": 0,
                                                              "invalid": 0}
    assert store.search(RecordQuery(player="老王", all_revisions=True)).total == 2
    assert store.search(RecordQuery(rule="R15")).total == 0
    assert store.search(RecordQuery(rule="R15", all_revisions=True)).total == 1
    assert_tallies_right(store)


def test_a_record_not_yet_audited_counts_as_unaudited(store: Store) -> None:
    doc = document(1, "beta", None, None, None, [("bo", None)], 0)
    with atomic(store.db):
        store._insert_hand(hand(doc), None, "t", "t", "2026-01-01", 0)
    page = store.search(RecordQuery(platform="beta"))
    assert page.counts[UNAUDITED] == 1 and page.total == 1
    assert store.search(RecordQuery(player="bo", verdict=UNAUDITED)).total == 1
    assert_tallies_right(store)


def test_the_list_reads_its_counts_from_the_tally_when_it_answers(store: Store) -> None:
    doc = document(1, "alpha", "ios", None, "weile", [("老王", None)], 0)
    store.load_audited([(hand(doc), audit("clean", []))], engine_version="e")
    with atomic(store.db):  # around the triggers, as only a hand-edit of the file could
        store.db.execute("UPDATE record_tally SET n = 7 WHERE platform = 'alpha' AND n > 0")
        store.db.execute("UPDATE record_key_tally SET n = 5 WHERE key = '老王' AND n > 0")
    assert store.search(RecordQuery(platform="alpha")).counts["clean"] == 7
    assert store.search(RecordQuery(player="老王")).counts["clean"] == 5
    assert store.search(RecordQuery(player="老王", platform="alpha")).counts["clean"] == 5
    # a mix no tally answers is counted row by row
    assert store.search(RecordQuery(player="老王", client="ios")).counts["clean"] == 1
    assert store.search(RecordQuery(platform="alpha", game_id="g")).counts["clean"] == 1
    found = [m for m in verify(store.db, store.trail_key) if m.kind == "tally"]
    assert len(found) == 2 and all("records give 1" in m.message for m in found)


def test_the_migration_fills_the_tallies_from_records_already_stored(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = Store.open(path)
    docs = [document(n, PLATFORMS[n % 3], CLIENTS[n % 4], DATES[n % 5], PROFILES[n % 3],
                     [(NAMES[n % 5], NAMES[(n + 1) % 5])], n) for n in range(12)]
    store.load_audited([(hand(d), audit(VERDICTS[n % 4], list(RULES[: n % 3]))) for n, d in enumerate(docs)],
                       engine_version="e")
    expected = sorted(store.db.execute("SELECT * FROM record_key_tally WHERE n != 0").fetchall())
    with atomic(store.db):
        for name in tally.TRIGGERS:
            store.db.execute(f"DROP TRIGGER {name}")
        for name in WALK_INDEXES:
            store.db.execute(f"DROP INDEX {name}")
        store.db.execute("CREATE INDEX idx_records_played_utc ON records (played_utc)")  # as m002 left it
        store.db.execute("DROP TABLE record_tally")
        store.db.execute("DROP TABLE record_key_tally")
        store.db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm007_tally'")
    store.close()
    reopened = Store.open(path)
    assert sorted(reopened.db.execute("SELECT * FROM record_key_tally WHERE n != 0").fetchall()) == expected
    assert_tallies_right(reopened)
    indexes = {row[0] for row in reopened.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert set(WALK_INDEXES) <= indexes and "idx_records_played_utc" not in indexes
    reopened.close()


def test_a_player_or_rule_filter_with_another_is_counted_row_by_row(store: Store) -> None:
    assert tally.counts(store.db, tally.Filters(player="x", client="ios"), "\uffff") is None
    assert tally.counts(store.db, tally.Filters(rule="R1", date_to="2026-01-01"), "\uffff") is None
    assert tally.counts(store.db, tally.Filters(player="x", platform="alpha"), "\uffff") == {}
    assert tally.counts(store.db, tally.Filters(player="x", rule="R1"), "\uffff") is None
    assert store._tallied_counts(replace(RecordQuery(), q="abc")) is None
    assert store._tallied_counts(RecordQuery(case="C-1")) is None


SORTS = [("id", True), ("id", False), ("played_at", True), ("played_at", False), ("game_id", True)]


def test_a_page_read_along_the_sort_order_has_the_same_rows(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = [document(n % 17, PLATFORMS[n % 3], CLIENTS[n % 4], DATES[n % 5], PROFILES[n % 3],
                     [(NAMES[n % 5], NAMES[(n * 3) % 5]), (NAMES[(n + 2) % 5], None)], n) for n in range(60)]
    for n, doc in enumerate(docs):  # one at a time, so games get revisions
        store.load_audited([(hand(doc), audit(VERDICTS[n % 4], list(RULES[: n % 3])))], engine_version="e")
    queries = [*QUERIES, RecordQuery(verdict="clean"), RecordQuery(verdict="missettled", player="u1"),
               RecordQuery(verdict="illegal", rule="R15", platform="alpha"), RecordQuery(game_id="g1")]
    pages: dict[bool, list[Any]] = {}
    for walk in (False, True):
        monkeypatch.setattr(Store, "_walks", lambda self, query, column, *rest, walk=walk: walk and column in WALKABLE)
        pages[walk] = [store.search(replace(q, sort=sort, descending=down, page=page, per_page=7)).rows
                       for q in queries for sort, down in SORTS for page in (1, 2, 4)]
    assert pages[True] == pages[False] and sum(map(len, pages[True])) > 300


def test_walking_is_chosen_only_when_many_records_match_spread_along_the_order(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    import records.queries as queries

    docs = [document(n, "alpha" if n % 4 else "beta", None, None, None, [("bo", None)], n) for n in range(40)]
    store.load_audited([(hand(d), audit("clean", [])) for d in docs], engine_version="e")
    monkeypatch.setattr(queries, "WALK_MIN", 5)
    query = RecordQuery(platform="beta", per_page=2)
    assert store._walks(query, "r.id", 10, 0)  # 2 x 40 < 10 x 10
    assert not store._walks(query, "r.id", 8, 0)  # 2 x 40 > 8 x 8
    assert not store._walks(replace(query, page=3), "r.id", 10, 4)  # (4 + 2) x 40 > 100
    assert not store._walks(query, "r.players", 40, 0)  # no index gives that order
    assert not store._walks(query, "r.id", 4, 0)  # fewer than WALK_MIN


def test_the_overview_from_the_tallies_equals_its_count_row_by_row(store: Store,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from records import stats

    docs = [document(n % 23, PLATFORMS[n % 3], CLIENTS[n % 4], DATES[n % 5], PROFILES[n % 3],
                     [(NAMES[n % 5], None)], n) for n in range(50)]
    for n, doc in enumerate(docs):
        store.load_audited([(hand(doc), audit(VERDICTS[n % 4], list(RULES[: n % 4])))], engine_version="e")
    with atomic(store.db):
        store._insert_hand(hand(document(99, "beta", "web 9", None, None, [], 0)), None, "t", "t", "2026", 0)
    store.load_audited([(hand(document(98, "alpha", "ios", "2026-09-01T10:00:00Z", "weile", [], 0)),
                         audit("clean", []))], engine_version="e")
    queries = [RecordQuery(), RecordQuery(all_revisions=True), RecordQuery(verdict="missettled"),
               RecordQuery(platform="alpha"), RecordQuery(client="ios", date_to="2026-03-31"),
               RecordQuery(profile="kuhu", verdict="clean"), RecordQuery(date_from="2026-04-01"),
               RecordQuery(player="阿明"), RecordQuery(rule="R15"), RecordQuery(platform="beta", verdict="clean")]

    def everything() -> list[Any]:
        out: list[Any] = []
        for q in queries:
            out += [stats.totals(store.db, q).counts, stats.by_period(store.db, q),
                    [(b.key, b.counts) for b in stats.by_section(store.db, q)]]
            out += [[(b.key, b.counts) for b in stats.by_column(store.db, q, c)] for c in stats.GROUP_COLUMNS]
        return [repr(item) for item in out]

    tallied = everything()
    monkeypatch.setattr(stats, "tally_filters", lambda query: None)
    assert tallied == everything()
    assert any("'month'" in item for item in tallied) and any("R15" in item for item in tallied)


def test_a_count_no_tally_answers_stops_at_its_budget_with_lower_bounds(store: Store,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import records.queries as queries

    docs = [document(n, "alpha", "ios 4.2", None, "weile", [("阿明", None)], n) for n in range(300)]
    store.load_audited([(hand(d), audit(VERDICTS[n % 2], [])) for n, d in enumerate(docs)], engine_version="e")
    mix = RecordQuery(player="阿明", client="ios", per_page=20)
    full = store.search(mix)
    assert full.exact and full.total == 300 and full.counts["clean"] == 150
    monkeypatch.setattr(queries, "COUNT_STEP", 10)
    tries: list[bool] = []  # the walks tried within a budget after a count ran out: finished or not
    page = Store._page

    def spy(self: Store, *args: Any, **kwargs: Any) -> Any:
        rows = page(self, *args, **kwargs)
        if kwargs.get("budget") is not None:
            tries.append(rows is not None)
        return rows

    monkeypatch.setattr(Store, "_page", spy)
    cuts = []
    for budget in (10, 50, 100, 200, 400, 800, 1600, 3200):
        monkeypatch.setattr(queries, "COUNT_BUDGET", budget)
        cut = store.search(mix)
        assert cut.rows == full.rows  # the page itself is whole
        assert cut.total >= len(cut.rows) and all(cut.counts[v] >= sum(r["verdict"] == v for r in cut.rows)
                                                  for v in VERDICTS)  # what the page shows is counted
        assert all(cut.counts[v] <= full.counts[v] for v in VERDICTS) and cut.exact == (cut == full)
        again = store.search(mix)  # the budget is VM steps, not a clock: a busy machine stops at the same place,
        assert abs(again.total - cut.total) <= 2  # give or take the handler's step (SQLite counts per statement)
        cuts.append(cut.total)
    assert cuts == sorted(cuts) and cuts[-1] == 300 and any(0 < total < 300 for total in cuts), cuts
    assert True in tries and False in tries, tries  # a walk that fits, and one that falls back
    monkeypatch.setattr(queries, "COUNT_BUDGET", 10)
    assert store.search(replace(mix, exact=True)) == full
    assert store.search(RecordQuery(player="阿明")).exact  # a tally answers it: no budget needed
    few = store.search(replace(mix, per_page=500))  # a short first page holds every match
    assert few.exact and few.total == 300 and few.counts == full.counts
    one = store.search(replace(mix, per_page=500, verdict="clean"))
    assert not one.exact and one.total == one.counts["clean"] == 150
    assert store.db.execute("SELECT count(*) FROM records").fetchone()[0] == 300  # handler removed
