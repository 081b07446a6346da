"""Counts of records per verdict kept up to date by the database, so the list's counts do not
visit every record a filter matches.

The records list shows, for any filter, how many records each verdict has (the tabs) and the
total (the pages). Counted row by row that costs time linear in the records matched: at
1,000,000 records a filter matching a quarter of them took most of a second. Two tallies,
written by triggers in the same statement as the rows they count (so they can never disagree
with a committed store, and no code path has to remember them), answer the common filters from
a few thousand rows instead:

- `record_tally`: records per (platform, profile, client, played_date, is_current, verdict).
  Any mix of the platform, profile, client-prefix and date filters is a sum over it.
- `record_key_tally`: records per (kind, key, platform, is_current, verdict), where kind
  `player` keys a record by every distinct seat name and player id (the player filter matches
  either), `rule` by every rule code of its latest audit and `section` by their sections (the
  rule filter). The platform is in the key because an uploader's queries always carry theirs.

Absent values are stored as '' (SQLite keys treat NULLs as distinct): an empty verdict is a
record with no audit yet. The columns the dimension tally is keyed by are fixed at upload
(`IMMUTABLE_RECORD_COLUMNS`), so only `is_current`, `verdict` and `latest_audit_id` move a
record between rows. A filter the tallies cannot answer (a search text, a game id, a case, a
decision, or a player or rule filter combined with another but the platform) is counted row by
row (`records.queries`, within a budget).
`recount` rebuilds the same rows from the records, for `verify` and the migration.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

DIMENSIONS = ("platform", "profile", "client", "played_date")
"""The record columns `record_tally` is keyed by (with is_current and verdict)."""
KINDS = ("player", "rule", "section")
"""The kinds of key in `record_key_tally`."""

_DIM_KEY = ", ".join(DIMENSIONS) + ", is_current, verdict"
_KEY_KEY = "kind, key, platform, is_current, verdict"


def _dim_values(row: str) -> str:
    """The key values of a record row (`NEW` or `OLD`) in `record_tally`'s column order."""
    return (f"{row}.platform, coalesce({row}.profile, ''), coalesce({row}.client, ''), "
            f"coalesce({row}.played_date, ''), {row}.is_current, coalesce({row}.verdict, '')")


def _players_of(record: str) -> str:
    """The distinct player keys (names and ids) of a record, as a one-column select."""
    return (f"SELECT name AS k FROM record_players WHERE record_id = {record} AND name IS NOT NULL "
            f"UNION SELECT player_id FROM record_players WHERE record_id = {record} AND player_id IS NOT NULL")


def _rules_of(audit: str) -> str:
    """(kind, key) of the rule codes and sections of an audit, as a two-column select."""
    return (f"SELECT 'rule' AS kind, rule AS k FROM audit_rules WHERE audit_id = {audit} "
            f"UNION SELECT 'section', section FROM audit_rules WHERE audit_id = {audit}")


def _add(keys: str, row: str, sign: int, join: str = "") -> str:
    """Add `sign` to the key tally rows of the (kind, k) pairs `keys` selects, under the
    currency and verdict of `row`: a trigger's `NEW`/`OLD`, or `r` with `join` naming it."""
    return (f"INSERT INTO record_key_tally (kind, key, platform, is_current, verdict, n) "
            f"SELECT kind, k, {row}.platform, {row}.is_current, coalesce({row}.verdict, ''), {sign} FROM ({keys}) "
            f"{join} WHERE true ON CONFLICT DO UPDATE SET n = n + ({sign});")


def _player_keys(record: str) -> str:
    return f"SELECT 'player' AS kind, k FROM ({_players_of(record)})"


