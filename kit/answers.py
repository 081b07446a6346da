"""A client's answers file: one JSON object a line, read without ever raising on bad input.

Each problem names the line and the JSON path inside it (`line 7: $.scores[2]: expected an integer, got "3"`),
so a client team can fix its writer; a line whose case cannot be told is reported on its own.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from audit.api import JsonTextError, json_lines, loads
from audit.vocabulary import ITEM_KINDS
from audit.vocabulary import CODES as TILE_CODES


@dataclass
class Answer:
    """One answer line: its case, where it stands, the object, and what is wrong with its shape."""

    case: str
    line: int
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)


@dataclass
class Answers:
    """Every answer by case, and the lines that name no case (or a case twice)."""

    by_case: dict[str, Answer] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_seat(v: Any, seats: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < seats


def _json_path(path: str | None) -> str:
    """jsontext's `items[0].amount` as this file's messages write it: `$.items[0].amount`."""
    if not path:
        return "$"
    return f"${path}" if path.startswith("[") else f"$.{path}"


def parse(text: str) -> Answers:
    """Every line of an answers file; blank lines are skipped. Each line is read strictly
    (`audit.jsontext`, as an upload is): a repeated key, an integer past 64 bits, a lone surrogate,
    NaN or deep nesting is an error on that line naming the JSON path, so an answer two readers
    would read differently is never counted. A byte order mark at the start is accepted."""
    out = Answers()
    for no, raw in json_lines(text):
        try:
            obj = loads(raw, allow_bom=False)  # the file's own mark is gone; one inside is not JSON
        except JsonTextError as exc:
            if exc.line is not None:
                out.errors.append(f"line {no}: not JSON ({exc.message.removeprefix('malformed JSON: ')} "
                                  f"at column {exc.column})")
            else:
                out.errors.append(f"line {no}: {_json_path(exc.path)}: {exc.message}")
            continue
        if not isinstance(obj, dict):
            out.errors.append(f"line {no}: $: expected an object, got {_short(obj)}")
            continue
        case = obj.get("case")
        if not isinstance(case, str):
            out.errors.append(f"line {no}: $.case: expected the case id (a string), got "
                              f"{_short(case) if 'case' in obj else 'nothing'}")
            continue
        if case in out.by_case:
            out.errors.append(f"line {no}: $.case: a second answer for {case} (the first is on line "
                              f"{out.by_case[case].line}); the first one counts")
            continue
        out.by_case[case] = Answer(case, no, obj)
    return out


def check_settlement(ans: Answer, seats: int) -> None:
    """Shape problems of a settlement answer (the `result` object plus `case`)."""
    d, p = ans.data, ans.problems
    known = {"case", "scores", "next_dealer", "flip", "items", "extra"}
    p += [f"$.{k}: not a field of a settlement answer" for k in sorted(set(d) - known)]
    scores = d.get("scores")
    if not isinstance(scores, list):
        p.append(f"$.scores: expected a list of {seats} integers, got {_short(scores) if 'scores' in d else 'nothing'}")
    else:
        if len(scores) != seats:
            p.append(f"$.scores: expected {seats} scores (one per seat), got {len(scores)}")
        p += [f"$.scores[{i}]: expected an integer, got {_short(v)}" for i, v in enumerate(scores) if not _is_int(v)]
    nd = d.get("next_dealer")
    if not _is_seat(nd, seats):
        p.append(f"$.next_dealer: expected a seat index 0..{seats - 1}, got "
                 f"{_short(nd) if 'next_dealer' in d else 'nothing'}")
    if "flip" not in d:
        p.append("$.flip: missing (a tile code, or null when no tile was turned)")
    elif d["flip"] is not None and d["flip"] not in TILE_CODES:
        p.append(f"$.flip: expected a tile code such as \"2s\" or null, got {_short(d['flip'])}")
    if "items" in d:
        _check_items(d["items"], seats, p)


def _check_items(items: Any, seats: int, p: list[str]) -> None:
    if not isinstance(items, list):
        p.append(f"$.items: expected a list, got {_short(items)}")
        return
    for i, it in enumerate(items):
        where = f"$.items[{i}]"
        if not isinstance(it, dict):
            p.append(f"{where}: expected an object, got {_short(it)}")
            continue
        if it.get("kind") not in ITEM_KINDS:
            p.append(f"{where}.kind: expected one of {', '.join(ITEM_KINDS)}, got {_short(it.get('kind'))}")
        for key in ("from", "to"):
            v = it.get(key)
            if not _is_seat(v, seats):
                p.append(f"{where}.{key}: expected a seat index 0..{seats - 1}, got "
                         f"{_short(v) if key in it else 'nothing'}")
        if not _is_int(it.get("amount")):
            p.append(f"{where}.amount: expected an integer, got "
                     f"{_short(it.get('amount')) if 'amount' in it else 'nothing'}")
        if "note" in it and not isinstance(it["note"], str):
            p.append(f"{where}.note: expected a string, got {_short(it['note'])}")
        p += [f"{where}.{k}: not a field of an item" for k in sorted(set(it) - {"kind", "from", "to", "amount", "note"})]


def check_rejection(ans: Answer) -> None:
    """Shape problems of a rejection answer."""
    d, p = ans.data, ans.problems
    p += [f"$.{k}: not a field of a rejection answer" for k in sorted(set(d) - {"case", "rejected_at", "extra"})]
    if "rejected_at" not in d:
        p.append("$.rejected_at: missing (the step your validator refuses, or null)")
    elif d["rejected_at"] is not None and (not _is_int(d["rejected_at"]) or d["rejected_at"] < 0):
        p.append(f"$.rejected_at: expected an event index (0 or more) or null, got {_short(d['rejected_at'])}")
