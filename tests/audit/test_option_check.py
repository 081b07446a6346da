"""audit.option_check: what-if options checked against the profile model before the engine runs
(issue 11): unknown and ill-typed options refused with their request path and code; the known
parameters come from the dataclasses, so a new parameter is known without a list."""
from __future__ import annotations

from dataclasses import fields

from audit.catalogue import Lang
from audit.option_check import IDENTITY, check, known_parameters
from audit.profiles import Profile
from tests.conftest import load_example


def test_known_parameters_follow_the_profile_model() -> None:
    known = known_parameters()
    top = {field.name for field in fields(Profile)} - set(IDENTITY)
    assert top <= set(known) and not set(IDENTITY) & set(known)
    assert {"hot_shot.bonus", "chicken.charge", "dou.concealed", "hand_values.ping_hu", "jian_dou_san.enabled"} <= set(known)


def test_good_options_pass() -> None:
    doc = load_example("hot-shot-weile")
    assert check(doc, None, None) is None and check(doc, None, {}) is None
    assert check(doc, None, {"hot_shot": {"bonus": 2}}) is None
    assert check(doc, "cuocuo", {"hot_shot.bonus": 2}) is None


def test_unknown_and_ill_typed_options_name_their_path() -> None:
    doc = load_example("hot-shot-weile")
    cases = {
        "unknown": ({"nope": 1}, "options.nope", "unknown_parameter"),
        "nested unknown": ({"hot_shot": {"bonsu": 2}}, "options.hot_shot.bonsu", "unknown_parameter"),
        "wrong type": ({"hot_shot": {"bonus": "2"}}, "options.hot_shot.bonus", "parameter_not_integer"),
        "negative": ({"hot_shot.bonus": -1}, "options.hot_shot.bonus", "parameter_negative"),
        "not a choice": ({"flip": "sideways"}, "options.flip", "flip_bad_value"),
        "identity": ({"name": "other"}, "options.name", "unknown_parameter"),
    }
    for name, (options, path, code) in cases.items():
        problem = check(doc, None, options)
        assert problem is not None, name
        assert (problem.path, problem.code) == (path, code), name
        assert problem.message(Lang.ZH) and problem.known == known_parameters()
    problem = check(doc, None, [1])
    assert problem is not None and (problem.path, problem.code) == ("options", "options_not_object")


def test_a_record_refused_by_its_own_rules_is_not_an_option_problem() -> None:
    doc = load_example("hot-shot-weile")
    doc["rules"]["options"] = {"nope": 1}
    assert check(doc, None, {"hot_shot.bonus": 2}) is None  # the audit itself reports the record's P finding
