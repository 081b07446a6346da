"""`python -m sim.mutate IN OUT`: one-fault mutants of clean records, each with the finding it must get.

The audit is what these mutants test, so the mutator never asks it anything.
It replays the clean record once through `GameState` (the events are known to
be legal) and, at every step, notes the places where one class of fault can be
planted and why that fault is the first thing wrong there: the seat holds no
copy of the tile, the wall's next tile is another one, the window is not a
hot shot so no seat must win, and so on. It then plants one fault per class,
chosen by a seeded random generator, and writes the expected verdict, rule
and step next to the record. A record without a place for a class (no hot
shot, no rob) gives no mutant of that class; the counts say so.

Illegal mutants that insert a win keep nothing after it (replay stops at the
first illegal move, so the rest would never be read); settlement mutants
change `result.items` and `result.scores` together, so the audit has to name
the wrong payment rather than a bare net difference.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from audit.api import Profile, read_file, resolve
from audit.play import (HOUSE_RULE_SECTIONS, Event, GameState, HouseRuleFault, HouseRuleSection, Phase, Settlement,
                        advance, all_pungs_shape, is_house_rule, is_winning, one_suit, settle, seven_pairs_shape,
                        standard_shape, start_state, waits)
from audit.vocabulary import BIRD, NUM_KINDS, EventType, ItemKind, Lang, MeldKind, WinKind, argument, code, seat_names

CLASSES = (
    "draw_wall", "discard_not_held", "pong_without_pair", "kong_concealed_without_four",
    "kong_added_without_pong", "kong_empty_wall", "ping_hu_without_pass", "win_while_locked",
    "declared_keeps_draw", "declare_not_ready", "first_move_not_dealer", "draw_wrong_seat",
    "must_win_skipped", "must_win_passed", "event_after_end", "truncated",
    "wrong_pattern_value", "hot_shot_burn_ignored", "rob_paid_by_three", "robbed_kong_paid",
    "chicken_miscount", "responsibility_missing", "wrong_flip", "wrong_next_dealer", "dou_not_ready",
    "scores_not_zero",
    *(sec.mutation for sec, _ in HOUSE_RULE_SECTIONS),
)
"""Every mutation class, in the order they are written (the house-rule faults last, one per section of
audit/house_rules.py in rulebook order, so the others draw the same sites as before)."""
SITE_CLASSES = (
    "draw_wall", "discard_not_held", "pong_without_pair", "kong_concealed_without_four",
    "kong_added_without_pong", "kong_empty_wall", "ping_hu_without_pass", "win_while_locked",
    "declared_keeps_draw", "declare_not_ready", "first_move_not_dealer", "draw_wrong_seat",
)
"""The classes planted at a step the scan found (the others work from the end of the hand)."""


@dataclass(frozen=True)
class Expected:
    """The finding a mutant must get: verdict, rule, and for illegal moves the step."""

    verdict: str
    rule: str
    step: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The `expected` object of an OUT line."""
        return {"verdict": self.verdict, "rule": self.rule, "step": self.step}


@dataclass(frozen=True)
class Mutant:
    """One record with exactly one planted fault."""

    mutation: str
    expected: Expected
    record: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """One OUT line."""
        return {"mutation": self.mutation, "expected": self.expected.to_json(), "record": self.record}


@dataclass
class Scan:
    """What one pass over a clean record found: planting sites per class, and the end of the hand."""

    record: dict[str, Any]
    profile: Profile
    sites: dict[str, list[Any]] = field(default_factory=lambda: {c: [] for c in SITE_CLASSES})
    state: GameState | None = None
    settlement: Settlement | None = None


# ------------------------------------------------------------------ the scan

def scan(record: dict[str, Any]) -> Scan:
    """Replay the (clean) record once, noting at each step where each illegal fault could go."""
    prof = resolve(record["rules"]["profile"], record["rules"].get("options"))
    out = Scan(record, prof)
    st = start_state(record, prof)
    events = record["events"]
    for i, raw in enumerate(events):
        ev = Event.from_json(i, raw)
        _collect(out, st, i, ev, events[i - 1]["type"] if i else None)
        advance(st, ev)
    _collect(out, st, len(events), None, events[-1]["type"] if events else None)
    out.state, out.settlement = st, settle(st)
    return out


def _collect(out: Scan, st: GameState, i: int, ev: Event | None, prev: str | None) -> None:
    """Sites at step `i` (the state before event `i`; `ev` None at the end of the record)."""
    if ev is not None and ev.type is EventType.DRAW:
        out.sites["draw_wall"].append((i, ev.tile))
        _draw_seat_site(out, st, i, ev)
    if i == 0 and ev is not None:
        out.sites["first_move_not_dealer"].append((i, [x for x in range(st.n) if x != st.dealer]))
    if ev is not None and ev.type is EventType.DISCARD:
        _discard_sites(out, st, i, ev)
        _declare_site(out, st, i, ev)
    if st.phase is Phase.TURN and st.pending_declare is None and ev is not None:
        _turn_sites(out, st, i)
    if st.phase is Phase.CLAIM and prev == EventType.DISCARD and st.window is not None:
        _window_sites(out, st, i, ev)


def _discard_sites(out: Scan, st: GameState, i: int, ev: Event) -> None:
    """Tiles the discarder holds none of (R2.5); for a declared seat discarding its draw, the others (R5.2)."""
    seat = st.seats[ev.seat]
    absent = [t for t in range(NUM_KINDS) if seat.hand[t] == 0]
    out.sites["discard_not_held"].append((i, absent))
    keeps_rule = seat.declared is not None and st.pending_declare != ev.seat and st.last_draw == ev.tile
    if keeps_rule:
        others = [t for t in range(NUM_KINDS) if seat.hand[t] and t != ev.tile]
        out.sites["declared_keeps_draw"].append((i, others))


