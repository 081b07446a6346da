"""What a batch reads: the inputs named on the command line, split into partitions of bounded size.

A partition is a small, picklable descriptor (a file and a byte range of its lines, a list of
`.json` files, a zip and a range of its members, a zip member and a range of its lines): the
planner reads only what it needs to place the boundaries (newline offsets, a zip's directory),
never a whole corpus into one process, and the worker that gets the descriptor reads its own
slice. Each partition yields `Document`s in input order: the bytes of one JSON document with
where they came from, or the reason they could not be read (not UTF-8, not JSON, a broken zip),
which the batch turns into an `invalid` row naming the path instead of stopping.

Planning is deterministic: the same inputs and sizes give the same partitions in the same
order, so partition numbers (and file names) are stable across runs, which is what `--resume`
relies on. Another source (the service's SQLite store, `batch.store_source`) only has to
provide partitions with the same small interface (`Partition`).
"""
from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from audit.api import JsonTextError, Origin, line_text, loads
from records.ingest import LINES_EXTENSIONS, RECORD_EXTENSIONS, ZIP_ERRORS, ZIP_EXTENSIONS, junk_reason

FOLDER_SKIPPED = (".audit.json",)
"""Expected audits lying next to records in a folder (samples/, spec/examples/): not records."""
FOLDER_SKIPPED_NAMES = ("manifest.json",)
"""samples/manifest.json says what each sample must get; it is not a record either."""
MiB = 1024 * 1024
MAX_DOCUMENT_BYTES = 64 * MiB
"""Largest single JSON document (a .json file, a zip member, a line) read into memory."""
CHUNK = MiB
"""Bytes read at a time when the planner looks for line boundaries."""
LINE_BUFFER = MiB
"""The read buffer of a lines partition: with the default 8 KiB most records (about 7 KiB a line)
straddle a refill, and `readline` cost 8.3 us a line instead of 3.6 (docs/batch.md, fourth pass)."""


@dataclass(frozen=True)
class Unreadable:
    """Why a document could not be read: a catalogue code (kind schema, rule R16.9) and its params."""

    code: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Document:
    """One JSON document to audit (a record or a match), or the reason it cannot be.

    `pick` is set when only one hand of a match is wanted (the store keeps match hands as
    records: the whole match is audited, for continuity, and hand `pick` kept)."""

    origin: Origin
    raw: bytes | None
    problem: Unreadable | None = None
    pick: int | None = None
    cache_key: str | None = None
    """Documents with the same key have the same bytes (a match read once per hand): audited once."""


class Partition(Protocol):
    """What the batch needs of a partition: a stable key, its inputs in words, an estimate of
    its hands for the progress line, and its documents (read on the worker)."""

    @property
    def key(self) -> str:
        """A stable description: same inputs, same key (the resume check compares them)."""

    @property
    def estimate(self) -> int:
        """Hands expected (lines, files or members; a match counts as one)."""

    def inputs(self) -> list[str]:
        """The inputs of this partition, as a person would name them (for the failure report)."""

    def read(self) -> Iterator[Document]:
        """Its documents in input order."""


@dataclass(frozen=True)
class LinesPartition:
    """Lines `first_line`.. of a .jsonl file, bytes [start, end) (boundaries after a newline)."""

    path: str
    display: str
    start: int
    end: int
    first_line: int
    lines: int

    @property
    def key(self) -> str:
        return f"lines:{self.display}:{self.start}-{self.end}"

    @property
    def estimate(self) -> int:
        return self.lines

    def inputs(self) -> list[str]:
        return [f"{self.display} lines {self.first_line}-{self.first_line + self.lines - 1}"]

    def read(self) -> Iterator[Document]:
        try:
            with open(self.path, "rb", buffering=LINE_BUFFER) as stream:
                stream.seek(self.start)
                yield from _lines(stream, self.display, None, self.first_line, self.end - self.start)
        except OSError as exc:
            yield Document(Origin(self.display), None, _unreadable(exc))


