"""Commands for tamper evidence and backups: `verify`, `trail-head`, `backup` (issue 12).

- `flask --app app verify [--head ID:HASH] [--access-head ID:HASH]` checks every table against
  the trail and the trail against its key (`records.verify`); with the head an operator kept
  elsewhere it also catches rows cut off the end and a chain rebuilt. Exit 1 and one line per
  problem when anything was changed behind the service's back.
- `flask --app app trail-head` prints the head of the main trail and of the access log, to be
  kept outside the machine (a ticket, a mail, a notebook); `verify --head` takes them back.
- `flask --app app backup PATH` copies the database (and its access log, to PATH-access) with
  SQLite's online backup: consistent while the service runs, readers and writers go on.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from records import access, trail
from records.trail import Head, Mismatch
from records.verify import verify
from web.db import access_path, get_access_db, get_store, init_db, trail_key

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


def check_all(head: Head | None = None, access_head: Head | None = None) -> tuple[list[Mismatch], dict[str, int]]:
    """Every mismatch of the main database and of the access log, and the sizes checked."""
    db, key = get_store().db, trail_key()
    found = verify(db, key, head=head)
    log = get_access_db()
    found += [Mismatch("access " + m.kind, m.ident, m.message) for m in trail.verify_trail(log, key, access_head)]
    counts = {table: int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]) for table in COUNTED}
    counts["access log"] = int(log.execute("SELECT count(*) FROM trail").fetchone()[0])
    return found, counts


@click.command("verify")
@click.option("--head", "head_text", metavar="ID:HASH", help="The main trail's head as `trail-head` printed it.")
@click.option("--access-head", "access_text", metavar="ID:HASH", help="The access log's head, likewise.")
@with_appcontext
def verify_command(head_text: str | None, access_text: str | None) -> None:
    """Check every table against the trail and the trail against its key; exit 1 on any mismatch."""
    head, access_head = _head(head_text), _head(access_text)
    init_db()
    mismatches, counts = check_all(head, access_head)
    shown: dict[str, int] = {}
    for mismatch in mismatches:
        shown[mismatch.kind] = shown.get(mismatch.kind, 0) + 1
        if shown[mismatch.kind] <= SHOWN_PER_KIND:
            click.echo(mismatch.describe())
    for kind, count in shown.items():
        if count > SHOWN_PER_KIND:
            click.echo(f"... and {count - SHOWN_PER_KIND} more {kind} mismatch(es)")
    checked = "checked " + ", ".join(f"{count} {table}" for table, count in counts.items())
    if mismatches:
        click.echo(f"{checked}: {len(mismatches)} mismatch(es)")
        raise click.exceptions.Exit(1)
    anchored = " and the heads given" if head or access_head else ""
    click.echo(f"{checked}: every hash matches, every row agrees with the trail{anchored}")


@click.command("trail-head")
@with_appcontext
def trail_head_command() -> None:
    """Print the heads of the trail and the access log (keep them outside this machine)."""
    init_db()
    for label, db in (("trail", get_store().db), ("access", get_access_db())):
        found = trail.head(db)
        click.echo(f"{label} {found.text() if found else '(empty)'}")


def backup(source: str, target: Path) -> None:
    """SQLite's online backup of one database file into `target` (replaced if it exists)."""
    if target.exists():
        target.unlink()
    origin, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        origin.backup(copy)
    finally:
        copy.close()
        origin.close()


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Copy the database to PATH and its access log to PATH-access, consistently, while the service runs."""
    init_db()
    get_access_db()  # made if missing, so the copy always has both files
    path.parent.mkdir(parents=True, exist_ok=True)
    backup(str(current_app.config["DATABASE"]), path)
    backup(access_path(), Path(access.path_for(path)))
    click.echo(f"backed up to {path} and {access.path_for(path)}; check a copy with "
               f"FLASK_DATABASE={path} flask --app app verify")


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(verify_command)
    app.cli.add_command(trail_head_command)
    app.cli.add_command(backup_command)
