"""The store's reads: one record, its bytes, revisions and audits, and the records list.

`Queries` reads through a connection and never writes the database; `records.store.Store` adds the writes to it, so the web
layer holds one object for both. The list (`Queries.search`) reads its counts per verdict from
`records.tally` when the filters allow, and otherwise counts row by row within a budget of work
(`COUNT_BUDGET`); it then reads the page through the filters' indexes or along the sort order,
whichever reads fewer rows (`_walks`). No Flask.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from sqlite_utils import Database

from records import paging, search, search_index, tally
from records.paging import Page
from records.rows import UNAUDITED, VERDICTS

PREFIX_END = "\U0010ffff"
"""The highest code point: prefix <= value < prefix + PREFIX_END selects values starting with prefix."""


class UnknownRecord(LookupError):
    """No record has that id."""


NO_CASE = "none"
"""The case-status filter's value for records attached to no case."""
CASE_RECORDS = ("SELECT cr.record_id FROM case_records cr JOIN cases c ON c.id = cr.case_id "
                "WHERE c.number = ? COLLATE NOCASE")
"""The records attached to the case of a number (any platform's), for the search box."""


@dataclass(frozen=True)
class RecordQuery:
    """Filters, sort and page of the records list; empty filters match everything."""

    verdict: str | None = None
    profile: str | None = None
    rule: str | None = None
    """A rule (`R8.3`) or a whole section (`R8`) named by a finding of the latest audit."""
    platform: str | None = None
    client: str | None = None
    """Prefix of the client string."""
    player: str | None = None
    """Exact name or player id of any seat."""
    date_from: str | None = None
    date_to: str | None = None
    """Inclusive bounds on the local date of `played_at` (YYYY-MM-DD)."""
    game_id: str | None = None
    """Prefix of the game id."""
    q: str | None = None
    """A fragment of the game id, a player's name or id, the platform or the client, in any case
    or width (`records.search`)."""
    case: str | None = None
    """A case number: records attached to that case, or with a note naming it."""
    case_status: str | None = None
    """The status of a case the record is attached to (`records.cases.STATUSES`), or `none`: attached
    to no case. One status, driven by cases (issue 33.5): the notes' old decision is not a status."""
    all_revisions: bool = False
    sort: str = "id"
    descending: bool = True
    page: int = 1
    per_page: int = 50
    exact: bool = False
    """Count every match even when no tally answers and that takes longer than `COUNT_BUDGET`."""


SORTS: dict[str, str] = {
    "id": "r.id",
    "uploaded_at": "r.id",
    "played_at": "r.played_utc",
    "game_id": "r.game_id",
    "platform": "r.platform",
    "profile": "r.profile",
    "verdict": "r.verdict",
    "revision": "r.revision",
    "client": "r.client",
    "players": "r.players",
    "findings": "r.findings_count",
}
"""Sort keys the list accepts, mapped to columns (never interpolate user text)."""
WALKABLE = {"r.id": "idx_records_walk_id", "r.played_utc": "idx_records_walk_played"}
"""Sort columns the page query may walk (`Queries._walks`), and m007's index it walks for each."""
WALK_MIN = 20_000
"""Fewest matches for which the page is read along the sort order: below it reading every match
through the filters' indexes costs at most a few tens of milliseconds, and the filters' own
plan does not depend on the matches being spread evenly along the order."""
COUNT_STEP = 1000
COUNT_BUDGET = 600
"""How long a row-by-row count may run, in calls of SQLite's progress handler every `COUNT_STEP`
virtual-machine instructions: work, not time, so a loaded machine stops at the same place (give
or take one step, which SQLite counts per statement across runs). Measured at 1,000,000 records
(bench/bench_store_scale.py): 7 - 11 calls per ms on this machine, so about 55 - 85 ms, which
leaves the page query room inside 200 ms. Only mixes no tally answers are counted row by row; past the
budget the counts are the matches found so far, flagged not exact."""

