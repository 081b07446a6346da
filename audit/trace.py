"""Step-by-step views of a replay, for the HTML and PDF reports.

The replayer's observer hands us the live state after each event; we turn it
into frozen views at once (tiles as codes), so a report never touches engine
internals and the views cannot change under it.
"""
from __future__ import annotations

from typing import Any

from audit.catalogue import Lang, render_note
from audit.chickens import SeatChickens, flip_of
from audit import hands
from audit.house import species
from audit.engine import audit_hand
from audit.attributed import due_step
from audit.findings import Finding
from audit.kinds import EventType
from audit.profiles import Profile
from audit.settle import Settlement
from audit.state import Event, GameState
from audit.tiles import code, format_counts
from audit.views import ChickenReason, ChickenView, Marker, MarkerKind, MeldView, SeatView, StepView, Trace



def seat_views(st: GameState) -> tuple[SeatView, ...]:
    """Every seat's tiles as a reviewer sees them."""
    out = []
    won = {w.seat: code(w.tile) for w in st.wins}
    for seat, s in enumerate(st.seats):
        melds = tuple(MeldView(m.kind.value, (code(m.tile),) * m.size, m.from_seat) for m in s.melds)
        out.append(SeatView(tuple(format_counts(s.hand)), melds, tuple(code(t) for t, _ in s.discards),
                            s.declared is not None, s.lock is not None, won.get(seat)))
    return tuple(out)


def trace(doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
          lang: Lang = Lang.EN, schema_checked: bool = False, base_profile: Profile | None = None) -> Trace:
    """Audit `doc` and keep a view of the table after every step; words in `lang` (`base_profile`:
    `audit.engine.audit_hand`)."""
    steps: list[StepView] = []
    prev_locks: list[object] = []
    raw_events = doc.get("events") if isinstance(doc, dict) else None

    def observe(st: GameState, ev: Event | None, finding: Finding | None) -> None:
        index = -1 if ev is None else ev.step
        if finding is not None and finding.step is None:
            return
        event = raw_events[index] if ev is not None and isinstance(raw_events, list) else None
        found = (finding.to_json(lang),) if finding is not None else ()
        if finding is not None and steps and steps[-1].index == index:
            steps.pop()
        locks = [s.lock for s in st.seats]
        newly = [i for i, lk in enumerate(locks) if lk is not None and (not prev_locks or lk is not prev_locks[i])]
        prev_locks[:] = locks
        markers = _markers(st, ev) + tuple(Marker.of(MarkerKind.PASS_LOCK, seat=i) for i in newly)
        steps.append(StepView(index, event, seat_views(st), st.wall_left, markers, found))

    hand = audit_hand(doc, profile=profile, options=options, observer=observe, schema_checked=schema_checked,
                      base_profile=base_profile)
    out = Trace(hand.to_json(lang), steps)
    if hand.replay is not None:
        _mark_endings(out, hand.replay.state)
    if hand.settlement is not None:
        state = hand.replay.state if hand.replay is not None else None
        out.chickens = [_chicken_view(c, lang, hand.settlement, state) for c in hand.settlement.chickens]
    if hand.replay is not None:
        out.chicken_tiles, out.flip_chickens = chicken_tiles(hand.replay.state, hand.settlement)
    out.due_steps = [due_step_of(f, hand.replay.state if hand.replay is not None else None, hand.settlement)
                     for f in out.audit["findings"]]
    _attach_findings(out)
    return out


