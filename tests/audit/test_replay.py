"""audit/replay.py's one step (judge, value a win, apply, open the claim window), shared by the
audit's replay and the simulator's strict policy: the same events get the same findings from both."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from audit.claims import assess, current_win_kind
from audit.findings import Finding, IllegalMoveError
from audit.kinds import EventType, WinKind
from sim.mutate import mutants
from audit.profiles import resolve
from audit.replay import replay, start_state, step
from audit.rules import check
from sim.simulate import Hand, play, simulate
from audit.state import Event, GameState
from audit.tiles import parse_all
from tests.conftest import REFERENCE

Doc = dict[str, Any]
REFERENCES = sorted(REFERENCE.glob("*.json"))


def _load(path: Any) -> Doc:
    doc: Doc = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _profile(doc: Doc) -> Any:
    return resolve(doc["rules"]["profile"], doc["rules"].get("options"))


def _table(st_: GameState) -> tuple[Any, ...]:
    """What an event changes, to see that a refused one changed nothing."""
    seats = tuple((tuple(s.hand), tuple((m.kind, m.tile) for m in s.melds), tuple(s.discards), s.declared)
                  for s in st_.seats)
    return (seats, st_.phase, st_.actor, st_.front, st_.back, st_.steps, st_.window is None, len(st_.wins))


def simulator_policy(doc: Doc) -> tuple[Finding | None, list[Doc]]:
    """Feed a record's events to the simulator's strict policy (simulate.play): the finding it
    raises, if any, and the events it wrote down before that."""
    prof = _profile(doc)
    deal, wall = [parse_all(d) for d in doc["deal"]], parse_all(doc["wall"])
    hand = Hand(deal, wall, GameState.start(prof, doc["dealer"], doc.get("dealer_streak", 0), deal, wall), [])
    for raw in doc["events"]:
        try:
            play(hand, Event.from_json(0, raw))
        except IllegalMoveError as exc:
            return exc.finding, hand.events
    return None, hand.events


def _plain(events: list[Doc]) -> list[Doc]:
    """Events as the engine reads them: without the free `t` and `extra` an Event does not keep."""
    return [{k: v for k, v in e.items() if k not in ("t", "extra")} for e in events]


def assert_same_policy(doc: Doc) -> None:
    """The audit's replay and the simulator name the same first illegal event, with the same finding;
    the simulator wrote every event before it back as the record has it."""
    audit = replay(doc, _profile(doc))
    live, written = simulator_policy(doc)
    applied = audit.state.steps  # events applied before the replay stopped (all of them: the end judged)
    if audit.finding is not None and applied < len(doc["events"]):
        assert live is not None and live.to_json() == audit.finding.to_json()
        assert written == _plain(doc["events"][:applied])
    else:
        assert live is None  # the record's end (R10, a must-win left at the end) is the replay's to judge
        assert written == _plain(doc["events"])


# ------------------------------------------------------------------ the step itself

@pytest.mark.parametrize("path", REFERENCES[:8], ids=lambda p: p.stem)
def test_step_is_check_then_apply(path: Any) -> None:
    """Each step answers what the judge answers; a refused event leaves the table as it was."""
    doc = _load(path)
    st_ = start_state(doc, _profile(doc))
    for i, raw in enumerate(doc["events"]):
        ev = Event.from_json(i, raw)
        wrong = Event(i, EventType.DISCARD, (ev.seat + 1) % st_.n, 0)
        before = _table(st_)
        judged = check(st_, wrong)
        assert judged is not None and step(st_, wrong) == judged and _table(st_) == before
        assert step(st_, ev) is None
    assert _table(st_) != _table(start_state(doc, _profile(doc)))


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.stem)
def test_a_discard_step_opens_the_window_with_every_legal_win(path: Any) -> None:
    """After a discard (or an added kong) the window knows who could win it and for how much (R13.1)."""
    doc = _load(path)
    st_ = start_state(doc, _profile(doc))
    for i, raw in enumerate(doc["events"]):
        assert step(st_, Event.from_json(i, raw)) is None
        w = st_.window
        if w is None or w.step != i:
            continue
        kind = WinKind.ROB if w.rob else WinKind.DISCARD
        assert all(current_win_kind(st_, s) is kind for s in range(st_.n) if s != w.source)
        want = {}
        for s in range(st_.n):
            a = assess(st_, s, w.tile, kind) if s != w.source else None
            if a is not None and a.legal:
                want[s] = a.payer_total
        assert w.could_win == want, i


def test_a_win_is_valued_when_it_is_applied() -> None:
    """The state records the win claims valued on the table it was made on."""
    for path in REFERENCES:
        rep = replay(_load(path), _profile(_load(path)))
        for win in rep.state.wins:
            assert win.valued is not None and type(win.kind) is WinKind


# ------------------------------------------------------------------ one step, two policies

@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.stem)
def test_reference_games_go_through_both_policies_alike(path: Any) -> None:
    assert_same_policy(_load(path))


ITEMISED = [p for p in REFERENCES if "items" in _load(p)["result"]]
"""The mutator plants settlement faults in `result.items`, so it takes itemised records."""


@pytest.mark.parametrize("path", ITEMISED[::2], ids=lambda p: p.stem)
def test_mutants_of_reference_games_get_the_same_finding_from_both_policies(path: Any) -> None:
    made = [m for m in mutants(_load(path)) if m.expected.verdict == "illegal"]
    assert made
    for m in made:
        assert_same_policy(m.record)


PROFILES: list[tuple[str, dict[str, Any], int]] = [("weile", {}, 4), ("cuocuo", {}, 4), ("kuhu", {}, 4), ("senyan", {}, 4), ("guizhou", {}, 3)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PROFILES), st.integers(0, 10**6))
def test_simulated_hands_and_their_mutants_get_the_same_findings_from_both_policies(
        config: tuple[str, dict[str, Any], int], seed: int) -> None:
    """A hand the bots played replays clean through both policies; each one-fault mutant of it
    stops both at the same event with the same finding."""
    name, options, players = config
    (gen,) = simulate(name, options, 1, seed, players=players)
    assert replay(gen.record, _profile(gen.record)).finding is None
    assert_same_policy(gen.record)
    for m in mutants(gen.record, seed):
        if m.expected.verdict == "illegal":
            assert_same_policy(m.record)
