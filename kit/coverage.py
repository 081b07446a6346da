"""What a kit case exercises, read from the engine's own replay and settlement.

The generator's intent (knobs, the simulator's tags) is never trusted: every
case is replayed here through `audit.replay.step`, late kongs are asked of the
engine's R4.6 test (`audit.state.first_chance`) before they are applied, pass
locks are the locks the engine set, and the rest is read from the end state
and the engine's settlement (`sim.simulate.end_tags` reads only those).
The items a kit must cover are listed here with the profiles they apply to,
so the build, the manifest's coverage table and the README say the same.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from audit.api import Profile
from audit.play import (HOUSE_RULE_SECTIONS, HOUSE_RULES, Event, GameState, HouseRule, Phase, Settlement, first_chance,
                        house_rules_played, is_house_rule, settle, start_state, step)
from audit.vocabulary import EventType, ItemKind, MeldKind, WinKind, section_of
from sim.simulate import end_tags

RARE_EVENTS = ("热炮", "抢杠", "一炮多响", "荒庄查叫", "报听(硬)", "报听(软)", "杀报", "冲锋鸡", "责任鸡", "金鸡",
               "乌骨鸡", "憨包豆", "过胡", "过碰", "must-win")
"""The rare events of issue 15, in table order (热炮 is further split by burn mode, see `hot_shot_items`)."""

SETTLEMENT_SECTIONS = ("R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13", "R14",
                       "R15")
"""The rulebook sections a played hand can exercise (R16 settles readings of these; the house rules of
R17-R19 and P are parameters)."""


@dataclass(frozen=True)
class Requirement:
    """One line of the coverage table: an item, the profiles it applies to, and how many cases it needs."""

    item: str
    group: str
    """`section`, `rule`, `event`, `parameter` or `rejection`."""
    applies: Callable[[Profile], bool]
    what: str
    """One line for the README: what a case must show to count."""


def _always(prof: Profile) -> bool:
    return True


def hot_shot_item(prof: Profile) -> str:
    """The 热炮 row of a profile: the burn mode named (and the transfer, where the profile plays it)."""
    out = f"热炮 burn={prof.hot_shot.burn}"
    return out + "+transfer_kong" if prof.hot_shot.transfer_kong else out


EVENT_APPLIES: dict[str, Callable[[Profile], bool]] = {
    "热炮": _always, "抢杠": _always, "一炮多响": _always, "荒庄查叫": _always,
    "报听(硬)": lambda p: p.declared is not None, "报听(软)": lambda p: p.declared is not None,
    "杀报": lambda p: p.kill_declared is not None, "冲锋鸡": lambda p: p.chicken.charge > 0,
    "责任鸡": lambda p: p.chicken.responsibility > 0, "金鸡": lambda p: p.chicken.gold_multiplier > 1,
    "乌骨鸡": lambda p: p.wugu_on, "憨包豆": _always, "过胡": _always, "过碰": lambda p: p.pass_pong_lock,
    "must-win": lambda p: bool(p.must_win),
}

SECTION_APPLIES: dict[str, Callable[[Profile], bool]] = {"R5": lambda p: p.declared is not None}
"""Sections a profile may not play at all: R5 报听 where the profile has no `declared` (senyan)."""

PARAMETERS: tuple[tuple[str, Callable[[Profile], bool], str], ...] = (
    ("self_draw_bonus", lambda p: p.self_draw_bonus > 0, "a self-drawn win (自摸)"),
    ("kong_flower_bonus", lambda p: p.kong_flower_bonus > 0, "a win on a kong's replacement draw (杠开)"),
    ("dou.concealed", _always, "a concealed kong (闷豆) paid"),
    ("dou.added", _always, "an added kong (转弯豆) paid"),
    ("dou.exposed", _always, "an exposed kong (点豆) paid"),
    ("dou_requires_ready", lambda p: p.dou_requires_ready, "a kong of a seat that neither won nor is ready"),
    ("late_kong_scores", _always, "a kong past its first chance (憨包豆)"),
    ("declared", lambda p: p.declared is not None, "a 报听 seat"),
    ("kill_declared", lambda p: p.kill_declared is not None, "a win on a declared seat's discard (杀报)"),
    ("hot_shot", _always, "a 热炮 whose burn changes the settlement"),
    ("rob_kong_burn", _always, "a 抢杠"),
    ("must_win", lambda p: bool(p.must_win), "a seat that had to win"),
    ("chicken.charge", lambda p: p.chicken.charge > 0, "a 冲锋鸡"),
    ("chicken.responsibility", lambda p: p.chicken.responsibility > 0, "a 责任鸡"),
    ("chicken.gold_multiplier", lambda p: p.chicken.gold_multiplier > 1, "a 金鸡 flip"),
    ("chicken_requires_ready", lambda p: p.chicken_requires_ready, "a won hand with a not-ready seat"),
    ("flip", _always, "a turned flip tile (翻牌)"),
    ("wugu_ji", lambda p: p.wugu_on, "an 8p chicken paid (乌骨鸡)"),
    ("dealer_bonus", lambda p: p.dealer_bonus is not None, "a dealer bonus item"),
    ("dealer_bonus_on_draw", lambda p: p.dealer_bonus is not None and p.dealer_bonus_on_draw,
     "a dealer bonus in 查叫"),
    ("double_win_next_dealer", _always, "several winners (R14.2)"),
    ("draw_next_dealer", _always, "an exhaustive draw (R14.3)"),
    ("pass_lock_until", _always, "a seat locked by a passed win (过胡)"),
    ("pass_pong_lock", lambda p: p.pass_pong_lock, "a passed pong (过碰)"),
)
"""Profile parameters (table P) and what a case must show to exercise each; `p:NAME` in a case's items."""

