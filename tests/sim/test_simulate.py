"""Tests of sim.simulate: generated hands are legal, clean, varied, and the same for the same seed.

Every generated record must audit `clean` (the simulator plays the engine's
strict policy, so anything else is a simulator or engine bug). On top of that,
an event-level oracle below re-reads each record without the engine's state
and checks the settlement facts it can decide on its own: which kongs are
憨包豆 (R4.6), the flip tile (R11.5), the next dealer (R14), who pays under
抢杠 and 热炮 (R8.3, R9.3), and that an exhaustive draw settles only 查叫 (R12).

Size: SIM_HANDS hands per configuration (default 110, about 30 s for this
file on two cores); set SIM_HANDS=1000 for the long run.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from audit import hands, house_rules
from audit.engine import audit_hand, audit_match_hands
from audit.profiles import Profile, resolve
from sim.simulate import Generated, TAGS, run, simulate, summary
from audit.tiles import counts, parse, parse_all

HANDS = int(os.environ.get("SIM_HANDS", "110"))
R18_ALL: dict[str, Any] = {"dealer_bonus": {"base": 1, "per_streak": 1, "mode": "sum", "on": "dealer_wins"},
                           "dou.exposed_payer": "konger", "dou_ready_test": "ever",
                           "hot_shot.burn_liabilities": "void", "chicken.exposed_kong_claim": "keeps_charge"}
"""The five R18 conventions on at once (weile has no dealer bonus: one is given, kuhu's kind)."""
R19_ALL: dict[str, Any] = {h.path: sec.values[0] if sec.values else h.tries[-1] for sec, h in house_rules.SECTIONS
                           if sec.rule.startswith("R19.")}
"""Every R19 value at once (R19.2 and R19.4 as values of R17.3's and R18.4's parameters)."""

CONFIGS: dict[str, tuple[str, dict[str, Any], int]] = {
    "weile": ("weile", {}, 4),
    "cuocuo": ("cuocuo", {}, 4),
    "cuocuo-options": ("cuocuo", {"jian_dou_san": True, "wugu_ji": True, "flip": "up_down"}, 4),
    "kuhu": ("kuhu", {}, 4),
    "senyan": ("senyan", {}, 4),
    "guizhou": ("guizhou", {}, 4),
    "guizhou-3p": ("guizhou", {"jian_dou_san": True}, 3),
    "weile-r17": ("weile", {"wugu_ji": {"normal": 2, "charge": 4}, "chicken.exposed_payers": "all_unready",
                            "chicken.qualified_pay_each_other": False, "chicken.claimed_charge": "to_claimer",
                            "chicken.responsibility_claims": "any", "chicken.responsibility_if_discarder_ready": False,
                            "chicken.wugu_gold": True, "dou_unready": "reverse", "follow_dealer": 1,
                            "chicken.wugu_responsibility": False, "chicken.charge_scope": "first_any"}, 4),
    "weile-r17b": ("weile", {"wugu_ji": {"normal": 2, "charge": 4}, "chicken.wugu_gold": True,
                             "chicken.responsibility_claims": "any"}, 4),
    "weile-r18": ("weile", {**R18_ALL}, 4),
    "weile-r19": ("weile", {**R19_ALL}, 4),
    "weile-r18x": ("weile", {**R18_ALL, "wugu_ji": {"normal": 2, "charge": 4},
                             "chicken.exposed_payers": "all_unready", "chicken.qualified_pay_each_other": False,
                             "chicken.claimed_charge": "to_claimer", "chicken.responsibility_claims": "any",
                             "chicken.responsibility_if_discarder_ready": False, "dou_unready": "reverse",
                             "follow_dealer": 1}, 4),
}
"""Every profile, the options that change the most code paths, a 3-player table, every R17 house
rule on at once, and two of them alone (8p 金鸡, 责任鸡 for any claim: the others' payments would
share their pairs), the five R18 conventions on at once, and with the R17 rules that touch the same
payments (R18.6), every R19 value at once (from the registry); named to sort last, so the other
configurations keep their seeds."""

EVENT_KINDS = {"draw", "discard", "declare", "pong", "pass", "kong:concealed", "kong:added", "kong:exposed",
               "win:self_draw", "win:discard", "win:rob"}
RARE = {"热炮", "抢杠", "一炮多响", "荒庄", "查叫", "报听(硬)", "报听(软)", "杀报", "must-win", "过胡", "过碰", "憨包豆",
        "杠开", "金鸡", "责任鸡", "冲锋鸡", "乌骨鸡", "3 players", "七对", "大对子", "清一色", "跟庄", "倒赔",
        "庄赢才加", "点豆反付", "听过收豆", "两边全烧", "点豆冲锋"}
"""Summary rows that must each appear at least once across the run (天胡/地胡 are welcome, not required)."""


@lru_cache(maxsize=None)
def corpus(name: str) -> tuple[Generated, ...]:
    """The generated hands of one configuration (cached: test_mutate reuses them)."""
    prof, options, players = CONFIGS[name]
    seed = 1000 + sorted(CONFIGS).index(name)
    return tuple(simulate(prof, options, HANDS, seed, players=players))


# ------------------------------------------------------------------ clean, varied, deterministic

@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_generated_record_audits_clean(name: str) -> None:
    bad = []
    for g in corpus(name):
        a = audit_hand(json.loads(json.dumps(g.record))).to_json()
        if a["verdict"] != "clean":
            bad.append((g.record["game_id"], a["findings"][:2]))
    assert not bad, bad[:3]


def test_every_event_kind_and_rare_event_appears() -> None:
    kinds: set[str] = set()
    tags = set()
    for name in CONFIGS:
        tags |= set(summary(corpus(name)))
        for g in corpus(name):
            kinds |= {e["type"] + (f":{e['kind']}" if e["type"] in ("kong", "win") else "") for e in g.record["events"]}
    assert EVENT_KINDS <= kinds, EVENT_KINDS - kinds
    assert RARE <= tags, RARE - tags
    assert tags <= set(TAGS)


def test_records_follow_the_contract() -> None:
    g = corpus("guizhou-3p")[0]
    rec = g.record
    assert rec["format"] == "zhuoji/1" and rec["platform"] == "simulator"
    assert rec["game_id"] == "sim-guizhou-1003-0000"
    assert rec["client"].startswith("sim.simulate ")
    assert rec["rules"] == {"profile": "guizhou", "options": {"jian_dou_san": True}}
    assert len(rec["seats"]) == 3 and len(rec["deal"]) == 3
    assert sorted(sum(rec["deal"], []) + rec["wall"]) == sorted(c for c in _all_codes() for _ in range(4))
    bases = {h.record["base"] for n in CONFIGS for h in corpus(n)}
    assert 1 in bases and bases - {1}
    names = {s["name"] for n in CONFIGS for h in corpus(n) for s in h.record["seats"]}
    assert any(ord(ch) > 0x4E00 for nm in names for ch in nm)


def _all_codes() -> list[str]:
    return [f"{r}{s}" for s in "mps" for r in range(1, 10)]


def test_hands_of_a_table_follow_the_dealer() -> None:
    hands_ = corpus("weile")
    for prev, cur in zip(hands_, hands_[1:]):
        if prev.record["seats"] == cur.record["seats"]:
            assert cur.record["dealer"] == prev.settlement.next_dealer
            assert cur.record["dealer_streak"] == prev.settlement.next_dealer_streak


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    args = ["--profile", "cuocuo", "--hands", "12", "--quiet"]
    assert run([*args, "--seed", "5", "--out", str(tmp_path / "a.jsonl")]) == 0
    assert run([*args, "--seed", "5", "--out", str(tmp_path / "b.jsonl")]) == 0
    assert run([*args, "--seed", "6", "--out", str(tmp_path / "c.jsonl")]) == 0
    a, b, c = ((tmp_path / f"{x}.jsonl").read_bytes() for x in "abc")
    assert a == b and a != c


def test_match_file_audits_clean_with_continuity(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    assert run(["--profile", "kuhu", "--hands", "10", "--seed", "3", "--match", "--out", str(out), "--quiet"]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["format"] == "zhuoji-match/1" and len(doc["hands"]) == 10
    assert all(a.to_json()["verdict"] == "clean" for a in audit_match_hands(doc))


def test_folder_output_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--profile", "senyan", "--hands", "3", "--seed", "2", "--out", str(tmp_path / "dir")]) == 0
    assert len(list((tmp_path / "dir").glob("sim-senyan-2-*.json"))) == 3
    assert "senyan seed 2: 3 hands" in capsys.readouterr().out


@pytest.mark.parametrize("where", ["a folder over a file", "a file over a folder", "a match over a folder"])
def test_an_out_that_cannot_be_written_is_an_error_exit_2(tmp_path: Path, where: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 34.3: `--out` naming an existing file where the folder of .json files goes (and the
    other way round) was a traceback."""
    existing = tmp_path / "taken"
    if where == "a folder over a file":
        existing.write_bytes(b"someone's file")
        argv = ["--out", str(existing)]
    else:
        existing = tmp_path / "taken.jsonl" if where == "a file over a folder" else tmp_path / "taken.json"
        existing.mkdir()
        argv = ["--out", str(existing)] + (["--match"] if where == "a match over a folder" else [])
    assert run(["--profile", "weile", "--hands", "2", "--quiet", *argv]) == 2
    assert capsys.readouterr().err.startswith("error: --out")
    assert existing.is_dir() or existing.read_bytes() == b"someone's file"


@pytest.mark.parametrize("argv", [
    ["--profile", "weile", "--players", "3"],
    ["--profile", "weile", "--option", "bao_pai=true"],
    ["--profile", "nosuch"],
    ["--knob", "nosuch=0.5"],
])
def test_usage_errors_exit_2(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run([*argv, "--hands", "1", "--out", str(tmp_path / "x.jsonl")]) == 2
    assert "error:" in capsys.readouterr().err


# ------------------------------------------------------------------ event-level oracle

@dataclass
class Walk:
    """What the events alone say about a hand (no engine state involved)."""

    hands: list[list[int]]
    melds: list[list[tuple[str, int, int | None]]]
    first_chance: dict[int, bool] = field(default_factory=dict)
    normal_draws: int = 0
    replacement_draws: int = 0
    wins: list[tuple[int, str, int | None]] = field(default_factory=list)
    hot: int | None = None
    last_kong_kind: str | None = None
    kongs: list[Kong] = field(default_factory=list)
    ever_ready: set[int] = field(default_factory=set)
    """Seats whose hand was ready right after one of their own discards (R18.3 `ever`)."""


@dataclass
class Kong:
    """One kong as the events show it: who, which kind, of what, from whom, at its first chance (R4.6)."""

    seat: int
    kind: str
    tile: int
    src: int | None
    first: bool
    robbed: bool = False


def walk(rec: dict[str, Any]) -> Walk:
    """Track hands, melds, draws and R4.6 first chances by reading the events in order."""
    n = len(rec["deal"])
    w = Walk([counts(parse_all(d)) for d in rec["deal"]], [[] for _ in range(n)])
    turn_tiles: list[set[int]] = [set() for _ in range(n)]
    draws = [0] * n
    drawn_before_turn = [0] * n
    discarded = [0] * n
    held_three: dict[tuple[int, int], bool] = {}
    kong_turn: int | None = None
    last_src: int | None = None
    prev = None
    for i, e in enumerate(rec["events"]):
        s = e["seat"]
        t: Any = parse(e["tile"]) if "tile" in e else None  # every event that uses it has a tile
        if e["type"] == "draw":
            if prev == "kong":
                w.replacement_draws += 1
            else:
                w.normal_draws += 1
                drawn_before_turn[s] = draws[s]
                turn_tiles[s] = set()
                kong_turn = None
            draws[s] += 1
            turn_tiles[s].add(t)
            w.hands[s][t] += 1
        elif e["type"] == "discard":
            w.hands[s][t] -= 1
            discarded[s] += 1
            w.hot = s if kong_turn == s else None
            kong_turn, last_src = None, s
            if _ready(w, s):
                w.ever_ready.add(s)
        elif e["type"] == "pong":
            held_three[(s, t)] = w.hands[s][t] >= 3
            w.hands[s][t] -= 2
            w.melds[s].append(("pong", t, last_src))
            kong_turn = None
        elif e["type"] == "kong":
            if e["kind"] == "exposed":
                turn_tiles[s], drawn_before_turn[s] = set(), draws[s]
            first_turn = discarded[s] == 0 if s == rec["dealer"] else drawn_before_turn[s] == 0
            w.first_chance[i] = _kong(w, e, s, t, turn_tiles[s], first_turn, held_three, last_src)
            w.kongs.append(Kong(s, e["kind"], t, last_src if e["kind"] == "exposed" else None, w.first_chance[i]))
            kong_turn, w.last_kong_kind = s, e["kind"]
            last_src = s if e["kind"] == "added" else last_src
        elif e["type"] == "win":
            w.wins.append((s, e["kind"], None if e["kind"] == "self_draw" else last_src))
            if e["kind"] == "rob" and last_src is not None:
                w.melds[last_src] = [("pong", x, f) if k == "added" and x == t else (k, x, f)
                                     for k, x, f in w.melds[last_src]]
                for k in w.kongs:
                    if k.seat == last_src and k.tile == t and k.kind == "added":
                        k.robbed = True
        if e["type"] != "pass":
            prev = e["type"]
    return w


def _kong(w: Walk, e: dict[str, Any], s: int, t: int, turn: set[int], first_turn: bool,
          held_three: dict[tuple[int, int], bool], src: int | None) -> bool:
    """Apply a kong to the walk; return whether R4.6 calls it a first-chance kong.

    The seat's first turn: the dealer's until its first discard (R16.7); a
    non-dealer's is the turn of its first draw, a pong claim not counting
    (R16.2) and an exposed-kong claim counting (docs/decisions.md #9)."""
    kind = e["kind"]
    if kind == "exposed":
        w.hands[s][t] -= 3
        w.melds[s].append(("exposed", t, src))
        return True
    if kind == "concealed":
        w.hands[s][t] -= 4
        w.melds[s].append(("concealed", t, None))
        return t in turn or first_turn
    w.hands[s][t] -= 1
    w.melds[s] = [("added", t, None) if m[1] == t and m[0] == "pong" else m for m in w.melds[s]]
    return t in turn and not held_three[(s, t)]


def _ready(w: Walk, seat: int) -> bool:
    tiles = [m[1] for m in w.melds[seat] for _ in range(3 if m[0] == "pong" else 4)]
    return bool(hands.waits(w.hands[seat], tiles))


def _items(rec: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i for i in rec["result"]["items"] if i["kind"] == kind]


def _profile(rec: dict[str, Any]) -> Profile:
    return resolve(rec["rules"]["profile"], rec["rules"]["options"])


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_oracle_late_kongs(name: str) -> None:
    """R4.6/R16.2: where late kongs do not score, the engine's 憨包豆 are exactly the oracle's late kongs."""
    for g in corpus(name):
        w = walk(g.record)
        melds = {m.step: m for s in g.state.seats for m in s.melds}
        for step, first in w.first_chance.items():
            m = melds.get(step)
            if m is None or m.robbed:
                continue
            want = first or g.state.profile.late_kong_scores
            assert m.scores == want, (g.record["game_id"], step)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_oracle_flip_and_next_dealer(name: str) -> None:
    """R11.5: the turned tile is the wall's front after the win; R14: the next dealer from the events."""
    for g in corpus(name):
        rec, w = g.record, walk(g.record)
        left = len(rec["wall"]) - w.normal_draws - w.replacement_draws
        want_flip = rec["wall"][w.normal_draws] if w.wins and left > 0 else None
        assert rec["result"]["flip"] == want_flip, rec["game_id"]
        assert rec["result"]["next_dealer"] == _next_dealer(rec, w), rec["game_id"]


def _next_dealer(rec: dict[str, Any], w: Walk) -> int:
    prof, n, dealer = _profile(rec), len(rec["seats"]), rec["dealer"]
    winners = [s for s, _, _ in w.wins]
    if len(winners) == 1:
        return winners[0]
    if winners:
        src = w.wins[0][2]
        assert src is not None
        if len(winners) == n - 1 or prof.double_win_next_dealer == "discarder":
            return src
        return next(s for s in ((dealer + i) % n for i in range(n)) if s in winners)
    ready = [s for s in range(n) if _ready(w, s)]
    if prof.draw_next_dealer == "stay" or len(ready) in (0, n):
        return dealer
    if len(ready) == n - 1:
        return next(s for s in range(n) if s not in ready)
    return dealer if dealer in ready else next(s for s in ((dealer + i) % n for i in range(1, n)) if s in ready)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_oracle_exhaustive_draw_settles_only_cha_jiao(name: str) -> None:
    """R12: no dou, no chickens; each seat not ready pays each ready seat, nobody else pays."""
    for g in corpus(name):
        rec, w = g.record, walk(g.record)
        if w.wins:
            continue
        n = len(rec["seats"])
        assert {i["kind"] for i in rec["result"]["items"]} <= {"draw_settle", "dealer"}
        ready = {s for s in range(n) if _ready(w, s)}
        pairs = {(i["from"], i["to"]) for i in _items(rec, "draw_settle")}
        want = set() if len(ready) in (0, n) else {(p, r) for p in range(n) if p not in ready for r in ready}
        assert pairs == want, rec["game_id"]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_oracle_rob_and_hot_shot_payers(name: str) -> None:
    """R9.3: only the robbed seat pays a robber's hand; R8.3/R9.3 burns: no chicken credits to a burned
    seat, except (R18.4 `void`) the 责任鸡 the discarder of a first chicken it claimed owes it."""
    for g in corpus(name):
        rec, w = g.record, walk(g.record)
        prof = _profile(rec)
        for seat, kind, src in w.wins:
            if kind == "rob":
                assert {i["from"] for i in _items(rec, "hand") if i["to"] == seat} == {src}, rec["game_id"]
        if _hot_shot(w):
            _check_transfer(rec, w, prof)
        burned = _burned(w, prof)
        if burned is None:
            continue
        paid = [i for i in _items(rec, "chicken") if i["to"] == burned]
        if prof.hot_shot.burn_liabilities == "void" and not _robbed(w):
            owed = prof.chicken.responsibility * rec["base"]
            discarders = _claimed_from(rec, burned)
            paid = [i for i in paid if not (i["from"] in discarders and i["amount"] == owed)]
        assert not paid, (rec["game_id"], paid)


def _hot_shot(w: Walk) -> bool:
    return w.hot is not None and bool(w.wins) and w.wins[0][1] == "discard"


def _robbed(w: Walk) -> int | None:
    return next((src for _, kind, src in w.wins if kind == "rob"), None)


def _burned(w: Walk, prof: Profile) -> int | None:
    """The seat whose dou and chicken credits a 热炮 (burn `all`) or a rob (`rob_kong_burn`) burns."""
    robbed = _robbed(w)
    if robbed is not None:
        return robbed if prof.rob_kong_burn else None
    return w.hot if _hot_shot(w) and prof.hot_shot.burn == "all" else None


def _claimed_from(rec: dict[str, Any], seat: int) -> set[int]:
    """Who discarded the first 1s / 8p that `seat` claimed (pong or exposed kong right after it)."""
    seen: set[str] = set()
    out: set[int] = set()
    events = rec["events"]
    for i, e in enumerate(events):
        if e["type"] == "discard" and e["tile"] in ("1s", "8p") and e["tile"] not in seen:
            seen.add(e["tile"])
            nxt = next((x for x in events[i + 1:] if x["type"] != "pass"), None)
            if nxt is not None and nxt["type"] in ("pong", "kong") and nxt["seat"] == seat:
                out.add(e["seat"])
    return out


def _check_transfer(rec: dict[str, Any], w: Walk, prof: Profile) -> None:
    """R8.3 transfer_kong: the shooter pays each winner what its last kong would have earned (R18.2
    `konger`: an exposed kong earns the konger nothing, so nothing is transferred)."""
    got = {(i["from"], i["to"]): i["amount"] for i in _items(rec, "hot_shot")}
    kind = w.last_kong_kind
    if not prof.hot_shot.transfer_kong or (kind == "exposed" and prof.dou.exposed_payer == "konger"):
        assert not got
        return
    assert kind is not None
    times = 1 if kind == "exposed" else len(rec["seats"]) - 1
    want = {(w.hot, s): times * prof.dou_value(kind) * rec["base"] for s, _, _ in w.wins}
    assert got == want, rec["game_id"]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_oracle_self_draw_and_readiness_gates(name: str) -> None:
    """R6.1: every other seat pays a self-draw alike; R11.7: where readiness is required, a seat that
    neither won nor is ready receives no chicken credits (the dou: test_oracle_dou_and_dealer_ledgers)."""
    for g in corpus(name):
        rec, w = g.record, walk(g.record)
        prof = _profile(rec)
        for seat, kind, _ in w.wins:
            if kind == "self_draw":
                amounts = [i["amount"] for i in _items(rec, "hand") if i["to"] == seat]
                assert len(amounts) == len(rec["seats"]) - 1 and len(set(amounts)) == 1, rec["game_id"]
        winners = {s for s, _, _ in w.wins}
        for s in range(len(rec["seats"])):
            if s in winners or _ready(w, s):
                continue
            if prof.chicken_requires_ready:
                assert not [i for i in _items(rec, "chicken") if i["to"] == s], rec["game_id"]


def _pair_sums(rec: dict[str, Any], kind: str) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = defaultdict(int)
    for i in _items(rec, kind):
        out[(i["from"], i["to"])] += i["amount"]
    return {k: v for k, v in out.items() if v}


def oracle_dou(rec: dict[str, Any], w: Walk, prof: Profile) -> dict[tuple[int, int], int]:
    """The dou ledger from the events and the rulebook's words alone, per (from, to), in points:
    R4.6 (first chance or late_kong_scores), R4.7 (payers; dou_requires_ready), R8.3 (burn all, or
    that_kong: the shooter's last kong, R16.4), R9.3 (a robbed kong does not stand; rob_kong_burn),
    R12.2 (nothing on a draw), R17.7 (倒赔), R18.2 (the konger pays an exposed kong; not in either
    direction when it does not score), R18.3 (`ever`: a seat that did not win passes when it was ready
    right after one of its own discards)."""
    out: dict[tuple[int, int], int] = defaultdict(int)
    if not w.wins:
        return {}
    n = len(rec["seats"])
    winners = {s for s, _, _ in w.wins}
    if prof.dou_requires_ready and prof.dou_ready_test == "ever":
        passing = winners | w.ever_ready
    else:
        passing = winners | {s for s in range(n) if _ready(w, s)}
    burned = _burned(w, prof)
    void = None
    if _hot_shot(w) and prof.hot_shot.burn == "that_kong":
        void = [k for k in w.kongs if k.seat == w.hot][-1]
    for k in w.kongs:
        if k.robbed or k is void or k.seat == burned or not (k.first or prof.late_kong_scores):
            continue
        value = prof.dou_value(k.kind) * rec["base"]
        payers = [k.src] if k.kind == "exposed" else [o for o in range(n) if o != k.seat]
        konger_pays = k.kind == "exposed" and prof.dou.exposed_payer == "konger"
        if not prof.dou_requires_ready or k.seat in passing:
            for p in payers:
                assert p is not None
                out[(k.seat, p) if konger_pays else (p, k.seat)] += value
        elif prof.dou_unready == "reverse" and not konger_pays:
            for p in payers:
                if p in passing:
                    out[(k.seat, p)] += value
    return {key: v for key, v in out.items() if v}


def oracle_dealer(rec: dict[str, Any], w: Walk, prof: Profile) -> dict[tuple[int, int], int]:
    """The dealer bonus ledger from the events alone (R6.4, R9.3's shares, R12.1's dealer_bonus_on_draw),
    with R18.1 (`dealer_wins`: only what the dealer receives; on a draw, as the ready seat)."""
    b = prof.dealer_bonus
    if b is None:
        return {}
    streak, dealer, n = rec["dealer_streak"], rec["dealer"], len(rec["seats"])
    bonus = (max(b.base, b.per_streak * streak) if b.mode == "max" else b.base + b.per_streak * streak) * rec["base"]
    out: dict[tuple[int, int], int] = defaultdict(int)

    def pay(payer: int, payee: int, times: int = 1) -> None:
        if b is not None and (b.on == "both" or payee == dealer):
            out[(payer, payee)] += bonus * times
    for seat, kind, src in w.wins:
        if kind == "self_draw":
            for o in range(n):
                if o != seat and dealer in (o, seat):
                    pay(o, seat)
        elif kind == "discard":
            assert src is not None
            if dealer in (src, seat):
                pay(src, seat)
        else:
            assert src is not None
            shares = sum(1 for o in range(n) if o != seat and dealer in (o, seat))
            if shares:
                pay(src, seat, shares)
    if not w.wins and prof.dealer_bonus_on_draw:
        ready = {s for s in range(n) if _ready(w, s)}
        if 0 < len(ready) < n:
            for payer in range(n):
                for payee in ready:
                    if payer not in ready and dealer in (payer, payee):
                        pay(payer, payee)
    return {key: v for key, v in out.items() if v}


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("kind", ["dou", "dealer"])
def test_oracle_dou_and_dealer_ledgers(name: str, kind: str) -> None:
    """Every record's dou (dealer) items, summed per (from, to), are what `oracle_dou` (`oracle_dealer`)
    reads from the events."""
    oracle = oracle_dou if kind == "dou" else oracle_dealer
    for g in corpus(name):
        rec, w = g.record, walk(g.record)
        assert _pair_sums(rec, kind) == oracle(rec, w, _profile(rec)), rec["game_id"]
