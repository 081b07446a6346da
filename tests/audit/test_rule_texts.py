"""The rule texts in each language (audit/catalogue/rulebook_zh.toml) and the parameters in
words (audit/catalogue/parameters.toml): coverage, no markdown left, no identifiers in Chinese."""
from __future__ import annotations

import re
import tomllib
import types
from dataclasses import fields, is_dataclass
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from audit import rulebook
from audit.catalogue import DATA_DIR
from audit.lang import Lang
from audit.profiles import HAND_VALUE_KEYS, Profile
from audit.rulebook import BlockKind, RuleText

PROFILE_METADATA = {"name", "title", "source"}
"""Fields of Profile that name the profile rather than a rule parameter."""


def _type_of(tp: Any) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        return next(a for a in get_args(tp) if a is not type(None))
    return tp


def _choices(tp: Any) -> tuple[str, ...]:
    if get_origin(tp) is tuple:
        tp = get_args(tp)[0]
    return tuple(str(v) for v in get_args(tp)) if get_origin(tp) is Literal else ()


def profile_parameters(cls: type = Profile, prefix: str = "") -> dict[str, tuple[str, ...]]:
    """Every parameter of the profile model by dotted name, with its enumerated values."""
    out: dict[str, tuple[str, ...]] = {}
    hints = get_type_hints(cls)
    for f in fields(cls):
        if not prefix and f.name in PROFILE_METADATA:
            continue
        name, tp = prefix + f.name, _type_of(hints[f.name])
        out[name] = _choices(tp)
        if isinstance(tp, type) and is_dataclass(tp):
            out.update(profile_parameters(tp, name + "."))
    out.update({f"hand_values.{key}": () for key in HAND_VALUE_KEYS})
    return out


def house_rule_codes(section: str = "R17") -> list[tuple[str, str]]:
    """(rule, parameter) of each rule of a house-rule section (R17, R18, R19) that names a parameter
    (the code span its text starts with)."""
    out = []
    for code in rulebook.codes():
        if code.startswith(section + "."):
            text = rulebook.rule_text(code, Lang.EN)
            assert text is not None
            first = text.blocks[0].spans[0]
            if first.style is rulebook.SpanStyle.CODE:
                out.append((code, first.text))
    return out


def r17_parameters(section: str = "R17") -> list[str]:
    """The parameter each rule of a house-rule section (R17, R18, R19) introduces."""
    return [name for _, name in house_rule_codes(section)]


def _all_texts() -> list[RuleText]:
    out = []
    for code in rulebook.codes():
        for lang in Lang:
            text = rulebook.rule_text(code, lang)
            assert text is not None
            out.append(text)
    return out


# ---------------------------------------------------------------- coverage


def test_chinese_entries_are_codes_of_the_rulebook() -> None:
    assert set(rulebook.chinese_sources()) <= set(rulebook.codes())


def test_sections_still_without_chinese_are_those_without_entries() -> None:
    """The fallback is exactly the codes with a missing entry (or a section with a rule missing)."""
    zh = rulebook.chinese_sources()
    missing = rulebook.untranslated()
    for code in rulebook.codes():
        text = rulebook.rule_text(code, Lang.ZH)
        assert text is not None
        assert (text.lang is Lang.EN) == (code in missing), code
        if "." in code:
            assert (code in missing) == (code not in zh), code


def test_a_section_falls_back_whole_while_one_of_its_rules_has_no_chinese() -> None:
    missing = set(rulebook.untranslated())
    for code in rulebook.codes():
        if "." in code and code in missing:
            assert rulebook.section_of(code) in missing


def test_every_code_has_a_title_in_both_languages() -> None:
    for code in rulebook.codes():
        zh, en = rulebook.rule_text(code, Lang.ZH), rulebook.rule_text(code, Lang.EN)
        assert zh is not None and en is not None
        assert zh.title == rulebook.SECTION_NAMES_ZH[rulebook.section_of(code)]
        assert en.title and re.search(r"[A-Za-z]", en.title), code


def test_every_rule_a_finding_code_cites_has_a_text_in_both_languages() -> None:
    data = tomllib.loads((DATA_DIR / "findings.toml").read_text(encoding="utf-8"))
    cited = {rule for entry in data.values() for rule in entry.get("rules", [])}
    assert cited
    for code in cited:
        for lang in Lang:
            text = rulebook.rule_text(code, lang)
            assert text is not None and text.code == code and text.blocks, (code, lang)


# ---------------------------------------------------------------- what the spans hold


