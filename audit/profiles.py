"""Rule profiles (rulebook section P) as validated data.

A profile is a TOML file in `audit/profiles/` (or any folder an operator
points `ZHUOJI_PROFILE_DIR` at). Loading checks every name and type against
the dataclasses below, so a typo in a profile or in `rules.options` is a clear
error, never a silently ignored rule. Code reads parameters; it never asks
which profile it is running.
"""
from __future__ import annotations

import copy
import json
import os
import time
import tomllib
import types
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin, get_type_hints

from audit import house_rules
from audit.catalogue import Lang, finding_message
from audit.kinds import ItemKind
from audit.ranges import MULTIPLE, SEATS, UNITS, IntRange

PROFILE_DIR = Path(__file__).with_name("profiles")
DEFAULT_PROFILE = "weile"
UNSUPPORTED_FEATURES = {
    "bao_pai": "包牌 penalties",
    "ben_ji": "本鸡",
    "yao_bai_ji": "摇摆鸡",
    "xing_qi_ji": "星期鸡",
}
"""Rules the sources name but the rulebook does not define: refused, never ignored (P)."""


CHOICE_CODES = ("parameter_not_one_of", "flip_bad_value")
"""The refusals of a value that is not one of a parameter's listed values."""


def _listed_values(path: str) -> list[str] | None:
    """The Chinese words of the values a parameter at `path` (`rules.options.flip`, `rules.options
    (hot_shot.burn)`, `flip`) may take, when parameters.toml lists them."""
    from audit.rulebook import parameters

    dotted = path.replace(" (", ".").rstrip(")")
    parts = dotted.split(".")
    for start in range(len(parts)):
        entry = parameters().get(".".join(parts[start:]))
        if entry is not None:
            listed = entry.get("values") or {}
            return [str(words["zh"]) for words in listed.values()] or None
    return None


class ProfileError(ValueError):
    """A profile file or an option that cannot be honoured; `path` names the parameter.

    What is wrong is a catalogue code with its params (`path` among them); the
    exception's text is the English message (`path: text`)."""

    def __init__(self, path: str, code: str, params: dict[str, Any] | None = None) -> None:
        self.path = path
        self.code = code
        self.params: dict[str, Any] = {"path": path, **(params or {})}
        super().__init__(path, code)

    def __str__(self) -> str:
        """The English message, `path: text` (rendered when asked)."""
        return self.text(Lang.EN, with_path=True)

    @property
    def message(self) -> str:
        """What is wrong, in English, without the path."""
        return self.text(Lang.EN)

    def text(self, lang: Lang | str, *, with_path: bool = False) -> str:
        """What is wrong in `lang`, after the path when `with_path`. In Chinese a parameter that
        takes one of its listed values names them by their words (parameters.toml `.values`:
        翻牌的下一张、翻牌的上下各一张), not as the file spells them (issue 33.4)."""
        params = self.params if with_path else {**self.params, "path": ""}
        values = _listed_values(self.path) if self.code in CHOICE_CODES and Lang(lang) is Lang.ZH else None
        if values:
            return finding_message("parameter_not_one_of", {**params, "choices": values}, None, lang)
        return finding_message(self.code, params, None, lang)

    def moved(self, path: str) -> ProfileError:
        """The same error reported at another path."""
        return ProfileError(path, self.code, {k: v for k, v in self.params.items() if k != "path"})


Mode = Literal["add", "floor"]
Units = Annotated[int, UNITS]
"""A payment value in units (audit/ranges.py `UNITS`)."""
Multiple = Annotated[int, MULTIPLE]
"""A multiplier (audit/ranges.py `MULTIPLE`)."""
Seats = Annotated[int, SEATS]
"""A seat count (audit/ranges.py `SEATS`)."""


@dataclass(frozen=True)
class Dou:
    """R4.7 kong payments, in units."""

    concealed: Units
    added: Units
    exposed: Units
    exposed_payer: Literal["discarder", "konger"] = "discarder"
    """R18.2: who pays an exposed kong's dou: its discarder (R4.7), or the konger, to the discarder (百科口径)."""


