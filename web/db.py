"""The store of the current request, opened on first use and closed on teardown (flaskr style)."""
from __future__ import annotations

from flask import Flask, current_app, g

from records.ingest import Limits, Validators
from records.storage import Store, connect, migrate


def get_store() -> Store:
    """The request's store; the schema is migrated once per process and database."""
    if "store" not in g:
        path = current_app.config["DATABASE"]
        db = connect(path)
        migrated: set[str] = current_app.extensions.setdefault("zhuoji_migrated", set())
        if path not in migrated:
            migrate(db)
            migrated.add(path)
        g.store = Store(db, auditor=current_app.config.get("AUDITOR"),
                        engine_version=current_app.config.get("ENGINE_VERSION"))
    store: Store = g.store
    return store


def close_store(_error: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    store = g.pop("store", None)
    if store is not None:
        store.close()


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
