"""Ranges that hold end to end (issue 22.2): for every integer field of `zhuoji/1` with a range
(audit/ranges.py), the boundary values go through every layer the same way: the schema
(marshmallow), its compiled twin, the published JSON Schema, the upload (store), the API's answer
and `python -m batch --from-db` all accept a value inside the range and all refuse one outside,
at the door (the upload: 422 naming the path, nothing stored).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from jsonschema import Draft202012Validator

from audit.ranges import FIELDS, IntRange
from audit.schema import validate_record
from audit.structure import structure_ok
from kit.schemas import schema_bytes
from tests.conftest import dumps, load_example, login
from tests.helpers import integers

INT64 = (-(2**63), 2**63 - 1)
RECORD_SCHEMA = Draft202012Validator(json.loads(schema_bytes("zhuoji-1.json")))


def _set(doc: dict[str, Any], field: str, value: int) -> str:
    """Put `value` at the field's first place; its JSON path."""
    if field == "dice[]":
        doc["dice"] = [value, 1]
        return "dice[0]"
    if field == "result.scores[]":
        doc["result"]["scores"][0] = value
        return "result.scores[0]"
    if field == "result.items[].amount":
        doc["result"]["items"] = [{"kind": "hand", "from": 1, "to": 0, "amount": value}]
        return "result.items[0].amount"
    doc[field] = value
    return field


def _get(doc: dict[str, Any], path: str) -> Any:
    value: Any = doc
    for part in path.replace("[", ".").replace("]", "").split("."):
        value = value[int(part)] if part.isascii() and part.isnumeric() else value[part]
    return value


def _boundaries(r: IntRange) -> list[tuple[int, bool]]:
    values = {r.low - 1: False, r.low: True, r.high: True, r.high + 1: False, INT64[1]: r.holds(INT64[1]),
              INT64[0]: r.holds(INT64[0]), 2**62: r.holds(2**62)}
    return sorted(values.items())


CASES = [(field, value, inside) for field, r in FIELDS.items() for value, inside in _boundaries(r)]


def test_the_json_schema_says_the_ranges_of_the_table() -> None:
    schema = json.loads(schema_bytes("zhuoji-1.json"))
    props = schema["properties"]
    defs = schema["$defs"]
    published = {
        "base": props["base"], "dealer_streak": props["dealer_streak"], "dice[]": props["dice"]["items"],
        "result.scores[]": defs["result"]["properties"]["scores"]["items"],
        "result.items[].amount": defs["item4"]["properties"]["amount"],
    }
    for field, r in FIELDS.items():
        assert (published[field]["minimum"], published[field]["maximum"]) == (r.low, r.high), field
        assert INT64[0] <= r.low and r.high <= INT64[1]


def test_every_boundary_value_goes_through_every_layer_the_same_way(app: Flask, tmp_path: Path) -> None:
    from batch.rows import Settings
    from batch.store_source import plan_store
    from batch.work import run_partition
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    client = login(app)
    base = load_example("hot-shot-weile")
    stored: dict[str, tuple[str, int]] = {}
    for n, (field, value, inside) in enumerate(CASES):
        doc = copy.deepcopy(base)
        doc["game_id"] = f"range-{n}"
        path = _set(doc, field, value)
        schema_errors = [e for e in validate_record(doc) if e.path == path]
        layers = {"schema": not schema_errors, "fast path": structure_ok(doc), "json schema": RECORD_SCHEMA.is_valid(doc)}
        response = client.post("/api/records", data=dumps(doc), content_type="application/json")
        layers["upload"] = response.status_code == 201
        assert layers == dict.fromkeys(layers, inside), (field, value, layers, response.get_data(as_text=True)[:300])
        if not inside:
            result = response.get_json()["results"][0]
            assert response.status_code == 422 and result["record_id"] is None
            assert any(e["path"] == path and e["code"] == "int_out_of_range" or e["path"] == path
                       for e in result["errors"]), result
            continue
        record_id = response.get_json()["results"][0]["record_id"]
        detail = client.get(f"/api/records/{record_id}")
        assert detail.status_code == 200
        body = detail.get_json()
        assert _get(body["document"], path) == value
        for number in integers(body):
            assert INT64[0] <= number <= INT64[1], (field, value, number)
        stored[doc["game_id"]] = (path, value)
    assert client.get("/api/records", query_string={"per_page": 200}).get_json()["total"] == len(stored)

    out = tmp_path / "batch"
    for sub in ("hands", "findings", "parts"):
        (out / sub).mkdir(parents=True)
    database = app.config["DATABASE"]
    partitions = plan_store(database)
    for index, partition in enumerate(partitions):
        run_partition(index, partition, Settings(), str(out))  # writes Parquet: int64 columns refuse overflow
    rows = [row for file in sorted((out / "hands").glob("*.parquet")) for row in pq.read_table(file).to_pylist()]
    assert {row["game_id"] for row in rows} == set(stored)
    for row in rows:
        path, value = stored[row["game_id"]]
        assert row["verdict"] != "invalid", row
        if path == "result.scores[0]":
            assert row["claimed_scores"][0] == value


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_each_range_is_documented_in_trust_md(field: str) -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "trust.md").read_text(encoding="utf-8")
    r = FIELDS[field]
    assert f"`{field}`" in text and f"{r.high:,}".replace(",", " ") in text.replace(",", " ")


