"""The dispute summary (report/dispute.py) of sample hands: verdicts, seat differences with their
direction, finding anchors, the illegal move drawn both ways, the events a stopped replay left
unjudged. Matched on codes, anchors, tiles and numbers, never on wording."""
from __future__ import annotations

import json
from typing import Any

import pytest

from audit import api
from audit.catalogue import CatalogueError, Lang, render_finding, render_value, seat_label, seat_names
from report.dispute import (TEXTS, TEXTS_FILE, _load_texts, applied_as_recorded, dispute_summary, ledger_anchor,
                           step_anchor, text)
from audit.views import SeatView, StepView
from tests.conftest import ROOT
from tests.helpers import sample_players


def sample(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))


def summary(name: str, lang: str = "zh") -> Any:
    doc = sample(name)
    trace = api.trace_record(doc, lang=lang)
    return dispute_summary(trace.audit, trace, doc, lang), doc


def test_every_text_has_every_language_with_the_same_placeholders(tmp_path: Any) -> None:
    assert set(TEXTS) and all(set(entry) == {lang.value for lang in Lang} for entry in TEXTS.values())
    bad = tmp_path / "dispute.toml"
    bad.write_text('[x]\nen = "{a}"\nzh = "{b}"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="placeholders"):
        _load_texts(bad)
    bad.write_text('[x]\nen = "a"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="languages"):
        _load_texts(bad)
    assert _load_texts(TEXTS_FILE) == TEXTS


def test_a_wrong_wall_tile_is_drawn_before_and_after_with_the_walls_tile() -> None:
    s, doc = summary("illegal-wall-tampered")
    assert s.verdict == "illegal" and not s.settled and s.no_settlement
    (finding,) = s.findings
    assert (finding.code, finding.rule, finding.step, finding.step_anchor, finding.ledger_anchor) == \
        ("draw_wrong_tile", "R2.4", 21, "step-21", None)
    move = s.illegal
    assert move is not None and move.step == 21 and move.code == "draw_wrong_tile"
    assert move.expected_tiles == ("9s",) and move.actual_tiles == ("9m",)
    # before: the table the engine replayed to; after: seat 1 holds the drawn 9m, the wall one shorter
    assert move.before.seats[1].concealed.count("9m") + 1 == move.after.seats[1].concealed.count("9m")
    assert move.after.wall_left == move.before.wall_left - 1
    assert move.expectation and "九条" in move.expectation and "九万" in move.expectation
    assert s.stopped is not None and s.stopped.step == 21
    assert [e.index for e in s.stopped.events] == list(range(22, len(doc["events"])))
    assert s.stopped.events[0].seat == doc["events"][22]["seat"] and s.stopped.events[0].tile == doc["events"][22]["tile"]
    assert str(len(s.stopped.events)) in s.stopped.sentence and "21" in s.stopped.sentence


def test_without_a_settlement_claimed_scores_are_not_differences() -> None:
    s, doc = summary("illegal-wall-tampered")
    assert [line.claimed for line in s.seats] == doc["result"]["scores"]
    assert all(line.computed is None and line.difference is None and not line.differs for line in s.seats)
    assert s.differing_seats == ()


def test_a_discard_not_held_shows_the_tile_in_the_river_after_the_move() -> None:
    s, _ = summary("illegal-discard-not-held", "en")
    move = s.illegal
    assert move is not None and move.actual_tiles == ("1m",) and move.expected_tiles == ()
    assert move.after.seats[1].discards == (*move.before.seats[1].discards, "1m")
    assert move.after.seats[1].concealed == move.before.seats[1].concealed  # it held none to take out


def test_a_must_win_finding_links_the_window_it_did_not_use() -> None:
    s, _ = summary("illegal-must-win-hot-shot")
    (finding,) = s.findings
    assert finding.code == "must_win_hot_shot" and finding.step == 3
    assert finding.related_steps == (finding_params("illegal-must-win-hot-shot")["window_step"],)
    assert s.stopped is not None and [e.index for e in s.stopped.events] == [4]


def finding_params(name: str) -> dict[str, Any]:
    audit = json.loads((ROOT / "samples" / f"{name}.audit.json").read_text(encoding="utf-8"))
    params: dict[str, Any] = audit["findings"][0]["params"]
    return params


def test_missettled_seats_carry_record_minus_audit_and_findings_their_ledger_row() -> None:
    s, doc = summary("missettled-rob-paid-by-three")
    audit = json.loads((ROOT / "samples" / "missettled-rob-paid-by-three.audit.json").read_text(encoding="utf-8"))
    assert s.verdict == "missettled" and s.settled and s.illegal is None and s.stopped is None
    for line, computed, claimed in zip(s.seats, audit["settlement"]["scores"], doc["result"]["scores"]):
        assert (line.computed, line.claimed, line.difference) == (computed, claimed, claimed - computed)
    assert {line.seat for line in s.differing_seats} == {i for i, line in enumerate(s.seats) if line.differs}
    assert [f.ledger_anchor for f in s.findings] == \
        [ledger_anchor("hand", f["params"]["payer"], f["params"]["payee"]) for f in audit["findings"]]
    # a settlement finding links to its ledger row and to the step that made the payment due: the win
    win = next(i for i, ev in enumerate(doc["events"]) if ev["type"] == "win")
    assert all(f.step == win and f.step_anchor == step_anchor(win) for f in s.findings)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_finding_is_the_catalogues_sentence_in_the_language(lang: str) -> None:
    for name in ("missettled-rob-paid-by-three", "illegal-pass-locked", "missettled-flip", "missettled-next-dealer"):
        s, _ = summary(name, lang)
        audit = json.loads((ROOT / "samples" / f"{name}.audit.json").read_text(encoding="utf-8"))
        assert [f.sentence for f in s.findings] == [render_finding(f, lang, sample_players(name)) for f in audit["findings"]]
        assert s.direction == text("direction", lang) and s.lang.value == lang


def test_flip_and_next_dealer_findings_point_at_their_rows() -> None:
    flip, _ = summary("missettled-flip")
    assert "flip" in {f.ledger_anchor for f in flip.findings}
    dealer, _ = summary("missettled-next-dealer")
    assert "next-dealer" in {f.ledger_anchor for f in dealer.findings}


def test_a_clean_hand_has_no_differences_and_nothing_stopped() -> None:
    s, _ = summary("clean-kuhu-triple")
    assert s.verdict == "clean" and s.settled and not s.findings and s.differing_seats == ()
    assert s.illegal is None and s.stopped is None


def test_a_record_the_engine_cannot_replay_still_has_a_summary() -> None:
    doc = sample("invalid-schema")
    audit = api.audit_record(doc, lang="zh")
    s = dispute_summary(audit, None, doc, "zh")
    assert s.verdict == "invalid" and s.illegal is None and s.stopped is None and s.findings


def test_anchors() -> None:
    assert (step_anchor(-1), step_anchor(None), step_anchor(7)) == ("step-deal", "step-deal", "step-7")
    assert ledger_anchor("dou", 1, None) == "ledger-dou-1-none"


def test_applied_as_recorded_lays_down_a_pong_from_the_givers_river() -> None:
    seats = (SeatView(("5m",), (), ("2p",), False, False), SeatView(("2p", "2p", "3s"), (), (), False, False))
    before = StepView(4, None, seats, 50, (), ())
    after = applied_as_recorded(before, {"type": "pong", "seat": 1, "tile": "2p", "from": 0}, 5)
    assert after.seats[0].discards == () and after.seats[1].concealed == ("3s",)
    assert after.seats[1].melds[0].kind == "pong" and after.seats[1].melds[0].from_seat == 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_illegal_hand_says_its_payments_have_no_basis_and_what_undoing_them_means(lang: str) -> None:
    """Issue 20 point 3: the rulebook settles nothing after an illegal move; each seat's line says
    what undoing the record means (returns its gain, gets back its loss), and the illegal mover and
    step are named. Matched on the texts' own entries with the record's numbers, not on wording."""
    s, doc = summary("illegal-wall-tampered", lang)
    claimed = doc["result"]["scores"]
    (finding,) = [f for f in s.findings if f.kind == "illegal"] or list(s.findings)[:1]
    mover = api.audit_record(doc)["findings"][0]["seat"]
    names = seat_names(doc)
    assert s.no_settlement == _no_basis_text(seat_label(mover, lang, names), finding.step, Lang(lang))
    for line, score in zip(s.seats, claimed, strict=True):
        seat = seat_label(line.seat, lang, names)
        if score > 0:
            want = text("seat_undo_returns", Lang(lang), seat=seat, claimed=f"+{score}", amount=score)
        elif score < 0:
            want = text("seat_undo_gets_back", Lang(lang), seat=seat, claimed=str(score), amount=-score)
        else:
            want = text("seat_undo_nothing", Lang(lang), seat=seat)
        assert line.sentence == want


def _no_basis_text(seat: str, step: int | None, lang: Lang) -> str:
    return text("illegal_no_basis", lang, seat=seat, step=step)
