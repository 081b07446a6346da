"""web/trail_words.py: every trail action is told in both languages, and a record's history never
shows an endpoint's code name (issue 33.3: `页面 pages.report`)."""
from __future__ import annotations

from flask import Flask

from records import trail
from web.trail_words import endpoint_words, sentence, words


def test_every_action_has_its_words_in_both_languages() -> None:
    data = words()
    assert set(trail.ACTIONS) <= set(data) - {"types", "endpoints"}
    for action in trail.ACTIONS:
        assert set(data[action]) == {"en", "zh"}


def test_every_endpoint_that_reads_a_record_has_words(app: Flask) -> None:
    known = words()["endpoints"]
    reading = {rule.endpoint for rule in app.url_map.iter_rules()
               if "record_id" in rule.arguments and "GET" in (rule.methods or set())}
    assert reading and reading <= set(known), sorted(reading - set(known))
    for endpoint in reading:
        for lang in ("zh", "en"):
            text = endpoint_words(endpoint, lang)
            assert endpoint not in text and "." not in text


def test_a_view_is_told_in_words_not_as_its_endpoint(app: Flask) -> None:
    with app.test_request_context("/?lang=zh"):
        told = sentence("view", {"endpoint": "pages.report", "via": None}, "zh")
        assert told == "查看牌局记录页" and "pages" not in told
        later = sentence("view", {"endpoint": "some.new_page"}, "en")
        assert "some.new_page" not in later and later
