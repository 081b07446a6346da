"""Who runs the fit jobs of the service (not a blueprint; docs/decisions.md 36.2a).

- In the web process: a daemon thread (`batch.fit_job.work`), started by the first request the
  process serves when `FIT_WORKER` is on (the default outside tests). Every process of the server
  (each gunicorn worker) has one; they share the queue in the store, each job taken by one only
  (`records.fit_jobs.claim`). After a restart the first request starts it again, and it first
  queues again the jobs the stopped process left running (`batch.fit_job.recover_left`).
- Apart: `flask --app app fit-worker [--scheduler ADDRESS] [--once]`, with `FIT_WORKER=false` in
  the web processes: the fits then never share the web processes' CPU.

Either way the fits of a job run on the Dask cluster at `FIT_SCHEDULER` (or `--scheduler`) when
one is configured, else in the worker's own process.
"""
from __future__ import annotations

import threading
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from batch.fit_job import work
from web.commands import TEXT, open_store

EXTENSION = "fit_worker"
"""Where an app keeps its worker thread and the event that stops it (`app.extensions`)."""


def enabled(app: Flask) -> bool:
    """Whether this app runs jobs in a thread: `FIT_WORKER`, or when unset, unless testing."""
    setting = app.config.get("FIT_WORKER")
    return (not app.testing) if setting is None else bool(setting)


def ensure_worker(app: Flask) -> None:
    """Start the app's worker thread unless it runs already or is not wanted."""
    if not enabled(app):
        return
    found = app.extensions.get(EXTENSION)
    if found is not None and found["thread"].is_alive():
        return
    with _lock:
        found = app.extensions.get(EXTENSION)
        if found is not None and found["thread"].is_alive():
            return
        stop = threading.Event()
        path, scheduler = str(app.config["DATABASE"]), app.config.get("FIT_SCHEDULER") or None
        thread = threading.Thread(target=work, args=(path,), kwargs={"stop": stop, "scheduler": scheduler},
                                  name="fit-worker", daemon=True)
        thread.start()
        app.extensions[EXTENSION] = {"thread": thread, "stop": stop}


def stop_worker(app: Flask, timeout: float = 30.0) -> None:
    """Stop the app's worker thread (after the job it runs), waiting up to `timeout` seconds."""
    found: dict[str, Any] | None = app.extensions.pop(EXTENSION, None)
    if found is not None:
        found["stop"].set()
        found["thread"].join(timeout)


_lock = threading.Lock()


@click.command("fit-worker")
@click.option("--scheduler", type=TEXT, metavar="ADDRESS", help="Fit on this Dask cluster (tcp://host:8786).")
@click.option("--once", is_flag=True, help="Run the queued jobs, then stop.")
@with_appcontext
def fit_worker_command(scheduler: str | None, once: bool) -> None:
    """Run the queued fit jobs (docs/fit.md), until stopped (Ctrl-C) or, with --once, the queue is empty."""
    open_store().close()  # the database made or migrated (m012's table), or refused by name
    ran = work(str(current_app.config["DATABASE"]), once=once,
               scheduler=scheduler or current_app.config.get("FIT_SCHEDULER") or None)
    click.echo(f"fit jobs run: {ran}")


def init_app(app: Flask) -> None:
    """The command, and the thread started by the first request."""
    app.cli.add_command(fit_worker_command)

    @app.before_request
    def _start() -> None:
        ensure_worker(app)


__all__ = ["EXTENSION", "enabled", "ensure_worker", "init_app", "stop_worker"]
