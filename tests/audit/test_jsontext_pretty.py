"""`jsontext.pretty`: what `python -m audit --json` and `fit.cli` print, orjson's speed with the
standard library's bytes (issue 35.6): `json.dumps(value, ensure_ascii=False, indent=1)` exactly."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from audit import jsontext
from audit.api import audit_document

ROOT = Path(__file__).resolve().parents[2]

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**80), max_value=2**80),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                     st.sampled_from(["  ", "\n  x", '"', "\\", "\u2028", "\x00\x1f\x7f", "五万", "1e5", "a: b"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)), max_leaves=30)


@settings(max_examples=500, deadline=None)
@given(_VALUES)
def test_pretty_is_json_dumps_indent_1(value: Any) -> None:
    assert jsontext.pretty(value) == json.dumps(value, ensure_ascii=False, indent=1)


def test_every_samples_audit_is_written_as_before() -> None:
    files = sorted(p for p in (ROOT / "samples").glob("*.json") if not p.name.endswith(".audit.json"))
    assert len(files) > 60
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        audits = audit_document(doc)
        payload: Any = audits[0] if len(audits) == 1 else audits
        assert jsontext.pretty(payload) == json.dumps(payload, ensure_ascii=False, indent=1), path.name


def test_deep_nesting_is_reindented_level_by_level() -> None:
    value: Any = 0
    for _ in range(40):
        value = [value, {"k": "  "}]
    assert jsontext.pretty(value) == json.dumps(value, ensure_ascii=False, indent=1)


def test_the_commands_json_is_json_dumps_indent_1_in_chinese_with_findings() -> None:
    """`python -m audit --json` (orjson underneath) prints what json.dumps(indent=1, ensure_ascii=False)
    writes, for records with findings, in Chinese (names, messages, notes) and as one array of several."""
    import io

    from audit.cli import run

    files = sorted(p for p in (ROOT / "samples").glob("*.json")
                   if not p.name.endswith(".audit.json") and p.name != "manifest.json")
    faulty = [p for p in files if not p.name.startswith("clean-")][:6]
    assert len(faulty) == 6
    for args in ([str(faulty[0])], ["--lang", "zh", str(faulty[1])], ["--lang", "zh", *map(str, faulty)]):
        out = io.StringIO()
        run(["--json", *args], out, io.StringIO())
        payload = json.loads(out.getvalue())
        audits = payload if isinstance(payload, list) else [payload]
        assert any(a["findings"] for a in audits)
        if "zh" in args:
            assert any(any("\u4e00" <= ch <= "\u9fff" for ch in f["message"]) for a in audits for f in a["findings"])
        assert out.getvalue() == json.dumps(payload, ensure_ascii=False, indent=1) + "\n", args


def test_the_command_writes_the_same_bytes_to_a_utf8_stream_and_the_same_text_to_another() -> None:
    """A real `python -m audit --json` process: on a UTF-8 standard output the command writes
    orjson's bytes as they are (issue 35.6), on another encoding (gb18030 here) the text through
    it; either way the text is json.dumps(indent=1, ensure_ascii=False) of the in-process audits."""
    import os
    import subprocess
    import sys

    files = sorted(p for p in (ROOT / "samples").glob("*.json")
                   if not p.name.endswith(".audit.json") and p.name != "manifest.json")
    faulty = [p for p in files if not p.name.startswith("clean-")][:4]
    audits = [a for p in faulty for a in audit_document(json.loads(p.read_text(encoding="utf-8")), lang="zh")]
    want = json.dumps(audits, ensure_ascii=False, indent=1) + "\n"
    for encoding in ("utf-8", "gb18030"):
        env = {**os.environ, "PYTHONIOENCODING": encoding}
        proc = subprocess.run([sys.executable, "-m", "audit", "--json", "--lang", "zh", *map(str, faulty)],
                              capture_output=True, cwd=ROOT, env=env, check=False)
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout.decode(encoding) == want, encoding
