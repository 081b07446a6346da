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
