"""records.cases: open, attach (any revision), decide on an attached record's audit, close and
reopen; every change in the trail; decisions append-only (issue 11)."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from records import cases, trail
from records.cases import CaseError, CaseQuery
from records.db import atomic
from records.rows import now
from records.store import Store
from records.verify import verify as verify_store
from tests.conftest import load_example, missettled, variant
from tests.records.test_store import one


def opened(store: Store, number: str = "K-1", platform: str = "alpha") -> int:
    """A new case."""
    with atomic(store.db):
        return cases.open_case(store.db, number=number, platform=platform, player="阿明",
                               complaint="我少收了 3 分", actor="au", at=now(), key=store.trail_key)


def change(store: Store, work: Callable[..., Any], **kwargs: Any) -> Any:
    """One change in a transaction."""
    with atomic(store.db):
        return work(store.db, actor="au", at=now(), key=store.trail_key, **kwargs)


def test_a_case_from_complaint_to_closing(store: Store) -> None:
    doc = variant(load_example("hot-shot-weile"), platform="alpha", game_id="G-1")
    first = one(store, doc)
    second = one(store, missettled(doc))
    case_id = opened(store)
    attached, new = change(store, cases.attach, case_id=case_id, record_id=second.record_id, revision=1)
    assert (attached, new) == (first.record_id, True)  # revision 1 of the same game
    assert change(store, cases.attach, case_id=case_id, record_id=second.record_id, revision=None)[1] is True
    assert change(store, cases.attach, case_id=case_id, record_id=second.record_id, revision=None)[1] is False
    assert [row["id"] for row in cases.attached(store.db, case_id)] == [first.record_id, second.record_id]
    audit_id = store.record(second.record_id)["latest_audit_id"]
    payments = [{"from": "P0", "to": "P1", "amount": 3}]
    change(store, cases.decide, case_id=case_id, outcome="upheld", note="r2 pays P1 3 too little",
           payments=payments, audit_id=audit_id)
    assert cases.case_row(store.db, case_id)["status"] == "decided"
    change(store, cases.close, case_id=case_id)
    with pytest.raises(CaseError) as refused:
        change(store, cases.attach, case_id=case_id, record_id=first.record_id, revision=None)
    assert refused.value.status == 409
    change(store, cases.reopen, case_id=case_id)
    assert cases.case_row(store.db, case_id)["status"] == "decided"
    (decision,) = cases.decisions(store.db, case_id)
    assert decision["payments"] == payments and decision["audit_id"] == audit_id
    actions = [entry["action"] for entry in trail.entries(store.db) if entry["action"].startswith("case-")]
    assert actions == ["case-reopen", "case-close", "case-decide", "case-attach", "case-attach", "case-open"]
    assert verify_store(store.db, store.trail_key) == []


def test_refusals_name_their_field(store: Store) -> None:
    beta = one(store, variant(load_example("hot-shot-weile"), platform="beta"))
    case_id = opened(store)
    with pytest.raises(CaseError) as taken:
        opened(store)
    assert (taken.value.status, taken.value.field) == (409, "number")
    with pytest.raises(CaseError) as other:
        change(store, cases.attach, case_id=case_id, record_id=beta.record_id, revision=None)
    assert (other.value.status, other.value.field) == (400, "record")
    with pytest.raises(CaseError) as missing:
        change(store, cases.attach, case_id=case_id, record_id=beta.record_id, revision=7)
    assert (missing.value.status, missing.value.field) == (404, "revision")
    with pytest.raises(CaseError) as not_attached:
        change(store, cases.decide, case_id=case_id, outcome="upheld", note="x", payments=[],
               audit_id=store.record(beta.record_id)["latest_audit_id"])
    assert (not_attached.value.status, not_attached.value.field) == (400, "audit")
    with pytest.raises(CaseError) as undecided:
        change(store, cases.close, case_id=case_id)
    assert undecided.value.status == 409
    with pytest.raises(CaseError) as nowhere:
        cases.case_row(store.db, 999)
    assert nowhere.value.status == 404


def test_decisions_are_append_only_and_the_last_stands(store: Store) -> None:
    case_id = opened(store)
    change(store, cases.decide, case_id=case_id, outcome="dismissed", note="first", payments=[], audit_id=None)
    change(store, cases.decide, case_id=case_id, outcome="upheld", note="second", payments=[], audit_id=None)
    assert [d["note"] for d in cases.decisions(store.db, case_id)] == ["first", "second"]
    assert cases.find(store.db, CaseQuery()).rows[0]["outcome"] == "upheld"
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute("UPDATE case_decisions SET outcome = 'dismissed'")


def test_case_list_filters(store: Store) -> None:
    opened(store, "K-1", "alpha")
    opened(store, "K-2", "beta")
    assert cases.find(store.db, CaseQuery(platform="beta")).total == 1
    assert cases.find(store.db, CaseQuery(number="K-1")).total == 1
    assert cases.find(store.db, CaseQuery(q="少收")).total == 2
    assert cases.find(store.db, CaseQuery(q="k-2")).total == 1
    page = cases.find(store.db, CaseQuery(status="open"))
    assert page.total == 2 and page.counts == {"open": 2, "decided": 0, "closed": 0}


def test_numbers_follow_a_yearly_sequence_per_platform(store: Store) -> None:
    def open_at(at: str, platform: str = "alpha", number: str | None = None) -> str:
        with atomic(store.db):
            case_id = cases.open_case(store.db, number=number, platform=platform, player=None, complaint="x",
                                      actor="au", at=at, key=store.trail_key)
        return str(cases.case_row(store.db, case_id)["number"])
    assert open_at("2026-03-01T00:00:00Z") == "2026-0001"
    assert open_at("2026-03-02T00:00:00Z") == "2026-0002"
    assert open_at("2026-03-02T00:00:00Z", "beta") == "2026-0001"
    assert open_at("2027-01-01T00:00:00Z") == "2027-0001"  # a new year starts again
    assert open_at("2026-04-01T00:00:00Z", number="2026-12a") == "2026-12a"  # another shape: kept, not counted
    assert open_at("2026-04-01T00:00:00Z", number="2026-09999") == "2026-09999"
    assert cases.next_number(store.db, "alpha", "2026-05-01T00:00:00Z") == "2026-10000"
    with pytest.raises(CaseError) as taken:
        open_at("2026-05-01T00:00:00Z", number="2026-0001")
    assert (taken.value.status, taken.value.code, taken.value.field) == (409, "case_number_taken", "number")
    assert cases.by_number(store.db, "beta", "2026-0001") is not None
    assert cases.by_number(store.db, "gamma", "2026-0001") is None


def test_the_database_refuses_a_number_twice_on_one_platform(store: Store) -> None:
    opened(store, "K-1", "alpha")
    opened(store, "K-1", "beta")  # another platform: allowed
    with pytest.raises(sqlite3.IntegrityError):
        with atomic(store.db):
            store.db.execute("INSERT INTO cases (number, platform, complaint, status, created_at, text) "
                             "VALUES ('K-1', 'alpha', 'x', 'open', 'now', 'x')")


def test_the_disputed_record_is_the_first_attached(store: Store) -> None:
    doc = variant(load_example("hot-shot-weile"), platform="alpha", game_id="G-1")
    first = one(store, doc)
    second = one(store, missettled(doc))
    case_id = opened(store)
    assert cases.disputed(store.db, case_id) is None
    at = now()
    with atomic(store.db):  # the same instant: the order of attaching decides, not the record ids
        cases.attach(store.db, case_id=case_id, record_id=second.record_id, revision=None, actor="au", at=at,
                     key=store.trail_key)
        cases.attach(store.db, case_id=case_id, record_id=first.record_id, revision=None, actor="au", at=at,
                     key=store.trail_key)
    assert cases.disputed(store.db, case_id) == second.record_id
    assert [row["id"] for row in cases.attached(store.db, case_id)] == [second.record_id, first.record_id]
