"""Hostile request bodies for the service (issue 12), shared by the hypothesis fuzzers in
tests/web/test_fuzz_api.py and the 10,000-body run of bench/bench_hostile.py.

The value classes that once made uploads answer 500 or get into the store: integers past SQLite's
64 bits, lone surrogates (only expressible as `\\ud800` escapes: Python cannot even encode them to
UTF-8), non-finite numbers (`1e400`, `NaN`, `Infinity`), repeated object keys and deep nesting.
`json.dumps` writes none of them, so a document gets a placeholder at a path and the placeholder's
JSON text is replaced by the hostile token afterwards: every field and option can carry one.
"""
from __future__ import annotations

import copy
import io
import json
import random
import zipfile
from collections.abc import Iterator
from typing import Any

PLACEHOLDER = "@@hostile@@"
HOSTILE_TOKENS = (
    "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1" + "0" * 40,
    "1e400", "-1e400", "NaN", "Infinity", "-Infinity",
    '"\\ud800"', '"x\\udfff"', '"\\udbff\\u0041"', '"\\ud83d"',
    '{"k": 1, "k": 2}', '{"\\ud800": 1}', '[{"a": 1, "b": 2, "a": 3}]',
    "[" * 80 + "1" + "]" * 80, '{"a":' * 70 + "0" + "}" * 70, "[" * 3000 + "]" * 3000,
)
"""JSON texts the service must refuse with a 4xx naming the path (the last three: nesting)."""


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a document (the document itself first)."""
    yield prefix
    children = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for key, child in children:
        yield from paths(child, prefix + (key,))


def with_token(doc: Any, path: tuple[Any, ...], token: str, *, ensure_ascii: bool = False) -> bytes:
    """The document's JSON bytes with the value at `path` replaced by a hostile token's text."""
    doc = copy.deepcopy(doc)
    if not path:
        return token.encode("utf-8")
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = PLACEHOLDER
    text = json.dumps(doc, ensure_ascii=ensure_ascii)
    return text.replace(json.dumps(PLACEHOLDER), token, 1).encode("utf-8")


def hostile_record(rng: random.Random, seed: dict[str, Any], game_id: str) -> bytes:
    """A record of a seed with a hostile token in a random field (top level, seats, events...)."""
    doc = copy.deepcopy(seed)
    doc["game_id"] = game_id
    candidates = [path for path in paths(doc) if path]
    return with_token(doc, rng.choice(candidates), rng.choice(HOSTILE_TOKENS), ensure_ascii=rng.random() < 0.5)


def good_record(seed: dict[str, Any], game_id: str) -> bytes:
    """A seed with a fresh game id: it passes the schema and gets stored."""
    doc = copy.deepcopy(seed)
    doc["game_id"] = game_id
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def hostile_options(rng: random.Random) -> bytes:
    """A re-audit body whose profile or options hold a hostile token."""
    body = {"profile": None, "options": {"chicken": {"normal": 1}, "extra": [1, "two"]}}
    candidates = [path for path in paths(body) if path]
    return with_token(body, rng.choice(candidates), rng.choice(HOSTILE_TOKENS))


def hostile_note(rng: random.Random) -> bytes:
    """A note body whose text, case number or decision is a hostile token."""
    body = {"case_number": "A-1", "decision": "open", "text": "热炮 not paid"}
    return with_token(body, (rng.choice(list(body)),), rng.choice(HOSTILE_TOKENS))


def zip_of(members: dict[str, bytes]) -> bytes:
    """A zip holding the members."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


__all__ = ["HOSTILE_TOKENS", "PLACEHOLDER", "good_record", "hostile_note", "hostile_options", "hostile_record",
           "paths", "with_token", "zip_of"]


# ----- issue 22 (readers): number forms, JSON bodies of every route, byte order marks ------------
# Kept apart from the classes above so other additions to this file merge cleanly.

BAD_NUMBERS = ("²", "٥", "５", "+5", " 5", "5 ", "5_0", "-1", "1e3", "0x10", "five", "", "9" * 25,
               str(2**63), "0" * 30 + "1", "١٢", "𝟓", "5\x00", "5%")