@dataclass(frozen=True)
class Declared:
    """R5.4 报听 values; `mode` add: pattern + value, floor: max(pattern, value)."""

    hard: Units
    soft: Units
    mode: Mode


@dataclass(frozen=True)
class KillDeclared:
    """R5.4 杀报: the bonus of a seat that wins on a declared seat's discard."""

    value: Units
    mode: Mode


@dataclass(frozen=True)
class HotShot:
    """R8.3 热炮 settlement."""

    bonus: Units
    burn: Literal["all", "that_kong"]
    transfer_kong: bool
    burn_liabilities: Literal["kept", "void", "void_all"] = "kept"
    """R18.4: whether a burned shooter (burn `all`) still owes its 冲锋鸡 and 责任鸡 (R11.7), or owes
    neither (全烧 of both sides); R19.4 `void_all`: nor anything for its own exposed or melded chickens."""
    multiplier: Multiple | None = None
    """R19.5: each winner's value times this instead of adding `bonus`; absent: R8.3's bonus."""


@dataclass(frozen=True)
class Chicken:
    """R11 chicken values."""

    normal: Units
    charge: Units
    responsibility: Units
    gold_multiplier: Multiple
    flip: Units
    concealed_kong_flip: Units | None = None
    exposed_payers: Literal["owner", "all_unready"] = "owner"
    """R17.1: who pays for a non-qualifying seat's discarded chickens (包鸡: every non-qualifying seat)."""
    qualified_pay_each_other: bool = True
    """R17.2: whether qualifying seats pay each other their chicken value (the 冲锋 extra is always paid)."""
    claimed_charge: Literal["none", "to_claimer", "to_ready_claimer"] = "none"
    """R17.3: whether a claimed first chicken keeps its 冲锋 extra (the claimer's if it qualifies); R19.2
    `to_ready_claimer`: the claimer's whole 冲锋鸡 if it qualifies, else its discarder's, tile and extra."""
    responsibility_claims: Literal["first", "any"] = "first"
    """R17.4: which claims of a chicken make a 责任鸡: the first discarded one only, or any."""
    responsibility_if_discarder_ready: bool = True
    """R17.5: whether a 责任鸡 extra is owed when its discarder won or is ready."""
    wugu_gold: bool = False
    """R17.6: whether a flip chicken of 8p makes 8p 金鸡 (multiplied, no flip credit), as for 1s."""
    wugu_responsibility: bool = True
    """R17.9: whether a claimed 8p can make a 责任鸡."""
    charge_scope: Literal["per_species", "first_any"] = "per_species"
    """R17.10: a 冲锋鸡 per chicken tile, or one per hand (the first 1s or 8p discarded)."""
    exposed_kong_claim: Literal["responsibility", "keeps_charge"] = "responsibility"
    """R18.5: an exposed kong of the first discarded 1s (8p) makes a 责任鸡 (R11.4), or leaves its
    discarder the whole 冲锋鸡, tile and extra, and makes none (only a pong makes a 责任鸡)."""
    unready_melded: Literal["pays", "free"] = "pays"
    """R19.1: whether a seat that does not qualify pays for its melded chickens (R11.6), or not."""
    won_tile: Literal["winner", "both"] = "winner"
    """R19.6: the tile won on a discard is the winner's (R11.2), or also stays in its discarder's pond."""


@dataclass(frozen=True)
class Wugu:
    """R11.1 乌骨鸡 (8p): its own normal and charge values; off unless enabled."""

    enabled: bool
    normal: Units
    charge: Units


@dataclass(frozen=True)
class DealerBonus:
    """R6.4 dealer bonus: base + per_streak * streak (sum) or the max of the two."""

    base: Units
    per_streak: Units
    mode: Literal["sum", "max"]
    on: Literal["both", "dealer_wins"] = "both"
    """R18.1: the bonus rides every hand payment between the dealer and another seat (R6.4), or only
    those the dealer receives as a winner."""


@dataclass(frozen=True)
class JianDouSan:
    """见豆三: what the option changes in this profile's source; off unless enabled."""

    enabled: bool
    dou: Units
    chicken_charge: Units | None = None
    chicken_responsibility: Units | None = None
    self_draw_table: dict[str, Units] | None = None


