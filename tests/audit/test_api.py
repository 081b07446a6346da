"""The engine's public face (`audit/api.py`): options that change the shape of what it returns."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from audit.api import audit_document

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(p for folder in ("samples", "spec/examples", "spec/reference")
                   for p in (ROOT / folder).glob("*.json")
                   if not p.name.endswith(".audit.json") and p.name != "manifest.json")


def _without_items(audit: dict[str, Any]) -> dict[str, Any]:
    settlement = audit["settlement"]
    if settlement is None:
        return audit
    return {**audit, "settlement": {k: v for k, v in settlement.items() if k != "items"}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_items_false_is_the_whole_audit_but_the_settlements_items(lang: str) -> None:
    settled = 0
    for path in DOCUMENTS:
        doc = json.loads(path.read_text(encoding="utf-8"))
        full = audit_document(doc, lang=lang)
        lean = audit_document(doc, lang=lang, items=False)
        assert lean == [_without_items(a) for a in full], path.name
        assert all(a["settlement"] is None or "items" not in a["settlement"] for a in lean), path.name
        settled += sum(1 for a in full if a["settlement"] and a["settlement"]["items"])
    assert settled > 50  # samples, examples, reference games and matches: most settle with items