def _draw_seat_site(out: Scan, st: GameState, i: int, ev: Event) -> None:
    """A draw by the wrong seat: R2.2 for a replacement (the konger's), R2.3 after a discard (the next seat's)."""
    rule = "R2.3" if st.phase is Phase.CLAIM else "R2.2"
    out.sites["draw_wrong_seat"].append((i, [x for x in range(st.n) if x != ev.seat], rule))


def _declare_site(out: Scan, st: GameState, i: int, ev: Event) -> None:
    """A first discard that R5.1 would let the seat declare before, leaving a hand that is not ready."""
    seat = st.seats[ev.seat]
    if st.profile.declared is None or seat.declared is not None or seat.discards_made or st.phase is not Phase.TURN:
        return
    if ev.seat != st.dealer and (seat.melds or seat.draws != 1):
        return
    assert ev.tile is not None
    rest = list(seat.hand)
    rest[ev.tile] -= 1
    if not waits(rest, seat.meld_tiles()):
        out.sites["declare_not_ready"].append((i, ev.seat))


def _turn_sites(out: Scan, st: GameState, i: int) -> None:
    """The actor is to move after a draw (no declaration pending): kongs it cannot make."""
    a = st.actor
    seat = st.seats[a]
    pongs = {m.tile for m in seat.melds if m.kind is MeldKind.PONG}
    short = [t for t in range(NUM_KINDS) if 0 < seat.hand[t] < 4]
    no_pong = [t for t in range(NUM_KINDS) if seat.hand[t] and t not in pongs]
    out.sites["kong_concealed_without_four"].append((i, a, short))
    out.sites["kong_added_without_pong"].append((i, a, no_pong))
    if st.wall_left <= 0:
        fours = [(t, MeldKind.CONCEALED) for t in range(NUM_KINDS) if seat.hand[t] == 4]
        fours += [(t, MeldKind.ADDED) for t in sorted(pongs) if seat.hand[t]]
        out.sites["kong_empty_wall"] += [(i, a, t, kind, None) for t, kind in fours]


def _window_sites(out: Scan, st: GameState, i: int, ev: Event | None) -> None:
    """Right after a discard: pongs without a pair, kongs with no wall, wins that may not be made."""
    w = st.window
    assert w is not None
    closes_by_draw = ev is not None and ev.type is EventType.DRAW
    for x in range(st.n):
        if x == w.source:
            continue
        held = st.seats[x].hand[w.tile]
        if closes_by_draw and held < 2:
            out.sites["pong_without_pair"].append((i, x, w.tile, w.source))
        if st.wall_left <= 0 and held >= 3 and not w.hot:
            out.sites["kong_empty_wall"].append((i, x, w.tile, MeldKind.EXPOSED, w.source))
        _win_sites(out, st, i, x)


def _win_sites(out: Scan, st: GameState, i: int, x: int) -> None:
    """R7.3 and R13.1 sites for seat x on the open window (reasoned from the tiles, not judged)."""
    w = st.window
    assert w is not None
    seat = st.seats[x]
    hand = list(seat.hand)
    hand[w.tile] += 1
    if not is_winning(hand, len(seat.melds)):
        return
    plain = plain_hand(hand, seat.meld_tiles(), len(seat.melds))
    has_pass = bool(seat.made_kong or seat.declared or st.seats[w.source].declared or w.hot)
    no_situational = seat.draws > 0 or st.any_claim or seat.discards_made > 0
    if plain and not has_pass and no_situational:
        out.sites["ping_hu_without_pass"].append((i, x, w.tile))
        return
    if not (has_pass or not plain) or x in w.must_win:
        return
    if seat.lock is not None and not st.profile.pass_lock_allows_higher:
        out.sites["win_while_locked"].append((i, x, w.tile, "lock"))
    elif seat.lock is None:
        out.sites["win_while_locked"].append((i, x, w.tile, "pass"))


def plain_hand(cnt: list[int], meld_tiles: list[int], n_melds: int) -> bool:
    """A 14-tile winning hand that fits no pattern but 平胡: not seven pairs, not one suit,
    not all pungs, not 单吊 (R3.2); the shapes are tested one by one, not scored."""
    if seven_pairs_shape(cnt, n_melds) or not standard_shape(cnt):
        return False
    return not one_suit(cnt, meld_tiles) and not all_pungs_shape(cnt) and n_melds < 4


# ------------------------------------------------------------------ illegal mutants

def _record(sc: Scan, cls: str, events: list[dict[str, Any]] | None = None, note: str = "") -> dict[str, Any]:
    """A deep copy with a new game_id, the given events, and the planted fault described in `extra`."""
    rec = copy.deepcopy(sc.record)
    rec["game_id"] = f"{rec['game_id']}.m-{cls.replace('_', '-')}"[:128]
    if events is not None:
        rec["events"] = events
    rec["extra"] = {**rec.get("extra", {}), "mutation": cls, "note": note}
    return rec


def _illegal(sc: Scan, cls: str, rule: str, step: int, events: list[dict[str, Any]], note: str) -> Mutant:
    return Mutant(cls, Expected("illegal", rule, step), _record(sc, cls, events, note))


def _insert(sc: Scan, i: int, new: list[dict[str, Any]], truncate: bool = False) -> list[dict[str, Any]]:
    """The events with `new` inserted before step i (and nothing after them when `truncate`)."""
    ev = copy.deepcopy(sc.record["events"])
    return ev[:i] + new + ([] if truncate else ev[i:])


