"""The index of the records' search texts (issue 23.7): a search answered from an index, not a scan.

A search finds the records whose folded text (`records.search`) contains the folded query, and
that must stay exactly what it was while it reads an index instead of every record's text (528
ms at 1,000,000 records as a scan). Two structures, both derived from `record_search` alone:

- `record_search_fts`, an FTS5 table with the trigram tokenizer over `record_search.text`
  (external content: it stores no text of its own), case-sensitive because the text is folded
  already. A query of three or more characters is one phrase of its trigrams, which matches
  exactly the texts containing it; the field separator is a character like any other, and no
  query contains it, so a match never spans two fields. SQLite keeps it: an insert into
  `record_search` fires a trigger that adds the row, in the same statement.
- `record_grams`, one row per distinct one- and two-character substring of each field with the
  record's id (`grams`), keyed (gram, record_id): the trigram tokenizer matches nothing shorter
  than three characters, and operators look for 王 or 阿明. A query of one or two characters is
  one range of that key. The store writes these rows next to the text, in the same transaction.

Both are derivable from the stored records: `record_search` from the records and their seats
(`records.search.record_text`), the index from `record_search` (`rebuild`, which m011 runs).
`differences` is what `flask verify` checks: the grams against a recomputation from the texts,
fingerprinted per term (how many postings, the sum of their ids and of their squares modulo a
prime), so any missing, extra or moved posting shows; and the trigram index three ways, since FTS5
keeps it in tables of its own (`_data` pages, the `_idx` b-tree over them, `_docsize`, `_config`)
that a scan and a search read differently (issue 34.6): FTS5's integrity-check on a copy, with the
settings and the segments the structure record lists (`_structure`); every term with its record
and occurrence counts as a scan reads them (fts5vocab); every term the texts hold looked up as a
search looks it up, through the b-tree, fingerprinted (`_lookups`). What SQLite cannot read is
named, never raised. `reindex` (`flask reindex`) derives the texts from the records and both
indexes from the texts again, whatever state they are in. A search that the index cannot answer
raises `SearchIndexDamaged` (`reading`), which the service shows as a 503 page naming the
commands. The texts never change after the record is written (they come from columns m004 makes
immutable): m011 refuses UPDATE and DELETE on `record_search` as m004 does on the seats, so the
external content cannot drift. No Flask.
"""
from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from operator import add
from typing import Any

from sqlite_utils import Database

from records import search
from records.search import SEPARATOR

SHORT = 2
"""Longest folded query, in characters, answered from `record_grams`; longer ones from the trigrams."""
PRIME = 1_000_000_007
"""Modulus of the sum of squared ids in a term's fingerprint (keeps SQLite's integer sum in range)."""
BATCH = 20_000
"""Texts read per step while the index is rebuilt."""

FTS = "record_search_fts"
GRAMS = "record_grams"


@dataclass(frozen=True)
class Hits:
    """How the records a folded query finds are read: `source` joins them to `records r`
    (driving from the index, so a page along the id order stops after its rows), `clause`
    with its one parameter `param` selects them, `order` is their id in the index's order, and
    `ids` is the same selection as a sub-query of record ids (for `r.id IN (...)`)."""

    source: str
    clause: str
    param: str
    order: str
    ids: str


