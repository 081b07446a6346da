"""records.search and the `q`, case and decision filters of records.queries (issue 11): substring
search in any case or width, Chinese names, fields never joined, the migration's backfill."""
from __future__ import annotations

from typing import Any

from records import cases, search_index, trail
from records.db import atomic
from records.migrations import migrations
from records.queries import RecordQuery
from records.rows import now
from records.search import fold, record_text
from records.store import Store
from tests.conftest import load_example, variant
from tests.records.test_store import one


def seats(*names: tuple[str, str]) -> list[dict[str, Any]]:
    """Seats of a record with the given (name, player_id) pairs."""
    return [{"name": name, "player_id": pid} for name, pid in names]


def doc(game_id: str, platform: str, client: str, *names: tuple[str, str]) -> dict[str, Any]:
    """An example record renamed: another game, platform, client and players."""
    base = load_example("hot-shot-weile")
    players = [dict(seat, name=name, player_id=pid) for seat, (name, pid) in zip(base["seats"], names)]
    return variant(base, game_id=game_id, platform=platform, client=client, seats=players)


PLAYERS = (("Bob", "u-001"), ("阿明", "u-002"), ("老王", "u-003"), ("Ｚｈａｏ", "u-004"))


def filled(store: Store) -> dict[str, int]:
    """Three records: ids by name."""
    return {
        "a": one(store, doc("GY-2026-0301-aa", "alpha", "android 5.0.1", *PLAYERS)).record_id,
        "b": one(store, doc("GY-2026-0302-bb", "beta", "ios 4.2", ("Ann", "x-1"), ("Cy", "x-2"), ("Di", "x-3"),
                            ("Ed", "x-4"))).record_id,
        "c": one(store, doc("other-77", "beta", "web 2.3", ("bobby", "y-1"), ("明", "y-2"), ("E", "y-3"),
                            ("F", "y-4"))).record_id,
    }


def found(store: Store, **filters: Any) -> set[int]:
    """Ids matching the filters."""
    return {row["id"] for row in store.search(RecordQuery(per_page=200, **filters)).rows}


def test_fold_is_case_and_width_blind() -> None:
    assert fold("ＢＯＢ ") == "bob" and fold("Straße") == "strasse" and fold("阿明") == "阿明"
    assert fold("a\x1fb") == "ab"  # the field separator can never be part of a query


def test_record_text_keeps_fields_apart() -> None:
    text = record_text("G1", "alpha", None, seats(("Al", "p1")))
    assert "g1" in text and "alpha" in text and "al" in text and "p1" in text
    assert fold("1alpha") not in text  # a match never spans the end of one field and the next


def test_q_matches_fragments_of_every_field(store: Store) -> None:
    ids = filled(store)
    assert found(store, q="bo") == {ids["a"], ids["c"]}  # Bob and bobby, case-insensitive
    assert found(store, q="0302") == {ids["b"]}  # a fragment from the middle of a game id
    assert found(store, q="明") == {ids["a"], ids["c"]}  # a Chinese name, by one character
    assert found(store, q="老王") == {ids["a"]}
    assert found(store, q="zhao") == {ids["a"]}  # stored full-width, typed half-width
    assert found(store, q="U-003") == {ids["a"]}  # a player id
    assert found(store, q="BETA") == {ids["b"], ids["c"]}  # the platform
    assert found(store, q="ios") == {ids["b"]}  # the client
    assert found(store, q="nothing-like-it") == set()
    assert found(store, q="bo", platform="beta") == {ids["c"]}  # with the other filters


def test_counts_follow_q(store: Store) -> None:
    filled(store)
    page = store.search(RecordQuery(q="gy-2026"))
    assert page.total == 2 and sum(page.counts.values()) == 2


def test_a_new_revision_is_found_too(store: Store) -> None:
    ids = filled(store)
    newer = one(store, variant(doc("GY-2026-0301-aa", "alpha", "android 5.0.1", *PLAYERS), base=2))
    assert newer.revision == 2
    assert found(store, q="0301") == {newer.record_id}
    assert found(store, q="0301", all_revisions=True) == {ids["a"], newer.record_id}


