"""The replay as the table (report/table.py) and the match page's data (report/match.py), checked
against the engine's trace and audits and against the record's own events, for sample hands:
the seats, the ponds in order with the claimed tiles marked, the wall count, the win screen, the
running totals and the continuity checks. Matched on tiles, seats, steps, numbers and codes."""
from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from audit import api
from audit.views import Trace
from report.match import Check, HandInput, Outcome, match_view
from report.model import build_report
from report.table import Place, TableView, opening_position, ponds, table_view
from tests.conftest import ROOT

HANDS = ("clean-kuhu-triple", "clean-weile-rob-double", "clean-guizhou-3p", "clean-kuhu-draw", "clean-senyan-kongs",
         "illegal-pass-locked", "missettled-rob-paid-by-three")


def sample(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))


def view_of(doc: dict[str, Any]) -> tuple[Trace, TableView]:
    trace = api.trace_record(doc, lang="zh")
    model = build_report(doc, trace.audit, trace, "zh")
    view = table_view(trace, doc["dealer"], totals=model.totals, ledger=model.ledger,
                      chicken_lines=model.chicken_lines, settled=model.settled)
    assert view is not None
    return trace, view


def claims_from_events(events: list[dict[str, Any]], last: int) -> dict[tuple[int, int], int]:
    """(discarder, discard step) -> claimer, read from the record's events alone: a discard whose
    next event (passes skipped) is a pong, an exposed kong or a win on it by another seat."""
    out = {}
    for i, ev in enumerate(events[:last + 1]):
        if ev["type"] != "discard":
            continue
        j = i + 1
        while j <= last and events[j]["type"] == "pass":
            j += 1
        if j > last:
            continue
        nxt = events[j]
        taken = nxt["type"] == "pong" or (nxt["type"] == "kong" and nxt.get("kind") == "exposed") or (
            nxt["type"] == "win" and nxt.get("kind", "discard") == "discard" and nxt["seat"] != ev["seat"])
        if taken and nxt.get("tile") == ev["tile"]:
            out[(ev["seat"], i)] = nxt["seat"]
    return out


@pytest.mark.parametrize("name", HANDS)
def test_every_step_is_the_traces_table_with_every_discard_in_order(name: str) -> None:
    doc = sample(name)
    trace, view = view_of(doc)
    assert len(view.steps) == len(trace.steps) and view.seats == len(doc["seats"])
    for step, sv in zip(view.steps, trace.steps):
        assert (step.index, step.wall_left) == (sv.index, sv.wall_left)
        panels = view.seat_panels(step)
        assert [p.seat for p in panels] == list(range(view.seats))
        for panel, seat in zip(panels, sv.seats):
            # the pond less its claimed tiles is the engine's pond, in the same order
            assert tuple(t.tile for t in panel.pond if not t.claimed) == seat.discards
            assert panel.melds == seat.melds and (panel.declared, panel.locked, panel.won) == \
                (seat.declared, seat.locked, seat.won)
            apart = Counter(seat.concealed) - Counter(panel.concealed)
            assert sum(apart.values()) <= 2 and set(apart) <= {panel.drawn, panel.won}
            assert not Counter(panel.concealed) - Counter(seat.concealed)
    last = trace.steps[-1].index
    if any(f.get("kind") == "illegal" and f.get("step") == last for f in trace.steps[-1].findings):
        last -= 1  # the replay refused that move: the table is the one before it
    claims = claims_from_events(doc["events"], last)
    final = view.seat_panels(view.steps[-1])
    for number, panel in enumerate(final):
        discards = [(i, ev["tile"]) for i, ev in enumerate(doc["events"][:last + 1])
                    if ev["type"] == "discard" and ev["seat"] == number]
        assert [(t.step, t.tile) for t in panel.pond] == discards  # every discard, in the order made
        assert {(number, t.step): t.claimed_by for t in panel.pond if t.claimed} == \
            {k: v for k, v in claims.items() if k[0] == number}


def test_a_claimed_discard_stays_in_its_pond_marked_with_the_claimer() -> None:
    doc = sample("clean-guizhou-3p")
    trace, view = view_of(doc)
    pong = next(i for i, ev in enumerate(doc["events"]) if ev["type"] == "pong")
    discard = max(i for i, ev in enumerate(doc["events"][:pong]) if ev["type"] == "discard")
    before, after = view.step_at(view.position_of(discard) or 0), view.step_at(view.position_of(pong) or 0)
    discarder = doc["events"][discard]["seat"]
    pond_before = view.panels[before.panels[discarder]].pond
    pond_after = view.panels[after.panels[discarder]].pond
    assert len(pond_before) == len(pond_after) and not pond_before[-1].claimed
    assert (pond_after[-1].claimed_by, pond_after[-1].claim, pond_after[-1].step) == \
        (doc["events"][pong]["seat"], "pong", discard)
    assert trace.steps[after.position].seats[discarder].discards == tuple(t.tile for t in pond_after[:-1])