def hits(folded: str) -> Hits:
    """The index that answers a non-empty folded query: the grams for one or two characters,
    the trigram phrase for more."""
    if len(folded) <= SHORT:
        return Hits(f"{GRAMS} g CROSS JOIN records r ON r.id = g.record_id", "g.gram = ?", folded, "g.record_id",
                    f"SELECT record_id FROM {GRAMS} WHERE gram = ?")
    phrase = '"' + folded.replace('"', '""') + '"'
    return Hits(f"{FTS} f CROSS JOIN records r ON r.id = f.rowid", f"f.{FTS} MATCH ?", phrase, "f.rowid",
                f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH ?")


class SearchIndexDamaged(Exception):
    """A search SQLite could not answer from the indexes (`reading`): damaged, or changed behind the
    store's back; `flask verify` names what is wrong and `flask reindex` derives them again."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


@contextmanager
def reading() -> Iterator[None]:
    """Around the statements of a search that read the indexes: SQLite's refusal to read them
    ("database disk image is malformed", "vtable constructor failed", a table gone) becomes
    `SearchIndexDamaged`, which the service answers with a page saying so, never a 500."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        raise SearchIndexDamaged(str(error)) from error


def fields(text: str) -> list[str]:
    """The folded fields of a search text."""
    return [part for part in text.split(SEPARATOR) if part]


def grams(text: str) -> set[str]:
    """Every distinct substring of one or two characters of each field of a search text (never
    across the separator): the terms `record_grams` holds for it."""
    found: set[str] = set()
    for part in fields(text):
        found.update(part)
        found.update(part[i:i + 2] for i in range(len(part) - 1))
    return found


def trigrams(text: str) -> Iterator[str]:
    """Every trigram of a whole search text, separators included, in order and with repeats: what
    FTS5's trigram tokenizer makes of it (the fingerprint of `record_search_fts` counts them)."""
    return (text[i:i + 3] for i in range(len(text) - 2))


def index(db: Database, rows: Iterable[tuple[int, str]]) -> None:
    """Write the grams of (record_id, text) pairs; the caller's transaction holds them together
    with the texts (the trigram index follows `record_search` by its trigger)."""
    db.conn.executemany(f"INSERT INTO {GRAMS} (gram, record_id) VALUES (?, ?)",
                        [(gram, record_id) for record_id, text in rows for gram in grams(text)])


FTS_ARGS = "fts5(text, content='record_search', content_rowid='record_id', tokenize='trigram case_sensitive 1')"
"""The trigram index's module and arguments, as m011 wrote them."""
SHADOWS = ("data", "idx", "docsize", "config")
"""FTS5's own tables of the trigram index (`record_search_fts_data`, ...)."""
OBJECTS = {
    FTS: f"CREATE VIRTUAL TABLE {FTS} USING {FTS_ARGS}",
    GRAMS: f"CREATE TABLE {GRAMS} (gram TEXT NOT NULL, record_id INTEGER NOT NULL REFERENCES records(id), "
           "PRIMARY KEY (gram, record_id)) WITHOUT ROWID",
    "record_search_indexed": "CREATE TRIGGER record_search_indexed AFTER INSERT ON record_search "
                             f"BEGIN INSERT INTO {FTS} (rowid, text) VALUES (NEW.record_id, NEW.text); END",
    **{f"record_search_no_{event.lower()}": f"CREATE TRIGGER record_search_no_{event.lower()} BEFORE {event} ON "
       f"record_search BEGIN SELECT RAISE(ABORT, 'record_search is derived from immutable columns: {event} refused'); END"
       for event in ("UPDATE", "DELETE")},
}
"""What m011 makes, by name, in its order: both indexes, the trigger that keeps the trigram index
and the refusals on `record_search` (`reindex` makes again whichever is missing)."""
TRIGGERS = ("record_search_indexed", "record_search_no_update", "record_search_no_delete")


def install(db: Database) -> None:
    """Create both indexes, their trigger and the refusals on `record_search`, then fill them from
    the texts already stored (`rebuild`)."""
    for sql in OBJECTS.values():
        db.execute(sql)
    rebuild(db)


def rebuild(db: Database) -> None:
    """Derive both indexes again from `record_search` (whatever they held before). FTS5 rebuilds
    its index only where it can still open it and keeps its settings: where it cannot (its settings
    or its structure record gone, one of its tables dropped) or they are not a new table's, its
    tables are first made anew (`_reset`)."""
    if not _rebuilt(db):
        _reset(db)
        db.execute(f"INSERT INTO {FTS} ({FTS}) VALUES ('rebuild')")
    db.execute(f"DELETE FROM {GRAMS}")
    last = 0
    while True:
        rows = db.execute("SELECT record_id, text FROM record_search WHERE record_id > ? ORDER BY record_id LIMIT ?",
                          [last, BATCH]).fetchall()
        if not rows:
            return
        index(db, rows)
        last = rows[-1][0]


def _rebuilt(db: Database) -> bool:
    """FTS5's own rebuild, where the index opens and its settings are those of a new table; False,
    and nothing changed, where not."""
    db.execute("SAVEPOINT search_rebuild")
    try:
        if db.execute(f"SELECT k, v FROM main.{FTS}_config ORDER BY k").fetchall() != _fresh(db):
            return False
        db.execute(f"INSERT INTO {FTS} ({FTS}) VALUES ('rebuild')")
        return True
    except sqlite3.DatabaseError:
        db.execute("ROLLBACK TO search_rebuild")
        return False
    finally:
        db.execute("RELEASE search_rebuild")


def _fresh(db: Database) -> list[tuple[Any, Any]]:
    """The settings (`_config`) of a new trigram index, from a table of the same definition made
    in `temp` (`temp.record_search_fts_fresh`, kept for `_reset`)."""
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{FTS}_fresh USING {FTS_ARGS}")
    return db.execute(f"SELECT k, v FROM temp.{FTS}_fresh_config ORDER BY k").fetchall()


def _reset(db: Database) -> None:
    """FTS5's tables of the trigram index made anew, empty, as FTS5 makes them for a new table (the
    table in `temp` says how): what `rebuild` needs when FTS5 cannot open the index to rebuild it."""
    _fresh(db)
    for shadow in SHADOWS:
        sql = db.execute("SELECT sql FROM temp.sqlite_master WHERE name = ?", [f"{FTS}_fresh_{shadow}"]).fetchone()[0]
        db.execute(f"DROP TABLE IF EXISTS main.{FTS}_{shadow}")
        db.execute(sql.replace(f"'{FTS}_fresh_{shadow}'", f"main.'{FTS}_{shadow}'", 1))
        db.execute(f"INSERT INTO main.{FTS}_{shadow} SELECT * FROM temp.{FTS}_fresh_{shadow}")


@dataclass(frozen=True)
class Reindexed:
    """What `reindex` did: the texts the indexes were built from, the texts it wrote again because
    they were not what their record makes (`rewritten`), wrote for a record without one (`added`) or
    removed for a record that does not exist (`removed`), and the objects of m011 it made again."""

    texts: int
    rewritten: int
    added: int
    removed: int
    recreated: tuple[str, ...]


def reindex(db: Database) -> Reindexed:
    """The search texts recomputed from the records and their seats, then both indexes derived
    again from them (`rebuild`), in the caller's transaction: after it `differences` finds nothing
    and every search answers from the records as they are. The refusals on `record_search` are
    lifted while it writes the texts, and m011's objects that are missing are made again."""
    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    recreated = tuple(name for name in OBJECTS if name not in present)
    for trigger in TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    rewritten = added = 0
    last = 0
    while True:  # a batch at a time, read whole before it is written
        rows = db.execute("SELECT r.id, r.game_id, r.platform, r.client, s.text FROM records r LEFT JOIN record_search s "
                          "ON s.record_id = r.id WHERE r.id > ? ORDER BY r.id LIMIT ?", [last, BATCH]).fetchall()
        if not rows:
            break
        seats: dict[int, list[dict[str, Any]]] = {}
        for record_id, name, player_id in db.execute(
                "SELECT record_id, name, player_id FROM record_players WHERE record_id BETWEEN ? AND ? "
                "ORDER BY record_id, seat", [rows[0][0], rows[-1][0]]):
            seats.setdefault(record_id, []).append({"name": name, "player_id": player_id})
        for record_id, game_id, platform, client, stored in rows:
            text = search.record_text(game_id, platform, client, seats.get(record_id, []))
            if stored is None:
                db.execute("INSERT INTO record_search (record_id, text) VALUES (?, ?)", [record_id, text])
                added += 1
            elif stored != text:
                db.execute("UPDATE record_search SET text = ? WHERE record_id = ?", [text, record_id])
                rewritten += 1
        last = rows[-1][0]
    removed = db.execute("DELETE FROM record_search WHERE record_id NOT IN (SELECT id FROM records)").rowcount
    if FTS not in present:
        for shadow in SHADOWS:
            db.execute(f"DROP TABLE IF EXISTS {FTS}_{shadow}")
    for name, sql in OBJECTS.items():
        if name in TRIGGERS or name not in present:
            db.execute(sql)
    rebuild(db)
    texts = int(db.execute("SELECT count(*) FROM record_search").fetchone()[0])
    return Reindexed(texts, rewritten, added, max(removed, 0), recreated)


Fingerprint = tuple[int, int, int]
"""Of one term's postings: how many, the sum of their record ids, the sum of the squared ids mod PRIME."""

DIFFERS = "search_index_differs"
"""Code of a term whose postings in an index are not those the stored search texts give."""
LOOKUP = "search_lookup_differs"
"""Code of a term that a search through the trigram index (its b-tree, `_idx`) finds in other
records than the texts hold it: what a `q=` search would answer wrongly."""
DAMAGED = "search_index_damaged"
"""Code of an index SQLite cannot read, or whose FTS5 structure is not consistent (integrity-check,
settings, rows of segments the index does not have)."""
SEGMENT_SHIFT = 37
"""An FTS5 page's id in `_data` is its segment id shifted by this many bits plus the page number
(FTS5_SEGMENT_ROWID: 31 bits of page, 5 of height, 1 for the doclist index), part of the file format."""
TOMBSTONES = 1 << 16
"""Added to a segment id for the ids of its tombstone pages (FTS5 since 3.43's contentless delete)."""
STRUCTURE_ID = 10
"""The `_data` row holding the FTS5 structure: the levels and their segments (page 1 holds averages)."""
LOOKUP_ERRORS = 3
"""Lookups that fail before the rest are left out (a table SQLite cannot open fails every one)."""


@dataclass(frozen=True)
class Difference:
    """One thing `differences` found: its `code` (DIFFERS, LOOKUP, DAMAGED), the index, what."""

    code: str
    index: str
    text: str

    def line(self) -> str:
        """The index, then what is wrong with it."""
        return f"{self.index}: {self.text}"


@dataclass
class Expected:
    """What both indexes should hold, recomputed from the stored texts: a fingerprint per gram, a
    fingerprint per trigram of the records holding it (what a lookup returns), and how often each
    trigram occurs in all the texts (repeats counted, what the index stores as positions)."""

    grams: dict[str, list[int]]
    trigrams: dict[str, list[int]]
    occurrences: Counter[str]
    texts: int
    tokens: int


def expected(db: Database) -> Expected:
    """The fingerprints both indexes should have, from the stored texts (one pass, the sums of
    squares reduced at the end: this loop is most of what checking the indexes costs)."""
    gram_prints: dict[str, list[int]] = {}
    trigram_prints: dict[str, list[int]] = {}
    occurrences: Counter[str] = Counter()
    texts = tokens = 0
    for record_id, text in db.execute("SELECT record_id, text FROM record_search"):
        square = record_id * record_id
        pairs = list(map(add, text, text[1:]))
        found = list(map(add, pairs, text[2:]))  # trigrams(text), built in C
        occurrences.update(found)
        texts += 1
        tokens += len(found)
        for term in set(found):
            entry = trigram_prints.get(term)
            if entry is None:
                trigram_prints[term] = [1, record_id, square]
            else:
                entry[0] += 1
                entry[1] += record_id
                entry[2] += square
        singles = set(text)
        singles.update(pairs)
        for gram in singles:  # grams(text): no gram holds the separator
            if SEPARATOR in gram:
                continue
            entry = gram_prints.get(gram)
            if entry is None:
                gram_prints[gram] = [1, record_id, square]
            else:
                entry[0] += 1
                entry[1] += record_id
                entry[2] += square
    for prints in (gram_prints, trigram_prints):
        for entry in prints.values():
            entry[2] %= PRIME
    return Expected(gram_prints, trigram_prints, occurrences, texts, tokens)


def _varint_bytes(value: int) -> bytes:
    """SQLite's varint of a non-negative number (the inverse of `_varint`)."""
    if value > 0x00FFFFFFFFFFFFFF:
        head = value >> 8
        return bytes([0x80 | ((head >> (7 * (7 - i))) & 0x7F) for i in range(8)]) + bytes([value & 0xFF])
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(groups))


