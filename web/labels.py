"""How reports name rules, step markers and suits, as template globals.

Rules are named in Chinese with their code in both languages (the players'
terms, `audit.rulebook`). A step marker (`audit.views.Marker`) is labelled from
its kind: the Chinese term on a Chinese page; on an English page the same
term with an English gloss, so a reviewer learns the word the players use.
"""
from __future__ import annotations

from flask import Flask, g

from audit import rulebook
from audit.tiles import SUIT_LETTERS, SUIT_NAMES_ZH
from audit.views import Marker, MarkerKind
from web.i18n import DEFAULT_LANGUAGE

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
    return rulebook.label(code)


def rule_text(code: str | None) -> rulebook.Rule | None:
    """The rulebook's text of a rule (or of its section)."""
    return rulebook.lookup(code)


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


def init_app(app: Flask) -> None:
    """Make the labels template globals."""
    app.jinja_env.globals.update(rule_label=rule_label, rule_text=rule_text, marker_label=marker_label,
                                 suit_label=suit_label)