@dataclass(frozen=True)
class Profile:
    """Every parameter of table P; optional sections absent mean the feature does not exist."""

    name: str
    title: str
    source: str
    players: tuple[Seats, ...]
    hand_values: dict[str, Units]
    long_qi_dui_needs_winning_tile: bool
    self_draw_bonus: Units
    kong_flower_bonus: Units
    dou: Dou
    dou_requires_ready: bool
    late_kong_scores: bool
    hot_shot: HotShot
    rob_kong_burn: bool
    must_win: tuple[Literal["hot_shot", "rob_kong"], ...]
    chicken: Chicken
    responsibility_reverse: bool
    chicken_requires_ready: bool
    chicken_counts_discards: bool
    flip: Literal["next", "up_down"]
    flip_counts_discards: bool
    dealer_bonus_on_draw: bool
    double_win_next_dealer: Literal["discarder", "nearest_winner"]
    draw_next_dealer: Literal["stay", "by_ready"]
    pass_lock_until: Literal["draw", "discard"]
    pass_lock_allows_higher: bool
    pass_pong_lock: bool
    replacement_from: Literal["back", "front"]
    declared: Declared | None = None
    kill_declared: KillDeclared | None = None
    wugu_ji: Wugu | None = None
    dealer_bonus: DealerBonus | None = None
    jian_dou_san: JianDouSan | None = None
    flip_up_down_counts_discards: bool | None = None
    dou_unready: Literal["void", "reverse"] = "void"
    """R17.7: the dou of a seat that neither won nor is ready: void (R4.7), or paid in reverse (倒赔)."""
    follow_dealer: Units | None = None
    """R17.8 跟庄 / 开局跟: units the dealer pays each other seat when the first discards all match;
    absent: not played."""
    dou_ready_test: Literal["at_end", "ever"] = "at_end"
    """R18.3: where `dou_requires_ready`, a seat that did not win passes if ready at the end (R4.7), or
    if ready right after any of its own discards."""
    rob_kong_multiple: Multiple | None = None
    """R19.3: the robbed seat alone pays the robber this many times the hand's value on a discard;
    absent: R9.3's three shares of a self-draw."""

    @cached_property
    def chicken_house_rules(self) -> bool:
        """Whether a house rule of the chickens (audit/house_rules.py: R17, R18.4, R18.5, R19) is set off
        today's rule: the chicken notes then word a 冲锋鸡 as R17 reads it, tile and extra
        (`audit.house.two_parts`)."""
        return house_rules.off_default(self, ItemKind.CHICKEN)

    def dou_value(self, kind: str) -> int:
        """Units of one dou payment of a kong kind (见豆三 makes every kind 3)."""
        if self.jian_dou_san is not None and self.jian_dou_san.enabled:
            return self.jian_dou_san.dou
        return int(getattr(self.dou, kind))

    @property
    def wugu_on(self) -> bool:
        """Whether 8p is a chicken in this hand."""
        return self.wugu_ji is not None and self.wugu_ji.enabled

    @property
    def jds_table(self) -> dict[str, int] | None:
        """The 见豆三 self-draw table when the option is on and the source has one."""
        j = self.jian_dou_san
        return j.self_draw_table if j is not None and j.enabled else None


HAND_VALUE_KEYS = ("ping_hu", "da_dui_zi", "qi_dui", "long_qi_dui", "qing_yi_se", "qing_da_dui",
                   "qing_qi_dui", "qing_long_qi_dui", "dan_diao", "tian_hu", "di_hu")
_DICT_KEYS = {"hand_values": HAND_VALUE_KEYS,
              "jian_dou_san.self_draw_table": HAND_VALUE_KEYS + ("declared",)}


# ---------------------------------------------------------------- building

SHOWN_CHARACTERS = 40
"""The longest bad value a message repeats; a longer one is cut (a 4,000-digit option is refused, not
echoed: Python will not even write an integer past 4,300 digits)."""


