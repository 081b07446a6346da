"""The 接口 menu (issue 23, point 1): a page listing every route of the JSON API with its words in
the page's language, each route of the URL map with an entry in web/api_guide.toml."""
from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from web.api_guide import words


def test_every_api_route_has_words(app: Flask) -> None:
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")}
    assert endpoints and endpoints - set(words()) == set()
    assert all(set(entry) == {"zh", "en"} for entry in words().values())


def test_the_menu_links_to_the_page_and_it_lists_the_routes(client: FlaskClient) -> None:
    home = client.get("/upload?lang=zh").get_data(as_text=True)
    assert 'href="/api-guide"' in home
    page = client.get("/api-guide?lang=zh").get_data(as_text=True)
    assert '<code translate="no">/api/records</code>' in page and words()["api.upload"]["zh"] in page
    assert 'href="/api/openapi.json"' in page
