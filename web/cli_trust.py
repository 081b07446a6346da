"""Commands for tamper evidence and backups: `verify`, `trail-head`, `backup` (issue 12).

- `flask --app app verify [--head ID:HASH] [--access-head ID:HASH]` checks every table against
  the trail and the trail against its key (`records.verify`); with the head an operator kept
  elsewhere it also catches rows cut off the end and a chain rebuilt. Exit 1 and one line per
  problem when anything was changed behind the service's back (a stable code in brackets where the
  problem has one). A damaged store is reported, never a traceback: a check SQLite cannot finish,
  a file it cannot open, a damaged record of the schema's steps (then nothing is migrated). When
  the search texts or indexes differ, it says to run `flask --app app reindex` (web/maintenance.py).
- `flask --app app trail-head` prints the head of the main trail and of the access log, to be
  kept outside the machine (a ticket, a mail, a notebook); `verify --head` takes them back.
- `flask --app app backup PATH` copies the database (and its access log, to PATH-access) with
  SQLite's online backup: consistent while the service runs, readers and writers go on. Each copy
  is written to a temporary file beside its target and renamed into place once both are made; a
  target that is a folder, a device or a pipe, or any name of a live database file (a link to
  it, its -wal), is refused first, exit 2, nothing touched (issue 34.3).
"""
from __future__ import annotations

import os
import sqlite3
import stat
import tempfile
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from sqlite_utils import Database

from records import access, search_index, trail
from records.db import connect
from records.migrations import MIGRATIONS_DAMAGED
from records.trail import Head, Mismatch
from records.verify import SEARCH_TEXT, STORE_UNREADABLE, verify
from web.commands import TEXT, CommandError, open_store, refuse_unless_database
from web.db import access_path, get_access_db, migrate_if_trusted, trail_key

COUNTED = ("records", "documents", "audits", "uploads", "notes", "accounts", "tokens", "trail")
"""Tables whose sizes `verify` reports."""
SHOWN_PER_KIND = 200
"""Mismatches printed per kind (a chain rebuilt without the key fails on every row)."""


