"""The rulebook's own words, looked up by the code a finding cites (`R13.1`, `R8`, `P`).

Reports show the text of the rule a move broke, so a reviewer reads the rule
itself rather than our paraphrase. The English text comes from the vendored
copy `spec/rulebook.md`, parsed once; nothing here interprets a rule.

`rule_text(code, lang)` gives the text as structured blocks (paragraphs, list
items, table rows) of styled spans (plain, strong, code), so a report renders
the markup instead of showing raw markdown. The Chinese text of each section
and rule is written for the project in `audit/catalogue/rulebook_zh.toml`
(keyed by code, in the same small markdown subset); where a code has no
Chinese text yet, the English one is returned, with `lang` saying so.
Parameter names (`pass_lock_allows_higher`) read as words through
`parameter_label`, from `audit/catalogue/parameters.toml`.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from audit.lang import Lang

def _rulebook_path() -> Path:
    """The vendored rulebook: `spec/rulebook.md` of the checkout, or, in an installed wheel (which has no
    `spec/`), the copy `make dist` packs next to this module as `audit/rulebook.md`."""
    here = Path(__file__).resolve()
    checkout = here.parents[1] / "spec" / "rulebook.md"
    return checkout if checkout.is_file() else here.with_name("rulebook.md")


RULEBOOK = _rulebook_path()
"""The vendored rulebook (identical to shared/spec/rulebook.md)."""
DATA_DIR = Path(__file__).with_name("catalogue")
RULEBOOK_ZH = DATA_DIR / "rulebook_zh.toml"
"""The Chinese text of each section and rule, by code (markdown subset, see `blocks`)."""
PARAMETERS = DATA_DIR / "parameters.toml"
"""Every profile parameter (dotted name) in words, zh and en, with its enumerated values."""

SECTION_NAMES_ZH: dict[str, str] = {
    "R1": "牌与座位",
    "R2": "行牌顺序",
    "R3": "胡牌",
    "R4": "碰与杠（豆）",
    "R5": "报听",
    "R6": "自摸与加分",
    "R7": "通行证",
    "R8": "热炮",
    "R9": "抢杠",
    "R10": "本局结束",
    "R11": "鸡",
    "R12": "荒庄查叫",
    "R13": "过胡与过碰",
    "R14": "下局庄家与连庄",
    "R15": "结算核对",
    "R16": "裁定解释",
    "R17": "地方玩法",
    "R18": "平台惯例",
    "R19": "另一平台的惯例",
    "P": "规则配置",
}
"""Chinese name of every section. Reports name rules in Chinese (the players' terms, taken
from the section headings where they have one); a test checks every parsed section has one."""

_HEADING = re.compile(r"^## (?P<code>R\d+|P)\b\s*(?P<title>.*)$")
_ITEM = re.compile(r"^- (?P<code>R\d+\.\d+)\s+(?P<text>.*)$")


@dataclass(frozen=True)
class Rule:
    """One section (`R8`) or rule (`R8.3`) as written in the rulebook."""

    code: str
    title: str
    """The heading of the section (English with the Chinese term), for a rule its section's."""
    text: str
    """The rule's paragraph, or the whole body of a section, lines joined."""

    @property
    def section(self) -> str:
        """`R8.3` -> `R8`."""
        return section_of(self.code)

    @property
    def name_zh(self) -> str:
        """The Chinese name of the rule's section."""
        return SECTION_NAMES_ZH.get(self.section, self.section)


def section_of(code: str) -> str:
    """`R8.3` -> `R8`; `P` and `R8` are their own section."""
    return code.split(".", 1)[0]


def parse(text: str) -> dict[str, Rule]:
    """Every section and rule of a rulebook in markdown: {code: Rule}.

    Sections start at `## R8 title`; rules are top-level bullets `- R8.3 text`
    whose continuation lines are indented. A section's text is its whole body.
    """
    rules: dict[str, Rule] = {}
    section: tuple[str, str] | None = None
    body: list[str] = []
    for line in text.splitlines() + ["## END"]:
        if line.startswith("## "):
            if section is not None:
                rules[section[0]] = Rule(section[0], section[1], _join(body))
                rules.update(_items(body, section[1]))
            match = _HEADING.match(line)
            section, body = ((match["code"], match["title"].strip()) if match else None), []
        elif section is not None:
            body.append(line)
    return rules


