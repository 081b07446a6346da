"""`python -m sim.simulate`: complete legal hands played by seeded bots, written as `zhuoji/1` records.

The simulator is the engine's strict policy: every move a bot proposes goes
through the replayer's one step (`audit.replay.step`: judge, apply, open the
claim window), and an illegal proposal raises `IllegalMoveError` (a bot or
engine bug, never a record). The result of each
record is the engine's own settlement, so a generated corpus audits clean by
construction; what it tests is that replaying the written JSON reaches the
same end as the live game, and it feeds `sim.mutate`, whose one-fault
mutants test the findings. Same seed, same bytes: only `random.Random(seed)`
decides anything, and no clock is read.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Final, TextIO

from audit.api import Profile, ProfileError, resolve
from audit.cli import UsageError, parse_option
from audit.play import (HOUSE_RULE_SECTIONS, HOUSE_RULES, Event, GameState, HouseRuleNeed, IllegalMoveError, Phase,
                        Settlement, Window, final_hand, first_chance, flip_of, hand_patterns, settle, step)
from audit.vocabulary import BIRD, COPIES, NUM_KINDS, WUGU, EventType, ItemKind, MeldKind, WinKind, argument, code
from sim.bots import Knobs, choose_discard, turn_move, window_moves

VERSION = "1.0"
NAMES = ("阿明", "小红", "老王", "志强", "秀英", "建国", "丽丽", "大伟", "Lily", "Tom", "Mei", "Kai", "Ana", "Bo")
"""Seat names: some Chinese, some Latin, as platforms send them."""
TZ = timezone(timedelta(hours=8))

HOUSE_TAGS: Final = {sec.rule: sec.tag for sec, _ in HOUSE_RULE_SECTIONS}
"""The summary row of each house-rule section (R17-R19, from audit/house_rules.py): a hand where one of
its payments is paid or waived."""

TAGS = ("自摸", "点炮", "抢杠", "一炮多响", "热炮", "荒庄", "查叫", "报听(硬)", "报听(软)", "杀报", "must-win",
        "过胡", "过碰", "pass", "碰", "闷豆", "转弯豆", "点豆", "憨包豆", "杠开", "金鸡", "翻牌", "责任鸡", "冲锋鸡",
        "乌骨鸡", "天胡", "地胡", "七对", "龙七对", "大对子", "清一色", "单吊", "3 players", *HOUSE_TAGS.values())
"""Summary rows in print order: how many hands had each event (then one row per house-rule section)."""

WUGU_NEEDS: Final = tuple(rule for rule in HOUSE_RULES if HouseRuleNeed("wugu_ji.enabled", True)
                          in rule.acts_under)
"""House rules that act only under 乌骨鸡 (R17.6, R17.9, R17.10): the simulator puts 8p in play for them."""
WUGU_VALUES: Final = {"normal": 2, "charge": 4}
"""乌骨鸡 values for a profile that has none of its own: the rulebook's option values (table P, cuocuo)."""


@dataclass
class Hand:
    """One played hand: the deal, the end state, the events as JSON and what happened."""

    deal: list[list[int]]
    wall: list[int]
    state: GameState
    events: list[dict[str, Any]]
    tags: set[str] = field(default_factory=set)
    decided: Window | None = None


@dataclass
class Table:
    """Who sits where and the running dealer of a match (R14.4)."""

    names: list[str]
    ids: list[str]
    base: int
    dealer: int
    streak: int = 0


@dataclass(frozen=True)
class Generated:
    """One record and the engine's view of it (for the summary and the tests)."""

    record: dict[str, Any]
    state: GameState
    settlement: Settlement
    tags: frozenset[str]


# ------------------------------------------------------------------ one hand

