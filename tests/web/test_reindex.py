"""`flask reindex` and `flask verify` against the search index damaged below FTS5 (issue 34.6): each
damage of the issue done to the database file of the samples, `verify` names it (exit 1, a code),
`reindex` derives the texts and both indexes again from the records, `verify` is clean after it,
and the `q=` search finds what it found before; `verify` never ends on a traceback, neither on a
deleted row of `_sqlite_migrations` nor on a file SQLite cannot read."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from records import search_index
from tests.conftest import ROOT, api_token, app_config
from tests.web.evidence import copy_of

FTS = search_index.FTS


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples loaded by `flask load-samples` (one upload each, so FTS5 holds several segments);
    `verify` is clean."""
    folder = tmp_path_factory.mktemp("samples")
    app = create_app(app_config(folder))
    runner = app.test_cli_runner()
    assert runner.invoke(args=["load-samples", str(ROOT / "samples")]).exit_code == 0
    assert runner.invoke(args=["verify"]).exit_code == 0
    return folder


def copied(samples: Path, target: Path) -> Flask:
    """An app on a copy of the samples' database, access log and trail key."""
    copy_of(str(samples / "service.sqlite3"), target / "service.sqlite3")
    copy_of(str(samples / "service.sqlite3-access"), target / "service.sqlite3-access")
    shutil.copy(samples / "trail_key", target / "trail_key")
    return create_app(app_config(target))


def found(app: Flask, headers: dict[str, str], query: str) -> tuple[int, Any]:
    """(status, total or error code) of `GET /api/records?q=`."""
    response = app.test_client().get("/api/records", query_string={"q": query, "per_page": 200}, headers=headers)
    body = response.get_json()
    return response.status_code, body["total"] if response.status_code == 200 else body["code"]


def damage(app: Flask, *statements: str) -> None:
    """SQL on the database file, as someone who has it would."""
    db = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    try:
        for statement in statements:
            db.execute(statement)
    finally:
        db.close()


DAMAGES: dict[str, tuple[tuple[str, ...], str]] = {
    "_idx rows deleted": ((f"DELETE FROM {FTS}_idx WHERE term != x''",), search_index.LOOKUP),
    "one segid moved": ((f"UPDATE {FTS}_idx SET segid = segid + 1000 WHERE (segid, term) = "
                         f"(SELECT segid, max(term) FROM {FTS}_idx)",), search_index.LOOKUP),
    "pgno bumped": ((f"UPDATE {FTS}_idx SET pgno = pgno + 2 WHERE (segid, term) = "
                     f"(SELECT segid, max(term) FROM {FTS}_idx)",), search_index.LOOKUP),
    "a _data row deleted": ((f"DELETE FROM {FTS}_data WHERE id = (SELECT max(id) FROM {FTS}_data)",),
                            search_index.DAMAGED),
    "the structure record deleted": ((f"DELETE FROM {FTS}_data WHERE id = 10",), search_index.DAMAGED),
    "the index dropped": ((f"DROP TABLE {FTS}",), search_index.DAMAGED),
    "a search text rewritten": (("DROP TRIGGER record_search_no_update",
                                 "UPDATE record_search SET text = char(31) || 'elsewhere' || char(31) "
                                 "WHERE record_id = (SELECT min(record_id) FROM record_search)"),
                                "search_text_differs"),
}


@pytest.mark.parametrize("name", list(DAMAGES))
def test_verify_names_the_damage_reindex_repairs_it_and_the_search_finds_again(samples: Path, tmp_path: Path,
                                                                               name: str) -> None:
    app = copied(samples, tmp_path)
    headers = api_token(app, "reader", "auditor")
    runner = app.test_cli_runner()
    before = {query: found(app, headers, query) for query in ("cuocuo", "kuhu", "weile-hot", "hot")}
    assert all(status == 200 and total for status, total in before.values()), before
    statements, code = DAMAGES[name]
    damage(app, *statements)
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert f"[{code}]" in result.output, result.output
    assert "flask --app app reindex" in result.output
    during = {query: found(app, headers, query) for query in before}
    assert during != before or code == "search_text_differs", during  # a search misses records, or is refused
    assert all(status in (200, 503) for status, _ in during.values())  # never a 500
    if code == search_index.DAMAGED:  # what SQLite cannot read is a 503 naming the commands
        assert (503, search_index.DAMAGED) in during.values(), during
    reindexed = runner.invoke(args=["reindex"])
    assert reindexed.exit_code == 0, reindexed.output
    assert runner.invoke(args=["verify"]).exit_code == 0, runner.invoke(args=["verify"]).output
    assert {query: found(app, headers, query) for query in before} == before


@pytest.mark.parametrize("step", ["m010_search_turkish_i", "m011_search_index", "m001_tables"])
def test_a_deleted_migrations_row_is_named_never_a_crash(samples: Path, tmp_path: Path, step: str) -> None:
    app = copied(samples, tmp_path)
    damage(app, f"DELETE FROM _sqlite_migrations WHERE name = '{step}'")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "[migrations_damaged]" in result.output and "Traceback" not in result.output
    assert "checked " in result.output  # the other checks ran
    refused = runner.invoke(args=["reindex"])
    assert refused.exception is None or isinstance(refused.exception, SystemExit), refused.output


def test_verify_of_a_file_sqlite_cannot_read_names_it(tmp_path: Path) -> None:
    path = tmp_path / "service.sqlite3"
    path.write_bytes(b"not a database, whatever its name says" * 200)
    app = create_app(app_config(tmp_path))
    result = app.test_cli_runner().invoke(args=["verify"])
    # not a database at all: nothing to verify, refused as every command refuses it (exit 2, issue 34.3);
    # a database damaged behind its header is verified and its damage named (exit 1, below)
    assert result.exit_code == 2 and str(path) in result.output and "Traceback" not in result.output, result.output
    path.write_bytes(b"SQLite format 3\x00" + b"not a database, whatever its name says" * 200)
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "[store_unreadable]" in result.output and "[migrations_damaged]" in result.output
