"""P: profiles as validated data; R16.10 options."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example as case
from hypothesis import given, settings
from hypothesis import strategies as st

from audit import profiles
from audit.api import audit_record
from audit.profiles import ProfileError, apply_options, load_profile, resolve
from tests.audit.test_compare import example

TABLE_P = {  # rulebook table P, a few rows per profile, checked against the files
    "weile": dict(qi_dui=10, self_draw_bonus=1, kong_flower_bonus=3, dou=(3, 3, 1), burn="all", charge=3),
    "cuocuo": dict(qi_dui=10, self_draw_bonus=1, kong_flower_bonus=1, dou=(3, 3, 3), burn="all", charge=2),
    "kuhu": dict(qi_dui=7, self_draw_bonus=0, kong_flower_bonus=0, dou=(2, 3, 1), burn="all", charge=2),
    "senyan": dict(qi_dui=30, self_draw_bonus=0, kong_flower_bonus=10, dou=(5, 5, 5), burn="that_kong", charge=4),
    "guizhou": dict(qi_dui=10, self_draw_bonus=1, kong_flower_bonus=0, dou=(2, 3, 1), burn="all", charge=2),
}


@pytest.mark.parametrize("name", sorted(TABLE_P))
def test_profile_files_hold_table_p(name: str) -> None:
    p = load_profile(name)
    want = TABLE_P[name]
    assert p.hand_values["qi_dui"] == want["qi_dui"]
    assert (p.self_draw_bonus, p.kong_flower_bonus) == (want["self_draw_bonus"], want["kong_flower_bonus"])
    assert (p.dou.concealed, p.dou.added, p.dou.exposed) == want["dou"]
    assert p.hot_shot.burn == want["burn"] and p.chicken.charge == want["charge"]


def test_list_profiles() -> None:
    assert set(TABLE_P) <= set(profiles.list_profiles())


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_the_built_in_listing_is_trusted_for_the_recheck_time_an_operators_folder_never(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """list_profiles keeps the built-in folder's listing as load_profile keeps a profile (issue 35.6):
    a file added shows after RECHECK_SECONDS; an operator's folder is read on every call."""
    builtin, operator = tmp_path / "builtin", tmp_path / "operator"
    builtin.mkdir()
    operator.mkdir()
    (builtin / "a.toml").write_text("", "utf-8")
    clock = _Clock()
    monkeypatch.setattr(profiles, "time", clock)
    monkeypatch.setattr(profiles, "PROFILE_DIR", builtin)
    monkeypatch.setattr(profiles, "_LISTED", [])
    monkeypatch.delenv("ZHUOJI_PROFILE_DIR", raising=False)
    listed = profiles.list_profiles()
    assert listed == ["a"]
    listed.append("mutated")  # a caller's list is its own
    (builtin / "b.toml").write_text("", "utf-8")
    assert profiles.list_profiles() == ["a"]
    clock.now += profiles.RECHECK_SECONDS
    assert profiles.list_profiles() == ["a", "b"]
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(operator))
    (operator / "c.toml").write_text("", "utf-8")
    assert profiles.list_profiles() == ["a", "b", "c"]
    (operator / "d.toml").write_text("", "utf-8")
    assert profiles.list_profiles() == ["a", "b", "c", "d"]


@pytest.mark.parametrize("options,path", [
    ({"chicken.chargee": 1}, "chicken.chargee"),
    ({"bao_pai": True}, "rules.options.bao_pai"),
    ({"ben_ji": True}, "rules.options.ben_ji"),
    ({"wugu_ji": True}, "rules.options.wugu_ji"),       # weile has no 8p values
    ({"jian_dou_san": True}, "rules.options.jian_dou_san"),
    ({"dou": {"exposed": "x"}}, "dou.exposed"),
    ({"flip": "sideways"}, "rules.options.flip"),
    ({"self_draw_bonus": True}, "self_draw_bonus"),
    ({"hot_shot": {"burn": "some"}}, "hot_shot.burn"),
])
def test_bad_options_are_refused(options: dict, path: str) -> None:
    with pytest.raises(ProfileError) as excinfo:
        resolve("weile", options)
    assert path in str(excinfo.value)


def test_bad_option_in_a_record_is_a_p_schema_finding() -> None:
    doc = example("hot-shot-weile")
    doc["rules"]["options"] = {"xing_qi_ji": True}
    a = audit_record(doc)
    assert a["verdict"] == "invalid"
    assert [(f["kind"], f["rule"]) for f in a["findings"]] == [("schema", "P")]
    doc["rules"] = {"profile": "nosuch"}
    assert [(f["kind"], f["rule"]) for f in audit_record(doc)["findings"]] == [("schema", "P")]