def deal_tiles(rng: random.Random, n: int, dealer: int, stacked: bool = False,
               spread: tuple[int, tuple[int, ...]] | None = None) -> tuple[list[list[int]], list[int]]:
    """Shuffle the 108 tiles; the dealer takes 14, the others 13 (R1.2); the rest is the wall.

    A `stacked` deal first builds one or two seats a ready hand out of the 108 (a
    whole one, sometimes, for the dealer) and shuffles the rest around it:
    deal + wall stay exactly the 108 tiles, and 报听, 地胡 and 天胡 stop being
    once-in-a-thousand events. A `spread` (tile, counts) deals that tile to as many seats
    as there are counts, that many copies each (three and one for R18.5, two, one and one
    for R17.4), where the four are still in the pool.
    """
    tiles = [t for t in range(NUM_KINDS) for _ in range(COPIES)]
    fixed: dict[int, list[int]] = {}
    if stacked:
        seats = rng.sample(range(n), 2 if rng.random() < 0.4 else 1)
        for seat in seats:
            fixed[seat] = _ready_hand(rng, tiles, seat == dealer)
    seeded: dict[int, list[int]] = {}
    free = [s for s in range(n) if s not in fixed]
    if spread is not None and tiles.count(spread[0]) == COPIES and len(free) >= len(spread[1]):
        tile, shares = spread
        seeded = {seat: [tile] * k for seat, k in zip(rng.sample(free, len(shares)), shares)}
        for _ in range(sum(shares)):
            tiles.remove(tile)
    rng.shuffle(tiles)
    deal: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for i in range(n):
        seat = (dealer + i) % n
        size = 14 if seat == dealer else 13
        if seat in fixed:
            deal[seat] = sorted(fixed[seat])
            continue
        own = seeded.get(seat, [])
        deal[seat] = sorted(own + tiles[pos:pos + size - len(own)])
        pos += size - len(own)
    return deal, tiles[pos:]


def _ready_hand(rng: random.Random, pool: list[int], dealer: bool) -> list[int]:
    """Four sets and a pair taken out of `pool`, less one tile (ready 13); a dealer gets a 14th tile,
    or one time in four keeps the whole hand (天胡)."""
    hand: list[int] = []
    while len(hand) < 14:
        group = _group(rng, pool, pair=len(hand) == 12)
        for t in group:
            pool.remove(t)
        hand += group
    if dealer and rng.random() < 0.25:
        return hand
    pool.append(hand.pop(rng.randrange(14)))
    if dealer:
        extra = rng.choice(pool)
        pool.remove(extra)
        hand.append(extra)
    return hand


def _group(rng: random.Random, pool: list[int], pair: bool) -> list[int]:
    """A pair, pung or run that the pool still holds."""
    while True:
        t = rng.choice(pool)
        if pair or rng.random() < 0.3:
            group = [t] * (2 if pair else 3)
        else:
            r = min(t % 9, 6)
            group = [t - t % 9 + r + k for k in range(3)]
        if all(pool.count(x) >= group.count(x) for x in group):
            return group


def play_hand(prof: Profile, rng: random.Random, knobs: Knobs, dealer: int, streak: int, n: int) -> Hand:
    """Play until the hand ends (R10): every move goes through the replay step (judged, then applied)."""
    spread = _spread(prof, rng, knobs)
    deal, wall = deal_tiles(rng, n, dealer, rng.random() < knobs.ready_deal, spread)
    hand = Hand(deal, wall, GameState.start(prof, dealer, streak, deal, wall), [])
    sloppy = [rng.random() < knobs.sloppy for _ in range(n)]
    queue: deque[Event] = deque()
    while True:
        if not queue:
            queue.extend(next_moves(hand, rng, knobs, sloppy))
            if not queue:
                return hand
        play(hand, queue.popleft())


def _spread(prof: Profile, rng: random.Random, knobs: Knobs) -> tuple[int, tuple[int, ...]] | None:
    """Sometimes a chicken tile dealt so that a house rule acts: three and one for R18.5 `keeps_charge`
    (the one discarded first, the three kong it; Knobs.bird_kong), two, one and one for R17.4 `any`
    (a later discard ponged; Knobs.feed_claim). Asked only under those profiles, so every other
    profile deals as before."""
    c = prof.chicken
    if c.exposed_kong_claim == "keeps_charge" and rng.random() < knobs.bird_kong:
        shares: tuple[int, ...] = (3, 1)
    elif c.responsibility_claims == "any" and rng.random() < knobs.feed_claim:
        shares = (2, 1, 1)
    else:
        return None
    return (WUGU if prof.wugu_on and rng.random() < 0.5 else BIRD), shares


