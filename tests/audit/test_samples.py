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
