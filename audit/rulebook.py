"""The rulebook's own words, looked up by the code a finding cites (`R13.1`, `R8`, `P`).

Reports show the text of the rule a move broke, so a reviewer reads the rule
itself rather than our paraphrase. The text comes from the vendored copy
`spec/rulebook.md`, parsed once; nothing here interprets a rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

def _rulebook_path() -> Path:
    """The vendored rulebook: `spec/rulebook.md` of the checkout, or, in an installed wheel (which has no
    `spec/`), the copy `make dist` packs next to this module as `audit/rulebook.md`."""
    here = Path(__file__).resolve()
    checkout = here.parents[1] / "spec" / "rulebook.md"
    return checkout if checkout.is_file() else here.with_name("rulebook.md")


RULEBOOK = _rulebook_path()
"""The vendored rulebook (identical to shared/spec/rulebook.md)."""

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
    (shown with `white-space: pre-line`)."""
    out: list[str] = []
    fresh = True
    for line in lines:
        stripped = line.strip()
        if not stripped:
            fresh = True
        elif fresh or stripped.startswith(("- ", "|")):
            out.append(stripped)
            fresh = stripped.startswith("|")
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


__all__ = ["RULEBOOK", "Rule", "SECTION_NAMES_ZH", "label", "lookup", "parse", "rules", "section_of"]