def test_options_nested_and_dotted_agree() -> None:
    a = resolve("weile", {"chicken": {"charge": 5}})
    b = resolve("weile", {"chicken.charge": 5})
    assert a == b and a.chicken.charge == 5 and a.chicken.normal == 1


def test_jian_dou_san() -> None:
    """见豆三: every dou 3; in cuocuo also 冲锋鸡 3, 责任鸡 2 and the self-draw table."""
    g = resolve("guizhou", {"jian_dou_san": True})
    assert (g.dou_value("concealed"), g.dou_value("exposed"), g.chicken.charge) == (3, 3, 2)
    c = resolve("cuocuo", {"jian_dou_san": True})
    assert (c.chicken.charge, c.chicken.responsibility) == (3, 2)
    assert c.jds_table is not None and c.jds_table["ping_hu"] == 3


def test_jian_dou_san_self_draw_table_in_play() -> None:
    """cuocuo 见豆三: a 平胡 self-draw is worth the table's 3 instead of 1 + 1; R16.14 杠开 on top."""
    from tests.helpers import INERT, kinds, legal, play
    hands = ["5555m 555p 555s 678m 9m", *INERT]
    s = legal(play(hands, "0 kong 5m concealed\n0 draw 9m\n0 win 9m", profile="cuocuo", flip="1m",
                   options={"jian_dou_san": True}))
    assert kinds(s["items"], "hand") == {(1, 0): 4, (2, 0): 4, (3, 0): 4}  # 3 + 杠开 1


def test_flip_up_down_turns_discards_off_in_cuocuo_only() -> None:
    assert resolve("cuocuo", {"flip": "up_down"}).flip_counts_discards is False
    assert resolve("weile", {"flip": "up_down"}).flip_counts_discards is True


