"""Account administration: pages for admins, and the commands that create the first ones.

Pages (admin role only): list and create accounts, change role and platform,
disable or enable, reset a password, create and revoke API tokens. A new
password or token is shown once, in the answer to the POST that made it
(`Cache-Control: no-store`), and never stored in clear.

Commands: `flask --app app create-user NAME --role admin [--platform P]
[--password-stdin]`, `flask --app app create-token NAME [--label L]`, and
`flask --app app bootstrap` (what `make run` calls): migrate, then create a
local admin with a random password printed once when there is no active admin.
"""
from __future__ import annotations

import getpass
import sys
from collections.abc import Callable
from typing import Any

import click
from flask import Blueprint, Flask, current_app, redirect, render_template, request, url_for
from flask.cli import with_appcontext
from flask.typing import ResponseReturnValue

from records import trail, trail_pages
from records.db import atomic
from records.rows import now
from records.security import ADMIN, ROLES, Account, AccountError, Accounts, new_password
from records.store import Store
from web.auth import account_name, requires
from web.commands import TEXT, CommandError, not_utf8, open_store, utf8_line
from web.db import get_access_db, get_store
from web.dispute_schemas import trail_query
from web.errors import ApiError, coded, fail

bp = Blueprint("admin", __name__, url_prefix="/admin")


def _accounts() -> tuple[Store, Accounts]:
    """The request's store and its accounts."""
    store = get_store()
    return store, Accounts(store.db, store.trail_key)


def _find(accounts: Accounts, account_id: int) -> Account:
    """The account or a 404 naming it."""
    try:
        return accounts.get(account_id)
    except AccountError:
        raise fail(404, "account_missing", id=account_id)


# ----- pages ----------------------------------------------------------------------------------


@bp.get("/accounts")
@requires(ADMIN)
def accounts() -> ResponseReturnValue:
    """Every account, and the form to add one."""
    return _list_page()


def _list_page(error: AccountError | None = None, created: Account | None = None, password: str | None = None,
               status: int = 200) -> ResponseReturnValue:
    """The accounts page, with a one-time password or an error when a POST produced one."""
    _, accounts = _accounts()
    return render_template("admin/accounts.html", accounts=accounts.all(), roles=ROLES, error=_refusal(error),
                           created=created, password=password, form=request.form), status


def _refusal(error: AccountError | None) -> ApiError | None:
    """A refused change worded in the page's language (web/errors.toml), with its code."""
    return coded(400, error) if error is not None else None


@bp.post("/accounts")
@requires(ADMIN)
def create_account() -> ResponseReturnValue:
    """Add an account; an empty password field means a random one, shown once."""
    store, accounts = _accounts()
    form = request.form
    password = form.get("password") or new_password()
    try:
        with atomic(store.db):
            account = accounts.create(form.get("name", "").strip(), form.get("role", ""), password,
                                      platform=form.get("platform"), created_by=account_name(), stamp=now())
    except AccountError as exc:
        return _list_page(error=exc, status=400)
    shown = None if form.get("password") else password
    return _list_page(created=account, password=shown, status=201)


@bp.get("/accounts/<int:account_id>")
@requires(ADMIN)
def account(account_id: int) -> ResponseReturnValue:
    """One account: role, status, password reset, tokens."""
    return _account_page(account_id)


def _account_page(account_id: int, *, error: AccountError | None = None, token: str | None = None,
                  password: str | None = None, status: int = 200) -> ResponseReturnValue:
    """The account page, with a one-time token or password when a POST made one."""
    _, accounts = _accounts()
    found = _find(accounts, account_id)
    return render_template("admin/account.html", account=found, tokens=accounts.tokens(account_id), roles=ROLES,
                           error=_refusal(error), token=token, password=password), status


@bp.post("/accounts/<int:account_id>")
@requires(ADMIN)
def update_account(account_id: int) -> ResponseReturnValue:
    """Change role and platform (an uploader needs a platform; the last admin stays admin)."""
    return _change_account(account_id, lambda accounts: accounts.set_role(
        account_id, request.form.get("role", ""), request.form.get("platform"), actor=account_name(), stamp=now()))


@bp.post("/accounts/<int:account_id>/disable")
@requires(ADMIN)
def disable_account(account_id: int) -> ResponseReturnValue:
    """Disable (`disabled=1`) or enable (`disabled=0`) an account; its sessions and tokens follow at once."""
    disabled = request.form.get("disabled", "1") != "0"
    return _change_account(account_id, lambda accounts: accounts.set_disabled(
        account_id, disabled, actor=account_name(), stamp=now()))


def _change_account(account_id: int, apply: Callable[[Any], Any]) -> ResponseReturnValue:
    """One account change in one transaction (the change logs itself); a refused change re-shows the page."""
    store, accounts = _accounts()
    _find(accounts, account_id)
    try:
        with atomic(store.db):
            apply(accounts)
    except AccountError as exc:
        return _account_page(account_id, error=exc, status=400)
    return redirect(url_for("admin.account", account_id=account_id), code=303)


@bp.post("/accounts/<int:account_id>/password")
@requires(ADMIN)
def reset_password(account_id: int) -> ResponseReturnValue:
    """A new random password, shown once; the account's sessions end."""
    store, accounts = _accounts()
    _find(accounts, account_id)
    password = new_password()
    with atomic(store.db):
        accounts.set_password(account_id, password, actor=account_name(), stamp=now())
    return _account_page(account_id, password=password)


