"""The web layer: blueprints for the HTML pages and the JSON API, nothing about the game.

`register(app)` wires everything onto an app made by `app.create_app`. Blueprints
(`pages`, `api`, `report`, `overview`, `trail`, `admin`, `login`, `fit`, ...) never import each
other; what several need is in modules that are not blueprints (`views`,
`upload_request`, `report_inputs`, `report_model`, `drawings`, `labels`, `pdf`, the guard `auth`).
"""
from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """Attach the store, the translations, the error pages, the blueprints and the CLI.

    The modules are imported here, not at the top, so that importing one of them (`web.charts`,
    `web.i18n` in a test) does not load every blueprint."""
    from web import admin, api, auth, cli, db, drawings, errors, i18n, labels, login, maintenance, pages, trail
    from web import api_guide, cases, cli_trust, clock, conformance, fit, fit_jobs, fit_worker, listing, matches, overview, platforms, receipts, report, trail_words, whatif_fields

    clock.init_app(app)  # first: a bad TIME_ZONE stops the start before anything else is wired
    db.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    auth.init_app(app)  # after i18n: its error pages are translated; before the blueprints it guards
    app.register_blueprint(login.bp)
    admin.init_app(app)
    trail.init_app(app)
    maintenance.init_app(app)
    drawings.init_app(app)
    labels.init_app(app)
    listing.init_app(app)
    trail_words.init_app(app)
    whatif_fields.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(api_guide.bp)
    app.register_blueprint(report.bp)
    app.register_blueprint(matches.bp)
    app.register_blueprint(overview.bp)
    app.register_blueprint(conformance.bp)
    app.register_blueprint(fit.bp)
    platforms.init_app(app)
    app.register_blueprint(fit_jobs.bp)
    fit_worker.init_app(app)
    app.register_blueprint(receipts.bp)
    listing.favicon(app)
    cases.init_app(app)
    cli.init_app(app)
    cli_trust.init_app(app)