def _items(body: list[str], title: str) -> dict[str, Rule]:
    """The `- R8.3 ...` bullets of one section body."""
    items: dict[str, Rule] = {}
    current: list[str] | None = None
    code = ""
    for line in body + ["- END"]:
        match = _ITEM.match(line)
        if match or line.startswith("- ") or not line.strip():
            if current is not None:
                items[code] = Rule(code, title, _join(current))
                current = None
            if match:
                code, current = match["code"], [match["text"]]
        elif current is not None:
            current.append(line)
    return items


def _join(lines: list[str]) -> str:
    """Markdown lines to text: wrapped lines joined, one line per paragraph, list item or table row
    (shown with `white-space: pre-line`). A table row starts its line; an indented `|` is a wrapped
    line of a list item (R19.5's "| an integer N")."""
    out: list[str] = []
    fresh = True
    for line in lines:
        stripped = line.strip()
        row = line.startswith("|")
        if not stripped:
            fresh = True
        elif fresh or row or stripped.startswith("- "):
            out.append(stripped)
            fresh = row
        else:
            out[-1] += " " + stripped
    return "\n".join(out)


@lru_cache(maxsize=1)
def rules() -> dict[str, Rule]:
    """The vendored rulebook, parsed once per process."""
    return parse(RULEBOOK.read_text(encoding="utf-8"))


def lookup(code: str | None) -> Rule | None:
    """The rule a finding cites, else its section, else None (no rule, unknown code)."""
    if not code:
        return None
    book = rules()
    return book.get(code) or book.get(section_of(code))


def label(code: str | None) -> str:
    """How a report names a rule: Chinese section name, then the code (`热炮 R8.3`)."""
    if not code:
        return ""
    name = SECTION_NAMES_ZH.get(section_of(code))
    return f"{name} {code}" if name else code



# ---------------------------------------------------------------- texts per language


class RulebookError(LookupError):
    """A rulebook data file is malformed, or a parameter / value has no words."""


class SpanStyle(str, Enum):
    """Inline markup of a rule text; the report renders it, never raw markdown."""

    PLAIN = "plain"
    STRONG = "strong"
    """`**x**` (and `*x*`, the rulebook's one emphasis) and a rule's code before its text."""
    CODE = "code"
    """`` `x` ``: a parameter, a value, a tile code, a record field, as the rulebook names it.
    The report may show `parameter_label` / `term_label` beside it."""


@dataclass(frozen=True)
class Span:
    """A run of text in one style (never holding markdown syntax)."""

    text: str
    style: SpanStyle


class BlockKind(str, Enum):
    """What a block of a rule text is."""

    PARAGRAPH = "paragraph"
    ITEM = "item"
    """A list item (a rule of a section, or a bullet inside a rule such as R3.2's patterns)."""
    TABLE_ROW = "table_row"
    """A row of a table (the profile table P): one span per cell, header row first."""


@dataclass(frozen=True)
class Block:
    """One paragraph, list item or table row of a rule text."""

    kind: BlockKind
    spans: tuple[Span, ...]
    """Inline runs in order; for a TABLE_ROW, its cells (one span each)."""
    depth: int = 0
    """Nesting: 0 at the top; 1 for what is inside a list item (R3.2's patterns inside the
    section R3; the text of a rule shown alone starts again at 0)."""

    @property
    def text(self) -> str:
        """The block's words without markup (cells joined by ` | `)."""
        return (" | " if self.kind is BlockKind.TABLE_ROW else "").join(s.text for s in self.spans)


@dataclass(frozen=True)
class RuleText:
    """The text of one rule (`R8.3`) or section (`R8`) in one language."""

    code: str
    """The code asked for, when it exists, else its section's (as `lookup`)."""
    title: str
    """The section's name in the language asked for (`热炮`; in English the rulebook's heading,
    `热炮 (hot shot, 杠上炮)`), for a rule its section's."""
    blocks: tuple[Block, ...]
    lang: Lang
    """The language the blocks are in: the one asked for, or English where the Chinese text
    is not written yet (the fallback; `untranslated()` lists those codes)."""

    @property
    def text(self) -> str:
        """All blocks as plain text, one line each."""
        return "\n".join(b.text for b in self.blocks)


