"""The other values a platform may have played for each parameter of a profile.

R16.16's attribution tries each of them as one reading of a wrong total (`audit.attribute`); the
enumeration reads the profile's own dataclasses (every bool, `Literal` and int field, and the
pattern values), so a parameter added to `audit.profiles` is tried without a list to keep in step.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from audit.profiles import Profile, ProfileError, apply_options, list_profiles, load_profile

_NOT_AMOUNTS: Final = frozenset({"players", "must_win", "pass_lock_until", "pass_lock_allows_higher", "pass_pong_lock",
                                 "replacement_from", "double_win_next_dealer", "draw_next_dealer"})
"""Parameters that decide legality or the next dealer, never an amount: no model for them."""


def _settings(obj: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(dotted name, value, type) of every scalar parameter under a profile dataclass."""
    hints = get_type_hints(type(obj))
    for f in fields(obj):
        if f.name in ("name", "title", "source") and not prefix:
            continue
        path, value = f"{prefix}{f.name}", getattr(obj, f.name)
        if path in _NOT_AMOUNTS:
            continue
        if is_dataclass(value):
            yield from _settings(value, path + ".")
        elif isinstance(value, dict):
            yield from ((f"{path}.{k}", v, int) for k, v in value.items() if isinstance(v, int))
        elif not isinstance(value, tuple):
            yield path, value, hints[f.name]


def _known_values(path: str) -> set[Any]:
    """The values the bundled profiles give `path` (a platform's mistake is often another source's rule)."""
    out: set[Any] = set()
    for name in list_profiles():
        holder: Any = load_profile(name)
        for part in path.split("."):
            holder = holder.get(part) if isinstance(holder, dict) else getattr(holder, part, None)
        if isinstance(holder, (int, str, bool)):
            out.add(holder)
    return out


def _alternatives(path: str, value: Any, tp: Any) -> list[Any]:
    """The other values of one parameter a platform may have played."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, str):
        options = [a for arg in get_args(tp) for a in (get_args(arg) if get_origin(arg) is Literal else (arg,))]
        return [o for o in options if isinstance(o, str) and o != value]
    if isinstance(value, int):
        near = {value - 1, value + 1, 2 * value, value // 2, 0} | {v for v in _known_values(path)
                                                                 if isinstance(v, int) and not isinstance(v, bool)}
        return sorted(v for v in near if v >= 0 and v != value)
    if value is None and path == "follow_dealer":
        return [1]
    return []


_CANDIDATES: dict[str, list[tuple[str, Any, Profile]]] = {}


def parameter_models(prof: Profile) -> list[tuple[str, Any, Profile]]:
    """(parameter, value, profile with that value) for every amount-changing parameter of `prof`;
    built once per profile (profiles are immutable and cached by the loader)."""
    key = repr(prof)
    if key not in _CANDIDATES:
        if len(_CANDIDATES) >= 64:  # what-if options make new profiles: keep the cache bounded
            _CANDIDATES.clear()
        out: list[tuple[str, Any, Profile]] = []
        for path, value, tp in _settings(prof):
            for alt in _alternatives(path, value, tp):
                try:
                    out.append((path, alt, apply_options(prof, {path: alt})))
                except ProfileError:
                    continue
        _CANDIDATES[key] = out
    return _CANDIDATES[key]