def _plays(rule: HouseRule) -> Callable[[Profile], bool]:
    return lambda prof: rule.played(prof) is not None


def _plays_section(top: str) -> Callable[[Profile], bool]:
    return lambda prof: any(section_of(sec.rule) == top for sec, _ in house_rules_played(prof))


HOUSE_SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(section_of(sec.rule) for sec, _ in HOUSE_RULE_SECTIONS))
"""The rulebook sections of house rules (R17, R18, R19), from the registry (audit/house_rules.py)."""


def requirements(prof: Profile, rejection_classes: tuple[str, ...]) -> list[Requirement]:
    """Every row of the coverage table, applicable or not (the table shows both)."""
    out = [Requirement(s, "section", SECTION_APPLIES.get(s, _always), f"rulebook section {s}")
           for s in SETTLEMENT_SECTIONS]
    for ev in RARE_EVENTS:
        name = hot_shot_item(prof) if ev == "热炮" else ev
        out.append(Requirement(name, "event", EVENT_APPLIES[ev], f"the rare event {ev}"))
    out += [Requirement(f"p:{name}", "parameter", applies, what) for name, applies, what in PARAMETERS]
    out += [Requirement(top, "section", _plays_section(top), f"rulebook section {top} (its house rules the profile "
                        "plays)") for top in HOUSE_SECTIONS]
    out += [Requirement(f"p:{rule.path}", "parameter", _plays(rule), " / ".join(sec.shows for sec in rule.sections))
            for rule in HOUSE_RULES]
    out += [Requirement(f"reject:{c}", "rejection", _always, f"a rejection case of class {c}")
            for c in rejection_classes]
    return out


# ------------------------------------------------------------------ one settlement case

@dataclass
class Exercised:
    """What one legal record exercised, by the engine's account, and the engine's settlement."""

    items: set[str]
    rules: set[str]
    state: GameState
    settlement: Settlement


def settlement_case(record: dict[str, Any], prof: Profile) -> Exercised:
    """Replay a legal record through the engine and list the sections, rules, events and parameters it exercised."""
    st = start_state(record, prof)
    tags: set[str] = set()
    for i, raw in enumerate(record["events"]):
        ev = Event.from_json(i, raw)
        late = (ev.type is EventType.KONG and isinstance(ev.kind, MeldKind) and ev.kind is not MeldKind.EXPOSED
                and ev.tile is not None and not first_chance(st, ev.seat, ev.tile, ev.kind))
        locks = [s.lock for s in st.seats]
        pong_locks = sum(len(s.pong_locks) for s in st.seats)
        finding = step(st, ev)
        if finding is not None:
            raise ValueError(f"{record.get('game_id')}: not a legal record at step {i} ({finding.rule})")
        if late:
            tags.add("憨包豆")
        if any(s.lock is not None and s.lock is not old for s, old in zip(st.seats, locks)):
            tags.add("过胡")
        if sum(len(s.pong_locks) for s in st.seats) > pong_locks:
            tags.add("过碰")
    if st.phase not in (Phase.WON, Phase.CLAIM):
        raise ValueError(f"{record.get('game_id')}: the record stops before the hand ends")
    sett = settle(st)
    tags |= end_tags(st, sett, record["events"])
    return _classify(record, st, sett, tags)


