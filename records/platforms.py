"""A platform's own rule profiles, in versions (issue 36.3, docs/decisions.md 36.3a). No Flask.

An admin adopts a profile for a platform: the profile file's text (from a fit, `fit.profile_toml`,
or edited by hand), who, when, why, from which fit, and the day from which it is in force. Each
adoption is a new version (1, 2, ...) of the platform's profile; versions are never changed or
deleted (m012's triggers), so the history of what judged a record stays readable.

Which version judges a record: the one in force on the record's day (`record_day`: the date of its
`played_at`, else the day it was uploaded), i.e. among the versions whose `effective_from` is on or
before that day, the one with the latest `effective_from`, the later adopted on a tie. None in force:
the record is judged under the profile its `rules.profile` names, as before. The record's own
`rules.options` apply on top of the platform's profile (`audit.engine.resolve_profile`).

Adoption is one transaction (`records.db.atomic`, BEGIN IMMEDIATE): the text is loaded by the
engine's own profile loader first (a profile that does not load is refused, naming its problem),
then the next version number is read and the row and its trail entry written in the same
transaction, so two adoptions at once queue on the write lock and never share a number; an admin
who says which version he saw as the latest (`expected_latest`) is refused when another was
adopted meanwhile, instead of silently going over it.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlite_utils import Database

from audit.api import Profile, ProfileError, is_profile_name, loads, parse_profile, to_data
from records import trail
from records.db import atomic
from records.refusal import FieldRefusal
from records.rows import now

PLATFORM_CHARACTERS = 128
"""Longest platform name a version may be adopted for (as a record's `platform` may be)."""
WHY_CHARACTERS = 2000
"""Longest reason an admin may give."""
TEXT_BYTES = 256 * 1024
"""Largest profile file accepted (a full profile is about 3 KB)."""


class PlatformProfileRefused(FieldRefusal):
    """An adoption refused: `field` the form field to fix, `code` the stable name (web/errors.toml),
    `params` its values; `problem` the loader's own error when the profile did not load (the web
    layer words it in the asker's language)."""

    def __init__(self, field: str, message: str, code: str, problem: ProfileError | None = None,
                 **params: Any) -> None:
        super().__init__(field, message, code, **params)
        self.problem = problem


@dataclass(frozen=True)
class Version:
    """One adopted version of a platform's profile."""

    id: int
    platform: str
    version: int
    name: str
    """The profile's own `name` (what its audits say they were judged under)."""
    text: str
    """The profile file as adopted, comments included."""
    who: str
    created_at: str
    why: str
    fit: dict[str, Any] | None
    """What the fit it came from said of itself (base profile, records, clean before and after), or None."""
    effective_from: str
    """The first day (YYYY-MM-DD) of the records it judges."""

    def profile(self) -> Profile:
        """The profile, loaded by the engine's loader (cached: a version never changes)."""
        return _parsed(self.id, self.text, self.name)

    def to_json(self) -> dict[str, Any]:
        """The version as plain data (the trail, the API)."""
        return {"id": self.id, "platform": self.platform, "version": self.version, "name": self.name,
                "who": self.who, "created_at": self.created_at, "why": self.why, "fit": self.fit,
                "effective_from": self.effective_from}


@lru_cache(maxsize=256)
def _parsed(version_id: int, text: str, name: str) -> Profile:
    """A stored version's profile (the text passed the loader when it was adopted)."""
    return parse_profile(text, name)


def load_text(text: str) -> Profile:
    """The profile a profile file's text holds, checked by the engine's loader exactly as a file in
    ZHUOJI_PROFILE_DIR would be; ProfileError naming the problem otherwise. The file's own `name`
    names it (there is no file name to agree with)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError("", "profile_not_toml", {"file": "profile", "error": str(exc)}) from None
    name = data.get("name")
    return parse_profile(text, name if isinstance(name, str) and is_profile_name(name) else "profile")


def _refuse(field: str, message: str, code: str, **params: Any) -> PlatformProfileRefused:
    return PlatformProfileRefused(field, message, code, **params)


def check_day(text: object, field: str = "effective_from") -> str:
    """A day as YYYY-MM-DD, or a refusal naming the field."""
    value = text.strip() if isinstance(text, str) else ""
    try:
        if len(value) != 10:
            raise ValueError(value)
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise _refuse(field, f"{value!r} is not a date (YYYY-MM-DD)", "date_bad", value=value) from None


def _check(platform: str, text: str, who: str, why: str) -> Profile:
    """The adoption's fields, or the first refusal; the loaded profile."""
    if not platform.strip() or len(platform) > PLATFORM_CHARACTERS:
        raise _refuse("platform", f"a platform name of 1 to {PLATFORM_CHARACTERS} characters is needed",
                      "platform_name_bad", limit=PLATFORM_CHARACTERS)
    if not who.strip():
        raise _refuse("who", "the adopting account is not named", "platform_who_missing")
    if not why.strip() or len(why) > WHY_CHARACTERS:
        raise _refuse("why", f"a reason of 1 to {WHY_CHARACTERS} characters is needed", "platform_why_missing",
                      limit=WHY_CHARACTERS)
    if len(text.encode("utf-8", "surrogatepass")) > TEXT_BYTES:
        raise _refuse("profile_file", f"the profile file is over {TEXT_BYTES} bytes", "platform_profile_too_big",
                      limit=TEXT_BYTES)
    try:
        return load_text(text)
    except ProfileError as exc:
        raise PlatformProfileRefused("profile_file", f"the profile does not load: {exc}", "platform_profile_not_loaded",
                                     problem=exc, error=str(exc)) from None


def adopt(db: Database, platform: str, text: str, *, who: str, why: str, effective_from: str,
          fit: dict[str, Any] | None = None, expected_latest: int | None = None, key: bytes) -> Version:
    """Adopt `text` as the platform's next profile version, in force from `effective_from`, with its
    trail entry, in one transaction. Refused (PlatformProfileRefused, nothing written) when a field
    is wrong, the profile does not load, or `expected_latest` is given and is not the platform's
    latest version any more (another adoption got in first)."""
    profile = _check(platform, text, who, why)
    day = check_day(effective_from)
    stamp = now()
    with atomic(db):
        latest = latest_number(db, platform)
        if expected_latest is not None and expected_latest != latest:
            raise _refuse("expected_latest", f"version {latest} of {platform} was adopted meanwhile; review it first",
                          "platform_profile_stale", platform=platform, latest=latest, expected=expected_latest)
        row = {"platform": platform, "version": latest + 1, "name": profile.name, "text": text, "who": who,
               "created_at": stamp, "why": why.strip(),
               "fit": None if fit is None else json.dumps(fit, ensure_ascii=False, sort_keys=True),
               "effective_from": day, "text_sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()}
        cursor = db.execute(f"INSERT INTO platform_profiles ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                            list(row.values()))
        version_id = int(cursor.lastrowid or 0)
        trail.append(db, at=stamp, actor=who, action="platform-adopt", key=key,
                     detail={"platform": platform, "version": latest + 1, "profile_id": version_id,
                             "name": profile.name, "effective_from": day, "why": row["why"],
                             "text_sha256": row["text_sha256"], "fit": fit})
    found = get(db, version_id)
    assert found is not None
    return found


def latest_number(db: Database, platform: str) -> int:
    """The platform's highest version number, 0 when none was adopted."""
    row = db.execute("SELECT coalesce(max(version), 0) FROM platform_profiles WHERE platform = ?", [platform]).fetchone()
    return int(row[0])


_COLUMNS = "id, platform, version, name, text, who, created_at, why, fit, effective_from"


def _version(row: Any) -> Version:
    fit = loads(row[8]) if row[8] else None
    return Version(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], fit, row[9])


def get(db: Database, version_id: int) -> Version | None:
    """The version with this id, None when there is none."""
    row = db.execute(f"SELECT {_COLUMNS} FROM platform_profiles WHERE id = ?", [version_id]).fetchone()
    return _version(row) if row else None


def by_number(db: Database, platform: str, version: int) -> Version | None:
    """Version `version` of the platform, None when there is none."""
    row = db.execute(f"SELECT {_COLUMNS} FROM platform_profiles WHERE platform = ? AND version = ?",
                     [platform, version]).fetchone()
    return _version(row) if row else None


def versions(db: Database, platform: str) -> list[Version]:
    """Every version of the platform's profile, newest first."""
    return [_version(row) for row in db.execute(f"SELECT {_COLUMNS} FROM platform_profiles WHERE platform = ? "
                                                "ORDER BY version DESC", [platform])]


def in_force(db: Database, platform: str, day: str) -> Version | None:
    """The version that judges the platform's records of `day` (YYYY-MM-DD), None when none does."""
    row = db.execute(f"SELECT {_COLUMNS} FROM platform_profiles WHERE platform = ? AND effective_from <= ? "
                     "ORDER BY effective_from DESC, version DESC LIMIT 1", [platform, day]).fetchone()
    return _version(row) if row else None


def record_day(played_at: object, uploaded_at: str | None = None) -> str:
    """The day a record is judged for: its `played_at`'s date as written (the platform's own
    calendar), else the day it was uploaded (UTC), else today (UTC: an upload being stored now)."""
    if isinstance(played_at, str) and len(played_at) >= 10:
        try:
            return datetime.date.fromisoformat(played_at[:10]).isoformat()
        except ValueError:
            pass
    return (uploaded_at or now())[:10]


def pick(candidates: Iterable[Version], day: str) -> Version | None:
    """Of a platform's versions, the one in force on `day` (`in_force` without the database)."""
    return max((v for v in candidates if v.effective_from <= day), key=lambda v: (v.effective_from, v.version),
               default=None)


IDS_PER_QUERY = 500
"""Record ids looked up per query by `judges_of` (SQLite's limit on parameters is far above)."""


def judges_of(db: Database, ids: Sequence[int]) -> dict[int, Version]:
    """The version that judges each of these stored records, for those that have one: the version
    in force on the record's day (a match hand: its match's first hand's day, as at upload), read
    from the records' rows in a few queries."""
    known: dict[str, list[Version]] = {}
    out: dict[int, Version] = {}
    adopted = {row[0] for row in db.execute("SELECT DISTINCT platform FROM platform_profiles")}
    if not adopted:
        return out
    for start in range(0, len(ids), IDS_PER_QUERY):
        chunk = list(ids[start:start + IDS_PER_QUERY])
        rows = db.execute(
            "SELECT r.id, r.platform, coalesce(f.played_at, r.played_at), coalesce(f.uploaded_at, r.uploaded_at) "
            "FROM records r LEFT JOIN records f ON r.match_id IS NOT NULL AND f.match_id = r.match_id "
            f"AND f.match_index = 0 WHERE r.id IN ({', '.join('?' for _ in chunk)})", chunk)
        for record_id, platform, played_at, uploaded_at in rows:
            if platform not in adopted:
                continue
            if platform not in known:
                known[platform] = versions(db, platform)
            found = pick(known[platform], record_day(played_at, uploaded_at))
            if found is not None:
                out[record_id] = found
    return out


def judge_of(db: Database, doc: object, uploaded_at: str | None = None) -> Version | None:
    """The version that judges this record or match document, None when its platform has none in
    force on its day (a match: its `platform` and `played_at`, else those of its first hand)."""
    if not isinstance(doc, dict):
        return None
    source = doc
    hands = doc.get("hands")
    if doc.get("format") == "zhuoji-match/1" and isinstance(hands, list) and hands and isinstance(hands[0], dict):
        source = {**hands[0], **{k: v for k, v in doc.items() if k in ("platform", "played_at")}}
    platform = source.get("platform")
    if not isinstance(platform, str) or not platform:
        return None
    return in_force(db, platform, record_day(source.get("played_at"), uploaded_at))


def judges_of_documents(db: Database, docs: Sequence[object]) -> list[Version | None]:
    """`judge_of` each document, in one call per batch: no platform with an adopted version (the
    usual upload) costs one query and nothing per document."""
    if db.execute("SELECT 1 FROM platform_profiles LIMIT 1").fetchone() is None:
        return [None] * len(docs)
    return [judge_of(db, doc) for doc in docs]


def platforms(db: Database) -> list[dict[str, Any]]:
    """Every platform with stored records or adopted versions: its current records, its latest
    version number and the version in force today."""
    counts = {row[0]: row[1] for row in db.execute(
        "SELECT platform, count(*) FROM records WHERE is_current = 1 AND platform != '' GROUP BY platform")}
    latest = {row[0]: row[1] for row in db.execute(
        "SELECT platform, max(version) FROM platform_profiles GROUP BY platform")}
    today = now()[:10]
    out = []
    for name in sorted(set(counts) | set(latest)):
        current = in_force(db, name, today) if name in latest else None
        out.append({"platform": name, "records": counts.get(name, 0), "latest": latest.get(name, 0),
                    "in_force": current.version if current else None})
    return out


@dataclass(frozen=True)
class Difference:
    """One parameter whose value differs between two versions."""

    parameter: str
    old: Any
    new: Any


def _flat(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted parameter, value) of a profile's data, tables opened, lists kept whole."""
    if isinstance(data, dict):
        for name, value in data.items():
            yield from _flat(value, f"{path}.{name}" if path else name)
    else:
        yield path, data


def compare(old: Version, new: Version) -> list[Difference]:
    """Every parameter whose value differs between two versions (a missing one shows as None),
    in the profile file's order."""
    before = dict(_flat(to_data(old.profile())))
    after = dict(_flat(to_data(new.profile())))
    names = list(before) + [name for name in after if name not in before]
    return [Difference(name, before.get(name), after.get(name)) for name in names
            if before.get(name) != after.get(name)]


__all__ = ["Difference", "PlatformProfileRefused", "Version", "adopt", "by_number", "check_day", "compare", "get",
           "in_force", "judge_of", "judges_of", "judges_of_documents", "latest_number", "pick", "load_text", "platforms", "record_day", "versions"]
