"""Issue 20, point 6: a client that answers with scores only is told the rule it gets wrong by the
audit's attribution (R16.16), the same machinery as a record's: planted faults of a client that
ignores the 见豆三 table, or reads the flip as the next rank where the profile plays up-and-down."""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from audit.api import audit_record
from audit.explain import settle_under
from audit.profiles import resolve
from audit.replay import replay
from audit.settle import net_scores, settle
from kit.build import build_kit, write_kit
from kit.cli import run

OPTIONS: dict[str, Any] = {"jian_dou_san": True, "flip": "up_down"}
"""A cuocuo client with both: the kit's cases are settled under them."""

Misread = Callable[[dict[str, Any]], dict[str, Any]]
FAULTS: dict[str, tuple[Misread, set[str] | None]] = {
    "jian_dou_san_ignored": (lambda o: {k: v for k, v in o.items() if k != "jian_dou_san"}, None),
    "flip_read_as_next": (lambda o: {**o, "flip": "next"}, {"R11.5"}),
}
"""Each planted fault: how the client misreads the profile, and the rule the check must name (None:
the rules the item-by-item audit of the same answer cites, the 见豆三 table changing several)."""


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    write_kit(build_kit("cuocuo", OPTIONS, cases=60, seed=5, min_count=2), out)
    return out


def answers(kit: Path, misread: Misread) -> tuple[list[str], dict[str, set[str]]]:
    """The client's scores-only answers, and per changed case the rules its itemised answer is cited under."""
    manifest = json.loads((kit / "manifest.json").read_text("utf-8"))
    lines, want = [], {}
    for case in manifest["cases"]:
        rec = json.loads((kit / case["file"]).read_text("utf-8"))
        rep = replay(rec, resolve(rec["rules"]["profile"], rec["rules"].get("options")))
        if case["kind"] == "rejection":
            lines.append(json.dumps({"case": case["id"], "rejected_at": rep.finding.step if rep.finding else None}))
            continue
        sett, base = settle(rep.state), rec.get("base", 1)
        items = settle_under(rep.state, resolve(rec["rules"]["profile"], misread(rec["rules"].get("options") or {})))
        scores = [s * base for s in net_scores(items, sett.n)]
        lines.append(json.dumps({"case": case["id"], "scores": scores, "next_dealer": sett.next_dealer,
                                 "flip": None if sett.flip is None else json.loads(json.dumps(
                                     sett.to_json(base)["flip"]))}))
        if scores != [s * base for s in sett.scores()]:
            rec["result"] = {"scores": scores, "next_dealer": sett.next_dealer, "flip": sett.to_json(base)["flip"],
                             "items": [{"kind": i.kind.value, "from": i.payer, "to": i.payee, "amount": i.amount * base}
                                       for i in items]}
            want[case["id"]] = {f["rule"] for f in audit_record(rec)["findings"] if f["code"].startswith("item_")}
    return lines, want


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_scores_only_client_is_told_the_rule_it_breaks(kit: Path, tmp_path: Path, fault: str) -> None:
    misread, rule = FAULTS[fault]
    lines, want = answers(kit, misread)
    assert len(want) >= 3, f"the kit has too few cases where {fault} matters"
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    run(["check", str(kit), str(path), "--json", str(tmp_path / "r.json")], out, err)
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    failing = {c["case"]: c for c in report["cases"] if not c["passed"]}
    assert set(failing) == set(want)
    for case, rules in want.items():
        expected = rule if rule is not None else rules
        assert expected & set(failing[case]["cited_rules"]), (case, expected, failing[case]["cited_rules"])