def _averages(db: Database, wanted: Expected) -> Iterator[str]:
    """The averages record (`_data` row 1: how many texts, how many tokens in all, for ranking)
    against the texts: FTS5's integrity-check reads the numbers it needs and no more."""
    row = db.execute(f"SELECT block FROM {FTS}_data WHERE id = 1").fetchone()
    should = _varint_bytes(wanted.texts) + _varint_bytes(wanted.tokens)
    if row is None or row[0] != should:
        yield f"its averages record (_data row 1) is {None if row is None else bytes(row[0])!r}, the texts make {should!r}"


def _compare(code: str, name: str, want: dict[str, list[int]], have: dict[str, Fingerprint],
             limit: int, what: str) -> Iterator[Difference]:
    """The terms whose fingerprints differ, at most `limit` named."""
    wrong = sorted(term for term in want.keys() | have.keys()
                   if tuple(want.get(term, (0, 0, 0))) != tuple(have.get(term, (0, 0, 0))))
    for term in wrong[:limit]:
        yield Difference(code, name, f"{what} {term!r} are not those of the stored search texts "
                                     f"({have.get(term, (0, 0, 0))[0]} held, {want.get(term, [0])[0]} expected)")
    if len(wrong) > limit:
        yield Difference(code, name, f"{len(wrong) - limit} more terms differ")


