"""audit/views.py: a step marker is a value (kind, seat, tile, rule) and each kind cites its rule."""
from __future__ import annotations

import dataclasses

import pytest

from audit import rulebook
from audit.views import Marker, MarkerKind
from tests.conftest import ROOT
from tests.imports import import_graph


def test_every_marker_kind_cites_a_rule_of_the_rulebook() -> None:
    for kind in MarkerKind:
        rule = rulebook.lookup(kind.rule)
        assert rule is not None and rule.code == kind.rule, kind
    assert MarkerKind.PASS_LOCK.rule == "R13.1" and MarkerKind.LATE_KONG.rule == "R4.6"


def test_a_marker_is_a_frozen_value_citing_its_kinds_rule() -> None:
    marker = Marker.of(MarkerKind.CHARGE_CHICKEN, tile="1s")
    assert marker == Marker(MarkerKind.CHARGE_CHICKEN, None, "1s", "R11.3")
    assert hash(marker) == hash(Marker.of(MarkerKind.CHARGE_CHICKEN, tile="1s"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        marker.seat = 2  # type: ignore[misc]


def audit_imports(name: str) -> set[str]:
    """The audit modules a module of the engine imports, at the top or inside functions."""
    graph, _ = import_graph(ROOT)
    return {module for module in graph[f"audit.{name}"] if module.startswith("audit")}


def test_the_views_import_nothing_of_the_engine_and_the_trace_not_the_public_face() -> None:
    assert audit_imports("views") == set()
    assert "audit.api" not in audit_imports("trace") and "audit.views" in audit_imports("api")
