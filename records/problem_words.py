"""An upload problem in words of a language (issue 23, point 1): `Problem.problem` is a stable code,
`Problem.params` its values, and the text is `records/problems.toml`'s (a schema problem's is the
finding catalogue's, `audit.catalogue`). The place leads, exactly as the item was found: the
file, zip member, line and hand (`Origin.label`), then the line and column of a JSON syntax error,
then the JSON path. A problem without a code (one made by an older caller) keeps its message."""
from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from audit.vocabulary import CatalogueError, Lang, finding_message

WORDS_FILE = Path(__file__).with_name("problems.toml")


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    """problems.toml, read once; every entry has both languages with the same fields."""
    data = tomllib.loads(WORDS_FILE.read_text(encoding="utf-8"))
    for code, entry in data.items():
        if code in ("reasons", "found"):
            if set(entry["en"]) != set(entry["zh"]):
                raise ValueError(f"problems.toml [{code}]: en and zh name different values")
            continue
        if set(entry) != {"en", "zh"}:
            raise ValueError(f"problems.toml [{code}]: needs exactly en and zh")
    return data


def known(code: str) -> bool:
    """Whether `code` is an upload problem of problems.toml."""
    return code in words() and code not in ("reasons", "found")


def _reason(value: Any, lang: str) -> str:
    """A parser's reason in words of `lang`: the JSON parser's message is matched on its fixed
    start (`Unterminated string starting at: line 1 ...` has the place after it)."""
    text = str(value)
    table: Mapping[str, str] = words()["reasons"][lang]
    for key, words_ in table.items():
        if text == key or text.startswith(key + ":") or text.startswith(key + " "):
            return words_
    return text


def message(code: str, params: Mapping[str, Any], lang: Lang | str, fallback: str = "") -> str:
    """What is wrong, without the place; `fallback` for a problem without a known code."""
    language = Lang(lang).value
    if known(code):
        values = dict(params)
        if "reason" in values:
            values["reason"] = _reason(values["reason"], language)
        if "found" in values:
            values["found"] = words()["found"][language].get(str(values["found"]), str(values["found"]))
        return str(words()[code][language]).format(**values)
    if code:
        try:
            return finding_message(code, {**params, "path": ""}, None, language)
        except CatalogueError:
            pass
    return fallback


def where(label: str, line: int | None, column: int | None, path: str | None, lang: Lang | str) -> str:
    """The place of a problem: `a.zip!b.json:3 (line 1, column 9): events[2].tile` /
    `a.zip!b.json:3（第1行第9列）：events[2].tile`."""
    zh = Lang(lang) is Lang.ZH
    text = label
    if line is not None:
        text += f"（第{line}行第{column}列）" if zh else f" (line {line}, column {column})"
    if path:
        text += f"：{path}" if zh else f": {path}"
    return text


def describe(label: str, code: str, params: Mapping[str, Any], lang: Lang | str, *, line: int | None = None,
             column: int | None = None, path: str | None = None, fallback: str = "") -> str:
    """The one line a person reads: the place, then what is wrong there."""
    separator = "：" if Lang(lang) is Lang.ZH else ": "
    return where(label, line, column, path, lang) + separator + message(code, params, lang, fallback)
