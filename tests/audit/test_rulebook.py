"""The rulebook parsed into blocks of styled spans (audit.rulebook): the structure the report
renders, the English kept word for word, the lookups and the fallback."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from audit import rulebook
from audit.lang import Lang
from audit.rulebook import Block, BlockKind, Span, SpanStyle

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared/spec/rulebook.md")


def _words(text: str) -> list[str]:
    """Text as a list of words, markup characters (backticks, stars, pipes) dropped."""
    return re.sub(r"[`*|]", "", text).split()


def _markdown_words(code: str) -> list[str]:
    """The words of a code's markdown as the rulebook file has them (list markers and table
    rules dropped), read independently of the parser."""
    lines = rulebook.RULEBOOK.read_text(encoding="utf-8").splitlines()
    section = rulebook.section_of(code)
    start = next(i for i, line in enumerate(lines) if re.match(rf"^## {section}\b", line))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    body = lines[start + 1:end]
    if code != section:
        first = next(i for i, line in enumerate(body) if line.startswith(f"- {code} "))
        stop = next((i for i in range(first + 1, len(body))
                     if body[i].startswith("- ") or not body[i].strip()), len(body))
        body = [body[first][len(f"- {code} "):]] + body[first + 1:stop]
    kept = [re.sub(r"^\s*- ", "", line) for line in body if not re.match(r"^\|[-| :]+\|$", line.strip())]
    return _words("\n".join(kept))


def test_vendored_rulebook_is_the_shared_one() -> None:
    if not SHARED.exists():
        pytest.skip("no shared spec on this machine")
    assert rulebook.RULEBOOK.read_bytes() == SHARED.read_bytes()


def test_inline_markup_becomes_styled_spans() -> None:
    assert rulebook.spans("a `pass_lock_until` (**hard**) and *extra* `1m`-`9s`.") == (
        Span("a ", SpanStyle.PLAIN), Span("pass_lock_until", SpanStyle.CODE), Span(" (", SpanStyle.PLAIN),
        Span("hard", SpanStyle.STRONG), Span(") and ", SpanStyle.PLAIN), Span("extra", SpanStyle.STRONG),
        Span(" ", SpanStyle.PLAIN), Span("1m", SpanStyle.CODE), Span("-", SpanStyle.PLAIN),
        Span("9s", SpanStyle.CODE), Span(".", SpanStyle.PLAIN))
    assert rulebook.spans("`v * base` points") == (Span("v * base", SpanStyle.CODE), Span(" points", SpanStyle.PLAIN))


def test_block_structure_of_a_text() -> None:
    text = "Lead line\nwrapped.\n\n- one\n  more\n  - nested\n    deeper\n  back in one\n- two\n\n| a | `b` |\n|---|---|\n| 1 | 2 |\n"
    got = rulebook.blocks(text)
    assert [(b.kind, b.depth, b.text) for b in got] == [
        (BlockKind.PARAGRAPH, 0, "Lead line wrapped."),
        (BlockKind.ITEM, 0, "one more"),
        (BlockKind.ITEM, 1, "nested deeper"),
        (BlockKind.PARAGRAPH, 1, "back in one"),
        (BlockKind.ITEM, 0, "two"),
        (BlockKind.TABLE_ROW, 0, "a | b"),
        (BlockKind.TABLE_ROW, 0, "1 | 2"),
    ]
    assert got[5].spans == (Span("a", SpanStyle.PLAIN), Span("b", SpanStyle.CODE))


def test_a_rule_alone_and_in_its_section() -> None:
    alone = rulebook.rule_text("R3.2", Lang.EN)
    assert alone is not None and alone.code == "R3.2" and alone.lang is Lang.EN
    assert alone.title == "Winning hands (胡牌)"
    kinds = [b.kind for b in alone.blocks]
    assert kinds[0] is BlockKind.PARAGRAPH and kinds[-1] is BlockKind.PARAGRAPH
    assert kinds[1:-1] == [BlockKind.ITEM] * 10 and {b.depth for b in alone.blocks} == {0}
    assert alone.blocks[1].spans[0] == Span("qing_long_qi_dui", SpanStyle.CODE)
    section = rulebook.rule_text("R3", Lang.EN)
    assert section is not None and section.code == "R3"
    heads = [b for b in section.blocks if b.depth == 0]
    assert [b.spans[0] for b in heads] == [Span(c, SpanStyle.STRONG) for c in ("R3.1", "R3.2", "R3.3")]
    assert len([b for b in section.blocks if b.depth == 1]) == 11


def test_the_profile_table_is_rows_of_cells() -> None:
    p = rulebook.rule_text("P", Lang.EN)
    assert p is not None
    rows = [b for b in p.blocks if b.kind is BlockKind.TABLE_ROW]
    assert len(rows) >= 38 and {len(r.spans) for r in rows} == {6}
    assert rows[0].spans[0].text == "parameter" and rows[0].spans[1].text == "weile 微乐 (default)"


def test_lookup_like_fallbacks() -> None:
    assert rulebook.rule_text(None, Lang.EN) is None and rulebook.rule_text("", Lang.ZH) is None
    assert rulebook.rule_text("R99", Lang.EN) is None and rulebook.rule_text("X1", Lang.ZH) is None
    unknown_rule = rulebook.rule_text("R8.9", "en")
    assert unknown_rule is not None and unknown_rule.code == "R8"
    assert rulebook.rule_text("R8.3", "zh") == rulebook.rule_text("R8.3", Lang.ZH)


@pytest.mark.parametrize("code", rulebook.codes())
def test_english_keeps_every_word_of_the_rulebook(code: str) -> None:
    text = rulebook.rule_text(code, Lang.EN)
    assert text is not None and text.code == code and text.lang is Lang.EN
    assert _words(" ".join(b.text for b in text.blocks)) == _markdown_words(code)


def test_codes_are_those_the_rulebook_defines() -> None:
    assert rulebook.codes() == list(rulebook.rules())
    assert set(rulebook.codes()) >= {"R1", "R1.1", "R16.18", "R17.11", "P"}


def test_existing_lookup_is_unchanged() -> None:
    rule = rulebook.lookup("R13.1")
    assert rule is not None and rule.code == "R13.1" and "pass_lock_until" in rule.text
    assert rulebook.label("R8.3") == "热炮 R8.3"


def test_block_text_joins_cells() -> None:
    row = Block(BlockKind.TABLE_ROW, (Span("a", SpanStyle.PLAIN), Span("b", SpanStyle.CODE)))
    assert row.text == "a | b"