def m_draw_wall(sc: Scan, rng: random.Random) -> Mutant | None:
    """R2.4: a draw names a tile other than the one the wall gives."""
    i, tile = rng.choice(sc.sites["draw_wall"])
    wrong = rng.choice([t for t in range(NUM_KINDS) if t != tile])
    events = copy.deepcopy(sc.record["events"])
    events[i]["tile"] = code(wrong)
    return _illegal(sc, "draw_wall", "R2.4", i, events, f"draw {code(wrong)}, the wall gives {code(tile)}")


def m_discard_not_held(sc: Scan, rng: random.Random) -> Mutant | None:
    """R2.5: a discard of a tile the seat holds no copy of."""
    i, absent = rng.choice(sc.sites["discard_not_held"])
    t = rng.choice(absent)
    events = copy.deepcopy(sc.record["events"])
    events[i]["tile"] = code(t)
    return _illegal(sc, "discard_not_held", "R2.5", i, events, f"discard {code(t)}: none in hand")


def m_pong_without_pair(sc: Scan, rng: random.Random) -> Mutant | None:
    """R4.1: a pong, inserted where the window closed by a plain draw, by a seat with fewer than two."""
    i, x, t, src = rng.choice(sc.sites["pong_without_pair"])
    pong = {"type": EventType.PONG.value, "seat": x, "tile": code(t), "from": src}
    return _illegal(sc, "pong_without_pair", "R4.1", i, _insert(sc, i, [pong]), f"seat {x} pongs {code(t)}")


def _kong_in_turn(sc: Scan, rng: random.Random, cls: str, kind: MeldKind, rule: str) -> Mutant | None:
    sites = [s for s in sc.sites[cls] if s[2]]
    if not sites:
        return None
    i, a, tiles = rng.choice(sites)
    t = rng.choice(tiles)
    kong = {"type": EventType.KONG.value, "seat": a, "tile": code(t), "kind": kind.value}
    return _illegal(sc, cls, rule, i, _insert(sc, i, [kong]), f"seat {a} {kind.value} kong of {code(t)}")


def m_kong_concealed_without_four(sc: Scan, rng: random.Random) -> Mutant | None:
    """R4.3: a concealed kong of a tile the actor holds one to three of."""
    return _kong_in_turn(sc, rng, "kong_concealed_without_four", MeldKind.CONCEALED, "R4.3")


def m_kong_added_without_pong(sc: Scan, rng: random.Random) -> Mutant | None:
    """R4.4: an added kong of a held tile the actor has no pong of."""
    return _kong_in_turn(sc, rng, "kong_added_without_pong", MeldKind.ADDED, "R4.4")


def m_kong_empty_wall(sc: Scan, rng: random.Random) -> Mutant | None:
    """R4.5: a kong the tiles allow, made when the wall is empty (no replacement)."""
    i, x, t, kind, src = rng.choice(sc.sites["kong_empty_wall"])
    kong: dict[str, Any] = {"type": EventType.KONG.value, "seat": x, "tile": code(t), "kind": kind.value}
    if src is not None:
        kong["from"] = src
    return _illegal(sc, "kong_empty_wall", "R4.5", i, _insert(sc, i, [kong]), f"{kind.value} kong of {code(t)}, wall empty")


def m_ping_hu_without_pass(sc: Scan, rng: random.Random) -> Mutant | None:
    """R7.3: a 平胡 taken on a plain discard by a seat with no kong, no 报听, not a 热炮."""
    i, x, t = rng.choice(sc.sites["ping_hu_without_pass"])
    win = {"type": EventType.WIN.value, "seat": x, "tile": code(t), "kind": WinKind.DISCARD.value}
    return _illegal(sc, "ping_hu_without_pass", "R7.3", i, _insert(sc, i, [win], truncate=True),
                    f"seat {x} wins {code(t)} with 平胡 and no 通行证")


def m_win_while_locked(sc: Scan, rng: random.Random) -> Mutant | None:
    """R13.1: a seat locked by an earlier passed win (or that passed this very tile) wins it anyway."""
    sites = sc.sites["win_while_locked"]
    locked = [s for s in sites if s[3] == "lock"]
    i, x, t, how = rng.choice(locked or sites)
    win = {"type": EventType.WIN.value, "seat": x, "tile": code(t), "kind": WinKind.DISCARD.value}
    if how == "lock":
        return _illegal(sc, "win_while_locked", "R13.1", i, _insert(sc, i, [win], truncate=True),
                        f"seat {x} passed a win earlier and is locked")
    events = _insert(sc, i, [{"type": EventType.PASS.value, "seat": x}, win], truncate=True)
    return _illegal(sc, "win_while_locked", "R13.1", i + 1, events, f"seat {x} passes {code(t)}, then wins it")


def m_declared_keeps_draw(sc: Scan, rng: random.Random) -> Mutant | None:
    """R5.2: a declared seat keeps its drawn tile and discards another one it holds."""
    i, others = rng.choice(sc.sites["declared_keeps_draw"])
    t = rng.choice(others)
    events = copy.deepcopy(sc.record["events"])
    kept = events[i]["tile"]
    events[i]["tile"] = code(t)
    return _illegal(sc, "declared_keeps_draw", "R5.2", i, events, f"declared seat keeps {kept}, discards {code(t)}")


def m_declare_not_ready(sc: Scan, rng: random.Random) -> Mutant | None:
    """R5.1 (named at the discard, R2.7): a declaration before a first discard that leaves the hand not ready."""
    i, seat = rng.choice(sc.sites["declare_not_ready"])
    events = _insert(sc, i, [{"type": EventType.DECLARE.value, "seat": seat}])
    return _illegal(sc, "declare_not_ready", "R5.1", i + 1, events, f"seat {seat} declares, not ready after")


