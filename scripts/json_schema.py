"""Write audit/schemas/*.json, the published JSON Schemas of zhuoji/1 and zhuoji-match/1, from the engine's kinds.

Run `python scripts/json_schema.py` after a kind or a tile code changes (a new item kind, say);
`--check` exits 1 when the files are not what this script writes (tests/audit/test_json_schema.py runs it).
The files are data, served as they are; this script only keeps their enums in step with `audit.kinds`.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.vocabulary import (BASE, CODES, DEALER_STREAK, DIE, KONG_KINDS, POINTS, EventType,  # noqa: E402
                              IntRange, ItemKind, MeldKind, WinKind)

BASE_URL: str = "https://zhuoji-audit.example/api/schema/"


def ranged(r: IntRange) -> dict:
    """An integer field of audit/ranges.py: the same bounds as the audit's schema."""
    return {"type": "integer", "minimum": r.low, "maximum": r.high}


def seat(n: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": n - 1}


tile = {"$ref": "#/$defs/tile"}
ext = {"$ref": "#/$defs/extra"}


def event_defs(n: int) -> dict:
    """The fields of each event type at an n-seat table (record-format.md, events)."""
    common = {"type": {"enum": [e.value for e in EventType]}, "seat": seat(n), "t": {"type": "string"}, "extra": ext}

    def ev(required: list, **props: object) -> dict:
        return {"type": "object", "properties": {**common, **props}, "required": ["type", "seat", *required],
                "additionalProperties": False}
    return {
        "draw": ev(["tile"], tile=tile), "discard": ev(["tile"], tile=tile),
        "declare": ev([]), "pass": ev([]),
        "pong": ev(["tile"], tile=tile, **{"from": seat(n)}),
        "kong": {"allOf": [ev(["tile", "kind"], tile=tile, kind={"enum": [k.value for k in KONG_KINDS]}, **{"from": seat(n)}),
                           {"if": {"required": ["from"]}, "then": {"properties": {"kind": {"const": MeldKind.EXPOSED.value}}}}]},
        "win": ev(["tile"], tile=tile, kind={"enum": [k.value for k in WinKind]}),
    }


def event_schema(n: int) -> dict:
    per = event_defs(n)
    branches = [{"if": {"properties": {"type": {"const": t}}, "required": ["type"]}, "then": s} for t, s in per.items()]
    return {"type": "object", "required": ["type", "seat"],
            "properties": {"type": {"enum": [e.value for e in EventType]}},
            "allOf": branches}


def item(n: int) -> dict:
    return {"type": "object", "properties": {"kind": {"enum": [k.value for k in ItemKind]}, "from": seat(n), "to": seat(n),
            "amount": ranged(POINTS), "note": {"type": "string"}}, "required": ["kind", "from", "to", "amount"],
            "additionalProperties": False}


def table(n: int) -> dict:
    """Constraints that depend on the seat count n."""
    wall = 108 - 13 * n - 1
    deal_by_dealer = [{"if": {"properties": {"dealer": {"const": d}}, "required": ["dealer"]},
                       "then": {"properties": {"deal": {"prefixItems": [{"minItems": 14 if i == d else 13, "maxItems": 14 if i == d else 13} for i in range(n)]}}}}
                      for d in range(n)]
    return {"properties": {
        "dealer": seat(n),
        "deal": {"minItems": n, "maxItems": n},
        "wall": {"minItems": wall, "maxItems": wall},
        "events": {"items": {"$ref": f"#/$defs/event{n}"}},
        "result": {"properties": {"scores": {"minItems": n, "maxItems": n}, "next_dealer": seat(n),
                                  "items": {"items": {"$ref": f"#/$defs/item{n}"}}}},
    }, "allOf": deal_by_dealer}


RECORD: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASE_URL + "zhuoji-1.json",
    "title": "zhuoji/1: one hand of Guiyang Zhuoji mahjong (贵阳捉鸡麻将)",
    "description": ("The record format of spec/record-format.md, structure only: field types, tile codes, event fields per type, "
                    "seat indexes within the table, one hand per seat (the dealer's 14 tiles, 13 for the others), the wall's length "
                    "and one score per seat. What JSON Schema cannot say is checked by the audit alone: that each tile occurs "
                    "exactly four times across deal and wall (R1.2), that played_at is a date-time Python parses (the pattern here "
                    "is ISO 8601), and that integers are written without a fraction (`1.0` is an integer to JSON Schema, not to "
                    "the audit). Every move's legality is the rulebook's, not the schema's."),
    "type": "object",
    "required": ["format", "game_id", "rules", "seats", "dealer", "deal", "wall", "events", "result"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": "zhuoji/1"},
        "game_id": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,128}(?![\\s\\S])"},
        "played_at": {"type": "string", "pattern": "^\\d{4}-?\\d{2}-?\\d{2}([T ]\\d{2}(:?\\d{2}(:?\\d{2}([.,]\\d+)?)?)?(Z|[+-]\\d{2}(:?\\d{2}(:?\\d{2}([.]\\d+)?)?)?)?)?(?![\\s\\S])"},
        "platform": {"type": "string"}, "client": {"type": "string"},
        "rules": {"type": "object", "required": ["profile"], "additionalProperties": False,
                  "properties": {"profile": {"type": "string", "minLength": 1}, "options": {"type": "object"}}},
        "base": ranged(BASE),
        "seats": {"type": "array", "minItems": 3, "maxItems": 4, "items": {"$ref": "#/$defs/seat"}},
        "dealer": {"type": "integer", "minimum": 0, "maximum": 3},
        "dealer_streak": ranged(DEALER_STREAK),
        "dice": {"type": "array", "minItems": 2, "maxItems": 2, "items": ranged(DIE)},
        "deal": {"type": "array", "items": {"type": "array", "items": tile}},
        "wall": {"type": "array", "items": tile},
        "events": {"type": "array"},
        "result": {"$ref": "#/$defs/result"},
        "extra": ext,
    },
    "allOf": [
        {"if": {"properties": {"seats": {"maxItems": 3}}, "required": ["seats"]}, "then": table(3)},
        {"if": {"properties": {"seats": {"minItems": 4}}, "required": ["seats"]}, "then": table(4)},
    ],
    "$defs": {
        "tile": {"enum": list(CODES), "description": "1m-9m 万, 1p-9p 筒, 1s-9s 条"},
        "extra": {"type": "object", "description": "kept, never judged"},
        "seat": {"type": "object", "required": ["name"], "additionalProperties": False,
                 "properties": {"name": {"type": "string"}, "player_id": {"type": "string"}, "extra": ext}},
        "event3": event_schema(3), "event4": event_schema(4),
        "item3": item(3), "item4": item(4),
        "result": {"type": "object", "required": ["scores", "next_dealer"], "additionalProperties": False,
                   "properties": {"scores": {"type": "array", "items": ranged(POINTS)},
                                  "next_dealer": {"type": "integer", "minimum": 0},
                                  "flip": {"anyOf": [tile, {"type": "null"}]},
                                  "items": {"type": "array"}, "extra": ext}},
    },
}


MATCH: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASE_URL + "zhuoji-match-1.json",
    "title": "zhuoji-match/1: the hands of one table, in order",
    "type": "object", "required": ["format", "hands"], "additionalProperties": False,
    "properties": {"format": {"const": "zhuoji-match/1"}, "table_id": {"type": "string"},
                   "hands": {"type": "array", "minItems": 1, "items": {"$ref": "zhuoji-1.json"}},
                   "extra": {"type": "object"}},
}



def documents() -> dict[str, str]:
    """The file texts, by name."""
    return {name: json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
            for name, doc in (("zhuoji-1.json", RECORD), ("zhuoji-match-1.json", MATCH))}



def main(argv: list[str]) -> int:
    folder = ROOT / "audit" / "schemas"
    stale = [n for n, text in documents().items() if not (folder / n).is_file()
             or (folder / n).read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for n in stale:
            print(f"audit/schemas/{n} is stale: run python scripts/json_schema.py")
        return 1 if stale else 0
    for n, text in documents().items():
        (folder / n).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