def _short(value: Any) -> str:
    """repr of a bad value, as messages show it: at most `SHOWN_CHARACTERS`, an integer of any size;
    true, false and null as a profile or options file writes them, not as Python does."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's 4,300 digits
        text = f"≈{'-' if value < 0 else ''}10^{int(value.bit_length() * 0.30103)}"
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 1] + "…"


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _check_int(value: Any, path: str, span: IntRange) -> int:
    """An integer parameter inside its range (issue 34.1: one range per parameter, from its type)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfileError(path, "parameter_not_integer", {"got": _short(value)})
    if value < 0 and span.low == 0:
        raise ProfileError(path, "parameter_negative", {"got": _short(value)})
    if not span.holds(value):
        raise ProfileError(path, "parameter_out_of_range", {"got": _short(value), "low": span.low, "high": span.high})
    return value


def int_range(tp: Any) -> IntRange | None:
    """The range an integer parameter's type declares (`Units`, `Multiple`, `Seats`); None for
    another type. Every integer parameter declares one (tests/audit/test_profiles.py)."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        return int_range(args[0]) if len(args) == 1 else None
    if get_origin(tp) is Annotated:
        spans = [m for m in tp.__metadata__ if isinstance(m, IntRange)]
        return spans[0] if spans and get_args(tp)[0] is int else None
    return None


def parameter_range(path: str) -> IntRange | None:
    """The range of the integer parameter at dotted `path` (`hot_shot.multiplier`,
    `hand_values.ping_hu`); None where it is not an integer parameter."""
    cls: Any = Profile
    parts = path.split(".")
    for i, part in enumerate(parts):
        hints = _hints(cls)
        if part not in hints:
            return None
        tp = hints[part]
        inner = _dataclass_type(tp)
        if inner is not None:
            cls = inner
            continue
        if get_origin(_optional_inner(tp)) is dict and i == len(parts) - 2:
            return int_range(get_args(_optional_inner(tp))[1])
        return int_range(tp) if i == len(parts) - 1 else None
    return None


def _optional_inner(tp: Any) -> Any:
    """`X` of `X | None`; `tp` itself otherwise."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        return args[0] if len(args) == 1 else tp
    return tp


def _dataclass_type(tp: Any) -> type | None:
    inner = _optional_inner(tp)
    return inner if isinstance(inner, type) and is_dataclass(inner) else None


_SHAPES: dict[int, tuple[Any, Any, tuple[Any, ...], IntRange | None]] = {}
"""id of a type hint -> (the hint, its origin, its arguments, its range): see `_shape`."""


def _shape(tp: Any) -> tuple[Any, tuple[Any, ...], IntRange | None]:
    """(origin, arguments, integer range) of a type hint, read once per hint: an optional's origin
    is `Union` and its None left out, a parameter dataclass's origin is `dataclass`. `get_origin`,
    `get_args` and hashing the `Annotated` hints were a third of the cost of building a profile
    (issue 35.6); keyed by identity, as the hints come from `_hints`, the hint kept alive with it."""
    hit = _SHAPES.get(id(tp))
    if hit is not None and hit[0] is tp:
        return hit[1], hit[2], hit[3]
    origin, args, span = get_origin(tp), get_args(tp), None
    if origin in (Union, types.UnionType):
        origin, args = Union, tuple(a for a in args if a is not type(None))
    elif origin is Annotated:
        span = int_range(tp)
    elif origin is dict:
        span = int_range(args[1])
    elif isinstance(tp, type) and is_dataclass(tp):
        origin = dataclass
    _SHAPES[id(tp)] = (tp, origin, args, span)
    return origin, args, span


