"""Safe what-if and re-audit (issue 11): options checked before anything runs (400 naming the
JSON path and the known parameters, the form shown again), storing asks for confirmation and a
reason (into the trail), and an audit invalid because of its options is never stored."""
from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from records.pipeline import OptionsRefused, Pipeline
from records.store import Store
from tests.conftest import dumps, load_example
from tests.records.test_store import one


@pytest.fixture
def record_id(client: FlaskClient) -> int:
    """One stored clean record."""
    response = client.post("/api/records", data=dumps(load_example("hot-shot-weile")), content_type="application/json")
    return int(response.get_json()["results"][0]["record_id"])


def audits(client: FlaskClient, record_id: int) -> int:
    """How many audits the record has."""
    return len(client.get(f"/api/records/{record_id}/audits").get_json())


def test_api_refuses_unknown_and_ill_typed_options(client: FlaskClient, record_id: int) -> None:
    for options, path in (({"nope": 1}, "options.nope"), ({"hot_shot": {"bonus": "x"}}, "options.hot_shot.bonus")):
        response = client.post(f"/api/records/{record_id}/audit", json={"options": options})
        assert response.status_code == 400, response.get_data(as_text=True)
        body = response.get_json()
        assert path in body["details"] and "hot_shot.bonus" in body["details"]["known"] and path in body["message"]
    assert audits(client, record_id) == 1
    good = client.post(f"/api/records/{record_id}/audit", json={"options": {"hot_shot.bonus": 2}, "reason": "R8.3"})
    assert good.status_code == 201 and audits(client, record_id) == 2
    reasons = [e["detail"].get("reason") for e in client.get(f"/api/records/{record_id}/trail").get_json()
               if e["action"] == "reaudit"]
    assert reasons == ["R8.3"]


def test_what_if_page_shows_the_error_with_the_form(client: FlaskClient, record_id: int) -> None:
    response = client.get(f"/records/{record_id}/whatif", query_string={"options": '{"nope": 1}', "lang": "en"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "<code>options.nope</code>" in html and "<code>hot_shot.bonus</code>" in html
    assert 'name="options"' in html and "Store this audit as the latest</button>" not in html


def test_storing_asks_for_confirmation_and_a_reason(client: FlaskClient, record_id: int) -> None:
    form = {"profile": "cuocuo", "options": ""}
    asked = client.post(f"/records/{record_id}/audit", data=form)
    assert asked.status_code == 200 and 'name="reason"' in asked.get_data(as_text=True)
    no_reason = client.post(f"/records/{record_id}/audit", data={**form, "step": "confirm", "confirm": "yes"})
    unticked = client.post(f"/records/{record_id}/audit", data={**form, "step": "confirm", "reason": "why"})
    assert no_reason.status_code == 400 and unticked.status_code == 400 and audits(client, record_id) == 1
    done = client.post(f"/records/{record_id}/audit", data={**form, "step": "confirm", "confirm": "yes",
                                                           "reason": "平台用的是 cuocuo"})
    assert done.status_code == 303 and audits(client, record_id) == 2
    (entry,) = [e for e in client.get(f"/api/records/{record_id}/trail").get_json() if e["action"] == "reaudit"]
    assert entry["detail"]["reason"] == "平台用的是 cuocuo"


def test_a_refused_option_never_reaches_the_store_from_the_form(client: FlaskClient, record_id: int) -> None:
    response = client.post(f"/records/{record_id}/audit", data={"options": '{"nope": 1}', "step": "confirm",
                                                               "confirm": "yes", "reason": "typo"})
    assert response.status_code == 400 and audits(client, record_id) == 1


def test_the_pipeline_refuses_an_audit_made_invalid_by_its_options(store: Store) -> None:
    stored = one(store, load_example("hot-shot-weile"))
    with pytest.raises(OptionsRefused, match="unknown_parameter"):
        Pipeline(store).reaudit(stored.record_id, options={"nope": 1})
    assert len(store.audits(stored.record_id)) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pipelines_refusal_is_a_coded_422_in_the_askers_language(
        client: FlaskClient, record_id: int, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The web layer's check first answers 400; should it ever let an option through that the
    engine then refuses, the pipeline's own refusal (nothing stored) is a 422 `options_invalidate`
    naming the option's path, in the asker's language, never a 500."""
    import web.views

    monkeypatch.setattr(web.views, "check_options", lambda *args, **kwargs: None)
    response = client.post(f"/api/records/{record_id}/audit", json={"options": {"nope": 1}},
                           headers={"Accept-Language": lang})
    assert response.status_code == 422, response.get_data(as_text=True)
    body = response.get_json()
    assert body["code"] == "options_invalidate" and any("nope" in path for path in body["details"])
    assert "nope" in body["message"] and ("审计" in body["message"]) == (lang == "zh")
    assert "unknown_parameter" not in body["message"]  # the finding worded, not its code
    assert audits(client, record_id) == 1
