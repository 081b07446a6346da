"""Commands for keeping the store current: `flask --app app reaudit` (`verify` is in web/cli_trust.py).

- `reaudit` recomputes audits of the records a filter selects, e.g. after an engine upgrade
  (`--engine-version-below 1.1.0`) or after the engine failed on some uploads
  (`--verdict unaudited`). Each re-audit adds an audit row (the old ones stay) and a trail
  entry; the record's verdict follows the newest. Records are audited as recorded (their own
  profile, no options), which is what an upload does.
"""
from __future__ import annotations

import re
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from records.pipeline import AuditFailed
from records.storage import UNAUDITED, VERDICTS, Store
from web.admin import cli_actor
from web.db import get_pipeline, get_store, init_db

_VERSION_PART = re.compile(r"\d+")


def version_key(version: str | None) -> tuple[int, ...]:
    """`1.10.2` -> (1, 10, 2): numeric parts compared as numbers; no version sorts lowest."""
    return tuple(int(part) for part in _VERSION_PART.findall(version or ""))


def select_records(store: Store, *, verdict: str | None, profile: str | None,
                   below: str | None) -> list[dict[str, Any]]:
    """Records matching every given filter (all records when none is given), oldest first."""
    clauses, params = [], []
    if verdict == UNAUDITED:
        clauses.append("r.verdict IS NULL")
    elif verdict:
        clauses.append("r.verdict = ?")
        params.append(verdict)
    if profile:
        clauses.append("r.profile = ?")
        params.append(profile)
    where = " AND ".join(clauses) or "1"
    rows = list(store.db.query(f"SELECT r.id, r.game_id, r.revision, r.verdict, a.engine_version FROM records r "
                               f"LEFT JOIN audits a ON a.id = r.latest_audit_id WHERE {where} ORDER BY r.id", params))
    if below is not None:
        limit = version_key(below)
        rows = [row for row in rows if version_key(row["engine_version"]) < limit]
    return rows


@click.command("reaudit")
@click.option("--all", "everything", is_flag=True, help="Every record.")
@click.option("--verdict", type=click.Choice(VERDICTS + (UNAUDITED,)), help="Records whose latest verdict is this.")
@click.option("--profile", help="Records that name this profile.")
@click.option("--engine-version-below", "below", metavar="X", help="Records last audited by an engine older than X "
              "(and records never audited).")
@click.option("--dry-run", is_flag=True, help="List the records, change nothing.")
@with_appcontext
def reaudit_command(everything: bool, verdict: str | None, profile: str | None, below: str | None,
                    dry_run: bool) -> None:
    """Recompute the audits of the selected records; exit 1 if the engine failed on any."""
    if not (everything or verdict or profile or below):
        raise click.UsageError("choose the records: --all, --verdict, --profile or --engine-version-below")
    init_db()
    store = get_store()
    rows = select_records(store, verdict=verdict, profile=profile, below=below)
    failed = 0
    for row in rows:
        label = f"record {row['id']} {row['game_id']} r{row['revision']}: {row['verdict'] or UNAUDITED}"
        if dry_run:
            click.echo(f"{label} (engine {row['engine_version'] or '-'})")
            continue
        try:
            new = get_pipeline().reaudit(row["id"], actor=cli_actor())
        except AuditFailed as exc:
            failed += 1
            click.echo(f"{label} -> failed: {exc}")
            continue
        click.echo(f"{label} -> {new['verdict']} (engine {new['engine_version']})")
    click.echo(f"{len(rows)} selected, {0 if dry_run else len(rows) - failed} re-audited, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(reaudit_command)
