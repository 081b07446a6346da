"""Operator accounts and API tokens: who may do what. No Flask here.

Three roles:
- `admin` manages accounts and tokens and may do everything an auditor does;
- `auditor` reads records, re-audits them, annotates them and exports them;
- `uploader` is a platform's server: it uploads through the API with a token
  and reads back only the records of the one platform it is bound to.

Passwords are hashed with werkzeug's default (scrypt). API tokens are random
(`zj_` + 43 URL-safe characters, 256 bits), shown once, and stored as their
sha256 only: a token is already high-entropy, so a fast hash is enough and lets
a request find its account by an indexed equality lookup. Tokens are revoked,
never deleted, so the trail can still name them.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from werkzeug.security import check_password_hash, generate_password_hash

from records import trail
from records.refusal import FieldRefusal

ADMIN, AUDITOR, UPLOADER = "admin", "auditor", "uploader"
ROLES = (ADMIN, AUDITOR, UPLOADER)
"""Every role, most powerful first."""
TOKEN_PREFIX = "zj_"
"""Makes a leaked token recognisable (secret scanners, logs)."""
NAME = re.compile(r"^[\w.@-]{1,64}$")
"""Account names: letters (any script), digits, `_ . @ -`; no spaces, so logs stay unambiguous."""
MAX_PASSWORD = 1024
"""Longer passwords are refused rather than hashed (hashing cost grows with length)."""
MIN_PASSWORD = 8
COMMON_PASSWORDS = Path(__file__).with_name("common_passwords.txt")
"""The passwords refused whatever their length: the commonest of published leaks, one a line."""
_DUMMY_HASH = generate_password_hash("not a password")
"""Checked against when the account does not exist, so a login takes as long either way."""


class AccountError(FieldRefusal):
    """A request to create or change an account that breaks a rule: the field, a stable code and its
    values (worded by the web layer in the asker's language, web/errors.toml); `str()` is the
    English `field: message` the commands print."""


@dataclass(frozen=True)
class Account:
    """An operator as the web layer sees it (never with its password hash)."""

    id: int
    name: str
    role: str
    platform: str | None
    disabled: bool
    created_at: str
    created_by: str | None
    session_key: str
    """A digest of the password hash: a session made before the password changed stops working."""
    generation: int = 0
    """Raised by logout, a password change and disabling: every session carries the generation it
    was made in, and one made in an older generation is nobody's."""

    @property
    def is_admin(self) -> bool:
        """Admins may manage accounts."""
        return self.role == ADMIN


def _account(row: dict[str, Any]) -> Account:
    """A database row as an Account."""
    return Account(id=row["id"], name=row["name"], role=row["role"], platform=row["platform"],
                   disabled=bool(row["disabled"]), created_at=row["created_at"], created_by=row["created_by"],
                   session_key=hashlib.sha256(row["password_hash"].encode("utf-8")).hexdigest()[:16],
                   generation=int(row.get("generation") or 0))


def new_password() -> str:
    """A random password for bootstrap and resets: 20 URL-safe characters, about 120 bits."""
    return secrets.token_urlsafe(15)


def hash_token(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_name(name: str) -> str:
    """An account name, or AccountError naming the rule."""
    if not isinstance(name, str) or not NAME.match(name):
        raise AccountError("name", "1 to 64 letters, digits or _ . @ -, no spaces", "account_name_bad")
    return name


def check_password(password: str, name: str | None = None) -> str:
    """A password long enough, not absurdly long, not one of the commonest passwords and not the
    account's own name."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("password", f"{MIN_PASSWORD} to {MAX_PASSWORD} characters", "account_password_length",
                           low=MIN_PASSWORD, high=MAX_PASSWORD)
    folded = password.casefold()
    if folded in common_passwords() or (name is not None and len(name) >= 4 and name.casefold() in folded):
        raise AccountError("password", "too easy to guess (a common password, or one containing the account "
                           "name); choose another", "account_password_common")
    return password


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """The bundled list, case-folded."""
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().casefold() for line in lines if line.strip() and not line.startswith("#"))


def check_role(role: str, platform: str | None) -> tuple[str, str | None]:
    """A role and the platform it needs: an uploader is bound to exactly one platform, others to none."""
    if role not in ROLES:
        raise AccountError("role", f"one of {', '.join(ROLES)}", "account_role_unknown", choices=list(ROLES))
    platform = (platform or "").strip() or None
    if role == UPLOADER and platform is None:
        raise AccountError("platform", "an uploader must be bound to the platform it uploads for",
                           "account_platform_missing")
    if platform is not None and len(platform) > 200:
        raise AccountError("platform", "at most 200 characters", "too_long", limit=200)
    return role, platform if role == UPLOADER else None


class Accounts:
    """Accounts and tokens in the service's database (tables made by m003_trust in `records.migrations`).
    Every change writes its own trail entry carrying the state it leaves (in the caller's write
    transaction), so `flask verify` can check each account and token against the chain."""

    def __init__(self, db: Database, key: bytes = b"") -> None:
        self.db = db
        self.key = key

    def _log(self, action: str, account: Account, actor: str | None, stamp: str, **extra: object) -> None:
        """The account's whole state after a change, in the trail."""
        trail.append(self.db, at=stamp, actor=actor, action=action, key=self.key,
                     detail={**self.state(account.id), **extra})

    def state(self, account_id: int) -> dict[str, Any]:
        """What the trail records of an account: `verify` compares it with the row."""
        row = self.db.execute("SELECT id, name, role, platform, disabled, password_hash, generation FROM accounts "
                              "WHERE id = ?", [account_id]).fetchone()
        return {"account_id": row[0], "account": row[1], "role": row[2], "platform": row[3],
                "disabled": bool(row[4]), "password": trail.fingerprint(self.key, row[5]), "generation": row[6]}

    # ----- accounts ----------------------------------------------------------------------

    def create(self, name: str, role: str, password: str, *, platform: str | None = None,
               created_by: str | None = None, stamp: str, password_hash: str | None = None,
               action: str = "account-create") -> Account:
        """Add an account; AccountError when the name is taken or a field is bad.
        `password_hash` lets tests insert a cheap precomputed hash."""
        check_name(name)
        role, platform = check_role(role, platform)
        hashed = password_hash or generate_password_hash(check_password(password, name))
        if self.by_name(name) is not None:
            raise AccountError("name", f"an account named {name!r} already exists", "account_name_taken", name=name)
        cursor = self.db.execute(
            "INSERT INTO accounts (name, role, platform, password_hash, disabled, created_at, created_by) "
            "VALUES (?, ?, ?, ?, 0, ?, ?)", [name, role, platform, hashed, stamp, created_by])
        account = self.get(int(cursor.lastrowid or 0))
        self._log(action, account, created_by, stamp)
        return account

    def get(self, account_id: int) -> Account:
        """An account by id; AccountError if there is none."""
        rows = list(self.db.query("SELECT * FROM accounts WHERE id = ?", [account_id]))
        if not rows:
            raise AccountError("account", f"account {account_id} does not exist", "account_missing", id=account_id)
        return _account(rows[0])

    def by_name(self, name: str) -> Account | None:
        """An account by name, or None."""
        rows = list(self.db.query("SELECT * FROM accounts WHERE name = ?", [name]))
        return _account(rows[0]) if rows else None

    def all(self) -> list[Account]:
        """Every account, by name."""
        return [_account(row) for row in self.db.query("SELECT * FROM accounts ORDER BY name")]

    def has_active_admin(self) -> bool:
        """Whether somebody can still manage accounts (bootstrap creates one when not)."""
        row = self.db.execute("SELECT count(*) FROM accounts WHERE role = ? AND disabled = 0", [ADMIN]).fetchone()
        return bool(row[0])

    def authenticate(self, name: str, password: str) -> Account | None:
        """The active account with this name and password, else None (same cost either way)."""
        row = self.db.execute("SELECT id, password_hash, disabled FROM accounts WHERE name = ?",
                              [name]).fetchone() if isinstance(name, str) else None
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            return None
        good = check_password_hash(row[1] if row else _DUMMY_HASH, password)
        if not good or row is None or row[2]:
            return None
        return self.get(row[0])

    def set_role(self, account_id: int, role: str, platform: str | None, *, actor: str | None,
                 stamp: str) -> Account:
        """Change an account's role and platform."""
        role, platform = check_role(role, platform)
        self._refuse_last_admin(account_id, losing=role != ADMIN)
        self.db.execute("UPDATE accounts SET role = ?, platform = ? WHERE id = ?", [role, platform, account_id])
        account = self.get(account_id)
        self._log("account-update", account, actor, stamp, change="role")
        return account

    def set_disabled(self, account_id: int, disabled: bool, *, actor: str | None, stamp: str) -> Account:
        """Disable (or enable again) an account: its sessions and tokens stop working at once."""
        self._refuse_last_admin(account_id, losing=disabled)
        self.db.execute("UPDATE accounts SET disabled = ?, generation = generation + ? WHERE id = ?",
                        [int(disabled), int(disabled), account_id])
        account = self.get(account_id)
        self._log("account-update", account, actor, stamp, change="disabled" if disabled else "enabled")
        return account

    def set_password(self, account_id: int, password: str, *, actor: str | None, stamp: str) -> None:
        """Replace an account's password; every session of the account ends."""
        hashed = generate_password_hash(check_password(password, self.get(account_id).name))
        self.db.execute("UPDATE accounts SET password_hash = ?, generation = generation + 1 WHERE id = ?",
                        [hashed, account_id])
        self._log("account-update", self.get(account_id), actor, stamp, change="password")

    def end_sessions(self, account_id: int, *, actor: str | None, stamp: str, action: str = "logout") -> Account:
        """End every session of the account (logout does it for all of them, not only the one asking)."""
        self.db.execute("UPDATE accounts SET generation = generation + 1 WHERE id = ?", [account_id])
        account = self.get(account_id)
        self._log(action, account, actor, stamp)
        return account

    def _refuse_last_admin(self, account_id: int, *, losing: bool) -> None:
        """Never leave the service without an active admin."""
        account = self.get(account_id)
        if losing and account.role == ADMIN and not account.disabled:
            row = self.db.execute("SELECT count(*) FROM accounts WHERE role = ? AND disabled = 0 AND id != ?",
                                  [ADMIN, account_id]).fetchone()
            if not row[0]:
                raise AccountError("role", "this is the last active admin; create another admin first",
                                   "account_last_admin")

    # ----- tokens ------------------------------------------------------------------------

    def create_token(self, account_id: int, *, label: str | None, created_by: str | None, stamp: str) -> str:
        """A new token for an account; the only time its text exists outside the client."""
        account = self.get(account_id)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        cursor = self.db.execute(
            "INSERT INTO tokens (account_id, token_hash, prefix, label, created_at, created_by) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [account_id, hash_token(token), token[:10], (label or "")[:100] or None, stamp, created_by])
        self._log("token-create", account, created_by, stamp, token=token[:10], token_id=int(cursor.lastrowid or 0),
                  token_hash=trail.fingerprint(self.key, hash_token(token)), label=(label or "")[:100] or None)
        return token

    def tokens(self, account_id: int) -> list[dict[str, Any]]:
        """An account's tokens (never their text), newest first."""
        return list(self.db.query("SELECT id, prefix, label, created_at, created_by, revoked_at, revoked_by "
                                  "FROM tokens WHERE account_id = ? ORDER BY id DESC", [account_id]))

    def token(self, token_id: int) -> dict[str, Any]:
        """One token's row; AccountError if there is none."""
        rows = list(self.db.query("SELECT id, account_id, prefix, label, revoked_at FROM tokens WHERE id = ?",
                                  [token_id]))
        if not rows:
            raise AccountError("token", f"token {token_id} does not exist", "token_missing", id=token_id)
        return rows[0]

    def revoke_token(self, token_id: int, *, revoked_by: str | None, stamp: str) -> None:
        """Stop a token from working; revoking twice keeps the first time."""
        row = self.token(token_id)
        if row["revoked_at"] is not None:
            return
        self.db.execute("UPDATE tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL",
                        [stamp, revoked_by, token_id])
        self._log("token-revoke", self.get(row["account_id"]), revoked_by, stamp, token=row["prefix"],
                  token_id=token_id)

    def by_token(self, token: str) -> Account | None:
        """The active account a live token belongs to, else None."""
        if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        digest = hash_token(token)
        row = self.db.execute("SELECT account_id, token_hash FROM tokens WHERE token_hash = ? AND revoked_at IS NULL",
                              [digest]).fetchone()
        if row is None or not hmac.compare_digest(row[1], digest):
            return None
        account = self.get(row[0])
        return None if account.disabled else account


__all__ = ["ADMIN", "AUDITOR", "Account", "AccountError", "Accounts", "ROLES", "TOKEN_PREFIX", "UPLOADER",
           "check_name", "check_password", "check_role", "hash_token", "new_password"]
