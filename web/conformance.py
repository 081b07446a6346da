"""Conformance: the published JSON Schemas, and (issue 15) a client build's kit answers checked and stored.

`GET /api/schema/zhuoji-1.json` and `/api/schema/zhuoji-match-1.json` serve
the engine's data files (`audit/schemas/`) as they are, so a client team
writing in another language validates its records before it uploads.
"""
from __future__ import annotations

from flask import Blueprint, Response, abort
from flask.typing import ResponseReturnValue

from audit.kit.schemas import SCHEMA_NAMES, schema_bytes
from web.auth import API_READERS, requires

bp = Blueprint("conformance", __name__)


@bp.get("/api/schema/<name>")
@requires(*API_READERS)
def schema(name: str) -> ResponseReturnValue:
    """A published JSON Schema (draft 2020-12), byte for byte the wheel's and the kit's."""
    if name not in SCHEMA_NAMES:
        abort(404, f"no schema {name!r}; published: {', '.join(SCHEMA_NAMES)}")
    return Response(schema_bytes(name), mimetype="application/schema+json")
