"""English left on a Chinese page (issues 23.1 and 33.4): the words a page shows a reader, less what
is data (a game id, a player's name, a file name: the record's own words or what the operator
typed, shown as sent) and less an explicit allow-list of words that stay as they are in Chinese
text too (file formats, the time zone, the header an API client types).

What a reader sees: the text of the document outside <script> and <style>, the text an SVG draws,
and the attributes a browser shows or speaks (title, placeholder, aria-label, alt, a button's
value). Text in <code> or <kbd> is read like any other (issue 33.4): a field name, a parameter's
dotted name or an enum value there is English all the same; only a `<code translate="no">` holding
a JSON path of a sent file or an address of the API guide is not read (`AS_TYPED`). A word is English when it has two or
more Latin letters: a rule number (`R8.3`), a revision (`r2`) or a tile (`5m`) has one."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ALLOWED: frozenset[str] = frozenset({
    # file formats and the text encoding, named as their files are (docs/decisions.md 33.4c)
    "PDF", "JSON", "JSONL", "json", "jsonl", "zip", "toml", "UTF",
    # units and the time zone as ISO writes it beside a time (web/listing.py)
    "MB", "UTC",
    # what a program sends, as it must type it: the header of a token, the API's description
    "Authorization", "Bearer", "OpenAPI",
    # the service's own commands and setting, named as the operator types them
    "flask", "app", "verify", "python", "audit", "fit", "ZHUOJI_PROFILE_DIR",
    # the browser's and the keyboard's words, the language switch's own name for English
    "Cookie", "Home", "End", "English",
})
"""Words that may appear on a Chinese page. Kept short on purpose: a new entry is a decision."""

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
LETTERS = re.compile(r"[A-Za-z]")
RAW_JSON = re.compile(r'[{\[,]\s*"[^"]*"\s*[:,\]}]')
"""JSON text shown as it is stored (`{"type": "draw"}`): a reader is told what it says instead."""
RAW_JSON_WORD = "<raw JSON>"
TOKEN = re.compile(r"\bzj_[A-Za-z0-9_-]+")
"""The shown start of an API token (data, like a hash)."""
HEX = re.compile(r"\b[0-9a-f]{8,}\b")
FORMAT = re.compile(r"\bzhuoji(?:-[a-z]+)?(?:/\d+\b|-\d+\.json\b)")
"""A format's name as a record or kit declares it in its `format` field (`zhuoji/1`, `zhuoji-match/1`),
and the file of its published schema (`zhuoji-match-1.json`)."""
AS_TYPED = re.compile(r"[A-Za-z_]\w*(?:\[\d+\])*(?:\.[A-Za-z_]\w*(?:\[\d+\])*)*"
                      r"|(?:GET|POST)(?:, (?:GET|POST))*|/api/[\w/<>:.-]*|\?\w+=\w+")
"""What a `<code translate="no">` may hold and still not be read as words: a JSON path into a file
the operator sent (`events[3].tile`, where a receipt's problem is), and, on the API guide, an
address, a method or a query a program types. Anything else in it is read like any text."""
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
SKIPPED = ("script", "style", "template", "textarea")
"""Not read: code, and a textarea's text, which is a form's value (a file to edit and download, the
options typed) as an input's `value` is."""


@dataclass
class _Text(HTMLParser):
    """Collects the visible text of a page, one chunk per text node or shown attribute."""

    chunks: list[str] = field(default_factory=list)
    skipping: int = 0
    as_typed: bool = False
    """Inside a `<code translate="no">`."""

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
        values = dict(attrs)
        if tag == "code" and values.get("translate") == "no":
            self.as_typed = True
        for name in SHOWN_ATTRIBUTES:
            if values.get(name):
                self.chunks.append(str(values[name]))
        if tag == "input" and values.get("type") in ("submit", "button", "reset") and values.get("value"):
            self.chunks.append(str(values["value"]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1
        if tag == "code":
            self.as_typed = False

    def handle_data(self, data: str) -> None:
        if self.skipping or not data.strip():
            return
        if self.as_typed and AS_TYPED.fullmatch(data.strip()):
            return
        self.chunks.append(data)


def visible_text(html: str) -> list[str]:
    """The chunks of text a reader of `html` sees (see the module's docstring)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.chunks


@lru_cache(maxsize=1)
def format_words() -> frozenset[str]:
    """The record format's own words: every key and every enumerated value of the published schemas
    (audit/schemas/*.json: `events`, `tile`, `draw`, `discard`). A problem of a sent file names the
    place in it and the values the format allows as the file must write them (audit/catalogue.py
    `_choices`), so a check of upload problems passes these as data; nowhere else are they."""
    words: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    words.update(value)
                if key == "enum" and isinstance(value, list):
                    words.update(item for item in value if isinstance(item, str))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((Path(__file__).resolve().parents[2] / "audit" / "schemas").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return frozenset(words)


def english_words(html: str, data: Iterable[str] = ()) -> dict[str, str]:
    """Each English word of a page that is neither data nor allowed, with the text it stands in
    (the first place it was seen): empty when the page is Chinese throughout. `data` are the
    strings the page shows verbatim because a record or a user wrote them; longest first, so a
    name containing another is removed whole."""
    values = sorted({value for value in data if value}, key=len, reverse=True)
    found: dict[str, str] = {}
    for chunk in visible_text(html):
        if RAW_JSON.search(chunk) and RAW_JSON_WORD not in found:  # every word quoted, but JSON all the same
            found[RAW_JSON_WORD] = " ".join(chunk.split())[:160]
        text = chunk
        for value in values:
            text = text.replace(value, " ")
        text = FORMAT.sub(" ", TOKEN.sub(" ", HEX.sub(" ", text)))
        for word in WORD.findall(text):
            if len(LETTERS.findall(word)) >= 2 and word not in ALLOWED and word not in found:
                found[word] = " ".join(chunk.split())[:160]
    return found
