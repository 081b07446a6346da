"""records.ingest: files, lines, zips and matches into hands and located problems."""
from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from audit import jsontext
from tests.conftest import dumps, example_path, load_example, make_zip, variant
from records.ingest import (Batch, Limits, Origin, Problem, Unit, Validators, _hand_slices, _text_shape,
                            read_upload)


def codes(batch: Batch) -> list[str]:
    """The problem codes of a batch, in order."""
    return [problem.code for problem in batch.problems]


def game_ids(batch: Batch) -> list[str]:
    """The game ids of every good hand, in order."""
    return [hand.doc["game_id"] for unit in batch.units for hand in unit.hands]


def record(game_id: str = "g-1") -> dict[str, Any]:
    """A valid record with its own game id."""
    return variant(load_example("hot-shot-weile"), game_id=game_id)


def test_json_record_keeps_the_file_bytes() -> None:
    data = example_path("hot-shot-weile").read_bytes()
    batch = read_upload("hand.json", data)
    assert batch.problems == []
    (unit,) = batch.units
    (hand,) = unit.hands
    assert hand.raw == data and hand.raw_kind == "file" and not unit.is_match
    assert hand.origin == Origin("hand.json")


def test_byte_order_mark_is_accepted_and_kept() -> None:
    data = b"\xef\xbb\xbf" + dumps(record())
    (unit,) = read_upload("bom.json", data).units
    assert unit.hands[0].raw == data


def test_jsonl_lines_are_numbered_and_blank_lines_skipped() -> None:
    lines = [dumps(record("a")), b"", dumps(record("b")) + b"\r", b'{"format": "zhuoji/1",', dumps(record("c"))]
    batch = read_upload("day.jsonl", b"\n".join(lines) + b"\n")
    assert game_ids(batch) == ["a", "b", "c"]
    assert [unit.origin.line for unit in batch.units] == [1, 3, 5]
    assert batch.units[1].hands[0].raw == dumps(record("b"))  # without the \r\n terminator
    (problem,) = batch.problems
    assert problem.origin == Origin("day.jsonl", line=4) and problem.code == "json"
    assert problem.describe().startswith("day.jsonl:4 (line 1, column 23): malformed JSON")


@pytest.mark.parametrize(("text", "line", "column"), [
    (b'{\n  "format": "zhuoji/1",\n  oops\n}', 3, 3),
    (b'{"a": [1, 2,]}', 1, 13),
    (b"", 1, 1),
])
def test_malformed_json_gives_line_and_column(text: bytes, line: int, column: int) -> None:
    (problem,) = read_upload("bad.json", text).problems
    assert (problem.code, problem.line, problem.column) == ("json", line, column)
    assert f"line {line}, column {column}" in problem.describe()


@pytest.mark.parametrize(("data", "code", "fragment"), [
    (b"\xff\xfe{}", "encoding", "not UTF-8"),
    (b"[1, 2]", "format", "expected a JSON object, found an array"),
    (b'"text"', "format", "found a string"),
    (b'{"base": NaN}', "json", "NaN is not valid JSON"),
])
def test_not_a_json_object(data: bytes, code: str, fragment: str) -> None:
    (problem,) = read_upload("x.json", data).problems
    assert problem.code == code and fragment in problem.message


def test_schema_errors_name_the_json_path() -> None:
    doc = record()
    doc["events"][0]["tile"] = "0x"
    del doc["dealer"]
    batch = read_upload("broken.json", dumps(doc))
    assert batch.units == []
    paths = {problem.path for problem in batch.problems}
    assert {"events[0].tile", "dealer"} <= paths
    assert all(problem.code == "schema" for problem in batch.problems)
    assert any(problem.describe().startswith("broken.json: events[0].tile: ") for problem in batch.problems)


def test_deep_nesting_is_refused() -> None:
    doc = record()
    nested: Any = "bottom"
    for _ in range(70):
        nested = {"x": nested}
    doc["extra"] = nested
    (problem,) = read_upload("deep.json", dumps(doc)).problems
    assert problem.code == "limit" and "nested deeper than 64" in problem.message


def test_pathological_nesting_does_not_crash() -> None:
    (problem,) = read_upload("deep.json", b"[" * 200_000).problems
    assert problem.code in {"limit", "json"}


def test_file_size_limit_and_unknown_extension() -> None:
    big = read_upload("big.json", b" " * 101, limits=Limits(max_file_bytes=100))
    assert codes(big) == ["limit"] and "over the limit of 100 bytes" in big.problems[0].message
    other = read_upload("notes.txt", b"{}")
    assert codes(other) == ["format"]


def match_doc(count: int = 3) -> dict[str, Any]:
    """A match of `count` hands (the engine, not ingest, judges continuity)."""
    return {"format": "zhuoji-match/1", "table_id": "t7", "hands": [record(f"m-{i}") for i in range(count)]}


