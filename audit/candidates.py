"""The other values a platform may have played for each parameter of a profile.

R16.16's attribution tries each of them as one reading of a wrong total (`audit.attribute`), and the
fit (`fit.search`, issue 21.4) tries them, and a few more (`trials`), as the platform's own
conventions. The enumeration reads the profile's own dataclasses (every bool, `Literal` and int
field, and the pattern values), so a parameter added to `audit.profiles` is tried without a list
to keep in step.
"""
from __future__ import annotations

import ast
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache
from typing import Annotated, Any, Final, Literal, get_args, get_origin, get_type_hints

from audit.house_rules import BY_PATH
from audit.profiles import HAND_VALUE_KEYS, Profile, ProfileError, apply_options, list_profiles, load_profile, to_data

_NOT_AMOUNTS: Final = frozenset({"players", "must_win", "pass_lock_until", "pass_lock_allows_higher", "pass_pong_lock",
                                 "replacement_from", "double_win_next_dealer", "draw_next_dealer"})
"""Parameters that decide legality or the next dealer, never an amount: no model for them."""


@lru_cache(maxsize=None)
def _field_types(cls: type) -> dict[str, Any]:
    """A profile dataclass's field types, resolved once (`get_type_hints` reads every annotation again
    each time: ~0.4 ms for `Profile`, paid per profile R16.16 lists models for; issue 35.6)."""
    return get_type_hints(cls)


def _settings(obj: Any, prefix: str = "", skip: frozenset[str] = _NOT_AMOUNTS,
              lists: bool = False) -> Iterator[tuple[str, Any, Any]]:
    """(dotted name, value, type) of every scalar parameter under a profile dataclass but `skip`;
    with `lists`, the list-valued ones too (`must_win`)."""
    cls: type = type(obj)
    hints = _field_types(cls)
    for f in fields(obj):
        if f.name in ("name", "title", "source") and not prefix:
            continue
        path, value = f"{prefix}{f.name}", getattr(obj, f.name)
        if path in skip:
            continue
        if is_dataclass(value):
            yield from _settings(value, path + ".", skip, lists)
        elif isinstance(value, dict):
            yield from ((f"{path}.{k}", v, int) for k, v in value.items() if isinstance(v, int))
        elif lists or not isinstance(value, tuple):
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
    """The other values of one parameter a platform may have played: for a house rule at today's
    rule, the values its registry entry tries (audit/house_rules.py), else its other values."""
    rule = BY_PATH.get(path)
    if rule is not None and value == rule.default:
        return list(rule.tries)
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, str):
        options = [a for arg in get_args(tp) for a in (get_args(arg) if get_origin(arg) is Literal else (arg,))]
        return [o for o in options if isinstance(o, str) and o != value]
    if isinstance(value, int):
        near = {value - 1, value + 1, 2 * value, value // 2, 0} | {v for v in _known_values(path)
                                                                 if isinstance(v, int) and not isinstance(v, bool)}
        return sorted(v for v in near if v >= 0 and v != value)
    return []


class Model:
    """One other value R16.16 tries for one parameter of a profile. The profile with that value is
    built on first use (`profile`): an attribution asks only for the parameters its settlement read,
    so a command that audits a few hundred records builds a few dozen of the ~660 (issue 35.6)."""

    __slots__ = ("base", "path", "value", "_built")

    def __init__(self, base: Profile, path: str, value: Any) -> None:
        self.base, self.path, self.value = base, path, value
        self._built: tuple[Profile | None] | None = None

    @property
    def profile(self) -> Profile | None:
        """`base` with this value (and what it brings along); None where the loader refuses it."""
        if self._built is None:
            try:
                self._built = (apply_options(self.base, {self.path: self.value,
                                                         **_companions(self.base, self.path, self.value)}),)
            except ProfileError:
                self._built = (None,)
        return self._built[0]


_CANDIDATES: dict[str, list[Model]] = {}


