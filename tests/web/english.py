"""English left on a Chinese page (issue 23, point 1): the words a page shows a reader, less what is
data (a game id, a player's name, a file name: the record's own words, shown as sent) and less an
explicit allow-list of words that stay as they are in Chinese text too (product and format names,
units, the tile codes inside a JSON path).

What a reader sees: the text of the document outside <script> and <style>, the text an SVG draws,
and the attributes a browser shows or speaks (title, placeholder, aria-label, alt, a button's
value). A JSON path or a dotted name in <code> (`events[3].tile`, `chicken.charge`) names a place in
the format the operator looks up, so an identifier alone in <code>, with no space in it, is not
prose; anything else in <code> is read like any text."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

ALLOWED: frozenset[str] = frozenset({
    # formats, protocols and units written the same in Chinese text
    "PDF", "API", "JSON", "JSONL", "TOML", "SVG", "CSV", "zip", "json", "jsonl", "toml", "pdf", "sha256", "SHA256",
    "HTTP", "HTTPS", "URL", "MB", "KB", "GB", "px", "UTC", "ID", "CSRF", "OpenAPI", "Bearer", "Authorization",
    # the service's own commands and products, named as a user types them
    "flask", "app", "verify", "reaudit", "zhuoji", "kit", "build", "python", "audit", "fit", "Zhuoji",
    "ZHUOJI_PROFILE_DIR", "Chromium", "English", "UTF",
    # keys as printed on a keyboard
    "Home", "End",
    # the rulebook's profile table ("table P") and the tile and suit letters of the format (5m, 3p, 9s) inside paths and compact hands
    "P", "m", "p", "s",
})
"""Words that may appear on a Chinese page. Kept short on purpose: a new entry is a decision."""

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
IDENTIFIER = re.compile(r"[^\s\"{}=]+")
"""A JSON path or dotted name: no space, no quote, brace or `=` (JSON text and key=value are prose here)."""
PATH = re.compile(r"\b[a-z_]+(?:\[\d+\]|\.[a-z_]+)+")
"""A JSON path or a dotted parameter inside a sentence (`result.items`, `hands[0]`): the format's own
names, which the operator looks up in the contract."""
SECTION = re.compile(r"[RrP]\d+")
"""A rule section (R8) or a revision (r2): the rulebook's and the store's own short names."""
QUOTED = re.compile(r"\"[^\"\s]*\"|'[^'\s]*'")
"""A value quoted as the record holds it or the format spells it (`'throw'`, `"draw"`): verbatim."""
RAW_JSON = re.compile(r'[{\[,]\s*"[^"]*"\s*[:,\]}]')
"""JSON text shown as it is stored (`{"type": "draw"}`): a reader is told what it says instead."""
RAW_JSON_WORD = "<raw JSON>"
TOKEN = re.compile(r"\bzj_[A-Za-z0-9_-]+")
"""The shown start of an API token (data, like a hash)."""
HEX = re.compile(r"\b[0-9a-f]{8,}\b")
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
SKIPPED = ("script", "style", "template")
LITERAL = ("code", "kbd")
"""Elements whose single identifier (a JSON path, a key's name) is shown as it is typed."""


@dataclass
class _Text(HTMLParser):
    """Collects the visible text of a page, one chunk per text node or shown attribute."""

    chunks: list[str] = field(default_factory=list)
    literal: set[int] = field(default_factory=set)
    """Indexes of the chunks inside <code> or <kbd>: JSON typed as an example may be shown there."""
    skipping: int = 0
    in_code: int = 0

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
        if tag in LITERAL:
            self.in_code += 1
        values = dict(attrs)
        for name in SHOWN_ATTRIBUTES:
            if values.get(name):
                self.chunks.append(str(values[name]))
        if tag in ("input", "button") and values.get("type") in ("submit", "button", "reset") and values.get("value"):
            self.chunks.append(str(values["value"]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1
        if tag in LITERAL and self.in_code:
            self.in_code -= 1

    def handle_data(self, data: str) -> None:
        if self.skipping or not data.strip():
            return
        if self.in_code and IDENTIFIER.fullmatch(data.strip()):
            return
        if self.in_code:
            self.literal.add(len(self.chunks))
        self.chunks.append(data)


def visible_text(html: str) -> list[tuple[str, bool]]:
    """The chunks of text a reader of `html` sees (see the module's docstring), each with whether
    it is inside <code> or <kbd>."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return [(chunk, index in parser.literal) for index, chunk in enumerate(parser.chunks)]


def english_words(html: str, data: Iterable[str] = ()) -> dict[str, str]:
    """Each English word of a page that is neither data nor allowed, with the text it stands in
    (the first place it was seen): empty when the page is Chinese throughout. `data` are the
    strings the page shows verbatim because a record or a user wrote them; longest first, so a
    name containing another is removed whole."""
    values = sorted({value for value in data if value}, key=len, reverse=True)
    found: dict[str, str] = {}
    for chunk, literal in visible_text(html):
        if not literal and RAW_JSON.search(chunk) and RAW_JSON_WORD not in found:  # every word quoted, but JSON all the same
            found[RAW_JSON_WORD] = " ".join(chunk.split())[:160]
        text = chunk
        for value in values:
            text = text.replace(value, " ")
        text = PATH.sub(" ", QUOTED.sub(" ", TOKEN.sub(" ", HEX.sub(" ", text))))
        for word in WORD.findall(text):
            if word not in ALLOWED and not SECTION.fullmatch(word) and word not in found:
                found[word] = " ".join(chunk.split())[:160]
    return found