@dataclass(frozen=True)
class FilesPartition:
    """Whole `.json` files (each one record or one match), in order."""

    paths: tuple[str, ...]
    displays: tuple[str, ...]

    @property
    def key(self) -> str:
        return "files:" + "|".join(self.displays)

    @property
    def estimate(self) -> int:
        return len(self.paths)

    def inputs(self) -> list[str]:
        return list(self.displays)

    def read(self) -> Iterator[Document]:
        for path, display in zip(self.paths, self.displays):
            try:
                size = os.path.getsize(path)
                if size > MAX_DOCUMENT_BYTES:
                    yield Document(Origin(display), None, _too_big(size))
                    continue
                with open(path, "rb") as stream:
                    yield Document(Origin(display), stream.read())
            except OSError as exc:
                yield Document(Origin(display), None, _unreadable(exc))


@dataclass(frozen=True)
class ZipMembersPartition:
    """`.json` members `indexes` of a zip (positions in its directory)."""

    path: str
    display: str
    indexes: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"zip:{self.display}:" + ",".join(map(str, self.indexes))

    @property
    def estimate(self) -> int:
        return len(self.indexes)

    def inputs(self) -> list[str]:
        return [f"{self.display}!{name}" for name in self.names]

    def read(self) -> Iterator[Document]:
        try:
            archive = zipfile.ZipFile(self.path)
        except ZIP_ERRORS as exc:
            yield from (Document(Origin(self.display, name), None, _unreadable(exc)) for name in self.names)
            return
        with archive:
            infos = archive.infolist()
            for index, name in zip(self.indexes, self.names):
                where = Origin(self.display, name)
                try:
                    info = infos[index]
                    if info.file_size > MAX_DOCUMENT_BYTES:
                        yield Document(where, None, _too_big(info.file_size))
                        continue
                    with archive.open(info) as stream:
                        data = stream.read(MAX_DOCUMENT_BYTES + 1)
                except ZIP_ERRORS as exc:
                    yield Document(where, None, _unreadable(exc))
                    continue
                if len(data) > MAX_DOCUMENT_BYTES:  # the header lied about the size
                    yield Document(where, None, _too_big(len(data)))
                else:
                    yield Document(where, data)


@dataclass(frozen=True)
class ZipLinesPartition:
    """Lines `first_line`.. (`lines` of them) of a .jsonl member of a zip."""

    path: str
    display: str
    index: int
    name: str
    first_line: int
    lines: int

    @property
    def key(self) -> str:
        return f"ziplines:{self.display}!{self.name}#{self.index}:{self.first_line}+{self.lines}"

    @property
    def estimate(self) -> int:
        return self.lines

    def inputs(self) -> list[str]:
        return [f"{self.display}!{self.name} lines {self.first_line}-{self.first_line + self.lines - 1}"]

    def read(self) -> Iterator[Document]:
        try:
            with zipfile.ZipFile(self.path) as archive, archive.open(archive.infolist()[self.index]) as stream:
                for _ in range(self.first_line - 1):
                    _read_line(stream)
                yield from _lines(stream, self.display, self.name, self.first_line, None, self.lines)
        except ZIP_ERRORS as exc:
            yield Document(Origin(self.display, self.name, self.first_line), None, _unreadable(exc))


@dataclass(frozen=True)
class BrokenPartition:
    """An input the planner could not open (a corrupt zip, a missing file): one invalid row."""

    display: str
    problem: Unreadable

    @property
    def key(self) -> str:
        return f"broken:{self.display}"

    @property
    def estimate(self) -> int:
        return 1

    def inputs(self) -> list[str]:
        return [self.display]

    def read(self) -> Iterator[Document]:
        yield Document(Origin(self.display), None, self.problem)


@dataclass
class Plan:
    """The partitions of a batch, in order, and what was left out (with why)."""

    partitions: list[Partition] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Sizes:
    """Bounds on a partition: this many hands (lines, files, members), this many bytes."""

    hands: int = 2000
    bytes: int = 128 * MiB


