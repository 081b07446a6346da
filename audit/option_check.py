"""What-if and re-audit options checked before anything runs (issue 11).

An option with a typo (`{"nope": 1}`) or the wrong type used to run, come out as an
`invalid` audit, and could then be stored as a record's latest. `check` resolves the
profile exactly as the engine will (`engine.resolve_profile`: the record's own
profile and options, then the what-if's) and reports the first parameter the loader
refuses, as a problem with the JSON path of the request (`options.hot_shot.bonus`),
its catalogue code, and the parameters this profile knows. The known parameters are
read from the profile model (`audit.profiles.Profile` and its nested dataclasses), so
a parameter added there is known here without a list to keep in step. No Flask.
"""
from __future__ import annotations

import re
import types
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from audit.catalogue import Lang
from audit.profiles import HAND_VALUE_KEYS, Profile, ProfileError

IDENTITY = ("name", "title", "source")
"""Fields of a profile that name it rather than set a rule: never an option."""
_MOVED = re.compile(r"^rules\.options \((?P<inner>.*)\)$")


@dataclass(frozen=True)
class OptionProblem:
    """One refused option: where (the request's JSON path), the catalogue code and params, and
    what the profile knows instead."""

    path: str
    code: str
    params: dict[str, Any]
    known: tuple[str, ...]
    error: ProfileError

    def message(self, lang: Lang | str = Lang.EN) -> str:
        """What is wrong with it, in `lang`, without the path."""
        return self.error.text(lang)


def _dataclass_of(tp: Any) -> type | None:
    """The dataclass a field's type is (or is Optional of), if any."""
    if get_origin(tp) in (Union, types.UnionType):
        inner = [arg for arg in get_args(tp) if arg is not type(None)]
        tp = inner[0] if len(inner) == 1 else None
    return tp if isinstance(tp, type) and is_dataclass(tp) else None


def _paths(cls: type, prefix: str = "") -> list[str]:
    """Every settable parameter under a parameter dataclass, dotted, tables before their fields."""
    out: list[str] = []
    hints = get_type_hints(cls)
    for field in fields(cls):
        if not prefix and field.name in IDENTITY:
            continue
        path = f"{prefix}{field.name}"
        nested = _dataclass_of(hints[field.name])
        out.append(path)
        if nested is not None:
            out += _paths(nested, path + ".")
        elif path == "hand_values":
            out += [f"hand_values.{key}" for key in HAND_VALUE_KEYS]
    return out


def known_parameters() -> tuple[str, ...]:
    """The option names a what-if may set (nested tables or dotted names), from the model."""
    return tuple(_paths(Profile))


def _request_path(error_path: str) -> str:
    """`rules.options (hot_shot.bonus)` or `rules.options.flip` -> `options.hot_shot.bonus`, `options.flip`."""
    moved = _MOVED.match(error_path)
    if moved is not None:
        return f"options.{moved.group('inner')}"
    return error_path[len("rules."):] if error_path.startswith("rules.options") else error_path


def check(doc: object, profile: str | None, options: object) -> OptionProblem | None:
    """The first problem of `options` for this record (None when the engine will accept them).
    A record whose own profile or options are already refused is the record's problem, not the
    what-if's: it is reported (as the audit will be) only when no what-if options are given."""
    if options is None or options == {}:
        return None
    known = known_parameters()
    if not isinstance(options, dict):
        error = ProfileError("rules.options", "options_not_object")
        return OptionProblem("options", error.code, error.params, known, error)
    from audit.engine import resolve_profile  # late: `audit.api` re-exports this check, not the replayer

    record = doc if isinstance(doc, dict) else {}
    for key in options:
        head = str(key).split(".", 1)[0]
        if head in IDENTITY:
            error = ProfileError(f"rules.options.{key}", "unknown_parameter")
            return OptionProblem(f"options.{key}", error.code, error.params, known, error)
    try:
        resolve_profile(record, profile, None)
    except ProfileError:
        return None  # the record (or the chosen profile) is refused whatever the options say
    try:
        resolve_profile(record, profile, options)
    except ProfileError as exc:
        return OptionProblem(_request_path(exc.path), exc.code, exc.params, known, exc)
    return None


__all__ = ["IDENTITY", "OptionProblem", "check", "known_parameters"]