"""Numbers `str.isdigit()`/`int()` once let through (or crashed on); "" is only sent where the
field is required. Every one is a 400 naming the field (JSON with `code` under /api/)."""
BAD_SEGMENTS = ("²", "٥", "５", "+5", "5_0", "-1", "9" * 25, str(2**63), "１", "𝟓")
"""The same in a path segment where a route has `<int:...>`: no route matches (404/405)."""
NUMERIC_QUERIES = (
    ("/api/records", "page"), ("/api/records", "per_page"), ("/records", "page"), ("/records", "per_page"),
    ("/api/receipts", "page"), ("/receipts", "per_page"), ("/api/cases", "page"), ("/cases", "per_page"),
    ("/admin/trail", "page"), ("/admin/trail", "record"), ("/api/records/{id}/trail", "limit"),
    ("/records/{id}/diff", "with"),
)
"""(URL, parameter) pairs read as numbers (tests/web/test_readers.py finds them from the URL map)."""
ID_ROUTES = ("/api/records/{}", "/records/{}", "/records/{}.pdf", "/api/records/{}/trail", "/api/records/{}/notes",
             "/api/cases/{}", "/cases/{}", "/conformance/runs/{}", "/api/conformance/runs/{}", "/admin/accounts/{}")
NUMERIC_FORMS: tuple[tuple[str, dict[str, str], str, bool], ...] = (
    ("/cases/1/records", {}, "record", True), ("/cases/1/records", {"record": "1"}, "revision", False),
    ("/cases/1/decision", {"outcome": "upheld", "note": "n", "from": "a", "to": "b"}, "amount", True),
    ("/cases/1/decision", {"outcome": "upheld", "note": "n"}, "audit", False),
    ("/cases/attach", {"number": "BENCH-1"}, "record", True),
)
"""(URL, other fields, numeric field, required) of the forms that hold a number (an optional one
may be empty)."""
JSON_ROUTES = ("/api/records/{id}/audit", "/api/records/{id}/notes", "/api/cases", "/api/cases/1/records",
               "/api/cases/1/decision")
"""JSON POST routes besides the upload (whose bodies the classes above already cover)."""
JSON_BODY_SHAPES = (
    {"profile": "weile", "options": {"chicken": {"normal": 1}}, "reason": "r"},
    {"case_number": "A-1", "decision": "open", "text": "t"},
    {"number": "N-1", "platform": "p", "player": "x", "complaint": "c"},
    {"record": 1, "revision": 1},
    {"outcome": "upheld", "note": "n", "payments": [{"from": "a", "to": "b", "amount": 1}], "audit": 1},
)
BOM = b"\xef\xbb\xbf"


def hostile_json_body(rng: random.Random) -> bytes:
    """A body of one of the JSON routes' shapes with a hostile token at a random path (or a
    repeated key, `true` for a number, a BOM in front of either)."""
    body = copy.deepcopy(rng.choice(JSON_BODY_SHAPES))
    roll = rng.random()
    if roll < 0.15:  # a repeated key: two readers could disagree
        key = rng.choice(list(body))
        text = json.dumps(body)[:-1] + f", {json.dumps(key)}: {json.dumps(rng.choice([None, 2, 'other']))}" + "}"
        data = text.encode("utf-8")
    elif roll < 0.25:  # a boolean where a number goes
        data = json.dumps({**body, **{k: True for k, v in body.items() if isinstance(v, int)}} | {"record": True,
                                                                                                   "audit": True}).encode()
    else:
        data = with_token(body, rng.choice([p for p in paths(body) if p] + [()]), rng.choice(HOSTILE_TOKENS))
    return BOM + data if rng.random() < 0.2 else data


def hostile_answers(rng: random.Random) -> bytes:
    """A conformance answers file: a few answer lines, one with a hostile token or a repeated key."""
    lines = [json.dumps({"case": f"s{n:04d}", "scores": [1, -1, 0, 0], "next_dealer": 0}) for n in range(1, 4)]
    body = {"case": "s0001", "scores": [1, -1, 0, 0], "next_dealer": 0}
    if rng.random() < 0.3:
        lines.append(json.dumps(body)[:-1] + ', "scores": [0, 0, 0, 0]}')
    else:
        lines.append(with_token(body, rng.choice([p for p in paths(body) if p]), rng.choice(HOSTILE_TOKENS)).decode())
    rng.shuffle(lines)
    data = "\n".join(lines).encode("utf-8")
    return BOM + data if rng.random() < 0.3 else data


__all__ += ["BAD_NUMBERS", "BAD_SEGMENTS", "BOM", "ID_ROUTES", "JSON_ROUTES", "NUMERIC_FORMS", "NUMERIC_QUERIES",
            "hostile_answers", "hostile_json_body"]
