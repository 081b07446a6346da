"""How reports name rules, step markers and suits, as template globals.

Rules are named in Chinese with their code in both languages (the players'
terms, `audit.rulebook`). A step marker (`audit.views.Marker`) is labelled from
its kind: the Chinese term on a Chinese page; on an English page the same
term with an English gloss, so a reviewer learns the word the players use.
"""
from __future__ import annotations

import re
from typing import Any

from flask import Flask, g

from audit.api import load_profile, loads
from audit.vocabulary import (CODES, SUIT_LETTERS, SUIT_NAMES_ZH, CatalogueError, Marker, MarkerKind, Rule, RuleText,
                              label, lookup, parameters, render_value, term_label, zh_name)
from audit.vocabulary import rule_text as rule_text_in
from report import dispute
from web.i18n import DEFAULT_LANGUAGE, gettext_in

MARKER_TERMS: dict[str, tuple[str, str]] = {
    MarkerKind.DECLARE.value: ("报听", "declared ready"),
    MarkerKind.LATE_KONG.value: ("憨包豆", "late kong"),
    MarkerKind.PASS_LOCK.value: ("过胡", "passed a win"),
    MarkerKind.CHARGE_CHICKEN.value: ("冲锋鸡", "charging chicken"),
    MarkerKind.RESPONSIBILITY_CHICKEN.value: ("责任鸡", "responsibility chicken"),
    MarkerKind.HOT_SHOT.value: ("热炮", "hot shot"),
    MarkerKind.ROB.value: ("抢杠", "robbing the kong"),
}
"""Per marker kind: the Chinese term (the rulebook's) and its English gloss. A test checks
every kind has both."""


def rule_label(code: str | None) -> str:
    """A rule as reports name it: Chinese section name and code (`热炮 R8.3`)."""
    return label(code)


def rule_text(code: str | None) -> Rule | None:
    """The rulebook's source entry of a rule (or of its section), markdown and all; reports show
    `rule_words` instead."""
    return lookup(code)


def rule_words(code: str | None, language: str | None = None) -> RuleText | None:
    """The text of a rule in the page's language as blocks of styled spans (no markdown), the
    Chinese written for the project from the rulebook where it exists (`RuleText.lang` says)."""
    return rule_text_in(code, language or g.get("lang", DEFAULT_LANGUAGE))


def term_words(term: str, language: str | None = None) -> str | None:
    """A parameter or pattern the rulebook names in code (`pass_lock_allows_higher`) in words of
    the page's language; None for a tile code, a value or a field (shown as it is)."""
    return term_label(term, language or g.get("lang", DEFAULT_LANGUAGE))


def profile_title(name: str | None, language: str | None = None) -> str:
    """A profile as a reader knows it: its title from profiles/*.toml (`微乐 Weile`), the Chinese
    part alone on a Chinese page; the name itself for a profile the engine does not have."""
    if not name:
        return "–"
    try:
        title = load_profile(name).title
    except Exception:  # an unknown or broken profile still has its name to show
        return name
    if (language or g.get("lang", DEFAULT_LANGUAGE)) == "zh":
        chinese = title.split(" ")[0]
        return chinese if any("\u4e00" <= ch <= "\u9fff" for ch in chinese) else title
    return title


def marker_label(marker: Marker, language: str | None = None) -> str:
    """A marker's name in a language (the page's by default): `过胡` in Chinese,
    `过胡 (passed a win)` in English. The seat, tile and rule it names are shown beside it."""
    term, gloss = MARKER_TERMS[marker.kind.value]
    if (language or g.get("lang", DEFAULT_LANGUAGE)) == "zh":
        return term
    return f"{term} ({gloss})"


def suit_label(letter: str, language: str | None = None) -> str:
    """A suit in compact tile text (`123万`): its Chinese name from the tile vocabulary on a
    Chinese page, the code's letter (`123m`) on an English one; `?` for anything else."""
    if letter not in SUIT_LETTERS or len(letter) != 1:
        return "?"
    if (language or g.get("lang", DEFAULT_LANGUAGE)) == "zh":
        return SUIT_NAMES_ZH[SUIT_LETTERS.index(letter)]
    return letter


def tile_name(code: object, language: str | None = None) -> str:
    """A tile in words: its Chinese name on a Chinese page (五万, 幺鸡), its code on an English one."""
    if not isinstance(code, str) or code not in CODES:
        return str(code)
    return zh_name(code) if (language or g.get("lang", DEFAULT_LANGUAGE)) == "zh" else code


def dispute_text(code: str, **values: object) -> str:
    """A sentence of the report's own (audit/catalogue/dispute.toml) in the page's language."""
    return dispute.text(code, g.get("lang", DEFAULT_LANGUAGE), **values)


HAND_OF_MATCH = re.compile(r"#hands\[(\d+)\]")
RECORD_OF_STORE = re.compile(r"#record/(\d+)")
RECORD_OF_FIT = re.compile(r"^record (\d+)")
"""A stored record as a fit names it (`record 12`, batch/fit_job.py; `record 12 (game id)`, the fit page)."""