def m_first_move_not_dealer(sc: Scan, rng: random.Random) -> Mutant | None:
    """R2.1 (R16.1): the first event of the hand made by a seat other than the dealer."""
    i, others = rng.choice(sc.sites["first_move_not_dealer"])
    x = rng.choice(others)
    events = copy.deepcopy(sc.record["events"])
    events[i]["seat"] = x
    return _illegal(sc, "first_move_not_dealer", "R2.1", i, events, f"seat {x} moves first")


def m_draw_wrong_seat(sc: Scan, rng: random.Random) -> Mutant | None:
    """R2.2/R2.3 (R16.1): the right tile drawn by the wrong seat."""
    i, others, rule = rng.choice(sc.sites["draw_wrong_seat"])
    x = rng.choice(others)
    events = copy.deepcopy(sc.record["events"])
    events[i]["seat"] = x
    return _illegal(sc, "draw_wrong_seat", rule, i, events, f"seat {x} draws out of turn")


def m_event_after_end(sc: Scan, rng: random.Random) -> Mutant | None:
    """R2.6: a draw written after the hand ended (after the wins, or by the seat after the 荒庄 discarder)."""
    st = sc.state
    assert st is not None
    seat = st.next_seat(st.actor)
    tile = st.next_wall_tile(False)
    events = copy.deepcopy(sc.record["events"])
    events.append({"type": EventType.DRAW.value, "seat": seat, "tile": code(tile if tile is not None else rng.randrange(NUM_KINDS))})
    return _illegal(sc, "event_after_end", "R2.6", len(events) - 1, events, "a draw after the end")


def m_truncated(sc: Scan, rng: random.Random) -> Mutant | None:
    """R10 (step null): the record stops right after a draw, in the middle of the drawer's turn."""
    draws = [i for i, e in enumerate(sc.record["events"]) if e["type"] == EventType.DRAW]
    if not draws:
        return None
    i = rng.choice(draws)
    events = copy.deepcopy(sc.record["events"][:i + 1])
    return Mutant("truncated", Expected("illegal", "R10", None), _record(sc, "truncated", events, f"cut after {i}"))


def _must_win_end(sc: Scan) -> tuple[Any, list[int]] | None:
    """The last window when a seat had to win it (R8.2/R9.2), and the win events of those seats."""
    st = sc.state
    assert st is not None
    w = st.window
    if w is None or not w.must_win or not st.wins:
        return None
    steps = [x.step for x in st.wins if x.seat in w.must_win]
    return (w, steps) if steps else None


def m_must_win_skipped(sc: Scan, rng: random.Random) -> Mutant | None:
    """R8.2/R9.2 with R16.6: a seat that had to win the hot shot or the rob does not.

    With other winners left the finding names the discard or added kong; a
    lone winner's win becomes the draw that closes the window, which is named."""
    found = _must_win_end(sc)
    if found is None:
        return None
    w, steps = found
    st = sc.state
    assert st is not None
    rule = "R9.2" if w.rob else "R8.2"
    step = rng.choice(steps)
    events = copy.deepcopy(sc.record["events"])
    if len(st.wins) > 1 or (not w.rob and st.wall_left <= 0):
        del events[step]
        return _illegal(sc, "must_win_skipped", rule, w.step, events, f"the win at step {step} left out")
    drawer = w.source if w.rob else st.next_seat(w.source)
    draw = {"type": EventType.DRAW.value, "seat": drawer, "tile": code(st.next_wall_tile(w.rob) or 0)}
    return _illegal(sc, "must_win_skipped", rule, step, events[:step] + [draw], "the must-win seat lets it go")


def m_must_win_passed(sc: Scan, rng: random.Random) -> Mutant | None:
    """R8.2/R9.2 (R16.8): a seat that must win writes a `pass` instead, right after the discard or kong."""
    found = _must_win_end(sc)
    if found is None:
        return None
    w, _ = found
    seat = rng.choice(sorted(w.must_win))
    events = _insert(sc, w.step + 1, [{"type": EventType.PASS.value, "seat": seat}], truncate=True)
    return _illegal(sc, "must_win_passed", "R9.2" if w.rob else "R8.2", w.step + 1, events, f"seat {seat} passes")


ILLEGAL: dict[str, Callable[[Scan, random.Random], Mutant | None]] = {
    "draw_wall": m_draw_wall, "discard_not_held": m_discard_not_held, "pong_without_pair": m_pong_without_pair,
    "kong_concealed_without_four": m_kong_concealed_without_four,
    "kong_added_without_pong": m_kong_added_without_pong, "kong_empty_wall": m_kong_empty_wall,
    "ping_hu_without_pass": m_ping_hu_without_pass, "win_while_locked": m_win_while_locked,
    "declared_keeps_draw": m_declared_keeps_draw, "declare_not_ready": m_declare_not_ready,
    "must_win_skipped": m_must_win_skipped, "must_win_passed": m_must_win_passed,
    "first_move_not_dealer": m_first_move_not_dealer, "draw_wrong_seat": m_draw_wrong_seat,
    "event_after_end": m_event_after_end, "truncated": m_truncated,
}


# ------------------------------------------------------------------ settlement mutants

def _pay(rec: dict[str, Any], kind: ItemKind, payer: int, payee: int, amount: int, note: str) -> None:
    """Add one item to the claimed ledger and move the points in `scores` with it."""
    res = rec["result"]
    res["items"].append({"kind": kind.value, "from": payer, "to": payee, "amount": amount, "note": note})
    res["scores"][payer] -= amount
    res["scores"][payee] += amount


def _words(item: Any, rec: dict[str, Any]) -> str:
    """An item's note as the audit writes it into a record (English, the record's players named)."""
    return str(item.note(Lang.EN, seat_names(rec)))


