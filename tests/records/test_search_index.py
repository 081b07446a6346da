"""records.search_index (issue 23.7): the indexed search finds exactly what the linear scan of the
folded texts found, for queries of every length (one- and two-character Chinese names included),
in any case or width, Turkish dotted and dotless i included; the indexes are kept in the record's
own transaction, derivable (`rebuild`) and checked by verify."""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records import search, search_index
from records.db import atomic
from records.ingest import read_upload
from records.migrations import migrations
from records.pipeline import Pipeline
from records.queries import RecordQuery
from records.store import Store
from records.verify import SEARCH_TEXT, verify
from tests.conftest import dumps
from tests.records.test_search import doc
from tests.records.test_store import one
from tests.web.evidence import copy_of

ALPHABET = "aAbBiIİıßẞ王阿明老ｚＺ0１-_% \"'é\u0301"
"""Characters of the names and queries: ASCII in both cases, the Turkish İ and ı (NFKC and
casefold turn İ into i + a combining dot), ß/ẞ (folded to two letters), Chinese, full-width letters
and digits, LIKE's and FTS5's own specials, a space, a decomposed accent."""

GAME_ALPHABET = "aAbBiI01-.:"
"""What a game id may hold (audit.schema: A-Za-z0-9._:-)."""


def linear(store: Store, query: str, *, current_only: bool = False) -> set[int]:
    """What the search found before the index (issue 11): LIKE over every folded text."""
    sql = "SELECT s.record_id FROM record_search s JOIN records r ON r.id = s.record_id WHERE " + search.MATCH
    if current_only:
        sql += " AND r.is_current = 1"
    return {row[0] for row in store.db.execute(sql, [search.pattern(query)])}


def indexed(store: Store, query: str, **filters: Any) -> set[int]:
    """What `Queries.search` finds now (every match counted, every row on one page)."""
    page = store.search(RecordQuery(q=query, per_page=10_000, exact=True, **filters))
    assert page.exact and page.total == len(page.rows)
    return {row["id"] for row in page.rows}


def corpus(store: Store, count: int, seed: int) -> list[str]:
    """`count` records with names and ids drawn from ALPHABET (1 to 4 characters, so one- and
    two-character names are common); returns every stored field, for queries cut out of them."""
    rng = random.Random(seed)
    fields: list[str] = []

    def word(alphabet: str = ALPHABET) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))

    for index in range(count):
        names = [(word(), word()) for _ in range(4)]
        game = f"G{index}-{word(GAME_ALPHABET)}"
        one(store, doc(game, rng.choice(["alpha", "Beta", "ΣΙΓΜΑ"]), word(), *names))
        fields += [game, *(part for pair in names for part in pair)]
    return fields


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[str]]:
    """One store of 40 generated records shared by the equivalence tests (they only read)."""
    store = Store.open(tmp_path_factory.mktemp("search") / "search.sqlite3", trail_key=b"k" * 32)
    return store, corpus(store, 40, seed=23)


def test_every_cut_of_every_field_finds_what_the_scan_found(filled: tuple[Store, list[str]]) -> None:
    store, fields = filled
    tried = 0
    for field in fields:
        for start in range(len(field)):
            for end in range(start + 1, min(len(field), start + 5) + 1):
                query = field[start:end]
                assert indexed(store, query, all_revisions=True) == linear(store, query), query
                tried += 1
    assert tried > 500


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=6), st.sampled_from(["", "upper", "lower", "wide"]))
def test_any_query_finds_what_the_scan_found(filled: tuple[Store, list[str]], query: str, case: str) -> None:
    store, _ = filled
    if case == "upper":
        query = query.upper()
    elif case == "lower":
        query = query.lower()
    elif case == "wide":  # typed full-width: NFKC brings it back
        query = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in query)
    assert indexed(store, query, all_revisions=True) == linear(store, query)
    assert indexed(store, query) == linear(store, query, current_only=True)


