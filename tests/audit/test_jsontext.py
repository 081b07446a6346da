"""The strict JSON reader: every value class the service cannot keep is refused with its path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit import jsontext


@pytest.mark.parametrize(("text", "path"), [
    ('{"a": {"b": [1, 9223372036854775808]}}', "a.b[1]"),
    ('{"a": -9223372036854775809}', "a"),
    ('{"seats": [{"name": "\\ud800x"}]}', "seats[0].name"),
    ('{"x": "\\udfff"}', "x"),
    ('{"extra": {"v": 1e400}}', "extra.v"),
    ('{"extra": [NaN]}', "extra[0]"),
    ('{"extra": {"v": -Infinity}}', "extra.v"),
    ('{"a": {"k": 1, "k": 2}}', "a"),
])
def test_each_hostile_value_is_refused_with_its_path(text: str, path: str) -> None:
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.loads(text)
    assert caught.value.code == "json" and caught.value.path == path


def test_a_top_level_duplicate_has_no_path_but_is_refused() -> None:
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.loads('{"k": 1, "k": 1}')
    assert caught.value.path is None and "'k'" in caught.value.message


def test_a_surrogate_in_a_key_is_refused() -> None:
    with pytest.raises(jsontext.JsonTextError):
        jsontext.loads('{"\\ud83d": 1}')


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 65 + "1" + "}" * 65])
def test_deep_nesting_is_a_limit(text: str) -> None:
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.loads(text)
    assert caught.value.code == "limit"


def test_what_may_be_kept_passes_unchanged() -> None:
    text = ('{"a": 9223372036854775807, "b": -9223372036854775808, "c": "\\ud83d\\ude00 贵阳", '
            '"d": 1.5e300, "e": [true, null, {"f": "1234567890123456789012"}]}')
    assert jsontext.loads(text) == json.loads(text)


def test_malformed_json_names_line_and_column() -> None:
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.loads('{\n "a": }')
    assert (caught.value.line, caught.value.code) == (2, "json")


def test_not_utf8_is_an_encoding_error() -> None:
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.loads(b'{"a": "\xff"}')
    assert caught.value.code == "encoding"


def test_dumps_refuses_non_finite_numbers() -> None:
    with pytest.raises(ValueError):
        jsontext.dumps({"a": float("nan")})


@pytest.mark.parametrize("digits", [19, 22, 5000, 100_000])
def test_integers_of_any_length_are_refused_not_raised(digits: int) -> None:
    text = '{"n": ' + "9" * digits + "}"
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.loads(text)
    assert caught.value.path == "n"


def test_a_raw_surrogate_in_text_not_decoded_from_utf8_is_refused() -> None:
    with pytest.raises(jsontext.JsonTextError):
        jsontext.loads('{"a": "\ud800"}')


# ----- the one line reader of JSON lines (issue 34.3) ---------------------------------------------

LINES_TEXT = ('\ufeff{"a": "x\u2028y"}\r\n'   # a separator inside a string, a BOM, a Windows line end
              '\n'                            # blank
              ' \t\r\n'                       # JSON whitespace only: blank
              '{"b": "p\u2029q\u0085r"}\n'     # two more separators
              '\ufeff{"c": 1}\n'              # a mark on a later line is not dropped: not JSON there
              '{"d": "\x0c"}'                 # no line end at the end; \x0c is not a line end either
              )


@pytest.mark.parametrize("kind", ["str", "bytes"])
def test_json_lines_end_at_newline_only(kind: str) -> None:
    found = (list(jsontext.json_lines(LINES_TEXT)) if kind == "str" else
             [(number, text.decode("utf-8")) for number, text in jsontext.json_lines(LINES_TEXT.encode("utf-8"))])
    assert found == [(1, '{"a": "x\u2028y"}'), (4, '{"b": "p\u2029q\u0085r"}'), (5, '\ufeff{"c": 1}'),
                     (6, '{"d": "\x0c"}')]


@pytest.mark.parametrize(("line", "first", "text"), [
    (b"{}\r\n", False, b"{}"), (b"{}\n", False, b"{}"), (b"{}", False, b"{}"), (b"{}\r\r\n", False, b"{}\r"),
    (b"\xef\xbb\xbf{}\n", True, b"{}"), (b"\xef\xbb\xbf{}\n", False, b"\xef\xbb\xbf{}"), (b"\xef\xbb\xbf\n", True, None),
    (b"  \t \r\n", False, None), (b"\n", False, None), (b"", False, None), (b"\x0c\n", False, b"\x0c"),
    (b" {} \n", False, b" {} "),
])
def test_line_text_of_one_line(line: bytes, first: bool, text: bytes | None) -> None:
    assert jsontext.line_text(line, first=first) == text
    assert jsontext.line_text(line.decode("utf-8"), first=first) == (None if text is None else text.decode("utf-8"))


def test_read_file_and_utf8_text_count_a_bad_byte_after_the_mark(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(b'\xef\xbb\xbf{"a": 1}\n{"b": "\xff"}\n')
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.read_file(tmp_path / "a.jsonl")
    assert caught.value.reason == "not_utf8" and caught.value.byte == 16 and caught.value.where == str(tmp_path / "a.jsonl")
    (tmp_path / "b.jsonl").write_bytes('{"a": "1\u2028"}\n{"b": 2}\n'.encode("utf-8"))
    assert jsontext.read_file(tmp_path / "b.jsonl") == [{"a": "1\u2028"}, {"b": 2}]
