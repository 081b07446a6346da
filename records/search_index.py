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
`differences` is what `flask verify` checks: each index against a recomputation from the texts,
compared as a fingerprint per term (how many postings, the sum of their ids and of their squares
modulo a prime), so any missing, extra or moved posting shows. The texts themselves never change
after the record is written (they come from columns m004 makes immutable): m011 refuses UPDATE
and DELETE on `record_search` as m004 does on the seats, so the external content cannot drift.
No Flask.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sqlite_utils import Database

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


def install(db: Database) -> None:
    """Create both indexes, their trigger and the refusals on `record_search`, then fill them from
    the texts already stored (`rebuild`)."""
    db.execute(f"CREATE VIRTUAL TABLE {FTS} USING fts5(text, content='record_search', content_rowid='record_id', "
               "tokenize='trigram case_sensitive 1')")
    db.execute(f"CREATE TABLE {GRAMS} (gram TEXT NOT NULL, record_id INTEGER NOT NULL REFERENCES records(id), "
               "PRIMARY KEY (gram, record_id)) WITHOUT ROWID")
    db.execute(f"CREATE TRIGGER record_search_indexed AFTER INSERT ON record_search "
               f"BEGIN INSERT INTO {FTS} (rowid, text) VALUES (NEW.record_id, NEW.text); END")
    for event in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER record_search_no_{event.lower()} BEFORE {event} ON record_search "
                   f"BEGIN SELECT RAISE(ABORT, 'record_search is derived from immutable columns: {event} refused'); END")
    rebuild(db)


def rebuild(db: Database) -> None:
    """Derive both indexes again from `record_search` (whatever they held before)."""
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


Fingerprint = tuple[int, int, int]
"""Of one term's postings: how many, the sum of their record ids, the sum of the squared ids mod PRIME."""


def _add(prints: dict[str, list[int]], term: str, record_id: int) -> None:
    """Count one posting of `term` into its fingerprint."""
    entry = prints.get(term)
    if entry is None:
        entry = prints[term] = [0, 0, 0]
    entry[0] += 1
    entry[1] += record_id
    entry[2] = (entry[2] + record_id * record_id) % PRIME


def expected(db: Database) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """The fingerprints both indexes should have, recomputed from the stored texts: (grams,
    trigrams)."""
    gram_prints: dict[str, list[int]] = {}
    trigram_prints: dict[str, list[int]] = {}
    for record_id, text in db.execute("SELECT record_id, text FROM record_search"):
        for gram in grams(text):
            _add(gram_prints, gram, record_id)
        for trigram in trigrams(text):
            _add(trigram_prints, trigram, record_id)
    return gram_prints, trigram_prints


def stored(db: Database) -> tuple[dict[str, Fingerprint], dict[str, Fingerprint]]:
    """The fingerprints the indexes hold: (grams, trigrams), read in each index's own order."""
    square = f"sum((record_id * record_id) % {PRIME}) % {PRIME}"
    gram_prints = {row[0]: (row[1], row[2], row[3]) for row in db.execute(
        f"SELECT gram, count(*), sum(record_id), {square} FROM {GRAMS} GROUP BY gram")}
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{FTS}_terms USING fts5vocab(main, {FTS}, instance)")
    trigram_prints = {row[0]: (row[1], row[2], row[3]) for row in db.execute(
        f"SELECT term, count(*), sum(doc), sum((doc * doc) % {PRIME}) % {PRIME} FROM temp.{FTS}_terms GROUP BY term")}
    return gram_prints, trigram_prints


def differences(db: Database, limit: int = 20) -> Iterator[str]:
    """Terms whose postings differ from what the stored texts give, as lines for `verify` (at
    most `limit` per index); nothing when both indexes are what `rebuild` would make."""
    wanted = expected(db)
    held = stored(db)
    for name, want, have in ((GRAMS, wanted[0], held[0]), (FTS, wanted[1], held[1])):
        wrong = sorted(term for term in want.keys() | have.keys()
                       if tuple(want.get(term, (0, 0, 0))) != tuple(have.get(term, (0, 0, 0))))
        for term in wrong[:limit]:
            yield (f"{name}: the postings of {term!r} are not those of the stored search texts "
                   f"({have.get(term, (0, 0, 0))[0]} held, {want.get(term, [0])[0]} expected)")
        if len(wrong) > limit:
            yield f"{name}: {len(wrong) - limit} more terms differ"


__all__ = ["BATCH", "FTS", "GRAMS", "Hits", "PRIME", "SHORT", "differences", "expected", "fields", "grams",
           "hits", "index", "install", "rebuild", "stored", "trigrams"]
