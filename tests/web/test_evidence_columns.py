"""verify covers every column of every table that holds evidence (issue 22.4), generated from the schema.

The database is made by the migrations and filled through the service (tests/web/evidence.py); the
tables and their columns are read from `sqlite_master` and `PRAGMA table_info`, never listed here.
For every table (but `records.verify.NOT_EVIDENCE`, each with its reason) and every column, on a
copy with the triggers dropped (as someone with the file would), the first and the last row gets a
value that means something else, and `verify --head` (the `flask verify` command, with the head
kept outside) must name something; so must deleting either row, and inserting a copy of it under
a new key. A table or column added without a check fails here, and so does a table the scenario
leaves empty (the scenario must then learn to fill it).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from records.store import Store
from records import search_index
from records.verify import NOT_EVIDENCE, verify
from tests.web.evidence import Scenario, build, copy_of


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    return build(tmp_path_factory.mktemp("evidence"))


def tables(path: str) -> dict[str, list[tuple[str, str, int]]]:
    """Every table with its columns (name, declared type, place in the primary key)."""
    with sqlite3.connect(path) as db:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: [(row[1], str(row[2]).upper(), int(row[5])) for row in db.execute(f"PRAGMA table_info([{name}])")]
                for name in names}


def other(value: Any, kind: str) -> Any:
    """A value that means something else than `value` in a column of this declared type."""
    if value is None:
        return 1 if "INT" in kind else 1.5 if "FLOAT" in kind or "REAL" in kind else "x"
    if isinstance(value, bytes):
        return value + b" "
    if isinstance(value, int):
        return 1 - value if value in (0, 1) else value + 7
    if isinstance(value, float):
        return value + 7.5
    return str(value) + "x"


def tampered(scenario: Scenario, target: Path, sql: str, params: list[Any]) -> list[str]:
    """What verify --head says of a copy of the scenario's database after `sql`, triggers dropped."""
    copy_of(scenario.path, target)
    with sqlite3.connect(target) as db:
        db.execute("PRAGMA foreign_keys = OFF")
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            db.execute(f"DROP TRIGGER [{name}]")
        db.execute(sql, params)
    store = Store.open(target, trail_key=scenario.key)
    try:
        return [m.describe() for m in verify(store.db, scenario.key, head=scenario.head)]
    finally:
        store.close()


def covered(scenario: Scenario) -> list[str]:
    """The tables tampered column by column: all but the exclusions and the FTS5 virtual table
    itself, whose rows are its shadow tables' (`_data`, `_idx`, `_docsize`, `_config`: those are
    tampered like any other since issue 34.6; `test_the_trigram_index_tampered_through_fts5_is_named`
    also changes it the way FTS5 allows)."""
    return [name for name in tables(scenario.path) if name not in NOT_EVIDENCE and name != search_index.FTS]


def test_the_trigram_index_tampered_through_fts5_is_named(scenario: Scenario, tmp_path: Path) -> None:
    """A posting removed from, or one added to, the trigram index (records.search_index, derived
    from record_search): verify recomputes the index and names the difference."""
    with sqlite3.connect(scenario.path) as db:
        record_id, text = db.execute("SELECT record_id, text FROM record_search ORDER BY record_id LIMIT 1").fetchone()
    fts = search_index.FTS
    for sql, params in [(f"INSERT INTO {fts} ({fts}, rowid, text) VALUES ('delete', ?, ?)", [record_id, text]),
                        (f"INSERT INTO {fts} (rowid, text) VALUES (?, ?)", [10**6, "forged name"])]:
        assert tampered(scenario, tmp_path / "fts.sqlite3", sql, params), sql


def test_the_scenario_fills_every_table_and_verify_is_clean(scenario: Scenario) -> None:
    with sqlite3.connect(scenario.path) as db:
        empty = [name for name in tables(scenario.path) if not db.execute(f"SELECT 1 FROM [{name}]").fetchone()]
    assert empty == []
    store = Store.open(scenario.path, trail_key=scenario.key)
    try:
        assert verify(store.db, scenario.key, head=scenario.head) == []
    finally:
        store.close()


