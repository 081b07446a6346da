"""samples/: every sample audits as its manifest intends and exactly as its stored audit."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from audit.api import audit_document

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
MANIFEST: dict[str, Any] = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))


def test_at_least_fifteen_samples_clean_and_faulty() -> None:
    verdicts = {v["verdict"] if isinstance(v["verdict"], str) else "match" for v in MANIFEST.values()}
    assert len(MANIFEST) >= 15 and {"clean", "illegal", "missettled", "invalid"} <= verdicts


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_sample(name: str) -> None:
    doc = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    audits = audit_document(doc)
    intent = MANIFEST[name]
    verdicts = intent["verdict"] if isinstance(intent["verdict"], list) else [intent["verdict"]]
    rules = intent["rule"] if isinstance(intent["rule"], list) else [intent["rule"]]
    steps = intent["step"] if isinstance(intent["step"], list) else [intent["step"]]
    for audit, verdict, rule, step in zip(audits, verdicts, rules, steps, strict=True):
        assert audit["verdict"] == verdict
        if verdict != "clean":
            assert (audit["findings"][0]["rule"], audit["findings"][0]["step"]) == (rule, step)
    stored = json.loads((SAMPLES / f"{name}.audit.json").read_text(encoding="utf-8"))
    assert (audits[0] if len(audits) == 1 else audits) == stored


def _generator() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES.parent / "scripts" / "make_samples.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    return make


def test_the_committed_samples_are_what_their_recipes_give() -> None:
    """Issue 35.3: every file of samples/ (records, stored audits, manifest) is what
    scripts/make_samples.py builds from scripts/samples.toml, byte for byte: a sample edited by
    hand, a recipe changed without regenerating, or a sample whose recipe is gone differs here."""
    built = _generator().build()
    stored = {p.name: p.read_text(encoding="utf-8") for p in SAMPLES.glob("*.json")}
    assert sorted(set(built) ^ set(stored)) == []
    assert [name for name in sorted(built) if built[name] != stored[name]] == []


def test_a_changed_recipe_changes_the_samples(tmp_path: Path) -> None:
    """The comparison above can fail: one edited value in the recipes changes its record."""
    recipes = (SAMPLES.parent / "scripts" / "samples.toml").read_text(encoding="utf-8")
    changed = tmp_path / "samples.toml"
    changed.write_text(recipes.replace('set = [["result.flip", "6s"]]', 'set = [["result.flip", "7s"]]'),
                       encoding="utf-8")
    built = _generator().build(changed)
    assert json.loads(built["missettled-flip.json"])["result"]["flip"] == "7s"
    assert built["missettled-flip.json"] != (SAMPLES / "missettled-flip.json").read_text(encoding="utf-8")


def test_the_generator_reads_plain_data_and_the_engines_public_face() -> None:
    """Issue 35.3: the generator imports no test module and no engine internal."""
    from tests.imports import ENGINE_PUBLIC, LAYERS, imported_names

    path = SAMPLES.parent / "scripts" / "make_samples.py"
    project = sorted(n for n in imported_names(path, "scripts.make_samples", set())
                     if n.split(".")[0] in (*LAYERS, "tests"))
    assert project and [n for n in project if n.startswith("tests")] == []
    assert [n for n in project if n.startswith("audit") and n not in ENGINE_PUBLIC] == []