TRIGGERS: dict[str, str] = {
    "record_tally_insert": f"""AFTER INSERT ON records BEGIN
        INSERT INTO record_tally ({_DIM_KEY}, n) VALUES ({_dim_values('NEW')}, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
        {_add(_rules_of('NEW.latest_audit_id'), 'NEW', 1)}
    END""",
    "record_tally_update": f"""AFTER UPDATE OF is_current, verdict, latest_audit_id ON records
    WHEN OLD.is_current IS NOT NEW.is_current OR OLD.verdict IS NOT NEW.verdict
      OR OLD.latest_audit_id IS NOT NEW.latest_audit_id BEGIN
        UPDATE record_tally SET n = n - 1 WHERE ({_DIM_KEY}) = ({_dim_values('OLD')});
        INSERT INTO record_tally ({_DIM_KEY}, n) VALUES ({_dim_values('NEW')}, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
        {_add(_player_keys('NEW.id'), 'OLD', -1)}
        {_add(_player_keys('NEW.id'), 'NEW', 1)}
        {_add(_rules_of('OLD.latest_audit_id'), 'OLD', -1)}
        {_add(_rules_of('NEW.latest_audit_id'), 'NEW', 1)}
    END""",
    # A seat's name and id count once per record: only when no seat stored before it has either
    # (UNION drops a name equal to the seat's own id).
    "record_players_tally": f"""AFTER INSERT ON record_players BEGIN
        {_add('''SELECT 'player' AS kind, NEW.name AS k WHERE NEW.name IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM record_players p WHERE p.record_id = NEW.record_id AND p.seat != NEW.seat
                   AND (p.name = NEW.name OR p.player_id = NEW.name))
                 UNION SELECT 'player', NEW.player_id WHERE NEW.player_id IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM record_players p WHERE p.record_id = NEW.record_id AND p.seat != NEW.seat
                   AND (p.name = NEW.player_id OR p.player_id = NEW.player_id))''',
               'r', 1, 'JOIN records r ON r.id = NEW.record_id')}
    END""",
    # Rules stored after their audit became a record's latest (not the order `Store` writes in).
    "audit_rules_tally": f"""AFTER INSERT ON audit_rules BEGIN
        {_add('''SELECT 'rule' AS kind, NEW.rule AS k UNION SELECT 'section', NEW.section
                 EXCEPT SELECT 'section', section FROM audit_rules
                        WHERE audit_id = NEW.audit_id AND rule != NEW.rule''',
               'r', 1, 'JOIN records r ON r.latest_audit_id = NEW.audit_id')}
    END""",
}
"""The triggers that keep both tallies: a record stored, a record's currency, verdict or latest
audit changed, a seat stored, a rule code stored."""


def recount_dimensions(db: Database) -> Iterator[tuple[Any, ...]]:
    """`record_tally`'s rows as the records give them: (platform, profile, client, played_date,
    is_current, verdict, n)."""
    yield from db.execute(f"SELECT {_dim_values('r')}, count(*) FROM records r GROUP BY 1, 2, 3, 4, 5, 6")


def recount_keys(db: Database) -> Iterator[tuple[Any, ...]]:
    """`record_key_tally`'s rows as the records give them: (kind, key, platform, is_current,
    verdict, n)."""
    yield from db.execute(
        "SELECT 'player', k, r.platform, r.is_current, coalesce(r.verdict, ''), count(*) FROM ("
        "SELECT record_id, name AS k FROM record_players WHERE name IS NOT NULL "
        "UNION SELECT record_id, player_id FROM record_players WHERE player_id IS NOT NULL) "
        "JOIN records r ON r.id = record_id GROUP BY 2, 3, 4, 5 "
        "UNION ALL SELECT kind, k, r.platform, r.is_current, coalesce(r.verdict, ''), count(*) FROM ("
        "SELECT DISTINCT audit_id, 'rule' AS kind, rule AS k FROM audit_rules "
        "UNION SELECT audit_id, 'section', section FROM audit_rules) "
        "JOIN records r ON r.latest_audit_id = audit_id GROUP BY 1, 2, 3, 4, 5")