def test_every_exclusion_names_a_table_and_says_why(scenario: Scenario) -> None:
    assert set(NOT_EVIDENCE) <= set(tables(scenario.path))
    assert all(len(why) > 40 for why in NOT_EVIDENCE.values())


ZERO_IS_NONE = {"record_tally", "record_key_tally"}
"""Counters whose rows counting 0 are read as no row at all (`records.tally` reads `n != 0`): a
row of them is tampered where it counts something."""


def ends(path: str, table: str) -> list[tuple[str, list[Any], dict[str, Any]]]:
    """The first and the last row of a table: (WHERE clause, its parameters, the row), by primary
    key (some tables have no rowid) or by rowid."""
    keys = [name for name, _, place in sorted(tables(path)[table], key=lambda c: c[2]) if place] or ["rowid"]
    order = ", ".join(f"[{name}]" if name != "rowid" else name for name in keys)
    where = " AND ".join(f"{name} = ?" if name == "rowid" else f"[{name}] = ?" for name in keys)
    found = []
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        for direction in ("ASC", "DESC"):
            counting = "WHERE n != 0" if table in ZERO_IS_NONE else ""
            row = db.execute(f"SELECT {order}, * FROM [{table}] {counting} ORDER BY {order} {direction} "
                             "LIMIT 1").fetchone()
            values = [row[index] for index in range(len(keys))]
            found.append((where, values, {name: row[name] for name in row.keys()[len(keys):]}))
    return found if found[0][1] != found[1][1] else found[:1]


def test_every_column_of_every_table_tampered_is_named(scenario: Scenario, tmp_path: Path) -> None:
    missed: list[str] = []
    for table in covered(scenario):
        for end, (where, key, row) in enumerate(ends(scenario.path, table)):
            for column, kind, place in tables(scenario.path)[table]:
                value = row[column] + 1000 if place and isinstance(row[column], int) else other(row[column], kind)
                found = tampered(scenario, tmp_path / f"{table}-{column}-{end}.sqlite3",
                                 f"UPDATE [{table}] SET [{column}] = ? WHERE {where}", [value, *key])
                if not found:
                    missed.append(f"{table}.{column} (row {key}: {str(row[column])[:40]!r})")
    assert missed == [], '\n'.join(missed)


def test_every_row_deleted_or_forged_is_named(scenario: Scenario, tmp_path: Path) -> None:
    missed: list[str] = []
    for table in covered(scenario):
        columns = tables(scenario.path)[table]
        for end, (where, key, row) in enumerate(ends(scenario.path, table)):
            rowid = f"{key}"
            if not tampered(scenario, tmp_path / f"{table}-del-{end}.sqlite3",
                            f"DELETE FROM [{table}] WHERE {where}", key):
                missed.append(f"{table}: row {rowid} deleted")
            keys = [name for name, _, place in sorted(columns, key=lambda c: c[2]) if place]
            forged = dict(row)
            last_key = keys[-1] if keys else None
            if last_key == "id":
                forged["id"] = None  # the next id
            elif last_key is not None:
                forged[last_key] = other(row[last_key], dict((c[0], c[1]) for c in columns)[last_key]) \
                    if not isinstance(row[last_key], int) else row[last_key] + 1000
            names = ", ".join(f"[{name}]" for name in forged)
            sql = f"INSERT INTO [{table}] ({names}) VALUES ({', '.join('?' * len(forged))})"
            try:
                found = tampered(scenario, tmp_path / f"{table}-ins-{end}.sqlite3", sql, list(forged.values()))
            except sqlite3.IntegrityError:  # a unique index: the forgery changes its text columns too
                forged = {name: other(value, "TEXT") if isinstance(value, str) else value
                          for name, value in forged.items()}
                found = tampered(scenario, tmp_path / f"{table}-ins2-{end}.sqlite3", sql, list(forged.values()))
            if not found:
                missed.append(f"{table}: a copy of row {rowid} inserted")
    assert missed == [], '\n'.join(missed)