def test_the_step_marks_its_tile_and_sets_the_drawn_tile_apart() -> None:
    doc = sample("clean-kuhu-triple")
    _, view = view_of(doc)
    events = doc["events"]
    draw = next(i for i, ev in enumerate(events) if ev["type"] == "draw" and events[i + 1]["type"] == "discard")
    step = view.step_at(view.position_of(draw) or 0)
    seat = doc["events"][draw]["seat"]
    panel = view.panels[step.panels[seat]]
    assert panel.drawn == doc["events"][draw]["tile"] and panel.mark is not None and panel.mark.place is Place.DRAWN
    assert panel.acting and step.actor == seat
    discard = draw + 1
    assert doc["events"][discard]["type"] == "discard"
    after = view.panels[view.step_at(view.position_of(discard) or 0).panels[seat]]
    assert after.drawn is None and after.mark is not None and after.mark.place is Place.POND
    assert after.pond[after.mark.at].tile == doc["events"][discard]["tile"]
    others = [view.panels[i] for s, i in enumerate(step.panels) if s != seat]
    assert all(p.mark is None and not p.acting for p in others)


def test_panels_repeat_by_value_so_a_step_names_few_new_ones() -> None:
    _, view = view_of(sample("clean-kuhu-triple"))
    assert len(set(view.panels)) == len(view.panels)
    assert len(view.panels) < 2 * len(view.steps) < len(view.steps) * view.seats


def test_the_win_screen_is_the_settlement() -> None:
    doc = sample("clean-kuhu-triple")
    trace, view = view_of(doc)
    assert view.win is not None and view.win.ending == "win"
    wins = [ev for ev in doc["events"] if ev["type"] == "win"]
    assert [(w.seat, w.tile) for w in view.win.winners] == [(ev["seat"], ev["tile"]) for ev in wins]
    settlement = trace.audit["settlement"]
    assert [s.change for s in view.win.scores] == settlement["scores"]
    assert [s.claimed for s in view.win.scores] == doc["result"]["scores"]
    assert [s.after for s in view.win.scores] == settlement["scores"]  # a lone hand starts at 0
    for winner in view.win.winners:
        hand_items = [i for i in settlement["items"] if i["kind"] == "hand" and i["to"] == winner.seat]
        assert winner.value == sum(i["amount"] for i in hand_items) and len(winner.workings) == len(hand_items)
        final = trace.steps[-1].seats[winner.seat]
        assert Counter(winner.concealed) + Counter([winner.tile]) == Counter(final.concealed) + Counter(
            [winner.tile] if len(final.concealed) % 3 == 1 else [])
    assert view.win.flip == settlement["flip"] and view.win.flip_chickens == trace.flip_chickens != ()
    assert view.chicken_tiles == ("1s",)


def test_a_drawn_hand_ends_on_a_draw_screen_and_an_illegal_one_on_none() -> None:
    _, drawn = view_of(sample("clean-kuhu-draw"))
    assert drawn.win is not None and drawn.win.ending == "draw" and drawn.win.winners == ()
    _, illegal = view_of(sample("illegal-pass-locked"))
    assert illegal.win is None and illegal.steps[-1].finding == "illegal"


def test_running_scores_start_from_the_totals_before_the_hand() -> None:
    doc = sample("clean-kuhu-triple")
    trace = api.trace_record(doc)
    model = build_report(doc, trace.audit, trace, "en")
    view = table_view(trace, doc["dealer"], totals=model.totals, settled=True, before=[10, -4, 0, 7])
    assert view is not None and view.win is not None
    assert [s.after for s in view.win.scores] == [b + c for b, c in zip([10, -4, 0, 7], trace.audit["settlement"]["scores"])]


def test_the_page_opens_on_the_asked_step_else_the_first_finding_else_the_deal() -> None:
    _, view = view_of(sample("illegal-pass-locked"))
    assert opening_position(view, "deal") == 0 == opening_position(view, "-1")
    assert view.steps[opening_position(view, "2")].index == 2
    flagged = next(s.position for s in view.steps if s.finding)
    assert opening_position(view, None) == opening_position(view, "99") == opening_position(view, "x") == flagged
    _, clean = view_of(sample("clean-guizhou-3p"))
    assert opening_position(clean, None) == 0