def next_moves(hand: Hand, rng: random.Random, knobs: Knobs, sloppy: list[bool]) -> list[Event]:
    """The bots' next event(s) by phase; [] when the hand is over."""
    st = hand.state
    if st.phase is Phase.TURN:
        return [turn_move(st, rng, knobs, sloppy[st.actor])]
    if st.phase is Phase.AFTER_PONG:
        return [Event(0, EventType.DISCARD, st.actor, choose_discard(st, st.actor, rng, knobs, sloppy[st.actor]))]
    if st.phase is Phase.REPLACEMENT:
        return [Event(0, EventType.DRAW, st.actor, st.next_wall_tile(True))]
    if st.phase in (Phase.CLAIM, Phase.ROB) and st.window is not hand.decided:
        hand.decided = st.window
        return window_moves(st, rng, knobs)
    return []


def play(hand: Hand, ev: Event) -> None:
    """The strict policy: the replay step, raising if illegal; then write the event down."""
    st = hand.state
    ev.step = st.steps
    locks = [s.lock for s in st.seats]
    pong_locks = sum(len(s.pong_locks) for s in st.seats)
    late = (ev.type is EventType.KONG and isinstance(ev.kind, MeldKind) and ev.kind is not MeldKind.EXPOSED
            and ev.tile is not None and not first_chance(st, ev.seat, ev.tile, ev.kind))
    finding = step(st, ev)
    if finding is not None:
        raise IllegalMoveError(finding)
    if late:
        hand.tags.add("憨包豆")  # past its first chance (R4.6), whether or not the profile lets it score
    if any(s.lock is not None and s.lock is not old for s, old in zip(st.seats, locks)):
        hand.tags.add("过胡")
    if sum(len(s.pong_locks) for s in st.seats) > pong_locks:
        hand.tags.add("过碰")
    hand.events.append(ev.to_json())


# ------------------------------------------------------------------ records

def result_json(sett: Settlement, base: int, names: tuple[str, ...] = ()) -> dict[str, Any]:
    """The record's `result`: the engine's settlement, items without the audit-only `rule`; their
    notes name the players, as the audit's own do."""
    j = sett.to_json(base, names=names)
    items = [{k: it[k] for k in ("kind", "from", "to", "amount", "note")} for it in j["items"]]
    return {"scores": j["scores"], "next_dealer": j["next_dealer"], "flip": j["flip"], "items": items}


def make_record(game_id: str, played_at: datetime, prof_name: str, options: dict[str, Any], table: Table,
                dice: list[int], hand: Hand, sett: Settlement) -> dict[str, Any]:
    """A complete `zhuoji/1` record of a played hand."""
    st = hand.state
    return {
        "format": "zhuoji/1", "game_id": game_id, "played_at": played_at.isoformat(),
        "platform": "simulator", "client": f"sim.simulate {VERSION}",
        "rules": {"profile": prof_name, "options": options}, "base": table.base,
        "seats": [{"name": nm, "player_id": pid} for nm, pid in zip(table.names, table.ids)],
        "dealer": st.dealer, "dealer_streak": st.streak, "dice": dice,
        "deal": [[code(t) for t in d] for d in hand.deal], "wall": [code(t) for t in hand.wall],
        "events": hand.events, "result": result_json(sett, table.base, tuple(table.names)),
    }


def new_table(rng: random.Random, n: int) -> Table:
    """Fresh players, a base (mostly 1), and a dealer chosen by the dice."""
    names = rng.sample(NAMES, n)
    ids = [f"sim-u{rng.randrange(10000, 99999)}" for _ in range(n)]
    base = 1 if rng.random() < 0.8 else rng.choice((2, 5))
    return Table(names, ids, base, rng.randrange(n))


