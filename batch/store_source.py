"""The service's store as a batch source: partitions of record ids, read on the worker.

`python -m batch --from-db PATH` audits the current revision of every stored record;
`flask reaudit` audits the records it selected and writes the audits back (batch.reaudit).
Either way a partition is only a path and ids (a range, or a list), and the worker opens the
database read-only itself, so no record passes through the driver. A hand of a match is
audited with its whole match, as `Pipeline.what_if` does (continuity is part of its audit): the
match is read once per partition and its hands picked from the one audit.
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from audit.cli import UsageError
from batch.inputs import Document, Origin, Partition, Sizes, Unreadable


def connect_read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot write (the store's writers are the service and `flask reaudit`)."""
    uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=30)
    connection.execute("PRAGMA query_only = 1")
    return connection


@dataclass(frozen=True)
class StorePartition:
    """Records of the store at `path`: ids `first`..`last` (current revisions only when
    `current`), or exactly `ids` when given (a selection, in that order)."""

    path: str
    display: str
    first: int = 0
    last: int = 0
    current: bool = True
    ids: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        if self.ids:
            return f"store:{self.display}:ids:{self.ids[0]}-{self.ids[-1]}+{len(self.ids)}"
        return f"store:{self.display}:{self.first}-{self.last}{':current' if self.current else ''}"

    @property
    def estimate(self) -> int:
        return len(self.ids) if self.ids else self.last - self.first + 1

    def inputs(self) -> list[str]:
        if self.ids:
            return [f"{self.display} records {', '.join(map(str, self.ids))}"]
        return [f"{self.display} records {self.first}-{self.last}"]

    def read(self) -> Iterator[Document]:
        try:
            connection = connect_read_only(self.path)
        except sqlite3.Error as exc:
            yield Document(Origin(self.display), None, Unreadable("unreadable_input", {"error": str(exc)}))
            return
        try:
            yield from self._documents(connection)
        finally:
            connection.close()

    def _rows(self, connection: sqlite3.Connection) -> Iterator[tuple[int, int | None, int | None, bytes]]:
        select = ("SELECT r.id, r.match_id, r.match_index, d.raw FROM records r "
                  "JOIN documents d ON d.id = r.document_id ")
        if self.ids:
            for start in range(0, len(self.ids), 500):
                chunk = self.ids[start:start + 500]
                marks = ", ".join("?" * len(chunk))
                found = {row[0]: row for row in connection.execute(f"{select} WHERE r.id IN ({marks})", chunk)}
                yield from (found[i] for i in chunk if i in found)
            return
        current = " AND r.is_current = 1" if self.current else ""
        yield from connection.execute(f"{select} WHERE r.id BETWEEN ? AND ?{current} ORDER BY r.id",
                                      [self.first, self.last])

    def _documents(self, connection: sqlite3.Connection) -> Iterator[Document]:
        matches: dict[int, bytes] = {}
        for record_id, match_id, match_index, raw in self._rows(connection):
            where = Origin(self.display, record_id=record_id)
            if match_id is None:
                yield Document(where, bytes(raw))
                continue
            if match_id not in matches:
                row = connection.execute("SELECT d.raw FROM matches m JOIN documents d ON d.id = m.document_id "
                                         "WHERE m.id = ?", [match_id]).fetchone()
                matches = {match_id: bytes(row[0])}  # a match's hands are stored one after the other
            yield Document(where, matches[match_id], pick=match_index, cache_key=f"match:{match_id}")


class StoreError(UsageError):
    """`--from-db` names a file that is not the service's store (not a SQLite database, an empty
    file, another program's database): the batch does not start (exit 2)."""


def plan_store(path: str, sizes: Sizes = Sizes(), *, current: bool = True) -> list[Partition]:
    """Id ranges of at most `sizes.hands` records each, walking the ids in order (only ids are
    read, read-only: the file is never written); StoreError when it is not the service's store."""
    if os.path.isfile(path) and os.path.getsize(path) == 0:
        raise StoreError(f"--from-db {path}: an empty file, not the service's database")
    try:
        return _plan_store(path, sizes, current)
    except sqlite3.Error as exc:
        raise StoreError(f"--from-db {path}: not the service's database ({exc})") from None


def _plan_store(path: str, sizes: Sizes, current: bool) -> list[Partition]:
    connection = connect_read_only(path)
    try:
        where = " WHERE is_current = 1" if current else ""
        parts: list[Partition] = []
        first: int | None = None
        count, last = 0, 0
        for (record_id,) in connection.execute(f"SELECT id FROM records{where} ORDER BY id"):
            if first is None:
                first = record_id
            count, last = count + 1, record_id
            if count >= sizes.hands:
                parts.append(StorePartition(path, path, first, last, current))
                first, count = None, 0
        if first is not None:
            parts.append(StorePartition(path, path, first, last, current))
        return parts
    finally:
        connection.close()


def selection(path: str, ids: Sequence[int], size: int) -> list[StorePartition]:
    """Partitions of exactly these records, `size` at a time, in the given order."""
    return [StorePartition(path, path, ids=tuple(ids[start:start + size])) for start in range(0, len(ids), size)]


__all__ = ["StoreError", "StorePartition", "connect_read_only", "plan_store", "selection"]
