"""What a hand and its audit become in the store's rows: functions of the document and the audit.

The store (`records.store`) writes these values and `records.verify` recomputes them from the
stored bytes and audits to check the rows, so both take them from here. No SQL, no Flask.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from records import search, trail

VERDICTS = ("invalid", "illegal", "missettled", "clean")
"""Every verdict of the contract, worst first."""
UNAUDITED = "unaudited"
"""Pseudo-verdict of a stored record with no audit yet: the engine failed on it (`audit_error` says how)
or the process stopped between storing the bytes and auditing them. `flask reaudit --verdict unaudited`."""
AUDIT_FIELDS = ("id", "record_id", "game_id", "profile", "options_json", "engine_version", "verdict", "findings_json",
                "settlement_json", "created_at")
"""The columns of an audit row its trail entry's digest covers (all of them)."""

JUDGED_BY = "platform_profile_id"
"""The key the pipeline adds to an engine audit that a platform's profile judged (issue 36.3): the
id of that version (`records.platforms`); the store keeps it in the audit row's column of that name."""

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def now() -> str:
    """UTC timestamp with milliseconds, sortable as text: the time every stored row carries."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def sha256(data: bytes) -> str:
    """Hex digest used as the identity of stored bytes."""
    return hashlib.sha256(data).hexdigest()


def audit_digest(row: dict[str, Any]) -> str:
    """sha256 of an audit row as stored: its trail entry records it, `verify` recomputes it. The
    platform profile version that judged it (m012, issue 36.3) is covered when there is one, so the
    digests of the rows written before it stay what their entries say."""
    judged_by = row.get("platform_profile_id")
    extra = [] if judged_by is None else [judged_by]
    return trail.digest([row.get(name) for name in AUDIT_FIELDS] + extra)


def searchable(doc: dict[str, Any]) -> dict[str, Any]:
    """The parsed columns of a record; the document stays the authority."""
    rules = _object(doc.get("rules"))
    played = _text(doc.get("played_at"))
    seats = _array(doc.get("seats"))
    return {"client": _text(doc.get("client")), "profile": _text(rules.get("profile")),
            "played_at": played, "played_date": played[:10] if played and _DATE.match(played) else None,
            "played_utc": _utc(played), "base": doc.get("base", 1), "dealer": doc.get("dealer"),
            "dealer_streak": doc.get("dealer_streak", 0),
            "players": " / ".join(str(seat.get("name", "")) for seat in seats if isinstance(seat, dict))}


def players_of(record_id: int, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of `record_players` for the player filter."""
    return [{"record_id": record_id, **seat} for seat in _seats(doc)]


def record_values(doc: dict[str, Any], platform: str, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                                               str]:
    """Everything a new record's rows hold of its document, in one call: the `searchable`
    columns, its seats as `players_of` has them without the record id (not known yet), and its
    search text (`records.search.record_text`)."""
    columns, seats = searchable(doc), _seats(doc)
    return columns, seats, search.record_text(game_id, platform, columns["client"], seats)


def _seats(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's number, name and player id."""
    return [{"seat": index, "name": _text(seat.get("name")), "player_id": _text(seat.get("player_id"))}
            for index, seat in enumerate(_array(doc.get("seats"))) if isinstance(seat, dict)]


def rule_codes(findings: Sequence[Any]) -> list[str]:
    """The distinct rule codes of findings, in first-seen order."""
    codes: list[str] = []
    for finding in findings:
        rule = finding.get("rule") if isinstance(finding, dict) else None
        if isinstance(rule, str) and rule and rule not in codes:
            codes.append(rule)
    return codes


def section_of(rule: str) -> str:
    """`R8.3` -> `R8`; a code without a dot is its own section."""
    return rule.split(".", 1)[0]


def _object(value: Any) -> dict[str, Any]:
    """A JSON object field, or {} when absent or not an object."""
    return value if isinstance(value, dict) else {}


def _array(value: Any) -> list[Any]:
    """A JSON array field, or [] when absent or not an array."""
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    """A string field, or None when absent or not a string."""
    return value if isinstance(value, str) else None


def _utc(played: str | None) -> str | None:
    """`played_at` in UTC for sorting across time zones; as given when it has no zone."""
    if not played:
        return None
    try:
        moment = datetime.fromisoformat(played.replace("Z", "+00:00"))
    except ValueError:
        return played
    if moment.tzinfo is None:
        return moment.isoformat()
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


__all__ = ["AUDIT_FIELDS", "UNAUDITED", "VERDICTS", "audit_digest", "now", "players_of", "record_values", "rule_codes",
           "searchable", "section_of", "sha256"]
