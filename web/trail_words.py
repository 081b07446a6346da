"""The audit trail told in sentences (issue 23, point 1), not `key=value` with JSON escapes.

A trail row keeps its detail as JSON, the evidence the hash chain covers; a reader sees it as the
clauses of `web/trail_words.toml` for its action, in the page's language: `来自 a.json，已保存，牌局
G-1 第 r2 版`. Values are named as every other page names them (a status, a verdict, a profile's
title, a case outcome, a payment); ids, names and file names are data and shown as stored. Keys
no clause names (internal ids, the password generation) are left to the row's JSON, which
`GET /api/records/<id>/trail` and `flask verify` read whole."""
from __future__ import annotations

import json
import string
import tomllib
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask

from web.i18n import DEFAULT_LANGUAGE, gettext, page_language
from web.errors import problem_label
from web.labels import options_words, profile_title, source_label

WORDS_FILE = Path(__file__).with_name("trail_words.toml")
JOIN = {"zh": "，", "en": ", "}
CASE_OUTCOMES = {"upheld": "complaint upheld", "partly_upheld": "complaint partly upheld",
                 "dismissed": "complaint dismissed", "withdrawn": "complaint withdrawn"}
FORMATS = {"application/pdf": "PDF", "application/zip": "zip", "application/json": "JSON"}
HASH_SHOWN = 12
"""Hex digits of a hash shown in a sentence (the whole hash is in the row's JSON and the API)."""


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    """The sentence data, read once and checked: every action has both languages, each with the
    same fields per clause."""
    data = tomllib.loads(WORDS_FILE.read_text(encoding="utf-8"))
    for action, entry in data.items():
        if action in ("types", "endpoints"):
            continue
        if set(entry) != {"en", "zh"} or len(entry["en"]) != len(entry["zh"]):
            raise ValueError(f"trail_words.toml [{action}]: needs en and zh with as many clauses")
        for en, zh in zip(entry["en"], entry["zh"]):
            if _fields(en) != _fields(zh):
                raise ValueError(f"trail_words.toml [{action}]: {en!r} and {zh!r} name different fields")
    return data


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _payments(value: Any, lang: str) -> str:
    if not isinstance(value, list):
        return str(value)
    return "；".join(gettext("%(payer)s pays %(payee)s %(amount)s", payer=p.get("from"), payee=p.get("to"),
                             amount=p.get("amount")) for p in value if isinstance(p, dict))


def _errors(value: Any, lang: str) -> str:
    if not isinstance(value, list) or not value:
        return ""
    codes = [problem_label(str(e.get("code") if isinstance(e, dict) else e), lang) for e in value]
    return gettext("Errors") + ("：" if lang == "zh" else ": ") + "、".join(codes)


def _options(value: Any, lang: str) -> str:
    if not isinstance(value, dict) or not value:
        return ""
    if lang != "zh":
        return "、".join(f"{key}={json.dumps(v, ensure_ascii=False)}" for key, v in sorted(value.items()))
    return options_words(value, lang)


RENDER: dict[str, Callable[[Any, str], str]] = {
    "status": lambda value, lang: gettext(str(value)),
    "verdict": lambda value, lang: gettext(str(value)),
    "decision": lambda value, lang: gettext(str(value)),
    "role": lambda value, lang: gettext(str(value)),
    "case_outcome": lambda value, lang: gettext(CASE_OUTCOMES.get(str(value), str(value))),
    "profile": lambda value, lang: profile_title(str(value), lang),
    "yesno": lambda value, lang: gettext("yes" if value else "no"),
    "payments": _payments,
    "errors": _errors,
    "options": _options,
    "hash": lambda value, lang: str(value)[:HASH_SHOWN] + "…",
    "hand": lambda value, lang: (f"第{int(value) + 1}局" if lang == "zh" else f"hand {int(value) + 1}")
    if isinstance(value, int) else str(value),
    "format": lambda value, lang: FORMATS.get(str(value), str(value)),
    "text": lambda value, lang: str(value),
    "endpoint": lambda value, lang: endpoint_words(str(value), lang),
    "source": lambda value, lang: source_label(str(value), lang),
}


def endpoint_words(endpoint: str, lang: str) -> str:
    """What a view of a record did, in words (`[endpoints]`); an endpoint without words (a page added
    later) reads as a page of the service, never as its code name."""
    known: Mapping[str, Any] = words().get("endpoints", {})
    entry = known.get(endpoint)
    if entry is None:
        return gettext("read a page of the service")
    return str(entry["zh" if lang == "zh" else "en"])


def _value(action: str, name: str, value: Any, lang: str) -> str:
    types: Mapping[str, Any] = words()["types"]
    kind = types.get("by_action", {}).get(f"{action}.{name}") or types.get(name)
    if kind is None:
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return RENDER[kind](value, lang)


def sentence(action: str, detail: Mapping[str, Any] | None, lang: str | None = None) -> str:
    """A trail row's detail in words of `lang` (the page's by default)."""
    lang = lang or page_language().value
    entry = words().get(action)
    detail = detail or {}
    if entry is None or action in ("types", "endpoints"):
        return "；".join(f"{key} {_value(action, key, value, lang)}" for key, value in sorted(detail.items())
                        if value is not None)
    clauses = []
    for template in entry[lang if lang in ("en", "zh") else DEFAULT_LANGUAGE]:
        names = _fields(template)
        if all(detail.get(name) is not None for name in names):
            text = template.format(**{name: _value(action, name, detail[name], lang) for name in names})
            if text.strip():
                clauses.append(text)
    return JOIN.get(lang, "，").join(clauses)


def init_app(app: Flask) -> None:
    """`trail_sentence(entry)` for templates."""
    app.jinja_env.globals.update(trail_sentence=lambda entry: sentence(entry["action"], entry.get("detail")))
