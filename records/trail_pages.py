"""The whole trail, filtered and paged, for the admin page (issue 11). No Flask here.

The trail only grows (a busy day adds thousands of views), so the page asks for one
page at a time under filters: actor (exact account name), action, record, and a range
of dates (days of the service's zone, `records.clock`). The row ids order the trail (they
are its chain order), so a page is `ORDER BY id DESC LIMIT n OFFSET m`; the count of the
whole filtered trail is one more query. `records.trail` keeps writing and verifying it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

from sqlite_utils import Database

from records import clock
from records.paging import Page, offset


@dataclass(frozen=True)
class TrailQuery:
    """Filters and page of the trail; empty filters match everything."""

    actor: str | None = None
    action: str | None = None
    record_id: int | None = None
    date_from: str | None = None
    date_to: str | None = None
    """Inclusive dates (YYYY-MM-DD) of `at` in `zone`, the service's clock."""
    zone: tzinfo = field(default_factory=lambda: clock.parse_zone(clock.DEFAULT_ZONE))
    page: int = 1
    per_page: int = 100


def find(db: Database, query: TrailQuery, access: Database | None = None) -> Page:
    """The trail rows matching every filter, newest first, detail parsed; with `access`, the
    access log's rows too (views and exports are kept there, records/access.py), merged by time."""
    clauses: list[str] = []
    params: list[Any] = []
    for column, value in (("actor", query.actor), ("action", query.action), ("record_id", query.record_id)):
        if value is not None and value != "":
            clauses.append(f"{column} = ?")
            params.append(value)
    if query.date_from:
        clauses.append("at >= ?")
        params.append(clock.day_start(query.date_from, query.zone))
    if query.date_to:
        clauses.append("at < ?")
        params.append(clock.day_end(query.date_to, query.zone))  # every stamp of that day sorts below it
    where = " AND ".join(clauses) or "1"
    logs = [db] + ([access] if access is not None else [])
    total = sum(int(log.execute(f"SELECT count(*) FROM trail WHERE {where}", params).fetchone()[0]) for log in logs)
    skipped = offset(query.page, query.per_page)
    found: list[dict[str, Any]] = []
    for log in logs:  # the newest offset + per_page of each log, merged by time
        found += log.query(f"SELECT id, at, actor, action, record_id, detail FROM trail WHERE {where} "
                           "ORDER BY at DESC, id DESC LIMIT ?", params + [skipped + query.per_page])
    found.sort(key=lambda row: (row["at"], row["id"]), reverse=True)
    rows = found[skipped:skipped + query.per_page]
    return Page([{**row, "detail": json.loads(row["detail"]) if row["detail"] else None} for row in rows],
                     total, max(query.page, 1), query.per_page)


def actors(db: Database, access: Database | None = None) -> list[str]:
    """Names the trail (and the access log) records, for the filter's choices."""
    names = {row[0] for log in [db] + ([access] if access is not None else [])
             for row in log.execute("SELECT DISTINCT actor FROM trail ORDER BY actor LIMIT 500")}
    return sorted(name for name in names if name is not None)[:500]


__all__ = ["TrailQuery", "actors", "find"]
