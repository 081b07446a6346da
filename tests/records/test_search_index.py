"""records.search_index (issue 23.7): the indexed search finds exactly what the linear scan of the
folded texts found, for queries of every length (one- and two-character Chinese names included),
in any case or width, Turkish dotted and dotless i included; the indexes are kept in the record's
own transaction, derivable (`rebuild`) and checked by verify."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records import search, search_index
from records.migrations import migrations
from records.queries import RecordQuery
from records.store import Store
from records.verify import verify
from tests.records.test_search import doc
from tests.records.test_store import one

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
    with pytest.raises(RuntimeError), store.atomic():
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
    with store.atomic():  # a posting moved to another record, one removed, one trigram row dropped
        store.db.execute(f"UPDATE {search_index.GRAMS} SET record_id = ? WHERE gram = '王'", [other])
        store.db.execute(f"DELETE FROM {search_index.GRAMS} WHERE gram = '阿明'")
        store.db.execute(f"INSERT INTO {search_index.FTS} ({search_index.FTS}, rowid, text) VALUES ('delete', ?, ?)",
                         [wang, store.db.execute("SELECT text FROM record_search WHERE record_id = ?", [wang]).fetchone()[0]])
    found = [m.message for m in verify(store.db, store.trail_key) if m.kind == "search"]
    assert any("'王'" in line and search_index.GRAMS in line for line in found)
    assert any("'阿明'" in line for line in found)
    assert any(search_index.FTS in line for line in found)
    assert indexed(store, "阿明") == set() and indexed(store, "irmak") == set()  # the tampered index answers wrongly
    with store.atomic():
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
    with store.atomic():
        m011.fn(store.db)
    assert indexed(store, "王") == {wang} and indexed(store, "irmak") == {wang}
    assert list(search_index.differences(store.db)) == []


def test_grams_stay_inside_fields() -> None:
    text = search.record_text("AB", "王明", None, [{"name": "x", "player_id": None}])
    assert search_index.grams(text) == {"a", "b", "ab", "王", "明", "王明", "x"}
    assert len(list(search_index.trigrams(text))) == len(text) - 2