LIST_COLUMNS = """r.id, r.platform, r.game_id, r.revision, r.is_current, r.client, r.profile,
r.played_at, r.played_utc, r.players, r.dealer, r.dealer_streak, r.base, r.verdict, r.audit_profile, r.rules,
r.findings_count, r.sha256, r.uploaded_at, r.uploader, r.source, r.match_id, r.match_index,
r.latest_audit_id, r.audit_error"""


class Queries:
    """Reads of one store's database: a record and what belongs to it, and the list."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def record(self, record_id: int) -> dict[str, Any]:
        """One record's row (no bytes); UnknownRecord if there is none."""
        rows = list(self.db.query(f"SELECT {LIST_COLUMNS}, r.document_id FROM records r WHERE r.id = ?",
                                  [record_id]))
        if not rows:
            raise UnknownRecord(f"record {record_id} does not exist")
        return rows[0]

    def raw(self, record_id: int) -> bytes:
        """The bytes of a record exactly as they were received."""
        row = self.db.execute("SELECT d.raw FROM records r JOIN documents d ON d.id = r.document_id "
                              "WHERE r.id = ?", [record_id]).fetchone()
        if row is None:
            raise UnknownRecord(f"record {record_id} does not exist")
        return bytes(row[0])

    def document(self, record_id: int) -> Any:
        """The parsed record."""
        return _loads(self.raw(record_id))

    def players(self, record_id: int) -> list[dict[str, Any]]:
        """The seats in order, with names and player ids."""
        return list(self.db.query("SELECT seat, name, player_id FROM record_players WHERE record_id = ? "
                                  "ORDER BY seat", [record_id]))

    def seat_scores(self, record_ids: Sequence[int], player: str) -> dict[int, tuple[int, Any, Any]]:
        """For each record where `player` (a seat's name or player id) sits: (seat, the score the
        record claims for it, the score its latest audit computes), either None where missing. What
        the list shows when it is searched by a player (issue 33.3); a page holds at most 200."""
        if not record_ids or not player:
            return {}
        marks = ", ".join("?" * len(record_ids))
        rows = self.db.execute(
            f"SELECT r.id, p.seat, d.raw, a.settlement_json FROM records r JOIN record_players p ON p.record_id = r.id "
            f"JOIN documents d ON d.id = r.document_id LEFT JOIN audits a ON a.id = r.latest_audit_id "
            f"WHERE r.id IN ({marks}) AND (p.name = ? OR p.player_id = ?) ORDER BY r.id, p.seat",
            [*record_ids, player, player]).fetchall()
        found: dict[int, tuple[int, Any, Any]] = {}
        for record_id, seat, raw, settlement in rows:
            if record_id in found:
                continue
            document = _loads(bytes(raw))
            claimed = _score(document.get("result") if isinstance(document, dict) else None, seat)
            computed = _score(json.loads(settlement) if settlement else None, seat)
            found[record_id] = (seat, claimed, computed)
        return found

    def revisions(self, record_id: int) -> list[dict[str, Any]]:
        """Every stored revision of the record's game, oldest first."""
        record = self.record(record_id)
        return list(self.db.query(
            "SELECT id, revision, is_current, sha256, uploaded_at, uploader, source, verdict FROM records "
            "WHERE platform = ? AND game_id = ? ORDER BY revision", [record["platform"], record["game_id"]]))

    def match_hands(self, match_id: int) -> list[dict[str, Any]]:
        """The hands of one match in play order: a report links a
        hand to the hands before and after it."""
        return list(self.db.query(
            "SELECT id, match_index, game_id, revision, verdict FROM records WHERE match_id = ? "
            "ORDER BY match_index", [match_id]))

    def match(self, match_id: int) -> dict[str, Any] | None:
        """A stored match (table id, number of hands, its document's sha256), None when there is none."""
        rows = list(self.db.query("SELECT id, table_id, hands, sha256 FROM matches WHERE id = ?", [match_id]))
        return rows[0] if rows else None

    def audits(self, record_id: int) -> list[dict[str, Any]]:
        """Every audit of a record, oldest first, each in full."""
        self.record(record_id)
        ids = [row[0] for row in self.db.execute("SELECT id FROM audits WHERE record_id = ? ORDER BY id",
                                                 [record_id])]
        return [self.audit_row(audit_id) for audit_id in ids]

    def audit_row(self, audit_id: int) -> dict[str, Any]:
        """An audit with its metadata; `audit` is the contract JSON."""
        row = next(self.db.query("SELECT * FROM audits WHERE id = ?", [audit_id]))
        return {"id": row["id"], "record_id": row["record_id"], "profile": row["profile"],
                "options": _loads(row["options_json"]) if row["options_json"] else None,
                "engine_version": row["engine_version"], "verdict": row["verdict"],
                "created_at": row["created_at"], "platform_profile_id": row.get("platform_profile_id"),
                "audit": _contract(row)}

    def latest_audit(self, record_id: int) -> dict[str, Any]:
        """The contract audit JSON of the record's latest audit."""
        record = self.record(record_id)
        audit: dict[str, Any] = self.audit_row(record["latest_audit_id"])["audit"]
        return audit

    def uploads(self, record_id: int) -> list[dict[str, Any]]:
        """Every receipt of this record's bytes."""
        return list(self.db.query("SELECT source, uploader, uploaded_at, outcome FROM uploads "
                                  "WHERE record_id = ? ORDER BY id", [record_id]))

    def search(self, query: RecordQuery) -> Page:
        """One page of records matching every filter, and counts per verdict. A `q` search reads
        its matches from `records.search_index` (grams or trigrams), joined to the records in the
        index's id order, so a page in the id order stops after its rows. The counts come from
        `records.tally` when it answers the filters; knowing them, the page is read either through
        the filters' indexes (few matches) or along the sort order (`_walks`). A search the index
        cannot answer (damaged: SQLite refuses to read it) raises `search_index.SearchIndexDamaged`."""
        folded = search.fold(query.q or "")
        if not folded:
            return self._search(query, None)
        with search_index.reading():
            return self._search(query, search_index.hits(folded))

    def _search(self, query: RecordQuery, found: search_index.Hits | None) -> Page:
        """`search`, the index that answers its `q` given (None without one)."""
        hits = found is not None
        clauses, params = where_filters(replace(query, q=None))
        source = "records r"
        if found is not None and self._names_case(query.q or ""):
            clauses, params = where_filters(query)  # the index's matches or the case's records
            found = None
        elif found is not None:
            source, clauses, params = found.source, [found.clause, *clauses], [found.param, *params]
        counts, exact = self._tallied_counts(query), True
        if counts is None:
            counts, exact = self._verdict_counts(clauses, params, None if query.exact else COUNT_BUDGET,
                                                 source=source)
        if query.verdict == UNAUDITED:
            total = counts.get(UNAUDITED, 0)
        elif query.verdict:
            total = counts.get(query.verdict, 0)
        else:
            total = sum(counts.values())
        column = SORTS.get(query.sort, "r.id")
        offset = paging.offset(query.page, query.per_page)
        rows = None
        if not hits and self._walks(query, column, total, offset):
            rows = self._page(query, column, offset, clauses=None, params=None)
        elif not hits and not exact and column in WALKABLE:
            # the count ran out of budget, so many records match: try the walk, within a budget too
            rows = self._page(query, column, offset, clauses=None, params=None, budget=COUNT_BUDGET)
        if rows is None:  # unbudgeted: always the rows
            order = found.order if found is not None and column == "r.id" else column
            rows = self._page(query, order, offset, clauses=clauses, params=params, source=source) or []
        if not exact:
            counts, total, exact = _counted_from_page(rows, query.verdict, counts, total, offset,
                                                      len(rows) < query.per_page)
        return Page(rows, total, max(query.page, 1), query.per_page, counts, exact)

    def _names_case(self, text: str) -> bool:
        """Whether the search box's text is a case's number (then the case's records are found too;
        a text naming no case is searched in the index alone, as fast as before)."""
        return self.db.execute("SELECT 1 FROM cases WHERE number = ? COLLATE NOCASE LIMIT 1",
                               [text.strip()]).fetchone() is not None

    def _page(self, query: RecordQuery, column: str, offset: int, *, clauses: list[str] | None,
              params: list[Any] | None, budget: int | None = None,
              source: str = "records r") -> list[dict[str, Any]] | None:
        """The rows of the page: through the filters' indexes (`clauses` and `params`, from
        `where_filters`, read from `source`: the records, or a search index joined to them, whose
        id is then the `column` of the id order), or, with None, walking m007's index of the sort
        order (`_walks`). With a `budget`, None when it runs out before the page is read."""
        walk = clauses is None
        if clauses is None or params is None:
            clauses, params = where_filters(replace(query, q=None), walk=True)
        if query.verdict == UNAUDITED:
            clauses = clauses + ["+r.verdict IS NULL" if walk else "r.verdict IS NULL"]
        elif query.verdict:
            clauses, params = clauses + ["+r.verdict = ?" if walk else "r.verdict = ?"], params + [query.verdict]
        where = " AND ".join(clauses) or "1"
        direction = "DESC" if query.descending else "ASC"
        ids = column == "r.id" or not column.startswith("r.")
        order = f"{column} {direction}" + ("" if ids else f", r.id {direction}")
        if walk:
            source = f"records r INDEXED BY {WALKABLE[column]}"
        sql = f"SELECT {LIST_COLUMNS} FROM {source} WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?"
        rows: list[dict[str, Any]] | None = None
        with self._budget(budget) as within:
            rows = list(self.db.query(sql, params + [query.per_page, offset]))
        return rows if within() else None

    @contextmanager
    def _budget(self, budget: int | None) -> Iterator[Callable[[], bool]]:
        """Run the statements of the block within `budget` calls of SQLite's progress handler
        (`COUNT_BUDGET`; None: no limit). Yields a function that says whether the block ended
        within it; a statement past the budget is interrupted and its error swallowed here."""
        ended = [True]
        if budget is None:
            yield lambda: ended[0]
            return
        spent = [0]

        def tick() -> int:
            spent[0] += 1
            return 1 if spent[0] > budget else 0  # non-zero interrupts the statement

        self.db.conn.set_progress_handler(tick, COUNT_STEP)
        try:
            yield lambda: ended[0]
        except sqlite3.OperationalError as error:
            if "interrupt" not in str(error):
                raise
            ended[0] = False
        finally:
            self.db.conn.set_progress_handler(None, 0)

    def _walks(self, query: RecordQuery, column: str, matches: int, offset: int) -> bool:
        """Whether to read the page along the sort order rather than through the filters' indexes.
        Through the indexes costs about one row look-up per match (all of them are read, to find
        the first of the sort); along the order, about (offset + page) x records / matches rows
        are read before the page is full, if the matches are spread evenly. Walking is chosen
        only for orders an index delivers, when at least `WALK_MIN` records match, and when it
        reads fewer rows than the matches."""
        if column not in WALKABLE or matches < WALK_MIN:
            return False
        row = self.db.execute("SELECT sum(n) FROM record_tally" +
                              ("" if query.all_revisions else " WHERE is_current = 1")).fetchone()
        records = int(row[0] or 0)
        return (offset + query.per_page) * records < matches * matches

    def _tallied_counts(self, query: RecordQuery) -> dict[str, int] | None:
        """The counts per verdict from `records.tally` when its rows answer this query's filters
        (the same numbers `_verdict_counts` gives, from a few rows); None when they do not."""
        filters = tally_filters(query)
        found = None if filters is None else tally.counts(self.db, filters, PREFIX_END)
        if found is None:
            return None
        counts = dict.fromkeys(VERDICTS, 0)
        for verdict, count in found.items():
            counts[verdict or UNAUDITED] = count
        return counts

    def _verdict_counts(self, clauses: list[str], params: list[Any], budget: int | None = None, *,
                        source: str = "records r") -> tuple[dict[str, int], bool]:
        """Counts per verdict under every filter but the verdict one (for the tabs), row by row;
        records with no audit yet are counted as `unaudited`, a key present only when there are
        some. With a `budget` (`COUNT_BUDGET`) SQLite is interrupted once it is spent and the
        counts so far are returned with False (lower bounds); True when every match was counted."""
        where = " AND ".join(clauses) or "1"
        counts = dict.fromkeys(VERDICTS, 0)
        sql = f"SELECT r.verdict, count(*) FROM {source} WHERE {where} GROUP BY r.verdict"
        if budget is None:
            for verdict, count in self.db.execute(sql, params):
                counts[verdict or UNAUDITED] = count
            return counts, True
        with self._budget(budget) as within:
            for (verdict,) in self.db.execute(f"SELECT r.verdict FROM {source} WHERE {where}", params):
                key = verdict or UNAUDITED
                counts[key] = counts.get(key, 0) + 1
        return counts, within()

    def distinct(self, column: str) -> list[str]:
        """Values seen in a column, for the filter drop-downs."""
        if column not in {"platform", "profile", "client"}:
            raise ValueError(f"no distinct values for column {column!r}")
        return [row[0] for row in self.db.execute(
            f"SELECT DISTINCT {column} FROM records WHERE {column} IS NOT NULL AND {column} != '' "
            f"ORDER BY {column} LIMIT 200")]

    def audit_target(self, record: dict[str, Any]) -> tuple[object, int, int]:
        """What to audit for a record: the whole match for a match hand (continuity matters)."""
        if record["match_id"] is not None:
            match = self.db.execute("SELECT d.raw, m.hands FROM matches m JOIN documents d ON d.id = m.document_id "
                                    "WHERE m.id = ?", [record["match_id"]]).fetchone()
            return _loads(match[0]), record["match_index"], match[1]
        return self.document(record["id"]), 0, 1