def playable(prof_name: str, options: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The options to play, and the parameters that made 乌骨鸡 come into play: an R17 value that acts
    only under `wugu_ji` (WUGU_NEEDS) would never act without 8p, so 8p is put in play, at the
    profile's own values (`true`) or, where it has none, at WUGU_VALUES. An explicit `wugu_ji` is kept."""
    prof = resolve(prof_name, options)
    needs = [rule.path for rule in WUGU_NEEDS if rule.section_of(rule.value(prof)) is not None]
    if not needs or prof.wugu_on or "wugu_ji" in options:
        return options, []
    return {**options, "wugu_ji": True if prof.wugu_ji is not None else dict(WUGU_VALUES)}, needs


def simulate(prof_name: str, options: dict[str, Any], count: int, seed: int, *, players: int = 4,
             knobs: Knobs | None = None, table_hands: int = 8, match: bool = False) -> Iterator[Generated]:
    """`count` hands; dealer and streak follow the previous hand (R14) within a table of `table_hands`.
    Options that act only under 乌骨鸡 bring it into play (`playable`); the records carry the options played."""
    options, _ = playable(prof_name, options)
    prof = resolve(prof_name, options)
    if players not in prof.players:
        raise ProfileError("players", "players_not_in_profile", {"profile": prof.name, "players": list(prof.players)})
    knobs = knobs or Knobs()
    rng = random.Random(seed)
    start = datetime(2026, 3, 1, 19, 0, tzinfo=TZ) + timedelta(days=seed % 28)
    table = new_table(rng, players)
    for k in range(count):
        if k and not match and k % table_hands == 0:
            table = new_table(rng, players)
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        hand = play_hand(prof, rng, knobs, table.dealer, table.streak, players)
        sett = settle(hand.state)
        rec = make_record(f"sim-{prof_name}-{seed}-{k:04d}", start + timedelta(minutes=9 * k), prof_name, options,
                          table, dice, hand, sett)
        yield Generated(rec, hand.state, sett, frozenset(hand.tags | end_tags(hand.state, sett, hand.events)))
        table.dealer, table.streak = sett.next_dealer, sett.next_dealer_streak


# ------------------------------------------------------------------ what happened

def end_tags(st: GameState, sett: Settlement, events: list[dict[str, Any]]) -> set[str]:
    """Events of a hand read from the engine's end state and settlement (the summary's rows)."""
    out = {t for t, ok in _kind_tags(st, events).items() if ok}
    out |= _win_tags(st, sett)
    if st.n == 3:
        out.add("3 players")
    return out


def _kind_tags(st: GameState, events: list[dict[str, Any]]) -> dict[str, bool]:
    kongs = {e.get("kind") for e in events if e["type"] == EventType.KONG}
    types = {e["type"] for e in events}
    return {
        "pass": EventType.PASS in types, "碰": EventType.PONG in types, "闷豆": MeldKind.CONCEALED in kongs,
        "转弯豆": MeldKind.ADDED in kongs, "点豆": MeldKind.EXPOSED in kongs, "报听(硬)": any(s.declared == "hard" for s in st.seats),
        "报听(软)": any(s.declared == "soft" for s in st.seats),
    }


def _win_tags(st: GameState, sett: Settlement) -> set[str]:
    w = st.window
    if not st.wins:
        return {"荒庄"} | ({"查叫"} if sett.items else set()) | house_tags(sett)
    kinds = {x.kind for x in st.wins}
    flip = flip_of(st.profile, sett.flip)
    fcs = list(st.first_chicken.values())
    checks = {
        "自摸": WinKind.SELF_DRAW in kinds, "点炮": WinKind.DISCARD in kinds, "抢杠": WinKind.ROB in kinds,
        "一炮多响": len(st.wins) > 1, "热炮": w is not None and not w.rob and w.hot_kong is not None,
        "杀报": any(x.kind is WinKind.DISCARD and x.source is not None and st.seats[x.source].declared for x in st.wins),
        "must-win": w is not None and bool(w.must_win), "杠开": any(x.kong_flower for x in st.wins),
        "金鸡": flip is not None and flip.gold, "翻牌": flip is not None,
        "责任鸡": any(fc.claimed_by is not None for fc in fcs),
        "冲锋鸡": any(fc.claimed_by is None and not fc.won_on for fc in fcs),
        "乌骨鸡": st.profile.wugu_on and any(it.kind is ItemKind.CHICKEN and part["params"].get("chicken") == "8p"
                                          for it in sett.items for part in it.params.get("parts", ())),
        "天胡": any(x.situational and x.situational[0].key == "tian_hu" for x in st.wins),
        "地胡": any(x.situational and x.situational[0].key == "di_hu" for x in st.wins),
    }
    return {t for t, ok in checks.items() if ok} | _pattern_tags(st) | house_tags(sett)


def house_tags(sett: Settlement) -> set[str]:
    """The rows of the house-rule sections one of whose payments the hand paid or waived."""
    return {HOUSE_TAGS[it.rule] for it in (*sett.items, *sett.waived) if it.rule in HOUSE_TAGS}


def _pattern_tags(st: GameState) -> set[str]:
    """The shapes the winners held (R3.2), named without the 清 prefix."""
    out = set()
    for w in st.wins:
        s = st.seats[w.seat]
        found = hand_patterns(final_hand(st, w.seat), len(s.melds), s.meld_tiles(), w.tile)
        names = {p.key for p in found}
        for key, tag in (("qi_dui", "七对"), ("long_qi_dui", "龙七对"), ("da_dui_zi", "大对子"),
                         ("qing_yi_se", "清一色"), ("dan_diao", "单吊")):
            if key in names:
                out.add(tag)
    return out


def summary(gens: Sequence[Generated]) -> Counter[str]:
    """How many hands had each event."""
    out: Counter[str] = Counter()
    for g in gens:
        out.update(g.tags)
    return out


def summary_table(counts: Counter[str], total: int, title: str) -> str:
    """A plain-text table of the summary, rows in TAGS order."""
    lines = [f"{title}: {total} hands", f"{'event':<12} {'hands':>6} {'share':>7}"]
    for tag in TAGS:
        if counts.get(tag):
            lines.append(f"{tag:<12} {counts[tag]:>6} {100 * counts[tag] / max(total, 1):>6.1f}%")
    return "\n".join(lines)


# ------------------------------------------------------------------ output

def dumps(doc: Any, *, pretty: bool = False) -> str:
    """Stable JSON text: the same document always gives the same bytes."""
    if pretty:
        return json.dumps(doc, ensure_ascii=False, indent=1)
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def write(records: list[dict[str, Any]], out: Path, *, match: bool, table_id: str) -> None:
    """A match file, a `.jsonl` (one record a line), or a folder of `.json` files."""
    if match:
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = {"format": "zhuoji-match/1", "table_id": table_id, "hands": records}
        out.write_text(dumps(doc, pretty=True) + "\n", encoding="utf-8")
    elif out.suffix == ".jsonl":
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    else:
        out.mkdir(parents=True, exist_ok=True)
        for r in records:
            (out / f"{r['game_id']}.json").write_text(dumps(r, pretty=True) + "\n", encoding="utf-8")


def build_parser() -> argparse.ArgumentParser:
    """The command line (docs/simulator.md)."""
    p = argparse.ArgumentParser(prog="python -m sim.simulate", description="Generate legal zhuoji/1 hands.")
    p.add_argument("--profile", default="weile", help="rule profile (default weile)")
    p.add_argument("--hands", type=argument(1), default=100, help="how many hands (default 100)")
    p.add_argument("--seed", type=argument(), default=1, help="random seed: same seed, same bytes")
    p.add_argument("--out", required=True, help="a .jsonl file, a folder of .json files, or with --match a .json")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="profile option, as rules.options (repeatable)")
    p.add_argument("--players", type=argument(3, 4), default=4, choices=(3, 4), help="3 where the profile allows it")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=P", help="bot probability (repeatable)")
    p.add_argument("--table-hands", type=argument(1), default=8, help="hands per table before new players sit down")
    p.add_argument("--match", action="store_true", help="write one zhuoji-match/1 file: one table, every hand")
    p.add_argument("--quiet", action="store_true", help="no summary")
    return p


