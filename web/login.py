"""Logging in and out, and the health check: the only routes anyone may reach (`web.auth.PUBLIC`).

The blueprint keeps the name `auth` (endpoints `auth.login`, `auth.logout`,
`auth.health`); who may do what is decided by `web.auth`, which is not a blueprint.
"""
from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from records import trail
from records.security import ADMIN, AUDITOR, UPLOADER, Accounts
from records.storage import now
from web.auth import account_name, requires
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
    """The login form; a wrong name or password gets the same answer (and the same time)."""
    target = _safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template("auth/login.html", next=target, error=None, name="")
    name = request.form.get("name", "")[:64]
    store = get_store()
    account = Accounts(store.db).authenticate(name, request.form.get("password", ""))
    error = None if account else "wrong"
    if account is not None and account.role == UPLOADER:
        account, error = None, "uploader"
    with store.write():
        trail.append(store.db, at=now(), actor=account.name if account else None,
                     action="login" if account else "login-failed",
                     detail={"name": name, "address": request.remote_addr, "reason": error})
    if account is None:
        return render_template("auth/login.html", next=target, error=error, name=name), 401
    session.clear()
    session.permanent = True
    session.update(uid=account.id, key=account.session_key, csrf=secrets.token_urlsafe(32))
    return redirect(target, code=303)


@bp.post("/logout")
@requires(ADMIN, AUDITOR)
def logout() -> ResponseReturnValue:
    """End the session (a POST with the CSRF token, so another site cannot log people out)."""
    store = get_store()
    with store.write():
        trail.append(store.db, at=now(), actor=account_name(), action="logout")
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
