"""The published JSON Schema (audit/schemas/, draft 2020-12) agrees with the marshmallow schema.

It accepts every sample, spec example and reference game the audit's schema accepts, every allowed
variant, and rejects each structural fault of tests/audit/test_schema.py, save the two the JSON
Schema language cannot say (named below, and checked to be the only ones).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from kit.schemas import SCHEMA_DIR, SCHEMA_NAMES, schema_bytes
from audit.schema import validate_match, validate_record
from tests.audit.test_schema import BASE, MUTATIONS, VALID_VARIANTS

ROOT = Path(__file__).resolve().parents[2]
BEYOND_JSON_SCHEMA = {
    "base float": "1.0 is an integer to JSON Schema (a number with no fraction), not to the audit",
    "R1.2 fifth copy": "each tile four times across deal and wall is a count over two arrays",
}
"""Marshmallow faults the JSON Schema cannot express; its description says so to client teams."""


def _schemas() -> dict[str, Any]:
    return {name: json.loads(schema_bytes(name)) for name in SCHEMA_NAMES}


def _validator(name: str) -> Draft202012Validator:
    docs = _schemas()
    registry: Registry = Registry().with_resources(
        [(d["$id"], Resource.from_contents(d)) for d in docs.values()])
    return Draft202012Validator(docs[name], registry=registry)


RECORD = _validator("zhuoji-1.json")
MATCH = _validator("zhuoji-match-1.json")


def _documents() -> list[Path]:
    paths = [*(ROOT / "samples").glob("*.json"), *(ROOT / "spec" / "examples").glob("*.json"),
             *(ROOT / "spec" / "reference").glob("*.json")]
    return sorted(p for p in paths if not p.name.endswith(".audit.json") and p.name != "manifest.json")


def test_the_schemas_are_valid_draft_2020_12() -> None:
    for name, doc in _schemas().items():
        Draft202012Validator.check_schema(doc)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema" and doc["$id"].endswith(name)
    assert sorted(p.name for p in SCHEMA_DIR.glob("*.json")) == sorted(SCHEMA_NAMES)


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.name)
def test_every_sample_and_reference_game_gets_the_same_answer(path: Path) -> None:
    doc = json.loads(path.read_text("utf-8"))
    is_match = isinstance(doc, dict) and doc.get("format") == "zhuoji-match/1"
    errors = validate_match(doc) if is_match else validate_record(doc)
    json_ok = (MATCH if is_match else RECORD).is_valid(doc)
    beyond = bool(errors) and all(e.code == "tile_counts" for e in errors)  # BEYOND_JSON_SCHEMA's R1.2 count
    assert json_ok == (not errors or beyond)


def test_samples_include_valid_games_of_both_formats() -> None:
    docs = [json.loads(p.read_text("utf-8")) for p in _documents()]
    assert sum(RECORD.is_valid(d) for d in docs) >= 30
    assert any(d.get("format") == "zhuoji-match/1" and MATCH.is_valid(d) for d in docs)


@pytest.mark.parametrize("mutate", [m for _, m in VALID_VARIANTS], ids=[n for n, _ in VALID_VARIANTS])
def test_allowed_variants_are_accepted(mutate: Any) -> None:
    doc = copy.deepcopy(BASE)
    mutate(doc)
    assert RECORD.is_valid(doc)


@pytest.mark.parametrize(("name", "mutate"), [(n, m) for n, m, _ in MUTATIONS], ids=[n for n, _, _ in MUTATIONS])
def test_each_structural_fault_is_rejected(name: str, mutate: Any) -> None:
    doc = copy.deepcopy(BASE)
    mutate(doc)
    assert validate_record(doc) != []
    assert RECORD.is_valid(doc) == (name in BEYOND_JSON_SCHEMA)


def test_three_seat_tables_have_their_own_limits() -> None:
    doc = json.loads((ROOT / "spec" / "reference" / "ref-guizhou-90210-0003.json").read_text("utf-8"))
    assert RECORD.is_valid(doc)
    for change in (lambda d: d["events"][0].update(seat=3), lambda d: d["result"]["scores"].append(0),
                   lambda d: d.update(dealer=3), lambda d: d["wall"].pop()):
        bad = copy.deepcopy(doc)
        change(bad)
        assert validate_record(bad) != [] and not RECORD.is_valid(bad)


@pytest.mark.parametrize("doc", [
    {"format": "zhuoji/1", "hands": [BASE]}, {"hands": [BASE]}, {"format": "zhuoji-match/1"},
    {"format": "zhuoji-match/1", "hands": []}, {"format": "zhuoji-match/1", "hands": BASE},
    {"format": "zhuoji-match/1", "hands": [BASE], "table_id": 7},
    {"format": "zhuoji-match/1", "hands": [BASE], "extra": 1}, {"format": "zhuoji-match/1", "hands": [BASE], "d": 1},
    {"format": "zhuoji-match/1", "hands": [None]}, {"format": "zhuoji-match/1", "hands": [{}]}, [BASE], None,
], ids=repr)
def test_match_envelope_faults_are_rejected(doc: Any) -> None:
    assert validate_match(doc) != [] and not MATCH.is_valid(doc)
    assert MATCH.is_valid({"format": "zhuoji-match/1", "table_id": "t1", "hands": [BASE, BASE]})


def test_the_files_are_what_the_generator_writes_from_the_engines_kinds() -> None:
    """A new item kind or event type (audit.kinds) must reach the published schema: regenerate with
    `python scripts/json_schema.py`."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "json_schema.py"), "--check"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout
