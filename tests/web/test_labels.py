"""web/labels.py: a step marker is labelled from its kind in the page's language, a rule by its
Chinese section name and code in both."""
from __future__ import annotations

import pytest
from flask import Flask

from audit import rulebook, tiles
from audit.views import Marker, MarkerKind
from web.labels import MARKER_TERMS, marker_label, rule_label, rule_text, source_label, suit_label


def test_every_marker_kind_has_a_term_and_a_gloss() -> None:
    assert set(MARKER_TERMS) == {kind.value for kind in MarkerKind}
    for term, gloss in MARKER_TERMS.values():
        assert gloss.isascii() and not term.isascii()


@pytest.mark.parametrize("kind", list(MarkerKind))
def test_a_marker_reads_chinese_in_zh_and_adds_its_gloss_in_en(kind: MarkerKind) -> None:
    term, gloss = MARKER_TERMS[kind.value]
    marker = Marker.of(kind, seat=1)
    assert marker_label(marker, "zh") == term
    assert marker_label(marker, "en") == f"{term} ({gloss})"


def test_the_term_is_the_one_the_rulebook_uses_for_its_rule() -> None:
    for kind in MarkerKind:
        rule = rulebook.lookup(kind.rule)
        assert rule is not None and rule.code == kind.rule
        assert MARKER_TERMS[kind.value][0] in rule.text or MARKER_TERMS[kind.value][0] in rule.title, kind


def test_the_label_follows_the_page_language(app: Flask) -> None:
    marker = Marker.of(MarkerKind.HOT_SHOT)  # the language hook runs before the login guard answers
    with app.test_request_context("/records/1", query_string={"lang": "en"}):
        app.preprocess_request()
        assert marker_label(marker) == marker_label(marker, "en")
    with app.test_request_context("/records/1"):
        app.preprocess_request()
        assert marker_label(marker) == marker_label(marker, "zh")


def test_rules_are_named_and_quoted_from_the_rulebook() -> None:
    assert rule_label("R13.1") == rulebook.label("R13.1") == "过胡与过碰 R13.1"
    assert rule_text("R13.1") == rulebook.lookup("R13.1") and rule_text(None) is None


def test_suits_read_from_the_tile_vocabulary() -> None:
    assert [suit_label(letter, "zh") for letter in "mps"] == list(tiles.SUIT_NAMES_ZH)
    assert [suit_label(letter, "en") for letter in "mps"] == ["m", "p", "s"]
    assert suit_label("z", "zh") == suit_label("", "en") == suit_label("mp", "zh") == "?"


@pytest.mark.parametrize("source, zh", [
    ("record 12", "记录 #12"),                                   # a fit job's stored record (batch/fit_job.py)
    ("record 12 (clean-kuhu-triple)", "记录 #12 (clean-kuhu-triple)"),  # the fit page's
    ("upload.jsonl line 3#hands[1]", "upload.jsonl line 3 第2局"),
    ("records 12", "records 12"),                                 # a sender's own file name stays as it is
])
def test_a_fit_names_a_stored_record_in_chinese_as_the_receipts_do(source: str, zh: str) -> None:
    assert source_label(source, "zh") == zh
    assert source_label(source, "en") == source