def install(db: Database) -> None:
    """Create both tallies, fill them from the records already stored, and add the triggers
    (one migration, one transaction: the counts start right)."""
    db.execute("CREATE TABLE record_tally (platform TEXT NOT NULL, profile TEXT NOT NULL, client TEXT NOT NULL, "
               "played_date TEXT NOT NULL, is_current INTEGER NOT NULL, verdict TEXT NOT NULL, n INTEGER NOT NULL, "
               f"PRIMARY KEY ({_DIM_KEY})) WITHOUT ROWID")
    db.execute(f"CREATE TABLE record_key_tally (kind TEXT NOT NULL, key TEXT NOT NULL, platform TEXT NOT NULL, "
               f"is_current INTEGER NOT NULL, verdict TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY ({_KEY_KEY})) "
               "WITHOUT ROWID")
    db.conn.executemany(f"INSERT INTO record_tally ({_DIM_KEY}, n) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        list(recount_dimensions(db)))
    db.conn.executemany(f"INSERT INTO record_key_tally ({_KEY_KEY}, n) VALUES (?, ?, ?, ?, ?, ?)",
                        list(recount_keys(db)))
    for name, body in TRIGGERS.items():
        db.execute(f"CREATE TRIGGER {name} {body}")


@dataclass(frozen=True)
class Filters:
    """The part of a records query the tallies can answer (everything else must be empty)."""

    current_only: bool = True
    platform: str | None = None
    profile: str | None = None
    client: str | None = None
    """A prefix, as the list takes it."""
    date_from: str | None = None
    date_to: str | None = None
    player: str | None = None
    rule: str | None = None
    """A rule code (`R8.3`) or a section (`R8`)."""


def counts(db: Database, filters: Filters, prefix_end: str) -> dict[str, int] | None:
    """Records per stored verdict ('' = not audited yet) under `filters`, from a tally; None
    when no tally answers this mix (a player or rule filter with any other but the platform)."""
    keyed = [(kind, value) for kind, value in (("player", filters.player), ("rule", filters.rule)) if value]
    dims = filters.profile or filters.client or filters.date_from or filters.date_to
    if keyed:
        if len(keyed) > 1 or dims:
            return None
        kind, value = keyed[0]
        if kind == "rule" and "." not in value:
            kind = "section"
        clauses, params = ["kind = ?", "key = ?"], [kind, value]
        if filters.platform:
            clauses, params = clauses + ["platform = ?"], params + [filters.platform]
        table, (clauses, params) = "record_key_tally", _scoped(clauses, params, filters, None)
    else:
        table, (clauses, params) = "record_tally", _scoped(*_dimension_clauses(filters, prefix_end), filters, None)
    where = " AND ".join(clauses) or "1"
    return _positive(db.execute(f"SELECT verdict, sum(n) FROM {table} WHERE {where} GROUP BY verdict", params))


GROUPS: dict[str, str] = {"platform": "platform", "client": "client", "profile": "profile",
                          "day": "played_date", "month": "substr(played_date, 1, 7)"}
"""What `grouped` can group the dimension tally by, and the expression of each."""


def grouped(db: Database, filters: Filters, prefix_end: str, group: str | None,
            verdict: str | None = None) -> list[tuple[Any, str, int]] | None:
    """(group key, verdict, records) rows under dimension-only `filters` (and one verdict, when
    given), for the overview's charts; None when a player or rule filter is set. An absent
    client, profile or date is key None, as the records' own GROUP BY gives it (a client sent
    as "" falls in the same bucket as no client)."""
    if filters.player or filters.rule:
        return None
    clauses, params = _scoped(*_dimension_clauses(filters, prefix_end), filters, verdict)
    key = GROUPS[group] if group else "''"
    rows = db.execute(f"SELECT {key} AS g, verdict, sum(n) FROM record_tally WHERE {' AND '.join(clauses) or '1'} "
                      "GROUP BY g, verdict HAVING sum(n) > 0", params)
    keep_blank = group in (None, "platform")
    return [(g if g or keep_blank else None, v, int(n)) for g, v, n in rows]


def date_span(db: Database, filters: Filters, prefix_end: str, verdict: str | None = None) -> tuple[Any, Any] | None:
    """(first, last) played_date of the records under dimension-only `filters`; None when a
    player or rule filter is set."""
    if filters.player or filters.rule:
        return None
    clauses, params = _scoped(*_dimension_clauses(filters, prefix_end), filters, verdict)
    clauses += ["played_date != ''", "n > 0"]
    row = db.execute(f"SELECT min(played_date), max(played_date) FROM record_tally WHERE {' AND '.join(clauses)}",
                     params).fetchone()
    return row[0], row[1]


def sections(db: Database, filters: Filters, verdict: str | None = None) -> list[tuple[str, str, int]] | None:
    """(section, verdict, records) with a finding of each rule section in their latest audit,
    when no filter but the currency and the platform is set; None otherwise."""
    if any((filters.profile, filters.client, filters.date_from, filters.date_to, filters.player, filters.rule)):
        return None
    clauses: list[str] = ["kind = 'section'"]
    params: list[Any] = []
    if filters.platform:
        clauses, params = clauses + ["platform = ?"], params + [filters.platform]
    clauses, params = _scoped(clauses, params, filters, verdict)
    return [(k, v, int(n)) for k, v, n in db.execute(
        f"SELECT key, verdict, sum(n) FROM record_key_tally WHERE {' AND '.join(clauses)} GROUP BY key, verdict "
        "HAVING sum(n) > 0", params)]


def _scoped(clauses: list[str], params: list[Any], filters: Filters,
            verdict: str | None) -> tuple[list[str], list[Any]]:
    """`clauses` narrowed to current revisions (unless all are asked for) and to one verdict."""
    if filters.current_only:
        clauses = clauses + ["is_current = 1"]
    if verdict:
        clauses, params = clauses + ["verdict = ?"], params + [verdict]
    return clauses, params


def _dimension_clauses(filters: Filters, prefix_end: str) -> tuple[list[str], list[Any]]:
    """The list's dimension filters over `record_tally` ('' stands for absent: an absent date
    is never inside a range, as NULL is not in the records' own filter)."""
    clauses: list[str] = []
    params: list[Any] = []
    for column, value in (("platform", filters.platform), ("profile", filters.profile)):
        if value:
            clauses.append(f"{column} = ?")
            params.append(value)
    if filters.client:
        clauses.append("client >= ? AND client < ?")
        params += [filters.client, filters.client + prefix_end]
    if filters.date_from:
        clauses.append("played_date >= ?")
        params.append(filters.date_from)
    if filters.date_to:
        clauses.append("played_date <= ? AND played_date != ''")
        params.append(filters.date_to)
    return clauses, params


def _positive(rows: Iterator[tuple[str, int]] | Any) -> dict[str, int]:
    """verdict -> count for the verdicts that have records."""
    return {verdict: int(n) for verdict, n in rows if n}


def differences(db: Database) -> list[str]:
    """Where a stored tally disagrees with a recount from the records (for `verify`): one line
    per differing row, empty when they agree."""
    found: list[str] = []
    tables: Sequence[tuple[str, str, Iterator[tuple[Any, ...]], int]] = (
        ("record_tally", _DIM_KEY, recount_dimensions(db), 6),
        ("record_key_tally", _KEY_KEY, recount_keys(db), 5))
    for table, key, recounted, width in tables:
        stored = {tuple(row[:width]): row[width] for row in db.execute(f"SELECT {key}, n FROM {table} WHERE n != 0")}
        expected = {tuple(row[:width]): row[width] for row in recounted}
        for row in sorted(set(stored) | set(expected), key=repr):
            if stored.get(row, 0) != expected.get(row, 0):
                found.append(f"{table} {list(row)}: stored {stored.get(row, 0)}, records give {expected.get(row, 0)}")
    return found


__all__ = ["DIMENSIONS", "Filters", "GROUPS", "KINDS", "TRIGGERS", "counts", "date_span", "differences",
           "grouped", "install", "sections", "recount_dimensions",
           "recount_keys"]