def _gram_prints(db: Database) -> dict[str, Fingerprint]:
    """The fingerprints `record_grams` holds, read in its own order."""
    square = f"sum((record_id * record_id) % {PRIME}) % {PRIME}"
    return {row[0]: (row[1], row[2], row[3]) for row in db.execute(
        f"SELECT gram, count(*), sum(record_id), {square} FROM {GRAMS} GROUP BY gram")}


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's varint at `at` (big-endian groups of seven bits, the ninth byte whole): (value, next)."""
    value = 0
    for offset in range(9):
        if at + offset >= len(data):
            raise ValueError("the structure record ends inside a number")
        byte = data[at + offset]
        if offset == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + offset + 1
    raise AssertionError("unreachable")


def segments(db: Database) -> dict[int, tuple[int, int]]:
    """The segments the FTS5 structure record lists: {segment id: (first page, last page)}. Its
    layout (fts5_index.c, fts5StructureDecode): a 4-byte cookie, the marker of the second version
    (FF 00 00 01, SQLite 3.43 on) when present, the number of levels, of segments, the write counter,
    then per level the segments being merged and their number, and per segment its id, first and
    last page (and five more numbers in the second version). ValueError when it does not read so."""
    row = db.execute(f"SELECT block FROM {FTS}_data WHERE id = ?", [STRUCTURE_ID]).fetchone()
    if row is None or not isinstance(row[0], bytes):
        raise ValueError("the structure record is missing")
    data, at = row[0], 4
    second = data[4:8] == b"\xff\x00\x00\x01"
    if second:
        at = 8
    levels, at = _varint(data, at)
    total, at = _varint(data, at)
    _, at = _varint(data, at)
    found: dict[int, tuple[int, int]] = {}
    for _level in range(levels):
        _, at = _varint(data, at)
        count, at = _varint(data, at)
        for _segment in range(count):
            segid, at = _varint(data, at)
            first, at = _varint(data, at)
            last, at = _varint(data, at)
            for _extra in range(5 if second else 0):
                _, at = _varint(data, at)
            found[segid] = (first, last)
    if len(found) != total or at != len(data):
        raise ValueError(f"the structure record lists {len(found)} segments in {levels} levels, it says {total}")
    return found