def _missettled(sc: Scan, cls: str, rule: str, change: Callable[[dict[str, Any]], str]) -> Mutant:
    rec = _record(sc, cls)
    note = change(rec)
    rec["extra"]["note"] = note
    return Mutant(cls, Expected("missettled", rule), rec)


def _base(sc: Scan) -> int:
    return int(sc.record.get("base", 1))


def m_wrong_pattern_value(sc: Scan, rng: random.Random) -> Mutant | None:
    """R6.1/R6.3/R9.3: a winner's hand payments valued too high (a pattern mistaken for a bigger one)."""
    st = sc.state
    assert st is not None
    if not st.wins:
        return None
    win = rng.choice(st.wins)
    extra = rng.choice((1, 4, 9)) * _base(sc)
    rule = _hand_rule(sc, win.seat, {WinKind.SELF_DRAW: "R6.1", WinKind.DISCARD: "R6.3", WinKind.ROB: "R9.3"}[win.kind])

    def change(rec: dict[str, Any]) -> str:
        res = rec["result"]
        for it in res["items"]:
            if it["kind"] == ItemKind.HAND and it["to"] == win.seat:
                it["amount"] += extra
                res["scores"][it["from"]] -= extra
                res["scores"][win.seat] += extra
        return f"seat {win.seat}'s hand payments +{extra} each"
    return _missettled(sc, "wrong_pattern_value", rule, change)


def _hand_rule(sc: Scan, winner: int, plain: str) -> str:
    """The rule of the winner's computed hand payment (R19.3 and R19.5 cite themselves), else `plain`."""
    assert sc.settlement is not None
    return next((i.rule for i in sc.settlement.items if i.kind is ItemKind.HAND and i.payee == winner), plain)


def m_hot_shot_burn_ignored(sc: Scan, rng: random.Random) -> Mutant | None:
    """R8.3: the shooter of a 热炮 is paid the dou of the kong it shot after (and its 1s credits under `all`)."""
    st = sc.state
    assert st is not None
    w = st.window
    if not st.wins or w is None or w.rob or w.hot_kong is None:
        return None
    shooter, kong = w.source, w.hot_kong
    prof, base = sc.profile, _base(sc)
    birds = _birds(st, shooter) if prof.hot_shot.burn == "all" else 0

    def change(rec: dict[str, Any]) -> str:
        value = prof.dou_value(kong.kind.value) * base
        payers = [kong.from_seat] if kong.kind is MeldKind.EXPOSED else [o for o in range(st.n) if o != shooter]
        for p in payers:
            if p is not None:
                _pay(rec, ItemKind.DOU, p, shooter, value, f"豆 {code(kong.tile)} (burn ignored)")
        for o in range(st.n):
            if birds and o != shooter:
                _pay(rec, ItemKind.CHICKEN, o, shooter, birds * prof.chicken.normal * base, "鸡 (burn ignored)")
        return f"shooter seat {shooter} keeps the dou of its {kong.kind.value} kong {code(kong.tile)}"
    return _missettled(sc, "hot_shot_burn_ignored", "R8.3", change)


def _birds(st: GameState, seat: int) -> int:
    """1s the seat has in hand and melds: the credits a burn takes away."""
    s = st.seats[seat]
    return s.hand[BIRD] + sum(m.size for m in s.melds if m.tile == BIRD)


def m_rob_paid_by_three(sc: Scan, rng: random.Random) -> Mutant | None:
    """R9.3: a robbed kong's win paid as a self-draw by every other seat, not all by the robbed seat."""
    st = sc.state
    assert st is not None
    robs = [w for w in st.wins if w.kind is WinKind.ROB]
    if not robs:
        return None
    win = robs[0]
    robbed = win.source
    assert robbed is not None

    def change(rec: dict[str, Any]) -> str:
        res = rec["result"]
        mine = [it for it in res["items"] if it["kind"] == ItemKind.HAND and it["to"] == win.seat]
        total = sum(it["amount"] for it in mine)
        share = total // (st.n - 1)
        for it in mine:
            res["items"].remove(it)
        res["scores"][robbed] += total
        res["scores"][win.seat] -= total
        for o in range(st.n):
            if o != win.seat:
                _pay(rec, ItemKind.HAND, o, win.seat, share, "抢杠 paid as 自摸")
        return f"seat {win.seat}'s rob of seat {robbed} paid {share} by each other seat"
    return _missettled(sc, "rob_paid_by_three", _hand_rule(sc, win.seat, "R9.3"), change)


def m_robbed_kong_paid(sc: Scan, rng: random.Random) -> Mutant | None:
    """R9.3: the robbed added kong is paid its dou as if it stood ("the kong does not stand")."""
    st = sc.state
    assert st is not None
    w = st.window
    if w is None or not w.rob or not st.wins:
        return None
    robbed = w.source

    def change(rec: dict[str, Any]) -> str:
        value = sc.profile.dou_value(MeldKind.ADDED.value) * _base(sc)
        for o in range(st.n):
            if o != robbed:
                _pay(rec, ItemKind.DOU, o, robbed, value, f"转弯豆 {code(w.tile)} (robbed)")
        return f"seat {robbed}'s robbed kong {code(w.tile)} paid as a dou"
    return _missettled(sc, "robbed_kong_paid", "R9.3", change)


