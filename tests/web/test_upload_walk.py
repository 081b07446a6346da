"""The upload goes one way (issue 35.1): traced, one upload through the API returns to a module it
had left at most 20 times, and docs/architecture.md's walk is the traced one. `pytest -s` prints
the walks (tests/trace_walk.py; the numbers before and after are in docs/decisions.md, 35.1a)."""
from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from tests.conftest import dumps, load_example, variant
from tests.service import api_token
from tests.trace_walk import Walk, trace, traced_view

ROOT = Path(__file__).resolve().parents[2]
MOST_RETURNS = 20
"""Returns the upload's walk may make (issue 35.1; 63 before, docs/decisions.md 35.1a)."""
MOST_REQUEST_RETURNS = 30
"""Returns of the whole request's walk, the hooks every request runs included (75 before)."""


def upload_walks(app: Flask) -> tuple[Walk, Walk]:
    """The walks of the route's handler and of the whole request, for one new record sent by
    its platform's uploader, after a first upload (the trail's chain begun, the schema migrated)."""
    doc = variant(load_example("hot-shot-weile"), platform="alpha")
    headers = api_token(app, "alpha-bot", "uploader", platform="alpha")
    client = app.test_client()
    first = client.post("/api/records", data=dumps(variant(doc, game_id="walk-0")), content_type="application/json",
                        headers=headers)
    assert first.status_code == 201
    with trace() as whole, traced_view(app, "api.upload") as view:
        response = client.post("/api/records", data=dumps(variant(doc, game_id="walk-1")),
                               content_type="application/json", headers=headers)
    assert response.status_code == 201 and response.get_json()["results"][0]["status"] == "created"
    return view, whole


def documented_walk() -> list[str]:
    """The modules of the upload's walk as docs/architecture.md writes them, in order."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- upload walk -->\s*```text\n(.*?)```", text, re.S)
    assert block is not None, "docs/architecture.md has no upload walk block"
    return [name.strip() for name in block.group(1).replace("\n", " ").split("→") if name.strip()]


def test_the_upload_returns_to_a_module_at_most_20_times(app: Flask) -> None:
    view, whole = upload_walks(app)
    print(f"the upload (api.upload): {view.describe()}\nthe whole request: {whole.describe()}")
    assert view.returns <= MOST_RETURNS, view.describe()
    assert whole.returns <= MOST_REQUEST_RETURNS, whole.describe()
    in_records = [index for index, module in enumerate(view.modules) if module.startswith("records.")]
    between = view.modules[in_records[0]:in_records[-1]]
    assert not [module for module in between if module.startswith("web.")], "web -> records -> web -> records"


def test_the_documented_walk_is_the_traced_one(app: Flask) -> None:
    view, _ = upload_walks(app)
    assert documented_walk() == view.modules, view.describe()