def _companions(prof: Profile, path: str, value: Any) -> dict[str, Any]:
    """What a named option brings along when a platform reads it the other way (profiles.py
    `_apply_special`): the flip read as `next` on an up-and-down profile counts discards as the
    profile's own `next` does (its base value), not as its up-and-down reading."""
    if path != "flip" or value != "next":
        return {}
    try:
        base = load_profile(prof.name)
    except ProfileError:
        return {}
    return {"flip_counts_discards": base.flip_counts_discards} if base.flip == "next" else {}


def models(prof: Profile) -> list[Model]:
    """Every other value of every amount-changing parameter of `prof`, in one fixed order, each
    profile built when first asked; listed once per profile (profiles are immutable and cached by
    the loader), so a profile built once serves every later record."""
    key = repr(prof)
    if key not in _CANDIDATES:
        if len(_CANDIDATES) >= 64:  # what-if options make new profiles: keep the cache bounded
            _CANDIDATES.clear()
        _CANDIDATES[key] = [Model(prof, path, alt) for path, value, tp in _settings(prof)
                            for alt in _alternatives(path, value, tp)]
    return _CANDIDATES[key]


def parameter_models(prof: Profile) -> list[tuple[str, Any, Profile]]:
    """(parameter, value, profile with that value) for every amount-changing parameter of `prof`
    the loader accepts: `models`, every profile built."""
    return [(m.path, m.value, built) for m in models(prof) if (built := m.profile) is not None]


# ---------------------------------------------------------------- the fit's trials

FIXED: Final = frozenset({"players"})
"""What the fit never varies: a record's seat count is a fact of its table, not a convention."""

_NAMED_TABLES: Final = frozenset({"jian_dou_san", "wugu_ji"})
"""Tables `rules.options` reads as named options (R16.10): `False` turns them off, never `None`."""


@dataclass(frozen=True)
class Trial:
    """One profile the fit tries: `parameter` set to `value` in the profile it starts from, by the
    `options` that make it (with another parameter turned on where the loader asks for it)."""

    parameter: str
    value: Any
    options: dict[str, Any]
    profile: Profile
    together: tuple[tuple[str, Any], ...] = ()
    """Other (parameter, value)s set with it: the fit's pairs (`fit.search`)."""
    key: str = ""
    """The options as canonical JSON (`options_key`): the same trial from whatever profile it starts."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", options_key(self.options))


def options_key(options: dict[str, Any]) -> str:
    """Options as canonical JSON (what tells two trials apart)."""
    return json.dumps(options, sort_keys=True, ensure_ascii=False)


def value_at(prof: Any, path: str) -> Any:
    """A parameter's value by dotted name, a table as its plain data (None where absent)."""
    holder = prof
    for part in path.split("."):
        holder = holder.get(part) if isinstance(holder, dict) else getattr(holder, part, None)
    return to_data(holder) if is_dataclass(holder) else holder


