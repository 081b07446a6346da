"""What differs between two revisions of one game: fields, events and result entries.

A platform that uploads a game again (a corrected result, a replayed wall)
is asked "what did you change?"; the report answers side by side. Pure
functions over the two `zhuoji/1` documents: fields are compared by their
JSON path (a list of plain values, such as a hand or the wall, as one value),
events and result items as sequences (difflib), so an inserted event shows as
one insertion rather than every later event differing.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

SEQUENCES = ("events", "result.items")
"""Paths compared as sequences of entries rather than field by field."""


@dataclass(frozen=True)
class FieldChange:
    """A field with another value (None: the field is absent on that side)."""

    path: str
    old: str | None
    new: str | None


@dataclass(frozen=True)
class EntryChange:
    """A run of entries of a sequence (events, result items) that differ: `op` is replace,
    insert or delete; indices are the entries' positions on each side."""

    op: str
    old: tuple[tuple[int, str], ...]
    new: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class RevisionDiff:
    """Everything that differs between revision `old` and revision `new` of a game."""

    fields: tuple[FieldChange, ...]
    events: tuple[EntryChange, ...]
    items: tuple[EntryChange, ...]
    same_events: int
    """How many events both revisions have in common (in order)."""

    @property
    def identical(self) -> bool:
        """Nothing differs."""
        return not (self.fields or self.events or self.items)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def _flatten(value: Any, path: str, out: dict[str, str]) -> None:
    """JSON paths to leaf values; lists of plain values are one leaf, sequences are left out."""
    if path in SEQUENCES:
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(inner, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        for index, inner in enumerate(value):
            _flatten(inner, f"{path}[{index}]", out)
    else:
        out[path] = _text(value)


def _at(doc: Any, path: str) -> list[Any]:
    value = doc
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, list) else []


def _entries(old: Sequence[Any], new: Sequence[Any]) -> tuple[tuple[EntryChange, ...], int]:
    a, b = [_text(v) for v in old], [_text(v) for v in new]
    out, same = [], 0
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            same += i2 - i1
            continue
        out.append(EntryChange(op, tuple((i, a[i]) for i in range(i1, i2)), tuple((j, b[j]) for j in range(j1, j2))))
    return tuple(out), same


def revision_diff(old: Any, new: Any) -> RevisionDiff:
    """The differences of two record documents (anything not a JSON object counts as empty)."""
    old = old if isinstance(old, dict) else {}
    new = new if isinstance(new, dict) else {}
    a: dict[str, str] = {}
    b: dict[str, str] = {}
    _flatten(old, "", a)
    _flatten(new, "", b)
    paths = list(a) + [p for p in b if p not in a]
    fields = tuple(FieldChange(p, a.get(p), b.get(p)) for p in paths if a.get(p) != b.get(p))
    events, same = _entries(_at(old, "events"), _at(new, "events"))
    items, _ = _entries(_at(old, "result.items"), _at(new, "result.items"))
    return RevisionDiff(fields, events, items, same)


__all__ = ["EntryChange", "FieldChange", "RevisionDiff", "revision_diff"]
