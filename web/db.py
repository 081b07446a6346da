"""The store of the current request, opened on first use and closed on teardown (flaskr style)."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, current_app, g

from sqlite_utils import Database

from records import access
from records.db import close, connect
from records.ingest import Limits, Validators
from records.migrations import damage, migrate
from records.pipeline import Engine, Pipeline, default_engine
from records.store import Store


def get_store() -> Store:
    """The request's store; the schema is migrated once per process and database."""
    if "store" not in g:
        path, key = current_app.config["DATABASE"], trail_key()
        db = connect(path)
        migrated: set[str] = current_app.extensions.setdefault("zhuoji_migrated", set())
        if path not in migrated:
            migrate(db)
            migrated.add(path)
        g.store = Store(db, trail_key=key)
    store: Store = g.store
    return store


def trail_key() -> bytes:
    """The key of the trail's HMAC chain, kept outside the database: `TRAIL_KEY` when configured
    (`FLASK_TRAIL_KEY`), else `TRAIL_KEY_FILE` (default instance/trail_key), made once with 32
    random bytes, mode 0600, and shared by every process. Keep a copy apart from the database
    (with the trail head, `flask trail-head`): whoever has the database but not the key cannot
    rebuild the chain after editing it."""
    cached: bytes | None = current_app.extensions.get("zhuoji_trail_key")
    if cached is not None:
        return cached
    configured = current_app.config.get("TRAIL_KEY")
    if configured:
        key = configured.encode("utf-8") if isinstance(configured, str) else bytes(configured)
    else:
        key = _key_file(Path(current_app.config.get("TRAIL_KEY_FILE")
                             or Path(current_app.instance_path) / "trail_key")).encode("ascii")
    current_app.extensions["zhuoji_trail_key"] = key
    return key


def _key_file(path: Path) -> str:
    """The key kept in a file, created (0600) on first use. Written to a temporary file first and
    linked into place, so a worker starting at the same moment reads either nothing (and links
    its own, losing the race cleanly) or the whole key, never a half-written one."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32))
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
    key = path.read_text(encoding="ascii").strip()
    if not key:
        raise RuntimeError(f"the trail key file {path} is empty; restore it from where it is kept")
    return key


def access_path() -> str:
    """The access log's file: ACCESS_DATABASE, else beside the main database."""
    return str(current_app.config.get("ACCESS_DATABASE") or access.path_for(current_app.config["DATABASE"]))


def get_access_db() -> Database:
    """The request's connection to the access log (views and exports), opened on first use."""
    if "access_db" not in g:
        g.access_db = access.connect(access_path())
    db: Database = g.access_db
    return db


def configured_engine() -> Engine:
    """The engine of the app's configuration: `AUDITOR` (tests inject failing ones) with
    `ENGINE_VERSION`, or the real engine, whose version `ENGINE_VERSION` may override."""
    config = current_app.config
    auditor, version = config.get("AUDITOR"), config.get("ENGINE_VERSION")
    if auditor is not None:
        return Engine(auditor, str(version or "unknown"))
    engine = default_engine()
    return Engine(engine.auditor, str(version), engine.takes_schema_checked) if version else engine


def get_pipeline() -> Pipeline:
    """Uploads and re-audits of the request: its store and the configured engine."""
    if "pipeline" not in g:
        g.pipeline = Pipeline(get_store(), configured_engine())
    pipeline: Pipeline = g.pipeline
    return pipeline


def close_store(_error: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    g.pop("pipeline", None)
    access_db = g.pop("access_db", None)
    if access_db is not None:
        access_db.close()
    store = g.pop("store", None)
    if store is not None:  # opened here with `records.db.connect`, closed the same way
        close(store.db)


def init_db() -> str:
    """Create or migrate the database; never drops anything."""
    path = str(current_app.config["DATABASE"])
    db = connect(path)
    try:
        migrate(db)
    finally:
        db.close()
    current_app.extensions.setdefault("zhuoji_migrated", set()).add(path)
    return path


def migrate_if_trusted() -> list[str]:
    """`init_db` where the record of the schema's steps can be trusted with it, for the commands
    that must read a damaged store rather than end on a traceback (`verify`, `reindex`): where the
    record is damaged (`records.migrations.damage`, which verify names) nothing is run; a step that
    fails (its row deleted, so it runs on a schema that has it) is returned, one line."""
    try:
        db = connect(current_app.config["DATABASE"])
        try:
            if damage(db):
                return []
        finally:
            db.close()
        init_db()
    except Exception as error:  # noqa: BLE001 - whatever stops a step, the caller reports it
        return [f"the schema could not be brought up to date: {type(error).__name__}: {error}"]
    return []


def open_store() -> Store:
    """A store on the configured database that migrates nothing (after `migrate_if_trusted`);
    the caller closes it."""
    return Store(connect(current_app.config["DATABASE"]), trail_key=trail_key())


def ingest_limits() -> Limits:
    """The upload limits from the app's configuration."""
    config = current_app.config
    return Limits(max_file_bytes=config["INGEST_MAX_FILE_BYTES"], max_members=config["INGEST_MAX_MEMBERS"],
                  max_total_bytes=config["INGEST_MAX_TOTAL_BYTES"], max_depth=config["INGEST_MAX_DEPTH"],
                  max_records=config["INGEST_MAX_RECORDS"], max_events=config["INGEST_MAX_EVENTS"],
                  max_string=config["INGEST_MAX_STRING"])


def validators() -> Validators | None:
    """Schema checks from the configuration (tests may inject them); None means audit.schema."""
    return current_app.config.get("SCHEMA_VALIDATORS")


def init_app(app: Flask) -> None:
    """Register the teardown that closes connections."""
    app.teardown_appcontext(close_store)