def test_short_chinese_names_turkish_i_and_case(store: Store) -> None:
    ids = {
        "wang": one(store, doc("T-1", "alpha", "c", ("王", "p1"), ("阿明", "p2"), ("İpek", "p3"), ("Irmak", "p4"))).record_id,
        "ming": one(store, doc("T-2", "alpha", "c", ("小明", "q1"), ("ışık", "q2"), ("STRASSE", "q3"), ("E", "q4"))).record_id,
    }
    assert indexed(store, "王") == {ids["wang"]}  # one character: the gram table
    assert indexed(store, "明") == {ids["wang"], ids["ming"]}
    assert indexed(store, "阿明") == {ids["wang"]}  # two characters
    assert indexed(store, "小明") == {ids["ming"]}
    # issue 22.7: İ and ı fold to a plain i (records.search.fold), so each finds every i
    assert indexed(store, "İ") == {ids["wang"], ids["ming"]}
    assert indexed(store, "ipek") == {ids["wang"]}
    assert indexed(store, "i̇pek") == {ids["wang"]}  # the decomposed dotted i typed on its own
    assert indexed(store, "ı") == {ids["wang"], ids["ming"]}
    assert indexed(store, "IRMAK") == {ids["wang"]}  # three or more: the trigrams
    assert indexed(store, "ß") == {ids["ming"]}  # ß folds to ss, found in STRASSE
    for query in ("王", "明", "阿明", "İ", "ipek", "ı", "IRMAK", "ß", "t-", "1a"):
        assert indexed(store, query, all_revisions=True) == linear(store, query), query


def test_a_match_never_spans_two_fields(store: Store) -> None:
    one(store, doc("AB", "cd", "ef", ("gh", "ij"), ("kl", "mn"), ("op", "qr"), ("st", "uv")))
    assert indexed(store, "bc") == set() and indexed(store, "abc") == set() and indexed(store, "b") != set()


def test_the_index_is_written_with_the_record_and_rolled_back_with_it(store: Store) -> None:
    one(store, doc("K-1", "alpha", "c", ("甲", "1"), ("乙", "2"), ("丙", "3"), ("丁", "4")))
    before = [store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
              for table in (search_index.GRAMS, "record_search")]
    with pytest.raises(RuntimeError), atomic(store.db):
        one(store, doc("K-2", "alpha", "c", ("戊", "1"), ("己", "2"), ("庚", "3"), ("辛", "4")))
        assert indexed(store, "戊") != set()  # visible inside the transaction
        raise RuntimeError("the upload fails after the record was written")
    after = [store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
             for table in (search_index.GRAMS, "record_search")]
    assert after == before and indexed(store, "戊") == set() and indexed(store, "庚己") == set()
    assert list(search_index.differences(store.db)) == []


def test_search_texts_are_insert_only(store: Store) -> None:
    record_id = one(store, doc("K-3", "alpha", "c", ("甲", "1"), ("乙", "2"), ("丙", "3"), ("丁", "4"))).record_id
    for sql in ("UPDATE record_search SET text = 'x' WHERE record_id = ?", "DELETE FROM record_search WHERE record_id = ?"):
        with pytest.raises(Exception, match="record_search"):
            store.db.execute(sql, [record_id])


def test_verify_names_a_tampered_index_and_rebuild_derives_it_again(store: Store) -> None:
    wang = one(store, doc("V-1", "alpha", "c", ("王", "p1"), ("阿明", "p2"), ("İpek", "p3"), ("Irmak", "p4"))).record_id
    other = one(store, doc("V-2", "beta", "c", ("甲", "q1"), ("乙", "q2"), ("丙", "q3"), ("丁", "q4"))).record_id
    assert not [m for m in verify(store.db, store.trail_key) if m.kind == "search"]
    with atomic(store.db):  # a posting moved to another record, one removed, one trigram row dropped
        store.db.execute(f"UPDATE {search_index.GRAMS} SET record_id = ? WHERE gram = '王'", [other])
        store.db.execute(f"DELETE FROM {search_index.GRAMS} WHERE gram = '阿明'")
        store.db.execute(f"INSERT INTO {search_index.FTS} ({search_index.FTS}, rowid, text) VALUES ('delete', ?, ?)",
                         [wang, store.db.execute("SELECT text FROM record_search WHERE record_id = ?", [wang]).fetchone()[0]])
    found = [m.message for m in verify(store.db, store.trail_key) if m.kind == "search"]
    assert any("'王'" in line and search_index.GRAMS in line for line in found)
    assert any("'阿明'" in line for line in found)
    assert any(search_index.FTS in line for line in found)
    assert indexed(store, "阿明") == set() and indexed(store, "irmak") == set()  # the tampered index answers wrongly
    with atomic(store.db):
        search_index.rebuild(store.db)
    assert not [m for m in verify(store.db, store.trail_key) if m.kind == "search"]
    assert indexed(store, "阿明") == {wang} and indexed(store, "irmak") == {wang} and indexed(store, "王") == {wang}