def chicken_tiles(st: GameState, sett: Settlement | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The standing chickens (R11.1: 幺鸡; 8p under 乌骨鸡, R17.6), which the settlement's own
    `house.species` names, and the chickens of the flip when one was turned (R11.5)."""
    standing = tuple(code(sp.tile) for sp in species(st, None))
    flip = flip_of(st.profile, sett.flip) if sett is not None else None
    return standing, (tuple(code(t) for t in flip.chickens) if flip is not None else ())


def due_step_of(finding: dict[str, Any], st: GameState | None, sett: Settlement | None) -> int | None:
    """The step a finding points at (Trace.due_steps): its own, the `step` param of a settlement
    finding that has one, or for a payment of the ledger (kind, payer, payee) the step that made it
    due (audit.attributed.due_step); None for a finding about totals or the record as a whole."""
    if finding.get("step") is not None:
        return int(finding["step"])
    params = finding.get("params") or {}
    if isinstance(params.get("step"), int):
        return int(params["step"])
    kind, payer, payee = params.get("kind"), params.get("payer"), params.get("payee")
    if st is None or sett is None or not isinstance(kind, str) or not isinstance(payer, int) \
            or not isinstance(payee, int) or finding.get("kind") != "missettled":
        return None
    return due_step(st, kind, payer, payee, sett.items)


def _chicken_view(c: SeatChickens, lang: Lang, sett: Settlement, st: GameState | None) -> ChickenView:
    """A seat's chickens; the note is its credit's working (or its liability's), rendered in `lang`;
    the reason they count or not, and the seat's waits when it did not win."""
    params = {"parts": c.parts or c.liability_parts}
    winners = {w.seat for w in st.wins} if st is not None else set()
    reason_params: dict[str, Any] = {}
    if c.seat in winners:
        reason = ChickenReason.WON
    elif c.seat in sett.burned:
        burn = sett.burned[c.seat]
        reason, reason_params = ChickenReason.BURNED, {"by": burn.by.value, "step": burn.step}
    elif sett.ready.get(c.seat) is not None:
        reason = ChickenReason.READY
    elif not c.qualifies:
        reason = ChickenReason.NOT_READY
    else:
        reason = ChickenReason.COUNTS
    waits: tuple[str, ...] = ()
    if st is not None and c.seat not in winners:
        seat = st.seats[c.seat]
        waits = tuple(code(t) for t in hands.waits(list(seat.hand), seat.meld_tiles()))
    return ChickenView(c.seat, tuple(c.tiles), c.credit if c.qualifies else -c.liability, c.qualifies,
                       render_note({"code": "chicken_tally", "params": params}, lang), "chicken_tally", params,
                       reason.value, reason_params, waits)


def _markers(st: GameState, ev: Event | None) -> tuple[Marker, ...]:
    """Markers visible as soon as the step happens."""
    if ev is None:
        return ()
    out = []
    if ev.type is EventType.DECLARE:
        out.append(Marker.of(MarkerKind.DECLARE))
    if ev.type is EventType.KONG:
        meld = st.seats[ev.seat].kong_this_turn
        if meld is not None and not meld.scores:
            out.append(Marker.of(MarkerKind.LATE_KONG))
    return tuple(out)


def _mark_endings(out: Trace, st: GameState) -> None:
    """Markers only the end of the hand decides: 冲锋鸡/责任鸡, 热炮, 抢杠."""
    extra: dict[int, list[Marker]] = {}
    for fc in st.first_chicken.values():
        if fc.claimed_by is not None:
            extra.setdefault(fc.step, []).append(Marker.of(MarkerKind.RESPONSIBILITY_CHICKEN, tile=code(fc.tile)))
        elif not fc.won_on and st.wins:
            extra.setdefault(fc.step, []).append(Marker.of(MarkerKind.CHARGE_CHICKEN, tile=code(fc.tile)))
    w = st.window
    if w is not None and st.wins:
        if w.rob:
            extra.setdefault(w.step, []).append(Marker.of(MarkerKind.ROB))
        elif w.hot_kong is not None:
            extra.setdefault(w.step, []).append(Marker.of(MarkerKind.HOT_SHOT))
    for i, sv in enumerate(out.steps):
        if sv.index in extra:
            out.steps[i] = StepView(sv.index, sv.event, sv.seats, sv.wall_left,
                                    sv.markers + tuple(extra[sv.index]), sv.findings)


def _attach_findings(out: Trace) -> None:
    """Findings that name a step show on that step too (a must-win failure names an earlier one)."""
    by_step: dict[int, list[dict[str, Any]]] = {}
    for f, step in zip(out.audit["findings"], out.due_steps):
        if step is not None:
            by_step.setdefault(step, []).append(f)
    for i, sv in enumerate(out.steps):
        if sv.index in by_step and not sv.findings:
            out.steps[i] = StepView(sv.index, sv.event, sv.seats, sv.wall_left, sv.markers,
                                    tuple(by_step[sv.index]))