def test_operator_profile_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator adds a profile file without touching code; a broken one is a clear error."""
    src = (profiles.PROFILE_DIR / "weile.toml").read_text(encoding="utf-8")
    (tmp_path / "house.toml").write_text(src.replace('name = "weile"', 'name = "house"')
                                         .replace("kong_flower_bonus = 3", "kong_flower_bonus = 7"), "utf-8")
    (tmp_path / "broken.toml").write_text(src.replace('name = "weile"', 'name = "broken"')
                                          .replace("self_draw_bonus = 1", "self_draw_bonus = \"one\""), "utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    assert load_profile("house").kong_flower_bonus == 7
    with pytest.raises(ProfileError) as excinfo:
        load_profile("broken")
    assert "self_draw_bonus" in str(excinfo.value)


def test_profile_without_declared_values_refuses_kill_declared() -> None:
    with pytest.raises(ProfileError):
        apply_options(load_profile("senyan"), {"kill_declared": {"value": 10, "mode": "add"}})


def test_applied_options_are_cached_per_profile_and_options() -> None:
    """Building a profile from data costs more than a settlement; a batch repeats the same options."""
    base = load_profile("weile")
    first = apply_options(base, {"chicken": {"charge": 3}})
    assert apply_options(base, {"chicken": {"charge": 3}}) is first
    assert first.chicken.charge == 3
    other = apply_options(base, {"chicken": {"charge": 4}})
    assert other is not first and other.chicken.charge == 4
    assert apply_options(load_profile("cuocuo"), {"chicken": {"charge": 3}}).name == "cuocuo"
    for _ in range(2):  # a refused option is refused every time, never cached as a profile
        with pytest.raises(ProfileError):
            apply_options(base, {"no_such_parameter": 1})


# ----- one rule for a profile's name (issue 34.2) ------------------------------------------------

NOT_NAMES = ["a" * 300, "a" * 65, "", "-x", "a/b", "..", ".hidden", "a b", "a.b", "a\x00b", "a\nb", "贵阳 麻将",
             "\U00020000" * 64, 7, None]
"""Not profile names: too long (in characters, or in UTF-8 bytes: 64 letters of 4 bytes each), empty,
`-` first, or holding what a plain file name must not (a path, a dot, a space, a control character)."""


def _short_id(name: object) -> str:
    return repr(name)[:12]


@pytest.mark.parametrize("name", ["weile", "x" * 64, "贵阳", "house_2-b", "_private", "\U00020000" * 50], ids=_short_id)
def test_a_profile_name_is_1_to_64_letters_digits_underscores_and_hyphens(name: str) -> None:
    assert profiles.is_profile_name(name)


@pytest.mark.parametrize("name", NOT_NAMES, ids=_short_id)
def test_anything_else_is_refused_before_a_file_is_looked_for(name: object, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_file(*_args: object) -> None:
        raise AssertionError("a file was looked for")

    monkeypatch.setattr(profiles, "profile_dirs", no_file)
    assert not profiles.is_profile_name(name)
    with pytest.raises(ProfileError) as excinfo:
        load_profile(name)  # type: ignore[arg-type]
    assert (excinfo.value.path, excinfo.value.code) == ("rules.profile", "unknown_profile_name")


def test_a_300_letter_profile_in_a_record_is_an_invalid_audit_naming_rules_profile() -> None:
    doc = example("hot-shot-weile")
    doc["rules"]["profile"] = "a" * 300  # once: "File name too long" out of the engine
    a = audit_record(doc)
    assert a["verdict"] == "invalid"
    assert [(f["code"], f["params"]["path"], f["rule"]) for f in a["findings"]] == [
        ("unknown_profile_name", "rules.profile", "P")]


def test_files_in_the_operators_folder_that_name_no_profile_are_not_listed(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    for stem in ("a b", "-x", "y" * 65, "贵阳"):
        (tmp_path / f"{stem}.toml").write_text("", "utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    listed = profiles.list_profiles()
    assert "贵阳" in listed and not {"a b", "-x", "y" * 65} & set(listed)


# ----- an option converts the sections it touches only (issue 35.6) -------------------------------

def _leaf_paths(data: dict, prefix: str = "") -> list[str]:
    out: list[str] = []
    for key, value in data.items():
        path = f"{prefix}{key}"
        out += _leaf_paths(value, f"{path}.") if isinstance(value, dict) else [path]
    return out


_BASES = {name: load_profile(name) for name in profiles.list_profiles()}
_OPTION_KEYS = sorted({p for prof in _BASES.values() for p in _leaf_paths(profiles.to_data(prof))}
                      | {"jian_dou_san", "wugu_ji", "flip", "declared", "kill_declared", "wugu_ji.normal",
                         "dealer_bonus.amount", "jian_dou_san.enabled", "chicken", "no_such", "hand_values.nope",
                         "name.x", "", "dou", "players"})
_OPTION_VALUES = st.one_of(st.sampled_from([None, True, False, 0, 1, 2, 3, 10, 17, -1, 10**6, "all", "that_kong",
                                            "next", "up_down", "reverse", "ever", "add", "floor", "x", [3, 4],
                                            [4], {}, {"normal": 1, "charge": 2}, {"charge": 9},
                                            {"value": 10, "mode": "add"}]),
                           st.integers(min_value=-3, max_value=40))


_NAMED = st.sampled_from(["jian_dou_san", "wugu_ji", "flip", "chicken", "flip_counts_discards", "declared"])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(_BASES)),
       st.dictionaries(st.one_of(_NAMED, st.sampled_from(_OPTION_KEYS)), _OPTION_VALUES, max_size=4))
@case("cuocuo", {"jian_dou_san": True})
@case("cuocuo", {"jian_dou_san": None})
@case("weile", {"declared": None, "kill_declared": None})
@case("cuocuo", {"jian_dou_san": True, "chicken.charge": 5})
@case("cuocuo", {"flip": "up_down"})
@case("weile", {"wugu_ji": {"normal": 1, "charge": 2}})
@case("weile", {"wugu_ji": {"normal": 1, "charge": 2}, "wugu_ji.normal": 3})
def test_an_option_rebuilds_what_it_touches_as_the_whole_build_does(name: str, options: dict) -> None:
    """The profile an options object gives, or the first error it meets (code and path), is the one
    the whole profile rebuilt from data gives: converting only the touched sections changes nothing."""
    base = _BASES[name]
    try:
        whole = profiles._apply_options(base, options, whole=True)
    except ProfileError as exc:
        with pytest.raises(ProfileError) as caught:
            profiles._apply_options(base, options)
        assert (caught.value.code, caught.value.path) == (exc.code, exc.path)
        return
    partial = profiles._apply_options(base, options)
    assert partial == whole
    assert partial.hand_values is not base.hand_values  # a table is the new profile's own