def test_the_migration_indexes_records_stored_before_it(store: Store) -> None:
    wang = one(store, doc("M-1", "alpha", "c", ("王", "p1"), ("阿明", "p2"), ("İpek", "p3"), ("Irmak", "p4"))).record_id
    m011 = next(m for m in migrations._migrations if m.name == "m011_search_index")
    for trigger in ("record_search_indexed", "record_search_no_update", "record_search_no_delete"):
        store.db.execute(f"DROP TRIGGER {trigger}")
    store.db.execute(f"DROP TABLE {search_index.FTS}")
    store.db.execute(f"DROP TABLE {search_index.GRAMS}")
    with atomic(store.db):
        m011.fn(store.db)
    assert indexed(store, "王") == {wang} and indexed(store, "irmak") == {wang}
    assert list(search_index.differences(store.db)) == []


def test_grams_stay_inside_fields() -> None:
    text = search.record_text("AB", "王明", None, [{"name": "x", "player_id": None}])
    assert search_index.grams(text) == {"a", "b", "ab", "王", "明", "王明", "x"}
    assert len(list(search_index.trigrams(text))) == len(text) - 2


# ----- the trigram index damaged below FTS5 (issue 34.6) ----------------------------------------

DAMAGE_KEY = b"d" * 32
NAMES = ("王", "阿明", "cuocuo", "İpek")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """80 records stored in one upload (one transaction, so the trigram index has a segment of
    several pages, with b-tree rows past its first), verified clean; each test damages a copy."""
    path = tmp_path_factory.mktemp("damage") / "pristine.sqlite3"
    store = Store.open(path, trail_key=DAMAGE_KEY)
    lines = [dumps(doc(f"GY-{n:04d}-{'abcdefgh'[n % 8]}", ("alpha", "beta")[n % 2], f"client {n % 5}",
                       *((f"{name}{n % 7}", f"u-{n:03d}-{seat}") for seat, name in enumerate(NAMES))))
             for n in range(80)]
    Pipeline(store).upload(read_upload("many.jsonl", b"\n".join(lines)).units, uploader="t")
    assert store.db.execute(f"SELECT count(*) FROM {search_index.FTS}_idx WHERE term != x''").fetchone()[0] >= 2
    assert verify(store.db, DAMAGE_KEY) == []
    store.close()
    return path


def _first_leaf(db: sqlite3.Connection) -> int:
    """The _data id of the first page of the largest segment."""
    segid = db.execute(f"SELECT segid FROM {search_index.FTS}_idx GROUP BY segid ORDER BY count(*) DESC").fetchone()[0]
    return int(segid << search_index.SEGMENT_SHIFT) + 1


