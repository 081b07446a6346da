"""The store of the current request, opened on first use and closed on teardown (flaskr style)."""
from __future__ import annotations

from flask import Flask, current_app, g

from records.ingest import Limits, Validators
from records.pipeline import Engine, Pipeline, default_engine
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
        g.store = Store(db)
    store: Store = g.store
    return store


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
