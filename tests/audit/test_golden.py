"""The worked examples and the 30 reference games (shared/spec) must audit exactly as given."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.api import audit_record
from tests.helpers import sums

SPEC = Path(__file__).resolve().parents[2] / "spec"  # a vendored copy of shared/spec
EXAMPLES = sorted(p for p in (SPEC / "examples").glob("*.json") if not p.name.endswith(".audit.json"))
REFERENCE = sorted((SPEC / "reference").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_worked_example(path: Path) -> None:
    want = json.loads(path.with_suffix(".audit.json").read_text(encoding="utf-8"))
    got = audit_record(json.loads(path.read_text(encoding="utf-8")))
    for key in ("game_id", "profile", "verdict", "findings"):
        assert got[key] == want[key], key
    for key in ("scores", "next_dealer", "next_dealer_streak", "flip"):
        assert got["settlement"][key] == want["settlement"][key], key
    assert sums(got["settlement"]["items"]) == sums(want["settlement"]["items"])


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.stem)
def test_reference_game(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    got = audit_record(doc)
    assert got["verdict"] == "clean", got["findings"]
    sett = got["settlement"]
    assert sett["scores"] == doc["result"]["scores"]
    assert sett["next_dealer"] == doc["result"]["next_dealer"]
    assert sett["flip"] == doc["result"].get("flip")
    if "items" in doc["result"]:
        assert sums(sett["items"]) == sums(doc["result"]["items"])


def test_settlements_sum_to_zero() -> None:
    for path in REFERENCE + EXAMPLES:
        got = audit_record(json.loads(path.read_text(encoding="utf-8")))
        assert sum(got["settlement"]["scores"]) == 0


def test_schema_checked_skips_only_the_second_schema_pass() -> None:
    """The service validates before storing; telling the engine so must not change any audit."""
    from audit.api import audit_document
    from audit.schema import validate_record

    for path in REFERENCE[:5] + EXAMPLES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert validate_record(doc) == []
        assert audit_document(doc, schema_checked=True) == audit_document(doc)
    bad = json.loads(REFERENCE[0].read_text(encoding="utf-8"))
    bad["events"][3]["tile"] = "0z"
    assert audit_document(bad)[0]["verdict"] == "invalid"  # the engine still checks when not told