FTS = search_index.FTS
DAMAGES: dict[str, tuple[list[str], str]] = {
    # the issue's four: b-tree rows deleted, one moved to another segment, a page number raised, a page deleted
    "_idx rows deleted": ([f"DELETE FROM {FTS}_idx WHERE term != x''"], search_index.LOOKUP),
    "one _idx row moved to another segment": (
        [f"UPDATE {FTS}_idx SET segid = segid + 1000 WHERE (segid, term) = (SELECT segid, max(term) FROM {FTS}_idx)"],
        search_index.LOOKUP),
    "a page number raised": (
        [f"UPDATE {FTS}_idx SET pgno = pgno + 2 WHERE (segid, term) = (SELECT segid, max(term) FROM {FTS}_idx)"],
        search_index.LOOKUP),
    "a page deleted": ([f"DELETE FROM {FTS}_data WHERE id = {{leaf}} + 1"], search_index.DAMAGED),
    # the rest of FTS5's tables
    "the structure record deleted": ([f"DELETE FROM {FTS}_data WHERE id = 10"], search_index.DAMAGED),
    "the averages deleted": ([f"DELETE FROM {FTS}_data WHERE id = 1"], search_index.DAMAGED),
    "a page's bytes edited": ([f"UPDATE {FTS}_data SET block = substr(block, 1, 40) || x'00' || substr(block, 42) "
                               "WHERE id = {leaf}"], search_index.DAMAGED),
    "the settings deleted": ([f"DELETE FROM {FTS}_config"], search_index.DAMAGED),
    "a setting added": ([f"INSERT INTO {FTS}_config VALUES ('pgsz', 64)"], search_index.DAMAGED),
    "a document size deleted": ([f"DELETE FROM {FTS}_docsize WHERE id = (SELECT min(id) FROM {FTS}_docsize)"],
                                search_index.DAMAGED),
    "b-tree rows of the next segment": ([f"INSERT INTO {FTS}_idx VALUES ((SELECT max(segid) + 1 FROM {FTS}_idx), "
                                         "x'', 2)"], search_index.DAMAGED),
    "a page of no segment": ([f"INSERT INTO {FTS}_data VALUES ((999 << 37) + 1, x'00')"], search_index.DAMAGED),
    "a page past the last of a segment": ([f"INSERT INTO {FTS}_data SELECT max(id) + 1, block FROM {FTS}_data "
                                           "WHERE id >= {leaf} AND id < {leaf} + (1 << 30)"], search_index.DAMAGED),
    "the b-tree's first row deleted": ([f"DELETE FROM {FTS}_idx WHERE term = x'' AND segid = {{leaf}} >> 37"],
                                       search_index.DAMAGED),
    "the b-tree's first key changed": ([f"UPDATE {FTS}_idx SET term = x'20' WHERE term = x'' AND segid = {{leaf}} >> 37"],
                                       search_index.DAMAGED),
    "a second b-tree key for the first page": ([f"INSERT INTO {FTS}_idx VALUES ({{leaf}} >> 37, x'20', 2)"],
                                               search_index.DAMAGED),
    "the averages lengthened": ([f"UPDATE {FTS}_data SET block = block || x'20' WHERE id = 1"], search_index.DAMAGED),
    "the trigram index dropped": ([f"DROP TABLE {FTS}"], search_index.DAMAGED),
    "one of FTS5's tables dropped": ([f"DROP TABLE {FTS}_idx"], search_index.DAMAGED),
    "a posting deleted through FTS5": ([f"INSERT INTO {FTS} ({FTS}, rowid, text) SELECT 'delete', record_id, text "
                                        "FROM record_search WHERE record_id = 3"], search_index.DIFFERS),
    # the grams and the texts both indexes are built from
    "grams deleted": ([f"DELETE FROM {search_index.GRAMS} WHERE gram = '王'"], search_index.DIFFERS),
    "the gram table dropped": ([f"DROP TABLE {search_index.GRAMS}"], search_index.DAMAGED),
    "a search text edited": (["DROP TRIGGER record_search_no_update",
                              "UPDATE record_search SET text = char(31) || 'hidden' || char(31) WHERE record_id = 5"],
                             SEARCH_TEXT),
    "a search text deleted": (["DROP TRIGGER record_search_no_delete", "DELETE FROM record_search WHERE record_id = 6"],
                              SEARCH_TEXT),
}
"""Each damage: its SQL, made on the database file as someone who has it would ({leaf}: the first
page of the largest segment), and a code verify must name it with."""


@pytest.mark.parametrize("name", list(DAMAGES))
def test_verify_names_each_damage_and_reindex_derives_the_indexes_again(pristine: Path, tmp_path: Path,
                                                                        name: str) -> None:
    path = copy_of(str(pristine), tmp_path / "damaged.sqlite3")
    statements, code = DAMAGES[name]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        leaf = _first_leaf(db)
        for statement in statements:
            db.execute(statement.replace("{leaf}", str(leaf)))
    finally:
        db.close()
    store = Store.open(path, trail_key=DAMAGE_KEY)
    try:
        found = verify(store.db, DAMAGE_KEY)
        assert code in {mismatch.code for mismatch in found}, [m.describe() for m in found]
        with atomic(store.db):
            search_index.reindex(store.db)
        assert verify(store.db, DAMAGE_KEY) == []
        for query in ("王", "阿明", "cuocuo", "cuocuo3", "ipek", "GY-0042", "beta", "client 4", "u-017-2"):
            assert indexed(store, query, all_revisions=True) == linear(store, query), query
    finally:
        store.close()