def plan(inputs: Sequence[str], sizes: Sizes = Sizes()) -> Plan:
    """Partitions for every input: files by their suffix, folders walked in sorted order."""
    out = Plan()
    files: list[tuple[str, str]] = []  # pending .json files, grouped into FilesPartitions
    seen: set[str] = set()
    for name in inputs:
        for path, display in _expand(name, out.skipped):
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            lowered = display.lower()
            if lowered.endswith(RECORD_EXTENSIONS):
                files.append((real, display))
                if len(files) >= sizes.hands:
                    out.partitions.append(_files(files))
                    files = []
                continue
            if files:
                out.partitions.append(_files(files))
                files = []
            if lowered.endswith(LINES_EXTENSIONS):
                out.partitions += _plan_lines(real, display, sizes)
            elif lowered.endswith(ZIP_EXTENSIONS):
                out.partitions += _plan_zip(real, display, sizes, out.skipped)
            else:
                out.partitions.append(BrokenPartition(display, Unreadable("unreadable_input", {
                    "error": "not a .json, .jsonl or .zip file"})))
    if files:
        out.partitions.append(_files(files))
    return out


def _files(files: list[tuple[str, str]]) -> FilesPartition:
    return FilesPartition(tuple(p for p, _ in files), tuple(d for _, d in files))


def _expand(name: str, skipped: list[str]) -> Iterator[tuple[str, str]]:
    """(path, display name) of an input; a folder gives its record files in sorted order."""
    path = Path(name)
    if not path.is_dir():
        yield str(path.resolve()) if path.exists() else name, name
        return
    for child in sorted(path.rglob("*")):
        if not child.is_file():
            continue
        display = str(child)
        lowered = child.name.lower()
        if lowered.endswith(FOLDER_SKIPPED) or lowered in FOLDER_SKIPPED_NAMES:
            skipped.append(f"{display}: an expected audit or a manifest, not a record")
        elif lowered.endswith(RECORD_EXTENSIONS + LINES_EXTENSIONS + ZIP_EXTENSIONS):
            yield str(child.resolve()), display
        else:
            skipped.append(f"{display}: not a .json, .jsonl or .zip file")


def _plan_lines(path: str, display: str, sizes: Sizes) -> list[Partition]:
    """Byte ranges of at most `sizes.hands` lines and about `sizes.bytes` bytes, found by
    reading the file a chunk at a time (only newline offsets are kept)."""
    try:
        stream = open(path, "rb")
    except OSError as exc:
        return [BrokenPartition(display, _unreadable(exc))]
    parts: list[Partition] = []
    with stream:
        start, line, count, offset = 0, 1, 0, 0
        while chunk := stream.read(CHUNK):
            position = chunk.find(b"\n")
            while position >= 0:
                count += 1
                end = offset + position + 1
                if count >= sizes.hands or end - start >= sizes.bytes:
                    parts.append(LinesPartition(path, display, start, end, line, count))
                    start, line, count = end, line + count, 0
                position = chunk.find(b"\n", position + 1)
            offset += len(chunk)
        if offset > start:  # a last line without a newline
            parts.append(LinesPartition(path, display, start, offset, line, count + 1))
    return parts


def _plan_zip(path: str, display: str, sizes: Sizes, skipped: list[str]) -> list[Partition]:
    """Groups of .json members, and line ranges of .jsonl members, of a zip in directory order."""
    try:
        archive = zipfile.ZipFile(path)
    except ZIP_ERRORS as exc:
        return [BrokenPartition(display, Unreadable("unreadable_input", {"error": f"not a readable zip file ({exc})"}))]
    parts: list[Partition] = []
    group: list[tuple[int, str]] = []
    group_bytes = 0
    with archive:
        for index, info in enumerate(archive.infolist()):
            name = info.filename
            if name and info.is_dir():  # is_dir() raises IndexError on an empty name
                continue
            junk = junk_reason(name) if name else "a member without a name"
            if junk:
                skipped.append(f"{display}!{name}: {junk}")
                continue
            if name.lower().endswith(LINES_EXTENSIONS):
                if group:  # members stay in directory order whatever the partition size
                    parts.append(_members(path, display, group))
                    group, group_bytes = [], 0
                parts += _plan_zip_lines(archive, info, index, path, display, sizes)
                continue
            group.append((index, name))
            group_bytes += info.file_size
            if len(group) >= sizes.hands or group_bytes >= sizes.bytes:
                parts.append(_members(path, display, group))
                group, group_bytes = [], 0
    if group:
        parts.append(_members(path, display, group))
    return parts


