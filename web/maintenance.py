"""Commands for keeping the store current: `flask --app app reaudit` and `flask --app app reindex`
(`verify` is in web/cli_trust.py).

- `reaudit` recomputes audits of the records a filter selects, e.g. after an engine upgrade
  (`--engine-version-below 1.1.0`) or after the engine failed on some uploads
  (`--verdict unaudited`). Each re-audit adds an audit row (the old ones stay) and a trail
  entry; the record's verdict follows the newest. Records are audited as recorded (their own
  profile, no options), which is what an upload does. The audits run on Dask workers, the
  path of `python -m batch` (`batch.reaudit`): a local cluster of `--workers`
  processes, or an existing one (`--scheduler`); this process writes them back in batches.
- `reindex` derives the search texts and both search indexes again from the records
  (`records.search_index.reindex`), in one transaction: what `verify` asks for when they differ
  from the records or SQLite cannot read them (issue 34.6). Derived data only, so no trail entry.
"""
from __future__ import annotations

import re
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from batch.runner import SchedulerError, check_address, cluster
from batch.reaudit import Reaudit, reaudit
from records import search_index
from records.db import atomic
from records.rows import UNAUDITED, VERDICTS
from records.store import Store
from web.admin import cli_actor
from web.commands import TEXT, CommandError, open_store, refuse_unless_database
from web.db import get_pipeline, migrate_if_trusted
from web.db import open_store as open_unmigrated
from web.numbers import CommandNumber

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
@click.option("--profile", type=TEXT, help="Records that name this profile.")
@click.option("--engine-version-below", "below", type=TEXT, metavar="X", help="Records last audited by an engine older than X "
              "(and records never audited).")
@click.option("--dry-run", is_flag=True, help="List the records, change nothing.")
@click.option("--workers", type=CommandNumber(1), default=None,
              help="Local Dask worker processes (default: one per CPU).")
@click.option("--scheduler", type=TEXT, metavar="ADDRESS", help="Audit on an existing Dask cluster (tcp://host:8786) instead.")
@with_appcontext
def reaudit_command(everything: bool, verdict: str | None, profile: str | None, below: str | None,
                    dry_run: bool, workers: int | None, scheduler: str | None) -> None:
    """Recompute the audits of the selected records on Dask workers (the `python -m batch`
    path), writing them back in batches; exit 1 if the engine failed on any."""
    if not (everything or verdict or profile or below):
        raise click.UsageError("choose the records: --all, --verdict, --profile or --engine-version-below")
    if scheduler:
        try:
            check_address(scheduler)
        except SchedulerError as exc:
            raise CommandError(str(exc)) from None
    store = open_store()
    rows = select_records(store, verdict=verdict, profile=profile, below=below)
    if dry_run:
        for row in rows:
            click.echo(f"{_label(row)} (engine {row['engine_version'] or '-'})")
        click.echo(f"{len(rows)} selected, 0 re-audited, 0 failed")
        return
    by_id = {row["id"]: row for row in rows}
    engine = get_pipeline().engine

    def echo(record_id: int, audit: dict[str, Any] | str) -> None:
        if isinstance(audit, str):
            click.echo(f"{_label(by_id[record_id])} -> failed: {audit}")
        else:
            click.echo(f"{_label(by_id[record_id])} -> {audit['verdict']} (engine {engine.version})")

    outcome = Reaudit()
    if rows:
        try:
            with cluster(workers, scheduler) as client:
                outcome = reaudit(store, str(current_app.config["DATABASE"]), [row["id"] for row in rows], engine,
                                  client, actor=cli_actor(), on_record=echo)
        except SchedulerError as exc:  # nobody answered: nothing was audited or written
            raise CommandError(str(exc)) from None
    for failure in outcome.failures:
        click.echo(f"{failure.label} failed: {failure.error}; not re-audited: {' '.join(failure.inputs)}")
    failed = len(outcome.failed) + len(outcome.lost)
    click.echo(f"{len(rows)} selected, {len(outcome.written)} re-audited, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)


@click.command("reindex")
@with_appcontext
def reindex_command() -> None:
    """Derive the search texts and the search indexes again from the records, in one transaction."""
    refuse_unless_database(str(current_app.config["DATABASE"]))  # not a database at all: exit 2 (34.3)
    stopped = migrate_if_trusted()
    for line in stopped:
        click.echo(f"{line}; nothing reindexed (`flask --app app verify` says what is wrong)")
    if stopped:
        raise click.exceptions.Exit(1)
    store = open_unmigrated()
    try:
        with atomic(store.db):
            done = search_index.reindex(store.db)
    finally:
        store.close()
    made = f"; made again: {', '.join(done.recreated)}" if done.recreated else ""
    click.echo(f"search texts: {done.rewritten} rewritten, {done.added} added, {done.removed} removed{made}; "
               f"both indexes derived again from {done.texts} texts; `flask --app app verify` checks them")


def _label(row: dict[str, Any]) -> str:
    return f"record {row['id']} {row['game_id']} r{row['revision']}: {row['verdict'] or UNAUDITED}"


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(reaudit_command)
    app.cli.add_command(reindex_command)