@pytest.mark.parametrize("pretty", [False, True])
def test_match_hands_keep_their_own_bytes(pretty: bool) -> None:
    data = dumps(match_doc(), pretty=pretty)
    (unit,) = read_upload("match.json", data).units
    assert unit.is_match and unit.table_id == "t7" and unit.raw == data
    assert [hand.index for hand in unit.hands] == [0, 1, 2]
    for hand in unit.hands:
        assert hand.raw_kind == "slice" and hand.raw in data
        assert json.loads(hand.raw) == hand.doc
        assert hand.origin == Origin("match.json", hand=hand.index)


def test_match_with_one_bad_hand_keeps_the_others() -> None:
    doc = match_doc()
    doc["hands"][1]["events"][0]["tile"] = "0x"
    batch = read_upload("match.json", dumps(doc))
    (unit,) = batch.units
    assert [hand.index for hand in unit.hands] == [0, 2]
    (problem,) = batch.problems
    assert problem.origin == Origin("match.json", hand=1)
    assert problem.path == "hands[1].events[0].tile"


def test_match_envelope_error_rejects_the_match() -> None:
    doc = match_doc()
    doc["colour"] = "red"
    batch = read_upload("match.json", dumps(doc))
    assert batch.units == [] and codes(batch) == ["schema"]
    assert batch.problems[0].path == "colour"


def test_hand_slices_fall_back_to_canonical_bytes() -> None:
    hands = [{"a": 1}, {"b": "二"}]
    assert _hand_slices('{"other": []}', hands) == [(b'{"a":1}', "canonical"), ('{"b":"二"}'.encode(), "canonical")]
    text = '{"hands": [{"a": 1}, {"b": "二"}], "hands": [{"a": 1}, {"b": "二"}]}'
    assert [kind for _, kind in _hand_slices(text, hands)] == ["slice", "slice"]


def test_zip_members_junk_and_directories() -> None:
    data = make_zip({
        "day1/": b"",
        "day1/a.json": dumps(record("z-a")),
        "day1/b.jsonl": dumps(record("z-b")) + b"\n" + dumps(record("z-c")) + b"\n",
        "day1/match.json": dumps(match_doc(2)),
        "readme.txt": b"hello",
        "__MACOSX/day1/._a.json": b"\x00\x05",
        "inner.zip": make_zip({"x.json": b"{}"}),
        "day1/bad.json": b'{"format": ',
    })
    batch = read_upload("upload.zip", data)
    assert game_ids(batch) == ["z-a", "z-b", "z-c", "m-0", "m-1"]
    assert batch.units[0].hands[0].raw_kind == "member"
    assert batch.units[1].origin == Origin("upload.zip", "day1/b.jsonl", 1)
    junk = [problem.origin.member for problem in batch.problems if problem.code == "junk"]
    assert junk == ["readme.txt", "__MACOSX/day1/._a.json", "inner.zip"]
    (bad,) = [problem for problem in batch.problems if problem.code == "json"]
    assert bad.describe().startswith("upload.zip!day1/bad.json (line 1, column 12)")


def test_zip_bomb_member_is_refused_by_reading_with_a_cap() -> None:
    data = make_zip({"bomb.json": b" " * (20 * 1024 * 1024), "ok.json": dumps(record("ok"))})
    assert len(data) < 100_000
    batch = read_upload("bomb.zip", data, limits=Limits(max_file_bytes=5 * 1024 * 1024))
    assert game_ids(batch) == ["ok"]
    (problem,) = batch.problems
    assert problem.code == "limit" and problem.origin.member == "bomb.json" and "zip bomb" in problem.message


def test_zip_total_uncompressed_size_is_capped() -> None:
    members = {f"{i}.json": dumps(record(f"t-{i}")) for i in range(5)}
    size = len(members["0.json"])
    batch = read_upload("many.zip", make_zip(members), limits=Limits(max_total_bytes=size * 2 + 10))
    assert game_ids(batch) == ["t-0", "t-1"]
    assert codes(batch) == ["limit", "limit", "limit"]


def test_zip_member_count_is_capped() -> None:
    data = make_zip({f"{i}.json": b"{}" for i in range(5)})
    batch = read_upload("wide.zip", data, limits=Limits(max_members=4))
    assert batch.units == [] and codes(batch) == ["limit"] and "5 entries" in batch.problems[0].message


def test_stored_zip_member_over_the_file_limit() -> None:
    data = make_zip({"big.json": b" " * 300}, compression=zipfile.ZIP_STORED)
    (problem,) = read_upload("s.zip", data, limits=Limits(max_file_bytes=200)).problems
    assert problem.code == "limit"


def test_not_a_zip() -> None:
    (problem,) = read_upload("fake.zip", b"PK\x03\x04 not really").problems
    assert problem.code == "archive" and problem.origin == Origin("fake.zip")