def source_label(source: str | None, language: str | None = None) -> str:
    """Where an item came from (`audit.origin.Origin.label`, `file!member:line#hands[i]`) as a
    reader is told it: in Chinese a match's hand is 第N局 and a stored record 记录 #N (the file and
    member names are the sender's own); in English as stored, the receipts' search key."""
    text = source or ""
    if (language or g.get("lang", DEFAULT_LANGUAGE)) != "zh":
        return text
    text = HAND_OF_MATCH.sub(lambda found: f" 第{int(found.group(1)) + 1}局", text)
    text = RECORD_OF_FIT.sub(lambda found: f"记录 #{found.group(1)}", text)
    return RECORD_OF_STORE.sub(lambda found: f" 记录 #{found.group(1)}", text)


def item_kind_label(kind: str) -> str:
    """A payment kind of a ledger (`chicken`) in words of the page's language (forms.toml
    `item_kind`: 鸡分 / chickens (鸡)); an unknown kind as it is."""
    try:
        return render_value("item_kind", kind, g.get("lang", DEFAULT_LANGUAGE))
    except CatalogueError:  # a kind the catalogue does not name
        return kind


def reading_label(reading: str) -> str:
    """Which reading of a wrong total a row belongs to (`解释一：`), in the page's language."""
    return render_value("reading", reading, g.get("lang", DEFAULT_LANGUAGE))


def difference_heading() -> str:
    """The heading of every difference column on a page or PDF: `差额 = 记录 − 审计`, the formula
    of `report.dispute.difference`, the one sign of the service."""
    return dispute.difference_heading(g.get("lang", DEFAULT_LANGUAGE))


def signed_difference(computed: object, claimed: object) -> str:
    """A difference cell: `report.dispute.difference` signed (`+2`, `-2`, `0`), `–` when a side
    is missing, so no template subtracts by itself."""
    if not isinstance(computed, int) or not isinstance(claimed, int) or isinstance(computed, bool) \
            or isinstance(claimed, bool):
        return "–"
    value = dispute.difference(computed, claimed)
    return f"+{value}" if value > 0 else str(value)


def json_text(text: str | None) -> Any:
    """A value stored as JSON text (a revision diff's entry, an option's value) parsed back, so a
    template can tell it in words; text that is not JSON stays the text."""
    if text is None:
        return None
    try:
        return loads(text)
    except ValueError:  # JsonTextError is one
        return text


def is_tiles(value: Any) -> bool:
    """Whether a value is a list of tile codes (a hand, the wall): shown as tiles, not as JSON."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v in CODES for v in value)


def parameter_value(name: str, value: Any, language: str | None = None) -> str:
    """A parameter's value in words (parameters.toml `.values`: `只烧这一杠`), else as it is."""
    words = parameters().get(name, {}).get("values", {}).get(str(value))
    return str(words[language or g.get("lang", DEFAULT_LANGUAGE)]) if words else str(value)


def parameter_name(name: str, language: str | None = None) -> str:
    """A parameter by its words (parameters.toml), a key inside a parameter's table by its own
    (`jian_dou_san.self_draw_table.da_dui_zi` -> 大对子); its dotted name when neither has any."""
    lang = language or g.get("lang", DEFAULT_LANGUAGE)
    return term_words(name, lang) or term_words(name.rsplit(".", 1)[-1], lang) or name


def option_value_words(name: str, value: Any, language: str | None = None) -> str:
    """An option's value in words: yes or no, a listed value by its words (parameters.toml
    `.values`), a table by its parameters, a list item by item; a number as it is."""
    lang = language or g.get("lang", DEFAULT_LANGUAGE)
    if isinstance(value, bool):
        return gettext_in(lang, "yes" if value else "no")
    if isinstance(value, dict):
        return "（" + options_words({f"{name}.{key}": inner for key, inner in value.items()}, lang) + "）"
    if isinstance(value, (list, tuple)):
        return "、".join(option_value_words(name, item, lang) for item in value) or "–"
    if value is None:
        return "–"
    return parameter_value(name, value, lang)


def options_words(options: Any, language: str | None = None) -> str:
    """Options (dotted names or nested tables) as `热炮加分：2、翻牌鸡的取法：翻牌的上下各一张`."""
    lang = language or g.get("lang", DEFAULT_LANGUAGE)
    if not isinstance(options, dict) or not options:
        return ""
    return "、".join(f"{parameter_name(key, lang)}：{option_value_words(key, value, lang)}"
                    for key, value in sorted(options.items()))


def init_app(app: Flask) -> None:
    """Make the labels template globals."""
    app.jinja_env.filters["json_text"] = json_text
    app.jinja_env.tests["tiles"] = is_tiles
    app.jinja_env.globals.update(rule_label=rule_label, rule_text=rule_text, marker_label=marker_label,
                                 rule_words=rule_words, dispute_text=dispute_text, tile_name=tile_name, term_words=term_words, profile_title=profile_title,
                                 suit_label=suit_label, reading_label=reading_label, item_kind_label=item_kind_label, source_label=source_label,
                                 parameter_name=parameter_name, option_value_words=option_value_words, options_words=options_words,
                                 difference_heading=difference_heading, signed_difference=signed_difference,
                                 parameter_value=parameter_value)
