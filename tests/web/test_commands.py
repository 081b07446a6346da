"""Every `flask` command of the service fails safely (issue 34.3): a file that is not a database, or
bytes on the command line or standard input that are not UTF-8, give one clear line and exit
status 2, never a traceback, and nothing is written (`web/commands.py`)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

from app import create_app
from records.access import path_for
from records.security import Accounts
from records.store import Store
from tests.conftest import ROOT, app_config
from tests.deadlines import scaled
from web.commands import Text
from web.db import trail_key

JUNK = b"this is not a database, it only lies where one should be\n" * 40

STORE_COMMANDS = {
    "init-db": ["init-db"],
    "trail-head": ["trail-head"],
    "verify": ["verify"],
    "backup": ["backup", "{tmp}/copy.sqlite3"],
    "create-user": ["create-user", "ops", "--role", "admin", "--password-stdin"],
    "create-token": ["create-token", "ops"],
    "bootstrap": ["bootstrap"],
    "load-samples": ["load-samples", "{tmp}/samples"],
    "reaudit": ["reaudit", "--all"],
}
"""Each command that opens the store, with arguments that would otherwise do its work."""


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("which", ["database", "access log"])
@pytest.mark.parametrize("command", sorted(STORE_COMMANDS))
def test_a_file_that_is_not_a_database_is_named_exit_2_and_left_as_it_was(tmp_path: Path, command: str,
                                                                          which: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "samples").mkdir()
    database = data / "service.sqlite3"
    junk = database if which == "database" else Path(path_for(database))
    junk.write_bytes(JUNK)
    app = create_app(app_config(data))
    args = [arg.format(tmp=tmp_path) for arg in STORE_COMMANDS[command]]
    before = _files(data)
    result = app.test_cli_runner().invoke(args=args, input="a long password\n")
    if which == "access log" and command not in ("trail-head", "verify", "backup"):
        assert junk.read_bytes() == JUNK  # commands that never open the access log leave it alone
        return
    assert result.exit_code == 2, (result.output, result.exception)
    assert str(junk) in result.output and "Traceback" not in result.output
    assert _files(data) == before  # the file as it was, nothing made beside it
    assert not (tmp_path / "copy.sqlite3").exists()


@pytest.mark.parametrize("command", ["init-db", "trail-head"])
def test_a_damaged_database_behind_a_good_header_is_refused_too(tmp_path: Path, command: str) -> None:
    """(`verify` reads such a store and names its damage instead, exit 1: tests/web/test_reindex.py.)"""
    database = tmp_path / "service.sqlite3"
    damaged = b"SQLite format 3\x00" + JUNK
    database.write_bytes(damaged)
    result = create_app(app_config(tmp_path)).test_cli_runner().invoke(args=[command])
    assert result.exit_code == 2, (result.output, result.exception)
    assert str(database) in result.output and database.read_bytes() == damaged
    assert sorted(p.name for p in tmp_path.iterdir()) == ["service.sqlite3"]


def _accounts(app: Flask) -> list[str]:
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            return [a.name for a in Accounts(store.db, store.trail_key).all()]
        finally:
            store.close()


@pytest.mark.parametrize("args", [
    ["create-user", "feed", "--role", "uploader", "--platform", "al\udcffpha", "--password-stdin"],
    ["create-user", "fe\udce9d", "--role", "admin", "--password-stdin"],
    ["create-user", "feed", "--role", "uploader", "--platform", "\ud800", "--password-stdin"],
    ["create-token", "ad\udcffmin"],
    ["create-token", "admin", "--label", "server \udcff7"],
    ["load-samples", ".", "--uploader", "\udcff"],
    ["reaudit", "--profile", "wei\udcffle"],
    ["verify", "--head", "1:\udcff"],
], ids=["platform", "name", "lone surrogate", "token name", "token label", "uploader", "reaudit profile", "head"])
def test_an_argument_that_is_not_utf8_is_refused_exit_2(app: Flask, runner: FlaskCliRunner,
                                                        args: list[str]) -> None:
    assert runner.invoke(args=["create-user", "admin", "--role", "admin", "--password-stdin"],
                         input="a long password\n").exit_code == 0
    result = runner.invoke(args=args, input="a long password\n")
    assert result.exit_code == 2, (result.output, result.exception)
    assert "UTF-8" in result.output and "Traceback" not in result.output
    assert _accounts(app) == ["admin"]


@pytest.mark.parametrize("prompted", [False, True], ids=["--password-stdin", "prompt"])
def test_a_password_that_is_not_utf8_is_refused_exit_2(app: Flask, runner: FlaskCliRunner, prompted: bool) -> None:
    args = ["create-user", "ops", "--role", "admin"] + ([] if prompted else ["--password-stdin"])
    result = runner.invoke(args=args, input=b"a long pass\xffword\n" * 2)
    assert result.exit_code == 2, (result.output, result.exception)
    assert "UTF-8" in result.output and "Traceback" not in result.output
    assert _accounts(app) == []


def test_bytes_that_are_not_utf8_on_a_real_command_line(tmp_path: Path) -> None:
    """What a shell passes: the raw byte 0xff, which Python keeps as the surrogate '\\udcff'."""
    env = {**os.environ, "FLASK_DATABASE": str(tmp_path / "db.sqlite3"), "FLASK_TRAIL_KEY_FILE": str(tmp_path / "key"),
           "FLASK_SECRET_KEY": "not written to the checkout", "PYTHONUTF8": "1"}
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "create-user", "feed", "--role", "uploader",
                           b"--platform", b"al\xffpha", "--password-stdin"], input=b"a long password\n", cwd=ROOT,
                          env=env, capture_output=True, timeout=scaled(120))
    assert done.returncode == 2, done.stderr
    assert b"UTF-8" in done.stderr and b"Traceback" not in done.stderr


def test_every_free_text_parameter_of_every_command_is_read_as_utf8_text(app: Flask) -> None:
    """A new option read with click's plain string type would let a non-UTF-8 byte through."""
    plain = [f"{name} {param.name}" for name, command in app.cli.commands.items() for param in command.params
             if isinstance(param.type, click.types.StringParamType) and not isinstance(param.type, Text)]
    assert plain == []
