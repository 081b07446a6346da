"""A profile written as a profile file (TOML), the way `audit/profiles/*.toml` are written.

The fit (`python -m fit --out`) writes the profile it found; an operator puts the file in
`ZHUOJI_PROFILE_DIR` and audits under it by name. The file holds every parameter (not only those
the fit changed), so it stays right when a bundled profile changes later; comments say where each
changed value came from. The standard library reads TOML but does not write it: the writer below
covers what a profile holds (booleans, non-negative integers, strings, lists of those, tables of
them), and `loads(text)` of its output is exactly `to_data(profile)` (tests/audit/test_profile_toml.py).
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from audit.api import Profile, to_data

_BARE: Final = re.compile(r"^[A-Za-z0-9_-]+$")
"""A TOML bare key; any other key is written quoted."""


def _key(name: str) -> str:
    return name if _BARE.match(name) else json.dumps(name, ensure_ascii=False)


def _value(value: Any) -> str:
    """A scalar or a list of scalars in TOML (a JSON string is a TOML basic string)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"a profile holds no {type(value).__name__} ({value!r})")  # pragma: no cover - a bug


def _table(data: Mapping[str, Any], path: str, notes: Mapping[str, str], out: list[str]) -> None:
    """One table: its scalars (each after its note, if any), then its sub-tables."""
    for name, value in data.items():
        if isinstance(value, Mapping):
            continue
        dotted = f"{path}.{name}" if path else name
        if dotted in notes:
            out.append(f"# {notes[dotted]}")
        out.append(f"{_key(name)} = {_value(value)}")
    for name, value in data.items():
        if isinstance(value, Mapping):
            dotted = f"{path}.{name}" if path else name
            out.append("")
            if dotted in notes:
                out.append(f"# {notes[dotted]}")
            out.append(f"[{'.'.join(_key(p) for p in dotted.split('.'))}]")
            _table(value, dotted, notes, out)


def profile_toml(profile: Profile, *, header: list[str] | None = None, notes: Mapping[str, str] | None = None) -> str:
    """The profile as a profile file: `header` lines as comments first, `notes` (by dotted
    parameter name) as a comment above the parameter."""
    out = [f"# {line}" if line else "#" for line in header or []]
    _table(to_data(profile), "", notes or {}, out)
    return "\n".join(out) + "\n"


__all__ = ["profile_toml"]