def test_case_number_and_case_status_filters(store: Store) -> None:
    """Issue 33.5: one status, driven by cases: a record is found by the status of a case it is attached
    to (or `none`), whatever its notes' old labels say; the search box finds a case's records by its
    number; a note naming a case number still counts for the `case` filter."""
    ids = filled(store)
    with atomic(store.db):
        trail.add_note(store.db, record_id=ids["a"], author="au", case_number="K-9", decision="open",
                       text="looked at", at=now(), key=store.trail_key)
        trail.add_note(store.db, record_id=ids["b"], author="au", case_number=None, decision="closed",
                       text="y", at=now(), key=store.trail_key)
        case_id = cases.open_case(store.db, number="2026-0001", platform="alpha", player=None, complaint="x",
                                  actor="au", at=now(), key=store.trail_key)
        cases.attach(store.db, case_id=case_id, record_id=ids["a"], revision=None, actor="au", at=now(),
                     key=store.trail_key)
    assert found(store, case="K-9") == {ids["a"]}
    assert found(store, case_status="open") == {ids["a"]}
    assert found(store, case_status="closed") == set()  # b's note says closed: not a case's status
    assert ids["b"] in found(store, case_status="none") and ids["a"] not in found(store, case_status="none")
    assert found(store, q="2026-0001") == {ids["a"]}
    assert found(store, q="2026-000") == set()  # a case number is matched whole, not as a fragment
    with atomic(store.db):
        cases.decide(store.db, case_id=case_id, outcome="upheld", note="n", payments=[], audit_id=None,
                     actor="au", at=now(), key=store.trail_key)
        cases.close(store.db, case_id=case_id, actor="au", at=now(), key=store.trail_key)
    assert found(store, case_status="closed") == {ids["a"]} and found(store, case_status="open") == set()


def test_migration_fills_the_text_of_records_stored_before_it(store: Store) -> None:
    ids = filled(store)
    m005 = next(m for m in migrations._migrations if m.name == "m005_cases")
    store.db.execute("DROP TRIGGER receipts_no_update")
    for table in ("case_decisions", "case_records", "cases", "receipts", "record_search"):
        store.db.execute(f"DROP TABLE {table}")
    for name in ("receipts", "case_decisions"):
        store.db.execute(f"DROP TRIGGER IF EXISTS {name}_no_delete")
        store.db.execute(f"DROP TRIGGER IF EXISTS {name}_no_update")
    for column in ("actor", "action", "at"):
        store.db.execute(f"DROP INDEX idx_trail_{column}")
    m005.fn(store.db)
    assert found(store, q="bob") == {ids["a"], ids["c"]}


def test_the_turkish_i_folds_like_i_whichever_of_the_four_it_is() -> None:
    """Issue 22.7: İ and ı are i, as I and i are (casefold alone: İ -> i + U+0307, ı -> ı)."""
    assert fold("İSTANBUL") == fold("istanbul") == fold("ıstanbul") == fold("Istanbul") == "istanbul"
    assert fold("ILGAZ") == fold("ılgaz") == fold("İLGAZ") == "ilgaz"
    assert fold("i\u0307") == "i"  # the decomposed dotted i typed on its own


def test_m010_refolds_the_texts_the_old_folding_wrote(store: Store) -> None:
    import unicodedata

    first = one(store, doc("tr-1", "alpha", "web", ("İSMAİL", "u-1"), ("ılgaz", "u-2"), ("C", "u-3"),
                           ("D", "u-4"))).record_id
    other = one(store, doc("tr-2", "alpha", "web", *PLAYERS)).record_id
    untouched = store.db.execute("SELECT text FROM record_search WHERE record_id = ?", [other]).fetchone()[0]

    def old_fold(text: str) -> str:
        folded = unicodedata.normalize("NFKC", text).casefold()
        return "".join(ch for ch in folded if ch.isprintable()).strip()

    old = "\x1f" + "\x1f".join(old_fold(v) for v in ("tr-1", "alpha", "web", "İSMAİL", "u-1", "ılgaz", "u-2",
                                                     "C", "u-3", "D", "u-4")) + "\x1f"
    # a database written before issue 22: m010 runs on it before m011 makes record_search
    # insert-only and indexes it, so the trigger is not there yet and the index follows the texts
    store.db.execute("DROP TRIGGER record_search_no_update")
    store.db.execute("UPDATE record_search SET text = ? WHERE record_id = ?", [old, first])
    search_index.rebuild(store.db)
    assert found(store, q="ismail") == set()  # what a database written before issue 22 answered
    m010 = next(m for m in migrations._migrations if m.name == "m010_search_turkish_i")
    m010.fn(store.db)
    search_index.rebuild(store.db)  # what m011 does after it
    assert found(store, q="ismail") == found(store, q="ILGAZ") == {first}
    assert store.db.execute("SELECT text FROM record_search WHERE record_id = ?", [other]).fetchone()[0] == untouched