def _members(path: str, display: str, group: list[tuple[int, str]]) -> ZipMembersPartition:
    return ZipMembersPartition(path, display, tuple(i for i, _ in group), tuple(n for _, n in group))


def _plan_zip_lines(archive: zipfile.ZipFile, info: zipfile.ZipInfo, index: int, path: str, display: str,
                    sizes: Sizes) -> list[Partition]:
    """Line ranges of a .jsonl member, counted by streaming it once."""
    parts: list[Partition] = []
    first, count, held = 1, 0, 0
    try:
        with archive.open(info) as stream:
            while True:
                line = _read_line(stream)
                if not line:
                    break
                count += 1
                held += len(line)
                if count >= sizes.hands or held >= sizes.bytes:
                    parts.append(ZipLinesPartition(path, display, index, info.filename, first, count))
                    first, count, held = first + count, 0, 0
    except ZIP_ERRORS as exc:
        parts.append(BrokenPartition(f"{display}!{info.filename}", _unreadable(exc)))
        return parts
    if count:
        parts.append(ZipLinesPartition(path, display, index, info.filename, first, count))
    return parts


def _read_line(stream: Any) -> bytes:
    """One line, newline kept, at most MAX_DOCUMENT_BYTES + 1 bytes (the rest of a monster line is skipped)."""
    line: bytes = stream.readline(MAX_DOCUMENT_BYTES + 1)
    if len(line) > MAX_DOCUMENT_BYTES and not line.endswith(b"\n"):
        while (rest := stream.readline(MiB)) and not rest.endswith(b"\n"):
            pass
    return line


def _lines(stream: Any, display: str, member: str | None, first_line: int, budget: int | None,
           count: int | None = None) -> Iterator[Document]:
    """Documents of the lines read from `stream`: up to `budget` bytes or `count` lines. The
    stream's `readline` ends a line at `\\n` only; `jsontext.line_text` drops the line end, a
    byte order mark on line 1, and blank lines, as every `.jsonl` reader does."""
    number, used, read = first_line, 0, 0
    while (budget is None or used < budget) and (count is None or read < count):
        line = _read_line(stream)
        if not line:
            return
        used += len(line)
        read += 1
        where = Origin(display, member, number)
        number += 1
        if len(line) > MAX_DOCUMENT_BYTES:
            yield Document(where, None, _too_big(len(line)))
            continue
        text = line_text(line, first=where.line == 1)  # the one line reader's rules
        if text is not None:
            yield Document(where, text)


def _unreadable(exc: BaseException) -> Unreadable:
    return Unreadable("unreadable_input", {"error": str(exc) or type(exc).__name__})


def _too_big(size: int) -> Unreadable:
    return Unreadable("unreadable_input", {"error": f"{size} bytes, over the limit of {MAX_DOCUMENT_BYTES} bytes"})


def parse(document: Document) -> tuple[Any, Unreadable | None]:
    """The parsed JSON of a document, or why it is not JSON (`not_utf8`, `not_json`)."""
    if document.problem is not None or document.raw is None:
        return None, document.problem or Unreadable("unreadable_input", {"error": "no bytes"})
    try:  # strictly, as `python -m audit` and the upload read it, so all three give the same answer
        return loads(document.raw), None  # a byte order mark is accepted
    except JsonTextError as exc:
        return None, unreadable_json(exc)


def unreadable_json(exc: JsonTextError) -> Unreadable:
    """The row's finding for a text the strict reader refused: `not_utf8`, `not_json` (with line and
    column), or `json_refused` naming the JSON path and why (an integer past 64 bits, a lone
    surrogate, a repeated key, a non-finite number, nesting too deep)."""
    if exc.reason == "not_utf8":
        return Unreadable("not_utf8", {"byte": exc.byte or 0})
    if exc.line is not None:
        return Unreadable("not_json", {"error": exc.message.removeprefix("malformed JSON: "), "line": exc.line,
                                       "column": exc.column})
    return Unreadable("json_refused", {"path": exc.path or "$", "reason": exc.reason})


__all__ = ["BrokenPartition", "Document", "FilesPartition", "LinesPartition", "Origin", "Partition", "Plan",
           "Sizes", "Unreadable", "ZipLinesPartition", "ZipMembersPartition", "parse", "plan"]