def _strays(db: Database, known: dict[int, tuple[int, int]]) -> Iterator[str]:
    """Rows of `_idx` and `_data` that belong to no segment of the structure, or lie outside their
    segment's pages: FTS5 never reads them, but the next segment it makes under such an id collides
    with them (an upload then fails). Each segment's leaves are exactly its pages from the first to
    the last (a merge deletes the pages before the first, `fts5TrimSegments`), and its b-tree holds
    at most one key per page, the pages rising with the keys, from the empty term (the first leaf's
    key) to a page of the segment: what FTS5 writes, merges included (checked on indexes merged step
    by step); a key FTS5 would not write can misdirect a search for a term no text holds yet."""
    for (segid,) in db.execute(f"SELECT DISTINCT segid FROM {FTS}_idx"):
        if segid not in known:
            yield f"b-tree rows (_idx) of segment {segid!r}, which the index does not have"
    leaves = f"SELECT min(id), max(id) FROM {FTS}_data WHERE id >= ? AND id < ?"
    for segid, (first, last) in sorted(known.items()):
        base = segid << SEGMENT_SHIFT
        held = tuple(db.execute(leaves, [base, base + (1 << (SEGMENT_SHIFT - 1))]).fetchone())
        if held != ((base + first, base + last) if first else (None, None)):
            yield f"segment {segid} has pages {first} to {last}, its leaves (_data) run from id {held[0]} to {held[1]}"
        keys = db.execute(f"SELECT term, pgno FROM {FTS}_idx WHERE segid = ? ORDER BY term", [segid]).fetchall()
        pages = [pgno >> 1 if isinstance(pgno, int) else -1 for _, pgno in keys]
        if first and (not keys or keys[0][0] != b"" or pages != sorted(set(pages)) or pages[0] < 1 or pages[-1] > last):
            yield (f"the b-tree (_idx) of segment {segid} is not one key per page, in the pages' order, "
                   "from the empty term")
    allowed = sorted({1, STRUCTURE_ID} | {base for segid in known
                                           for base in (segid << SEGMENT_SHIFT, (segid + TOMBSTONES) << SEGMENT_SHIFT)})
    low = None
    for start in allowed:  # the ids between the allowed ranges (a single id for rows 1 and 10)
        end = start + 1 if start <= STRUCTURE_ID else start + (1 << SEGMENT_SHIFT)
        row = db.execute(f"SELECT id FROM {FTS}_data WHERE id < ?" + ("" if low is None else " AND id >= ?")
                         + " LIMIT 1", [start] + ([] if low is None else [low])).fetchone()
        if row is not None:
            yield f"a page (_data row {row[0]}) of no segment the index has"
            return
        low = end
    row = db.execute(f"SELECT id FROM {FTS}_data WHERE id >= ? LIMIT 1", [low]).fetchone()
    if row is not None:
        yield f"a page (_data row {row[0]}) of no segment the index has"