def _head(text: str | None) -> Head | None:
    """A head option, or a usage error saying its form."""
    if text is None:
        return None
    try:
        return Head.parse(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc


def check_all(db: Database, head: Head | None = None,
              access_head: Head | None = None) -> tuple[list[Mismatch], dict[str, int | str]]:
    """Every mismatch of the main database and of the access log, and the sizes checked (`?` for a
    table SQLite cannot count: the mismatches name it)."""
    key = trail_key()
    found = verify(db, key, head=head)
    counts: dict[str, int | str] = {table: _count(db, table) for table in COUNTED}
    try:
        log = get_access_db()
        found += [Mismatch("access " + m.kind, m.ident, m.message, m.code)
                  for m in trail.verify_trail(log, key, access_head)]
        counts["access log"] = _count(log, "trail")
    except sqlite3.DatabaseError as error:
        found.append(Mismatch("access trail", 0, f"cannot be read to the end: {error}", STORE_UNREADABLE))
    return found, counts


def _count(db: Database, table: str) -> int | str:
    """Rows of a table, or `?` where SQLite cannot count them."""
    try:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.DatabaseError:
        return "?"


@click.command("verify")
@click.option("--head", "head_text", type=TEXT, metavar="ID:HASH", help="The main trail's head as `trail-head` printed it.")
@click.option("--access-head", "access_text", type=TEXT, metavar="ID:HASH", help="The access log's head, likewise.")
@with_appcontext
def verify_command(head_text: str | None, access_text: str | None) -> None:
    """Check every table against the trail and the trail against its key; exit 1 on any mismatch."""
    head, access_head = _head(head_text), _head(access_text)
    for path in (str(current_app.config["DATABASE"]), access_path()):
        refuse_unless_database(path)  # not a database at all: nothing to verify (exit 2, issue 34.3)
    mismatches = [Mismatch("schema", 0, line, MIGRATIONS_DAMAGED) for line in migrate_if_trusted()]
    counts: dict[str, int | str] = {}
    try:
        db = connect(current_app.config["DATABASE"])
    except sqlite3.DatabaseError as error:
        mismatches.append(Mismatch("store", 0, f"cannot be opened: {error}", STORE_UNREADABLE))
    else:
        try:
            found, counts = check_all(db, head, access_head)
        finally:
            db.close()
        mismatches += found
    shown: dict[str, int] = {}
    for mismatch in mismatches:
        shown[mismatch.kind] = shown.get(mismatch.kind, 0) + 1
        if shown[mismatch.kind] <= SHOWN_PER_KIND:
            click.echo(mismatch.describe())
    for kind, count in shown.items():
        if count > SHOWN_PER_KIND:
            click.echo(f"... and {count - SHOWN_PER_KIND} more {kind} mismatch(es)")
    checked = "checked " + (", ".join(f"{count} {table}" for table, count in counts.items()) or "nothing")
    if mismatches:
        click.echo(f"{checked}: {len(mismatches)} mismatch(es)")
        if any(m.code in REINDEXED for m in mismatches):
            click.echo("the search texts or indexes differ from the records: `flask --app app reindex` derives "
                       "them again (then verify once more)")
        raise click.exceptions.Exit(1)
    anchored = " and the heads given" if head or access_head else ""
    click.echo(f"{checked}: every hash matches, every row agrees with the trail{anchored}")


REINDEXED = (search_index.DAMAGED, search_index.DIFFERS, search_index.LOOKUP, SEARCH_TEXT)
"""Codes of what `flask reindex` repairs."""


@click.command("trail-head")
@with_appcontext
def trail_head_command() -> None:
    """Print the heads of the trail and the access log (keep them outside this machine)."""
    store = open_store(access=True)
    for label, db in (("trail", store.db), ("access", get_access_db())):
        found = trail.head(db)
        click.echo(f"{label} {found.text() if found else '(empty)'}")


LIVE_SUFFIXES = ("", "-wal", "-shm", "-journal")
"""A live database's files: itself and what SQLite keeps beside it."""


def live_files() -> list[str]:
    """Every file of the live databases: the main one and the access log, each with its side files."""
    return [base + suffix for base in (str(current_app.config["DATABASE"]), access_path()) for suffix in LIVE_SUFFIXES]


def refuse_target(target: Path, live: list[str]) -> None:
    """CommandError unless a copy may be written at `target`: not a folder, not a device, pipe or
    socket (a rename would replace the node), and not one of the live files under any name (a
    symbolic link, `..`, a hard link): the copy would replace the database it is read from."""
    shown = click.format_filename(target)
    try:
        found: os.stat_result | None = os.stat(target)  # through a link: what a write would reach
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise CommandError(f"{shown}: cannot write a copy there ({exc.strerror or exc})") from None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise CommandError(f"{shown} is a folder: give the path of the copy's file")
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise CommandError(f"{shown} is a device, a pipe or a socket, not a file: a copy is never written there")
    real = os.path.realpath(target)
    for path in live:
        if real == os.path.realpath(path) or (found is not None and os.path.exists(path)
                                              and os.path.samefile(target, path)):
            raise CommandError(f"{shown} is the live database's file {click.format_filename(path)}: "
                               "a backup goes to another file")


def copy_database(source: str, target: Path) -> str:
    """SQLite's online backup of `source` into a new temporary file beside `target` (mode 0600);
    its path. Removed again if the copy fails."""
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)
    try:
        origin, copy = sqlite3.connect(source), sqlite3.connect(temporary)
        try:
            origin.backup(copy)
        finally:
            copy.close()
            origin.close()
    except BaseException:
        _remove(temporary)
        raise
    return temporary


def _remove(temporary: str) -> None:
    for path in (temporary, temporary + "-journal"):
        Path(path).unlink(missing_ok=True)


def backup(sources: list[str], targets: list[Path]) -> None:
    """Each source copied beside its target, then every copy renamed into place: a copy that
    fails leaves the targets as they were and no temporary file behind."""
    targets[0].parent.mkdir(parents=True, exist_ok=True)
    made: list[str] = []
    try:
        for source, target in zip(sources, targets):
            made.append(copy_database(source, target))
        for temporary, target in zip(made, targets):
            os.replace(temporary, target)
    except BaseException:
        for temporary in made:
            _remove(temporary)
        raise


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Copy the database to PATH and its access log to PATH-access, consistently, while the service runs.
    Refused (exit 2, nothing touched) when PATH or PATH-access is a folder, a device, or a live database."""
    targets = [path, Path(access.path_for(path))]
    live = live_files()
    for target in targets:
        refuse_target(target, live)
    open_store(access=True)  # made if missing, so the copy always has both files
    try:
        backup([str(current_app.config["DATABASE"]), access_path()], targets)
    except (OSError, sqlite3.Error) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CommandError(f"{click.format_filename(path)}: cannot write the copy ({reason}); nothing was replaced") \
            from None
    shown = click.format_filename(path)
    click.echo(f"backed up to {shown} and {click.format_filename(targets[1])}; check a copy with "
               f"FLASK_DATABASE={shown} flask --app app verify")


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(verify_command)
    app.cli.add_command(trail_head_command)
    app.cli.add_command(backup_command)