def _score(holder: Any, seat: int) -> int | None:
    """`holder["scores"][seat]` when it is an integer (a record's `result`, an audit's settlement)."""
    scores = holder.get("scores") if isinstance(holder, dict) else None
    if not isinstance(scores, list) or not 0 <= seat < len(scores):
        return None
    value = scores[seat]
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _loads(data: bytes | str) -> Any:
    """Parse stored JSON (documents may carry a UTF-8 byte order mark)."""
    if isinstance(data, bytes):
        data = data.decode("utf-8-sig")
    return json.loads(data)


def _contract(row: dict[str, Any]) -> dict[str, Any]:
    """The audit JSON in the contract's shape and key order."""
    return {"game_id": row["game_id"], "profile": row["profile"], "verdict": row["verdict"],
            "findings": json.loads(row["findings_json"]), "settlement": json.loads(row["settlement_json"])}


def _counted_from_page(rows: list[dict[str, Any]], verdict: str | None, counts: dict[str, int], total: int,
                       offset: int, short: bool) -> tuple[dict[str, int], int, bool]:
    """(counts, total, exact) of a count stopped at its budget, made better by the page: its
    rows are matches, so the lower bounds are at least what it shows; a short first page holds
    every match, so its rows are the count (all verdicts when no verdict filter is set; only
    the chosen one, and the total, when one is)."""
    seen = dict.fromkeys(VERDICTS, 0)
    for row in rows:
        key = row["verdict"] or UNAUDITED
        seen[key] = seen.get(key, 0) + 1
    if offset == 0 and short:
        if verdict:
            return {**counts, verdict: len(rows)}, len(rows), False
        return seen, len(rows), True
    if offset == 0:
        keys = [*counts, *(key for key in seen if key not in counts and seen[key])]
        counts = {key: max(counts.get(key, 0), seen.get(key, 0)) for key in keys}
    bound = max(total, offset + len(rows))
    if not verdict:
        bound = max(bound, sum(counts.values()))
    return counts, bound, False


