"""Login throttling: per account name and per client address, with exponential back-off. No Flask.

Each key (`name:<account>`, `addr:<address>`) counts failed logins. The first FREE_FAILURES
failures cost nothing; each further one locks the key for twice as long as the last (1 s, 2 s,
4 s, ... up to MAX_LOCK), and while a key is locked a login is refused with its Retry-After before
the password is even checked, so guessing costs time that grows with every miss. Failures are
forgotten FORGET_AFTER seconds after the last one; a successful login clears the name's count
(not the address's, so an attacker with one account of their own cannot reset it).

Trail rows of failed logins are coalesced: a `login-failed` row is written when neither key has
had one for LOG_EVERY seconds, carrying the counts since, so 60 guesses from 16 clients are a
handful of rows instead of 84, and real entries stay in view.

The counts live in the service's database (table `login_throttle`, m004), shared by every worker
process; a write happens only on a failed or refused login.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

FREE_FAILURES = 5
"""Failed logins per key before the back-off starts."""
MAX_LOCK = 900.0
"""The longest lock, in seconds."""
FORGET_AFTER = 900.0
"""Seconds after the last failure when a key's count starts again from nothing."""
LOG_EVERY = 60.0
"""At most one `login-failed` trail row per key in this many seconds."""


@dataclass(frozen=True)
class Failure:
    """What a failed login did to the counts."""

    failures: int
    """The highest count of the two keys."""
    locked_for: float
    """Seconds the keys are now locked (0 while failures are still free)."""
    log: bool
    """Whether this failure gets a trail row (the coalescing rule)."""
    refused: int
    """Logins refused while locked since the last trail row, reported in it."""


def keys(name: str, address: str | None) -> list[str]:
    """The throttle keys of a login attempt."""
    return [f"name:{name.casefold()[:64]}", f"addr:{address or 'unknown'}"]


def retry_after(db: Database, names: list[str], now: float) -> float:
    """Seconds until every key is unlocked (0: go ahead)."""
    marks = ", ".join("?" * len(names))
    row = db.execute(f"SELECT max(blocked_until) FROM login_throttle WHERE key IN ({marks})", names).fetchone()
    until = row[0] if row and row[0] is not None else 0.0
    return max(0.0, float(until) - now)


def refuse(db: Database, names: list[str]) -> None:
    """Count a login refused while locked (inside a write transaction)."""
    marks = ", ".join("?" * len(names))
    db.execute(f"UPDATE login_throttle SET refused = refused + 1 WHERE key IN ({marks})", names)


def fail(db: Database, names: list[str], now: float) -> Failure:
    """Count a failed login against every key and lock them as the back-off says (inside a write
    transaction)."""
    highest, longest, log, refused = 0, 0.0, False, 0
    for key in names:
        row = db.execute("SELECT failures, refused, last_at, logged_at FROM login_throttle WHERE key = ?",
                         [key]).fetchone()
        failures, was_refused, last_at, logged_at = row if row else (0, 0, 0.0, 0.0)
        if now - float(last_at or 0.0) > FORGET_AFTER:
            failures = 0
        failures += 1
        lock = 0.0 if failures <= FREE_FAILURES else min(MAX_LOCK, 2.0 ** (failures - FREE_FAILURES - 1))
        logs = now - float(logged_at or 0.0) >= LOG_EVERY
        log = log or logs
        refused = max(refused, int(was_refused or 0))
        db.execute("INSERT INTO login_throttle (key, failures, refused, last_at, blocked_until, logged_at) "
                   "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, "
                   "refused = excluded.refused, last_at = excluded.last_at, blocked_until = excluded.blocked_until, "
                   "logged_at = excluded.logged_at",
                   [key, failures, 0 if logs else int(was_refused or 0), now, now + lock,
                    now if logs else float(logged_at or 0.0)])
        highest, longest = max(highest, failures), max(longest, lock)
    if log:  # the row about to be written reports the refusals; every key starts counting again
        marks = ", ".join("?" * len(names))
        db.execute(f"UPDATE login_throttle SET refused = 0, logged_at = ? WHERE key IN ({marks})", [now, *names])
    return Failure(highest, longest, log, refused)


def succeed(db: Database, name_key: str) -> None:
    """A good login clears its name's count (inside a write transaction)."""
    db.execute("DELETE FROM login_throttle WHERE key = ?", [name_key])


__all__ = ["FREE_FAILURES", "Failure", "LOG_EVERY", "MAX_LOCK", "fail", "keys", "refuse", "retry_after", "succeed"]