def m_responsibility_missing(sc: Scan, rng: random.Random) -> Mutant | None:
    """R11.4: the 责任鸡 extra of a claimed first 1s (or 8p) left out of the ledger."""
    sett = sc.settlement
    assert sett is not None
    # (A house-rule payment (R17-R19) of the same pair and amount would be an equal reading of the gap.)
    extras = [i for i in sett.items if i.kind is ItemKind.CHICKEN and i.rule == "R11.4"
              and not any(is_house_rule(o.rule) and o.amount == i.amount for o in _pair(sett.items, i))]
    if not extras:
        return None
    item = rng.choice(extras)
    amount = item.amount * _base(sc)

    def change(rec: dict[str, Any]) -> str:
        res = rec["result"]
        mine = next(i for i in res["items"] if i["kind"] == ItemKind.CHICKEN and i["from"] == item.payer
                    and i["to"] == item.payee and i["amount"] == amount and i["note"] == _words(item, rec))
        res["items"].remove(mine)
        res["scores"][item.payer] += amount
        res["scores"][item.payee] -= amount
        return f"责任鸡 {item.payer}->{item.payee} left out"
    return _missettled(sc, "responsibility_missing", "R11.4", change)


def m_chicken_miscount(sc: Scan, rng: random.Random) -> Mutant | None:
    """R11.6: one chicken too many counted for a seat that earns plain chicken credits."""
    sett = sc.settlement
    st = sc.state
    assert sett is not None and st is not None
    credits = {i.payee for i in sett.items if i.kind is ItemKind.CHICKEN}
    plain = sorted(s for s in credits if all(i.rule == "R11.6" for i in sett.items if i.kind is ItemKind.CHICKEN
                                             and i.payee == s) and s not in sett.burned)
    if not plain:
        return None
    seat = rng.choice(plain)
    extra = sc.profile.chicken.normal * _base(sc)
    # R17.2: where qualifying seats do not pay each other, only the others pay a chicken credit.
    exempt = set() if sc.profile.chicken.qualified_pay_each_other else {t.seat for t in sett.chickens if t.qualifies}

    def change(rec: dict[str, Any]) -> str:
        for o in range(st.n):
            if o != seat and o not in exempt:
                _pay(rec, ItemKind.CHICKEN, o, seat, extra, "鸡 (one too many)")
        return f"seat {seat} credited one chicken too many"
    return _missettled(sc, "chicken_miscount", "R11.6", change)


def m_wrong_flip(sc: Scan, rng: random.Random) -> Mutant | None:
    """R11.5: the claimed flip tile is not the front of the wall after the win (or none was turned)."""
    st = sc.state
    assert st is not None
    turned = st.wall[st.front] if st.wins and st.wall_left > 0 else None
    wrong = rng.choice([t for t in range(NUM_KINDS) if t != turned])

    def change(rec: dict[str, Any]) -> str:
        rec["result"]["flip"] = code(wrong)
        return f"flip {code(wrong)} instead of {code(turned) if turned is not None else 'none'}"
    return _missettled(sc, "wrong_flip", "R11.5", change)


def m_wrong_next_dealer(sc: Scan, rng: random.Random) -> Mutant | None:
    """R14.1/R14.2/R14.3: another seat named as next dealer."""
    st = sc.state
    sett = sc.settlement
    assert st is not None and sett is not None
    rule = "R14.3" if not st.wins else ("R14.1" if len(st.wins) == 1 else "R14.2")
    wrong = rng.choice([s for s in range(st.n) if s != sc.record["result"]["next_dealer"]])

    def change(rec: dict[str, Any]) -> str:
        rec["result"]["next_dealer"] = wrong
        return f"next dealer {wrong}"
    return _missettled(sc, "wrong_next_dealer", rule, change)


def m_dou_not_ready(sc: Scan, rng: random.Random) -> Mutant | None:
    """R4.7: dou paid to a seat that neither won nor is ready, where the profile requires it."""
    st = sc.state
    sett = sc.settlement
    assert st is not None and sett is not None
    if not sc.profile.dou_requires_ready or not st.wins:
        return None
    sites = _unready_kongs(st, set(sett.burned), sett.items)
    if not sites:
        return None
    seat, meld = rng.choice(sites)

    def change(rec: dict[str, Any]) -> str:
        value = sc.profile.dou_value(meld.kind.value) * _base(sc)
        payers = [meld.from_seat] if meld.kind is MeldKind.EXPOSED else [o for o in range(st.n) if o != seat]
        for p in payers:
            if p is not None:
                _pay(rec, ItemKind.DOU, p, seat, value, f"豆 {code(meld.tile)} (seat not ready)")
        return f"seat {seat} (not ready) paid its {meld.kind.value} kong {code(meld.tile)}"
    return _missettled(sc, "dou_not_ready", "R4.7", change)


def _unready_kongs(st: GameState, burned: set[int], items: list[Any]) -> list[tuple[int, Any]]:
    """Scoring kongs of seats that did not win, are not burned, and fail the readiness test: no waits at
    the end (R3.3), or under R18.3 `ever` never ready after a discard. Left out: a seat the ledger pays
    any dou (under R18.2 a discarder is paid by a konger: a payment to it then names that rule), and
    under R18.2 the exposed kongs (their dou would go the other way)."""
    prof = st.profile
    ever = prof.dou_ready_test == "ever"
    konger_pays = prof.dou.exposed_payer == "konger"
    paid = {i.payee for i in items if i.kind is ItemKind.DOU}
    winners = {w.seat for w in st.wins}
    void = st.window.hot_kong if st.window is not None else None
    out = []
    for seat, s in enumerate(st.seats):
        if seat in winners or seat in burned or seat in paid:
            continue
        if (s.ready_step >= 0) if ever else bool(waits(s.hand, s.meld_tiles())):
            continue
        out += [(seat, m) for m in s.melds if m.is_kong and m.scores and m is not void
                and not (konger_pays and m.kind is MeldKind.EXPOSED)]
    return out


def m_scores_not_zero(sc: Scan, rng: random.Random) -> Mutant | None:
    """R15.1: one seat's claimed score off by one base, so the scores no longer sum to zero."""
    n = len(sc.record["seats"])
    seat = rng.randrange(n)

    def change(rec: dict[str, Any]) -> str:
        rec["result"]["scores"][seat] += _base(sc)
        return f"seat {seat} +{_base(sc)}"
    return _missettled(sc, "scores_not_zero", "R15.1", change)


