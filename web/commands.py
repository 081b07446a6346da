"""What every `flask` command of the service shares so that it fails safely (issue 34.3): a clear
one-line error and exit status 2 when it cannot run, never a traceback, and nothing touched.

- `CommandError`: "the command could not run" (exit 2, as a usage error, without the usage text).
- `open_store()`: the one way a command opens the store (`init_db`, then the request's store and,
  when asked, the access log): a file that is not a SQLite database, or cannot be opened, is a
  CommandError naming it, before anything is written to it.
- `TEXT`: the type of every free-text argument and option. A byte that is not UTF-8 on the
  command line reaches Python as a lone surrogate (`'\\udcff'`, PEP 383) that could be neither
  stored nor hashed (UnicodeEncodeError); it is refused as a usage error naming the byte.
- `utf8_line()`: a line of standard input (`create-user --password-stdin`), read as bytes and
  decoded strictly, for the same reason.

tests/web/test_commands.py holds every command of the service to these.
"""
from __future__ import annotations

import os
import sqlite3
import stat
from typing import IO, Any

import click
from flask import current_app

from records.store import Store
from web.db import access_path, get_access_db, get_store, init_db


class CommandError(click.ClickException):
    """The command could not run as asked (a file that is not a database, an unusable target):
    `Error: ...` on stderr and exit status 2, as click's usage errors."""

    exit_code = 2


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file (an empty file is a database not yet made)."""


def open_store(*, access: bool = False) -> Store:
    """Create or migrate the database (`init_db`, never drops anything) and return the command's
    store; with `access`, open the access log too. A file that is not a SQLite database, or that
    cannot be opened at all, is a CommandError naming it, and both files are checked before
    either is opened, so a refused command leaves every file as it was and makes none."""
    database = str(current_app.config["DATABASE"])
    paths = [database, access_path()] if access else [database]
    for path in paths:
        refuse_unless_database(path)
    try:
        init_db()
        store = get_store()
    except sqlite3.DatabaseError as exc:
        raise CommandError(_unusable(database, str(exc))) from None
    if access:
        try:
            get_access_db()
        except sqlite3.DatabaseError as exc:
            raise CommandError(_unusable(paths[1], str(exc))) from None
    return store


def refuse_unless_database(path: str) -> None:
    """CommandError unless `path` is missing, empty, or a file that starts as a SQLite database
    does (read, never written: a pipe or a device is refused before it is opened)."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CommandError(_unusable(path, exc.strerror or str(exc))) from None
    if not stat.S_ISREG(found.st_mode):
        raise CommandError(_unusable(path, "a folder, a device or a pipe, not a file"))
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise CommandError(_unusable(path, exc.strerror or str(exc))) from None
    if head and head != SQLITE_HEADER:
        raise CommandError(_unusable(path, "file is not a database"))


def _unusable(path: str, reason: str) -> str:
    return (f"{click.format_filename(path)}: cannot use it as the service's database ({reason}); "
            "check FLASK_DATABASE / ACCESS_DATABASE")


def not_utf8(text: str) -> str | None:
    """What in `text` is not UTF-8 text, in words (`byte 0xff`: a byte the command line could not
    decode, kept as a surrogate escape; `U+D800`: a lone surrogate), or None when it all is."""
    for char in text:
        if "\ud800" <= char <= "\udfff":
            return f"byte 0x{ord(char) - 0xDC00:02x}" if "\udc80" <= char <= "\udcff" else f"U+{ord(char):04X}"
    return None


class Text(click.ParamType):
    """Free text of a command's argument or option: refused, exit 2, when it holds bytes that are
    not UTF-8 (they could be neither stored nor shown)."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = value if isinstance(value, str) else str(value)
        bad = not_utf8(text)
        if bad is not None:
            self.fail(f"not UTF-8 text ({bad}); give it in UTF-8", param, ctx)
        return text


TEXT = Text()


def utf8_line(stream: IO[bytes], what: str) -> str:
    """The first line of a binary stream without its line end, decoded strictly as UTF-8;
    CommandError naming `what` and the first bad byte otherwise."""
    raw = stream.readline()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{what} is not UTF-8 text (byte {exc.start + 1} of the line)") from None
    return text.rstrip("\r\n")


__all__ = ["TEXT", "CommandError", "Text", "not_utf8", "open_store", "utf8_line"]
