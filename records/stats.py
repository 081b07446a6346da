"""Counts of verdicts over the stored records, for the overview page (no Flask).

Every count is taken under the same filters as the records list (`RecordQuery`,
the latest audit of the current revisions unless asked otherwise), so a bar on
the overview and the list it links to always agree. Where the counts the
triggers keep (`records.tally`) answer the filters, the groups are sums over
them (a few thousand rows at 1,000,000 records); otherwise plain SQL over the
columns and indexes the list already uses.
"""
from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlite_utils import Database

from audit.vocabulary import is_digits
from records import tally
from records.queries import PREFIX_END, RecordQuery, tally_filters, where_filters
from records.rows import VERDICTS

GROUP_COLUMNS = ("platform", "client", "profile")
"""Record columns the overview may group by (never interpolate anything else)."""
DAILY_SPAN = 62
"""Up to this many days between the first and last game, periods are days; beyond, months."""


@dataclass
class Bucket:
    """Records of one group (a platform, a day, a rule section), counted per verdict."""

    key: str | None
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))

    @property
    def total(self) -> int:
        """Records in the group."""
        return sum(self.counts.values())

    def rate(self, *verdicts: str) -> float:
        """Share of the group's records with one of these verdicts (0 for an empty group)."""
        return sum(self.counts[v] for v in verdicts) / self.total if self.total else 0.0

    @property
    def not_clean(self) -> float:
        """Share of records that are not clean."""
        return 1 - self.rate("clean") if self.total else 0.0


def _where(query: RecordQuery) -> tuple[str, list[Any]]:
    """The list's WHERE clause for these filters, verdict included."""
    clauses, params = where_filters(query)
    if query.verdict:
        clauses, params = clauses + ["r.verdict = ?"], params + [query.verdict]
    return " AND ".join(clauses) or "1", params


def _buckets(rows: Any) -> list[Bucket]:
    """(key, verdict, count) rows -> buckets in first-seen key order."""
    found: dict[Any, Bucket] = {}
    for key, verdict, count in rows:
        bucket = found.setdefault(key, Bucket(key))
        if verdict in bucket.counts:
            bucket.counts[verdict] += count
    return list(found.values())


def _tallied(db: Database, query: RecordQuery, group: str | None) -> list[Bucket] | None:
    """Buckets from the dimension tally, when it answers the filters."""
    filters = tally_filters(query)
    rows = None if filters is None else tally.grouped(db, filters, PREFIX_END, group, query.verdict)
    return None if rows is None else _buckets(rows)


def totals(db: Database, query: RecordQuery) -> Bucket:
    """All records under the filters."""
    found = _tallied(db, query, None)
    if found is not None:
        return (found or [Bucket("")])[0]
    where, params = _where(query)
    rows = db.execute(f"SELECT '', r.verdict, count(*) FROM records r WHERE {where} GROUP BY r.verdict", params)
    return (_buckets(rows) or [Bucket("")])[0]


def by_column(db: Database, query: RecordQuery, column: str) -> list[Bucket]:
    """Records per platform, client or profile, largest first."""
    if column not in GROUP_COLUMNS:
        raise ValueError(f"cannot group records by {column!r}")
    found = _tallied(db, query, column)
    if found is None:
        where, params = _where(query)
        found = _buckets(db.execute(f"SELECT r.{column}, r.verdict, count(*) FROM records r WHERE {where} "
                                    f"GROUP BY r.{column}, r.verdict", params))
    return sorted(found, key=lambda bucket: (-bucket.total, bucket.key or ""))


def by_section(db: Database, query: RecordQuery) -> list[Bucket]:
    """Records with at least one finding of each rule section (latest audit), in rulebook order."""
    filters = tally_filters(query)
    rows = None if filters is None else tally.sections(db, filters, query.verdict)
    if rows is None:
        where, params = _where(query)
        rows = list(db.execute("SELECT a.section, r.verdict, count(DISTINCT r.id) FROM records r "
                               f"JOIN audit_rules a ON a.audit_id = r.latest_audit_id WHERE {where} "
                               "GROUP BY a.section, r.verdict", params))
    return sorted(_buckets(rows), key=lambda bucket: section_order(bucket.key or ""))


def section_order(section: str) -> tuple[int, str]:
    """R1 < R2 < ... < R16 < P < anything else."""
    if section[:1] == "R" and is_digits(section[1:]):
        return (int(section[1:]), "")
    return (1000, section)


def by_period(db: Database, query: RecordQuery) -> tuple[str, list[Bucket]]:
    """Records per day (or per month over a long span) of `played_at`, oldest first; games
    without a date come last with key None. Returns ("day" | "month", buckets)."""
    filters = tally_filters(query)
    span = None if filters is None else tally.date_span(db, filters, PREFIX_END, query.verdict)
    where, params = _where(query)
    if span is None:
        span = db.execute(f"SELECT min(r.played_date), max(r.played_date) FROM records r WHERE {where}",
                          params).fetchone()
    first, last = span
    unit = "day"
    if first and last and (date.fromisoformat(last) - date.fromisoformat(first)).days > DAILY_SPAN:
        unit = "month"
    found = _tallied(db, query, unit)
    if found is None:
        key = "r.played_date" if unit == "day" else "substr(r.played_date, 1, 7)"
        found = _buckets(db.execute(f"SELECT {key} AS period, r.verdict, count(*) FROM records r WHERE {where} "
                                    "GROUP BY period, r.verdict", params))
    return unit, sorted(found, key=lambda bucket: (bucket.key is None, bucket.key or ""))


def period_range(unit: str, key: str) -> tuple[str, str]:
    """The inclusive date_from/date_to of a period key (`2026-11-29` or `2026-11`)."""
    if unit == "day":
        return key, key
    year, month = (int(part) for part in key.split("-"))
    return f"{key}-01", f"{key}-{calendar.monthrange(year, month)[1]:02d}"


__all__ = ["Bucket", "by_column", "by_period", "by_section", "period_range", "section_order", "totals"]