# ------------------------------------------------------------------ R17 house-rule faults

def _pair(items: list[Any], it: Any) -> list[Any]:
    return [i for i in items if (i.kind, i.payer, i.payee) == (it.kind, it.payer, it.payee)]


def _item_sites(sett: Settlement, rule: str) -> list[Any]:
    """Computed payments under `rule` that are the only payment of their pair with that amount (so
    leaving one out is a difference the audit can only read as that payment)."""
    return [i for i in sett.items if i.rule == rule
            and sum(1 for o in _pair(sett.items, i) if o.amount == i.amount) == 1]


def _waived_sites(sett: Settlement, rule: str) -> list[Any]:
    """Payments `rule` cancels, alone of their pair among the cancelled ones with that amount."""
    return [i for i in sett.waived if i.rule == rule
            and sum(1 for o in _pair(sett.waived, i) if o.amount == i.amount) == 1]


def _unpay(rec: dict[str, Any], item: Any, amount: int) -> None:
    """Take one computed payment (in points) out of the claimed ledger, and its points out of `scores`."""
    res = rec["result"]
    alike = [i for i in res["items"] if i["kind"] == item.kind.value and i["from"] == item.payer
             and i["to"] == item.payee and i["amount"] == amount]
    # (its note as the engine words it; a record whose notes name the players otherwise, by the rest)
    mine = next((i for i in alike if i["note"] == _words(item, rec)), alike[0])
    res["items"].remove(mine)
    res["scores"][item.payer] += amount
    res["scores"][item.payee] -= amount


def _leave_out(cls: str, rule: str) -> Callable[[Scan, random.Random], Mutant | None]:
    """A platform that does not play the parameter: one payment it requires left out."""
    def mutator(sc: Scan, rng: random.Random) -> Mutant | None:
        sett = sc.settlement
        assert sett is not None
        sites = _item_sites(sett, rule)
        if not sites:
            return None
        item = rng.choice(sites)
        amount = item.amount * _base(sc)

        def change(rec: dict[str, Any]) -> str:
            _unpay(rec, item, amount)
            return f"{rule} {item.kind.value} {item.payer}->{item.payee} {amount} left out"
        return _missettled(sc, cls, rule, change)
    return mutator


def _pay_waived(cls: str, rule: str) -> Callable[[Scan, random.Random], Mutant | None]:
    """A platform that does not play the parameter: one payment it cancels paid all the same."""
    def mutator(sc: Scan, rng: random.Random) -> Mutant | None:
        sett = sc.settlement
        assert sett is not None
        sites = _waived_sites(sett, rule)
        if not sites:
            return None
        item = rng.choice(sites)
        amount = item.amount * _base(sc)

        def change(rec: dict[str, Any]) -> str:
            _pay(rec, item.kind, item.payer, item.payee, amount, f"{_words(item, rec)} ({rule} not played)")
            return f"{rule} cancels {item.kind.value} {item.payer}->{item.payee} {amount}, paid anyway"
        return _missettled(sc, cls, rule, change)
    return mutator