_INLINE = re.compile(r"\*\*(?P<strong>.+?)\*\*|`(?P<code>[^`]+)`"
                     r"|(?<![\w*])\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*(?![\w*])")
_RULE_START = re.compile(r"^(?P<code>R\d+\.\d+)\s+(?P<text>.*)$", re.S)
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}")


def spans(text: str) -> tuple[Span, ...]:
    """Inline markdown (`code`, **strong**, *emphasis*) to styled spans; adjacent plain runs merged."""
    out: list[Span] = []

    def add(piece: str, style: SpanStyle) -> None:
        if not piece:
            return
        if style is SpanStyle.PLAIN and out and out[-1].style is SpanStyle.PLAIN:
            out[-1] = Span(out[-1].text + piece, style)
        else:
            out.append(Span(piece, style))

    pos = 0
    for match in _INLINE.finditer(text):
        add(text[pos:match.start()], SpanStyle.PLAIN)
        if match["code"] is not None:
            add(match["code"], SpanStyle.CODE)
        else:
            add(match["strong"] if match["strong"] is not None else match["em"], SpanStyle.STRONG)
        pos = match.end()
    add(text[pos:], SpanStyle.PLAIN)
    return tuple(out)


def _cell(text: str) -> Span:
    """A table cell as one span: code when it is only code, else its words in plain."""
    runs = spans(text.strip())
    if len(runs) == 1:
        return runs[0]
    return Span("".join(r.text for r in runs), SpanStyle.PLAIN)


@dataclass
class _Raw:
    """A block before inline parsing: its kind, depth and markdown text (lines joined)."""

    kind: BlockKind
    depth: int
    text: str
    indent: int
    """The indent its continuation lines have (content column)."""


def _raw_blocks(lines: list[str]) -> list[_Raw]:
    """Markdown lines to blocks: blank-line paragraphs, `- ` items (indented ones nested),
    `|` table rows (the `|---|` rule dropped; a `|` line continuing an item is not one); wrapped lines
    joined with a space."""
    out: list[_Raw] = []
    open_block = False
    item_indent = 0
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if not stripped:
            open_block = False
        elif stripped.startswith("|") and not (open_block and indent > 0):
            # (an indented `| b` continuing an open item is prose: R19's "`a` (default) | `b`")
            open_block = False
            if not _TABLE_RULE.match(stripped):
                out.append(_Raw(BlockKind.TABLE_ROW, 0, stripped, 0))
        elif stripped.startswith("- "):
            depth = 0 if indent < 2 else 1
            if depth == 0:
                item_indent = indent + 2
            out.append(_Raw(BlockKind.ITEM, depth, stripped[2:], indent + 2))
            open_block = True
        elif open_block and (out[-1].kind is BlockKind.PARAGRAPH or indent >= out[-1].indent or indent == 0):
            out[-1].text += " " + stripped
        else:
            nested = bool(out) and out[-1].kind is BlockKind.ITEM and indent >= item_indent > 0
            out.append(_Raw(BlockKind.PARAGRAPH, 1 if nested else 0, stripped, indent))
            open_block = True
    return out


def _block(raw: _Raw, depth: int, lead: tuple[Span, ...] = ()) -> Block:
    if raw.kind is BlockKind.TABLE_ROW:
        return Block(raw.kind, tuple(_cell(c) for c in raw.text.strip().strip("|").split("|")), depth)
    return Block(raw.kind, lead + spans(raw.text), depth)


def blocks(text: str) -> tuple[Block, ...]:
    """A text in the rulebook's markdown subset (as the Chinese texts are written) to blocks."""
    return tuple(_block(r, r.depth) for r in _raw_blocks(text.splitlines()))


@dataclass(frozen=True)
class _Section:
    """A section of the English rulebook: its heading, intro blocks and rules' raw blocks."""

    code: str
    title: str
    intro: tuple[_Raw, ...]
    rules: tuple[tuple[str, tuple[_Raw, ...]], ...]
    """(code, raw blocks: the rule's own item first, then what is nested in it)."""