def _convert(tp: Any, value: Any, path: str) -> Any:
    """Check one value against a type hint; returns the value in its stored form."""
    origin, args, span = _shape(tp)
    if origin is Union:
        if value is None:
            return None
        return _convert(args[0], value, path)
    if origin is Annotated:
        assert span is not None, f"{path}: an Annotated parameter without a range"
        return _check_int(value, path, span)
    if origin is Literal:
        if value not in args:
            raise ProfileError(path, "parameter_not_one_of", {"choices": [repr(c) for c in args],
                                                              "got": _short(value)})
        return value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ProfileError(path, "parameter_not_list", {"got": _short(value)})
        return tuple(_convert(args[0], v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        assert span is not None, f"{path}: a table of integers without a range"
        return _convert_dict(value, path, span)
    if origin is dataclass:
        return build(tp, value, path)
    if tp is bool:
        if not isinstance(value, bool):
            raise ProfileError(path, "parameter_not_bool", {"got": _short(value)})
        return value
    if tp is str:
        if not isinstance(value, str):
            raise ProfileError(path, "parameter_not_string", {"got": _short(value)})
        return value
    raise TypeError(f"{path}: unsupported parameter type {tp!r}")  # pragma: no cover - a bug in Profile


def _convert_dict(value: Any, path: str, span: IntRange) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ProfileError(path, "parameter_not_int_table", {"got": _short(value)})
    allowed = _DICT_KEYS.get(path.split(":")[-1], ())
    out: dict[str, int] = {}
    for k, v in value.items():
        if k not in allowed:
            raise ProfileError(_join(path, k), "unknown_parameter")
        if v is not None:
            out[k] = _check_int(v, _join(path, k), span)
    return out


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    """The field types of a parameter dataclass, resolved once (`get_type_hints` compiles every
    annotation each time it is asked: that was most of the cost of applying an option)."""
    return get_type_hints(cls, include_extras=True)


def build(cls: type, data: Any, path: str = "", kept: dict[str, Any] | None = None) -> Any:
    """Build a (nested) parameter dataclass from plain data, naming the first bad path. `kept`: fields
    taken as they are where `data` does not name them (values of a built profile, already checked)."""
    if not isinstance(data, dict):
        raise ProfileError(path, "parameter_not_table", {"got": _short(data)})
    hints = _hints(cls)
    specs, names = _fields_of(cls)
    for key in data:
        if key not in names:
            raise ProfileError(_join(path, key), "unknown_parameter")
    kwargs = {}
    for name, optional in specs:
        if name in data:
            kwargs[name] = _convert(hints[name], data[name], _join(path, name))
        elif kept is not None and name in kept:
            kwargs[name] = kept[name]
        elif not optional:
            raise ProfileError(_join(path, name), "missing_parameter")
    return cls(**kwargs)


@lru_cache(maxsize=None)
def _fields_of(cls: type) -> tuple[tuple[tuple[str, bool], ...], frozenset[str]]:
    """((name, has a default), ...) of a parameter dataclass's fields in order, and their names."""
    specs = tuple((f.name, f.default is not MISSING) for f in fields(cls))
    return specs, frozenset(name for name, _ in specs)


def to_data(obj: Any) -> Any:
    """The plain-data form of a profile (what a profile file holds)."""
    if obj is None or type(obj) in (bool, int, str):
        return obj
    if is_dataclass(obj) and not isinstance(obj, type):
        return {name: to_data(value) for name, _ in _fields_of(type(obj))[0]
                if (value := getattr(obj, name)) is not None}
    if isinstance(obj, tuple):
        return [to_data(v) for v in obj]
    if isinstance(obj, dict):
        return dict(obj)
    return obj


# ---------------------------------------------------------------- loading

PROFILE_NAME_CHARACTERS = 64
"""A profile name's length at most, in characters."""
PROFILE_NAME_BYTES = 200
"""...and in bytes of UTF-8: `<name>.toml` stays within the 255 bytes a file name may have (64 letters
beyond the Basic Multilingual Plane take 256)."""


def is_profile_name(name: object) -> bool:
    """The one rule for a profile's name, checked wherever a name comes in before any file is touched
    (docs/decisions.md 34.2a): 1 to 64 characters, each a letter or digit of any script (`贵阳`,
    `weile2`), `_` or `-`, the first not `-` (a name is never read as a command-line option), at
    most 200 bytes of UTF-8. So a name is always a plain file name: no `/`, `.`, space or control
    character, never too long for the file system."""
    return (isinstance(name, str) and 0 < len(name) <= PROFILE_NAME_CHARACTERS and not name.startswith("-")
            and all(ch.isalnum() or ch in "_-" for ch in name)
            and len(name.encode("utf-8")) <= PROFILE_NAME_BYTES)


def check_profile_name(name: object, path: str = "rules.profile") -> str:
    """`name` when it is a profile name (`is_profile_name`); ProfileError `unknown_profile_name` at
    `path` otherwise."""
    if not is_profile_name(name):
        raise ProfileError(path, "unknown_profile_name", {"name": _short(name)})
    assert isinstance(name, str)
    return name


def profile_dirs() -> list[Path]:
    """Built-in profiles, then an operator's folder (same name: the operator's wins)."""
    dirs = [PROFILE_DIR]
    extra = os.environ.get("ZHUOJI_PROFILE_DIR")
    if extra:
        dirs.append(Path(extra))
    return dirs


_LISTED: list[tuple[float, list[str]]] = []
"""The last listing of the built-in folder and when it was made (`list_profiles`)."""


def list_profiles() -> list[str]:
    """Names of every profile file found. Without an operator's folder the listing is trusted for
    `RECHECK_SECONDS`, as a loaded profile is (R16.16 asks for it once per parameter it reads: a
    hundred directory scans per long corpus, issue 35.6); an operator's folder is read every time."""
    now = time.monotonic()
    if _LISTED and _trusted(_LISTED[0][0], now):
        return list(_LISTED[0][1])
    names = {p.stem for d in profile_dirs() if d.is_dir() for p in d.glob("*.toml")}
    listed = sorted(name for name in names if is_profile_name(name))  # another file there names no profile
    if not os.environ.get("ZHUOJI_PROFILE_DIR"):  # a listing with an operator's files is never kept
        _LISTED[:] = [(now, listed)]
    return list(listed)


def _trusted(read_at: float, now: float) -> bool:
    """Whether what was read from the profile folders at `read_at` still stands: for `RECHECK_SECONDS`,
    and never while an operator's folder is set (an operator's edit shows at once)."""
    return now - read_at < RECHECK_SECONDS and not os.environ.get("ZHUOJI_PROFILE_DIR")


def _find(name: str) -> Path | None:
    check_profile_name(name)  # never a path built of anything but a name
    for d in reversed(profile_dirs()):
        p = d / f"{name}.toml"
        if p.is_file():
            return p
    return None


@lru_cache(maxsize=64)
def _load_cached(name: str, mtime_key: str) -> Profile:
    path = _find(name)
    assert path is not None
    return parse_profile(path.read_text(encoding="utf-8"), name)


def parse_profile(text: str, name: str) -> Profile:
    """The text of the profile file `<name>.toml`, checked as the loader checks one: TOML, every
    parameter by name and type, its `name` the file's, the cross-parameter rules."""
    check_profile_name(name, "name")
    file = f"{name}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError("", "profile_not_toml", {"file": file, "error": str(exc)}) from None
    prof = build(Profile, data)
    if prof.name != name:
        raise ProfileError("name", "profile_misnamed", {"file": file, "name": repr(prof.name)})
    _check_profile(prof)
    return prof


def _check_profile(prof: Profile) -> None:
    """Cross-parameter checks a type cannot express."""
    if "ping_hu" not in prof.hand_values:
        raise ProfileError("hand_values.ping_hu", "profile_without_ping_hu")
    if not prof.players or any(n not in (3, 4) for n in prof.players):
        raise ProfileError("players", "profile_bad_players")
    if prof.kill_declared is not None and prof.declared is None:
        raise ProfileError("kill_declared", "kill_without_declared")
    _check_house_rules(prof)


def _check_house_rules(prof: Profile) -> None:
    """R17: a 冲锋鸡 is its tile plus an extra, so its charge may not be below its normal value. A house
    rule (R17-R19) set off its default without what its registry entry needs ("only where
    `chicken_requires_ready` is true", "only where `hot_shot.burn` is `all`") is refused (R16.10: an
    option the profile cannot honour), never silently ignored."""
    c = prof.chicken
    if c.charge < c.normal:
        raise ProfileError("chicken.charge", "charge_below_normal", {"charge": c.charge, "normal": c.normal})
    refused = house_rules.refusal(prof)
    if refused is not None:
        rule, need = refused
        value = rule.value(prof)
        section = rule.section_of(value)
        cited = section.rule if section is not None else rule.rule
        if cited.startswith("R17."):
            # R17's refusals came first and keep their code (a contract: findings carry it).
            raise ProfileError(rule.path, "parameter_needs", {"got": _short(value), "needs": need.path})
        raise ProfileError(rule.path, "house_rule_needs",
                           {"got": _short(value), "needs": need.path, "value": need.words(), "rule": cited})


_RECENT: dict[str, tuple[float, Profile]] = {}
RECHECK_SECONDS = 2.0
"""How long a loaded profile is trusted before its file is looked at again (edits show up)."""


def load_profile(name: str) -> Profile:
    """The named profile, validated; ProfileError('profile', ...) when there is none."""
    check_profile_name(name)
    now = time.monotonic()
    hit = _RECENT.get(name)
    if hit is not None and _trusted(hit[0], now):
        return hit[1]
    path = _find(name)
    if path is None:
        raise ProfileError("rules.profile", "unknown_profile", {"name": repr(name), "known": list_profiles()})
    prof = _load_cached(name, f"{path}:{path.stat().st_mtime_ns}")
    _RECENT[name] = (now, prof)
    return prof


# ---------------------------------------------------------------- options

_WITH_OPTIONS: dict[tuple[int, str], tuple[Profile, Profile]] = {}
"""(id of the base profile, options as canonical JSON) -> (base, result). Building a
profile from data costs ~70 us, more than a settlement, and a batch of uploads
repeats the same few options; the base is kept in the value so its id stays valid."""


def apply_options(prof: Profile, options: Any) -> Profile:
    """R16.10: overrides by name (nested or dotted) plus the named options."""
    if options is None or options == {}:
        return prof
    try:
        key = (id(prof), json.dumps(options, sort_keys=True))
    except (TypeError, ValueError):
        return _apply_options(prof, options)
    hit = _WITH_OPTIONS.get(key)
    if hit is not None and hit[0] is prof:
        return hit[1]
    out = _apply_options(prof, options)
    if len(_WITH_OPTIONS) >= 256:
        _WITH_OPTIONS.clear()
    _WITH_OPTIONS[key] = (prof, out)
    return out


def _apply_options(prof: Profile, options: Any, *, whole: bool = False) -> Profile:
    """The options on `prof`, converting the parameters they touch (`_touched`, `_rebuild`); `whole`
    rebuilds the whole profile from its data, as before issue 35.6: the tests' reference."""
    if not isinstance(options, dict):
        raise ProfileError("rules.options", "options_not_object")
    data = to_data(prof) if whole else {
        name: to_data(value) for name in _touched(options) if (value := getattr(prof, name, None)) is not None}
    for key, value in options.items():
        if key in UNSUPPORTED_FEATURES:
            raise ProfileError(f"rules.options.{key}", "variant_not_supported", {"variant": key})
    # The named options first, so that an explicit parameter override wins over them.
    for key in _NAMED_OPTIONS:
        if key in options:
            _apply_special(data, key, options[key], f"rules.options.{key}")
    for key, value in options.items():
        if key not in _NAMED_OPTIONS:
            _set_path(data, str(key).split("."), value, f"rules.options.{key}")
    _check_sections(prof, data)
    try:
        out = build(Profile, data) if whole else _rebuild(prof, data)
        _check_profile(out)
    except ProfileError as exc:
        raise exc.moved(f"rules.options ({exc.path})") from None
    return out


_NAMED_OPTIONS: Final = {"jian_dou_san": ("jian_dou_san", "chicken"), "wugu_ji": ("wugu_ji",),
                          "flip": ("flip", "flip_counts_discards", "flip_up_down_counts_discards")}
"""The options whose meaning comes from the profile (`_apply_special`), in the order they apply, each
with the top-level parameters it reads or writes."""


def _touched(options: dict[Any, Any]) -> frozenset[str]:
    """The profile's top-level parameters an options object reads or writes: the first part of each
    override's name, and what a named option works on."""
    out: set[str] = set()
    for key in options:
        out.update(_NAMED_OPTIONS.get(key, (str(key).split(".")[0],)))
    return frozenset(out)


def _rebuild(prof: Profile, data: dict[str, Any]) -> Profile:
    """`build(Profile, to_data(prof) | data)` where `data` holds the plain form of the parameters the
    options touch only (issue 35.6): the others are kept from `prof` as they are (it was built and
    checked; its sections are frozen, a table is copied), so an option costs its own sections, not
    the whole profile (R16.16's what-if profiles build a few hundred per long corpus). The same
    result and the same first error as the whole build: the kept fields are valid, and the touched
    ones are converted in field order."""
    kept = {name: dict(value) if isinstance(value, dict) else value for name in _fields_of(Profile)[1]
            if (value := getattr(prof, name)) is not None}
    out: Profile = build(Profile, data, "", kept)
    return out


def _check_sections(prof: Profile, data: dict[str, Any]) -> None:
    """A house rule that lives in a table the profile does not have ("only where `dealer_bonus` is
    set", R18.1), named alone in the options: refused by its rule, not as the table's missing fields."""
    for rule in house_rules.HOUSE_RULES:
        group, _, name = rule.path.rpartition(".")
        table = data.get(group) if group and "." not in group else None
        if isinstance(table, dict) and set(table) == {name} and getattr(prof, group, False) is None:
            raise ProfileError(f"rules.options.{rule.path}", "house_rule_needs_section",
                               {"got": _short(table[name]), "needs": group, "rule": rule.rule})


def _set_path(data: dict[str, Any], parts: list[str], value: Any, path: str) -> None:
    """Write an override into the plain data, merging nested tables; `build` then
    rejects any name the profile does not have."""
    head, rest = parts[0], parts[1:]
    if not head:
        raise ProfileError(path, "empty_option_name")
    if rest:
        sub = data.setdefault(head, {})
        if not isinstance(sub, dict):
            raise ProfileError(path, "option_not_table", {"name": head})
        _set_path(sub, rest, value, path)
    elif isinstance(value, dict) and isinstance(data.get(head), dict):
        for k, v in value.items():
            _set_path(data[head], [str(k)], v, f"{path}.{k}")
    else:
        data[head] = copy.deepcopy(value)


def _apply_special(data: dict[str, Any], key: str, value: Any, path: str) -> None:
    """jian_dou_san, wugu_ji and flip: options whose meaning comes from the profile."""
    if key == "jian_dou_san":
        if not isinstance(value, bool):
            raise ProfileError(path, "parameter_not_bool", {"got": _short(value)})
        if value and "jian_dou_san" not in data:
            raise ProfileError(path, "jian_dou_san_not_supported")
        if "jian_dou_san" in data:
            jds = data["jian_dou_san"]
            jds["enabled"] = value
            if value and jds.get("chicken_charge") is not None:
                data["chicken"]["charge"] = jds["chicken_charge"]
            if value and jds.get("chicken_responsibility") is not None:
                data["chicken"]["responsibility"] = jds["chicken_responsibility"]
    elif key == "wugu_ji":
        _apply_wugu(data, value, path)
    else:
        if value not in ("next", "up_down"):
            raise ProfileError(path, "flip_bad_value", {"got": _short(value)})
        data["flip"] = value
        if value == "up_down" and data.get("flip_up_down_counts_discards") is not None:
            data["flip_counts_discards"] = data["flip_up_down_counts_discards"]


def _apply_wugu(data: dict[str, Any], value: Any, path: str) -> None:
    if value is False:
        if "wugu_ji" in data:
            data["wugu_ji"]["enabled"] = False
        return
    if value is True:
        if "wugu_ji" not in data:
            raise ProfileError(path, "wugu_ji_without_values")
        data["wugu_ji"]["enabled"] = True
        return
    if isinstance(value, dict) and set(value) <= {"normal", "charge"} and set(value) >= {"normal", "charge"}:
        data["wugu_ji"] = {"enabled": True, **value}
        return
    raise ProfileError(path, "wugu_ji_bad_value", {"got": _short(value)})


def resolve(name: str | None, options: Any) -> Profile:
    """The profile a record asks for, with its options applied."""
    return apply_options(load_profile(name or DEFAULT_PROFILE), options)