def test_seats_sit_round_the_table_from_the_seat_seen_from() -> None:
    _, four = view_of(sample("clean-kuhu-triple"))
    assert [four.position_class(s, 0) for s in range(4)] == ["bottom", "right", "top", "left"]
    assert [four.position_class(s, 2) for s in range(4)] == ["top", "left", "bottom", "right"]
    _, three = view_of(sample("clean-guizhou-3p"))
    assert [three.position_class(s, 1) for s in range(3)] == ["left", "bottom", "right"]


def test_no_steps_no_table() -> None:
    assert table_view(None, 0) is None
    assert table_view(Trace({}, []), 0) is None
    assert ponds([]) == []


# ----- the match page's data -----------------------------------------------------------------------

def match_hands(doc: dict[str, Any]) -> list[HandInput]:
    audits = api.audit_document(doc)
    return [HandInput({"id": i + 1, "match_index": i, "game_id": h["game_id"], "revision": 1}, h, a)
            for i, (h, a) in enumerate(zip(doc["hands"], audits))]


def test_match_totals_are_the_engines_running_sums() -> None:
    doc = sample("illegal-match-dealer")
    hands = match_hands(doc)
    view = match_view(1, doc["table_id"], hands)
    running = [0] * 4
    for hand, given in zip(view.hands, hands):
        assert given.audit is not None
        scores = (given.audit.get("settlement") or {}).get("scores") or [0] * 4
        running = [r + s for r, s in zip(running, scores)]
        assert list(hand.totals) == running and hand.verdict == given.audit["verdict"]
        assert list(hand.claimed) == given.document["result"]["scores"]
    assert list(view.totals) == running
    assert list(view.claimed_totals) == [sum(h["result"]["scores"][s] for h in doc["hands"]) for s in range(4)]


def test_the_continuity_checks_are_the_engines_findings() -> None:
    doc = sample("illegal-match-dealer")
    view = match_view(1, doc["table_id"], match_hands(doc))
    first, second = view.hands
    assert first.checks == () and not first.broken
    checks = {c.check: c for c in second.checks}
    audits = api.audit_document(doc)
    codes = {f["code"] for f in audits[1]["findings"]}
    assert "match_wrong_dealer" in codes and second.broken
    dealer = checks[Check.DEALER]
    assert dealer.outcome is Outcome.BROKEN and dealer.expected == audits[0]["settlement"]["next_dealer"]
    assert dealer.actual == doc["hands"][1]["dealer"] and dealer.rule == next(
        f["rule"] for f in audits[1]["findings"] if f["code"] == "match_wrong_dealer")
    assert checks[Check.PLAYERS].outcome is Outcome.HELD
    assert checks[Check.STREAK].outcome is Outcome.NOT_CHECKED  # the engine checks it only after a right dealer

    changed = copy.deepcopy(doc)
    seat = changed["hands"][1]["seats"][0]
    seat["player_id" if "player_id" in seat else "name"] = "somebody else"
    again = match_view(1, doc["table_id"], match_hands(changed)).hands[1]
    assert {c.check: c.outcome for c in again.checks}[Check.PLAYERS] is Outcome.BROKEN
    assert "match_players_changed" in {f["code"] for f in api.audit_document(changed)[1]["findings"]}


def _before_wins(doc: dict[str, Any]) -> dict[str, Any]:
    events = [ev for ev in doc["events"] if ev["type"] not in ("win", "pass")]
    return events[-1] if events else {}


@pytest.mark.parametrize("name", ["clean-kuhu-triple", "clean-weile-hot-shot", "missettled-rob-paid-by-three",
                                  "clean-weile-rob-double", "clean-cuocuo-long"])
def test_the_win_screen_says_how_the_hand_was_won_and_from_whom(name: str) -> None:
    """Issue 33.3: how a win was made is read from the table (the event before the wins), not from the
    record's optional `kind`: a discard win names its discarder and is never 自摸, a robbed kong its
    konger, with or without the record's `kind`."""
    doc = sample(name)
    before = _before_wins(doc)
    expected = {"discard": ("discard", before.get("seat")), "kong": ("rob", before.get("seat"))}.get(
        before.get("type"), ("self_draw", None))
    _, view = view_of(doc)
    assert view.win is not None
    assert {(w.kind, w.from_seat) for w in view.win.winners} == {expected}
    if expected[0] == "discard":
        bare = copy.deepcopy(doc)
        for ev in bare["events"]:
            if ev["type"] == "win":
                ev.pop("kind", None)
        _, view = view_of(bare)
        assert view.win is not None and {(w.kind, w.from_seat) for w in view.win.winners} == {expected}