def test_the_issue_s_damage_hides_records_from_a_search_and_a_lookup_names_it(pristine: Path, tmp_path: Path) -> None:
    """Deleting b-tree rows (`_idx`) leaves every page in place: a scan of the index (fts5vocab)
    and FTS5's integrity-check find nothing wrong, yet a search goes through the b-tree and misses
    records; verify looks every term up as a search does."""
    path = copy_of(str(pristine), tmp_path / "damaged.sqlite3")
    store = Store.open(path, trail_key=DAMAGE_KEY)
    try:
        before = indexed(store, "cuocuo")
        store.db.execute(f"DELETE FROM {FTS}_idx WHERE term != x''")
        assert indexed(store, "cuocuo") < before  # the search now misses records
        assert search_index.segments(store.db)  # the structure still reads
        codes = {difference.code for difference in search_index.differences(store.db)}
        assert codes == {search_index.LOOKUP}
    finally:
        store.close()


def test_an_upload_after_the_index_trigger_was_dropped_is_named_and_reindexed(pristine: Path, tmp_path: Path) -> None:
    path = copy_of(str(pristine), tmp_path / "damaged.sqlite3")
    store = Store.open(path, trail_key=DAMAGE_KEY)
    try:
        store.db.execute("DROP TRIGGER record_search_indexed")
        late = one(store, doc("LATE-1", "alpha", "c", ("迟到", "l1"), ("b", "l2"), ("c", "l3"), ("d", "l4"))).record_id
        assert indexed(store, "late-1") == set()  # stored, but not in the trigram index
        assert search_index.LOOKUP in {m.code for m in verify(store.db, DAMAGE_KEY)}
        with atomic(store.db):
            done = search_index.reindex(store.db)
        assert done.recreated == ("record_search_indexed",)
        assert verify(store.db, DAMAGE_KEY) == [] and indexed(store, "late-1") == {late}
        later = one(store, doc("LATE-2", "alpha", "c", ("a", "m1"), ("b", "m2"), ("c", "m3"), ("d", "m4"))).record_id
        assert indexed(store, "late-2") == {later}  # the trigger keeps the index again
    finally:
        store.close()


def test_reindex_rewrites_only_the_texts_that_differ(pristine: Path, tmp_path: Path) -> None:
    path = copy_of(str(pristine), tmp_path / "damaged.sqlite3")
    db = sqlite3.connect(path, isolation_level=None)  # foreign keys off, as someone with the file has them
    try:
        for trigger in ("record_search_no_update", "record_search_no_delete"):
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute("UPDATE record_search SET text = 'x' WHERE record_id = 2")
        db.execute("DELETE FROM record_search WHERE record_id = 4")
        db.execute("INSERT INTO record_search (record_id, text) VALUES (9999, 'ghost')")
    finally:
        db.close()
    store = Store.open(path, trail_key=DAMAGE_KEY)
    try:
        with atomic(store.db):
            done = search_index.reindex(store.db)
        assert (done.rewritten, done.added, done.removed, done.texts) == (1, 1, 1, 80)
        assert set(done.recreated) == {"record_search_no_update", "record_search_no_delete"}
        assert verify(store.db, DAMAGE_KEY) == []
        with pytest.raises(sqlite3.DatabaseError, match="record_search"):
            store.db.execute("UPDATE record_search SET text = 'x' WHERE record_id = 2")  # refused again
    finally:
        store.close()


def test_the_structure_record_reads_as_fts5_writes_it(pristine: Path) -> None:
    store = Store.open(pristine, trail_key=DAMAGE_KEY)
    try:
        found = search_index.segments(store.db)
        held = {segid for (segid,) in store.db.execute(f"SELECT DISTINCT segid FROM {FTS}_idx")}
        assert found and held <= set(found) and all(1 <= first <= last for first, last in found.values())
    finally:
        store.close()
    assert search_index._varint(bytes([0x81, 0x00]), 0) == (128, 2)
    assert search_index._varint(bytes([0xFF] * 8 + [0x01]), 0) == ((2 ** 56 - 1) << 8 | 1, 9)
    with pytest.raises(ValueError):
        search_index._varint(bytes([0x81]), 0)
