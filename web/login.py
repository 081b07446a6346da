"""Logging in and out, and the health check: the only routes anyone may reach (`web.auth.PUBLIC`).

The blueprint keeps the name `auth` (endpoints `auth.login`, `auth.logout`,
`auth.health`); who may do what is decided by `web.auth`, which is not a blueprint.
"""
from __future__ import annotations

import math
import secrets
import time
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, make_response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from records import throttle, trail
from records.db import atomic
from records.rows import now
from records.security import ADMIN, AUDITOR, UPLOADER, Accounts
from web.auth import current_account, requires
from web.db import get_store

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    """Only a path on this site (no scheme, no host, no //) may be a post-login destination."""
    if (target and target.startswith("/") and not target.startswith("//") and "\\" not in target
            and target.isprintable() and len(target) <= 2000):  # no CR/LF or other control characters
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("pages.records")


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    """The login form; a wrong name or password gets the same answer (and the same time). Failed
    logins are throttled per name and per address (`records.throttle`): 429 with Retry-After."""
    target = _safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template("auth/login.html", next=target, error=None, name="")
    name = request.form.get("name", "")[:64]
    store = get_store()
    keys = throttle.keys(name, request.remote_addr)
    wait = throttle.retry_after(store.db, keys, time.time())
    if wait > 0:
        with atomic(store.db):
            throttle.refuse(store.db, keys)
        return _throttled(target, name, wait)
    accounts = Accounts(store.db, store.trail_key)
    account = accounts.authenticate(name, request.form.get("password", ""))
    error = None if account else "wrong"
    if account is not None and account.role == UPLOADER:
        account, error = None, "uploader"
    with atomic(store.db):
        if account is not None:
            throttle.succeed(store.db, keys[0])
            trail.append(store.db, at=now(), actor=account.name, action="login", key=store.trail_key,
                         detail={"name": name, "address": request.remote_addr, "reason": None})
        else:
            failure = throttle.fail(store.db, keys, time.time())
            if failure.log:
                trail.append(store.db, at=now(), actor=None, action="login-failed", key=store.trail_key,
                             detail={"name": name, "address": request.remote_addr, "reason": error,
                                     "failures": failure.failures, "refused_while_locked": failure.refused,
                                     "locked_for": failure.locked_for})
    if account is None:
        return render_template("auth/login.html", next=target, error=error, name=name), 401
    session.clear()
    session.permanent = True
    session.update(uid=account.id, key=account.session_key, gen=account.generation, csrf=secrets.token_urlsafe(32))
    return redirect(target, code=303)


def _throttled(target: str, name: str, wait: float) -> ResponseReturnValue:
    """429 with Retry-After (whole seconds, rounded up); the password was not looked at."""
    seconds = max(1, math.ceil(wait))
    response = make_response(render_template("auth/login.html", next=target, error="throttled", name=name,
                                              retry_after=seconds), 429)
    response.headers["Retry-After"] = str(seconds)
    return response


@bp.post("/logout")
@requires(ADMIN, AUDITOR)
def logout() -> ResponseReturnValue:
    """End every session of the account, not only this one (a POST with the CSRF token, so another
    site cannot log people out): a copied cookie stops working too."""
    store = get_store()
    account = current_account()
    with atomic(store.db):
        if account is not None:
            Accounts(store.db, store.trail_key).end_sessions(account.id, actor=account.name, stamp=now())
    session.clear()
    return redirect(url_for("auth.login"), code=303)


@bp.get("/health")
def health() -> ResponseReturnValue:
    """For load balancers and `make run` scripts: the database answers. Says nothing else."""
    try:
        get_store().db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()
    except Exception:  # noqa: BLE001 - any failure means unhealthy; the log has the details
        current_app.logger.exception("health check failed")
        return jsonify({"status": "unavailable"}), 503
    return jsonify({"status": "ok"})
