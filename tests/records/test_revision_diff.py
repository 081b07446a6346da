"""records/revision_diff.py: what differs between two revisions of a game, by path and by entry."""
from __future__ import annotations

import copy
import json

from records.revision_diff import revision_diff
from tests.conftest import ROOT


def sample() -> dict:
    loaded: dict = json.loads((ROOT / "samples" / "missettled-flip.json").read_text(encoding="utf-8"))
    return loaded


def test_the_same_record_has_no_difference() -> None:
    doc = sample()
    diff = revision_diff(doc, copy.deepcopy(doc))
    assert diff.identical and diff.same_events == len(doc["events"])


def test_a_changed_field_and_a_seat_name_are_named_by_path() -> None:
    old, new = sample(), sample()
    new["result"]["flip"] = "9s"
    new["seats"][1]["name"] = "someone else"
    diff = revision_diff(old, new)
    assert {c.path for c in diff.fields} == {"result.flip", "seats[1].name"}
    assert not diff.events and not diff.items


def test_an_inserted_event_is_one_insertion_not_every_later_event() -> None:
    old, new = sample(), sample()
    new["events"].insert(5, {"type": "pass", "seat": 2})
    diff = revision_diff(old, new)
    assert [(c.op, [i for i, _ in c.old], [i for i, _ in c.new]) for c in diff.events] == [("insert", [], [5])]
    assert diff.same_events == len(old["events"])


def test_result_items_differ_as_entries() -> None:
    old, new = sample(), sample()
    new["result"]["items"] = [{"kind": "dou", "from": 1, "to": 0, "amount": 3}]
    diff = revision_diff(old, new)
    assert diff.items and all(c.op in ("replace", "insert", "delete") for c in diff.items)
    assert revision_diff(None, []).identical