OPTION_CASES = [(2**62, False), (2**63 - 1, False), (2**64, False), (1_001, False), (1_000, True), (0, True)]
"""`hot_shot.bonus` in a record's own `rules.options` (its range: audit/ranges.py `UNITS`)."""


def test_a_records_options_are_ranged_in_the_upload_the_reaudit_and_the_batch(app: Flask, tmp_path: Path) -> None:
    """Issue 34.1: a record's `rules.options` integer past its parameter's range was stored with audits
    holding integers past 64 bits and failed every batch partition holding it; now the record is stored
    `invalid` with the P finding naming its path, the API's answer stays inside 64 bits, a re-audit
    with such options is refused (400, nothing stored), and the batch writes a row for every hand."""
    from batch.rows import Settings
    from batch.store_source import plan_store
    from batch.work import run_partition
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    client = login(app)
    base = load_example("hot-shot-weile")
    ids: dict[str, bool] = {}
    for n, (value, inside) in enumerate(OPTION_CASES):
        doc = copy.deepcopy(base)
        doc["game_id"] = f"option-range-{n}"
        doc["rules"]["options"] = {"hot_shot": {"bonus": value}}
        response = client.post("/api/records", data=dumps(doc), content_type="application/json")
        if value > INT64[1]:  # past 64 bits the strict reader refuses the body itself (issue 22.2)
            assert response.status_code == 422 and response.get_json()["results"][0]["record_id"] is None
            continue
        assert response.status_code == 201, (value, response.get_data(as_text=True)[:300])
        record_id = response.get_json()["results"][0]["record_id"]
        audit = client.get(f"/api/records/{record_id}/audit").get_json()
        codes = {(f["code"], f["params"].get("path")) for f in audit["findings"]}
        assert (audit["verdict"] == "invalid") is not inside, (value, audit["verdict"])
        if not inside:
            assert ("parameter_out_of_range", "rules.options (hot_shot.bonus)") in codes, codes
        for number in integers(client.get(f"/api/records/{record_id}").get_json()):
            assert INT64[0] <= number <= INT64[1]
        ids[doc["game_id"]] = inside
    first = record_id  # the last upload: in range
    for value in (2**62, 2**63 - 1, 1_001):
        before = len(client.get(f"/api/records/{first}/audits").get_json())
        refused = client.post(f"/api/records/{first}/audit", json={"options": {"hot_shot.bonus": value}})
        assert refused.status_code == 400 and refused.is_json, value
        assert "parameter_out_of_range" in refused.get_data(as_text=True)
        assert len(client.get(f"/api/records/{first}/audits").get_json()) == before

    out = tmp_path / "batch"
    for sub in ("hands", "findings", "parts"):
        (out / sub).mkdir(parents=True)
    for index, partition in enumerate(plan_store(app.config["DATABASE"])):
        run_partition(index, partition, Settings(), str(out))
    rows = [row for file in sorted((out / "hands").glob("*.parquet")) for row in pq.read_table(file).to_pylist()]
    assert {row["game_id"] for row in rows} == set(ids)
    for row in rows:
        assert (row["verdict"] == "invalid") is not ids[row["game_id"]], row