def _sections(text: str) -> dict[str, _Section]:
    """The English rulebook by section, split into intro and rules."""
    out: dict[str, _Section] = {}
    section: tuple[str, str] | None = None
    body: list[str] = []
    for line in text.splitlines() + ["## END"]:
        if line.startswith("## "):
            if section is not None:
                out[section[0]] = _split(section[0], section[1], _raw_blocks(body))
            match = _HEADING.match(line)
            section, body = ((match["code"], match["title"].strip()) if match else None), []
        elif section is not None:
            body.append(line)
    return out


def _split(code: str, title: str, raws: list[_Raw]) -> _Section:
    intro: list[_Raw] = []
    rules_: list[tuple[str, list[_Raw]]] = []
    for raw in raws:
        start = _RULE_START.match(raw.text) if raw.kind is BlockKind.ITEM and raw.depth == 0 else None
        if start:
            rules_.append((start["code"], [raw]))
        elif rules_ and raw.depth > 0:
            rules_[-1][1].append(raw)
        else:
            intro.append(raw)
    return _Section(code, title, tuple(intro), tuple((c, tuple(r)) for c, r in rules_))


@lru_cache(maxsize=1)
def _english() -> dict[str, _Section]:
    return _sections(RULEBOOK.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def chinese_sources() -> dict[str, str]:
    """The Chinese texts as written in rulebook_zh.toml: {code: markdown}. A section's entry is
    its introduction (only sections whose English has one need it); a rule's is its text."""
    data = tomllib.loads(RULEBOOK_ZH.read_text(encoding="utf-8"))
    if not all(isinstance(v, str) for v in data.values()):
        raise RulebookError(f"{RULEBOOK_ZH.name}: every entry is a string keyed by a rule code")
    return {str(k): str(v) for k, v in data.items()}


def _rule_blocks_en(raws: tuple[_Raw, ...]) -> tuple[Block, ...]:
    """A rule shown alone: its paragraph (code taken off), then what was nested in it, at top level."""
    first, rest = raws[0], raws[1:]
    start = _RULE_START.match(first.text)
    head = _Raw(BlockKind.PARAGRAPH, 0, start["text"] if start else first.text, 0)
    return (_block(head, 0),) + tuple(_block(r, 0) for r in rest)


def _in_section(code: str, rule: tuple[Block, ...]) -> tuple[Block, ...]:
    """A rule's blocks as one item of its section: `R8.3` in strong before its first paragraph,
    the rest nested."""
    if not rule:
        return ()
    first = rule[0]
    lead = (Span(code, SpanStyle.STRONG), Span(" ", SpanStyle.PLAIN))
    head = Block(BlockKind.ITEM, lead + first.spans, 0) if first.kind is not BlockKind.TABLE_ROW else first
    return (head,) + tuple(Block(b.kind, b.spans, b.depth + 1) for b in rule[1:])


def _text_en(code: str) -> tuple[Block, ...] | None:
    book = _english()
    if code in book:
        sec = book[code]
        out = [_block(r, r.depth) for r in sec.intro]
        for rule_code, raws in sec.rules:
            out.extend(_in_section(rule_code, _rule_blocks_en(raws)))
        return tuple(out)
    sec_ = book.get(section_of(code))
    for rule_code, raws in sec_.rules if sec_ else ():
        if rule_code == code:
            return _rule_blocks_en(raws)
    return None


def _text_zh(code: str) -> tuple[Block, ...] | None:
    """The Chinese blocks of a code, or None while any part of it has no Chinese text."""
    zh = chinese_sources()
    book = _english()
    if code in book:
        sec = book[code]
        if sec.intro and not zh.get(code, "").strip():
            return None
        out = list(blocks(zh.get(code, "")))
        for rule_code, _ in sec.rules:
            if not zh.get(rule_code, "").strip():
                return None
            out.extend(_in_section(rule_code, blocks(zh[rule_code])))
        return tuple(out)
    text = zh.get(code, "")
    return blocks(text) if text.strip() else None


def _known(code: str) -> str | None:
    """The code itself if the rulebook defines it, else its section's, else None (as `lookup`)."""
    book = _english()
    if code in book:
        return code
    sec = book.get(section_of(code))
    if sec is None:
        return None
    return code if any(c == code for c, _ in sec.rules) else sec.code


def codes() -> list[str]:
    """Every section and rule code of the rulebook, in its order (`R1`, `R1.1`, ...)."""
    out: list[str] = []
    for sec in _english().values():
        out.append(sec.code)
        out.extend(c for c, _ in sec.rules)
    return out


def untranslated() -> list[str]:
    """Codes whose Chinese text is still missing (shown in English, the fallback)."""
    return [c for c in codes() if _text_zh(c) is None]


@lru_cache(maxsize=512)
def _rule_text(code: str, lang: Lang) -> RuleText | None:
    known = _known(code)
    if known is None:
        return None
    section = section_of(known)
    title = SECTION_NAMES_ZH.get(section, section) if lang is Lang.ZH else _english()[section].title
    zh = _text_zh(known) if lang is Lang.ZH else None
    if zh is not None:
        return RuleText(known, title, zh, Lang.ZH)
    en = _text_en(known)
    return None if en is None else RuleText(known, title, en, Lang.EN)


def rule_text(code: str | None, lang: Lang | str) -> RuleText | None:
    """The text of the rule a finding cites in a language, else its section's, else None
    (like `lookup`). Chinese falls back to English (the returned `lang` says which) for a
    code whose Chinese text is not written yet."""
    if not code:
        return None
    return _rule_text(code, Lang(lang))


# ---------------------------------------------------------------- parameters in words


@lru_cache(maxsize=1)
def parameters() -> dict[str, dict[str, Any]]:
    """parameters.toml: {dotted name: {"zh": words, "en": words, "values": {value: {"zh", "en"}}}}."""
    data = tomllib.loads(PARAMETERS.read_text(encoding="utf-8"))
    for name, entry in data.items():
        if not isinstance(entry, dict) or not all(isinstance(entry.get(lang.value), str) for lang in Lang):
            raise RulebookError(f"{PARAMETERS.name}: {name}: needs zh and en")
        for value, words in entry.get("values", {}).items():
            if not isinstance(words, dict) or not all(isinstance(words.get(lang.value), str) for lang in Lang):
                raise RulebookError(f"{PARAMETERS.name}: {name}.values.{value}: needs zh and en")
    return data


def parameter_label(name: str, lang: Lang | str) -> str:
    """A profile parameter by its dotted name (`pass_lock_allows_higher`, `chicken.charge`) in
    words of a language; RulebookError for a name with no entry (a bug to fix, never guessed)."""
    entry = parameters().get(name)
    if entry is None:
        raise RulebookError(f"no words for parameter {name!r} in {PARAMETERS.name}")
    return str(entry[Lang(lang).value])


BOOL_WORDS: dict[str, tuple[str, str]] = {Lang.ZH.value: ("是", "否"), Lang.EN.value: ("yes", "no")}
"""How a true / false parameter reads, per language (the Chinese texts say 「…」为是 / 为否)."""


def value_label(name: str, value: str | bool, lang: Lang | str) -> str:
    """A value of a parameter in words: an enumerated one's from parameters.toml
    (`hot_shot.burn` `all` -> 全烧), true / false as 是 / 否 (yes / no); RulebookError when
    the parameter or the value has no entry."""
    if isinstance(value, bool):
        parameter_label(name, lang)
        yes, no = BOOL_WORDS[Lang(lang).value]
        return yes if value else no
    words = parameters().get(name, {}).get("values", {}).get(value)
    if words is None:
        raise RulebookError(f"no words for value {value!r} of parameter {name!r} in {PARAMETERS.name}")
    return str(words[Lang(lang).value])


def term_label(term: str, lang: Lang | str) -> str | None:
    """What a CODE span of the rulebook names, in words, when it is a profile parameter or a
    hand pattern (`qing_qi_dui` -> 清七对 / seven pairs, one suit); None for anything else (a
    value, a tile code, a record field: the report shows those as they are)."""
    entry = parameters().get(term) or parameters().get(f"hand_values.{term}")
    return None if entry is None else str(entry[Lang(lang).value])


__all__ = ["BOOL_WORDS", "Block", "BlockKind", "PARAMETERS", "RULEBOOK", "RULEBOOK_ZH", "Rule", "RuleText", "RulebookError",
           "SECTION_NAMES_ZH", "Span", "SpanStyle", "blocks", "chinese_sources", "codes", "label", "lookup",
           "parameter_label", "parameters", "parse", "rule_text", "rules", "section_of", "spans", "term_label",
           "untranslated", "value_label"]
