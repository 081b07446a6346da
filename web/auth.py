"""Who is asking, and may they: login sessions for people, bearer tokens for servers, a role
per route, CSRF on every form, and the security headers.

Every request goes through `guard` (a before_request hook), in this order:
1. identify: `Authorization: Bearer <token>` names an account; else the signed session cookie
   does (a disabled account, or a session older than the password, counts as nobody);
2. public endpoints (`/login`, `/health`, static files) pass;
3. nobody: 401 JSON under /api/ (with `WWW-Authenticate: Bearer`), else a redirect to /login;
4. the role: a view declares its roles with `@requires(...)`; a view that declares none is
   admin-only, so a route added without thought fails closed;
5. CSRF: an unsafe method authenticated by the cookie must echo the session's token (form
   field `csrf_token` or header `X-CSRF-Token`). Browsers attach cookies on their own, never a
   bearer token, so token requests are exempt.
Checks run before the body is read, so an anonymous client cannot make the service parse 5 MB.
"""
from __future__ import annotations

import hmac
import os
import secrets
from collections.abc import Callable
from dataclasses import replace
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app, g, make_response, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask.typing import ResponseReturnValue

from audit.api import INT_MAX
from records.queries import RecordQuery
from records.security import ADMIN, AUDITOR, UPLOADER, Account, Accounts
from web.db import get_store
from web.errors import ApiError, error_response, error_text, fail
from web.i18n import gettext_in, request_language
from web.numbers import RowId

PUBLIC = frozenset({"auth.login", "auth.health", "static"})
"""Endpoints anyone may reach (the login blueprint, `web.login`, is named `auth`)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_FIELD, CSRF_HEADER = "csrf_token", "X-CSRF-Token"
READERS = (ADMIN, AUDITOR)
"""People who read, re-audit and annotate records."""
API_READERS = (ADMIN, AUDITOR, UPLOADER)
"""Everyone who may call the read API (uploaders see only their platform)."""

View = TypeVar("View", bound=Callable[..., Any])


def requires(*roles: str) -> Callable[[View], View]:
    """Declare the roles that may call a view; `guard` checks them before the body is read, and
    the wrapper checks again so the view is safe even in an app without the hook."""
    allowed = frozenset(roles)

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            _check_role(allowed)
            return view(*args, **kwargs)

        checked.allowed_roles = allowed  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


def current_account() -> Account | None:
    """The account of this request, if any."""
    account: Account | None = g.get("account")
    return account


def account_name() -> str | None:
    """The name the trail records for this request."""
    account = current_account()
    return account.name if account else None


def _check_role(allowed: frozenset[str]) -> None:
    """403 naming the roles when the account may not use this route."""
    account = current_account()
    if account is None:
        raise fail(401, "login_required")
    if account.role not in allowed:
        lang = request_language()  # a role by its name in the page's words (管理员)
        raise fail(403, "role_forbidden", role=gettext_in(lang, account.role),
                   roles=[gettext_in(lang, role) for role in sorted(allowed)])


# ----- identifying the caller -----------------------------------------------------------------


def _bearer() -> str | None:
    """The token of an Authorization: Bearer header, '' when the header is there but malformed."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def identify() -> None:
    """Set g.account and g.via ('token', 'session' or None)."""
    g.account, g.via = None, None
    token = _bearer()
    store = get_store()
    accounts = Accounts(store.db, store.trail_key)
    if token is not None:
        g.account = accounts.by_token(token) if token else None
        g.via = "token"
        return
    account_id = session.get("uid")
    if isinstance(account_id, int) and not isinstance(account_id, bool) and 0 < account_id <= INT_MAX:
        account = _session_account(accounts, account_id)
        if account is None:
            session.clear()
        g.account, g.via = account, "session" if account else None


def _session_account(accounts: Accounts, account_id: int) -> Account | None:
    """The session's account while it is active and its password unchanged."""
    try:
        account = accounts.get(account_id)
    except ValueError:
        return None
    if account.disabled or account.role == UPLOADER or session.get("key") != account.session_key:
        return None
    if session.get("gen") != account.generation:  # logged out, password changed or disabled since
        return None
    return account


def guard() -> ResponseReturnValue | None:
    """The checks every request passes (see the module docstring)."""
    g.account, g.via = None, None
    if request.endpoint in PUBLIC:
        if request.endpoint != "static" and request.method not in SAFE_METHODS:
            check_csrf()
        return None
    identify()
    if g.account is None:
        return _unauthenticated()
    view = current_app.view_functions.get(request.endpoint or "")
    if view is not None:
        _check_role(getattr(view, "allowed_roles", frozenset({ADMIN})))
    if g.via == "session" and request.method not in SAFE_METHODS:
        check_csrf()
    return None


