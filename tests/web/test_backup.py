"""`flask backup PATH` (SQLite's online backup) and a restore from the copy that verifies every
record (issue 12)."""
from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from records.access import path_for
from records.store import Store
from records.verify import verify
from tests.conftest import app_config, dumps, load_example, login, variant
from web import cli_trust
from web.db import trail_key


def test_backup_then_restore_verifies_every_record(app: Flask, client: FlaskClient, runner: FlaskCliRunner,
                                                   tmp_path: Path) -> None:
    base = load_example("hot-shot-weile")
    body = b"\n".join(dumps(variant(base, game_id=f"b-{i}")) for i in range(12))
    assert client.post("/api/records", data=body, content_type="application/x-ndjson").status_code == 201
    client.post("/api/records/3/notes", json={"text": "kept in the copy"})
    client.get("/records/3")
    target = tmp_path / "copies" / "backup.sqlite3"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert target.exists() and Path(path_for(target)).exists()

    with app.app_context():
        key = trail_key()
        original = Store.open(app.config["DATABASE"], trail_key=key)
    copy = Store.open(target, trail_key=key)
    try:
        assert verify(copy.db, key) == []
        ids = [row[0] for row in copy.db.execute("SELECT id FROM records ORDER BY id")]
        assert len(ids) == 12
        for record_id in ids:  # every record of the copy: the same bytes, hash and audit
            assert copy.raw(record_id) == original.raw(record_id)
            assert copy.record(record_id) == original.record(record_id)
            assert copy.latest_audit(record_id) == original.latest_audit(record_id)
    finally:
        copy.close()
        original.close()

    restored = create_app(app_config(tmp_path, "copies/backup.sqlite3", ACCESS_DATABASE=path_for(target)))
    check = restored.test_cli_runner().invoke(args=["verify"])
    assert check.exit_code == 0 and "every hash matches" in check.output, check.output
    reader = login(restored, "after-restore", "auditor")
    assert all(reader.get(f"/api/records/{record_id}").status_code == 200 for record_id in ids)
    assert "kept in the copy" in reader.get("/records/3").get_data(as_text=True)


# ----- a target that is not a new or old copy is refused, nothing touched (issue 34.3) -----------

def _fingerprint(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry of a folder: its type bits and, for a file, its bytes."""
    out = {}
    for entry in sorted(folder.iterdir()):
        mode = entry.lstat().st_mode
        out[entry.name] = (stat.S_IFMT(mode), entry.read_bytes() if stat.S_ISREG(mode) else b"")
    return out


def _live(app: Flask, runner: FlaskCliRunner) -> Path:
    """The app's database, made, with its access log."""
    assert runner.invoke(args=["trail-head"]).exit_code == 0
    return Path(app.config["DATABASE"])


@pytest.mark.parametrize("name", ["itself", "through ..", "a symbolic link", "a hard link", "its access log",
                                  "its -wal", "a link to its -wal", "PATH-access is the database"])
def test_backup_refuses_every_name_of_the_live_database(app: Flask, runner: FlaskCliRunner, tmp_path: Path,
                                                        name: str) -> None:
    live = _live(app, runner)
    (tmp_path / "sub").mkdir()
    target = {"itself": live, "through ..": tmp_path / "sub" / ".." / live.name,
              "a symbolic link": tmp_path / "link.sqlite3", "a hard link": tmp_path / "hard.sqlite3",
              "its access log": Path(path_for(live)), "its -wal": Path(f"{live}-wal"),
              "a link to its -wal": tmp_path / "wal-link", "PATH-access is the database": tmp_path / "twin"}[name]
    if name == "a symbolic link":
        target.symlink_to(live)
    elif name == "a hard link":
        os.link(live, target)
    elif name == "a link to its -wal":
        target.symlink_to(f"{live}-wal")  # dangling or not, a write there is a write to the live -wal
    elif name == "PATH-access is the database":
        Path(path_for(target)).symlink_to(live)
    before = _fingerprint(tmp_path)
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert _fingerprint(tmp_path) == before
    assert runner.invoke(args=["verify"]).exit_code == 0


@pytest.mark.parametrize("name", ["a pipe", "/dev/null", "PATH-access a pipe", "a folder", "PATH-access a folder",
                                  "a link to a folder"])
def test_backup_refuses_a_device_a_pipe_or_a_folder(app: Flask, runner: FlaskCliRunner, tmp_path: Path,
                                                    name: str) -> None:
    _live(app, runner)
    folder = tmp_path / "copies"
    folder.mkdir()
    target = folder / "copy.sqlite3"
    if name == "a pipe":
        os.mkfifo(target)
    elif name == "PATH-access a pipe":
        os.mkfifo(path_for(target))
    elif name == "/dev/null":
        target = Path("/dev/null")
    elif name == "a folder":
        target.mkdir()
    elif name == "PATH-access a folder":
        Path(path_for(target)).mkdir()
    elif name == "a link to a folder":
        target.symlink_to(folder)
    before = _fingerprint(folder)
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert _fingerprint(folder) == before
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and Path("/dev/null").read_bytes() == b""


def test_backup_replaces_an_old_copy_whole_through_a_temporary_file(app: Flask, runner: FlaskCliRunner,
                                                                     tmp_path: Path) -> None:
    _live(app, runner)
    target = tmp_path / "copies" / "copy.sqlite3"
    target.parent.mkdir()
    target.write_bytes(b"an old copy")
    Path(path_for(target)).write_bytes(b"its old access log")
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in target.parent.iterdir()) == ["copy.sqlite3", "copy.sqlite3-access"]
    assert target.read_bytes().startswith(b"SQLite format 3\0")
    assert Path(path_for(target)).read_bytes().startswith(b"SQLite format 3\0")
    assert stat.S_IMODE(target.stat().st_mode) & 0o077 == 0  # a copy of the records is not for everyone


def test_a_backup_that_fails_leaves_the_old_copy_and_no_temporary_file(app: Flask, runner: FlaskCliRunner,
                                                                       tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _live(app, runner)
    target = tmp_path / "copies" / "copy.sqlite3"
    target.parent.mkdir()
    target.write_bytes(b"an old copy")
    Path(path_for(target)).write_bytes(b"its old access log")
    real, calls = cli_trust.copy_database, []

    def second_fails(source: str, where: Path) -> str:
        calls.append(where)
        if len(calls) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        return real(source, where)

    monkeypatch.setattr(cli_trust, "copy_database", second_fails)
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 2, result.output
    assert "disk is full" in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in target.parent.iterdir()) == ["copy.sqlite3", "copy.sqlite3-access"]
    assert target.read_bytes() == b"an old copy"
    assert Path(path_for(target)).read_bytes() == b"its old access log"
