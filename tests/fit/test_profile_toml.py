"""fit.profile_toml: a profile written as a profile file reads back as the same profile."""
from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from fit.profile_toml import profile_toml
from audit.profiles import Profile, apply_options, build, list_profiles, load_profile, to_data


@pytest.mark.parametrize("name", ["weile", "cuocuo", "kuhu", "senyan", "guizhou"])
def test_every_bundled_profile_reads_back_the_same(name: str) -> None:
    prof = load_profile(name)
    text = profile_toml(prof)
    assert tomllib.loads(text) == to_data(prof)
    assert build(Profile, tomllib.loads(text)) == prof


def test_a_changed_profile_with_notes_and_odd_strings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prof = apply_options(load_profile("cuocuo"), {"jian_dou_san": True, "chicken.exposed_payers": "all_unready",
                                                  "must_win": ["rob_kong"], "follow_dealer": 2})
    prof = replace(prof, name="odd", title='a "quoted" title\\ with 换行\nand a tab\t', source="x = [1]")
    text = profile_toml(prof, header=["first line", "", "third"], notes={"chicken.exposed_payers": "fitted: 包鸡",
                                                                       "jian_dou_san": "a table's note"})
    assert text.startswith("# first line\n#\n# third\n")
    assert "# fitted: 包鸡\nexposed_payers = \"all_unready\"" in text
    assert "# a table's note\n[jian_dou_san]" in text
    assert tomllib.loads(text) == to_data(prof)
    (tmp_path / "odd.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    assert "odd" in list_profiles() and load_profile("odd") == prof