def m_r17_6_gold_missing(sc: Scan, rng: random.Random) -> Mutant | None:
    """R17.6: an 8p 金鸡 payment made without the gold multiplier (the pair has no other R17 payment)."""
    sett = sc.settlement
    assert sett is not None
    mult = sc.profile.chicken.gold_multiplier
    sites = [i for i in sett.items if i.rule == "R17.6" and i.amount % mult == 0
             and all(o is i or not o.rule.startswith("R17") for o in _pair(sett.items, i))
             and all(o.amount != i.amount - i.amount // mult for o in _pair(sett.items, i))]
    if not sites or mult < 2:
        return None
    item = rng.choice(sites)
    amount = item.amount * _base(sc)
    short = amount - amount // mult

    def change(rec: dict[str, Any]) -> str:
        res = rec["result"]
        mine = next(i for i in res["items"] if i["kind"] == item.kind.value and i["from"] == item.payer
                    and i["to"] == item.payee and i["amount"] == amount and i["note"] == _words(item, rec))
        mine["amount"] -= short
        res["scores"][item.payer] += short
        res["scores"][item.payee] -= short
        return f"8p 金鸡 {item.payer}->{item.payee} paid {amount - short} instead of {amount}"
    return _missettled(sc, "r17_6_gold_missing", "R17.6", change)


def m_r17_10_second_charge(sc: Scan, rng: random.Random) -> Mutant | None:
    """R17.10: the second species' 冲锋鸡 paid as well (every payment of its extra)."""
    sett = sc.settlement
    assert sett is not None
    dropped = [i for i in sett.waived if i.rule == "R17.10"]
    if not dropped or any(sum(1 for o in _pair(sett.waived, i) if o.amount == i.amount) > 1 for i in dropped):
        return None
    base = _base(sc)

    def change(rec: dict[str, Any]) -> str:
        for item in dropped:
            _pay(rec, item.kind, item.payer, item.payee, item.amount * base, f"{_words(item, rec)} (second 冲锋鸡)")
        return f"a second 冲锋鸡 paid ({len(dropped)} payments)"
    return _missettled(sc, "r17_10_second_charge", "R17.10", change)






# ------------------------------------------------------------------ R18 house-rule faults

def m_r18_2_paid_by_discarder(sc: Scan, rng: random.Random) -> Mutant | None:
    """R18.2: an exposed kong's dou paid the R4.7 way, by the discarder to the konger, instead of by the
    konger to the discarder (both payments of that kong's pair change)."""
    sett = sc.settlement
    assert sett is not None
    sites = [i for i in _item_sites(sett, "R18.2") if i.kind is ItemKind.DOU
             and sum(1 for o in sett.waived if (o.kind, o.payer, o.payee) == (i.kind, i.payee, i.payer)
                     and o.rule == "R18.2" and o.amount == i.amount) == 1]
    if not sites:
        return None
    item = rng.choice(sites)
    amount = item.amount * _base(sc)

    def change(rec: dict[str, Any]) -> str:
        _unpay(rec, item, amount)
        _pay(rec, item.kind, item.payee, item.payer, amount, "点豆 paid by its discarder (R18.2 not played)")
        return f"点豆 {item.payee}->{item.payer} {amount} instead of {item.payer}->{item.payee}"
    return _missettled(sc, "r18_2_paid_by_discarder", "R18.2", change)


OWN_FAULTS: dict[str, Callable[[Scan, random.Random], Mutant | None]] = {
    "r17_6_gold_missing": m_r17_6_gold_missing, "r17_10_second_charge": m_r17_10_second_charge,
    "r18_2_paid_by_discarder": m_r18_2_paid_by_discarder,
}
"""The house-rule faults a generic mutator cannot plant (`Fault.OWN` in audit/house_rules.py)."""


def _house_fault(section: HouseRuleSection) -> Callable[[Scan, random.Random], Mutant | None]:
    """The mutator of a house-rule section's class: a platform that does not play it (one payment it
    requires left out, or one it cancels paid), or its own (OWN_FAULTS)."""
    if section.fault is HouseRuleFault.LEAVE_OUT:
        return _leave_out(section.mutation, section.rule)
    if section.fault is HouseRuleFault.PAY_WAIVED:
        return _pay_waived(section.mutation, section.rule)
    return OWN_FAULTS[section.mutation]


HOUSE_SETTLEMENT: dict[str, Callable[[Scan, random.Random], Mutant | None]] = {
    sec.mutation: _house_fault(sec) for sec, _ in HOUSE_RULE_SECTIONS}
"""One fault per house-rule section (R17-R19): the audit must find it missettled citing that section."""

SETTLEMENT: dict[str, Callable[[Scan, random.Random], Mutant | None]] = {
    "wrong_pattern_value": m_wrong_pattern_value, "hot_shot_burn_ignored": m_hot_shot_burn_ignored,
    "rob_paid_by_three": m_rob_paid_by_three, "robbed_kong_paid": m_robbed_kong_paid,
    "chicken_miscount": m_chicken_miscount, "responsibility_missing": m_responsibility_missing,
    "wrong_flip": m_wrong_flip, "wrong_next_dealer": m_wrong_next_dealer, "dou_not_ready": m_dou_not_ready,
    "scores_not_zero": m_scores_not_zero, **HOUSE_SETTLEMENT,
}
MUTATORS = {**ILLEGAL, **SETTLEMENT}


# ------------------------------------------------------------------ driving

def mutants(record: dict[str, Any], seed: int = 0) -> list[Mutant]:
    """One mutant per class that the record has a place for; the choice is seeded by game_id."""
    sc = scan(record)
    rng = random.Random(seed ^ zlib.crc32(record["game_id"].encode("utf-8")))
    out = []
    for cls in CLASSES:
        if cls in ILLEGAL and cls in sc.sites and not sc.sites[cls]:
            continue
        m = MUTATORS[cls](sc, rng)
        if m is not None:
            out.append(m)
    return out


def stripped(m: Mutant) -> Mutant:
    """A mis-settled mutant as a scores-only platform records it: `result.items` removed (R16.16 then
    has only the nets to name the payment from); other mutants unchanged."""
    if m.expected.verdict != "missettled" or "items" not in m.record.get("result", {}):
        return m
    rec = copy.deepcopy(m.record)
    del rec["result"]["items"]
    return Mutant(m.mutation, m.expected, rec)


def load_records(path: Path) -> Iterator[dict[str, Any]]:
    """Records from a .jsonl, a .json (record or match), or a folder of .json files."""
    if path.is_dir():
        for p in sorted(path.glob("*.json")):
            yield from load_records(p)
        return
    for doc in read_file(path):  # strictly, as the audit reads them
        yield from (doc["hands"] if doc.get("format") == "zhuoji-match/1" else [doc])


def run(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Write every mutant of every record in IN to OUT (.jsonl), then the counts per class."""
    p = argparse.ArgumentParser(prog="python -m sim.mutate", description="One-fault mutants of clean records.")
    p.add_argument("src", metavar="IN", help="a .jsonl, a .json or a folder of clean records")
    p.add_argument("dst", metavar="OUT", help="the .jsonl of mutants to write")
    p.add_argument("--seed", type=argument(), default=0, help="mixed with each game_id to choose sites")
    p.add_argument("--strip-items", action="store_true",
                   help="write mis-settled mutants with scores only (no result.items), as most platforms record")
    args = p.parse_args(argv)
    out, err = out or sys.stdout, err or sys.stderr
    made: Counter[str] = Counter()
    total = 0
    try:
        with open(args.dst, "w", encoding="utf-8") as fh:
            for rec in load_records(Path(args.src)):
                total += 1
                for m in mutants(rec, args.seed):
                    made[m.mutation] += 1
                    m = stripped(m) if args.strip_items else m
                    fh.write(json.dumps(m.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=err)
        return 2
    out.write(counts_table(made, total) + "\n")
    return 0


def counts_table(made: Counter[str], total: int) -> str:
    """Mutants made per class, and how many source records had no place for it."""
    lines = [f"{total} clean records", f"{'class':<28} {'mutants':>7} {'skipped':>7}"]
    lines += [f"{c:<28} {made[c]:>7} {total - made[c]:>7}" for c in CLASSES]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
