"""The fast path of the strict reader gives exactly the exact path's answer, and is taken for records."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from audit import jsontext

ROOT = Path(__file__).resolve().parents[2]


def _answer(read: Any, data: bytes | str, **options: Any) -> tuple[str, Any]:
    """("ok", document) or ("refused", code, path, message, line, column) of one reader."""
    try:
        return "ok", read(data, **options)
    except jsontext.JsonTextError as exc:
        return "refused", (exc.code, exc.path, exc.message, exc.line, exc.column)


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["[", "]", "{", "}", ":", '"', "\\", "\ufeff", "0" * 19, "a:b", "五万"]))
_DOCS = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["a", "b", ":", "[", "名"]), inner, max_size=4)),
    max_leaves=20)
_PIECES = st.sampled_from(['"a":1,"a":2', '1e400', 'NaN', '"\\ud800"', '"\\u003a"', '9223372036854775808',
                           '-9223372036854775809', '[' * 70 + ']' * 70, '"\\""', '{}', '[]', '"x"', '0', '-0',
                           '1.5e3', '\ufeff', ' ', ',', ':', '{"k":', '}', "\xff"])


def _texts() -> st.SearchStrategy[str]:
    """Valid documents, written compact or spaced, and documents with a hostile piece spliced in."""
    written = st.builds(lambda doc, indent: json.dumps(doc, ensure_ascii=False, indent=indent),
                        _DOCS, st.sampled_from([None, 1]))
    spliced = st.builds(lambda doc, piece, cut: (lambda text: text[:cut % (len(text) + 1)] + piece
                                                 + text[cut % (len(text) + 1):])(json.dumps(doc, ensure_ascii=False)),
                        _DOCS, _PIECES, st.integers(min_value=0, max_value=200))
    duplicated = st.builds(lambda key, a, b: f'{{"{key}": {json.dumps(a)}, "{key}": {json.dumps(b)}}}',
                           st.sampled_from(["a", "名", "x:y"]), _SCALARS, _SCALARS)
    return st.one_of(written, spliced, duplicated)


@settings(max_examples=400, deadline=None)
@given(_texts(), st.booleans(), st.booleans(), st.sampled_from([0, 1, 2, 5, 64]))
def test_the_fast_path_answers_as_the_exact_path(text: str, as_bytes: bool, bom: bool, max_depth: int) -> None:
    data: bytes | str = text.encode("utf-8", "surrogatepass") if as_bytes else text
    for check_depth in (True, False):
        options = {"allow_bom": bom, "max_depth": max_depth, "check_depth": check_depth}
        assert _answer(jsontext.loads, data, **options) == _answer(jsontext.exact, data, **options), text


def test_records_take_the_fast_path() -> None:
    """Every reference game and sample is decided by the fast path (a regression there is slowness)."""
    files = sorted((ROOT / "spec" / "reference").glob("*.json")) + sorted(
        path for path in (ROOT / "samples").glob("*.json") if not path.name.endswith(".audit.json"))
    assert len(files) > 30
    for path in files:
        raw = path.read_bytes()
        doc = jsontext._fast(raw, jsontext.DEFAULT_MAX_DEPTH)
        assert doc is not jsontext._UNDECIDED, path.name
        assert doc == jsontext.exact(raw)


def test_each_undecided_class_goes_to_the_exact_path() -> None:
    """A backslash, a run of 19 digits, a repeated key, too deep: undecided."""
    for text in [b'{"a":"\\n"}', b'{"a":1234567890123456789}', b'{"a":1,"a":1}', b'[' * 6 + b']' * 6]:
        assert jsontext._fast(text, 5) is jsontext._UNDECIDED, text
    # escapes that would balance the colon count (one key repeated, one colon written as \u003a)
    # or hide a bracket: why a backslash alone sends a text to the exact path
    for escaped in ['{"a":"\\u003a","\\u0061":"\\u003a"}', '[["\\u005d"]]']:
        assert jsontext._fast(escaped.encode(), 5) is jsontext._UNDECIDED, escaped
    assert _answer(jsontext.loads, '{"a":"\\u003a","\\u0061":"\\u003a"}')[0] == "refused"


def test_the_depth_is_read_off_the_document_written_back_indented() -> None:
    """Brackets inside strings do not count (the fast path decides such texts); a document of
    fewer levels than the limit is decided, one at the limit or past it goes to the exact path
    (which accepts the first and refuses the second), an empty innermost container included."""
    for text in [b'{"a":"["}', b'["[", "]"]', b'["", "[]"]', b'{"":"]","a":""}', b'["]["]', b'["[[[[[[[["]']:
        assert jsontext._fast(text, 2) == json.loads(text), text
    decided = {(b"[[[]]]", 3), (b"[[1]]", 3), (b"{}", 1), (b"[]", 1), (b'{"a":{"b":[]}}', 3)}
    undecided = {(b"[[[1]]]", 3), (b"[[[[]]]]", 3), (b"[[[]]]", 2), (b"[[]]", 1), (b"[1]", 1), (b"[]", 0), (b"1", 0),
                 (b'{"a":{"b":[]}}', 2)}
    for text, limit in decided | undecided:
        fast = jsontext._fast(text, limit)
        assert (fast is jsontext._UNDECIDED) == ((text, limit) in undecided), (text, limit)
        assert _answer(jsontext.loads, text, max_depth=limit) == _answer(jsontext.exact, text, max_depth=limit)
    assert _answer(jsontext.loads, b"[[[[]]]]", max_depth=3)[0] == "refused"
    assert _answer(jsontext.loads, b"[[[1]]]", max_depth=3)[0] == "ok"
