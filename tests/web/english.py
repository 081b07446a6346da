"""English left on a Chinese page (issues 23.1 and 33.4): the words a page shows a reader, less what
is data (a game id, a player's name, a file name: the record's own words or what the operator
typed, shown as sent) and less an explicit allow-list of words that stay as they are in Chinese
text too (file formats, the time zone, the header an API client types).

What a reader sees: the text of the document outside <script> and <style>, the text an SVG draws,
and the attributes a browser shows or speaks (title, placeholder, aria-label, alt, a button's
value). Text in <code> or <kbd> is read like any other (issue 33.4): a field name, a parameter's
dotted name or an enum value there is English all the same. A word is English when it has two or
more Latin letters: a rule number (`R8.3`), a revision (`r2`) or a tile (`5m`) has one."""
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
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
SKIPPED = ("script", "style", "template")


@dataclass
class _Text(HTMLParser):
    """Collects the visible text of a page, one chunk per text node or shown attribute."""

    chunks: list[str] = field(default_factory=list)
    skipping: int = 0

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
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

    def handle_data(self, data: str) -> None:
        if self.skipping or not data.strip():
            return
        self.chunks.append(data)


def visible_text(html: str) -> list[str]:
    """The chunks of text a reader of `html` sees (see the module's docstring)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.chunks


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
        text = TOKEN.sub(" ", HEX.sub(" ", text))
        for word in WORD.findall(text):
            if len(LETTERS.findall(word)) >= 2 and word not in ALLOWED and word not in found:
                found[word] = " ".join(chunk.split())[:160]
    return found