def tally_filters(query: RecordQuery) -> tally.Filters | None:
    """The query's filters as `records.tally` takes them; None when one of them is outside
    every tally (a game id, a case, a case status, a search text)."""
    if query.game_id or query.case or query.case_status or (query.q and search.fold(query.q)):
        return None
    return tally.Filters(current_only=not query.all_revisions, platform=query.platform, profile=query.profile,
                         client=query.client, date_from=query.date_from, date_to=query.date_to,
                         player=query.player, rule=query.rule)


def where_filters(query: RecordQuery, *, walk: bool = False) -> tuple[list[str], list[Any]]:
    """WHERE clauses and parameters for every filter except the verdict (the list, its counts
    per verdict and the overview charts share them, so a chart and its linked list agree).

    `walk=True` writes the same conditions so that no index can serve them (a unary `+` on each
    column, correlated EXISTS probes instead of IN lists): SQLite then reads the records in the
    order of the sort and stops after the page, which is what `Queries.search` wants when most
    records match (`WALK_MIN`)."""
    col = (lambda name: f"+r.{name}") if walk else (lambda name: f"r.{name}")
    clauses: list[str] = [] if query.all_revisions else [f"{col('is_current')} = 1"]
    params: list[Any] = []
    exact = {"profile": query.profile, "platform": query.platform}
    for column, value in exact.items():
        if value:
            clauses.append(f"{col(column)} = ?")
            params.append(value)
    for column, value in {"client": query.client, "game_id": query.game_id}.items():
        if value:  # a range, not LIKE, so the index serves it; the prefix is literal and case-sensitive
            clauses.append(f"{col(column)} >= ? AND {col(column)} < ?")
            params += [value, value + PREFIX_END]
    if query.player:
        clauses.append("EXISTS (SELECT 1 FROM record_players p WHERE p.record_id = r.id AND (p.name = ? OR "
                       "p.player_id = ?))" if walk else
                       "r.id IN (SELECT record_id FROM record_players WHERE name = ? OR player_id = ?)")
        params += [query.player, query.player]
    folded = search.fold(query.q or "")
    if folded:  # the search box finds a case's records by its number too (issue 33.5)
        found = search_index.hits(folded)
        clauses.append(f"(r.id IN ({found.ids}) OR r.id IN ({CASE_RECORDS}))")
        params += [found.param, (query.q or "").strip()]
    if query.case:
        clauses.append("(r.id IN (SELECT cr.record_id FROM case_records cr JOIN cases c ON c.id = cr.case_id "
                       "WHERE c.number = ?) OR r.id IN (SELECT record_id FROM notes WHERE case_number = ?))")
        params += [query.case.strip(), query.case.strip()]
    if query.case_status == NO_CASE:
        clauses.append("r.id NOT IN (SELECT record_id FROM case_records)")
    elif query.case_status:
        clauses.append("r.id IN (SELECT cr.record_id FROM case_records cr JOIN cases c ON c.id = cr.case_id "
                       "WHERE c.status = ?)")
        params.append(query.case_status)
    if query.rule:
        column = "rule" if "." in query.rule else "section"
        clauses.append(f"EXISTS (SELECT 1 FROM audit_rules a WHERE a.audit_id = r.latest_audit_id AND a.{column} = ?)"
                       if walk else f"r.latest_audit_id IN (SELECT audit_id FROM audit_rules WHERE {column} = ?)")
        params.append(query.rule)
    if query.date_from:
        clauses.append(f"{col('played_date')} >= ?")
        params.append(query.date_from)
    if query.date_to:
        clauses.append(f"{col('played_date')} <= ?")
        params.append(query.date_to)
    return clauses, params


__all__ = ["COUNT_BUDGET", "COUNT_STEP", "LIST_COLUMNS", "PREFIX_END", "Page", "Queries", "RecordQuery", "SORTS",
           "UnknownRecord", "WALKABLE", "WALK_MIN", "tally_filters", "where_filters"]