def _subsets(tp: Any, value: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every other list of a tuple-of-Literal parameter's choices (`must_win`), in the type's order."""
    (element, *_) = get_args(tp)
    choices = get_args(element) if get_origin(element) is Literal else ()
    out = [combo for n in range(len(choices) + 1) for combo in itertools.combinations(choices, n)]
    return [combo for combo in out if combo != tuple(value)]


def _bundled(path: str) -> list[Any]:
    """The values the bundled profiles give an optional parameter (a table as its data, turned on
    where it has an `enabled` switch: a table that is there but off changes nothing)."""
    out: list[Any] = []
    for name in list_profiles():
        data = value_at(load_profile(name), path)
        if isinstance(data, dict) and "enabled" in data:
            data = {**data, "enabled": True}
        if data is not None and data not in out:
            out.append(data)
    return out


PROBES: Final = (1, 2)
"""Values an absent number is tried at when the bundled profiles give it none: two points of a line,
from which the fit solves the number the records' scores ask for (`fit.search._solved`). Where they
give one, v, the second point is v + 1: a pattern value counts only above the hand's other patterns
(单吊 at 1 or 2 changes no hand that is also 大对子), and a bundled value is high enough to count."""


def _numeric(tp: Any) -> bool:
    """Whether a parameter's type is an (optional) integer: `Units | None`, `Multiple | None`."""
    for arg in get_args(tp) or (tp,):
        if arg is int or (get_origin(arg) is Annotated and get_args(arg)[0] is int):
            return True
    return False


def _probed(values: list[Any]) -> list[Any]:
    """`values` of an absent number, with PROBES added until two numbers are there."""
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(numbers) == 1:
        return values + [numbers[0] + 1]
    return values + (list(PROBES) if not numbers else [])


def _more(path: str, value: Any, tp: Any) -> list[Any]:
    """What the fit tries beyond R16.16's values: other lists of choices, and an optional parameter
    the profile leaves out (a table, a number, a switch) as the bundled profiles have it (an absent
    number at two values at least: `_probed`)."""
    if isinstance(value, tuple):
        return list(_subsets(tp, value))
    if value is None:
        return _probed(_bundled(path)) if _numeric(tp) else _bundled(path)
    return []


def setting_options(path: str, value: Any) -> dict[str, Any]:
    """The `rules.options` that set one parameter: a table by its fields (so a named option's own
    meaning does not apply), an absent table as None (a named one as off)."""
    if isinstance(value, dict):
        return {f"{path}.{k}": v for k, v in value.items()}
    if value is None and path in _NAMED_TABLES:
        return {path: False}
    return {path: list(value) if isinstance(value, tuple) else value}


def _needed(exc: ProfileError) -> tuple[str, Any] | None:
    """The (parameter, value) a refused value needs, where the loader says so: R17's
    `parameter_needs` (a switch that must be true), R18's and R19's `house_rule_needs` (a value it names)."""
    needs = exc.params.get("needs")
    if not isinstance(needs, str):
        return None
    if exc.code == "parameter_needs":
        return needs, True
    if exc.code == "house_rule_needs":
        said = exc.params.get("value")
        if said == "true":
            return needs, True
        try:
            return needs, ast.literal_eval(str(said))
        except (ValueError, SyntaxError):
            return None
    return None


def trial(prof: Profile, path: str, value: Any) -> Trial | None:
    """`prof` with one parameter set to `value` (and the parameter it needs set as the loader
    says, where it asks for one); None where the loader refuses it."""
    options = setting_options(path, value)
    try:
        return Trial(path, value, options, apply_options(prof, options))
    except ProfileError as exc:
        need = _needed(exc)
    if need is None or need[0] in options or value_at(prof, need[0]) == need[1]:
        return None
    options = {**options, need[0]: need[1]}
    try:
        return Trial(path, value, options, apply_options(prof, options))
    except ProfileError:
        return None


def trials(prof: Profile, base: Profile) -> list[Trial]:
    """Every other value the fit tries for each parameter of `prof` but FIXED: the values R16.16's
    models try (`_alternatives`), `_more`, and the value `base` gives it; a table `prof` has and
    `base` has not, left out again. A value the loader refuses alone is tried with the parameter it
    needs (R17, R18: "only where ... is true", "only where `hot_shot.burn` is `all`"), or not at all."""
    out: list[Trial] = []
    seen: set[str] = set()

    def add(path: str, values: list[Any]) -> None:
        for alt in values:
            made = trial(prof, path, alt)
            if made is not None and made.key not in seen:
                seen.add(made.key)
                out.append(made)

    for path, value, tp in _settings(prof, skip=FIXED, lists=True):
        values = _alternatives(path, value, tp) + _more(path, value, tp)
        theirs = value_at(base, path)
        add(path, values + ([theirs] if theirs != value and theirs not in values else []))
    for key in HAND_VALUE_KEYS:  # a pattern the profile does not value, as the bundled profiles value it
        if key not in prof.hand_values:
            path = f"hand_values.{key}"
            add(path, _probed(sorted(_known_values(path) | ({base.hand_values[key]} if key in base.hand_values
                                                             else set()))))
    for f in fields(prof):
        if is_dataclass(getattr(prof, f.name)) and getattr(base, f.name) is None:
            add(f.name, [None])
    return out