def test_no_markdown_left_in_any_span() -> None:
    for text in _all_texts():
        for block in text.blocks:
            assert not re.match(r"\s*([-*+]|\d+\.) ", block.spans[0].text), (text.code, block)
            for span in block.spans:
                assert "**" not in span.text and "`" not in span.text, (text.code, span)
                assert "\n" not in span.text, (text.code, span)
                if block.kind is BlockKind.TABLE_ROW or text.lang is Lang.ZH:
                    assert "|" not in span.text, (text.code, span)
                else:  # the rulebook's own "a | b" between a parameter's values (R17) is prose
                    assert not re.search(r"\|(?! )|(?<! )\|", span.text), (text.code, span)
                if text.lang is Lang.ZH:
                    assert "*" not in span.text, (text.code, span)


ALLOWED_LATIN = re.compile(r"\bR\d+(?:\.\d+)?\b|\bP\b|\bJSON\b")
"""Latin text a Chinese rule may hold: rule codes (R8.3, 表 P) and the name JSON."""


def test_chinese_texts_have_no_identifiers_or_tile_codes() -> None:
    names = set(profile_parameters()) | set(r17_parameters())
    for text in _all_texts():
        if text.lang is not Lang.ZH:
            continue
        words = text.text + " " + text.title
        for name in names:
            assert not re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", words), (text.code, name)
        assert not re.search(r"\b[1-9][mps]\b", words), text.code
        leftover = ALLOWED_LATIN.sub("", words)
        assert not re.search(r"[A-Za-z_]", leftover), (text.code, re.findall(r"[A-Za-z_][\w.]*", leftover))


# ---------------------------------------------------------------- parameters in words


@pytest.mark.parametrize("name", sorted(profile_parameters()))
def test_every_profile_parameter_has_words_in_both_languages(name: str) -> None:
    zh, en = rulebook.parameter_label(name, Lang.ZH), rulebook.parameter_label(name, Lang.EN)
    assert zh and en and zh != en
    assert not re.search(r"[A-Za-z_]", zh), zh
    assert "_" not in en
    for value in profile_parameters()[name]:
        assert rulebook.value_label(name, value, Lang.ZH) and rulebook.value_label(name, value, Lang.EN)


@pytest.mark.parametrize("name", r17_parameters() + r17_parameters("R18") + r17_parameters("R19"))
def test_every_r17_parameter_has_words(name: str) -> None:
    assert rulebook.parameter_label(name, Lang.ZH) and rulebook.parameter_label(name, Lang.EN)


def test_r17_names_its_ten_parameters() -> None:
    assert len(r17_parameters()) == 10


def test_r18_names_its_five_parameters_and_the_profile_has_them() -> None:
    names = r17_parameters("R18")
    assert names == ["dealer_bonus.on", "dou.exposed_payer", "dou_ready_test", "hot_shot.burn_liabilities",
                     "chicken.exposed_kong_claim"]
    assert set(names) <= set(profile_parameters())


def test_unknown_parameter_or_value_is_an_error_not_a_guess() -> None:
    with pytest.raises(rulebook.RulebookError):
        rulebook.parameter_label("no_such_parameter", Lang.ZH)
    with pytest.raises(rulebook.RulebookError):
        rulebook.value_label("hot_shot.burn", "nothing", Lang.EN)
    assert rulebook.value_label("hot_shot.burn", "all", Lang.ZH).startswith("全烧")
    assert rulebook.value_label("pass_pong_lock", True, Lang.ZH) == "是"
    assert rulebook.value_label("pass_pong_lock", False, "en") == "no"
    with pytest.raises(rulebook.RulebookError):
        rulebook.value_label("no_such_parameter", True, Lang.ZH)


def test_term_label_names_parameters_and_patterns_only() -> None:
    assert rulebook.term_label("pass_lock_allows_higher", "zh") == rulebook.parameter_label(
        "pass_lock_allows_higher", "zh")
    assert rulebook.term_label("qing_qi_dui", Lang.ZH) == "清七对"
    assert rulebook.term_label("1s", Lang.ZH) is None and rulebook.term_label("result.flip", Lang.EN) is None


def test_every_parameter_the_english_rulebook_names_has_words() -> None:
    """Each code span of the rulebook that is a profile parameter (or a pattern) reads as words."""
    known = set(profile_parameters()) | set(r17_parameters()) | set(r17_parameters("R18")) | set(r17_parameters("R19"))
    for code in rulebook.codes():
        text = rulebook.rule_text(code, Lang.EN)
        assert text is not None
        for block in text.blocks:
            for span in block.spans:
                if span.style is rulebook.SpanStyle.CODE and span.text in known:
                    assert rulebook.term_label(span.text, Lang.ZH), span.text


# ---------------------------------------------------------------- the Chinese is complete and faithful