def run(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Parse, simulate, write, print the summary; 2 on a usage error."""
    args = build_parser().parse_args(argv)
    out, err = out or sys.stdout, err or sys.stderr
    try:
        options = dict(parse_option(o) for o in args.option)
        options, needs = playable(args.profile, options)
        if needs and not args.quiet:
            out.write(f"乌骨鸡 (wugu_ji={json.dumps(options['wugu_ji'])}) put in play: {', '.join(needs)} "
                      "acts only under it\n")
        knobs = Knobs.with_overrides(dict(parse_option(k) for k in args.knob))
        gens = list(simulate(args.profile, options, args.hands, args.seed, players=args.players, knobs=knobs,
                             table_hands=args.table_hands, match=args.match))
    except (UsageError, ProfileError, ValueError) as exc:
        print(f"error: {exc}", file=err)
        return 2
    try:  # a folder where a file goes, or a file where the folder of .json files goes (issue 34.3)
        write([g.record for g in gens], Path(args.out), match=args.match, table_id=f"sim-{args.profile}-{args.seed}")
    except OSError as exc:
        print(f"error: --out {args.out}: cannot write there ({exc.strerror or exc})", file=err)
        return 2
    if not args.quiet:
        out.write(summary_table(summary(gens), len(gens), f"{args.profile} seed {args.seed}") + "\n")
    return 0


def main() -> None:
    """Console entry point."""
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()

__all__ = ["Generated", "Hand", "Knobs", "simulate", "play_hand", "summary", "summary_table"]
