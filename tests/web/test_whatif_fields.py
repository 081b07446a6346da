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


def _upload(client: FlaskClient, sample: str) -> int:
    body = (ROOT / "samples" / f"{sample}.json").read_bytes()
    (result,) = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
    return int(result["record_id"])


def _scores(page: str) -> list[str]:
    return re.findall(r'<td class="[^"]*">(-?\d+)</td>\s*</tr>', page)


def test_switching_the_profile_sends_no_field_of_the_other(client: FlaskClient) -> None:
    """Issue 33.1a: the fields drawn for 微乐 submitted with the select switched to 搓搓 ask for 搓搓 as it
    is (no option), not 搓搓 with 微乐's 15 differing values as overrides."""
    record_id = _upload(client, "missettled-burn-not-applied")
    form = {f"opt.{field.name}": str(field.value).lower() if isinstance(field.value, bool) else str(field.value)
            for field in option_fields("weile", None, "en")}
    switched = client.get(f"/records/{record_id}/whatif",
                          query_string={**form, "fields_for": "weile", "profile": "cuocuo", "lang": "zh"})
    plain = client.get(f"/records/{record_id}/whatif", query_string={"profile": "cuocuo", "lang": "zh"})
    assert switched.status_code == plain.status_code == 200
    assert form_options(form, "weile", None) is None
    keep = re.compile(r'name="options" value="([^"]*)"')
    assert keep.findall(switched.get_data(as_text=True))[-1] == keep.findall(plain.get_data(as_text=True))[-1] == ""
    assert _scores(switched.get_data(as_text=True)) == _scores(plain.get_data(as_text=True))
    changed = client.get(f"/records/{record_id}/whatif", query_string={
        **form, "opt.hot_shot.bonus": "7", "fields_for": "weile", "profile": "cuocuo", "lang": "zh"})
    assert unescape(keep.findall(changed.get_data(as_text=True))[-1]) == '{"hot_shot.bonus": 7}'


def test_a_number_field_reads_ascii_digits_only(client: FlaskClient) -> None:
    """Issue 34.1: `int()` read `٥`, `５`, `+5`, `5_0` and 4,000 digits; each is now refused (400, the
    request path named), and a value past the parameter's range too; nothing runs."""
    record_id = _upload(client, "missettled-burn-not-applied")
    for text in ("٥", "５", "+5", "5_0", "9" * 4000, str(2**63 - 1), "1001"):
        reply = client.get(f"/records/{record_id}/whatif",
                           query_string={"opt.hot_shot.bonus": text, "fields_for": "weile", "lang": "zh"})
        assert reply.status_code == 400, text
        assert "options.hot_shot.bonus" in reply.get_data(as_text=True), text
        assert len(reply.get_data(as_text=True)) < 200_000
    fields = {field.name: field for field in option_fields("weile", None, "zh")}
    assert fields["hot_shot.bonus"].span is not None and fields["hot_shot.bonus"].span.high == 1000