def test_every_section_and_rule_has_its_chinese_text() -> None:
    assert rulebook.untranslated() == []
    for code in rulebook.codes():
        text = rulebook.rule_text(code, Lang.ZH)
        assert text is not None and text.lang is Lang.ZH and text.blocks, code


def _cited(text: str) -> set[str]:
    return set(re.findall(r"\bR\d+(?:\.\d+)?\b", text))


@pytest.mark.parametrize("code", rulebook.codes())
def test_chinese_cites_the_rules_the_english_cites(code: str) -> None:
    en, zh = rulebook.rule_text(code, Lang.EN), rulebook.rule_text(code, Lang.ZH)
    assert en is not None and zh is not None
    assert _cited(zh.text) == _cited(en.text)


def test_chinese_section_has_the_english_structure() -> None:
    """Same rules in the same order, one item each, and R3.2's ten patterns nested."""
    for code in rulebook.codes():
        if "." in code:
            continue
        en, zh = rulebook.rule_text(code, Lang.EN), rulebook.rule_text(code, Lang.ZH)
        assert en is not None and zh is not None
        heads = [[b.spans[0].text for b in t.blocks if b.kind is BlockKind.ITEM and b.depth == 0 and b.spans
                  and b.spans[0].style is rulebook.SpanStyle.STRONG] for t in (en, zh)]
        assert heads[0] == heads[1], code
    r32 = rulebook.rule_text("R3.2", Lang.ZH)
    assert r32 is not None and [b.kind for b in r32.blocks].count(BlockKind.ITEM) == 10


def test_chinese_profile_table_has_every_row_and_every_number() -> None:
    en, zh = rulebook.rule_text("P", Lang.EN), rulebook.rule_text("P", Lang.ZH)
    assert en is not None and zh is not None
    rows = [[b for b in t.blocks if b.kind is BlockKind.TABLE_ROW] for t in (en, zh)]
    assert len(rows[0]) == len(rows[1])
    for en_row, zh_row in zip(*rows):
        assert len(en_row.spans) == len(zh_row.spans)
        for en_cell, zh_cell in zip(en_row.spans, zh_row.spans):
            en_numbers = re.findall(r"\d+", re.sub(r"\b[1-9][mps]\b", "", en_cell.text))  # tiles are words in zh
            assert en_numbers == re.findall(r"\d+", zh_cell.text), (en_cell, zh_cell)


def test_every_value_r17_offers_has_words() -> None:
    """The values an R17 or R18 rule offers (`owner` (default) | `all_unready`) read as words, so they
    are covered before the profile model has the parameter."""
    checked = 0
    for code in rulebook.codes():
        if not code.startswith(("R17.", "R18.")):
            continue
        text = rulebook.rule_text(code, Lang.EN)
        assert text is not None
        runs = text.blocks[0].spans
        if runs[0].style is not rulebook.SpanStyle.CODE:
            continue
        for i, span in enumerate(runs[2:], start=2):
            offered = (i == 2 and runs[1].text == ": ") or runs[i - 1].text.endswith("| ")  # `name`: `default` (...) | `other`
            if span.style is rulebook.SpanStyle.CODE and offered:
                value: str | bool = {"true": True, "false": False}.get(span.text, span.text)
                assert rulebook.value_label(runs[0].text, value, Lang.ZH), (code, span.text)
                checked += 1
    assert checked >= 26


def test_chinese_quotes_parameters_by_their_labels() -> None:
    """A 「name」 in a Chinese text is a parameter's Chinese label (or a verdict's word), so the
    text and the label a report shows beside a setting are the same words."""
    forms = tomllib.loads((DATA_DIR / "forms.toml").read_text(encoding="utf-8"))
    words = {str(entry[Lang.ZH.value]) for entry in rulebook.parameters().values()}
    words |= {str(v) for v in forms["verdict"]["zh"].values()}
    quoted = [(code, q) for code, text in rulebook.chinese_sources().items() for q in re.findall(r"「(.*?)」", text)]
    assert len(quoted) >= 30
    assert [(code, q) for code, q in quoted if q not in words] == []


def test_every_rule_the_engine_names_has_a_text_in_both_languages() -> None:
    """Items, markers and findings name rules in the engine's source (`rule="R4.7"`): each one
    is a code of the rulebook with its Chinese text, so no cited rule falls back."""
    source = rulebook.RULEBOOK.parents[1] / "audit"
    named = {m for path in source.glob("*.py")
             for m in re.findall(r"\"(R\d+(?:\.\d+)?)\"", path.read_text(encoding="utf-8"))}
    assert len(named) >= 20
    for code in named:
        text = rulebook.rule_text(code, Lang.ZH)
        assert text is not None and text.code == code and text.lang is Lang.ZH, code
