"""The what-if options as form fields (issue 23, point 1): the fields of a profile's parameters are
named in Chinese from parameters.toml and set to the profile's values; only a changed field
becomes an option, and the audit under it is the one the JSON options give."""
from __future__ import annotations

import json
import re
from html import unescape

from flask.testing import FlaskClient

from audit.profiles import load_profile, to_data
from audit.rulebook import parameters
from tests.conftest import ROOT
from web.whatif_fields import form_options, option_fields


def test_fields_are_the_profiles_values_in_chinese() -> None:
    fields = {field.name: field for field in option_fields("weile", None, "zh")}
    data = to_data(load_profile("weile"))
    assert fields["hot_shot.burn"].label == parameters()["hot_shot.burn"]["zh"]
    assert fields["hot_shot.burn"].value == data["hot_shot"]["burn"] and not fields["hot_shot.burn"].changed
    assert {c.value for c in fields["hot_shot.burn"].choices} == set(parameters()["hot_shot.burn"]["values"])
    assert all(field.kind in ("bool", "choice", "int") for field in fields.values()) and "players" not in fields


def test_only_changed_fields_become_options() -> None:
    form = {f"opt.{field.name}": str(field.value).lower() if isinstance(field.value, bool) else str(field.value)
            for field in option_fields("weile", None, "en")}
    assert form_options(form, "weile", None) is None
    del form["opt.chicken.charge"]  # a field left out of the form: the JSON box's value stands
    other = "that_kong" if form["opt.hot_shot.burn"] != "that_kong" else "all"
    assert form_options({**form, "opt.hot_shot.burn": other}, "weile", {"chicken": {"charge": 5}}) == \
        {"hot_shot.burn": other, "chicken.charge": 5}


def test_the_page_runs_the_fields_as_the_json_options(client: FlaskClient) -> None:
    body = (ROOT / "samples" / "missettled-burn-not-applied.json").read_bytes()
    (result,) = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
    record_id = result["record_id"]
    by_fields = client.get(f"/records/{record_id}/whatif", query_string={"opt.hot_shot.burn": "that_kong", "lang": "zh"})
    by_json = client.get(f"/records/{record_id}/whatif", query_string={
        "options": json.dumps({"hot_shot": {"burn": "that_kong"}}), "lang": "zh"})
    assert by_fields.status_code == by_json.status_code == 200
    verdicts = [re.findall(r'class="verdict verdict-(\w+)"', r.get_data(as_text=True)) for r in (by_fields, by_json)]
    assert verdicts[0] == verdicts[1]
    page = unescape(by_fields.get_data(as_text=True))
    assert parameters()["hot_shot.burn"]["values"]["that_kong"]["zh"] in page  # the option told in words
    assert '"hot_shot.burn": "that_kong"' in page  # kept for the store form as JSON (a hidden field)