def _unauthenticated() -> ResponseReturnValue:
    """401 for the API (and for a bad token), the login page for a person."""
    if request.path.startswith("/api/") or g.via == "token" or request.method not in SAFE_METHODS:
        code = "token_refused" if g.via == "token" else "login_required"
        response = make_response(error_response(401, "Unauthorized", error_text(code, request_language()), None, code))
        response.headers["WWW-Authenticate"] = 'Bearer realm="zhuoji"'
        return response
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


# ----- CSRF -----------------------------------------------------------------------------------


def csrf_token() -> str:
    """The session's CSRF token, made on first use (templates put it in every form)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    """400 unless the request echoes the session's token (header first: reading the form of a
    big upload costs more)."""
    expected = session.get("csrf")
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    if not isinstance(expected, str) or not sent or not hmac.compare_digest(sent, expected):
        raise fail(400, "csrf_refused")


# ----- sessions, secret key and headers -------------------------------------------------------


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie. `SESSION_COOKIE_SECURE` comes from the configuration only (default
    True): the Host header is the client's to choose, so it must not decide (`make run` sets it
    false for http://127.0.0.1; behind a TLS proxy it stays true). Any value that is not a
    boolean counts as true."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """The configured setting, failing safe."""
        return app.config.get("SESSION_COOKIE_SECURE") is not False


def ensure_secret_key(app: Flask) -> None:
    """Use the configured SECRET_KEY, else one kept in instance/secret_key (created once, 0600),
    so nothing secret is baked into the code and every process of the service shares it."""
    if app.config.get("SECRET_KEY"):
        return
    path = Path(app.instance_path) / "secret_key"
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        app.config["SECRET_KEY"] = path.read_text(encoding="ascii").strip()
        return
    key = secrets.token_hex(32)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(key)
    app.config["SECRET_KEY"] = key


def security_headers(response: Any) -> Any:
    """CSP without inline script, no sniffing, no framing, no caching of private pages."""
    headers = response.headers
    headers.setdefault("Content-Security-Policy", current_app.config["CONTENT_SECURITY_POLICY"])
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    if request.endpoint != "static":
        headers.setdefault("Cache-Control", "no-store")
    return response


# ----- platform scoping of uploader accounts ------------------------------------------------------


def visible(record: dict[str, Any]) -> bool:
    """Whether this request may see a record: an uploader sees only its own platform's."""
    account = current_account()
    return account is None or account.role != UPLOADER or record.get("platform") == account.platform


def scope_query(query: RecordQuery) -> RecordQuery:
    """An uploader's list is its platform's records; asking for another platform is a 404."""
    account = current_account()
    if account is None or account.role != UPLOADER:
        return query
    if query.platform and query.platform != account.platform:
        raise hidden_platform(query.platform)
    return replace(query, platform=account.platform)


def hidden_platform(platform: str | None) -> ApiError:
    """The 404 of a platform an uploader asks for that is not its own (as if it did not exist)."""
    return fail(404, "platform_hidden", field="platform", platform=platform)


def upload_label(label: str | None) -> str:
    """The uploader stored on records: the account, plus the client's own label when it gives one."""
    name = account_name() or (request.remote_addr or "anonymous")
    label = (label or "").strip()[:200]
    return name if not label or label == name else f"{name} / {label}"


def upload_platform() -> str | None:
    """The platform an uploader's records must be of (`Pipeline.upload_files` refuses the others
    whole); None when the account may send any (admin, auditor)."""
    account = current_account()
    return account.platform if account is not None and account.role == UPLOADER else None


def other_platform_refused(other: list[tuple[str, str]], own: str | None) -> ApiError:
    """403 naming the field when an uploader sent records of another platform; `other` holds
    (source, platform) of every such hand (`RequestRefused.other_platform`)."""
    source, platform = other[0]
    lang = request_language()
    details = {"platform": [error_text("upload_other_platform_item", lang, source=source, platform=platform, own=own)
                            for source, platform in other]}
    return fail(403, "upload_other_platform", details, source=source, platform=platform, own=own)


def init_app(app: Flask) -> None:
    """Secret key, session cookie, the guard, headers, template helpers, autoescaping.
    Called before the blueprints are registered, so their `<int:>` ids use RowId."""
    app.url_map.converters["int"] = RowId
    ensure_secret_key(app)
    app.session_interface = SessionInterface()
    app.before_request(guard)
    app.after_request(security_headers)
    app.jinja_env.autoescape = True  # every template, whatever its extension (the PDF uses them too)
    app.jinja_env.globals.update(csrf_token=csrf_token, current_account=current_account)