def _classify(record: dict[str, Any], st: GameState, sett: Settlement, tags: set[str]) -> Exercised:
    prof = st.profile
    rules = {it.rule for it in sett.items} | {sett.next_dealer_rule, "R1.2", "R10.1" if st.wins else "R10.2",
                                               "R15.1"}
    items = set()
    if "荒庄" in tags and sett.items:
        items.add("荒庄查叫")
    for tag in ("抢杠", "一炮多响", "报听(硬)", "报听(软)", "杀报", "冲锋鸡", "责任鸡", "金鸡", "乌骨鸡", "憨包豆",
                "过胡", "过碰", "must-win"):
        if tag in tags:
            items.add(tag)
    hot_effect = False
    w = st.window
    if "热炮" in tags and w is not None and not w.rob:
        hot_effect = settle(st, ignore_burn=True).scores() != sett.scores() or prof.hot_shot.transfer_kong
        if hot_effect:
            items.add(hot_shot_item(prof))
        rules |= {"R8.1", "R8.3"}
    types = {e["type"] for e in record["events"]}
    kongs = {e.get("kind") for e in record["events"] if e["type"] == EventType.KONG}
    rules.add("R2.3")
    if EventType.PONG in types:
        rules.add("R4.1")
    if kongs:
        rules.add("R4.2")
    if "憨包豆" in items:
        rules.add("R4.6")
    if any(s.declared for s in st.seats):
        rules.add("R5.1")
    if any(x.kind is not WinKind.SELF_DRAW for x in st.wins):
        rules.add("R7.1")
    if "抢杠" in items:
        rules.add("R9.1")
    if "must-win" in items:
        rules.add("R8.2" if w is not None and not w.rob else "R9.2")
    if "过胡" in items or "过碰" in items:
        rules.add("R13.1")
    if st.wins:
        rules |= {"R3.1", "R11.5"}
    if not st.wins:
        rules.add("R12.1")
    house = {it.rule for it in sett.items + sett.waived if is_house_rule(it.rule)}
    rules |= house
    items |= {f"p:{rule.path}" for sec, rule in house_rules_played(prof) if sec.rule in house}
    items |= {section_of(r) for r in rules}
    items |= _parameters(st, sett, tags, kongs, hot_effect, prof)
    return Exercised(items, rules, st, sett)


def _parameters(st: GameState, sett: Settlement, tags: set[str], kongs: set[Any], hot_effect: bool,
                prof: Profile) -> set[str]:
    dou = {it.params.get("kong") for it in sett.items if it.kind is ItemKind.DOU}
    winners = {w.seat for w in st.wins}
    unready = [s for s in range(st.n) if s not in winners and sett.ready.get(s) is None]
    checks = {
        "self_draw_bonus": "自摸" in tags, "kong_flower_bonus": "杠开" in tags,
        "dou.concealed": MeldKind.CONCEALED.value in dou, "dou.added": MeldKind.ADDED.value in dou,
        "dou.exposed": MeldKind.EXPOSED.value in dou,
        "dou_requires_ready": bool(st.wins) and any(any(m.is_kong for m in st.seats[s].melds) for s in unready),
        "late_kong_scores": "憨包豆" in tags,
        "declared": "报听(硬)" in tags or "报听(软)" in tags, "kill_declared": "杀报" in tags,
        "hot_shot": hot_effect, "rob_kong_burn": "抢杠" in tags, "must_win": "must-win" in tags,
        "chicken.charge": "冲锋鸡" in tags, "chicken.responsibility": "责任鸡" in tags,
        "chicken.gold_multiplier": "金鸡" in tags, "chicken_requires_ready": bool(st.wins) and bool(unready),
        "flip": sett.flip is not None, "wugu_ji": "乌骨鸡" in tags,
        "dealer_bonus": any(it.kind is ItemKind.DEALER for it in sett.items),
        "dealer_bonus_on_draw": not st.wins and any(it.kind is ItemKind.DEALER for it in sett.items),
        "double_win_next_dealer": len(st.wins) > 1, "draw_next_dealer": not st.wins,
        "pass_lock_until": "过胡" in tags, "pass_pong_lock": "过碰" in tags,
    }
    return {f"p:{k}" for k, ok in checks.items() if ok}
