"""`flask --app app init-db` and `flask --app app load-samples DIR`: thin layers over the store."""
from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from records.ingest import LINES_EXTENSIONS, RECORD_EXTENSIONS, ZIP_EXTENSIONS
from records.receipts import ACCEPTED
from web.commands import TEXT, open_store
from web.db import get_pipeline, ingest_limits, validators
from web.uploads import summarize

SKIPPED_SUFFIXES = (".audit.json",)
"""Expected audits sit next to the examples; they are not records."""
SKIPPED_NAMES = ("manifest.json",)
"""samples/manifest.json states what each sample must get; it is not a record either."""


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database or bring its schema up to date (never drops data)."""
    open_store()
    click.echo(f"Initialised the database at {click.format_filename(current_app.config['DATABASE'])}")


def sample_files(directory: Path) -> list[Path]:
    """Record files under a directory, in a stable order, expected audits left out."""
    suffixes = RECORD_EXTENSIONS + LINES_EXTENSIONS + ZIP_EXTENSIONS
    return [path for path in sorted(directory.rglob("*"))
            if path.is_file() and path.name.lower().endswith(suffixes)
            and not path.name.lower().endswith(SKIPPED_SUFFIXES) and path.name.lower() not in SKIPPED_NAMES]


@click.command("load-samples")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@with_appcontext
@click.option("--uploader", type=TEXT, default="load-samples", show_default=True, help="Name stored as the uploader.")
def load_samples_command(directory: Path, uploader: str) -> None:
    """Upload every .json, .jsonl and .zip under DIRECTORY, printing one line per hand."""
    open_store()
    pipeline, limits, checks = get_pipeline(), ingest_limits(), validators()
    results = []
    for path in sample_files(directory):
        name = str(path.relative_to(directory))
        results += pipeline.upload_file(name, path.read_bytes(), uploader=uploader, limits=limits,
                                        validators=checks)
    for result in results:
        click.echo(_line(result))
    summary = summarize(results)
    click.echo(", ".join(f"{key} {value}" for key, value in summary.items()))
    if results and not any(result["status"] in ACCEPTED for result in results):
        raise click.exceptions.Exit(1)


def _line(result: dict[str, object]) -> str:
    """One hand: where from, what happened, and the verdict or the first error."""
    if result["status"] in ACCEPTED:
        return (f"{result['source']}: {result['status']} record {result['record_id']} "
                f"{result['game_id']} r{result['revision']} {result['verdict']}")
    errors = result["errors"]
    first = errors[0]["message"] if isinstance(errors, list) and errors else ""
    return f"{result['source']}: {result['status']}: {first}"


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(init_db_command)
    app.cli.add_command(load_samples_command)
