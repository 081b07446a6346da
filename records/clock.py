"""The service's one clock (issue 33.2): every time an operator reads is shown in one zone, the
platform's (`+08:00` unless configured: app config `TIME_ZONE`), and every date an operator types
or reads on a service stamp is a day of that zone. No Flask here: the web layer parses the
configured zone once (`web.clock`) and hands it to the queries that need it.

Stored stamps stay as they are: service stamps UTC (`records.rows.now`, `...Z`), a record's
`played_at` as the platform wrote it. Only what is shown and how a typed date is read change.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULT_ZONE = "+08:00"
"""The platforms' zone (China Standard Time), the service's unless configured otherwise."""

_OFFSET = re.compile(r"^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})$")


def parse_zone(text: str) -> tzinfo:
    """A configured zone: a fixed offset (`+08:00`, `-05:30`, `+0800`, `UTC+08:00`), `UTC`/`Z`, or an
    IANA name (`Asia/Shanghai`, zoneinfo). Anything else is a ValueError saying what is accepted."""
    value = (text or "").strip()
    if value.upper() in ("UTC", "Z", "GMT", "+00:00", "-00:00"):
        return timezone.utc
    match = _OFFSET.match(value.upper())
    if match:
        sign, hours, minutes = match.groups()
        if int(minutes) < 60 and (int(hours), int(minutes)) <= (14, 0):
            delta = timedelta(hours=int(hours), minutes=int(minutes))
            return timezone(-delta if sign == "-" else delta)
    elif "/" in value and ".." not in value and not value.startswith("/"):
        try:
            return ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise ValueError(f"TIME_ZONE {text!r}: not a time zone; give a fixed offset such as +08:00 or -05:30, "
                     "UTC, or an IANA name such as Asia/Shanghai")


def zone_name(zone: tzinfo) -> str:
    """How the zone is named on a page: `UTC+08:00` for a fixed offset (`UTC` for UTC itself), the
    IANA name (`Asia/Shanghai`) for a named zone, whose offset may change with the date."""
    if isinstance(zone, ZoneInfo):
        return zone.key
    offset = zone.utcoffset(None) or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _moment(stamp: str) -> datetime | None:
    """An ISO time (`Z` read as UTC), or None when it cannot be read."""
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def shown(stamp: str | None, zone: tzinfo) -> str:
    """A stamp as an operator reads it: converted to `zone`, `2026-12-03 23:59` (seconds when it
    has any, `23:59:30`), no zone named (the page names it once). A time without a zone is shown as
    given (to the minute); anything unreadable unchanged; None or '' as ''."""
    if not stamp:
        return ""
    moment = _moment(stamp)
    if moment is None:
        return stamp
    if moment.utcoffset() is not None:
        moment = moment.astimezone(zone)
    if moment.second or moment.microsecond:
        return moment.strftime("%Y-%m-%d %H:%M:%S")
    return moment.strftime("%Y-%m-%d %H:%M")


def day_of(stamp: str | None, zone: tzinfo) -> str | None:
    """The date (`YYYY-MM-DD`) of a stamp in `zone`; a time without a zone gives its own date;
    None when there is no readable time."""
    moment = _moment(stamp) if stamp else None
    if moment is None:
        return None
    if moment.utcoffset() is not None:
        moment = moment.astimezone(zone)
    return moment.date().isoformat()


def day_start(day: str, zone: tzinfo) -> str:
    """The UTC stamp, shaped like `records.rows.now` (`2026-12-02T16:00:00.000Z`), of midnight
    starting `day` (`YYYY-MM-DD`) in `zone`: stored stamps of that day sort at or above it."""
    start = datetime.combine(date.fromisoformat(day), datetime.min.time(), tzinfo=zone)
    return start.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def day_end(day: str, zone: tzinfo) -> str:
    """The start of the next day in `zone` (`day_start`): stamps of `day` sort below it."""
    return day_start((date.fromisoformat(day) + timedelta(days=1)).isoformat(), zone)


__all__ = ["DEFAULT_ZONE", "day_end", "day_of", "day_start", "parse_zone", "shown", "zone_name"]
