"""The strict JSON reader: every value class the service cannot keep is refused with its path."""
from __future__ import annotations

import json

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