COPY = f"{FTS}_copy"
"""The copy of the trigram index `verify` checks in the connection's `temp` schema (`_structure`)."""


def _structure(db: Database) -> Iterator[str]:
    """What is wrong with the FTS5 index as a structure: its settings against those of a new table
    made as `install` makes it, FTS5's own integrity-check against the texts (every page, every
    b-tree row, the doclist indexes, the positions and the document sizes, with a checksum of every
    posting), and rows of segments it does not have. The integrity-check is an INSERT to SQLite,
    which would take the write lock, and `verify` reads one snapshot and never writes: so it runs
    on a copy of FTS5's tables in `temp` (an FTS5 table there, over a view of `record_search`).
    SQLite refuses every write, `temp`'s too, for the rest of a transaction in which a read met a
    page it cannot read: so this runs before anything else is read (`differences`, and `verify`
    runs the search check first). The fts5vocab table `differences` reads is made here too."""
    db.execute(f"DROP TABLE IF EXISTS temp.{COPY}")
    db.execute(f"CREATE TEMP VIEW IF NOT EXISTS {COPY}_content AS SELECT record_id, text FROM main.record_search")
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{FTS}_rows USING fts5vocab(main, {FTS}, row)")
    db.execute(f"CREATE VIRTUAL TABLE temp.{COPY} USING "
               + FTS_ARGS.replace("content='record_search'", f"content='{COPY}_content'"))
    try:
        fresh = db.execute(f"SELECT k, v FROM temp.{COPY}_config ORDER BY k").fetchall()
        have = db.execute(f"SELECT k, v FROM main.{FTS}_config ORDER BY k").fetchall()
        if have != fresh:
            yield f"its settings (_config) are {have}, FTS5 makes {fresh}"
        for shadow in SHADOWS:
            db.execute(f"DELETE FROM temp.{COPY}_{shadow}")
            db.execute(f"INSERT INTO temp.{COPY}_{shadow} SELECT * FROM main.{FTS}_{shadow}")
        try:
            db.execute(f"INSERT INTO temp.{COPY} ({COPY}, rank) VALUES ('integrity-check', 1)")
        except sqlite3.DatabaseError as error:
            yield f"FTS5's integrity-check fails: {error}"
    finally:
        try:
            db.execute(f"DROP TABLE temp.{COPY}")
        except sqlite3.DatabaseError:
            pass  # refused after a damaged page: the next verify of this connection drops it first
    try:
        known = segments(db)
    except ValueError as error:
        yield str(error)
        return
    yield from _strays(db, known)


