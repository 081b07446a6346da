"""Every integer parameter of a rule profile has one range, declared by its type in the profile model
(`Units`, `Multiple`, `Seats`: audit/ranges.py), and every door that builds a profile refuses a value
outside it with `parameter_out_of_range` naming its path (issue 34.1): a profile file, a record's
`rules.options`, a what-if's options (audit.option_check), `--option`. A record holding one is audited
`invalid` (rulebook P), never settled with amounts past 64 bits; and with every parameter at its
largest and `base`, `dealer_streak` at theirs, every amount of every sample stays inside `MAX_POINTS`."""
from __future__ import annotations

import copy
import json
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest

from audit.api import audit_document
from audit.option_check import check, known_parameters
from audit.profiles import HAND_VALUE_KEYS, Profile, ProfileError, apply_options, int_range, list_profiles, load_profile, parameter_range
from audit.ranges import BASE, DEALER_STREAK, MAX_POINTS, IntRange
from tests.conftest import load_example
from tests.helpers import integers

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _int_fields(cls: type, prefix: str = "") -> list[tuple[str, Any]]:
    """(path, annotated type) of every field whose type holds an int, through nested tables."""
    out: list[tuple[str, Any]] = []
    for name, tp in get_type_hints(cls, include_extras=True).items():
        bare = get_type_hints(cls)[name]
        if get_origin(bare) in (Union, types.UnionType):
            bare = next(a for a in get_args(bare) if a is not type(None))
        if isinstance(bare, type) and hasattr(bare, "__dataclass_fields__"):
            out += _int_fields(bare, f"{prefix}{name}.")
        elif bare is int or int in get_args(bare):
            out.append((f"{prefix}{name}", tp))
    return out


def _element(tp: Any) -> Any:
    """The integer type inside `X | None`, `tuple[X, ...]`, `dict[str, X]`."""
    if get_origin(tp) in (Union, types.UnionType):
        tp = next(a for a in get_args(tp) if a is not type(None))
    if get_origin(tp) is dict:
        return get_args(tp)[1]
    if get_origin(tp) is tuple:
        return get_args(tp)[0]
    return tp


def test_every_integer_parameter_declares_its_range() -> None:
    found = _int_fields(Profile)
    assert len(found) >= 25
    for path, tp in found:
        assert isinstance(int_range(_element(tp)), IntRange), path


def _integer_options() -> list[str]:
    tables = [f"jian_dou_san.self_draw_table.{key}" for key in HAND_VALUE_KEYS + ("declared",)]
    return [p for p in known_parameters() + tuple(tables) if parameter_range(p) is not None]


def _holder(path: str) -> str:
    """A profile that has the table `path` lives in (the optional ones are absent from some)."""
    for name in list_profiles():
        try:
            apply_options(load_profile(name), {path: parameter_range(path).low})  # type: ignore[union-attr]
        except ProfileError as exc:
            if exc.code in ("missing_parameter", "option_not_table"):
                continue
        return name
    raise AssertionError(f"no profile has {path}")


def test_the_integer_options_cover_the_model() -> None:
    names = set(_integer_options())
    assert {"hot_shot.bonus", "hot_shot.multiplier", "rob_kong_multiple", "chicken.gold_multiplier",
            "follow_dealer", "hand_values.ping_hu", "jian_dou_san.self_draw_table.declared",
            "dealer_bonus.per_streak"} <= names
    assert parameter_range("hot_shot.burn") is None and parameter_range("nope.nope") is None


@pytest.mark.parametrize("path", _integer_options())
def test_each_integer_parameter_is_refused_outside_its_range(path: str) -> None:
    span = parameter_range(path)
    assert span is not None
    prof = load_profile(_holder(path))
    for bad in (span.high + 1, 2**63 - 1, 2**64, 10**400):
        with pytest.raises(ProfileError) as caught:
            apply_options(prof, {path: bad})
        assert caught.value.code == "parameter_out_of_range", (path, bad)
        assert caught.value.params["high"] == span.high and path in caught.value.path
        assert len(caught.value.text("zh")) < 200  # a 400-digit value is cut, not echoed
    with pytest.raises(ProfileError) as caught:
        apply_options(prof, {path: span.low - 1})
    assert caught.value.code in ("parameter_negative", "parameter_out_of_range")
    for good in (span.low, span.high):
        try:
            apply_options(prof, {path: good})
        except ProfileError as exc:  # a cross-parameter rule (a 冲锋鸡 below its normal value) may refuse
            assert exc.code not in ("parameter_negative", "parameter_out_of_range"), (path, good)


def test_multiples_of_zero_are_refused() -> None:
    prof = load_profile("weile")
    for path in ("rob_kong_multiple", "hot_shot.multiplier", "chicken.gold_multiplier"):
        with pytest.raises(ProfileError) as caught:
            apply_options(prof, {path: 0})
        assert caught.value.code == "parameter_out_of_range"


def test_a_record_with_a_huge_option_is_invalid_and_names_its_path() -> None:
    doc = load_example("hot-shot-weile")
    for value in (2**62, 2**63 - 1, 2**70):
        bad = copy.deepcopy(doc)
        bad["rules"]["options"] = {"hot_shot": {"bonus": value}}
        [audit] = audit_document(bad)
        assert audit["verdict"] == "invalid" and "settlement" not in audit or audit["settlement"] is None
        codes = {(f["code"], f["params"]["path"]) for f in audit["findings"]}
        assert any(code == "parameter_out_of_range" and "hot_shot.bonus" in path for code, path in codes)
        json.dumps(audit)  # nothing past 64 bits in the audit
        assert all(abs(v) < 2**63 for v in integers(audit))


def test_a_what_if_with_a_huge_option_is_refused_with_its_request_path() -> None:
    doc = load_example("hot-shot-weile")
    problem = check(doc, None, {"hot_shot.bonus": 2**63 - 1})
    assert problem is not None and problem.code == "parameter_out_of_range" and problem.path == "options.hot_shot.bonus"



def _largest(profile: str) -> dict[str, int]:
    """Every integer parameter the profile has, at its largest (players excluded: a seat count)."""
    prof = load_profile(profile)
    out: dict[str, int] = {}
    for path in _integer_options():
        span = parameter_range(path)
        assert span is not None
        try:
            apply_options(prof, {path: span.high})
        except ProfileError:
            continue
        out[path] = span.high
    return out


def test_the_largest_values_keep_every_amount_inside_max_points() -> None:
    seen = 0
    for path in sorted(SAMPLES.glob("clean-*.json")):
        if path.name.endswith(".audit.json"):
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        hands = doc.get("hands") if isinstance(doc.get("hands"), list) else [doc]
        for hand in hands:
            hand["base"] = BASE.high
            if "dealer_streak" in hand:
                hand["dealer_streak"] = DEALER_STREAK.high
        profile = (hands[0].get("rules") or {}).get("profile", "weile")
        for audit in audit_document(doc, options=_largest(profile)):
            settlement = audit.get("settlement") or {}
            amounts = integers(settlement.get("scores", [])) + [i["amount"] for i in settlement.get("items", [])]
            seen += len(amounts)
            assert all(abs(a) <= MAX_POINTS for a in amounts), path.name
    assert seen > 300