def test_origin_labels() -> None:
    assert Origin("a.zip", "b.jsonl", 3).label() == "a.zip!b.jsonl:3"
    assert Origin("m.json", hand=2).label() == "m.json#hands[2]"
    assert Problem(Origin("a.json"), "schema", "not a tile", path="events[3].tile").describe() == \
        "a.json: events[3].tile: not a tile"


def test_batch_keeps_file_order() -> None:
    data = b"\n".join([b"{", dumps(record("a")), b"[]"])
    batch = read_upload("mixed.jsonl", data)
    kinds = [type(item).__name__ for item in batch.items]
    assert kinds == ["Problem", "Unit", "Problem"] and isinstance(batch.items[1], Unit)


# ----- what ingest tells the engine, and the cheap limit checks ------------------------------------


def test_only_records_schema_itself_marks_a_unit_schema_checked() -> None:
    from audit import schema

    data = dumps(record())
    (unit,) = read_upload("a.json", data).units
    assert unit.schema_checked
    injected = Validators(record=schema.validate_record, match=schema.validate_match)
    (unit,) = read_upload("a.json", data, validators=injected).units
    assert not unit.schema_checked  # an injected check is not the engine's: the engine checks again


def test_a_match_is_schema_checked_only_when_every_hand_passed() -> None:
    good = {"format": "zhuoji-match/1", "table_id": "t", "hands": [record("m-0"), record("m-1")]}
    (unit,) = read_upload("m.json", dumps(good)).units
    assert unit.is_match and unit.schema_checked
    bad = {**good, "hands": [record("m-0"), {**record("m-1"), "seats": "nobody"}]}
    batch = read_upload("m.json", dumps(bad))
    (unit,) = batch.units
    assert [hand.index for hand in unit.hands] == [0] and codes(batch) and not unit.schema_checked


def _strings(value: Any) -> Iterator[str]:
    """Every string and key in a parsed document."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, child in value.items():
            yield key
            yield from _strings(child)
    elif isinstance(value, list):
        for child in value:
            yield from _strings(child)


def _random_json(rng: random.Random, depth: int) -> Any:
    """A random JSON value whose strings hold quotes, backslashes, brackets and non-ASCII text."""
    kind = rng.choice(("str", "num", "list", "dict") if depth > 0 else ("str", "num"))
    if kind == "str":
        return _random_text(rng)
    if kind == "num":
        return rng.choice((0, -1, 2.5, True, None))
    if kind == "list":
        return [_random_json(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {_random_text(rng): _random_json(rng, depth - 1) for _ in range(rng.randint(0, 3))}


def _random_text(rng: random.Random) -> str:
    """A short string that may hold quotes, backslashes, brackets and non-ASCII text."""
    return "".join(rng.choice('ab"\\[]{}:,\u4e2d\U0001f004 \n\t/') for _ in range(rng.randint(0, 12)))


def test_text_shape_agrees_with_walking_the_parsed_document() -> None:
    rng = random.Random(20260301)
    documents = [json.loads(example_path("hot-shot-weile").read_text(encoding="utf-8")), [], {}, "x", 3,
                 json.loads("[" * 10 + "]" * 10), {"a": [{"b": [[{}]]}], "c": "[[[[{{{"}]
    documents += [_random_json(rng, rng.randint(0, 9)) for _ in range(400)]
    checked = 0
    for original in documents:
        doc = json.loads(json.dumps(original))
        for text in (json.dumps(doc), json.dumps(doc, ensure_ascii=False, indent=rng.choice((None, 1)))):
            for max_depth in (0, 1, 3, 8, 64):
                shape = _text_shape(text, max_depth)
                if shape is None:  # an escaped quote in the text: the walks decide
                    assert '\\"' in text
                    continue
                deeper, longest = shape
                assert deeper == (jsontext.depth(doc) > max_depth), (text, max_depth)
                assert longest >= max((len(value) for value in _strings(doc)), default=0), text
                checked += 1
    assert checked > 1000


def test_long_strings_and_deep_nesting_are_refused_with_or_without_escaped_quotes() -> None:
    limits = Limits(max_string=40, max_depth=4)
    for name in ("x" * 41, 'say "' + "x" * 36 + '"'):  # the second has escaped quotes: walked
        doc = record()
        doc["seats"][1]["name"] = name
        (problem,) = read_upload("a.json", dumps(doc), limits=limits).problems
        assert problem.code == "limit" and problem.path == "seats[1].name"
    doc["seats"][1]["name"] = '"' * 40  # 80 characters written, 40 read: within the limit
    assert read_upload("a.json", dumps(doc), limits=limits).problems == []
    extras: list[Any] = [[[[[[]]]]], [[[[['"']]]]]]  # the second has an escaped quote: walked
    for extra in extras:
        (problem,) = read_upload("a.json", dumps(variant(record(), extra=extra)), limits=limits).problems
        assert problem.code == "limit" and "deeper than 4" in problem.message