def _lookups(db: Database, want: dict[str, list[int]], limit: int) -> Iterator[Difference]:
    """Each trigram the texts hold, looked up as a search does (MATCH, through the b-tree of each
    segment), against the records that hold it; a lookup SQLite fails is named."""
    sql = (f"SELECT count(*), sum(rowid), sum((rowid * rowid) % {PRIME}) % {PRIME} FROM {FTS} "
           f"WHERE {FTS} MATCH ?")
    have: dict[str, Fingerprint] = {}
    failed = 0
    for term in want:
        try:
            row = db.execute(sql, ['"' + term.replace('"', '""') + '"']).fetchone()
        except sqlite3.DatabaseError as error:
            failed += 1
            yield Difference(DAMAGED, FTS, f"a search for {term!r} fails: {error}")
            if failed >= LOOKUP_ERRORS:
                yield Difference(DAMAGED, FTS, "the other searches were not tried")
                return
            continue
        have[term] = (row[0], row[1] or 0, row[2] or 0)
    yield from _compare(LOOKUP, FTS, {term: print_ for term, print_ in want.items() if term in have}, have, limit,
                        "the records a search finds for")


def differences(db: Database, limit: int = 20) -> Iterator[Difference]:
    """What is wrong with the indexes (at most `limit` terms named per comparison); nothing when
    both are what `rebuild` would make of the stored texts and every search reads them as it
    should. The grams against the texts; the trigram index as FTS5 sees it (`_structure`), its
    terms with their record and occurrence counts as a full scan reads them (fts5vocab), and every
    term the texts hold looked up as a search looks it up (`_lookups`): a scan reads the pages in
    order, a search goes through the b-tree (`_idx`), and either can be wrong alone. Each part
    that SQLite cannot read is named (DAMAGED), and the others are still done."""
    structure: list[str] = []
    try:
        structure.extend(_structure(db))  # first: it writes to `temp`
    except sqlite3.DatabaseError as error:
        structure.append(f"cannot be read: {error}")
    wanted = expected(db)
    try:
        yield from _compare(DIFFERS, GRAMS, wanted.grams, _gram_prints(db), limit, "the postings of")
    except sqlite3.DatabaseError as error:
        yield Difference(DAMAGED, GRAMS, f"cannot be read: {error}")
    try:
        structure.extend(_averages(db, wanted))
    except sqlite3.DatabaseError as error:
        structure.append(f"its averages cannot be read: {error}")
    for problem in structure:
        yield Difference(DAMAGED, FTS, problem)
    try:
        counts = {term: (docs, count) for term, docs, count in db.execute(f"SELECT term, doc, cnt FROM temp.{FTS}_rows")}
        want = {term: (print_[0], wanted.occurrences[term]) for term, print_ in wanted.trigrams.items()}
        wrong = sorted(term for term in want.keys() | counts.keys() if want.get(term) != counts.get(term))
        for term in wrong[:limit]:
            held, should = counts.get(term, (0, 0)), want.get(term, (0, 0))
            yield Difference(DIFFERS, FTS, f"the postings of {term!r} are not those of the stored search texts "
                                           f"(in {held[0]} records {held[1]} times, expected {should[0]} and {should[1]})")
        if len(wrong) > limit:
            yield Difference(DIFFERS, FTS, f"{len(wrong) - limit} more terms differ")
    except sqlite3.DatabaseError as error:
        yield Difference(DAMAGED, FTS, f"its terms cannot be read: {error}")
    yield from _lookups(db, wanted.trigrams, limit)


__all__ = ["BATCH", "COPY", "DAMAGED", "DIFFERS", "Difference", "Expected", "FTS", "FTS_ARGS", "GRAMS", "Hits", "LOOKUP",
           "OBJECTS", "PRIME", "Reindexed", "SHADOWS", "SHORT", "SearchIndexDamaged", "differences", "expected",
           "fields", "grams", "hits", "index", "install", "reading", "rebuild", "reindex", "segments", "trigrams"]
