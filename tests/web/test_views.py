"""web/views.py: the request helpers the blueprints share (options text, list query, record lookup)."""
from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.exceptions import BadRequest, NotFound

from web.db import get_store
from web.errors import ApiError
from web.views import find_record, first_messages, form_options, parse_list_query


def test_form_options_are_empty_or_a_json_object(app: Flask) -> None:
    with app.test_request_context("/"):
        assert form_options("  \n") is None
        assert form_options('{"chicken.normal": 2}') == {"chicken.normal": 2}
        with pytest.raises(ApiError) as refused:
            form_options("{oops")
        assert refused.value.error_code == "not_json" and list(refused.value.details) == ["options"]
    with app.test_request_context("/?lang=en"):
        with pytest.raises(ApiError, match="line 1, column 2"):
            form_options("{oops")
        with pytest.raises(ApiError) as not_object:
            form_options("[1]")
        assert not_object.value.error_code == "options_not_object" and not_object.value.code == 400


def test_list_query_reads_the_filters_and_names_a_bad_one(app: Flask) -> None:
    with app.test_request_context("/"):
        query = parse_list_query({"verdict": "illegal", "revisions": "all", "order": "asc", "date_from": "2024-05-01",
                                  "lang": "en", "platform": ""})
        assert query.verdict == "illegal" and query.all_revisions and not query.descending
        assert query.date_from == "2024-05-01" and query.platform is None
        with pytest.raises(ApiError) as excinfo:
            parse_list_query({"verdict": "great"})
        assert excinfo.value.code == 400 and "verdict" in excinfo.value.details


def test_marshmallow_messages_in_one_line() -> None:
    assert first_messages({"page": ["Not a valid integer."], "x": {"y": "bad"}}) == "page: Not a valid integer.; x: y: bad"


def test_an_unknown_record_is_a_404_naming_it(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        with pytest.raises(ApiError, match="record 7 does not exist") as missing:
            find_record(get_store(), 7)
        assert missing.value.error_code == "record_missing" and missing.value.code == 404
