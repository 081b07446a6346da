"""A kill at every commit boundary of the upload path leaves everything or nothing (issue 22.5).

A child process runs the real service (`create_app`, the API's POST /api/records through Flask's
test client, the real engine) on a prepared database, with a hook on `records.db.COMMIT_HOOKS`
that ends the process with `os._exit` (no cleanup, no rollback: as a kill -9 would) at the Nth
commit boundary, before or after the commit. The upload is a batch upload: two files in one
multipart request, JSON lines with good and refused lines and a match, stored three units per
transaction so that the request spans several transactions. After each kill, on the database the
child left behind: every stored record has the receipt of the submission that created it, no
receipt names a record that is not there, and `verify --head` (with the head taken before the
upload) is clean; then the same submission is sent again, and every game of it has exactly one
creating receipt, the retried lines are `duplicate` only for what the kill left stored, and verify
is still clean. tests/records/test_concurrency.py kills a real `flask run` with SIGKILL as well.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from app import create_app
from records.db import atomic
from records.store import Store
from records.trail import Head
from records.verify import verify
from web.db import trail_key
from tests.conftest import ROOT, api_token, app_config, dumps, load_example, variant
from tests.deadlines import scaled

CHILD = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from records import db as connection, pipeline
    pipeline.UNITS_PER_TRANSACTION = 3
    config, kill_at, request = json.loads(Path(sys.argv[2]).read_text())
    seen = []
    def hook(point):
        seen.append(point)
        if len(seen) == kill_at:
            os._exit(137)
    connection.COMMIT_HOOKS.append(hook)
    from app import create_app
    app = create_app(config)
    files = [(open(path, "rb"), name) for path, name in request["files"]]
    response = app.test_client().post("/api/records", data={"files": files}, headers=request["headers"],
                                      content_type="multipart/form-data")
    print(json.dumps({"status": response.status_code, "boundaries": seen}))
""")


def submission(folder: Path) -> list[tuple[str, str]]:
    """Two files: JSON lines (seven good games, a line that is no JSON, one the schema refuses,
    the same bytes twice) and a match of two hands."""
    base = load_example("hot-shot-weile")
    lines = [dumps(variant(base, game_id=f"kill-{n}")).decode("utf-8") for n in range(7)]
    lines.insert(3, "{not json")
    lines.insert(5, dumps(variant(base, game_id="kill-bad", base="one")).decode("utf-8"))
    lines.append(lines[0])
    (folder / "lines.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copy(ROOT / "samples" / "illegal-match-dealer.json", folder / "match.json")
    return [(str(folder / "lines.jsonl"), "lines.jsonl"), (str(folder / "match.json"), "match.json")]


GAMES = {f"kill-{n}" for n in range(7)} | {"match-hand-1", "match-hand-2"}
"""The games the submission stores."""


def run_child(folder: Path, config: dict[str, Any], kill_at: int, request: dict[str, Any]) -> dict[str, Any] | None:
    """Run the upload in a child process killed at boundary `kill_at` (0: never); its answer, or
    None when it was killed."""
    spec = folder / "child.json"
    spec.write_text(json.dumps([config, kill_at, request]), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(spec)], capture_output=True, text=True,
                          timeout=scaled(300))
    if done.returncode == 137:
        return None
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def fresh(template: Path, path: Path) -> str:
    """A copy of the prepared database, under a new name (this process keeps connections to the
    databases it opened: never replace a file under them)."""
    shutil.copy(template, path)
    return str(path)


def state(path: str, key: bytes, head: Head | None) -> tuple[dict[str, str], list[str]]:
    """(game -> outcome of its creating receipt, what is wrong): every record must have exactly one
    receipt of the submission that created it, every receipt's record must be there, and verify
    must be clean."""
    store = Store.open(path, trail_key=key)
    try:
        wrong = [m.describe() for m in verify(store.db, key, head=head)]
        creating: dict[str, str] = {}
        for game_id, record_id, count in store.db.execute(
                "SELECT r.game_id, r.id, (SELECT count(*) FROM receipts c WHERE c.record_id = r.id "
                "AND c.outcome IN ('created', 'revision')) FROM records r"):
            if count != 1:
                wrong.append(f"record {record_id} ({game_id}) has {count} creating receipts")
            creating[game_id] = "created"
        for (receipt_id,) in store.db.execute("SELECT id FROM receipts WHERE record_id IS NOT NULL AND record_id "
                                              "NOT IN (SELECT id FROM records)"):
            wrong.append(f"receipt {receipt_id} names a record that is not there")
        return creating, wrong
    finally:
        store.close()


def test_a_kill_at_every_commit_boundary_leaves_everything_or_nothing(tmp_path: Path) -> None:
    config = app_config(tmp_path)
    app = create_app(config)
    headers = api_token(app, "feed", "admin")
    files = submission(tmp_path)
    template = tmp_path / "template.sqlite3"
    with app.app_context():
        key = trail_key()
        store = Store.open(config["DATABASE"])
        head = store.db.execute("SELECT id, hash FROM trail ORDER BY id DESC LIMIT 1").fetchone()
        with sqlite3.connect(template) as copy:
            store.db.conn.backup(copy)  # the WAL's pages too
        store.close()
    request = {"files": files, "headers": headers}
    config = {**config, "DATABASE": fresh(template, tmp_path / "clean.sqlite3")}
    clean = run_child(tmp_path, config, 0, request)
    assert clean is not None and clean["status"] == 207
    boundaries = len(clean["boundaries"])
    assert boundaries >= 6 and clean["boundaries"][:2] == ["before-commit", "after-commit"]
    expected, wrong = state(config["DATABASE"], key, Head(*head))
    assert wrong == [] and set(expected) == GAMES
    for kill_at in range(1, boundaries + 1):
        config = {**config, "DATABASE": fresh(template, tmp_path / f"kill-{kill_at}.sqlite3")}
        assert run_child(tmp_path, config, kill_at, request) is None, kill_at
        left, wrong = state(config["DATABASE"], key, Head(*head))
        assert wrong == [], (kill_at, wrong)
        assert set(left) <= GAMES
        retry = run_child(tmp_path, config, 0, request)
        assert retry is not None and retry["status"] == 207
        after, wrong = state(config["DATABASE"], key, Head(*head))
        assert wrong == [] and set(after) == GAMES, (kill_at, wrong)


@pytest.mark.parametrize("point", ["before-commit", "after-commit"])
def test_the_hook_sees_both_sides_of_every_commit(tmp_path: Path, point: str) -> None:
    from records import db as connection

    seen: list[str] = []
    connection.COMMIT_HOOKS.append(seen.append)
    try:
        store = Store.open(tmp_path / "s.sqlite3")
        with atomic(store.db):
            with atomic(store.db):
                store.db.execute("CREATE TABLE t (x)")
        store.close()
    finally:
        connection.COMMIT_HOOKS.remove(seen.append)
    assert seen.count(point) >= 2  # the migrations' commit and the block's; the savepoint is no boundary