@bp.post("/accounts/<int:account_id>/tokens")
@requires(ADMIN)
def create_token(account_id: int) -> ResponseReturnValue:
    """A new API token, shown once."""
    store, accounts = _accounts()
    _find(accounts, account_id)
    with atomic(store.db):
        token = accounts.create_token(account_id, label=request.form.get("label"), created_by=account_name(),
                                      stamp=now())
    return _account_page(account_id, token=token, status=201)


@bp.post("/tokens/<int:token_id>/revoke")
@requires(ADMIN)
def revoke_token(token_id: int) -> ResponseReturnValue:
    """Stop a token from working."""
    store, accounts = _accounts()
    try:
        row = accounts.token(token_id)
    except AccountError:
        raise fail(404, "token_missing", id=token_id)
    owner = accounts.get(row["account_id"])
    with atomic(store.db):
        accounts.revoke_token(token_id, revoked_by=account_name(), stamp=now())
    return redirect(url_for("admin.account", account_id=owner.id), code=303)


@bp.get("/trail")
@requires(ADMIN)
def trail_page() -> ResponseReturnValue:
    """The trail of the whole service (logins, account changes, record actions), newest first,
    filtered by actor, action, record and date and paged (`records.trail_pages`)."""
    store = get_store()
    query = trail_query()
    access = get_access_db()
    page = trail_pages.find(store.db, query, access)
    args = {key: value for key, value in request.args.items() if key not in ("page", "lang") and value}
    return render_template("admin/trail.html", entries=page.rows, page=page, query=query, args=args,
                           actions=trail.ACTIONS, actors=trail_pages.actors(store.db, access))


# ----- commands -------------------------------------------------------------------------------


def cli_actor() -> str:
    """Who the trail names for a command run in a terminal."""
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


def _read_password(from_stdin: bool) -> str:
    """The password from standard input (first line, UTF-8) or a hidden prompt asked twice;
    CommandError (exit 2) for one that is not UTF-8 text, which could not be hashed."""
    if from_stdin:
        return utf8_line(sys.stdin.buffer, "the password on standard input")
    try:
        password = str(click.prompt("Password", hide_input=True, confirmation_prompt=True))
    except UnicodeDecodeError as exc:  # the terminal's bytes, decoded strictly
        raise CommandError(f"the password is not UTF-8 text (byte 0x{exc.object[exc.start]:02x})") from None
    bad = not_utf8(password)
    if bad is not None:
        raise CommandError(f"the password is not UTF-8 text ({bad})")
    return password


@click.command("create-user")
@click.argument("name", type=TEXT)
@click.option("--role", type=click.Choice(ROLES), required=True, help="What the account may do.")
@click.option("--platform", type=TEXT, default=None, help="The platform an uploader is bound to (uploaders only).")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of standard input.")
@with_appcontext
def create_user_command(name: str, role: str, platform: str | None, password_stdin: bool) -> None:
    """Create an operator account (admin, auditor or uploader)."""
    store = open_store()
    try:
        with atomic(store.db):
            created = Accounts(store.db, store.trail_key).create(
                name, role, _read_password(password_stdin), platform=platform, created_by=cli_actor(), stamp=now())
    except AccountError as exc:
        raise click.ClickException(str(exc)) from exc
    where = f" for platform {created.platform}" if created.platform else ""
    click.echo(f"Created {created.role} account {created.name}{where}.")


@click.command("create-token")
@click.argument("name", type=TEXT)
@click.option("--label", type=TEXT, default=None, help="What the token is for (shown in the admin pages).")
@with_appcontext
def create_token_command(name: str, label: str | None) -> None:
    """Create an API token for account NAME and print it (the only time it is shown)."""
    store = open_store()
    accounts = Accounts(store.db, store.trail_key)
    found = accounts.by_name(name)
    if found is None:
        raise click.ClickException(f"no account named {name!r}")
    with atomic(store.db):
        token = accounts.create_token(found.id, label=label, created_by=cli_actor(), stamp=now())
    click.echo(token)


def bootstrap_admin(store: Store) -> tuple[str, str] | None:
    """Create a local admin with a random password when no active admin exists; (name, password)."""
    accounts = Accounts(store.db, store.trail_key)
    if accounts.has_active_admin():
        return None
    name = "admin" if accounts.by_name("admin") is None else f"admin-{new_password()[:6].lower()}"
    password = new_password()
    with atomic(store.db):
        accounts.create(name, ADMIN, password, created_by=cli_actor(), stamp=now(), action="bootstrap")
    return name, password


@click.command("bootstrap")
@click.option("--url", type=TEXT, default="http://127.0.0.1:5000", show_default=True, help="Where the service will listen.")
@with_appcontext
def bootstrap_command(url: str) -> None:
    """Create or migrate the database; if no active admin exists, create one and print its password once."""
    store = open_store()
    click.echo(f"Initialised the database at {click.format_filename(current_app.config['DATABASE'])}")
    made = bootstrap_admin(store)
    if made is None:
        click.echo("An admin account exists already; log in with it (or `flask --app app create-user`).")
        return
    name, password = made
    click.echo("\n".join([
        "", "A local admin account was created. Its password is shown this once:",
        f"    name:     {name}", f"    password: {password}",
        f"Log in at {url}/login, then add accounts and API tokens under {url}/admin/accounts.", ""]))


def init_app(app: Flask) -> None:
    """Register the pages and the commands."""
    app.register_blueprint(bp)
    app.cli.add_command(create_user_command)
    app.cli.add_command(create_token_command)
    app.cli.add_command(bootstrap_command)
